//! PIONEER's study mode on a position, as `tropa study` runs it — the zone search (both sides
//! on combinations and zone moves), then the proof of its verdict with the defender on every
//! legal move, and every first move with a tree and a proof of its own — in two forms:
//! `GET /api/study?page=ID&fen=…` streams its progress as Server-Sent Events for the page, and
//! `POST /api/study {"fen"}` answers the whole study at once for a script.
//!
//! Design note: a proof's horizon leaves are judged by a search of `leaf_depth` plies with the
//! built-in net (`leaf_search::study_judge`, the command's default `proof::LEAF_DEPTH`; 0: the
//! zone model alone, in seconds), which takes Réti's study tens of seconds: hence the stream.
//! It sends a `zone` event for each first move's zone search, a `round` event for each round of
//! each proof (with the share of that proof's budget taken: the page's progress bar), and the
//! whole study last as a `study` event, the same object the POST answers. The lines come in
//! UCI and SAN, so that the page can play them on the board. A study takes a place of the plan
//! analyses (`api::MAX_PLAN_ANALYSES`); a page has one study at a time (a new one, a closed
//! page or `POST /api/stop` stops it, through `StudySettings::stop`).

use super::api::{board_of, required_text, ApiError, PLAN_PATIENCE};
use super::live::{event, number, query_fields, query_page, stream_work, study_key, Searches};
use super::{respond_error, Slots};
use crate::eval::nnue;
use crate::explain::json::line_json;
use crate::leaf_search::study_judge;
use crate::pioneer::uses::proof::{
    prove_study, Proof, ProofRound, LEAF_DEPTH, MAX_PROOF_POSITIONS,
};
use crate::pioneer::uses::study::{solve, StudyResult, StudySettings, MAX_POSITIONS};
use crate::rules::notation::{move_to_san, move_to_uci};
use crate::rules::{Board, Move};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tiny_http::Request;

/// The deepest leaf search a request may ask for (the command's limit too).
const MAX_LEAF_DEPTH: u32 = 20;

/// A zone-search or proof tree's result: its verdict, line and size.
fn result_json(board: &Board, result: &StudyResult) -> Value {
    json!({
        "verdict": result.verdict.to_string(),
        "line": line_json(board, &result.line),
        "positions": result.positions,
        "horizon": result.horizon,
        "complete": result.complete,
    })
}

/// A proof: what it proves in words, and its tree.
fn proof_json(board: &Board, proof: &Proof) -> Value {
    json!({
        "summary": proof.summary(),
        "proven": proof.is_proven(),
        "rounds": proof.rounds,
        "ms": proof.elapsed.as_millis() as u64,
        "result": result_json(board, &proof.result),
    })
}

/// The settings of a study whose leaves a search of `leaf_depth` plies judges (none with 0),
/// ended when `stop` is on.
fn settings(leaf_depth: u32, stop: Arc<AtomicBool>) -> StudySettings {
    StudySettings {
        judge: (leaf_depth > 0).then(|| study_judge(leaf_depth, Some(nnue::builtin()))),
        stop: Some(stop),
        ..StudySettings::default()
    }
}

