//! Yudin's opening library (docs/sources.md#opening-library): trees of variations rooted at White's
//! first moves, every move rated on the Informator scale and stored as ±r·m·n in the parallel
//! arrays LIB, SON and BRAT; built from games, probed in play, grown by learning from the engine's
//! own games.
//!
//! Design note, one concern per file: `code` is the move code, `rating` the Informator scale
//! and the blend of evaluation and results, `tree` the arrays and their invariants, `format` the
//! file, `probe` the use in play, `pgn` reading games' openings, `games` whole games (for the
//! tools that annotate, play or show them), `build` making a book from them, `learn`
//! correcting it after a game, `polyglot` the exchange with Polyglot books, `show` printing
//! a position's replies, `bench` timing probes. The default book, built from
//! master games by the command in docs/opening-book.md, is embedded in the binary.

pub mod bench;
pub mod build;
mod builtin;
pub mod code;
pub mod format;
pub mod games;
pub mod learn;
pub mod pgn;
pub mod polyglot;
pub mod polyglot_book;
pub mod probe;
pub mod rating;
pub mod show;
pub mod tree;

pub use builtin::{builtin, DEFAULT_BOOK};
pub use format::BookError;
pub use tree::Book;
