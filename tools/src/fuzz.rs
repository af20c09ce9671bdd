//! The project's fuzz targets and the mutating driver that feeds them: deterministic for a
//! seed, on stable Rust, with no tool beyond this crate. Each target takes arbitrary bytes and
//! checks its invariants, panicking with the reason when one fails:
//!
//! - `fen`: the first byte picks a variant, the rest is read as a FEN. No panic; an accepted
//!   FEN writes back a FEN that reads to the same position, and every legal move of it plays.
//! - `moves`: the first bytes pick a variant and a position reached by random moves, the rest
//!   is read as a move (UCI coordinates, castling forms, drops; then through XBoard's codec).
//!   A refused move leaves the position as it was; an accepted one is a legal move, and its
//!   coordinate text plays to the same position.
//! - `uci`: the bytes are command lines of a UCI session. No panic, no hang; every `go` gets
//!   exactly one `bestmove`, legal in the position of its `go` (`0000` only without a legal
//!   move); a `position` or `setoption` answered with an error changes neither the position
//!   nor the options.
//! - `xboard`: the bytes are command lines of an XBoard session. No panic, no hang, and the
//!   session's position always writes a FEN that reads back to it.
//! - `book`: the bytes are an EPD/FEN opening file (`menagerie match --openings file:`). No
//!   panic; every position taken has the six FEN fields.
//! - `variants`: the bytes are a variant file (`VariantPath`), read on top of the built-in
//!   variants. No panic; a refusal names a line of the file; for the first few hundred files
//!   taken, every variant's start positions are checked with its compiled rules (no panic).
//!
//! Inputs are made by mutating a small corpus of good inputs per target (bytes flipped,
//! inserted, deleted, repeated, spliced, and tokens of the target's language inserted). A
//! failing input is printed on stderr (escaped) before the panic propagates.
//!
//! Owns: `Target`, `run`, `FuzzReport`, the targets' invariants.
//! Must not know: how the engine implements what it is fed.

use menagerie_engine::protocol::uci::Uci;
use menagerie_engine::protocol::xboard::Xboard;
use menagerie_engine::protocol::{read_line_bounded, Input, Session, MAX_LINE_BYTES};
use menagerie_rules::any::AnyPosition;
use menagerie_rules::random::SplitMix64;
use menagerie_rules::variant;
use std::cell::RefCell;
use std::fmt;
use std::io::Write;
use std::rc::Rc;
use std::sync::Once;
use std::time::{Duration, Instant};

/// A fuzz target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Fen,
    Moves,
    Uci,
    Xboard,
    Book,
    Variants,
}

impl Target {
    pub const ALL: [Target; 6] =
        [Target::Fen, Target::Moves, Target::Uci, Target::Xboard, Target::Book, Target::Variants];

