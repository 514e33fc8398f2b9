//! The default book, embedded in the binary.
//!
//! Design note: `default.tbk` is built from master games by the command given in
//! docs/opening-book.md and committed; it is parsed and checked once, on first use.

use super::{Book, BookError};
use std::sync::OnceLock;

/// The bytes of the default book.
pub const DEFAULT_BOOK: &[u8] = include_bytes!("default.tbk");

/// The built-in book (parsed and checked on first use).
pub fn builtin() -> Result<&'static Book, BookError> {
    static BOOK: OnceLock<Result<Book, BookError>> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(DEFAULT_BOOK, "built-in"))
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_book_loads_and_is_large_enough() {
        let book = builtin().unwrap();
        assert!(book.variations() >= 850, "{} variations", book.variations());
        assert_eq!(book.plies(), 12);
        let roots: Vec<String> = book.replies(0).map(|n| book.mv(n).to_string()).collect();
        let mut sorted = roots.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            ["c2c4", "d2d4", "e2e4", "g1f3", "g2g3"],
            "{roots:?}"
        );
    }
}
