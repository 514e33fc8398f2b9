//! Accumulators along the search path, updated by each move's few features.
//!
//! Design note: the search is copy-make, so the stack holds one entry per ply. Making a move
//! only records its `Delta` (at most two features off and two on for each side, and the king's
//! step if a king moved); the accumulators are computed when a position is evaluated, from the
//! nearest ancestor where both are computed forward, so a node cut before its evaluation costs
//! no vector work. A king move that changes its own side's king bucket or half (see
//! `king_buckets`) changes every feature of that perspective: when the way forward holds one,
//! that perspective is computed from the evaluated board instead. A null move records an empty
//! delta (a copy). The root is computed when it is set: the search often takes a node's
//! evaluation from the transposition table without computing it, and a path whose plies were
//! all taken so would otherwise end in a full refresh at every node below it. A stack whose
//! root was never set refreshes the evaluated ply from its board.

use super::{feature, KingView, Network};
use crate::rules::{Board, Color, Move, Piece, Square};

/// A piece put on or taken off a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Change {
    color: Color,
    piece: Piece,
    square: Square,
}

/// A king's step: the side whose king it is, and the squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KingStep {
    color: Color,
    from: Square,
    to: Square,
}

/// What a move changes in the inputs: at most two pieces off and two on, and the king's step
/// when a king moved (its side's features may all change with it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    off: [Option<Change>; 2],
    on: [Option<Change>; 2],
    king: Option<KingStep>,
}

impl Delta {
    /// The changes `mv` makes to `board` (the position before the move; castling is
    /// king-takes-rook, in standard chess and Chess960 alike).
    pub fn of_move(board: &Board, mv: Move) -> Delta {
        let us = board.side_to_move();
        let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        let at = |piece, square| {
            Some(Change {
                color: us,
                piece,
                square,
            })
        };
        if board.color_on(mv.to) == Some(us) {
            // Castling: the king and the rook go to their files on the back rank.
            let rank = mv.from.rank();
            let short = mv.to.file() > mv.from.file();
            let (king_file, rook_file) = if short {
                (crate::rules::File::G, crate::rules::File::F)
            } else {
                (crate::rules::File::C, crate::rules::File::D)
            };
            let king_to = Square::new(king_file, rank);
            return Delta {
                off: [at(Piece::King, mv.from), at(Piece::Rook, mv.to)],
                on: [
                    at(Piece::King, king_to),
                    at(Piece::Rook, Square::new(rook_file, rank)),
                ],
                king: Some(KingStep {
                    color: us,
                    from: mv.from,
                    to: king_to,
                }),
            };
        }
        let captured = match board.piece_on(mv.to) {
            Some(victim) => Some(Change {
                color: !us,
                piece: victim,
                square: mv.to,
            }),
            // En passant: a pawn moving diagonally to an empty square.
            None if piece == Piece::Pawn && mv.from.file() != mv.to.file() => Some(Change {
                color: !us,
                piece: Piece::Pawn,
                square: Square::new(mv.to.file(), mv.from.rank()),
            }),
            None => None,
        };
        Delta {
            off: [at(piece, mv.from), captured],
            on: [at(mv.promotion.unwrap_or(piece), mv.to), None],
            king: (piece == Piece::King).then_some(KingStep {
                color: us,
                from: mv.from,
                to: mv.to,
            }),
        }
    }
}

/// The weight rows of `changes` as `perspective` sees them with its king's `view`, without
/// allocating.
fn rows<'a>(
    net: &'a Network,
    perspective: Color,
    view: KingView,
    changes: &[Option<Change>; 2],
) -> ([&'a [i16]; 2], usize) {
    let mut out: [&[i16]; 2] = [&[], &[]];
    let mut n = 0;
    for c in changes.iter().flatten() {
        out[n] = net.row(feature(view, perspective, c.color, c.piece, c.square));
        n += 1;
    }
    (out, n)
}

/// One ply's accumulators (White's perspective, then Black's) and how they were reached.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    delta: Delta,
    /// Is `delta` meaningful (a move or null move from the previous ply)?
    has_parent: bool,
    /// Is each perspective's accumulator (White's, Black's) computed?
    computed: [bool; 2],
}

/// Accumulators for every ply of the search path.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    /// Per ply, `2 × hidden` values: White's accumulator, then Black's.
    values: Vec<i16>,
    entries: Vec<Entry>,
}

impl AccumulatorStack {
    /// A stack for `plies` plies of a net of width `hidden`.
    pub fn new(hidden: usize, plies: usize) -> Self {
        AccumulatorStack {
            hidden,
            values: vec![0; 2 * hidden * plies],
            entries: vec![Entry::default(); plies],
        }
    }

