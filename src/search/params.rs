//! The search's constants, gathered in one place: time, pruning, extensions, move ordering,
//! history and correction. Margins are in centipawns, depths in plies.
//!
//! The constants at the end (`tunables!`) are the ones an SPSA run may tune: each is a
//! `Tunable` read with `.get()`, fixed in a normal build and a UCI option of its own name in a
//! build with the cargo feature `tune` (`search::tunable`). `TUNABLES` lists them with
//! their ranges; `tropa tunables` prints them as an SPSA input.

pub use super::tunable::Tunable;

/// Declares each tunable as a static (immutable in a normal build, so its reads fold to the
/// default; set by its UCI option with the feature `tune`) and lists them all in `TUNABLES`.
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident = $default:literal, $min:literal..=$max:literal;)*) => {
        $(
            $(#[$doc])*
            pub static $name: Tunable = Tunable::new(stringify!($name), $default, $min, $max);
        )*
        /// Every tunable constant, in the order of its declaration.
        pub static TUNABLES: &[&Tunable] = &[$(&$name),*];
    };
}

/// Aspiration windows are used from this depth on.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// The window's half-width doubles on each failure; past this it is opened fully.
pub const ASPIRATION_MAX_DELTA: i32 = 1000;
/// A failed window is reported (as a bound) only once the search has run this long, so that
/// short searches do not flood the GUI.
pub const ASPIRATION_REPORT_AFTER_MS: u64 = 1000;

/// The main thread reports each root move it starts (`currmove`) once the search has run this
/// many milliseconds: earlier, the lines would only flood the GUI.
pub const CURRMOVE_AFTER_MS: u128 = 1000;

/// Lazy SMP: a helper thread skips the depths where (depth + thread index) is a multiple of
/// this, so the threads do not search the same tree in lockstep.
pub const HELPER_SKIP_PERIOD: i32 = 3;

/// Time scaling after each iteration: the planned time is stretched by
/// (BASE − STEP · min(stable iterations, MAX)) · (1 + WEIGHT · fall) · (EFFORT_BASE − effort),
/// where fall is how far the score dropped since the last iteration, as a share of
/// `TIME_FALLING_SPAN` centipawns, and effort is the share of the root's nodes spent under the
/// best move.
pub const TIME_BASE_FACTOR: f64 = 1.3;
/// See `TIME_BASE_FACTOR`.
pub const TIME_STABILITY_STEP: f64 = 0.07;
/// See `TIME_BASE_FACTOR`.
pub const TIME_STABLE_ITERATIONS_MAX: i32 = 6;
/// See `TIME_BASE_FACTOR`.
pub const TIME_FALLING_WEIGHT: f64 = 0.6;
/// See `TIME_BASE_FACTOR`.
pub const TIME_FALLING_SPAN: i32 = 100;
/// See `TIME_BASE_FACTOR`. The best move's effort is about 0.65 in middlegames at 10+0.1
/// (0.35 to 0.9), where this leaves the planned time as it is.
pub const TIME_EFFORT_BASE: f64 = 1.65;
/// A game move with a single legal reply is played once an iteration of this depth has
/// completed (deep enough to show a meaningful score).
pub const SINGLE_REPLY_DEPTH: i32 = 8;

/// Moves the clock is planned over when the control is sudden death. Most games are decided
/// well before move 60, so planning for 25 more moves spends the clock where it matters; the
/// plan is remade every move, so the share shrinks with the clock and never runs it out.
pub const TIME_SUDDEN_DEATH_MOVES: f64 = 25.0;
/// The hard limit never exceeds this share of what is on the clock now.
pub const TIME_HARD_SHARE: f64 = 0.4;
/// The hard limit's share of the clock on the last move before the time control, when the
/// clock is refilled after it.
pub const TIME_HARD_SHARE_LAST_MOVE: f64 = 0.85;
/// The hard limit is at most this many times the soft one.
pub const TIME_HARD_PER_SOFT: f64 = 3.0;
/// An iteration is started only before this share of the (scaled) soft limit has passed: the
/// next one usually takes about as long as all the previous ones together, so a later start
/// would rarely finish within the limit.
pub const TIME_ITERATION_START_SHARE: f64 = 0.6;

