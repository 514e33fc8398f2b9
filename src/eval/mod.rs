//! Static evaluation (Kornilov's): material, piece-square tables, pawn structure, king safety and
//! more, tapered between middlegame and endgame weights by the material left on the board.
//!
//! Design note: `terms::collect` reports each term as "side, parameter, count" to a `Sink`. The
//! `Scorer` sink multiplies by the tuned weights (the hot path); `Explanation` keeps per-term
//! totals for `tropa eval`; the tuner's sink records the counts. Endgame knowledge that is not a
//! weighted term (draws by material, scaling, mop-up) is applied after the sum.

mod endgame;
mod masks;
pub mod nnue;
pub mod params;
mod terms;
pub mod tune;
mod weights;

use crate::rules::{Board, Color, Piece};
pub use endgame::{insufficient_material, known_draw, lacks_mating_material, SCALE_NORMAL};
use params::{block_of, Block, Tapered, COUNT};
pub use weights::WEIGHTS;

/// Receives the evaluation terms.
pub trait Sink {
    /// `count` occurrences of parameter `index` in favour of `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// Sums the weighted terms, White minus Black.
struct Scorer {
    total: Tapered,
}

impl Sink for Scorer {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let w = WEIGHTS[index] * count;
        match color {
            Color::White => self.total += w,
            Color::Black => self.total += -w,
        }
    }
}

/// Game phase from 0 (bare kings and pawns) to `PHASE_MAX` (all pieces on).
pub const PHASE_MAX: i32 = 24;

/// The game phase of a position, from the minor and major pieces left.
pub fn phase(board: &Board) -> i32 {
    let n = |p| board.pieces(p).len() as i32;
    (n(Piece::Knight) + n(Piece::Bishop) + 2 * n(Piece::Rook) + 4 * n(Piece::Queen)).min(PHASE_MAX)
}

/// Blends a middlegame/endgame pair by phase, the endgame part scaled by `scale / SCALE_NORMAL`.
pub fn taper(score: Tapered, phase: i32, scale: i32) -> i32 {
    (score.mg * phase + score.eg * (PHASE_MAX - phase) * scale / SCALE_NORMAL) / PHASE_MAX
}

/// Evaluation of `board` in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    if insufficient_material(board) {
        return 0;
    }
    let mut scorer = Scorer {
        total: Tapered::new(0, 0),
    };
    terms::collect(board, &mut scorer);
    let white = finish(board, scorer.total);
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Phase blend, endgame scaling and mop-up applied to a White-relative term sum.
fn finish(board: &Board, total: Tapered) -> i32 {
    let strong = if total.eg >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let scale = endgame::scale(board, strong);
    taper(total, phase(board), scale) + endgame::mop_up(board)
}

/// One line of an evaluation breakdown.
#[derive(Clone, Debug)]
pub struct TermLine {
    /// The term's name.
    pub name: &'static str,
    /// White's contribution (middlegame, endgame).
    pub white: Tapered,
    /// Black's contribution (middlegame, endgame).
    pub black: Tapered,
}

/// Every term of the evaluation for both sides, and the final score.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// Terms in parameter order, only those that occur.
    pub terms: Vec<TermLine>,
    /// Game phase (0..=PHASE_MAX).
    pub phase: i32,
    /// Endgame scale (0..=SCALE_NORMAL) for the side ahead.
    pub scale: i32,
    /// Mop-up bonus from White's view.
    pub mop_up: i32,
    /// Final score from White's view, as `evaluate` computes it.
    pub white_score: i32,
    /// True when the position is a draw by insufficient material.
    pub insufficient_material: bool,
}

struct Explainer {
    by_block: Vec<(Block, Tapered, Tapered)>,
}

