//! The tree of variations as Yudin's three parallel arrays LIB, SON and BRAT, with the
//! statistics Tropa adds beside them.
//!
//! Design note: node `i` is one move. `lib[i]` is the move with its rating (±r·m·n, see `code`),
//! `son[i]` the index of its first reply, `brat[i]` the index of its next sibling; 0 means "none",
//! as in Yudin's. Node 0 is the start position itself (its LIB entry is 0): its sons are White's
//! first moves, the roots of Yudin's five trees. Links only point forward (`son[i] > i`,
//! `brat[i] > i`) and every node but 0 has exactly one link into it, so the arrays are a tree
//! without cycles, a parent always comes before its replies, and a minimax is one backward
//! sweep. Learning appends nodes at the end, which keeps all of this true.
//!
//! Beside Yudin's arrays, parallel arrays hold what the ratings are made from:
//! `eval[i]`, the search score of the position after the move when it is a leaf (centipawns,
//! White's view); `games[i]`, the games with a known result that went through the move (for a book
//! imported from Polyglot: the entry's weight); `points[i]`, White's half-points in those games.
//! The same arrays are the file format (see `format`).

use super::code::{code_of, pack, rating_of, unpack, MoveCode, Rating};
use super::rating::{blend, rating};
use crate::rules::{Board, Color, Move};
use std::collections::HashMap;

/// An opening book: Yudin's arrays and their statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub(crate) lib: Vec<i16>,
    pub(crate) son: Vec<u32>,
    pub(crate) brat: Vec<u32>,
    pub(crate) eval: Vec<i16>,
    pub(crate) games: Vec<u32>,
    pub(crate) points: Vec<u32>,
    /// Depth in plies the book was built to (learning extends lines up to the engine's
    /// `BookDepth`, which may differ).
    pub(crate) plies: u16,
    /// Flags kept in the file's header (`FLAG_…` below).
    pub(crate) flags: u32,
}

/// The root: the start position.
pub const ROOT: u32 = 0;

/// Book flag (kept in the file's header): the GAMES array holds Polyglot weights (the book was
/// imported).
pub const FLAG_POLYGLOT_WEIGHTS: u32 = 1;
/// Every flag this version knows; a file with another bit set is refused.
pub const KNOWN_FLAGS: u32 = FLAG_POLYGLOT_WEIGHTS;
/// A reply counts when at least this many games went through it (see `counted_replies`).
pub const SUPPORT_GAMES: u32 = 3;
/// … and at least this fraction (1/50, 2%) of the games of its position.
pub const SUPPORT_SHARE: u32 = 50;

/// Iterator over the replies to a node (SON, then BRAT after BRAT).
#[derive(Clone, Debug)]
pub struct Replies<'a> {
    book: &'a Book,
    next: u32,
}

impl Iterator for Replies<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.next == 0 {
            return None;
        }
        let node = self.next;
        self.next = self.book.brat[node as usize];
        Some(node)
    }
}

impl Book {
    /// Are the GAMES counts Polyglot weights (an imported book)?
    pub fn counts_are_weights(&self) -> bool {
        self.flags & FLAG_POLYGLOT_WEIGHTS != 0
    }

    /// An empty book (only the start position) of the given depth.
    pub fn new(plies: u16) -> Book {
        Book {
            lib: vec![0],
            son: vec![0],
            brat: vec![0],
            eval: vec![0],
            games: vec![0],
            points: vec![0],
            plies,
            flags: 0,
        }
    }

    /// Number of nodes, the start position included.
    pub fn len(&self) -> usize {
        self.lib.len()
    }

    /// Does the book hold no move at all?
    pub fn is_empty(&self) -> bool {
        self.son[0] == 0
    }

    /// The depth in plies the book was built to.
    pub fn plies(&self) -> u16 {
        self.plies
    }

