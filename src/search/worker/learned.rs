//! The worker's side of the learned evaluation: which evaluation a node gets, and the
//! accumulators kept along the path when the net is on.
//!
//! Design note: with the hand-crafted evaluation (`Engine::new`'s until it is given a net) there
//! is no accumulator stack at all, and the hooks below are one untaken branch each. With a net, making a move records its
//! feature delta for the child's ply and evaluating computes the accumulators lazily
//! (`crate::eval::nnue::AccumulatorStack`).

use super::Worker;
use crate::eval::evaluate;
use crate::eval::nnue::{AccumulatorStack, Delta, Network};
use crate::rules::{Board, Move};
use crate::search::MAX_PLY;
use std::sync::Arc;

/// A net and the accumulators of the current path.
pub(super) struct Learned {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

impl Worker {
    /// Evaluates with `net`, or with the hand-crafted evaluation when `None`.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.learned = net.map(|net| Learned {
            stack: AccumulatorStack::new(net.hidden(), MAX_PLY + 4),
            net,
        });
    }

    /// `root` is searched from ply 0.
    pub(super) fn learned_new_root(&mut self, root: &Board) {
        if let Some(learned) = &mut self.learned {
            learned.stack.set_root(&learned.net, root);
        }
    }

    /// `mv` is made from `parent` at `ply`.
    pub(super) fn learned_move(&mut self, parent: &Board, mv: Move, ply: usize) {
        if let Some(learned) = &mut self.learned {
            learned.stack.push(ply + 1, Delta::of_move(parent, mv));
        }
    }

    /// A null move is made at `ply`.
    pub(super) fn learned_null_move(&mut self, ply: usize) {
        if let Some(learned) = &mut self.learned {
            learned.stack.push(ply + 1, Delta::default());
        }
    }

    /// The static evaluation of `board`, the position at `ply`, from the side to move's view.
    pub(super) fn evaluate(&mut self, board: &Board, ply: usize) -> i32 {
        match &mut self.learned {
            Some(learned) => {
                let score = learned.stack.evaluate(&learned.net, board, ply);
                // In the unit tests every evaluation of every search is checked against a
                // refresh, so the hooks in the search are tested where they are called.
                if cfg!(test) {
                    assert_eq!(score, learned.net.evaluate_full(board), "ply {ply}");
                }
                score
            }
            None => evaluate(board),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::nnue::tests::random_net;
    use crate::rules::{legal_moves, Game};
    use crate::search::{Engine, Limits, SearchControl, Silent};
    use std::sync::Arc;

    fn search(engine: &mut Engine, fen: &str) -> (u64, i32, bool) {
        engine.clear();
        let game = Game::from_uci(Some(fen), &[], false).unwrap();
        let limits = Limits {
            depth: Some(7),
            ..Default::default()
        };
        let result = engine.search(&game, &limits, &SearchControl::new(), &mut Silent);
        let legal = result
            .best
            .is_some_and(|mv| legal_moves(game.board()).contains(&mv));
        (result.nodes, result.score, legal)
    }

    /// With a net, every evaluation in these searches is checked against a refresh
    /// (`Worker::evaluate` under `cfg(test)`): captures, castling, en passant, promotions, null
    /// moves and the quiescence search are all on the path.
    #[test]
    fn a_net_searches_reproducibly_and_can_be_switched_off() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let mut engine = Engine::new(4, 1);
        let hand = search(&mut engine, fen);
        engine.set_network(Some(Arc::new(random_net(32, 3))));
        let net = search(&mut engine, fen);
        assert!(net.2 && hand.2);
        assert_eq!(net, search(&mut engine, fen), "reproducible with a net");
        assert_ne!(net, hand, "the net is what evaluates");
        engine.set_network(None);
        assert_eq!(hand, search(&mut engine, fen));
        // Threads added after the net was chosen evaluate with it too.
        engine.set_network(Some(Arc::new(random_net(32, 3))));
        engine.set_threads(2);
        assert!(search(&mut engine, fen).2);
    }
}
