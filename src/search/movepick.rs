//! Move ordering (Kornilov's): the transposition-table move first; then captures by MVV/LVA
//! ("most valuable victim, least valuable attacker"), recaptures of the piece that just moved
//! ahead of the rest; then killers, the counter-move and the quiet moves by history; captures
//! that lose material in the exchange model come last.
//!
//! The TT move is tried before any move is generated, since it often refutes the position at
//! once. The remaining moves are scored once and picked best-first by selection, which is
//! cheaper than a full sort when a cut-off comes early.

use super::guide::PlanMoves;
use super::history::{CaptureKey, History, PreviousMoves};
use super::params::{
    ORDER_BAD_CAPTURE, ORDER_CAPTURE_HISTORY_DIVISOR, ORDER_COUNTER_MOVE, ORDER_GOOD_CAPTURE,
    ORDER_KILLER, ORDER_MVV_LVA_WEIGHT, ORDER_RECAPTURE_BONUS, ORDER_TT_MOVE, PLAN_BONUS,
};
use crate::rules::see::see_ge;
use crate::rules::{attacked_by, is_capture, BitBoard, Board, Move, Piece, Rank, Square};

/// A move with its ordering score.
#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Ordering score; the `ORDER_*` constants of `params` say what ranges mean.
    pub score: i32,
}

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenMode {
    /// Every legal move.
    All,
    /// Captures and queen promotions (quiescence search when not in check).
    Noisy,
}

/// Context the ordering needs from the search.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderContext {
    /// Best move stored in the transposition table.
    pub tt_move: Option<Move>,
    /// Killer moves of this ply.
    pub killers: [Option<Move>; 2],
    /// Counter-move to the previous move.
    pub counter: Option<Move>,
    /// Square the opponent's last move went to (recaptures there come first).
    pub last_to: Option<Square>,
    /// The moves one, two and four plies back, for continuation history.
    pub prev: PreviousMoves,
    /// PIONEER's zone moves of the side to move (a bonus on their history score).
    pub plan: PlanMoves,
}

enum Stage {
    TtMove,
    Generate,
    Pick,
}

/// Yields the legal moves of a position, best-looking first.
pub struct MovePicker {
    stage: Stage,
    mode: GenMode,
    ctx: OrderContext,
    moves: Vec<ScoredMove>,
    next: usize,
    /// The squares the opponent attacks, which key the history of quiet moves: found the first
    /// time a quiet move is scored or rewarded, since many nodes cut before either.
    threats: Option<BitBoard>,
}

/// The squares the opponent of the side to move attacks in `board`, kept in `cache` so that a
/// node finds them at most once.
fn opponent_attacks(cache: &mut Option<BitBoard>, board: &Board) -> BitBoard {
    *cache.get_or_insert_with(|| attacked_by(board, !board.side_to_move()))
}

/// MVV/LVA score of a capture or promotion by `piece`, taking `victim` (none for en passant,
/// which takes a pawn, or a promotion that captures nothing): victim value first, then the
/// cheaper attacker.
fn mvv_lva(piece: Piece, mv: Move, victim: Option<Piece>) -> i32 {
    let victim = victim.map_or(if mv.promotion.is_some() { 0 } else { 1 }, |p| p as i32 + 1);
    let promotion = mv.promotion.map_or(0, |p| p as i32 * 8);
    victim * 64 + promotion - piece as i32
}

impl MovePicker {
    /// A picker over all legal moves (main search). `buffer` is reused storage for the move
    /// list (its contents are discarded); get it back with `into_buffer`.
    pub fn new(ctx: OrderContext, buffer: Vec<ScoredMove>) -> Self {
        Self::with_mode(ctx, GenMode::All, buffer)
    }

    /// A picker over captures and queen promotions (quiescence search).
    pub fn noisy(ctx: OrderContext, buffer: Vec<ScoredMove>) -> Self {
        Self::with_mode(ctx, GenMode::Noisy, buffer)
    }

    /// The move list storage, for reuse by the next picker at the same ply.
    pub fn into_buffer(self) -> Vec<ScoredMove> {
        self.moves
    }

    fn with_mode(ctx: OrderContext, mode: GenMode, buffer: Vec<ScoredMove>) -> Self {
        MovePicker {
            stage: if ctx.tt_move.is_some() {
                Stage::TtMove
            } else {
                Stage::Generate
            },
            mode,
            ctx,
            moves: buffer,
            next: 0,
            threats: None,
        }
    }

