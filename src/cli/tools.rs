//! The command-line tools: perft, perft suites, eval, analyse and tune.

use crate::bound::Bound;
use crate::eval::nnue::Network;
use crate::eval::tune;
use crate::explain::ending::ending;
use crate::rules::notation::{line_to_numbered_san, move_to_san};
use crate::rules::perft::{divide, parse_suite_line, perft as count};
use crate::rules::{parse_fen, side_name, Board, Game, START_FEN};
use crate::search::{Engine, Limits, Progress, Reporter, SearchControl, SearchResult};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// `tropa perft`: divide, total, time and speed.
pub fn perft(depth: u32, fen: Option<&str>, chess960: bool) -> Result<(), String> {
    let board = parse_fen(fen.unwrap_or(START_FEN), chess960).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut total = 0;
    for (mv, nodes) in divide(&board, depth) {
        say!(
            "{}: {nodes}",
            crate::rules::notation::move_to_uci(&board, mv, chess960)
        );
        total += nodes;
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    say!("\nNodes searched: {total}");
    say!(
        "time {:.3} s, {:.1} Mnps",
        seconds,
        total as f64 / seconds / 1e6
    );
    Ok(())
}

/// One count of a perft suite to check.
struct PerftJob {
    place: String,
    fen: String,
    board: crate::rules::Board,
    depth: u32,
    expected: u128,
}

/// `tropa perft-suite`: every count up to the limits must match. The counts are shared out
/// over `threads` threads (largest first, so the deep ones do not end up last on one thread);
/// mismatches are printed in file order.
pub fn perft_suite(
    files: &[PathBuf],
    max_depth: u32,
    max_nodes: Option<u64>,
    threads: usize,
) -> Result<(), String> {
    let mut jobs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        for (number, line) in text.lines().enumerate() {
            let case = match parse_suite_line(line) {
                Ok(Some(case)) => case,
                Ok(None) => continue,
                Err(e) => return Err(format!("{}:{}: {e}", file.display(), number + 1)),
            };
            for &(depth, expected) in &case.expected {
                if depth > max_depth || max_nodes.is_some_and(|m| expected > m as u128) {
                    continue;
                }
                jobs.push(PerftJob {
                    place: format!("{}:{}", file.display(), number + 1),
                    fen: case.fen.clone(),
                    board: case.board.clone(),
                    depth,
                    expected,
                });
            }
        }
    }
    let start = Instant::now();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].expected));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut counts = vec![0u64; jobs.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&i) = order.get(k) else { break };
                        done.push((i, count(&jobs[i].board, jobs[i].depth)));
                    }
                    done
                })
            })
            .collect();
        for worker in workers {
            for (i, got) in worker.join().unwrap_or_default() {
                counts[i] = got;
            }
        }
    });
    let mut failed = 0u64;
    for (job, &got) in jobs.iter().zip(&counts) {
        if got as u128 != job.expected {
            failed += 1;
            say!(
                "MISMATCH {} depth {}: expected {}, got {got}  {}",
                job.place,
                job.depth,
                job.expected,
                job.fen
            );
        }
    }
    let leaves: u64 = counts.iter().sum();
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    say!(
        "{} counts checked, {failed} mismatches, {leaves} leaves in {seconds:.1} s ({:.0} Mnps)",
        jobs.len(),
        leaves as f64 / seconds / 1e6
    );
    if failed > 0 {
        Err(format!("{failed} perft mismatches"))
    } else {
        Ok(())
    }
}

/// `tropa eval`: every hand-crafted term for both sides, then `net`'s score if one is given.
pub fn eval(fen: Option<&str>, net: Option<&Network>) -> Result<(), String> {
    let board = parse_fen(fen.unwrap_or(START_FEN), false).map_err(|e| e.to_string())?;
    for line in crate::eval::report(&board) {
        say!("{line}");
    }
    if let Some(net) = net {
        say!("{}", net.report(&board));
    }
    Ok(())
}

/// Arguments of `tropa analyse`.
pub struct AnalyseArgs {
    /// Position.
    pub fen: Option<String>,
    /// Moves played first.
    pub moves: Vec<String>,
    /// Depth limit.
    pub depth: Option<i32>,
    /// Time limit in seconds.
    pub time: Option<f64>,
    /// Lines.
    pub multipv: usize,
    /// Threads.
    pub threads: usize,
    /// The learned evaluation to search with (none: hand-crafted).
    pub net: Option<Arc<Network>>,
    /// Hash in MB.
    pub hash: usize,
    /// Syzygy tablebase folders.
    pub syzygy: Option<String>,
    /// End with PIONEER's plans for the side to move.
    pub plans: bool,
}

struct SanReporter {
    root: crate::rules::Board,
}

