//! Kornilov's evaluation terms, each reported to a `Sink` as (side, parameter, count).
//!
//! Material and piece-square tables; pawn structure (passed, doubled, isolated, backward,
//! connected); king safety (pawn shield while the enemy queen is on, open files, attacks on the
//! king zone, distance of the enemy queen and rooks); mobility; rooks on open files and the
//! seventh; the bishop pair; x-ray pressure; hanging and threatened pieces; the move.

use super::masks::{adjacent_file_mask, distance, forward_file, passed_span, support_span};
use super::params::*;
use super::Sink;
use crate::rules::{pawn_attacks, BitBoard, Board, Color, Piece, Rank, Square};
use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves};

/// Attack information about one side, gathered once per evaluation.
#[derive(Default, Clone, Copy)]
struct Side {
    pawn_attacks: BitBoard,
    attacks: BitBoard,
    /// Squares attacked by each piece kind (indexed by `Piece`).
    by_piece: [BitBoard; 6],
    /// The enemy king's zone, which this side's pieces attack.
    enemy_king_zone: BitBoard,
    king_attackers: usize,
}

/// The square index seen from White: Black's pieces use the mirrored square.
#[inline(always)]
fn relative(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq as usize,
        Color::Black => sq as usize ^ 56,
    }
}

#[inline(always)]
fn relative_rank(color: Color, sq: Square) -> usize {
    relative(color, sq) / 8
}

fn king_zone(board: &Board, color: Color) -> BitBoard {
    let king = board.king(color);
    let around = get_king_moves(king) | king.bitboard();
    // Extend one rank towards the enemy, where attacks on the shelter land.
    let ahead = match color {
        Color::White => BitBoard(around.0 << 8),
        Color::Black => BitBoard(around.0 >> 8),
    };
    around | ahead
}

/// Reports every term of `board` to `sink`.
pub fn collect(board: &Board, sink: &mut impl Sink) {
    let mut sides = [Side::default(); 2];
    for color in Color::ALL {
        let pawns = board.colored_pieces(color, Piece::Pawn);
        sides[color as usize].pawn_attacks = pawn_attacks(pawns, color);
        sides[color as usize].enemy_king_zone = king_zone(board, !color);
    }
    for color in Color::ALL {
        material_and_squares(board, color, sink);
        pieces(board, color, &mut sides, sink);
    }
    for color in Color::ALL {
        pawns(board, color, &sides, sink);
        king_safety(board, color, &sides, sink);
        king_attack(board, color, &sides, sink);
        threats(board, color, &sides, sink);
    }
    sink.add(board.side_to_move(), TEMPO.one(), 1);
}

fn material_and_squares(board: &Board, color: Color, sink: &mut impl Sink) {
    for piece in Piece::ALL {
        let set = board.colored_pieces(color, piece);
        if piece != Piece::King {
            sink.add(color, MATERIAL.at(piece as usize), set.len() as i32);
        }
        for sq in set {
            sink.add(color, PSQT.at(piece as usize * 64 + relative(color, sq)), 1);
        }
    }
    if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
        sink.add(color, BISHOP_PAIR.one(), 1);
    }
}

/// Mobility, rook files, distances to the enemy king and x-rays; fills the attack maps.
fn pieces(board: &Board, color: Color, sides: &mut [Side; 2], sink: &mut impl Sink) {
    let occupied = board.occupied();
    let own = board.colors(color);
    let enemy = board.colors(!color);
    let safe = !own & !sides[!color as usize].pawn_attacks;
    let enemy_king = board.king(!color);
    let all_pawns = board.pieces(Piece::Pawn);
    let own_pawns = all_pawns & own;
    let enemy_pawns = all_pawns & enemy;
    let side = &mut sides[color as usize];
    side.by_piece[Piece::Pawn as usize] = side.pawn_attacks;
    side.by_piece[Piece::King as usize] = get_king_moves(board.king(color));
    side.attacks = side.pawn_attacks | side.by_piece[Piece::King as usize];
    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        for sq in board.colored_pieces(color, piece) {
            let attacks = match piece {
                Piece::Knight => get_knight_moves(sq),
                Piece::Bishop => get_bishop_moves(sq, occupied),
                Piece::Rook => get_rook_moves(sq, occupied),
                _ => get_bishop_moves(sq, occupied) | get_rook_moves(sq, occupied),
            };
            side.attacks |= attacks;
            side.by_piece[piece as usize] |= attacks;
            if matches!(piece, Piece::Knight | Piece::Bishop) {
                let rank = relative_rank(color, sq);
                let chasers = passed_span(color, sq) & adjacent_file_mask(sq) & enemy_pawns;
                if (3..=5).contains(&rank) && side.pawn_attacks.has(sq) && chasers.is_empty() {
                    sink.add(color, OUTPOST.at(usize::from(piece == Piece::Bishop)), 1);
                }
            }
            let mobility = (attacks & safe).len() as usize;
            let zone_hits = (attacks & side.enemy_king_zone).len() as i32;
            if zone_hits > 0 {
                side.king_attackers += 1;
                sink.add(color, KING_ATTACK.at(piece as usize), zone_hits);
            }
            match piece {
                Piece::Knight => {
                    sink.add(color, MOBILITY_KNIGHT.at(mobility), 1);
                }
                Piece::Bishop => {
                    sink.add(color, MOBILITY_BISHOP.at(mobility), 1);
                    let colour = if BitBoard::LIGHT_SQUARES.has(sq) {
                        BitBoard::LIGHT_SQUARES
                    } else {
                        BitBoard::DARK_SQUARES
                    };
                    let same = (own_pawns & colour).len() as i32;
                    if same > 0 {
                        sink.add(color, BISHOP_PAWNS.one(), same);
                    }
                }
                Piece::Rook => {
                    sink.add(color, MOBILITY_ROOK.at(mobility), 1);
                    let file = sq.file().bitboard();
                    if (file & all_pawns).is_empty() {
                        sink.add(color, ROOK_FILE.at(0), 1);
                    } else if (file & own_pawns).is_empty() {
                        sink.add(color, ROOK_FILE.at(1), 1);
                    }
                    let seventh = Rank::Seventh.relative_to(color);
                    if sq.rank() == seventh
                        && (enemy_king.rank() == Rank::Eighth.relative_to(color)
                            || !(seventh.bitboard() & all_pawns & enemy).is_empty())
                    {
                        sink.add(color, ROOK_SEVENTH.one(), 1);
                    }
                    sink.add(
                        color,
                        ROOK_KING_DISTANCE.at(distance(sq, enemy_king) as usize),
                        1,
                    );
                }
                _ => {
                    sink.add(color, MOBILITY_QUEEN.at(mobility), 1);
                    sink.add(
                        color,
                        QUEEN_KING_DISTANCE.at(distance(sq, enemy_king) as usize),
                        1,
                    );
                }
            }
            if piece != Piece::Knight {
                xray(board, color, piece, sq, attacks, sink);
            }
        }
    }
}

