//! The little JSON the tools read and write (the tuner's state file, the balance study's game
//! file and report): objects, arrays, strings, numbers, booleans and null, read into a tree and
//! written back; no dependency. Numbers keep their text, so that a 64-bit seed or a float
//! written with Rust's shortest round-trip form reads back bit for bit.
//!
//! Owns: `Json`, `parse`, `JsonError`, the text of a value (`Display`).
//! Must not know: what the files hold.

use std::fmt;

/// A JSON value. Object members keep their order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// The number's text, as written.
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Where and why a text is not JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Byte offset of the trouble.
    pub at: usize,
    pub why: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.why, self.at)
    }
}

impl std::error::Error for JsonError {}

impl Json {
    /// An object from key-value pairs.
    pub fn object<'a>(pairs: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// A number from anything that prints as one (integers, and floats in their shortest
    /// round-trip form).
    pub fn number(n: impl fmt::Display) -> Json {
        Json::Number(n.to_string())
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(t) => t.parse().ok(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(t) => t.parse().ok(),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// A measured quantity: whole where it is, else with up to 6 decimals; one that is not finite
/// is `null`.
impl From<f64> for Json {
    fn from(x: f64) -> Json {
        if !x.is_finite() {
            Json::Null
        } else if x.fract() == 0.0 && x.abs() < 1e15 {
            Json::number(x as i64)
        } else {
            Json::Number(format!("{x:.6}").trim_end_matches('0').to_string())
        }
    }
}

impl From<u64> for Json {
    fn from(x: u64) -> Json {
        Json::number(x)
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            '\r' => f.write_str("\\r")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

impl Json {
    /// The text with the members and items of the outer `levels` levels one a line (indented
    /// by two blanks a level) and the values below them compact: a state file easy to read
    /// and to diff.
    pub fn pretty(&self, levels: usize) -> String {
        let mut out = String::new();
        self.write_pretty(&mut out, levels, 0);
        out
    }

    fn write_pretty(&self, out: &mut String, levels: usize, depth: usize) {
        let indent = |n: usize| "  ".repeat(n);
        match self {
            Json::Array(items) if depth < levels && !items.is_empty() => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str(&indent(depth + 1));
                    item.write_pretty(out, levels, depth + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&indent(depth));
                out.push(']');
            }
            Json::Object(members) if depth < levels && !members.is_empty() => {
                out.push_str("{\n");
                for (i, (k, v)) in members.iter().enumerate() {
                    out.push_str(&indent(depth + 1));
                    out.push_str(&format!("{}: ", Json::String(k.clone())));
                    v.write_pretty(out, levels, depth + 1);
                    out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
                }
                out.push_str(&indent(depth));
                out.push('}');
            }
            other => out.push_str(&other.to_string()),
        }
    }
}

impl fmt::Display for Json {
    /// Compact, on one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Number(t) => f.write_str(t),
            Json::String(s) => write_string(f, s),
            Json::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Json::Object(members) => {
                f.write_str("{")?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_string(f, k)?;
                    write!(f, ": {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Read a whole text as one JSON value (blanks around it allowed).
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser { bytes: text.as_bytes(), at: 0 };
    let value = p.value(0)?;
    p.blanks();
    if p.at != p.bytes.len() {
        return Err(p.error("text after the value"));
    }
    Ok(value)
}

/// Nesting deeper than this is refused rather than overflowing the stack.
const MAX_DEPTH: usize = 64;

struct Parser<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, why: &str) -> JsonError {
        JsonError { at: self.at, why: why.to_string() }
    }

    fn blanks(&mut self) {
        while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.blanks();
        if self.bytes.get(self.at) == Some(&b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("unknown word"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deep"));
        }
        self.blanks();
        match self.bytes.get(self.at) {
            None => Err(self.error("the text ends before the value")),
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                if self.eat(b'}') {
                    return Ok(Json::Object(members));
                }
                loop {
                    self.blanks();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return Err(self.error("expected ':'"));
                    }
                    members.push((key, self.value(depth + 1)?));
                    if self.eat(b'}') {
                        return Ok(Json::Object(members));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected ',' or '}'"));
                    }
                }
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected ',' or ']'"));
                    }
                }
            }
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(_) => self.number(),
        }
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(|b| b.is_ascii_digit() || b"+-.eE".contains(b)) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
        if text.parse::<f64>().is_err() {
            self.at = start;
            return Err(self.error("expected a value"));
        }
        Ok(Json::Number(text.to_string()))
    }

    fn string(&mut self) -> Result<String, JsonError> {
        if self.bytes.get(self.at) != Some(&b'"') {
            return Err(self.error("expected a string"));
        }
        self.at += 1;
        let mut out = Vec::new();
        loop {
            match self.bytes.get(self.at) {
                None => return Err(self.error("the text ends inside a string")),
                Some(b'"') => {
                    self.at += 1;
                    return String::from_utf8(out).map_err(|_| self.error("a string that is not UTF-8"));
                }
                Some(b'\\') => {
                    let escaped = self.bytes.get(self.at + 1).copied();
                    self.at += 2;
                    match escaped {
                        Some(b'"') => out.push(b'"'),
                        Some(b'\\') => out.push(b'\\'),
                        Some(b'/') => out.push(b'/'),
                        Some(b'n') => out.push(b'\n'),
                        Some(b't') => out.push(b'\t'),
                        Some(b'r') => out.push(b'\r'),
                        Some(b'u') => {
                            let hex = self.bytes.get(self.at..self.at + 4).and_then(|h| std::str::from_utf8(h).ok());
                            let c = hex.and_then(|h| u32::from_str_radix(h, 16).ok()).and_then(char::from_u32);
                            let c = c.ok_or_else(|| self.error("a bad \\u escape"))?;
                            self.at += 4;
                            out.extend_from_slice(c.to_string().as_bytes());
                        }
                        _ => return Err(self.error("a bad escape")),
                    }
                }
                Some(&b) => {
                    out.push(b);
                    self.at += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_values_read_back_as_written() {
        let v = Json::object([
            ("a", Json::from(3u64)),
            ("b", Json::from(-0.25)),
            ("s", Json::from("q\"u\\o\nte é")),
            ("l", Json::Array(vec![Json::Null, Json::Bool(true), Json::Array(vec![])])),
            ("o", Json::Object(vec![])),
            ("n", Json::from(f64::NAN)),
        ]);
        let text = v.to_string();
        assert_eq!(text, r#"{"a": 3, "b": -0.25, "s": "q\"u\\o\nte é", "l": [null, true, []], "o": {}, "n": null}"#);
        let back = parse(&text).unwrap();
        assert_eq!(back.get("b").and_then(Json::as_f64), Some(-0.25));
        assert_eq!(back.get("a").and_then(Json::as_u64), Some(3));
        assert_eq!(back.get("s").and_then(Json::as_str), Some("q\"u\\o\nte é"));
        assert_eq!(back.to_string(), text);
    }

    #[test]
    fn torn_or_trailing_text_is_no_json() {
        assert!(parse(r#"{"a":3,"b":[1,2"#).is_err());
        assert!(parse(r#"{"a":3} x"#).is_err());
        assert!(parse("").is_err());
        let read = parse(" [1e3, \"\\u0041\"] ").unwrap();
        let items = read.as_array().unwrap();
        assert_eq!((items[0].as_f64(), items[1].as_str()), (Some(1000.0), Some("A")));
    }

    #[test]
    fn a_value_reads_back_as_written() {
        let v = Json::Object(vec![
            ("seed".into(), Json::number(u64::MAX)),
            ("theta".into(), Json::Array(vec![Json::number(0.1 + 0.2), Json::number(-3.5e-7)])),
            ("name".into(), Json::String("a \"b\"\n\\c".into())),
            ("ok".into(), Json::Bool(true)),
            ("none".into(), Json::Null),
            ("empty".into(), Json::Object(vec![])),
        ]);
        let back = parse(&v.to_string()).unwrap();
        assert_eq!(back, v);
        assert_eq!(parse(&v.pretty(2)).unwrap(), v);
        assert!(v.pretty(1).lines().count() > 6, "{}", v.pretty(1));
        assert_eq!(back.get("seed").and_then(Json::as_u64), Some(u64::MAX));
        assert_eq!(back.get("theta").and_then(Json::as_array).unwrap()[0].as_f64(), Some(0.1 + 0.2));
    }

    #[test]
    fn a_cut_or_damaged_text_is_refused() {
        let text = r#"{"a": [1, 2, {"b": "c"}], "d": 1.5}"#;
        assert!(parse(text).is_ok());
        for cut in 1..text.len() {
            assert!(parse(&text[..cut]).is_err(), "{}", &text[..cut]);
        }
        for bad in ["", "{\"a\" 1}", "[1 2]", "{\"a\": tru}", "\"x", "{} {}", "[-]"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
