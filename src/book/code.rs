//! The move code of Yudin's library: a move with its rating stored as one signed number ±r·m·n.
//!
//! Design note: Yudin numbers the squares 1–64 from a1 = 1, b1 = 2 … h1 = 8, a2 = 9 … h8 = 64,
//! so Nc3–e4 is m = 19, n = 29, and the move rated +2 (White has a decisive advantage) is written
//! +21929. The number is `sign(r) · (|r|·10000 + m·100 + n)`; a move rated 0 is the positive
//! `m·100 + n`. Captures are ordinary moves. The special moves use codes above 64 in the `n` field:
//!
//! | move | m | n |
//! |---|---|---|
//! | castling king side (O-O) | king's square (5 or 61) | 65 |
//! | castling queen side (O-O-O) | king's square (5 or 61) | 66 |
//! | en passant | pawn's square | 70 + file of the target square (71 = a … 78 = h) |
//! | promotion | pawn's square | 80 + 4·d + p, d = 0 straight, 1 capture towards the a-file, 2 towards the h-file; p = 0 knight, 1 bishop, 2 rook, 3 queen (80–91) |
//!
//! The largest magnitude is 2·10000 + 64·100 + 91 = 26491, so a rated move fits an `i16`: the
//! LIB array costs two bytes a move. Decoding needs no board: the target rank of an en-passant
//! capture or a promotion follows from the pawn's rank, and a castling king takes its own rook
//! (the internal form of castling in `rules`).

use crate::rules::{is_castling, is_en_passant, Board, File, Move, Piece, Rank, Square};
use std::fmt;

/// An Informator rating: 0 equal, +1 White is better, −1 Black is better, ±2 decisive.
pub type Rating = i8;

/// The best rating for White.
pub const MAX_RATING: Rating = 2;

const CASTLE_SHORT: u16 = 65;
const CASTLE_LONG: u16 = 66;
const EN_PASSANT: u16 = 70;
const PROMOTION: u16 = 80;

/// A move without its rating: `m·100 + n` (see the module note).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveCode(u16);

/// Why a number is not a valid rated move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeError(pub i32);

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a valid rated move code", self.0)
    }
}

impl std::error::Error for CodeError {}

/// Yudin's number of a square, 1–64.
pub fn square_number(square: Square) -> u16 {
    square as u16 + 1
}

fn square_from_number(n: u16) -> Option<Square> {
    (1..=64)
        .contains(&n)
        .then(|| Square::index(usize::from(n - 1)))
}

fn piece_index(piece: Piece) -> Option<u16> {
    match piece {
        Piece::Knight => Some(0),
        Piece::Bishop => Some(1),
        Piece::Rook => Some(2),
        Piece::Queen => Some(3),
        _ => None,
    }
}

const PROMOTION_PIECES: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

impl MoveCode {
    /// The code of a legal move in `board` (castling is king-takes-rook, as in `rules`).
    pub fn encode(board: &Board, mv: Move) -> MoveCode {
        MoveCode::encode_kind(mv, is_castling(board, mv), is_en_passant(board, mv))
    }

    /// The code of a move whose kind is already known.
    #[inline]
    pub fn encode_kind(mv: Move, castling: bool, en_passant: bool) -> MoveCode {
        let m = square_number(mv.from);
        let n = if castling {
            if mv.to.file() > mv.from.file() {
                CASTLE_SHORT
            } else {
                CASTLE_LONG
            }
        } else if en_passant {
            EN_PASSANT + mv.to.file() as u16 + 1
        } else if let Some(index) = mv.promotion.and_then(piece_index) {
            let direction = match (mv.to.file() as i32) - (mv.from.file() as i32) {
                0 => 0,
                d if d < 0 => 1,
                _ => 2,
            };
            PROMOTION + 4 * direction + index
        } else {
            square_number(mv.to)
        };
        MoveCode(m * 100 + n)
    }

    /// Checks the two fields of a code; `None` when they do not describe a move shape.
    pub fn from_number(number: u16) -> Option<MoveCode> {
        let code = MoveCode(number);
        code.decode().map(|_| code)
    }

