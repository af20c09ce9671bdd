//! The trainer's checkpoint: everything a training run needs to go on after an interruption
//! exactly as if it had not stopped (the epochs done, the float weights, the optimiser's
//! moments, the best validation loss so far), with a fingerprint of the run's settings and
//! data so that a checkpoint is never applied to another run, and a checksum.
//!
//! ```text
//! "MENAGCK" VERSION(u8) FINGERPRINT_LEN(u32) FINGERPRINT(UTF-8)
//! epochs done (u32) optimiser steps (i32) best validation loss (f64)
//! parameter count (u64) weights, first moments, second moments (f32 each)
//! FNV-1a-64 of all the above (u64)
//! ```
//!
//! Owns: `Checkpoint`, its file format, `CheckpointError`.
//! Must not know: how the weights are used, the search, protocols.

use menagerie_engine::nnue::file::checksum;
use std::fmt;

const MAGIC: &[u8; 7] = b"MENAGCK";
const VERSION: u8 = 1;

/// A training run stopped after `epochs_done` epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub epochs_done: usize,
    pub params: Vec<f32>,
    pub adam_m: Vec<f32>,
    pub adam_v: Vec<f32>,
    pub adam_step: i32,
    /// The lowest validation loss of the epochs done (the network file holds that epoch's).
    pub best_validation: f64,
}

/// Why a checkpoint was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    Io(String),
    NotACheckpoint,
    Version(u8),
    Truncated,
    /// Made by a run with other settings or data: `(this run's, the file's)`.
    OtherRun {
        expected: String,
        found: String,
    },
    Checksum,
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "cannot read the checkpoint: {e}"),
            CheckpointError::NotACheckpoint => write!(f, "not a Menagerie training checkpoint"),
            CheckpointError::Version(v) => write!(f, "checkpoint version {v}; this trainer reads version {VERSION}"),
            CheckpointError::Truncated => write!(f, "the checkpoint is truncated"),
            CheckpointError::OtherRun { expected, found } => {
                write!(f, "the checkpoint is of another run (its settings: {found}; this run's: {expected})")
            }
            CheckpointError::Checksum => write!(f, "the checkpoint's checksum does not match: the file is damaged"),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl Checkpoint {
    /// The file's bytes, for a run described by `fingerprint`.
    pub fn write(&self, fingerprint: &str) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        out.extend_from_slice(&(fingerprint.len() as u32).to_le_bytes());
        out.extend_from_slice(fingerprint.as_bytes());
        out.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        out.extend_from_slice(&self.adam_step.to_le_bytes());
        out.extend_from_slice(&self.best_validation.to_le_bytes());
        out.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        for x in self.params.iter().chain(&self.adam_m).chain(&self.adam_v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A checkpoint from a file's bytes, if it belongs to the run described by `fingerprint`.
    pub fn read(bytes: &[u8], fingerprint: &str) -> Result<Checkpoint, CheckpointError> {
        if bytes.len() < MAGIC.len() + 1 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(CheckpointError::NotACheckpoint);
        }
        if bytes[MAGIC.len()] != VERSION {
            return Err(CheckpointError::Version(bytes[MAGIC.len()]));
        }
        if bytes.len() < MAGIC.len() + 1 + 8 {
            return Err(CheckpointError::Truncated);
        }
        let (contents, stored) = bytes.split_at(bytes.len() - 8);
        if checksum(contents) != u64::from_le_bytes(stored.try_into().map_err(|_| CheckpointError::Truncated)?) {
            return Err(CheckpointError::Checksum);
        }
        let mut reader = Reader { bytes: &contents[MAGIC.len() + 1..] };
        let found_len = u32::from_le_bytes(reader.take()?) as usize;
        let found = String::from_utf8_lossy(reader.bytes(found_len)?).into_owned();
        if found != fingerprint {
            return Err(CheckpointError::OtherRun { expected: fingerprint.to_string(), found });
        }
        let epochs_done = u32::from_le_bytes(reader.take()?) as usize;
        let adam_step = i32::from_le_bytes(reader.take()?);
        let best_validation = f64::from_le_bytes(reader.take()?);
        let count = u64::from_le_bytes(reader.take()?) as usize;
        if reader.bytes.len() != count.checked_mul(12).ok_or(CheckpointError::Truncated)? {
            return Err(CheckpointError::Truncated);
        }
        let mut floats = |n| -> Result<Vec<f32>, CheckpointError> {
            Ok(reader.bytes(4 * n)?.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
        };
        let (params, adam_m, adam_v) = (floats(count)?, floats(count)?, floats(count)?);
        Ok(Checkpoint { epochs_done, params, adam_m, adam_v, adam_step, best_validation })
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], CheckpointError> {
        if self.bytes.len() < n {
            return Err(CheckpointError::Truncated);
        }
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(taken)
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], CheckpointError> {
        self.bytes(N)?.try_into().map_err(|_| CheckpointError::Truncated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips_and_another_run_or_damage_is_refused() {
        let c = Checkpoint {
            epochs_done: 3,
            params: vec![0.5, -1.25, 3.0],
            adam_m: vec![0.1, 0.2, 0.3],
            adam_v: vec![1e-3, 2e-3, 3e-3],
            adam_step: 77,
            best_validation: 0.00359,
        };
        let bytes = c.write("hidden 256 seed 1");
        assert_eq!(Checkpoint::read(&bytes, "hidden 256 seed 1"), Ok(c));
        assert!(matches!(Checkpoint::read(&bytes, "hidden 128 seed 1"), Err(CheckpointError::OtherRun { .. })));
        let mut damaged = bytes.clone();
        damaged[30] ^= 4;
        assert_eq!(Checkpoint::read(&damaged, "hidden 256 seed 1"), Err(CheckpointError::Checksum));
        assert_eq!(Checkpoint::read(&bytes[..bytes.len() - 5], "hidden 256 seed 1"), Err(CheckpointError::Checksum));
        assert_eq!(Checkpoint::read(b"MENAGNN\x02", "x"), Err(CheckpointError::NotACheckpoint));
    }
}
