//! How the search uses the Syzygy endgame tables (opened and probed in `crate::tablebases`).
//!
//! Design note: the tables answer two questions. In the search, a node reached by a capture or
//! a pawn move (halfmove clock 0) with few enough pieces gets its exact win/draw/loss from the
//! WDL table, which cuts the node as a transposition-table entry would. At the root, the DTZ
//! tables (distance to the next capture or pawn move) rank the moves: only the moves that keep
//! the best outcome *under the 50-move rule* are searched, so a won ending is converted before
//! the clock runs out and a drawn one is never spoiled, while the search still chooses among
//! the moves that keep it. A table that is missing for a position simply gives no answer; one
//! that cannot be read is reported by the UCI layer and never stops the search.

use super::params::DTZ_SLACK;
use super::tt::MATE_BOUND;
use super::{Reporter, MAX_PLY};
use crate::rules::{is_capture, Board, Move, Piece};
use crate::tablebases::has_castling_rights;
use crate::tablebases::Tablebases;
use shakmaty_syzygy::{Dtz, MaybeRounded, SyzygyError, Wdl};

/// A tablebase win found `ply` plies from the root scores `TB_WIN - ply`: above every
/// evaluation, below every mate the search proves.
pub const TB_WIN: i32 = MATE_BOUND - MAX_PLY as i32;

/// How the search uses the tables (the UCI options `SyzygyProbeDepth`, `Syzygy50MoveRule`,
/// `SyzygyProbeLimit`).
#[derive(Clone, Copy, Debug)]
pub struct ProbeSettings {
    /// Probe inside the search only at this remaining depth or more (unless the position has
    /// fewer pieces than the largest tables).
    pub probe_depth: i32,
    /// Count wins and losses that the 50-move rule turns into draws as draws.
    pub rule50: bool,
    /// Probe positions with at most this many pieces.
    pub probe_limit: usize,
}

impl Default for ProbeSettings {
    fn default() -> Self {
        ProbeSettings {
            probe_depth: 1,
            rule50: true,
            probe_limit: 7,
        }
    }
}

/// The tables and the settings, as one search uses them.
#[derive(Clone, Copy)]
pub struct Probe<'a> {
    tables: &'a Tablebases,
    settings: ProbeSettings,
    /// Most pieces a probed position may have.
    cardinality: usize,
}

impl<'a> Probe<'a> {
    /// A probe over `tables`, or `None` when they hold nothing the settings allow.
    pub fn new(tables: &'a Tablebases, settings: ProbeSettings) -> Option<Probe<'a>> {
        let cardinality = tables.max_pieces().min(settings.probe_limit);
        (cardinality >= 3).then_some(Probe {
            tables,
            settings,
            cardinality,
        })
    }

    /// The score of a search node from its WDL entry, or `None` when the node is not probed:
    /// only right after a capture or pawn move (the entry ignores the clock), without castling
    /// rights, with few enough pieces and, for the largest tables, enough depth left.
    pub fn node_score(&self, board: &Board, depth: i32, ply: usize) -> Option<i32> {
        if board.halfmove_clock() != 0 || has_castling_rights(board) {
            return None;
        }
        let pieces = board.occupied().len() as usize;
        if pieces > self.cardinality
            || (pieces == self.cardinality && depth < self.settings.probe_depth)
        {
            return None;
        }
        let wdl = self.tables.probe_wdl(board)?;
        Some(self.score(wdl, ply))
    }

    /// A WDL entry as a search score `ply` plies from the root.
    pub fn score(&self, wdl: Wdl, ply: usize) -> i32 {
        let ply = ply as i32;
        match (wdl, self.settings.rule50) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => TB_WIN - ply,
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => -TB_WIN + ply,
            // The 50-move rule saves the game, but only just: a hair from an ordinary draw, so
            // that the search still prefers the side that has the chances.
            (Wdl::CursedWin, true) => 1,
            (Wdl::BlessedLoss, true) => -1,
            (Wdl::Draw, _) => 0,
        }
    }

