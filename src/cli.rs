//! Command-line subcommands and the interactive loop. Every failure is one line on stderr and a
//! non-zero exit status; nothing a user types can panic.

use clap::{Parser, Subcommand, ValueEnum};
use menagerie::any::AnyPosition;
use menagerie::bench;
use menagerie::geometry::Color;
use menagerie::nnue::embedded::EvalChoice;
use menagerie::pregame;
use menagerie::protocol::{self, inspect::MAX_PERFT_DEPTH};
use menagerie::startpos::{self, Form};
use menagerie::tournament::engine_process::split_words;
use menagerie::variant::{self, Variant};
use menagerie::variant_file;
use std::io::Write;
use std::time::Instant;

/// Print a line on stdout; a closed stdout (`menagerie bench | head -1`) is not an error worth
/// a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

#[derive(Parser, Debug)]
#[command(name = "menagerie", version, about = "Menagerie chess-variant engine", disable_help_subcommand = true)]
struct Cli {
    /// A variant file whose variants join the built-in ones (see docs/variant-files.md).
    #[arg(long, global = true, value_name = "FILE")]
    variants: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// `bench --eval`, `datagen --eval`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum EvalArg {
    Default,
    HandWritten,
    Network,
}

impl From<EvalArg> for EvalChoice {
    fn from(arg: EvalArg) -> EvalChoice {
        match arg {
            EvalArg::Default => EvalChoice::Default,
            EvalArg::HandWritten => EvalChoice::HandWritten,
            EvalArg::Network => EvalChoice::Network,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft {
        #[arg(long)]
        variant: String,
        #[arg(long, conflicts_with = "index")]
        fen: Option<String>,
        #[arg(long)]
        index: Option<u64>,
        /// Setup form for --index (rvc: basic, general, restricted, systematic, systematic-dedup).
        #[arg(long, requires = "index")]
        form: Option<String>,
        #[arg(long)]
        depth: u32,
        /// One line per root move.
        #[arg(long)]
        divide: bool,
        /// Write castling as king-takes-rook.
        #[arg(long)]
        chess960: bool,
        /// Use 128-bit bitboards even on small boards (a cross-check of the two widths).
        #[arg(long, hide = true)]
        wide: bool,
    },
    /// Print a start position.
    Startpos {
        #[arg(long)]
        variant: String,
        #[arg(long, conflicts_with = "random")]
        index: Option<u64>,
        #[arg(long)]
        random: bool,
        #[arg(long, requires = "random")]
        seed: Option<u64>,
        /// Setup form (rvc: basic, general, restricted, systematic, systematic-dedup).
        #[arg(long)]
        form: Option<String>,
        /// Random basic-form draws only from the first arrays of the list (rvc: 32).
        #[arg(long, requires = "random")]
        short_list: bool,
        /// D-Chess: the first mover's transposition, e.g. b1g1.
        #[arg(long)]
        swap: Option<String>,
        /// Chess-9: COLOR:CHOICE with CHOICE king, queen or none (Black's first, then White's).
        #[arg(long)]
        relocate: Vec<String>,
        /// List the legal transpositions (D-Chess) or relocations (Chess-9) instead.
        #[arg(long)]
        list: bool,
    },
    /// Show a position as UCI's `d` does: the board, `Fen: ...`, `Key: ...`, `Checkers: ...`.
    #[command(name = "d")]
    Display {
        #[arg(long, default_value = "chess")]
        variant: String,
        #[arg(long, conflicts_with = "index")]
        fen: Option<String>,
        /// Start position number (default: the variant's default start position).
        #[arg(long)]
        index: Option<u64>,
        /// Moves played from it first, in coordinate notation.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
    },
    /// Search a fixed list of positions of every variant: the behaviour signature.
    Bench {
        /// Depth of every search.
        depth: Option<u32>,
        /// Search threads (more than one makes the count vary).
        threads: Option<usize>,
        /// Hash table size in megabytes.
        hash: Option<usize>,
        /// The evaluation: default (as the engine plays; the signature), hand-written, or
        /// network (a built-in network wherever one fits), to compare their speed.
        #[arg(long, default_value = "default")]
        eval: EvalArg,
    },
    /// List the variants.
    Variants,
    /// Print the static evaluation of a position term by term (pawns, White's point of view).
    Eval {
        #[arg(long)]
        variant: String,
        /// The position (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Make the pre-game decisions by search: D-Chess side choice and transposition, Chess-9
    /// relocations (Black's, then White's). Scores are centipawns for the side deciding.
    Pregame {
        #[arg(long)]
        variant: String,
        /// Start position number (D-Chess: white_array * 2880 + black_array).
        #[arg(long, conflicts_with = "fen")]
        index: Option<u64>,
        /// Start position FEN.
        #[arg(long)]
        fen: Option<String>,
        /// Milliseconds for each decision (default 2000).
        #[arg(long, conflicts_with_all = ["depth", "nodes", "tc"])]
        movetime: Option<u64>,
        /// Depth of every option's search.
        #[arg(long, conflicts_with_all = ["nodes", "tc"])]
        depth: Option<u32>,
        /// Nodes for each decision.
        #[arg(long, conflicts_with = "tc")]
        nodes: Option<u64>,
        /// The budget of a pre-game before a game at this time control (as in `match --tc`,
        /// e.g. 2+0.02 or 60).
        #[arg(long)]
        tc: Option<String>,
        /// Decide with the hand-written evaluation instead of the variant's network.
        #[arg(long)]
        no_network: bool,
        /// D-Chess: impose the coin-toss winner's side (white or black).
        #[arg(long)]
        side: Option<String>,
        /// D-Chess: impose the first mover's transposition (e.g. b1g1, or none).
        #[arg(long)]
        swap: Option<String>,
        /// Chess-9: impose a relocation, COLOR:CHOICE with CHOICE king, queen or none.
        #[arg(long)]
        relocate: Vec<String>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// One line per option (`decision:option score`), one per choice, then `fen FEN`.
        #[arg(long)]
        machine: bool,
    },
    /// Play a match between engines (UCI or XBoard), refereed by Menagerie's rules core.
    Match(MatchArgs),
    /// Write random start positions as EPD for cutechess-cli (D-Chess, Chess-9).
    Book {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        count: usize,
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long)]
        output: std::path::PathBuf,
    },
    /// Generate training data by self-play: whole games appended to FILE (see docs/networks.md).
    Datagen(DatagenArgs),
    /// Train a network on self-play data and write it as a network file (see docs/networks.md).
    Train(TrainArgs),
    /// Tune the search's numbers by SPSA over games between two instances of an engine built
    /// with `--features tune`, or print them for OpenBench (see docs/tuning.md).
    Tune(TuneArgs),
    /// Measure a variant's balance by self-play: the first mover's score, draws, game length,
    /// the spread over start positions, the pieces' worth (see docs/balance.md).
    Balance(BalanceArgs),
    /// Draw each piece kind's moves on an empty board, with its Betza string and its worth.
    Pieces {
        #[arg(long)]
        variant: String,
        /// Self-play games whose positions measure the worths (0: none measured).
        #[arg(long, default_value_t = 4)]
        sample_games: u64,
        /// Nodes per move of those games.
        #[arg(long, default_value_t = 300)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// `menagerie tune`.
#[derive(clap::Args, Debug)]
struct TuneArgs {
    /// Print the numbers (those of --params) in OpenBench's SPSA input format and stop.
    #[arg(long)]
    openbench: bool,
    /// The state file: created, or resumed from when it exists; written after every iteration.
    #[arg(long, required_unless_present = "openbench")]
    state: Option<std::path::PathBuf>,
    /// One line per iteration (CSV); default: the state file's name with `.history.csv` added.
    #[arg(long)]
    history: Option<std::path::PathBuf>,
    /// The engine tuned, as `menagerie match` takes it: cmd="PROGRAM ARGS" option.NAME=VALUE
    /// ...; default: this program. It must be built with `--features tune`.
    #[arg(long, num_args = 1..)]
    engine: Vec<String>,
    /// Variants, comma-separated, played in turn, one per iteration.
    #[arg(long, value_delimiter = ',', default_value = "dchess,chess9")]
    variant: Vec<String>,
    /// base+inc in seconds (1+0.01), movetime=MS, depth=N or nodes=N.
    #[arg(long, default_value = "nodes=5000")]
    tc: String,
    /// Games at once (at most the number of cores).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Game pairs per iteration (default: --concurrency).
    #[arg(long)]
    pairs: Option<u64>,
    /// The numbers to tune, comma-separated (default: all of them).
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
    /// Stop before the next iteration once this many games are played (counting earlier runs
    /// on the same state).
    #[arg(long)]
    games: Option<u64>,
    /// Stop before the next iteration once this run has lasted this many minutes.
    #[arg(long)]
    minutes: Option<f64>,
    /// The iterations the gain schedule is planned for; the run ends after them.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds an engine may stay silent without a clock (depth or nodes games).
    #[arg(long, default_value_t = 30_000)]
    hang_timeout: u64,
}

fn tune_command(a: TuneArgs) -> Result<(), String> {
    use menagerie::search::params::{self, Tunable, TUNABLES};
    use menagerie::tuning;
    let chosen: Vec<&'static Tunable> = if a.params.is_empty() {
        TUNABLES.iter().collect()
    } else {
        let mut chosen = Vec::new();
        for name in &a.params {
            let t = params::tunable(name.trim()).ok_or_else(|| {
                format!("no search number is called '{name}' (`menagerie tune --openbench` lists them)")
            })?;
            if !chosen.contains(&t) {
                chosen.push(t);
            }
        }
        // The table's order, whatever the order typed: the state names them in it.
        chosen.sort_by_key(|t| TUNABLES.iter().position(|u| u.name == t.name));
        chosen
    };
    if a.openbench {
        print!("{}", tuning::openbench_table(&chosen));
        return Ok(());
    }
    let state_path = a.state.ok_or("--state FILE is needed")?;
    let tc: menagerie::tournament::TimeControl =
        a.tc.parse().map_err(|e: menagerie::tournament::MatchError| e.to_string())?;
    if !matches!(tc, menagerie::tournament::TimeControl::Clock { .. }) {
        let timed: Vec<&str> = chosen.iter().map(|t| t.name).filter(|n| n.starts_with("time_")).collect();
        if !timed.is_empty() {
            log::warn!(
                "{} only matter under a clock: at {} their values drift at random (leave them out with --params)",
                timed.join(", "),
                a.tc
            );
        }
    }
    let mut fields = a.engine;
    if !fields.iter().any(|f| f.starts_with("cmd=")) {
        let me = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
        fields.push(format!("cmd={}", me.display()));
    }
    let engine = menagerie::tournament::EngineSpec::parse(&fields).map_err(|e| e.to_string())?;
    let variants = a.variant.iter().map(|n| load_variant(n.trim())).collect::<Result<Vec<_>, _>>()?;
    if a.minutes.is_some_and(|m| !(m.is_finite() && m > 0.0)) {
        return Err("--minutes must be a positive number".to_string());
    }
    let history_path = a.history.unwrap_or_else(|| {
        let mut name = state_path.as_os_str().to_owned();
        name.push(".history.csv");
        name.into()
    });
    let config = tuning::TuneConfig {
        engine,
        variants,
        tc,
        tc_text: a.tc,
        concurrency: a.concurrency.max(1),
        pairs_per_iteration: a.pairs.unwrap_or(a.concurrency.max(1) as u64),
        planned_iterations: a.iterations,
        params: chosen,
        seed: a.seed,
        max_games: a.games,
        max_duration: a.minutes.map(|m| std::time::Duration::from_secs_f64(m * 60.0)),
        state_path,
        history_path: Some(history_path),
        require_options: true,
        adjudication: tuning::default_adjudication(),
        hang_ms: a.hang_timeout,
    };
    let state = tuning::run(&config).map_err(|e| e.to_string())?;
    eprintln!(
        "{} iterations, {} games (plus {}-{}-{} W-D-L)",
        state.iteration, state.games, state.wins, state.draws, state.losses
    );
    Ok(())
}

/// The settings of the self-play games that `balance` and `datagen` share.
#[derive(clap::Args, Debug)]
struct SelfPlayArgs {
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table per game thread, MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The evaluation the games are played with (and, in `balance`, the pieces measured
    /// with): default (as the engine plays, a built-in network where one is the default),
    /// hand-written, or network (a built-in network wherever one fits).
    #[arg(long, default_value = "default")]
    eval: EvalArg,
}

impl SelfPlayArgs {
    fn hash_mb(&self) -> usize {
        self.hash.clamp(1, menagerie::engine::MAX_HASH_MB)
    }
}

/// Game threads, each with one search thread: 1..MAX_THREADS.
fn game_threads(threads: usize) -> Result<usize, String> {
    if threads == 0 || threads > menagerie::engine::MAX_THREADS {
        return Err(format!("--threads {threads}: 1..{}", menagerie::engine::MAX_THREADS));
    }
    Ok(threads)
}

/// `menagerie balance`.
#[derive(clap::Args, Debug)]
struct BalanceArgs {
    #[arg(long)]
    variant: String,
    /// Nodes per move (each side's limit jittered per game by --jitter).
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Milliseconds per move instead of nodes (the games are then not reproducible).
    #[arg(long)]
    movetime: Option<u64>,
    /// Start positions: all, FIRST..LAST (indices, both included) or random:K.
    #[arg(long, default_value = "all")]
    starts: String,
    #[arg(long, default_value_t = 2)]
    games_per_start: u64,
    /// Play only games 0..N of the study (starts x games per start), e.g. to go on later.
    #[arg(long)]
    games: Option<u64>,
    /// Play the variant's pre-game first (D-Chess side choice and transposition, Chess-9
    /// relocations), at 5 times a move's nodes per decision unless --pregame-nodes says.
    #[arg(long)]
    pregame: bool,
    #[arg(long, requires = "pregame")]
    pregame_nodes: Option<u64>,
    /// Each side's node limit is --nodes times a factor drawn per game from 1 +- this.
    #[arg(long, default_value_t = 0.15)]
    jitter: f64,
    /// Games at once, one search thread each (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    self_play: SelfPlayArgs,
    /// Positions sampled from the games to measure the pieces' worth, at most.
    #[arg(long, default_value_t = 2000)]
    worth_positions: usize,
    /// The game file, one game a line (JSON); a rerun continues it.
    #[arg(long)]
    out: std::path::PathBuf,
    /// Write the report as JSON.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
    /// Draw the report as SVG.
    #[arg(long)]
    svg: Option<std::path::PathBuf>,
    /// The command line, for the JSON report (filled from the raw arguments).
    #[arg(skip)]
    command_line: String,
}

fn balance_command(a: BalanceArgs) -> Result<(), String> {
    use menagerie::balance::{self, games::GameSettings};
    use menagerie::search::SearchLimits;
    let v = load_variant(&a.variant)?;
    if !(0.0..1.0).contains(&a.jitter) {
        return Err(format!("--jitter {}: a share below 1", a.jitter));
    }
    let threads =
        game_threads(a.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())))?;
    let pregame = a.pregame.then(|| match a.pregame_nodes {
        Some(n) => pregame::Budget::Nodes(n),
        None => pregame::Budget::for_game(&SearchLimits::nodes(a.nodes)),
    });
    let config = balance::BalanceConfig {
        settings: GameSettings {
            variant: v,
            nodes: a.nodes,
            movetime_ms: a.movetime,
            jitter: if a.movetime.is_some() { 0.0 } else { a.jitter },
            pregame,
            eval: a.self_play.eval.into(),
        },
        starts: a.starts.parse().map_err(|e: balance::BalanceError| e.to_string())?,
        games_per_start: a.games_per_start,
        max_games: a.games,
        threads,
        hash_mb: a.self_play.hash_mb(),
        seed: a.self_play.seed,
        out: a.out,
        worth_positions: a.worth_positions,
    };
    let report = balance::run(&config, |p| eprintln!("{p}")).map_err(|e| e.to_string())?;
    if let Some(path) = &a.json {
        let text = format!("{}\n", report.json(&a.command_line));
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &a.svg {
        let svg = balance::chart::svg(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let _ = write!(std::io::stdout().lock(), "{}", report.text());
    Ok(())
}

fn pieces_command(variant: &str, sample_games: u64, nodes: u64, seed: u64) -> Result<(), String> {
    use menagerie::balance::{diagram, quick_worths};
    let v = load_variant(variant)?;
    let worths = (sample_games > 0 && nodes > 0)
        .then(|| quick_worths(v, sample_games, nodes, seed).map_err(|e| e.to_string()))
        .transpose()?;
    for p in diagram::piece_moves(v) {
        let _ = write!(std::io::stdout().lock(), "{}", diagram::board_text(&p));
        let measured = worths.as_ref().and_then(|w| w.pieces.iter().find(|m| m.letter == p.letter).map(|m| (w, m)));
        let worth = match measured {
            Some((w, m)) if m.samples > 0 => format!(
                "measured {:.0} ({}, {} removals in {} positions{})",
                m.worth,
                w.method,
                m.samples,
                w.positions,
                if w.pawn_raw.is_some() { ", pawn = 100" } else { ", centipawns" }
            ),
            _ if p.royal => "not measured (royal)".to_string(),
            _ => "not measured (on the board in no sampled position)".to_string(),
        };
        let declared = p.value.map_or("none".to_string(), |x| x.to_string());
        say!("worth: {worth}; the variant's own value: {declared}");
        say!("");
    }
    Ok(())
}

/// `menagerie train`.
#[derive(clap::Args, Debug)]
struct TrainArgs {
    /// Data files of `menagerie datagen`, comma-separated.
    #[arg(long, required = true, value_delimiter = ',')]
    data: Vec<std::path::PathBuf>,
    /// The network file to write: after every epoch whose validation loss is the lowest yet
    /// (so that a stopped run leaves one, and a network that began to overfit is not kept).
    #[arg(long)]
    out: std::path::PathBuf,
    /// The board family, as a variant whose board it is (default: the first game's).
    #[arg(long)]
    family: Option<String>,
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the search's score against the game's result.
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Share of the games held out, whole, to measure the fit.
    #[arg(long, default_value_t = 0.05)]
    validation: f32,
    /// Hand inputs per kind, where the family has drops.
    #[arg(long, default_value_t = 1)]
    hand_max: u8,
    /// Train a shared column per colour and kind beside the per-square ones (true|false).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    factorise: bool,
    /// Train a correction network: its output, bent into this many centipawns either way, is
    /// added to the hand-written evaluation.
    #[arg(long)]
    correction: Option<u16>,
    /// Train a column per kind and square (true), or only one per colour and kind: a network
    /// of the material alone (false; needs --factorise true).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    piece_squares: bool,
    /// Output layers, one for each stage of material (from the bare kings to a full board).
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Copies of the inputs for regions of each side's king: 1 (none), 2 (on its first rank or
    /// not) or 4 (that, and the outer or inner half of its half of the board, the right half
    /// mirrored onto the left).
    #[arg(long, default_value_t = 1)]
    king_buckets: u8,
    /// Go on from OUT's checkpoint (OUT with the extension `.checkpoint`, written after every
    /// epoch) where an earlier run of the same command on the same data stopped.
    #[arg(long)]
    resume: bool,
}

fn train_command(a: TrainArgs) -> Result<(), String> {
    use menagerie::nnue::{file, InputLayout};
    use menagerie::training::{samples::SampleSet, train};
    if !menagerie::nnue::WIDTHS.contains(&a.hidden) {
        return Err(format!("--hidden {}: the engine runs widths {:?}", a.hidden, menagerie::nnue::WIDTHS));
    }
    if a.epochs == 0 || a.batch == 0 || !(0.0..=1.0).contains(&a.lambda) {
        return Err("train needs an epoch, a batch and lambda in 0..1".to_string());
    }
    if !(1..=file::MAX_BUCKETS).contains(&a.buckets) {
        return Err(format!("--buckets must be 1..{}", file::MAX_BUCKETS));
    }
    if !menagerie::nnue::layout::KING_BUCKET_CHOICES.contains(&a.king_buckets) {
        return Err(format!("--king-buckets must be one of {:?}", menagerie::nnue::layout::KING_BUCKET_CHOICES));
    }
    if !a.piece_squares && !a.factorise {
        return Err("--piece-squares false needs --factorise true".to_string());
    }
    let mut games = Vec::new();
    for path in &a.data {
        games.extend(menagerie::datagen::format::read_file(path).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    let family = match (&a.family, games.first()) {
        (Some(name), _) => load_variant(name)?,
        (None, Some(g)) => load_variant(&g.variant)?,
        (None, None) => return Err("no games in the data".to_string()),
    };
    let layout = InputLayout::union(menagerie::nnue::family_of(family), a.hand_max)
        .map_err(|e| e.to_string())?
        .with_king_buckets(a.king_buckets);
    let (set, skipped) = SampleSet::from_games(&layout, &games).map_err(|e| e.to_string())?;
    eprintln!("train: {} games ({skipped} of other boards left out), {} positions", games.len() - skipped, set.len());
    let config = train::TrainConfig {
        hidden: a.hidden,
        epochs: a.epochs,
        batch: a.batch,
        learning_rate: a.lr,
        lambda: a.lambda,
        seed: a.seed,
        validation: a.validation,
        factorise: a.factorise,
        correction: a.correction,
        piece_squares: a.piece_squares,
        buckets: a.buckets,
    };
    let notes = vec![format!(
        "trained by menagerie {} on {} positions of {} games: hidden {} epochs {} batch {} lr {} lambda {} seed {} \
         factorise {} correction {} piece-squares {} buckets {} king-buckets {}",
        env!("CARGO_PKG_VERSION"),
        set.len(),
        games.len() - skipped,
        a.hidden,
        a.epochs,
        a.batch,
        a.lr,
        a.lambda,
        a.seed,
        a.factorise,
        a.correction.map_or_else(|| "none".to_string(), |c| c.to_string()),
        a.piece_squares,
        a.buckets,
        a.king_buckets
    )];
    let fingerprint = train::fingerprint(&layout, &set, &config);
    let checkpoint_path = a.out.with_extension("checkpoint");
    let resume = match a.resume {
        true => {
            let bytes = std::fs::read(&checkpoint_path).map_err(|e| format!("{}: {e}", checkpoint_path.display()))?;
            let c = menagerie::training::checkpoint::Checkpoint::read(&bytes, &fingerprint)
                .map_err(|e| format!("{}: {e}", checkpoint_path.display()))?;
            eprintln!("train: going on after epoch {} of {}", c.epochs_done, a.epochs);
            Some(c)
        }
        false => None,
    };
    let mut failure = None;
    let mut best = resume.as_ref().map_or(f64::INFINITY, |c| c.best_validation);
    train::train_from(layout, &set, &config, resume, |report, net, checkpoint| {
        let temporary = checkpoint_path.with_extension("checkpoint-partial");
        let written = std::fs::write(&temporary, checkpoint.write(&fingerprint))
            .and_then(|()| std::fs::rename(&temporary, &checkpoint_path));
        if let Err(e) = written {
            failure.get_or_insert(format!("{}: {e}", checkpoint_path.display()));
        }
        // With no games held out every validation loss is 0, so every epoch is written.
        if report.validation_loss > best {
            eprintln!("{report} (not written: the validation loss was {best:.6})");
            return;
        }
        best = report.validation_loss;
        eprintln!("{report} (written)");
        let mut notes = notes.clone();
        notes.push(format!("epoch {} of {}, validation loss {:.6}", report.epoch, a.epochs, report.validation_loss));
        let temporary = a.out.with_extension("partial");
        let written = std::fs::write(&temporary, file::write(&net.quantised(), &notes))
            .and_then(|()| std::fs::rename(&temporary, &a.out));
        if let Err(e) = written {
            failure.get_or_insert(format!("{}: {e}", a.out.display()));
        }
    });
    failure.map_or(Ok(()), Err)
}

/// `menagerie datagen`.
#[derive(clap::Args, Debug)]
struct DatagenArgs {
    /// Variants, comma-separated; games go to them in turn.
    #[arg(long, required = true, value_delimiter = ',')]
    variant: Vec<String>,
    #[arg(long)]
    games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    self_play: SelfPlayArgs,
    /// A network file to play every game with, in place of --eval (a candidate network as the
    /// teacher of the next batch); it must fit every variant.
    #[arg(long, conflicts_with = "eval")]
    eval_file: Option<std::path::PathBuf>,
    /// Per mille of the games of variants with pieces in hand in which one side, at random,
    /// must play its best drop at one of its first ten moves (that move keeps no score).
    #[arg(long, default_value_t = 0)]
    early_drop_permille: u32,
    /// The data file (appended to; a torn last game of a killed run is cut off first).
    #[arg(long)]
    out: std::path::PathBuf,
}

/// `menagerie match`: the settings as typed; `tournament` reads them.
#[derive(clap::Args, Debug)]
struct MatchArgs {
    /// An engine (repeat): name=A cmd="PROGRAM ARGS" proto=uci|xboard option.NAME=VALUE pregame=engine|random
    #[arg(long, num_args = 1.., required = true, action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// The `--engine` values grouped per occurrence (filled from the raw matches).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    #[arg(long)]
    variant: String,
    /// base+inc in seconds (10+0.1), movetime=MS, depth=N or nodes=N.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Games per pair of engines (each start twice, colours reversed).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// random, random:FORM, random:short, range:FIRST-LAST, file:PATH (EPD or FEN lines).
    #[arg(long, default_value = "random")]
    openings: String,
    #[arg(long)]
    seed: Option<u64>,
    /// Play the variant's pre-game (D-Chess toss, side choice, transposition; Chess-9 relocations).
    #[arg(long)]
    pregame: bool,
    /// Games at once (at most the number of cores).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Append each finished game to this PGN file.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Go on with an interrupted match: the games its --pgn file holds count and are not played
    /// again (give the same engines, variant, openings and --seed; --games may grow).
    #[arg(long, requires_all = ["pgn", "seed"])]
    resume: bool,
    #[arg(long, default_value = "Menagerie match")]
    event: String,
    /// elo0=0 elo1=5 alpha=0.05 beta=0.05: stop when decided.
    #[arg(long, num_args = 1..)]
    sprt: Vec<String>,
    /// movecount=N score=CP: both engines agree one side is lost.
    #[arg(long, num_args = 1..)]
    resign: Vec<String>,
    /// movenumber=N movecount=N score=CP: both engines see a draw.
    #[arg(long, num_args = 1..)]
    draw: Vec<String>,
    /// Adjudicate a draw after this many moves.
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Milliseconds an engine may overrun its clock.
    #[arg(long, default_value_t = 100)]
    grace: u64,
    /// Milliseconds an engine may stay silent without a clock (depth or nodes games).
    #[arg(long, default_value_t = 30_000)]
    hang_timeout: u64,
    /// Milliseconds offered for each pre-game decision (default: the engine's share of the
    /// time control, see docs/pregame.md).
    #[arg(long)]
    pregame_time: Option<u64>,
}

fn run_match_command(a: MatchArgs) -> Result<(), String> {
    use menagerie::tournament::{self as t, schedule, stats::Sprt};
    let e = |e: t::MatchError| e.to_string();
    let engines = a
        .engine_groups
        .iter()
        .map(|fields| t::EngineSpec::parse(fields).map_err(|x| x.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = if a.sprt.is_empty() {
        None
    } else {
        let v = t::key_values(&a.sprt, &["elo0", "elo1", "alpha", "beta"]).map_err(e)?;
        Some(Sprt { elo0: v[0], elo1: v[1], alpha: v[2], beta: v[3] })
    };
    let seed = a.seed.unwrap_or_else(menagerie::random::clock_seed);
    let tc: t::TimeControl = a.tc.parse().map_err(e)?;
    let config = t::MatchConfig {
        schedule: schedule::Schedule {
            variant: load_variant(&a.variant)?,
            openings: schedule::Openings::parse(&a.openings).map_err(e)?,
            engines: engines.len(),
            games: a.games,
            seed,
            pregame: a.pregame,
        },
        engines,
        options: t::GameOptions {
            tc,
            grace_ms: a.grace,
            hang_ms: a.hang_timeout,
            pregame_budget: match a.pregame_time {
                Some(ms) => pregame::Budget::MoveTime { ms },
                None => tc.pregame_budget(),
            },
            adjudication: t::Adjudication::parse(&a.resign, &a.draw, a.maxmoves).map_err(e)?,
        },
        concurrency: a.concurrency,
        pgn_out: a.pgn,
        resume: a.resume,
        event: a.event,
        sprt,
    };
    log::info!("match seed {seed}");
    t::run_match(&config, &mut std::io::stdout().lock()).map_err(e)?;
    Ok(())
}

fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("error: {message}");
    1
}

/// Run with the process arguments; returns the exit status.
pub fn run(args: Vec<String>) -> i32 {
    match parse_cli(&args) {
        Ok(cli) => {
            if let Err(e) = load_variants(cli.variants.as_deref()) {
                return fail(e);
            }
            match cli.command {
                Some(c) => execute(c),
                None => interactive(),
            }
        }
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                print!("{e}");
                return 0;
            }
            let text = e.to_string();
            // clap's message up to its usage lines, on one line (a missing argument is named on
            // the line after the first).
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let message = message.join(" ");
            let message = message.trim_start_matches("error: ");
            fail(format!("{} (see 'menagerie --help')", if message.is_empty() { "bad arguments" } else { message }))
        }
    }
}

/// Make the variants of `--variants FILE` known.
fn load_variants(path: Option<&std::path::Path>) -> Result<(), String> {
    match path {
        Some(path) => {
            let loaded = variant_file::load(path).map_err(|e| e.to_string())?;
            for refusal in &loaded.refused {
                eprintln!("warning: {}: {refusal}", path.display());
            }
            Ok(())
        }
        None => Ok(()),
    }
}

/// Parse the arguments; `--engine` groups (one per occurrence) are read from the raw matches,
/// which the derive cannot express.
fn parse_cli(args: &[String]) -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().try_get_matches_from(args)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    if let Some(Command::Balance(b)) = cli.command.as_mut() {
        b.command_line = format!("menagerie {}", args.iter().skip(1).cloned().collect::<Vec<_>>().join(" "));
    }
    if let (Some(Command::Match(m)), Some(sub)) = (cli.command.as_mut(), matches.subcommand_matches("match")) {
        if let Some(groups) = sub.get_occurrences::<String>("engine") {
            m.engine_groups = groups.map(|g| g.cloned().collect()).collect();
        }
    }
    Ok(cli)
}

fn parse_form(text: Option<&str>) -> Result<Form, String> {
    text.map_or(Ok(Form::Basic), |t| t.parse::<Form>().map_err(|e| e.to_string()))
}

fn load_variant(name: &str) -> Result<&'static Variant, String> {
    variant::by_name(name).map_err(|e| e.to_string())
}

fn execute(command: Command) -> i32 {
    match command_result(command) {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

fn command_result(command: Command) -> Result<(), String> {
    match command {
        Command::Match(args) => run_match_command(args),
        Command::Train(a) => train_command(a),
        Command::Tune(a) => tune_command(a),
        Command::Balance(a) => balance_command(a),
        Command::Pieces { variant, sample_games, nodes, seed } => pieces_command(&variant, sample_games, nodes, seed),
        Command::Datagen(a) => {
            let variants = a.variant.iter().map(|n| load_variant(n)).collect::<Result<Vec<_>, _>>()?;
            if a.nodes == 0 {
                return Err("--nodes 0: datagen needs at least one node per move".to_string());
            }
            let network = match &a.eval_file {
                Some(path) => Some(std::sync::Arc::new(
                    menagerie::nnue::file::load(path).map_err(|e| format!("{}: {e}", path.display()))?,
                )),
                None => None,
            };
            let config = menagerie::datagen::DatagenConfig {
                variants,
                network,
                games: a.games,
                nodes: a.nodes,
                threads: game_threads(a.threads)?,
                seed: a.self_play.seed,
                hash_mb: a.self_play.hash_mb(),
                eval: a.self_play.eval.into(),
                early_drop_permille: a.early_drop_permille.min(1000),
            };
            let summary = menagerie::datagen::run(&config, &a.out, |p| eprintln!("{p}")).map_err(|e| match e {
                menagerie::datagen::format::DataError::Unfit(_) => e.to_string(),
                _ => format!("{}: {e}", a.out.display()),
            })?;
            say!("games {} positions {}", summary.games, summary.positions);
            Ok(())
        }
        Command::Book { variant, count, seed, output } => {
            let v = load_variant(&variant)?;
            let mut file = std::fs::File::create(&output).map_err(|e| format!("{}: {e}", output.display()))?;
            menagerie::tournament::book::write_book(
                v,
                count,
                seed.unwrap_or_else(menagerie::random::clock_seed),
                &mut file,
            )
            .map_err(|e| e.to_string())?;
            file.flush().map_err(|e| format!("{}: {e}", output.display()))
        }
        Command::Bench { depth, threads, hash, eval } => {
            let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
            if depth == 0 || depth > 64 {
                return Err(format!("bench depth {depth} is out of range (1..64)"));
            }
            let report = bench::run(
                depth,
                threads.unwrap_or(bench::DEFAULT_THREADS).max(1),
                hash.unwrap_or(bench::DEFAULT_HASH_MB).max(1),
                eval.into(),
            )
            .map_err(|e| e.to_string())?;
            say!("Total time (ms): {}", report.time.as_millis());
            say!("Nodes searched: {}", report.nodes);
            say!("Nodes/second: {}", report.nps);
            Ok(())
        }
        Command::Display { variant, fen, index, moves } => {
            let v = load_variant(&variant)?;
            let fen = match fen {
                Some(f) => f,
                None => startpos::start_fen(v, index.unwrap_or(v.start_default)).map_err(|e| e.to_string())?,
            };
            let mut pos = AnyPosition::from_fen(v, &fen).map_err(|e| e.to_string())?;
            for (i, m) in moves.iter().enumerate() {
                pos.play_text(m).map_err(|e| format!("move {}: {e}", i + 1))?;
            }
            for line in protocol::inspect::board_lines(&pos) {
                say!("{line}");
            }
            Ok(())
        }
        Command::Pregame {
            variant,
            index,
            fen,
            movetime,
            depth,
            nodes,
            tc,
            no_network,
            side,
            swap,
            relocate,
            threads,
            machine,
        } => {
            let v = load_variant(&variant)?;
            let fen = match (fen, index) {
                (Some(f), _) => f,
                (None, Some(i)) => startpos::start_fen(v, i).map_err(|e| e.to_string())?,
                (None, None) => return Err("pregame needs --index N or --fen FEN".to_string()),
            };
            let budget = match (movetime, depth, nodes, tc) {
                (Some(ms), ..) => pregame::Budget::MoveTime { ms },
                (_, Some(d), ..) => pregame::Budget::Depth(d),
                (_, _, Some(n), _) => pregame::Budget::Nodes(n),
                (.., Some(tc)) => {
                    tc.parse::<menagerie::tournament::TimeControl>().map_err(|e| e.to_string())?.pregame_budget()
                }
                _ => pregame::DEFAULT_BUDGET,
            };
            let mut forced = pregame::Forced {
                side: side.as_deref().map(pregame::parse_color).transpose().map_err(|e| e.to_string())?,
                swap,
                relocations: Vec::new(),
            };
            for r in &relocate {
                let (color, choice) =
                    r.split_once(':').ok_or_else(|| format!("--relocate takes COLOR:CHOICE, not '{r}'"))?;
                forced.relocations.push((pregame::parse_color(color).map_err(|e| e.to_string())?, choice.to_string()));
            }
            let network = if no_network { None } else { menagerie::nnue::embedded::default_for(v).cloned() };
            let mut scorer = pregame::Scorer::new(pregame::scorer::MAX_SCORER_HASH_MB, threads).with_network(network);
            let result = pregame::run_pregame(v, &fen, budget, &forced, &mut scorer).map_err(|e| e.to_string())?;
            let lines = if machine {
                pregame::machine_lines(&result)
            } else {
                pregame::human_lines(&v.name, &fen, budget, &result)
            };
            for line in lines {
                say!("{line}");
            }
            Ok(())
        }
        Command::Variants => {
            for n in variant::names() {
                say!("{n}");
            }
            Ok(())
        }
        Command::Eval { variant, fen } => {
            let v = load_variant(&variant)?;
            let fen = match fen {
                Some(f) => f,
                None => startpos::start_fen(v, v.start_default).map_err(|e| e.to_string())?,
            };
            let pos = AnyPosition::from_fen(v, &fen).map_err(|e| e.to_string())?;
            let network = menagerie::nnue::embedded::fitting(menagerie::nnue::embedded::built_in(), v);
            let searching_with = menagerie::nnue::embedded::describe(v, menagerie::nnue::embedded::default_for(v));
            for line in menagerie::protocol::inspect::eval_lines(&pos, network.map(|n| &**n), &searching_with) {
                say!("{line}");
            }
            Ok(())
        }
        Command::Perft { variant, fen, index, form, depth, divide, chess960, wide } => {
            let mut v = load_variant(&variant)?;
            if depth > MAX_PERFT_DEPTH {
                return Err(format!("depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"));
            }
            let fen = match fen {
                Some(f) => f,
                None => {
                    let form = parse_form(form.as_deref())?;
                    let start = startpos::start_in_form(v, form, index.unwrap_or(0)).map_err(|e| e.to_string())?;
                    v = start.variant;
                    start.fen
                }
            };
            let pos =
                AnyPosition::from_fen_width(v, &fen, wide || v.geometry.squares() > 64).map_err(|e| e.to_string())?;
            let start = Instant::now();
            let show_progress = depth >= 6;
            let rows = pos.divide(depth.max(1), chess960, |done, all| {
                if show_progress {
                    eprint!("\rperft: {done}/{all} root moves, {:.1} s", start.elapsed().as_secs_f64());
                    if done == all {
                        eprintln!();
                    }
                }
            });
            let total: u64 = if depth == 0 { 1 } else { rows.iter().map(|(_, n)| n).sum() };
            let mut out = std::io::stdout().lock();
            if divide && depth > 0 {
                for (m, n) in &rows {
                    let _ = writeln!(out, "{m}: {n}");
                }
            }
            let secs = start.elapsed().as_secs_f64();
            log::info!("perft {depth}: {total} nodes in {secs:.3} s ({:.0} nodes/s)", total as f64 / secs.max(1e-9));
            let _ = writeln!(out, "Nodes searched: {total}");
            Ok(())
        }
        Command::Startpos { variant, index, random, seed, form, short_list, swap, relocate, list } => {
            let v = load_variant(&variant)?;
            let form = parse_form(form.as_deref())?;
            let count = startpos::form_count(v, form).map_err(|e| e.to_string())?;
            let count = match (short_list, v.short_list) {
                (false, _) => count,
                (true, Some(n)) if form == Form::Basic => count.min(n as u64),
                (true, _) => return Err(format!("{} has no short list for this form", v.name)),
            };
            let index = match (index, random) {
                (Some(i), _) => i,
                (None, true) => startpos::random_index(count, seed.unwrap_or_else(menagerie::random::clock_seed)),
                (None, false) => 0,
            };
            let start = startpos::start_in_form(v, form, index).map_err(|e| e.to_string())?;
            if start.variant.name != v.name {
                eprintln!("note: this array is played as {}", start.variant.name);
            }
            let v = start.variant;
            let mut fen = start.fen;
            for r in &relocate {
                let (color, choice) =
                    r.split_once(':').ok_or_else(|| format!("--relocate takes COLOR:CHOICE, not '{r}'"))?;
                let color = Color::from_name(color).ok_or_else(|| format!("unknown colour '{color}' in --relocate"))?;
                fen = startpos::apply_relocation(v, &fen, color, choice).map_err(|e| e.to_string())?;
            }
            if let Some(token) = swap {
                fen = startpos::apply_transposition(v, &fen, &token).map_err(|e| e.to_string())?;
            }
            // Every start position must also be a valid position of its variant.
            AnyPosition::from_fen(v, &fen).map_err(|e| format!("internal: start position rejected: {e}"))?;
            if list {
                let options = if !v.relocation.is_empty() {
                    let mut all = Vec::new();
                    for c in [Color::Black, Color::White] {
                        for o in startpos::relocations(v, &fen, c).map_err(|e| e.to_string())? {
                            all.push(format!("{}:{o}", if c == Color::White { "white" } else { "black" }));
                        }
                    }
                    all
                } else {
                    startpos::transpositions(v, &fen).map_err(|e| e.to_string())?
                };
                for o in options {
                    say!("{o}");
                }
            } else {
                say!("{fen}");
            }
            Ok(())
        }
    }
}

fn interactive() -> i32 {
    say!(
        "Menagerie {} by the Menagerie developers; variants: {}",
        env!("CARGO_PKG_VERSION"),
        variant::names().join(" ")
    );
    let lines = protocol::stdin_lines();
    while let Ok(input) = lines.recv() {
        let protocol::Input::Line(line) = input else {
            say!("error: {input}");
            continue;
        };
        let words = split_words(&line);
        let Some(first) = words.first() else { continue };
        match first.as_str() {
            "quit" | "exit" => break,
            uci if protocol::UCI_COMMANDS.contains(&uci) => {
                protocol::run_uci(&line, lines);
                break;
            }
            "xboard" => {
                protocol::run_xboard(lines);
                break;
            }
            "perft" | "d" | "eval" | "startpos" | "variants" | "bench" | "pregame" => {
                let mut args = vec!["menagerie".to_string()];
                args.extend(words.iter().cloned());
                match Cli::try_parse_from(&args) {
                    Ok(Cli { command: Some(c), variants }) => {
                        if let Err(e) = load_variants(variants.as_deref()).and_then(|()| command_result(c)) {
                            say!("error: {e}");
                        }
                    }
                    Ok(_) => {}
                    Err(e) => say!("error: {}", e.to_string().lines().next().unwrap_or("bad command")),
                }
            }
            other => say!("error: unknown command '{other}' (try perft, d, startpos, pregame, variants, quit)"),
        }
        let _ = std::io::stdout().flush();
    }
    0
}
