//! How a frame of the self-play data stores a game's plies: the fixed coding of format
//! versions 1 and 2, and the compact coding of version 3.
//!
//! Design note: the fixed coding spends 4 bytes a ply (the move's 16-bit code, the score as
//! i16), much of which xz cannot squeeze out. The compact coding stores what a
//! reader can already predict as little as it can: the move as its index among the legal moves
//! of the position sorted by their 16-bit code (one byte, since a position has at most 218
//! legal moves, and an order that no change of the move generator can alter), and the score as
//! its difference from the previous ply's score negated (the search sees the same line from
//! the other side, so the difference is mostly small), zigzag-coded as a varint (one byte for
//! differences within ±63). The reader replays the game anyway, so the legal moves cost it one
//! generation a ply. What it saved on the committed data: docs/learned-evaluation.md, "Data
//! density".

use crate::rules::notation::move_to_uci;
use crate::rules::{Board, Move, Piece, Square};

/// One played ply: the move the search chose and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The search score, centipawns from the side to move's view.
    pub score: i16,
}

/// How a frame's plies are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlyCoding {
    /// Versions 1 and 2: per ply the move's 16-bit code and the score, 4 bytes.
    Fixed,
    /// Version 3: per ply the move's index among the sorted legal moves (1 byte) and the
    /// zigzag varint of the score's difference from the previous score negated.
    Compact,
}

impl PlyCoding {
    /// The coding of a format version, if Tropa knows the version.
    pub fn of_version(version: u16) -> Option<PlyCoding> {
        match version {
            1 | 2 => Some(PlyCoding::Fixed),
            3 => Some(PlyCoding::Compact),
            _ => None,
        }
    }

    /// Appends `plies`, played from `start`, to `out`. The compact coding needs legal moves:
    /// an illegal one is an error.
    pub fn write(self, start: &Board, plies: &[Ply], out: &mut Vec<u8>) -> Result<(), String> {
        match self {
            PlyCoding::Fixed => {
                for ply in plies {
                    out.extend_from_slice(&encode_move(ply.mv).to_le_bytes());
                    out.extend_from_slice(&ply.score.to_le_bytes());
                }
            }
            PlyCoding::Compact => {
                let mut board = start.clone();
                let mut previous = 0i16;
                let mut codes = Vec::with_capacity(64);
                for (i, ply) in plies.iter().enumerate() {
                    sorted_codes(&board, &mut codes);
                    let index = codes.binary_search(&encode_move(ply.mv)).map_err(|_| {
                        let uci = move_to_uci(&board, ply.mv, true);
                        format!("ply {}: {uci} is not legal", i + 1)
                    })?;
                    // At most 218 legal moves: the index fits a byte.
                    out.push(index as u8);
                    let delta = i32::from(ply.score) + i32::from(previous);
                    write_varint(zigzag(delta), out);
                    board.play_unchecked(ply.mv);
                    previous = ply.score;
                }
            }
        }
        Ok(())
    }

    /// Reads `count` plies played from `start` that fill `bytes` exactly.
    pub fn read(self, start: &Board, count: usize, bytes: &[u8]) -> Result<Vec<Ply>, String> {
        let mut board = start.clone();
        let mut plies = Vec::with_capacity(count);
        let mut at = 0;
        let mut previous = 0i16;
        let mut codes = Vec::with_capacity(64);
        for i in 0..count {
            let ply = match self {
                PlyCoding::Fixed => {
                    let field = bytes.get(at..at + 4).ok_or_else(|| {
                        format!("{count} plies do not fill {} bytes", bytes.len())
                    })?;
                    at += 4;
                    let code = u16::from_le_bytes([field[0], field[1]]);
                    let mv = decode_move(code)
                        .filter(|&mv| board.is_legal(mv))
                        .ok_or_else(|| format!("ply {}: illegal move code {code:#06x}", i + 1))?;
                    let score = i16::from_le_bytes([field[2], field[3]]);
                    Ply { mv, score }
                }
                PlyCoding::Compact => {
                    let index = *bytes
                        .get(at)
                        .ok_or_else(|| format!("ply {}: the frame ends", i + 1))?;
                    sorted_codes(&board, &mut codes);
                    let mv = codes
                        .get(usize::from(index))
                        .and_then(|&code| decode_move(code))
                        .ok_or_else(|| {
                            format!(
                                "ply {}: illegal move index {index} of {}",
                                i + 1,
                                codes.len()
                            )
                        })?;
                    let (zigzagged, used) = read_varint(&bytes[at + 1..])
                        .ok_or_else(|| format!("ply {}: damaged score", i + 1))?;
                    at += 1 + used;
                    // Widened: a damaged varint may hold any 32-bit difference.
                    let score = i64::from(unzigzag(zigzagged)) - i64::from(previous);
                    let score = i16::try_from(score)
                        .map_err(|_| format!("ply {}: score out of range", i + 1))?;
                    Ply { mv, score }
                }
            };
            board.play_unchecked(ply.mv);
            previous = ply.score;
            plies.push(ply);
        }
        if at != bytes.len() {
            return Err(format!(
                "{count} plies take {at} bytes, the frame has {}",
                bytes.len()
            ));
        }
        Ok(plies)
    }
}

