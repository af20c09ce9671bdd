//! Reading a Fairy-Stockfish variant file the way Fairy-Stockfish reads it: sections
//! `[name]` or `[name:parent]`, then `key = value` lines; a line starting with `#` or `;` is a
//! comment (there are no comments after a value); a key given twice keeps its last value.
//!
//! Owns: `IniSection`, `read_sections`, the malformed-file check.
//! Must not know: what a key means, Menagerie's variants.

use std::collections::BTreeMap;

/// One section as written: its header line and its keys (key -> (line, value), last one wins).
#[derive(Clone, Debug, Default)]
pub struct IniSection {
    pub name: String,
    pub parent: Option<String>,
    pub line: usize,
    pub keys: BTreeMap<String, (usize, String)>,
}

/// A line that is neither a header, a comment nor `key = value`: the file is not one Menagerie
/// reads (Fairy-Stockfish itself skips such lines; taking a file it half ignores would guess).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    pub line: usize,
    pub message: String,
}

/// The sections of `text`, in file order.
pub fn read_sections(text: &str) -> Result<Vec<IniSection>, Malformed> {
    let mut sections: Vec<IniSection> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let bad = |message: String| Malformed { line: line_no, message };
        if let Some(head) = line.strip_prefix('[') {
            let head = head.strip_suffix(']').ok_or_else(|| bad("section header without ']'".into()))?;
            let (name, parent) = match head.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                None => (head.trim(), None),
            };
            if name.is_empty() {
                return Err(bad("a section without a name".into()));
            }
            sections.push(IniSection { name: name.to_string(), parent, line: line_no, ..IniSection::default() });
            continue;
        }
        let (key, value) = line.split_once('=').ok_or_else(|| bad(format!("expected 'key = value', got '{line}'")))?;
        let section = sections.last_mut().ok_or_else(|| bad("key outside any [section]".into()))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(bad("a line without a key".into()));
        }
        section.keys.insert(key.to_string(), (line_no, value.trim().to_string()));
    }
    if sections.is_empty() {
        return Err(Malformed { line: 0, message: "no [section] in the file".into() });
    }
    Ok(sections)
}