    pub fn name(self) -> &'static str {
        match self {
            Target::Fen => "fen",
            Target::Moves => "moves",
            Target::Uci => "uci",
            Target::Xboard => "xboard",
            Target::Book => "book",
            Target::Variants => "variants",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Check one input; panics with the broken invariant. True if the input was taken (a FEN
    /// or book read, a move played, a session run) rather than refused or skipped.
    pub fn check(self, input: &[u8]) -> bool {
        match self {
            Target::Fen => check_fen(input),
            Target::Moves => check_moves(input),
            Target::Uci => check_uci(input),
            Target::Xboard => check_xboard(input),
            Target::Book => check_book(input),
            Target::Variants => check_variant_file(input),
        }
    }

    fn corpus(self) -> Vec<Vec<u8>> {
        let texts: &[&str] = match self {
            Target::Fen => &[
                "\0rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "\x01rnbqkbnr/pppp1ppp/8/8/4pP2/8/PPPPP1PP/RNBQKBNR b KQkq f3 0 3",
                "\x04rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1",
                "\x02bqnrknrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKNRB w GDgd - 0 1",
                "\x05rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
                "\x06r1b2k1b1n1r/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R1B2K1B1N1R w KQkq - 0 1",
                "\x03 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            ],
            Target::Moves => &[
                "\0\0e2e4", "\x01\x03e1g1", "\x04\x02C@d4", "\x05\x07e7e8q", "\x02\x05O-O", "\x03\x09e1f1,h1e1",
                "\x06\x04b1c3", "\0\x08a7a8n",
            ],
            Target::Uci => &[
                "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\n",
                "setoption name UCI_Variant value vdchess\nposition startpos moves C@e3\ngo nodes 500\nstop\n",
                "setoption name UCI_Variant value rvc\nucinewgame\nposition startpos\ngo movetime 10\n",
                "setoption name MultiPV value 3\nposition fen 7k/8/8/8/8/8/6q1/7K w - - 0 1\ngo depth 2\n",
                "position startpos\ngo ponder wtime 100 btime 100\nponderhit\n",
                "setoption name UCI_Chess960 value true\nposition startpos\ngo searchmoves e2e4 d2d4 depth 2\n",
                "setoption name Hash value 1\nsetoption name Threads value 2\nposition startpos\ngo infinite\nisready\nstop\n",
                "setoption name UCI_Variant value dchess\npregame side\nposition startpos\ngo perft 2\neval\nd\n",
            ],
            Target::Xboard => &[
                "xboard\nprotover 2\nnew\nsd 2\nusermove e2e4\n",
                "new\nvariant vdchess\nforce\nusermove C@e3\ngo\n?\n",
                "new\nsetboard 7k/8/8/8/8/8/6q1/7K w - - 0 1\nsd 1\ngo\nundo\nremove\n",
                "new\nvariant chess9\nmemory 1\ncores 2\nlevel 40 0:05 0\ntime 100\notim 100\nusermove e2e4\n",
                "new\nanalyze\nusermove e2e4\nexit\nexclude e7e5\nresult 1-0 {x}\n",
            ],
            Target::Book => &[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n# a comment\n",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; id \"x\"\n",
                "bqnrknrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKNRB w GDgd - hmvc 0;\n",
            ],
            Target::Variants => &[
                "[fz-griffin:rvc]\npiece = Y griffin FR value=600\n",
                "[fz-small]\nboard = 5x5\npiece = K king K royal\npiece = P pawn fmWfcF pawn\npiece = R rook R castling-rook\n\
                 castling = none\nstalemate = draw\nstart-template = x\nstart = fen rk3/ppp2/5/2PPP/3KR w - - 0 1\n\
                 transposition = none\nrelocation = none\n",
                "[fz-ten:chess]\nboard = 10x10\npiece = A archbishop BN\npiece = C chancellor RN\ncastling = fixed c d i h\n\
                 start = fen rnabqkbcnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n",
                "[fz-drop:vdchess]\nreplace = yes\npromotion = Q\n[fz-drop2:fz-drop]\nno-piece = A\n",
                variant::BUILTIN_TEXT,
            ],
        };
        let mut corpus: Vec<Vec<u8>> = texts.iter().map(|t| t.as_bytes().to_vec()).collect();
        // Positions of every variant a few random moves in, and their legal moves: inputs that
        // read, so that small edits of them probe the readers' edges.
        if matches!(self, Target::Fen | Target::Moves) {
            let variants = variant::names_with_options().len() as u8;
            for variant_byte in 0..variants {
                for plies in [0u8, 5, 12, 23, 31] {
                    let Some(position) = position_after(variant_byte, plies) else { continue };
                    if self == Target::Fen {
                        corpus.push([&[variant_byte][..], position.to_fen().as_bytes()].concat());
                        continue;
                    }
                    let legal = position.legal_moves_uci(false);
                    for m in legal.iter().step_by(legal.len() / 6 + 1) {
                        corpus.push([&[variant_byte, plies][..], m.as_bytes()].concat());
                    }
                }
            }
        }
        corpus
    }

    fn tokens(self) -> &'static [&'static str] {
        match self {
            Target::Fen | Target::Book => {
                &["/", "8", "12", "10", " w ", " b ", "KQkq", "HAha", "-", "[", "]", "Cc", "~", "+", "0 1", "e3", ";"]
            }
            Target::Variants => &[
                "\n",
                "[",
                "]",
                ":",
                "=",
                "#",
                "piece = ",
                "no-piece = ",
                "board = ",
                "12x10",
                "16x9",
                "castling = ",
                "fixed c d g f",
                "free 2",
                "start = ",
                "fen ",
                "arrays ",
                "shuffle960 mirrored",
                "royal",
                " pawn",
                " castling-rook",
                " value=",
                "xboard-image=",
                "N",
                "BN",
                "mRcpR",
                "(1,4)",
                "[F?R]",
                "gQ",
                "promotion = ",
                "replace = yes",
                "drops = yes",
                "start-default = ",
                "form-slots = ",
                "/",
                "10",
                "{W}",
                "{hand}",
            ],
            Target::Moves => &["e2e4", "@", "O-O", "O-O-O", ",", "q", "a", "c", "10", "l", "0000", "x", "=", "+"],
            Target::Uci => &[
                "\n",
                "go ",
                "depth 2 ",
                "nodes 300 ",
                "movetime 5 ",
                "wtime 50 btime 50 winc 1 binc 1 ",
                "movestogo 1 ",
                "infinite",
                "mate 2",
                "searchmoves ",
                "ponder ",
                "ponderhit\n",
                "stop\n",
                "isready\n",
                "ucinewgame\n",
                "position startpos moves ",
                "position fen ",
                " moves ",
                "e2e4 ",
                "C@e3 ",
                "setoption name ",
                " value ",
                "UCI_Variant value rvc\n",
                "UCI_Variant value chess9\n",
                "UCI_Variant value displacement\n",
                "MultiPV value 4\n",
                "Hash value 2\n",
                "Threads value 2\n",
                "Use NNUE value false\n",
                "UCI_ShowWDL value true\n",
                "Ruleset value vdchess\n",
                "pregame ",
                "quit\n",
            ],
            Target::Xboard => &[
                "\n",
                "go\n",
                "force\n",
                "new\n",
                "usermove ",
                "e2e4\n",
                "?\n",
                "undo\n",
                "remove\n",
                "sd 1\n",
                "st 1\n",
                "level 0 1 0\n",
                "time 10\n",
                "variant ",
                "rvc\n",
                "setboard ",
                "analyze\n",
                "exit\n",
                "exclude ",
                "include all\n",
                "option ",
                "memory 2\n",
                "cores 2\n",
                "ping 1\n",
                "white\n",
                "black\n",
                "playother\n",
                "hard\n",
                "quit\n",
            ],
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct FuzzReport {
    pub target: Target,
    pub inputs: u64,
    /// Inputs taken rather than refused (see `Target::check`).
    pub taken: u64,
    pub elapsed: Duration,
}

impl fmt::Display for FuzzReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fuzz {}: {} inputs ({} taken) in {:.1} s, every invariant held",
            self.target,
            self.inputs,
            self.taken,
            self.elapsed.as_secs_f64()
        )
    }
}

thread_local! {
    static CURRENT: RefCell<Option<(Target, Vec<u8>)>> = const { RefCell::new(None) };
}

/// Print the input being checked when a check panics, then do what the panic would have done.
fn install_panic_report() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let current = CURRENT.try_with(|c| c.try_borrow().ok().and_then(|c| c.clone())).ok().flatten();
            if let Some((target, input)) = current {
                eprintln!("fuzz {target}: failing input: \"{}\"", input.escape_ascii());
            }
            previous(info);
        }));
    });
}

