//! The training-data file: self-play games, each as its variant, start FEN, result and moves
//! with the search's score of each position, so that a file of tens of millions of positions
//! stays small and every position can be replayed and checked.
//!
//! ```text
//! file   = record*
//! record = LEN(u32) body CHECK(u32: low half of the FNV-1a-64 of body)
//! body   = VERSION(u8) NAME_LEN(u8) name FEN_LEN(u16) fen RESULT(u8: White's score in tenths)
//!          MOVES(u16) moves
//! moves  = version 1 (plain, about seven bytes a position):
//!            (MOVE_LEN(u8) move-in-coordinates SCORE(i16: for the side to move))*
//!          version 2 (compact, about two): `compact`'s move indices and score differences
//! ```
//! Games are written compact wherever the rules replay them (every game datagen plays), plain
//! otherwise; readers take both, so the files written before version 2 read as they did.
//! A position's score is `NO_SCORE` where no search chose the move freely (the random opening
//! plies, a drop a game was made to play early).
//! A run that is killed leaves at most a torn last record: readers stop before it, and a writer
//! that appends first cuts the file back to its last whole record.
//!
//! Owns: `GameRecord`, reading and writing records, `DataError`.
//! Must not know: the search, how games are played, the network.

use std::fmt;
use std::io::{Read, Seek, SeekFrom, Write};

const PLAIN: u8 = 1;
const COMPACT: u8 = 2;
/// The score of a position no search scored.
pub const NO_SCORE: i16 = i16::MIN;
/// A record is at most this long (a game of 65,535 plies of 255-byte moves is far more).
const MAX_RECORD: usize = 4 << 20;

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub variant: String,
    pub start_fen: String,
    /// White's score in tenths: 10 a win, 5 a draw, 6 a stalemate that scores 3/5.
    pub white_tenths: u8,
    /// Each move in coordinates with the score of the position it was played in.
    pub moves: Vec<(String, i16)>,
}

/// Why a data file cannot be read or written.
#[derive(Debug)]
pub enum DataError {
    Io(std::io::Error),
    /// A whole record that is not one, at this byte offset.
    Damaged {
        offset: u64,
        why: &'static str,
    },
    /// A game that cannot be written in the format.
    TooLong(&'static str),
    /// The network asked for does not fit a variant asked for.
    Unfit(String),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Damaged { offset, why } => write!(f, "damaged record at byte {offset}: {why}"),
            DataError::TooLong(what) => write!(f, "{what} too long for the data format"),
            DataError::Unfit(why) => write!(f, "the network does not fit {why}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<std::io::Error> for DataError {
    fn from(e: std::io::Error) -> Self {
        DataError::Io(e)
    }
}

fn check(body: &[u8]) -> u32 {
    menagerie_engine::nnue::file::checksum(body) as u32
}

impl GameRecord {
    /// The record's bytes, ready to append to a file in one write: compact where the rules
    /// replay the game, plain otherwise.
    pub fn encode(&self) -> Result<Vec<u8>, DataError> {
        self.encode_as(true)
    }

    /// The record's bytes in the plain form (version 1).
    pub fn encode_plain(&self) -> Result<Vec<u8>, DataError> {
        self.encode_as(false)
    }

    fn encode_as(&self, compact: bool) -> Result<Vec<u8>, DataError> {
        let moves = compact.then(|| super::compact::encode(&self.variant, &self.start_fen, &self.moves)).flatten();
        let mut body = vec![if moves.is_some() { COMPACT } else { PLAIN }];
        let name = u8::try_from(self.variant.len()).map_err(|_| DataError::TooLong("variant name"))?;
        body.push(name);
        body.extend_from_slice(self.variant.as_bytes());
        let fen = u16::try_from(self.start_fen.len()).map_err(|_| DataError::TooLong("start FEN"))?;
        body.extend_from_slice(&fen.to_le_bytes());
        body.extend_from_slice(self.start_fen.as_bytes());
        body.push(self.white_tenths);
        let count = u16::try_from(self.moves.len()).map_err(|_| DataError::TooLong("game"))?;
        body.extend_from_slice(&count.to_le_bytes());
        match moves {
            Some(compact) => body.extend_from_slice(&compact),
            None => {
                for (text, score) in &self.moves {
                    let len = u8::try_from(text.len()).map_err(|_| DataError::TooLong("move"))?;
                    body.push(len);
                    body.extend_from_slice(text.as_bytes());
                    body.extend_from_slice(&score.to_le_bytes());
                }
            }
        }
        let mut out = Vec::with_capacity(body.len() + 8);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&body);
        out.extend_from_slice(&check(&body).to_le_bytes());
        Ok(out)
    }

    fn decode(body: &[u8]) -> Option<GameRecord> {
        let mut rest = body;
        let version = take(&mut rest, 1)?[0];
        let name_len = take(&mut rest, 1)?[0] as usize;
        let variant = String::from_utf8(take(&mut rest, name_len)?.to_vec()).ok()?;
        let fen_len = u16::from_le_bytes(take(&mut rest, 2)?.try_into().ok()?) as usize;
        let start_fen = String::from_utf8(take(&mut rest, fen_len)?.to_vec()).ok()?;
        let white_tenths = take(&mut rest, 1)?[0];
        let count = u16::from_le_bytes(take(&mut rest, 2)?.try_into().ok()?) as usize;
        let moves = match version {
            PLAIN => Self::plain_moves(rest, count)?,
            COMPACT => super::compact::decode(&variant, &start_fen, rest, count)?,
            _ => return None,
        };
        (white_tenths <= 10).then_some(GameRecord { variant, start_fen, white_tenths, moves })
    }

    /// The `count` moves of version 1, which fill `bytes`.
    fn plain_moves(mut bytes: &[u8], count: usize) -> Option<Vec<(String, i16)>> {
        let mut moves = Vec::with_capacity(count.min(bytes.len() / 3));
        for _ in 0..count {
            let len = take(&mut bytes, 1)?[0] as usize;
            let text = String::from_utf8(take(&mut bytes, len)?.to_vec()).ok()?;
            let score = i16::from_le_bytes(take(&mut bytes, 2)?.try_into().ok()?);
            moves.push((text, score));
        }
        bytes.is_empty().then_some(moves)
    }
}

/// The first `n` bytes of `rest`, which then starts after them.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (taken, after) = (rest.get(..n)?, rest.get(n..)?);
    *rest = after;
    Some(taken)
}

