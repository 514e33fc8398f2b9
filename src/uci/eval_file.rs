//! The UCI option `EvalFile`: a path to a learned-evaluation net, or empty for the hand-crafted
//! evaluation (the default until a net trained on Tropa's own games beats it).
//!
//! Design note: a net that cannot be read leaves the evaluation as it was and says why in an
//! `info string error` line; a net that loads is announced with its width.

use super::Output;
use crate::eval::nnue::Network;
use crate::search::Engine;
use std::path::Path;
use std::sync::Arc;

/// Applies `setoption name EvalFile value <path>` to `engine`.
pub fn set(engine: &mut Engine, path: &str, out: &Output) {
    let path = path.trim();
    if path.is_empty() {
        engine.set_network(None);
        out.line("info string evaluation: hand-crafted");
        return;
    }
    match Network::load(Path::new(path)) {
        Ok(net) => {
            out.line(&format!(
                "info string evaluation: net {path} (768 -> {}x2 -> 1)",
                net.hidden()
            ));
            engine.set_network(Some(Arc::new(net)));
        }
        Err(e) => {
            let kept = if engine.network().is_some() {
                "the previous net"
            } else {
                "the hand-crafted evaluation"
            };
            out.error(&format!("{e}; keeping {kept}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{run, Capture, Output};
    use crate::eval::nnue::tests::random_net;

    fn session(input: &str) -> String {
        let capture = Capture::default();
        run(
            &mut std::io::Cursor::new(input.as_bytes().to_vec()),
            Output::to(capture.clone()),
        );
        capture.take()
    }

    #[test]
    fn a_net_is_loaded_a_bad_one_refused_and_empty_goes_back_to_hand_crafted() {
        let dir = std::env::temp_dir().join(format!("tropa-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        let bytes = random_net(16, 4).to_bytes();
        std::fs::write(&good, &bytes).unwrap();
        let torn = dir.join("torn.nnue");
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
        assert!(out.contains("info string evaluation: net"), "{out}");
        assert!(
            out.contains("(truncated or padded); keeping the previous net"),
            "{out}"
        );
        assert!(
            out.contains("info string evaluation: hand-crafted"),
            "{out}"
        );
        assert_eq!(out.matches("bestmove").count(), 2, "{out}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