    /// The search starts at ply 0 from `root`: its accumulators are computed now, so that
    /// every later ply can be reached from it by deltas; nothing below is valid.
    pub fn set_root(&mut self, net: &Network, root: &Board) {
        let width = 2 * self.hidden;
        let (white, black) = self.values[..width].split_at_mut(self.hidden);
        net.refresh(root, Color::White, white);
        net.refresh(root, Color::Black, black);
        self.entries[0] = Entry {
            computed: [true; 2],
            ..Entry::default()
        };
    }

    /// The position at `ply` is reached by `delta` from the one at `ply − 1`.
    pub fn push(&mut self, ply: usize, delta: Delta) {
        self.entries[ply] = Entry {
            delta,
            has_parent: true,
            computed: [false; 2],
        };
    }

    /// `perspective`'s accumulators of plies `parent` and `parent + 1`.
    fn split(&mut self, parent: usize, perspective: Color) -> (&[i16], &mut [i16]) {
        let width = 2 * self.hidden;
        let offset = perspective as usize * self.hidden;
        let (before, after) = self.values.split_at_mut((parent + 1) * width);
        (
            &before[parent * width + offset..][..self.hidden],
            &mut after[offset..][..self.hidden],
        )
    }

    /// Evaluates `board`, the position at `ply`, from the side to move's view.
    pub fn evaluate(&mut self, net: &Network, board: &Board, ply: usize) -> i32 {
        // Step back to the nearest ply where both perspectives are computed. A perspective is
        // computed from the board instead when there is none (no root was set) or a king move
        // on the way changed its features.
        let mut first = ply;
        let mut refresh = [false; 2];
        while self.entries[first].computed != [true; 2] {
            let entry = &self.entries[first];
            if !entry.has_parent || first == 0 {
                refresh = [true; 2];
                break;
            }
            if let Some(step) = entry.delta.king {
                refresh[step.color as usize] |= net
                    .king_buckets
                    .changes_view(step.color, step.from, step.to);
            }
            first -= 1;
        }
        let width = 2 * self.hidden;
        for perspective in Color::ALL {
            let side = perspective as usize;
            if refresh[side] {
                let offset = ply * width + side * self.hidden;
                let acc = &mut self.values[offset..offset + self.hidden];
                net.refresh(board, perspective, acc);
                self.entries[ply].computed[side] = true;
            }
        }
        // No king move on the way changed an updated perspective's view: the evaluated board's
        // is every ply's.
        let views = Color::ALL.map(|perspective| net.king_buckets.view(board, perspective));
        for p in first + 1..=ply {
            let delta = self.entries[p].delta;
            for perspective in Color::ALL {
                let side = perspective as usize;
                if refresh[side] {
                    continue;
                }
                let (on, n_on) = rows(net, perspective, views[side], &delta.on);
                let (off, n_off) = rows(net, perspective, views[side], &delta.off);
                let (parent, child) = self.split(p - 1, perspective);
                net.kernel.update(child, parent, &on[..n_on], &off[..n_off]);
                self.entries[p].computed[side] = true;
            }
        }
        let width = 2 * self.hidden;
        let acc = &self.values[ply * width..(ply + 1) * width];
        let (white, black) = acc.split_at(self.hidden);
        net.output(white, black, board)
    }
}

#[cfg(test)]
mod tests {
    use super::super::simd::Kernel;
    use super::super::tests::{random_bucketed_net, random_king_bucketed_net, random_net};
    use super::super::KingBuckets;
    use super::*;
    use crate::rules::{is_castling, is_en_passant, legal_moves, parse_fen};
    use crate::util::Rng;

