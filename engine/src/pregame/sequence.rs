//! The pre-game as one sequence of steps (rules.md 1(c), 1(e) and 5(c)). D-Chess: the coin-toss
//! winner takes White or Black, then the other side, who moves first, may transpose two pieces
//! of his back rank. Chess-9: Black relocates or declines, then White, knowing Black's choice;
//! then White moves. Each step has a chooser, its legal options in a fixed order, and the start
//! FEN each option leads to. The search-driven decisions (`decide`) and the referee's engine or
//! random choosers walk this one sequence, so the order and the options are written only here.
//!
//! Which steps a variant has comes from its data (`Variant::transposition`,
//! `Variant::relocation`). The FEN is taken as given: whether it is a start position is the
//! caller's check (`check_start`), since the referee plays whatever start its schedule gives.
//!
//! Owns: `Sequence`, `StepKind`, `RELOCATION_ORDER`, whose turn a relocation is.
//! Must not know: search, protocols, variant names.

use super::PregameError;
use menagerie_rules::geometry::Color;
use menagerie_rules::startpos::{
    apply_relocation, apply_transposition, relocations, side_to_move, transpositions, with_side_to_move,
};
use menagerie_rules::variant::{TranspositionRule, Variant};

/// The order of the relocations (rules.md 5(c)): Black relocates or declines, then White.
pub const RELOCATION_ORDER: [Color; 2] = [Color::Black, Color::White];

/// The two options of the side choice, White first (ties between them go to White).
const SIDES: [Color; 2] = [Color::White, Color::Black];

/// Which step of a pre-game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The coin-toss winner's side.
    Side,
    /// The first mover's transposition.
    Swap(Color),
    /// A Chess-9 relocation.
    Relocate(Color),
}

impl StepKind {
    /// A short key for machine-readable output: `side`, `swap`, `relocate.black`.
    pub fn key(self) -> String {
        match self {
            StepKind::Side => "side".to_string(),
            StepKind::Swap(_) => "swap".to_string(),
            StepKind::Relocate(c) => format!("relocate.{c}"),
        }
    }

    /// The colour of the side that chooses. The coin-toss winner has none until he chooses.
    pub fn chooser(self) -> Option<Color> {
        match self {
            StepKind::Side => None,
            StepKind::Swap(c) | StepKind::Relocate(c) => Some(c),
        }
    }

    /// The colour the chooser plays after choosing `option` (an option of this step).
    pub fn chooser_after(self, option: &str) -> Color {
        match self {
            StepKind::Side => SIDES.into_iter().find(|c| c.to_string() == option).unwrap_or(Color::White),
            StepKind::Swap(c) | StepKind::Relocate(c) => c,
        }
    }
}

/// A step still to come. The transposition's colour is the side to move once the side choice
/// is made, so it is read from the FEN when the step comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    Side,
    Swap,
    Relocate(Color),
}

/// A pre-game under way: the start FEN so far and the steps still to come.
#[derive(Clone, Debug)]
pub struct Sequence {
    variant: &'static Variant,
    fen: String,
    pending: Vec<Pending>,
    made: Vec<(StepKind, String)>,
}

fn no_such(v: &Variant, decision: &'static str) -> PregameError {
    PregameError::NoSuchDecision { variant: v.name.clone(), decision }
}

/// The variant has a transposition (and with it the side choice).
pub fn require_transposition(v: &Variant) -> Result<(), PregameError> {
    if v.transposition == TranspositionRule::None {
        return Err(no_such(v, "transposition"));
    }
    Ok(())
}

/// The variant has relocations.
pub fn require_relocation(v: &Variant) -> Result<(), PregameError> {
    if v.relocation.is_empty() {
        return Err(no_such(v, "relocation"));
    }
    Ok(())
}

/// The variant has a pre-game at all.
pub fn require_pregame(v: &Variant) -> Result<(), PregameError> {
    if v.transposition == TranspositionRule::None && v.relocation.is_empty() {
        return Err(no_such(v, "pre-game decision"));
    }
    Ok(())
}

/// Whether `color`'s back rank in `fen` is still the array a relocation starts from.
fn unrelocated(v: &Variant, fen: &str, color: Color) -> bool {
    relocations(v, fen, color).is_ok_and(|options| options.len() > 1)
}

/// Whether it is `color`'s turn to relocate in `fen`: Black chooses first, from the orthodox
/// arrays (White's still orthodox); White chooses once, knowing Black's choice.
pub fn relocation_turn(v: &Variant, fen: &str, color: Color) -> Result<(), PregameError> {
    match color {
        Color::Black if !unrelocated(v, fen, Color::Black) => {
            Err(PregameError::OutOfTurn("Black has already made its relocation".to_string()))
        }
        Color::Black if !unrelocated(v, fen, Color::White) => Err(PregameError::OutOfTurn(
            "White's array is already relocated, but Black chooses first (White's array must be orthodox)".to_string(),
        )),
        Color::White if !unrelocated(v, fen, Color::White) => {
            Err(PregameError::OutOfTurn("White has already made its relocation".to_string()))
        }
        _ => Ok(()),
    }
}