    /// The root moves that keep the best outcome the tables promise, given the halfmove clock
    /// of `board`; `None` when the root is not in the tables. An error is a table that exists
    /// but cannot be read. When winning, only moves within `DTZ_SLACK` plies of the fastest
    /// conversion are kept, and when losing those within as much of the longest resistance:
    /// the search chooses among them, and the game makes progress even where the search cannot
    /// see the mate (KRvK needs 30 plies).
    pub fn root_moves(&self, board: &Board, moves: &[Move]) -> Result<Option<Vec<Move>>, String> {
        if has_castling_rights(board) || board.occupied().len() as usize > self.cardinality {
            return Ok(None);
        }
        let mut ranked = Vec::with_capacity(moves.len());
        for &mv in moves {
            match self.rank(board, mv) {
                Ok(Some(rank)) => ranked.push((mv, rank)),
                Ok(None) => return Ok(None),
                Err(e) => return Err(format!("Syzygy: {e}")),
            }
        }
        let Some(best) = ranked.iter().map(|&(_, (class, _))| class).max() else {
            return Ok(None);
        };
        ranked.retain(|&(_, (class, _))| class == best);
        let plies = ranked.iter().map(|&(_, (_, plies))| plies);
        let (fastest, slowest) = (plies.clone().min(), plies.max());
        let kept = |plies: i32| match best.signum() {
            1 => fastest.is_some_and(|f| plies <= f + DTZ_SLACK),
            -1 => slowest.is_some_and(|s| plies >= s - DTZ_SLACK),
            _ => true,
        };
        Ok(Some(
            ranked
                .into_iter()
                .filter(|&(_, (_, plies))| kept(plies))
                .map(|(mv, _)| mv)
                .collect(),
        ))
    }

    /// How good `mv` is by the tables, as (class, plies to the next capture or pawn move).
    /// Class 2 is a win within the 50-move rule, 1 a win only beyond it, 0 a draw, −1 a loss
    /// only beyond the rule, −2 a loss (with the rule off, the wins and losses beyond it count
    /// as plain ones). `None` when a table is missing.
    fn rank(&self, board: &Board, mv: Move) -> Result<Option<(i32, i32)>, SyzygyError> {
        let mut child = board.clone();
        child.play_unchecked(mv);
        if child.status() == crate::rules::GameStatus::Won {
            return Ok(Some((2, 0)));
        }
        let zeroing = is_capture(board, mv) || board.piece_on(mv.from) == Some(Piece::Pawn);
        // Plies from the root to the next zeroing move, with the sign of the root side's
        // outcome. After a zeroing move that move itself is the one.
        let dtz = if zeroing {
            match self.tables.probe_wdl(&child) {
                Some(wdl) => Dtz::before_zeroing(-wdl).0,
                None => return Ok(None),
            }
        } else {
            match self.tables.probe_dtz(&child)? {
                // Rounded values may be one ply too short: count them one longer.
                Some(MaybeRounded::Precise(d)) => (-d).add_plies(1).0,
                Some(MaybeRounded::Rounded(d)) => (-d).add_plies(2).0,
                None => return Ok(None),
            }
        };
        let clock = if zeroing {
            0
        } else {
            board.halfmove_clock() as i32
        };
        // `before_zeroing` marks a cursed or blessed result as 101 plies away.
        let in_time = dtz.abs() + clock <= 100 && dtz.abs() != 101;
        let class = match dtz.signum() {
            0 => 0,
            s if in_time || !self.settings.rule50 => 2 * s,
            s => s,
        };
        Ok(Some((class, dtz.abs())))
    }
}

/// The root moves a search considers: `search_moves` (all legal moves when empty), narrowed by
/// the tables to those that keep the best outcome. A table that cannot be read is reported and
/// the moves are left as they were.
pub fn restrict_root(
    probe: Option<Probe>,
    board: &Board,
    search_moves: &[Move],
    reporter: &mut dyn Reporter,
) -> Vec<Move> {
    let moves: Vec<Move> = crate::rules::legal_moves(board)
        .into_iter()
        .filter(|m| search_moves.is_empty() || search_moves.contains(m))
        .collect();
    let Some(probe) = probe else {
        return moves;
    };
    match probe.root_moves(board, &moves) {
        Ok(Some(kept)) => kept,
        Ok(None) => moves,
        Err(e) => {
            reporter.problem(&e);
            moves
        }
    }
}

#[cfg(test)]
#[path = "syzygy_tests.rs"]
mod tests;
