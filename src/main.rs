//! The `menagerie` executable: the engine's subcommands (`menagerie --help` lists them: rules
//! tools such as `perft`, `startpos`, `d`, `variants`; the engine's `bench`, `eval`, `pregame`;
//! the tools' `match`, `book`, `datagen`, `train`) and, when started without a subcommand, the
//! interactive front end that waits for `uci` or `xboard`.
//!
//! Owns: argument parsing, process exit codes, the startup banner.
//! Must not know: rules internals (it goes through `AnyPosition`, `startpos` and `variant`).

mod cli;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    std::process::exit(cli::run(std::env::args().collect()));
}
