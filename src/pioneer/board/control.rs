//! Square control, by the three rules of the PIONEER chapter (docs/sources.md#pioneer).
//!
//! The opponent controls a square of a trajectory if
//! 1. a piece of his no more valuable than the moving piece attacks it;
//! 2. a more valuable piece attacks it and the square is not defended (not counting the moving
//!    piece itself);
//! 3. a rook attacks it, a minor piece moves through it, and in the exchange model on the square
//!    the opponent does not lose.
//!
//! In all other cases he does not. "Control" is judged with the moving piece already gone from
//! its square (it may have been shielding the square), using the exchange model of
//! `rules::see` for rule 3.
//!
//! Design note: `control` looks at the pieces that attack the square now. A counter-trajectory
//! brings a piece to a square from which it *will* attack; `would_control` judges that future
//! attack by the same rules, with the defence of the square as it stands now. There the third
//! rule reduces to the second, because a rook that comes to attack a defended minor piece loses
//! the exchange in the model (330 − 500) unless it already had company, which the static test
//! cannot know.

use crate::rules::see::{attackers_to, capture_gain_against};
use crate::rules::{piece_value, BitBoard, Board, Color, Piece, Square};

/// Which of the three rules gives the control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlRule {
    /// Rule 1: a piece no more valuable than the mover attacks the square.
    NotMoreValuable,
    /// Rule 2: a more valuable piece attacks an undefended square.
    Undefended,
    /// Rule 3: a rook attacks the square of a minor piece and does not lose the exchange there.
    RookAgainstMinor,
}

/// The opponent's control of a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    /// The controlled square.
    pub square: Square,
    /// Where the controlling piece stands.
    pub by: Square,
    /// The controlling piece.
    pub piece: Piece,
    /// The rule that applies.
    pub rule: ControlRule,
}

fn is_minor(piece: Piece) -> bool {
    matches!(piece, Piece::Knight | Piece::Bishop)
}

/// Pieces of `side` attacking `square`, with the piece on `gone` lifted off the board.
fn attackers_of(board: &Board, square: Square, side: Color, gone: Square) -> BitBoard {
    let occupied = board.occupied() & !gone.bitboard();
    attackers_to(board, square, occupied) & board.colors(side) & !gone.bitboard()
}

/// Is `square` defended by the owner of the piece on `mover_from`, not counting that piece?
pub fn defended(board: &Board, square: Square, mover_from: Square) -> bool {
    match board.color_on(mover_from) {
        Some(owner) => !attackers_of(board, square, owner, mover_from).is_empty(),
        None => false,
    }
}

/// Does the opponent of the piece on `mover_from` control `square` against that piece (a
/// `mover`, which may differ from the piece on `mover_from` for a promoting pawn) on its way?
/// Returns the cheapest controlling piece and the rule, or `None`.
pub fn control(board: &Board, square: Square, mover_from: Square, mover: Piece) -> Option<Control> {
    let owner = board.color_on(mover_from)?;
    let attackers = attackers_of(board, square, !owner, mover_from);
    if attackers.is_empty() {
        return None;
    }
    let mover_value = piece_value(mover);
    let mut cheapest: Option<(Piece, Square)> = None;
    for by in attackers {
        let piece = board.piece_on(by)?;
        if cheapest.is_none_or(|(p, _)| piece_value(piece) < piece_value(p)) {
            cheapest = Some((piece, by));
        }
    }
    let (piece, by) = cheapest?;
    let make = |rule, piece, by| Control {
        square,
        by,
        piece,
        rule,
    };
    if piece_value(piece) <= mover_value {
        return Some(make(ControlRule::NotMoreValuable, piece, by));
    }
    if !defended(board, square, mover_from) {
        return Some(make(ControlRule::Undefended, piece, by));
    }
    if is_minor(mover) {
        let rook = (attackers & board.pieces(Piece::Rook)).next_square()?;
        if capture_gain_against(board, mover_from, square, mover).is_some_and(|g| g >= 0) {
            return Some(make(ControlRule::RookAgainstMinor, Piece::Rook, rook));
        }
    }
    None
}

