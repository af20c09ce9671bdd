//! The games of a match: where start positions come from (random draws in a setup form, an index
//! range, an EPD/FEN file), every start played twice with colours reversed (or, with a D-Chess
//! side choice, with the coin toss going to each engine once), every pair of engines (round
//! robin), and how many games run at once.
//!
//! Owns: `Openings`, `Schedule`, `pairings`, `game_pair`, `read_openings`, `concurrency`.
//! Must not know: engines' protocols, how a game is refereed.

use super::referee::Pairing;
use super::MatchError;
use menagerie_rules::any::AnyPosition;
use menagerie_rules::random::SplitMix64;
use menagerie_rules::startpos::{self, Form};
use menagerie_rules::variant::Variant;
use std::path::Path;

/// Where start positions come from.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Uniform random indices of a setup form (optionally only the variant's short list).
    Random { form: Form, short_list: bool },
    /// Indices `first..=last` of the basic form, in order, cycled.
    Range { first: u64, last: u64 },
    /// FENs (EPD lines get `0 1` added), in order, cycled.
    Fens(Vec<String>),
}

impl Openings {
    /// `random`, `random:FORM`, `random:short`, `range:A-B`, `file:PATH`.
    pub fn parse(text: &str) -> Result<Openings, MatchError> {
        let bad = |m: String| MatchError::Config(m);
        let (kind, arg) = text.split_once(':').unwrap_or((text, ""));
        match kind {
            "random" => match arg {
                "" => Ok(Openings::Random { form: Form::Basic, short_list: false }),
                "short" => Ok(Openings::Random { form: Form::Basic, short_list: true }),
                f => Ok(Openings::Random { form: f.parse().map_err(|e| bad(format!("{e}")))?, short_list: false }),
            },
            "range" => {
                let (a, b) = arg.split_once('-').unwrap_or((arg, arg));
                match (a.parse::<u64>(), b.parse::<u64>()) {
                    (Ok(a), Ok(b)) if a <= b => Ok(Openings::Range { first: a, last: b }),
                    _ => Err(bad(format!("bad index range '{arg}' (range:FIRST-LAST)"))),
                }
            }
            "file" => read_openings(Path::new(arg)).map(Openings::Fens),
            _ => Err(bad(format!("unknown openings '{text}' (random[:FORM|:short], range:A-B, file:PATH)"))),
        }
    }
}

/// Read an EPD or FEN file: one position a line, `#` comments; EPD operations are dropped.
pub fn read_openings(path: &Path) -> Result<Vec<String>, MatchError> {
    let text = std::fs::read_to_string(path).map_err(|e| MatchError::Io(format!("{}: {e}", path.display())))?;
    parse_openings(&text, &path.display().to_string())
}

/// The positions of an EPD or FEN text (`source` names it in errors), as `read_openings`.
pub fn parse_openings(text: &str, source: &str) -> Result<Vec<String>, MatchError> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 {
            return Err(MatchError::Config(format!("{source}: '{line}' is not a FEN or EPD line")));
        }
        let numeric = |i: usize| f.get(i).is_some_and(|w| w.parse::<u32>().is_ok());
        let fen = if numeric(4) && numeric(5) { f[..6].join(" ") } else { format!("{} 0 1", f[..4].join(" ")) };
        out.push(fen);
    }
    if out.is_empty() {
        return Err(MatchError::Config(format!("{source}: no positions")));
    }
    Ok(out)
}

/// What to schedule.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub variant: &'static Variant,
    pub openings: Openings,
    pub engines: usize,
    /// Games per pair of engines (rounded up to an even number).
    pub games: usize,
    pub seed: u64,
    pub pregame: bool,
}

/// The `k`-th start position.
fn start(s: &Schedule, k: u64) -> Result<(&'static Variant, String), MatchError> {
    let err = |e: startpos::StartError| MatchError::Config(e.to_string());
    if s.pregame && !s.variant.relocation.is_empty() {
        // Relocations start from the unrelocated arrays.
        return Ok((s.variant, startpos::start_fen(s.variant, s.variant.start_default).map_err(err)?));
    }
    Ok(match &s.openings {
        Openings::Random { form, short_list } => {
            let mut count = startpos::form_count(s.variant, *form).map_err(err)?;
            if *short_list {
                match s.variant.short_list {
                    Some(n) if *form == Form::Basic => count = count.min(u64::from(n)),
                    _ => return Err(MatchError::Config(format!("{} has no short list", s.variant.name))),
                }
            }
            let mut rng = SplitMix64::new(s.seed.wrapping_add(k.wrapping_mul(0x9e37_79b9)));
            let st = startpos::start_in_form(s.variant, *form, rng.below(count)).map_err(err)?;
            (st.variant, st.fen)
        }
        Openings::Range { first, last } => {
            let i = first + k % (last - first + 1);
            (s.variant, startpos::start_fen(s.variant, i).map_err(err)?)
        }
        Openings::Fens(list) => (s.variant, list[(k % list.len() as u64) as usize].clone()),
    })
}

