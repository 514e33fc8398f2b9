//! `tropa plan --json`: the checked plans for programs (a GUI drawing them, a script comparing
//! them with a game).
//!
//! Design note: one object per position — the FEN, the side to move, the check depth — and the
//! plans best first: confirmed plans (`status` `confirmed`, or `not_a_win` for a claimed win the
//! search finds playable but not winning) by their searched score, then those not checked
//! (`not_playable`), then the refuted ones (`refuted`); zone order breaks ties. Each plan carries
//! the `depth` its first move was searched to (claimed wins go deeper). A plan is a zone's attack, or a support, counter or
//! escape of the side to move, or in check an answer to the check (`kind`); `trajectory` is the
//! plan's own, `attack` the one it serves or meets (for an answer, the checking pieces, with the
//! goal `check` on the king's square and `answer` saying how it answers: `capture`, `block` or
//! `flight`); a mate that needs a preparation names it in its goal (`prepared_by`, UCI), and its
//! first move is that preparation. A combination (`kind` `combination`, a move against a piece
//! that hinders the side's play) carries `combination`: its `method` (`removal`, `deflection`,
//! `decoy`, `interference`, `clearance`, `overloading`), the `defender` (square, piece, what it
//! does as `guard` and `text`, the square it `guards`, the `stake` the hindered play wins
//! without it), for an overloading the duty `struck`, and the `cost` the move gives up by the
//! exchange; its `attack` and `goal` are those of the play the defender hinders. The zone's
//! `counters` and `supports` carry their own `piece` and `trajectory`, so that a picture (the
//! page of `tropa serve`) can draw them beside the plan's. Every field a person reads in
//! `tropa plan` is here too, as data: squares as "e4", moves in UCI and SAN,
//! scores in centipawns from the plan side's view (or `mate`: moves to mate, negative when
//! mated).

use super::report::plan_headline;
use super::{check_plans, ranked, CheckLimits, PlanCheck, PlanStatus};
use crate::pioneer::attacks::attack::Goal;
use crate::pioneer::play::moves::{CheckAnswer, StepRole};
use crate::pioneer::uses::plan::{checkers_text, counter_text, support_text};
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::combination::{Combination, Defender, Guard};
use crate::pioneer::zones::combination_text::duty_text;
use crate::pioneer::zones::hindrance::Hindrance;
use crate::rules::notation::{line_to_san, move_to_san, move_to_uci};
use crate::rules::{side_name, write_fen, Board, Color, Move, Piece, Square};
use crate::search::Score;
use serde_json::{json, Value};

