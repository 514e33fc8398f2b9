//! Reviewing a game's moves as `tropa annotate` and the page of `tropa serve` show them: every
//! position searched once, in order, with one engine whose table carries over from move to move;
//! each played move judged by the fall in the mover's winning chances, and at a mistake or
//! blunder PIONEER's word on it.
//!
//! Design note: the played move's cost is the fall in the mover's winning chances from the
//! position before it to the position after it, with lichess's curve (chances = 2 / (1 +
//! e^(-0.00368208 cp)) - 1, from -1 to +1) and lichess's thresholds: a fall of 0.1 is an
//! inaccuracy, 0.2 a mistake, 0.3 a blunder; the engine's own first move is never marked. At a
//! mistake or blunder PIONEER names the combination the better move was, when it is one of
//! PIONEER's (`zones::combination`: "31.Nh5+ was a decoy: …"), and otherwise quotes its first
//! plan for the mover, the turning point's idea. A good move is marked too: a sacrifice (the
//! move loses at least a pawn by the static exchange on its square) that the search confirms
//! (it is the search's own best move, or costs under `CONFIRMED_FALL` in winning chances) and
//! that leaves the mover better (chances `GOOD_CHANCES`, about +0.55) is good, `!`; one that
//! gives up two pawns or more (a piece for a pawn) and leaves the mover winning (`WINNING_CHANCES`, about +3.00, the
//! proofs' win) is brilliant, `!!`. Its comment is PIONEER's reading: the combination it is,
//! else the plans it begins, else that PIONEER has none. How the review is written (PGN
//! comments, JSON) is the caller's.

use super::ending::{ending, Ending};
use crate::rules::notation::line_to_numbered_san;
use crate::rules::{Board, Color, Game, Move};
use crate::search::{is_mate_score, Engine, Limits, Score, SearchControl, Silent};

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

    /// The NAG of PGN: `$6`, `$2`, `$4`.
    pub fn nag(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "$6",
            Judgement::Mistake => "$2",
            Judgement::Blunder => "$4",
        }
    }

    /// The word: Inaccuracy, Mistake, Blunder.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// How good a played sacrifice was (see the module note).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Praise {
    /// ! — a sacrifice the search confirms, leaving the mover better.
    Good,
    /// !! — a piece or more given up, the search confirming a win.
    Brilliant,
}

impl Praise {
    /// The NAG of PGN: `$1`, `$3`.
    pub fn nag(self) -> &'static str {
        match self {
            Praise::Good => "$1",
            Praise::Brilliant => "$3",
        }
    }

    /// The mark as people write it: `!`, `!!`.
    pub fn symbol(self) -> &'static str {
        match self {
            Praise::Good => "!",
            Praise::Brilliant => "!!",
        }
    }

    /// The word: Good move, Brilliant move.
    pub fn word(self) -> &'static str {
        match self {
            Praise::Good => "Good move",
            Praise::Brilliant => "Brilliant move",
        }
    }
}

/// The most a praised move may cost in winning chances when it is not the search's own move.
const CONFIRMED_FALL: f64 = 0.05;
/// The mover's winning chances after a good move, at least (about +0.55).
const GOOD_CHANCES: f64 = 0.2;
/// The mover's winning chances after a brilliant move, at least (about +3.00).
const WINNING_CHANCES: f64 = 0.5;
/// Material a sacrifice gives up by the exchange on its square, at least (a pawn), and a
/// brilliant one (two pawns: a piece for a pawn), in the exchange's centipawns.
const SACRIFICE: i32 = 100;
const PIECE_SACRIFICE: i32 = 200;

/// The praise `mv`, played in `board`, deserves: `fall`, what it cost in winning chances,
/// `after`, the mover's chances after it, `best`, the search's move.
fn praise(board: &Board, mv: Move, best: Option<Move>, fall: f64, after: f64) -> Option<Praise> {
    let given = -crate::rules::see::see(board, mv);
    let confirmed = best == Some(mv) || fall < CONFIRMED_FALL;
    if given < SACRIFICE || !confirmed || after < GOOD_CHANCES {
        return None;
    }
    Some(if given >= PIECE_SACRIFICE && after >= WINNING_CHANCES {
        Praise::Brilliant
    } else {
        Praise::Good
    })
}