/// A slider whose line, behind the first piece it meets, reaches a more valuable enemy piece.
fn xray(
    board: &Board,
    color: Color,
    piece: Piece,
    sq: Square,
    attacks: BitBoard,
    sink: &mut impl Sink,
) {
    let occupied = board.occupied();
    let blockers = attacks & occupied;
    let beyond = match piece {
        Piece::Bishop => get_bishop_moves(sq, occupied ^ blockers),
        Piece::Rook => get_rook_moves(sq, occupied ^ blockers),
        _ => get_bishop_moves(sq, occupied ^ blockers) | get_rook_moves(sq, occupied ^ blockers),
    } & !attacks;
    let targets = match piece {
        Piece::Bishop => {
            board.pieces(Piece::Rook) | board.pieces(Piece::Queen) | board.pieces(Piece::King)
        }
        Piece::Rook => board.pieces(Piece::Queen) | board.pieces(Piece::King),
        _ => board.pieces(Piece::King),
    } & board.colors(!color);
    let hits = (beyond & targets).len() as i32;
    if hits > 0 {
        sink.add(color, XRAY.at(piece as usize), hits);
    }
}

fn pawns(board: &Board, color: Color, sides: &[Side; 2], sink: &mut impl Sink) {
    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn);
    let enemy_pawn_attacks = sides[!color as usize].pawn_attacks;
    let own_pawn_attacks = sides[color as usize].pawn_attacks;
    let occupied = board.occupied();
    let own_rooks = board.colored_pieces(color, Piece::Rook);
    let enemy_has_pieces = crate::rules::has_non_pawn_material(board, !color);
    for sq in own_pawns {
        let rank = relative_rank(color, sq);
        let ahead = forward_file(color, sq);
        if !(ahead & own_pawns).is_empty() {
            sink.add(color, DOUBLED.one(), 1);
        }
        let neighbours = adjacent_file_mask(sq) & own_pawns;
        if neighbours.is_empty() {
            sink.add(color, ISOLATED.one(), 1);
        } else {
            let supporters = support_span(color, sq) & own_pawns;
            if supporters.is_empty()
                && stop_square(color, sq).is_some_and(|stop| enemy_pawn_attacks.has(stop))
            {
                sink.add(color, BACKWARD.one(), 1);
            }
        }
        let beside = adjacent_file_mask(sq) & sq.rank().bitboard() & own_pawns;
        if own_pawn_attacks.has(sq) || !beside.is_empty() {
            sink.add(color, PAWN_CONNECTED.at(rank), 1);
        }
        if (passed_span(color, sq) & enemy_pawns).is_empty() && (ahead & own_pawns).is_empty() {
            sink.add(color, PASSED.at(rank), 1);
            if (ahead & occupied).is_empty() {
                sink.add(color, PASSED_FREE.at(rank), 1);
            }
            if !(forward_file(!color, sq) & own_rooks).is_empty() {
                sink.add(color, ROOK_BEHIND_PASSER.one(), 1);
            }
            if !enemy_has_pieces && unstoppable(board, color, sq, ahead) {
                sink.add(color, UNSTOPPABLE_PASSER.one(), 1);
            }
            if let Some(stop) = stop_square(color, sq) {
                sink.add(
                    color,
                    PASSED_OWN_KING.at(rank),
                    distance(board.king(color), stop),
                );
                sink.add(
                    color,
                    PASSED_ENEMY_KING.at(rank),
                    distance(board.king(!color), stop),
                );
            }
        }
    }
}

