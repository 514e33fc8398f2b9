//! Safety of a capture: is the capturing piece trapped or lost once it has taken, or does the
//! capture leave another piece to be taken?
//!
//! PIONEER gives up a trajectory when "the piece moving along the attack trajectory does not
//! secure a favourable outcome in the exchange model on the target square" (reason 1), and
//! lists among a zone's trajectories the *retreat* trajectories ("траектории отступления").
//! The exchange on the target square alone says nothing about what becomes of the capturing
//! piece afterwards: a bishop that takes a pawn on a6 may be shut in there by one rook move and
//! lost. This module adds the piece's retreat, and the squares it leaves, to the exchange model.
//!
//! Design note: the model is bounded and uses the rules only (no search). The capture is
//! played; then each reply of the opponent that matters is answered by the capturing side's
//! best legal move. A quiet reply matters when the piece on its new square can then be won
//! (the exchange there costs more than the capture won); a capture matters when the capture
//! made it better for the opponent (the capturing piece defended that square or shielded it).
//! Each answer is valued one move deep by the exchange model: its own exchange value (`see`;
//! for a move of the piece, the exchange on the square it goes to — its way out), less the
//! opponent's best capture afterwards of the piece still standing on its square or of any piece
//! the answer uncovers or stops defending (so a piece that shields another cannot simply step
//! away). Leaving the piece to its fate is the floor. When for some reply even the best answer
//! gives back more than the capture won, the capture is refuted. The recapture on the target
//! square is the exchange model's own business and is not looked at again; the answer's own
//! threats (checks, counter-attacks) and a second reply are not modelled. A reply that mates
//! refutes any capture, the king's included (a legal capture by the king cannot otherwise be
//! answered by winning it), unless the opponent could mate in one before it: the capture walked
//! into the mate. Only the capture itself is judged: for a longer trajectory the position on
//! arrival is not known, so `attack` applies this to one-move captures only. The cost is a few
//! legal-move lists and exchange evaluations per winning one-move capture.

use crate::pioneer::board::arrival::{mating_move, threatens_mate, MATE_GAIN};
use crate::rules::see::{exchange_on_square, see};
use crate::rules::{is_capture, legal_moves, piece_value, Board, Move, Piece, Rank, Square};

/// The opponent's reply after which a capture loses material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// The reply.
    pub reply: Move,
    /// The piece making the reply.
    pub replier: Piece,
    /// What the reply takes: a piece the capture left undefended or uncovered, the king for a
    /// reply that mates (`None`: a quiet reply that traps the capturing piece).
    pub taken: Option<Piece>,
    /// Material for the capturing side after the capture, the reply and its best answer, in
    /// centipawns (negative: the capture loses).
    pub net: i32,
}

/// The move by which the piece on `from` takes on `target` (a pawn reaching its last rank
/// promotes to a queen).
pub fn capture_move(board: &Board, from: Square, target: Square) -> Move {
    let last_rank = board
        .color_on(from)
        .map(|side| Rank::Eighth.relative_to(side));
    let promotion = (board.piece_on(from) == Some(Piece::Pawn) && Some(target.rank()) == last_rank)
        .then_some(Piece::Queen);
    Move {
        from,
        to: target,
        promotion,
    }
}