/// Null-move pruning from this depth on.
pub const NMP_MIN_DEPTH: i32 = 3;
/// From this depth on, a null-move cut-off is verified by a reduced search without null moves
/// (the guard against zugzwang).
pub const NMP_VERIFY_DEPTH: i32 = 10;

/// Late-move reductions apply from this depth on.
pub const LMR_MIN_DEPTH: i32 = 3;

/// Late-move pruning: quiet moves after `LMP_BASE + depth²` (halved when not improving) are
/// skipped, up to this depth.
pub const LMP_MAX_DEPTH: i32 = 8;

/// Deepest node where futility pruning applies.
pub const FUTILITY_MAX_DEPTH: i32 = 8;

/// Deepest node where SEE pruning applies.
pub const SEE_MAX_DEPTH: i32 = 8;

/// Internal iterative reduction: nodes without a TT move are searched one ply shallower from
/// this depth on.
pub const IIR_MIN_DEPTH: i32 = 4;

/// A quiet move on the caller's guide list (`search::guide`, PIONEER's zone moves) gets this
/// on top of its history score in the first `GUIDE_PLIES` plies.
pub const PLAN_BONUS: i32 = 2_000;
/// See `PLAN_BONUS`.
pub const GUIDE_PLIES: usize = 4;

/// ProbCut from this depth on.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut verifies a capture with a search this many plies shallower than the node's.
pub const PROBCUT_REDUCTION: i32 = 4;

/// Singular extensions from this depth on.
pub const SE_MIN_DEPTH: i32 = 8;
/// The TT entry must come from a search at most this much shallower than the node's.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;

/// A singular move is extended by two plies at most this many times on one line.
pub const DOUBLE_EXTENSIONS_MAX: usize = 6;

/// Checks (and singular moves) are extended only within this many times the iteration depth
/// from the root, so that perpetual checks cannot extend a line without end.
pub const CHECK_EXTENSION_PLY_FACTOR: usize = 2;

/// Depth credited to a tablebase answer stored in the transposition table: it is exact however
/// deep the search would have gone.
pub const TB_DEPTH_BONUS: i32 = 6;
/// How many plies slower than the fastest conversion (or faster than the longest resistance) a
/// root move may be and still be searched, when the DTZ tables rank the root moves.
pub const DTZ_SLACK: i32 = 2;

/// Move ordering (`movepick`): the score of the transposition table's move, tried first.
pub const ORDER_TT_MOVE: i32 = 4_000_000;
/// The base score of a capture or queen promotion that does not lose material in the exchange
/// model (its MVV/LVA and capture history added).
pub const ORDER_GOOD_CAPTURE: i32 = 2_000_000;
/// Added to a good capture on the square the opponent's last move went to (a recapture).
pub const ORDER_RECAPTURE_BONUS: i32 = 100_000;
/// The score of the second killer move of the ply (the first gets one more).
pub const ORDER_KILLER: i32 = 1_000_000;
/// The score of the counter-move to the opponent's last move, just below the killers.
pub const ORDER_COUNTER_MOVE: i32 = 999_000;
/// The base score of a capture that loses material in the exchange model, or an
/// underpromotion: below every quiet move.
pub const ORDER_BAD_CAPTURE: i32 = -2_000_000;
/// A capture's MVV/LVA rank is multiplied by this in its score…
pub const ORDER_MVV_LVA_WEIGHT: i32 = 16;
/// …and its capture history divided by this, so that history only breaks MVV/LVA's ties.
pub const ORDER_CAPTURE_HISTORY_DIVISOR: i32 = 16;

/// Upper bound of a history value (the tables hold `i16`); updates saturate towards it
/// ("gravity").
pub const HISTORY_MAX: i32 = 16_384;
/// The history bonus of a move that caused a cut-off at depth d is
/// `QUADRATIC · d² + LINEAR · d`, at most `HISTORY_BONUS_MAX`: this is its `QUADRATIC`.
pub const HISTORY_BONUS_QUADRATIC: i32 = 16;
/// The history bonus's `LINEAR` (see `HISTORY_BONUS_QUADRATIC`).
pub const HISTORY_BONUS_LINEAR: i32 = 32;
/// The largest history bonus (see `HISTORY_BONUS_QUADRATIC`).
pub const HISTORY_BONUS_MAX: i32 = 2048;

