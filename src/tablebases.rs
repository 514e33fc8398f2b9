//! Syzygy endgame tables: opening the files and probing a position, for every part of Tropa
//! that wants exact endgame knowledge (the search, self-play adjudication, PIONEER's proofs).
//!
//! Design note: the tables are read through `shakmaty-syzygy`; this module only turns Tropa's
//! board into its position and checks each file's header when it is added, so that a corrupt or
//! foreign file is named at once. A missing table simply gives no answer. How the search uses
//! the answers (scores, the root's DTZ ranking) lives in `search::syzygy`.

use crate::rules::{Board, Color, Piece};
use shakmaty::{CastlingMode, Chess};
use shakmaty_syzygy::{Dtz, MaybeRounded, SyzygyError, Tablebase, Wdl};
use std::path::Path;

/// The tables found on `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
}

impl Tablebases {
    /// Opens every table in the folders of `paths`, separated by `:` (`;` on Windows, as the
    /// UCI convention has it). Each file's header is checked now, so that a corrupt or foreign
    /// file is named at once rather than failing later in a game.
    pub fn open(paths: &str) -> Result<Tablebases, String> {
        let separator = if cfg!(windows) { ';' } else { ':' };
        let mut tables = Tablebase::new();
        let mut files = 0;
        for folder in paths
            .split(separator)
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let entries = std::fs::read_dir(folder)
                .map_err(|e| format!("SyzygyPath: cannot read the folder '{folder}': {e}"))?;
            for entry in entries.flatten() {
                let path = entry.path();
                if !is_table_name(&path) {
                    continue;
                }
                check_header(&path)?;
                tables
                    .add_file(&path)
                    .map_err(|e| format!("SyzygyPath: '{}': {e}", path.display()))?;
                files += 1;
            }
        }
        Ok(Tablebases { tables, files })
    }

    /// Number of table files added.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Most pieces of any table added (0 when there is none).
    pub fn max_pieces(&self) -> usize {
        if self.files == 0 {
            0
        } else {
            self.tables.max_pieces()
        }
    }

    /// The outcome for the side to move, read as if `board` had just been reached by a capture
    /// or a pawn move; `None` when no table covers it.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        let pos = to_shakmaty(board)?;
        self.tables.probe_wdl_after_zeroing(&pos).ok()
    }

    /// Distance to the next capture or pawn move, with the outcome in its sign (positive: the
    /// side to move wins). Errors other than a missing table are returned for reporting.
    pub fn probe_dtz(&self, board: &Board) -> Result<Option<MaybeRounded<Dtz>>, SyzygyError> {
        let Some(pos) = to_shakmaty(board) else {
            return Ok(None);
        };
        match self.tables.probe_dtz(&pos) {
            Ok(dtz) => Ok(Some(dtz)),
            Err(SyzygyError::MissingTable { .. } | SyzygyError::TooManyPieces) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The tables in `tests/data/syzygy` (the 3–4-piece tables the tests probe), which the tests
/// of every module that probes use.
#[cfg(test)]
pub(crate) fn test_tables() -> Tablebases {
    Tablebases::open(TEST_TABLES).expect("the test Syzygy tables")
}

/// Where `test_tables` are.
#[cfg(test)]
pub(crate) const TEST_TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// Does either side still have a castling right (the tables know no castling)?
pub(crate) fn has_castling_rights(board: &Board) -> bool {
    [Color::White, Color::Black].into_iter().any(|c| {
        let rights = board.castle_rights(c);
        rights.short.is_some() || rights.long.is_some()
    })
}

/// Syzygy file names: `KQvKR.rtbw`, `KPvK.rtbz`.
fn is_table_name(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str());
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    matches!(ext, Some("rtbw" | "rtbz")) && stem.starts_with('K') && stem.contains("vK")
}

/// The four magic bytes of each kind of table.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// A table must start with its kind's magic bytes and have the size the format allows.
fn check_header(path: &Path) -> Result<(), String> {
    use std::io::Read;
    let shown = path.display();
    let mut magic = [0u8; 4];
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("SyzygyPath: cannot open '{shown}': {e}"))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    file.read_exact(&mut magic)
        .map_err(|e| format!("SyzygyPath: '{shown}' is too short to be a Syzygy table: {e}"))?;
    let expected = if path.extension().is_some_and(|e| e == "rtbw") {
        WDL_MAGIC
    } else {
        DTZ_MAGIC
    };
    if magic != expected || size % 64 != 16 {
        return Err(format!(
            "SyzygyPath: '{shown}' is not a Syzygy table (bad header or size); \
             replace it with a good copy or remove it"
        ));
    }
    Ok(())
}

/// The same position for shakmaty; `None` for one it refuses (never a legal game position
/// with a valid king pair).
fn to_shakmaty(board: &Board) -> Option<Chess> {
    use shakmaty::{Bitboard, Role, Setup, Square};
    let mut setup = Setup::empty();
    for square in board.occupied() {
        let piece = board.piece_on(square)?;
        let color = board.color_on(square)?;
        let role = match piece {
            Piece::Pawn => Role::Pawn,
            Piece::Knight => Role::Knight,
            Piece::Bishop => Role::Bishop,
            Piece::Rook => Role::Rook,
            Piece::Queen => Role::Queen,
            Piece::King => Role::King,
        };
        let color = match color {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        };
        setup
            .board
            .set_piece_at(Square::new(square as u32), role.of(color));
    }
    setup.turn = match board.side_to_move() {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    setup.castling_rights = Bitboard::EMPTY;
    setup.ep_square = board.en_passant().map(|file| {
        let rank = if board.side_to_move() == Color::White {
            5
        } else {
            2
        };
        Square::new(rank * 8 + file as u32)
    });
    setup.halfmoves = board.halfmove_clock() as u32;
    setup
        .position(CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
        .ok()
}
