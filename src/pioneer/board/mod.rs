//! Layer 1, the board: PIONEER's geometry and the facts every higher layer asks of a square.
//!
//! `trajectory` holds the shortest trajectories of every piece on the empty board as bundles;
//! `control` decides who controls a square of a trajectory by PIONEER's three rules, on the
//! exchange model of `rules::see`; `pins` finds the pieces held on a line by an enemy slider;
//! `route` lays a trajectory on the real board (its obstacles, a pinned piece among them, the
//! forecast of its duration, the best route to a set of squares); `pieces` names the pieces
//! and gives the squares from which each kind attacks a square; `arrival` imagines a piece
//! arriving on a square and says whether it mates there. Nothing here knows an attack or a zone:
//! the files use only each other and the rules.

pub mod arrival;
pub mod control;
pub mod pieces;
pub mod pins;
pub mod route;
pub mod trajectory;