/// Runs the study of `board` with `settings` (its leaves judged `leaf_depth` plies deep),
/// passing each first move's zone search (`zone`) and each proof round (`round`) to `on_event`
/// as they come; the whole study.
fn run(
    board: &Board,
    settings: &StudySettings,
    leaf_depth: u32,
    on_event: &mut dyn FnMut(&str, Value),
) -> Value {
    let study = solve(
        board,
        None,
        settings,
        false,
        MAX_POSITIONS,
        true,
        &mut |first| {
            let zone = json!({
                "san": move_to_san(board, first.mv),
                "verdict": first.result.verdict.to_string(),
                "positions": first.result.positions,
            });
            on_event("zone", zone);
        },
    );
    let mut rounds = Vec::new();
    let proofs = prove_study(
        board,
        &study,
        settings,
        MAX_PROOF_POSITIONS,
        &mut |mv: Option<Move>, round: &ProofRound| {
            let round = json!({
                "move": mv.map(|m| move_to_san(board, m)),
                "horizon": round.horizon,
                "mate": round.mate,
                "budget": round.budget,
                "positions": round.positions,
                "complete": round.complete,
                "progress": round.progress(),
                "max_positions": round.max_positions,
                "ms": round.elapsed.as_millis() as u64,
            });
            on_event("round", round.clone());
            rounds.push(round);
        },
    );
    let first_moves: Vec<Value> = study
        .first_moves
        .iter()
        .zip(&proofs.first_moves)
        .map(|(first, proof)| {
            let mut after = board.clone();
            after.play_unchecked(first.mv);
            json!({
                "uci": move_to_uci(board, first.mv, false),
                "san": move_to_san(board, first.mv),
                "zone_move": first.zone_move,
                "searched": first.result.positions > 0,
                "zone_search": result_json(board, &first.result),
                "proof": proof.as_ref().map(|p| proof_json(&after, p)),
            })
        })
        .collect();
    json!({
        "fen": crate::rules::write_fen(board, false),
        "leaf_depth": leaf_depth,
        "stopped": settings.stopped(),
        "zone_search": result_json(board, &study.root),
        "proof": proof_json(board, &proofs.root),
        "rounds": rounds,
        "first_moves": first_moves,
    })
}

/// The place of a study among the plan analyses, or a 503.
fn take_place(places: &Arc<Slots>) -> Result<super::Slot, ApiError> {
    places
        .take_within(PLAN_PATIENCE)
        .ok_or_else(|| ApiError::busy("every place for an analysis is taken by other pages"))
}

/// The leaf depth a request asks for: `LEAF_DEPTH` by default.
fn leaf_depth(asked: Option<&str>) -> Result<u32, ApiError> {
    asked.map_or(Ok(LEAF_DEPTH), |d| {
        number("leaf_depth", d, 0..=MAX_LEAF_DEPTH)
    })
}

/// `POST /api/study {"fen", "leaf_depth"}`: the whole study of the position at once.
pub(super) fn study(body: &Value, places: &Arc<Slots>) -> Result<Value, ApiError> {
    let board = board_of(required_text(body, "fen")?)?;
    let depth = match body.get("leaf_depth") {
        None | Some(Value::Null) => LEAF_DEPTH,
        Some(value) => value
            .as_u64()
            .filter(|&d| d <= u64::from(MAX_LEAF_DEPTH))
            .map(|d| d as u32)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "\"leaf_depth\" must be a number from 0 to {MAX_LEAF_DEPTH}"
                ))
            })?,
    };
    let _place = take_place(places)?;
    let settings = settings(depth, Arc::new(AtomicBool::new(false)));
    Ok(run(&board, &settings, depth, &mut |_, _| {}))
}

/// `GET /api/study?page=ID&fen=…&leaf_depth=N`: the study streamed (see the module note).
pub(super) fn stream(request: Request, query: &str, searches: &Searches, places: &Arc<Slots>) {
    let asked = query_fields(query).and_then(|fields| {
        let page = query_page(&fields)?;
        let fen = fields.get("fen").ok_or_else(|| {
            ApiError::bad_request("\"fen\" is missing from the query".to_string())
        })?;
        let depth = leaf_depth(fields.get("leaf_depth").map(String::as_str))?;
        Ok((page, board_of(fen)?, depth))
    });
    let (page, board, depth) = match asked {
        Ok(asked) => asked,
        Err(e) => return respond_error(request, &e),
    };
    let key = study_key(&page);
    // The page's old study gives its place back as it stops.
    searches.stop(&key);
    let place = match take_place(places) {
        Ok(place) => place,
        Err(e) => return respond_error(request, &e),
    };
    let switch = Arc::new(AtomicBool::new(false));
    let settings = settings(depth, Arc::clone(&switch));
    let work = move |events: std::sync::mpsc::Sender<String>| {
        // A page gone: the stream's thread stops the study, and the sends fail unheard.
        let mut send = |name: &str, data: Value| {
            let _ = events.send(event(name, &data));
        };
        let study = run(&board, &settings, depth, &mut send);
        send("study", study);
        drop(place);
    };
    let stop = Arc::new(move || switch.store(true, Ordering::Relaxed));
    stream_work(request, searches, &key, stop, ": studying\n\n", work);
}