/// Correction history: the largest correction of the static evaluation, in centipawns, of one
/// table and of all together.
pub const CORRECTION_MAX: i32 = 64;
/// Weight of one update of correction history out of 256, per ply of the node's depth: deeper
/// results weigh more (at most `CORRECTION_UPDATE_WEIGHT_MAX`).
pub const CORRECTION_UPDATE_WEIGHT_PER_PLY: i32 = 16;
/// The largest weight of one update of correction history, out of 256.
pub const CORRECTION_UPDATE_WEIGHT_MAX: i32 = 128;
/// Weight out of 256 of the pawn structure's table in the correction.
pub const CORRECTION_PAWNS_WEIGHT: i32 = 128;
/// Weight out of 256 of each side's table of its other pieces in the correction.
pub const CORRECTION_PIECES_WEIGHT: i32 = 64;
/// Weight out of 256 of the material's table in the correction.
pub const CORRECTION_MATERIAL_WEIGHT: i32 = 64;
/// Weight out of 256 of the table of the move that led to the position in the correction.
pub const CORRECTION_PREVIOUS_MOVE_WEIGHT: i32 = 64;

tunables! {
    /// First aspiration window half-width around the previous iteration's score.
    ASPIRATION_DELTA = 21, 5..=60;
    /// Reverse futility pruning: a node whose static eval beats beta by this much per ply of
    /// depth left is cut (up to `RFP_MAX_DEPTH`).
    RFP_MARGIN = 73, 30..=150;
    /// Deepest node where reverse futility pruning applies.
    RFP_MAX_DEPTH = 8, 4..=12;
    /// Null-move reduction: BASE + depth / DEPTH_DIVISOR + min((eval − beta) / EVAL_DIVISOR, EVAL_MAX).
    NMP_BASE_REDUCTION = 4, 1..=5;
    /// See `NMP_BASE_REDUCTION`.
    NMP_DEPTH_DIVISOR = 4, 2..=8;
    /// See `NMP_BASE_REDUCTION`.
    NMP_EVAL_DIVISOR = 199, 100..=400;
    /// See `NMP_BASE_REDUCTION`.
    NMP_EVAL_MAX = 3, 1..=6;
    /// LMR table: reduction = BASE + ln(depth) · ln(moves) / DIVISOR, both in hundredths.
    LMR_BASE = 78, 0..=200;
    /// See `LMR_BASE`.
    LMR_DIVISOR = 223, 120..=400;
    /// History score that is worth one ply less (or more) reduction.
    LMR_HISTORY_DIVISOR = 8438, 2048..=16384;
    /// See `LMP_MAX_DEPTH`.
    LMP_BASE = 4, 1..=8;
    /// Futility pruning of quiet moves: skipped when eval + BASE + PER_DEPTH · depth ≤ alpha.
    FUTILITY_BASE = 90, 30..=200;
    /// See `FUTILITY_BASE`.
    FUTILITY_PER_DEPTH = 89, 30..=200;
    /// SEE pruning thresholds per ply of depth, for quiet moves and for captures.
    SEE_QUIET_MARGIN = -62, -150..=-20;
    /// See `SEE_QUIET_MARGIN`.
    SEE_CAPTURE_MARGIN = -99, -200..=-40;
    /// Quiescence delta pruning: a capture that cannot lift the score to alpha even with this
    /// margin on top of the victim's value is skipped.
    DELTA_MARGIN = 169, 50..=400;
    /// ProbCut: a capture that beats beta by this much in a shallower search cuts the node.
    PROBCUT_MARGIN = 150, 40..=300;
    /// The other moves must stay this much per ply of depth below the TT score for the TT move to
    /// count as singular.
    SE_MARGIN = 2, 1..=6;
    /// Away from the PV, a singular move whose alternatives all fall more than this below the
    /// bar is extended by two plies (up to `DOUBLE_EXTENSIONS_MAX` times on one line).
    DOUBLE_EXTENSION_MARGIN = 21, 5..=80;
    /// History pruning: away from the PV, a quiet move whose ordering score (history and the
    /// continuation histories) is below −MARGIN · depth is skipped, up to `MAX_DEPTH`.
    HISTORY_PRUNING_MARGIN = 3869, 1024..=12288;
    /// See `HISTORY_PRUNING_MARGIN`.
    HISTORY_PRUNING_MAX_DEPTH = 3, 1..=6;
}