impl Sequence {
    /// The whole pre-game of `v` from the start `fen`: D-Chess, the side choice and the
    /// transposition; Chess-9, the relocations still open in `fen` (none of a side that has
    /// relocated, and Black's only while White's array is orthodox).
    pub fn new(v: &'static Variant, fen: &str) -> Result<Sequence, PregameError> {
        require_pregame(v)?;
        if v.transposition != TranspositionRule::None {
            return Sequence::from_step(v, fen, StepKind::Side);
        }
        let open = RELOCATION_ORDER.into_iter().filter(|&c| relocation_turn(v, fen, c).is_ok());
        Ok(Sequence::with(v, fen.to_string(), open.map(Pending::Relocate).collect()))
    }

    /// The pre-game from the step `first` on, for a decision asked on its own. The side choice
    /// ignores the side to move of `fen` (the choice decides it); the transposition is made by
    /// the colour given, who moves first; a relocation must be that colour's turn.
    pub fn from_step(v: &'static Variant, fen: &str, first: StepKind) -> Result<Sequence, PregameError> {
        let pending = match first {
            StepKind::Side => {
                require_transposition(v)?;
                vec![Pending::Side, Pending::Swap]
            }
            StepKind::Swap(c) => {
                require_transposition(v)?;
                return Ok(Sequence::with(v, with_side_to_move(fen, c), vec![Pending::Swap]));
            }
            StepKind::Relocate(color) => {
                require_relocation(v)?;
                relocation_turn(v, fen, color)?;
                let rest = RELOCATION_ORDER.into_iter().skip_while(|&c| c != color).skip(1);
                let rest = rest.filter(|&c| relocation_turn(v, fen, c).is_ok()).map(Pending::Relocate);
                std::iter::once(Pending::Relocate(color)).chain(rest).collect()
            }
        };
        Ok(Sequence::with(v, fen.to_string(), pending))
    }

