//! Protocol front ends. The first command decides: `uci` or any other UCI command
//! (`UCI_COMMANDS`) starts UCI, `xboard` starts CECP. A
//! reader thread turns stdin into a channel of lines, so that commands are read while a search
//! runs; it holds at most `MAX_LINE_BYTES` of a line, so no input can exhaust memory, and reads
//! bytes that are not UTF-8 as U+FFFD.
//!
//! Owns: the stdin reader (`Input`, `read_line_bounded`), protocol selection, the command loop
//! both protocols share.
//! Must not know: search internals, rules internals.

pub mod inspect;
pub mod option_text;
pub mod uci;
pub mod xboard;

use crate::engine::SearchEvent;
use crossbeam_channel::{never, select, unbounded, Receiver};
use std::fmt;
use std::io::BufRead;

/// The longest command line read, in bytes: a `position ... moves` line of a 100,000-ply game
/// fits, and no line can make the reader hold more.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input as the reader passes it on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A command line (bytes that are not UTF-8 replaced by U+FFFD).
    Line(String),
    /// A line longer than `MAX_LINE_BYTES`, thrown away whole.
    TooLong { bytes: usize },
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Line(line) => f.write_str(line),
            Input::TooLong { bytes } => {
                write!(f, "a line of {bytes} bytes is longer than the {MAX_LINE_BYTES} read; it was ignored")
            }
        }
    }
}

/// The next line of `reader` without its line end, keeping at most `max` bytes of it; `None`
/// at the end of input.
pub fn read_line_bounded(reader: &mut impl BufRead, max: usize) -> std::io::Result<Option<Input>> {
    let mut line = Vec::new();
    let mut bytes = 0usize;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            if bytes == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, ended) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], true),
            None => (buffer, false),
        };
        if bytes.saturating_add(chunk.len()) <= max {
            line.extend_from_slice(chunk);
        }
        bytes = bytes.saturating_add(chunk.len());
        let used = chunk.len() + usize::from(ended);
        reader.consume(used);
        if ended {
            break;
        }
    }
    if bytes > max {
        return Ok(Some(Input::TooLong { bytes }));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(Input::Line(String::from_utf8_lossy(&line).into_owned())))
}

/// Spawn a thread that forwards stdin lines; the channel closes at end of input.
pub fn stdin_lines() -> Receiver<Input> {
    let (tx, rx) = unbounded();
    let spawned = std::thread::Builder::new().name("stdin".to_string()).spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        while let Ok(Some(input)) = read_line_bounded(&mut stdin, MAX_LINE_BYTES) {
            if tx.send(input).is_err() {
                break;
            }
        }
    });
    if let Err(e) = spawned {
        log::error!("cannot read stdin: {e}");
    }
    rx
}

/// A protocol session, as the shared command loop drives it.
pub trait Session {
    /// Handle one command line; false on `quit`.
    fn command(&mut self, line: &str) -> bool;
    /// The running search's events (a channel that never delivers when none runs).
    fn search_events(&mut self) -> &mut Receiver<SearchEvent>;
    /// Tell the GUI that a line of input was refused before it was read (`Input::TooLong`).
    fn refuse_input(&mut self, why: &str);
    /// Tell the GUI what the search reported.
    fn on_search_event(&mut self, event: SearchEvent);
    /// End a running search, at `quit` or the end of input.
    fn end_search(&mut self);
}

/// Run a session until `quit` or the end of input, answering commands while a search runs.
pub fn run_session(session: &mut impl Session, lines: Receiver<Input>) {
    loop {
        let events = session.search_events().clone();
        select! {
            recv(lines) -> line => match line {
                Ok(Input::Line(line)) => {
                    if !session.command(&line) {
                        break;
                    }
                }
                Ok(too_long) => session.refuse_input(&too_long.to_string()),
                Err(_) => break,
            },
            recv(events) -> event => match event {
                Ok(e) => session.on_search_event(e),
                // The search has sent its last event.
                Err(_) => *session.search_events() = never(),
            },
        }
    }
    session.end_search();
}

/// The UCI commands that start a UCI session when they come first, before any `uci` (tools such as
/// chess-tuning-tools send options first; Stockfish takes every command as UCI from the start).
pub const UCI_COMMANDS: [&str; 9] =
    ["uci", "setoption", "isready", "ucinewgame", "position", "go", "stop", "ponderhit", "debug"];

/// Speak UCI on stdout, `first` (one of `UCI_COMMANDS`) having been read already: `uci` is
/// answered with the handshake, any other command as it would be within the session.
pub fn run_uci(first: &str, lines: Receiver<Input>) {
    let Some(mut session) = uci::Uci::new(std::io::stdout()) else {
        log::error!("the engine could not start");
        return;
    };
    if session.command(first) {
        session.run(lines);
    }
}

/// Speak XBoard/CECP on stdout, the `xboard` command having been read already.
pub fn run_xboard(lines: Receiver<Input>) {
    let Some(mut session) = xboard::Xboard::new(std::io::stdout()) else {
        log::error!("the engine could not start");
        return;
    };
    session.command("xboard");
    session.run(lines);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn lines_are_read_whole_and_an_overlong_one_is_thrown_away_whole() {
        let mut text = b"uci\r\nisready\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 50));
        text.extend_from_slice(b"\nstop\n\xffbad\nlast");
        // A small buffer, so that lines straddle its refills.
        let mut reader = std::io::BufReader::with_capacity(7, Cursor::new(text));
        let mut read = Vec::new();
        while let Some(input) = read_line_bounded(&mut reader, 20).unwrap() {
            read.push(input);
        }
        let line = |s: &str| Input::Line(s.to_string());
        assert_eq!(
            read,
            [
                line("uci"),
                line("isready"),
                Input::TooLong { bytes: 50 },
                line("stop"),
                line("\u{fffd}bad"),
                line("last")
            ]
        );
    }
}
