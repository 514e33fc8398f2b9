//! `tropa play`: a game against Tropa in the terminal.
//!
//! Design note: one loop reads a line at a time: a move in SAN or UCI, or a word (`hint`, `plan`,
//! `undo`, `flip`, `draw`, `resign`, `quit`, `help`). The player's clock runs while the prompt
//! waits; Tropa's runs while it searches and is what its time manager sees. The level caps
//! Tropa's depth. When the game ends (mate, stalemate, a draw by rule, resignation, agreement,
//! time, or the end of the input) it is saved as PGN, atomically, to a path checked before the
//! first move.

use super::play_view::{board_text, clock_text, game_pgn, today};
use crate::eval::nnue::Network;
use crate::explain::ending::ending;
use crate::rules::notation::{line_to_numbered_san, move_from_text, move_to_san};
use crate::rules::side_name;
use crate::rules::{parse_fen, Color, Game, START_FEN};
use crate::search::time::Clock;
use crate::search::{Engine, Limits, Score, SearchControl, SearchResult, Silent};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Arguments of `tropa play`.
pub struct PlayArgs {
    /// Strength from 1 to 10.
    pub level: u32,
    /// Minutes and increment seconds for each side; untimed when absent.
    pub clock: Option<(Duration, Duration)>,
    /// The player's colour.
    pub color: Color,
    /// Start position.
    pub fen: Option<String>,
    /// Where the game is saved.
    pub save: PathBuf,
    /// Table size in MB.
    pub hash: usize,
    /// The net to evaluate with (none: the hand-crafted evaluation).
    pub net: Option<Arc<Network>>,
}

/// The deepest search of each level, 1 to 9; level 10 has no depth limit.
const LEVEL_DEPTHS: [i32; 9] = [1, 2, 3, 4, 5, 6, 8, 10, 14];
/// Tropa's time per move when the game is untimed.
const UNTIMED_MOVE: Duration = Duration::from_secs(1);

/// Reads a clock such as `5+3` (minutes + seconds of increment) or `0.5+0`.
pub fn parse_clock(text: &str) -> Result<(Duration, Duration), String> {
    let bad = || format!("'{text}' is not a clock like 5+3 (minutes + increment seconds)");
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: f64 = base.trim().parse().map_err(|_| bad())?;
    let seconds: f64 = increment.trim().parse().map_err(|_| bad())?;
    if !(minutes > 0.0 && minutes <= 600.0 && (0.0..=600.0).contains(&seconds)) {
        return Err(bad());
    }
    Ok((
        Duration::from_secs_f64(minutes * 60.0),
        Duration::from_secs_f64(seconds),
    ))
}

/// Reads `white` or `black`.
pub fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("'{text}' is not white or black")),
    }
}

/// Whether Tropa takes a draw offer: when it sees itself worse by half a pawn or more, or the
/// game is level (within 0.15) after move 30. `score` is from Tropa's side.
pub fn accepts_draw(score: Score, move_number: usize) -> bool {
    match score {
        Score::Mate(m) => m < 0,
        Score::Centipawns(cp) => cp <= -50 || (move_number > 30 && cp.abs() <= 15),
    }
}

const HELP: &str =
    "moves in SAN or UCI (Nf3, e2e4, O-O); hint, plan, undo, flip, draw, resign, quit, help";

/// The state of a game being played.
struct Table {
    game: Game,
    engine: Engine,
    args: PlayArgs,
    /// Time left for White and Black.
    left: [Duration; 2],
    flipped: bool,
}

/// How a game ended, for the PGN and the last message.
struct Finish {
    result: &'static str,
    why: String,
}

impl Table {
    fn show(&self) {
        let black_below = (self.args.color == Color::Black) != self.flipped;
        say!();
        for line in board_text(self.game.board(), black_below) {
            say!("{line}");
        }
        if self.args.clock.is_some() {
            say!(
                "White {}  Black {}",
                clock_text(self.left[0]),
                clock_text(self.left[1])
            );
        }
    }

    fn limits(&self, side: Color) -> Limits {
        let depth = LEVEL_DEPTHS.get(self.args.level as usize - 1).copied();
        match self.args.clock {
            Some((_, increment)) => Limits {
                depth,
                clock: Some(Clock {
                    time: self.left[side as usize].as_millis() as u64,
                    increment: increment.as_millis() as u64,
                    moves_to_go: None,
                }),
                ..Default::default()
            },
            None => Limits {
                depth,
                movetime: Some(UNTIMED_MOVE.as_millis() as u64),
                ..Default::default()
            },
        }
    }

    fn search(&mut self, side: Color) -> SearchResult {
        let limits = self.limits(side);
        self.engine
            .search(&self.game, &limits, &SearchControl::new(), &mut Silent)
    }

    /// Charges `spent` to `side`'s clock and adds the increment; false when the flag fell.
    fn charge(&mut self, side: Color, spent: Duration) -> bool {
        let Some((_, increment)) = self.args.clock else {
            return true;
        };
        let left = &mut self.left[side as usize];
        if spent >= *left {
            *left = Duration::ZERO;
            return false;
        }
        *left = *left - spent + increment;
        true
    }

    fn tropa_moves(&mut self) -> Option<Finish> {
        let side = !self.args.color;
        let start = Instant::now();
        let result = self.search(side);
        let mv = result.best?;
        if !self.charge(side, start.elapsed()) {
            return Some(lost_on_time(side));
        }
        say!(
            "Tropa plays {} ({})",
            line_to_numbered_san(self.game.board(), &[mv]),
            score_text(Score::from_internal(result.score))
        );
        self.game.play(mv);
        None
    }

