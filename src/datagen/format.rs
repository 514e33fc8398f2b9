//! The self-play data file: whole games, each a checksummed frame, behind a versioned header.
//!
//! Design note: a game is stored as its start position, the move and search score of every ply
//! and the result, about 4 bytes a position; the positions are rebuilt by replaying the moves,
//! and the quiet filter (side to move not in check, best move neither a capture nor a
//! promotion) is applied on reading, so the rule can change without new data. Each game is one
//! frame with its own length and checksum: a writer killed in the middle of a frame leaves a
//! torn tail that the reader detects and drops, and `tropa datagen` resumes after the last
//! whole game. Layout, version 3 (little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TropaDG\0` |
//! | 8 | 2 | format version (3) |
//! | 10 | 2 | reserved, 0 |
//! | 12 | 4 | node limit per move the games were played with |
//! | 16 | 8 | seed of the run |
//! | 24 | 8 | the evaluation the games were played with: 0 the hand-crafted one, otherwise the FNV-1a 64 checksum of the net file's bytes |
//! | 32 | … | frames, one per game |
//!
//! Version 2 has the same header and stores the plies in the fixed coding; version 1 is version 2
//! without the evaluation (frames from byte 24), its runs all played with the hand-crafted
//! evaluation and read as such. A run resumed keeps its file's version and coding, and
//! `tropa datagen-convert` rewrites an older file as version 3.
//!
//! A frame: payload length L (u32), FNV-1a 64 checksum of the payload (u64), then the payload:
//!
//! | size | field |
//! |---|---|
//! | 4 | game index in the run (u32; a game is a function of the seed and its index) |
//! | 1 | result, White's view: 0 loss, 1 draw, 2 win |
//! | 1 | F, length of the start FEN |
//! | F | start FEN (standard castling notation) |
//! | 2 | P, number of plies (u16) |
//! | … | the P plies in the version's coding (`coding`): each the move and the search score (centipawns, side to move's view; mates as the search's ±(32000 − plies)) |

pub use super::coding::{Ply, PlyCoding};
use crate::rules::{is_quiet, parse_fen, write_fen, Board};
use crate::util::fnv1a64;
use std::fmt;

/// The file signature.
pub const MAGIC: [u8; 8] = *b"TropaDG\0";
/// The format version this Tropa writes (it reads 1 and 2 too).
pub const VERSION: u16 = 3;
/// Bytes of the file header.
pub const HEADER: usize = 32;
/// Bytes of a version 1 header.
pub const HEADER_V1: usize = 24;
/// Bytes of a frame's length and checksum.
const FRAME_HEADER: usize = 12;
/// Longest game a frame can hold (plies).
pub const MAX_PLIES: usize = u16::MAX as usize;

/// The evaluation the games of a run were played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-crafted evaluation.
    HandCrafted,
    /// A net, known by the FNV-1a 64 checksum of its file's bytes.
    Net(u64),
}

impl Evaluation {
    /// The evaluation with `net` (its file's bytes), or the hand-crafted one.
    pub fn of(net: Option<&[u8]>) -> Self {
        net.map_or(Evaluation::HandCrafted, |bytes| {
            Evaluation::Net(fnv1a64(bytes))
        })
    }

    /// The header field: 0 for the hand-crafted evaluation.
    fn code(self) -> u64 {
        match self {
            Evaluation::HandCrafted => 0,
            Evaluation::Net(sum) => sum,
        }
    }

    /// The evaluation a header field names.
    fn from_code(code: u64) -> Self {
        match code {
            0 => Evaluation::HandCrafted,
            sum => Evaluation::Net(sum),
        }
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Evaluation::HandCrafted => write!(f, "the hand-crafted evaluation"),
            Evaluation::Net(sum) => write!(f, "the net with checksum {sum:016x}"),
        }
    }
}

