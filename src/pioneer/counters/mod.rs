//! Layer 4, counters: the opponent's answers to an attack in time, and the attacker's support.
//!
//! `counter` holds what a counter-trajectory is and how it is timed (`Counter`, `CounterKind`,
//! `budget`); `tempo` finds the threats on a counter's way that gain it a tempo; `immobility`
//! the counters that free a pinned or charged target so that it can run; `defence` gathers every
//! counter against an attack, on the board after the attacker's reconnaissance pseudo-move; and
//! `support` the attacker's trajectories that clear its way and answer the counters. Within the
//! layer the arrows run `defence` → `immobility`, `tempo`, `counter`; `counter` → `tempo`;
//! `support` → `counter`.

pub mod counter;
pub mod defence;
pub mod immobility;
pub mod support;
pub mod tempo;
