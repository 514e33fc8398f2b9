//! The learned evaluation on the command line: `--eval-file` for `bench` and `analyse`, and the
//! net's score beside the hand-crafted terms in `tropa eval`.

use crate::eval::nnue::Network;
use crate::rules::{Board, Color};
use std::path::Path;
use std::sync::Arc;

/// Loads the net named by `--eval-file`, if any (none: the hand-crafted evaluation).
pub fn load(path: Option<&Path>) -> Result<Option<Arc<Network>>, String> {
    path.map(|p| Network::load(p).map(Arc::new).map_err(|e| e.to_string()))
        .transpose()
}

/// Prints the net's evaluation of `board` (White's view and the side to move's).
pub fn show_eval(net: &Network, board: &Board) {
    let stm = net.evaluate_full(board);
    let white = if board.side_to_move() == Color::White {
        stm
    } else {
        -stm
    };
    println!(
        "net (768 -> {}x2 -> 1, {:?} kernels): {white} (White's view), {stm} for the side to move",
        net.hidden(),
        net.kernel()
    );
}
