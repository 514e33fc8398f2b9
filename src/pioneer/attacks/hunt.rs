//! King hunts: a check, often a sacrifice, after which the attacker keeps checking until the
//! king is mated or the material comes back with interest.
//!
//! PIONEER's mate trajectories (`mate`) are short: a piece's route to a square from which it
//! mates, with at most one preparing move. A king hunt is longer and of another kind: the king
//! is the defender of its own square, lured out by a piece offered with check or driven by
//! checks toward a mating net, and every move of the defender is forced. The seed's example is
//! Botvinnik–Capablanca, AVRO 1938: 31.Nh5+ gives the knight so that after g×h5 the queen checks
//! on g5 and takes the f6 knight with check, freeing the e-pawn's way.
//!
//! Design note: decided exactly, by the rules, in a small tree: the attacker plays checks only
//! (and may stop to take what its best capture wins by the exchange model), the defender every
//! legal answer, the attacker's moves at most `HuntLimits::moves` and the positions at most
//! `HuntLimits::nodes` (past which the hunt is not called one: a hunt either ends in few
//! positions or is no forced line). A hunt's worth is the material won from the position before
//! its first check, the checks' sacrifices counted, in the exchange model's values, or
//! `MATE_GAIN` less the plies for a mate; a stalemate ends it with nothing. Whether the position
//! after a hunt that wins little is good is the search's to judge, not this file's.

use crate::pioneer::board::arrival::MATE_GAIN;
use crate::rules::see::see;
use crate::rules::{is_capture, legal_moves, piece_value, Board, Color, Move, Piece, Square};

/// How far a king hunt is followed.
#[derive(Clone, Copy, Debug)]
pub struct HuntLimits {
    /// The attacker's moves, the first check included.
    pub moves: u8,
    /// Positions visited, past which the line is not a hunt.
    pub nodes: u32,
}

impl Default for HuntLimits {
    fn default() -> Self {
        HuntLimits {
            moves: 5,
            nodes: 20_000,
        }
    }
}

/// A forced line of checks and what it wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunt {
    /// The line: the first check, the best defence, the next check… and, where the hunt ends
    /// in a capture that wins by the exchange, that capture.
    pub line: Vec<Move>,
    /// The material it wins from the position before the first check, in centipawns of the
    /// exchange model (the sacrifices counted); `MATE_GAIN` less the plies for a mate.
    pub net: i32,
}

impl Hunt {
    /// Does the hunt end in mate?
    pub fn mates(&self) -> bool {
        self.net > MATE_GAIN / 2
    }
}

/// The king hunt that begins with `first`, a check of the side to move in `board`, within
/// `limits`; `None` when `first` gives no check or the tree outgrows `limits.nodes`.
pub fn hunt(board: &Board, first: Move, limits: HuntLimits) -> Option<Hunt> {
    let mut after = board.clone();
    after.play_unchecked(first);
    if after.checkers().is_empty() {
        return None;
    }
    let mut tree = Tree::new(board, limits);
    let (net, mut line) = tree.defend(&after, 1, 1, -MATE_GAIN, MATE_GAIN)?;
    line.insert(0, first);
    Some(Hunt { line, net })
}

/// The best the side to move in `board` makes of checks alone (or of its best winning
/// capture, when that is more): its line and what it wins from `board`; `None` when the tree
/// outgrows `limits.nodes`.
pub fn best_hunt(board: &Board, limits: HuntLimits) -> Option<Hunt> {
    let mut tree = Tree::new(board, limits);
    let (net, line) = tree.attack(board, 0, 0, -MATE_GAIN, MATE_GAIN)?;
    Some(Hunt { line, net })
}

/// A piece offered with a threat, and what follows when it is taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// Where the enemy piece that takes the offer stands (the least valuable one that can).
    pub taker: Square,
    /// What the offer threatens, were it ignored: the line and its gain.
    pub threat: Hunt,
    /// The line after the offer is taken by `taker`, the capture first, and what the hunt that
    /// follows wins from the position after the capture.
    pub taken: Hunt,
}