/// What the file header records about the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunHeader {
    /// Node limit per move.
    pub nodes: u32,
    /// Seed of the run.
    pub seed: u64,
    /// The evaluation the games were played with.
    pub evaluation: Evaluation,
}

impl RunHeader {
    /// The header's bytes.
    pub fn to_bytes(self) -> [u8; HEADER] {
        let mut out = [0; HEADER];
        out[..8].copy_from_slice(&MAGIC);
        out[8..10].copy_from_slice(&VERSION.to_le_bytes());
        out[12..16].copy_from_slice(&self.nodes.to_le_bytes());
        out[16..24].copy_from_slice(&self.seed.to_le_bytes());
        out[24..32].copy_from_slice(&self.evaluation.code().to_le_bytes());
        out
    }
}

/// The result of a game from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Black won.
    BlackWin,
    /// Drawn.
    Draw,
    /// White won.
    WhiteWin,
}

impl Outcome {
    /// White's score: 0, ½ or 1.
    pub fn white_score(self) -> f32 {
        match self {
            Outcome::BlackWin => 0.0,
            Outcome::Draw => 0.5,
            Outcome::WhiteWin => 1.0,
        }
    }

    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(code: u8) -> Option<Outcome> {
        [Outcome::BlackWin, Outcome::Draw, Outcome::WhiteWin]
            .get(code as usize)
            .copied()
    }
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Index of the game in its run.
    pub index: u32,
    /// Where the game began (after the opening and the random moves).
    pub start: Board,
    /// Every ply played by the search.
    pub plies: Vec<Ply>,
    /// How the game ended (or was adjudicated).
    pub outcome: Outcome,
}

/// A position worth learning from, with its labels.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// The search score, centipawns from the side to move's view.
    pub score: i16,
    /// The game's result.
    pub outcome: Outcome,
}

/// Why a data file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError(pub String);

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DataError {}

impl GameRecord {
    /// The game as one frame in `coding`: length, checksum, payload. A move that is not legal
    /// is an error in the compact coding.
    pub fn to_frame(&self, coding: PlyCoding) -> Result<Vec<u8>, String> {
        let fen = write_fen(&self.start, false);
        let mut payload = Vec::with_capacity(8 + fen.len() + 4 * self.plies.len());
        payload.extend_from_slice(&self.index.to_le_bytes());
        payload.push(self.outcome.code());
        // A FEN is at most ~90 characters; the length byte cannot overflow.
        payload.push(fen.len() as u8);
        payload.extend_from_slice(fen.as_bytes());
        let plies = &self.plies[..self.plies.len().min(MAX_PLIES)];
        payload.extend_from_slice(&(plies.len() as u16).to_le_bytes());
        coding.write(&self.start, plies, &mut payload)?;
        let mut frame = Vec::with_capacity(FRAME_HEADER + payload.len());
        frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        frame.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        frame.extend_from_slice(&payload);
        Ok(frame)
    }

    fn from_payload(payload: &[u8], coding: PlyCoding) -> Result<GameRecord, String> {
        let short = || "payload too short".to_string();
        let index = u32::from_le_bytes(payload.get(..4).ok_or_else(short)?.try_into().unwrap());
        let outcome =
            Outcome::from_code(*payload.get(4).ok_or_else(short)?).ok_or("unknown result code")?;
        let fen_len = usize::from(*payload.get(5).ok_or_else(short)?);
        let fen = payload.get(6..6 + fen_len).ok_or_else(short)?;
        let fen = std::str::from_utf8(fen).map_err(|_| "start FEN is not text")?;
        let start = parse_fen(fen, false).map_err(|e| e.to_string())?;
        let at = 6 + fen_len;
        let count = u16::from_le_bytes(
            payload
                .get(at..at + 2)
                .ok_or_else(short)?
                .try_into()
                .unwrap(),
        );
        let plies = coding.read(&start, usize::from(count), &payload[at + 2..])?;
        Ok(GameRecord {
            index,
            start,
            plies,
            outcome,
        })
    }

