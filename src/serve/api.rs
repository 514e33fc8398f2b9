//! The JSON endpoints of `tropa serve`: a position with its legal moves, a move played, a game
//! read from PGN, PIONEER's checked plans, and the errors they answer with (`annotate`, `study`
//! and `live` answer the rest).
//!
//! Design note: the chess stays in Rust. The page never decides a move's legality, its SAN or
//! the position after it: it asks here, and chessground only shows what it is told (`dests`,
//! chessground's map from a square to the squares its piece may go to). Each handler reads its
//! fields from the JSON body, works with `rules`, `book::games` and `explain`, and answers one
//! JSON object; anything wrong becomes an `ApiError`, a 4xx with `{"error": "…"}`.

use super::{Slots, State};
use crate::book::games::{read_games, PgnGame};
use crate::explain::ending::ending;
use crate::explain::json::plans_json;
use crate::explain::CheckLimits;
use crate::pioneer::attacks::attack::TrajectoryLimits;
use crate::pioneer::zones::analysis::Analysis;
use crate::rules::notation::{move_from_text, move_to_san, move_to_uci};
use crate::rules::{legal_moves, parse_fen, side_name, write_fen, Board, Game};
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;
use tiny_http::Method;

/// Plan analyses (and studies) run at once, server-wide; one more waits a little, then gets a
/// 503.
pub(super) const MAX_PLAN_ANALYSES: usize = 2;
/// How long a plan analysis (or a study) waits for a free place before it is refused.
pub(super) const PLAN_PATIENCE: Duration = Duration::from_secs(5);
/// Moves a request may play from its FEN (`/api/position`'s `moves`).
const MAX_MOVES: usize = 2000;

/// An answer other than 200: its status, message and, for a wrong method, the one allowed.
#[derive(Debug)]
pub(super) struct ApiError {
    /// The HTTP status.
    pub(super) status: u16,
    /// What went wrong, for a person.
    pub(super) message: String,
    /// The `Allow` header of a 405.
    pub(super) allow: Option<&'static str>,
}

impl ApiError {
    fn new(status: u16, message: String) -> Self {
        ApiError {
            status,
            message,
            allow: None,
        }
    }

    /// 400: the request says something wrong.
    pub(super) fn bad_request(message: String) -> Self {
        ApiError::new(400, message)
    }

    /// 404: no such page, file or endpoint.
    pub(super) fn not_found(path: &str) -> Self {
        ApiError::new(404, format!("nothing at {path}"))
    }

    /// 405: the path exists, not for this method.
    pub(super) fn method(method: &Method, allowed: &'static str) -> Self {
        ApiError {
            status: 405,
            message: format!("{method} is not allowed here; use {allowed}"),
            allow: Some(allowed),
        }
    }

    /// 413: the body is over the limit.
    pub(super) fn too_large(limit: usize) -> Self {
        ApiError::new(
            413,
            format!("the request body is over the limit of {limit} bytes"),
        )
    }

    /// 503: the server has no place for this work now.
    pub(super) fn busy(what: &str) -> Self {
        ApiError::new(503, format!("{what}; try again in a moment"))
    }

    /// The JSON body: `{"error": "…"}`.
    pub(super) fn body(&self) -> Value {
        json!({ "error": self.message })
    }
}

/// The JSON endpoints, each at `/api/NAME` and answering POST.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Endpoint {
    /// `/api/position`.
    Position,
    /// `/api/move`.
    Move,
    /// `/api/pgn`.
    Pgn,
    /// `/api/plans`.
    Plans,
    /// `/api/annotate`.
    Annotate,
    /// `/api/study`.
    Study,
    /// `/api/stop`.
    Stop,
}

impl Endpoint {
    /// The endpoint at `path`, if any.
    pub(super) fn of_path(path: &str) -> Option<Self> {
        match path {
            "/api/position" => Some(Endpoint::Position),
            "/api/move" => Some(Endpoint::Move),
            "/api/pgn" => Some(Endpoint::Pgn),
            "/api/plans" => Some(Endpoint::Plans),
            "/api/annotate" => Some(Endpoint::Annotate),
            "/api/study" => Some(Endpoint::Study),
            "/api/stop" => Some(Endpoint::Stop),
            _ => None,
        }
    }

    /// The answer to `body`.
    pub(super) fn answer(self, body: &Value, state: &State) -> Result<Value, ApiError> {
        match self {
            Endpoint::Position => position(body),
            Endpoint::Move => play_move(body),
            Endpoint::Pgn => pgn(body),
            Endpoint::Plans => checked_plans(body, &state.plans),
            Endpoint::Annotate => super::annotate::annotate(body, &state.searches),
            Endpoint::Study => super::study::study(body, &state.plans),
            Endpoint::Stop => state.searches.stop_request(body),
        }
    }
}

/// The field `name` of a JSON object, as text, if it is there; an error if it is not text.
pub(super) fn text_field<'a>(body: &'a Value, name: &str) -> Result<Option<&'a str>, ApiError> {
    let Some(object) = body.as_object() else {
        return Err(ApiError::bad_request(
            "the request body must be a JSON object".into(),
        ));
    };
    match object.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(ApiError::bad_request(format!(
            "\"{name}\" must be a string"
        ))),
    }
}

/// The field `name`, which must be there.
pub(super) fn required_text<'a>(body: &'a Value, name: &str) -> Result<&'a str, ApiError> {
    text_field(body, name)?.ok_or_else(|| ApiError::bad_request(format!("\"{name}\" is missing")))
}

