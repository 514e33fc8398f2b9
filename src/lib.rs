//! Tropa: a chess engine in the classical Soviet school of computer chess.
//!
//! `rules` wraps the board crate; `eval` scores positions; `search` is the alpha-beta engine;
//! `uci` speaks the protocol; `cli` holds the command-line tools; `pioneer` is Botvinnik's model of
//! trajectories and zones of play (plans, study mode, search guide); `fuzz` drives the parsers for
//! the fuzz targets; `book` is Yudin's opening library.

pub mod book;
pub mod cli;
pub mod eval;
pub mod fuzz;
mod fuzz_book;
pub mod pioneer;
pub mod rules;
pub mod search;
pub mod uci;
pub mod util;