    /// The quiet positions of the game with their labels: side to move not in check, the move
    /// played neither a capture nor a promotion.
    pub fn samples(&self) -> impl Iterator<Item = Sample> + '_ {
        let mut board = self.start.clone();
        self.plies.iter().filter_map(move |ply| {
            let quiet = board.checkers().is_empty() && is_quiet(&board, ply.mv);
            let sample = quiet.then(|| Sample {
                board: board.clone(),
                score: ply.score,
                outcome: self.outcome,
            });
            board.play_unchecked(ply.mv);
            sample
        })
    }
}

/// What reading a data file found.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// The run the file belongs to.
    pub header: RunHeader,
    /// How its frames store the plies (by its format version); a resumed run keeps it.
    pub coding: PlyCoding,
    /// The whole games, in file order.
    pub games: Vec<GameRecord>,
    /// Length of the intact part of the file (header and whole frames).
    pub intact_len: usize,
    /// Bytes after it that were dropped (a torn last frame), 0 for a whole file.
    pub dropped: usize,
}

/// Reads a data file image. A damaged or partial last frame is dropped (see `DataFile::dropped`);
/// a wrong header is an error, and so is a damaged frame followed by whole ones, since that is
/// not what a killed writer leaves.
pub fn read(bytes: &[u8]) -> Result<DataFile, DataError> {
    let fail = |reason: String| DataError(reason);
    if bytes.len() < HEADER_V1 {
        return Err(fail(format!(
            "{} bytes are too few for a self-play data header",
            bytes.len()
        )));
    }
    if bytes[..8] != MAGIC {
        return Err(fail("not a Tropa self-play data file (wrong magic)".into()));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    let coding = PlyCoding::of_version(version).ok_or_else(|| {
        fail(format!(
            "data format version {version}, this Tropa reads 1 to {VERSION}"
        ))
    })?;
    let (evaluation, mut at) = match version {
        1 => (Evaluation::HandCrafted, HEADER_V1),
        _ => {
            let code = bytes.get(24..HEADER).ok_or_else(|| {
                fail(format!(
                    "{} bytes are too few for a version {version} header",
                    bytes.len()
                ))
            })?;
            let code = u64::from_le_bytes(code.try_into().unwrap());
            (Evaluation::from_code(code), HEADER)
        }
    };
    let header = RunHeader {
        nodes: u32::from_le_bytes(bytes[12..16].try_into().unwrap()),
        seed: u64::from_le_bytes(bytes[16..24].try_into().unwrap()),
        evaluation,
    };
    let mut games = Vec::new();
    while at < bytes.len() {
        match frame_at(bytes, at, coding) {
            Ok((game, next)) => {
                games.push(game);
                at = next;
            }
            Err(reason) => {
                // A torn tail is the last frame; anything after it means real damage.
                let tail_is_torn = frame_len(bytes, at).is_none_or(|end| end >= bytes.len());
                if !tail_is_torn {
                    return Err(fail(format!("frame at byte {at}: {reason}")));
                }
                break;
            }
        }
    }
    Ok(DataFile {
        header,
        coding,
        games,
        intact_len: at,
        dropped: bytes.len() - at,
    })
}

/// The image of a file of the current version: `header`, then `games` in the compact coding.
pub fn image(header: RunHeader, games: &[GameRecord]) -> Result<Vec<u8>, String> {
    let mut bytes = header.to_bytes().to_vec();
    for game in games {
        let frame = game
            .to_frame(PlyCoding::Compact)
            .map_err(|e| format!("game {}: {e}", game.index))?;
        bytes.extend(frame);
    }
    Ok(bytes)
}

/// The end of the frame at `at` as its length field says, if the field is there.
fn frame_len(bytes: &[u8], at: usize) -> Option<usize> {
    let len = bytes.get(at..at + 4)?;
    Some(at + FRAME_HEADER + u32::from_le_bytes(len.try_into().unwrap()) as usize)
}

fn frame_at(bytes: &[u8], at: usize, coding: PlyCoding) -> Result<(GameRecord, usize), String> {
    let end = frame_len(bytes, at).ok_or("truncated frame header")?;
    let payload = bytes.get(at + FRAME_HEADER..end).ok_or("truncated frame")?;
    let stored = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().unwrap());
    if fnv1a64(payload) != stored {
        return Err("checksum mismatch".into());
    }
    Ok((GameRecord::from_payload(payload, coding)?, end))
}

