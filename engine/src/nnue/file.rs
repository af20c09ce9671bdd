//! The network file: a versioned header that names the input layout in words, the weights as
//! little-endian integers, and a checksum of everything before it, so that a network is never
//! applied to a variant it was not made for and a damaged file is refused, not half-read.
//!
//! ```text
//! "MENAGNN" VERSION(u8) HEADER_LEN(u32) HEADER(UTF-8 lines)
//! input weights (inputs x hidden, i16) input bias (hidden, i16)
//! output weights (buckets x 2 x hidden, i16) output biases (buckets x i32)
//! FNV-1a-64 of all the above (u64)
//! ```
//! The header's lines: `board FILESxRANKS`, `hand MAX`, `hidden N`, then one `kind LETTER BETZA
//! [royal] [pawn]` per input kind, in input order, `output correction LIMIT` for a network
//! whose output is added to the hand-written evaluation, bent into LIMIT centipawns either way,
//! `output buckets B` for a network with B output layers chosen by material (one when the
//! line is absent), and `king buckets K` for inputs copied for K regions of the king (one when
//! absent); other lines start with `#` (how it was made).
//!
//! Owns: reading and writing network files, `NetFileError`.
//! Must not know: the search, protocols, how a network was trained.

use super::aligned::AlignedI16s;
use super::layout::{InputLayout, LayoutKind, KING_BUCKET_CHOICES, MAX_LAYOUT_KINDS};
use super::network::{Network, WIDTHS};
use menagerie_rules::geometry::Geometry;
use std::fmt;

const MAGIC: &[u8; 7] = b"MENAGNN";
/// Version 2: output weights at the scale `QB` = 1024 (version 1 had 64).
pub const VERSION: u8 = 2;
/// Large enough for any network of this design (a 12x10 board, 64 kinds, 1024 neurons is
/// about 65 MB); a larger file is refused before it is read.
pub const MAX_FILE_BYTES: u64 = 256 << 20;
/// More would leave most buckets a handful of positions in any data set we can make.
pub const MAX_BUCKETS: usize = 16;
const MAX_HEADER: usize = 64 << 10;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetFileError {
    Io(String),
    TooLarge(u64),
    NotANetwork,
    Version(u8),
    Truncated,
    Header(String),
    Size { expected: usize, found: usize },
    Checksum { stored: u64, computed: u64 },
}

impl fmt::Display for NetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetFileError::Io(e) => write!(f, "cannot read the network file: {e}"),
            NetFileError::TooLarge(n) => write!(f, "the file has {n} bytes, more than any network ({MAX_FILE_BYTES})"),
            NetFileError::NotANetwork => write!(f, "not a Menagerie network file (no MENAGNN header)"),
            NetFileError::Version(v) => write!(f, "network file version {v}; this engine reads version {VERSION}"),
            NetFileError::Truncated => write!(f, "the network file ends inside its header"),
            NetFileError::Header(e) => write!(f, "bad network header: {e}"),
            NetFileError::Size { expected, found } => {
                write!(f, "the header asks for {expected} bytes of weights, the file has {found}")
            }
            NetFileError::Checksum { stored, computed } => {
                write!(f, "checksum {stored:016x} does not match the contents ({computed:016x}): the file is damaged")
            }
        }
    }
}

impl std::error::Error for NetFileError {}

/// FNV-1a, 64 bits: enough to catch a damaged or truncated file, and needs no crate.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn header_text(net: &Network, notes: &[String]) -> String {
    let l = &net.layout;
    let mut text =
        format!("board {}x{}\nhand {}\nhidden {}\n", l.geometry.files, l.geometry.ranks, l.hand_max, net.hidden);
    if let Some(limit) = net.correction {
        text.push_str(&format!("output correction {limit}\n"));
    }
    // One bucket is said by silence, so that the files of one-bucket networks stay as they were.
    if net.buckets != 1 {
        text.push_str(&format!("output buckets {}\n", net.buckets));
    }
    if l.king_buckets > 1 {
        text.push_str(&format!("king buckets {}\n", l.king_buckets));
    }
    for k in &l.kinds {
        text.push_str(&format!("kind {} {}", k.letter, k.betza));
        if k.royal {
            text.push_str(" royal");
        }
        if k.pawn {
            text.push_str(" pawn");
        }
        text.push('\n');
    }
    for n in notes {
        for line in n.lines() {
            text.push_str(&format!("# {line}\n"));
        }
    }
    text
}