    /// The number `m·100 + n`.
    pub fn number(self) -> u16 {
        self.0
    }

    /// The from-square field `m`.
    pub fn m(self) -> u16 {
        self.0 / 100
    }

    /// The to-square or special field `n`.
    pub fn n(self) -> u16 {
        self.0 % 100
    }

    /// The move this code stands for (castling as king-takes-rook), or `None` for a number that
    /// is not a move shape. Legality in a position is the caller's business.
    pub fn decode(self) -> Option<Move> {
        let from = square_from_number(self.m())?;
        let n = self.n();
        let (rank, file) = (from.rank(), from.file());
        let mv = |to: Square, promotion: Option<Piece>| Move {
            from,
            to,
            promotion,
        };
        match n {
            1..=64 => {
                let to = square_from_number(n)?;
                (to != from).then(|| mv(to, None))
            }
            CASTLE_SHORT | CASTLE_LONG => {
                if from != Square::E1 && from != Square::E8 {
                    return None;
                }
                let rook = if n == CASTLE_SHORT { File::H } else { File::A };
                Some(mv(Square::new(rook, rank), None))
            }
            71..=78 => {
                let to_rank = match rank {
                    Rank::Fifth => Rank::Sixth,
                    Rank::Fourth => Rank::Third,
                    _ => return None,
                };
                let to_file = File::index(usize::from(n - EN_PASSANT - 1));
                ((to_file as i32 - file as i32).abs() == 1)
                    .then(|| mv(Square::new(to_file, to_rank), None))
            }
            80..=91 => {
                let to_rank = match rank {
                    Rank::Seventh => Rank::Eighth,
                    Rank::Second => Rank::First,
                    _ => return None,
                };
                let (direction, piece) = ((n - PROMOTION) / 4, (n - PROMOTION) % 4);
                let to_file = match direction {
                    0 => file as i32,
                    1 => file as i32 - 1,
                    _ => file as i32 + 1,
                };
                if !(0..8).contains(&to_file) {
                    return None;
                }
                let to = Square::new(File::index(to_file as usize), to_rank);
                Some(mv(to, Some(PROMOTION_PIECES[usize::from(piece)])))
            }
            _ => None,
        }
    }
}

