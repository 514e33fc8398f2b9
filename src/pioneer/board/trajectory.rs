//! Shortest trajectories on the empty board (PIONEER: "store in memory the shortest
//! trajectories on the empty board of every piece from every square to every square").
//!
//! Design note: a trajectory is not stored as a list of paths — between two squares there can
//! be hundreds of shortest paths (a king from e1 to e8 has 393) — but as a *bundle*: for every
//! step k the set of squares that some shortest path occupies after k moves. A square s belongs
//! to step k of the bundle from `a` to `b` exactly when d(a, s) = k and d(s, b) = len − k, so the
//! tables are built once, by breadth-first search from every square, for every kind of mover:
//! knight, bishop, rook, queen, king and the pawn of each colour (pawns only push; their
//! capturing last step is added by the attack code, `attacks::attack`). Queens and rooks reach any
//! square in at most two moves and a bishop any square of its colour, as Botvinnik says; the
//! knight, king and pawn tables come from the same search ("their own method").
//!
//! Trajectories of length 3 and 4 are not stored: there are too many. `two_fragment` builds them
//! on demand from two fragments of length at most 2 (PIONEER: "from two fragments of length 2 or
//! 1"): the first from the mover to an intermediate square, the second from there to the goal.

use crate::rules::{BitBoard, Color, Piece, Rank, Square};
use cozy_chess::{get_bishop_rays, get_king_moves, get_knight_moves, get_rook_rays};
use std::sync::OnceLock;

/// Longest shortest trajectory of any mover on the empty board (a king crossing the board).
pub const MAX_LEN: usize = 7;

/// The way a piece moves, as far as trajectories are concerned. Pawns differ by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mover {
    /// A pawn of this colour (pushes only; the double step from its starting rank included).
    Pawn(Color),
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// A queen.
    Queen,
    /// A king.
    King,
}

impl Mover {
    /// Every mover, in table order.
    pub const ALL: [Mover; 7] = [
        Mover::Pawn(Color::White),
        Mover::Pawn(Color::Black),
        Mover::Knight,
        Mover::Bishop,
        Mover::Rook,
        Mover::Queen,
        Mover::King,
    ];

    /// The mover of a piece of the given colour.
    pub fn new(piece: Piece, color: Color) -> Mover {
        match piece {
            Piece::Pawn => Mover::Pawn(color),
            Piece::Knight => Mover::Knight,
            Piece::Bishop => Mover::Bishop,
            Piece::Rook => Mover::Rook,
            Piece::Queen => Mover::Queen,
            Piece::King => Mover::King,
        }
    }

    /// The piece that moves this way.
    pub fn piece(self) -> Piece {
        match self {
            Mover::Pawn(_) => Piece::Pawn,
            Mover::Knight => Piece::Knight,
            Mover::Bishop => Piece::Bishop,
            Mover::Rook => Piece::Rook,
            Mover::Queen => Piece::Queen,
            Mover::King => Piece::King,
        }
    }

    /// Does it move along lines, so that the squares between two stops matter?
    pub fn slides(self) -> bool {
        matches!(self, Mover::Bishop | Mover::Rook | Mover::Queen)
    }

    fn index(self) -> usize {
        match self {
            Mover::Pawn(Color::White) => 0,
            Mover::Pawn(Color::Black) => 1,
            Mover::Knight => 2,
            Mover::Bishop => 3,
            Mover::Rook => 4,
            Mover::Queen => 5,
            Mover::King => 6,
        }
    }

    /// Squares reachable in one move from `from` on the empty board.
    pub fn steps(self, from: Square) -> BitBoard {
        match self {
            Mover::Pawn(color) => pawn_pushes(from, color),
            Mover::Knight => get_knight_moves(from),
            Mover::Bishop => get_bishop_rays(from),
            Mover::Rook => get_rook_rays(from),
            Mover::Queen => get_bishop_rays(from) | get_rook_rays(from),
            Mover::King => get_king_moves(from),
        }
    }
}