/// Fuzz `target` with inputs derived from `seed` until `budget` is spent or `max_inputs` are
/// checked; panics (after printing the input) when an invariant fails.
pub fn run(target: Target, seed: u64, budget: Duration, max_inputs: u64) -> FuzzReport {
    install_panic_report();
    let start = Instant::now();
    let mut rng = SplitMix64::new(seed);
    let corpus = target.corpus();
    let (mut inputs, mut taken) = (0, 0);
    while inputs < max_inputs && start.elapsed() < budget {
        // The corpus itself first, then mutants of it.
        let input = match corpus.get(inputs as usize) {
            Some(good) => good.clone(),
            None => mutate(&corpus, target.tokens(), &mut rng),
        };
        CURRENT.with(|c| *c.borrow_mut() = Some((target, input.clone())));
        taken += u64::from(target.check(&input));
        CURRENT.with(|c| *c.borrow_mut() = None);
        inputs += 1;
    }
    FuzzReport { target, inputs, taken, elapsed: start.elapsed() }
}

/// A mutant of one corpus entry: one edit in two, two in four, and so on up to eight.
fn mutate(corpus: &[Vec<u8>], tokens: &[&str], rng: &mut SplitMix64) -> Vec<u8> {
    let mut data = corpus[rng.index(corpus.len())].clone();
    let mut edits = 1;
    while edits < 8 && rng.below(2) == 0 {
        edits += 1;
    }
    for _ in 0..edits {
        let at = rng.index(data.len() + 1);
        match rng.below(7) {
            0 if at < data.len() => data[at] ^= 1 << rng.below(8),
            1 => data.insert(at, rng.below(256) as u8),
            2 if at < data.len() => {
                let end = (at + 1 + rng.index(8)).min(data.len());
                data.drain(at..end);
            }
            3 if at < data.len() => {
                let end = (at + 1 + rng.index(16)).min(data.len());
                let piece = data[at..end].to_vec();
                data.splice(at..at, piece);
            }
            4 => {
                let other = &corpus[rng.index(corpus.len())];
                let from = rng.index(other.len() + 1);
                let piece = other[from..].to_vec();
                data.truncate(at);
                data.extend(piece);
            }
            5 if at < data.len() && data[at].is_ascii_digit() => data[at] = b'0' + rng.below(10) as u8,
            _ => {
                let token = tokens[rng.index(tokens.len())];
                data.splice(at..at, token.bytes());
            }
        }
        data.truncate(4096);
    }
    data
}

