//! The win/draw/loss split a search score stands for, as `UCI_ShowWDL` reports it: a model
//! fitted to Menagerie's own self-play games (scripts/wdl-fit.rs), in which the chance of a win
//! rises along a logistic curve of the score, centred `MIDPOINT` centipawns up, and the chance
//! of a loss is its mirror; what is left is the draw.
//!
//! Owns: `Wdl`, the model's two numbers.
//! Must not know: positions, protocols, how the score was found.

use super::score::ScoreReport;

/// The score, in centipawns, at which a win and a draw-or-loss are equally likely. Fitted by
/// `cargo run --release --example wdl-fit` to 19,037 games of the 8x8 variants at 5000 nodes a
/// move (nets/data/gen1-8x8-*), 1,972,752 scored positions.
const MIDPOINT: f64 = 168.0;
/// How many centipawns take the win's odds up by a factor e (the same fit).
const SPREAD: f64 = 154.0;

/// Expected results in permille: win, draw and loss add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Wdl {
    /// The split for a score of the side to move; a mate found is a certain result.
    pub fn of(score: ScoreReport) -> Wdl {
        match score {
            ScoreReport::Mate(m) if m > 0 => Wdl { win: 1000, draw: 0, loss: 0 },
            ScoreReport::Mate(_) => Wdl { win: 0, draw: 0, loss: 1000 },
            ScoreReport::Centipawns(cp) => {
                let cp = f64::from(cp);
                let win = (1000.0 * sigmoid((cp - MIDPOINT) / SPREAD)).round() as u32;
                let loss = (1000.0 * sigmoid((-cp - MIDPOINT) / SPREAD)).round() as u32;
                // Rounding may take the two past 1000 only where the draw has vanished.
                let loss = loss.min(1000 - win);
                Wdl { win, draw: 1000 - win - loss, loss }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_splits_evenly_and_the_split_follows_the_score() {
        let even = Wdl::of(ScoreReport::Centipawns(0));
        assert_eq!(even.win, even.loss);
        assert!(even.draw > 300, "{even:?}");
        let mut last = even;
        for cp in [50, 150, 400, 1000, 3000] {
            let wdl = Wdl::of(ScoreReport::Centipawns(cp));
            assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000);
            assert!(wdl.win > last.win && wdl.loss < last.loss, "{cp}: {wdl:?} after {last:?}");
            let mirrored = Wdl::of(ScoreReport::Centipawns(-cp));
            assert_eq!((mirrored.win, mirrored.draw, mirrored.loss), (wdl.loss, wdl.draw, wdl.win));
            last = wdl;
        }
        assert_eq!(Wdl::of(ScoreReport::Centipawns(30_000)), Wdl { win: 1000, draw: 0, loss: 0 });
    }

    #[test]
    fn a_mate_is_a_certain_result() {
        assert_eq!(Wdl::of(ScoreReport::Mate(3)), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(Wdl::of(ScoreReport::Mate(-1)), Wdl { win: 0, draw: 0, loss: 1000 });
    }
}