    fn with(variant: &'static Variant, fen: String, pending: Vec<Pending>) -> Sequence {
        Sequence { variant, fen, pending, made: Vec::new() }
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The start FEN as the choices so far have made it.
    pub fn fen(&self) -> &str {
        &self.fen
    }

    /// The choices made so far, in order, as they were given.
    pub fn made(&self) -> &[(StepKind, String)] {
        &self.made
    }

    /// The next step, or `None` when the pre-game is over.
    pub fn next(&self) -> Option<StepKind> {
        self.pending.first().map(|p| match *p {
            Pending::Side => StepKind::Side,
            Pending::Swap => StepKind::Swap(side_to_move(&self.fen)),
            Pending::Relocate(c) => StepKind::Relocate(c),
        })
    }

    /// The legal options of the next step, in their fixed order: `white`, `black`; `none` and
    /// the 19 swap tokens of the first mover; `none` and the relocations (by piece name) of the
    /// colour. Empty when the pre-game is over.
    pub fn options(&self) -> Result<Vec<String>, PregameError> {
        let v = self.variant;
        Ok(match self.next() {
            None => Vec::new(),
            Some(StepKind::Side) => SIDES.iter().map(Color::to_string).collect(),
            Some(StepKind::Swap(_)) => {
                let mut out = vec!["none".to_string()];
                out.extend(transpositions(v, &self.fen)?);
                out
            }
            Some(StepKind::Relocate(c)) => relocations(v, &self.fen, c)?,
        })
    }

    /// Make the next step's choice: `white`/`black` (the side taken: the other side moves
    /// first); `none` or a swap token; `none` or a relocation by piece name or letter. A choice
    /// the rules forbid is refused and nothing changes.
    pub fn apply(&mut self, choice: &str) -> Result<(), PregameError> {
        let Some(kind) = self.next() else {
            return Err(PregameError::OutOfTurn(format!("the pre-game is over ({choice})")));
        };
        let v = self.variant;
        let fen = match kind {
            StepKind::Side => match SIDES.into_iter().find(|c| c.to_string() == choice) {
                Some(taken) => with_side_to_move(&self.fen, taken.flip()),
                None => return Err(PregameError::IllegalChoice(format!("'{choice}' is not a side (white or black)"))),
            },
            StepKind::Swap(_) if choice == "none" => self.fen.clone(),
            StepKind::Swap(_) => apply_transposition(v, &self.fen, choice)?,
            StepKind::Relocate(c) => apply_relocation(v, &self.fen, c, choice)?,
        };
        self.fen = fen;
        self.pending.remove(0);
        self.made.push((kind, choice.to_string()));
        Ok(())
    }

    /// The sequence after the next step's `choice`.
    pub fn after(&self, choice: &str) -> Result<Sequence, PregameError> {
        let mut next = self.clone();
        next.apply(choice)?;
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::startpos::start_fen;
    use menagerie_rules::variant::by_name;

    const DCHESS: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    const CHESS9: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn dchess_side_choice_then_the_first_movers_transposition() {
        let v = by_name("dchess").unwrap();
        let mut s = Sequence::new(v, DCHESS).unwrap();
        assert_eq!(s.next(), Some(StepKind::Side));
        assert_eq!(s.options().unwrap(), ["white", "black"]);
        assert_eq!(s.next().map(|k| k.chooser()), Some(None), "the toss winner has no colour yet");
        assert!(matches!(s.apply("purple"), Err(PregameError::IllegalChoice(_))));
        assert_eq!(s.fen(), DCHESS, "a refused choice changes nothing");
        // Taking White: Black moves first and may transpose.
        s.apply("white").unwrap();
        assert_eq!(s.fen(), DCHESS.replace(" w ", " b "));
        assert_eq!(s.next(), Some(StepKind::Swap(Color::Black)));
        let options = s.options().unwrap();
        assert_eq!(options.len(), 20);
        assert_eq!(options[0], "none");
        assert_eq!(options[1..], transpositions(v, s.fen()).unwrap()[..]);
        assert!(options[1..].iter().all(|t| t.ends_with('8')), "{options:?}");
        for bad in ["a8b8", "a1c1", "zz"] {
            assert!(matches!(s.apply(bad), Err(PregameError::IllegalChoice(_))), "{bad}");
        }
        s.apply("a8c8").unwrap();
        assert_eq!(s.fen(), "qbbnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
        assert_eq!(s.next(), None);
        assert!(s.options().unwrap().is_empty());
        assert!(matches!(s.apply("none"), Err(PregameError::OutOfTurn(_))));
        let made: Vec<(StepKind, &str)> = s.made().iter().map(|(k, c)| (*k, c.as_str())).collect();
        assert_eq!(made, [(StepKind::Side, "white"), (StepKind::Swap(Color::Black), "a8c8")]);
        // Taking Black: White moves first; declining keeps the arrays.
        let s = Sequence::new(v, DCHESS).unwrap().after("black").unwrap();
        assert_eq!(s.next(), Some(StepKind::Swap(Color::White)));
        assert!(s.options().unwrap()[1..].iter().all(|t| t.ends_with('1')));
        assert_eq!(s.after("none").unwrap().fen(), DCHESS);
    }

    #[test]
    fn chess9_black_relocates_then_white() {
        let v = by_name("chess9").unwrap();
        let mut s = Sequence::new(v, CHESS9).unwrap();
        assert_eq!(s.next(), Some(StepKind::Relocate(Color::Black)));
        assert_eq!(s.options().unwrap(), ["none", "king", "queen"]);
        assert!(matches!(s.apply("rook"), Err(PregameError::IllegalChoice(_))));
        s.apply("queen").unwrap();
        assert_eq!(s.fen(), "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(s.next(), Some(StepKind::Relocate(Color::White)));
        assert_eq!(s.options().unwrap(), ["none", "king", "queen"], "White knows Black's choice, keeps all three");
        s.apply("k").unwrap();
        assert_eq!(s.fen(), "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1");
        assert_eq!(s.next(), None);
        // From a half-made pre-game only the open steps remain.
        let black_done = "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(Sequence::new(v, black_done).unwrap().next(), Some(StepKind::Relocate(Color::White)));
        let white_done = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1";
        assert_eq!(Sequence::new(v, white_done).unwrap().next(), None, "Black's turn came first");
        let m = relocation_turn(v, white_done, Color::Black).unwrap_err().to_string();
        assert!(m.contains("Black chooses first"), "{m}");
        assert!(Sequence::from_step(v, black_done, StepKind::Relocate(Color::Black)).is_err());
        let white = Sequence::from_step(v, black_done, StepKind::Relocate(Color::White)).unwrap();
        assert_eq!(white.options().unwrap().len(), 3);
        assert_eq!(white.after("none").unwrap().next(), None);
        let black = Sequence::from_step(v, CHESS9, StepKind::Relocate(Color::Black)).unwrap();
        assert_eq!(black.after("none").unwrap().next(), Some(StepKind::Relocate(Color::White)));
    }

    #[test]
    fn every_start_of_both_variants_walks_to_a_start() {
        for (name, count) in [("dchess", 40u64), ("chess9", 9)] {
            let v = by_name(name).unwrap();
            for index in 0..count {
                let index = if name == "dchess" { index * 207_359 } else { index };
                let fen = start_fen(v, index).unwrap();
                let mut s = Sequence::new(v, &fen).unwrap();
                while s.next().is_some() {
                    let options = s.options().unwrap();
                    for o in &options {
                        s.after(o).unwrap_or_else(|e| panic!("{fen}: {o}: {e}"));
                    }
                    s.apply(&options[options.len() - 1]).unwrap();
                }
                super::super::check_start(v, s.fen()).unwrap_or_else(|e| panic!("{fen} -> {}: {e}", s.fen()));
            }
        }
    }

    #[test]
    fn variants_without_a_pregame_have_no_sequence() {
        let chess = by_name("chess").unwrap();
        assert!(matches!(Sequence::new(chess, CHESS9), Err(PregameError::NoSuchDecision { .. })));
        let chess9 = by_name("chess9").unwrap();
        assert!(Sequence::from_step(chess9, CHESS9, StepKind::Side).is_err());
        let dchess = by_name("dchess").unwrap();
        assert!(Sequence::from_step(dchess, DCHESS, StepKind::Relocate(Color::Black)).is_err());
    }
}
