//! Combinations in words: the defender's duty, the combination in one line, a king hunt's and
//! an offer's line.
//!
//! Design note: the words of `combination`, kept apart so that the file that finds the
//! combinations stays about finding them. A hunt's or an offer's line is searched again here
//! (`attacks::hunt`): a combination keeps no line, and the small tree is cheap to grow twice.

use super::analysis::Analysis;
use super::combination::{Combination, Defender, Guard, Method};
use crate::pioneer::attacks::attack::Attack;
use crate::pioneer::attacks::hunt::{hunt, offer, Hunt, HuntLimits};
use crate::pioneer::board::pieces::{piece_letter, piece_name};
use crate::rules::notation::line_to_numbered_san;
use crate::rules::{is_capture, side_name, Board, Move, Piece};

/// The play a defender hinders, in words: "P e6–e7–e8=Q", "Q e5×f6", "mate".
fn hindered_text(analysis: &Analysis, d: &Defender) -> String {
    analysis
        .hindered_attack(d.hindrance)
        .map_or_else(|| "mate".to_string(), Attack::notation)
}

/// A defender's duty in words: "blocks e7 against P e6–e7–e8=Q", "alone guards g7 against
/// mate".
pub fn duty_text(analysis: &Analysis, board: &Board, d: &Defender) -> String {
    let play = hindered_text(analysis, d);
    let g = d.guards;
    match d.guard {
        Guard::DefendsTarget => {
            let target = board.piece_on(g).map_or("piece", piece_name);
            format!("defends the {target} on {g} against {play}")
        }
        Guard::ControlsSquare => format!("controls {g} against {play}"),
        Guard::BlocksSquare if g == d.square => format!("blocks the line of {play}"),
        Guard::BlocksSquare => format!("comes to block {g} against {play}"),
        Guard::GuardsMate => format!("alone guards {g} against {play}"),
        Guard::InTheWay => format!("stands in the way of {play}"),
        Guard::OwnSquare => format!("defends its own square on {g}"),
        Guard::TakesOffer => format!("takes the offer on {g}"),
    }
}

/// A combination in one line: "White: B b2–a3 attacks the queen on e7, which blocks the line of
/// P e6–e7–e8=Q: it must leave or be lost (deflection; the exchange gives up 3.30)".
pub fn combination_text(analysis: &Analysis, board: &Board, c: &Combination) -> String {
    let d = &c.defender;
    let us = board.side_to_move();
    let mover = board.piece_on(c.mv.from).unwrap_or(Piece::Pawn);
    let joint = if is_capture(board, c.mv) { '×' } else { '–' };
    let promotion =
        c.mv.promotion
            .map_or(String::new(), |p| format!("={}", piece_letter(p)));
    let mv = format!(
        "{} {}{joint}{}{promotion}",
        piece_letter(mover),
        c.mv.from,
        c.mv.to
    );
    let defender = format!("the {} on {}", piece_name(d.piece), d.square);
    let duty = duty_text(analysis, board, d);
    let what = match c.method {
        Method::Removal => format!("removes {defender}, which {duty}"),
        Method::Deflection => {
            format!("attacks {defender}, which {duty}: it must leave or be lost")
        }
        Method::Decoy => format!(
            "offers the {} to {defender}, which {duty}: taking it leaves {}",
            piece_name(mover),
            d.guards
        ),
        Method::Interference => format!("cuts off {defender}, which {duty}"),
        Method::Clearance => format!("clears the way: the {} {duty}", piece_name(d.piece)),
        Method::KingHunt => hunt_text(board, c.mv),
        Method::Offer => offer_text(board, c),
        Method::Overloading => {
            let struck = c
                .struck
                .map_or(String::new(), |s| duty_text(analysis, board, &s));
            format!("overloads {defender}, which {duty} and {struck}")
        }
    };
    let cost = if c.cost > 0 {
        format!("; the exchange gives up {:.2}", c.cost as f64 / 100.0)
    } else {
        String::new()
    };
    format!(
        "{}: {mv} {what} ({}{cost})",
        side_name(us),
        c.method.words()
    )
}

/// An offer in words: "offers the bishop to the queen on e7, threatening 31. Bxe7: taken,
/// 30... Qxa3 31. Nh5+ gxh5 32. Qg5+ …, 1.00 of the 3.30 back".
fn offer_text(board: &Board, c: &Combination) -> String {
    let mover = board.piece_on(c.mv.from).map_or("piece", piece_name);
    let taker = format!(
        "the {} on {}",
        piece_name(c.defender.piece),
        c.defender.square
    );
    let Some(o) = offer(board, c.mv, HuntLimits::default()) else {
        return format!("offers the {mover} to {taker}");
    };
    let mut after = board.clone();
    after.play_unchecked(c.mv);
    let threat = after.null_move().map_or(String::new(), |passed| {
        line_to_numbered_san(&passed, &o.threat.line)
    });
    let taken = line_to_numbered_san(&after, &o.taken.line);
    let end = ending(&o.taken, c.cost);
    format!("offers the {mover} to {taker}, threatening {threat}: taken, {taken}, {end}")
}

/// How a hunt ends, for a combination that gave `given` up before it: "mating", "winning 1.00",
/// "the material back", "1.00 of the 3.30 back" (the rest is for the search to weigh).
fn ending(hunt: &Hunt, given: i32) -> String {
    let pawns = |cp: i32| format!("{:.2}", cp as f64 / 100.0);
    let won = hunt.net - given;
    if hunt.mates() {
        "mating".to_string()
    } else if won > 0 {
        format!("winning {}", pawns(won))
    } else if won == 0 {
        "the material back".to_string()
    } else {
        format!("{} of the {} back", pawns(hunt.net), pawns(given))
    }
}

/// A king hunt in words: "hunts the king with checks: 31. Nh5+ gxh5 32. Qg5+ Kf8 33. Qxf6+ …,
/// winning 1.00" (or "…, mating", "…, the material back").
fn hunt_text(board: &Board, first: Move) -> String {
    let Some(h) = hunt(board, first, HuntLimits::default()) else {
        return "hunts the king with checks".to_string();
    };
    let line = line_to_numbered_san(board, &h.line);
    // The hunt's gain counts its first sacrifice already.
    format!("hunts the king with checks: {line}, {}", ending(&h, 0))
}