    /// The squares the opponent attacks in `board`, the position this picker orders.
    pub fn threats(&mut self, board: &Board) -> BitBoard {
        opponent_attacks(&mut self.threats, board)
    }

    /// Is this ordering score that of a capture the exchange model says loses material?
    pub fn is_bad_capture(score: i32) -> bool {
        score < ORDER_BAD_CAPTURE / 2
    }

    /// The next move, or `None` when all have been given.
    pub fn next(&mut self, board: &Board, history: &History) -> Option<ScoredMove> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    if let Some(mv) = self.ctx.tt_move {
                        let allowed = self.mode == GenMode::All
                            || is_capture(board, mv)
                            || mv.promotion == Some(Piece::Queen);
                        if allowed && board.is_legal(mv) {
                            return Some(ScoredMove {
                                mv,
                                score: ORDER_TT_MOVE,
                            });
                        }
                        self.ctx.tt_move = None;
                    }
                }
                Stage::Generate => {
                    self.generate_and_score(board, history);
                    self.stage = Stage::Pick;
                }
                Stage::Pick => {
                    let (first, rest) = self.moves[self.next..].split_first()?;
                    // The first of the highest scores, as a plain selection scan takes it; the
                    // best score is kept in a register and the loop has no bounds checks, since
                    // this scan is the picker's hottest loop.
                    let (mut best, mut best_score) = (0, first.score);
                    for (i, m) in rest.iter().enumerate() {
                        if m.score > best_score {
                            (best, best_score) = (i + 1, m.score);
                        }
                    }
                    self.moves.swap(self.next, self.next + best);
                    let m = self.moves[self.next];
                    self.next += 1;
                    if Some(m.mv) == self.ctx.tt_move {
                        continue;
                    }
                    return Some(m);
                }
            }
        }
    }

    /// Generates the legal moves of the picker's mode and scores them, once per picker, in one
    /// pass: the generator says which piece moves and where it captures, so neither is looked
    /// up again. Kept out of `next`: inlined there, the generator's set-up (checkers, pins,
    /// masks) was hoisted to the top of `next` and ran at every pick.
    #[inline(never)]
    fn generate_and_score(&mut self, board: &Board, history: &History) {
        let us = board.side_to_move();
        let enemy = board.colors(!us);
        let en_passant = board.en_passant().map_or(BitBoard::EMPTY, |f| {
            Square::new(f, Rank::Sixth.relative_to(us)).bitboard()
        });
        let promotion_rank = Rank::Eighth.relative_to(us).bitboard();
        let MovePicker {
            mode,
            ctx,
            moves,
            threats,
            ..
        } = self;
        let noisy = *mode == GenMode::Noisy;
        // Read at the first quiet move, since many nodes have captures only.
        let mut quiet_scorer = None;
        moves.clear();
        board.generate_moves(|mut piece_moves| {
            let piece = piece_moves.piece;
            let mut captures = piece_moves.to & enemy;
            if piece == Piece::Pawn {
                // A pawn reaches the en-passant square only by taking the pawn beside it.
                captures |= piece_moves.to & en_passant;
                if noisy {
                    piece_moves.to &= captures | promotion_rank;
                }
            } else if noisy {
                piece_moves.to = captures;
            }
            for mv in piece_moves {
                let capture = captures.has(mv.to);
                let score = if capture || mv.promotion.is_some() {
                    if noisy && mv.promotion.is_some_and(|p| p != Piece::Queen) {
                        continue;
                    }
                    noisy_order(board, history, ctx, piece, mv, capture)
                } else if Some(mv) == ctx.killers[0] {
                    ORDER_KILLER + 1
                } else if Some(mv) == ctx.killers[1] {
                    ORDER_KILLER
                } else if Some(mv) == ctx.counter {
                    ORDER_COUNTER_MOVE
                } else {
                    let scorer = quiet_scorer.get_or_insert_with(|| {
                        history.quiet_scorer(us, opponent_attacks(threats, board), ctx.prev)
                    });
                    let plan = if ctx.plan.contains(mv) { PLAN_BONUS } else { 0 };
                    scorer.score(mv, piece) + plan
                };
                moves.push(ScoredMove { mv, score });
            }
            false
        });
    }
}

