//! Playing weaker on purpose: `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`.
//!
//! Design note: a weaker Tropa is the same engine with less sight and less precision, never a
//! strong engine that throws in random blunders. A level from 0 to 20 (20: full strength) sets
//! two things: a node budget that doubles every two levels (less sight: tactics a few plies
//! deep go unseen), and a choice among the best root moves (`candidates`), each searched to the
//! same depth, drawn with probability proportional to `exp(score / T)` where the temperature
//! `T` shrinks with the level (less precision: a move a little worse is sometimes preferred, a
//! move much worse almost never). `UCI_Elo` is turned into a level by `ELO_BY_LEVEL`. Below
//! level 0, which `UCI_Elo` alone reaches, the search cannot see much less (a search stops only
//! after its first iteration), so the choice widens: one candidate more a level.

use super::worker::RootMove;
use super::{Limits, SearchOptions, SearchResult};
use crate::rules::Move;

/// The strongest level: the engine unchanged.
pub const MAX_LEVEL: i64 = 20;

/// The weakest level there is. `Skill Level` starts at 0, as Stockfish's does, but `UCI_Elo`
/// reaches below it: the node budget keeps halving every two levels and the choice grows hotter
/// (31 nodes and 264 cp at this level).
pub const MIN_LEVEL: f64 = -10.0;

/// Root moves searched as candidates below full strength, from level 0 up.
pub const CANDIDATES: usize = 4;

/// Root moves searched as candidates at `level`: `CANDIDATES`, and one more for each level
/// below 0 (14 at `MIN_LEVEL`).
pub fn candidates(level: f64) -> usize {
    CANDIDATES + (-level).clamp(0.0, -MIN_LEVEL).ceil() as usize
}

/// The measured Elo of some levels, by which `UCI_Elo` is turned into a level (linearly between
/// them, clamped at the ends). Each point is the `UCI_Elo` setting of Stockfish 15.1 (a scale
/// Stockfish anchors to CCRL 40/4) plus the Elo difference Tropa, with its default net, scored
/// against it in 80 games at 5+0.05 s (`scripts/calibrate_levels.py`,
/// docs/strength-limiting.md; measured with net 10b8r and the search of bench 1522436, rerun
/// when the net or the search changes); at that control the levels from about 14 up are bound
/// by the clock rather than their node budget. The points of levels −1.5, 0, 5 and 10 also
/// count the 60 games of a check that played that very level against another anchor
/// (`scripts/pool_level.py`), so each rests on both matches: the checks of −1.5, 0 and 5 rated
/// them well below their counted match. The points rise with the level.
pub const ELO_BY_LEVEL: [(f64, f64); 7] = [
    (-3.0, 1324.0),
    (-1.5, 1457.0),
    (0.0, 1658.0),
    (5.0, 1889.0),
    (10.0, 2101.0),
    (15.0, 2304.0),
    (20.0, 2531.0),
];

/// What the protocol set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrengthSettings {
    /// `Skill Level`, 0–20.
    pub skill: i64,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (it then overrides `Skill Level`).
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: i64,
    /// A level fixed for the whole session (`tropa uci --level`), over both options: how the
    /// calibration plays levels, fractional or below 0, that no option names.
    pub fixed: Option<f64>,
}

impl Default for StrengthSettings {
    fn default() -> Self {
        StrengthSettings {
            skill: MAX_LEVEL,
            limit: false,
            elo: 1500,
            fixed: None,
        }
    }
}

impl StrengthSettings {
    /// The level in force (fractional when it comes from `UCI_Elo`); `None` at full strength.
    pub fn level(&self) -> Option<f64> {
        let level = if let Some(fixed) = self.fixed {
            fixed.clamp(MIN_LEVEL, MAX_LEVEL as f64)
        } else if self.limit {
            level_for_elo(self.elo as f64)
        } else {
            self.skill.clamp(0, MAX_LEVEL) as f64
        };
        (level < MAX_LEVEL as f64).then_some(level)
    }
}

/// The `UCI_Elo` values a GUI may ask for: the measured range, from level 0 to full strength.
pub fn elo_range() -> (i64, i64) {
    let last = ELO_BY_LEVEL.len() - 1;
    (
        ELO_BY_LEVEL[0].1.round() as i64,
        ELO_BY_LEVEL[last].1.round() as i64,
    )
}

/// The level playing at `elo`, from `ELO_BY_LEVEL`.
pub fn level_for_elo(elo: f64) -> f64 {
    let (first, last) = (ELO_BY_LEVEL[0], ELO_BY_LEVEL[ELO_BY_LEVEL.len() - 1]);
    if elo <= first.1 {
        return first.0;
    }
    if elo >= last.1 {
        return last.0;
    }
    let i = ELO_BY_LEVEL
        .iter()
        .position(|&(_, e)| e >= elo)
        .unwrap_or(1)
        .max(1);
    let ((l0, e0), (l1, e1)) = (ELO_BY_LEVEL[i - 1], ELO_BY_LEVEL[i]);
    l0 + (l1 - l0) * (elo - e0) / (e1 - e0)
}

/// Nodes a search at `level` may use: 1,000 at level 0, doubling every two levels (about a
/// million at level 19, 31 at `MIN_LEVEL`).
pub fn node_budget(level: f64) -> u64 {
    (1000.0 * 2f64.powf(level / 2.0)) as u64
}

/// The temperature of the choice in centipawns: 120 at level 0, shrinking to 5 at level 19 and
/// growing to 264 at `MIN_LEVEL`.
pub fn temperature(level: f64) -> f64 {
    let weakness = 1.0 - level / MAX_LEVEL as f64;
    5.0 + 115.0 * weakness * weakness
}

