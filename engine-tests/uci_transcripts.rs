//! UCI transcripts against the real binary: each file of `engine-tests/transcripts/uci/` is one
//! session, run by its own test. Directives, one per line:
//!
//! - `# ...` and blank lines: comments.
//! - `> LINE`: send LINE to the engine.
//! - `< REGEX`: read lines until one matches.
//! - `<< REGEX`: the very next line must match (lines sent together).
//! - `<! REGEX`: no line read up to and including the next matching `<`/`<<`/`<legal` may
//!   match REGEX.
//! - `<legal VARIANT[/960] FEN [moves M...]`: read up to the next `bestmove`; every `pv` of the
//!   `info` lines on the way, the best move and its ponder move must be legal from that
//!   position, written exactly as the engine writes moves (`/960`: castling as king-takes-rook).
//!
//! Every line the engine prints after `uciok` must be a UCI line (`id`, `option`, `uciok`,
//! `readyok`, `info`, `bestmove`): stdout belongs to the protocol. After the last directive the
//! runner sends `quit`, and the engine must exit cleanly.
//!
//! Transcripts say what comes and in which order, never how fast: there are no time bounds and
//! no waits (`<@MS`, `<legal@MS` and `sleep` are refused). To let a search run, wait for its
//! output (`< ^info depth 8 `); to show that nothing comes, use `<!` up to a line that must come
//! after it (`> isready` / `< ^readyok$`). Lines the engine owes are waited for up to the hang
//! guard (a hung engine, not a slow one); latency is measured by `scripts/protocol-latency.py`.

use menagerie::any::AnyPosition;
use menagerie::variant::by_name;
use regex::Regex;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

mod common;

use common::HANG_GUARD;

const PROTOCOL_LINE: &str = r"^(id (name|author) |option name |uciok$|readyok$|info |bestmove )";

struct Runner {
    file: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
    /// Everything exchanged so far, for failure messages.
    log: Vec<String>,
    forbidden: Vec<(usize, Regex)>,
    after_uciok: bool,
    protocol_line: Regex,
}

