//! The fuzz corpora (`fuzz/corpus/<target>/` at the repository root, including every crash found, kept as a regression)
//! replayed through the same checks the cargo-fuzz targets run (`tropa_fuzz_checks`), plus a short
//! deterministic pass of byte mutations of each entry. The long runs are `cargo fuzz run`
//! (see fuzz/README.md); this keeps what they found fixed.

use std::path::Path;

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 5, "corpus {} is nearly empty", dir.display());
    files
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

/// xorshift64*: a fixed sequence, so the mutation pass is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

const ALPHABET: &[u8] = b"pnbrqkPNBRQK12345678/ -wbKQkqabcdefghHA0123456789\n\xff";
/// For PGN: move text, tags, comments, variations, results.
const PGN_ALPHABET: &[u8] = b"NBRQKO-x=+#abcdefgh12345678 .\n[]\"{}()$*/!?;%\xff";
/// For book files: bytes that make small and extreme numbers in the arrays.
const BINARY_ALPHABET: &[u8] = b"\x00\x00\x01\x02\x04\x05\x10\x40\x7f\x80\xfe\xff";

fn mutate_with(input: &[u8], rng: &mut Rng, alphabet: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.next() % 4 {
        let pos = if out.is_empty() {
            0
        } else {
            (rng.next() as usize) % out.len()
        };
        let byte = alphabet[(rng.next() as usize) % alphabet.len()];
        match rng.next() % 4 {
            0 if !out.is_empty() => out[pos] = byte,
            1 => out.insert(pos, byte),
            2 if !out.is_empty() => {
                out.remove(pos);
            }
            _ => {
                let end = (pos + 1 + (rng.next() as usize) % 8).min(out.len());
                let piece = out[pos.min(end)..end].to_vec();
                out.splice(pos..pos, piece);
            }
        }
    }
    out
}

fn replay(target: &str, check: fn(&[u8]), mutations: usize) {
    replay_with(target, check, mutations, ALPHABET)
}

fn replay_with(target: &str, check: fn(&[u8]), mutations: usize, alphabet: &[u8]) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (name, data) in corpus(target) {
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{target} corpus entry {name} fails");
        for _ in 0..mutations {
            let mutated = mutate_with(&data, &mut rng, alphabet);
            let result = std::panic::catch_unwind(|| check(&mutated));
            assert!(
                result.is_ok(),
                "{target}: mutation of {name} fails: {:?}",
                String::from_utf8_lossy(&mutated)
            );
        }
    }
}

#[test]
fn fen_corpus() {
    replay("fen", tropa_fuzz_checks::fen, 200);
}

#[test]
fn uci_corpus() {
    replay("uci", tropa_fuzz_checks::uci, 200);
}

#[test]
fn book_corpus() {
    replay_with("book", tropa_fuzz_checks::book_file, 200, BINARY_ALPHABET);
}

#[test]
fn pgn_corpus() {
    replay_with("pgn", tropa_fuzz_checks::pgn, 200, PGN_ALPHABET);
}

#[test]
fn selfplay_corpus() {
    replay_with(
        "selfplay",
        tropa_fuzz_checks::selfplay_file,
        200,
        BINARY_ALPHABET,
    );
}
