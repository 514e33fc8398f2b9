//! Endgame knowledge that is not a weighted term: draws by material, scaling of drawish
//! endgames, and driving a lone king to the edge (the KRK / KQK / KBNK technique).

use super::masks::distance;
use crate::rules::{BitBoard, Board, Color, File, Piece, Rank, Square};

const LIGHT_SQUARES: BitBoard = BitBoard::LIGHT_SQUARES;
const DARK_SQUARES: BitBoard = BitBoard::DARK_SQUARES;

/// Full scale of the endgame score; `scale` returns a fraction of it.
pub const SCALE_NORMAL: i32 = 64;

/// Neither side can ever mate: no pawns, rooks or queens, and at most one minor piece, or only
/// bishops all on squares of one colour.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if (knights | bishops).len() <= 1 {
        return true;
    }
    knights.is_empty()
        && ((bishops & LIGHT_SQUARES).is_empty() || (bishops & DARK_SQUARES).is_empty())
}

/// A bare king holds the corner against rook pawns: one side has nothing but its king, the other
/// only pawns, all on the a-file or all on the h-file, and perhaps bishops that never cover the
/// promotion square, and the bare king stands on that square or next to it. No such bishop can
/// check the corner and the pawns attack only the next file, so the king is never driven out: at
/// most stalemated. Like `insufficient_material`, a draw whatever the search finds.
pub fn rook_pawn_fortress(board: &Board) -> bool {
    Color::ALL.into_iter().any(|strong| {
        let weak = !strong;
        let pawns = board.colored_pieces(strong, Piece::Pawn);
        let bishops = board.colored_pieces(strong, Piece::Bishop);
        if board.colors(weak).len() != 1
            || pawns.is_empty()
            || (board.colors(strong) & !(pawns | bishops)).len() != 1
        {
            return false;
        }
        let file = if (pawns & !File::A.bitboard()).is_empty() {
            File::A
        } else if (pawns & !File::H.bitboard()).is_empty() {
            File::H
        } else {
            return false;
        };
        let corner = Square::new(file, Rank::Eighth.relative_to(strong));
        let corner_colour = if LIGHT_SQUARES.has(corner) {
            LIGHT_SQUARES
        } else {
            DARK_SQUARES
        };
        (bishops & corner_colour).is_empty() && distance(board.king(weak), corner) <= 1
    })
}

/// The side has no pawns and at most one minor piece: it can never force mate, whatever the
/// other side has (a mate by a lone minor needs the loser's help).
pub fn lacks_mating_material(board: &Board, side: Color) -> bool {
    board.colored_pieces(side, Piece::Pawn).is_empty() && non_pawn_material(board, side) <= 3
}

/// A draw by the material alone or by the rook-pawn fortress: no search can change it.
pub fn known_draw(board: &Board) -> bool {
    insufficient_material(board) || rook_pawn_fortress(board)
}

fn non_pawn_material(board: &Board, color: Color) -> i32 {
    let count = |p| board.colored_pieces(color, p).len() as i32;
    3 * (count(Piece::Knight) + count(Piece::Bishop))
        + 5 * count(Piece::Rook)
        + 9 * count(Piece::Queen)
}

/// How much of the endgame score the side that is ahead (`strong`) can expect to convert, out
/// of `SCALE_NORMAL`.
pub fn scale(board: &Board, strong: Color) -> i32 {
    if rook_pawn_fortress(board) {
        return 0;
    }
    let weak = !strong;
    let strong_pawns = board.colored_pieces(strong, Piece::Pawn).len();
    let strong_material = non_pawn_material(board, strong);
    let weak_material = non_pawn_material(board, weak);
    if strong_pawns == 0 {
        // Without pawns, a minor piece (or two knights) is not enough to win, and a small
        // material edge is usually held.
        let only_knights = board.colored_pieces(strong, Piece::Bishop).is_empty()
            && board.colored_pieces(strong, Piece::Rook).is_empty()
            && board.colored_pieces(strong, Piece::Queen).is_empty();
        if lacks_mating_material(board, strong)
            || (only_knights && strong_material <= 6 && weak_material == 0)
        {
            return 0;
        }
        if strong_material - weak_material <= 3 {
            return 8;
        }
    }
    let bishops = board.pieces(Piece::Bishop);
    let only_bishops = |c: Color| {
        non_pawn_material(board, c) == 3 && board.colored_pieces(c, Piece::Bishop).len() == 1
    };
    if only_bishops(strong)
        && only_bishops(weak)
        && (bishops & LIGHT_SQUARES).len() == 1
        && (bishops & DARK_SQUARES).len() == 1
    {
        // Opposite-coloured bishops: even two extra pawns are often a draw.
        return 24
            + 8 * strong_pawns
                .saturating_sub(board.colored_pieces(weak, Piece::Pawn).len())
                .min(3) as i32;
    }
    SCALE_NORMAL
}

