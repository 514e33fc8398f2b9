//! Texel-style tuning: fit the evaluation weights to positions labelled with game results.
//!
//! Each position is traced once into a sparse list of (parameter, White count − Black count);
//! the score is then linear in the weights, so the mean squared error between
//! `sigmoid(K · eval)` and the target (a blend of the game result and, when present, the
//! engine's own search score) is minimised by Adam over full batches, on all cores. The result
//! is written as `src/eval/weights.rs`.

use super::params::{Block, Tapered, BLOCKS, COUNT, MATERIAL, PSQT};
use super::{endgame, insufficient_material, phase, terms, Sink, PHASE_MAX, SCALE_NORMAL, WEIGHTS};
use crate::rules::{parse_fen, Board, Color, Piece};
use std::io::{BufRead, Write};
use std::path::Path;

/// A position reduced to what the loss needs.
struct Sample {
    /// Sparse coefficients: parameter index and White-minus-Black count.
    coefs: Vec<(u16, i16)>,
    phase: i16,
    /// Endgame scale for each possible sign of the endgame score (White ahead, Black ahead).
    scale: [i16; 2],
    mop_up: i16,
    target: f32,
}

#[derive(Default)]
struct Tracer {
    coefs: Vec<(u16, i16)>,
}

impl Sink for Tracer {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let signed = if color == Color::White { count } else { -count };
        match self.coefs.iter_mut().find(|(i, _)| *i as usize == index) {
            Some(entry) => entry.1 += signed as i16,
            None => self.coefs.push((index as u16, signed as i16)),
        }
    }
}

fn trace(board: &Board, target: f32) -> Option<Sample> {
    if insufficient_material(board) {
        return None;
    }
    let mut tracer = Tracer::default();
    terms::collect(board, &mut tracer);
    tracer.coefs.retain(|&(_, c)| c != 0);
    Some(Sample {
        coefs: tracer.coefs,
        phase: phase(board) as i16,
        scale: [
            endgame::scale(board, Color::White) as i16,
            endgame::scale(board, Color::Black) as i16,
        ],
        mop_up: endgame::mop_up(board) as i16,
        target,
    })
}

/// Settings of a tuning run.
pub struct TuneConfig {
    /// Weight of the game result in the target; the rest is the engine score (when present).
    pub result_weight: f64,
    /// Passes of Adam over the whole data set.
    pub epochs: usize,
    /// Adam step size, in centipawns.
    pub learning_rate: f64,
    /// Use at most this many positions (0 = all).
    pub limit: usize,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One `FEN;result;score` line of a labelled file: the position, the game's result for White
/// (1.0, 0.5 or 0.0) and the engine's score in centipawns from White's view, `None` when the
/// field is empty or missing. `None` for a line whose FEN or result does not parse.
pub fn parse_labelled_line(line: &str) -> Option<(Board, f64, Option<f64>)> {
    let mut fields = line.split(';');
    let board = parse_fen(fields.next()?, false).ok()?;
    let result = fields.next()?.trim().parse::<f64>().ok()?;
    let score = fields.next().and_then(|s| s.trim().parse::<f64>().ok());
    Some((board, result, score))
}

/// Reads `FEN;result;score` lines (result 1.0/0.5/0.0 from White's view, score in centipawns
/// from White's view or empty). Lines that do not parse are counted and skipped.
fn load(path: &Path, config: &TuneConfig, k: f64) -> Result<(Vec<Sample>, usize), String> {
    let reader = open_data(path)?;
    let mut samples = Vec::new();
    let mut skipped = 0;
    for line in reader.lines() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        let Some((board, result, score)) = parse_labelled_line(&line) else {
            skipped += 1;
            continue;
        };
        let score = score.filter(|s| s.abs() < 3000.0);
        let target = match score {
            Some(cp) => {
                config.result_weight * result + (1.0 - config.result_weight) * sigmoid(k * cp)
            }
            None => result,
        };
        if let Some(sample) = trace(&board, target as f32) {
            samples.push(sample);
        }
        if config.limit > 0 && samples.len() >= config.limit {
            break;
        }
    }
    Ok((samples, skipped))
}

/// Opens a data file for reading by lines; `.xz` is decompressed in-process (liblzma), so no
/// `xz` program needs to be installed.
pub fn open_data(path: &Path) -> Result<Box<dyn BufRead>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(if path.extension().is_some_and(|e| e == "xz") {
        Box::new(std::io::BufReader::new(
            liblzma::read::XzDecoder::new_multi_decoder(file),
        ))
    } else {
        Box::new(std::io::BufReader::new(file))
    })
}

