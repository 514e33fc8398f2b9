//! Learning from play (Yudin's library was to grow from its games): after a game,
//! the line the engine met is added to the book up to the book depth, and the results along
//! it are corrected by the game's outcome.
//!
//! Design note: UCI never tells an engine how a game ended, so the result is inferred, in this
//! order, from what the engine saw:
//!
//! 1. the final position — the last position the GUI sent, plus the engine's own last move when
//!    it moved in that position: checkmate, stalemate, the fifty-move rule, insufficient material
//!    or a threefold repetition decide it;
//! 2. otherwise the engine's own last two search scores: both at least `DECISIVE` centipawns for
//!    the same side mean that side won (the loser resigned or was mated after the engine's move);
//!    a score of exactly 0 in a position that already occurred before means a draw by repetition,
//!    and two scores within `LEVEL` of 0 after `LONG_GAME` plies mean an agreed or adjudicated
//!    draw;
//! 3. otherwise the result is unknown: the new moves are still added (rated by the engine's
//!    score) but no result is counted.
//!
//! The line is added only inside the existing trees (its first move must already be a root),
//! so a book built on Yudin's five trees keeps them. A new leaf is rated by the engine's
//! score at or after it; every node of the line, the start position included, counts the game;
//! then the whole tree is minimaxed again.

use super::code::MoveCode;
use super::pgn::GameResult;
use super::rating::SCORE_LIMIT;
use super::tree::{Book, ROOT};
use crate::eval::insufficient_material;
use crate::rules::{legal_moves, repetition_key, Board, Color, Game, Move};

/// Scores this far from 0 in the engine's last two searches decide the game.
pub const DECISIVE: i32 = 400;
/// Scores this close to 0 in a long game mean a draw.
pub const LEVEL: i32 = 15;
/// Plies after which level scores mean a draw.
pub const LONG_GAME: usize = 120;

/// A move the engine played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineMove {
    /// Moves played before it (the ply of the position it was played in).
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// The search score, centipawns from White's view (`None` for a book move).
    pub score: Option<i32>,
}

impl EngineMove {
    /// A searched move: `score` is the search's score for the side to move in `board`.
    pub fn searched(board: &Board, ply: usize, mv: Move, score: i32) -> EngineMove {
        let s = score.clamp(-SCORE_LIMIT, SCORE_LIMIT);
        EngineMove {
            ply,
            mv,
            score: Some(if board.side_to_move() == Color::White {
                s
            } else {
                -s
            }),
        }
    }
}

/// A finished game as the engine knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// All moves from the start position, the engine's last move included.
    pub line: Vec<Move>,
    /// The inferred result.
    pub result: Option<GameResult>,
    /// How the result was inferred.
    pub reason: &'static str,
}

/// Infers the outcome of `game` (the last position the GUI sent) from the engine's moves.
pub fn infer(game: &Game, engine: &[EngineMove]) -> FinishedGame {
    let mut line = game.moves().to_vec();
    let mut board = game.board().clone();
    let mut keys = game.keys().to_vec();
    if let Some(last) = engine.last() {
        if last.ply == line.len() && board.is_legal(last.mv) {
            board.play_unchecked(last.mv);
            line.push(last.mv);
            keys.push(repetition_key(&board));
        }
    }
    let decided = |result, reason| FinishedGame {
        line: line.clone(),
        result: Some(result),
        reason,
    };
    let loser_is_white = board.side_to_move() == Color::White;
    if legal_moves(&board).is_empty() {
        if board.checkers().is_empty() {
            return decided(GameResult::Draw, "stalemate");
        }
        let result = if loser_is_white {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        };
        return decided(result, "checkmate");
    }
    if board.halfmove_clock() >= 100 {
        return decided(GameResult::Draw, "fifty-move rule");
    }
    if insufficient_material(&board) {
        return decided(GameResult::Draw, "insufficient material");
    }
    let last_key = repetition_key(&board);
    let occurrences = keys.iter().filter(|&&k| k == last_key).count();
    if occurrences >= 3 {
        return decided(GameResult::Draw, "threefold repetition");
    }
    let scores: Vec<i32> = engine.iter().filter_map(|m| m.score).collect();
    if let [.., a, b] = scores[..] {
        if a >= DECISIVE && b >= DECISIVE {
            return decided(GameResult::WhiteWins, "the engine's last scores");
        }
        if a <= -DECISIVE && b <= -DECISIVE {
            return decided(GameResult::BlackWins, "the engine's last scores");
        }
        if b == 0 && occurrences >= 2 {
            return decided(GameResult::Draw, "repetition with a drawn score");
        }
        if line.len() >= LONG_GAME && a.abs() <= LEVEL && b.abs() <= LEVEL {
            return decided(GameResult::Draw, "level scores in a long game");
        }
    }
    FinishedGame {
        line,
        result: None,
        reason: "unknown",
    }
}

