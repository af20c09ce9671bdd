//! Protocol front ends. The first command decides: `uci` starts UCI, `xboard` starts CECP. A
//! reader thread turns stdin into a channel of lines, so that commands are read while a search
//! runs.
//!
//! Owns: the stdin reader, protocol selection, the command loop both protocols share.
//! Must not know: search internals, rules internals.

pub mod inspect;
pub mod option_text;
pub mod uci;
pub mod xboard;

use crate::engine::SearchEvent;
use crossbeam_channel::{never, select, unbounded, Receiver};
use std::io::BufRead;

/// Spawn a thread that forwards stdin lines; the channel closes at end of input.
pub fn stdin_lines() -> Receiver<String> {
    let (tx, rx) = unbounded();
    let spawned = std::thread::Builder::new().name("stdin".to_string()).spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
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
    /// Tell the GUI what the search reported.
    fn on_search_event(&mut self, event: SearchEvent);
    /// End a running search, at `quit` or the end of input.
    fn end_search(&mut self);
}

/// Run a session until `quit` or the end of input, answering commands while a search runs.
pub fn run_session(session: &mut impl Session, lines: Receiver<String>) {
    loop {
        let events = session.search_events().clone();
        select! {
            recv(lines) -> line => match line {
                Ok(line) => {
                    if !session.command(&line) {
                        break;
                    }
                }
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

/// Speak UCI on stdout, the `uci` command having been read already.
pub fn run_uci(lines: Receiver<String>) {
    let Some(mut session) = uci::Uci::new(std::io::stdout()) else {
        log::error!("the engine could not start");
        return;
    };
    session.command("uci");
    session.run(lines);
}

/// Speak XBoard/CECP on stdout, the `xboard` command having been read already.
pub fn run_xboard(lines: Receiver<String>) {
    let Some(mut session) = xboard::Xboard::new(std::io::stdout()) else {
        log::error!("the engine could not start");
        return;
    };
    session.command("xboard");
    session.run(lines);
}
