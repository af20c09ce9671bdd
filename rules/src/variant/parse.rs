//! The variant text format (see the header of `builtin.vars`): sections `[name]` or
//! `[name:parent]`, then `key = value` lines; `#` starts a comment. A child starts from a copy of
//! its parent's lines; its own lines replace the parent's keys (`piece` lines replace by letter).
//!
//! Owns: reading variant files into `Variant`s, with line-numbered errors.
//! Must not know: bitboards, positions.

use super::arrays::{ArrayRule, Permutations, MAX_PERMUTATIONS};
use super::{
    Candidate, CastlingRule, PieceDef, PieceKind, SetupForms, StalemateRule, StartRule, Substitution,
    TranspositionRule, Variant, MAX_KINDS,
};
use crate::betza;
use crate::geometry::Geometry;
use std::collections::BTreeMap;
use std::fmt;

/// An error in a variant file: the 1-based line and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "variant file line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for VariantError {}

/// One section as read: key -> (line, value); pieces by letter.
#[derive(Clone, Debug, Default)]
struct Section {
    name: String,
    line: usize,
    keys: BTreeMap<String, (usize, String)>,
    pieces: Vec<(char, usize, String)>,
    /// The section says `replace = yes`: it may take the name of a variant known before.
    replaces: bool,
}

/// Variant definitions as read from the text, before they are built: what a later file's
/// sections may inherit from.
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    sections: Vec<Section>,
}

impl Definitions {
    /// The names defined, in file order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.sections.iter().map(|s| s.name.as_str())
    }

    /// Whether the definition of `name` says `replace = yes`.
    pub fn replaces(&self, name: &str) -> bool {
        self.sections.iter().any(|s| s.name == name && s.replaces)
    }

    /// The line of the section header of `name`.
    pub fn line_of(&self, name: &str) -> Option<usize> {
        self.sections.iter().find(|s| s.name == name).map(|s| s.line)
    }

    /// These definitions, then `later` in place of any of the same name.
    pub fn merged(&self, later: &Definitions) -> Definitions {
        let mut sections: Vec<Section> =
            self.sections.iter().filter(|s| !later.sections.iter().any(|l| l.name == s.name)).cloned().collect();
        sections.extend(later.sections.iter().cloned());
        Definitions { sections }
    }

    /// Build every variant defined.
    pub fn build(&self) -> Result<Vec<Variant>, VariantError> {
        self.sections.iter().map(build).collect()
    }
}

/// Parse every section of a variant file into variants.
pub fn parse_variants(text: &str) -> Result<Vec<Variant>, VariantError> {
    read_definitions(text, &Definitions::default())?.build()
}

