//! The manifest kept beside each net: what it was trained on and how, so that a net can be
//! reproduced and compared (JSON, written by hand: a handful of fields need no library).

use crate::refine::Refit;
use crate::train::{EpochLoss, TrainSettings};
use sha2::{Digest, Sha256};
use std::fmt::Write;
use std::path::Path;
use tropa::eval::nnue::KingBuckets;

/// The SHA-256 of a file, in hex.
pub fn sha256_file(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        }))
}

/// A JSON string literal.
fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Data files with their SHA-256, as the members of a JSON array.
fn files_json(data: &[(String, String)]) -> String {
    data.iter()
        .map(|(f, h)| format!("{{\"file\": {}, \"sha256\": {}}}", quote(f), quote(h)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A JSON number (NaN, which JSON lacks, as null).
fn number(x: f32) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "null".into()
    }
}

/// Everything the manifest records.
pub struct Manifest<'a> {
    /// The engine commit (`git rev-parse HEAD`), or "unknown".
    pub commit: String,
    /// Data files with their SHA-256.
    pub data: Vec<(String, String)>,
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// Games read.
    pub games: usize,
    /// Positions read from labelled files, and the factor their scores were multiplied by.
    pub labelled: (usize, f32),
    /// Accumulator width.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// King buckets.
    pub king_buckets: KingBuckets,
    /// Seed of initialisation, split and shuffles.
    pub seed: u64,
    /// How it was trained.
    pub settings: &'a TrainSettings,
    /// Losses per epoch.
    pub losses: &'a [EpochLoss],
    /// The net file's SHA-256.
    pub net_sha256: String,
    /// Centipawns per unit of output written into the net.
    pub output_scale: i32,
    /// The validation loss of the written net as the engine reads it (`crate::compare`): what
    /// quantisation cost against the last epoch's. `None` when labelled files were trained on,
    /// whose validation positions that reading does not cover.
    pub quantised_validation: Option<f64>,
    /// The output layer's refit after training (`--refine-every`), if asked for.
    pub refit: Option<TrainedRefit>,
}

/// The refit of a net just trained: how it sampled, what it did, and the validation loss of
/// the net rounded to its nearest steps before it (the engine's reading, as
/// `quantised_validation`).
#[derive(Clone, Copy, Debug)]
pub struct TrainedRefit {
    /// One training position in this many was summed.
    pub every: usize,
    /// What the refit did.
    pub refit: Refit,
    /// The validation loss of the net before the refit, when measured.
    pub rounded_validation: Option<f64>,
}

/// A JSON number of a loss that may be missing.
fn optional_loss(loss: Option<f64>) -> String {
    loss.map_or_else(|| "null".into(), |loss| number(loss as f32))
}

impl Manifest<'_> {
    /// The manifest as JSON.
    pub fn to_json(&self) -> String {
        let data = files_json(&self.data);
        let losses: Vec<String> = self
            .losses
            .iter()
            .map(|l| {
                format!(
                    "{{\"epoch\": {}, \"train\": {}, \"validation\": {}}}",
                    l.epoch,
                    number(l.train),
                    number(l.validation)
                )
            })
            .collect();
        let s = self.settings;
        let refit = self.refit.map_or_else(
            || "null".into(),
            |r| {
                format!(
                    "{{\"one_position_in\": {}, \"positions\": {}, \"changed\": {}, \"predicted_loss_change\": {:e}, \"validation_before\": {}}}",
                    r.every,
                    r.refit.positions,
                    r.refit.changed,
                    r.refit.predicted,
                    optional_loss(r.rounded_validation)
                )
            },
        );
        let kings = match self.king_buckets.describe() {
            words if words.is_empty() => words,
            words => format!(", {words}"),
        };
        format!(
            "{{\n  \"commit\": {},\n  \"net_sha256\": {},\n  \"architecture\": \"(768 -> {})x2 -> 1, SCReLU, {} output buckets{}\",\n  \"data\": [{}],\n  \"games\": {},\n  \"labelled_positions\": {},\n  \"labelled_score_factor\": {},\n  \"train_positions\": {},\n  \"validation_positions\": {},\n  \"seed\": {},\n  \"epochs\": {},\n  \"batch\": {},\n  \"learning_rate\": {},\n  \"schedule\": {},\n  \"mirror\": {},\n  \"result_weight\": {},\n  \"scale\": {},\n  \"output_scale\": {},\n  \"quantised_validation\": {},\n  \"refit\": {refit},\n  \"losses\": [\n    {}\n  ]\n}}\n",
            quote(&self.commit),
            quote(&self.net_sha256),
            self.hidden,
            self.buckets,
            kings,
            data,
            self.games,
            self.labelled.0,
            number(self.labelled.1),
            self.positions.0,
            self.positions.1,
            self.seed,
            s.epochs,
            s.batch,
            number(s.learning_rate),
            quote(&s.schedule.name()),
            s.mirror,
            number(s.result_weight),
            number(s.scale),
            self.output_scale,
            optional_loss(self.quantised_validation),
            losses.join(",\n    ")
        )
    }
}

/// The manifest of a net written again with another output scale (`tropa-trainer --rescale`):
/// the engine commit, the new file's SHA-256, and the source net with its SHA-256 and scale.
pub fn rescaled_json(
    commit: &str,
    net_sha256: &str,
    source: (&str, &str, i32),
    output_scale: i32,
) -> String {
    let (file, sha256, from) = source;
    format!(
        "{{\n  \"commit\": {},\n  \"net_sha256\": {},\n  \"rescaled_from\": {{\"file\": {}, \"sha256\": {}, \"output_scale\": {from}}},\n  \"output_scale\": {output_scale}\n}}\n",
        quote(commit),
        quote(net_sha256),
        quote(file),
        quote(sha256),
    )
}

/// The manifest of a net whose output layer was refitted (`tropa-trainer --refine`): the engine
/// commit, the new file's SHA-256, the source net with its SHA-256, the data files with theirs,
/// the split, sampling and target, and what the refit did.
pub fn refined_json(
    commit: &str,
    net_sha256: &str,
    source: (&str, &str),
    data: &[(String, String)],
    (every, validation_percent, settings): (usize, usize, &TrainSettings),
    refit: &Refit,
) -> String {
    let data = files_json(data);
    format!(
        "{{\n  \"commit\": {},\n  \"net_sha256\": {},\n  \"refined_from\": {{\"file\": {}, \"sha256\": {}}},\n  \"data\": [{}],\n  \"seed\": {},\n  \"validation_percent\": {validation_percent},\n  \"one_position_in\": {every},\n  \"positions\": {},\n  \"result_weight\": {},\n  \"scale\": {},\n  \"changed\": {},\n  \"predicted_loss_change\": {:e}\n}}\n",
        quote(commit),
        quote(net_sha256),
        quote(source.0),
        quote(source.1),
        data,
        settings.seed,
        refit.positions,
        number(settings.result_weight),
        number(settings.scale),
        refit.changed,
        refit.predicted,
    )
}