/// `mv` as an offer of the side to move in `board`: a move without check that gives material
/// up by the exchange (the cost), threatens to win more than the cost (or to mate) were it
/// ignored, and whose every capture lets a king hunt begin that mates or wins back what it
/// takes (a line opened by the capture), or that begins with a second sacrifice, one that
/// exists only after the first, and wins something. `None` otherwise, or when a tree outgrows
/// `limits`.
pub fn offer(board: &Board, mv: Move, limits: HuntLimits) -> Option<Offer> {
    let cost = -see(board, mv);
    let mut after = board.clone();
    after.play_unchecked(mv);
    if cost <= 0 || !after.checkers().is_empty() {
        return None;
    }
    let threat = best_hunt(&after.null_move()?, limits)?;
    if threat.net <= cost {
        return None;
    }
    let mut captures: Vec<Move> = legal_moves(&after)
        .into_iter()
        .filter(|m| m.to == mv.to)
        .collect();
    captures.sort_by_key(|m| after.piece_on(m.from).map_or(0, piece_value));
    let mut taken: Option<(Square, Hunt)> = None;
    for capture in captures {
        let mut next = after.clone();
        next.play_unchecked(capture);
        let hunt = best_hunt(&next, limits)?;
        let back = balance(&after, board.side_to_move()) - balance(&next, board.side_to_move());
        // A second sacrifice need not pay for the first: what it wins is for the search to
        // weigh against both (AVRO 1938: 30.Ba3 Q×a3 31.Nh5+).
        let second = hunt.line.first().is_some_and(|&m| see(&next, m) < 0) && hunt.net > 0;
        if !(hunt.mates() || hunt.net >= back || second) {
            return None;
        }
        if taken.is_none() {
            let mut line = hunt.line;
            line.insert(0, capture);
            taken = Some((
                capture.from,
                Hunt {
                    line,
                    net: hunt.net,
                },
            ));
        }
    }
    let (taker, taken) = taken?;
    Some(Offer {
        taker,
        threat,
        taken,
    })
}

/// The material of `side` less its opponent's, kings left out.
fn balance(board: &Board, side: Color) -> i32 {
    let count = |color: Color| -> i32 {
        [
            Piece::Pawn,
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
        ]
        .into_iter()
        .map(|p| board.colored_pieces(color, p).len() as i32 * piece_value(p))
        .sum()
    };
    count(side) - count(!side)
}

/// The hunt's tree search: the hunter maximises, the king's side minimises.
struct Tree {
    hunter: Color,
    before: i32,
    nodes: u32,
    limits: HuntLimits,
}

impl Tree {
    /// The tree of the side to move in `board`, material counted from there.
    fn new(board: &Board, limits: HuntLimits) -> Tree {
        Tree {
            hunter: board.side_to_move(),
            before: balance(board, board.side_to_move()),
            nodes: 0,
            limits,
        }
    }

