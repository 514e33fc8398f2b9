//! `POST /api/annotate`: a game's moves reviewed as `tropa annotate` reviews them, as data for
//! the page — each move's evaluation (White's view, for the graph), its mark (?!, ?, ??, or !,
//! !! for a sacrifice the search confirms), the better move and the engine's line at a move
//! marked bad, and PIONEER's word at a mistake, a blunder or a praised move.
//!
//! Design note: the review is `explain::review`'s, the same as the command's; only its form
//! differs. It searches every position of the game, so it takes a search's place (`live`'s
//! pool) for its whole run, with a fixed time per position (`movetime`, 100 ms by default, at
//! most `MAX_MOVETIME_MS`) and at most `MAX_PLIES` moves, so that one request stays bounded.

use super::api::{first_game, required_text, ApiError};
use super::live::{engine, Searches, SLOT_PATIENCE};
use crate::explain::json::score_json;
use crate::explain::review::{review_game, white_score, Judgement, Praise};
use crate::rules::notation::{line_to_san, move_to_san, move_to_uci};
use crate::rules::write_fen;
use crate::search::Limits;
use serde_json::{json, Value};

/// Search time per position when the request names none, in milliseconds.
const DEFAULT_MOVETIME_MS: u64 = 100;
/// The longest search time per position a request may ask for, in milliseconds.
const MAX_MOVETIME_MS: u64 = 2000;
/// The longest game reviewed, in moves of both sides.
const MAX_PLIES: usize = 400;

/// A mark as people write it.
fn symbol(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "?!",
        Judgement::Mistake => "?",
        Judgement::Blunder => "??",
    }
}

/// `POST /api/annotate {"pgn", "movetime"?}`: the first game of the text, reviewed.
pub(super) fn annotate(body: &Value, searches: &Searches) -> Result<Value, ApiError> {
    let movetime = match body.get("movetime") {
        None | Some(Value::Null) => DEFAULT_MOVETIME_MS,
        Some(value) => value
            .as_u64()
            .filter(|ms| (1..=MAX_MOVETIME_MS).contains(ms))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "\"movetime\" must be milliseconds from 1 to {MAX_MOVETIME_MS}"
                ))
            })?,
    };
    let (pgn, _) = first_game(required_text(body, "pgn")?)?;
    let moves = pgn.game.moves();
    if moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(format!(
            "the game has {} moves; at most {MAX_PLIES} are annotated",
            moves.len()
        )));
    }
    let _place = searches
        .places
        .take_within(SLOT_PATIENCE)
        .ok_or_else(|| ApiError::busy("every place for a search is taken by other pages"))?;
    let limits = Limits {
        movetime: Some(movetime),
        ..Default::default()
    };
    let review = review_game(pgn.game.start(), moves, &mut engine(), &limits, &mut || {});
    let evaluation = |i: usize| {
        white_score(&review.verdicts[i], &review.boards[i]).map_or(Value::Null, score_json)
    };
    let reviewed: Vec<Value> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let board = &review.boards[i];
            let line = &review.verdicts[i].line;
            let judgement = review.judgements[i];
            let better = judgement.and(line.first()).map(|&best| {
                json!({
                    "uci": move_to_uci(board, best, false),
                    "san": move_to_san(board, best),
                    "line": line_to_san(board, line),
                })
            });
            json!({
                "uci": move_to_uci(board, mv, false),
                "san": move_to_san(board, mv),
                "fen": write_fen(&review.boards[i + 1], false),
                "eval": evaluation(i + 1),
                "judgement": judgement.map(|j| j.word().to_lowercase()),
                "praise": review.praises[i].map(|p| p.word().to_lowercase()),
                "mark": judgement.map(symbol).or(review.praises[i].map(Praise::symbol)),
                "better": better,
                "idea": review.ideas[i],
            })
        })
        .collect();
    Ok(json!({
        "start_fen": write_fen(pgn.game.start(), false),
        "start_eval": evaluation(0),
        "result": pgn.result,
        "movetime": movetime,
        "moves": reviewed,
    }))
}