impl Runner {
    fn start(file: &str) -> Runner {
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start menagerie");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr_pipe = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr) = channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr_pipe.read_to_string(&mut text);
            let _ = etx.send(text);
        });
        Runner {
            file: file.to_string(),
            child,
            stdin,
            lines,
            stderr,
            log: Vec::new(),
            forbidden: Vec::new(),
            after_uciok: false,
            protocol_line: Regex::new(PROTOCOL_LINE).expect("regex"),
        }
    }

    fn fail(&mut self, at: usize, message: &str) -> ! {
        let tail: Vec<&String> = self.log.iter().rev().take(60).collect::<Vec<_>>().into_iter().rev().collect();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let stderr = self.stderr.recv_timeout(Duration::from_secs(2)).unwrap_or_default();
        panic!(
            "{}:{at}: {message}\n--- last lines exchanged ---\n{}\n--- stderr ---\n{stderr}",
            self.file,
            tail.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
    }

    fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "{line}");
            let _ = stdin.flush();
        }
    }

    /// The next engine line, or None at the deadline.
    fn next_line(&mut self, at: usize, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                self.log.push(format!("< {line}"));
                if self.after_uciok && !self.protocol_line.is_match(&line) {
                    self.fail(at, &format!("not a UCI line on stdout: '{line}'"));
                }
                if line == "uciok" {
                    self.after_uciok = true;
                }
                let hit = self.forbidden.iter().find(|(_, re)| re.is_match(&line)).map(|(l, re)| (*l, re.to_string()));
                if let Some((l, re)) = hit {
                    self.fail(at, &format!("line '{line}' matches '{re}', forbidden at line {l}"));
                }
                Some(line)
            }
            Err(_) => None,
        }
    }

    /// Read until a line matches; with `next_only`, the very next line must match.
    fn expect(&mut self, at: usize, re: &Regex, deadline: Instant, next_only: bool) -> String {
        loop {
            let Some(line) = self.next_line(at, deadline) else {
                self.fail(at, &format!("hang guard: no line matching '{re}' in {HANG_GUARD:?}"));
            };
            if re.is_match(&line) {
                self.forbidden.clear();
                return line;
            }
            if next_only {
                self.fail(at, &format!("the next line '{line}' does not match '{re}'"));
            }
        }
    }

    /// `<legal VARIANT[/960] FEN [moves M...]`.
    fn expect_legal(&mut self, at: usize, spec: &str, deadline: Instant) {
        let words: Vec<&str> = spec.split_whitespace().collect();
        let Some((variant, fen_words)) = words.split_first() else { self.fail(at, "<legal needs a variant and a FEN") };
        let (variant, chess960) = match variant.strip_suffix("/960") {
            Some(v) => (v, true),
            None => (*variant, false),
        };
        let moves_at = fen_words.iter().position(|&w| w == "moves").unwrap_or(fen_words.len());
        let fen = fen_words[..moves_at].join(" ");
        let moves: Vec<&str> = fen_words.get(moves_at + 1..).unwrap_or(&[]).to_vec();
        let Ok(v) = by_name(variant) else { self.fail(at, &format!("unknown variant '{variant}'")) };
        let mut root = match AnyPosition::from_fen(v, &fen) {
            Ok(p) => p,
            Err(e) => self.fail(at, &format!("bad FEN in the transcript: {e}")),
        };
        for m in &moves {
            if let Err(e) = root.play_text(m) {
                self.fail(at, &format!("bad move in the transcript: {e}"));
            }
        }
        loop {
            let Some(line) = self.next_line(at, deadline) else {
                self.fail(at, &format!("hang guard: no bestmove in {HANG_GUARD:?}"))
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let line_moves: Vec<&str> = if words.first() == Some(&"bestmove") {
                match words.as_slice() {
                    ["bestmove", best] => vec![*best],
                    ["bestmove", best, "ponder", ponder] => vec![*best, *ponder],
                    _ => self.fail(at, &format!("malformed '{line}'")),
                }
            } else if words.first() == Some(&"info") {
                match words.iter().position(|&w| w == "pv") {
                    Some(i) => words[i + 1..].to_vec(),
                    None => Vec::new(),
                }
            } else {
                Vec::new()
            };
            let mut p = root.clone();
            for m in &line_moves {
                if !p.legal_moves_uci(chess960).iter().any(|x| x == m) {
                    self.fail(at, &format!("'{m}' in '{line}' is not a legal move written as the engine writes it"));
                }
                if let Err(e) = p.play_text(m) {
                    self.fail(at, &format!("'{m}' in '{line}': {e}"));
                }
            }
            if words.first() == Some(&"bestmove") {
                self.forbidden.clear();
                return;
            }
        }
    }

    fn finish(mut self) {
        self.send("quit");
        self.stdin = None;
        // Poll for the exit, up to the hang guard.
        let deadline = Instant::now() + HANG_GUARD;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => return,
                Ok(Some(status)) => self.fail(0, &format!("the engine exited with {status}")),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => self.fail(0, &format!("hang guard: the engine did not exit in {HANG_GUARD:?} after quit")),
            }
        }
    }
}

/// One directive of a transcript.
#[derive(Debug, PartialEq)]
enum Directive {
    Send(String),
    Expect(String),
    ExpectNext(String),
    Forbid(String),
    Legal(String),
}

