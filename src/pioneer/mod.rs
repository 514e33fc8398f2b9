//! PIONEER: M. M. Botvinnik's trajectories and zones of play (docs/sources.md#pioneer), used three
//! ways — to explain a position's plans, to solve studies by a search restricted to zone moves,
//! and to guide the main search.
//!
//! Design note: the module is layered like Botvinnik's multi-level control system, one folder a
//! level, and reads bottom-up as PIONEER's argument. A file uses files of its own layer or of
//! lower ones only, and no two files use each other, even through others (`tests/layering.rs`
//! checks both on the code outside the tests):
//! 1. `board` — the shortest trajectories of every piece on the empty board (`trajectory`), who
//!    controls a square by the three rules (`control`), the pieces held by a pin (`pins`), a
//!    trajectory laid on the real board with its obstacles and forecast duration (`route`), the
//!    pieces' letters, names and attack squares (`pieces`), and whether a piece arriving on a
//!    square mates there (`arrival`);
//! 2. `rejection` — the four reasons for giving a trajectory up (`reject`): the capturing
//!    piece's safety (`safety`), the target's escape in time (`escape`), and the duty that
//!    chains a piece to its place (`duty`);
//! 3. `attacks` — the attack trajectories of a root piece against material, a promotion square
//!    (`attack`) or the king (`mate`), each judged for the reasons of rejection;
//! 4. `counters` — the opponent's counter-trajectories in time (`counter`, gathered in
//!    `defence`), a tempo gained by a threat on the way (`tempo`), the freeing of a pinned or
//!    charged target (`immobility`), and the attacker's support trajectories (`support`);
//! 5. `zones` — a zone joins an attack with the counters and supports (`zone`); the analysis of a
//!    position gathers the zones of both sides, merges those sharing a piece and weighs
//!    independent ones with a one-tempo shift (`analysis`); past the static zone, where a failing
//!    zone can be saved and the linked zones that take it (`critical`), the zones that take the
//!    hindering piece itself (`goal_change`), the moves that take its function away at any
//!    material price (`combination`) — all three naming how the piece hinders by one type
//!    (`hindrance`) — and the trajectories of one piece that serve two zones with a common
//!    beginning (`fork`);
//! 6. `play` — the moves a side may play (`moves`: zone moves, the answers to a check), which
//!    moves each side is admitted to in a zone search or a proof (`admission`), and a leaf's
//!    value by the model (`model_value`);
//! 7. `uses` — the plans in words (`plan`) and pictures (`svg`), the zone search over studies
//!    (`study`) and its proof (`proof`), and the main search's guide (`guide`).
//!
//! Nothing here knows any particular position: PIONEER's examples live in the tests only
//! (`examples`).

pub mod attacks;
pub mod board;
pub mod counters;
pub mod play;
pub mod rejection;
pub mod uses;
pub mod zones;

#[cfg(test)]
pub(crate) mod examples;
