//! Arrivals imagined on the board: the position with pieces set down on other squares, and
//! whether a piece arriving on a square mates there — with what a mate is worth to the model.
//!
//! Design note: PIONEER's mates are decided exactly, by the rules, on the board as it stands
//! with only the arrival (and the steps before it: a preparation, a defender's step) played by
//! relocating pieces: no move generation, no search (`gives_mate`, `mating_move` and
//! `threatens_mate` test moves actually played, by the rules too). The test is shared by the
//! layers above — the mate trajectories (`attacks::mate`), the duty to guard a mating square
//! (`rejection::duty`), a zone's answer to its first move (`zones::zone`) — and the linked zones
//! move a piece with `relocated` too. `MATE_GAIN` is a mate in the exchange model's material
//! terms, for the safety of a capture, a duty's loss and a mate attack's gain alike.

use crate::rules::{legal_moves, Board, BoardBuilder, Color, GameStatus, Move, Square};

/// What a mate is worth in the zone model's material terms: more than any material, so that a
/// mate zone comes first and no material compensates it.
pub const MATE_GAIN: i32 = 10_000;

/// A builder of `board` with each piece of `moves` (from, to) set down on its new square, what
/// stood there removed; castling rights, en passant and the halfmove clock cleared, so that the
/// position builds whatever moved. The side to move is unchanged.
pub(crate) fn relocated(board: &Board, moves: &[(Square, Square)]) -> BoardBuilder {
    let mut builder = BoardBuilder::from_board(board);
    for color in [Color::White, Color::Black] {
        *builder.castle_rights_mut(color) = cozy_chess::CastleRights::EMPTY;
    }
    builder.en_passant = None;
    builder.halfmove_clock = 0;
    for &(from, to) in moves {
        let piece = builder.square(from);
        *builder.square_mut(from) = None;
        *builder.square_mut(to) = piece;
    }
    builder
}

/// Does the piece of `side` on `from`, standing on `to` (capturing what stands there), mate —
/// after the pieces of `steps` (from, to) have first moved, in order (a preparation, a
/// defender's step)? The rest of the board is as in `board`, the defender to move.
pub fn mates_after(board: &Board, from: Square, to: Square, steps: &[(Square, Square)]) -> bool {
    arrival(board, from, to, steps).is_some_and(|b| b.status() == GameStatus::Won)
}

/// Does `mv`, played in `board`, mate?
pub fn gives_mate(board: &Board, mv: Move) -> bool {
    let mut next = board.clone();
    next.play_unchecked(mv);
    !next.checkers().is_empty() && next.status() == GameStatus::Won
}

/// The first legal move of the side to move in `board` that mates, if any.
pub fn mating_move(board: &Board) -> Option<Move> {
    legal_moves(board)
        .into_iter()
        .find(|&mv| gives_mate(board, mv))
}

/// Would the side that is not to move in `board` mate in one, were it its move (never while
/// the side to move is in check)?
pub fn threatens_mate(board: &Board) -> bool {
    board
        .null_move()
        .is_some_and(|passed| mating_move(&passed).is_some())
}

/// The position of `mates_after`: the pieces of `steps` moved, the piece on `from` standing on
/// `to`, the defender to move; `None` when the rules refuse it (the mating side's own king left
/// in check: it mates nothing) or `to` holds a piece of the same side.
pub(crate) fn arrival(
    board: &Board,
    from: Square,
    to: Square,
    steps: &[(Square, Square)],
) -> Option<Board> {
    let (piece, side) = board.piece_on(from).zip(board.color_on(from))?;
    let mut builder = relocated(board, steps);
    if builder.square(to).is_some_and(|(_, color)| color == side) {
        return None;
    }
    *builder.square_mut(from) = None;
    *builder.square_mut(to) = Some((piece, side));
    builder.side_to_move = !side;
    builder.build().ok()
}