    /// Starts rich in castling, en passant and promotions, standard and Chess960.
    const STARTS: [(&str, bool); 5] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        ),
        ("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1", false),
        (
            "n1r2krq/p1pp1ppp/1p6/4p3/4P3/1P6/P1PP1PPP/N1R2KRQ w GCgc - 0 1",
            true,
        ),
        ("1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1", true),
    ];

    #[derive(Default)]
    struct Seen {
        castling: usize,
        en_passant: usize,
        promotions: usize,
        captures: usize,
        nulls: usize,
        backtracks: usize,
        /// King moves that changed their side's king bucket or half.
        king_views: usize,
    }

    /// Random walks with backtracking and null moves; at every evaluated ply the incremental
    /// accumulators equal a refresh and the score equals the full evaluation.
    fn walk(net: &Network, seen: &mut Seen, seed: u64) {
        let mut rng = Rng::for_stream(seed, 1);
        let mut stack = AccumulatorStack::new(net.hidden(), 64);
        for &(fen, chess960) in &STARTS {
            let root = parse_fen(fen, chess960).unwrap();
            stack.set_root(net, &root);
            let mut path = vec![root];
            for _ in 0..300 {
                if path.len() > 2 && (rng.below(8) == 0 || path.len() == 60) {
                    path.truncate(1 + rng.below(path.len() - 1));
                    seen.backtracks += 1;
                }
                let board = path.last().unwrap().clone();
                let moves = legal_moves(&board);
                let null = board.checkers().is_empty() && rng.below(10) == 0;
                let (child, delta) = if null || moves.is_empty() {
                    let Some(child) = board.null_move() else {
                        path.truncate(1);
                        continue;
                    };
                    seen.nulls += 1;
                    (child, Delta::default())
                } else {
                    // Rare moves are chosen often, so that every kind is checked many times.
                    let rare: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| {
                            is_castling(&board, m)
                                || is_en_passant(&board, m)
                                || m.promotion.is_some()
                        })
                        .collect();
                    let mv = if !rare.is_empty() && rng.below(2) == 0 {
                        rare[rng.below(rare.len())]
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    seen.castling += usize::from(is_castling(&board, mv));
                    seen.en_passant += usize::from(is_en_passant(&board, mv));
                    seen.promotions += usize::from(mv.promotion.is_some());
                    seen.captures +=
                        usize::from(board.color_on(mv.to) == Some(!board.side_to_move()));
                    let delta = Delta::of_move(&board, mv);
                    seen.king_views += usize::from(delta.king.is_some_and(|step| {
                        net.king_buckets
                            .changes_view(step.color, step.from, step.to)
                    }));
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    (child, delta)
                };
                stack.push(path.len(), delta);
                path.push(child);
                let ply = path.len() - 1;
                // Evaluate most plies, skip some so that updates chain over several moves.
                if rng.below(3) != 0 {
                    let board = &path[ply];
                    assert_eq!(
                        stack.evaluate(net, board, ply),
                        net.evaluate_full(board),
                        "{fen}"
                    );
                    let width = 2 * net.hidden();
                    let mut fresh = vec![0; width];
                    let (white, black) = fresh.split_at_mut(net.hidden());
                    net.refresh(board, Color::White, white);
                    net.refresh(board, Color::Black, black);
                    assert_eq!(&stack.values[ply * width..(ply + 1) * width], &fresh[..]);
                }
            }
        }
    }

    #[test]
    fn incremental_accumulators_equal_a_refresh_on_every_kernel() {
        let mut seen = Seen::default();
        for kernel in Kernel::available() {
            // Eight output buckets: captures and promotions move a board between them; with
            // king buckets, king moves change a perspective's bucket or half.
            let nets = [
                random_bucketed_net(32, 8, 7),
                random_king_bucketed_net(32, KingBuckets::mirrored_four(), 8, 7),
            ];
            for mut net in nets {
                net.set_kernel(kernel);
                for seed in 0..6 {
                    walk(&net, &mut seen, seed);
                }
            }
        }
        assert!(seen.castling > 20, "castling {}", seen.castling);
        assert!(seen.en_passant > 20, "en passant {}", seen.en_passant);
        assert!(seen.promotions > 20, "promotions {}", seen.promotions);
        assert!(seen.captures > 50 && seen.nulls > 50 && seen.backtracks > 50);
        assert!(seen.king_views > 50, "king views {}", seen.king_views);
    }

    #[test]
    fn a_stale_entry_is_never_used_after_a_new_root() {
        let net = random_net(16, 2);
        let mut stack = AccumulatorStack::new(16, 8);
        let a = parse_fen(STARTS[0].0, false).unwrap();
        let b = parse_fen(STARTS[1].0, false).unwrap();
        assert_eq!(stack.evaluate(&net, &a, 0), net.evaluate_full(&a));
        stack.set_root(&net, &b);
        assert_eq!(stack.evaluate(&net, &b, 0), net.evaluate_full(&b));
        // A ply reached from the new root by a move is computed from it, not from `a`.
        let mv = legal_moves(&b)[0];
        let mut child = b.clone();
        child.play_unchecked(mv);
        stack.push(1, Delta::of_move(&b, mv));
        assert_eq!(stack.evaluate(&net, &child, 1), net.evaluate_full(&child));
    }
}
