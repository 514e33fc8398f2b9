//! Tropa: a chess engine in the classical Soviet school of computer chess.
//!
//! `rules` wraps the board crate; `eval` scores positions; `search` is the alpha-beta engine;
//! `uci` speaks the protocol; `cli` holds the command-line tools.

pub mod book;
pub mod cli;
pub mod eval;
pub mod fuzz;
mod fuzz_book;
pub mod rules;
pub mod search;
pub mod uci;
pub mod util;
