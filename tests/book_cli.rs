//! The `tropa book` commands end to end: build from PGN, show, Polyglot out and back in, and
//! clear errors (non-zero exit, the file named) for bad input.

mod common;

use common::run as tropa;
use std::path::PathBuf;
use std::process::Output;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn temp_dir(test: &str) -> PathBuf {
    common::temp_dir("book-cli", test)
}

const GAMES: &str = r#"[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1-0

[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1/2-1/2

[Result "0-1"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 0-1

[Result "1-0"]

1. d4 d5 2. c4 c6 1-0

[White "C"]
[Black "D"]
[Result "*"]

1. e4 e5 2. Ke3 *
"#;

#[test]
fn build_show_and_polyglot_round_trip() {
    let dir = temp_dir("round-trip");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let book = dir.join("small.tbk");
    let out = tropa(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        "--min-games",
        "2",
        "--eval-depth",
        "2",
        "--threads",
        "2",
        "-o",
        book.to_str().unwrap(),
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("game 5 (C – D): move 2. 'Ke3'"), "{t}");
    assert!(t.contains("book built: 7 moves, 2 variations"), "{t}");

    let out = tropa(&[
        "book",
        "show",
        "--book",
        book.to_str().unwrap(),
        "--moves",
        "e2e4",
    ]);
    let t = text(&out);
    assert!(
        out.status.success() && t.contains("after 1. e4") && t.contains("e5"),
        "{t}"
    );

    let bin = dir.join("small.bin");
    let again = dir.join("again.tbk");
    let bin2 = dir.join("again.bin");
    for args in [
        vec![
            "book",
            "export-polyglot",
            book.to_str().unwrap(),
            "-o",
            bin.to_str().unwrap(),
        ],
        vec![
            "book",
            "import-polyglot",
            bin.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
        ],
        vec![
            "book",
            "export-polyglot",
            again.to_str().unwrap(),
            "-o",
            bin2.to_str().unwrap(),
        ],
    ] {
        let out = tropa(&args);
        assert!(out.status.success(), "{}", text(&out));
    }
    assert_eq!(std::fs::read(&bin).unwrap(), std::fs::read(&bin2).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_fails_with_the_file_named() {
    let dir = temp_dir("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.tbk");
    let bytes = tropa(&[
        "book",
        "export-polyglot",
        "-o",
        dir.join("d.bin").to_str().unwrap(),
    ]);
    assert!(bytes.status.success());
    std::fs::write(&broken, b"TropaBk\0 this is not a book").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "book".into(),
                "show".into(),
                "--book".into(),
                broken.display().to_string(),
            ],
            "broken.tbk",
        ),
        (
            vec![
                "book".into(),
                "build".into(),
                "--pgn".into(),
                dir.join("missing.pgn").display().to_string(),
                "-o".into(),
                dir.join("x.tbk").display().to_string(),
            ],
            "missing.pgn",
        ),
        (
            vec![
                "book".into(),
                "import-polyglot".into(),
                broken.display().to_string(),
                "-o".into(),
                dir.join("y.tbk").display().to_string(),
            ],
            "broken.tbk",
        ),
    ];
    for (args, name) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = tropa(&args);
        let t = text(&out);
        assert!(!out.status.success(), "{args:?}: {t}");
        assert!(t.contains(name) && !t.contains("panicked"), "{args:?}: {t}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
