//! The command line's edges, one by one: a closed pipe ends quietly, a finished game is named in
//! words, SAN is accepted, numbers are validated alike, output paths are checked before the work,
//! a bad PGN game is skipped with a warning naming file, game and move, and no progress frames
//! reach a log.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod common;

use common::{run as tropa, stderr, stdout};

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("edges", name)
}

/// `tropa ARGS | head -1`: the reader takes one line and goes away.
fn first_line_then_close(args: &[&str]) -> (String, Output) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tropa"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    // The pipe's reading end is dropped here.
    (line, child.wait_with_output().unwrap())
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [
        &["analyse", "--time", "3"][..],
        &["bench", "6"],
        &["perft", "5"],
        &["plan"],
    ] {
        let (line, out) = first_line_then_close(args);
        assert!(!line.is_empty(), "{args:?}");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

#[test]
fn finished_games_are_named_and_dead_draws_not_searched() {
    let mate = tropa(&["analyse", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]);
    assert!(mate.status.success());
    assert!(
        stdout(&mate).ends_with("checkmate: White wins\n"),
        "{}",
        stdout(&mate)
    );
    let stalemate = tropa(&["analyse", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert!(stdout(&stalemate).ends_with("stalemate: a draw\n"));
    let bare = tropa(&["analyse", "--fen", "8/8/8/4k3/8/8/8/4K3 w - - 0 1"]);
    let text = stdout(&bare);
    assert!(
        text.contains("dead draw") && !text.contains("depth"),
        "{text}"
    );
}

/// `tropa analyse` ends with PIONEER's reading of the search's move, then the side to move's
/// other plans, then the opponent's threats, each checked by the search; `--no-plans` leaves
/// them out. Réti's study: White's king takes the route that serves both zones, and Black's
/// threat is that its king takes the c-pawn in time. Depth 14 is where the search proves the
/// draw (0.00); shallower, the move it prefers depends on the net's guess at the horizon.
#[test]
fn analyse_ends_with_the_plans_unless_told_not_to() {
    let args = [
        "analyse",
        "--fen",
        "7K/8/k1P5/7p/8/8/8/8 w - - 0 1",
        "--depth",
        "14",
    ];
    let with = stdout(&tropa(&args));
    let after = |heading: &str| -> Vec<&str> {
        with.lines()
            .skip_while(|l| !l.starts_with(heading))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect()
    };
    assert!(
        with.contains("best move Kg7\nWhy Kg7, in PIONEER's words"),
        "{with}"
    );
    let reading = after("Why Kg7");
    assert!(
        reading[0].starts_with("  White: K h8–g7–f6–e5 serves two independent zones"),
        "{with}"
    );
    let threats = after("Black's threats");
    assert!(
        threats[0].contains("Black: K a6–b6×c6 wins the c6 pawn")
            && threats[0].contains("confirmed"),
        "{with}"
    );
    assert!(threats.len() <= 3, "{with}");
    let without = stdout(&tropa(&[&args[..], &["--no-plans"]].concat()));
    assert!(
        without.contains("best move") && !without.contains("PIONEER"),
        "{without}"
    );
}

#[test]
fn san_is_accepted_where_moves_are_typed() {
    let out = tropa(&["analyse", "--moves", "e4 e5 Nf3", "--depth", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("2... "), "{}", stdout(&out));
    let show = tropa(&["book", "show", "--moves", "e4 c5 Nf3"]);
    assert!(
        stdout(&show).contains("after 1. e4 c5 2. Nf3"),
        "{}",
        stdout(&show)
    );
    let bad = tropa(&["analyse", "--moves", "e4 Ke3"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("move 2 'Ke3'"), "{}", stderr(&bad));
}

#[test]
fn numbers_are_validated_alike() {
    for args in [
        &["bench", "--hash", "0"][..],
        &["bench", "--threads", "0"],
        &["analyse", "--multipv", "0"],
        &[
            "book",
            "build",
            "--pgn",
            "x.pgn",
            "-o",
            "x.tbk",
            "--threads",
            "0",
        ],
        &[
            "book",
            "import-polyglot",
            "x.bin",
            "-o",
            "x.tbk",
            "--plies",
            "0",
        ],
    ] {
        let out = tropa(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("is not in 1.."),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn output_paths_are_checked_before_the_work() {
    let out = tropa(&["plan", "--svg", "/nonexistent/x.svg"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "", "nothing is analysed");
    assert!(stderr(&out).contains("/nonexistent"), "{}", stderr(&out));
    // `tune` has no default output and checks it before reading the data.
    let no_output = tropa(&["tune", "--data", "whatever.txt"]);
    assert_eq!(no_output.status.code(), Some(2));
    let bad = tropa(&[
        "tune",
        "--data",
        "/nonexistent/d.txt",
        "-o",
        "/nonexistent/w.rs",
    ]);
    assert!(
        stderr(&bad).contains("/nonexistent/w.rs: the folder"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn book_build_skips_a_bad_game_naming_it_and_draws_no_progress_in_logs() {
    let dir = temp_dir("book");
    let bad = dir.join("bad.pgn");
    std::fs::write(
        &bad,
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qxf7 *\n\n",
    )
    .unwrap();
    let good = dir.join("good.pgn");
    std::fs::write(
        &good,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n",
    )
    .unwrap();
    let book = dir.join("b.tbk");
    let out = tropa(&[
        "book",
        "build",
        "--pgn",
        bad.to_str().unwrap(),
        good.to_str().unwrap(),
        "--min-games",
        "1",
        "--eval-depth",
        "1",
        "--threads",
        "1",
        "-o",
        book.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("bad.pgn") && err.contains("game 1 (A – B): move 2. 'Qxf7'"),
        "{err}"
    );
    assert!(
        !err.contains('\r') && !err.contains("rating leaves"),
        "no progress off a terminal: {err:?}"
    );
    assert!(book.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tropa analyse --syzygy` on the test tables (`tests/data/syzygy`): the won
/// KQvKR is scored as a tablebase win, with tbhits, which the plain search does not know; a
/// missing folder is an error.
#[test]
fn analyse_with_tablebases_scores_the_known_win() {
    let fen = "8/8/8/8/8/2k5/8/K2Q1r2 w - - 0 1";
    let args = ["analyse", "--fen", fen, "--depth", "6"];
    let with = tropa(&[&args[..], &["--syzygy", TABLES]].concat());
    assert!(with.status.success(), "{}", stderr(&with));
    let text = stdout(&with);
    let last = text.lines().rev().find(|l| l.starts_with("depth")).unwrap();
    assert!(last.contains("TB win") && last.contains("tbhits"), "{text}");
    assert!(text.contains("best move Qxf1"), "{text}");
    let without = stdout(&tropa(&args));
    assert!(
        !without.contains("TB win") && !without.contains("tbhits"),
        "{without}"
    );
    refuses_missing_tables(&args);
}

/// The Syzygy tables the tests probe (a subset of the 3–4-piece set; `tests/data/SOURCES.md`).
const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// `tropa ARGS --syzygy` with a missing folder fails, naming it.
fn refuses_missing_tables(args: &[&str]) {
    let missing = tropa(&[args, &["--syzygy", "/nonexistent/syzygy"]].concat());
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("cannot read the folder '/nonexistent/syzygy'"),
        "{}",
        stderr(&missing)
    );
}

/// `tropa study --syzygy`: king and pawn against king, a win the zone model holds as a draw, is
/// proven with the tables, which value part of the proof tree; a missing folder is an error
/// before any search.
#[test]
fn study_with_tablebases_proves_the_known_win() {
    let args = ["study", "--fen", "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"];
    let without = stdout(&tropa(&args));
    assert!(
        without.contains("White at least draws") && !without.contains("valued by the tables"),
        "{without}"
    );
    let with = tropa(&[&args[..], &["--syzygy", TABLES]].concat());
    assert!(with.status.success(), "{}", stderr(&with));
    let text = stdout(&with);
    assert!(text.contains("proven within 3 plies: White wins"), "{text}");
    assert!(text.contains("valued by the tables"), "{text}");
    refuses_missing_tables(&args);
}

/// `tropa uci ARGS`, given `commands`, then `quit` once it has answered `bestmove`: what it
/// printed, and whether it exited cleanly.
fn uci_until_bestmove(args: &[&str], commands: &str) -> (String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tropa"))
        .arg("uci")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(commands.as_bytes()).unwrap();
    let mut text = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        text += &line;
        text.push('\n');
        if line.starts_with("bestmove ") {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    (text, child.wait().unwrap().success())
}

#[test]
fn a_fixed_level_plays_a_session_and_a_level_out_of_range_is_refused() {
    // Below Skill Level 0, as the calibration plays it: the weakened search's few hundred
    // nodes, whatever the options say; the same search at full strength takes far more (depth
    // 12: net 10b8r reached depth 9 in 7,543 nodes, net 9 in more than 10,000).
    let commands = "setoption name OwnBook value false\nsetoption name Skill Level value 20\n\
                    position startpos\ngo depth 12\n";
    let nodes = |text: &str| -> u64 {
        text.lines()
            .filter_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
            .max()
            .unwrap_or(0)
    };
    let (weak, ok) = uci_until_bestmove(&["--level", "-3"], commands);
    assert!(ok && weak.contains("bestmove "), "{weak}");
    let (full, ok) = uci_until_bestmove(&[], commands);
    assert!(ok && full.contains("bestmove "), "{full}");
    assert!(
        nodes(&weak) < 1_000 && nodes(&full) > 10_000,
        "{weak}\n{full}"
    );
    for bad in ["25", "-11", "strong"] {
        let out = Command::new(env!("CARGO_BIN_EXE_tropa"))
            .args(["uci", "--level", bad])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad}");
        assert!(
            stderr(&out).contains("is not a level from -10 to 20"),
            "{bad}"
        );
    }
}