/// A score as JSON: `{"cp": n}` or `{"mate": n}` (also the analysis page's).
pub fn score_json(score: Score) -> Value {
    match score {
        Score::Centipawns(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// A line of moves from `board` in UCI and SAN, as far as it is legal (also the analysis
/// page's).
pub fn line_json(board: &Board, line: &[Move]) -> Value {
    let san = line_to_san(board, line);
    let mut after = board.clone();
    let uci: Vec<String> = line[..san.len()]
        .iter()
        .map(|&mv| {
            let text = move_to_uci(&after, mv, false);
            after.play_unchecked(mv);
            text
        })
        .collect();
    json!({ "uci": uci, "san": san })
}

/// Squares as JSON: `["e2", "e4"]`.
fn squares_json(squares: &[Square]) -> Vec<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

/// The moving piece, its trajectory and its forecast duration for a plan of `role`.
fn trajectory(analysis: &Analysis, check: &PlanCheck) -> (Piece, Vec<Square>, u8) {
    match check.role {
        StepRole::Attack { zone } => {
            let a = &analysis.zones[zone].attack;
            (a.piece, a.route.squares.clone(), a.forecast())
        }
        StepRole::Support { zone, support } => {
            let s = &analysis.zones[zone].supports[support];
            (s.piece, s.route.squares.clone(), s.route.forecast())
        }
        StepRole::Counter { zone, counter } => {
            let c = &analysis.zones[zone].counters[counter];
            (c.piece, c.route.squares.clone(), c.needs())
        }
        StepRole::Linked { link, .. } => {
            let l = &analysis.linked[link];
            (l.piece, l.route.squares.clone(), l.route.forecast())
        }
        StepRole::Deblock { square, .. } => {
            let piece = check.position.piece_on(square).unwrap_or(Piece::Pawn);
            let to = check.first_move.map(|mv| mv.to);
            (piece, std::iter::once(square).chain(to).collect(), 1)
        }
        StepRole::Escape { rejected, to } => {
            let target = analysis.rejected[rejected].goal.square();
            let piece = check.position.piece_on(target).unwrap_or(Piece::Pawn);
            (piece, vec![target, to], 1)
        }
        StepRole::AnswerCheck { mv, .. } => {
            let piece = check.position.piece_on(mv.from).unwrap_or(Piece::King);
            (piece, vec![mv.from, mv.to], 1)
        }
        StepRole::Combination(c) => {
            let piece = check.position.piece_on(c.mv.from).unwrap_or(Piece::Pawn);
            (piece, vec![c.mv.from, c.mv.to], 1)
        }
    }
}

/// How an answer to a check answers it, as JSON.
fn answer_json(answer: CheckAnswer) -> Value {
    match answer {
        CheckAnswer::CaptureChecker { checker } => {
            json!({ "kind": "capture", "checker": checker.to_string() })
        }
        CheckAnswer::Block { checker, square } => {
            json!({ "kind": "block", "checker": checker.to_string(), "square": square.to_string() })
        }
        CheckAnswer::KingFlight { to } => json!({ "kind": "flight", "square": to.to_string() }),
    }
}

/// A defender of a combination as JSON: its piece and square, what it does and where.
fn defender_json(analysis: &Analysis, board: &Board, d: &Defender) -> Value {
    let guard = match d.guard {
        Guard::DefendsTarget => "defends_target",
        Guard::ControlsSquare => "controls_square",
        Guard::BlocksSquare => "blocks_square",
        Guard::GuardsMate => "guards_mate",
        Guard::InTheWay => "in_the_way",
        Guard::OwnSquare => "own_square",
        Guard::TakesOffer => "takes_offer",
    };
    json!({
        "square": d.square.to_string(),
        "piece": format!("{:?}", d.piece).to_lowercase(),
        "guard": guard,
        "guards": d.guards.to_string(),
        "text": duty_text(analysis, board, d),
        "stake": d.stake,
    })
}

/// What a combination does, as JSON: its method, the defender and what it guarded, the duty
/// struck at (overloading), and what the move gives up by the exchange.
fn combination_json(analysis: &Analysis, board: &Board, c: &Combination) -> Value {
    json!({
        "method": c.method.name(),
        "defender": defender_json(analysis, board, &c.defender),
        "struck": c.struck.map(|s| defender_json(analysis, board, &s)),
        "cost": c.cost,
    })
}

fn plan_json(board: &Board, analysis: &Analysis, check: &PlanCheck) -> Value {
    let zone = check.zone().map(|i| &analysis.zones[i]);
    let attack = match check.role {
        StepRole::Escape { rejected, .. } => Some(&analysis.rejected[rejected]),
        StepRole::Linked { link, .. } => Some(analysis.linked_attack(&analysis.linked[link])),
        StepRole::AnswerCheck { .. } => None,
        StepRole::Combination(c) => analysis.hindered_attack(c.defender.hindrance),
        _ => Some(
            &zone
                .expect("a zone's attack, support, counter or deblocking has a zone")
                .attack,
        ),
    };
    let mate_guarded = match check.role {
        StepRole::Combination(c) if c.defender.hindrance == Hindrance::Mate => {
            Some(c.defender.guards)
        }
        _ => None,
    };
    let goal = match attack.map(|a| a.goal) {
        Some(Goal::Capture { target, piece }) => {
            json!({ "kind": "capture", "square": target.to_string(), "piece": format!("{piece:?}").to_lowercase() })
        }
        Some(Goal::Promote { square }) => {
            json!({ "kind": "promotion", "square": square.to_string() })
        }
        Some(Goal::Mate { square, prepared }) => json!({
            "kind": "mate",
            "square": square.to_string(),
            "prepared_by": prepared.map(|p| p.as_move().to_string()),
        }),
        None if mate_guarded.is_some() => json!({
            "kind": "mate",
            "square": mate_guarded.map(|s| s.to_string()),
            "prepared_by": Value::Null,
        }),
        None => {
            let king = board.king(board.side_to_move());
            let checkers: Vec<String> = board
                .checkers()
                .into_iter()
                .map(|s| s.to_string())
                .collect();
            json!({ "kind": "check", "square": king.to_string(), "checkers": checkers })
        }
    };
    let counters: Vec<Value> = zone
        .iter()
        .flat_map(|z| z.counters.iter())
        .map(|c| {
            json!({
                "text": counter_text(c),
                "in_time": c.in_time(),
                "piece": format!("{:?}", c.piece).to_lowercase(),
                "trajectory": squares_json(&c.route.squares),
            })
        })
        .collect();
    let supports: Vec<Value> = zone
        .iter()
        .flat_map(|z| z.supports.iter().map(move |s| (z, s)))
        .map(|(z, s)| {
            json!({
                "text": support_text(z, s),
                "in_time": s.in_time,
                "piece": format!("{:?}", s.piece).to_lowercase(),
                "trajectory": squares_json(&s.route.squares),
            })
        })
        .collect();
    let kind = match check.role {
        StepRole::Attack { .. } => "attack",
        StepRole::Support { .. } => "support",
        StepRole::Counter { .. } => "counter",
        StepRole::Escape { .. } => "escape",
        StepRole::Linked { .. } => "linked",
        StepRole::Deblock { .. } => "deblock",
        StepRole::AnswerCheck { .. } => "answer",
        StepRole::Combination(_) => "combination",
    };
    let combination = match check.role {
        StepRole::Combination(c) => combination_json(analysis, board, &c),
        _ => Value::Null,
    };
    let answer = match check.role {
        StepRole::AnswerCheck { answer, .. } => answer_json(answer),
        _ => Value::Null,
    };
    let verdict = match (zone, check.role) {
        (Some(z), _) => format!("{:?}", z.verdict).to_lowercase(),
        (None, StepRole::AnswerCheck { .. }) => "check".to_string(),
        (None, StepRole::Combination(c)) => {
            match (c.defender.hindrance.zone(), c.defender.hindrance) {
                (Some(zone), _) => format!("{:?}", analysis.zones[zone].verdict).to_lowercase(),
                (None, Hindrance::Mate) => "guarded".to_string(),
                (None, _) => "rejected".to_string(),
            }
        }
        (None, _) => "rejected".to_string(),
    };
    let (piece, squares, duration) = trajectory(analysis, check);
    let first_move = check.first_move.map(|mv| {
        json!({ "uci": move_to_uci(&check.position, mv, false), "san": move_to_san(&check.position, mv) })
    });
    let best = check.best.map(|(mv, score)| {
        json!({
            "uci": move_to_uci(&check.position, mv, false),
            "san": move_to_san(&check.position, mv),
            "score": score_json(Score::from_internal(score)),
        })
    });
    let status = match check.status {
        PlanStatus::Confirmed => "confirmed",
        PlanStatus::NotAWin => "not_a_win",
        PlanStatus::Refuted => "refuted",
        PlanStatus::NotPlayable => "not_playable",
    };
    let critical = match check.role {
        StepRole::Linked { link, .. } => {
            let l = &analysis.linked[link];
            json!({
                "square": l.critical.square.to_string(),
                "hinderer": l.critical.hinderer.to_string(),
                "stops_hinderer": l.stops_hinderer,
                "composite_wins": l.wins,
            })
        }
        _ => Value::Null,
    };
    json!({
        "kind": kind,
        "zone": check.zone().map(|i| i + 1),
        "critical": critical,
        "side": side_name(check.side).to_lowercase(),
        "text": plan_headline(analysis, board, check),
        "attack": attack.map_or_else(|| checkers_text(board), |a| a.notation()),
        "goal": goal,
        "answer": answer,
        "combination": combination,
        "piece": format!("{piece:?}").to_lowercase(),
        "trajectory": squares_json(&squares),
        "duration": duration,
        "verdict": verdict,
        "counters": counters,
        "supports": supports,
        "after_pass": check.side != board.side_to_move(),
        "first_move": first_move,
        "status": status,
        "score": check.first_move.map(|_| score_json(Score::from_internal(check.score))),
        "depth": check.depth,
        "line": line_json(&check.position, &check.line),
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
        "check_depth": checks.iter().map(|c| c.depth).max().unwrap_or(limits.depth),
        "plans": plans,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
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
        assert_eq!(refuted["kind"], "attack");
        // Not called a win once the search refutes it.
        let words = refuted["text"].as_str().unwrap();
        assert!(words.contains("would win the a2 pawn"), "{words}");
        assert!(refuted["score"]["cp"].as_i64().unwrap() < -100);
        assert_eq!(back["side_to_move"], "black");
        let ranks: Vec<&str> = plans
            .iter()
            .map(|p| p["status"].as_str().unwrap())
            .collect();
        let mut sorted = ranks.clone();
        sorted.sort_by_key(|s| match *s {
            "confirmed" | "not_a_win" => 0,
            "not_playable" => 1,
            _ => 2,
        });
        assert_eq!(ranks, sorted, "best first");
    }

    #[test]
    fn a_combination_names_its_method_and_defender() {
        // Win at Chess 4: 1.Qxh7+ removes the pawn h7, which keeps the mate on h7 off.
        let board = parse_fen(
            "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
            false,
        )
        .unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let value = plans_json(&board, &analysis, None, CheckLimits::default());
        let first = &value["plans"][0];
        assert_eq!(first["kind"], "combination", "{first}");
        assert_eq!(first["first_move"]["san"], "Qxh7+");
        assert_eq!(first["status"], "confirmed");
        let combination = &first["combination"];
        assert_eq!(combination["method"], "removal");
        assert_eq!(combination["defender"]["square"], "h7");
        assert_eq!(combination["defender"]["piece"], "pawn");
        assert_eq!(combination["cost"], 850);
        assert!(first["goal"]["kind"] == "mate", "{first}");
        assert!(
            combination["defender"]["text"]
                .as_str()
                .unwrap()
                .starts_with("controls g6 against Q h6–h7#"),
            "{combination}"
        );
    }

    #[test]
    fn a_prepared_mate_starts_with_its_preparation() {
        // Q h5–h7# after N f3–g5: the plan's first move is the knight's.
        let board = parse_fen("5rk1/5ppp/8/7Q/8/5N2/5PPP/6K1 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let value = plans_json(&board, &analysis, None, CheckLimits::default());
        let plans = value["plans"].as_array().unwrap();
        let mate = plans
            .iter()
            .find(|p| p["kind"] == "attack" && p["goal"]["kind"] == "mate")
            .expect("the mate zone");
        assert_eq!(mate["goal"]["square"], "h7");
        assert_eq!(mate["goal"]["prepared_by"], "f3g5");
        assert_eq!(mate["first_move"]["san"], "Ng5");
        assert_eq!(mate["trajectory"], json!(["h5", "h7"]));
    }

    #[test]
    fn answers_to_a_check_say_how_they_answer() {
        // The queen checks from b4: the bishop blocks on d2, the king steps away.
        let board = parse_fen("4k3/8/8/8/1q6/8/8/2B1K3 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let value = plans_json(
            &board,
            &analysis,
            Some(Color::White),
            CheckLimits::default(),
        );
        let plans = value["plans"].as_array().unwrap();
        assert!(!plans.is_empty());
        assert!(plans.iter().all(|p| p["kind"] == "answer"), "{value}");
        let bd2 = plans
            .iter()
            .find(|p| p["first_move"]["san"] == "Bd2")
            .expect("the block");
        assert_eq!(
            bd2["answer"],
            json!({ "kind": "block", "checker": "b4", "square": "d2" })
        );
        assert_eq!(
            bd2["goal"],
            json!({ "kind": "check", "square": "e1", "checkers": ["b4"] })
        );
        assert_eq!(bd2["attack"], "Q b4");
        assert_eq!(bd2["verdict"], "check");
        assert_eq!(bd2["trajectory"], json!(["c1", "d2"]));
        assert_eq!(bd2["zone"], Value::Null);
        assert!(plans
            .iter()
            .filter(|p| p["piece"] == "king")
            .all(|p| p["answer"]["kind"] == "flight"));
    }

    #[test]
    fn counters_carry_their_own_trajectory() {
        // Black to move meets White's attacks on f6 with R e8–e6: a plan of kind "counter".
        let board = parse_fen(
            "4r1k1/3b1p1p/p4npB/4p2p/2P5/3BR2P/PP3PP1/6K1 b - - 0 1",
            false,
        )
        .unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let value = plans_json(&board, &analysis, None, CheckLimits::default());
        let plans = value["plans"].as_array().unwrap();
        let counters: Vec<&Value> = plans.iter().filter(|p| p["kind"] == "counter").collect();
        assert!(!counters.is_empty());
        for p in &counters {
            assert_eq!(p["side"], "black", "{p}");
            assert_eq!(p["after_pass"], false, "{p}");
            assert!(p["zone"].as_u64().is_some(), "{p}");
            assert!(p["attack"].as_str().unwrap().starts_with(['B', 'R']), "{p}");
        }
        let re6 = counters
            .iter()
            .find(|p| p["first_move"]["san"] == "Re6")
            .expect("R e8–e6 defends f6");
        assert_eq!(re6["trajectory"], json!(["e8", "e6"]));
        assert_eq!(re6["piece"], "rook");
        assert_eq!(re6["duration"], 1);
    }
}
