//! UCI options: their declarations (printed after `uci`) and the checking of `setoption` values.

use std::fmt;

/// The type and range of an option, as declared to the GUI.
#[derive(Clone, Debug)]
pub enum OptionKind {
    /// An integer in a range.
    Spin {
        /// The value before the GUI sets one.
        default: i64,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// A boolean.
    Check {
        /// The value before the GUI sets one.
        default: bool,
    },
    /// A free-form string (file names).
    Text {
        /// The value before the GUI sets one.
        default: &'static str,
    },
    /// An action without a value.
    Button,
}

/// One declared option.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// Name as the GUI shows it.
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionKind,
}

impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Text { default } => write!(
                f,
                "string default {}",
                if default.is_empty() {
                    "<empty>"
                } else {
                    default
                }
            ),
            OptionKind::Button => write!(f, "button"),
        }
    }
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// For spin options.
    Int(i64),
    /// For check options.
    Bool(bool),
    /// For string options (`<empty>` becomes the empty string).
    Text(String),
    /// For buttons.
    Press,
}

/// The default of a spin option (0 if there is none by that name).
pub fn spin_default(specs: &[OptionSpec], name: &str) -> i64 {
    match specs.iter().find(|s| s.name == name).map(|s| &s.kind) {
        Some(OptionKind::Spin { default, .. }) => *default,
        _ => 0,
    }
}

/// Every option Tropa declares.
pub fn declared() -> Vec<OptionSpec> {
    use OptionKind::*;
    // UCI_Elo offers the calibrated range only: no Elo outside it was measured.
    let (elo_min, elo_max) = crate::search::strength::elo_range();
    let mut specs = vec![
        OptionSpec {
            name: "Hash",
            kind: Spin {
                default: 16,
                min: 1,
                max: 65_536,
            },
        },
        OptionSpec {
            name: "Threads",
            kind: Spin {
                default: 1,
                min: 1,
                max: 256,
            },
        },
        OptionSpec {
            name: "MultiPV",
            kind: Spin {
                default: 1,
                min: 1,
                max: 256,
            },
        },
        OptionSpec {
            name: "Move Overhead",
            kind: Spin {
                default: 50,
                min: 0,
                max: 5_000,
            },
        },
        OptionSpec {
            name: "Contempt",
            kind: Spin {
                default: 0,
                min: -200,
                max: 200,
            },
        },
        OptionSpec {
            name: "Ponder",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "UCI_Chess960",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "Clear Hash",
            kind: Button,
        },
        OptionSpec {
            name: "ShowPlans",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "PioneerGuide",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "UCI_AnalyseMode",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "OwnBook",
            kind: Check { default: true },
        },
        OptionSpec {
            name: "EvalFile",
            kind: Text { default: "" },
        },
        OptionSpec {
            name: "UseNNUE",
            kind: Check { default: true },
        },
        OptionSpec {
            name: "BookFile",
            kind: Text { default: "" },
        },
        OptionSpec {
            name: "BookDepth",
            kind: Spin {
                default: 12,
                min: 1,
                max: 100,
            },
        },
        OptionSpec {
            name: "BookLearning",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "BookSeed",
            kind: Spin {
                default: 0,
                min: 0,
                max: 2_147_483_647,
            },
        },
        OptionSpec {
            name: "BookWeighted",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "Skill Level",
            kind: Spin {
                default: 20,
                min: 0,
                max: 20,
            },
        },
        OptionSpec {
            name: "UCI_LimitStrength",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "UCI_Elo",
            kind: Spin {
                default: 1500,
                min: elo_min,
                max: elo_max,
            },
        },
        OptionSpec {
            name: "UCI_ShowWDL",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "SyzygyPath",
            kind: Text { default: "" },
        },
        OptionSpec {
            name: "SyzygyProbeDepth",
            kind: Spin {
                default: 1,
                min: 1,
                max: 100,
            },
        },
        OptionSpec {
            name: "Syzygy50MoveRule",
            kind: Check { default: true },
        },
        OptionSpec {
            name: "SyzygyProbeLimit",
            kind: Spin {
                default: 7,
                min: 0,
                max: 7,
            },
        },
    ];
    // A tuning build offers its tunable search constants too (`search::tunable`).
    if cfg!(feature = "tune") {
        specs.extend(crate::search::params::TUNABLES.iter().map(|t| OptionSpec {
            name: t.name,
            kind: Spin {
                default: i64::from(t.default),
                min: i64::from(t.min),
                max: i64::from(t.max),
            },
        }));
    }
    specs
}