    /// The replies to a node.
    #[inline]
    pub fn replies(&self, node: u32) -> Replies<'_> {
        Replies {
            book: self,
            next: self.son[node as usize],
        }
    }

    /// Is the node a move of weight 0 in an imported Polyglot book ("never play")? Such a move
    /// stays in the tree with what follows it, but is never chosen and the minimax ignores it.
    #[inline]
    pub fn excluded(&self, node: u32) -> bool {
        self.counts_are_weights() && self.games[node as usize] == 0
    }

    /// The replies that count — take part in the minimax and may be chosen: those played in at
    /// least `SUPPORT_GAMES` games and in at least 1/`SUPPORT_SHARE` of the games of the
    /// position, or all of them when none is played that often. Rarer replies stay in the tree
    /// (the book answers them when an opponent plays them) but one or two games are too little
    /// evidence to rate a position by. In an imported Polyglot book all replies of positive
    /// weight count.
    pub fn counted_replies(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        let threshold = if self.counts_are_weights() {
            0
        } else {
            SUPPORT_GAMES.max(self.games[node as usize] / SUPPORT_SHARE)
        };
        let sound = |c: u32| !self.excluded(c) && self.games[c as usize] >= threshold;
        let threshold = if self.replies(node).any(sound) {
            threshold
        } else {
            0
        };
        self.replies(node)
            .filter(move |&c| !self.excluded(c) && self.games[c as usize] >= threshold)
    }

    /// The reply to `node` with this move code.
    #[inline]
    pub fn reply(&self, node: u32, code: MoveCode) -> Option<u32> {
        let mut child = self.son[node as usize];
        while child != 0 {
            if code_of(self.lib[child as usize]) == code {
                return Some(child);
            }
            child = self.brat[child as usize];
        }
        None
    }

    /// Follows a line of move codes from the start position (Yudin's procedures E, F, H, K).
    #[inline]
    pub fn walk(&self, codes: &[MoveCode]) -> Option<u32> {
        let mut node = ROOT;
        for &code in codes {
            node = self.reply(node, code)?;
        }
        Some(node)
    }

    /// The move code of a node (not of the root).
    pub fn code(&self, node: u32) -> MoveCode {
        code_of(self.lib[node as usize])
    }

    /// The move of a node (castling as king-takes-rook).
    pub fn mv(&self, node: u32) -> Move {
        self.code(node)
            .decode()
            .expect("codes are checked when a book is made or loaded")
    }

    /// The rating of a node's move.
    pub fn rating(&self, node: u32) -> Rating {
        rating_of(self.lib[node as usize])
    }

    /// Games with a known result that went through the node (Polyglot weight when imported).
    pub fn games(&self, node: u32) -> u32 {
        self.games[node as usize]
    }

    /// White's half-points in those games.
    pub fn points(&self, node: u32) -> u32 {
        self.points[node as usize]
    }

    /// The stored search score of a leaf (centipawns, White's view).
    pub fn eval(&self, node: u32) -> i32 {
        i32::from(self.eval[node as usize])
    }

    /// Number of variations: the leaves of the tree (Yudin's library held 850).
    pub fn variations(&self) -> usize {
        (1..self.len()).filter(|&i| self.son[i] == 0).count()
    }

    /// Leaves below each node (the node itself when it is a leaf).
    pub fn variation_counts(&self) -> Vec<u32> {
        let mut counts = vec![0u32; self.len()];
        for i in (0..self.len()).rev() {
            if self.son[i] == 0 {
                counts[i] = u32::from(i != 0);
            } else {
                counts[i] = self.replies(i as u32).map(|c| counts[c as usize]).sum();
            }
        }
        counts
    }

    /// Depth of every node in plies (the root is 0).
    pub fn depths(&self) -> Vec<u16> {
        let mut depth = vec![0u16; self.len()];
        for i in 0..self.len() {
            for c in self.replies(i as u32) {
                depth[c as usize] = depth[i].saturating_add(1);
            }
        }
        depth
    }

    /// Appends a reply to `node` at the end of its siblings and returns it. The move must be
    /// legal in the node's position; its rating is set by the next `minimax`.
    pub fn add_reply(&mut self, node: u32, code: MoveCode) -> u32 {
        let new = self.len() as u32;
        self.lib.push(pack(0, code));
        self.son.push(0);
        self.brat.push(0);
        self.eval.push(0);
        self.games.push(0);
        self.points.push(0);
        match self.replies(node).last() {
            Some(last) => self.brat[last as usize] = new,
            None => self.son[node as usize] = new,
        }
        new
    }

    /// Sets a leaf's search score (centipawns, White's view; clamped).
    pub fn set_eval(&mut self, node: u32, score: i32) {
        self.eval[node as usize] = score.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
    }

    /// Adds games to a node: `games` games in which White made `points` half-points.
    pub fn add_games(&mut self, node: u32, games: u32, points: u32) {
        let i = node as usize;
        self.games[i] = self.games[i].saturating_add(games);
        self.points[i] = self.points[i]
            .saturating_add(points)
            .min(self.games[i].saturating_mul(2));
    }

    /// Rates every leaf from its search score and results, minimaxes the ratings up the tree
    /// and returns every node's value (centipawns, White's view; the root's too).
    pub fn minimax(&mut self) -> Vec<i32> {
        let values = self.values();
        for (packed, &value) in self.lib.iter_mut().zip(&values).skip(1) {
            *packed = pack(rating(value), code_of(*packed));
        }
        values
    }

    /// Every node's value without changing the ratings: leaves blend their search score with
    /// their results, other nodes take the best reply for the side to move (a node whose replies
    /// are all excluded counts as a leaf).
    pub fn values(&self) -> Vec<i32> {
        let depth = self.depths();
        let mut value = vec![0i32; self.len()];
        for i in (0..self.len()).rev() {
            let replies = self.counted_replies(i as u32).map(|c| value[c as usize]);
            let best = if Book::side_to_move(depth[i]) == Color::White {
                replies.max()
            } else {
                replies.min()
            };
            value[i] =
                best.unwrap_or_else(|| blend(self.eval(i as u32), self.games[i], self.points[i]));
        }
        value
    }

    /// The side to move after a node's move, from its depth.
    pub fn side_to_move(depth: u16) -> Color {
        if depth.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Visits every node in index order (parents first) with the position after its move,
    /// checking on the way that every move is legal where it stands. Only the positions still to
    /// be visited are kept, so a large book needs little memory.
    pub fn walk_positions(
        &self,
        mut visit: impl FnMut(u32, &Board) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut pending: HashMap<u32, Board> = HashMap::new();
        pending.insert(ROOT, Board::default());
        for node in 0..self.len() as u32 {
            let board = pending
                .remove(&node)
                .ok_or_else(|| format!("node {node} unreachable"))?;
            for c in self.replies(node) {
                let code = self.code(c);
                let mv = code
                    .decode()
                    .ok_or_else(|| format!("node {c}: {code} is not a move"))?;
                if !board.is_legal(mv) || MoveCode::encode(&board, mv) != code {
                    return Err(format!(
                        "node {c}: move {code} is not legal after node {node}"
                    ));
                }
                let mut next = board.clone();
                next.play_unchecked(mv);
                pending.insert(c, next);
            }
            visit(node, &board)?;
        }
        Ok(())
    }

    /// Checks every invariant: array lengths, forward links, one parent per node, valid codes,
    /// distinct replies, legal moves, ratings equal to the minimax of the replies' ratings.
    pub fn check(&self) -> Result<(), String> {
        let n = self.len();
        if n == 0 || n > u32::MAX as usize {
            return Err("no start position".into());
        }
        for (name, len) in [
            ("SON", self.son.len()),
            ("BRAT", self.brat.len()),
            ("EVAL", self.eval.len()),
            ("GAMES", self.games.len()),
            ("POINTS", self.points.len()),
        ] {
            if len != n {
                return Err(format!("{name} has {len} entries, LIB {n}"));
            }
        }
        if self.lib[0] != 0 || self.brat[0] != 0 {
            return Err("node 0 must be the start position (LIB 0, BRAT 0)".into());
        }
        let mut parents = vec![0u8; n];
        for i in 0..n {
            for (name, link) in [("SON", self.son[i]), ("BRAT", self.brat[i])] {
                if link == 0 {
                    continue;
                }
                if link as usize >= n || link as usize <= i {
                    return Err(format!("node {i}: {name} {link} does not point forward"));
                }
                parents[link as usize] += 1;
                if parents[link as usize] > 1 {
                    return Err(format!("node {link} is linked more than once"));
                }
            }
        }
        if let Some(orphan) = (1..n).find(|&i| parents[i] == 0) {
            return Err(format!("node {orphan} is not linked into the tree"));
        }
        for i in 1..n {
            unpack(self.lib[i]).map_err(|e| format!("node {i}: {e}"))?;
            if u64::from(self.points[i]) > 2 * u64::from(self.games[i]) {
                return Err(format!("node {i}: more points than games allow"));
            }
        }
        // Legality and distinct replies, position by position.
        self.walk_positions(|node, _| {
            let mut seen = Vec::new();
            for c in self.replies(node) {
                let code = self.code(c);
                if seen.contains(&code) {
                    return Err(format!("node {node}: reply {code} appears twice"));
                }
                seen.push(code);
            }
            Ok(())
        })?;
        let depth = self.depths();
        for (i, &d) in depth.iter().enumerate().skip(1) {
            let ratings = self.counted_replies(i as u32).map(|c| self.rating(c));
            let best = if Book::side_to_move(d) == Color::White {
                ratings.max()
            } else {
                ratings.min()
            };
            if let Some(best) = best {
                if best != self.rating(i as u32) {
                    return Err(format!(
                        "node {i}: rating {} is not the minimax {best} of its replies",
                        self.rating(i as u32)
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::notation::move_from_uci;

    /// Adds a line of UCI moves from the start (existing nodes are reused); returns its last node.
    pub(crate) fn add_line(book: &mut Book, line: &str) -> u32 {
        let mut board = Board::default();
        let mut node = ROOT;
        for text in line.split_whitespace() {
            let mv = move_from_uci(&board, text, false).unwrap();
            let code = MoveCode::encode(&board, mv);
            node = book
                .reply(node, code)
                .unwrap_or_else(|| book.add_reply(node, code));
            board.play_unchecked(mv);
        }
        node
    }

    #[test]
    fn minimax_on_a_hand_made_tree() {
        // 1.e4 e5 (leaf = +20) / 1.e4 c5 (leaf −60: Black slightly better) / 1.d4 d5 (leaf +120).
        // Black picks c5 after 1.e4 (⩱), so 1.e4 is rated −1; after 1.d4 the only reply gives
        // White ±, so 1.d4 is +1 and White prefers it: the root's value is +120.
        let mut book = Book::new(12);
        let e5 = add_line(&mut book, "e2e4 e7e5");
        let c5 = add_line(&mut book, "e2e4 c7c5");
        let d5 = add_line(&mut book, "d2d4 d7d5");
        book.set_eval(e5, 20);
        book.set_eval(c5, -60);
        book.set_eval(d5, 120);
        let values = book.minimax();
        let e4 = book.walk(&[book.code(1)]).unwrap();
        assert_eq!(book.rating(e4), -1);
        assert_eq!(values[e4 as usize], -60);
        assert_eq!(book.rating(e5), 0);
        assert_eq!(book.rating(c5), -1);
        assert_eq!(book.rating(d5), 1);
        assert_eq!(book.rating(book.replies(ROOT).nth(1).unwrap()), 1);
        assert_eq!(values[0], 120);
        assert_eq!(book.variations(), 3);
        assert_eq!(book.variation_counts()[0], 3);
        book.check().unwrap();
        // Results move a leaf: 30 games where White scored 90% after 1.e4 c5 make it +−, so
        // Black's best is now 1...e5 (30 drawn games).
        book.add_games(c5, 30, 54);
        book.add_games(e5, 30, 30);
        book.minimax();
        assert_eq!(book.rating(c5), 2);
        assert_eq!(book.rating(e4), 0);
        book.check().unwrap();
        // A reply played in a single game does not count while others are well supported:
        // 1...d6 looks good for Black (−2.00) but does not make 1.e4 bad for White.
        let d6 = add_line(&mut book, "e2e4 d7d6");
        book.set_eval(d6, -200);
        book.add_games(d6, 1, 0);
        let values = book.minimax();
        assert_eq!((book.rating(d6), book.rating(e4)), (-1, 0));
        assert_eq!(values[e4 as usize], values[e5 as usize]);
        book.check().unwrap();
    }

    #[test]
    fn huge_counts_neither_overflow_nor_fail_the_checks() {
        // Found by fuzzing (fuzz/corpus/book/regression-points-overflow): 2 × games overflowed
        // u32 in the check for games above 2^31, a panic in debug builds and a wrong answer in
        // release builds.
        let mut book = Book::new(12);
        let leaf = add_line(&mut book, "e2e4 e7e5");
        book.add_games(1, 3_000_000_000, 4_000_000_000);
        book.add_games(leaf, u32::MAX, u32::MAX);
        book.add_games(leaf, 5, 5);
        assert_eq!((book.games(leaf), book.points(leaf)), (u32::MAX, u32::MAX));
        let values = book.minimax();
        book.check().unwrap();
        assert!(values.iter().all(|v| v.abs() <= 400), "{values:?}");
        let mut too_many = book.clone();
        too_many.games[1] = 100;
        too_many.points[1] = 201;
        assert!(too_many.check().unwrap_err().contains("more points"));
    }

    #[test]
    fn invariants_catch_broken_links() {
        let mut book = Book::new(12);
        add_line(&mut book, "e2e4 e7e5 g1f3");
        add_line(&mut book, "e2e4 c7c5");
        book.minimax();
        book.check().unwrap();
        let mut cycle = book.clone();
        cycle.son[3] = 1; // back to 1.e4: a cycle
        assert!(cycle.check().unwrap_err().contains("forward"));
        let mut twice = book.clone();
        twice.brat[2] = 3; // e5's sibling would be Nf3, which is also e5's son
        assert!(twice.check().is_err());
        let mut orphan = book.clone();
        orphan.brat[2] = 0; // c5 cut off
        assert!(orphan.check().unwrap_err().contains("not linked"));
        let mut illegal = book.clone();
        illegal.lib[3] = pack(0, MoveCode::from_number(1329).unwrap()); // e2-e4 again
        assert!(illegal.check().unwrap_err().contains("not legal"));
        let mut unrated = book.clone();
        unrated.lib[1] = pack(2, book.code(1));
        assert!(unrated.check().unwrap_err().contains("minimax"));
        let mut short = book.clone();
        short.games.pop();
        assert!(short.check().is_err());
    }
}
