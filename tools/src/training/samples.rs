//! Training samples from self-play games: each game replayed from its start, every quiet
//! position (not in check, the move played neither a capture, a promotion nor a drop, and
//! scored by a search) turned into the inputs of both perspectives, the search's score, the
//! game's result and the hand-written evaluation (what a correction network adds to), for the
//! side to move.
//!
//! Owns: `Sample`, `SampleSet`, replaying records into samples.
//! Must not know: the optimiser, the file format of networks, the search.

use crate::datagen::format::{GameRecord, NO_SCORE};
use menagerie_engine::nnue::layout::{FeatureMap, InputLayout};
use menagerie_engine::nnue::network::Network;
use menagerie_rules::any::AnyPosition;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::moves::MoveKind;
use menagerie_rules::position::Position;
use menagerie_rules::variant::by_name;
use rayon::prelude::*;
use std::fmt;

/// Scores at or beyond this (a mate found, or a won position) teach the network nothing about
/// judgment and are left out.
const MAX_SAMPLE_SCORE: i16 = 3000;

/// Many samples, their inputs packed: sample `i`'s inputs for the side to move are
/// `inputs[starts[i]..mids[i]]`, for the other side `inputs[mids[i]..starts[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleSet {
    pub inputs: Vec<u16>,
    pub starts: Vec<u32>,
    pub mids: Vec<u32>,
    /// The search's score, centipawns for the side to move.
    pub scores: Vec<i16>,
    /// The game's result for the side to move: 1 a win, 0 a loss, 0.5 a draw (0.6 a 3/5 stalemate).
    pub results: Vec<f32>,
    /// The hand-written evaluation, centipawns for the side to move.
    pub hand_written: Vec<i16>,
    /// The game each sample comes from, numbered from 0 in the order the games were given:
    /// a validation set must hold out whole games, since the positions of one game (and, in a
    /// random-array variant, its army) are too alike to test a fit on each other.
    pub games: Vec<u32>,
}

/// One sample, borrowed from a set.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    pub ours: &'a [u16],
    pub theirs: &'a [u16],
    pub score: i16,
    pub result: f32,
    pub hand_written: i16,
}

/// Why a game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub game: usize,
    pub why: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}: {}", self.game, self.why)
    }
}

impl std::error::Error for ReplayError {}

impl SampleSet {
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    pub fn get(&self, i: usize) -> Sample<'_> {
        let (a, m, b) = (self.starts[i] as usize, self.mids[i] as usize, self.starts[i + 1] as usize);
        Sample {
            ours: &self.inputs[a..m],
            theirs: &self.inputs[m..b],
            score: self.scores[i],
            result: self.results[i],
            hand_written: self.hand_written[i],
        }
    }

    /// How many games the samples come from (the highest game number plus one).
    pub fn game_count(&self) -> usize {
        self.games.last().map_or(0, |&g| g as usize + 1)
    }

    fn push(&mut self, game: u32, ours: &[u32], theirs: &[u32], score: i16, result: f32, hand_written: i16) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.inputs.extend(ours.iter().map(|&i| i as u16));
        self.mids.push(self.inputs.len() as u32);
        self.inputs.extend(theirs.iter().map(|&i| i as u16));
        self.starts.push(self.inputs.len() as u32);
        self.scores.push(score);
        self.results.push(result);
        self.hand_written.push(hand_written);
        self.games.push(game);
    }

    /// The samples of `games` whose variants fit `layout` (the others are counted and left out);
    /// a game that does not replay is an error. The games are replayed on every core; the set
    /// is the same as one core would make.
    pub fn from_games(layout: &InputLayout, games: &[GameRecord]) -> Result<(SampleSet, usize), ReplayError> {
        Self::from_games_in_tasks(layout, games, GAMES_PER_TASK)
    }

    fn from_games_in_tasks(
        layout: &InputLayout,
        games: &[GameRecord],
        per_task: usize,
    ) -> Result<(SampleSet, usize), ReplayError> {
        if layout.input_count() > usize::from(u16::MAX) {
            return Err(ReplayError { game: 0, why: "the layout has more inputs than samples can name".into() });
        }
        let per_task = per_task.max(1);
        // One task per core at a time, appended in the games' order: the set is never held twice.
        let window = per_task.saturating_mul(rayon::current_num_threads().max(1));
        let (mut set, mut skipped, mut kept) = (SampleSet::default(), 0, 0);
        for (w, games) in games.chunks(window).enumerate() {
            let parts: Vec<_> = games
                .par_chunks(per_task)
                .enumerate()
                .map(|(t, ours)| replay_games(layout, ours, w * window + t * per_task).map(|(s, k)| (s, k, ours.len())))
                .collect();
            for part in parts {
                let (part, part_skipped, part_games) = part?;
                set.append(part, kept).map_err(|why| ReplayError { game: w * window, why })?;
                skipped += part_skipped;
                kept += (part_games - part_skipped) as u32;
            }
        }
        Ok((set, skipped))
    }

    /// Appends `other`, its games renumbered from `first_game`.
    fn append(&mut self, mut other: SampleSet, first_game: u32) -> Result<(), String> {
        if other.is_empty() {
            return Ok(());
        }
        if u32::try_from(self.inputs.len() + other.inputs.len()).is_err() {
            return Err("more samples than one set can index".into());
        }
        let base = self.inputs.len() as u32;
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.inputs.append(&mut other.inputs);
        self.mids.extend(other.mids.iter().map(|m| m + base));
        self.starts.extend(other.starts[1..].iter().map(|s| s + base));
        self.scores.append(&mut other.scores);
        self.results.append(&mut other.results);
        self.hand_written.append(&mut other.hand_written);
        self.games.extend(other.games.iter().map(|g| g + first_game));
        Ok(())
    }
}