/// Bonus (from White's view) for driving a bare king towards the edge and bringing the kings
/// together, when one side has nothing but its king and the other can mate. In KBNK the edge
/// is replaced by the corners of the bishop's colour.
pub fn mop_up(board: &Board) -> i32 {
    for strong in Color::ALL {
        let weak = !strong;
        if board.colors(weak).len() != 1 || non_pawn_material(board, strong) < 5 {
            continue;
        }
        let weak_king = board.king(weak);
        let strong_king = board.king(strong);
        let bishops = board.colored_pieces(strong, Piece::Bishop);
        let edge = if non_pawn_material(board, strong) == 6
            && bishops.len() == 1
            && board.colored_pieces(strong, Piece::Knight).len() == 1
        {
            let corners: [Square; 2] = if (bishops & LIGHT_SQUARES).is_empty() {
                [Square::A1, Square::H8]
            } else {
                [Square::H1, Square::A8]
            };
            7 - corners
                .iter()
                .map(|&c| distance(c, weak_king))
                .min()
                .unwrap_or(7)
        } else {
            centre_distance(weak_king)
        };
        let bonus = 20 * edge + 10 * (7 - distance(strong_king, weak_king));
        return if strong == Color::White {
            bonus
        } else {
            -bonus
        };
    }
    0
}

/// Distance from the four centre squares, 0..=3.
fn centre_distance(sq: Square) -> i32 {
    let file = sq as i32 % 8;
    let rank = sq as i32 / 8;
    (3 - file).max(file - 4).max(3 - rank).max(rank - 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    fn board(fen: &str) -> Board {
        parse_fen(fen, false).unwrap()
    }

    #[test]
    fn lacks_mating_material_cases() {
        let b = board("8/8/4k3/2b5/8/3K4/6P1/8 w - - 0 1");
        assert!(lacks_mating_material(&b, Color::Black));
        assert!(!lacks_mating_material(&b, Color::White));
        let b = board("8/8/4k3/n7/8/3K4/2R5/8 b - - 0 1");
        assert!(lacks_mating_material(&b, Color::Black));
        assert!(!lacks_mating_material(&b, Color::White));
        assert!(!lacks_mating_material(
            &board("8/8/4k3/nn6/8/3K4/8/8 b - - 0 1"),
            Color::Black
        ));
    }

    #[test]
    fn rook_pawn_fortress_cases() {
        // The white king next to h1 against the h-pawn and the wrong (dark) bishop.
        assert!(rook_pawn_fortress(&board(
            "8/8/8/8/8/2b3kp/8/6K1 b - - 0 1"
        )));
        assert!(rook_pawn_fortress(&board(
            "8/8/8/8/6k1/6bp/6K1/8 w - - 0 1"
        )));
        assert!(known_draw(&board("8/8/8/8/6k1/6bp/6K1/8 w - - 0 1")));
        assert!(known_draw(&board("8/8/4k3/8/8/3K4/8/8 w - - 0 1")));
        assert!(!known_draw(&board("8/8/8/8/6k1/6bp/8/5K2 w - - 0 1")));
        // Two white a-pawns, no bishop, the black king on a8.
        assert!(rook_pawn_fortress(&board("k7/8/P7/P7/8/8/8/4K3 w - - 0 1")));
        // The right bishop (dark, like h8) wins.
        assert!(!rook_pawn_fortress(&board(
            "7k/8/7P/8/8/4B3/8/4K3 w - - 0 1"
        )));
        // The king two squares from the corner, a pawn off the rook file, a knight, a black pawn.
        for fen in [
            "8/5k2/7P/8/8/8/8/4K3 w - - 0 1",
            "7k/8/6PP/8/8/8/8/4K3 w - - 0 1",
            "7k/8/7P/8/8/4N3/8/4K3 w - - 0 1",
            "7k/p7/7P/8/8/8/8/4K3 w - - 0 1",
        ] {
            assert!(!rook_pawn_fortress(&board(fen)), "{fen}");
        }
        // The hand-crafted evaluation scales it to nothing.
        let fortress = board("7k/8/7P/8/8/3B4/8/4K3 w - - 0 1");
        assert_eq!(scale(&fortress, Color::White), 0);
    }

    #[test]
    fn insufficient_material_cases() {
        assert!(insufficient_material(&board(
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1"
        )));
        assert!(insufficient_material(&board(
            "8/8/4k3/8/8/3KN3/8/8 w - - 0 1"
        )));
        assert!(insufficient_material(&board(
            "8/8/4k3/2b5/8/3KB3/8/8 w - - 0 1"
        )));
        assert!(!insufficient_material(&board(
            "8/8/4k3/8/2b5/3KB3/8/8 w - - 0 1"
        )));
        assert!(!insufficient_material(&board(
            "8/8/4k3/8/8/3KP3/8/8 w - - 0 1"
        )));
    }

    #[test]
    fn scaling_of_drawish_endgames() {
        assert_eq!(
            scale(&board("8/8/4k3/8/8/R2K4/8/6b1 w - - 0 1"), Color::White),
            8
        );
        assert_eq!(
            scale(&board("8/8/4k3/8/8/3KN3/8/8 w - - 0 1"), Color::White),
            0
        );
        assert_eq!(
            scale(&board("8/8/4k3/8/8/R2K4/8/8 w - - 0 1"), Color::White),
            SCALE_NORMAL
        );
        assert!(scale(&board("8/3b4/4k3/p7/P7/3KB3/1P6/8 w - - 0 1"), Color::White) < SCALE_NORMAL);
    }

    #[test]
    fn mop_up_prefers_the_edge() {
        let centre = mop_up(&board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"));
        let edge = mop_up(&board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
        assert!(edge > centre && centre > 0);
    }
}
