//! Iterative deepening for one worker (docs/sources.md#transposition-table): each iteration
//! searches the root inside an aspiration window around the previous score, line after line for
//! MultiPV, and fills the table for the next one.
//!
//! Design note: the loop reads as its steps, each a function of its own — the aspiration
//! window (`aspiration_search`), the result of an iteration (`completed_result`), reporting
//! (`report`), how much more time an unstable result deserves (`Stability`) and the stop rules
//! (`no_more_iterations`). Only worker 0 reports and decides when to stop; the other workers
//! skip some depths so that the threads do not all search the same tree in lockstep.

use super::params::{
    ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH, ASPIRATION_REPORT_AFTER_MS,
    HELPER_SKIP_PERIOD, SINGLE_REPLY_DEPTH, TIME_BASE_FACTOR, TIME_EFFORT_BASE, TIME_FALLING_SPAN,
    TIME_FALLING_WEIGHT, TIME_STABILITY_STEP, TIME_STABLE_ITERATIONS_MAX,
};
use super::worker::{Shared, Worker};
use super::{
    Limits, Progress, Reporter, Score, SearchOptions, SearchResult, INFINITY, MATE, MAX_PLY,
};
use crate::bound::Bound;
use crate::rules::{Board, Move};
use std::sync::atomic::Ordering;

/// Iterative deepening for one worker. Worker 0 decides when to stop and reports.
pub(super) fn iterate(
    worker: &mut Worker,
    board: &Board,
    shared: &Shared,
    limits: &Limits,
    options: &SearchOptions,
    reporter: &mut dyn Reporter,
) -> SearchResult {
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as i32 - 1)
        .clamp(1, MAX_PLY as i32 - 1);
    let lines = options.multipv.clamp(1, worker.root_moves.len());
    let mut completed = SearchResult {
        best: Some(worker.root_moves[0].mv),
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![worker.root_moves[0].mv],
    };
    let mut stability = Stability::default();
    let main = worker.id == 0;
    for depth in 1..=max_depth {
        if !main && depth > 1 && (depth + worker.id as i32) % HELPER_SKIP_PERIOD == 0 {
            continue;
        }
        worker.seldepth = 0;
        for pv_index in 0..lines {
            aspiration_search(worker, board, shared, depth, pv_index, reporter);
            if worker.stopped() {
                break;
            }
            // A later line can score above an earlier one (search instability between the
            // separate searches): keep the lines found so far ordered, best first.
            worker.root_moves[..=pv_index].sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        if worker.stopped() {
            if main && lines == 1 {
                adopt_unfinished_best(worker, &mut completed);
            }
            break;
        }
        completed = completed_result(worker, depth);
        if !main {
            continue;
        }
        for pv_index in 0..lines {
            report(worker, shared, depth, pv_index, Bound::Exact, reporter);
        }
        let factor = stability.time_factor(&completed, best_move_effort(worker));
        if no_more_iterations(worker, shared, limits, &completed, depth, factor) {
            break;
        }
    }
    if main {
        completed.nodes = shared
            .node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum::<u64>()
            .max(worker.nodes);
    }
    completed
}