/// Games a replay task takes: enough to outweigh handing them out, few enough that the cores
/// stay busy to the end.
const GAMES_PER_TASK: usize = 2048;

/// The samples of `games`, numbered from 0, and how many were left out; `first` is the first
/// game's place in the whole list, for errors.
fn replay_games(layout: &InputLayout, games: &[GameRecord], first: usize) -> Result<(SampleSet, usize), ReplayError> {
    let mut set = SampleSet::default();
    let mut skipped = 0;
    for (g, record) in games.iter().enumerate() {
        let fail = |why: String| ReplayError { game: first + g, why };
        let variant = by_name(&record.variant).map_err(|e| fail(e.to_string()))?;
        let Ok(map) = FeatureMap::new(layout, variant) else {
            skipped += 1;
            continue;
        };
        let start = AnyPosition::from_fen(variant, &record.start_fen).map_err(|e| fail(e.to_string()))?;
        let game = (g - skipped) as u32;
        menagerie_rules::with_position!(&start, p => replay(p.clone(), &map, record, game, &mut set).map_err(fail)?);
    }
    Ok((set, skipped))
}

fn replay<B: BitSet>(
    mut pos: Position<B>,
    map: &FeatureMap,
    record: &GameRecord,
    game: u32,
    set: &mut SampleSet,
) -> Result<(), String> {
    let white_result = f32::from(record.white_tenths) / 10.0;
    let hand_written = menagerie_engine::eval::Evaluation::of(pos.rules());
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for (text, score) in &record.moves {
        let m = pos.parse_move(text).map_err(|e| format!("{text}: {e}"))?;
        if !pos.legal_moves().as_slice().contains(&m) {
            return Err(format!("{text} is not legal in {}", pos.to_fen()));
        }
        let quiet = m.kind() != MoveKind::Drop
            && m.kind() != MoveKind::Promotion
            && m.kind() != MoveKind::EnPassant
            && (m.kind() == MoveKind::Castle || pos.piece_at(m.to()).is_none());
        if quiet && *score != NO_SCORE && score.abs() < MAX_SAMPLE_SCORE && !pos.in_check() {
            let us = pos.side_to_move();
            Network::active_inputs(map, &pos, us, &mut ours);
            Network::active_inputs(map, &pos, us.flip(), &mut theirs);
            let result = if us == Color::White { white_result } else { 1.0 - white_result };
            let base = hand_written.evaluate(&pos).clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            set.push(game, &ours, &theirs, *score, result, base);
        }
        pos.play(m);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::play_game;
    use menagerie_engine::nnue::embedded::EvalChoice;
    use menagerie_engine::search::{SearchThreads, TranspositionTable};

    #[test]
    fn replaying_in_tasks_makes_the_set_one_task_makes() {
        let tt = TranspositionTable::new(1);
        let pool = SearchThreads::new(1);
        let dchess = by_name("dchess").expect("dchess");
        let rvc = by_name("rvc").expect("rvc");
        let mut games: Vec<_> =
            (0..5).filter_map(|g| play_game(dchess, 60 + g, 100, EvalChoice::HandWritten, &tt, &pool)).collect();
        // A game of another board, left out and not numbered, between two that are kept.
        let other = play_game(rvc, 7, 100, EvalChoice::HandWritten, &tt, &pool).expect("an rvc game");
        games.insert(2, other);
        let layout = InputLayout::union(menagerie_engine::nnue::family_of(dchess), 1).expect("layout");
        let (whole, skipped) = SampleSet::from_games_in_tasks(&layout, &games, usize::MAX).expect("replay");
        assert_eq!(skipped, 1);
        assert_eq!(whole.game_count(), games.len() - 1);
        assert!(whole.len() > 50, "{} samples", whole.len());
        for per_task in [1, 2, 4] {
            let (set, skipped) = SampleSet::from_games_in_tasks(&layout, &games, per_task).expect("replay");
            assert_eq!(skipped, 1);
            assert!(set == whole, "{per_task} games a task");
        }
    }
}
