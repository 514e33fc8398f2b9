//! Training positions: the quiet positions of `tropa datagen` files, and of labelled files of
//! other engines' games (`FEN;result;score` lines, as the TCEC positions of
//! docs/evaluation.md), as sparse features of both perspectives with their labels, split into
//! training and validation sets by game.
//!
//! Design note: a whole game goes to one set (positions of a game are alike, so splitting
//! inside a game would flatter the validation loss); which set is a function of the seed and
//! the game's index. A labelled file names no games but lists a game's positions one after
//! another, so a block of `LABELLED_BLOCK` lines stands in for a game. Mate scores are left
//! out: they say nothing about a centipawn scale.

use std::io::BufRead;
use std::path::Path;
use tropa::datagen::format::{read_path, GameRecord, Sample};
use tropa::eval::nnue::{features, mirrored_feature, KingBuckets};
use tropa::eval::tune::{open_data, parse_labelled_line};
use tropa::rules::{Board, Color};
use tropa::util::Rng;

/// Most pieces a position can have.
pub const MAX_FEATURES: usize = 32;
/// Scores beyond this (mates, or nearly) are not trained on.
pub const MAX_SCORE: i16 = 3000;
/// Consecutive lines of a labelled file that go to the same set, in place of a game.
pub const LABELLED_BLOCK: usize = 256;
/// Split streams of labelled blocks start here, past every game index (a u32).
const LABELLED_STREAMS: u64 = 1 << 32;

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
    /// A position from a data-file sample, its features in the king buckets `layout`.
    pub fn from_sample(sample: &Sample, layout: &KingBuckets) -> Position {
        Position::new(
            &sample.board,
            sample.score,
            sample.outcome.white_score(),
            layout,
        )
    }

    /// A position with its search score (side to move's view) and the game's result for White,
    /// its features in the king buckets `layout`.
    pub fn new(board: &Board, score: i16, white_result: f32, layout: &KingBuckets) -> Position {
        let stm = board.side_to_move();
        let mut us = [0; MAX_FEATURES];
        let mut them = [0; MAX_FEATURES];
        let mut count = 0;
        for (slot, f) in us.iter_mut().zip(features(board, stm, layout)) {
            *slot = f as u16;
            count += 1;
        }
        for (slot, f) in them.iter_mut().zip(features(board, !stm, layout)) {
            *slot = f as u16;
        }
        Position {
            us,
            them,
            count,
            score,
            result: result_for(stm, white_result),
        }
    }

    /// The position with the board mirrored between the a- and h-files, with the same score and
    /// result: chess is symmetric between the files but for castling, which the net does not
    /// see. For positions without king buckets (`KingBuckets::SINGLE`): mirrored king buckets
    /// mirror by themselves.
    pub fn mirrored(&self) -> Position {
        let mut mirrored = *self;
        let count = usize::from(self.count);
        for f in mirrored.us[..count]
            .iter_mut()
            .chain(&mut mirrored.them[..count])
        {
            *f = mirrored_feature(usize::from(*f)) as u16;
        }
        mirrored
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

/// The game's result (0, ½ or 1) for `side`, from its result for White.
pub fn result_for(side: Color, white_result: f32) -> f32 {
    match side {
        Color::White => white_result,
        Color::Black => 1.0 - white_result,
    }
}

/// Whether the game (or labelled block) of split stream `stream` is held back for validation:
/// true for about `validation_percent` of the streams, as a function of the seed.
pub fn held_back(stream: u64, validation_percent: usize, seed: u64) -> bool {
    Rng::for_stream(seed, stream).below(100) < validation_percent
}

/// Whether `game` is held back for validation, and the positions of it that training (or
/// validation) uses: its quiet positions but mates and scores near them.
fn split_game(
    game: &GameRecord,
    validation_percent: usize,
    seed: u64,
) -> (bool, impl Iterator<Item = Sample> + '_) {
    (
        held_back(u64::from(game.index), validation_percent, seed),
        game.samples().filter(|s| s.score.abs() <= MAX_SCORE),
    )
}

/// The usable positions of the games of the data file at `path` that a split by
/// `validation_percent` and `seed` holds back (`held_back`) or trains on (`!held_back`), with
/// the number of those games.
pub fn file_samples(
    path: &Path,
    validation_percent: usize,
    seed: u64,
    held_back: bool,
) -> Result<(usize, Vec<Sample>), String> {
    let mut games = 0;
    let mut samples = Vec::new();
    for game in &read_games(path)? {
        let (held, game_samples) = split_game(game, validation_percent, seed);
        if held == held_back {
            games += 1;
            samples.extend(game_samples);
        }
    }
    Ok((games, samples))
}

/// The games of the data file at `path` (plain or `.xz`), reporting a torn last game left out.
fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let file = read_path(path).map_err(|e| e.to_string())?;
    if file.dropped > 0 {
        eprintln!(
            "{}: {} bytes of a torn last game ignored",
            path.display(),
            file.dropped
        );
    }
    Ok(file.games)
}

