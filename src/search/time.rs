//! Time management: how long to think on this move.
//!
//! Two limits come out of the clock: a soft one, checked between iterations of the iterative
//! deepening (do not start an iteration that will not finish), and a hard one, checked inside
//! the search (stop at once). The soft limit stretches when the best move keeps changing, the
//! score drops or the alternatives take real work to refute, and shrinks when the best move has
//! been stable; the hard limit never exceeds a fixed share of the remaining clock minus the
//! `Move Overhead` reserved for communication lag.

use super::params::{
    TIME_HARD_PER_SOFT, TIME_HARD_SHARE, TIME_HARD_SHARE_LAST_MOVE, TIME_ITERATION_START_SHARE,
    TIME_SUDDEN_DEATH_MOVES,
};
use std::time::{Duration, Instant};

/// The clock part of a UCI `go` command, in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Time left on our clock.
    pub time: u64,
    /// Our increment per move.
    pub increment: u64,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// Search time budget.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// No time limit (depth, nodes or infinite searches).
    pub fn unlimited(start: Instant) -> Self {
        TimeManager {
            start,
            soft: None,
            hard: None,
        }
    }

    /// A fixed time per move (`go movetime`): the whole time less a reserve is used, with no
    /// early stop between iterations, as UCI asks ("search exactly x ms"). The reserve is the
    /// overhead but at most a tenth of the move time: a GUI that sets the time per move gives
    /// the engine that time (Stockfish reserves nothing), and 50 ms out of 200 ms would throw a
    /// quarter of a short search away.
    pub fn fixed(start: Instant, movetime: u64, overhead: u64) -> Self {
        let reserve = overhead.min(movetime / 10);
        let t = Duration::from_millis(movetime.saturating_sub(reserve).max(1));
        TimeManager {
            start,
            soft: None,
            hard: Some(t),
        }
    }

    /// Budget from the clock.
    ///
    /// `overhead` (the `Move Overhead` option) is kept in reserve once, against a single lag
    /// spike, and a tenth of it (at least 1 ms) is counted as the lag of every move still to
    /// be played before the next time control: the GUI's clock also runs while the move
    /// travels, which the engine cannot see. With a small clock and a small increment that
    /// per-move lag dominates and the engine plays at its fastest, as it must to survive.
    pub fn from_clock(start: Instant, clock: Clock, overhead: u64) -> Self {
        let lag = (overhead / 10).max(1) as f64;
        let time = clock.time as f64;
        let increment = clock.increment as f64;
        let moves = clock
            .moves_to_go
            .map_or(TIME_SUDDEN_DEATH_MOVES, |m| (m.clamp(1, 50)) as f64);
        // What can be spent over the next `moves` moves, future increments included.
        let pool =
            (time + increment * (moves - 1.0) - overhead as f64 - lag * (moves + 1.0)).max(1.0);
        // Never more than a share of what is on the clock now.
        let now = (time - overhead as f64 - lag).max(1.0);
        let hard_cap = if clock.moves_to_go == Some(1) {
            now * TIME_HARD_SHARE_LAST_MOVE
        } else {
            now * TIME_HARD_SHARE
        };
        let soft = (pool / moves).min(hard_cap).max(0.1);
        let hard = (soft * TIME_HARD_PER_SOFT).min(hard_cap).max(0.1);
        TimeManager {
            start,
            soft: Some(Duration::from_micros((soft * 1000.0) as u64)),
            hard: Some(Duration::from_micros((hard * 1000.0) as u64)),
        }
    }

    /// Restarts the clock (on `ponderhit`, when our time starts running).
    pub fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Must the search stop now?
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Should a new iteration be started? `factor` scales the soft limit (1.0 normal; more
    /// when the best move is unstable or the score falls).
    pub fn may_start_iteration(&self, factor: f64) -> bool {
        match self.soft {
            Some(soft) => {
                self.elapsed().as_secs_f64()
                    < soft.as_secs_f64() * factor * TIME_ITERATION_START_SHARE
            }
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_stays_within_the_clock() {
        let now = Instant::now();
        for (time, inc, mtg) in [
            (10_000, 100, None),
            (1_000, 10, None),
            (50, 0, None),
            (60_000, 0, Some(1)),
            (5, 0, Some(40)),
        ] {
            let tm = TimeManager::from_clock(
                now,
                Clock {
                    time,
                    increment: inc,
                    moves_to_go: mtg,
                },
                30,
            );
            let hard = tm.hard.unwrap().as_millis() as u64;
            let soft = tm.soft.unwrap().as_millis() as u64;
            assert!(soft <= hard, "{time} {inc}");
            assert!(hard < time.max(2), "hard {hard} for {time} ms");
        }
    }

    /// Plays out long games in which every move uses the whole hard limit plus `latency` ms the
    /// engine does not see; the clock must never fall below zero.
    fn worst_case_min_clock(base: u64, inc: u64, control_moves: Option<u32>, latency: f64) -> f64 {
        let overhead = 50;
        let mut clock = base as f64;
        let mut min_clock = clock;
        for played in 0..200u32 {
            let moves_to_go = control_moves.map(|m| m - played % m);
            let tm = TimeManager::from_clock(
                Instant::now(),
                Clock {
                    time: clock.max(0.0) as u64,
                    increment: inc,
                    moves_to_go,
                },
                overhead,
            );
            clock -= tm.hard.unwrap().as_secs_f64() * 1000.0 + latency;
            min_clock = min_clock.min(clock);
            clock += inc as f64;
            if moves_to_go == Some(1) {
                clock += base as f64;
            }
        }
        min_clock
    }

    #[test]
    fn long_games_at_every_hard_limit_do_not_flag() {
        // 1+0.01, 0.1+0.001 (latency just under the increment), 40 moves in 1 s, 10+0.1.
        for (base, inc, mtg, latency, floor) in [
            (1_000, 10, None, 2.0, 40.0),
            (100, 1, None, 0.8, 0.0),
            (1_000, 0, Some(40), 1.0, 40.0),
            (10_000, 100, None, 5.0, 40.0),
            (60_000, 0, Some(1), 5.0, 40.0),
        ] {
            let min = worst_case_min_clock(base, inc, mtg, latency);
            assert!(
                min >= floor,
                "{base}+{inc} mtg {mtg:?}: min clock {min:.1} ms"
            );
        }
    }

    #[test]
    fn fixed_time_respects_overhead() {
        let tm = TimeManager::fixed(Instant::now(), 1000, 30);
        assert_eq!(tm.hard.unwrap(), Duration::from_millis(970));
        // Short move times keep nine tenths.
        let tm = TimeManager::fixed(Instant::now(), 200, 50);
        assert_eq!(tm.hard.unwrap(), Duration::from_millis(180));
    }
}
