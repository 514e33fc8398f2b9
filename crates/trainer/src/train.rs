//! The training loop: mini-batches split over threads, Adam, and the loss on a blend of the
//! search score and the game result.
//!
//! Design note: each thread computes the gradient of its share of a batch into a buffer of its
//! own (the feature rows it touches are the sparse part: only the rows of the pieces on the
//! board get anything), the buffers are summed, and Adam steps every parameter. The target is
//! `(1 − λ)·sigmoid(score / scale) + λ·result` and the prediction
//! `sigmoid(output · TRAINING_SCALE / scale)`; the loss is their squared difference, averaged
//! over positions.

use crate::data::Position;
use crate::net::{sigmoid, FloatNet};
use crate::threads::map_parts;
use tropa::eval::nnue::TRAINING_SCALE;
use tropa::util::Rng;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam step size.
    pub learning_rate: f32,
    /// The step size is multiplied by 0.1 for the last quarter of the epochs.
    pub final_drop: bool,
    /// Train every position mirrored between the a- and h-files in every other epoch (odd
    /// positions in odd epochs, even ones in even epochs): twice the positions for one
    /// self-play run, since the result and score of a position are those of its mirror image.
    pub mirror: bool,
    /// Weight of the game result in the target (λ).
    pub result_weight: f32,
    /// Centipawns per unit of the sigmoid's argument.
    pub scale: f32,
    /// Threads computing gradients.
    pub threads: usize,
    /// Seed of the shuffles.
    pub seed: u64,
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug)]
pub struct EpochLoss {
    /// Epoch, from 1.
    pub epoch: usize,
    /// Mean training loss over the epoch's batches.
    pub train: f32,
    /// Loss on the validation positions after the epoch (NaN without any).
    pub validation: f32,
}

/// What the net is trained to predict for a position with search score `score` (centipawns,
/// side to move's view) from a game with `result` (side to move's): the blend of the two.
fn target(score: i16, result: f32, s: &TrainSettings) -> f32 {
    (1.0 - s.result_weight) * sigmoid(f32::from(score) / s.scale) + s.result_weight * result
}

/// The sigmoid's argument per unit of the net's output.
pub fn sigmoid_slope(s: &TrainSettings) -> f32 {
    TRAINING_SCALE as f32 / s.scale
}

/// The net's prediction for an output of `output` (in units of `TRAINING_SCALE` centipawns).
fn prediction(output: f32, s: &TrainSettings) -> f32 {
    sigmoid(output * sigmoid_slope(s))
}

/// The loss of an output of `output` (in units of `TRAINING_SCALE` centipawns) on a position
/// with search score `score` and `result` (side to move's view): the measure the trainer
/// minimises, for nets that are no longer float ones (`crate::compare`).
pub fn output_loss(output: f32, score: i16, result: f32, s: &TrainSettings) -> f32 {
    let (e, _) = output_error(output, score, result, s);
    e * e
}

/// The prediction's error against the target for an output of `output` (in units of
/// `TRAINING_SCALE` centipawns) on a position with search score `score` and `result`, and the
/// prediction itself.
pub fn output_error(output: f32, score: i16, result: f32, s: &TrainSettings) -> (f32, f32) {
    let p = prediction(output, s);
    (p - target(score, result, s), p)
}

/// The loss of `pos`, and its derivative by the net's output.
fn loss(net: &FloatNet, pos: &Position, s: &TrainSettings, grad: Option<&mut [f32]>) -> f32 {
    let act = net.forward(pos);
    let k = sigmoid_slope(s);
    let (e, p) = output_error(act.output, pos.score, pos.result, s);
    if let Some(grad) = grad {
        net.backward(pos, &act, 2.0 * e * p * (1.0 - p) * k, grad);
    }
    e * e
}

/// Mean loss over `positions`, on `threads` threads.
pub fn mean_loss(net: &FloatNet, positions: &[Position], s: &TrainSettings) -> f32 {
    if positions.is_empty() {
        return f32::NAN;
    }
    let total: f64 = map_parts(positions, s.threads, |part| {
        part.iter()
            .map(|p| f64::from(loss(net, p, s, None)))
            .sum::<f64>()
    })
    .into_iter()
    .sum();
    (total / positions.len() as f64) as f32
}

/// Adam's moment estimates.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..params.len() {
            let g = grad[i];
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            params[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// Trains `net` on `train`, reporting each epoch's losses to `report`.
pub fn train(
    net: &mut FloatNet,
    train: &[Position],
    validation: &[Position],
    s: &TrainSettings,
    report: &mut dyn FnMut(EpochLoss),
) -> Vec<EpochLoss> {
    let n = net.params.len();
    let threads = s.threads.max(1);
    let mut adam = Adam {
        m: vec![0.0; n],
        v: vec![0.0; n],
        t: 0,
    };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Rng::for_stream(s.seed, 1);
    let mut grads = vec![vec![0.0f32; n]; threads];
    let mut losses = Vec::new();
    for epoch in 1..=s.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let lr = if s.final_drop && epoch > s.epochs * 3 / 4 {
            s.learning_rate * 0.1
        } else {
            s.learning_rate
        };
        let mut sum = 0.0f64;
        for batch in order.chunks(s.batch.max(1)) {
            let part = batch.len().div_ceil(threads);
            let frozen: &FloatNet = net;
            let batch_loss: f64 = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(part)
                    .zip(grads.iter_mut())
                    .map(|(indices, grad)| {
                        scope.spawn(move || {
                            grad.fill(0.0);
                            indices
                                .iter()
                                .map(|&i| {
                                    let mirrored;
                                    let pos = if s.mirror && (i + epoch) % 2 == 0 {
                                        mirrored = train[i].mirrored();
                                        &mirrored
                                    } else {
                                        &train[i]
                                    };
                                    f64::from(loss(frozen, pos, s, Some(grad)))
                                })
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("gradient thread"))
                    .sum()
            });
            sum += batch_loss;
            let used = batch.len().div_ceil(part);
            let (total, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                for (t, g) in total[0].iter_mut().zip(other) {
                    *t += g;
                }
            }
            let scale = 1.0 / batch.len() as f32;
            total[0].iter_mut().for_each(|g| *g *= scale);
            adam.step(&mut net.params, &total[0], lr);
            net.clip();
        }
        let result = EpochLoss {
            epoch,
            train: (sum / train.len().max(1) as f64) as f32,
            validation: mean_loss(net, validation, s),
        };
        report(result);
        losses.push(result);
    }
    losses
}