/// Read the sections of a variant file; a parent is looked for among the file's earlier sections,
/// then among `known`.
pub fn read_definitions(text: &str, known: &Definitions) -> Result<Definitions, VariantError> {
    let mut sections: Vec<Section> = Vec::new();
    // Letters given a piece line in the current section itself (not inherited).
    let mut own_letters: Vec<char> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let err = |m: String| VariantError { line: line_no, message: m };
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix('[') {
            let head = head.strip_suffix(']').ok_or_else(|| err("section header without ']'".into()))?;
            let (name, parent) = match head.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim())),
                None => (head.trim(), None),
            };
            if name.is_empty()
                || name.len() > MAX_NAME_LEN
                || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_+".contains(c))
            {
                return Err(err(format!(
                    "bad variant name '{name}' (letters, digits, '-', '_', '+'; at most {MAX_NAME_LEN})"
                )));
            }
            if sections.iter().any(|s| s.name == name) {
                return Err(err(format!("variant '{name}' defined twice")));
            }
            let mut section = match parent {
                Some(p) => sections
                    .iter()
                    .rev()
                    .chain(known.sections.iter().rev())
                    .find(|s| s.name == p)
                    .cloned()
                    .ok_or_else(|| err(format!("unknown parent variant '{p}'")))?,
                None => Section::default(),
            };
            section.name = name.to_string();
            section.line = line_no;
            // An inherited line may come from another file: its errors are the header's.
            section.keys.values_mut().for_each(|(line, _)| *line = line_no);
            section.pieces.iter_mut().for_each(|(_, line, _)| *line = line_no);
            section.replaces = false;
            sections.push(section);
            own_letters.clear();
            continue;
        }
        let section = sections.last_mut().ok_or_else(|| err("key outside any [section]".into()))?;
        let (key, value) = line.split_once('=').ok_or_else(|| err(format!("expected 'key = value', got '{line}'")))?;
        let key = key.trim();
        let value = value.trim().to_string();
        match key {
            "piece" => {
                let letter = value
                    .chars()
                    .next()
                    .filter(|c| c.is_ascii_uppercase())
                    .ok_or_else(|| err(format!("a piece line starts with an upper-case letter, got '{value}'")))?;
                if own_letters.contains(&letter) {
                    return Err(err(format!("piece letter '{letter}' used twice")));
                }
                own_letters.push(letter);
                section.pieces.retain(|(l, _, _)| *l != letter);
                section.pieces.push((letter, line_no, value));
            }
            "no-piece" => {
                let letter = value.chars().next().unwrap_or(' ');
                section.pieces.retain(|(l, _, _)| *l != letter);
            }
            "replace" => {
                section.replaces = match value.as_str() {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(err(format!("'replace' is yes or no, not '{value}'"))),
                };
            }
            _ => {
                section.keys.insert(key.to_string(), (line_no, value));
            }
        }
    }
    Ok(Definitions { sections })
}

/// The keys a section sets once each: a later line, or the section's own over its parent's,
/// replaces the value.
pub const SECTION_KEYS: [&str; 23] = [
    "board",
    "double-step",
    "promotion",
    "promotion-if-absent",
    "promotion-from-initial-array",
    "promotion-once",
    "castling",
    "castling-between-safe",
    "drops",
    "captures-to-hand",
    "stalemate",
    "start-template",
    "start",
    "transposition",
    "relocation",
    "short-list",
    "start-default",
    "form-slots",
    "form-general",
    "form-restricted",
    "form-bases",
    "form-dedup",
    "form-clash",
];

/// The keys a section may give on many lines: `piece` and `no-piece` add or take away one
/// piece by letter, `replace` says whether the section replaces a variant of its name.
pub const LINE_KEYS: [&str; 3] = ["piece", "no-piece", "replace"];

/// The longest variant name accepted.
pub const MAX_NAME_LEN: usize = 40;

