//! The tuner's state file: everything a run needs to go on exactly where it stopped (the
//! settings it was started with, the iterations done, every number's estimate and gains, the
//! random generator's state, the games and their results), as JSON. It is written whole to a
//! temporary file beside it and renamed over it after every iteration, so that a kill leaves
//! either the old state or the new one, never a mixture; a file that cannot be read is refused
//! and left as it is.
//!
//! Owns: `TunerState`, `Settings`, `StateError`, the file's format and its atomic write.
//! Must not know: engines, games, how the numbers are updated.

use super::spsa::SpsaParam;
use crate::json::{self, Json};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The format's version, written into every file.
const FORMAT: u64 = 1;

/// What a run was started with, which a resumed run must match: the games would otherwise
/// not be the ones the schedule and the estimate were made for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub seed: u64,
    /// Variant names, played in turn, one per iteration.
    pub variants: Vec<String>,
    /// The time control as typed (`nodes=2000`, `1+0.01`).
    pub tc: String,
    pub pairs_per_iteration: u64,
    /// The run the gain schedule is planned for.
    pub planned_iterations: u64,
}

/// Where a run stands after a whole number of iterations.
#[derive(Clone, Debug, PartialEq)]
pub struct TunerState {
    pub settings: Settings,
    /// Iterations done.
    pub iteration: u64,
    /// The random generator's state before the next iteration.
    pub rng_state: u64,
    pub games: u64,
    /// Results of the plus engine, over every iteration.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub params: Vec<SpsaParam>,
}