    /// Counts a position; `None` once the tree has outgrown its limit.
    fn visit(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.limits.nodes).then_some(())
    }

    /// The value and line of the hunter to move in `board`, having made `moves` moves, at
    /// `ply` plies from the first check: its best check, or the material as it stands with its
    /// best winning capture (not while in check).
    fn attack(
        &mut self,
        board: &Board,
        moves: u8,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Vec<Move>)> {
        self.visit()?;
        let now = balance(board, self.hunter) - self.before;
        let mut best = (now, Vec::new());
        if board.checkers().is_empty() {
            let capture = legal_moves(board)
                .into_iter()
                .filter(|&mv| is_capture(board, mv))
                .map(|mv| (see(board, mv), mv))
                .max_by_key(|&(gain, _)| gain);
            if let Some((gain, mv)) = capture.filter(|&(gain, _)| gain > 0) {
                best = (now + gain, vec![mv]);
            }
        }
        if best.0 >= beta || moves >= self.limits.moves {
            return Some(best);
        }
        alpha = alpha.max(best.0);
        for mv in legal_moves(board) {
            let mut after = board.clone();
            after.play_unchecked(mv);
            if after.checkers().is_empty() {
                continue;
            }
            let (value, mut line) = self.defend(&after, moves + 1, ply + 1, alpha, beta)?;
            if value > best.0 {
                line.insert(0, mv);
                best = (value, line);
                alpha = alpha.max(value);
                if value >= beta {
                    break;
                }
            }
        }
        Some(best)
    }

    /// The value and line of the king's side to move in `board`, in check: its best answer;
    /// mate when it has none, a stalemate worth nothing to the hunter.
    fn defend(
        &mut self,
        board: &Board,
        moves: u8,
        ply: i32,
        alpha: i32,
        mut beta: i32,
    ) -> Option<(i32, Vec<Move>)> {
        self.visit()?;
        let answers = legal_moves(board);
        if answers.is_empty() {
            let value = if board.checkers().is_empty() {
                -MATE_GAIN
            } else {
                MATE_GAIN - ply
            };
            return Some((value, Vec::new()));
        }
        let mut best: Option<(i32, Vec<Move>)> = None;
        for mv in answers {
            let mut after = board.clone();
            after.play_unchecked(mv);
            let (value, mut line) = self.attack(&after, moves, ply + 1, alpha, beta)?;
            if best.as_ref().is_none_or(|(b, _)| value < *b) {
                line.insert(0, mv);
                best = Some((value, line));
                beta = beta.min(value);
                if value <= alpha {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::move_from_uci;
    use crate::rules::{parse_fen, Square};

    fn hunt_of(fen: &str, first: &str) -> Option<Hunt> {
        let board = parse_fen(fen, false).unwrap();
        let mv = move_from_uci(&board, first, false).unwrap();
        hunt(&board, mv, HuntLimits::default())
    }

    #[test]
    fn a_knight_check_that_forks_king_and_rook_wins_the_rook() {
        let hunt = hunt_of("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "d5c7").unwrap();
        assert_eq!(hunt.net, 500, "{hunt:?}");
        assert_eq!(hunt.line.last().unwrap().to_string(), "c7a8");
    }

    /// Botvinnik–Capablanca, AVRO 1938, before 30.Ba3 and (after 30…Q×a3) before 31.Nh5+.
    const AVRO_30: &str = "8/p3q1kp/1p2Pnp1/3pQ3/2pP4/1nP3N1/1B4PP/6K1 w - - 0 30";
    const AVRO_31: &str = "8/p5kp/1p2Pnp1/3pQ3/2pP4/qnP3N1/6PP/6K1 w - - 0 31";

    fn uci_line(hunt: &Hunt) -> Vec<String> {
        hunt.line.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn avro_1938_the_knight_comes_back_with_check() {
        // 31.Nh5+ g×h5 32.Qg5+ and Q×f6+: the knight given is won back, and a pawn with it
        // (the e-pawn's way freed is the search's to weigh).
        let hunt = hunt_of(AVRO_31, "g3h5").unwrap();
        assert_eq!(
            uci_line(&hunt)[..5],
            ["g3h5", "g6h5", "e5g5", "g7f8", "g5f6"]
        );
        assert_eq!(hunt.net, 100, "{hunt:?}");
        assert!(!hunt.mates());
    }

    #[test]
    fn avro_1938_the_bishop_is_offered_for_the_second_sacrifice() {
        let board = parse_fen(AVRO_30, false).unwrap();
        let ba3 = move_from_uci(&board, "b2a3", false).unwrap();
        let o = offer(&board, ba3, HuntLimits::default()).unwrap();
        assert_eq!(o.taker, Square::E7, "the queen takes");
        assert_eq!(
            uci_line(&o.threat)[0],
            "a3e7",
            "ignored, the bishop takes the queen"
        );
        assert_eq!(uci_line(&o.taken)[..3], ["e7a3", "g3h5", "g6h5"]);
        assert!(o.taken.net > 0, "{o:?}");
        // The knight's sacrifice first is no offer: it checks (a hunt, whose line is judged
        // by the search), and a quiet move that gives nothing up offers nothing.
        let nh5 = move_from_uci(&board, "g3h5", false).unwrap();
        assert_eq!(offer(&board, nh5, HuntLimits::default()), None);
        let h3 = move_from_uci(&board, "h2h3", false).unwrap();
        assert_eq!(offer(&board, h3, HuntLimits::default()), None);
    }

    #[test]
    fn a_rook_offered_to_open_the_g_file_threatens_mate_and_mates_when_taken() {
        // Win at Chess no. 99: 1.Rh5 threatens Q×h7#; g×h5 opens the way to f6: 2.Qf6#.
        let fen = "r1bq1r1k/1pp1Np1p/p2p2pQ/4R3/n7/8/PPPP1PPP/R1B3K1 w - - 0 1";
        let board = parse_fen(fen, false).unwrap();
        let rh5 = move_from_uci(&board, "e5h5", false).unwrap();
        let o = offer(&board, rh5, HuntLimits::default()).unwrap();
        assert_eq!(o.taker, Square::G6);
        assert!(o.threat.mates() && o.taken.mates(), "{o:?}");
        assert_eq!(uci_line(&o.taken), ["g6h5", "h6f6"]);
    }

    #[test]
    fn a_quiet_move_or_a_lost_piece_is_no_hunt() {
        let fen = "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1";
        assert_eq!(hunt_of(fen, "g1f1"), None, "no check");
        // R e1–e8+ mates at once: the back rank.
        let mate = hunt_of(fen, "e1e8").unwrap();
        assert!(mate.mates());
        assert_eq!(mate.line.len(), 1);
        // With the f7 pawn gone the king runs, and the rook wins nothing.
        let run = hunt_of("6k1/6pp/8/8/8/8/5PPP/4R1K1 w - - 0 1", "e1e8").unwrap();
        assert_eq!(run.net, 0, "{run:?}");
    }
}
