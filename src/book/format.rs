//! The book file: the arrays of `tree` written one after the other, behind a versioned header
//! and ahead of a checksum.
//!
//! Design note: the file is the in-memory arrays byte for byte (little-endian), so loading is a
//! copy and Yudin's arrays are the format. Layout, version 1:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TropaBk\0` |
//! | 8 | 2 | format version (1) |
//! | 10 | 2 | depth in plies the book was built to |
//! | 12 | 4 | flags (bit 0: counts are Polyglot weights; other bits 0) |
//! | 16 | 4 | N, number of nodes including the start position |
//! | 20 | 4 | reserved, 0 |
//! | 24 | 2N | LIB, rated moves ±r·m·n (i16) |
//! | … | 4N | SON, index of the first reply (u32, 0 = none) |
//! | … | 4N | BRAT, index of the next sibling (u32, 0 = none) |
//! | … | 2N | EVAL, search score of a leaf, centipawns, White's view (i16) |
//! | … | 4N | GAMES, games with a known result through the move (u32) |
//! | … | 4N | POINTS, White's half-points in them (u32) |
//! | 24 + 20N | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Reading checks the size, magic, version, flags, reserved field and checksum, then every tree invariant
//! (`Book::check`: links, codes, legality of every move, minimaxed ratings), so a book that loads
//! can be probed without further checks. Every failure is an error that names the file.

use super::tree::{Book, KNOWN_FLAGS};
use crate::util::{append_checksum, checked_body, CHECKSUM_BYTES};
use std::fmt;
use std::path::Path;

/// The file signature.
pub const MAGIC: [u8; 8] = *b"TropaBk\0";
/// The format version this Tropa reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of the header: signature, version, flags, node count, reserved.
pub const HEADER: usize = 24;
/// Bytes of one node: its move code, son, brother and the evidence fields.
pub const BYTES_PER_NODE: usize = 20;

/// Why a book could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookError {
    /// The file, or `built-in`.
    pub source: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book {}: {}", self.source, self.reason)
    }
}

impl std::error::Error for BookError {}

impl Book {
    /// The file image of the book.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.len();
        let mut out = Vec::with_capacity(HEADER + BYTES_PER_NODE * n + CHECKSUM_BYTES);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&self.flags.to_le_bytes());
        out.extend_from_slice(&(n as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        self.lib.iter().for_each(|v| out.extend(v.to_le_bytes()));
        self.son.iter().for_each(|v| out.extend(v.to_le_bytes()));
        self.brat.iter().for_each(|v| out.extend(v.to_le_bytes()));
        self.eval.iter().for_each(|v| out.extend(v.to_le_bytes()));
        self.games.iter().for_each(|v| out.extend(v.to_le_bytes()));
        self.points.iter().for_each(|v| out.extend(v.to_le_bytes()));
        append_checksum(&mut out);
        out
    }

    /// Reads and checks a file image; `source` names it in errors.
    pub fn from_bytes(bytes: &[u8], source: &str) -> Result<Book, BookError> {
        let fail = |reason: String| BookError {
            source: source.to_string(),
            reason,
        };
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(fail("not a Tropa book (bad signature)".into()));
        }
        if bytes.len() < HEADER + CHECKSUM_BYTES {
            return Err(fail(format!("truncated ({} bytes)", bytes.len())));
        }
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let version = u16_at(8);
        if version != VERSION {
            return Err(fail(format!(
                "format version {version} is not supported (this Tropa reads version {VERSION})"
            )));
        }
        let flags = u32_at(12);
        if flags & !KNOWN_FLAGS != 0 || u32_at(20) != 0 {
            return Err(fail(format!(
                "unknown header flags {flags:#x} or reserved field {:#x} (version {VERSION} \
                 defines flag 1 and a reserved 0): written by another program?",
                u32_at(20)
            )));
        }
        let n = u32_at(16) as usize;
        let expected = n
            .checked_mul(BYTES_PER_NODE)
            .and_then(|b| b.checked_add(HEADER + CHECKSUM_BYTES));
        if expected != Some(bytes.len()) {
            return Err(fail(format!(
                "truncated or damaged: {} bytes, the header announces {} nodes ({} bytes)",
                bytes.len(),
                n,
                expected.map_or("too many".into(), |e| e.to_string())
            )));
        }
        if checked_body(bytes).is_none() {
            return Err(fail("checksum mismatch: the file is damaged".into()));
        }
        let mut at = HEADER;
        let mut take = |width: usize| {
            let slice = &bytes[at..at + width * n];
            at += width * n;
            slice
        };
        let lib = take(2)
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let son = take(4).chunks_exact(4).map(le_u32).collect();
        let brat = take(4).chunks_exact(4).map(le_u32).collect();
        let eval = take(2)
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let games = take(4).chunks_exact(4).map(le_u32).collect();
        let points = take(4).chunks_exact(4).map(le_u32).collect();
        let book = Book {
            lib,
            son,
            brat,
            eval,
            games,
            points,
            plies: u16_at(10),
            flags,
        };
        book.check()
            .map_err(|e| fail(format!("invalid tree: {e}")))?;
        Ok(book)
    }

    /// Reads a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError {
            source: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Book::from_bytes(&bytes, &path.display().to_string())
    }

    /// Writes a book file atomically: a crash leaves the old file or the new one, never a mix.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        crate::util::write_atomically(path, &self.to_bytes()).map_err(|e| BookError {
            source: path.display().to_string(),
            reason: format!("cannot write: {e}"),
        })
    }
}