/// The whole records of `bytes`, and the length of the whole-record prefix (a torn last record
/// is left out). Damage inside the prefix is an error.
pub fn decode_all(bytes: &[u8]) -> Result<(Vec<GameRecord>, usize), DataError> {
    let mut records = Vec::new();
    let mut at = 0usize;
    while let Some(len_bytes) = bytes.get(at..at + 4) {
        let len = u32::from_le_bytes([len_bytes[0], len_bytes[1], len_bytes[2], len_bytes[3]]) as usize;
        if len > MAX_RECORD {
            return Err(DataError::Damaged { offset: at as u64, why: "impossible length" });
        }
        let Some(body) = bytes.get(at + 4..at + 4 + len) else { break };
        let Some(stored) = bytes.get(at + 4 + len..at + 8 + len) else { break };
        if u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]) != check(body) {
            return Err(DataError::Damaged { offset: at as u64, why: "checksum" });
        }
        let record = GameRecord::decode(body).ok_or(DataError::Damaged { offset: at as u64, why: "contents" })?;
        records.push(record);
        at += 8 + len;
    }
    Ok((records, at))
}

/// Every whole game of a data file.
pub fn read_file(path: &std::path::Path) -> Result<Vec<GameRecord>, DataError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut bytes)?;
    Ok(decode_all(&bytes)?.0)
}

/// A data file opened to append games to, cut back to its last whole record first.
pub struct DataWriter {
    file: std::fs::File,
    pub games_before: usize,
}

impl DataWriter {
    pub fn append(path: &std::path::Path) -> Result<DataWriter, DataError> {
        let mut file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let (records, whole) = decode_all(&bytes)?;
        if whole != bytes.len() {
            log::warn!("{}: {} bytes of a torn last game cut off", path.display(), bytes.len() - whole);
            file.set_len(whole as u64)?;
        }
        file.seek(SeekFrom::Start(whole as u64))?;
        Ok(DataWriter { file, games_before: records.len() })
    }

    /// Append one game, in one write, and flush it.
    pub fn write(&mut self, record: &GameRecord) -> Result<(), DataError> {
        let bytes = record.encode()?;
        self.file.write_all(&bytes)?;
        self.file.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            variant: "vdchess".into(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1".into(),
            white_tenths: 5,
            moves: vec![("e2e4".into(), NO_SCORE), ("C@d6".into(), -35), ("e7e8q".into(), 1200)],
        }
    }

