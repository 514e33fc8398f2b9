//! Training positions: the quiet positions of `tropa datagen` files, as sparse features of both
//! perspectives with their labels, split into training and validation sets by game.
//!
//! Design note: a whole game goes to one set (positions of a game are alike, so splitting
//! inside a game would flatter the validation loss); which set is a function of the seed and
//! the game's index. Mate scores are left out: they say nothing about a centipawn scale.

use std::path::Path;
use tropa::datagen::format::{read_path, GameRecord, Sample};
use tropa::eval::nnue::features;
use tropa::rules::Color;
use tropa::util::Rng;

/// Most pieces a position can have.
pub const MAX_FEATURES: usize = 32;
/// Scores beyond this (mates, or nearly) are not trained on.
pub const MAX_SCORE: i16 = 3000;

/// One position, ready for the net.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// Features of the side to move's perspective, then the other's; `count` of each are used.
    pub us: [u16; MAX_FEATURES],
    /// The other side's features.
    pub them: [u16; MAX_FEATURES],
    /// Number of features (pieces).
    pub count: u8,
    /// Search score, centipawns, side to move's view.
    pub score: i16,
    /// The game's result for the side to move: 0, ½ or 1.
    pub result: f32,
}

impl Position {
    /// A position from a data-file sample.
    pub fn from_sample(sample: &Sample) -> Position {
        let stm = sample.board.side_to_move();
        let mut us = [0; MAX_FEATURES];
        let mut them = [0; MAX_FEATURES];
        let mut count = 0;
        for (slot, f) in us.iter_mut().zip(features(&sample.board, stm)) {
            *slot = f as u16;
            count += 1;
        }
        for (slot, f) in them.iter_mut().zip(features(&sample.board, !stm)) {
            *slot = f as u16;
        }
        let white = sample.outcome.white_score();
        Position {
            us,
            them,
            count,
            score: sample.score,
            result: if stm == Color::White {
                white
            } else {
                1.0 - white
            },
        }
    }

    /// The features of the side to move's perspective.
    pub fn us(&self) -> &[u16] {
        &self.us[..usize::from(self.count)]
    }

    /// The features of the other perspective.
    pub fn them(&self) -> &[u16] {
        &self.them[..usize::from(self.count)]
    }
}

/// Training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// Positions trained on.
    pub train: Vec<Position>,
    /// Positions held back for the validation loss.
    pub validation: Vec<Position>,
    /// Games read.
    pub games: usize,
}

impl DataSet {
    /// Adds the quiet, non-mate positions of `games`, holding back about `validation_percent`
    /// of the games.
    pub fn add_games(&mut self, games: &[GameRecord], validation_percent: usize, seed: u64) {
        for game in games {
            let held_back =
                Rng::for_stream(seed, u64::from(game.index)).below(100) < validation_percent;
            let set = if held_back {
                &mut self.validation
            } else {
                &mut self.train
            };
            set.extend(
                game.samples()
                    .filter(|s| s.score.abs() <= MAX_SCORE)
                    .map(|s| Position::from_sample(&s)),
            );
            self.games += 1;
        }
    }

    /// Reads the data files at `paths` (plain or `.xz`).
    pub fn load(paths: &[&Path], validation_percent: usize, seed: u64) -> Result<DataSet, String> {
        let mut set = DataSet::default();
        for path in paths {
            let file = read_path(path).map_err(|e| e.to_string())?;
            if file.dropped > 0 {
                eprintln!(
                    "{}: {} bytes of a torn last game ignored",
                    path.display(),
                    file.dropped
                );
            }
            set.add_games(&file.games, validation_percent, seed);
        }
        Ok(set)
    }
}