/// What the search (or the rules) said of one position.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The value for the side to move, in internal units (mates as mate scores).
    pub score: i32,
    /// The engine's line; empty when the game is over.
    pub line: Vec<Move>,
    /// Set when the position ends the game.
    pub ending: Option<Ending>,
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

/// The verdict's value from White's view: `None` for a mated side (the game is over), a draw for
/// another ending.
pub fn white_score(v: &Verdict, board: &Board) -> Option<Score> {
    let sign = if board.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    match v.ending {
        Some(Ending::Checkmate { .. }) => None,
        Some(_) => Some(Score::Centipawns(0)),
        None => Some(match Score::from_internal(v.score) {
            Score::Centipawns(cp) => Score::Centipawns(sign * cp),
            Score::Mate(m) => Score::Mate(sign * m),
        }),
    }
}

/// The search's (or the rules') verdict on the game's current position.
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

/// A reviewed game: its positions, what the search said of each, and each move's judgement.
pub struct GameReview {
    /// Every position of the game, the start first.
    pub boards: Vec<Board>,
    /// The verdict on each position.
    pub verdicts: Vec<Verdict>,
    /// Each played move's judgement, if it deserves one.
    pub judgements: Vec<Option<Judgement>>,
    /// Each played move's praise, if it deserves one (never with a judgement).
    pub praises: Vec<Option<Praise>>,
    /// At a mistake or blunder, PIONEER's word on it (a missed combination, or its first plan
    /// for the mover); at a praised move, its reading of the move.
    pub ideas: Vec<Option<String>>,
}

/// Reviews the game from `start` through `moves` (legal, in order), calling `searched` after
/// each position but the last.
pub fn review_game(
    start: &Board,
    moves: &[Move],
    engine: &mut Engine,
    limits: &Limits,
    searched: &mut dyn FnMut(),
) -> GameReview {
    let mut game = Game::from_board(start.clone(), false);
    let mut verdicts = Vec::with_capacity(moves.len() + 1);
    let mut boards = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        verdicts.push(judge(engine, &game, limits));
        boards.push(game.board().clone());
        if let Some(&mv) = moves.get(i) {
            game.play(mv);
            searched();
        }
    }
    let mut judgements = Vec::with_capacity(moves.len());
    let mut praises = Vec::with_capacity(moves.len());
    let mut ideas = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let (before, after) = (&verdicts[i], &verdicts[i + 1]);
        let best = before.line.first().copied();
        // The mover's chances before, against the opponent's after, seen from the mover.
        let fall = chances(before) + chances(after);
        let judgement = Judgement::of(fall).filter(|_| best.is_some() && best != Some(mv));
        let praised = match (judgement, after.ending) {
            (None, None) => praise(&boards[i], mv, best, fall, -chances(after)),
            _ => None,
        };
        let idea = match (judgement, best) {
            (Some(j), Some(best)) if j >= Judgement::Mistake => {
                missed_combination(&boards[i], best).or_else(|| pioneer_plan(&boards[i]))
            }
            _ => praised.map(|_| sacrifice_reading(&boards[i], mv)),
        };
        judgements.push(judgement);
        praises.push(praised);
        ideas.push(idea);
    }
    GameReview {
        boards,
        verdicts,
        judgements,
        praises,
        ideas,
    }
}

