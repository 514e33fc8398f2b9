//! The UCI loop's tests: whole sessions fed as one input, as a GUI or a script pipes them.

use super::*;
use crate::rules::notation::move_from_uci;
use crate::rules::Move;

fn session(input: &[u8]) -> String {
    let capture = Capture::default();
    run(
        &mut std::io::Cursor::new(input.to_vec()),
        Output::to(capture.clone()),
        None,
    );
    capture.take()
}

/// The `bestmove` of `out`, checked to be a legal move in the position after `moves`
/// from the start, with a `ponder` move legal after it when one is given.
fn legal_bestmove(out: &str, moves: &[&str]) -> Move {
    let game = Game::from_uci(None, moves, false).unwrap();
    let line = out
        .lines()
        .find(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove in {out}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let best =
        move_from_uci(game.board(), words[1], false).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    if let ["bestmove", _, "ponder", reply] = words[..] {
        let mut after = game.board().clone();
        after.play(best);
        move_from_uci(&after, reply, false).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    }
    best
}

#[test]
fn handshake_and_search() {
    let out = session(b"uci\nisready\nposition startpos moves e2e4\ngo depth 3\n");
    assert!(out.contains("uciok") && out.contains("readyok"));
    assert!(out.contains("option name Hash type spin"));
    legal_bestmove(&out, &["e2e4"]);
}

#[test]
fn bad_input_keeps_state() {
    let input = b"position startpos moves e2e4\nposition fen 8/8/8 w - - 0 1\nposition startpos moves e2e5\nfoo\n\xff\xfe\ngo depth 2\n";
    let out = session(input);
    assert_eq!(out.matches("info string error:").count(), 4, "{out}");
    // The previous position (after 1.e4) is kept, so the move is Black's.
    legal_bestmove(&out, &["e2e4"]);
}

/// A writer that stalls for a while after each `bestmove`, as a busy machine may stall the
/// search thread between writing its answer and exiting.
#[derive(Clone, Default)]
struct SlowAfterBestmove(Arc<Mutex<Vec<u8>>>);

impl Write for SlowAfterBestmove {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned();
        if text
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("bestmove"))
        {
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        Ok(())
    }
}

#[test]
fn show_plans_prints_the_zones_before_the_search() {
    let input = b"setoption name ShowPlans value true\nsetoption name PioneerGuide value true\nposition fen 7K/8/k1P5/7p/8/8/8/8 w - - 0 1\ngo depth 4\n";
    let out = session(input);
    assert!(!out.contains("info string error"), "{out}");
    let plans: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info string plan "))
        .collect();
    // The reading of the checks' preferred move first, then the threats, then the forks.
    assert!(
        plans[0].starts_with("info string plan for ")
            || plans[0].starts_with("info string plan no reading of "),
        "{out}"
    );
    assert!(
        plans
            .iter()
            .any(|l| l.starts_with("info string plan threat: Black: K a6–b6×c6")),
        "{out}"
    );
    assert!(plans.iter().any(|l| l.contains("K h8–g7–f6–e5")), "{out}");
    assert!(
        plans
            .iter()
            .any(|l| l.contains("; search:  confirmed — ") && l.contains("(depth ")),
        "{out}"
    );
    let first_plan = out.find("info string plan").unwrap();
    let first_info = out.find("info depth").unwrap();
    assert!(first_plan < first_info);
    assert!(out.contains("bestmove"));
    // Off by default.
    let out = session(b"position startpos\ngo depth 2\n");
    assert!(!out.contains("info string plan"));
}