/// Training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// The king buckets the positions' features are in.
    pub king_buckets: KingBuckets,
    /// Positions trained on.
    pub train: Vec<Position>,
    /// Positions held back for the validation loss.
    pub validation: Vec<Position>,
    /// Games read.
    pub games: usize,
    /// Positions read from labelled files.
    pub labelled: usize,
}

/// A labelled line as a position in the king buckets `layout`: `FEN;result;score`, the result
/// (1, 0.5 or 0) and the score (centipawns) from White's view, the score multiplied by
/// `score_factor`. `None` for a line that does not parse, has no score, or whose score is
/// beyond `MAX_SCORE`.
fn labelled_position(line: &str, score_factor: f32, layout: &KingBuckets) -> Option<Position> {
    let (board, result, white_score) = parse_labelled_line(line)?;
    let result = result as f32;
    let score = white_score? as f32 * score_factor;
    if !(0.0..=1.0).contains(&result) || !score.is_finite() || score.abs() > f32::from(MAX_SCORE) {
        return None;
    }
    let score = score.round() as i16;
    let stm_score = if board.side_to_move() == Color::White {
        score
    } else {
        -score
    };
    Some(Position::new(&board, stm_score, result, layout))
}

impl DataSet {
    /// An empty set whose positions get their features in the king buckets `layout`.
    pub fn new(layout: KingBuckets) -> DataSet {
        DataSet {
            king_buckets: layout,
            ..DataSet::default()
        }
    }

    /// The validation set if `held_back`, else the training set.
    fn set(&mut self, held_back: bool) -> &mut Vec<Position> {
        if held_back {
            &mut self.validation
        } else {
            &mut self.train
        }
    }

    /// Adds the quiet, non-mate positions of `games`, holding back about `validation_percent`
    /// of the games.
    pub fn add_games(&mut self, games: &[GameRecord], validation_percent: usize, seed: u64) {
        let layout = self.king_buckets;
        for game in games {
            let (held, samples) = split_game(game, validation_percent, seed);
            self.set(held)
                .extend(samples.map(|s| Position::from_sample(&s, &layout)));
            self.games += 1;
        }
    }

    /// Adds the positions of a labelled file's lines (see `labelled_position`), holding back
    /// about `validation_percent` of its blocks of `LABELLED_BLOCK` lines. Returns the number
    /// of lines left out.
    pub fn add_labelled(
        &mut self,
        lines: impl BufRead,
        score_factor: f32,
        validation_percent: usize,
        seed: u64,
    ) -> std::io::Result<usize> {
        let mut left_out = 0;
        for (index, line) in lines.lines().enumerate() {
            let Some(position) = labelled_position(&line?, score_factor, &self.king_buckets) else {
                left_out += 1;
                continue;
            };
            let block = (index / LABELLED_BLOCK) as u64;
            self.set(held_back(
                LABELLED_STREAMS + block,
                validation_percent,
                seed,
            ))
            .push(position);
            self.labelled += 1;
        }
        Ok(left_out)
    }

    /// Reads a labelled file (plain or `.xz`) into the set, reporting the lines left out.
    pub fn load_labelled(
        &mut self,
        path: &Path,
        score_factor: f32,
        validation_percent: usize,
        seed: u64,
    ) -> Result<(), String> {
        let lines = open_data(path)?;
        let left_out = self
            .add_labelled(lines, score_factor, validation_percent, seed)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if left_out > 0 {
            eprintln!(
                "{}: {left_out} lines without a position, a result and a score within {MAX_SCORE} \
                 left out",
                path.display()
            );
        }
        Ok(())
    }

    /// Reads the data files at `paths` (plain or `.xz`), the features in the king buckets
    /// `layout`.
    pub fn load(
        paths: &[&Path],
        layout: KingBuckets,
        validation_percent: usize,
        seed: u64,
    ) -> Result<DataSet, String> {
        let mut set = DataSet::new(layout);
        for path in paths {
            set.add_games(&read_games(path)?, validation_percent, seed);
        }
        Ok(set)
    }
}