/// What learning changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Moves added to the book.
    pub added: usize,
    /// Nodes whose results were corrected (0 when the result is unknown).
    pub counted: usize,
}

/// Adds the game's line to the book up to `max_plies` plies and counts its result along it.
pub fn learn(
    book: &mut Book,
    outcome: &FinishedGame,
    engine: &[EngineMove],
    max_plies: usize,
) -> Learned {
    let mut learned = Learned::default();
    let depth = outcome.line.len().min(max_plies);
    let mut board = Board::default();
    if depth == 0 {
        return learned;
    }
    let first = MoveCode::encode(&board, outcome.line[0]);
    if book.reply(ROOT, first).is_none() {
        return learned;
    }
    let mut node = ROOT;
    let mut path = vec![ROOT];
    for &mv in &outcome.line[..depth] {
        if !board.is_legal(mv) {
            break;
        }
        let code = MoveCode::encode(&board, mv);
        node = match book.reply(node, code) {
            Some(existing) => existing,
            None => {
                learned.added += 1;
                book.add_reply(node, code)
            }
        };
        board.play_unchecked(mv);
        path.push(node);
    }
    if learned.added > 0 {
        let leaf_ply = path.len() - 1;
        let score = engine
            .iter()
            .filter(|m| m.ply >= leaf_ply)
            .find_map(|m| m.score)
            .or_else(|| engine.iter().rev().find_map(|m| m.score))
            .unwrap_or(0);
        book.set_eval(node, score);
    }
    if let Some(result) = outcome.result {
        for &n in &path {
            book.add_games(n, 1, result.white_points());
        }
        learned.counted = path.len();
    }
    book.minimax();
    learned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::probe::{choose, encode_line, Rng};
    use crate::book::tree::tests::add_line;

    fn game(moves: &str) -> Game {
        let moves: Vec<&str> = moves.split_whitespace().collect();
        Game::from_uci(None, &moves, false).unwrap()
    }

    fn searched(game: &Game, mv: &str, score: i32) -> EngineMove {
        let mv = crate::rules::notation::move_from_uci(game.board(), mv, false).unwrap();
        EngineMove::searched(game.board(), game.moves().len(), mv, score)
    }

    #[test]
    fn infers_results_from_the_final_position_and_the_scores() {
        // Fool's mate delivered by the engine (Black): the final position is mate.
        let g = game("f2f3 e7e5 g2g4");
        let out = infer(&g, &[searched(&g, "d8h4", 31_999)]);
        assert_eq!(
            (out.result, out.reason),
            (Some(GameResult::BlackWins), "checkmate")
        );
        assert_eq!(out.line.len(), 4);
        // The engine (White) was mated: it never saw the last move, but its scores said so.
        let g = game("e2e4 e7e5");
        let engine = [
            EngineMove {
                ply: 0,
                mv: "e2e4".parse().unwrap(),
                score: Some(-900),
            },
            searched(&g, "g1f3", -31_990),
        ];
        assert_eq!(infer(&g, &engine).result, Some(GameResult::BlackWins));
        // Threefold repetition.
        let g = game("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        let out = infer(&g, &[searched(&g, "f6g8", 0)]);
        assert_eq!(
            (out.result, out.reason),
            (Some(GameResult::Draw), "threefold repetition")
        );
        // A short game abandoned with level scores: unknown.
        let g = game("e2e4 e7e5 g1f3");
        let out = infer(&g, &[searched(&g, "b8c6", 12)]);
        assert_eq!((out.result, out.reason), (None, "unknown"));
    }

    #[test]
    fn learning_adds_an_unseen_line_and_corrects_ratings() {
        let mut book = Book::new(12);
        let leaf = add_line(&mut book, "e2e4 e7e5 g1f3");
        book.set_eval(leaf, 10);
        book.minimax();
        let before = book.len();
        // The opponent (Black) left the book with 1...c5; the engine won.
        let line = "e2e4 c7c5 g1f3 d7d6 d2d4";
        let g = game(line);
        let engine = [EngineMove {
            ply: 2,
            mv: "g1f3".parse().unwrap(),
            score: Some(60),
        }];
        let outcome = FinishedGame {
            line: g.moves().to_vec(),
            result: Some(GameResult::WhiteWins),
            reason: "test",
        };
        let learned = learn(&mut book, &outcome, &engine, 4);
        assert_eq!(
            learned,
            Learned {
                added: 3,
                counted: 5
            }
        );
        assert_eq!(book.len(), before + 3);
        book.check().unwrap();
        let new_leaf = book.walk(&encode_line(&g.moves()[..4])).unwrap();
        assert_eq!(book.eval(new_leaf), 60);
        assert_eq!((book.games(new_leaf), book.points(new_leaf)), (1, 2));
        assert_eq!(book.games(ROOT), 1);
        // Black now answers 1.e4 from the book; 1...c5 (⩲ for White) is avoided.
        let mut rng = Rng::seeded(9);
        let reply = choose(&book, &game("e2e4"), 12, &mut rng).unwrap();
        assert_eq!(reply.mv.to_string(), "e7e5");
        // A line outside the trees is not added.
        let outside = FinishedGame {
            line: game("b2b3 e7e5").moves().to_vec(),
            result: Some(GameResult::Draw),
            reason: "test",
        };
        assert_eq!(learn(&mut book, &outside, &[], 12), Learned::default());
    }

    #[test]
    fn learning_survives_a_crash_in_mid_write() {
        let dir = std::env::temp_dir().join(format!("tropa-learn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("learn.tbk");
        let mut book = Book::new(12);
        let leaf = add_line(&mut book, "d2d4 d7d5 c2c4");
        book.set_eval(leaf, 5);
        book.minimax();
        book.save(&path).unwrap();
        let saved = std::fs::read(&path).unwrap();
        // Learn a game, then "crash" while writing it: the writer got as far as half of the new
        // file in its temporary file and died before the rename.
        let g = game("d2d4 g8f6 c2c4 e7e6");
        let outcome = FinishedGame {
            line: g.moves().to_vec(),
            result: Some(GameResult::Draw),
            reason: "test",
        };
        learn(&mut book, &outcome, &[], 12);
        let new_bytes = book.to_bytes();
        let tmp = dir.join(".tmpHalf01");
        std::fs::write(&tmp, &new_bytes[..new_bytes.len() / 2]).unwrap();
        // Nothing is lost: the book on disk is the old one, whole, and loads.
        assert_eq!(std::fs::read(&path).unwrap(), saved);
        let reloaded = Book::load(&path).unwrap();
        assert!(reloaded.walk(&encode_line(&g.moves()[..2])).is_none());
        // A file cut short (what writing in place would have left) is refused, never used.
        let cut = dir.join("cut.tbk");
        std::fs::write(&cut, &new_bytes[..new_bytes.len() - 3]).unwrap();
        assert!(Book::load(&cut)
            .unwrap_err()
            .to_string()
            .contains("cut.tbk"));
        // The next save goes through; the dead writer's temporary is never taken for the book.
        book.save(&path).unwrap();
        let after = Book::load(&path).unwrap();
        assert!(after.walk(&encode_line(g.moves())).is_some());
        assert_eq!(
            std::fs::read(&tmp).unwrap(),
            &new_bytes[..new_bytes.len() / 2]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