/// Regression: a `go` sent right after the previous `bestmove`, while the search thread had
/// not yet exited, was refused ("already searching") and the GUI waited forever.
#[test]
fn go_right_after_bestmove_is_accepted() {
    let capture = SlowAfterBestmove::default();
    let mut uci = Uci::new(Output::to(capture.clone()));
    let text = || String::from_utf8_lossy(&capture.0.lock().unwrap()).into_owned();
    uci.handle("go depth 1");
    let start = std::time::Instant::now();
    while !text().contains("bestmove") {
        assert!(start.elapsed().as_secs() < 10, "no bestmove");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // The search thread is now stalled after writing its bestmove.
    uci.handle("position startpos moves e2e4");
    uci.handle("go depth 1");
    uci.handle("quit");
    let out = text();
    assert!(!out.contains("error"), "{out}");
    assert_eq!(out.matches("bestmove").count(), 2, "{out}");
}

fn wait_for(capture: &Capture, needle: &str, seconds: u64) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed().as_secs() < seconds {
        if String::from_utf8_lossy(&capture.0.lock().unwrap()).contains(needle) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    false
}

/// Regression: a ponder or infinite search that ended by itself (depth limit, mate found)
/// sent its bestmove at once instead of waiting for `ponderhit` or `stop`.
#[test]
fn finished_ponder_and_infinite_searches_wait() {
    for (go, release) in [
        ("go ponder depth 2", "ponderhit"),
        ("go ponder depth 2", "stop"),
        ("go infinite depth 2", "stop"),
        ("go infinite mate 1", "stop"),
    ] {
        let capture = Capture::default();
        let mut uci = Uci::new(Output::to(capture.clone()));
        uci.handle("position fen 6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1");
        uci.handle(go);
        assert!(wait_for(&capture, "info depth 1", 10), "{go}: no search");
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(
            !wait_for(&capture, "bestmove", 0),
            "{go}: bestmove before {release}"
        );
        uci.handle(release);
        assert!(
            wait_for(&capture, "bestmove e1e8", 5),
            "{go}: no bestmove after {release}"
        );
    }
}

#[test]
fn go_after_answered_search_is_accepted() {
    // A GUI sends the next `go` as soon as it reads `bestmove`, possibly before the search
    // thread has ended; that must not be taken for "already searching". Here the previous
    // search thread has answered but is slow to end.
    let capture = Capture::default();
    let mut uci = Uci::new(Output::to(capture.clone()));
    let handle = std::thread::spawn(|| std::thread::sleep(std::time::Duration::from_millis(100)));
    uci.search = Some(RunningSearch {
        control: Arc::new(SearchControl::new()),
        handle,
        answered: Arc::new(AtomicBool::new(true)),
        released: Arc::new(AtomicBool::new(false)),
        open_ended: false,
        infinite: false,
    });
    uci.handle("go depth 1");
    uci.handle("quit");
    let out = String::from_utf8(capture.0.lock().unwrap().clone()).unwrap();
    assert!(!out.contains("already searching"), "{out}");
    assert!(out.contains("bestmove"), "{out}");
}

/// Regression: a `go` piped right behind another, while that search was still starting, was
/// refused ("already searching") and never got its `bestmove`. The running search answers
/// first, then the new one starts.
#[test]
fn go_during_a_finite_search_waits_for_it() {
    let out = session(b"setoption name OwnBook value false\nposition startpos\ngo searchmoves e2e4 depth 3\ngo depth 4\n");
    assert!(!out.contains("error"), "{out}");
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 2, "{out}");
    assert!(answers[0].starts_with("bestmove e2e4"), "{out}");
    // The second search ran to its own depth, after the first had answered.
    let second = &out[out.find("bestmove").unwrap()..];
    assert!(second.contains("info depth 4 "), "{out}");
}

/// A search that would wait for `stop` forever is stopped by the next `go`, and both answer.
#[test]
fn go_during_an_infinite_or_ponder_search_stops_it() {
    for first in ["go infinite", "go ponder wtime 1000 btime 1000"] {
        let input = format!("position startpos moves e2e4\n{first}\ngo depth 2\n");
        let out = session(input.as_bytes());
        assert!(!out.contains("info string error"), "{first}: {out}");
        assert_eq!(out.matches("bestmove").count(), 2, "{first}: {out}");
        legal_bestmove(&out, &["e2e4"]);
    }
}

#[test]
fn over_long_line_is_rejected() {
    let mut input = vec![b'x'; MAX_LINE + 10];
    input.extend_from_slice(b"\nisready\n");
    let out = session(&input);
    assert!(out.contains("longer than") && out.contains("readyok"));
}