fn pawn_pushes(from: Square, color: Color) -> BitBoard {
    let forward: i8 = if color == Color::White { 1 } else { -1 };
    let mut out = BitBoard::EMPTY;
    if from.rank() == Rank::First.relative_to(color)
        || from.rank() == Rank::Eighth.relative_to(color)
    {
        return out;
    }
    if let Some(one) = from.try_offset(0, forward) {
        out |= one.bitboard();
        if from.rank() == Rank::Second.relative_to(color) {
            if let Some(two) = from.try_offset(0, 2 * forward) {
                out |= two.bitboard();
            }
        }
    }
    out
}

/// All shortest trajectories between two squares on the empty board, as the set of squares
/// usable at each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// Where the mover stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// Number of moves (0 when `from == to`).
    pub len: u8,
    /// `inner[k - 1]`: squares occupied after k moves, for 1 ≤ k < len.
    inner: [BitBoard; MAX_LEN - 1],
}

impl Bundle {
    /// Squares occupied after `k` moves (k = 0 is `from`, k = len is `to`).
    pub fn step(&self, k: usize) -> BitBoard {
        if k == 0 {
            self.from.bitboard()
        } else if k >= self.len as usize {
            self.to.bitboard()
        } else {
            self.inner[k - 1]
        }
    }

    /// Every square some shortest path passes through, ends excluded.
    pub fn inner_squares(&self) -> BitBoard {
        self.inner
            .iter()
            .take((self.len as usize).saturating_sub(1))
            .fold(BitBoard::EMPTY, |a, &b| a | b)
    }

    /// Number of distinct shortest paths in the bundle.
    pub fn path_count(&self, mover: Mover) -> u64 {
        let mut counts = [0u64; 64];
        counts[self.from as usize] = 1;
        for k in 1..=self.len as usize {
            let mut next = [0u64; 64];
            for s in self.step(k) {
                next[s as usize] = self
                    .step(k - 1)
                    .iter()
                    .filter(|&p| mover.steps(p).has(s))
                    .map(|p| counts[p as usize])
                    .sum();
            }
            counts = next;
        }
        counts[self.to as usize]
    }

    /// Up to `limit` concrete shortest paths, each from `from` to `to` inclusive.
    pub fn paths(&self, mover: Mover, limit: usize) -> Vec<Vec<Square>> {
        let mut out = Vec::new();
        let mut path = vec![self.from];
        self.extend(mover, &mut path, &mut out, limit);
        out
    }

    fn extend(
        &self,
        mover: Mover,
        path: &mut Vec<Square>,
        out: &mut Vec<Vec<Square>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        let k = path.len();
        if k > self.len as usize {
            out.push(path.clone());
            return;
        }
        let last = *path.last().expect("a path has a start");
        for s in self.step(k) & mover.steps(last) {
            path.push(s);
            self.extend(mover, path, out, limit);
            path.pop();
        }
    }
}

