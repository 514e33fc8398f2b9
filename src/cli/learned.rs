//! Which evaluation a command uses: `--eval-file` and `--hce`.
//!
//! Design note: every command that searches flattens `EvalArgs` into its arguments, so
//! `--eval-file NET` and `--hce` mean the same everywhere (as the UCI options EvalFile and
//! UseNNUE); without either, the built-in net evaluates.

use crate::eval::nnue::{self, Network};
use std::path::PathBuf;
use std::sync::Arc;

/// The evaluation options of a command.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct EvalArgs {
    /// Evaluate with this net (as the UCI option EvalFile); default: the built-in net.
    #[arg(long, value_name = "NET")]
    pub eval_file: Option<PathBuf>,
    /// Use the hand-crafted evaluation instead of a net (as the UCI option UseNNUE false).
    #[arg(long, conflicts_with = "eval_file")]
    pub hce: bool,
}

impl EvalArgs {
    /// The net to evaluate with: the `--eval-file` net, none with `--hce` (the hand-crafted
    /// evaluation), or the built-in net.
    pub fn network(&self) -> Result<Option<Arc<Network>>, String> {
        match (&self.eval_file, self.hce) {
            (Some(path), _) => Network::load(path)
                .map(|net| Some(Arc::new(net)))
                .map_err(|e| e.to_string()),
            (None, true) => Ok(None),
            (None, false) => Ok(Some(nnue::builtin())),
        }
    }
}
