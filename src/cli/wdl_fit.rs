//! `tropa fit-wdl`: fits the win/draw/loss model of `search::wdl` to game results.
//!
//! Design note: each labelled position is scored by Tropa's static evaluation (the data are
//! quiet positions, where it is close to what a short search reports), and the four numbers of
//! the model are found by maximum likelihood: full-batch Adam on the mean negative
//! log-likelihood of the games' results, with the gradient written out by hand. A tool, never
//! run by the engine.

use crate::eval::evaluate;
use crate::eval::tune::open_data;
use crate::rules::{parse_fen, Color};
use crate::search::wdl::{material, WdlModel};
use std::io::BufRead;
use std::path::Path;

/// One position: its score for the side to move, its material, and the result for that side
/// (1 win, 0 draw, −1 loss).
struct Sample {
    score: f64,
    material: f64,
    result: i8,
}

fn load(path: &Path, limit: usize) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for line in open_data(path)?.lines() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let mut fields = line.split(';');
        let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
            continue;
        };
        let (Ok(board), Ok(white)) = (parse_fen(fen, false), result.trim().parse::<f64>()) else {
            continue;
        };
        let white = if white > 0.75 {
            1
        } else if white < 0.25 {
            -1
        } else {
            0
        };
        let result = if board.side_to_move() == Color::White {
            white
        } else {
            -white
        };
        samples.push(Sample {
            score: evaluate(&board) as f64,
            material: material(&board).clamp(17, 78) as f64 / 58.0,
            result,
        });
        if limit > 0 && samples.len() >= limit {
            break;
        }
    }
    Ok(samples)
}

/// Mean negative log-likelihood of the results under `p` = [a0, a1, b0, b1], and its gradient.
fn loss_and_gradient(samples: &[Sample], p: &[f64; 4]) -> (f64, [f64; 4]) {
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut loss = 0.0;
    let mut grad = [0.0; 4];
    for s in samples {
        let a = p[0] + p[1] * s.material;
        let b = (p[2] + p[3] * s.material).max(1.0);
        let (u, v) = ((s.score - a) / b, (-s.score - a) / b);
        let (win, lose) = (sigmoid(u), sigmoid(v));
        // d(-log P)/du and d(-log P)/dv for the observed result.
        let (du, dv, p_obs) = match s.result {
            1 => (-(1.0 - win), 0.0, win),
            -1 => (0.0, -(1.0 - lose), lose),
            _ => {
                let draw = (1.0 - win - lose).max(1e-9);
                (win * (1.0 - win) / draw, lose * (1.0 - lose) / draw, draw)
            }
        };
        loss -= p_obs.max(1e-12).ln();
        // u and v both fall by 1/b per unit of a; they change by -u/b and -v/b per unit of b.
        let da = -(du + dv) / b;
        let db = -(du * u + dv * v) / b;
        grad[0] += da;
        grad[1] += da * s.material;
        grad[2] += db;
        grad[3] += db * s.material;
    }
    let n = samples.len().max(1) as f64;
    (loss / n, grad.map(|g| g / n))
}

/// Fits the model; `log` receives progress lines.
pub fn fit(
    data: &Path,
    limit: usize,
    iterations: usize,
    mut log: impl FnMut(&str),
) -> Result<WdlModel, String> {
    let samples = load(data, limit)?;
    if samples.len() < 100 {
        return Err(format!(
            "{}: only {} usable positions",
            data.display(),
            samples.len()
        ));
    }
    log(&format!("{} positions", samples.len()));
    Ok(fit_samples(&samples, iterations, log))
}

/// Adam from a plausible model (even chances at +1.5 pawns, a spread of a pawn).
fn fit_samples(samples: &[Sample], iterations: usize, mut log: impl FnMut(&str)) -> WdlModel {
    let mut p = [150.0, 0.0, 100.0, 0.0];
    let (mut m, mut v) = ([0.0; 4], [0.0; 4]);
    let (rate, beta1, beta2) = (2.0, 0.9, 0.999);
    for t in 1..=iterations {
        let (loss, g) = loss_and_gradient(samples, &p);
        for i in 0..4 {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let m_hat = m[i] / (1.0 - beta1.powi(t as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(t as i32));
            p[i] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if t % 50 == 0 || t == iterations {
            log(&format!(
                "iteration {t}: loss {loss:.5}, a = {:.1} + {:.1}·m, b = {:.1} + {:.1}·m",
                p[0], p[1], p[2], p[3]
            ));
        }
    }
    WdlModel {
        a: [p[0], p[1]],
        b: [p[2], p[3]],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model are fitted back to it.
    #[test]
    fn recovers_a_known_model() {
        let truth = WdlModel {
            a: [120.0, 160.0],
            b: [60.0, 50.0],
        };
        let mut samples = Vec::new();
        let mut x = 0x9e37_79b9_u64;
        let mut uniform = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..40_000 {
            let score = uniform() * 1200.0 - 600.0;
            let material = 17 + (uniform() * 61.0) as i32;
            let (w, d, _) = truth.probabilities(score, material);
            let r = uniform();
            let result = if r < w {
                1
            } else if r < w + d {
                0
            } else {
                -1
            };
            samples.push(Sample {
                score,
                material: material as f64 / 58.0,
                result,
            });
        }
        let fitted = fit_samples(&samples, 1500, |_| {});
        for (score, material) in [(0.0, 30), (150.0, 50), (-300.0, 70), (400.0, 20)] {
            let (w1, d1, _) = truth.probabilities(score, material);
            let (w2, d2, _) = fitted.probabilities(score, material);
            assert!(
                (w1 - w2).abs() < 0.03 && (d1 - d2).abs() < 0.03,
                "{score} {material}: {fitted:?}"
            );
        }
    }
}