    /// Handles one line of the player's; `Some` when the game is over.
    fn answer(&mut self, line: &str, spent: Duration) -> Option<Finish> {
        let me = self.args.color;
        match line {
            "" => {}
            "help" | "?" => say!("{HELP}"),
            "hint" => {
                let result = self.search(me);
                if let Some(mv) = result.best {
                    say!(
                        "hint: {} ({})",
                        move_to_san(self.game.board(), mv),
                        score_text(Score::from_internal(result.score))
                    );
                }
            }
            "plan" => {
                let report = crate::pioneer::uses::plan::report(
                    self.game.board(),
                    Some(me),
                    crate::pioneer::attacks::attack::TrajectoryLimits::default(),
                );
                for line in report.iter().take(8) {
                    say!("{line}");
                }
            }
            "undo" => {
                // Back to the player's previous turn: Tropa's reply and the player's move.
                let mine = self.game.moves().len() >= 2;
                if mine && self.game.undo() && self.game.undo() {
                    say!("took back the last move pair");
                } else {
                    say!("nothing to take back");
                }
            }
            "flip" => self.flipped = !self.flipped,
            "resign" => {
                return Some(Finish {
                    result: if me == Color::White { "0-1" } else { "1-0" },
                    why: format!("{} resigns", side_name(me)),
                })
            }
            "draw" => {
                // The player is to move: the score is the player's, Tropa's is its negation.
                let result = self.search(!me);
                let number = self.game.board().fullmove_number() as usize;
                if accepts_draw(Score::from_internal(-result.score), number) {
                    return Some(Finish {
                        result: "1/2-1/2",
                        why: "draw agreed".into(),
                    });
                }
                say!("Tropa declines the draw");
            }
            "quit" => return Some(adjourned()),
            text => match move_from_text(self.game.board(), text, false) {
                Ok(mv) => {
                    if !self.charge(me, spent) {
                        return Some(lost_on_time(me));
                    }
                    self.game.play(mv);
                    return self.after_move().or_else(|| self.tropa_moves());
                }
                Err(e) => say!("'{text}': {e} (type help for the commands)"),
            },
        }
        None
    }

    /// The game's end by the rules, announced; `None` when play goes on.
    fn after_move(&self) -> Option<Finish> {
        ending(&self.game).map(|end| Finish {
            result: end.result(),
            why: end.to_string(),
        })
    }
}

fn lost_on_time(side: Color) -> Finish {
    Finish {
        result: if side == Color::White { "0-1" } else { "1-0" },
        why: format!("{} lost on time", side_name(side)),
    }
}

fn adjourned() -> Finish {
    Finish {
        result: "*",
        why: "the game is left unfinished".into(),
    }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(m) if m > 0 => format!("mate in {m}"),
        Score::Mate(m) => format!("mated in {}", -m),
    }
}

/// `tropa play`: reads the player's lines from standard input until the game ends, then saves
/// it.
pub fn run(args: PlayArgs) -> Result<(), String> {
    crate::util::check_writable(&args.save)?;
    let board =
        parse_fen(args.fen.as_deref().unwrap_or(START_FEN), false).map_err(|e| e.to_string())?;
    let base = args.clock.map_or(Duration::ZERO, |c| c.0);
    let mut engine = Engine::new(args.hash, 1);
    engine.set_network(args.net.clone());
    let mut table = Table {
        game: Game::from_board(board, false),
        engine,
        left: [base; 2],
        flipped: false,
        args,
    };
    say!(
        "You play {} against Tropa, level {}. {HELP}.",
        side_name(table.args.color),
        table.args.level
    );
    let mut input = std::io::stdin().lock();
    let finish = loop {
        if let Some(end) = table.after_move() {
            break end;
        }
        if table.game.board().side_to_move() != table.args.color {
            if let Some(end) = table.tropa_moves() {
                break end;
            }
            continue;
        }
        table.show();
        super::out::prompt("your move: ");
        let asked = Instant::now();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break adjourned(),
            Ok(_) => {}
        }
        if let Some(end) = table.answer(line.trim(), asked.elapsed()) {
            break end;
        }
    };
    table.show();
    say!("{} ({})", finish.why, finish.result);
    save(&table, &finish)
}

fn save(table: &Table, finish: &Finish) -> Result<(), String> {
    let me = "You".to_string();
    let tropa = format!(
        "Tropa {} (level {})",
        env!("CARGO_PKG_VERSION"),
        table.args.level
    );
    let (white, black) = if table.args.color == Color::White {
        (me, tropa)
    } else {
        (tropa, me)
    };
    let mut tags = vec![
        ("Event", "Game in the terminal".to_string()),
        ("Site", "tropa play".to_string()),
        ("Date", today()),
        ("Round", "-".to_string()),
        ("White", white),
        ("Black", black),
        ("Termination", finish.why.clone()),
    ];
    if let Some((base, increment)) = table.args.clock {
        tags.push((
            "TimeControl",
            format!("{}+{}", base.as_secs(), increment.as_secs()),
        ));
    }
    let text = game_pgn(&table.game, &tags, finish.result);
    let path = &table.args.save;
    crate::util::write_atomically(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    say!("game saved to {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_colours_and_draw_offers() {
        assert_eq!(
            parse_clock("5+3").unwrap(),
            (Duration::from_secs(300), Duration::from_secs(3))
        );
        assert_eq!(parse_clock("1").unwrap().1, Duration::ZERO);
        for bad in ["0+1", "x+1", "5+-1", "5+3+1"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_color("Black"), Ok(Color::Black));
        assert!(parse_color("red").is_err());
        assert!(accepts_draw(Score::Centipawns(-80), 10));
        assert!(!accepts_draw(Score::Centipawns(0), 10));
        assert!(accepts_draw(Score::Centipawns(10), 35));
        assert!(!accepts_draw(Score::Mate(3), 60));
    }
}
