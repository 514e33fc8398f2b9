//! Tropa: a chess engine in the classical Soviet school of computer chess.
//!
//! `rules` wraps the board crate; `eval` scores positions; `search` is the alpha-beta engine;
//! `uci` speaks the protocol; `cli` holds the command-line tools; `pioneer` is Botvinnik's model of
//! trajectories and zones of play (plans, study mode, search guide); `fuzz` drives the parsers for
//! the fuzz targets; `book` is Yudin's opening library; `datagen` plays the self-play games the learned
//! evaluation is trained on; `tablebases` opens and probes the Syzygy endgame tables; `leaf_search` lends the search
//! to the book and to PIONEER's proofs; `serve` is
//! the local web page (`tropa serve`) on top of them.

// `///` on every public item is a rule of the project; the compiler keeps it.
#![warn(missing_docs)]

pub mod book;
pub mod bound;
pub mod cli;
pub mod datagen;
pub mod eval;
pub mod explain;
pub mod leaf_search;
pub mod pioneer;
pub mod search;
pub mod serve;
pub mod tablebases;
pub mod uci;
pub mod util;

/// The rules of chess, a crate of their own (`crates/rules`) that knows nothing of the engine;
/// re-exported so that every module names them `crate::rules`.
pub use tropa_rules as rules;
