//! The evaluation's weights: every number the evaluation tables and terms are built from, by
//! name, with the default values the engine plays with. A tuner (scripts/texel-tune.rs) builds
//! evaluators from other values to fit them to game results.
//!
//! Owns: `EvalParams`.
//! Must not know: positions, search, variants.

macro_rules! eval_params {
    ($($(#[doc = $doc:literal])* $name:ident: $default:expr, step $step:expr;)*) => {
        /// The weights of the evaluation (centipawns unless said otherwise). Weights that the
        /// evaluation counts in whole centipawns are rounded when an evaluator is built.
        #[derive(Clone, Debug, PartialEq)]
        pub struct EvalParams {
            $($(#[doc = $doc])* pub $name: f64,)*
        }

        impl EvalParams {
            /// The weights the engine plays with.
            pub const DEFAULT: EvalParams = EvalParams { $($name: $default,)* };

            /// Every weight by name, with the step a tuner moves it by.
            pub fn weights_mut(&mut self) -> Vec<(&'static str, f64, &mut f64)> {
                vec![$((stringify!($name), $step, &mut self.$name),)*]
            }
        }
    };
}

eval_params! {
    /// Material in the middlegame of the pieces other than pawns, as a factor of their values.
    piece_value_mg: 1.0, step 0.02;
    /// Material in the endgame of the pieces other than pawns, as a factor of their values.
    piece_value_eg: 1.0, step 0.02;
    /// Material of pawns in the endgame, as a factor of their value.
    pawn_value_eg: 1.0, step 0.02;
    /// Having a colour-bound kind (bishop-like) on squares of both colours: the bishop pair.
    pair_mg: 50.0, step 5.0;
    pair_eg: 40.0, step 5.0;
    /// A piece in hand is worth its board value plus this fraction of it.
    hand_bonus: 0.125, step 0.025;
    /// Centralisation: share of a piece's value per square of average empty-board mobility,
    /// counted per square that the piece reaches from a square above (or below) that average.
    centralisation_mg: 0.15, step 0.01;
    centralisation_eg: 0.05, step 0.01;
    /// Riders (and hoppers, bent and circular riders) get this fraction of the centralisation
    /// of leapers and steppers: their empty-board reach says little about a square on a full
    /// board.
    rider_centralisation: 0.3, step 0.05;
    /// Royal piece: penalty per rank left in the middlegame (the tuned value is negative, a
    /// reward), and its centralisation weights.
    royal_advance_mg: -28.0, step 2.0;
    royal_centre_mg: -12.0, step 1.0;
    royal_centre_eg: 10.0, step 1.0;
    /// Pawn advancement: middlegame per rank, endgame for the whole way (quadratic).
    pawn_advance_mg: 11.0, step 1.0;
    pawn_advance_eg: 15.0, step 5.0;
    /// Pawn centre files in the middlegame, per file nearer the centre.
    pawn_centre_mg: 0.0, step 1.0;
    /// Mobility: centipawns per reachable square that no enemy pawn attacks, as a share of the
    /// piece's value per square of its average empty-board mobility (so a knight's square counts
    /// more than a queen's), at least 1 and at most `mobility_max`.
    mobility_share: 0.05, step 0.005;
    mobility_max: 4.0, step 1.0;
    /// Passed pawns: bonus for the whole way (quadratic in the progress).
    passed_mg: 90.0, step 5.0;
    passed_eg: 165.0, step 5.0;
    /// Passed pawns in the endgame, per square of distance (at most 5) from the square in front
    /// of the pawn to the enemy royal piece (a bonus) and to its own (a cost), scaled by the
    /// pawn's progress like the passed bonus (but linear).
    passer_enemy_king_eg: 26.0, step 1.0;
    passer_own_king_eg: 21.0, step 1.0;
    /// The fraction of the passed bonus lost while the square in front of the pawn is occupied.
    passer_blocked: 0.25, step 0.05;
    /// A pawn defended by a pawn or beside one on its rank, growing with its progress (linear,
    /// from `connected_*` on its second rank to twice that on its last).
    connected_mg: 6.0, step 2.0;
    connected_eg: -2.0, step 2.0;
    /// Per file on and next to the royal piece's file without a pawn of its own side
    /// (middlegame).
    royal_open_file_mg: 9.0, step 3.0;
    /// Per pawn beyond the first on a file.
    doubled_mg: 28.0, step 2.0;
    doubled_eg: 14.0, step 2.0;
    /// Per pawn with no friendly pawn on a neighbouring file.
    isolated_mg: 18.0, step 2.0;
    isolated_eg: 13.0, step 2.0;
    /// Per friendly pawn on the squares just in front of the royal piece (middlegame), while it
    /// stays on its first two ranks.
    shield_mg: 20.0, step 2.0;
    /// King danger: each attack on a square next to the royal piece counts the attacker's value
    /// divided by `king_attack_value_unit` (at least 1; 1 to 8 units); the middlegame penalty is
    /// `units^2 * king_danger_scale / 16`, at most `king_danger_max`.
    king_attack_value_unit: 0.0, step 25.0;
    king_danger_scale: 3.0, step 1.0;
    king_danger_max: 350.0, step 25.0;
    /// Bonus for the side to move.
    tempo: 15.0, step 2.0;
    /// Threats, per enemy piece (not a pawn, not royal) attacked by a pawn.
    threat_by_pawn_mg: 30.0, step 5.0;
    threat_by_pawn_eg: 10.0, step 5.0;
    /// Threats, per enemy piece (not a pawn, not royal) attacked and not defended.
    hanging_mg: 10.0, step 5.0;
    hanging_eg: 15.0, step 5.0;
    /// Threats, per enemy piece (not royal) attacked by a piece (not a pawn) of lower value.
    threat_by_lesser_mg: 35.0, step 5.0;
    threat_by_lesser_eg: 0.0, step 5.0;
    /// An endgame without pawns on the stronger side, whose lead in material other than pawns
    /// is at most `drawish_lead`, is hard to win: its endgame score is scaled by
    /// `drawish_scale`.
    drawish_lead: 350.0, step 25.0;
    drawish_scale: 0.1, step 0.05;
    /// A piece that rides the whole file (rook-like) on a file without pawns of its own side:
    /// half-open (enemy pawns on it) and open.
    half_open_file_mg: 36.0, step 3.0;
    half_open_file_eg: 31.0, step 3.0;
    open_file_mg: 44.0, step 3.0;
    open_file_eg: 30.0, step 3.0;
    /// Non-pawn material (both sides, board and hands) at and above which the game is a pure
    /// middlegame, and at and below which it is a pure endgame.
    midgame_material: 5500.0, step 250.0;
    endgame_material: 1000.0, step 250.0;
}