impl fmt::Display for MoveCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Packs a rating (−2..=2) and a move code into Yudin's signed number.
pub fn pack(rating: Rating, code: MoveCode) -> i16 {
    let rating = rating.clamp(-MAX_RATING, MAX_RATING);
    let magnitude = i16::from(rating.unsigned_abs()) * 10_000 + code.0 as i16;
    if rating < 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// The move code of a packed number (no checks; the tree checks every entry when it is loaded).
#[inline]
pub fn code_of(packed: i16) -> MoveCode {
    MoveCode(packed.unsigned_abs() % 10_000)
}

/// The rating of a packed number.
#[inline]
pub fn rating_of(packed: i16) -> Rating {
    let r = (packed.unsigned_abs() / 10_000) as Rating;
    if packed < 0 {
        -r
    } else {
        r
    }
}

/// Unpacks and checks a number read from a file.
pub fn unpack(packed: i16) -> Result<(Rating, MoveCode), CodeError> {
    let magnitude = packed.unsigned_abs();
    let rating = rating_of(packed);
    let code = MoveCode::from_number(magnitude % 10_000).ok_or(CodeError(packed.into()))?;
    if magnitude / 10_000 > MAX_RATING as u16 || (packed < 0 && rating == 0) {
        return Err(CodeError(packed.into()));
    }
    Ok((rating, code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::move_from_uci;
    use crate::rules::{legal_moves, parse_fen};

    fn round_trip_all(fen: &str) -> usize {
        let board = parse_fen(fen, false).unwrap();
        let moves = legal_moves(&board);
        let mut seen = std::collections::HashSet::new();
        for &mv in &moves {
            let code = MoveCode::encode(&board, mv);
            assert!(seen.insert(code), "{fen}: two moves share code {code}");
            assert_eq!(code.decode(), Some(mv), "{fen}: {mv} code {code}");
            for rating in -2..=2 {
                let packed = pack(rating, code);
                assert_eq!(unpack(packed), Ok((rating, code)), "{mv} {rating}");
                assert_eq!((rating_of(packed), code_of(packed)), (rating, code));
            }
        }
        moves.len()
    }

    #[test]
    fn seed_example_knight_c3_e4_decisive_for_white() {
        let board = parse_fen(
            "rnbqkb1r/pppppppp/8/8/4n3/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        let mv = move_from_uci(&board, "c3e4", false).unwrap();
        assert_eq!(pack(2, MoveCode::encode(&board, mv)), 21929);
        assert_eq!(pack(-2, MoveCode::encode(&board, mv)), -21929);
    }

    #[test]
    fn every_move_kind_round_trips() {
        // Quiet moves, captures and double pushes.
        assert_eq!(round_trip_all(crate::rules::START_FEN), 20);
        // Castling on both sides for both colours.
        for fen in [
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
        ] {
            round_trip_all(fen);
            let board = parse_fen(fen, false).unwrap();
            let from = if fen.contains(" w ") { "e1" } else { "e8" };
            for (to, n) in [("g", 65), ("c", 66)] {
                let rank = &from[1..];
                let mv = move_from_uci(&board, &format!("{from}{to}{rank}"), false).unwrap();
                assert_eq!(MoveCode::encode(&board, mv).n(), n);
            }
        }
        // En passant both ways for both colours.
        for (fen, uci, n) in [
            ("4k3/8/8/3pPp2/8/8/8/4K3 w - d6 0 1", "e5d6", 74),
            ("4k3/8/8/3pPp2/8/8/8/4K3 w - f6 0 1", "e5f6", 76),
            ("4k3/8/8/8/2PpP3/8/8/4K3 b - c3 0 1", "d4c3", 73),
            ("4k3/8/8/8/2PpP3/8/8/4K3 b - e3 0 1", "d4e3", 75),
        ] {
            round_trip_all(fen);
            let board = parse_fen(fen, false).unwrap();
            let mv = move_from_uci(&board, uci, false).unwrap();
            assert_eq!(MoveCode::encode(&board, mv).n(), n, "{uci}");
        }
        // Promotions: four pieces, straight and both captures, both colours, edge files.
        for fen in [
            "1n1n2k1/2P5/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/5p2/K3N1N1 b - - 0 1",
            "1n5k/P7/8/8/8/8/7p/K5N1 w - - 0 1",
        ] {
            round_trip_all(fen);
        }
        let board = parse_fen("1n1n2k1/2P5/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        let codes: Vec<u16> = legal_moves(&board)
            .into_iter()
            .filter(|m| m.promotion.is_some())
            .map(|m| MoveCode::encode(&board, m).n())
            .collect();
        assert_eq!(codes.len(), 12);
        assert!(codes.iter().all(|n| (80..=91).contains(n)));
    }

    #[test]
    fn rejects_numbers_that_are_not_moves() {
        // No from-square; from = to; castling from h8 or d2; en passant from the third rank;
        // promotion from the fifth rank; a capture-promotion off the board; rating 3; code 0.
        for bad in [
            0i16, 101, 1010, 6465, 1265, 2071, 3380, 4984, 30000, 7099, 6500,
        ] {
            assert!(unpack(bad).is_err(), "{bad}");
        }
        // Valid shapes: e1 O-O, black g2-g1=N, white b7xa8=Q.
        for good in [565i16, 1580, 5087] {
            assert!(unpack(good).is_ok(), "{good}");
        }
        // 1.e4 rated 0 is 1229; a rating of −0 written as −1229 is malformed.
        assert_eq!(unpack(1229).unwrap().0, 0);
        assert!(unpack(-1229).is_err());
        // Rating 3 is off the scale.
        assert!(unpack(31229).is_err());
    }
}