/// Searches line `pv_index` at `depth` inside a window around its previous score, widened on
/// each failure until the score falls inside it; worker 0 reports the bounds of a search that
/// has run for a while, so a GUI sees the score move.
fn aspiration_search(
    worker: &mut Worker,
    board: &Board,
    shared: &Shared,
    depth: i32,
    pv_index: usize,
    reporter: &mut dyn Reporter,
) {
    let previous = worker.root_moves[pv_index].score;
    let mut delta = ASPIRATION_DELTA.get();
    let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && previous.abs() < MATE / 2 {
        (
            (previous - delta).max(-INFINITY),
            (previous + delta).min(INFINITY),
        )
    } else {
        (-INFINITY, INFINITY)
    };
    loop {
        let score = worker.root_search(board, shared, depth, alpha, beta, pv_index, reporter);
        if worker.stopped() {
            return;
        }
        let bound = Bound::of(score, alpha, beta);
        if worker.id == 0
            && bound != Bound::Exact
            && shared.control.time().elapsed().as_millis() > u128::from(ASPIRATION_REPORT_AFTER_MS)
        {
            report(worker, shared, depth, pv_index, bound, reporter);
        }
        match bound {
            Bound::Upper => {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            }
            Bound::Lower => beta = (score + delta).min(INFINITY),
            Bound::Exact => return,
        }
        delta += delta;
        if delta > ASPIRATION_MAX_DELTA {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

/// The result of the iteration at `depth` that has just completed: the best line.
fn completed_result(worker: &Worker, depth: i32) -> SearchResult {
    let best = &worker.root_moves[0];
    SearchResult {
        best: Some(best.mv),
        ponder: best.pv.get(1).copied(),
        score: best.score,
        depth,
        nodes: 0,
        pv: best.pv.clone(),
    }
}

/// After a stop in mid-iteration: a move that beat the previous best there is better
/// information than the last completed iteration (the previous best is searched first, so
/// anything ranked above it has proved better at the new depth).
fn adopt_unfinished_best(worker: &Worker, completed: &mut SearchResult) {
    let best = &worker.root_moves[0];
    if best.score > -INFINITY && Some(best.mv) != completed.best {
        *completed = completed_result(worker, completed.depth);
    }
}

/// How steady the result has been over the iterations, and so how much of its planned time
/// the search may use: more when the best move changes, the score falls or the alternatives
/// took real work to refute; less when stable.
#[derive(Default)]
struct Stability {
    stable_iterations: i32,
    previous_best: Option<Move>,
    previous_score: i32,
}

impl Stability {
    /// Takes in a completed iteration; returns the factor on the planned time.
    fn time_factor(&mut self, completed: &SearchResult, effort: f64) -> f64 {
        if self.previous_best == completed.best {
            self.stable_iterations += 1;
        } else {
            self.stable_iterations = 0;
        }
        self.previous_best = completed.best;
        let falling = (self.previous_score - completed.score).clamp(0, TIME_FALLING_SPAN) as f64
            / TIME_FALLING_SPAN as f64;
        self.previous_score = completed.score;
        (TIME_BASE_FACTOR
            - TIME_STABILITY_STEP * self.stable_iterations.min(TIME_STABLE_ITERATIONS_MAX) as f64)
            * (1.0 + falling * TIME_FALLING_WEIGHT)
            * (TIME_EFFORT_BASE - effort)
    }
}

/// The share of the root's nodes, over all iterations so far, spent under the best move: near
/// one when every alternative was refuted cheaply, lower when others needed real work.
fn best_move_effort(worker: &Worker) -> f64 {
    let total: u64 = worker.root_moves.iter().map(|r| r.nodes).sum();
    worker.root_moves[0].nodes as f64 / total.max(1) as f64
}

/// The stop rules of worker 0 after a completed iteration: the mate asked for is found, the
/// next iteration would not fit in the time (stretched by `factor`), or a game move has only
/// one legal reply and has been searched deep enough to have a score to show.
fn no_more_iterations(
    worker: &Worker,
    shared: &Shared,
    limits: &Limits,
    completed: &SearchResult,
    depth: i32,
    factor: f64,
) -> bool {
    let pondering = shared.control.pondering();
    let mate_found = limits.mate.is_some_and(|m| {
        matches!(Score::from_internal(completed.score), Score::Mate(n) if n > 0 && n <= m as i32)
    });
    let out_of_time = !pondering && !shared.control.time().may_start_iteration(factor);
    let single_reply = worker.root_moves.len() == 1
        && !pondering
        && !limits.infinite
        && limits.clock.is_some()
        && depth >= SINGLE_REPLY_DEPTH;
    mate_found || out_of_time || single_reply
}

/// Reports line `pv_index` of the current iteration with the nodes of all threads.
fn report(
    worker: &Worker,
    shared: &Shared,
    depth: i32,
    pv_index: usize,
    bound: Bound,
    reporter: &mut dyn Reporter,
) {
    shared.node_counts[worker.id].store(worker.nodes, Ordering::Relaxed);
    let line = &worker.root_moves[pv_index];
    let nodes = shared
        .node_counts
        .iter()
        .map(|n| n.load(Ordering::Relaxed))
        .sum();
    reporter.progress(&Progress {
        depth,
        seldepth: line.seldepth.max(1),
        multipv: pv_index + 1,
        score: Score::from_internal(line.score),
        bound,
        nodes,
        time_ms: shared.control.time().elapsed().as_millis() as u64,
        hashfull: shared.tt.hashfull(),
        pv: line.pv.clone(),
        tbhits: shared.tb_hits.load(Ordering::Relaxed),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(best: &str, score: i32) -> SearchResult {
        let mv: Move = best.parse().unwrap();
        SearchResult {
            best: Some(mv),
            ponder: None,
            score,
            depth: 1,
            nodes: 0,
            pv: vec![mv],
        }
    }

    /// More time when the alternatives took work to refute or the score falls, less as the best
    /// move stays put.
    #[test]
    fn time_factor_follows_effort_stability_and_fall() {
        let factor = |effort: f64| Stability::default().time_factor(&iteration("e2e4", 0), effort);
        assert!(factor(0.4) > factor(0.65) && factor(0.65) > factor(0.9));

        let mut stability = Stability::default();
        let first = stability.time_factor(&iteration("e2e4", 0), 0.65);
        let stable = stability.time_factor(&iteration("e2e4", 0), 0.65);
        assert!(stable < first);
        let falling = stability.time_factor(&iteration("e2e4", -80), 0.65);
        let changed = stability.time_factor(&iteration("d2d4", -80), 0.65);
        assert!(falling > stable && changed > stable);
    }
}
