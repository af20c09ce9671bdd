//! A child engine process: how it is described on the command line (`EngineSpec`), spawning it,
//! line I/O with deadlines, and killing it. A reader thread turns stdout into lines; the end of
//! stdout (a crash or an exit) is reported as `EngineError::Exited`.
//!
//! Owns: `EngineSpec`, `Proto`, `EngineProcess`, `EngineError`.
//! Must not know: chess rules, what the lines mean (the protocol clients read them).

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

/// How an engine takes part in the pre-game (D-Chess side choice and transposition, Chess-9
/// relocations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PregameMode {
    /// The engine answers the `pregame` commands.
    Engine,
    /// The referee chooses at random for it (for engines without the pre-game protocol).
    Random,
}

/// An engine as given on the command line: `name=A cmd="prog args" proto=uci option.Hash=64`.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Proto,
    pub options: Vec<(String, String)>,
    pub pregame: PregameMode,
}

/// Anything that goes wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    BadSpec(String),
    Spawn {
        name: String,
        error: String,
    },
    /// No expected answer before the deadline.
    Timeout {
        name: String,
        waiting_for: String,
    },
    /// The process closed its output (it crashed or quit).
    Exited {
        name: String,
    },
    /// Writing to the process failed (it is gone).
    Write {
        name: String,
    },
    /// The engine said something the protocol does not allow here.
    Protocol {
        name: String,
        message: String,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadSpec(m) => write!(f, "bad engine description: {m}"),
            EngineError::Spawn { name, error } => write!(f, "cannot start engine {name}: {error}"),
            EngineError::Timeout { name, waiting_for } => write!(f, "{name} did not answer ({waiting_for})"),
            EngineError::Exited { name } => write!(f, "{name} exited (crashed)"),
            EngineError::Write { name } => write!(f, "{name} no longer reads its input (crashed)"),
            EngineError::Protocol { name, message } => write!(f, "{name}: {message}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Split a command text into words, keeping "quoted text" together.
pub fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut has = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                has = true;
            }
            c if c.is_whitespace() && !quoted => {
                if has {
                    words.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            c => {
                cur.push(c);
                has = true;
            }
        }
    }
    if has {
        words.push(cur);
    }
    words
}

impl EngineSpec {
    /// Read `key=value` fields: `name`, `cmd` (program and arguments), `arg` (one more argument),
    /// `dir`, `proto` (uci|xboard), `pregame` (engine|random), `option.NAME=VALUE`.
    pub fn parse(fields: &[String]) -> Result<EngineSpec, EngineError> {
        let mut spec = EngineSpec {
            name: String::new(),
            program: String::new(),
            args: Vec::new(),
            dir: None,
            proto: Proto::Uci,
            options: Vec::new(),
            pregame: PregameMode::Engine,
        };
        for field in fields {
            let (key, value) =
                field.split_once('=').ok_or_else(|| EngineError::BadSpec(format!("'{field}' is not key=value")))?;
            match key {
                "name" => spec.name = value.to_string(),
                "cmd" => {
                    let mut words = split_words(value).into_iter();
                    spec.program = words.next().unwrap_or_default();
                    spec.args.extend(words);
                }
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.proto = match value {
                        "uci" => Proto::Uci,
                        "xboard" | "cecp" => Proto::Xboard,
                        _ => return Err(EngineError::BadSpec(format!("proto is uci or xboard, not '{value}'"))),
                    }
                }
                "pregame" => {
                    spec.pregame = match value {
                        "engine" => PregameMode::Engine,
                        "random" => PregameMode::Random,
                        _ => return Err(EngineError::BadSpec(format!("pregame is engine or random, not '{value}'"))),
                    }
                }
                k if k.starts_with("option.") => {
                    spec.options.push((k["option.".len()..].to_string(), value.to_string()))
                }
                _ => return Err(EngineError::BadSpec(format!("unknown key '{key}' in '{field}'"))),
            }
        }
        if spec.program.is_empty() {
            return Err(EngineError::BadSpec("cmd=... is missing".to_string()));
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.program)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.program.clone());
        }
        Ok(spec)
    }
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Spawn the engine; its stderr goes to ours only at `debug` log level.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped());
        cmd.stderr(if log::log_enabled!(log::Level::Debug) { Stdio::inherit() } else { Stdio::null() });
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let spawn_error = |e: String| EngineError::Spawn { name: spec.name.clone(), error: e };
        let mut child = cmd.spawn().map_err(|e| spawn_error(format!("{}: {e}", spec.program)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error("no pipes".to_string()));
        };
        let (tx, lines) = unbounded();
        let name = spec.name.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                log::trace!("{name} > {line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess { name: spec.name.clone(), child, stdin, lines })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Write { name: self.name.clone() })
    }

    /// The next line, waiting until `deadline`.
    pub fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                Err(EngineError::Timeout { name: self.name.clone(), waiting_for: waiting_for.to_string() })
            }
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Exited { name: self.name.clone() }),
        }
    }

    /// Read lines until one satisfies `want`; returns that line.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        want: impl Fn(&str) -> bool,
    ) -> Result<String, EngineError> {
        loop {
            let line = self.recv(deadline, waiting_for)?;
            if want(line.trim()) {
                return Ok(line);
            }
        }
    }

    /// Drop every line already received.
    pub fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ask politely (`quit_line`), then kill after a short wait.
    pub fn stop(&mut self, quit_line: &str) {
        let _ = self.send(quit_line);
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kill the process and reap it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> Result<EngineSpec, EngineError> {
        EngineSpec::parse(&split_words(text))
    }

    #[test]
    fn engine_specs_are_read() {
        let s = spec(r#"name=fm "cmd=/usr/games/fairymax -x" proto=xboard option.Hash=64 pregame=random"#).unwrap();
        assert_eq!(s.name, "fm");
        assert_eq!(s.program, "/usr/games/fairymax");
        assert_eq!(s.args, vec!["-x"]);
        assert_eq!(s.proto, Proto::Xboard);
        assert_eq!(s.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(s.pregame, PregameMode::Random);
        assert_eq!(spec("cmd=/bin/engine").unwrap().name, "engine");
        assert!(spec("name=x").is_err(), "no command");
        assert!(spec("cmd=x proto=usi").is_err());
        assert!(spec("cmd=x colour=red").is_err());
        assert!(spec("cmd").is_err());
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_panic() {
        let s = spec("cmd=/nonexistent/engine").unwrap();
        assert!(matches!(EngineProcess::start(&s), Err(EngineError::Spawn { .. })));
    }
}