/// A sample evaluated under some weights, with the two factors its gradient needs.
struct Evaluated {
    /// The evaluation in centipawns.
    value: f64,
    /// The middlegame share of the phase (1 with all pieces on).
    mg_share: f64,
    /// The endgame scale the drawish-ending rules apply.
    eg_scale: f64,
}

/// The evaluation of a sample under the weights `w`, as `eval::evaluate` computes it.
fn eval_sample(s: &Sample, w: &[[f64; 2]]) -> Evaluated {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &s.coefs {
        mg += w[i as usize][0] * c as f64;
        eg += w[i as usize][1] * c as f64;
    }
    let eg_scale = s.scale[usize::from(eg < 0.0)] as f64 / SCALE_NORMAL as f64;
    let mg_share = s.phase as f64 / PHASE_MAX as f64;
    Evaluated {
        value: mg * mg_share + eg * (1.0 - mg_share) * eg_scale + s.mop_up as f64,
        mg_share,
        eg_scale,
    }
}

/// Mean squared error and its gradient over a slice of samples.
fn error_and_gradient(samples: &[Sample], w: &[[f64; 2]], k: f64) -> (f64, Vec<[f64; 2]>) {
    let mut grad = vec![[0.0; 2]; w.len()];
    let mut error = 0.0;
    for s in samples {
        let e = eval_sample(s, w);
        let sig = sigmoid(k * e.value);
        let diff = sig - s.target as f64;
        error += diff * diff;
        let d = 2.0 * diff * sig * (1.0 - sig) * k;
        for &(i, c) in &s.coefs {
            grad[i as usize][0] += d * c as f64 * e.mg_share;
            grad[i as usize][1] += d * c as f64 * (1.0 - e.mg_share) * e.eg_scale;
        }
    }
    (error, grad)
}

fn parallel_error_and_gradient(samples: &[Sample], w: &[[f64; 2]], k: f64) -> (f64, Vec<[f64; 2]>) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = samples.len().div_ceil(threads).max(1);
    let parts: Vec<(f64, Vec<[f64; 2]>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|c| scope.spawn(move || error_and_gradient(c, w, k)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("tuning thread panicked"))
            .collect()
    });
    let mut grad = vec![[0.0; 2]; w.len()];
    let mut error = 0.0;
    for (e, g) in parts {
        error += e;
        for (a, b) in grad.iter_mut().zip(g) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }
    let n = samples.len().max(1) as f64;
    (
        error / n,
        grad.into_iter().map(|g| [g[0] / n, g[1] / n]).collect(),
    )
}