impl Sink for Explainer {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let block = block_of(index);
        let w = WEIGHTS[index] * count;
        let slot = match self
            .by_block
            .iter_mut()
            .find(|(b, _, _)| b.start == block.start)
        {
            Some(slot) => slot,
            None => {
                self.by_block
                    .push((block, Tapered::new(0, 0), Tapered::new(0, 0)));
                self.by_block.last_mut().expect("just pushed")
            }
        };
        match color {
            Color::White => slot.1 += w,
            Color::Black => slot.2 += w,
        }
    }
}

/// Breaks the evaluation of `board` down by term.
pub fn explain(board: &Board) -> Explanation {
    let mut explainer = Explainer {
        by_block: Vec::new(),
    };
    terms::collect(board, &mut explainer);
    explainer.by_block.sort_by_key(|(b, _, _)| b.start);
    let total = explainer
        .by_block
        .iter()
        .fold(Tapered::new(0, 0), |acc, (_, w, b)| acc + *w - *b);
    let strong = if total.eg >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let insufficient = insufficient_material(board);
    Explanation {
        terms: explainer
            .by_block
            .into_iter()
            .map(|(b, white, black)| TermLine {
                name: b.name,
                white,
                black,
            })
            .collect(),
        phase: phase(board),
        scale: endgame::scale(board, strong),
        mop_up: endgame::mop_up(board),
        white_score: if insufficient {
            0
        } else {
            finish(board, total)
        },
        insufficient_material: insufficient,
    }
}

/// The breakdown of `explain` as text lines (`tropa eval`, UCI `eval`).
pub fn report(board: &Board) -> Vec<String> {
    let e = explain(board);
    let blend = |s: Tapered| taper(s, e.phase, SCALE_NORMAL);
    let mut lines = vec![format!(
        "{:32} {:>15} {:>15} {:>8}",
        "term", "white (mg eg)", "black (mg eg)", "net"
    )];
    for t in &e.terms {
        lines.push(format!(
            "{:32} {:>7} {:>7} {:>7} {:>7} {:>8}",
            t.name,
            t.white.mg,
            t.white.eg,
            t.black.mg,
            t.black.eg,
            blend(t.white) - blend(t.black)
        ));
    }
    lines.push(format!(
        "phase {}/{PHASE_MAX}, endgame scale {}/{SCALE_NORMAL}, mop-up {}",
        e.phase, e.scale, e.mop_up
    ));
    if e.insufficient_material {
        lines.push("draw: insufficient material".into());
    }
    let stm = if board.side_to_move() == Color::White {
        e.white_score
    } else {
        -e.white_score
    };
    lines.push(format!(
        "total {} (White's view), {} for the side to move",
        e.white_score, stm
    ));
    lines
}

const _: () = assert!(WEIGHTS.len() == COUNT);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let board = Board::default();
        let score = evaluate(&board);
        assert!(score.abs() < 50, "{score}");
        // Colour-mirrored positions score the same for the side to move.
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "8/3b4/4k3/p7/P7/3KB3/1P6/8 b - - 0 1",
        ] {
            let a = parse_fen(fen, false).unwrap();
            let b = parse_fen(&mirror(fen), false).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
    }

    /// The same position with colours swapped and the board flipped top to bottom.
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let swap = |s: &str| {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect::<String>()
        };
        let placement = f[0]
            .split('/')
            .rev()
            .map(swap)
            .collect::<Vec<_>>()
            .join("/");
        let side = if f[1] == "w" { "b" } else { "w" };
        let castling = if f[2] == "-" {
            "-".to_string()
        } else {
            swap(f[2])
        };
        format!("{placement} {side} {castling} - {} {}", f[4], f[5])
    }

    #[test]
    fn material_matters_and_explanation_adds_up() {
        let up_a_rook = parse_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1", false).unwrap();
        assert!(evaluate(&up_a_rook) > 300);
        let e = explain(&up_a_rook);
        assert_eq!(e.white_score, evaluate(&up_a_rook));
        assert!(e.terms.iter().any(|t| t.name == "material"));
    }

    #[test]
    fn bare_kings_draw() {
        let board = parse_fen("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", false).unwrap();
        assert_eq!(evaluate(&board), 0);
    }
}
