//! `tropa annotate` on a real game (Smith–Philidor, London 1790, the first of
//! `tests/data/games/masters-1790-1858.pgn`) and on a
//! miniature with a known blunder: the output parses with python-chess, keeps the moves and
//! tags, carries an evaluation after every move, and marks the blunder with `$4`, the better move
//! as a variation and PIONEER's plan.

mod common;

use common::tropa;
use std::path::PathBuf;

/// Twelve master games of 1790–1858 (source in `tests/data/SOURCES.md`).
const MASTERS: &str = "tests/data/games/masters-1790-1858.pgn";

/// Checks with python-chess: same moves and players as `original`, an eval on every move but a
/// mating one; prints "ok MOVES NAGS" where NAGS lists the moves (ply:nag) with a NAG.
const CHECK: &str = r#"
import sys, chess.pgn
original = chess.pgn.read_game(open(sys.argv[1]))
annotated = chess.pgn.read_game(open(sys.argv[2]))
assert not annotated.errors, annotated.errors
assert annotated.headers["White"] == original.headers["White"]
assert annotated.headers["Annotator"].startswith("Tropa")
moves = [n.move for n in annotated.mainline()]
assert moves == [n.move for n in original.mainline()], "moves differ"
nags = []
for ply, node in enumerate(annotated.mainline(), 1):
    if not node.board().is_checkmate():
        assert node.eval() is not None, "no eval after ply %d" % ply
    nags += ["%d:%d" % (ply, n) for n in node.nags]
print("ok", len(moves), " ".join(nags))
"#;

fn python_check(original: &str, annotated: &str) -> String {
    let python = common::python_with_chess().unwrap_or_else(|e| panic!("{e}"));
    let out = python
        .command()
        .args(["-c", CHECK, original, annotated])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn temp_dir(test: &str) -> PathBuf {
    common::temp_dir("annotate", test)
}

#[test]
fn a_master_game_is_annotated_and_parses() {
    let masters = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(MASTERS);
    let text = std::fs::read_to_string(&masters).unwrap();
    let second = text[1..].find("[Event ").map_or(text.len(), |i| i + 1);
    let dir = temp_dir("master");
    let game = dir.join("game.pgn");
    std::fs::write(&game, &text[..second]).unwrap();
    let out = dir.join("annotated.pgn");
    let (ok, stdout, err) = tropa(&[
        "annotate",
        game.to_str().unwrap(),
        "--nodes",
        "3000",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(stdout.contains("1 game annotated into"), "{stdout}");
    assert!(!err.contains('\r'), "no progress frames off a terminal");
    let check = python_check(game.to_str().unwrap(), out.to_str().unwrap());
    assert!(check.starts_with("ok "), "{check}");
    let annotated = std::fs::read_to_string(&out).unwrap();
    assert!(annotated
        .lines()
        .all(|l| l.len() <= 79 || l.starts_with('{')));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_blunder_gets_its_mark_the_better_move_and_a_plan() {
    let dir = temp_dir("miniature");
    let game = dir.join("scholar.pgn");
    std::fs::write(
        &game,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let out = dir.join("annotated.pgn");
    let (ok, _, err) = tropa(&[
        "annotate",
        game.to_str().unwrap(),
        "--depth",
        "6",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let check = python_check(game.to_str().unwrap(), out.to_str().unwrap());
    assert!(
        check.trim_end().ends_with("6:4"),
        "3...Nf6 is the blunder: {check}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("3... Nf6 $4"), "{text}");
    assert!(text.contains("[%eval #1] Blunder."), "{text}");
    assert!(text.contains("PIONEER: Black:"), "{text}");
    assert!(
        text.contains("( 3... "),
        "the better move as a variation: {text}"
    );
    // Many games per file, side by side on two threads, come out in the file's order, each
    // with the verdicts it gets alone (the two games have the same moves).
    let two = dir.join("two.pgn");
    let both = format!(
        "{}\n{}",
        std::fs::read_to_string(&game).unwrap(),
        std::fs::read_to_string(&game)
            .unwrap()
            .replace("\"A\"", "\"C\"")
    );
    std::fs::write(&two, both).unwrap();
    let out_two = dir.join("two-annotated.pgn");
    let (ok, stdout, err) = tropa(&[
        "annotate",
        two.to_str().unwrap(),
        "--depth",
        "6",
        "--threads",
        "2",
        "--hce",
        "-o",
        out_two.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let verdicts = |game: &str| {
        let line = stdout.lines().find(|l| l.starts_with(game)).unwrap_or("");
        line.split_once("): ").map(|(_, counts)| counts.to_string())
    };
    let first_counts = verdicts("game 1 (A – B)").expect("game 1 is summed up");
    assert!(
        first_counts.ends_with("Black 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{stdout}"
    );
    assert_eq!(verdicts("game 2 (C – B)"), Some(first_counts), "{stdout}");
    assert!(stdout.contains("2 games annotated"), "{stdout}");
    let annotated = std::fs::read_to_string(&out_two).unwrap();
    let first = annotated.find("[White \"A\"]").unwrap();
    assert!(annotated.find("[White \"C\"]").unwrap() > first);
    assert_eq!(annotated.matches("3... Nf6 $4").count(), 2, "{annotated}");
    // Without -o the games go to standard output; a missing folder is refused first.
    let (ok, stdout, _) = tropa(&["annotate", game.to_str().unwrap(), "--depth", "2"]);
    assert!(ok && stdout.starts_with("[White \"A\"]"), "{stdout}");
    let (ok, _, err) = tropa(&[
        "annotate",
        game.to_str().unwrap(),
        "-o",
        "/nonexistent/a.pgn",
    ]);
    assert!(!ok && err.contains("/nonexistent"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_confirmed_sacrifice_gets_its_mark_and_pioneers_reading() {
    // Botvinnik–Capablanca, AVRO 1938, from move 30: 30.Ba3 gives the bishop for nothing and
    // 31.Nh5+ the knight for a pawn, and both win.
    let dir = temp_dir("avro");
    let game = dir.join("avro.pgn");
    std::fs::write(
        &game,
        "[White \"Botvinnik\"]\n[Black \"Capablanca\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
         [FEN \"8/p3q1kp/1p2Pnp1/3pQ3/2pP4/1nP3N1/1B4PP/6K1 w - - 0 30\"]\n\n\
         30. Ba3 Qxa3 31. Nh5+ gxh5 32. Qg5+ Kf8 33. Qxf6+ Kg8 34. e7 1-0\n",
    )
    .unwrap();
    let (ok, text, err) = tropa(&["annotate", game.to_str().unwrap(), "--depth", "12"]);
    assert!(ok, "{err}");
    let praised =
        |san: &str| text.contains(&format!("{san} $1")) || text.contains(&format!("{san} $3"));
    assert!(praised("30. Ba3"), "{text}");
    assert!(praised("31. Nh5+"), "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("a sacrifice the search confirms. PIONEER: 30. Ba3 is an offer: "),
        "{words}"
    );
    // The second sacrifice is read as what it is: a king hunt.
    assert!(
        words.contains("PIONEER: 31. Nh5+ is a king hunt: N g3–h5 hunts the king with checks"),
        "{words}"
    );
    // The recaptures and the checks that follow give nothing up: no mark.
    assert!(!text.contains("gxh5 $"), "{text}");
    assert!(!text.contains("Qg5+ $"), "{text}");
}
