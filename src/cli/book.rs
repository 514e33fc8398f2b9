//! `tropa book …`: build, inspect, convert and benchmark opening books. Each subcommand has its
//! arguments in a struct of its own and a function of its own below.

use crate::book::build::{build, BuildConfig, BuildReport, LeafRater};
use crate::book::show::{find_position, node_report, summary, Overview};
use crate::book::tree::ROOT;
use crate::book::{builtin, polyglot, Book};
use crate::cli::args;
use crate::util::check_writable;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The book subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from PGN games: keep moves played often enough, rate the leaves by search
    /// blended with the results, minimax.
    Build(BuildArgs),
    /// Print the book replies of a position in SAN with Informator symbols.
    Show(ShowArgs),
    /// Convert a Polyglot book (.bin) into a Tropa book.
    ImportPolyglot(ImportArgs),
    /// Convert a Tropa book (default: the built-in one) into a Polyglot book (.bin).
    ExportPolyglot(ExportArgs),
    /// Time book probes: median ns per probe over every line of the book.
    Bench(BenchArgs),
}

/// Arguments of `tropa book build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// PGN files.
    #[arg(long, num_args = 1.., required = true)]
    pgn: Vec<PathBuf>,
    /// Depth of the variations in plies.
    #[arg(long, default_value_t = 12, value_parser = args::plies())]
    plies: u32,
    /// Keep a move when its position occurred in at least this many games (transpositions
    /// count).
    #[arg(long, default_value_t = 2, value_parser = args::count::<u32>())]
    min_games: u32,
    /// Search depth for rating the leaves.
    #[arg(long, default_value_t = 12, value_parser = args::depth())]
    eval_depth: i32,
    /// Search threads (default: all cores).
    #[arg(long, value_parser = args::threads())]
    threads: Option<usize>,
    /// Transposition table per thread, in MB.
    #[arg(long, default_value_t = 16, value_parser = args::hash_mb())]
    hash: usize,
    /// Where to write the book.
    #[arg(short, long)]
    output: PathBuf,
}

/// Arguments of `tropa book show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Book file (default: the built-in book).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Position (found wherever it occurs in the tree).
    #[arg(long, conflicts_with = "moves")]
    fen: Option<String>,
    /// Moves from the start position, in SAN or UCI ("e4 e5 Nf3" or "e2e4 e7e5 g1f3").
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    moves: Vec<String>,
}

/// Arguments of `tropa book import-polyglot`.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// The Polyglot book.
    input: PathBuf,
    /// Where to write the Tropa book.
    #[arg(short, long)]
    output: PathBuf,
    /// Follow the book this many plies from the start position (default: every ply).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1000))]
    plies: u32,
    /// Stop growing the tree at this many nodes.
    #[arg(long, default_value_t = 2_000_000, value_parser = args::count::<usize>())]
    max_nodes: usize,
}

/// Arguments of `tropa book export-polyglot`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The Tropa book (default: the built-in book).
    input: Option<PathBuf>,
    /// Where to write the Polyglot book.
    #[arg(short, long)]
    output: PathBuf,
}

/// Arguments of `tropa book bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Book file (default: the built-in book).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Batches timed (the median is reported).
    #[arg(long, default_value_t = 15, value_parser = args::count::<usize>())]
    batches: usize,
}

/// Runs a book subcommand.
pub fn run(command: BookCommand) -> Result<(), String> {
    match command {
        BookCommand::Build(a) => build_book(a),
        BookCommand::Show(a) => show(a),
        BookCommand::ImportPolyglot(a) => import_polyglot(a),
        BookCommand::ExportPolyglot(a) => export_polyglot(a),
        BookCommand::Bench(a) => bench(a),
    }
}

fn open(path: Option<&Path>) -> Result<(Book, String), String> {
    match path {
        Some(p) => Book::load(p)
            .map(|b| (b, p.display().to_string()))
            .map_err(|e| e.to_string()),
        None => builtin()
            .map(|b| (b.clone(), "built-in".to_string()))
            .map_err(|e| e.to_string()),
    }
}

/// A progress bar over the rated leaves; drawn only on a terminal, so logs get no `\r` frames.
fn leaf_progress() -> impl FnMut(usize, usize) {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("rating leaves [{bar:30}] {pos}/{len}  {elapsed}")
            .expect("the template is valid")
            .progress_chars("#>-"),
    );
    move |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        if done == total {
            bar.finish_and_clear();
        }
    }
}

/// `tropa book build`.
fn build_book(a: BuildArgs) -> Result<(), String> {
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    check_writable(&a.output)?;
    let config = BuildConfig {
        files: a.pgn,
        plies: a.plies as usize,
        min_games: a.min_games,
        threads,
    };
    let (depth, hash_mb) = (a.eval_depth, a.hash);
    let new_rater =
        || Box::new(crate::leaf_search::SearchRater::new(depth, hash_mb)) as Box<dyn LeafRater>;
    let start = Instant::now();
    let (book, report) = build(&config, &new_rater, &mut leaf_progress(), &mut |warning| {
        eprintln!("warning: {warning}")
    })?;
    book.save(&a.output).map_err(|e| e.to_string())?;
    say_build_report(&report);
    say!(
        "{} leaf positions searched to depth {} on {threads} threads in {:.1} s",
        report.searched,
        a.eval_depth,
        start.elapsed().as_secs_f64()
    );
    say!(
        "{}; {} bytes written to {}",
        summary(&book, "built"),
        book.to_bytes().len(),
        a.output.display()
    );
    Ok(())
}