/// Read a transcript into its directives (with their line numbers), or say at which line it
/// cannot be read. Time bounds and waits are refused: a transcript states order, never speed.
fn parse(text: &str) -> Result<Vec<(usize, Directive)>, (usize, String)> {
    let mut directives = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let at = i + 1;
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let directive = if let Some(cmd) = line.strip_prefix("> ") {
            Directive::Send(cmd.to_string())
        } else if line == ">" {
            Directive::Send(String::new())
        } else if line.starts_with("<@") || line.starts_with("<legal@") || line.starts_with("sleep") {
            return Err((
                at,
                format!(
                    "'{line}': transcripts have no time bounds or waits; wait for the output that \
                     shows it happened (`< REGEX`), and measure latency with scripts/protocol-latency.py"
                ),
            ));
        } else if let Some(spec) = line.strip_prefix("<legal ") {
            Directive::Legal(spec.to_string())
        } else if let Some(re) = line.strip_prefix("<! ") {
            Directive::Forbid(re.to_string())
        } else if let Some(re) = line.strip_prefix("<< ") {
            Directive::ExpectNext(re.to_string())
        } else if let Some(re) = line.strip_prefix("< ") {
            Directive::Expect(re.to_string())
        } else {
            return Err((at, format!("unknown directive '{line}'")));
        };
        if let Directive::Expect(re) | Directive::ExpectNext(re) | Directive::Forbid(re) = &directive {
            if let Err(e) = Regex::new(re.trim()) {
                return Err((at, format!("bad regex: {e}")));
            }
        }
        directives.push((at, directive));
    }
    Ok(directives)
}

fn regex(text: &str) -> Regex {
    Regex::new(text.trim()).expect("checked by parse")
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/transcripts/uci")
}

fn run(name: &str) {
    let path = dir().join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = format!("transcripts/uci/{name}.txt");
    let directives = parse(&text).unwrap_or_else(|(at, e)| panic!("{file}:{at}: {e}"));
    let mut r = Runner::start(&file);
    for (at, directive) in directives {
        let deadline = Instant::now() + HANG_GUARD;
        match directive {
            Directive::Send(line) => r.send(&line),
            Directive::Expect(re) => {
                r.expect(at, &regex(&re), deadline, false);
            }
            Directive::ExpectNext(re) => {
                r.expect(at, &regex(&re), deadline, true);
            }
            Directive::Forbid(re) => r.forbidden.push((at, regex(&re))),
            Directive::Legal(spec) => r.expect_legal(at, &spec, deadline),
        }
    }
    r.finish();
}

/// The runner refuses time bounds and waits, so that none can come back into a transcript.
#[test]
fn time_bounds_and_waits_are_refused() {
    for (text, at) in [
        ("> uci\n<@300 ^uciok$\n", 2),
        ("> isready\n< ^readyok$\n<legal@1500 chess 8/8/8/8/8/8/8/K6k w - - 0 1\n", 3),
        ("> go infinite\nsleep 100\n> stop\n", 2),
        ("sleep\n", 1),
    ] {
        match parse(text) {
            Err((line, message)) => {
                assert_eq!(line, at, "{text:?}: {message}");
                assert!(message.contains("no time bounds"), "{text:?}: {message}");
            }
            Ok(d) => panic!("{text:?} was read as {d:?}"),
        }
    }
    assert_eq!(
        parse("# a comment\n> uci\n< ^uciok$\n<< ^x\n<! y\n<legal chess 8/8/8/8/8/8/8/K6k w - - 0 1\n")
            .map(|d| d.len()),
        Ok(5)
    );
    assert!(parse("<? ^uciok$\n").is_err());
    assert!(parse("< ^(unclosed\n").is_err());
}

macro_rules! transcripts {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run(stringify!($name));
            }
        )*

        /// Every transcript file has its test (a new file cannot be forgotten).
        #[test]
        fn every_transcript_file_is_run() {
            let listed = [$(stringify!($name)),*];
            let mut files: Vec<String> = std::fs::read_dir(dir())
                .expect("transcripts directory")
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".txt"))
                .map(|n| n.trim_end_matches(".txt").to_string())
                .collect();
            files.sort();
            for f in &files {
                assert!(listed.contains(&f.as_str()), "transcripts/uci/{f}.txt has no test in uci_transcripts.rs");
            }
        }
    };
}

transcripts!(
    handshake,
    options,
    variants,
    variant_files,
    fairy_stockfish_files,
    positions,
    search_output,
    analysis,
    ponder,
    errors,
    vampirc,
    skill
);
