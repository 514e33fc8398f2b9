//! `tropa annotate`: evaluations and better moves written into the games of a PGN file.
//!
//! Design note: `explain::review` searches every position of a game once and judges each move
//! (lichess's curve and thresholds: ?!, ?, ??; PIONEER's word at a mistake or blunder; !, !! for
//! a sacrifice the search confirms); this file writes the review as PGN. A marked move gets its
//! NAG (`$6`, `$2`, `$4`), the better move and PIONEER's word in a comment, and the engine's
//! line as a variation; a praised one its NAG (`$1`, `$3`) and PIONEER's reading. Each position's
//! evaluation follows its move as `[%eval 0.35]` or `[%eval #-3]` (White's view, pawns), which
//! lichess, ChessBase and python-chess read. Games are shared out over threads, a game per
//! thread at a time.

use crate::book::games::{read_games, tag_line, wrap, PgnGame};
use crate::eval::nnue::Network;
use crate::explain::review::{review_game, white_score, Verdict};
use crate::rules::notation::{line_to_numbered_san, move_to_san};
use crate::rules::{Board, Color};
use crate::search::{Engine, Limits, Score};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Arguments of `tropa annotate`.
pub struct AnnotateArgs {
    /// The games.
    pub input: PathBuf,
    /// Where to write the annotated games (standard output when absent).
    pub output: Option<PathBuf>,
    /// Search limits per position.
    pub limits: Limits,
    /// Threads in all.
    pub threads: usize,
    /// Table size per engine, in MB.
    pub hash: usize,
    /// The net to evaluate with (none: the hand-crafted evaluation).
    pub net: Option<Arc<Network>>,
}

/// `[%eval …]` from White's view, or nothing for a mated side (the game has ended).
fn eval_tag(v: &Verdict, board: &Board) -> Option<String> {
    white_score(v, board).map(|score| match score {
        Score::Centipawns(cp) => format!("[%eval {:.2}]", cp as f64 / 100.0),
        Score::Mate(m) => format!("[%eval #{m}]"),
    })
}

/// How many moves of each judgement each side made.
#[derive(Clone, Copy, Debug, Default)]
struct Tally([[usize; 3]; 2]);

impl Tally {
    fn text(&self) -> String {
        let side = |c: usize, name: &str| {
            let [i, m, b] = self.0[c];
            let (i, m, b) = (
                count(i, "inaccuracy", "inaccuracies"),
                count(m, "mistake", "mistakes"),
                count(b, "blunder", "blunders"),
            );
            format!("{name} {i}, {m}, {b}")
        };
        format!("{}; {}", side(0, "White"), side(1, "Black"))
    }
}

/// "1 blunder", "2 blunders".
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Annotates one game: its PGN text and the tally of judgements.
fn annotate_game(
    pgn: &PgnGame,
    engine: &mut Engine,
    limits: &Limits,
    bar: &ProgressBar,
    annotator: &str,
) -> (String, Tally) {
    let moves = pgn.game.moves();
    let review = review_game(pgn.game.start(), moves, engine, limits, &mut || bar.inc(1));
    let (boards, verdicts) = (&review.boards, &review.verdicts);
    let mut tokens = Vec::new();
    let mut tally = Tally::default();
    let mut needs_number = true;
    for (i, &mv) in moves.iter().enumerate() {
        let board = &boards[i];
        let white = board.side_to_move() == Color::White;
        let number = board.fullmove_number();
        // The number and the NAG stay on the line of their move.
        let san = move_to_san(board, mv);
        let mut token = match (white, needs_number) {
            (true, _) => format!("{number}. {san}"),
            (false, true) => format!("{number}... {san}"),
            (false, false) => san,
        };
        needs_number = false;
        let (before, after) = (&verdicts[i], &verdicts[i + 1]);
        let judgement = review.judgements[i];
        let mut comment: Vec<String> = eval_tag(after, &boards[i + 1]).into_iter().collect();
        if let (Some(j), Some(&best)) = (judgement, before.line.first()) {
            token = format!("{token} {}", j.nag());
            tally.0[!white as usize][j as usize] += 1;
            comment.push(format!(
                "{}. {} was best.",
                j.word(),
                move_to_san(board, best)
            ));
            comment.extend(review.ideas[i].clone());
        }
        if let Some(p) = review.praises[i] {
            token = format!("{token} {}", p.nag());
            comment.push(format!("{}: a sacrifice the search confirms.", p.word()));
            comment.extend(review.ideas[i].clone());
        }
        tokens.push(token);
        if !comment.is_empty() {
            tokens.push(format!("{{ {} }}", comment.join(" ")));
            needs_number = true;
        }
        if judgement.is_some() {
            let line = line_to_numbered_san(board, &before.line);
            tokens.extend(variation_tokens(&line, eval_tag(before, board)));
            needs_number = true;
        }
    }
    tokens.push(pgn.result.clone());
    let mut text = String::new();
    for (name, value) in &pgn.tags {
        if name != "Annotator" {
            text.push_str(&tag_line(name, value));
            text.push('\n');
        }
    }
    text.push_str(&tag_line("Annotator", annotator));
    text.push_str("\n\n");
    text.push_str(&wrap(&tokens));
    (text, tally)
}

