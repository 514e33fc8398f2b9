//! Tropa's trainer for the learned evaluation: reads `tropa datagen` files, trains
//! the float net (768 → N)×2 → 1 on CPU threads with sparse input gradients and Adam, and
//! writes the quantised net in the engine's format (`tropa::eval::nnue::format`) with a
//! manifest beside it.
//!
//! Design note: the trainer depends on the engine (for the data format, the features and the
//! net format), never the other way round, so the engine and the trainer cannot disagree on
//! what a feature or a file is. `data` reads positions, `net` is the float net and its
//! quantisation, `train` the loop, `manifest` the record kept beside each net, `compare` the
//! loss of finished nets on the same held-back games, `refine` the output layer's rounding
//! fitted to data, `threads` the work split over threads.

// `///` on every public item is a rule of the project; the compiler keeps it.
#![warn(missing_docs)]

pub mod compare;
pub mod data;
pub mod manifest;
pub mod net;
pub mod refine;
pub mod threads;
pub mod train;

#[cfg(test)]
mod selfplay_fixture;
#[cfg(test)]
mod tests;
