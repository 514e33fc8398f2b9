//! Time management: how long to think on this move.
//!
//! Two limits come out of the clock: a soft one, checked between iterations of the iterative
//! deepening (do not start an iteration that will not finish), and a hard one, checked inside
//! the search (stop at once). The soft limit stretches when the best move keeps changing or the
//! score drops, and shrinks when the best move has been stable; the hard limit never exceeds a
//! fixed share of the remaining clock minus the `Move Overhead` reserved for communication lag.

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

    /// A fixed time per move.
    pub fn fixed(start: Instant, movetime: u64, overhead: u64) -> Self {
        let t = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
        TimeManager {
            start,
            soft: Some(t),
            hard: Some(t),
        }
    }

    /// Budget from the clock.
    pub fn from_clock(start: Instant, clock: Clock, overhead: u64) -> Self {
        let left = clock.time.saturating_sub(overhead).max(1) as f64;
        let moves = clock.moves_to_go.map_or(30.0, |m| (m.clamp(1, 50)) as f64);
        // The increment is spent almost fully, but never more than what is left.
        let base = left / moves + clock.increment as f64 * 0.8;
        let hard_cap = if clock.moves_to_go == Some(1) {
            left * 0.85
        } else {
            left * 0.4
        };
        let soft = base.min(hard_cap).max(1.0);
        let hard = (soft * 4.0).min(hard_cap).max(1.0);
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
            // An iteration usually takes longer than all the previous ones together, so one that
            // would begin after half the budget is not started.
            Some(soft) => self.elapsed().as_secs_f64() < soft.as_secs_f64() * factor * 0.5,
            None => true,
        }
    }

    /// Has the (scaled) soft limit passed?
    pub fn soft_expired(&self, factor: f64) -> bool {
        self.soft
            .is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * factor)
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

    #[test]
    fn fixed_time_respects_overhead() {
        let tm = TimeManager::fixed(Instant::now(), 100, 30);
        assert_eq!(tm.hard.unwrap(), Duration::from_millis(70));
    }
}