/// Judges `capture`, a move of the side to move on `board`, one reply deep: the reply after
/// which it loses most — a mate first — or `None` when it keeps its gain (or is not a legal
/// capture). A capture by the king is lost only to a mate.
pub fn capture_refutation(board: &Board, capture: Move) -> Option<Refutation> {
    if !is_capture(board, capture) || !board.is_legal(capture) {
        return None;
    }
    let by_king = board.piece_on(capture.from) == Some(Piece::King);
    let won = board.piece_on(capture.to).map_or(0, piece_value);
    let us = board.side_to_move();
    let mut after = board.clone();
    after.play_unchecked(capture);
    if let Some(mate) = mating_reply(board, &after) {
        return Some(Refutation {
            reply: mate,
            replier: after.piece_on(mate.from).unwrap_or(Piece::Pawn),
            taken: Some(Piece::King),
            net: won - MATE_GAIN,
        });
    }
    if by_king {
        return None;
    }
    let mut worst: Option<Refutation> = None;
    for reply in legal_moves(&after) {
        let taken = if is_capture(&after, reply) {
            // The recapture is the exchange model's; another capture counts only where the
            // capture made it better for the opponent (a defender left, a line opened).
            if reply.to == capture.to
                || exchange_on_square(&after, reply.to, !us)
                    <= exchange_on_square(board, reply.to, !us)
            {
                continue;
            }
            after.piece_on(reply.to)
        } else {
            None
        };
        let mut replied = after.clone();
        replied.play_unchecked(reply);
        // A quiet reply that wins no more than the capture won, were the piece left: nothing to
        // look at.
        if taken.is_none() && exchange_on_square(&replied, capture.to, !us) <= won {
            continue;
        }
        let net = won - taken.map_or(0, piece_value) + best_answer(&replied, capture.to);
        if net < 0 && worst.is_none_or(|r| net < r.net) {
            worst = Some(Refutation {
                reply,
                replier: after.piece_on(reply.from).unwrap_or(Piece::Pawn),
                taken,
                net,
            });
        }
    }
    worst
}

/// The opponent's reply in `after` (the position after a capture in `before`) that mates, when
/// he could not mate in one in `before` already (were it his move).
fn mating_reply(before: &Board, after: &Board) -> Option<Move> {
    let reply = mating_move(after)?;
    (!threatens_mate(before)).then_some(reply)
}

