"""The games of a PGN file as the match runners write it (`menagerie match --pgn`,
cutechess-cli), shared by the PGN scripts: each game's tags and its movetext on one line."""
import re


def games(text):
    """(tags, movetext) for each game, the movetext's whitespace collapsed to single spaces."""
    for chunk in text.split("[Event ")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        yield tags, re.sub(r"\s+", " ", body)
