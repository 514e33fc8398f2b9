//! How good PIONEER's plans are as moves: the first move of the best confirmed plan of the side
//! to move (an attack, support, counter or escape, or in check an answer to it), and the first
//! move of every zone PIONEER calls a win, against the best move of a deeper search; and
//! whether that best move is explained by a plan PIONEER has (the reader's "why this move?").
//!
//! Design note: the plans are checked as `tropa plan` checks them (`check_plans` at its usual
//! depth); the referee is a separate, deeper search with a fresh table, so that the figure says
//! how a strong searcher judges the plan PIONEER puts first, not how the check itself did. Only
//! the side to move's plans are measured: the opponent's plans are played after a pass and are
//! not moves of this position.

use super::report::explains;
use super::{check_plans, claims_win, ranked, run, CheckLimits, PlanStatus};
use crate::pioneer::zones::analysis::Analysis;
use crate::rules::{Board, Move};
use crate::search::Engine;

/// What the referee search said of one position's plans.
#[derive(Clone, Debug)]
pub struct PositionMeasure {
    /// The referee's best move and its score (centipawns, side to move's view).
    pub best: Option<(Move, i32)>,
    /// The first move of the best confirmed plan of the side to move and the referee's score of
    /// it; `None` when no plan of the side to move was confirmed.
    pub top_plan: Option<(Move, i32)>,
    /// Each zone of the side to move that wins by the zone model (verdict `Wins`).
    pub win_claims: Vec<WinClaim>,
    /// Plans of the side to move checked by the search (its zones' attacks, its supports,
    /// counters and escapes, its answers to a check), whether confirmed or not.
    pub own_plans: usize,
    /// Is the referee's best move explained by PIONEER (`report::explains`): the first move of a
    /// plan the check does not refute, or the first step of a fork trajectory?
    pub explained: bool,
}

impl PositionMeasure {
    /// Is the top plan's first move within `margin` centipawns of the referee's best?
    pub fn top_plan_within(&self, margin: i32) -> bool {
        matches!((self.best, self.top_plan), (Some((_, best)), Some((_, plan))) if plan >= best - margin)
    }

    /// The win claims (only those the report makes, confirmed by the check, if
    /// `reported_only`) whose first move the referee scores more than `margin` below its best
    /// and below −`margin` outright: claimed wins that lose material.
    pub fn losing_win_claims(&self, margin: i32, reported_only: bool) -> Vec<WinClaim> {
        let Some((_, best)) = self.best else {
            return Vec::new();
        };
        self.win_claims
            .iter()
            .copied()
            .filter(|c| c.confirmed || !reported_only)
            .filter(|c| c.score < best - margin && c.score < -margin)
            .collect()
    }
}

/// A zone that wins by the zone model: its first move, the referee's score of it, and whether
/// the plan check confirmed it (the report calls only those a win; the refuted ones are listed
/// as refuted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinClaim {
    /// The zone's first move.
    pub mv: Move,
    /// The referee's score of it (centipawns, side to move's view).
    pub score: i32,
    /// Did the plan check confirm it?
    pub confirmed: bool,
}

/// Measures `board`: its plans checked with `check`, then the referee searches with `referee`.
pub fn measure_position(
    board: &Board,
    check: CheckLimits,
    referee: CheckLimits,
) -> PositionMeasure {
    let analysis = Analysis::new(
        board,
        crate::pioneer::attacks::attack::TrajectoryLimits::default(),
    );
    let checks = check_plans(board, &analysis, check);
    let us = board.side_to_move();
    let top = ranked(&checks)
        .into_iter()
        .find(|c| c.side == us && matches!(c.status, PlanStatus::Confirmed | PlanStatus::NotAWin))
        .and_then(|c| c.first_move);
    let claims: Vec<(Move, bool)> = checks
        .iter()
        .filter(|c| c.side == us)
        .filter(|c| claims_win(&analysis, board, c))
        .filter_map(|c| {
            c.first_move
                .map(|mv| (mv, c.status == PlanStatus::Confirmed))
        })
        .collect();
    let mut engine = Engine::new(64, 1);
    engine.clear();
    let root = run(&mut engine, board, referee, None);
    let mut score_of = |mv: Move| {
        if root.best == Some(mv) {
            root.score
        } else {
            run(&mut engine, board, referee, Some(mv)).score
        }
    };
    let top_plan = top.map(|mv| (mv, score_of(mv)));
    let mut win_claims = Vec::new();
    for (mv, confirmed) in claims {
        win_claims.push(WinClaim {
            mv,
            score: score_of(mv),
            confirmed,
        });
    }
    PositionMeasure {
        best: root.best.map(|mv| (mv, root.score)),
        top_plan,
        win_claims,
        own_plans: checks.iter().filter(|c| c.side == us).count(),
        explained: root
            .best
            .is_some_and(|mv| explains(board, &analysis, &checks, mv)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    /// Game 32 of the classics before 30…h6: PIONEER calls Qxa2 a win of the a2 pawn; the
    /// referee at depth 16 scores it about −4.5 for Black (at depth 14 it saw less than a
    /// pawn), a claimed win that loses material, and it is no top plan.
    #[test]
    fn a_claimed_win_that_loses_is_counted() {
        let board = parse_fen(
            "6k1/p5pp/5r2/1b1qpP2/3p4/3p4/PP1Q1RPP/2R3K1 b - - 1 30",
            false,
        )
        .unwrap();
        let referee = CheckLimits {
            nodes: 4_000_000,
            ..CheckLimits::fixed(16)
        };
        let m = measure_position(&board, CheckLimits::default(), referee);
        let qxa2: Move = "d5a2".parse().unwrap();
        assert!(m.win_claims.iter().any(|c| c.mv == qxa2), "{m:?}");
        assert!(
            m.losing_win_claims(100, false).iter().any(|c| c.mv == qxa2),
            "{m:?}"
        );
        // The check refutes it, so the report does not call it a win.
        assert!(
            m.losing_win_claims(100, true).iter().all(|c| c.mv != qxa2),
            "{m:?}"
        );
        assert!(m.top_plan.is_none_or(|(mv, _)| mv != qxa2), "{m:?}");
        assert!(m.best.is_some());
        assert!(m.own_plans >= 2, "{m:?}");
    }
}