fn build(s: &Section) -> Result<Variant, VariantError> {
    let get = |key: &str| -> Result<(usize, &str), VariantError> {
        s.keys
            .get(key)
            .map(|(l, v)| (*l, v.as_str()))
            .ok_or_else(|| VariantError { line: s.line, message: format!("variant '{}' lacks '{key}'", s.name) })
    };
    for (k, (line, _)) in &s.keys {
        if !SECTION_KEYS.contains(&k.as_str()) {
            return Err(VariantError { line: *line, message: format!("unknown key '{k}'") });
        }
    }

    let (line, board) = get("board")?;
    let geometry = board
        .split_once('x')
        .and_then(|(f, r)| Some((f.trim().parse::<u8>().ok()?, r.trim().parse::<u8>().ok()?)))
        .and_then(|(f, r)| Geometry::new(f, r))
        .ok_or_else(|| VariantError {
            line,
            message: format!("bad board '{board}' (FILESxRANKS, at most 128 squares)"),
        })?;

    let mut pieces = Vec::new();
    for (letter, line, text) in &s.pieces {
        let e = |m: String| VariantError { line: *line, message: m };
        let mut words = text.split_whitespace();
        words.next();
        let name = words.next().ok_or_else(|| e("piece line lacks a name".into()))?.to_string();
        let betza_text = words.next().ok_or_else(|| e("piece line lacks a Betza move".into()))?.to_string();
        let steps = betza::parse(&betza_text).map_err(|b| e(b.to_string()))?;
        let mut def = PieceDef {
            letter: *letter,
            name,
            betza: betza_text,
            steps,
            royal: false,
            pawn: false,
            castling_rook: false,
            value: None,
            xboard_image: None,
        };
        for flag in words {
            match flag {
                "royal" => def.royal = true,
                "pawn" => def.pawn = true,
                "castling-rook" => def.castling_rook = true,
                _ if flag.starts_with("xboard-image=") => {
                    let mut letter = flag["xboard-image=".len()..].chars();
                    match (letter.next(), letter.next()) {
                        (Some(c), None) if c.is_ascii_alphabetic() => def.xboard_image = Some(c.to_ascii_uppercase()),
                        _ => return Err(e(format!("bad piece flag '{flag}' (xboard-image=LETTER)"))),
                    }
                }
                _ => match flag.strip_prefix("value=").map(str::parse::<i32>) {
                    Some(Ok(v)) => def.value = Some(v),
                    _ => return Err(e(format!("unknown piece flag '{flag}'"))),
                },
            }
        }
        pieces.push(def);
    }
    if pieces.len() > MAX_KINDS {
        return Err(VariantError { line: s.line, message: format!("more than {MAX_KINDS} piece types") });
    }
    if pieces.iter().filter(|p| p.royal).count() != 1 {
        return Err(VariantError { line: s.line, message: "exactly one piece type must be royal".into() });
    }
    let kind = |line: usize, letter: &str| -> Result<PieceKind, VariantError> {
        let mut chars = letter.chars();
        let c = chars.next().unwrap_or(' ');
        pieces
            .iter()
            .position(|p| p.letter == c && chars.next().is_none())
            .ok_or_else(|| VariantError { line, message: format!("no piece type '{letter}'") })
    };
    let kinds = |key: &str| -> Result<Vec<PieceKind>, VariantError> {
        match s.keys.get(key) {
            None => Ok(Vec::new()),
            Some((line, v)) => v.split_whitespace().map(|w| kind(*line, w)).collect(),
        }
    };
    let yes_no = |key: &str| -> Result<bool, VariantError> {
        match s.keys.get(key) {
            None => Ok(false),
            Some((_, v)) if v == "yes" => Ok(true),
            Some((_, v)) if v == "no" => Ok(false),
            Some((line, v)) => Err(VariantError { line: *line, message: format!("'{key}' is yes or no, not '{v}'") }),
        }
    };

    let double_step = match s.keys.get("double-step") {
        None => None,
        Some((_, v)) if v == "none" => None,
        Some((line, v)) => Some(
            v.parse::<u8>()
                .map_err(|_| VariantError { line: *line, message: format!("bad double-step rank '{v}'") })?,
        ),
    };

    let (line, castling_text) = get("castling")?;
    let cerr = || VariantError { line, message: format!("bad castling '{castling_text}'") };
    let words: Vec<&str> = castling_text.split_whitespace().collect();
    let file_of = |w: &str| -> Option<u8> {
        let c = w.chars().next()?;
        let f = (c as u8).checked_sub(b'a')?;
        (w.len() == 1 && f < geometry.files).then_some(f)
    };
    let castling = match words.as_slice() {
        ["none"] => CastlingRule::None,
        ["fixed", qk, qr, kk, kr] => CastlingRule::Fixed {
            queen_side_king: file_of(qk).ok_or_else(cerr)?,
            queen_side_rook: file_of(qr).ok_or_else(cerr)?,
            king_side_king: file_of(kk).ok_or_else(cerr)?,
            king_side_rook: file_of(kr).ok_or_else(cerr)?,
        },
        ["free", n] => CastlingRule::Free { max_steps: n.parse().map_err(|_| cerr())? },
        _ => return Err(cerr()),
    };
    if castling != CastlingRule::None && !pieces.iter().any(|p| p.castling_rook) {
        return Err(VariantError { line, message: "castling needs a piece type marked castling-rook".into() });
    }

    let (line, stalemate_text) = get("stalemate")?;
    let stalemate = match stalemate_text.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["draw"] => StalemateRule::Draw,
        ["win", cp] => StalemateRule::WinForStalemater {
            score_cp: cp.parse().map_err(|_| VariantError { line, message: format!("bad stalemate score '{cp}'") })?,
        },
        _ => return Err(VariantError { line, message: format!("bad stalemate rule '{stalemate_text}'") }),
    };

    let (_, start_template) = get("start-template")?;
    let (line, start_text) = get("start")?;
    let serr = |m: &str| VariantError { line, message: format!("bad start rule '{start_text}': {m}") };
    let start = if let Some(rest) = start_text.strip_prefix("fens ") {
        StartRule::Fens(rest.split(';').map(|f| f.trim().to_string()).collect())
    } else if let Some(rest) = start_text.strip_prefix("fen ") {
        StartRule::Fens(vec![rest.trim().to_string()])
    } else if let Some((mirrored, rest)) = start_text
        .strip_prefix("arrays ")
        .map(|r| (false, r))
        .or_else(|| start_text.strip_prefix("mirrored-arrays ").map(|r| (true, r)))
    {
        let arrays: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
        for a in &arrays {
            if a.chars().count() != geometry.files as usize {
                return Err(serr("an array must fill the back rank"));
            }
            for c in a.chars() {
                kind(line, &c.to_string())?;
            }
        }
        if mirrored {
            StartRule::MirroredArrays(arrays)
        } else {
            StartRule::Arrays(arrays)
        }
    } else if let Some(rest) = start_text.strip_prefix("shuffle960 ") {
        if geometry.files != 8 {
            return Err(serr("shuffle960 needs 8 files"));
        }
        let mut words = rest.split_whitespace();
        match words.next() {
            Some("mirrored") => {
                let mut sets = Vec::new();
                if let Some(w) = words.next() {
                    let list = w.strip_prefix("sets=").ok_or_else(|| serr("expected sets=..."))?;
                    for pair in list.split(',') {
                        let (b, h) = pair.split_once('/').ok_or_else(|| serr("a set is BOARD/HAND"))?;
                        kind(line, b)?;
                        kind(line, h)?;
                        sets.push((b.chars().next().unwrap_or('Q'), h.chars().next().unwrap_or('Q')));
                    }
                }
                StartRule::Shuffle960Mirrored { sets }
            }
            Some("per-side") => {
                let w =
                    words.next().and_then(|w| w.strip_prefix("tails=")).ok_or_else(|| serr("expected tails=..."))?;
                let tails: Vec<String> = w.split(',').map(str::to_string).collect();
                if tails.iter().any(|t| t.len() != 3) {
                    return Err(serr("a tail orders three pieces"));
                }
                StartRule::Shuffle960PerSide { tails }
            }
            _ => return Err(serr("expected mirrored or per-side")),
        }
    } else if let Some(rest) = start_text.strip_prefix("permutations ") {
        let mut words = rest.split_whitespace();
        let pieces = words.next().unwrap_or("");
        if pieces.chars().count() != geometry.files as usize {
            return Err(serr("the pieces must fill the back rank"));
        }
        for c in pieces.chars() {
            kind(line, &c.to_string())?;
        }
        let mut rules = Vec::new();
        for w in words {
            let pair = |text: &str| -> Result<(char, char), VariantError> {
                let (a, b) = text.split_once(',').ok_or_else(|| serr("a rule names two letters: X,Y"))?;
                kind(line, a)?;
                kind(line, b)?;
                Ok((a.chars().next().unwrap_or(' '), b.chars().next().unwrap_or(' ')))
            };
            rules.push(if let Some(p) = w.strip_prefix("opposite-colours=") {
                let (a, b) = pair(p)?;
                ArrayRule::OppositeColours(a, b)
            } else if let Some(p) = w.strip_prefix("between=") {
                let (a, b) = pair(p)?;
                ArrayRule::Between(a, b)
            } else if w == "pawns-defended" {
                ArrayRule::PawnsDefended
            } else {
                return Err(serr(&format!("unknown rule '{w}'")));
            });
        }
        let p = Permutations::new(pieces, rules)
            .ok_or_else(|| serr(&format!("more than {MAX_PERMUTATIONS} arrangements to look through")))?;
        StartRule::Permutations(p)
    } else {
        return Err(serr("unknown kind"));
    };

    let (line, t) = get("transposition")?;
    let transposition = match t {
        "none" => TranspositionRule::None,
        "swap-two keep-bishop-colours" => TranspositionRule::SwapTwoKeepBishopColours,
        _ => return Err(VariantError { line, message: format!("bad transposition '{t}'") }),
    };
    let (line, r) = get("relocation")?;
    let mut relocation = Vec::new();
    if r != "none" {
        for w in r.split_whitespace() {
            let (l, f) =
                w.split_once(':').ok_or_else(|| VariantError { line, message: format!("bad relocation '{w}'") })?;
            let file =
                file_of(f).ok_or_else(|| VariantError { line, message: format!("bad relocation file '{f}'") })?;
            relocation.push((kind(line, l)?, file));
        }
    }

    let forms = match s.keys.get("form-slots") {
        None => None,
        Some(_) => Some(parse_forms(s, &pieces)?),
    };
    let short_list = match s.keys.get("short-list") {
        None => None,
        Some((line, v)) => {
            Some(v.parse::<u32>().map_err(|_| VariantError { line: *line, message: format!("bad short-list '{v}'") })?)
        }
    };

    let start_default = match s.keys.get("start-default") {
        None => 0,
        Some((line, v)) => {
            v.parse::<u64>().map_err(|_| VariantError { line: *line, message: format!("bad start-default '{v}'") })?
        }
    };

    Ok(Variant {
        start_default,
        forms,
        short_list,
        name: s.name.clone(),
        geometry,
        double_step,
        promotion: kinds("promotion")?,
        promotion_if_absent: kinds("promotion-if-absent")?,
        promotion_from_initial_array: yes_no("promotion-from-initial-array")?,
        promotion_once: yes_no("promotion-once")?,
        castling,
        castling_between_safe: yes_no("castling-between-safe")?,
        drops: yes_no("drops")?,
        captures_to_hand: yes_no("captures-to-hand")?,
        stalemate,
        start_template: start_template.to_string(),
        start,
        transposition,
        relocation,
        pieces,
    })
}

