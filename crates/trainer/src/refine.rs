//! The output layer's rounding fitted to data (`tropa-trainer DATA… --refine NET`): a net's
//! output weights moved by a few steps of 1/QB each so that its outputs on training positions
//! lose least to the quantisation.
//!
//! Design note: the output weights are stored in steps of 1/64 (QB), a tenth of a typical weight,
//! and rounding each one to its nearest step costs a net some validation loss (figures:
//! docs/learned-evaluation.md); another rounding of the same float weights can cost more or
//! less. Near the written net the loss is, to second order, a quadratic in the integer changes
//! δ of the output layer: Σ (e + c·xᵀδ)² over the positions, with e the position's error, c the
//! prediction's slope and x the change of the output per step of each weight (the squared
//! activation, which the feature layer fixes). Its gradient g and Gauss–Newton matrix H are
//! summed once over a sample of the training positions, per output bucket, and δ is found by
//! coordinate descent in whole steps within the weights' range. The feature layer is not
//! touched, so the search sees the same accumulators; only positions of games that training
//! used are read, so the held-back games still measure the result.

use crate::data::{file_samples, result_for};
use crate::threads::map_parts;
use crate::train::{output_error, sigmoid_slope, TrainSettings};
use std::path::Path;
use tropa::datagen::format::Sample;
use tropa::eval::nnue::{output_bucket, Network, MAX_OUTPUT_WEIGHT, QA, QB};
use tropa::util::Rng;

/// Coordinate-descent sweeps at most (each weight once a sweep); a few suffice in practice.
const MAX_SWEEPS: usize = 100;

/// What a refit did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refit {
    /// Training positions summed.
    pub positions: usize,
    /// Output weights and biases changed.
    pub changed: usize,
    /// The quadratic's predicted change of the mean loss on those positions (negative: a gain).
    pub predicted: f64,
}

/// The gradient and Gauss–Newton matrix of one output bucket's layer: `2N` weights, then the
/// bias, as coordinate `2N`.
#[derive(Clone)]
struct Quadratic {
    size: usize,
    g: Vec<f64>,
    /// Row-major `size × size`, only the upper triangle summed until `symmetrise`.
    h: Vec<f64>,
}

impl Quadratic {
    fn new(size: usize) -> Quadratic {
        Quadratic {
            size,
            g: vec![0.0; size],
            h: vec![0.0; size * size],
        }
    }

    /// Adds one position: error `e`, slope `c`, and the nonzero coordinates of x in ascending
    /// order (so that each pair lands in the upper triangle).
    fn add(&mut self, e: f64, c: f64, x: &[(usize, f64)]) {
        for (a, &(i, xi)) in x.iter().enumerate() {
            self.g[i] += e * c * xi;
            let row = &mut self.h[i * self.size..(i + 1) * self.size];
            let ci = c * c * xi;
            for &(j, xj) in &x[a..] {
                row[j] += ci * xj;
            }
        }
    }

    fn merge(&mut self, other: &Quadratic) {
        self.g.iter_mut().zip(&other.g).for_each(|(a, b)| *a += b);
        self.h.iter_mut().zip(&other.h).for_each(|(a, b)| *a += b);
    }

    fn symmetrise(&mut self) {
        for i in 0..self.size {
            for j in 0..i {
                self.h[i * self.size + j] = self.h[j * self.size + i];
            }
        }
    }

