//! The zone model's value of a position: what a zone search or a proof counts at a leaf.
//!
//! Design note: Botvinnik's goal is material, so the value is material in centipawns, plus the
//! promotion of every pawn whose zone wins statically (no counter in time), plus what the side to
//! move wins at once in the exchange model. Against a queen on the board a pawn on its way counts
//! only when it promotes with its next move (the queen's checks win tempi the timing does not
//! see), and the lead of a side that can never mate counts nothing. The standing value leaves out
//! the capture to come: it is what a side already holds, against which a proof measures a gain.

use crate::eval::lacks_mating_material;
use crate::pioneer::attacks::attack::Goal;
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::zone::ZoneVerdict;
use crate::rules::see::exchange_on_square;
use crate::rules::{piece_value, Board, Piece};

/// Static value of a position by the zone model, for the side to move: material, the promotion
/// of every pawn whose zone wins (no counter in time), and the best capture of the side to move
/// in the exchange model; the lead of a side that can never mate counts nothing.
pub fn static_value(board: &Board, analysis: &Analysis) -> i32 {
    let us = board.side_to_move();
    let best_capture = board
        .colors(!us)
        .iter()
        .map(|s| exchange_on_square(board, s, us))
        .max()
        .unwrap_or(0);
    mating_lead(board, holdings(board, analysis) + best_capture)
}

/// What the side to move holds by the zone model, before any capture it may make now:
/// material and the promotions no one can stop in time (`static_value` less the best capture).
pub(crate) fn standing_value(board: &Board, analysis: &Analysis) -> i32 {
    mating_lead(board, holdings(board, analysis))
}

/// `value`, a lead for the side to move, as nothing where the side ahead can never mate (no
/// pawns, at most a minor piece).
fn mating_lead(board: &Board, value: i32) -> i32 {
    let us = board.side_to_move();
    match value {
        v if v > 0 && lacks_mating_material(board, us) => 0,
        v if v < 0 && lacks_mating_material(board, !us) => 0,
        v => v,
    }
}

/// Material and the winning promotions, for the side to move.
fn holdings(board: &Board, analysis: &Analysis) -> i32 {
    let us = board.side_to_move();
    let mut value = 0;
    for square in board.occupied() {
        let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
            continue;
        };
        if piece != Piece::King {
            value += if color == us {
                piece_value(piece)
            } else {
                -piece_value(piece)
            };
        }
    }
    for zone in &analysis.zones {
        if !matches!(zone.attack.goal, Goal::Promote { .. }) || zone.verdict != ZoneVerdict::Wins {
            continue;
        }
        // Against a queen already on the board a pawn still on its way is no sure gain (the
        // queen wins tempi by checks, which the zone timing does not see); it counts only when
        // it promotes with its very next move.
        let side = zone.side();
        let enemy_queen = !board.colored_pieces(!side, Piece::Queen).is_empty();
        if enemy_queen && !(side == us && zone.attack.forecast() == 1) {
            continue;
        }
        value += if side == us {
            zone.attack.gain
        } else {
            -zone.attack.gain
        };
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::rules::parse_fen;

    #[test]
    fn static_value_counts_unstoppable_pawns() {
        // Black's h-pawn cannot be caught: its promotion counts for Black.
        let board = parse_fen("8/8/k7/7p/8/8/8/K7 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        assert_eq!(static_value(&board, &analysis), -100 - (950 - 100));
        // With the white king in the square it does not.
        let board = parse_fen("8/8/k7/7p/8/6K1/8/8 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        assert_eq!(static_value(&board, &analysis), -100);
    }
}