fn say_build_report(report: &BuildReport) {
    say!(
        "{} games from the start position, {} in the five trees ({} with another first move; skipped: {} from set-up positions, {} with a bad move, {} without moves)",
        report.games,
        report.in_trees,
        report.other_first_move,
        report.other_start,
        report.rejected.len(),
        report.empty
    );
}

/// The position `book show` asks about.
enum Target {
    /// A position, found wherever it occurs in the tree.
    Fen(crate::rules::Board),
    /// A line from the start position.
    Line(crate::rules::Game),
}

impl Target {
    fn of(fen: Option<String>, moves: &[String]) -> Result<Target, String> {
        match fen {
            Some(fen) => crate::rules::parse_fen(&fen, false)
                .map(Target::Fen)
                .map_err(|e| e.to_string()),
            None => {
                let words: Vec<&str> = moves
                    .iter()
                    .map(String::as_str)
                    .filter(|w| !w.is_empty())
                    .collect();
                crate::rules::Game::from_text(None, &words, false)
                    .map(Target::Line)
                    .map_err(|e| e.to_string())
            }
        }
    }
}

/// `tropa book show`.
fn show(a: ShowArgs) -> Result<(), String> {
    let (book, name) = open(a.book.as_deref())?;
    // Check the position before printing anything.
    let target = Target::of(a.fen, &a.moves)?;
    let overview = Overview::new(&book);
    say!("{}", summary(&book, &name));
    let nodes = match target {
        Target::Fen(board) => {
            let found = find_position(&book, &board);
            if found.is_empty() {
                say!("the position is not in the book");
            }
            found
        }
        Target::Line(game) => match crate::book::probe::locate(&book, &game) {
            Some(node) => vec![(node, game.board().clone())],
            None => {
                say!("the line leaves the book: the search takes over");
                Vec::new()
            }
        },
    };
    for (node, board) in nodes {
        say!();
        for line in node_report(&book, &overview, node, &board) {
            say!("{line}");
        }
    }
    Ok(())
}

/// `tropa book import-polyglot`.
fn import_polyglot(a: ImportArgs) -> Result<(), String> {
    let name = a.input.display().to_string();
    let bytes = std::fs::read(&a.input).map_err(|e| format!("{name}: {e}"))?;
    let entries = polyglot::read_entries(&bytes, &name)?;
    check_writable(&a.output)?;
    let plies = a.plies as u16;
    let (book, report) = polyglot::import(&entries, plies, a.max_nodes);
    if book.replies(ROOT).next().is_none() {
        return Err(format!(
            "{name}: no entry for the start position: nothing to import"
        ));
    }
    book.save(&a.output).map_err(|e| e.to_string())?;
    say!(
        "{} entries: {} kept, {} of them of weight 0 (kept but never played); dropped: {} illegal, {} not reached from the start position within {plies} plies{}; {} positions reached again by another move order were expanded once",
        report.entries,
        report.used,
        report.zero_weight,
        report.illegal,
        report.entries - report.used - report.illegal,
        if report.truncated {
            " (node limit reached: raise --max-nodes)"
        } else {
            ""
        },
        report.transpositions
    );
    say!(
        "{}; written to {}",
        summary(&book, "imported"),
        a.output.display()
    );
    Ok(())
}

/// `tropa book export-polyglot`.
fn export_polyglot(a: ExportArgs) -> Result<(), String> {
    let (book, name) = open(a.input.as_deref())?;
    check_writable(&a.output)?;
    let entries = polyglot::export(&book);
    crate::util::write_atomically(&a.output, &polyglot::write_entries(&entries))
        .map_err(|e| format!("cannot write {}: {e}", a.output.display()))?;
    say!(
        "{} Polyglot entries from book {name} written to {}",
        entries.len(),
        a.output.display()
    );
    Ok(())
}

/// `tropa book bench`.
fn bench(a: BenchArgs) -> Result<(), String> {
    let (book, name) = open(a.book.as_deref())?;
    say!("{}", summary(&book, &name));
    let r = crate::book::bench::bench(&book, a.batches);
    say!(
        "{} lines (mean {:.1} plies), median of {} batches:",
        r.lines,
        r.mean_plies,
        r.batches
    );
    say!(
        "walk   {:.1} ns per probe (encoded line, arrays only)",
        r.walk_ns
    );
    say!(
        "choose {:.1} ns per probe (replay and encode the game, walk, pick)",
        r.choose_ns
    );
    Ok(())
}