impl Reporter for SanReporter {
    fn progress(&mut self, p: &Progress) {
        let bound = match p.bound {
            Bound::Exact => "",
            Bound::Lower => " (lower bound)",
            Bound::Upper => " (upper bound)",
        };
        // Tablebase results are scored just below mates (`TB_WIN` minus the plies to reach
        // them); people read them as such.
        let tablebase = crate::search::syzygy::TB_WIN - crate::search::MAX_PLY as i32;
        let score = match p.score {
            crate::search::Score::Centipawns(cp) if cp >= tablebase => "TB win".to_string(),
            crate::search::Score::Centipawns(cp) if cp <= -tablebase => "TB loss".to_string(),
            crate::search::Score::Centipawns(cp) => format!("{:+.2}", cp as f64 / 100.0),
            crate::search::Score::Mate(m) => format!("#{m}"),
        };
        let line = if p.multipv > 1 {
            format!(" [{}]", p.multipv)
        } else {
            String::new()
        };
        let tbhits = if p.tbhits > 0 {
            format!(" {:>8} tbhits", p.tbhits)
        } else {
            String::new()
        };
        say!(
            "depth {:2}/{:<2}{line} {:>7}{bound}  {:>10} nodes{tbhits} {:>7} ms  {}",
            p.depth,
            p.seldepth,
            score,
            p.nodes,
            p.time_ms,
            line_to_numbered_san(&self.root, &p.pv)
        );
    }

    fn problem(&mut self, text: &str) {
        eprintln!("warning: {text}");
    }
}

/// `tropa analyse`.
pub fn analyse(args: &AnalyseArgs) -> Result<(), String> {
    let moves: Vec<&str> = args.moves.iter().map(String::as_str).collect();
    let game = Game::from_text(args.fen.as_deref(), &moves, false).map_err(|e| e.to_string())?;
    say!("{}", game.board());
    // A finished game (mate, stalemate, a dead draw…) has nothing to search.
    if let Some(end) = ending(&game) {
        say!("{end}");
        return Ok(());
    }
    let mut engine = Engine::new(args.hash, args.threads);
    engine.options.multipv = args.multipv;
    engine.options.move_overhead = 0;
    engine.set_network(args.net.clone());
    if let Some(paths) = &args.syzygy {
        engine.tablebases = Some(open_tables(paths)?);
    }
    let time = match (args.depth, args.time) {
        (None, None) => Some(5.0),
        (_, t) => t,
    };
    let limits = Limits {
        depth: args.depth,
        movetime: time.map(|t| (t * 1000.0) as u64),
        ..Default::default()
    };
    for line in crate::book::show::for_analysis(&game) {
        say!("{line}");
    }
    let mut reporter = SanReporter {
        root: game.board().clone(),
    };
    let result = engine.search(&game, &limits, &SearchControl::new(), &mut reporter);
    if let Some(best) = result.best {
        say!("best move {}", move_to_san(game.board(), best));
    }
    if args.plans {
        show_reading(game.board(), &result);
    }
    Ok(())
}

/// Why the search plays its move (`result`), in PIONEER's words: the plans that begin with it,
/// with that search's verdict, then the side to move's other plans and the opponent's threats,
/// each checked by a search of its own (the hand-crafted evaluation, as `ShowPlans`).
fn show_reading(board: &Board, result: &SearchResult) {
    let reading = crate::explain::read_move(
        board,
        Some(result),
        crate::explain::CheckLimits::default(),
        ANALYSE_PLANS,
    );
    let Some(san) = reading.san else {
        return;
    };
    if reading.reading.is_empty() {
        say!("Why {san}: PIONEER has no plan that begins with it (--no-plans omits this part)");
    } else {
        say!("Why {san}, in PIONEER's words (tropa plan explains them; --no-plans omits them):");
    }
    for line in &reading.reading {
        say!("  {line}");
    }
    let us = board.side_to_move();
    let lists = [
        (format!("{}'s other plans:", side_name(us)), &reading.others),
        (
            format!(
                "{}'s threats, its plans if it could move now:",
                side_name(!us)
            ),
            &reading.threats,
        ),
    ];
    for (title, lines) in lists {
        if !lines.is_empty() {
            say!("{title}");
            for line in lines {
                say!("  {line}");
            }
        }
    }
}

/// Plans shown in each list at the end of `tropa analyse`.
const ANALYSE_PLANS: usize = 3;

/// The tables of `--syzygy PATHS`; an error when they cannot be read or there are none.
pub(crate) fn open_tables(paths: &str) -> Result<crate::tablebases::Tablebases, String> {
    let tables = crate::tablebases::Tablebases::open(paths)?;
    if tables.files() == 0 {
        return Err(format!(
            "--syzygy: no Syzygy tables (*.rtbw, *.rtbz) in '{paths}'"
        ));
    }
    Ok(tables)
}

/// `tropa tune`.
pub fn tune(
    data: &Path,
    epochs: usize,
    learning_rate: f64,
    result_weight: f64,
    limit: usize,
    output: &Path,
) -> Result<(), String> {
    crate::util::check_writable(output)?;
    let config = tune::TuneConfig {
        result_weight,
        epochs,
        learning_rate,
        limit,
    };
    let start = Instant::now();
    let weights = tune::tune(data, &config, |line| eprintln!("{line}"))?;
    // The data file by its name alone: where it lay on the tuning machine means nothing to a
    // reader (docs/evaluation.md says where the data comes from).
    let name = data
        .file_name()
        .unwrap_or(data.as_os_str())
        .to_string_lossy();
    // The command alone: how long it took is the tuning machine's, not the weights'.
    let provenance = format!(
        "Fitted by `tropa tune --data {name} --epochs {epochs} --learning-rate {learning_rate} --result-weight {result_weight} --limit {limit}`."
    );
    tune::report(&mut std::io::stderr(), &crate::eval::WEIGHTS, &weights)
        .map_err(|e| e.to_string())?;
    tune::write_weights(output, &weights, &provenance)
        .map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    eprintln!(
        "weights written to {} (tuned in {:.0} s)",
        output.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
