//! The `menagerie` executable: the engine's subcommands (`menagerie --help` lists them: rules
//! tools such as `perft`, `startpos`, `d`, `variants`; the engine's `bench`, `eval`, `pregame`;
//! the tools' `match`, `book`, `datagen`, `train`, `tune`) and, when started without a subcommand, the
//! interactive front end that waits for `uci` or `xboard`.
//!
//! Owns: argument parsing, process exit codes, the startup banner, the start-up CPU check
//! (`cpu`).
//! Must not know: rules internals (it goes through `AnyPosition`, `startpos` and `variant`).

mod cli;
mod cpu;

fn main() {
    // First, before any code compiled for a newer CPU than this one runs.
    if let Some(line) = cpu::refusal(&std::env::var("MENAGERIE_PRETEND_CPU_LACKS").unwrap_or_default()) {
        // A GUI reads stdout, a person in a terminal sees stderr: once each, never twice.
        if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            println!("{line}");
        }
        eprintln!("{line}");
        std::process::exit(1);
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    std::process::exit(cli::run(std::env::args().collect()));
}
