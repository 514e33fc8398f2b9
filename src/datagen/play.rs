//! One self-play game: a varied start, then the search's best move at a node limit until the
//! game ends or is adjudicated.
//!
//! Design note: a game is a function of the run's seed, its index and the openings, so that runs
//! are reproducible and a resumed run plays the games a whole run would have played. The engine
//! is cleared before each game (table and histories) for the same reason. The random plies
//! after the opening are one more for half of the games: the side that moves first after them
//! punishes the last random blunder, so an even count alone hands White the better starts.
//! Adjudication: a score beyond `DECIDED_SCORE` held by the same side for `DECIDED_PLIES` plies
//! wins; draws by the rules (stalemate, repetition, fifty moves, insufficient material); a
//! position the tablebases cover (when given) ends with their verdict, a cursed win or blessed
//! loss counting as the draw the fifty-move rule makes it; a score within `QUIET_DRAW_SCORE` for
//! `QUIET_DRAW_PLIES` plies after ply `QUIET_DRAW_FROM` is a draw, and so is a game longer than
//! `MAX_GAME_PLIES`.

use super::format::{GameRecord, Outcome, Ply};
use crate::eval::insufficient_material;
use crate::rules::{legal_moves, Board, Color, Game, GameStatus, Move};
use crate::search::{Engine, Limits, SearchControl, Silent};
use crate::tablebases::Tablebases;
use crate::util::Rng;
use shakmaty_syzygy::Wdl;

/// A score (centipawns) that decides the game when held long enough.
pub const DECIDED_SCORE: i32 = 1000;
/// Plies the decided score must hold, for the same side.
pub const DECIDED_PLIES: usize = 6;
/// Scores within this of zero count towards a quiet draw.
pub const QUIET_DRAW_SCORE: i32 = 10;
/// Plies of quiet scores that make a draw.
pub const QUIET_DRAW_PLIES: usize = 12;
/// The first ply at which a quiet draw may be adjudicated.
pub const QUIET_DRAW_FROM: usize = 80;
/// Longest game; a longer one is a draw.
pub const MAX_GAME_PLIES: usize = 400;
/// A start whose first search scores beyond this for either side is thrown away.
pub const MAX_START_SCORE: i32 = 200;

/// How games are played.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// Node limit per move.
    pub nodes: u64,
    /// Random legal plies played after the opening (one more in half of the games).
    pub random_plies: usize,
    /// Opening lines to start from (none: the start position).
    pub openings: Vec<Vec<Move>>,
}

/// The start of a game: an opening line (if any) and random plies, or `None` when the position
/// reached has no legal move.
fn random_start(settings: &PlaySettings, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new();
    if !settings.openings.is_empty() {
        let line = &settings.openings[rng.below(settings.openings.len())];
        for &mv in line {
            game.play(mv);
        }
    }
    let plies = settings.random_plies + rng.below(2);
    for _ in 0..plies {
        let moves = legal_moves(game.board());
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]);
    }
    (!legal_moves(game.board()).is_empty()).then_some(game)
}

/// Is the game over by the rules? Returns its outcome from White's view.
fn rules_outcome(game: &Game) -> Option<Outcome> {
    let board = game.board();
    match board.status() {
        GameStatus::Won => {
            return Some(match board.side_to_move() {
                Color::White => Outcome::BlackWin,
                Color::Black => Outcome::WhiteWin,
            })
        }
        GameStatus::Drawn => return Some(Outcome::Draw),
        GameStatus::Ongoing => {}
    }
    let key = game.keys().last().copied();
    let repeats = game.keys().iter().filter(|&&k| Some(k) == key).count();
    (repeats >= 3 || board.halfmove_clock() >= 100 || insufficient_material(board))
        .then_some(Outcome::Draw)
}

/// The tablebases' verdict on the game's position from White's view, when they cover it.
fn tablebase_outcome(game: &Game, tables: &Tablebases) -> Option<Outcome> {
    let board = game.board();
    if board.occupied().len() as usize > tables.max_pieces() {
        return None;
    }
    let mover_wins = match tables.probe_wdl(board)? {
        Wdl::Win => true,
        Wdl::Loss => false,
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => return Some(Outcome::Draw),
    };
    Some(match (board.side_to_move(), mover_wins) {
        (Color::White, true) | (Color::Black, false) => Outcome::WhiteWin,
        _ => Outcome::BlackWin,
    })
}

/// Adjudication by the scores so far (White's view, one per ply).
fn adjudicate(white_scores: &[i32]) -> Option<Outcome> {
    let n = white_scores.len();
    if n >= DECIDED_PLIES {
        let last = &white_scores[n - DECIDED_PLIES..];
        if last.iter().all(|&s| s >= DECIDED_SCORE) {
            return Some(Outcome::WhiteWin);
        }
        if last.iter().all(|&s| s <= -DECIDED_SCORE) {
            return Some(Outcome::BlackWin);
        }
    }
    if n >= QUIET_DRAW_FROM.max(QUIET_DRAW_PLIES)
        && white_scores[n - QUIET_DRAW_PLIES..]
            .iter()
            .all(|s| s.abs() <= QUIET_DRAW_SCORE)
    {
        return Some(Outcome::Draw);
    }
    (n >= MAX_GAME_PLIES).then_some(Outcome::Draw)
}

