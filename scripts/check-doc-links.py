#!/usr/bin/env python3
"""Checks every relative link of the repository's Markdown files: the file must exist and, where
the link names a section (#anchor), the section must exist (GitHub's heading slugs). Also refuses
links into ../shared, which only the project's own machines have.

  scripts/check-doc-links.py        exit status 1 and one line per broken link
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, counts = set(), {}
    fence = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            m = re.match(r"^(#+)\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", lambda g: g.group(1) or "", m.group(2)))
                n = counts.get(s, 0)
                counts[s] = n + 1
                found.add(s if n == 0 else f"{s}-{n}")
    return found


def main():
    files = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True)
    broken = []
    for rel in files.stdout.split():
        path = os.path.join(ROOT, rel)
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if "../shared" in target or not dest.startswith(ROOT):
                broken.append(f"{rel}: {target}: outside the repository")
            elif not os.path.exists(dest):
                broken.append(f"{rel}: {target}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                broken.append(f"{rel}: {target}: no such section")
    for line in broken:
        print(line)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
