//! `POST /api/study`: PIONEER's study mode on a position, as `tropa study --leaf-depth 0` runs
//! it — the zone search (both sides on combinations and zone moves), then the proof of its
//! verdict with the defender on every legal move, and every first move with a tree and a proof
//! of its own.
//!
//! Design note: the study is `pioneer::uses::study::solve` and `proof::prove_study` with their
//! default budgets and no leaf judge (the zone model alone, which keeps one request within a
//! few seconds; the command's default judges a proof's leaves by a search as well). Its progress
//! is the record of the proof's rounds (horizon, budget, tree size, complete or not), answered
//! with the verdicts; the lines come in UCI and SAN, so that the page can play them on the
//! board. It takes a place of the plan analyses (`api::MAX_PLAN_ANALYSES`).

use super::api::{board_of, required_text, ApiError, PLAN_PATIENCE};
use super::Slots;
use crate::explain::json::line_json;
use crate::pioneer::uses::proof::{prove_study, Proof, ProofRound, MAX_PROOF_POSITIONS};
use crate::pioneer::uses::study::{solve, StudyResult, StudySettings, MAX_POSITIONS};
use crate::rules::notation::{move_to_san, move_to_uci};
use crate::rules::{Board, Move};
use serde_json::{json, Value};
use std::sync::Arc;

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

/// `POST /api/study {"fen"}`: the study of the position (see the module note).
pub(super) fn study(body: &Value, places: &Arc<Slots>) -> Result<Value, ApiError> {
    let board = board_of(required_text(body, "fen")?)?;
    let _place = places
        .take_within(PLAN_PATIENCE)
        .ok_or_else(|| ApiError::busy("every place for an analysis is taken by other pages"))?;
    let settings = StudySettings::default();
    let study = solve(
        &board,
        None,
        &settings,
        false,
        MAX_POSITIONS,
        true,
        &mut |_| {},
    );
    let mut rounds = Vec::new();
    let proofs = prove_study(
        &board,
        &study,
        &settings,
        MAX_PROOF_POSITIONS,
        &mut |mv: Option<Move>, round: &ProofRound| {
            rounds.push(json!({
                "move": mv.map(|m| move_to_san(&board, m)),
                "horizon": round.horizon,
                "mate": round.mate,
                "budget": round.budget,
                "positions": round.positions,
                "complete": round.complete,
                "ms": round.elapsed.as_millis() as u64,
            }))
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
                "uci": move_to_uci(&board, first.mv, false),
                "san": move_to_san(&board, first.mv),
                "zone_move": first.zone_move,
                "searched": first.result.positions > 0,
                "zone_search": result_json(&board, &first.result),
                "proof": proof.as_ref().map(|p| proof_json(&after, p)),
            })
        })
        .collect();
    Ok(json!({
        "fen": crate::rules::write_fen(&board, false),
        "zone_search": result_json(&board, &study.root),
        "proof": proof_json(&board, &proofs.root),
        "rounds": rounds,
        "first_moves": first_moves,
    }))
}
