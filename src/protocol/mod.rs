//! Protocol front ends. The first command decides: `uci` starts UCI, `xboard` starts CECP. A
//! reader thread turns stdin into a channel of lines, so that commands are read while a search
//! runs.
//!
//! Owns: the stdin reader, protocol selection.
//! Must not know: search internals, rules internals.

pub mod uci;
pub mod xboard;

use crossbeam_channel::{unbounded, Receiver};
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
