//! The engine's standard input written in one piece, as a script or a fast GUI sends it: every
//! `go` gets its `bestmove`, also one that arrives while the previous search is still running.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Writes `input` at once to a fresh engine and collects its output until `bestmoves`
/// answers have come (or 60 s have passed), then sends `quit`.
fn piped(input: &str, bestmoves: usize) -> Vec<String> {
    let mut engine = Command::new(env!("CARGO_BIN_EXE_tropa"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = engine.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let (lines, received) = mpsc::channel();
    let stdout = engine.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut out = Vec::new();
    while out
        .iter()
        .filter(|l: &&String| l.starts_with("bestmove"))
        .count()
        < bestmoves
    {
        match received.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => out.push(line),
            Err(_) => break,
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = engine.wait();
    out
}

#[test]
fn a_go_piped_behind_a_running_search_is_answered_after_it() {
    let out = piped(
        "uci\nsetoption name OwnBook value false\nisready\nposition startpos\ngo searchmoves e2e4 depth 3\ngo depth 6\n",
        2,
    );
    let text = out.join("\n");
    assert!(!text.contains("info string error"), "{text}");
    let answers: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 2, "{text}");
    assert!(answers[0].starts_with("bestmove e2e4"), "{text}");
    let second = text.split_once("bestmove").unwrap().1;
    assert!(second.contains("info depth 6 "), "{text}");
}

#[test]
fn a_go_piped_behind_an_infinite_search_stops_it() {
    let out = piped("position startpos\ngo infinite\ngo depth 3\n", 2);
    let text = out.join("\n");
    assert!(!text.contains("info string error"), "{text}");
    assert_eq!(
        out.iter().filter(|l| l.starts_with("bestmove")).count(),
        2,
        "{text}"
    );
}
