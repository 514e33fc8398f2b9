//! The Syzygy options: `SyzygyPath` opens the tables (and says how many it found, or why it
//! could not), the others set how the search probes them (`search::syzygy`).

use super::options::OptionValue;
use super::Output;
use crate::search::Engine;
use crate::tablebases::Tablebases;

/// The option names this module handles.
pub const OPTIONS: [&str; 4] = [
    "SyzygyPath",
    "SyzygyProbeDepth",
    "Syzygy50MoveRule",
    "SyzygyProbeLimit",
];

/// Applies a checked Syzygy option. A path that cannot be used keeps the tables loaded before.
pub fn set_option(engine: &mut Engine, name: &str, value: OptionValue, out: &Output) {
    let settings = &mut engine.options.syzygy;
    match (name, value) {
        ("SyzygyPath", OptionValue::Text(paths)) => {
            if paths.trim().is_empty() {
                engine.tablebases = None;
                return;
            }
            match Tablebases::open(&paths) {
                Ok(tables) if tables.files() == 0 => out.error(&format!(
                    "SyzygyPath: no Syzygy tables (*.rtbw, *.rtbz) in '{paths}'"
                )),
                Ok(tables) => {
                    out.line(&format!(
                        "info string Syzygy: {} files, up to {} pieces",
                        tables.files(),
                        tables.max_pieces()
                    ));
                    engine.tablebases = Some(tables);
                }
                Err(e) => out.error(&e),
            }
        }
        ("SyzygyProbeDepth", OptionValue::Int(depth)) => settings.probe_depth = depth as i32,
        ("Syzygy50MoveRule", OptionValue::Bool(on)) => settings.rule50 = on,
        ("SyzygyProbeLimit", OptionValue::Int(pieces)) => settings.probe_limit = pieces as usize,
        (other, _) => out.error(&format!("option '{other}' is not handled")),
    }
}