/// The scaling constant K (per centipawn) that best fits the current weights to the results.
fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> f64 {
    let error = |k: f64| {
        samples
            .iter()
            .map(|s| (sigmoid(k * eval_sample(s, w).value) - s.target as f64).powi(2))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (0.001, 0.02);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Runs the tuner on `data` starting from the current weights; returns the new weights and a log.
pub fn tune(
    data: &Path,
    config: &TuneConfig,
    mut log: impl FnMut(&str),
) -> Result<Vec<Tapered>, String> {
    let mut w: Vec<[f64; 2]> = WEIGHTS.iter().map(|s| [s.mg as f64, s.eg as f64]).collect();
    // K is fitted on the results alone first, then used to turn engine scores into targets.
    let result_only = TuneConfig {
        result_weight: 1.0,
        epochs: config.epochs,
        learning_rate: config.learning_rate,
        limit: config.limit,
    };
    let probe_limit = if config.limit == 0 {
        200_000
    } else {
        config.limit.min(200_000)
    };
    let (probe, _) = load(
        data,
        &TuneConfig {
            limit: probe_limit,
            ..result_only
        },
        0.0,
    )?;
    let k = fit_k(&probe, &w);
    drop(probe);
    log(&format!("K = {k:.6} per centipawn"));
    let (samples, skipped) = load(data, config, k)?;
    log(&format!(
        "{} positions traced, {skipped} lines skipped",
        samples.len()
    ));
    if samples.is_empty() {
        return Err(format!("no usable positions in {}", data.display()));
    }
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; COUNT];
    let mut v = vec![[0.0; 2]; COUNT];
    for epoch in 1..=config.epochs {
        let (error, grad) = parallel_error_and_gradient(&samples, &w, k);
        for i in 0..COUNT {
            for j in 0..2 {
                m[i][j] = beta1 * m[i][j] + (1.0 - beta1) * grad[i][j];
                v[i][j] = beta2 * v[i][j] + (1.0 - beta2) * grad[i][j] * grad[i][j];
                let mh = m[i][j] / (1.0 - beta1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - beta2.powi(epoch as i32));
                w[i][j] -= config.learning_rate * mh / (vh.sqrt() + eps);
            }
        }
        if epoch == 1 || epoch % 25 == 0 || epoch == config.epochs {
            log(&format!("epoch {epoch:4}  error {error:.6}"));
        }
    }
    let mut out: Vec<Tapered> = w
        .iter()
        .map(|p| Tapered::new(p[0].round() as i32, p[1].round() as i32))
        .collect();
    centre_piece_square_tables(&mut out);
    Ok(out)
}

/// Moves the mean of each piece's square table into its material value, so the material block
/// reads as piece values and the tables as square bonuses. The evaluation is unchanged up to
/// rounding, since every piece counts once in each.
fn centre_piece_square_tables(w: &mut [Tapered]) {
    for piece in [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
    ] {
        let squares: Vec<usize> = if piece == Piece::Pawn {
            (8..56).collect()
        } else {
            (0..64).collect()
        };
        let n = squares.len() as i32;
        let mean = squares.iter().fold(Tapered::new(0, 0), |acc, &sq| {
            acc + w[PSQT.at(piece as usize * 64 + sq)]
        });
        let mean = Tapered::new(mean.mg / n, mean.eg / n);
        for &sq in &squares {
            let i = PSQT.at(piece as usize * 64 + sq);
            w[i] = w[i] - mean;
        }
        let m = MATERIAL.at(piece as usize);
        w[m] += mean;
    }
}

/// Writes the weights as Rust source, one commented block per term, atomically.
pub fn write_weights(path: &Path, weights: &[Tapered], provenance: &str) -> std::io::Result<()> {
    let mut text = String::new();
    text.push_str("//! Evaluation weights (middlegame, endgame) in centipawns, in the order of `params.rs`.\n");
    text.push_str("//! Generated by `tropa tune`; do not edit by hand.\n");
    for line in provenance.lines() {
        text.push_str(&format!("//! {line}\n"));
    }
    text.push_str("\nuse super::params::{COUNT, Tapered};\n\n");
    text.push_str(
        "/// The tuned weights.\n#[rustfmt::skip]\npub static WEIGHTS: [Tapered; COUNT] = [\n",
    );
    for block in BLOCKS.iter().filter(|b: &&Block| b.len > 0) {
        text.push_str(&format!("    // {}\n", block.name));
        for row in weights[block.start..block.start + block.len].chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|s| format!("Tapered::new({}, {})", s.mg, s.eg))
                .collect();
            text.push_str(&format!("    {},\n", cells.join(", ")));
        }
    }
    text.push_str("];\n");
    crate::util::write_atomically(path, text.as_bytes())
}

/// Appends a short report of a tuning run to `out`.
pub fn report(out: &mut impl Write, old: &[Tapered], new: &[Tapered]) -> std::io::Result<()> {
    for block in BLOCKS.iter() {
        let changed = (block.start..block.start + block.len)
            .filter(|&i| old[i] != new[i])
            .count();
        writeln!(
            out,
            "{:32} {changed:4} of {:4} changed",
            block.name, block.len
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn reads_xz_data_in_process() {
        let dir = tempfile::tempdir().unwrap();
        let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;0.5;30\n\
                    8/8/8/4k3/8/8/8/R3K3 w - - 0 1;1.0;\nnot a position;1.0;0\n";
        let plain = dir.path().join("d.txt");
        std::fs::write(&plain, text).unwrap();
        let packed = dir.path().join("d.txt.xz");
        let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
        encoder.write_all(text.as_bytes()).unwrap();
        std::fs::write(&packed, encoder.finish().unwrap()).unwrap();
        let config = TuneConfig {
            result_weight: 0.5,
            epochs: 1,
            learning_rate: 1.0,
            limit: 0,
        };
        let (from_plain, skipped) = load(&plain, &config, 1.0).unwrap();
        let (from_xz, skipped_xz) = load(&packed, &config, 1.0).unwrap();
        assert_eq!((from_plain.len(), skipped), (2, 1));
        assert_eq!((from_xz.len(), skipped_xz), (2, 1));
        let broken = dir.path().join("broken.txt.xz");
        std::fs::write(&broken, b"not xz at all").unwrap();
        match load(&broken, &config, 1.0) {
            Err(e) => assert!(e.contains("broken.txt.xz"), "{e}"),
            Ok(_) => panic!("a broken .xz file was read"),
        }
    }
}