fn variant_of(byte: u8) -> &'static variant::Variant {
    let names = variant::names_with_options();
    let name = names[usize::from(byte) % names.len()];
    // Every name listed is a built-in variant.
    variant::by_name(name).unwrap_or_else(|e| panic!("built-in variant {name}: {e}"))
}

/// The position of the variant `variant_byte` picks after `plies % 32` random legal moves
/// from its default start (the random moves drawn with `plies` as the seed).
fn position_after(variant_byte: u8, plies: u8) -> Option<AnyPosition> {
    let v = variant_of(variant_byte);
    let fen = menagerie_rules::startpos::start_fen(v, v.start_default).ok()?;
    let Ok(mut position) = AnyPosition::from_fen(v, &fen) else { panic!("{}: start FEN '{fen}' refused", v.name) };
    let mut rng = SplitMix64::new(u64::from(plies));
    for _ in 0..plies % 32 {
        let legal = position.legal_moves_uci(false);
        if legal.is_empty() {
            break;
        }
        let m = &legal[rng.index(legal.len())];
        position.play_text(m).unwrap_or_else(|e| panic!("{}: legal move {m} refused: {e}", v.name));
    }
    Some(position)
}

fn check_fen(input: &[u8]) -> bool {
    let Some((&first, rest)) = input.split_first() else { return false };
    let v = variant_of(first);
    let text = String::from_utf8_lossy(rest);
    let Ok(position) = AnyPosition::from_fen(v, &text) else { return false };
    let fen = position.to_fen();
    let again = AnyPosition::from_fen(v, &fen)
        .unwrap_or_else(|e| panic!("{}: '{text}' read, its FEN '{fen}' not: {e}", v.name));
    assert_eq!(again.to_fen(), fen, "{}: '{fen}' does not write back as itself", v.name);
    assert_eq!(again.hash(), position.hash(), "{}: '{fen}' reads to another hash", v.name);
    for m in position.legal_moves_uci(false) {
        let mut child = position.clone();
        child.play_text(&m).unwrap_or_else(|e| panic!("{}: legal move {m} of '{fen}' refused: {e}", v.name));
    }
    true
}

