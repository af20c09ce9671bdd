//! The start-up check that this CPU has the instructions the binary was compiled for. A build
//! for a newer CPU level (`make ARCH=x86-64-v3`, or the default `native` build copied to
//! another PC) would otherwise die on its first such instruction with "Illegal instruction",
//! which a GUI shows as an engine that vanished. The check runs first in `main`, before the
//! engine's own code: the standard library it calls is compiled for the baseline CPU.
//!
//! Owns: the list of features a build can require, the level a build is named by.
//! Must not know: anything of the engine.

/// Calls the macro `$then` with every feature a build can require, in order of CPU levels.
macro_rules! every_feature {
    ($then:ident) => {
        $then!(
            "sse2",
            "sse3",
            "ssse3",
            "sse4.1",
            "sse4.2",
            "popcnt",
            "cmpxchg16b",
            "avx",
            "avx2",
            "bmi1",
            "bmi2",
            "fma",
            "lzcnt",
            "movbe",
            "avx512f",
            "avx512bw",
            "avx512cd",
            "avx512dq",
            "avx512vl"
        )
    };
}

/// The features this binary was compiled to use, by name, in order of CPU levels.
pub fn compiled_features() -> Vec<&'static str> {
    let mut features = Vec::new();
    macro_rules! compiled {
        ($($feature:tt),*) => {
            $(if cfg!(target_feature = $feature) {
                features.push($feature);
            })*
        };
    }
    every_feature!(compiled);
    features
}

/// Whether this CPU has `feature` (one of `compiled_features`' names).
#[cfg(target_arch = "x86_64")]
fn cpu_has(feature: &str) -> bool {
    macro_rules! detect {
        ($($feature:tt),*) => {
            match feature {
                $($feature => std::arch::is_x86_feature_detected!($feature),)*
                _ => true,
            }
        };
    }
    every_feature!(detect)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has(_feature: &str) -> bool {
    true
}

/// The x86-64 level the compiled features make this build (the names `make ARCH=` takes).
pub fn build_level() -> &'static str {
    let compiled = compiled_features();
    let has = |f: &str| compiled.contains(&f);
    if !cfg!(target_arch = "x86_64") {
        std::env::consts::ARCH
    } else if has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq") {
        "x86-64-v4"
    } else if has("avx2") && has("bmi2") && has("fma") {
        "x86-64-v3"
    } else if has("sse4.2") && has("popcnt") {
        "x86-64-v2"
    } else {
        "x86-64"
    }
}

/// The compiled features this CPU lacks; `pretend_missing` (the test hook, from the environment
/// variable `MENAGERIE_PRETEND_CPU_LACKS`, comma-separated) names features to treat as absent.
pub fn missing_features(pretend_missing: &str) -> Vec<&'static str> {
    let pretended: Vec<&str> = pretend_missing.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    compiled_features().into_iter().filter(|f| pretended.contains(f) || !cpu_has(f)).collect()
}

/// The one line that says why this build cannot run here, if it cannot.
pub fn refusal(pretend_missing: &str) -> Option<String> {
    let missing = missing_features(pretend_missing);
    (!missing.is_empty()).then(|| {
        let older = match build_level() {
            "x86-64-v2" | "x86-64" => "make ARCH=x86-64, for any 64-bit PC",
            _ => "make ARCH=x86-64-v2, or ARCH=x86-64 for any 64-bit PC",
        };
        format!(
            "error: this Menagerie was built for {} CPUs and this CPU lacks {}: use a build for an older CPU level ({older})",
            build_level(),
            missing.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_build_runs_on_the_cpu_that_built_it_and_refuses_a_pretended_lack() {
        assert_eq!(refusal(""), None, "built here, it runs here");
        // SSE2 is part of every x86-64 build, so pretending it missing must refuse.
        if cfg!(target_arch = "x86_64") {
            let line = refusal("sse2").expect("refused");
            assert!(line.contains("lacks sse2") && line.contains(build_level()), "{line}");
            assert_eq!(refusal("not-a-feature"), None);
        }
    }
}
