//! Book learning under real crashes: the engine learns game after game into a `BookFile` and is
//! killed (SIGKILL) at staggered moments, many times over the same file. Whenever it dies — in
//! a search, while learning, or in the middle of writing the book — the file left behind is
//! either absent (killed before the first write) or a whole book that loads and passes every
//! check, and it never loses what an earlier run had written.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;
use tropa::book::Book;

/// Games that leave the built-in book after 1.e4 c5 2.Nf3 and differ from each other, so every
/// game teaches the book something and the file is rewritten after each.
fn games() -> Vec<String> {
    let queenside = ["a7a6", "a7a5", "b7b6", "b7b5", "b8a6"];
    let kingside = [
        "h7h6", "h7h5", "g7g6", "g7g5", "f7f6", "f7f5", "g8h6", "g8f6",
    ];
    let mut out = Vec::new();
    for q in queenside {
        for k in kingside {
            out.push(format!("e2e4 c7c5 g1f3 {q} d2d4 {k}"));
        }
    }
    out
}

#[test]
fn killing_the_engine_while_it_learns_never_breaks_the_book() {
    let dir = std::env::temp_dir().join(format!("tropa-book-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("learned.tbk");
    let games = games();
    let mut last_len = 0;
    let mut written_rounds = 0;
    for round in 0..12u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tropa"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let mut script = format!(
            "setoption name BookFile value {}\nsetoption name BookLearning value true\n",
            path.display()
        );
        // Each round starts at another game, so later rounds still have new lines to add.
        for i in 0..games.len() {
            let line = &games[(i + round as usize * 3) % games.len()];
            script.push_str(&format!(
                "position startpos moves {line}\ngo depth 1\nucinewgame\n"
            ));
        }
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(script.as_bytes()).unwrap();
        // Staggered kill times: early (before or during the first write) to late.
        std::thread::sleep(Duration::from_millis(15 + round * round * 9));
        child.kill().unwrap();
        child.wait().unwrap();
        drop(stdin);
        if !path.exists() {
            assert_eq!(last_len, 0, "round {round}: the book file disappeared");
            continue;
        }
        let book = Book::load(&path)
            .unwrap_or_else(|e| panic!("round {round}: the kill left a broken book: {e}"));
        book.check().unwrap();
        assert!(
            book.len() >= last_len,
            "round {round}: the book shrank from {last_len} to {} nodes",
            book.len()
        );
        if book.len() > last_len {
            written_rounds += 1;
        }
        last_len = book.len();
    }
    assert!(
        written_rounds >= 3,
        "the engine was killed too early to have learned anything ({written_rounds} rounds wrote)"
    );
    // The leftovers of writes cut short are temporary files beside the book, never the book.
    let leftovers = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name() != "learned.tbk")
        .count();
    println!(
        "{written_rounds} of 12 killed runs had written; {leftovers} were killed in mid-write \
         (temporary file left); the book has {last_len} nodes and loads"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