fn check_moves(input: &[u8]) -> bool {
    let [variant_byte, plies, rest @ ..] = input else { return false };
    let Some(position) = position_after(*variant_byte, *plies) else { return false };
    let v = position.variant();
    let text = String::from_utf8_lossy(rest);
    let before = position.to_fen();
    let mut played = position.clone();
    let taken = match played.play_text(&text) {
        Err(_) => {
            assert_eq!(played.to_fen(), before, "{}: refused move '{text}' changed the position", v.name);
            assert_eq!(played.hash(), position.hash());
            false
        }
        Ok(()) => {
            let after = played.to_fen();
            let same = position.legal_moves_uci(false).into_iter().any(|m| {
                let mut p = position.clone();
                p.play_text(&m).is_ok() && p.to_fen() == after
            });
            assert!(same, "{}: '{text}' played in '{before}' to '{after}', which no legal move reaches", v.name);
            true
        }
    };
    // The same text through XBoard's move reader.
    let codec = menagerie_engine::protocol::xboard::codec::MoveCodec::new(v.geometry.ranks, false);
    if let Ok(engine_text) = codec.read(&position, &text) {
        let legal = position.legal_moves_uci(false);
        let mut p = position.clone();
        assert!(
            p.play_text(&engine_text).is_ok(),
            "{}: XBoard's '{text}' read as '{engine_text}', not legal in '{before}' ({legal:?})",
            v.name
        );
    }
    taken
}

/// A `Write` whose bytes stay readable from outside the session that owns it.
#[derive(Clone, Default)]
struct SharedOutput(Rc<RefCell<Vec<u8>>>);

impl Write for SharedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedOutput {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.borrow()).lines().map(str::to_string).collect()
    }
}

/// The lines of an input as the stdin reader would pass them on.
fn input_lines(input: &[u8]) -> Vec<Input> {
    let mut reader = std::io::Cursor::new(input);
    let mut lines = Vec::new();
    while let Ok(Some(line)) = read_line_bounded(&mut reader, MAX_LINE_BYTES) {
        lines.push(line);
    }
    lines
}

/// Whether running the input would take unbounded time by design (a deep perft is answered
/// only when done), so that the driver skips it.
fn unbounded(lines: &[Input]) -> bool {
    lines.iter().any(|l| {
        let Input::Line(l) = l else { return false };
        let words: Vec<&str> = l.split_whitespace().collect();
        words.windows(2).any(|w| w[0] == "perft" && w[1].parse::<u32>().map_or(true, |d| d > 3))
            || words.first().is_some_and(|w| *w == "bench")
    })
}

/// Hand one input line to a session, then deliver the search events that came meanwhile, as
/// the command loop does; false after `quit`.
fn feed(session: &mut impl Session, input: &Input) -> bool {
    match input {
        Input::Line(line) => {
            if !session.command(line) {
                return false;
            }
        }
        too_long => session.refuse_input(&too_long.to_string()),
    }
    while let Ok(e) = session.search_events().try_recv() {
        session.on_search_event(e);
    }
    true
}

/// How long ending a session's search may take before it counts as a hang. Ending one
/// joins up to 256 search threads; on a 2-core machine that other work keeps busy that can
/// take seconds, while a real hang never ends. (With 10 s, a test run beside a datagen run
/// aborted once, most likely here; 30,000 UCI inputs beside two busy loops did not hang.)
const HANG: Duration = Duration::from_secs(60);

/// End the session's search as the command loop does at the end of input; aborts the process
/// if that takes more than `HANG` (a hang).
fn finish(session: &mut impl Session) {
    let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(1);
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(HANG).is_err() {
            eprintln!("fuzz: the session did not end its search within {} s", HANG.as_secs());
            std::process::abort();
        }
    });
    session.end_search();
    let _ = done_tx.send(());
    let _ = watchdog.join();
}

