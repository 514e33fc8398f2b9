//! The exchange model on a square: static exchange evaluation with x-rays.
//!
//! Both sides capture on one square with their least valuable attacker, pieces behind a capturing
//! slider joining in (x-rays), and either side may stop when going on would lose. The result is
//! the material gain for the side that starts. The search uses it to order and prune captures;
//! PIONEER uses it to decide who wins a square on a trajectory.

use super::{is_castling, is_en_passant, piece_value, BitBoard, Board, Color, Move, Piece, Square};
use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
};

/// All pieces of both colours attacking `square` with the given occupancy.
pub fn attackers_to(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let pawns = board.pieces(Piece::Pawn);
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    ((get_pawn_attacks(square, Color::White) & pawns & board.colors(Color::Black))
        | (get_pawn_attacks(square, Color::Black) & pawns & board.colors(Color::White))
        | (get_knight_moves(square) & board.pieces(Piece::Knight))
        | (get_king_moves(square) & board.pieces(Piece::King))
        | (get_bishop_moves(square, occupied) & diagonal)
        | (get_rook_moves(square, occupied) & straight))
        & occupied
}

/// The least valuable piece of `side` among `attackers`.
fn least_valuable(board: &Board, attackers: BitBoard, side: Color) -> Option<(Piece, Square)> {
    let own = attackers & board.colors(side);
    Piece::ALL.iter().find_map(|&piece| {
        (own & board.pieces(piece))
            .next_square()
            .map(|sq| (piece, sq))
    })
}

/// Material gain of the exchange that starts with `piece` going from `from` to `to` and capturing
/// `victim_value`, the opponent answering with its cheapest recapture, both sides free to stop.
fn swap(
    board: &Board,
    from: Square,
    to: Square,
    piece: Piece,
    victim_value: i32,
    mut occupied: BitBoard,
) -> i32 {
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut gains = [0i32; 32];
    gains[0] = victim_value;
    let mut depth = 0;
    let mut on_square = piece;
    let mut side = !board.color_on(from).unwrap_or(board.side_to_move());
    occupied ^= from.bitboard();
    occupied |= to.bitboard();
    let mut attackers = attackers_to(board, to, occupied);
    while let Some((attacker, square)) = least_valuable(board, attackers & occupied, side) {
        // A king may only recapture if the square is no longer defended.
        if attacker == Piece::King && !(attackers & occupied & board.colors(!side)).is_empty() {
            break;
        }
        depth += 1;
        gains[depth] = piece_value(on_square) - gains[depth - 1];
        if gains[depth].max(-gains[depth - 1]) < 0 {
            break;
        }
        occupied ^= square.bitboard();
        if matches!(attacker, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= get_bishop_moves(to, occupied) & diagonal;
        }
        if matches!(attacker, Piece::Rook | Piece::Queen) {
            attackers |= get_rook_moves(to, occupied) & straight;
        }
        attackers &= occupied;
        on_square = attacker;
        side = !side;
        if depth == gains.len() - 1 {
            break;
        }
    }
    while depth > 0 {
        gains[depth - 1] = -((-gains[depth - 1]).max(gains[depth]));
        depth -= 1;
    }
    gains[0]
}

/// Static exchange value of a move for the side making it, in centipawns.
pub fn see(board: &Board, mv: Move) -> i32 {
    if is_castling(board, mv) {
        return 0;
    }
    let Some(piece) = board.piece_on(mv.from) else {
        return 0;
    };
    let mut occupied = board.occupied();
    let mut victim = board.piece_on(mv.to).map_or(0, piece_value);
    if is_en_passant(board, mv) {
        victim = piece_value(Piece::Pawn);
        occupied ^= Square::new(mv.to.file(), mv.from.rank()).bitboard();
    }
    let (moved, bonus) = match mv.promotion {
        Some(p) => (p, piece_value(p) - piece_value(Piece::Pawn)),
        None => (piece, 0),
    };
    swap(board, mv.from, mv.to, moved, victim + bonus, occupied)
}

/// Does the move win at least `threshold` in the exchange model? Always the answer of
/// `see(board, mv) >= threshold`, but without playing the exchange out where its bounds settle
/// it: the mover gains at most the victim, and since it may stop after the first recapture it
/// loses at most the piece it moved. A capture of a piece worth as much as the capturer, and a
/// quiet pawn move against a margin of −100 or less, are settled so.
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    if mv.promotion.is_none() && !is_castling(board, mv) && !is_en_passant(board, mv) {
        if let Some(piece) = board.piece_on(mv.from) {
            let victim = board.piece_on(mv.to).map_or(0, piece_value);
            if victim - piece_value(piece) >= threshold {
                return true;
            }
            if victim < threshold {
                return false;
            }
        }
    }
    see(board, mv) >= threshold
}

/// What `side` gains by starting captures on `square` with its cheapest attacker (0 when it has
/// none or when capturing would lose). The piece on the square must belong to the other side.
pub fn exchange_on_square(board: &Board, square: Square, side: Color) -> i32 {
    exchange_with_occupancy(board, square, side, board.occupied())
}

/// `exchange_on_square` with the piece on `lifted` taken off the board: what `side` would gain
/// on `square` if that piece no longer took part (a defender gone elsewhere, a blocker moved).
pub fn exchange_without(board: &Board, square: Square, side: Color, lifted: Square) -> i32 {
    if lifted == square {
        return 0;
    }
    exchange_with_occupancy(board, square, side, board.occupied() & !lifted.bitboard())
}