/// The legal moves' 16-bit codes of `board` in ascending order (the compact coding's move
/// index), into `codes`, which a game's plies reuse: a whole data set is read this way.
fn sorted_codes(board: &Board, codes: &mut Vec<u16>) {
    codes.clear();
    board.generate_moves(|moves| {
        codes.extend(moves.into_iter().map(encode_move));
        false
    });
    codes.sort_unstable();
}

/// A move's 16-bit code: from + 64·to + 4096·promotion (0 none, 1 N, 2 B, 3 R, 4 Q; castling
/// as the king taking its rook).
fn encode_move(mv: Move) -> u16 {
    let promotion = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(_) => 4,
    };
    mv.from as u16 | (mv.to as u16) << 6 | promotion << 12
}

fn decode_move(code: u16) -> Option<Move> {
    let promotion = match code >> 12 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => return None,
    };
    Some(Move {
        from: Square::index(usize::from(code & 63)),
        to: Square::index(usize::from(code >> 6 & 63)),
        promotion,
    })
}

/// Small magnitudes of either sign to small unsigned numbers: 0, −1, 1, −2 … → 0, 1, 2, 3 …
fn zigzag(value: i32) -> u32 {
    ((value << 1) ^ (value >> 31)) as u32
}

fn unzigzag(value: u32) -> i32 {
    (value >> 1) as i32 ^ -((value & 1) as i32)
}

/// Seven bits a byte, low bits first, the high bit set on every byte but the last.
fn write_varint(mut value: u32, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The value and the bytes it took; `None` for a varint that runs off the end or past 32 bits.
fn read_varint(bytes: &[u8]) -> Option<(u32, usize)> {
    let mut value = 0u32;
    for (i, &byte) in bytes.iter().enumerate().take(5) {
        let bits = u32::from(byte & 0x7f);
        if i == 4 && bits > 0x0f {
            return None;
        }
        value |= bits << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_varints_round_trip_and_stay_short_for_small_differences() {
        for value in [
            0,
            1,
            -1,
            63,
            -64,
            64,
            300,
            -300,
            32_767 * 2,
            -65_534,
            i32::MAX,
            i32::MIN,
        ] {
            let mut out = Vec::new();
            write_varint(zigzag(value), &mut out);
            assert_eq!(read_varint(&out), Some((zigzag(value), out.len())));
            assert_eq!(unzigzag(zigzag(value)), value);
            if (-64..64).contains(&value) {
                assert_eq!(out.len(), 1, "{value}");
            }
        }
        assert_eq!(read_varint(&[0x80, 0x80]), None);
        assert_eq!(read_varint(&[0xff, 0xff, 0xff, 0xff, 0x7f]), None);
    }

    #[test]
    fn damaged_compact_plies_are_errors_not_panics() {
        let start = crate::rules::parse_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        let read = |bytes: &[u8]| PlyCoding::Compact.read(&start, 1, bytes).unwrap_err();
        // The largest difference a varint holds, far outside the scores.
        assert!(read(&[0, 0xff, 0xff, 0xff, 0xff, 0x0f]).contains("out of range"));
        assert!(read(&[0, 0x80]).contains("damaged score"));
        assert!(read(&[20, 0]).contains("illegal move index 20 of 20"));
        assert!(read(&[]).contains("the frame ends"));
        assert!(read(&[0, 0, 0]).contains("1 plies take 2 bytes, the frame has 3"));
    }

    #[test]
    fn every_move_code_decodes_to_itself() {
        for code in (0..5u16 << 12).step_by(7) {
            assert_eq!(decode_move(code).map(encode_move), Some(code));
        }
        assert_eq!(decode_move(5 << 12), None);
    }
}