fn check_uci(input: &[u8]) -> bool {
    let lines = input_lines(input);
    if unbounded(&lines) {
        return false;
    }
    let out = SharedOutput::default();
    let Some(mut session) = Uci::new(out.clone()) else { panic!("the UCI session could not start") };
    // The legal moves of each `go`'s position, in order: the session's position when the
    // command returns.
    let mut searches: Vec<Vec<String>> = Vec::new();
    for input in &lines {
        let is_go = match input {
            Input::Line(line) => {
                let mut words = line.split_whitespace();
                words.next() == Some("go") && words.next() != Some("perft")
            }
            Input::TooLong { .. } => false,
        };
        let before = (session.engine().position().to_fen(), format!("{:?}", session.engine().options()));
        let said = out.lines().len();
        if !feed(&mut session, input) {
            break;
        }
        let refused = out.lines()[said..].iter().any(|l| l.starts_with("info string error"));
        if let (true, Input::Line(line)) = (refused, input) {
            let first = line.split_whitespace().next();
            if first == Some("position") {
                let fen = session.engine().position().to_fen();
                assert_eq!(fen, before.0, "'{line}' was refused but changed the position");
            }
            if first == Some("setoption") {
                let options = format!("{:?}", session.engine().options());
                assert_eq!(options, before.1, "'{line}' was refused but changed the options");
            }
        }
        if is_go {
            let engine = session.engine();
            searches.push(engine.position().legal_moves_uci(engine.chess960()));
        }
    }
    finish(&mut session);
    let best: Vec<String> = out
        .lines()
        .into_iter()
        .filter_map(|l| l.strip_prefix("bestmove ").map(|m| m.split_whitespace().next().unwrap_or("").to_string()))
        .collect();
    assert_eq!(
        best.len(),
        searches.len(),
        "{} go commands, {} bestmoves: {:?}",
        searches.len(),
        best.len(),
        out.lines()
    );
    for (m, legal) in best.iter().zip(&searches) {
        let fine = if legal.is_empty() { m == "0000" } else { legal.contains(m) };
        assert!(fine, "bestmove {m} is not one of {legal:?}");
    }
    true
}

fn check_xboard(input: &[u8]) -> bool {
    let lines = input_lines(input);
    if unbounded(&lines) {
        return false;
    }
    let Some(mut session) = Xboard::new(SharedOutput::default()) else { panic!("the XBoard session could not start") };
    for input in &lines {
        if !feed(&mut session, input) {
            break;
        }
    }
    finish(&mut session);
    let position = session.engine().position();
    let fen = position.to_fen();
    let again = AnyPosition::from_fen(position.variant(), &fen)
        .unwrap_or_else(|e| panic!("the session's position '{fen}' does not read back: {e}"));
    assert_eq!(again.hash(), position.hash(), "'{fen}' reads back to another position");
    true
}

fn check_book(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input);
    let Ok(fens) = crate::tournament::schedule::parse_openings(&text, "fuzz") else { return false };
    let chess = variant::by_name("chess").unwrap_or_else(|e| panic!("{e}"));
    for fen in fens {
        assert_eq!(fen.split_whitespace().count(), 6, "'{fen}' taken from the book");
        let _ = AnyPosition::from_fen(chess, &fen);
    }
    true
}

/// Variant files taken whose variants had their start positions checked: each check compiles
/// the variant's rules for the life of the process, so only the first few hundred are.
static PLAYABILITY_CHECKS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
const MAX_PLAYABILITY_CHECKS: u32 = 300;

fn check_variant_file(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input);
    let lines = text.lines().count();
    match variant::parse::read_definitions(&text, &variant::registry::definitions()).and_then(|d| d.build()) {
        Err(e) => {
            assert!((1..=lines).contains(&e.line), "refusal names line {} of a {lines}-line file: {e}", e.line);
            false
        }
        Ok(variants) => {
            for v in variants {
                if PLAYABILITY_CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < MAX_PLAYABILITY_CHECKS {
                    let _ = menagerie_rules::variant_file::check_playable(Box::leak(Box::new(v)));
                }
            }
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_differ_and_stay_bounded() {
        let mut rng = SplitMix64::new(1);
        let corpus = Target::Uci.corpus();
        let mutants: Vec<Vec<u8>> = (0..200).map(|_| mutate(&corpus, Target::Uci.tokens(), &mut rng)).collect();
        assert!(mutants.iter().all(|m| m.len() <= 4096));
        let distinct: std::collections::HashSet<&Vec<u8>> = mutants.iter().collect();
        assert!(distinct.len() > 150, "{} distinct of 200", distinct.len());
    }

    #[test]
    fn deep_perfts_and_bench_are_skipped_and_nothing_else() {
        let lines = |t: &str| input_lines(t.as_bytes());
        assert!(unbounded(&lines("position startpos\ngo perft 9\n")));
        assert!(unbounded(&lines("go perft x\n")));
        assert!(unbounded(&lines("bench\n")));
        assert!(!unbounded(&lines("position startpos\ngo perft 3\ngo depth 40\n")));
    }
}
