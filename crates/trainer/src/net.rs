//! The float net the trainer learns, its forward and backward passes, and its quantisation into
//! the engine's integer net.
//!
//! Design note: the float net is the engine's net before rounding: an accumulator value of 1.0
//! is QA in the engine, an output weight of 1.0 is QB, and the output times TRAINING_SCALE is
//! centipawns; `quantise` rounds by those factors, and weights are kept within
//! `FLOAT_WEIGHT_LIMIT` during training so that the rounded ones fit the engine's ranges. A
//! position goes through the output layer of its bucket (`output_bucket` of its piece count,
//! as in the engine); only that layer gets its gradient. A position's features already name the
//! king bucket whose copy of the input rows they train. With several king buckets each feature
//! also trains a shared row (a factoriser): the row of the same piece on the same square whatever
//! the king's bucket, which every position trains, so that a bucket seen in few positions still
//! starts from what all of them taught; `quantise` adds it into each bucket's row, and the
//! engine never sees it.

use crate::data::Position;
use tropa::eval::nnue::{
    output_bucket, KingBuckets, Network, FLOAT_WEIGHT_LIMIT, INPUTS, QA, QB, TRAINING_SCALE,
};
use tropa::util::Rng;

/// The float parameters, in one vector so that the optimiser treats them alike.
#[derive(Clone, Debug)]
pub struct FloatNet {
    /// Accumulator width per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// King buckets: `INPUTS` feature rows for each.
    pub king_buckets: KingBuckets,
    /// Feature weights (`INPUTS × king buckets × hidden`), the shared rows with several king
    /// buckets (`INPUTS × hidden`), accumulator biases (`hidden`), output weights
    /// (`2 × hidden` per bucket, bucket by bucket, side to move's half first) and the output
    /// biases (one per bucket), one after the other.
    pub params: Vec<f32>,
}

/// Offsets of the parameter groups in `FloatNet::params`.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    hidden: usize,
    buckets: usize,
    king_buckets: usize,
}

impl Layout {
    /// Are there shared rows (several king buckets)?
    pub fn factorised(self) -> bool {
        self.king_buckets > 1
    }
    /// First parameter of the shared row of `feature`, when there are shared rows.
    pub fn shared_row(self, feature: usize) -> Option<usize> {
        let first = INPUTS * self.king_buckets * self.hidden;
        self.factorised()
            .then_some(first + feature % INPUTS * self.hidden)
    }
    /// First accumulator bias.
    pub fn biases(self) -> usize {
        let shared = if self.factorised() { INPUTS } else { 0 };
        (INPUTS * self.king_buckets + shared) * self.hidden
    }
    /// First output weight (of bucket 0).
    pub fn output(self) -> usize {
        self.biases() + self.hidden
    }
    /// First output weight of `bucket`.
    pub fn bucket_output(self, bucket: usize) -> usize {
        self.output() + bucket * 2 * self.hidden
    }
    /// First output bias (of bucket 0).
    pub fn output_bias(self) -> usize {
        self.output() + self.buckets * 2 * self.hidden
    }
    /// Number of parameters.
    pub fn len(self) -> usize {
        self.output_bias() + self.buckets
    }
    /// Never empty (kept for clippy's `len_without_is_empty`).
    pub fn is_empty(self) -> bool {
        false
    }
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The activations of one forward pass, kept for the backward pass.
pub struct Activations {
    us: Vec<f32>,
    them: Vec<f32>,
    bucket: usize,
    /// The net's output (times TRAINING_SCALE: centipawns).
    pub output: f32,
}

impl FloatNet {
    /// A net with `buckets` output buckets, the king buckets `king_buckets` and small random
    /// weights from `seed`.
    pub fn random(hidden: usize, buckets: usize, king_buckets: KingBuckets, seed: u64) -> FloatNet {
        let layout = Layout {
            hidden,
            buckets,
            king_buckets: king_buckets.count(),
        };
        let mut rng = Rng::for_stream(seed, 0);
        let mut params = vec![0.0; layout.len()];
        let feature_scale = 1.0 / ACTIVE_INPUTS.sqrt();
        // With shared rows the net starts as one without king buckets: the shared rows drawn,
        // each bucket's own rows zero.
        let drawn = match layout.shared_row(0) {
            Some(shared) => shared..layout.biases(),
            None => 0..layout.biases(),
        };
        for p in &mut params[drawn] {
            *p = (rng.unit() * 2.0 - 1.0) * feature_scale;
        }
        let output_scale = 1.0 / (2.0 * hidden as f32).sqrt();
        for p in &mut params[layout.output()..layout.output_bias()] {
            *p = (rng.unit() * 2.0 - 1.0) * output_scale;
        }
        FloatNet {
            hidden,
            buckets,
            king_buckets,
            params,
        }
    }