fn le_u32(c: &[u8]) -> u32 {
    u32::from_le_bytes([c[0], c[1], c[2], c[3]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tree::tests::add_line;

    fn sample() -> Book {
        let mut book = Book::new(12);
        let a = add_line(&mut book, "e2e4 e7e5 g1f3 b8c6");
        add_line(&mut book, "e2e4 c7c5");
        add_line(&mut book, "d2d4 g8f6 c2c4 e7e6");
        book.set_eval(a, 45);
        book.add_games(a, 3, 4);
        book.minimax();
        book
    }

    #[test]
    fn round_trips_and_names_the_problem() {
        let book = sample();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), 24 + 20 * book.len() + 8);
        assert_eq!(Book::from_bytes(&bytes, "t").unwrap(), book);
        let err = |b: &[u8]| Book::from_bytes(b, "x.tbk").unwrap_err().to_string();
        assert!(err(&bytes[..bytes.len() - 1]).contains("truncated"));
        assert!(err(&bytes[..30]).contains("truncated"));
        assert!(err(&bytes[..5]).contains("not a Tropa book"));
        assert!(err(b"").contains("x.tbk"));
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert!(err(&flipped).contains("checksum"));
        let mut version = bytes.clone();
        version[8] = 2;
        assert!(err(&version).contains("version 2"));
        // A well-formed file whose tree is broken (a link back to the root) is refused too.
        let mut broken = book.clone();
        broken.son[2] = 1;
        assert!(err(&broken.to_bytes()).contains("invalid tree"));
        // Unknown flags or a non-zero reserved field are refused: the bytes would not survive a
        // rewrite (found by fuzzing: fuzz/corpus/book/regression-reserved-field).
        for (at, value) in [(20, 30u32), (12, 2), (12, 1 << 31)] {
            let mut header = bytes.clone();
            header[at..at + 4].copy_from_slice(&value.to_le_bytes());
            header.truncate(header.len() - CHECKSUM_BYTES);
            append_checksum(&mut header);
            assert!(err(&header).contains("reserved"), "{at} {value}");
        }
        // A huge node count does not overflow or allocate.
        let mut huge = bytes.clone();
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(err(&huge).contains("truncated"));
    }
}