/// Would a piece `attacker` of the opponent, once it attacks `square`, control it against the
/// piece on `mover_from` moving as `mover`? (Rule 3 reduces to rule 2 here; see the design note.)
pub fn would_control(
    board: &Board,
    attacker: Piece,
    square: Square,
    mover_from: Square,
    mover: Piece,
) -> Option<ControlRule> {
    if piece_value(attacker) <= piece_value(mover) {
        Some(ControlRule::NotMoreValuable)
    } else if !defended(board, square, mover_from) {
        Some(ControlRule::Undefended)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    fn ctl(fen: &str, square: Square, from: Square) -> Option<ControlRule> {
        let board = parse_fen(fen, false).unwrap();
        let mover = board.piece_on(from).unwrap();
        control(&board, square, from, mover).map(|c| c.rule)
    }

    #[test]
    fn rule_one_cheaper_attacker() {
        // A black pawn on b6 controls a5 against a white rook, defended or not.
        let fen = "4k3/8/1p6/8/8/8/8/R3K3 w - - 0 1";
        assert_eq!(
            ctl(fen, Square::A5, Square::A1),
            Some(ControlRule::NotMoreValuable)
        );
        // A black knight controls a square against a white bishop (equal value counts).
        let fen = "4k3/8/8/8/3n4/8/8/4KB2 w - - 0 1";
        assert_eq!(ctl(fen, Square::D3, Square::F1), None);
        assert_eq!(
            ctl(fen, Square::B3, Square::F1),
            Some(ControlRule::NotMoreValuable)
        );
    }

    #[test]
    fn rule_two_more_valuable_attacker_only_if_undefended() {
        // The black rook a8 controls a6 against the white bishop f1: a6 is undefended.
        let fen = "r3k3/8/8/8/8/8/1P6/4KB2 w - - 0 1";
        assert_eq!(
            ctl(fen, Square::A6, Square::F1),
            Some(ControlRule::Undefended)
        );
        // The black king controls undefended squares against a pawn, not defended ones.
        let board = parse_fen("8/1k6/8/2P5/8/8/8/7K w - - 0 1", false).unwrap();
        assert_eq!(
            control(&board, Square::C6, Square::C5, Piece::Pawn).map(|c| c.rule),
            Some(ControlRule::Undefended)
        );
        let board = parse_fen("8/1k1K4/8/2P5/8/8/8/8 w - - 0 1", false).unwrap();
        assert_eq!(control(&board, Square::C6, Square::C5, Piece::Pawn), None);
    }

    #[test]
    fn rule_three_rook_against_minor() {
        // a3 is defended by the b2 pawn: the rook a8 would lose the exchange on a3, so it does
        // not control a3 against the bishop; with a second black rook it would still lose
        // (bishop 330 against rook 500 on the first capture), so still no control.
        let fen = "r3k3/8/8/8/8/8/1P6/4KB2 w - - 0 1";
        assert_eq!(ctl(fen, Square::A3, Square::F1), None);
        // A knight defended only by the king, attacked by rook and queen: the rook takes
        // (320), the king recaptures (−500), the queen takes the king? No: the king may not
        // recapture into the queen's attack, so the rook wins the knight — control by rule 3.
        let fen = "3qk3/8/8/8/8/8/4K3/3rN3 w - - 0 1";
        let board = parse_fen(fen, false).unwrap();
        let c = control(&board, Square::D3, Square::E1, Piece::Knight).unwrap();
        assert_eq!(c.rule, ControlRule::RookAgainstMinor);
        assert_eq!(c.piece, Piece::Rook);
    }

    #[test]
    fn the_moving_piece_does_not_defend_its_own_path() {
        // The rook a1 "defends" a4 only through itself; for its own trajectory a4 is undefended
        // and the black bishop controls it by rule 2.
        let fen = "4k3/8/8/8/8/2b5/8/R4K2 w - - 0 1";
        assert_eq!(
            ctl(fen, Square::A5, Square::A1),
            Some(ControlRule::NotMoreValuable)
        );
        let board = parse_fen(fen, false).unwrap();
        assert!(!defended(&board, Square::A4, Square::A1));
        assert_eq!(
            would_control(&board, Piece::Queen, Square::A4, Square::A1, Piece::Rook),
            Some(ControlRule::Undefended)
        );
    }
}
