//! Layer 5, zones: an attack with its timely counters and supports, and how zones interact.
//!
//! `zone` forms and judges one zone of play (`Zone`, `ZoneVerdict`); `critical` finds where a
//! failing zone can be saved and the linked zones that take that square; `analysis` gathers it
//! all for a position (`Analysis`: every attack, the zones in the order of examination, the
//! composite zones, the linked zones, the outcome of a winning zone with the one-tempo shift);
//! `goal_change` names the zones that take a hindering piece itself, and `fork` the trajectories
//! of one piece that serve two zones with a common beginning, and `combination` the moves that
//! take a hindering piece's function away at any material price, or hunt the king with checks
//! (`combination_text` says them in words) — all three read an `Analysis`. `hindrance` says how a piece hinders a plan, for `critical`, `goal_change` and
//! `combination` alike.

pub mod analysis;
pub mod combination;
pub mod combination_text;
pub mod critical;
pub mod fork;
pub mod goal_change;
pub mod hindrance;
pub mod zone;
