//! The UCI options of the evaluation: `EvalFile`, a path to a net (empty: the built-in net), and
//! `UseNNUE` (false: the hand-crafted evaluation).
//!
//! Design note: both options are kept here and the engine's net is derived from the two after
//! every change, so their order does not matter: UseNNUE false means the hand-crafted
//! evaluation, true the EvalFile net if one is loaded, else the built-in one. A net that cannot
//! be read leaves the evaluation as it was and says why in an `info string error` line; every
//! change that succeeds is announced as `info string evaluation: …`.

use super::Output;
use crate::eval::nnue::{self, Network};
use crate::search::Engine;
use std::path::Path;
use std::sync::Arc;

/// The evaluation options' values.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// The net loaded by `EvalFile`, with its path (none: the built-in net).
    file: Option<(String, Arc<Network>)>,
    /// `UseNNUE`.
    use_nnue: bool,
}

impl Default for EvalOptions {
    /// The options' defaults: the built-in net.
    fn default() -> Self {
        EvalOptions {
            file: None,
            use_nnue: true,
        }
    }
}

impl EvalOptions {
    /// The net to evaluate with (none: the hand-crafted evaluation).
    pub fn network(&self) -> Option<Arc<Network>> {
        self.use_nnue.then(|| {
            self.file
                .as_ref()
                .map_or_else(nnue::builtin, |(_, net)| Arc::clone(net))
        })
    }

    /// Applies `setoption name EvalFile value <path>` to `engine`.
    pub fn set_file(&mut self, engine: &mut Engine, path: &str, out: &Output) {
        let path = path.trim();
        if path.is_empty() {
            self.file = None;
        } else {
            match Network::load(Path::new(path)) {
                Ok(net) => self.file = Some((path.to_string(), Arc::new(net))),
                Err(e) => return out.error(&format!("{e}; keeping {}", self.describe())),
            }
        }
        self.apply(engine, out);
    }

    /// Applies `setoption name UseNNUE value <on>` to `engine`.
    pub fn set_use_nnue(&mut self, engine: &mut Engine, on: bool, out: &Output) {
        self.use_nnue = on;
        self.apply(engine, out);
    }

    fn apply(&self, engine: &mut Engine, out: &Output) {
        engine.set_network(self.network());
        out.line(&format!("info string evaluation: {}", self.describe()));
    }

    /// The evaluation in use, in words.
    fn describe(&self) -> String {
        match (self.use_nnue, &self.file) {
            (false, _) => "hand-crafted (UseNNUE false)".to_string(),
            (true, None) => format!("the built-in net {}", nnue::builtin().shape()),
            (true, Some((path, net))) => format!("net {path} {}", net.shape()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run, Capture, Output};
    use crate::eval::nnue::{self, tests::random_net};
    use std::path::PathBuf;
    use std::sync::Arc;

    fn session(input: &str) -> String {
        let capture = Capture::default();
        run(
            &mut std::io::Cursor::new(input.as_bytes().to_vec()),
            Output::to(capture.clone()),
            None,
        );
        capture.take()
    }

    /// A temporary folder (removed when dropped) holding a random 16-wide net as `good.nnue`:
    /// the folder, the net's path and its bytes.
    fn net_file(seed: u64) -> (tempfile::TempDir, PathBuf, Vec<u8>) {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.nnue");
        let bytes = random_net(16, seed).to_bytes();
        std::fs::write(&good, &bytes).unwrap();
        (dir, good, bytes)
    }

    #[test]
    fn a_net_is_loaded_a_bad_one_refused_and_empty_goes_back_to_the_builtin_net() {
        let (dir, good, bytes) = net_file(4);
        let torn = dir.path().join("torn.nnue");
        std::fs::write(&torn, &bytes[..bytes.len() / 2]).unwrap();
        let out = session(&format!(
            "uci\nsetoption name OwnBook value false\nsetoption name EvalFile value {}\ngo depth 3\nsetoption name EvalFile value {}\nsetoption name EvalFile value\ngo depth 3\n",
            good.display(),
            torn.display()
        ));
        assert!(
            out.contains("option name EvalFile type string default <empty>"),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "info string evaluation: net {} (768 -> 16x2 -> 1)",
                good.display()
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "(truncated or padded); keeping net {} (768 -> 16x2 -> 1)",
                good.display()
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "info string evaluation: the built-in net {}",
                nnue::builtin().shape()
            )),
            "{out}"
        );
        assert_eq!(out.matches("bestmove").count(), 2, "{out}");
    }

    #[test]
    fn use_nnue_false_is_hand_crafted_and_true_brings_the_net_back() {
        let (_dir, good, _) = net_file(5);
        let out = session(&format!(
            "uci\nsetoption name OwnBook value false\nsetoption name UseNNUE value false\ngo depth 3\nsetoption name EvalFile value {}\nsetoption name UseNNUE value true\ngo depth 3\nsetoption name EvalFile value\n",
            good.display()
        ));
        assert!(
            out.contains("option name UseNNUE type check default true"),
            "{out}"
        );
        let evaluations: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("info string evaluation: "))
            .collect();
        let loaded = format!("net {} (768 -> 16x2 -> 1)", good.display());
        let builtin = format!("the built-in net {}", nnue::builtin().shape());
        assert_eq!(
            evaluations,
            [
                "hand-crafted (UseNNUE false)",
                "hand-crafted (UseNNUE false)",
                loaded.as_str(),
                builtin.as_str(),
            ],
            "{out}"
        );
        assert_eq!(out.matches("bestmove").count(), 2, "{out}");
    }

    #[test]
    fn the_engine_gets_the_builtin_net_none_or_it_again() {
        let mut engine = crate::search::Engine::new(1, 1);
        let out = Output::to(Capture::default());
        let mut options = super::EvalOptions::default();
        let builtin = crate::eval::nnue::builtin();
        assert!(Arc::ptr_eq(&options.network().unwrap(), &builtin));
        options.set_use_nnue(&mut engine, false, &out);
        assert!(engine.network().is_none());
        options.set_use_nnue(&mut engine, true, &out);
        assert!(Arc::ptr_eq(engine.network().unwrap(), &builtin));
    }
}
