//! The searches of one round of a plan check: the best move of each position a plan is played
//! in, and each first move, every one searched once however many plans it serves.
//!
//! Design note: each search's node count is kept, so that `check_plans` can tell what a deeper
//! round over a few plans (the claimed wins) is expected to cost.

use super::{run, CheckLimits, PlanCheck, PlanStatus, CONFIRM_MARGIN, DECISIVE};
use crate::pioneer::play::moves::StepRole;
use crate::rules::{Board, Color, Move};
use crate::search::Engine;

/// The search for the best move of a position: the move and its score (`None`: no legal move),
/// its line, the depth it reached (its node limit may stop it short of the round's) and the
/// nodes it took.
struct BestSearch {
    best: Option<(Move, i32)>,
    line: Vec<Move>,
    depth: i32,
    nodes: u64,
}

/// The search of one first move of `side`: its score and line, the depth it reached and the
/// nodes it took.
struct MoveSearch {
    side: Color,
    mv: Move,
    score: i32,
    line: Vec<Move>,
    depth: i32,
    nodes: u64,
}

/// The searches of one round: the best move of each position searched, and each first move's
/// result, so that a move serving several plans is searched once.
pub(super) struct Searches<'a> {
    engine: &'a mut Engine,
    pub(super) limits: CheckLimits,
    best: [Option<BestSearch>; 2],
    moves: Vec<MoveSearch>,
    /// Nodes searched so far.
    pub(super) nodes: u64,
}

impl<'a> Searches<'a> {
    /// No search yet, at the depth of `limits`, on a cleared table.
    pub(super) fn new(engine: &'a mut Engine, limits: CheckLimits) -> Self {
        engine.clear();
        Searches {
            engine,
            limits,
            best: [None, None],
            moves: Vec::new(),
            nodes: 0,
        }
    }

    /// The verdict on `mv`, the first move of a plan of `side` played in `position`, refuted
    /// when it scores more than `margin` below the best move there.
    pub(super) fn check(
        &mut self,
        role: StepRole,
        side: Color,
        position: &Board,
        mv: Move,
        margin: i32,
    ) -> PlanCheck {
        let (engine, limits) = (&mut *self.engine, self.limits);
        let nodes = &mut self.nodes;
        let best_search = self.best[side as usize].get_or_insert_with(|| {
            let result = run(engine, position, limits, None);
            *nodes += result.nodes;
            BestSearch {
                best: result.best.map(|mv| (mv, result.score)),
                line: result.pv,
                depth: result.depth,
                nodes: result.nodes,
            }
        });
        let (best, best_depth) = (best_search.best, best_search.depth);
        // The best move was searched already, by the search that chose it: a second search of
        // it alone, on a table the other searches have filled, can score it differently and
        // rank another plan above the move the check itself calls best.
        let known = match best {
            Some((best_move, best_score)) if best_move == mv => {
                Some((best_score, best_search.line.clone(), best_depth))
            }
            _ => self
                .moves
                .iter()
                .find(|m| m.side == side && m.mv == mv)
                .map(|m| (m.score, m.line.clone(), m.depth)),
        };
        let (score, line, depth) = match known {
            Some(searched) => searched,
            None => {
                let result = run(self.engine, position, limits, Some(mv));
                self.nodes += result.nodes;
                self.moves.push(MoveSearch {
                    side,
                    mv,
                    score: result.score,
                    line: result.pv.clone(),
                    depth: result.depth,
                    nodes: result.nodes,
                });
                (result.score, result.pv, result.depth)
            }
        };
        let status = match best {
            Some((_, best_score)) if score < best_score - margin && score < DECISIVE => {
                if score >= best_score - CONFIRM_MARGIN {
                    PlanStatus::NotAWin
                } else {
                    PlanStatus::Refuted
                }
            }
            _ => PlanStatus::Confirmed,
        };
        PlanCheck {
            role,
            side,
            status,
            position: position.clone(),
            first_move: Some(mv),
            score,
            line,
            best,
            // The verdict rests on both searches: it sees as deep as the shallower.
            depth: depth.min(best_depth),
        }
    }

    /// The searches of this round so far.
    pub(super) fn count(&self) -> usize {
        self.moves.len() + self.best.iter().flatten().count()
    }

    /// The nodes each search behind `checks` took in this round, each search once: the best
    /// move's of each side involved and each first move's searched alone.
    pub(super) fn nodes_behind<'c>(&self, checks: impl Iterator<Item = &'c PlanCheck>) -> Vec<u64> {
        let mut sides = [false; 2];
        let mut moves = vec![false; self.moves.len()];
        for check in checks {
            sides[check.side as usize] = true;
            let search = self
                .moves
                .iter()
                .position(|m| m.side == check.side && Some(m.mv) == check.first_move);
            if let Some(index) = search {
                moves[index] = true;
            }
        }
        let best = (0..2)
            .filter(|&side| sides[side])
            .filter_map(|side| self.best[side].as_ref().map(|b| b.nodes));
        let alone = self
            .moves
            .iter()
            .zip(moves)
            .filter(|(_, behind)| *behind)
            .map(|(m, _)| m.nodes);
        best.chain(alone).collect()
    }
}
