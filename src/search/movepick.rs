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

/// Generates the legal moves of `mode` into `out`.
fn generate(board: &Board, mode: GenMode, out: &mut Vec<ScoredMove>) {
    let us = board.side_to_move();
    let enemy = board.colors(!us);
    let ep = board.en_passant().map_or(BitBoard::EMPTY, |f| {
        Square::new(f, Rank::Sixth.relative_to(us)).bitboard()
    });
    let promotion_rank = Rank::Eighth.relative_to(us).bitboard();
    out.clear();
    board.generate_moves(|mut pm| {
        if mode == GenMode::Noisy {
            let mut targets = pm.to & enemy;
            if pm.piece == Piece::Pawn {
                targets |= pm.to & (ep | promotion_rank);
            }
            pm.to = targets;
        }
        for mv in pm {
            if mode == GenMode::Noisy && mv.promotion.is_some_and(|p| p != Piece::Queen) {
                continue;
            }
            out.push(ScoredMove { mv, score: 0 });
        }
        false
    });
}

/// The squares the opponent of the side to move attacks in `board`, kept in `cache` so that a
/// node finds them at most once.
fn opponent_attacks(cache: &mut Option<BitBoard>, board: &Board) -> BitBoard {
    *cache.get_or_insert_with(|| attacked_by(board, !board.side_to_move()))
}

/// MVV/LVA score of a capture or promotion: victim value first, then the cheaper attacker.
fn mvv_lva(board: &Board, mv: Move) -> i32 {
    let victim = board
        .piece_on(mv.to)
        .filter(|_| board.color_on(mv.to) != Some(board.side_to_move()));
    let victim = victim.map_or(if mv.promotion.is_some() { 0 } else { 1 }, |p| p as i32 + 1);
    let attacker = board.piece_on(mv.from).map_or(0, |p| p as i32);
    let promotion = mv.promotion.map_or(0, |p| p as i32 * 8);
    victim * 64 + promotion - attacker
}

/// The capture-history key of `mv`, if it captures (en passant takes a pawn).
pub fn capture_key(board: &Board, mv: Move) -> Option<CaptureKey> {
    if !is_capture(board, mv) {
        return None;
    }
    Some(CaptureKey {
        piece: board.piece_on(mv.from).unwrap_or(Piece::Pawn),
        to: mv.to,
        victim: board.piece_on(mv.to).unwrap_or(Piece::Pawn),
    })
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
                    generate(board, self.mode, &mut self.moves);
                    self.score_all(board, history);
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

    fn score_all(&mut self, board: &Board, history: &History) {
        let us = board.side_to_move();
        let MovePicker {
            ctx,
            moves,
            threats,
            ..
        } = self;
        for entry in moves {
            let mv = entry.mv;
            entry.score = if is_capture(board, mv) || mv.promotion.is_some() {
                let order = mvv_lva(board, mv) * ORDER_MVV_LVA_WEIGHT
                    + capture_key(board, mv).map_or(0, |c| {
                        history.capture_score(c) / ORDER_CAPTURE_HISTORY_DIVISOR
                    });
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
            } else if Some(mv) == ctx.killers[0] {
                ORDER_KILLER + 1
            } else if Some(mv) == ctx.killers[1] {
                ORDER_KILLER
            } else if Some(mv) == ctx.counter {
                ORDER_COUNTER_MOVE
            } else {
                let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
                let plan = if ctx.plan.contains(mv) { PLAN_BONUS } else { 0 };
                let threats = opponent_attacks(threats, board);
                history.quiet_score(us, mv, piece, threats, ctx.prev) + plan
            };
        }
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
