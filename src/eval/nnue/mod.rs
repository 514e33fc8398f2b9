//! The learned evaluation: an efficiently updatable network (768·K → N)×2 → 1 with
//! a perspective accumulator, king buckets, a squared clipped ReLU and output buckets, in
//! integers.
//!
//! Design note: each side has an accumulator of N i16 values, the sum of the weight rows of
//! the pieces as that side sees them (`feature`: own pieces first, the board flipped for
//! Black, in the copy of the weights of its king's bucket and mirrored when its king asks,
//! `king_buckets`) plus a bias. The output is `Σ clamp(a, 0, QA)² · w` over the side to move's
//! accumulator and then the other's, divided by QA, plus the bias, scaled to centipawns. A net
//! may have several output layers (buckets), one for each range of the number of pieces on the
//! board (`output_bucket`): the accumulators are shared, and the opening and the endgame each
//! get weights of their own for what the accumulator says. The
//! search keeps accumulators per ply (`accumulator`) and updates them by the move's few
//! features; `evaluate_full` computes one from scratch and is the reference the incremental
//! update is tested against. The kernels (`simd`) are chosen once per net. The default net is
//! embedded (`builtin`).

mod accumulator;
mod builtin;
pub mod format;
pub mod king_buckets;
pub mod simd;

pub use accumulator::{AccumulatorStack, Delta};
pub use builtin::builtin;
pub use format::NetError;
pub use king_buckets::{KingBuckets, KingView};

use crate::rules::{Board, Color, Piece, Square};
use simd::Kernel;

/// Input features of one king bucket: colour (own, other) × piece × square.
pub const INPUTS: usize = 768;
/// Accumulator quantisation: a float 1.0 is QA in the accumulator.
pub const QA: i32 = 255;
/// Output-weight quantisation: a float 1.0 is QB.
pub const QB: i32 = 64;
/// Centipawns per unit of the float output as the trainer fits it (the scale of its sigmoid).
/// A net file may declare another scale: a net trained on its own wide scores comes out wider
/// than the hand-crafted centipawns the search's margins were tuned in, and a smaller scale
/// puts it back on them.
pub const TRAINING_SCALE: i32 = 400;
/// The scales a net file may declare.
pub const SCALE_RANGE: std::ops::RangeInclusive<i32> = 50..=2000;
/// Largest quantised output weight (the kernels multiply `clamp(a, 0, QA) · w` in i16).
pub const MAX_OUTPUT_WEIGHT: i32 = 127;
/// Largest float weight a trainer should produce (keeps accumulators and output weights in
/// range after quantisation).
pub const FLOAT_WEIGHT_LIMIT: f32 = 1.98;
/// The net's score is kept within this many centipawns of zero, far from mate scores.
pub const EVAL_LIMIT: i32 = 10_000;
/// Most output buckets a net may have.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

/// The output bucket of a board with `pieces` pieces (kings included) in a net with `buckets`
/// of them: the range 2..=32 cut into `buckets` equal slices (8 buckets: 2–5 pieces, 6–9, …,
/// 30–32). More than 32 pieces, possible only from a hand-made FEN, count as 32.
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.clamp(2, 32) - 2) * buckets / 31
}

/// The input feature of a piece of `color` on `square`, seen by `perspective` whose king gives
/// `view`.
pub fn feature(
    view: KingView,
    perspective: Color,
    color: Color,
    piece: Piece,
    square: Square,
) -> usize {
    let side = usize::from(color != perspective);
    let square = square.relative_to(perspective) as usize ^ view.file_flip;
    view.bucket * INPUTS + side * 384 + piece as usize * 64 + square
}

/// The feature of the same piece on the square mirrored between the a- and h-files (the
/// square's file is the feature's low three bits), in a net without king buckets.
pub fn mirrored_feature(feature: usize) -> usize {
    feature ^ 7
}

/// Every active feature of `board` as `perspective` sees it with the king buckets `layout`.
pub fn features<'a>(
    board: &'a Board,
    perspective: Color,
    layout: &KingBuckets,
) -> impl Iterator<Item = usize> + 'a {
    let view = layout.view(board, perspective);
    Color::ALL.into_iter().flat_map(move |color| {
        Piece::ALL.into_iter().flat_map(move |piece| {
            board
                .colored_pieces(color, piece)
                .into_iter()
                .map(move |square| feature(view, perspective, color, piece, square))
        })
    })
}