/// Reads a data file from disk; `.xz` files are decompressed through `xz -dc`.
pub fn read_path(path: &std::path::Path) -> Result<DataFile, DataError> {
    let name = path.display();
    let bytes = if path.extension().is_some_and(|e| e == "xz") {
        let out = std::process::Command::new("xz")
            .arg("-dc")
            .arg(path)
            .output()
            .map_err(|e| DataError(format!("{name}: cannot run xz: {e}")))?;
        if !out.status.success() {
            return Err(DataError(format!(
                "{name}: xz failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        out.stdout
    } else {
        std::fs::read(path).map_err(|e| DataError(format!("{name}: {e}")))?
    };
    read(&bytes).map_err(|e| DataError(format!("{name}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    fn sample_game() -> GameRecord {
        // Castling, a capture, en passant and a promotion to a knight, all in one record.
        let game = Game::from_uci(
            Some("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"),
            &["e5d6", "e8g8", "b7b8n", "a8b8", "e1c1"],
            false,
        )
        .unwrap();
        GameRecord {
            index: 7,
            start: game.start().clone(),
            plies: game
                .moves()
                .iter()
                .enumerate()
                .map(|(i, &mv)| Ply {
                    mv,
                    score: 30 - 20 * i as i16,
                })
                .collect(),
            outcome: Outcome::Draw,
        }
    }

    const HEADER_FIELDS: RunHeader = RunHeader {
        nodes: 5000,
        seed: 42,
        evaluation: Evaluation::Net(0xfeed),
    };

    fn file_of(games: &[GameRecord]) -> Vec<u8> {
        image(HEADER_FIELDS, games).unwrap()
    }

    /// A file of an older version: its header and the fixed coding.
    fn old_file_of(version: u16, games: &[GameRecord]) -> Vec<u8> {
        let header = HEADER_FIELDS.to_bytes();
        let mut bytes = header[..if version == 1 { HEADER_V1 } else { HEADER }].to_vec();
        bytes[8..10].copy_from_slice(&version.to_le_bytes());
        for g in games {
            bytes.extend(g.to_frame(PlyCoding::Fixed).unwrap());
        }
        bytes
    }

    #[test]
    fn games_round_trip_with_every_kind_of_move() {
        let game = sample_game();
        let bytes = file_of(&[game.clone(), game.clone()]);
        let file = read(&bytes).unwrap();
        assert_eq!(file.games, vec![game.clone(), game.clone()]);
        assert_eq!(file.header, HEADER_FIELDS);
        assert_eq!(file.coding, PlyCoding::Compact);
        assert_eq!(file.dropped, 0);
        // The compact coding: the move index and one byte of score difference a ply, two for
        // the last (−50 after −30: −80); the fixed coding of version 2 takes 4 bytes a ply.
        let old = old_file_of(2, &[game.clone(), game]);
        assert_eq!(old.len() - bytes.len(), 2 * (4 * 5 - (2 * 5 + 1)));
    }

    #[test]
    fn older_versions_are_read_and_version_1_as_played_by_the_hand_crafted_evaluation() {
        let game = sample_game();
        let v2 = old_file_of(2, std::slice::from_ref(&game));
        let file = read(&v2).unwrap();
        assert_eq!(
            (file.header, file.coding),
            (HEADER_FIELDS, PlyCoding::Fixed)
        );
        assert_eq!(file.games, vec![game.clone()]);
        let v1 = old_file_of(1, std::slice::from_ref(&game));
        let file = read(&v1).unwrap();
        assert_eq!(file.header.evaluation, Evaluation::HandCrafted);
        assert_eq!((file.header.nodes, file.header.seed), (5000, 42));
        assert_eq!(file.games, vec![game]);
        assert_eq!(file.intact_len, v1.len());
        // A version 2 header cut short is an error, not a panic.
        assert!(read(&v2[..HEADER - 1]).unwrap_err().0.contains("too few"));
        assert_eq!(Evaluation::of(None), Evaluation::HandCrafted);
        assert_ne!(
            Evaluation::of(Some(b"net")),
            Evaluation::of(Some(b"other net"))
        );
    }

    #[test]
    fn mate_scores_and_wide_swings_survive_the_compact_coding() {
        let mut game = sample_game();
        let scores = [31_990, -31_989, i16::MIN, i16::MAX, 0];
        for (ply, score) in game.plies.iter_mut().zip(scores) {
            ply.score = score;
        }
        assert_eq!(read(&file_of(&[game.clone()])).unwrap().games, vec![game]);
    }

    #[test]
    fn only_quiet_positions_are_samples() {
        let game = sample_game();
        // e5d6 (en passant) and a8b8 (capture) and b7b8n (promotion) are not quiet.
        let samples: Vec<Sample> = game.samples().collect();
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[0].score, 10);
        assert_eq!(samples[1].score, -50);
        assert_eq!(samples[1].outcome, Outcome::Draw);
    }

    #[test]
    fn a_torn_tail_is_dropped_at_every_cut() {
        let game = sample_game();
        let whole = file_of(&[game.clone(), game.clone()]);
        let first_end = file_of(&[game]).len();
        for cut in first_end + 1..whole.len() {
            let file = read(&whole[..cut]).unwrap();
            assert_eq!(file.games.len(), 1, "cut at {cut}");
            assert_eq!(file.intact_len, first_end);
            assert_eq!(file.dropped, cut - first_end);
        }
    }

    #[test]
    fn damage_before_whole_frames_and_bad_headers_are_errors() {
        let game = sample_game();
        let mut bytes = file_of(&[game.clone(), game]);
        bytes[HEADER + 20] ^= 1;
        assert!(read(&bytes).unwrap_err().0.contains("checksum"));
        assert!(read(b"TropaDG").unwrap_err().0.contains("too few"));
        let mut wrong = file_of(&[]);
        wrong[0] = b'X';
        assert!(read(&wrong).unwrap_err().0.contains("magic"));
        let mut version = file_of(&[]);
        version[8] = 9;
        assert!(read(&version).unwrap_err().0.contains("version 9"));
    }

    #[test]
    fn an_illegal_move_is_an_error_not_a_panic() {
        let mut game = sample_game();
        game.plies[0].mv = crate::rules::Move {
            from: crate::rules::Square::A1,
            to: crate::rules::Square::H8,
            promotion: None,
        };
        let bytes = old_file_of(2, &[game.clone(), game.clone()]);
        assert!(read(&bytes).unwrap_err().0.contains("illegal move"));
        assert!(image(HEADER_FIELDS, &[game])
            .unwrap_err()
            .contains("a1h8 is not legal"));
        // A compact frame, not the last, whose move index is past the legal moves.
        let mut bytes = file_of(&[sample_game(), sample_game()]);
        let payload = HEADER + FRAME_HEADER;
        let end = frame_len(&bytes, HEADER).unwrap();
        let fen_len = usize::from(bytes[payload + 5]);
        bytes[payload + 6 + fen_len + 2] = 250;
        let sum = fnv1a64(&bytes[payload..end]);
        bytes[HEADER + 4..payload].copy_from_slice(&sum.to_le_bytes());
        assert!(read(&bytes)
            .unwrap_err()
            .0
            .contains("illegal move index 250"));
    }
}