    /// The first whole games of an xz-compressed data file (within its first `bytes` bytes).
    fn first_games(path: &std::path::Path, bytes: u64) -> Vec<GameRecord> {
        let file = std::fs::File::open(path).expect("open");
        let mut prefix = Vec::new();
        xz2::read::XzDecoder::new(file).take(bytes).read_to_end(&mut prefix).expect("xz");
        decode_all(&prefix).expect("whole records").0
    }

    #[test]
    fn every_batch_of_the_repository_round_trips_through_the_compact_form() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../nets/data");
        let mut batches: Vec<_> = std::fs::read_dir(&dir)
            .expect("nets/data")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".bin.xz"))
            .collect();
        batches.sort();
        assert!(batches.len() >= 30, "{} batches", batches.len());
        for batch in &batches {
            let games = first_games(batch, 120_000);
            assert!(games.len() >= 10, "{}: {} games", batch.display(), games.len());
            let (mut compact_bytes, mut plain_bytes) = (0, 0);
            for g in games.iter().take(40) {
                let compact = g.encode().expect("encode");
                assert_eq!(compact[4], COMPACT, "{}: a game datagen played replays", batch.display());
                let (back, whole) = decode_all(&compact).expect("decode");
                assert_eq!((back, whole), (vec![g.clone()], compact.len()), "{}", batch.display());
                compact_bytes += compact.len();
                plain_bytes += g.encode_plain().expect("plain").len();
            }
            // The names and FENs are the same in both forms; the moves take under half.
            assert!(2 * compact_bytes < plain_bytes, "{}: {compact_bytes} against {plain_bytes}", batch.display());
        }
    }

    #[test]
    fn a_compact_record_that_names_an_illegal_move_is_damage() {
        let g = GameRecord {
            variant: "chess".into(),
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            white_tenths: 10,
            moves: vec![("e2e4".into(), 20), ("e7e5".into(), NO_SCORE), ("d1h5".into(), 30)],
        };
        let bytes = g.encode().expect("encode");
        assert_eq!(bytes[4], COMPACT);
        assert_eq!(decode_all(&bytes).expect("decode").0, vec![g]);
        // The last move's index made one past the legal moves, the checksum made anew.
        let mut body = bytes[4..bytes.len() - 4].to_vec();
        let at = body.len() - 2;
        body[at] = 0x7f;
        let mut damaged = (body.len() as u32).to_le_bytes().to_vec();
        damaged.extend_from_slice(&body);
        damaged.extend_from_slice(&check(&body).to_le_bytes());
        assert!(matches!(decode_all(&damaged), Err(DataError::Damaged { why: "contents", .. })));
    }

    #[test]
    fn records_round_trip_and_a_torn_tail_is_left_out() {
        let mut bytes = sample().encode().expect("encode");
        let one = bytes.len();
        bytes.extend(sample().encode().expect("encode"));
        let (all, whole) = decode_all(&bytes).expect("decode");
        assert_eq!(all, vec![sample(), sample()]);
        assert_eq!(whole, bytes.len());
        for cut in [one + 1, one + 5, bytes.len() - 1] {
            let (some, whole) = decode_all(&bytes[..cut]).expect("decode");
            assert_eq!((some.len(), whole), (1, one), "cut at {cut}");
        }
    }

    #[test]
    fn damage_inside_the_file_is_an_error_naming_the_offset() {
        let mut bytes = sample().encode().expect("encode");
        bytes.extend(sample().encode().expect("encode"));
        let second = bytes.len() / 2;
        bytes[second + 10] ^= 0x40;
        let err = decode_all(&bytes).expect_err("damaged");
        assert!(err.to_string().contains(&format!("byte {second}")), "{err}");
    }

    #[test]
    fn a_writer_cuts_a_torn_tail_before_appending() {
        let path = std::env::temp_dir().join(format!("menagerie-data-{}.bin", std::process::id()));
        let mut bytes = sample().encode().expect("encode");
        bytes.extend_from_slice(&sample().encode().expect("encode")[..9]);
        std::fs::write(&path, &bytes).expect("write");
        let mut w = DataWriter::append(&path).expect("open");
        assert_eq!(w.games_before, 1);
        w.write(&sample()).expect("append");
        drop(w);
        assert_eq!(read_file(&path).expect("read"), vec![sample(), sample()]);
        let _ = std::fs::remove_file(&path);
    }
}
