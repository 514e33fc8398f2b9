//! Layer 6, play: what the zones let each side play, and what a position is worth to the model.
//!
//! `moves` turns an analysis into the zone moves of the side to move (the first steps of its
//! live trajectories, each with what it serves) and, in check, the answers to the check;
//! `admission` says which moves each side may play in a zone search or a proof; `model_value`
//! values a leaf of the zone search by the zones alone. The searches above start from here.

pub mod admission;
pub mod model_value;
pub mod moves;