/// `tropa annotate`: every game of the file, in the file's order.
pub fn run(args: &AnnotateArgs) -> Result<(), String> {
    let name = args.input.display().to_string();
    let bytes = std::fs::read(&args.input).map_err(|e| format!("{name}: {e}"))?;
    if let Some(out) = &args.output {
        crate::util::check_writable(out)?;
    }
    let (games, skipped) = read_games(&bytes, &name);
    for s in &skipped {
        eprintln!("warning: skipped {s}");
    }
    if games.is_empty() {
        return Err(format!("{name}: no game to annotate"));
    }
    let workers = args.threads.min(games.len());
    let engine_threads = (args.threads / workers).max(1);
    let annotator = format!(
        "Tropa {} ({})",
        env!("CARGO_PKG_VERSION"),
        limit_text(&args.limits)
    );
    let bar = ProgressBar::new(games.iter().map(|g| g.game.moves().len() as u64).sum());
    bar.set_style(
        ProgressStyle::with_template(
            "annotating [{bar:30}] {pos}/{len} moves  {elapsed} (eta {eta})",
        )
        .expect("the template is valid")
        .progress_chars("#>-"),
    );
    let next = AtomicUsize::new(0);
    let done: Vec<Mutex<Option<(String, Tally)>>> =
        games.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut engine = Engine::new(args.hash, engine_threads);
                engine.options.move_overhead = 0;
                engine.set_network(args.net.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(pgn) = games.get(i) else { break };
                    engine.clear();
                    let annotated = annotate_game(pgn, &mut engine, &args.limits, &bar, &annotator);
                    *done[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(annotated);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut text = String::new();
    let mut summary = Vec::new();
    for (pgn, slot) in games.iter().zip(done) {
        let (game_text, tally) = slot
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .expect("every game was annotated");
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&game_text);
        summary.push(format!("{}: {}", pgn.title(), tally.text()));
    }
    match &args.output {
        Some(out) => {
            crate::util::write_atomically(out, text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            for line in summary {
                say!("{line}");
            }
            say!(
                "{} annotated into {}",
                count(games.len(), "game", "games"),
                out.display()
            );
        }
        None => {
            for line in text.lines() {
                say!("{line}");
            }
        }
    }
    Ok(())
}

fn limit_text(limits: &Limits) -> String {
    match (limits.depth, limits.nodes, limits.movetime) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes"),
        (_, _, Some(ms)) => format!("{:.1} s per move", ms as f64 / 1000.0),
        _ => "no limit".into(),
    }
}

/// The better line as tokens for `wrap`, so that a long one breaks like the main line: "(" and
/// each move number stay with the move after them, the evaluation comment and ")" close it.
fn variation_tokens(line: &str, eval: Option<String>) -> Vec<String> {
    let mut tokens = vec![String::from("(")];
    for word in line.split_whitespace() {
        match tokens.last_mut() {
            Some(last) if last == "(" || last.ends_with('.') => {
                last.push(' ');
                last.push_str(word);
            }
            _ => tokens.push(word.to_string()),
        }
    }
    tokens.extend(eval.map(|e| format!("{{ {e} }}")));
    tokens.push(")".into());
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_better_line_wraps_with_its_numbers() {
        let line = "24... hxg3 25. Qxg3 Nh4+ 26. Kf2 Bxd4+ 27. cxd4 Qxd4+ 28. Re3 Qxe3+ 29. Kxe3";
        let tokens = variation_tokens(line, Some("[%eval -4.02]".into()));
        assert_eq!(tokens[..2], ["( 24... hxg3", "25. Qxg3"]);
        let text = wrap(&tokens);
        assert!(text.lines().all(|l| l.len() <= 79), "{text}");
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>().join(" "),
            format!("( {line} {{ [%eval -4.02] }} )")
        );
    }
}