/// The position of a FEN, or a 400 saying what is wrong with it.
pub(super) fn board_of(fen: &str) -> Result<Board, ApiError> {
    parse_fen(fen.trim(), false).map_err(|e| ApiError::bad_request(format!("bad FEN: {e}")))
}

/// A game's current position for the page: its FEN, the side to move, the legal moves as
/// chessground's `dests` and in UCI, check, and how the game ended if it did.
fn position_json(game: &Game) -> Value {
    let board = game.board();
    let moves: Vec<String> = legal_moves(board)
        .into_iter()
        .map(|mv| move_to_uci(board, mv, false))
        .collect();
    let mut dests: Map<String, Value> = Map::new();
    for uci in &moves {
        let targets = dests
            .entry(uci[..2].to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        let to = Value::String(uci[2..4].to_string());
        if let Value::Array(list) = targets {
            // A promotion's four moves are one destination.
            if !list.contains(&to) {
                list.push(to);
            }
        }
    }
    let end = ending(game);
    json!({
        "fen": write_fen(board, false),
        "side_to_move": side_name(board.side_to_move()).to_lowercase(),
        "dests": dests,
        "moves": moves,
        "check": !board.checkers().is_empty(),
        "game_over": end.map(|e| e.to_string()),
        "result": end.map(|e| e.result()),
    })
}

/// `POST /api/position {"fen"?, "moves"?: [uci…]}`: the position after the moves.
fn position(body: &Value) -> Result<Value, ApiError> {
    let fen = text_field(body, "fen")?;
    let moves: Vec<&str> = match body.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|m| {
                m.as_str().ok_or_else(|| {
                    ApiError::bad_request("\"moves\" must be a list of UCI moves".into())
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(ApiError::bad_request(
                "\"moves\" must be a list of UCI moves".into(),
            ))
        }
    };
    if moves.len() > MAX_MOVES {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_MOVES} moves, not {}",
            moves.len()
        )));
    }
    if let Some(fen) = fen {
        board_of(fen)?;
    }
    let game = Game::from_uci(fen.map(str::trim), &moves, false)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(position_json(&game))
}

/// `POST /api/move {"fen", "move"}` (the move in UCI or SAN): its SAN and UCI, and the
/// position after it.
fn play_move(body: &Value) -> Result<Value, ApiError> {
    let board = board_of(required_text(body, "fen")?)?;
    let text = required_text(body, "move")?.trim();
    let mv = move_from_text(&board, text, false)
        .map_err(|e| ApiError::bad_request(format!("move '{text}': {e}")))?;
    let san = move_to_san(&board, mv);
    let uci = move_to_uci(&board, mv, false);
    let mut game = Game::from_board(board, false);
    game.play(mv);
    let mut answer = position_json(&game);
    answer["san"] = json!(san);
    answer["uci"] = json!(uci);
    Ok(answer)
}

/// The first game of a PGN text, and messages for the later games that could not be read; a
/// 400 when the first cannot be, or the text holds neither tags nor moves.
pub(super) fn first_game(text: &str) -> Result<(PgnGame, Vec<String>), ApiError> {
    let (games, skipped) = read_games(text.as_bytes(), "PGN");
    let Some(first) = games.into_iter().next() else {
        return Err(ApiError::bad_request(match skipped.first() {
            Some(why) => format!("malformed PGN: {why}"),
            None => "malformed PGN: no game in the text".into(),
        }));
    };
    if first.game.moves().is_empty() && first.tags.is_empty() {
        return Err(ApiError::bad_request(
            "malformed PGN: neither tags nor moves in the text".into(),
        ));
    }
    Ok((first, skipped))
}

/// `POST /api/pgn {"pgn"}`: the first game of the text — its tags, start position, result,
/// and every move of the main line (UCI, SAN and the FEN after it).
fn pgn(body: &Value) -> Result<Value, ApiError> {
    let (first, skipped) = first_game(required_text(body, "pgn")?)?;
    let mut board = first.game.start().clone();
    let moves: Vec<Value> = first
        .game
        .moves()
        .iter()
        .map(|&mv| {
            let (uci, san) = (move_to_uci(&board, mv, false), move_to_san(&board, mv));
            board.play_unchecked(mv);
            json!({ "uci": uci, "san": san, "fen": write_fen(&board, false) })
        })
        .collect();
    let tags: Map<String, Value> = first
        .tags
        .iter()
        .map(|(name, value)| (name.clone(), json!(value)))
        .collect();
    Ok(json!({
        "start_fen": write_fen(first.game.start(), false),
        "tags": tags,
        "result": first.result,
        "moves": moves,
        "skipped": skipped,
    }))
}

/// `POST /api/plans {"fen"}`: `tropa plan --json` for the position (both sides' plans, each
/// first move checked by the search).
fn checked_plans(body: &Value, plans: &Arc<Slots>) -> Result<Value, ApiError> {
    let board = board_of(required_text(body, "fen")?)?;
    let _place = plans
        .take_within(PLAN_PATIENCE)
        .ok_or_else(|| ApiError::busy("every place for a plan analysis is taken by other pages"))?;
    let analysis = Analysis::new(&board, TrajectoryLimits::default());
    Ok(plans_json(&board, &analysis, None, CheckLimits::default()))
}
