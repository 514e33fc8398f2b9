//! `tropa annotate`: evaluations and better moves written into the games of a PGN file.
//!
//! Design note: every position of a game is searched once, in order, with one engine whose table
//! carries over from move to move. The played move's cost is the fall in the mover's winning
//! chances from the position before it to the position after it, with lichess's curve
//! (chances = 2 / (1 + e^(-0.00368208 cp)) - 1, from -1 to +1) and lichess's thresholds: a fall
//! of 0.1 is an inaccuracy (?!, `$6`), 0.2 a mistake (?, `$2`), 0.3 a blunder (??, `$4`). A
//! marked move gets the engine's line as a variation; at a mistake or blunder PIONEER names the
//! combination the better move was, when it is one of PIONEER's (`zones::combination`: "31.Nh5+
//! was a decoy: …"), and otherwise quotes its first plan for the mover, the turning point's
//! idea. Each position's evaluation follows its move as `[%eval 0.35]` or `[%eval #-3]`
//! (White's view, pawns), which lichess, ChessBase and python-chess read. Games are shared out
//! over threads, a game per thread at a time.

use crate::book::games::{read_games, tag_line, wrap, PgnGame};
use crate::eval::nnue::Network;
use crate::explain::ending::{ending, Ending};
use crate::rules::notation::{line_to_numbered_san, move_to_san};
use crate::rules::{Board, Color, Game, Move};
use crate::search::{is_mate_score, Engine, Limits, Score, SearchControl, Silent};
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

/// How bad a played move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// ?! — chances fell by 0.1 or more.
    Inaccuracy,
    /// ? — by 0.2 or more.
    Mistake,
    /// ?? — by 0.3 or more.
    Blunder,
}