/// Splits `setoption name <name> [value <value>]` (the words after `setoption`) and checks the
/// value against the declaration. Option names are matched without regard to case.
pub fn parse_setoption(
    args: &str,
    specs: &[OptionSpec],
) -> Result<(&'static str, OptionValue), String> {
    let args = args.trim();
    let rest = args
        .strip_prefix("name")
        .ok_or("setoption needs 'name <option>'")?
        .trim_start();
    let (name, value) = match find_word(rest, "value") {
        Some(i) => (rest[..i].trim(), Some(rest[i + 5..].trim())),
        None => (rest.trim(), None),
    };
    if name.is_empty() {
        return Err("setoption needs an option name".into());
    }
    let spec = specs
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let value = match (&spec.kind, value) {
        (OptionKind::Button, _) => OptionValue::Press,
        (OptionKind::Spin { .. } | OptionKind::Check { .. }, None | Some("")) => {
            return Err(format!("option '{}' needs a value", spec.name));
        }
        (OptionKind::Spin { min, max, .. }, Some(v)) => {
            let n: i64 = v
                .parse()
                .map_err(|_| format!("option '{}' needs an integer, got '{v}'", spec.name))?;
            if n < *min || n > *max {
                return Err(format!(
                    "option '{}' value {n} is outside {min}..{max}",
                    spec.name
                ));
            }
            OptionValue::Int(n)
        }
        (OptionKind::Check { .. }, Some(v)) => match v.to_ascii_lowercase().as_str() {
            "true" => OptionValue::Bool(true),
            "false" => OptionValue::Bool(false),
            _ => {
                return Err(format!(
                    "option '{}' needs true or false, got '{v}'",
                    spec.name
                ))
            }
        },
        (OptionKind::Text { .. }, v) => {
            let v = v.unwrap_or("");
            OptionValue::Text(if v == "<empty>" {
                String::new()
            } else {
                v.to_string()
            })
        }
    };
    Ok((spec.name, value))
}

/// Byte index of `word` as a whole word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(i) = text[start..].find(word) {
        let at = start + i;
        let before = at == 0 || text.as_bytes()[at - 1].is_ascii_whitespace();
        let end = at + word.len();
        let after = end == text.len() || text.as_bytes()[end].is_ascii_whitespace();
        if before && after {
            return Some(at);
        }
        start = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_checks_values() {
        let specs = declared();
        assert_eq!(
            parse_setoption("name Hash value 128", &specs),
            Ok(("Hash", OptionValue::Int(128)))
        );
        assert_eq!(
            parse_setoption("name move overhead value 10", &specs),
            Ok(("Move Overhead", OptionValue::Int(10)))
        );
        assert_eq!(
            parse_setoption("name Clear Hash", &specs),
            Ok(("Clear Hash", OptionValue::Press))
        );
        assert_eq!(
            parse_setoption("name Ponder value TRUE", &specs),
            Ok(("Ponder", OptionValue::Bool(true)))
        );
        for bad in [
            "",
            "name",
            "name Hash",
            "name Hash value",
            "name Hash value 0",
            "name Hash value x",
            "name Nope value 1",
            "name Ponder value maybe",
            "Hash value 1",
        ] {
            assert!(parse_setoption(bad, &specs).is_err(), "{bad}");
        }
    }
}
