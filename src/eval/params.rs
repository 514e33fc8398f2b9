//! The evaluation's parameters: one flat table of (middlegame, endgame) weight pairs, cut into
//! named blocks.
//!
//! Every term of the evaluation is "weight × count", so the score is linear in the weights. That
//! lets one code path serve three uses (see `Sink`): scoring a position, explaining it term by
//! term (`tropa eval`), and recording the counts a Texel-style tuner fits the weights to.
//! The tuned values live in `weights.rs`, written by `tropa tune`.

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A tapered score: a middlegame and an endgame value in centipawns, blended by the game phase
/// (`eval::taper`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    /// The value with all pieces on the board.
    pub mg: i32,
    /// The value in a pawn ending.
    pub eg: i32,
}

impl Tapered {
    /// A tapered score of `mg` in the middlegame and `eg` in the endgame.
    pub const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }
}

impl Add for Tapered {
    type Output = Tapered;
    fn add(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Tapered {
    type Output = Tapered;
    fn sub(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for Tapered {
    fn add_assign(&mut self, o: Tapered) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Neg for Tapered {
    type Output = Tapered;
    fn neg(self) -> Tapered {
        Tapered::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Tapered {
    type Output = Tapered;
    fn mul(self, k: i32) -> Tapered {
        Tapered::new(self.mg * k, self.eg * k)
    }
}

/// A named run of consecutive parameters.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    /// Name shown by `tropa eval` and in `weights.rs`.
    pub name: &'static str,
    /// Index of the first parameter.
    pub start: usize,
    /// Number of parameters.
    pub len: usize,
}

impl Block {
    const fn first(name: &'static str, len: usize) -> Block {
        Block {
            name,
            start: 0,
            len,
        }
    }

    const fn after(prev: Block, name: &'static str, len: usize) -> Block {
        Block {
            name,
            start: prev.start + prev.len,
            len,
        }
    }

    /// Index of the `i`-th parameter of the block.
    #[inline(always)]
    pub const fn at(self, i: usize) -> usize {
        self.start + i
    }

    /// Index of the block's only parameter.
    #[inline(always)]
    pub const fn one(self) -> usize {
        self.start
    }
}

/// Piece values, indexed by `Piece` (the king's entry is unused and stays 0).
pub const MATERIAL: Block = Block::first("material", 6);
/// Piece-square tables, `piece * 64 + square` seen from White (Black's squares are mirrored).
pub const PSQT: Block = Block::after(MATERIAL, "piece-square", 6 * 64);
/// Passed pawn by relative rank.
pub const PASSED: Block = Block::after(PSQT, "passed pawn", 8);
/// Extra for a passed pawn whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: Block = Block::after(PASSED, "passed pawn free path", 8);
/// Per square of distance from the own king to the passer's stop square, by rank.
pub const PASSED_OWN_KING: Block = Block::after(PASSED_FREE, "passed pawn own king distance", 8);
/// Per square of distance from the enemy king to the passer's stop square, by rank.
pub const PASSED_ENEMY_KING: Block =
    Block::after(PASSED_OWN_KING, "passed pawn enemy king distance", 8);
/// Pawn defended by a pawn or standing beside one, by relative rank.
pub const PAWN_CONNECTED: Block = Block::after(PASSED_ENEMY_KING, "connected pawn", 8);
/// A pawn with an own pawn in front of it on the same file.
pub const DOUBLED: Block = Block::after(PAWN_CONNECTED, "doubled pawn", 1);
/// A pawn with no own pawns on the neighbouring files.
pub const ISOLATED: Block = Block::after(DOUBLED, "isolated pawn", 1);
/// A pawn that no neighbour can support and whose stop square an enemy pawn guards.
pub const BACKWARD: Block = Block::after(ISOLATED, "backward pawn", 1);
/// Shield pawns in front of the king (one or two ranks ahead, index 0 and 1), or none (index 2),
/// counted only while the enemy queen is on the board.
pub const KING_SHIELD: Block = Block::after(BACKWARD, "king pawn shield", 3);
/// Files at the king without own pawns, while the enemy queen is on.
pub const KING_OPEN_FILE: Block = Block::after(KING_SHIELD, "king open file", 1);
/// Squares of the king zone attacked, per attacking piece kind.
pub const KING_ATTACK: Block = Block::after(KING_OPEN_FILE, "king zone attacks", 6);
/// Number of enemy pieces attacking the king zone (0..=7), one-hot.
pub const KING_ATTACKERS: Block = Block::after(KING_ATTACK, "king attackers", 8);
/// Queen by king distance to the enemy king (0..=7), one-hot.
pub const QUEEN_KING_DISTANCE: Block = Block::after(KING_ATTACKERS, "queen to enemy king", 8);
/// Rook by king distance to the enemy king (0..=7), one-hot.
pub const ROOK_KING_DISTANCE: Block = Block::after(QUEEN_KING_DISTANCE, "rook to enemy king", 8);
/// Knight mobility: safe squares 0..=8.
pub const MOBILITY_KNIGHT: Block = Block::after(ROOK_KING_DISTANCE, "knight mobility", 9);
/// Bishop mobility: safe squares 0..=13.
pub const MOBILITY_BISHOP: Block = Block::after(MOBILITY_KNIGHT, "bishop mobility", 14);
/// Rook mobility: safe squares 0..=14.
pub const MOBILITY_ROOK: Block = Block::after(MOBILITY_BISHOP, "rook mobility", 15);
/// Queen mobility: safe squares 0..=27.
pub const MOBILITY_QUEEN: Block = Block::after(MOBILITY_ROOK, "queen mobility", 28);
/// Rook on a file without pawns (index 0) or without own pawns (index 1).
pub const ROOK_FILE: Block = Block::after(MOBILITY_QUEEN, "rook open file", 2);
/// Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_SEVENTH: Block = Block::after(ROOK_FILE, "rook on seventh", 1);
/// Both bishops.
pub const BISHOP_PAIR: Block = Block::after(ROOK_SEVENTH, "bishop pair", 1);
/// A slider lined up behind one piece against an enemy rook, queen or king, by slider kind.
pub const XRAY: Block = Block::after(BISHOP_PAIR, "x-ray pressure", 6);
/// Pieces attacked and not defended, by kind (the side to move's victims count half as much
/// in practice; the tuner decides).
pub const HANGING: Block = Block::after(XRAY, "hanging piece", 6);
/// Enemy pieces attacked by a pawn (index 0), by a minor piece (1, rooks and queens only) or by
/// a rook (2, queens only).
pub const THREAT: Block = Block::after(HANGING, "threats", 3);
/// Having the move.
pub const TEMPO: Block = Block::after(THREAT, "tempo", 1);
/// Safe checks available to each piece kind: squares from which it would check the enemy
/// king, that it attacks, and that the enemy does not defend.
pub const SAFE_CHECK: Block = Block::after(TEMPO, "safe checks", 6);
/// Own pawns storming the enemy king: the most advanced pawn on each file at the enemy king,
/// by its relative rank (0 = none).
pub const PAWN_STORM: Block = Block::after(SAFE_CHECK, "pawn storm", 8);
/// A knight (index 0) or bishop (1) on ranks 4–6, defended by a pawn, that no enemy pawn can
/// chase away.
pub const OUTPOST: Block = Block::after(PAWN_STORM, "outpost", 2);
/// Per own pawn on the squares of a bishop's colour (the "bad bishop").
pub const BISHOP_PAWNS: Block = Block::after(OUTPOST, "bishop own pawns same colour", 1);
/// A rook on the file behind an own passed pawn.
pub const ROOK_BEHIND_PASSER: Block = Block::after(BISHOP_PAWNS, "rook behind passed pawn", 1);
/// A passed pawn the enemy king cannot catch (rule of the square), with no enemy pieces left.
pub const UNSTOPPABLE_PASSER: Block =
    Block::after(ROOK_BEHIND_PASSER, "unstoppable passed pawn", 1);
/// Total number of parameters.
pub const COUNT: usize = UNSTOPPABLE_PASSER.start + UNSTOPPABLE_PASSER.len;

/// All blocks, in order.
pub const BLOCKS: [Block; 33] = [
    MATERIAL,
    PSQT,
    PASSED,
    PASSED_FREE,
    PASSED_OWN_KING,
    PASSED_ENEMY_KING,
    PAWN_CONNECTED,
    DOUBLED,
    ISOLATED,
    BACKWARD,
    KING_SHIELD,
    KING_OPEN_FILE,
    KING_ATTACK,
    KING_ATTACKERS,
    QUEEN_KING_DISTANCE,
    ROOK_KING_DISTANCE,
    MOBILITY_KNIGHT,
    MOBILITY_BISHOP,
    MOBILITY_ROOK,
    MOBILITY_QUEEN,
    ROOK_FILE,
    ROOK_SEVENTH,
    BISHOP_PAIR,
    XRAY,
    HANGING,
    THREAT,
    TEMPO,
    SAFE_CHECK,
    PAWN_STORM,
    OUTPOST,
    BISHOP_PAWNS,
    ROOK_BEHIND_PASSER,
    UNSTOPPABLE_PASSER,
];

/// The block a parameter index belongs to.
pub fn block_of(index: usize) -> Block {
    BLOCKS
        .iter()
        .copied()
        .find(|b| index >= b.start && index < b.start + b.len)
        .unwrap_or(TEMPO)
}
