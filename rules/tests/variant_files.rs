//! Variant files loaded at run time (`src/variant_file.rs`): variants that inherit from built-in
//! ones, redefinitions, refusals with the line and the reason, and the bounds of the file read.
//! Its own process: these tests change the registry of known variants.

use menagerie_rules::variant;
use menagerie_rules::variant_file::{load, load_text, VariantFileError};
use std::path::Path;

// Each test defines variants of its own names: the registry is shared by the tests of the
// process.
#[test]
fn a_file_adds_variants_that_inherit_from_built_in_ones() {
    let added = load_text("[unit-griffin:rvc]\npiece = Y griffin FR value=600\n").unwrap();
    assert_eq!(added.len(), 1);
    let v = variant::by_name("unit-griffin").unwrap();
    assert_eq!(v.geometry.files, 12);
    assert_eq!(v.pieces[v.kind_of_letter('Y').unwrap()].betza, "FR");
    assert!(variant::names().contains(&"unit-griffin"));
    // Loaded again (an edited file): the new definition takes the name.
    load_text("[unit-griffin:rvc]\npiece = Y griffin F value=600\n").unwrap();
    let again = variant::by_name("unit-griffin").unwrap();
    assert_eq!(again.pieces[again.kind_of_letter('Y').unwrap()].betza, "F");
    assert_eq!(variant::names().iter().filter(|n| **n == "unit-griffin").count(), 1);
}

#[test]
fn a_bad_file_adds_nothing() {
    let cases = [
        ("[unit-bad-a:chess]\npiece = Q queen Q\n[unit-bad-b:chess]\nboard = 17x8\n", 4, "bad board"),
        ("[unit-bad-c:chess]\nstart = fen 8/8/8/8/8/8/8/9 w - - 0 1\n", 1, "start position"),
        ("[unit-bad-d:nowhere]\n", 1, "unknown parent"),
        ("[unit-bad-e:chess]\npiece = X one W\npiece = X two F\n", 3, "used twice"),
        ("[unit-bad-f:chess]\nno-piece = K\n", 1, "royal"),
        ("[unit-bad-g:chess]\npiece = R rook R\n", 1, "castling-rook"),
        ("[unit-bad-h:chess]\npromotion = Q Z\n", 2, "no piece type 'Z'"),
        ("[chess9:chess]\n", 1, "built-in"),
        ("[normal:chess]\nreplace = yes\n", 1, "another name"),
        ("[unit-bad-i:chess]\nstart-default = 5\n", 1, "start-default"),
        ("[unit-bad-j:chess]\nboard = 10x8\n", 1, "fill the back rank"),
        ("[unit-bad-k:chess]\nboard = 10x8\nstart = fen 8/8/8/8/8/8/8/4K3 w - - 0 1\n", 1, "start position"),
    ];
    for (text, line, why) in cases {
        let e = load_text(text).unwrap_err();
        assert_eq!(e.line, line, "{text}: {e}");
        assert!(e.to_string().contains(why), "{text}: {e}");
    }
    for name in ["unit-bad-a", "unit-bad-b", "unit-bad-c", "unit-bad-k"] {
        assert!(variant::by_name(name).is_err(), "{name} was taken from a refused file");
    }
    assert!(variant::is_builtin("chess9"));
}

#[test]
fn files_are_read_within_bounds() {
    let e = load(Path::new("/nonexistent/menagerie.vars")).unwrap_err();
    assert!(matches!(e, VariantFileError::Read { .. }), "{e}");
    let dir = std::env::temp_dir().join(format!("menagerie-variant-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("binary.vars");
    std::fs::write(&binary, [0xff, 0xfe, b'[']).unwrap();
    assert!(matches!(load(&binary).unwrap_err(), VariantFileError::NotText { .. }));
    let bad = dir.join("bad.vars");
    std::fs::write(&bad, "[unit-file-bad:chess]\nspeed = fast\n").unwrap();
    assert_eq!(
        load(&bad).unwrap_err().to_string(),
        format!("variant file '{}' line 2: unknown key 'speed'", bad.display())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