/// Why a state file was not read or written.
#[derive(Debug)]
pub enum StateError {
    Io {
        path: PathBuf,
        why: String,
    },
    /// The file is not a state file (cut short, damaged, another format); it is left as it is.
    Corrupt {
        path: PathBuf,
        why: String,
    },
    /// The file was written by a run with other settings.
    Mismatch {
        path: PathBuf,
        what: String,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Io { path, why } => write!(f, "{}: {why}", path.display()),
            StateError::Corrupt { path, why } => write!(
                f,
                "{}: not a readable tuner state ({why}); it was left untouched: repair it, or move it away to start afresh",
                path.display()
            ),
            StateError::Mismatch { path, what } => write!(
                f,
                "{}: written by a run with other settings ({what}); give the same settings to resume, or another --state",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StateError {}

impl TunerState {
    /// The state before the first iteration.
    pub fn new(settings: Settings, params: Vec<SpsaParam>) -> TunerState {
        let rng_state = settings.seed;
        TunerState { settings, iteration: 0, rng_state, games: 0, wins: 0, draws: 0, losses: 0, params }
    }

    pub fn to_json(&self) -> Json {
        let s = &self.settings;
        let settings = Json::Object(vec![
            ("seed".into(), Json::number(s.seed)),
            ("variants".into(), Json::Array(s.variants.iter().map(|v| Json::String(v.clone())).collect())),
            ("tc".into(), Json::String(s.tc.clone())),
            ("pairs_per_iteration".into(), Json::number(s.pairs_per_iteration)),
            ("planned_iterations".into(), Json::number(s.planned_iterations)),
        ]);
        let params = self
            .params
            .iter()
            .map(|p| {
                Json::Object(vec![
                    ("name".into(), Json::String(p.name.clone())),
                    ("value".into(), Json::number(p.value)),
                    ("min".into(), Json::number(p.min)),
                    ("max".into(), Json::number(p.max)),
                    ("c_end".into(), Json::number(p.c_end)),
                    ("r_end".into(), Json::number(p.r_end)),
                ])
            })
            .collect();
        Json::Object(vec![
            ("format".into(), Json::number(FORMAT)),
            ("settings".into(), settings),
            ("iteration".into(), Json::number(self.iteration)),
            ("rng_state".into(), Json::number(self.rng_state)),
            ("games".into(), Json::number(self.games)),
            ("wins".into(), Json::number(self.wins)),
            ("draws".into(), Json::number(self.draws)),
            ("losses".into(), Json::number(self.losses)),
            ("params".into(), Json::Array(params)),
        ])
    }

    /// Read a state; the error says what is missing or wrong.
    pub fn from_json(v: &Json) -> Result<TunerState, String> {
        let field = |v: &Json, key: &str| v.get(key).cloned().ok_or_else(|| format!("no '{key}'"));
        let uint =
            |v: &Json, key: &str| field(v, key)?.as_u64().ok_or_else(|| format!("'{key}' is not a whole number"));
        let float = |v: &Json, key: &str| field(v, key)?.as_f64().ok_or_else(|| format!("'{key}' is not a number"));
        let text = |v: &Json, key: &str| {
            field(v, key)?.as_str().map(str::to_string).ok_or_else(|| format!("'{key}' is not a string"))
        };
        let format = uint(v, "format")?;
        if format != FORMAT {
            return Err(format!("format {format}, this tuner reads {FORMAT}"));
        }
        let s = field(v, "settings")?;
        let variants = field(&s, "variants")?
            .as_array()
            .ok_or("'variants' is not a list")?
            .iter()
            .map(|x| x.as_str().map(str::to_string).ok_or("a variant is not a string"))
            .collect::<Result<Vec<_>, _>>()?;
        let settings = Settings {
            seed: uint(&s, "seed")?,
            variants,
            tc: text(&s, "tc")?,
            pairs_per_iteration: uint(&s, "pairs_per_iteration")?,
            planned_iterations: uint(&s, "planned_iterations")?,
        };
        let params = field(v, "params")?
            .as_array()
            .ok_or("'params' is not a list")?
            .iter()
            .map(|p| {
                Ok(SpsaParam {
                    name: text(p, "name")?,
                    value: float(p, "value")?,
                    min: float(p, "min")?,
                    max: float(p, "max")?,
                    c_end: float(p, "c_end")?,
                    r_end: float(p, "r_end")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(TunerState {
            settings,
            iteration: uint(v, "iteration")?,
            rng_state: uint(v, "rng_state")?,
            games: uint(v, "games")?,
            wins: uint(v, "wins")?,
            draws: uint(v, "draws")?,
            losses: uint(v, "losses")?,
            params,
        })
    }

    /// The state in `path`, or `None` when there is no such file.
    pub fn load(path: &Path) -> Result<Option<TunerState>, StateError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StateError::Io { path: path.to_path_buf(), why: e.to_string() }),
        };
        let corrupt = |why: String| StateError::Corrupt { path: path.to_path_buf(), why };
        let v = json::parse(&text).map_err(|e| corrupt(e.to_string()))?;
        TunerState::from_json(&v).map(Some).map_err(corrupt)
    }

    /// Refuse to resume from a state made with other settings or other numbers than `wanted`.
    pub fn check_resumes(&self, wanted: &Settings, names: &[String], path: &Path) -> Result<(), StateError> {
        let mismatch = |what: String| Err(StateError::Mismatch { path: path.to_path_buf(), what });
        let (s, w) = (&self.settings, wanted);
        if s.seed != w.seed {
            return mismatch(format!("seed {} not {}", s.seed, w.seed));
        }
        if s.variants != w.variants {
            return mismatch(format!("variants {} not {}", s.variants.join(","), w.variants.join(",")));
        }
        if s.tc != w.tc {
            return mismatch(format!("time control {} not {}", s.tc, w.tc));
        }
        if s.pairs_per_iteration != w.pairs_per_iteration {
            return mismatch(format!("{} pairs per iteration, not {}", s.pairs_per_iteration, w.pairs_per_iteration));
        }
        if s.planned_iterations != w.planned_iterations {
            return mismatch(format!("{} planned iterations, not {}", s.planned_iterations, w.planned_iterations));
        }
        let own: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        if own != names.iter().map(String::as_str).collect::<Vec<_>>() {
            return mismatch(format!("numbers {} not {}", own.join(","), names.join(",")));
        }
        Ok(())
    }

    /// Write the state to `path` atomically: a temporary file beside it, flushed to disk, then
    /// renamed over it.
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        // Each member a line, and each number of `params` a line of its own.
        write_atomically(path, &format!("{}\n", self.to_json().pretty(2)))
    }
}

/// Replace `path` by `text` in one step (a temporary file beside it, renamed over it).
pub fn write_atomically(path: &Path, text: &str) -> Result<(), StateError> {
    let io = |e: std::io::Error| StateError::Io { path: path.to_path_buf(), why: e.to_string() };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let mut file = std::fs::File::create(&temporary).map_err(io)?;
    file.write_all(text.as_bytes()).and_then(|_| file.sync_all()).map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> TunerState {
        let settings = Settings {
            seed: u64::MAX - 1,
            variants: vec!["dchess".into(), "chess9".into()],
            tc: "nodes=200".into(),
            pairs_per_iteration: 1,
            planned_iterations: 500,
        };
        let p =
            SpsaParam { name: "razor_margin".into(), value: 250.1, min: 50.0, max: 600.0, c_end: 20.0, r_end: 0.002 };
        let mut s = TunerState::new(settings, vec![p]);
        s.iteration = 3;
        s.rng_state = 0x9e37_79b9_7f4a_7c15;
        s.params[0].value = 1.0 / 3.0 + 250.0;
        s
    }

    #[test]
    fn a_state_reads_back_exactly_and_a_cut_one_is_refused_untouched() {
        let dir = std::env::temp_dir().join(format!("menagerie-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        let _ = std::fs::remove_file(&path);
        assert!(TunerState::load(&path).unwrap().is_none());
        let s = state();
        s.save(&path).unwrap();
        assert_eq!(TunerState::load(&path).unwrap(), Some(s.clone()));
        let text = std::fs::read_to_string(&path).unwrap();
        let cut = &text[..text.len() / 2];
        std::fs::write(&path, cut).unwrap();
        let e = TunerState::load(&path).unwrap_err();
        assert!(matches!(e, StateError::Corrupt { .. }) && e.to_string().contains("left untouched"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), cut);
        let names = vec!["razor_margin".to_string()];
        assert!(s.check_resumes(&s.settings, &names, &path).is_ok());
        let other = Settings { tc: "nodes=300".into(), ..s.settings.clone() };
        assert!(matches!(s.check_resumes(&other, &names, &path), Err(StateError::Mismatch { .. })));
        assert!(s.check_resumes(&s.settings, &["delta_margin".to_string()], &path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