struct Tables {
    /// `dist[mover][from][to]`, `u8::MAX` when unreachable.
    dist: Vec<[[u8; 64]; 64]>,
    /// `bundles[mover][from * 64 + to]`.
    bundles: Vec<Vec<Bundle>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let mut dist = vec![[[u8::MAX; 64]; 64]; Mover::ALL.len()];
    for mover in Mover::ALL {
        let table = &mut dist[mover.index()];
        for from in Square::ALL {
            let row = &mut table[from as usize];
            row[from as usize] = 0;
            let mut frontier = from.bitboard();
            let mut seen = frontier;
            let mut d = 0u8;
            while !frontier.is_empty() {
                d += 1;
                let mut next = BitBoard::EMPTY;
                for s in frontier {
                    next |= mover.steps(s);
                }
                next &= !seen;
                for s in next {
                    row[s as usize] = d;
                }
                seen |= next;
                frontier = next;
            }
        }
    }
    // rings[mover][sq][d]: squares at distance d from sq (forward) and to sq (backward).
    let mut bundles = Vec::with_capacity(Mover::ALL.len());
    for mover in Mover::ALL {
        let table = &dist[mover.index()];
        let mut forward = vec![[BitBoard::EMPTY; MAX_LEN + 1]; 64];
        let mut backward = vec![[BitBoard::EMPTY; MAX_LEN + 1]; 64];
        for a in Square::ALL {
            for b in Square::ALL {
                let d = table[a as usize][b as usize];
                if (d as usize) <= MAX_LEN {
                    forward[a as usize][d as usize] |= b.bitboard();
                    backward[b as usize][d as usize] |= a.bitboard();
                }
            }
        }
        let mut list = Vec::with_capacity(64 * 64);
        for from in Square::ALL {
            for to in Square::ALL {
                let d = table[from as usize][to as usize];
                let len = if (d as usize) <= MAX_LEN { d } else { u8::MAX };
                let mut inner = [BitBoard::EMPTY; MAX_LEN - 1];
                if len != u8::MAX {
                    for k in 1..len as usize {
                        inner[k - 1] =
                            forward[from as usize][k] & backward[to as usize][len as usize - k];
                    }
                }
                list.push(Bundle {
                    from,
                    to,
                    len,
                    inner,
                });
            }
        }
        bundles.push(list);
    }
    Tables { dist, bundles }
}

/// Number of moves the mover needs from `from` to `to` on the empty board (`None`: never).
pub fn distance(mover: Mover, from: Square, to: Square) -> Option<u8> {
    let d = tables().dist[mover.index()][from as usize][to as usize];
    (d != u8::MAX).then_some(d)
}

/// The least distance from `from` to any square of `targets` (`None` if none is reachable).
pub fn distance_to_set(mover: Mover, from: Square, targets: BitBoard) -> Option<u8> {
    let row = &tables().dist[mover.index()][from as usize];
    targets
        .iter()
        .map(|s| row[s as usize])
        .filter(|&d| d != u8::MAX)
        .min()
}

/// The bundle of shortest trajectories from `from` to `to` (`None` if unreachable).
pub fn bundle(mover: Mover, from: Square, to: Square) -> Option<&'static Bundle> {
    let b = &tables().bundles[mover.index()][from as usize * 64 + to as usize];
    (b.len != u8::MAX).then_some(b)
}