/// The ordering score of `mv` by `piece`, a capture (`capture`) or a promotion: winning and
/// even captures and queen promotions by MVV/LVA and capture history, recaptures on the square
/// the opponent just moved to first; losing captures and underpromotions after the quiet moves.
fn noisy_order(
    board: &Board,
    history: &History,
    ctx: &OrderContext,
    piece: Piece,
    mv: Move,
    capture: bool,
) -> i32 {
    let victim = if capture { board.piece_on(mv.to) } else { None };
    let capture_history = if capture {
        history.capture_score(CaptureKey::new(piece, mv, victim)) / ORDER_CAPTURE_HISTORY_DIVISOR
    } else {
        0
    };
    let order = mvv_lva(piece, mv, victim) * ORDER_MVV_LVA_WEIGHT + capture_history;
    if mv.promotion.is_some_and(|p| p != Piece::Queen) {
        ORDER_BAD_CAPTURE + order
    } else if see_ge(board, mv, 0) {
        let recapture = if Some(mv.to) == ctx.last_to {
            ORDER_RECAPTURE_BONUS
        } else {
            0
        };
        ORDER_GOOD_CAPTURE + recapture + order
    } else {
        ORDER_BAD_CAPTURE + order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{legal_moves, parse_fen};

    fn order(fen: &str, ctx: OrderContext, noisy: bool) -> Vec<String> {
        let board = parse_fen(fen, false).unwrap();
        let history = History::new();
        let mut picker = if noisy {
            MovePicker::noisy(ctx, Vec::new())
        } else {
            MovePicker::new(ctx, Vec::new())
        };
        let mut out = Vec::new();
        while let Some(m) = picker.next(&board, &history) {
            out.push(m.mv.to_string());
        }
        out
    }

    #[test]
    fn every_legal_move_exactly_once_tt_first() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let tt: Move = "e2a6".parse().unwrap();
        let got = order(
            fen,
            OrderContext {
                tt_move: Some(tt),
                ..Default::default()
            },
            false,
        );
        let mut sorted = got.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(
            sorted.len(),
            legal_moves(&parse_fen(fen, false).unwrap()).len()
        );
        assert_eq!(got.len(), sorted.len());
        assert_eq!(got[0], "e2a6");
    }

    #[test]
    fn noisy_moves_are_the_captures_and_queen_promotions() {
        // Underpromotions are left out, capturing or not. En passant (d5xe6, d5xc6), captures
        // that promote (b7xa8, b7xc8), quiet promotions (b7b8), castling (a king that "takes"
        // its own rook) and ordinary captures.
        let fens = [
            "r1n1k3/1P6/8/3Pp3/8/8/8/R3K2R w KQ e6 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 1",
        ];
        for fen in fens {
            let board = parse_fen(fen, false).unwrap();
            let mut all = order(fen, OrderContext::default(), false);
            let mut noisy = order(fen, OrderContext::default(), true);
            let mut legal: Vec<String> =
                legal_moves(&board).iter().map(|m| m.to_string()).collect();
            let mut expected: Vec<String> = legal_moves(&board)
                .into_iter()
                .filter(|&mv| {
                    mv.promotion
                        .map_or(is_capture(&board, mv), |p| p == Piece::Queen)
                })
                .map(|mv| mv.to_string())
                .collect();
            for list in [&mut all, &mut noisy, &mut legal, &mut expected] {
                list.sort();
            }
            assert_eq!(all, legal, "{fen}");
            assert_eq!(noisy, expected, "{fen}");
        }
    }

    #[test]
    fn captures_by_victim_then_attacker_and_recapture_first() {
        // White can take the queen on d5 with the pawn or the knight, or the rook on a5 with the knight.
        let fen = "4k3/8/8/r2q4/2P1P3/1N6/8/4K3 w - - 0 1";
        let got = order(fen, OrderContext::default(), true);
        let mut first_two = got[..2].to_vec();
        first_two.sort();
        assert_eq!(first_two, ["c4d5", "e4d5"]);
        assert_eq!(got[2], "b3a5");
        let with_recapture = order(
            fen,
            OrderContext {
                last_to: Some(Square::A5),
                ..Default::default()
            },
            true,
        );
        assert_eq!(with_recapture[0], "b3a5");
    }
}
