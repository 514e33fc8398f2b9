//! The search thread's side of the protocol: `info` lines (with `wdl` under `UCI_ShowWDL`,
//! `currmove` after the first second, `tbhits`) and the `bestmove`.

use super::Output;
use crate::bound::Bound;
use crate::rules::notation::move_to_uci;
use crate::rules::{Board, Move};
use crate::search::wdl::MODEL;
use crate::search::{Progress, Reporter, Score, SearchControl, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Prints the search's progress as `info` lines and its answer as `bestmove`.
pub(super) struct UciReporter {
    pub(super) out: Output,
    pub(super) root: Board,
    pub(super) chess960: bool,
    /// `UCI_ShowWDL`: the root's material for the win/draw/loss model, when shown.
    pub(super) wdl_material: Option<i32>,
    /// What `bestmove` waits for, and the flags it sets.
    pub(super) answer: Answer,
}

/// Writes the `bestmove` once, as soon as the search's answer is known (before the helper
/// threads are joined): with several threads on a loaded machine, waiting for the helpers to
/// be scheduled and exit cost tens of milliseconds a move and lost games on time.
pub(super) struct Answer {
    pub(super) infinite: bool,
    pub(super) ponder: bool,
    pub(super) control: Arc<SearchControl>,
    pub(super) released: Arc<AtomicBool>,
    pub(super) answered: Arc<AtomicBool>,
    pub(super) written: bool,
}

impl UciReporter {
    /// Writes the `bestmove` (once), after `stop` or `ponderhit` where the search must wait.
    pub(super) fn answer(&mut self, result: &SearchResult) {
        let a = &mut self.answer;
        if a.written {
            return;
        }
        a.written = true;
        // In infinite or ponder mode the bestmove waits for `stop` (or `ponderhit`).
        while !a.released.load(Ordering::Acquire)
            && (a.infinite || (a.ponder && a.control.pondering()))
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let board = &self.root;
        let text = match result.best {
            Some(best) => {
                let mut text = format!("bestmove {}", move_to_uci(board, best, self.chess960));
                if let Some(ponder) = result.ponder {
                    let mut after = board.clone();
                    after.play_unchecked(best);
                    if after.is_legal(ponder) {
                        text.push_str(&format!(
                            " ponder {}",
                            move_to_uci(&after, ponder, self.chess960)
                        ));
                    }
                }
                text
            }
            None => "bestmove 0000".to_string(),
        };
        a.answered.store(true, Ordering::Release);
        self.out.line(&text);
    }
}

impl Reporter for UciReporter {
    fn finished(&mut self, result: &SearchResult) {
        self.answer(result);
    }

    fn progress(&mut self, p: &Progress) {
        let nps = p.nodes * 1000 / p.time_ms.max(1);
        let bound = match p.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        let pv = pv_to_uci(&self.root, &p.pv, self.chess960);
        let wdl = self
            .wdl_material
            .map(|m| wdl_words(p.score, m))
            .unwrap_or_default();
        self.out.line(&format!(
            "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
            p.depth, p.seldepth, p.multipv, p.score, p.nodes, nps, p.hashfull, p.tbhits, p.time_ms, pv
        ));
    }

    fn current_move(&mut self, depth: i32, mv: Move, number: usize) {
        let mv = move_to_uci(&self.root, mv, self.chess960);
        self.out.line(&format!(
            "info depth {depth} currmove {mv} currmovenumber {number}"
        ));
    }

    fn problem(&mut self, text: &str) {
        self.out.error(text);
    }
}

/// A line of moves in UCI notation, played from `root`.
fn pv_to_uci(root: &Board, pv: &[Move], chess960: bool) -> String {
    let mut board = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !board.is_legal(mv) {
            break;
        }
        words.push(move_to_uci(&board, mv, chess960));
        board.play_unchecked(mv);
    }
    words.join(" ")
}

/// ` wdl W D L` (permille, the side to move's view) for a reported score.
pub fn wdl_words(score: Score, material: i32) -> String {
    let (w, d, l) = MODEL.permille_of(score, material);
    format!(" wdl {w} {d} {l}")
}