/// The pair of games (one start, colours reversed) that round `round` belongs to: `pairings`
/// gives each pair of engines two consecutive rounds per start, the first one odd.
pub fn game_pair(round: usize) -> usize {
    round.saturating_sub(1) / 2
}

/// Every game of the match, in playing order: encounter by encounter, each pair's two games
/// together (rounds 2k+1 and 2k+2, `game_pair`).
pub fn pairings(s: &Schedule) -> Result<Vec<Pairing>, MatchError> {
    if s.engines < 2 {
        return Err(MatchError::Config("a match needs at least two engines".to_string()));
    }
    let encounters = s.games.div_ceil(2).max(1);
    let mut out = Vec::new();
    for k in 0..encounters as u64 {
        let (variant, fen) = start(s, k)?;
        AnyPosition::from_fen(variant, &fen)
            .map_err(|e| MatchError::Config(format!("start position '{fen}' of {variant}: {e}")))?;
        for a in 0..s.engines {
            for b in a + 1..s.engines {
                for a_first in [true, false] {
                    out.push(Pairing {
                        round: out.len() + 1,
                        a,
                        b,
                        variant,
                        fen: fen.clone(),
                        a_first,
                        pregame: s.pregame,
                        seed: s.seed ^ k.wrapping_mul(0x2545_f491_4f6c_dd1d),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Games at once: as asked, but never more than the cores (each game has one engine thinking at
/// a time) nor the games.
pub fn concurrency(asked: usize, games: usize) -> usize {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    asked.clamp(1, cores).min(games.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    #[test]
    fn colours_are_reversed_and_starts_shared() {
        let s = Schedule {
            variant: by_name("dchess").unwrap(),
            openings: Openings::Random { form: Form::Basic, short_list: false },
            engines: 3,
            games: 4,
            seed: 7,
            pregame: false,
        };
        let p = pairings(&s).unwrap();
        assert_eq!(p.len(), 3 * 4);
        assert_eq!((p[0].a, p[0].b, p[0].a_first), (0, 1, true));
        assert_eq!((p[1].a, p[1].b, p[1].a_first), (0, 1, false));
        assert_eq!(p[0].fen, p[1].fen);
        assert_eq!(p[0].fen, p[5].fen, "one start for every pair of an encounter");
        assert_ne!(p[0].fen, p[6].fen, "a new start for the next encounter");
        assert_eq!(pairings(&s).unwrap()[7].fen, p[7].fen, "seeded");
        for g in &p {
            let partners: Vec<&Pairing> = p.iter().filter(|o| game_pair(o.round) == game_pair(g.round)).collect();
            assert_eq!(partners.len(), 2, "round {}", g.round);
            let (x, y) = (partners[0], partners[1]);
            assert!(x.fen == y.fen && (x.a, x.b) == (y.a, y.b) && x.a_first != y.a_first, "round {}", g.round);
        }
        assert!(pairings(&Schedule { engines: 1, ..s.clone() }).is_err());
        assert!(concurrency(64, 10) <= std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
        assert_eq!(concurrency(0, 10), 1);
    }

    #[test]
    fn opening_sources() {
        let v = by_name("chess9").unwrap();
        let s = Schedule {
            variant: v,
            openings: Openings::parse("range:7-8").unwrap(),
            engines: 2,
            games: 6,
            seed: 0,
            pregame: false,
        };
        let p = pairings(&s).unwrap();
        assert_eq!(p[0].fen, startpos::start_fen(v, 7).unwrap());
        assert_eq!(p[2].fen, startpos::start_fen(v, 8).unwrap());
        assert_eq!(p[4].fen, startpos::start_fen(v, 7).unwrap());
        assert!(Openings::parse("range:9-8").is_err());
        assert!(Openings::parse("random:general").is_ok());
        assert!(Openings::parse("random:nonsense").is_err());
        assert!(Openings::parse("file:/nonexistent.epd").is_err());
        let bad = Schedule { openings: Openings::Range { first: 9, last: 9 }, ..s };
        assert!(pairings(&bad).is_err(), "index out of range");
    }
}