/// PIONEER's reading of a praised sacrifice `mv`, as a comment sentence: the combination it is
/// ("PIONEER: 30.Ba3 is a deflection: …"), else the plan it begins, else that it has none.
fn sacrifice_reading(board: &Board, mv: Move) -> String {
    let number = line_to_numbered_san(board, &[mv]);
    if let Some(text) = combination_sentence(board, mv) {
        return format!("PIONEER: {number} is {text}.");
    }
    match super::report::reading_of_move(board, mv, super::CheckLimits::default(), 1).first() {
        Some(plan) => {
            // "White: B b2 clears …" without the side, which the move number tells.
            let plan = plan
                .split_once(": ")
                .map_or(plan.as_str(), |(_, rest)| rest);
            format!(
                "PIONEER: {number} is the first move of its plan: {}.",
                plan.replace('}', ")")
            )
        }
        None => format!("PIONEER has no reading of {number}."),
    }
}

/// "a decoy: N g3–h5 offers the knight …" where `mv` is one of PIONEER's combinations that
/// gives material up, for a comment (`None` otherwise).
fn combination_sentence(board: &Board, mv: Move) -> Option<String> {
    use crate::pioneer::zones::combination::combinations;
    use crate::pioneer::zones::combination_text::combination_text;
    let analysis = crate::pioneer::zones::analysis::Analysis::new(
        board,
        crate::pioneer::attacks::attack::TrajectoryLimits::default(),
    );
    // A combination gives material up; a free move against a defender is no sacrifice to
    // name.
    let c = combinations(board, &analysis)
        .into_iter()
        .find(|c| c.mv == mv && c.cost > 0)?;
    let text = combination_text(&analysis, board, &c);
    // "White: Q h6×h7 removes …" without the side, which the move number tells; a brace would
    // end the PGN comment.
    let text = text
        .split_once(": ")
        .map_or(text.as_str(), |(_, rest)| rest);
    let name = c.method.words();
    let article = match name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        true => "an",
        false => "a",
    };
    Some(format!("{article} {name}: {}", text.replace('}', ")")))
}

/// The combination PIONEER sees in the better move `best`, as a comment sentence: "PIONEER:
/// 31.Nh5+ was a decoy: N g3–h5 offers the knight to the pawn on g6, …" (`None` when the move is
/// none of its combinations, or gives nothing up).
fn missed_combination(board: &Board, best: Move) -> Option<String> {
    let text = combination_sentence(board, best)?;
    let number = line_to_numbered_san(board, &[best]);
    Some(format!("PIONEER: {number} was {text}."))
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_sacrifice_is_praised_by_what_it_gives_and_what_the_search_says() {
        let uci = |board: &Board, text: &str| {
            crate::rules::notation::move_from_uci(board, text, false).unwrap()
        };
        // Win at Chess 4: 1.Qxh7+ gives the queen for a pawn and mates.
        let board = crate::rules::parse_fen(
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            false,
        )
        .unwrap();
        let qxh7 = uci(&board, "h6h7");
        assert_eq!(
            praise(&board, qxh7, Some(qxh7), 0.0, 1.0),
            Some(Praise::Brilliant)
        );
        // Only better, not winning: good.
        assert_eq!(
            praise(&board, qxh7, Some(qxh7), 0.0, 0.3),
            Some(Praise::Good)
        );
        // Not the search's move and costing chances, or leaving the mover no better: nothing.
        let a3 = uci(&board, "a2a3");
        assert_eq!(praise(&board, qxh7, Some(a3), 0.08, 1.0), None);
        assert_eq!(praise(&board, qxh7, Some(qxh7), 0.0, 0.1), None);
        // A move that gives nothing up is no sacrifice, however good.
        assert_eq!(praise(&board, a3, Some(a3), 0.0, 1.0), None);
        // The exchange for a knight (two pawns' worth less than the piece): good at most.
        let exchange =
            crate::rules::parse_fen("6k1/5p2/4n1p1/8/8/8/5PPP/4R1K1 w - - 0 1", false).unwrap();
        let rxe6 = uci(&exchange, "e1e6");
        assert_eq!(
            praise(&exchange, rxe6, Some(rxe6), 0.0, 1.0),
            Some(Praise::Good)
        );
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
