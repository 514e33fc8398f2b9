//! `tropa datagen`: self-play data for the learned evaluation (see `crate::datagen`).
//!
//! Design note: progress goes to standard error only when it is a terminal, so a background
//! run's log holds the summary alone; the summary includes the throughput in positions an hour.

use crate::book::pgn::read_pgn;
use crate::datagen::play::PlaySettings;
use crate::datagen::{run, Progress, RunSettings};
use crate::rules::Color;
use crate::tablebases::Tablebases;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Options of `tropa datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Output file (appended to and resumed if it exists; same seed, nodes and evaluation
    /// required: a run begun with the hand-crafted evaluation goes on with --hce).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Games the output should hold at the end.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Node limit per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Playing threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Opening lines (PGN); without it games start from the start position.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Plies of each opening line used.
    #[arg(long, default_value_t = 16)]
    pub opening_plies: usize,
    /// Random legal plies after the opening line (default 4 with openings, 8 without).
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Transposition table per thread, megabytes.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Syzygy folders (separated by ':'): a position they cover ends the game with their verdict.
    #[arg(long)]
    pub syzygy: Option<String>,
    #[command(flatten)]
    pub eval: super::learned::EvalArgs,
}

/// Runs `tropa datagen`.
pub fn datagen(args: &DatagenArgs) -> Result<(), String> {
    let openings = match &args.openings {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let file = read_pgn(&bytes, &path.display().to_string(), args.opening_plies)?;
            let lines: Vec<_> = file.openings.into_iter().map(|o| o.moves).collect();
            if lines.is_empty() {
                return Err(format!("{}: no opening lines", path.display()));
            }
            lines
        }
        None => Vec::new(),
    };
    let random_plies = args
        .random_plies
        .unwrap_or(if openings.is_empty() { 8 } else { 4 });
    if args.nodes == 0 || args.threads == 0 || args.hash == 0 {
        return Err("--nodes, --threads and --hash must be positive".into());
    }
    let settings = RunSettings {
        play: PlaySettings {
            nodes: args.nodes,
            random_plies,
            openings,
        },
        seed: args.seed,
        games: args.games,
        threads: args.threads.min(256),
        hash_mb: args.hash,
        net: args.eval.network()?,
    };
    let tables = args.syzygy.as_deref().map(Tablebases::open).transpose()?;
    let progress = Progress::default();
    let start = Instant::now();
    let done = std::sync::atomic::AtomicBool::new(false);
    let summary = std::thread::scope(|scope| {
        if std::io::stderr().is_terminal() {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(500));
                    eprint!(
                        "\r{} games, {} positions, {:.0} s   ",
                        progress.games.load(Ordering::Relaxed),
                        progress.positions.load(Ordering::Relaxed),
                        start.elapsed().as_secs_f64()
                    );
                }
                eprintln!();
            });
        }
        let summary = run(&settings, tables.as_ref(), &args.output, &progress);
        done.store(true, Ordering::Relaxed);
        summary
    })?;
    let hours = start.elapsed().as_secs_f64() / 3600.0;
    println!(
        "{}: {} games resumed ({} torn bytes dropped), {} games and {} positions written in {:.0} s, {:.0} positions/hour",
        args.output.display(),
        summary.resumed_games,
        summary.dropped_bytes,
        summary.new_games,
        summary.new_positions,
        hours * 3600.0,
        summary.new_positions as f64 / hours.max(1e-9)
    );
    Ok(())
}

/// Runs `tropa datagen-stats`: games, plies, quiet positions and results of data files.
pub fn stats(files: &[PathBuf]) -> Result<(), String> {
    use crate::datagen::format::{read_path, Outcome};
    for path in files {
        let file = read_path(path).map_err(|e| e.to_string())?;
        let plies: usize = file.games.iter().map(|g| g.plies.len()).sum();
        let quiet: usize = file.games.iter().map(|g| g.samples().count()).sum();
        let count = |o: Outcome| file.games.iter().filter(|g| g.outcome == o).count();
        // How fair the starts were: the first search's score, White's view.
        let start_scores: Vec<f64> = file
            .games
            .iter()
            .filter_map(|g| {
                let score = f64::from(g.plies.first()?.score);
                Some(match g.start.side_to_move() {
                    Color::White => score,
                    Color::Black => -score,
                })
            })
            .collect();
        let mean_start = start_scores.iter().sum::<f64>() / start_scores.len().max(1) as f64;
        println!(
            "{}: seed {}, {} nodes, played with {}, {} games (White wins {}, draws {}, Black wins {}), {} plies, {} quiet positions, start score {:+.0} cp for White on average, {} torn bytes at the end",
            path.display(),
            file.header.seed,
            file.header.nodes,
            file.header.evaluation,
            file.games.len(),
            count(Outcome::WhiteWin),
            count(Outcome::Draw),
            count(Outcome::BlackWin),
            plies,
            quiet,
            mean_start,
            file.dropped
        );
    }
    Ok(())
}

/// Runs `tropa datagen-convert`: rewrites a data file (plain or .xz, any version) as a plain
/// file of the current version, checking that the new file reads back as the same games.
pub fn convert(input: &Path, output: &Path) -> Result<(), String> {
    use crate::datagen::format::{image, read, read_path, VERSION};
    let old = read_path(input).map_err(|e| e.to_string())?;
    let bytes = image(old.header, &old.games).map_err(|e| format!("{}: {e}", input.display()))?;
    let new = read(&bytes).map_err(|e| format!("the converted file does not read back: {e}"))?;
    if new.header != old.header || new.games != old.games {
        return Err("the converted file reads back as other games; nothing written".into());
    }
    crate::util::write_atomically(output, &bytes)
        .map_err(|e| format!("{}: {e}", output.display()))?;
    println!(
        "{}: {} games, {} torn bytes left out; {}: {} bytes, version {VERSION}",
        input.display(),
        old.games.len(),
        old.dropped,
        output.display(),
        bytes.len()
    );
    Ok(())
}
