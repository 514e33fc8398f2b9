//! Alpha-beta bounds: whether a score is exact or only a bound, shared by every alpha-beta
//! search in Tropa (the main search, its table and its reports, and PIONEER's zone search).
//!
//! Design note: a module of its own below both searches, so that neither has to reach into the
//! other for it.

/// Whether a score is exact or only a bound on the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a fail-high).
    Lower,
    /// The true score is at most this (a fail-low).
    Upper,
}

impl Bound {
    /// The bound a full-width alpha-beta search gives its `best` score, searched with the
    /// window (`alpha`, `beta`): a fail-high, a score inside the window, or a fail-low.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Does a stored `score` of this bound decide a search with the window (`alpha`, `beta`)
    /// without searching: an exact score, a lower bound at or above beta, an upper bound at or
    /// below alpha?
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}