    /// Whole-step changes `delta` minimising 2gᵀδ + δᵀHδ, each within `bounds` (inclusive),
    /// by coordinate descent from zero; returns the quadratic's value there.
    fn minimise(&self, bounds: &[(i64, i64)], delta: &mut [i64]) -> f64 {
        let n = self.size;
        // r = g + Hδ, half the gradient of the quadratic.
        let mut r = self.g.clone();
        for _ in 0..MAX_SWEEPS {
            let mut moved = false;
            for j in 0..n {
                let hjj = self.h[j * n + j];
                if hjj <= 0.0 {
                    continue;
                }
                let best = (delta[j] as f64 - r[j] / hjj).round() as i64;
                let best = best.clamp(bounds[j].0, bounds[j].1);
                if best != delta[j] {
                    let step = (best - delta[j]) as f64;
                    for (k, rk) in r.iter_mut().enumerate() {
                        *rk += self.h[k * n + j] * step;
                    }
                    delta[j] = best;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        // δᵀ(g + Hδ) + gᵀδ = 2gᵀδ + δᵀHδ.
        delta
            .iter()
            .zip(r.iter().zip(&self.g))
            .map(|(&d, (rk, gk))| d as f64 * (rk + gk))
            .sum()
    }
}

/// The squared activations of `board`'s two accumulators, side to move's first, as changes of
/// the output (in training units) per step of each output weight; zeros left out.
fn activations(
    net: &Network,
    sample: &Sample,
    us: &mut [i16],
    them: &mut [i16],
) -> Vec<(usize, f64)> {
    let stm = sample.board.side_to_move();
    net.refresh(&sample.board, stm, us);
    net.refresh(&sample.board, !stm, them);
    let per_step = 1.0 / (f64::from(QA) * f64::from(QA) * f64::from(QB));
    us.iter()
        .chain(them.iter())
        .enumerate()
        .filter_map(|(i, &a)| {
            let v = f64::from(a.clamp(0, QA as i16));
            (v > 0.0).then_some((i, v * v * per_step))
        })
        .collect()
}

/// Each bucket's quadratic summed over `samples`.
fn quadratics(net: &Network, samples: &[Sample], s: &TrainSettings) -> Vec<Quadratic> {
    let hidden = net.hidden();
    let size = 2 * hidden + 1;
    let (weights, biases) = net.output_layer();
    let mut out = vec![Quadratic::new(size); net.buckets()];
    let (mut us, mut them) = (vec![0; hidden], vec![0; hidden]);
    let bias_step = 1.0 / (f64::from(QA) * f64::from(QB));
    for sample in samples {
        let bucket = output_bucket(sample.board.occupied().len() as usize, net.buckets());
        let mut x = activations(net, sample, &mut us, &mut them);
        let layer = &weights[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
        let output = x
            .iter()
            .map(|&(i, xi)| xi * f64::from(layer[i]))
            .sum::<f64>()
            + f64::from(biases[bucket]) * bias_step;
        x.push((2 * hidden, bias_step));
        let result = result_for(sample.board.side_to_move(), sample.outcome.white_score());
        let (e, p) = output_error(output as f32, sample.score, result, s);
        let slope = p * (1.0 - p) * sigmoid_slope(s);
        out[bucket].add(f64::from(e), f64::from(slope), &x);
    }
    out
}

/// `net` with its output layer refitted on one in `every` of the positions of the training
/// games (those not held back by `validation_percent` and `seed`) of the data files at
/// `paths`, with the target of `settings`, on its threads.
pub fn refine_output(
    net: &Network,
    paths: &[&Path],
    every: usize,
    validation_percent: usize,
    seed: u64,
    settings: &TrainSettings,
) -> Result<(Network, Refit), String> {
    let hidden = net.hidden();
    let mut rng = Rng::for_stream(seed, 2);
    let mut sums: Option<Vec<Quadratic>> = None;
    let mut positions = 0;
    for path in paths {
        let (_, mut samples) = file_samples(path, validation_percent, seed, false)?;
        samples.retain(|_| rng.below(every.max(1)) == 0);
        positions += samples.len();
        for part in map_parts(&samples, settings.threads, |part| {
            quadratics(net, part, settings)
        }) {
            match &mut sums {
                None => sums = Some(part),
                Some(total) => total.iter_mut().zip(&part).for_each(|(t, p)| t.merge(p)),
            }
        }
    }
    let Some(mut sums) = sums else {
        return Err("no training positions in the data to refit on".into());
    };
    let (weights, biases) = net.output_layer();
    let (mut new_weights, mut new_biases) = (weights.to_vec(), biases.to_vec());
    let (mut changed, mut predicted) = (0, 0.0);
    let max = i64::from(MAX_OUTPUT_WEIGHT);
    for (bucket, quadratic) in sums.iter_mut().enumerate() {
        quadratic.symmetrise();
        let layer = &mut new_weights[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
        let mut bounds: Vec<(i64, i64)> = layer
            .iter()
            .map(|&w| (-max - i64::from(w), max - i64::from(w)))
            .collect();
        bounds.push((i64::from(i32::MIN) / 2, i64::from(i32::MAX) / 2));
        let mut delta = vec![0i64; 2 * hidden + 1];
        predicted += quadratic.minimise(&bounds, &mut delta);
        for (w, &d) in layer.iter_mut().zip(&delta) {
            *w = (i64::from(*w) + d) as i16;
        }
        let bias = &mut new_biases[bucket];
        *bias = (i64::from(*bias) + delta[2 * hidden]) as i32;
        changed += delta.iter().filter(|&&d| d != 0).count();
    }
    let refit = Refit {
        positions,
        changed,
        predicted: predicted / positions.max(1) as f64,
    };
    Ok((
        net.clone().with_output_layer(new_weights, new_biases),
        refit,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::held_back_losses;
    use crate::data::DataSet;
    use crate::net::FloatNet;
    use crate::selfplay_fixture::selfplay_file;
    use crate::tests::settings;
    use crate::train::train;
    use tropa::eval::nnue::KingBuckets;

    #[test]
    fn whole_steps_minimise_the_quadratic_within_their_bounds() {
        // Two coupled coordinates: the real optimum of 2gᵀδ + δᵀHδ is −H⁻¹g = (2.84, −1.28),
        // the best whole steps (3, −1) with the value −6.7 ((2, −1): −6.3, (3, −2): −6.2);
        // with the first bounded at 1, (1, −1).
        let mut q = Quadratic::new(2);
        q.g = vec![-2.2, 0.5];
        q.h = vec![1.0, 0.5, 0.5, 1.5];
        let mut delta = vec![0, 0];
        let value = q.minimise(&[(-5, 5), (-5, 5)], &mut delta);
        assert_eq!(delta, vec![3, -1]);
        assert!((value + 6.7).abs() < 1e-9, "{value}");
        let mut bounded = vec![0, 0];
        q.minimise(&[(-5, 1), (-5, 5)], &mut bounded);
        assert_eq!(bounded, vec![1, -1]);
    }

    #[test]
    fn a_refit_lowers_the_loss_it_predicts_on_the_positions_it_fitted() {
        let dir = tempfile::tempdir().unwrap();
        let path = selfplay_file(dir.path(), 5, 8);
        let paths = [path.as_path()];
        let s = TrainSettings {
            batch: 64,
            ..settings(4)
        };
        let set = DataSet::load(&paths, KingBuckets::SINGLE, 0, 1).unwrap();
        let mut float = FloatNet::random(32, 2, KingBuckets::SINGLE, 3);
        train(&mut float, &set.train, &[], &s, &mut |_| {});
        let net = Network::from_bytes(&float.quantise().to_bytes()).unwrap();
        // Fitted on every position of every game (none held back), measured on all of them
        // (every game "held back" at 100 %): the quadratic's prediction within a quarter
        // (measured: 7 %).
        let (refined, refit) = refine_output(&net, &paths, 1, 0, 1, &s).unwrap();
        assert_eq!(refit.positions, set.train.len());
        let losses = held_back_losses(&[net, refined], &paths, 100, 1, &s).unwrap();
        let change = losses.losses[1] - losses.losses[0];
        assert!(refit.changed > 0 && refit.predicted < 0.0, "{refit:?}");
        assert!(
            change < 0.0 && (change - refit.predicted).abs() <= 0.25 * refit.predicted.abs(),
            "measured {change}, predicted {}",
            refit.predicted
        );
    }
}
