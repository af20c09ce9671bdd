//! The little JSON the balance study reads and writes: one game a line in its game file, and
//! the report of `--json`. Enough of JSON for that: objects, arrays, strings, numbers, booleans
//! and null; no dependency.
//!
//! Owns: `Json`, its text form (`Display`) and its parser (`parse`).
//! Must not know: games, statistics.

use std::fmt;

/// A JSON value. Objects keep their keys in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object from key-value pairs.
    pub fn object<'a>(pairs: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
        Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// The value of `key` in an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(x) => Some(*x),
            _ => None,
        }
    }

    /// A whole number that fits `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_f64().filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x < 1.8e19).map(|x| x as u64)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }
}

impl From<f64> for Json {
    fn from(x: f64) -> Json {
        Json::Number(x)
    }
}

impl From<u64> for Json {
    fn from(x: u64) -> Json {
        Json::Number(x as f64)
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::Str(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::Str(s)
    }
}

fn write_str(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
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

/// Compact JSON on one line; numbers whole where they are, else with up to 6 decimals; a
/// number that is not finite as `null`.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Number(x) if !x.is_finite() => f.write_str("null"),
            Json::Number(x) if x.fract() == 0.0 && x.abs() < 1e15 => write!(f, "{}", *x as i64),
            Json::Number(x) => {
                let text = format!("{x:.6}");
                f.write_str(text.trim_end_matches('0'))
            }
            Json::Str(s) => write_str(f, s),
            Json::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Json::Object(pairs) => {
                f.write_str("{")?;
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_str(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Why a text is not JSON: the byte offset where reading stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub offset: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not JSON at byte {}", self.offset)
    }
}

impl std::error::Error for JsonError {}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn fail<T>(&self) -> Result<T, JsonError> {
        Err(JsonError { offset: self.at })
    }

    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_space();
        let found = self.text.get(self.at) == Some(&c);
        if found {
            self.at += 1;
        }
        found
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            self.fail()
        }
    }

    fn value(&mut self) -> Result<Json, JsonError> {
        self.skip_space();
        match self.text.get(self.at) {
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    if self.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    if !self.eat(b',') {
                        return self.fail();
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut pairs = Vec::new();
                if self.eat(b'}') {
                    return Ok(Json::Object(pairs));
                }
                loop {
                    self.skip_space();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return self.fail();
                    }
                    pairs.push((key, self.value()?));
                    if self.eat(b'}') {
                        return Ok(Json::Object(pairs));
                    }
                    if !self.eat(b',') {
                        return self.fail();
                    }
                }
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.at;
                while self.text.get(self.at).is_some_and(|c| b"+-.eE".contains(c) || c.is_ascii_digit()) {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.text[start..self.at]).map_err(|_| JsonError { offset: start })?;
                text.parse().map(Json::Number).map_err(|_| JsonError { offset: start })
            }
            _ => self.fail(),
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        if self.text.get(self.at) != Some(&b'"') {
            return self.fail();
        }
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.text.get(self.at) else { return self.fail() };
            self.at += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.text.get(self.at) else { return self.fail() };
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.text.get(self.at..self.at + 4).ok_or(JsonError { offset: self.at })?;
                            let code = std::str::from_utf8(hex)
                                .ok()
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .and_then(char::from_u32)
                                .ok_or(JsonError { offset: self.at })?;
                            self.at += 4;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(code.encode_utf8(&mut buf).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| JsonError { offset: self.at })
    }
}

/// Read one JSON value that makes up the whole text.
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut r = Reader { text: text.as_bytes(), at: 0 };
    let v = r.value()?;
    r.skip_space();
    if r.at != text.len() {
        return r.fail();
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_as_written() {
        let v = Json::object([
            ("a", Json::from(3u64)),
            ("b", Json::from(-0.25)),
            ("s", Json::from("q\"u\\o\nte é")),
            ("l", Json::Array(vec![Json::Null, Json::Bool(true), Json::Array(vec![])])),
            ("o", Json::Object(vec![])),
        ]);
        let text = v.to_string();
        assert_eq!(text, r#"{"a":3,"b":-0.25,"s":"q\"u\\o\nte é","l":[null,true,[]],"o":{}}"#);
        assert_eq!(parse(&text), Ok(v));
    }

    #[test]
    fn torn_or_trailing_text_is_no_json() {
        assert!(parse(r#"{"a":3,"b":[1,2"#).is_err());
        assert!(parse(r#"{"a":3} x"#).is_err());
        assert!(parse("").is_err());
        assert_eq!(parse(" [1e3, \"\\u0041\"] ").unwrap(), Json::Array(vec![Json::from(1000.0), Json::from("A")]));
    }
}