/// Builds trajectories of length 3 or 4 from two fragments of length 1 or 2 each, through every
/// intermediate square `via`: the mover goes from `from` to `via`, then from `via` to `to`.
/// Only combinations longer than the shortest trajectory are returned (the shortest ones are in
/// the tables), each as `(via, first fragment, second fragment)`.
pub fn two_fragment(mover: Mover, from: Square, to: Square) -> Vec<(Square, Bundle, Bundle)> {
    let shortest = distance(mover, from, to).unwrap_or(u8::MAX);
    let mut out = Vec::new();
    for via in Square::ALL {
        if via == from || via == to {
            continue;
        }
        let (Some(a), Some(b)) = (bundle(mover, from, via), bundle(mover, via, to)) else {
            continue;
        };
        let total = a.len + b.len;
        if (1..=2).contains(&a.len) && (1..=2).contains(&b.len) && total >= 3 && total > shortest {
            out.push((via, *a, *b));
        }
    }
    out.sort_by_key(|(via, a, b)| (a.len + b.len, *via as u8));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queen_and_rook_reach_everything_in_two_bishop_its_colour() {
        for a in Square::ALL {
            for b in Square::ALL {
                assert!(distance(Mover::Queen, a, b).unwrap() <= 2);
                assert!(distance(Mover::Rook, a, b).unwrap() <= 2);
                let same_colour = BitBoard::LIGHT_SQUARES.has(a) == BitBoard::LIGHT_SQUARES.has(b);
                assert_eq!(distance(Mover::Bishop, a, b).is_some(), same_colour);
            }
        }
    }

    #[test]
    fn king_knight_and_pawn_distances() {
        assert_eq!(distance(Mover::King, Square::H8, Square::A1), Some(7));
        assert_eq!(distance(Mover::Knight, Square::A1, Square::H8), Some(6));
        assert_eq!(distance(Mover::Knight, Square::A1, Square::B2), Some(4));
        assert_eq!(
            distance(Mover::Pawn(Color::White), Square::E2, Square::E4),
            Some(1)
        );
        assert_eq!(
            distance(Mover::Pawn(Color::White), Square::E2, Square::E8),
            Some(5)
        );
        assert_eq!(
            distance(Mover::Pawn(Color::White), Square::E3, Square::E2),
            None
        );
        assert_eq!(
            distance(Mover::Pawn(Color::Black), Square::H5, Square::H1),
            Some(4)
        );
    }

    #[test]
    fn bundles_hold_every_shortest_path() {
        // The king route h8–g7–f6–e5 of Réti's study lies in the bundle from h8 to d6.
        let b = bundle(Mover::King, Square::H8, Square::D6).unwrap();
        assert_eq!(b.len, 4);
        assert!(
            b.step(1).has(Square::G7) && b.step(2).has(Square::F6) && b.step(3).has(Square::E5)
        );
        assert!(!b.step(1).has(Square::H7));
        // A king crossing the board along a file: the central trinomial coefficient of 7 (393
        // paths; from the e-file the board's edges never cut one off).
        let e = bundle(Mover::King, Square::E1, Square::E8).unwrap();
        assert_eq!(e.path_count(Mover::King), 393);
        assert_eq!(e.paths(Mover::King, 1000).len(), 393);
        // Rook e1 to a7 (PIONEER's diagram 51): through a1 or e7.
        let r = bundle(Mover::Rook, Square::E1, Square::A7).unwrap();
        assert_eq!(r.step(1), Square::A1.bitboard() | Square::E7.bitboard());
        // Bishop h6 to f6 (diagram 52): through g5 or g7; h6 to h5 is impossible.
        let b = bundle(Mover::Bishop, Square::H6, Square::F6).unwrap();
        assert_eq!(b.len, 2);
        assert_eq!(b.step(1), Square::G5.bitboard() | Square::G7.bitboard());
        assert!(bundle(Mover::Bishop, Square::H6, Square::H5).is_none());
        assert_eq!(
            bundle(Mover::Bishop, Square::H6, Square::E3).unwrap().len,
            1
        );
    }

    #[test]
    fn every_bundle_path_is_a_shortest_path() {
        for mover in [Mover::Knight, Mover::King, Mover::Queen] {
            for (a, b) in [
                (Square::B1, Square::G6),
                (Square::A8, Square::H2),
                (Square::D4, Square::D5),
            ] {
                let bundle = bundle(mover, a, b).unwrap();
                for path in bundle.paths(mover, 50) {
                    assert_eq!(path.len(), bundle.len as usize + 1);
                    for w in path.windows(2) {
                        assert!(mover.steps(w[0]).has(w[1]));
                    }
                }
            }
        }
    }

    #[test]
    fn two_fragments_make_longer_trajectories() {
        // PIONEER's diagram 53: R d2–d1–a1×a5 is a three-move trajectory from two fragments.
        let list = two_fragment(Mover::Rook, Square::D2, Square::A5);
        assert!(list.iter().any(|(via, a, b)| *via == Square::A1
            && a.len + b.len == 3
            && a.step(1).has(Square::D1)));
        assert!(list
            .iter()
            .all(|(_, a, b)| (3..=4).contains(&(a.len + b.len))));
        // A queen always reaches in ≤ 2, so every combination is longer than the shortest.
        assert!(two_fragment(Mover::Queen, Square::A1, Square::H8)
            .iter()
            .all(|(_, a, b)| a.len + b.len >= 3));
    }
}
