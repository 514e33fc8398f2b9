//! Counter-trajectories: the opponent's pieces that can hinder an attack, with explicit timing.
//!
//! PIONEER: "The opponent's pieces can defend the object of the attack, take squares of the
//! trajectory under control, block its lines. The object of the attack can try to go away. …
//! It is pointless, for example, to take a square of the trajectory under control after the
//! piece moving along it has passed it. Before moving any piece, time is accounted for and only
//! timely measures are selected."
//!
//! Design note: this file holds what a counter *is* and how it is timed; the counters against an
//! attack are found in `defence` (and those that free a pinned or charged target in
//! `immobility`), which build on it. The attacker reaches stop i of its route at its own move
//! `arrival[i]`. Before that move the opponent has `arrival[i] − 1` moves if the attacker is to
//! move, `arrival[i]` if the opponent is — the *budget* of stop i (`budget`). A
//! counter-trajectory is in time when its forecast duration fits that budget. Counters that miss
//! by at most `NEAR_MISS` moves are kept, marked late, because a plan is explained by them ("the
//! king needs 4 moves and has 2"). A late counter whose way can begin with a threat the attacker
//! must answer gains that tempo and comes in time with one move more than its budget
//! (`Counter::threat`, `tempo`, PIONEER's diagram 54).

use super::tempo::Threat;
use crate::pioneer::board::route::Route;
use crate::rules::{Piece, Square};

/// Counters that miss their budget by at most this many moves are kept (marked late).
pub const NEAR_MISS: u8 = 2;

/// What a counter-trajectory does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterKind {
    /// Comes to defend the target, so that taking it no longer gains.
    DefendTarget,
    /// Takes a stop of the attack under control before the attacker passes it.
    ControlStop {
        /// Index of the stop on the attack's route.
        step: u8,
        /// The stop.
        square: Square,
    },
    /// Occupies a stop (of a pawn's path) or a square of a line of the attack (blockade).
    Block {
        /// Index of the stop whose move it blocks.
        step: u8,
        /// The square occupied.
        square: Square,
    },
    /// Against a mate: the king steps to `square`, or a piece beside it steps off `square`, so
    /// that the king has a flight and the mating square no longer mates.
    Flight {
        /// The flight square.
        square: Square,
    },
    /// Against a mate that needs a preparation (`attack::Preparation`): takes the square the
    /// preparing piece goes to under control before it gets there.
    DenyPreparation {
        /// The preparing move's square.
        square: Square,
    },
    /// Lifts the pin (by the piece on `pinner`) that holds the target, one move before the
    /// capture, so that the target can run (`immobility`).
    Unpin {
        /// Where the pinning piece stands.
        pinner: Square,
    },
    /// Takes the attacking piece where it stands before it sets out, without losing material in
    /// the exchange there (the defender to move).
    TakeAttacker,
    /// Relieves the target of its duty to defend the piece on `charge` (another piece takes
    /// over the defence, or the charge steps to safety), one move before the capture, so that
    /// the target can run (`immobility`).
    Relieve {
        /// The piece the target had to defend, or the square it had to guard.
        charge: Square,
        /// Whether the charge is a square guarded against a mate (`rejection::duty::Duty::mate`).
        guard: bool,
    },
}

/// One counter-trajectory.
#[derive(Clone, Debug)]
pub struct Counter {
    /// What it does.
    pub kind: CounterKind,
    /// The counter piece.
    pub piece: Piece,
    /// Its route to the square it needs (empty when it is already there).
    pub route: Route,
    /// Moves the opponent has before the attacker passes.
    pub budget: u8,
    /// The threat its first move makes, which gains it a tempo (`tempo`).
    pub threat: Option<Threat>,
}

impl Counter {
    /// Moves the counter needs.
    pub fn needs(&self) -> u8 {
        self.route.forecast()
    }

    /// Moves it gains by a threat on its way (0 or 1).
    pub fn tempo(&self) -> u8 {
        u8::from(self.threat.is_some())
    }

    /// Does it arrive in time?
    pub fn in_time(&self) -> bool {
        self.slack() >= 0
    }

    /// Where the counter piece stands.
    pub fn square(&self) -> Square {
        self.route.start()
    }

    /// Moves it has to spare, the tempo a threat gains included (negative: late by that many).
    pub fn slack(&self) -> i32 {
        i32::from(self.budget) + i32::from(self.tempo()) - i32::from(self.needs())
    }
}

/// Moves the opponent has before the attacker's move number `arrival`.
pub fn budget(arrival: u8, attacker_to_move: bool) -> u8 {
    (arrival + u8::from(!attacker_to_move)).saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_follow_the_tempo() {
        // The attacker to move reaches its stop at move 3: the defender moves twice before.
        assert_eq!(budget(3, true), 2);
        assert_eq!(budget(3, false), 3);
        assert_eq!(budget(1, true), 0);
    }
}
