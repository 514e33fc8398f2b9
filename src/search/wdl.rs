//! Win/draw/loss chances from a search score (UCI `UCI_ShowWDL`).
//!
//! Design note: the model is the logistic one Stockfish uses, refitted to Tropa's own scores.
//! For a score `s` (centipawns, side to move) in a position with material `m` (pawns 1, knights
//! and bishops 3, rooks 5, queens 9, both sides, clamped to 17–78 and divided by 58),
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
//! P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! with `a(m) = a0 + a1·m` (the score at which a win becomes as likely as not) and
//! `b(m) = b0 + b1·m` (how fast the chances change with the score). The four numbers are
//! fitted by maximum likelihood on game results (`tropa fit-wdl`, see `cli::wdl_fit`); the
//! fit's command and data are in `MODEL`'s comment.

use super::Score;
use crate::rules::{Board, Piece};

/// The parameters of the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a0`, `a1`: the score of even win chances, by material.
    pub a: [f64; 2],
    /// `b0`, `b1`: the spread, by material.
    pub b: [f64; 2],
}

/// Fitted by `tropa fit-wdl --data tcec_quiet_labeled.txt.xz` (docs/wdl.md; 400
/// iterations, mean negative log-likelihood 0.76854): Tropa's static evaluation of the quiet
/// TCEC positions against the games' results. Even chances at +2.0 pawns in an endgame of
/// 17 points, at +1.0 with all the material on.
pub const MODEL: WdlModel = WdlModel {
    a: [226.0, -90.9],
    b: [79.5, 11.9],
};

/// Material on the board as the model counts it, before clamping.
pub fn material(board: &Board) -> i32 {
    let n = |p| board.pieces(p).len() as i32;
    n(Piece::Pawn)
        + 3 * n(Piece::Knight)
        + 3 * n(Piece::Bishop)
        + 5 * n(Piece::Rook)
        + 9 * n(Piece::Queen)
}

impl WdlModel {
    /// `(a, b)` for `material`.
    fn at(&self, material: i32) -> (f64, f64) {
        let m = material.clamp(17, 78) as f64 / 58.0;
        (
            self.a[0] + self.a[1] * m,
            (self.b[0] + self.b[1] * m).max(1.0),
        )
    }

    /// The chances of a win, a draw and a loss for the side to move.
    pub fn probabilities(&self, score: f64, material: i32) -> (f64, f64, f64) {
        let (a, b) = self.at(material);
        let win = 1.0 / (1.0 + ((a - score) / b).exp());
        let loss = 1.0 / (1.0 + ((a + score) / b).exp());
        (win, (1.0 - win - loss).max(0.0), loss)
    }

    /// The same in permille, summing to 1000, as UCI's `wdl` shows them.
    pub fn permille(&self, score: f64, material: i32) -> (u32, u32, u32) {
        let (win, _, loss) = self.probabilities(score, material);
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        (win, 1000 - win - loss, loss)
    }

    /// The permille chances of a search's reported score: certain for a mate either way, the
    /// model's for centipawns. What UCI's `wdl` and the web page show.
    pub fn permille_of(&self, score: Score, material: i32) -> (u32, u32, u32) {
        match score {
            Score::Mate(n) if n > 0 => (1000, 0, 0),
            Score::Mate(_) => (0, 0, 1000),
            Score::Centipawns(cp) => self.permille(cp as f64, material),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    #[test]
    fn chances_follow_the_score() {
        let start = material(&parse_fen(crate::rules::START_FEN, false).unwrap());
        assert_eq!(start, 78);
        let (w, d, l) = MODEL.permille(0.0, start);
        assert_eq!(w + d + l, 1000);
        assert_eq!(w, l, "an even score is symmetric");
        assert!(d > w, "an even position is drawn more often than won: {d}");
        // With less material an even score is drawn more often still.
        assert!(MODEL.permille(0.0, 20).1 > d);
        let mut last = 0;
        for cp in [-500.0, -100.0, 0.0, 100.0, 300.0, 1000.0] {
            let (w, d, l) = MODEL.permille(cp, 40);
            assert_eq!(w + d + l, 1000);
            assert!(w >= last, "{cp}");
            last = w;
        }
        assert!(MODEL.permille(1000.0, 40).0 > 900);
        assert!(MODEL.permille(-1000.0, 40).2 > 900);
    }
}
