//! `tropa plan --json`: the checked plans for programs (a GUI drawing them, a script comparing
//! them with a game).
//!
//! Design note: one object per position — the FEN, the side to move, the check depth — and the
//! plans best first: confirmed plans by their searched score, then those not checked, then the
//! refuted ones; zone order breaks ties. Every field a person reads in `tropa plan` is here too,
//! as data: squares as "e4", moves in UCI and SAN, scores in centipawns from the plan side's view
//! (or `mate`: moves to mate, negative when mated).

use super::{check_plans, ranked, CheckLimits, PlanCheck, PlanStatus};
use crate::pioneer::attack::Goal;
use crate::pioneer::plan::{counter_text, headline, support_text};
use crate::pioneer::zone::Analysis;
use crate::rules::notation::{line_to_san, move_to_san, move_to_uci};
use crate::rules::{side_name, write_fen, Board, Color};
use crate::search::Score;
use serde_json::{json, Value};

/// A score as JSON: `{"cp": n}` or `{"mate": n}`.
fn score_json(score: i32) -> Value {
    match Score::from_internal(score) {
        Score::Centipawns(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

fn plan_json(board: &Board, analysis: &Analysis, check: &PlanCheck) -> Value {
    let zone = &analysis.zones[check.zone];
    let attack = &zone.attack;
    let goal = match attack.goal {
        Goal::Capture { target, piece } => {
            json!({ "kind": "capture", "square": target.to_string(), "piece": format!("{piece:?}").to_lowercase() })
        }
        Goal::Promote { square } => json!({ "kind": "promotion", "square": square.to_string() }),
    };
    let counters: Vec<Value> = zone
        .counters
        .iter()
        .map(|c| json!({ "text": counter_text(c), "in_time": c.in_time() }))
        .collect();
    let supports: Vec<Value> = zone
        .supports
        .iter()
        .map(|s| json!({ "text": support_text(zone, s), "in_time": s.in_time }))
        .collect();
    let first_move = check.first_move.map(|mv| {
        json!({ "uci": move_to_uci(&check.position, mv, false), "san": move_to_san(&check.position, mv) })
    });
    let best = check.best.map(|(mv, score)| {
        json!({
            "uci": move_to_uci(&check.position, mv, false),
            "san": move_to_san(&check.position, mv),
            "score": score_json(score),
        })
    });
    let status = match check.status {
        PlanStatus::Confirmed => "confirmed",
        PlanStatus::Refuted => "refuted",
        PlanStatus::NotPlayable => "not_playable",
    };
    json!({
        "zone": check.zone + 1,
        "side": side_name(check.side).to_lowercase(),
        "text": headline(analysis, board, check.zone),
        "goal": goal,
        "piece": format!("{:?}", attack.piece).to_lowercase(),
        "trajectory": attack.route.squares.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        "duration": attack.route.forecast(),
        "verdict": format!("{:?}", zone.verdict).to_lowercase(),
        "counters": counters,
        "supports": supports,
        "after_pass": check.side != board.side_to_move(),
        "first_move": first_move,
        "status": status,
        "score": check.first_move.map(|_| score_json(check.score)),
        "line": {
            "uci": check.line.iter().scan(check.position.clone(), |b, &mv| {
                let text = move_to_uci(b, mv, false);
                b.play_unchecked(mv);
                Some(text)
            }).collect::<Vec<_>>(),
            "san": line_to_san(&check.position, &check.line),
        },
        "best": best,
    })
}

/// The checked plans of `board` as one JSON object (see the module note).
pub fn plans_json(
    board: &Board,
    analysis: &Analysis,
    side: Option<Color>,
    limits: CheckLimits,
) -> Value {
    let checks = check_plans(board, analysis, limits);
    let plans: Vec<Value> = ranked(&checks)
        .into_iter()
        .filter(|c| side.is_none_or(|s| s == c.side))
        .map(|c| plan_json(board, analysis, c))
        .collect();
    json!({
        "fen": write_fen(board, false),
        "side_to_move": side_name(board.side_to_move()).to_lowercase(),
        "check_depth": limits.depth,
        "plans": plans,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attack::TrajectoryLimits;
    use crate::rules::parse_fen;

    #[test]
    fn refuted_plans_come_last_with_their_line() {
        // Morphy–Harrwitz, Paris 1858: 25…Qxa2 leaves the a8 rook to 26.Nxa8.
        let board = parse_fen(
            "r4bqk/1pN4p/p1bp2r1/4pN2/4P2R/7P/PPP1QRP1/6K1 b - - 0 25",
            false,
        )
        .unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let value = plans_json(&board, &analysis, None, CheckLimits::default());
        let text = value.to_string();
        let back: Value = serde_json::from_str(&text).unwrap();
        let plans = back["plans"].as_array().unwrap();
        assert!(!plans.is_empty());
        let refuted = plans
            .iter()
            .find(|p| p["first_move"]["san"] == "Qxa2")
            .unwrap();
        assert_eq!(refuted["status"], "refuted");
        assert_eq!(refuted["line"]["uci"][0], "g8a2");
        assert_eq!(refuted["trajectory"], json!(["g8", "a2"]));
        assert_eq!(refuted["goal"]["kind"], "capture");
        assert!(refuted["score"]["cp"].as_i64().unwrap() < -100);
        assert_eq!(back["side_to_move"], "black");
        let ranks: Vec<&str> = plans
            .iter()
            .map(|p| p["status"].as_str().unwrap())
            .collect();
        let mut sorted = ranks.clone();
        sorted.sort_by_key(|s| match *s {
            "confirmed" => 0,
            "not_playable" => 1,
            _ => 2,
        });
        assert_eq!(ranks, sorted, "best first");
    }
}
