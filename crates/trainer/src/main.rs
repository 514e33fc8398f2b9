//! `tropa-trainer`: trains a learned evaluation for Tropa on `tropa datagen` files.

use clap::Parser;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tropa::eval::nnue::{KingBuckets, Network, MAX_OUTPUT_BUCKETS, SCALE_RANGE, TRAINING_SCALE};
use tropa_trainer::compare::held_back_losses;
use tropa_trainer::data::DataSet;
use tropa_trainer::manifest::{refined_json, rescaled_json, sha256_file, Manifest, TrainedRefit};
use tropa_trainer::net::FloatNet;
use tropa_trainer::refine::refine_output;
use tropa_trainer::train::{train, Schedule, TrainSettings};

/// `--refine`'s sample when none is given: one training position in 5. On net 10b8 one in 25
/// learned its sample (docs/learned-evaluation.md, "The output layer's rounding fitted to data").
const DEFAULT_REFINE_EVERY: u32 = 5;

/// Trains the net (768·K -> N)x2 -> 1 with K king buckets and B output buckets and writes it in
/// the engine's format, with a manifest (`<output>.json`) beside it; or, with `--rescale`, writes
/// a trained net again with another output scale; or, with `--loss-of`, compares finished nets on
/// the same held-back games; or, with `--refine`, fits a net's output rounding to data.
#[derive(Parser, Debug)]
#[command(name = "tropa-trainer", version, about)]
struct Args {
    /// Data files written by `tropa datagen` (plain or .xz).
    #[arg(required_unless_present_any = ["rescale", "labelled"])]
    data: Vec<PathBuf>,
    /// A labelled file of other games (plain or .xz; repeatable): `FEN;result;score` lines,
    /// result and score from White's view, as the TCEC positions of docs/evaluation.md.
    #[arg(long, value_name = "FILE", conflicts_with = "rescale")]
    labelled: Vec<PathBuf>,
    /// Tropa centipawns per centipawn of the labelled files' scores: their engines count
    /// centipawns differently (the ratio of the best-fitting K of scripts/result_fit.py for a
    /// Tropa net and for the file's own scores, on the same positions).
    #[arg(long, default_value_t = 1.0)]
    labelled_score_factor: f32,
    /// Instead of training: copy this net to --output with --output-scale as its scale.
    #[arg(long, value_name = "NET", conflicts_with = "data")]
    rescale: Option<PathBuf>,
    /// Instead of training: the loss of this net (repeatable) on the games that training on
    /// DATA with --seed and --validation-percent would hold back, with --result-weight and
    /// --scale; nets trained on other splits compared on the same games.
    #[arg(long, value_name = "NET", requires = "data")]
    #[arg(conflicts_with_all = ["rescale", "labelled", "output", "output_scale", "hidden",
        "buckets", "king_buckets", "mirror", "epochs", "batch", "learning_rate", "schedule"])]
    loss_of: Vec<PathBuf>,
    /// Instead of training: this net with its output layer's rounding fitted to the training
    /// games of DATA (see --refine-every), written to --output.
    #[arg(long, value_name = "NET", requires_all = ["data", "output"])]
    #[arg(conflicts_with_all = ["rescale", "loss_of", "labelled", "output_scale", "hidden",
        "buckets", "king_buckets", "mirror", "epochs", "batch", "learning_rate", "schedule"])]
    refine: Option<PathBuf>,
    /// The output refit sums one training position in K: with --refine (default 5); given
    /// with training, the trained net is refitted so before it is written.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    #[arg(conflicts_with_all = ["rescale", "loss_of", "labelled"])]
    refine_every: Option<u32>,
    /// Centipawns per unit of output written into the net (default: the training scale, 400).
    /// A net whose scores run wider than the hand-crafted evaluation's gets 400 / slope, the
    /// slope measured by scripts/eval_scale.py.
    #[arg(long)]
    output_scale: Option<i32>,
    /// Where to write the net.
    #[arg(short, long, required_unless_present = "loss_of")]
    output: Option<PathBuf>,
    /// Accumulator width N (a multiple of 16).
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Output buckets: output layers for equal ranges of the number of pieces (1..=16).
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam step size (the schedule's first).
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f32,
    /// How the step size changes over the run.
    #[arg(long, value_enum, default_value_t = Schedule::Step)]
    schedule: Schedule,
    /// Weight of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.25)]
    result_weight: f32,
    /// King buckets: 1 (none), or 4 (mirrored: the king castled or in a corner on its back
    /// rank, at home on d or e, on its second rank, further up; a king on files e–h sees the
    /// board mirrored).
    #[arg(long, default_value_t = 1)]
    king_buckets: usize,
    /// Train each position mirrored between the a- and h-files in every other epoch (without
    /// king buckets: mirrored king buckets mirror by themselves).
    #[arg(long)]
    mirror: bool,
    /// Centipawns per unit of the sigmoid's argument.
    #[arg(long, default_value_t = 400.0)]
    scale: f32,
    /// Percent of the games held back for the validation loss.
    #[arg(long, default_value_t = 5)]
    validation_percent: usize,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// `net` with the scale asked for, or an error naming the allowed range.
fn scaled(net: Network, scale: Option<i32>) -> Result<Network, String> {
    let scale = scale.unwrap_or(TRAINING_SCALE);
    net.with_scale(scale).ok_or_else(|| {
        format!(
            "--output-scale {scale} is outside {}..={}",
            SCALE_RANGE.start(),
            SCALE_RANGE.end()
        )
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    tropa::util::write_atomically(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Where to write the net (clap asks for it unless `--loss-of` is given).
fn output_path(args: &Args) -> Result<&Path, String> {
    args.output
        .as_deref()
        .ok_or_else(|| "--output is needed".to_string())
}

/// `--rescale`: the net at `source` written to `--output` with the new scale, and a manifest
/// naming its source.
fn rescale(args: &Args, source: &Path, output: &Path) -> Result<(), String> {
    let net = Network::load(source).map_err(|e| e.to_string())?;
    let from = net.scale();
    let net = scaled(net, args.output_scale)?;
    write(output, &net.to_bytes())?;
    let manifest = rescaled_json(
        &commit(),
        &sha256_file(output)?,
        (&source.display().to_string(), &sha256_file(source)?, from),
        net.scale(),
    );
    let manifest_path = PathBuf::from(format!("{}.json", output.display()));
    write(&manifest_path, manifest.as_bytes())?;
    println!(
        "{}: scale {from} -> {}, written with {}",
        output.display(),
        net.scale(),
        manifest_path.display()
    );
    Ok(())
}

/// The training settings of `args` (the target's result weight and scale are also those of
/// `--loss-of`).
fn settings(args: &Args) -> TrainSettings {
    TrainSettings {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        schedule: args.schedule,
        mirror: args.mirror,
        result_weight: args.result_weight,
        scale: args.scale,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        seed: args.seed,
    }
}

/// `--loss-of`: each net's loss on the held-back games of the data, one line a net.
fn compare(args: &Args) -> Result<(), String> {
    let nets = args
        .loss_of
        .iter()
        .map(|path| Network::load(path).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, String>>()?;
    let paths: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let comparison = held_back_losses(
        &nets,
        &paths,
        args.validation_percent,
        args.seed,
        &settings(args),
    )?;
    if comparison.positions == 0 {
        return Err("the data holds back no positions with this seed and percentage".into());
    }
    println!(
        "{} games held back ({} %, seed {}): {} positions, result weight {}, scale {}",
        comparison.games,
        args.validation_percent,
        args.seed,
        comparison.positions,
        args.result_weight,
        args.scale
    );
    for (path, loss) in args.loss_of.iter().zip(&comparison.losses) {
        println!("{loss:.6} {}", path.display());
    }
    Ok(())
}

/// `--refine`: the net at `source` with its output layer refitted, written to `output` with a
/// manifest.
fn refine(args: &Args, source: &Path, output: &Path) -> Result<(), String> {
    let net = Network::load(source).map_err(|e| e.to_string())?;
    let paths: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let data = checksums(&paths)?;
    let settings = settings(args);
    let every = args.refine_every.unwrap_or(DEFAULT_REFINE_EVERY) as usize;
    let (refined, refit) = refine_output(
        &net,
        &paths,
        every,
        args.validation_percent,
        args.seed,
        &settings,
    )?;
    write(output, &refined.to_bytes())?;
    let manifest = refined_json(
        &commit(),
        &sha256_file(output)?,
        (&source.display().to_string(), &sha256_file(source)?),
        &data,
        (every, args.validation_percent, &settings),
        &refit,
    );
    let manifest_path = PathBuf::from(format!("{}.json", output.display()));
    write(&manifest_path, manifest.as_bytes())?;
    println!(
        "{}: {} of the output layer's values changed on {} training positions (predicted loss \
         change {:.2e}), written with {}",
        output.display(),
        refit.changed,
        refit.positions,
        refit.predicted,
        manifest_path.display()
    );
    Ok(())
}

/// Each file with its SHA-256, taken when the data is read, not after hours of work: a file
/// replaced or moved meanwhile would otherwise be named with the wrong sum.
fn checksums(paths: &[&Path]) -> Result<Vec<(String, String)>, String> {
    paths
        .iter()
        .map(|p| Ok((p.display().to_string(), sha256_file(p)?)))
        .collect()
}

fn run(args: &Args) -> Result<(), String> {
    if let Some(source) = &args.rescale {
        return rescale(args, source, output_path(args)?);
    }
    if args.validation_percent > 50 {
        return Err("--validation-percent must be at most 50".into());
    }
    if !args.loss_of.is_empty() {
        return compare(args);
    }
    if let Some(source) = &args.refine {
        return refine(args, source, output_path(args)?);
    }
    let output = output_path(args)?;
    if args.batch == 0 || args.epochs == 0 {
        return Err("--batch and --epochs must be positive".into());
    }
    if args.hidden == 0 || !args.hidden.is_multiple_of(16) || args.hidden > 4096 {
        return Err("--hidden must be a multiple of 16 up to 4096".into());
    }
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&args.buckets) {
        return Err(format!("--buckets must be in 1..={MAX_OUTPUT_BUCKETS}"));
    }
    let king_buckets = KingBuckets::by_count(args.king_buckets)
        .ok_or("--king-buckets must be 1 or 4 (see --help)")?;
    if args.mirror && king_buckets.mirrored() {
        return Err("--mirror adds nothing to mirrored king buckets: leave it out".into());
    }
    if !(args.labelled_score_factor > 0.0 && args.labelled_score_factor <= 100.0) {
        return Err("--labelled-score-factor must be above 0 and at most 100".into());
    }
    let paths: Vec<&Path> = args.data.iter().map(PathBuf::as_path).collect();
    let all: Vec<&Path> = paths
        .iter()
        .copied()
        .chain(args.labelled.iter().map(PathBuf::as_path))
        .collect();
    let data = checksums(&all)?;
    let mut set = DataSet::load(&paths, king_buckets, args.validation_percent, args.seed)?;
    for path in &args.labelled {
        set.load_labelled(
            path,
            args.labelled_score_factor,
            args.validation_percent,
            args.seed,
        )?;
    }
    if set.train.is_empty() {
        return Err("no training positions in the data".into());
    }
    eprintln!(
        "{} games and {} labelled positions: {} training and {} validation positions",
        set.games,
        set.labelled,
        set.train.len(),
        set.validation.len()
    );
    let settings = settings(args);
    let mut net = FloatNet::random(args.hidden, args.buckets, king_buckets, args.seed);
    let start = Instant::now();
    let losses = train(&mut net, &set.train, &set.validation, &settings, &mut |l| {
        let rate = (l.epoch * set.train.len()) as f64 / start.elapsed().as_secs_f64();
        eprintln!(
            "epoch {:3}: train loss {:.6}, validation loss {:.6} ({rate:.0} positions/s)",
            l.epoch, l.train, l.validation
        );
    });
    let rounded = scaled(net.quantise(), args.output_scale)?;
    // A refit that fails (a data file unreadable now) must not cost the trained net: it is
    // written as rounded, and the error reported after.
    let (written, refit, refit_error) = match args.refine_every {
        None => (rounded, None, None),
        Some(every) => match refine_output(
            &rounded,
            &paths,
            every as usize,
            args.validation_percent,
            args.seed,
            &settings,
        ) {
            Ok((refined, refit)) => {
                eprintln!(
                    "refit: {} of the output layer's values changed on {} training positions",
                    refit.changed, refit.positions
                );
                (refined, Some((every as usize, refit, rounded)), None)
            }
            Err(e) => (rounded, None, Some(e)),
        },
    };
    write(output, &written.to_bytes())?;
    let validation = engine_validation(
        args,
        &paths,
        &settings,
        &set,
        &written,
        refit.as_ref().map(|r| &r.2),
    );
    if let Some(loss) = validation.0 {
        eprintln!("validation loss of the written net as the engine reads it: {loss:.6}");
    }
    let manifest = Manifest {
        commit: commit(),
        data,
        positions: (set.train.len(), set.validation.len()),
        games: set.games,
        labelled: (set.labelled, args.labelled_score_factor),
        hidden: args.hidden,
        buckets: args.buckets,
        king_buckets,
        seed: args.seed,
        settings: &settings,
        losses: &losses,
        net_sha256: sha256_file(output)?,
        output_scale: written.scale(),
        quantised_validation: validation.0,
        refit: refit.map(|(every, refit, _)| TrainedRefit {
            every,
            refit,
            rounded_validation: validation.1,
        }),
    };
    let manifest_path = PathBuf::from(format!("{}.json", output.display()));
    write(&manifest_path, manifest.to_json().as_bytes())?;
    if let Some(e) = refit_error {
        return Err(format!(
            "{} written with {} without the refit, which failed: {e}",
            output.display(),
            manifest_path.display()
        ));
    }
    println!(
        "{}: written with {} ({} positions/s)",
        output.display(),
        manifest_path.display(),
        ((settings.epochs * set.train.len()) as f64 / start.elapsed().as_secs_f64()) as u64
    );
    Ok(())
}

/// The engine's reading of the written net on the validation games, and of the net before its
/// refit if there was one, read again from the files (the positions kept for training have no
/// boards). A file that cannot be read now costs these figures only, not the manifest of hours
/// of training; labelled files' validation positions are not covered, so none is given then.
fn engine_validation(
    args: &Args,
    paths: &[&Path],
    settings: &TrainSettings,
    set: &DataSet,
    written: &Network,
    before_refit: Option<&Network>,
) -> (Option<f64>, Option<f64>) {
    if !args.labelled.is_empty() {
        return (None, None);
    }
    let nets: Vec<Network> = std::iter::once(written)
        .chain(before_refit)
        .cloned()
        .collect();
    match held_back_losses(&nets, paths, args.validation_percent, args.seed, settings) {
        Ok(read) if read.positions == set.validation.len() && read.positions > 0 => {
            (Some(read.losses[0]), read.losses.get(1).copied())
        }
        Ok(_) => (None, None),
        Err(e) => {
            eprintln!("tropa-trainer: the written net's validation loss not measured: {e}");
            (None, None)
        }
    }
}

fn main() {
    if let Err(e) = run(&Args::parse()) {
        eprintln!("tropa-trainer: {e}");
        std::process::exit(1);
    }
}
