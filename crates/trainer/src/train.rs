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
    /// Adam step size (the schedule's first).
    pub learning_rate: f32,
    /// How the step size changes over the run.
    pub schedule: Schedule,
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

/// How the step size changes over a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Schedule {
    /// The same step size throughout.
    Constant,
    /// The step size multiplied by 0.1 for the last quarter of the epochs.
    Step,
    /// The step size falls along half a cosine, batch by batch, from the full size at the first
    /// batch to 1 % of it (`COSINE_FLOOR`) at the last.
    Cosine,
}

/// The cosine schedule's last step size, as a share of the first.
pub const COSINE_FLOOR: f32 = 0.01;

impl Schedule {
    /// The schedule's name, as `--schedule` takes it.
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned())
    }

    /// The step size of batch `step` (from 0) of `steps`, in epoch `epoch` (from 1) of
    /// `epochs`, for a first step size of `first`.
    pub fn step_size(
        self,
        first: f32,
        (epoch, epochs): (usize, usize),
        (step, steps): (usize, usize),
    ) -> f32 {
        match self {
            Schedule::Constant => first,
            Schedule::Step if epoch > epochs * 3 / 4 => first * 0.1,
            Schedule::Step => first,
            Schedule::Cosine => {
                let done = step as f32 / (steps.max(2) - 1) as f32;
                let fall = 0.5 * (1.0 + (std::f32::consts::PI * done.min(1.0)).cos());
                first * (COSINE_FLOOR + (1.0 - COSINE_FLOOR) * fall)
            }
        }
    }
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
    let batch_size = s.batch.max(1);
    let per_epoch = order.len().div_ceil(batch_size);
    for epoch in 1..=s.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut sum = 0.0f64;
        for (index, batch) in order.chunks(batch_size).enumerate() {
            let step = (epoch - 1) * per_epoch + index;
            let lr = s.schedule.step_size(
                s.learning_rate,
                (epoch, s.epochs),
                (step, per_epoch * s.epochs),
            );
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

#[cfg(test)]
mod tests {
    use super::{Schedule, COSINE_FLOOR};

    #[test]
    fn the_schedules_keep_drop_or_fall_as_documented() {
        let (first, epochs, per_epoch) = (0.002, 8, 10);
        let steps = epochs * per_epoch;
        let sizes = |schedule: Schedule| -> Vec<f32> {
            (0..steps)
                .map(|step| {
                    schedule.step_size(first, (step / per_epoch + 1, epochs), (step, steps))
                })
                .collect()
        };
        assert!(sizes(Schedule::Constant).iter().all(|&lr| lr == first));
        // Step: the full size through epoch 6, a tenth in epochs 7 and 8.
        let step = sizes(Schedule::Step);
        assert!(step[..6 * per_epoch].iter().all(|&lr| lr == first));
        assert!(step[6 * per_epoch..]
            .iter()
            .all(|&lr| (lr - first * 0.1).abs() < 1e-9));
        // Cosine: from the full size to the floor, never rising, half way at the middle.
        let cosine = sizes(Schedule::Cosine);
        assert!((cosine[0] - first).abs() < 1e-9);
        assert!((cosine[steps - 1] - first * COSINE_FLOOR).abs() < 1e-9);
        assert!(cosine.windows(2).all(|w| w[1] <= w[0]));
        let middle = Schedule::Cosine.step_size(first, (1, 1), (1, 3));
        assert!((middle - first * (1.0 + COSINE_FLOOR) / 2.0).abs() < 1e-6);
        // One batch in all: the full size.
        assert_eq!(Schedule::Cosine.step_size(first, (1, 1), (0, 1)), first);
    }
}