/// Rule of the square: with no enemy pieces, can the enemy king still catch this passer?
fn unstoppable(board: &Board, color: Color, sq: Square, ahead: BitBoard) -> bool {
    if !(ahead & board.colors(color)).is_empty() {
        return false;
    }
    let rank = relative_rank(color, sq) as i32;
    let promotion = Square::new(sq.file(), Rank::Eighth.relative_to(color));
    // From its first move a pawn may step two squares.
    let pawn_moves = (7 - rank).min(5);
    let tempo = i32::from(board.side_to_move() != color);
    distance(board.king(!color), promotion) - tempo > pawn_moves
}

/// The square in front of a pawn.
#[inline(always)]
fn stop_square(color: Color, sq: Square) -> Option<Square> {
    sq.try_offset(0, if color == Color::White { 1 } else { -1 })
}

fn king_safety(board: &Board, color: Color, sides: &[Side; 2], sink: &mut impl Sink) {
    let king = board.king(color);
    let enemy = !color;
    let attackers = sides[enemy as usize].king_attackers.min(7);
    sink.add(enemy, KING_ATTACKERS.at(attackers), 1);
    if board.colored_pieces(enemy, Piece::Queen).is_empty() {
        return;
    }
    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    let king_file = king.file() as i32;
    for file in (king_file - 1).max(0)..=(king_file + 1).min(7) {
        let file_mask = cozy_chess::File::index(file as usize).bitboard();
        let shield = file_mask & own_pawns & passed_span(color, king);
        let nearest = shield
            .iter()
            .map(|sq| relative_rank(color, sq) as i32 - relative_rank(color, king) as i32)
            .min();
        match nearest {
            Some(1) => sink.add(color, KING_SHIELD.at(0), 1),
            Some(2) => sink.add(color, KING_SHIELD.at(1), 1),
            _ => sink.add(color, KING_SHIELD.at(2), 1),
        }
        if (file_mask & own_pawns).is_empty() {
            sink.add(color, KING_OPEN_FILE.one(), 1);
        }
    }
}

/// Safe checks against the enemy king and pawns storming its shelter.
fn king_attack(board: &Board, color: Color, sides: &[Side; 2], sink: &mut impl Sink) {
    let us = &sides[color as usize];
    let them = &sides[!color as usize];
    let king = board.king(!color);
    let occupied = board.occupied();
    let safe = !them.attacks & !board.colors(color);
    let diagonal = get_bishop_moves(king, occupied);
    let straight = get_rook_moves(king, occupied);
    let checks = [
        (Piece::Knight, get_knight_moves(king)),
        (Piece::Bishop, diagonal),
        (Piece::Rook, straight),
        (Piece::Queen, diagonal | straight),
    ];
    for (piece, from) in checks {
        let n = (from & us.by_piece[piece as usize] & safe).len() as i32;
        if n > 0 {
            sink.add(color, SAFE_CHECK.at(piece as usize), n);
        }
    }
    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    let king_file = king.file() as i32;
    for file in (king_file - 1).max(0)..=(king_file + 1).min(7) {
        let on_file = own_pawns & cozy_chess::File::index(file as usize).bitboard();
        let most_advanced = on_file
            .iter()
            .map(|sq| relative_rank(color, sq))
            .max()
            .unwrap_or(0);
        sink.add(color, PAWN_STORM.at(most_advanced), 1);
    }
}

/// Enemy pieces that hang (attacked, undefended) or stand attacked by cheaper pieces.
fn threats(board: &Board, color: Color, sides: &[Side; 2], sink: &mut impl Sink) {
    let us = &sides[color as usize];
    let them = &sides[!color as usize];
    let enemy = board.colors(!color);
    for piece in [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
    ] {
        let hanging = (enemy & board.pieces(piece) & us.attacks & !them.attacks).len() as i32;
        if hanging > 0 {
            sink.add(color, HANGING.at(piece as usize), hanging);
        }
    }
    let non_pawns = enemy & !board.pieces(Piece::Pawn) & !board.pieces(Piece::King);
    let majors = enemy & (board.pieces(Piece::Rook) | board.pieces(Piece::Queen));
    let queens = enemy & board.pieces(Piece::Queen);
    let by_pawn = (non_pawns & us.pawn_attacks).len() as i32;
    let minor_attacks = us.by_piece[Piece::Knight as usize] | us.by_piece[Piece::Bishop as usize];
    let by_minor = (majors & minor_attacks).len() as i32;
    let by_rook = (queens & us.by_piece[Piece::Rook as usize]).len() as i32;
    for (i, n) in [by_pawn, by_minor, by_rook].into_iter().enumerate() {
        if n > 0 {
            sink.add(color, THREAT.at(i), n);
        }
    }
}