/// A quantised net ready to evaluate.
#[derive(Clone, Debug)]
pub struct Network {
    hidden: usize,
    /// Which copy of the input weights a perspective reads, by its king's square.
    king_buckets: KingBuckets,
    /// `INPUTS × king buckets × hidden`, feature by feature.
    feature_weights: Vec<i16>,
    biases: Vec<i16>,
    /// `2 × hidden` per output bucket, bucket by bucket, side to move's half first.
    output_weights: Vec<i16>,
    /// One per output bucket.
    output_biases: Vec<i32>,
    /// Centipawns per unit of the float output (`TRAINING_SCALE` unless the file says other).
    scale: i32,
    kernel: Kernel,
}

impl Network {
    /// A net from its quantised arrays (as a trainer produces them); the number of output
    /// biases is the number of output buckets. Panics if the lengths do not fit `hidden` and
    /// `king_buckets`, a programming error; files go through `from_bytes`, which checks.
    pub fn from_parts(
        hidden: usize,
        king_buckets: KingBuckets,
        feature_weights: Vec<i16>,
        biases: Vec<i16>,
        output_weights: Vec<i16>,
        output_biases: Vec<i32>,
    ) -> Network {
        assert!(hidden > 0 && hidden.is_multiple_of(16) && hidden <= format::MAX_HIDDEN);
        assert!((1..=MAX_OUTPUT_BUCKETS).contains(&output_biases.len()));
        assert_eq!(
            feature_weights.len(),
            INPUTS * king_buckets.count() * hidden
        );
        assert_eq!(biases.len(), hidden);
        assert_eq!(output_weights.len(), 2 * hidden * output_biases.len());
        Network {
            hidden,
            king_buckets,
            feature_weights,
            biases,
            output_weights: output_weights
                .into_iter()
                .map(|w| w.clamp(-MAX_OUTPUT_WEIGHT as i16, MAX_OUTPUT_WEIGHT as i16))
                .collect(),
            output_biases,
            scale: TRAINING_SCALE,
            kernel: Kernel::detect(),
        }
    }

    /// Accumulator width per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Number of output buckets.
    pub fn buckets(&self) -> usize {
        self.output_biases.len()
    }

    /// The king buckets.
    pub fn king_buckets(&self) -> &KingBuckets {
        &self.king_buckets
    }

    /// The architecture in words: `(768 -> 128x2 -> 1)`, with the king buckets and the output
    /// buckets if there are any.
    pub fn shape(&self) -> String {
        let mut shape = format!("(768 -> {}x2 -> 1", self.hidden);
        let kings = self.king_buckets.describe();
        if !kings.is_empty() {
            shape += &format!(", {kings}");
        }
        if self.buckets() > 1 {
            shape += &format!(", {} output buckets", self.buckets());
        }
        shape + ")"
    }

    /// The output layer: `2 × hidden` weights per output bucket (the side to move's half
    /// first) and one bias per bucket, in units of `QA · QB`.
    pub fn output_layer(&self) -> (&[i16], &[i32]) {
        (&self.output_weights, &self.output_biases)
    }

    /// The same net with another output layer of the same shape (a trainer's refit), the
    /// weights kept within ±`MAX_OUTPUT_WEIGHT` as in `from_parts`. Panics if the lengths
    /// differ, a programming error.
    pub fn with_output_layer(self, weights: Vec<i16>, biases: Vec<i32>) -> Network {
        assert_eq!(weights.len(), self.output_weights.len());
        assert_eq!(biases.len(), self.output_biases.len());
        Network {
            output_weights: weights
                .into_iter()
                .map(|w| w.clamp(-MAX_OUTPUT_WEIGHT as i16, MAX_OUTPUT_WEIGHT as i16))
                .collect(),
            output_biases: biases,
            ..self
        }
    }

    /// Centipawns per unit of the float output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The same net with its output `scale` centipawns per unit; `None` outside `SCALE_RANGE`.
    pub fn with_scale(self, scale: i32) -> Option<Network> {
        SCALE_RANGE
            .contains(&scale)
            .then_some(Network { scale, ..self })
    }

    /// The kernels in use.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Runs on `kernel` from now on (tests compare kernels; `Kernel::detect` is the default).
    pub fn set_kernel(&mut self, kernel: Kernel) {
        self.kernel = kernel;
    }