impl Judgement {
    /// The judgement of a fall in winning chances (from -1 to +1), if it deserves one.
    pub fn of(fall: f64) -> Option<Judgement> {
        if fall >= 0.3 {
            Some(Judgement::Blunder)
        } else if fall >= 0.2 {
            Some(Judgement::Mistake)
        } else if fall >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    fn nag(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "$6",
            Judgement::Mistake => "$2",
            Judgement::Blunder => "$4",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// What the search (or the rules) said of one position.
#[derive(Clone, Debug)]
struct Verdict {
    /// The value for the side to move, in internal units (mates as mate scores).
    score: i32,
    /// The engine's line; empty when the game is over.
    line: Vec<Move>,
    /// Set when the position ends the game.
    ending: Option<Ending>,
}

/// The side to move's winning chances, from -1 to +1.
fn chances(v: &Verdict) -> f64 {
    match v.ending {
        Some(Ending::Checkmate { .. }) => -1.0,
        Some(_) => 0.0,
        None if is_mate_score(v.score) => v.score.signum() as f64,
        None => 2.0 / (1.0 + (-0.003_682_08 * v.score as f64).exp()) - 1.0,
    }
}

/// `[%eval …]` from White's view, or nothing for a mated side (the game has ended).
fn eval_tag(v: &Verdict, board: &Board) -> Option<String> {
    let sign = if board.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    match v.ending {
        Some(Ending::Checkmate { .. }) => None,
        Some(_) => Some("[%eval 0.00]".into()),
        None => Some(match Score::from_internal(v.score) {
            Score::Centipawns(cp) => format!("[%eval {:.2}]", (sign * cp) as f64 / 100.0),
            Score::Mate(m) => format!("[%eval #{}]", sign * m),
        }),
    }
}

fn judge(engine: &mut Engine, game: &Game, limits: &Limits) -> Verdict {
    if let Some(end) = ending(game) {
        return Verdict {
            score: 0,
            line: Vec::new(),
            ending: Some(end),
        };
    }
    let result = engine.search(game, limits, &SearchControl::new(), &mut Silent);
    Verdict {
        score: result.score,
        line: result.pv,
        ending: None,
    }
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
    let mut game = Game::from_board(pgn.game.start().clone(), false);
    let mut verdicts = Vec::with_capacity(moves.len() + 1);
    let mut boards = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        verdicts.push(judge(engine, &game, limits));
        boards.push(game.board().clone());
        if let Some(&mv) = moves.get(i) {
            game.play(mv);
            bar.inc(1);
        }
    }
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
        let best = before.line.first().copied();
        // The mover's chances before, against the opponent's after, seen from the mover.
        let fall = chances(before) + chances(after);
        let judgement = Judgement::of(fall).filter(|_| best != Some(mv));
        let mut comment: Vec<String> = eval_tag(after, &boards[i + 1]).into_iter().collect();
        if let (Some(j), Some(best)) = (judgement, best) {
            token = format!("{token} {}", j.nag());
            tally.0[!white as usize][j as usize] += 1;
            comment.push(format!(
                "{}. {} was best.",
                j.word(),
                move_to_san(board, best)
            ));
            if j >= Judgement::Mistake {
                comment.extend(missed_combination(board, best).or_else(|| pioneer_plan(board)));
            }
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

/// The combination PIONEER sees in the better move `best`, as a comment sentence: "PIONEER:
/// 31.Nh5+ was a decoy: N g3–h5 offers the knight to the pawn on g6, …" (`None` when the move is
/// none of its combinations, or gives nothing up).
fn missed_combination(board: &Board, best: Move) -> Option<String> {
    use crate::pioneer::zones::combination::{combination_text, combinations};
    let analysis = crate::pioneer::zones::analysis::Analysis::new(
        board,
        crate::pioneer::attacks::attack::TrajectoryLimits::default(),
    );
    // A combination gives material up; a free move against a defender is no sacrifice to
    // name.
    let c = combinations(board, &analysis)
        .into_iter()
        .find(|c| c.mv == best && c.cost > 0)?;
    let text = combination_text(&analysis, board, &c);
    // "White: Q h6×h7 removes …" without the side, which the move number tells.
    let text = text
        .split_once(": ")
        .map_or(text.as_str(), |(_, rest)| rest);
    let number = line_to_numbered_san(board, &[best]);
    Some(format!(
        "PIONEER: {number} was a {}: {}.",
        c.method.name(),
        text.replace('}', ")")
    ))
}

/// PIONEER's first plan for the side to move, as a comment sentence.
fn pioneer_plan(board: &Board) -> Option<String> {
    let report = crate::pioneer::uses::plan::report(
        board,
        Some(board.side_to_move()),
        crate::pioneer::attacks::attack::TrajectoryLimits::default(),
    );
    // The first line counts zones; the first plan's headline follows it.
    let plan = report.get(1)?.trim();
    let plan = plan.split_once(". ").map_or(plan, |(_, rest)| rest);
    // A brace would end the PGN comment.
    Some(format!("PIONEER: {}.", plan.replace('}', ")")))
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

    #[test]
    fn a_missed_sacrifice_is_named_as_a_combination() {
        // Win at Chess 4: 1.Qxh7+ Kxh7 2.hxg6# removes the pawn h7.
        let board = crate::rules::parse_fen(
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            false,
        )
        .unwrap();
        let best = crate::rules::notation::move_from_uci(&board, "h6h7", false).unwrap();
        let text = missed_combination(&board, best).expect("a combination");
        assert!(
            text.starts_with(
                "PIONEER: 1. Qxh7+ was a removal: Q h6×h7 removes the pawn on h7, which "
            ),
            "{text}"
        );
        // A quiet move that serves no combination gets no such comment.
        let quiet = crate::rules::notation::move_from_uci(&board, "a2a3", false).unwrap();
        assert_eq!(missed_combination(&board, quiet), None);
    }

    #[test]
    fn thresholds_in_winning_chances() {
        assert_eq!(Judgement::of(0.05), None);
        assert_eq!(Judgement::of(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of(0.25), Some(Judgement::Mistake));
        assert_eq!(Judgement::of(1.7), Some(Judgement::Blunder));
        let even = Verdict {
            score: 0,
            line: Vec::new(),
            ending: None,
        };
        assert_eq!(chances(&even), 0.0);
        let pawn = Verdict {
            score: 100,
            ..even.clone()
        };
        assert!((chances(&pawn) - 0.182).abs() < 0.001, "{}", chances(&pawn));
        let mated = Verdict {
            ending: Some(Ending::Checkmate {
                winner: Color::White,
            }),
            ..even
        };
        assert_eq!(chances(&mated), -1.0);
    }
}
