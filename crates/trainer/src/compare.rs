//! The loss of finished nets on the games a training run holds back: nets trained on different
//! data or splits, compared on the same games (`tropa-trainer DATA… --loss-of NET`).
//!
//! Design note: a net's own validation loss is measured on its own split, so two nets trained
//! on different data cannot be compared by it. Here the games held back are chosen exactly as
//! training chooses them (`file_samples`): with the seed and percentage of a run, they
//! are that run's validation games, which a net trained on a subset of the same files with the
//! same seed never saw either. Each net is read as the engine reads it
//! (`Network::evaluate_full`), so its quantisation is part of what is measured; its centipawns
//! divided by its output scale give back the trained output, so a rescaled net keeps its loss.

use crate::data::{file_samples, result_for};
use crate::threads::map_parts;
use crate::train::{output_loss, TrainSettings};
use std::path::Path;
use tropa::datagen::format::Sample;
use tropa::eval::nnue::Network;

/// The losses of several nets on the same held-back positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Games held back.
    pub games: usize,
    /// Positions of those games that training would use.
    pub positions: usize,
    /// Each net's mean loss on them, in the order the nets were given (NaN without positions).
    pub losses: Vec<f64>,
}

/// Sum of each net's loss over `samples`.
fn loss_sums(nets: &[Network], samples: &[Sample], s: &TrainSettings) -> Vec<f64> {
    let mut sums = vec![0.0; nets.len()];
    for sample in samples {
        let result = result_for(sample.board.side_to_move(), sample.outcome.white_score());
        for (sum, net) in sums.iter_mut().zip(nets) {
            let output = net.evaluate_full(&sample.board) as f32 / net.scale() as f32;
            *sum += f64::from(output_loss(output, sample.score, result, s));
        }
    }
    sums
}

/// The mean loss of each of `nets` on the positions of the games of the data files at `paths`
/// that a training run with `validation_percent` and `seed` holds back, with the target of
/// `settings` (its result weight and scale), on its threads.
pub fn held_back_losses(
    nets: &[Network],
    paths: &[&Path],
    validation_percent: usize,
    seed: u64,
    settings: &TrainSettings,
) -> Result<Comparison, String> {
    let (mut games, mut positions) = (0, 0);
    let mut sums = vec![0.0; nets.len()];
    for path in paths {
        let (held, samples) = file_samples(path, validation_percent, seed, true)?;
        games += held;
        positions += samples.len();
        for part in map_parts(&samples, settings.threads, |part| {
            loss_sums(nets, part, settings)
        }) {
            sums.iter_mut().zip(part).for_each(|(sum, p)| *sum += p);
        }
    }
    let losses = sums
        .into_iter()
        .map(|sum| {
            if positions == 0 {
                f64::NAN
            } else {
                sum / positions as f64
            }
        })
        .collect();
    Ok(Comparison {
        games,
        positions,
        losses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::DataSet;
    use crate::net::FloatNet;
    use crate::selfplay_fixture::selfplay_file;
    use crate::tests::settings;
    use crate::train::{mean_loss, train};
    use tropa::eval::nnue::KingBuckets;

    #[test]
    fn held_back_losses_are_the_validation_loss_of_the_net_the_engine_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = selfplay_file(dir.path(), 4, 8);
        let (percent, seed) = (50, 2);
        let set = DataSet::load(&[path.as_path()], KingBuckets::SINGLE, percent, seed).unwrap();
        assert!(!set.train.is_empty() && !set.validation.is_empty());
        let s = TrainSettings {
            batch: 64,
            ..settings(4)
        };
        let untrained = FloatNet::random(32, 1, KingBuckets::SINGLE, 3);
        let mut trained = untrained.clone();
        train(&mut trained, &set.train, &[], &s, &mut |_| {});
        let read = |net: &FloatNet| Network::from_bytes(&net.quantise().to_bytes()).unwrap();
        let rescaled = read(&trained).with_scale(250).unwrap();
        let nets = [read(&trained), rescaled, read(&untrained)];
        let comparison = held_back_losses(&nets, &[path.as_path()], percent, seed, &s).unwrap();

        // The same positions as training's validation set, and the float net's loss on them
        // within what quantisation changes (a few centipawns on each output; measured: 0.1 %).
        assert_eq!(comparison.positions, set.validation.len());
        let float = f64::from(mean_loss(&trained, &set.validation, &s));
        let [engine, rescaled, untrained] = comparison.losses[..] else {
            panic!("three losses: {:?}", comparison.losses)
        };
        assert!(
            (engine - float).abs() <= 0.01 * float,
            "engine {engine}, float {float}"
        );
        // The output scale changes the centipawns, not the prediction (but for rounding;
        // measured: 0.06 %).
        assert!(
            (rescaled - engine).abs() <= 0.005 * engine,
            "{rescaled} {engine}"
        );
        assert!(
            untrained > engine,
            "untrained {untrained}, trained {engine}"
        );
    }
}