    /// Where each parameter group starts.
    pub fn layout(&self) -> Layout {
        Layout {
            hidden: self.hidden,
            buckets: self.buckets,
            king_buckets: self.king_buckets.count(),
        }
    }

    fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        let l = self.layout();
        acc.copy_from_slice(&self.params[l.biases()..l.output()]);
        for &f in features {
            let f = usize::from(f);
            let shared = l.shared_row(f);
            for start in std::iter::once(f * self.hidden).chain(shared) {
                let row = &self.params[start..][..self.hidden];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }

    /// The forward pass for `pos`.
    pub fn forward(&self, pos: &Position) -> Activations {
        let l = self.layout();
        let mut us = vec![0.0; self.hidden];
        let mut them = vec![0.0; self.hidden];
        self.accumulate(pos.us(), &mut us);
        self.accumulate(pos.them(), &mut them);
        let bucket = output_bucket(pos.us().len(), self.buckets);
        let w = &self.params[l.bucket_output(bucket)..l.bucket_output(bucket + 1)];
        let (w_us, w_them) = w.split_at(self.hidden);
        let output = us
            .iter()
            .zip(w_us)
            .map(|(&a, &w)| screlu(a) * w)
            .sum::<f32>()
            + them
                .iter()
                .zip(w_them)
                .map(|(&a, &w)| screlu(a) * w)
                .sum::<f32>()
            + self.params[l.output_bias() + bucket];
        Activations {
            us,
            them,
            bucket,
            output,
        }
    }

    /// The float evaluation in centipawns, side to move's view.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.forward(pos).output * TRAINING_SCALE as f32
    }

    /// Adds to `grad` the gradient of the loss with respect to every parameter, given the
    /// forward pass `act` of `pos` and the loss's derivative by the output, `d_output`.
    pub fn backward(&self, pos: &Position, act: &Activations, d_output: f32, grad: &mut [f32]) {
        let l = self.layout();
        let h = self.hidden;
        grad[l.output_bias() + act.bucket] += d_output;
        for (side, (acc, features)) in [(&act.us, pos.us()), (&act.them, pos.them())]
            .into_iter()
            .enumerate()
        {
            let out_at = l.bucket_output(act.bucket) + side * h;
            let mut d_acc = vec![0.0f32; h];
            for i in 0..h {
                let a = acc[i];
                grad[out_at + i] += d_output * screlu(a);
                if a > 0.0 && a < 1.0 {
                    d_acc[i] = d_output * self.params[out_at + i] * 2.0 * a;
                }
            }
            for (g, d) in grad[l.biases()..l.output()].iter_mut().zip(&d_acc) {
                *g += d;
            }
            for &f in features {
                let f = usize::from(f);
                for start in std::iter::once(f * h).chain(l.shared_row(f)) {
                    let row = &mut grad[start..][..h];
                    for (g, d) in row.iter_mut().zip(&d_acc) {
                        *g += d;
                    }
                }
            }
        }
    }

    /// Keeps the weights within the range the quantised net can hold (a bucket's row and its
    /// shared row within half of it each, so that their sum is within it).
    pub fn clip(&mut self) {
        let l = self.layout();
        let feature_limit = if l.factorised() {
            FLOAT_WEIGHT_LIMIT / 2.0
        } else {
            FLOAT_WEIGHT_LIMIT
        };
        let (features, rest) = self.params[..l.output_bias()].split_at_mut(l.biases());
        for p in features {
            *p = p.clamp(-feature_limit, feature_limit);
        }
        for p in rest {
            *p = p.clamp(-FLOAT_WEIGHT_LIMIT, FLOAT_WEIGHT_LIMIT);
        }
    }

    /// The engine's integer net.
    pub fn quantise(&self) -> Network {
        let l = self.layout();
        let round = |x: f32, q: i32| {
            (x * q as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        let rows = INPUTS * self.king_buckets.count() * self.hidden;
        let feature_weights = (0..rows)
            .map(|i| {
                let shared = l
                    .shared_row(i / self.hidden)
                    .map_or(0.0, |start| self.params[start + i % self.hidden]);
                round(self.params[i] + shared, QA)
            })
            .collect();
        let biases = self.params[l.biases()..l.output()]
            .iter()
            .map(|&w| round(w, QA))
            .collect();
        let output_weights = self.params[l.output()..l.output_bias()]
            .iter()
            .map(|&w| round(w, QB))
            .collect();
        let output_biases = self.params[l.output_bias()..]
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        Network::from_parts(
            self.hidden,
            self.king_buckets,
            feature_weights,
            biases,
            output_weights,
            output_biases,
        )
    }
}

/// Typical number of active inputs (pieces), for the initial weight scale.
const ACTIVE_INPUTS: f32 = 30.0;