/// The capturing side's best answer (material, ≤ 0 when it loses) in `position`, where the
/// piece on `square` is threatened: leaving it there, or any legal move.
fn best_answer(position: &Board, square: Square) -> i32 {
    let us = position.side_to_move();
    let threatened = |board: &Board| -> Vec<(Square, i32)> {
        (board.colors(us) & !board.pieces(Piece::King))
            .into_iter()
            .map(|s| (s, exchange_on_square(board, s, !us)))
            .collect()
    };
    let before = threatened(position);
    let stay = -before
        .iter()
        .find(|(s, _)| *s == square)
        .map_or(0, |&(_, loss)| loss);
    legal_moves(position)
        .into_iter()
        .map(|answer| {
            let mut next = position.clone();
            next.play_unchecked(answer);
            // The opponent's best capture afterwards: of the piece left on `square`, or of a
            // piece the answer uncovers or stops defending.
            let loss = threatened(&next)
                .into_iter()
                .filter(|&(s, loss)| {
                    s != answer.to
                        && (s == square || before.iter().all(|&(b, was)| b != s || loss > was))
                })
                .map(|(_, loss)| loss)
                .max()
                .unwrap_or(0);
            see(position, answer) - loss
        })
        .fold(stay, i32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::examples::FISCHER_SPASSKY_6;
    use crate::rules::parse_fen;

    fn refutation(fen: &str, uci: &str) -> Option<Refutation> {
        let board = parse_fen(fen, false).unwrap();
        capture_refutation(&board, uci.parse().unwrap())
    }

    #[test]
    fn bishop_taking_a6_is_trapped_by_rc6() {
        let r = refutation(FISCHER_SPASSKY_6, "e2a6").expect("the bishop is trapped");
        assert_eq!(r.reply, "c8c6".parse().unwrap());
        assert_eq!(r.replier, Piece::Rook);
        assert_eq!(r.taken, None);
        assert_eq!(r.net, 100 - 330);
    }

    #[test]
    fn knight_taking_a7_is_shut_in_by_the_king() {
        // 1.Nxa7+ Kb7: b5 and c8 are covered, c6 is a defended pawn.
        let fen = "2k5/p4ppp/2p5/1N6/8/8/5PPP/6K1 w - - 0 1";
        let r = refutation(fen, "b5a7").expect("the knight is trapped");
        assert_eq!(r.reply, "c8b7".parse().unwrap());
        assert_eq!(r.net, 100 + 100 - 320);
    }

    #[test]
    fn a_way_out_that_uncovers_the_queen_is_no_way_out() {
        // 1.Bxa5 b6: the bishop has b4, c3 and d2, but each uncovers Ra8 against Qa1.
        let fen = "r5k1/1pp2ppp/8/p7/8/8/3B1PPP/Q5K1 w - - 0 1";
        let r = refutation(fen, "d2a5").expect("the bishop shields the queen");
        assert_eq!(r.reply, "b7b6".parse().unwrap());
        // Without the queen behind it the bishop simply steps back.
        assert_eq!(
            refutation("6k1/1pp2ppp/8/p7/8/8/3B1PPP/6K1 w - - 0 1", "d2a5"),
            None
        );
    }

    #[test]
    fn a_piece_with_a_way_out_is_safe() {
        // Without the c6 pawn, 1.Nxa7+ Kb7 2.Nb5: the knight gets out.
        assert_eq!(
            refutation("2k5/p4ppp/8/1N6/8/8/5PPP/6K1 w - - 0 1", "b5a7"),
            None
        );
        // Not a capture at all.
        assert_eq!(refutation(FISCHER_SPASSKY_6, "e2d3"), None);
    }

    #[test]
    fn a_capture_that_leaves_a_piece_undefended_loses_it() {
        // 1.Bxf5 takes the pawn but leaves the knight c4 to the rook.
        let r = refutation("2r3k1/7p/8/5p2/2N5/3B4/5PPP/6K1 w - - 0 1", "d3f5")
            .expect("the knight is lost");
        assert_eq!(r.reply, "c8c4".parse().unwrap());
        assert_eq!(r.taken, Some(Piece::Knight));
        assert!(r.net < -100, "{r:?}");
        // Steinitz–von Bardeleben, Hastings 1895: 17…Qxd5 takes the pawn but leaves the e7
        // knight, and 18.Qxe7 is mate: the mate is the refutation.
        let fen = "r3k2r/pp1qn1pp/2p2p2/3P4/8/5N2/PP2QPPP/2R1R1K1 b kq - 0 17";
        let r = refutation(fen, "d7d5").expect("the knight is lost, and the game");
        assert_eq!(r.reply, "e2e7".parse().unwrap());
        assert_eq!(r.taken, Some(Piece::King));
        // A threat that was there before the capture is not the capture's fault.
        assert_eq!(
            refutation("4k2r/8/8/3p4/7N/8/8/3RK3 w - - 0 1", "d1d5"),
            None
        );
    }

    #[test]
    fn a_capture_that_allows_mate_is_refuted_the_kings_too() {
        // 1.Rxa7 takes the rook off the first rank: …Rb1#.
        let r = refutation("1r4k1/p4ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a7")
            .expect("the back rank is left");
        assert_eq!(r.reply, "b8b1".parse().unwrap());
        assert_eq!(r.taken, Some(Piece::King));
        assert!(r.net < -1000, "{r:?}");
        // Before 19…Kxf6 (classics, game 50): the king takes the bishop into 20.Qe5#.
        let r = refutation(
            "r4n1r/pp3pkp/5Bb1/qB1P4/3P4/8/PPP1Q1PP/4R1K1 b - - 4 19",
            "g7f6",
        )
        .expect("the king walks into the mate");
        assert_eq!(r.reply, "e2e5".parse().unwrap());
        // A mate in one that was there before the capture is not the capture's fault.
        assert_eq!(
            refutation("1r4k1/p4ppp/8/8/8/8/R4PPP/6K1 w - - 0 1", "a2a7"),
            None
        );
    }

    #[test]
    fn a_pawn_capturing_on_the_last_rank_promotes() {
        let board = parse_fen("1r4k1/P7/8/8/8/8/8/6K1 w - - 0 1", false).unwrap();
        let mv = capture_move(&board, Square::A7, Square::B8);
        assert_eq!(mv.promotion, Some(Piece::Queen));
        assert!(board.is_legal(mv));
    }
}
