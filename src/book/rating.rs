//! The Informator scale: from a score in centipawns to a rating and a symbol, and the blend of
//! the engine's evaluation with the results of the games that reached a position.
//!
//! Design note: every score here is from White's point of view, in centipawns. A leaf of the
//! tree is worth a blend of two pieces of evidence: Tropa's own search of the leaf position and
//! the score White made in the games that reached it. The search counts as `EVAL_WEIGHT` games
//! (eight): one or two master games hardly move a leaf, a few dozen dominate it. The game score is
//! shrunk towards 50% by one drawn game's worth of prior and turned into centipawns with the usual
//! logistic curve, `400·log10(s / (1 − s))` (a 64% score is worth a pawn). Internal moves are
//! then minimaxed; because the map from score to rating is monotone, minimaxing the ratings and
//! rating the minimaxed scores give the same result.
//!
//! Thresholds (|v| in centipawns, White's view):
//!
//! | score | rating | symbol |
//! |---|---|---|
//! | below 50 | 0 | `=` |
//! | 50 to 99 | ±1 | `⩲` / `⩱` (slight edge) |
//! | 100 to 249 | ±1 | `±` / `∓` (clear edge) |
//! | 250 and above | ±2 | `+−` / `−+` (decisive) |
//!
//! Yudin's scale has five grades; the symbols split grade 1 in two so that `book show` can
//! tell a slight edge from a clear one.

use super::code::Rating;

/// Below this many centipawns the position is equal (=).
pub const EQUAL_BELOW: i32 = 50;
/// From this many centipawns one side is clearly better (± rather than ⩲).
pub const CLEAR_FROM: i32 = 100;
/// From this many centipawns one side has a decisive advantage (+−, rating ±2).
pub const DECISIVE_FROM: i32 = 250;
/// How many games the search of a leaf is worth in the blend.
pub const EVAL_WEIGHT: i64 = 8;
/// Scores are clamped to this many centipawns (mate scores included).
pub const SCORE_LIMIT: i32 = 3000;

/// The rating of a score.
pub fn rating(score: i32) -> Rating {
    let r = if score.abs() >= DECISIVE_FROM {
        2
    } else if score.abs() >= EQUAL_BELOW {
        1
    } else {
        0
    };
    if score < 0 {
        -r
    } else {
        r
    }
}

/// The Informator symbol of a score (finer than the rating: slight and clear edges differ).
pub fn symbol(score: i32) -> &'static str {
    match score {
        s if s >= DECISIVE_FROM => "+−",
        s if s >= CLEAR_FROM => "±",
        s if s >= EQUAL_BELOW => "⩲",
        s if s > -EQUAL_BELOW => "=",
        s if s > -CLEAR_FROM => "⩱",
        s if s > -DECISIVE_FROM => "∓",
        _ => "−+",
    }
}

/// The symbol of a bare rating (when no score is at hand).
pub fn rating_symbol(rating: Rating) -> &'static str {
    match rating {
        2.. => "+−",
        1 => "±",
        0 => "=",
        -1 => "∓",
        _ => "−+",
    }
}

/// White's score in the games, in centipawns: `games` games in which White made `points`
/// half-points, shrunk towards 50% by one drawn game.
pub fn results_score(games: u32, points: u32) -> i32 {
    let s = (f64::from(points.min(games.saturating_mul(2))) + 1.0) / (2.0 * f64::from(games) + 2.0);
    (400.0 * (s / (1.0 - s)).log10()).round() as i32
}

/// The value of a leaf: its search score blended with the games' results.
pub fn blend(eval: i32, games: u32, points: u32) -> i32 {
    let eval = eval.clamp(-SCORE_LIMIT, SCORE_LIMIT);
    if games == 0 {
        return eval;
    }
    let results = i64::from(results_score(games, points));
    let total = EVAL_WEIGHT * i64::from(eval) + i64::from(games) * results;
    (total / (EVAL_WEIGHT + i64::from(games))) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_and_symbols_agree() {
        for score in -400..=400 {
            let r = rating(score);
            assert_eq!(rating(-score), -r);
            let s = symbol(score);
            match r {
                0 => assert_eq!(s, "="),
                1 => assert!(s == "⩲" || s == "±"),
                -1 => assert!(s == "⩱" || s == "∓"),
                2 => assert_eq!(s, "+−"),
                _ => assert_eq!(s, "−+"),
            }
        }
        assert_eq!(
            (rating(49), rating(50), rating(249), rating(250)),
            (0, 1, 1, 2)
        );
        assert_eq!((symbol(99), symbol(100), symbol(-100)), ("⩲", "±", "∓"));
    }

    #[test]
    fn results_move_the_blend_by_their_weight() {
        assert_eq!(results_score(0, 0), 0);
        assert_eq!(results_score(10, 10), 0);
        // 9 wins of 9: (18 + 1) / 20 = 95% → about +511.
        assert!((505..=515).contains(&results_score(9, 18)));
        assert_eq!(blend(20, 0, 0), 20);
        // One won game hardly matters, many do.
        assert!(blend(0, 1, 2).abs() < EQUAL_BELOW);
        assert!(blend(0, 40, 70) >= EQUAL_BELOW);
        assert!(blend(0, 40, 10) <= -EQUAL_BELOW);
        assert_eq!(blend(99_999, 0, 0), SCORE_LIMIT);
    }
}
