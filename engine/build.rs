//! Build step: embeds the network file named by the environment variable MENAGERIE_EVALFILE
//! (`make EXE=NAME EVALFILE=PATH`, the way OpenBench builds an engine with a network under
//! test) as the engine's default network for every variant it fits. Without it an empty file
//! is embedded, which means none.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MENAGERIE_EVALFILE");
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        panic!("cargo sets OUT_DIR for build scripts");
    };
    let dest = PathBuf::from(out_dir).join("evalfile.nnue");
    let result = match std::env::var("MENAGERIE_EVALFILE") {
        Ok(path) if !path.trim().is_empty() => {
            println!("cargo:rerun-if-changed={path}");
            std::fs::copy(&path, &dest).map(|_| ()).map_err(|e| format!("MENAGERIE_EVALFILE {path}: {e}"))
        }
        _ => std::fs::write(&dest, []).map_err(|e| format!("{}: {e}", dest.display())),
    };
    if let Err(e) = result {
        panic!("{e}");
    }
}