/// The file's bytes for `net`, with `notes` (how it was made) as comment lines of the header.
pub fn write(net: &Network, notes: &[String]) -> Vec<u8> {
    let header = header_text(net, notes);
    let mut out = Vec::with_capacity(
        16 + header.len() + 2 * (net.input_weights.len() + net.input_bias.len() + net.output_weights.len()) + 12,
    );
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for w in net.input_weights.iter().chain(net.input_bias.iter()).chain(net.output_weights.iter()) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.output_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// What a header says.
struct Header {
    layout: InputLayout,
    hidden: usize,
    correction: Option<u16>,
    buckets: usize,
}

fn parse_header(text: &str) -> Result<Header, NetFileError> {
    let bad = |m: String| NetFileError::Header(m);
    let (mut board, mut hand, mut hidden) = (None, None, None);
    let mut correction = None;
    let mut buckets = 1;
    let mut king_buckets = 1;
    let mut kinds = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["board", size] => {
                let (f, r) = size.split_once('x').ok_or_else(|| bad(format!("board {size}")))?;
                let g = f
                    .parse::<u8>()
                    .ok()
                    .zip(r.parse::<u8>().ok())
                    .and_then(|(f, r)| Geometry::new(f, r))
                    .ok_or_else(|| bad(format!("board {size} is no board")))?;
                board = Some(g);
            }
            ["output", "correction", text] => {
                let limit = text.parse::<u16>().ok().filter(|&l| l > 0);
                correction = Some(limit.ok_or_else(|| bad(format!("correction limit '{text}' is not 1..65535")))?);
            }
            ["output", "evaluation"] => correction = None,
            ["output", "buckets", n] => {
                let n = n.parse::<usize>().ok().filter(|n| (1..=MAX_BUCKETS).contains(n));
                buckets = n.ok_or_else(|| bad(format!("output buckets must be 1..{MAX_BUCKETS}")))?;
            }
            ["king", "buckets", n] => {
                let n = n.parse::<u8>().ok().filter(|n| KING_BUCKET_CHOICES.contains(n));
                king_buckets = n.ok_or_else(|| bad(format!("king buckets must be one of {KING_BUCKET_CHOICES:?}")))?;
            }
            ["hand", n] => hand = Some(n.parse::<u8>().map_err(|_| bad(format!("hand {n}")))?),
            ["hidden", n] => {
                // The engine runs only the widths its inference is compiled for.
                let width = n.parse::<usize>().ok().filter(|n| WIDTHS.contains(n));
                hidden = Some(width.ok_or_else(|| bad(format!("hidden {n}: this engine runs widths {WIDTHS:?}")))?);
            }
            ["kind", letter, betza, flags @ ..] => {
                let mut chars = letter.chars();
                let (Some(letter), None) = (chars.next(), chars.next()) else {
                    return Err(bad(format!("kind letter '{letter}'")));
                };
                let (mut royal, mut pawn) = (false, false);
                for f in flags {
                    match *f {
                        "royal" => royal = true,
                        "pawn" => pawn = true,
                        other => return Err(bad(format!("kind {letter}: unknown flag '{other}'"))),
                    }
                }
                kinds.push(LayoutKind { letter, betza: betza.to_string(), royal, pawn });
            }
            _ => return Err(bad(format!("unknown line '{line}'"))),
        }
    }
    let geometry = board.ok_or_else(|| bad("no board line".into()))?;
    let hidden = hidden.ok_or_else(|| bad("no hidden line".into()))?;
    if kinds.is_empty() || kinds.len() > MAX_LAYOUT_KINDS {
        return Err(bad(format!("{} kinds (1..{MAX_LAYOUT_KINDS})", kinds.len())));
    }
    let layout = InputLayout { geometry, kinds, hand_max: hand.unwrap_or(0), king_buckets };
    Ok(Header { layout, hidden, correction, buckets })
}

fn read_i16s(bytes: &[u8]) -> AlignedI16s {
    bytes.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
}

/// A network from a file's bytes, or why they are not one.
pub fn read(bytes: &[u8]) -> Result<Network, NetFileError> {
    if bytes.len() < MAGIC.len() + 1 || &bytes[..MAGIC.len()] != MAGIC {
        return Err(NetFileError::NotANetwork);
    }
    let version = bytes[MAGIC.len()];
    if version != VERSION {
        return Err(NetFileError::Version(version));
    }
    let rest = &bytes[MAGIC.len() + 1..];
    let len_bytes: [u8; 4] = rest.get(..4).and_then(|b| b.try_into().ok()).ok_or(NetFileError::Truncated)?;
    let header_len = u32::from_le_bytes(len_bytes) as usize;
    if header_len > MAX_HEADER {
        return Err(NetFileError::Header(format!("{header_len} bytes of header")));
    }
    let header = rest.get(4..4 + header_len).ok_or(NetFileError::Truncated)?;
    let text = std::str::from_utf8(header).map_err(|_| NetFileError::Header("not UTF-8".into()))?;
    let Header { layout, hidden, correction, buckets } = parse_header(text)?;
    let body_start = MAGIC.len() + 1 + 4 + header_len;
    let inputs = layout.input_count();
    let weights = inputs * hidden + hidden + buckets * 2 * hidden;
    let expected = 2 * weights + 4 * buckets + 8;
    let found = bytes.len() - body_start;
    if found != expected {
        return Err(NetFileError::Size { expected, found });
    }
    let (contents, stored) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(stored.try_into().map_err(|_| NetFileError::Truncated)?);
    let computed = checksum(contents);
    if stored != computed {
        return Err(NetFileError::Checksum { stored, computed });
    }
    let body = &contents[body_start..];
    let (w1, body) = body.split_at(2 * inputs * hidden);
    let (b1, body) = body.split_at(2 * hidden);
    let (w2, b2) = body.split_at(buckets * 4 * hidden);
    let output_bias = b2.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Ok(Network {
        layout,
        hidden,
        input_weights: read_i16s(w1),
        input_bias: read_i16s(b1),
        buckets,
        output_weights: read_i16s(w2),
        output_bias,
        correction,
    })
}

/// A network from a file on disk.
pub fn load(path: &std::path::Path) -> Result<Network, NetFileError> {
    let size = std::fs::metadata(path).map_err(|e| NetFileError::Io(format!("{}: {e}", path.display())))?.len();
    if size > MAX_FILE_BYTES {
        return Err(NetFileError::TooLarge(size));
    }
    let bytes = std::fs::read(path).map_err(|e| NetFileError::Io(format!("{}: {e}", path.display())))?;
    read(&bytes)
}