fn exchange_with_occupancy(board: &Board, square: Square, side: Color, occupied: BitBoard) -> i32 {
    let Some(victim) = board.piece_on(square) else {
        return 0;
    };
    if board.color_on(square) == Some(side) {
        return 0;
    }
    let attackers = attackers_to(board, square, occupied);
    match least_valuable(board, attackers, side) {
        Some((piece, from)) => {
            swap(board, from, square, piece, piece_value(victim), occupied).max(0)
        }
        None => 0,
    }
}

/// Exchange value for `side` of putting its `piece` from `from` on `to` (empty or enemy-held):
/// negative when the opponent wins material by capturing there. PIONEER uses this to judge a
/// square on a trajectory before the piece actually stands on it.
pub fn exchange_after_move(board: &Board, from: Square, to: Square, piece: Piece) -> i32 {
    let victim = board
        .piece_on(to)
        .filter(|_| board.color_on(to) != board.color_on(from))
        .map_or(0, piece_value);
    swap(board, from, to, piece, victim, board.occupied())
}

/// What the opponent of the piece's owner gains by capturing `piece` once it has arrived on `to`
/// from `from` (the first capture made with his cheapest attacker, both sides then free to
/// stop); `None` when he has no piece that may capture there. PIONEER uses it for the third rule
/// of square control ("the opponent does not lose the exchange there").
pub fn capture_gain_against(board: &Board, from: Square, to: Square, piece: Piece) -> Option<i32> {
    let owner = board.color_on(from)?;
    let occupied = (board.occupied() & !from.bitboard()) | to.bitboard();
    let attackers = attackers_to(board, to, occupied) & !to.bitboard();
    let (attacker, square) = least_valuable(board, attackers, !owner)?;
    // A king may not capture a defended piece.
    if attacker == Piece::King && !(attackers & board.colors(owner)).is_empty() {
        return None;
    }
    Some(swap(
        board,
        square,
        to,
        attacker,
        piece_value(piece),
        occupied,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_fen;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let board = parse_fen(fen, false).unwrap();
        see(&board, mv.parse().unwrap())
    }

    #[test]
    fn simple_exchanges() {
        // Rook takes an undefended pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight takes a pawn defended by a pawn... after the recapture the knight is lost.
        assert_eq!(
            see_of("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"),
            100 - 320
        );
        // Quiet move to a square attacked by a pawn loses the piece.
        assert_eq!(see_of("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3e5"), -320);
    }

    #[test]
    fn x_ray_through_own_rook() {
        // Doubled rooks against a defended pawn: RxP RxR RxR wins a pawn.
        assert_eq!(see_of("3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2d5"), 100);
        // Without the back rook the capture loses the exchange.
        assert_eq!(
            see_of("3r2k1/8/8/3p4/8/8/3R4/6K1 w - - 0 1", "d2d5"),
            100 - 500
        );
    }

    #[test]
    fn see_ge_answers_as_the_full_exchange_does() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
            "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        ];
        let mut settled_both_ways = [false; 2];
        for fen in fens {
            let board = parse_fen(fen, false).unwrap();
            for mv in crate::legal_moves(&board) {
                let value = see(&board, mv);
                for threshold in (-1_000..=1_000).step_by(10) {
                    let answer = see_ge(&board, mv, threshold);
                    assert_eq!(answer, value >= threshold, "{fen} {mv} {threshold}");
                    settled_both_ways[usize::from(answer)] = true;
                }
            }
        }
        assert_eq!(settled_both_ways, [true, true]);
    }

    #[test]
    fn king_cannot_recapture_into_defence() {
        // Qxf7+ Kxf7 is impossible because the bishop on c4 also guards f7.
        assert_eq!(see_of("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7"), 100);
    }

    #[test]
    fn exchange_on_a_square() {
        let board = parse_fen("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(exchange_on_square(&board, Square::E5, Color::White), 0);
        let board = parse_fen("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(exchange_on_square(&board, Square::E5, Color::White), 100);
    }

    #[test]
    fn capture_gain_against_a_placed_piece() {
        // A white knight going to e5 is taken by the d6 pawn for nothing in return.
        let board = parse_fen("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(
            capture_gain_against(&board, Square::F3, Square::E5, Piece::Knight),
            Some(320)
        );
        // On d4 it is not attacked at all.
        assert_eq!(
            capture_gain_against(&board, Square::F3, Square::D4, Piece::Knight),
            None
        );
        // A rook taking a defended bishop loses the exchange: 330 - 500.
        let board = parse_fen("r3k3/8/8/8/8/8/1P6/4KB2 w - - 0 1", false).unwrap();
        assert_eq!(
            capture_gain_against(&board, Square::F1, Square::A6, Piece::Bishop),
            Some(330)
        );
        assert_eq!(
            capture_gain_against(&board, Square::F1, Square::A3, Piece::Bishop),
            Some(330 - 500)
        );
        // The lone king may not take a defended piece.
        let board = parse_fen("8/8/8/3k4/8/6N1/4R3/4K3 w - - 0 1", false).unwrap();
        assert_eq!(
            capture_gain_against(&board, Square::G3, Square::E4, Piece::Knight),
            None
        );
    }

    #[test]
    fn the_exchange_without_a_defender_wins_what_it_defended() {
        // The knight d6 alone defends the bishop b7 against the rook b1.
        let board = parse_fen("3k4/1b6/3n4/8/8/8/8/1R4K1 w - - 0 1", false).unwrap();
        assert_eq!(exchange_on_square(&board, Square::B7, Color::White), 0);
        assert_eq!(
            exchange_without(&board, Square::B7, Color::White, Square::D6),
            piece_value(Piece::Bishop)
        );
        // Lifting a piece that takes no part changes nothing.
        assert_eq!(
            exchange_without(&board, Square::B7, Color::White, Square::D8),
            0
        );
    }
}
