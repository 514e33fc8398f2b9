//! The fuzz checks for the opening book's readers (called through this crate's `book_file` and `pgn`): the book
//! file, a Polyglot book and PGN import, which all face files users bring.
//!
//! Design note: a book file ends with a checksum, so random bytes almost never get past it and
//! the tree checks behind it would go unexercised. Every input is therefore read twice: as it
//! comes, and made well-formed on the outside (signature, version, node count and checksum
//! filled in), which leaves the arrays arbitrary. Whatever loads must then satisfy every
//! invariant, write back to the same bytes, probe legally and survive a Polyglot round trip.

use tropa::book::build::unrated_tree;
use tropa::book::format::{BYTES_PER_NODE, HEADER, MAGIC, VERSION};
use tropa::book::pgn::{read_pgn, Opening};
use tropa::book::polyglot::{export, import, read_entries, write_entries};
use tropa::book::probe::{choose, Rng};
use tropa::book::Book;
use tropa::rules::Game;
use tropa::util::append_checksum;

const BOOK_NAME: &str = "fuzz.tbk";
/// Node limit for Polyglot imports while fuzzing (a real import allows millions).
const IMPORT_NODES: usize = 2_000;

/// The book file readers: Tropa's own format (`Book::from_bytes`) and Polyglot
/// (`polyglot::read_entries` and `import`), each input read as it comes and made well-formed
/// (see the module note).
pub fn book_file(data: &[u8]) {
    tropa_book(data);
    tropa_book(&well_formed(data));
    polyglot_book(data);
}

/// `data` as the body of a book file: signature, version, node count and checksum made right.
fn well_formed(data: &[u8]) -> Vec<u8> {
    let mut body = data.to_vec();
    if body.len() < HEADER {
        body.resize(HEADER, 0);
    }
    let n = (body.len() - HEADER) / BYTES_PER_NODE;
    body.truncate(HEADER + n * BYTES_PER_NODE);
    body[..8].copy_from_slice(&MAGIC);
    body[8..10].copy_from_slice(&VERSION.to_le_bytes());
    body[16..20].copy_from_slice(&(n as u32).to_le_bytes());
    append_checksum(&mut body);
    body
}

fn tropa_book(bytes: &[u8]) {
    let book = match Book::from_bytes(bytes, BOOK_NAME) {
        Ok(book) => book,
        Err(e) => {
            let text = e.to_string();
            assert!(text.contains(BOOK_NAME), "error without the file: {text}");
            assert!(text.len() < 400, "error too long: {text}");
            return;
        }
    };
    book.check()
        .unwrap_or_else(|e| panic!("a loaded book breaks an invariant: {e}"));
    assert_eq!(book.to_bytes(), bytes, "a loaded book writes other bytes");
    probe_lines(&book, 3);
    let _ = book.values();
    let _ = book.variation_counts();
    polyglot_round_trip(&book);
}

/// Plays book moves from the start for both sides, with `seeds` seeds: every move chosen must
/// be legal and the walk must end.
fn probe_lines(book: &Book, seeds: u64) {
    for seed in 1..=seeds {
        let mut rng = Rng::seeded(seed);
        let mut game = Game::new();
        while let Some(choice) = choose(book, &game, 40, &mut rng) {
            assert!(game.board().is_legal(choice.mv), "book move {}", choice.mv);
            assert!(choice.tied >= 1 && choice.tied <= choice.replies);
            game.play(choice.mv);
        }
    }
}

/// Export to Polyglot and back: the import is a valid book with the exported moves.
fn polyglot_round_trip(book: &Book) {
    let entries = export(book);
    let image = write_entries(&entries);
    let read = read_entries(&image, "fuzz.bin").expect("own Polyglot image reads back");
    assert_eq!(read.len(), entries.len());
    let (imported, _) = import(&read, book.plies().clamp(1, 40), IMPORT_NODES);
    imported
        .check()
        .unwrap_or_else(|e| panic!("an imported book breaks an invariant: {e}"));
}

fn polyglot_book(bytes: &[u8]) {
    let entries = match read_entries(bytes, "fuzz.bin") {
        Ok(entries) => entries,
        Err(e) => {
            assert!(e.contains("fuzz.bin"), "error without the file: {e}");
            return;
        }
    };
    assert_eq!(write_entries(&entries).len(), bytes.len());
    let (book, report) = import(&entries, 12, IMPORT_NODES);
    assert!(book.len() <= IMPORT_NODES);
    assert!(report.used + report.illegal <= report.entries);
    book.check()
        .unwrap_or_else(|e| panic!("an imported book breaks an invariant: {e}"));
    let again = Book::from_bytes(&book.to_bytes(), BOOK_NAME)
        .unwrap_or_else(|e| panic!("an imported book does not load back: {e}"));
    assert_eq!(again, book);
    probe_lines(&book, 2);
}

/// PGN import: reading the openings of games and laying them out as a book.
pub fn pgn(data: &[u8]) {
    let name = "fuzz.pgn";
    let plies = 12;
    let file = match read_pgn(data, name, plies) {
        Ok(file) => file,
        Err(e) => {
            assert!(e.starts_with(name), "error without the file: {e}");
            return;
        }
    };
    for r in &file.rejected {
        assert!(r.starts_with(name) && r.contains(" game "), "{r}");
    }
    let mut last = 0;
    for o in &file.openings {
        // Numbered in order, within the depth, and legal for Tropa's own rules as well.
        assert!(o.number > last && !o.moves.is_empty() && o.moves.len() <= plies);
        last = o.number;
        let mut game = Game::new();
        for &mv in &o.moves {
            assert!(game.board().is_legal(mv), "game {}: {mv}", o.number);
            game.play(mv);
        }
    }
    let openings: Vec<&Opening> = file.openings.iter().collect();
    // Every game kept (one game is enough), or only what two games share, by the input's length.
    let min_games = 1 + (data.len() % 2) as u32;
    let (mut book, boards, in_trees) = unrated_tree(&openings, plies, min_games);
    assert!(in_trees <= openings.len());
    assert_eq!(boards.len(), book.len());
    book.minimax();
    book.check()
        .unwrap_or_else(|e| panic!("a book built from PGN breaks an invariant: {e}"));
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes, BOOK_NAME).as_ref(), Ok(&book));
    probe_lines(&book, 1);
}
