//! PIONEER: M. M. Botvinnik's trajectories and zones of play (docs/sources.md#pioneer), used three
//! ways — to explain a position's plans (`plan`, `svg`), to solve studies by a search restricted to
//! zone moves (`study`), and to guide the main search (`guide`).
//!
//! Design note: the module is layered like Botvinnik's multi-level control system.
//! At the bottom, `trajectory` holds the shortest trajectories of every piece on the empty board as
//! bundles; `route` lays one on the real board (obstacles, forecast duration); `control` decides
//! who controls a square by PIONEER's three rules, on top of the exchange model of `rules::see`;
//! `safety` asks whether a capturing piece gets away afterwards. `attack` builds the attack
//! trajectories of a root piece against a target (or a pawn to its promotion square), `escape`
//! finds where the target can run in time, and `reject` records why one is given up. A zone
//! (`zone`) joins an attack with the opponent's counter-trajectories that arrive in time
//! (`counter`) and the attacker's support trajectories (`support`); zones sharing a piece are
//! merged, independent ones weighed with a one-tempo shift, and all ordered for examination. Past
//! the static zone, `critical` finds where a failing zone can be saved (a square the hindering
//! piece must pass) and the linked zones that take it, `goal_change` the zones that take the
//! hindering piece itself, and `mate` the attacks on the king. `fork` finds the trajectories of one
//! piece that serve two independent zones with a common beginning. `moves` turns the zones into the
//! moves a side may play; the zone search, the explanations and the search guidance all start from
//! there, and `admission` says which moves each side may play in a zone search or a proof. Nothing
//! here knows any particular position: PIONEER's examples live in the tests only (`examples`).

pub mod admission;
pub mod attack;
pub mod control;
pub mod counter;
pub mod critical;
pub mod escape;
pub mod fork;
pub mod goal_change;
pub mod guide;
pub mod immobility;
pub mod mate;
pub mod model_value;
pub mod moves;
pub mod plan;
pub mod proof;
pub mod reject;
pub mod route;
pub mod safety;
pub mod study;
pub mod support;
pub mod svg;
pub mod tempo;
pub mod trajectory;
pub mod zone;

#[cfg(test)]
pub(crate) mod examples;