fn search(engine: &mut Engine, game: &Game, nodes: u64) -> (Option<Move>, i32) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    let result = engine.search(game, &limits, &SearchControl::new(), &mut Silent);
    (result.best, result.score)
}

/// Plays game `index` of the run seeded `seed` with `engine` (one search thread for
/// reproducible games), adjudicating by `tables` when given.
pub fn play_game(
    engine: &mut Engine,
    settings: &PlaySettings,
    tables: Option<&Tablebases>,
    seed: u64,
    index: u32,
) -> GameRecord {
    let mut rng = Rng::for_stream(seed, u64::from(index));
    let (mut game, first) = loop {
        engine.clear();
        let Some(game) = random_start(settings, &mut rng) else {
            continue;
        };
        let first = search(engine, &game, settings.nodes);
        if first.1.abs() <= MAX_START_SCORE {
            break (game, first);
        }
    };
    let start: Board = game.board().clone();
    let mut plies = Vec::new();
    let mut white_scores = Vec::new();
    let mut next = Some(first);
    let outcome = loop {
        if let Some(outcome) =
            rules_outcome(&game).or_else(|| tables.and_then(|t| tablebase_outcome(&game, t)))
        {
            break outcome;
        }
        let (best, score) = next
            .take()
            .unwrap_or_else(|| search(engine, &game, settings.nodes));
        let Some(mv) = best else {
            // Unreachable after the rules' check (a position with no move is decided), but a
            // missing move must not lose the game: call it by the rules again.
            break Outcome::Draw;
        };
        let score = score.clamp(i16::MIN as i32 + 1, i16::MAX as i32);
        plies.push(Ply {
            mv,
            score: score as i16,
        });
        white_scores.push(match game.board().side_to_move() {
            Color::White => score,
            Color::Black => -score,
        });
        game.play(mv);
        if let Some(outcome) = adjudicate(&white_scores) {
            break outcome;
        }
    };
    GameRecord {
        index,
        start,
        plies,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decided_scores_and_quiet_draws_are_adjudicated() {
        let mut scores = vec![0; 10];
        assert_eq!(adjudicate(&scores), None);
        scores.extend([DECIDED_SCORE; DECIDED_PLIES - 1]);
        assert_eq!(adjudicate(&scores), None);
        scores.push(DECIDED_SCORE + 5);
        assert_eq!(adjudicate(&scores), Some(Outcome::WhiteWin));
        let black = vec![-DECIDED_SCORE; DECIDED_PLIES];
        assert_eq!(adjudicate(&black), Some(Outcome::BlackWin));
        let quiet = vec![3; QUIET_DRAW_FROM];
        assert_eq!(adjudicate(&quiet), Some(Outcome::Draw));
        assert_eq!(adjudicate(&quiet[..QUIET_DRAW_FROM - 1]), None);
    }

    /// On the test tables (`tests/data/syzygy`, as the search's tests use).
    #[test]
    fn tablebase_positions_end_with_the_tables_verdict() {
        let tables = crate::tablebases::test_tables();
        let verdict = |fen: &str| {
            let game = Game::from_uci(Some(fen), &[], false).unwrap();
            tablebase_outcome(&game, &tables)
        };
        assert_eq!(
            verdict("1K6/8/5R2/8/3k4/8/8/8 b - - 0 1"),
            Some(Outcome::WhiteWin)
        );
        assert_eq!(
            verdict("1k6/8/5r2/8/3K4/8/8/8 w - - 0 1"),
            Some(Outcome::BlackWin)
        );
        assert_eq!(
            verdict("7K/8/6k1/8/r7/7R/8/8 w - - 0 1"),
            Some(Outcome::Draw)
        );
        assert_eq!(verdict(crate::rules::START_FEN), None);
    }

    /// Half of the starts leave Black to move, so neither side always gets the first chance to
    /// punish the last random ply.
    #[test]
    fn random_starts_leave_either_side_to_move() {
        let settings = PlaySettings {
            nodes: 100,
            random_plies: 4,
            openings: Vec::new(),
        };
        let black = (0..64u64)
            .filter_map(|i| random_start(&settings, &mut Rng::for_stream(3, i)))
            .filter(|g| g.board().side_to_move() == Color::Black)
            .count();
        assert!(
            (16..=48).contains(&black),
            "{black} of 64 starts with Black to move"
        );
    }

    #[test]
    fn mates_and_repetitions_end_games_by_the_rules() {
        let mate = Game::from_uci(None, &["f2f3", "e7e5", "g2g4", "d8h4"], false).unwrap();
        assert_eq!(rules_outcome(&mate), Some(Outcome::BlackWin));
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let moves: Vec<&str> = shuffle.iter().cycle().take(8).copied().collect();
        let repeated = Game::from_uci(None, &moves, false).unwrap();
        assert_eq!(rules_outcome(&repeated), Some(Outcome::Draw));
        let once = Game::from_uci(None, &moves[..4], false).unwrap();
        assert_eq!(rules_outcome(&once), None);
    }

    #[test]
    fn the_generator_depends_on_seed_and_index() {
        let a: Vec<u64> = (0..4).map(|i| Rng::for_stream(1, i).next_u64()).collect();
        let b: Vec<u64> = (0..4).map(|i| Rng::for_stream(2, i).next_u64()).collect();
        assert_ne!(a, b);
        assert_eq!(a[1], Rng::for_stream(1, 1).next_u64());
        assert!(a.windows(2).all(|w| w[0] != w[1]));
    }
}