fn parse_forms(s: &Section, pieces: &[PieceDef]) -> Result<SetupForms, VariantError> {
    let get = |key: &str| -> Result<(usize, &str), VariantError> {
        s.keys
            .get(key)
            .map(|(l, v)| (*l, v.as_str()))
            .ok_or_else(|| VariantError { line: s.line, message: format!("setup forms need '{key}'") })
    };
    let letter = |line: usize, c: char| -> Result<char, VariantError> {
        if pieces.iter().any(|p| p.letter == c) {
            Ok(c)
        } else {
            Err(VariantError { line, message: format!("no piece type '{c}'") })
        }
    };
    let candidate = |line: usize, text: &str| -> Result<Candidate, VariantError> {
        let (l, variant) = match text.split_once('/') {
            Some((l, v)) => (l, Some(v.to_string())),
            None => (text, None),
        };
        let mut chars = l.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(Candidate { letter: letter(line, c)?, variant }),
            _ => Err(VariantError { line, message: format!("bad candidate '{text}'") }),
        }
    };
    let (line, slots_text) = get("form-slots")?;
    let mut slots = Vec::new();
    for w in slots_text.split_whitespace() {
        let (l, files) = w.split_once(':').ok_or_else(|| VariantError { line, message: format!("bad slot '{w}'") })?;
        let c = letter(line, l.chars().next().unwrap_or(' '))?;
        let files = files
            .split(',')
            .map(|f| f.bytes().next().and_then(|b| b.checked_sub(b'a')).filter(|_| f.len() == 1))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(|| VariantError { line, message: format!("bad slot files '{w}'") })?;
        slots.push((c, files));
    }
    let slot_of = |line: usize, c: char| {
        slots.iter().position(|(l, _)| *l == c).ok_or_else(|| VariantError { line, message: format!("no slot '{c}'") })
    };
    let substitution = |line: usize, w: &str| -> Result<Substitution, VariantError> {
        let (sl, cand) =
            w.split_once(':').ok_or_else(|| VariantError { line, message: format!("bad substitution '{w}'") })?;
        Ok((slot_of(line, sl.chars().next().unwrap_or(' '))?, candidate(line, cand)?))
    };
    let (line, general_text) = get("form-general")?;
    let mut general = vec![Vec::new(); slots.len()];
    for w in general_text.split_whitespace() {
        let (sl, list) =
            w.split_once(':').ok_or_else(|| VariantError { line, message: format!("bad choice list '{w}'") })?;
        let i = slot_of(line, sl.chars().next().unwrap_or(' '))?;
        general[i] = list.split(',').map(|c| candidate(line, c)).collect::<Result<_, _>>()?;
    }
    let (line, restricted_text) = get("form-restricted")?;
    let restricted = restricted_text
        .split_whitespace()
        .map(|w| if w == "-" { Ok(None) } else { substitution(line, w).map(Some) })
        .collect::<Result<Vec<_>, _>>()?;
    let (_, bases_text) = get("form-bases")?;
    let bases = bases_text.split_whitespace().map(str::to_string).collect();
    let dedup = match s.keys.get("form-dedup") {
        None => None,
        Some((line, w)) => Some(substitution(*line, w)?),
    };
    let (line, clash_text) = get("form-clash")?;
    let clash = clash_text
        .split_whitespace()
        .map(|w| {
            let mut c = w.chars();
            match (c.next(), c.next(), c.next(), c.next()) {
                (Some(a), Some(':'), Some(b), None) => Ok((letter(line, a)?, letter(line, b)?)),
                _ => Err(VariantError { line, message: format!("bad clash '{w}'") }),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SetupForms { slots, general, restricted, bases, dedup, clash })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "[base]\nboard = 8x8\npiece = K king K royal\npiece = P pawn fmWfcF pawn\ncastling = none\nstalemate = draw\nstart-template = x\nstart = fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\ntransposition = none\nrelocation = none\n";

    #[test]
    fn inheritance_replaces_keys_and_pieces() {
        let text = format!("{BASE}[child:base]\nboard = 10x8\npiece = P pawn fmW pawn\npiece = A archbishop BN\n");
        let v = parse_variants(&text).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].geometry, Geometry::new(10, 8).unwrap());
        assert_eq!(v[1].pieces.len(), 3);
        assert_eq!(v[1].pieces[1].steps.len(), 1);
        assert_eq!(v[0].pieces[1].steps.len(), 3);
    }

    #[test]
    fn errors_carry_line_numbers() {
        let e = parse_variants(&format!("{BASE}[c:base]\nboard = 20x20\n")).unwrap_err();
        assert_eq!(e.line, 12);
        let e = parse_variants("[a:nothing]\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_variants(&format!("{BASE}[c:base]\npiece = Q queen Qx\n")).unwrap_err();
        assert_eq!(e.line, 12);
        assert!(e.message.contains("Betza"));
        let e = parse_variants(&format!("{BASE}[c:base]\nwhatever = 1\n")).unwrap_err();
        assert_eq!(e.line, 12);
        assert!(parse_variants("board = 8x8\n").is_err());
    }
}