    fn row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// Fills `acc` with `board`'s accumulator for `perspective`, from scratch.
    pub fn refresh(&self, board: &Board, perspective: Color, acc: &mut [i16]) {
        let rows: Vec<&[i16]> = features(board, perspective, &self.king_buckets)
            .map(|f| self.row(f))
            .collect();
        self.kernel.update(acc, &self.biases, &rows, &[]);
    }

    /// Centipawns from the side to move's view, from `board`'s two accumulators (`white`,
    /// `black`); the board picks the side to move and the output bucket.
    pub fn output(&self, white: &[i16], black: &[i16], board: &Board) -> i32 {
        let (us, them) = match board.side_to_move() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let bucket = output_bucket(board.occupied().len() as usize, self.buckets());
        let width = 2 * self.hidden;
        let weights = &self.output_weights[bucket * width..(bucket + 1) * width];
        let sum = self.kernel.output(us, them, weights);
        let raw = i64::from(sum / QA + self.output_biases[bucket]);
        let cp = raw * i64::from(self.scale) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// Evaluates `board` from scratch (`tropa eval`, tests, the trainer's checks).
    pub fn evaluate_full(&self, board: &Board) -> i32 {
        let mut white = vec![0; self.hidden];
        let mut black = vec![0; self.hidden];
        self.refresh(board, Color::White, &mut white);
        self.refresh(board, Color::Black, &mut black);
        self.output(&white, &black, board)
    }

    /// `board`'s score in words, White's view and the side to move's (`tropa eval`, UCI `eval`).
    pub fn report(&self, board: &Board) -> String {
        let stm = self.evaluate_full(board);
        let white = match board.side_to_move() {
            Color::White => stm,
            Color::Black => -stm,
        };
        format!(
            "net {}, scale {}, {:?} kernels: {white} (White's view), {stm} for the side to move",
            self.shape(),
            self.scale,
            self.kernel
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::parse_fen;
    use crate::util::Rng;

    /// A net with random weights in the ranges a trainer produces.
    pub(crate) fn random_net(hidden: usize, seed: u64) -> Network {
        random_bucketed_net(hidden, 1, seed)
    }

    /// A net with `buckets` output buckets and random weights.
    pub(crate) fn random_bucketed_net(hidden: usize, buckets: usize, seed: u64) -> Network {
        random_king_bucketed_net(hidden, KingBuckets::SINGLE, buckets, seed)
    }

    /// A net with the king buckets `layout`, `buckets` output buckets and random weights.
    pub(crate) fn random_king_bucketed_net(
        hidden: usize,
        layout: KingBuckets,
        buckets: usize,
        seed: u64,
    ) -> Network {
        let mut rng = Rng::for_stream(seed, 0);
        let mut draw = |n: usize, limit: i32| -> Vec<i16> {
            (0..n).map(|_| rng.symmetric(limit) as i16).collect()
        };
        let feature_weights = draw(INPUTS * layout.count() * hidden, 120);
        let biases = draw(hidden, 200);
        let output_weights = draw(2 * hidden * buckets, MAX_OUTPUT_WEIGHT);
        let output_biases = (0..buckets as i32).map(|b| 1234 - 300 * b).collect();
        Network::from_parts(
            hidden,
            layout,
            feature_weights,
            biases,
            output_weights,
            output_biases,
        )
    }

    #[test]
    fn output_buckets_cut_the_piece_counts_into_equal_slices() {
        let buckets = |n: usize| -> Vec<usize> { (2..=32).map(|p| output_bucket(p, n)).collect() };
        assert!(buckets(1).iter().all(|&b| b == 0));
        let eight = buckets(8);
        assert_eq!(&eight[..5], &[0, 0, 0, 0, 1]);
        assert_eq!(eight[30], 7);
        for n in 1..=MAX_OUTPUT_BUCKETS {
            let all = buckets(n);
            assert!(all.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
            assert_eq!(*all.last().unwrap(), n - 1, "{n} buckets all used");
        }
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(40, 8), 7);
    }

    #[test]
    fn a_board_is_scored_by_the_bucket_of_its_piece_count() {
        let net = random_bucketed_net(32, 8, 11);
        let full = parse_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        let sparse = parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        for (board, bucket) in [(&full, 7), (&sparse, 0)] {
            // The same accumulators through bucket `bucket`'s layer alone.
            let mut single = net.clone();
            let width = 2 * net.hidden();
            single.output_weights =
                net.output_weights[bucket * width..(bucket + 1) * width].to_vec();
            single.output_biases = vec![net.output_biases[bucket]];
            assert_eq!(net.evaluate_full(board), single.evaluate_full(board));
        }
        assert_ne!(net.evaluate_full(&full), 0);
    }

    #[test]
    fn features_mirror_between_perspectives() {
        let board = parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let single = KingBuckets::SINGLE;
        let mut white: Vec<usize> = features(&board, Color::White, &single).collect();
        let mut black: Vec<usize> = features(&board, Color::Black, &single).collect();
        white.sort();
        black.sort();
        // White sees its rook a1 and king e1 as own pieces; Black sees them as the other's,
        // mirrored to a8 and e8.
        assert_eq!(white, vec![3 * 64, 5 * 64 + 4, 384 + 5 * 64 + 60]);
        assert_eq!(
            black,
            vec![5 * 64 + 4, 384 + 3 * 64 + 56, 384 + 5 * 64 + 60]
        );
    }

    #[test]
    fn a_mirrored_position_scores_the_same_for_its_side_to_move() {
        let net = random_net(32, 1);
        let a = parse_fen(
            "r3k2r/pp3ppp/2n5/3q4/8/2N5/PPP2PPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let b = parse_fen(
            "r3k2r/ppp2ppp/2n5/8/3Q4/2N5/PP3PPP/R3K2R b KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(net.evaluate_full(&a), net.evaluate_full(&b));
        assert_ne!(net.evaluate_full(&a), 0);
    }

    #[test]
    fn king_buckets_put_the_features_in_the_kings_copy_and_mirror_its_half() {
        let four = KingBuckets::mirrored_four();
        // White's king g1 (bucket 0), Black's king e8 (its e1: bucket 1); both in the e–h half.
        let board = parse_fen("4k3/8/8/8/8/8/8/R5K1 w - - 0 1", false).unwrap();
        let mut white: Vec<usize> = features(&board, Color::White, &four).collect();
        let mut black: Vec<usize> = features(&board, Color::Black, &four).collect();
        white.sort();
        black.sort();
        // White sees its rook a1 on h1 and its king g1 on b1; Black's king e8 as d8.
        assert_eq!(white, vec![3 * 64 + 7, 5 * 64 + 1, 384 + 5 * 64 + 59]);
        // Black sees the board from its side, mirrored, in bucket 1: its king e8 as d1, the
        // rook a1 as h8, the king g1 as b8.
        assert_eq!(
            black,
            vec![
                INPUTS + 5 * 64 + 3,
                INPUTS + 384 + 3 * 64 + 63,
                INPUTS + 384 + 5 * 64 + 57
            ]
        );
        // With mirrored king buckets a position and its mirror image score the same.
        let net = random_king_bucketed_net(32, four, 2, 4);
        let a = parse_fen("r3k3/pp3ppp/2n5/3q4/8/2N5/PPP2PPP/2KR4 w - - 0 1", false).unwrap();
        let b = parse_fen("3k3r/ppp3pp/5n2/4q3/8/5N2/PPP2PPP/4RK2 w - - 0 1", false).unwrap();
        assert_eq!(net.evaluate_full(&a), net.evaluate_full(&b));
        assert_ne!(net.evaluate_full(&a), 0);
        assert_eq!(
            net.shape(),
            "(768 -> 32x2 -> 1, 4 king buckets, mirrored, 2 output buckets)"
        );
    }

    #[test]
    fn the_scale_multiplies_the_output_and_stays_in_its_range() {
        let net = random_net(32, 3);
        let board = parse_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            false,
        )
        .unwrap();
        let full = net.evaluate_full(&board);
        assert_eq!(net.scale(), TRAINING_SCALE);
        let half = net.clone().with_scale(TRAINING_SCALE / 2).unwrap();
        assert!(full.abs() > 20, "a score worth halving: {full}");
        assert!((2 * half.evaluate_full(&board) - full).abs() <= 2);
        assert!(net.clone().with_scale(*SCALE_RANGE.start() - 1).is_none());
        assert!(net.with_scale(*SCALE_RANGE.end() + 1).is_none());
    }
}
