//! The bytes a training-data file takes in each form of the format: every game of FILE
//! written plain (version 1) to FILE.plain and compact (version 2) to FILE.compact, with the
//! bytes per position of each (compress both with `xz -9` to compare what the repository
//! stores).
//!
//!     cargo run --release --example data-size -- nets/data/BATCH.bin

use menagerie::datagen::format::read_file;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: data-size FILE");
        std::process::exit(2);
    };
    let path = std::path::PathBuf::from(path);
    let games = read_file(&path).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(1);
    });
    let positions: usize = games.iter().map(|g| g.moves.len()).sum();
    let (mut plain, mut compact) = (Vec::new(), Vec::new());
    for g in &games {
        plain.extend(g.encode_plain().expect("plain"));
        compact.extend(g.encode().expect("compact"));
    }
    for (form, bytes) in [("plain", &plain), ("compact", &compact)] {
        let out = path.with_extension(format!("bin.{form}"));
        std::fs::write(&out, bytes).expect("write");
        println!(
            "{form}: {} games, {positions} positions, {} bytes, {:.2} bytes/position -> {}",
            games.len(),
            bytes.len(),
            bytes.len() as f64 / positions.max(1) as f64,
            out.display()
        );
    }
}