/// The limits and options of a weakened search at `level`: the node budget (or the GUI's own
/// limit, if smaller) and at least `candidates(level)` lines.
pub fn weaken(limits: &Limits, options: &SearchOptions, level: f64) -> (Limits, SearchOptions) {
    let budget = node_budget(level);
    let limits = Limits {
        nodes: Some(limits.nodes.map_or(budget, |n| n.min(budget))),
        ..limits.clone()
    };
    let options = SearchOptions {
        multipv: options.multipv.max(candidates(level)),
        ..options.clone()
    };
    (limits, options)
}

/// Replaces the search's answer by a move drawn from its best `lines` (see `choose`).
pub fn pick(result: &mut SearchResult, lines: &[RootMove], level: f64, seed: u64) {
    let Some(mv) = choose(lines, level, seed) else {
        return;
    };
    if let Some(line) = lines.iter().find(|r| r.mv == mv) {
        result.best = Some(mv);
        result.score = line.score;
        result.pv = line.pv.clone();
        result.ponder = line.pv.get(1).copied();
    }
}

/// Draws one of the searched `lines` (best first; those with a score) by their scores.
pub fn choose(lines: &[RootMove], level: f64, seed: u64) -> Option<Move> {
    let scored: Vec<&RootMove> = lines
        .iter()
        .take(candidates(level))
        .filter(|r| r.score > -super::INFINITY)
        .collect();
    let best = scored.first()?.score;
    let t = temperature(level);
    let weights: Vec<f64> = scored
        .iter()
        .map(|r| (f64::from(r.score - best) / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut ticket = unit(seed) * total;
    for (r, w) in scored.iter().zip(&weights) {
        if ticket < *w {
            return Some(r.mv);
        }
        ticket -= w;
    }
    scored.last().map(|r| r.mv)
}

/// A number in [0, 1) from a seed (SplitMix64's finaliser).
fn unit(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_elo() {
        assert_eq!(StrengthSettings::default().level(), None);
        let skill = |skill| StrengthSettings {
            skill,
            ..Default::default()
        };
        assert_eq!(skill(0).level(), Some(0.0));
        assert_eq!(skill(25).level(), None);
        let elo = |elo| StrengthSettings {
            limit: true,
            elo,
            skill: 3,
            fixed: None,
        };
        let (low, high) = elo_range();
        let default = StrengthSettings::default().elo;
        assert!(low < default && default < high, "{low} {default} {high}");
        // Clamped at both ends: the weakest level below the table, full strength at its top.
        let weakest = Some(ELO_BY_LEVEL[0].0);
        assert_eq!(elo(low - 300).level(), weakest);
        assert_eq!(elo(low).level(), weakest);
        assert_eq!(elo(high).level(), None);
        assert_eq!(elo(high + 300).level(), None);
        // Each measured point gives its own level, halfway between two gives the level between.
        for pair in ELO_BY_LEVEL.windows(2) {
            let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
            assert!(l0 < l1 && e0 < e1, "not monotone: {pair:?}");
            assert!((level_for_elo(e1) - l1).abs() < 1e-9, "{pair:?}");
            assert!((level_for_elo((e0 + e1) / 2.0) - (l0 + l1) / 2.0).abs() < 1e-9);
        }
        // A higher Elo never asks for a weaker level.
        let levels: Vec<f64> = (low - 100..high + 100)
            .map(|e| level_for_elo(e as f64))
            .collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]));
        assert!(node_budget(0.0) < node_budget(10.0) && node_budget(10.0) < node_budget(19.0));
        assert!(temperature(0.0) > temperature(10.0) && temperature(10.0) > temperature(19.0));
        assert!(node_budget(MIN_LEVEL) == 31 && node_budget(MIN_LEVEL) < node_budget(0.0));
        assert!(temperature(MIN_LEVEL) > temperature(0.0));
        assert_eq!(
            (candidates(20.0), candidates(0.0)),
            (CANDIDATES, CANDIDATES)
        );
        assert_eq!(candidates(-0.5), CANDIDATES + 1);
        assert_eq!(candidates(MIN_LEVEL), CANDIDATES + 10);
    }

    /// A fixed level rules over both options, within `MIN_LEVEL` and full strength.
    #[test]
    fn a_fixed_level_overrides_the_options() {
        let fixed = |level| StrengthSettings {
            limit: true,
            elo: 2000,
            skill: 5,
            fixed: Some(level),
        };
        assert_eq!(fixed(-4.5).level(), Some(-4.5));
        assert_eq!(fixed(-40.0).level(), Some(MIN_LEVEL));
        assert_eq!(fixed(20.0).level(), None);
    }

    fn line(mv: &str, score: i32) -> RootMove {
        let mv: Move = mv.parse().unwrap();
        RootMove {
            mv,
            score,
            previous_score: score,
            pv: vec![mv],
            seldepth: 1,
            nodes: 0,
        }
    }

    /// The choice follows the scores: a slightly worse move is sometimes taken at a low level,
    /// a much worse one (a queen) practically never, and less often as the level rises.
    #[test]
    fn the_choice_follows_the_scores() {
        let lines = [
            line("e2e4", 30),
            line("d2d4", 20),
            line("g2g4", -900),
            line("h2h4", -crate::search::INFINITY),
        ];
        let share = |level: f64, mv: &str| {
            (0..10_000u64)
                .filter(|&s| choose(&lines, level, s).unwrap().to_string() == mv)
                .count() as f64
                / 10_000.0
        };
        let second_low = share(0.0, "d2d4");
        let second_high = share(19.0, "d2d4");
        assert!(second_low > 0.4 && second_low < 0.55, "{second_low}");
        assert!(second_high < 0.2, "{second_high}");
        assert!(share(0.0, "g2g4") < 0.002);
        assert_eq!(share(0.0, "h2h4"), 0.0);
    }
}
