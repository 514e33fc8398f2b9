//! `tropa book …`: build, inspect, convert and benchmark opening books.

use crate::book::build::{build, BuildConfig};
use crate::book::show::{find_position, node_report, summary, Overview};
use crate::book::tree::ROOT;
use crate::book::{builtin, polyglot, Book};
use clap::Subcommand;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The book subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from PGN games: keep moves played often enough, rate the leaves by search
    /// blended with the results, minimax.
    Build {
        /// PGN files.
        #[arg(long, num_args = 1.., required = true)]
        pgn: Vec<PathBuf>,
        /// Depth of the variations in plies.
        #[arg(long, default_value_t = 12)]
        plies: usize,
        /// Keep a move when its position occurred in at least this many games (transpositions
        /// count).
        #[arg(long, default_value_t = 2)]
        min_games: u32,
        /// Search depth for rating the leaves.
        #[arg(long, default_value_t = 12)]
        eval_depth: i32,
        /// Search threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Transposition table per thread, in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Where to write the book.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Print the book replies of a position in SAN with Informator symbols.
    Show {
        /// Book file (default: the built-in book).
        #[arg(long)]
        book: Option<PathBuf>,
        /// Position (found wherever it occurs in the tree).
        #[arg(long, conflicts_with = "moves")]
        fen: Option<String>,
        /// Moves from the start position (UCI notation).
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
    },
    /// Convert a Polyglot book (.bin) into a Tropa book.
    ImportPolyglot {
        /// The Polyglot book.
        input: PathBuf,
        /// Where to write the Tropa book.
        #[arg(short, long)]
        output: PathBuf,
        /// Follow the book this many plies from the start position (default: every ply).
        #[arg(long, default_value_t = 1000)]
        plies: u16,
        /// Stop growing the tree at this many nodes.
        #[arg(long, default_value_t = 2_000_000)]
        max_nodes: usize,
    },
    /// Convert a Tropa book (default: the built-in one) into a Polyglot book (.bin).
    ExportPolyglot {
        /// The Tropa book (default: the built-in book).
        input: Option<PathBuf>,
        /// Where to write the Polyglot book.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Time book probes: median ns per probe over every line of the book.
    Bench {
        /// Book file (default: the built-in book).
        #[arg(long)]
        book: Option<PathBuf>,
        /// Batches timed (the median is reported).
        #[arg(long, default_value_t = 15)]
        batches: usize,
    },
}

/// Prints a line; a closed pipe (`tropa book show | head`) ends the output quietly.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
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

/// The position `book show` asks about.
enum Target {
    /// A position, found wherever it occurs in the tree.
    Fen(crate::rules::Board),
    /// A line from the start position.
    Line(crate::rules::Game),
}

/// Fails early, before a long build, when the output's folder does not exist.
fn check_writable(output: &Path) -> Result<(), String> {
    match output.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(format!(
            "{}: the folder {} does not exist",
            output.display(),
            dir.display()
        )),
        _ => Ok(()),
    }
}

fn progress_bar(done: usize, total: usize, start: Instant) {
    let width = 30;
    let filled = (done * width).checked_div(total).unwrap_or(width);
    let line = format!(
        "rating leaves [{}{}] {done}/{total}  {:.0} s",
        "#".repeat(filled),
        "-".repeat(width - filled),
        start.elapsed().as_secs_f64()
    );
    let mut err = std::io::stderr();
    if err.is_terminal() {
        let _ = write!(err, "\r{line}");
        if done == total {
            let _ = writeln!(err);
        }
    } else {
        let _ = writeln!(err, "{line}");
    }
}

/// Runs a book subcommand.
pub fn run(command: BookCommand) -> Result<(), String> {
    match command {
        BookCommand::Build {
            pgn,
            plies,
            min_games,
            eval_depth,
            threads,
            hash,
            output,
        } => {
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            check_writable(&output)?;
            let config = BuildConfig {
                files: pgn,
                plies,
                min_games,
                eval_depth,
                threads,
                hash_mb: hash,
            };
            let start = Instant::now();
            let mut last_decile = usize::MAX;
            let terminal = std::io::stderr().is_terminal();
            let (book, report) = build(
                &config,
                &mut |done, total| {
                    let decile = (done * 10).checked_div(total).unwrap_or(10);
                    if terminal || decile != last_decile {
                        progress_bar(done, total, start);
                        last_decile = decile;
                    }
                },
                &mut |warning| eprintln!("warning: {warning}"),
            )?;
            book.save(&output).map_err(|e| e.to_string())?;
            say!(
                "{} games from the start position, {} in the five trees ({} with another first move; skipped: {} from set-up positions, {} with a bad move, {} without moves)",
                report.games,
                report.in_trees,
                report.other_first_move,
                report.other_start,
                report.rejected.len(),
                report.empty
            );
            say!(
                "{} leaf positions searched to depth {eval_depth} on {threads} threads in {:.1} s",
                report.searched,
                start.elapsed().as_secs_f64()
            );
            say!(
                "{}; {} bytes written to {}",
                summary(&book, "built"),
                book.to_bytes().len(),
                output.display()
            );
            Ok(())
        }
        BookCommand::Show { book, fen, moves } => {
            let (book, name) = open(book.as_deref())?;
            // Check the position before printing anything.
            let target = match fen {
                Some(fen) => {
                    Target::Fen(crate::rules::parse_fen(&fen, false).map_err(|e| e.to_string())?)
                }
                None => {
                    let words: Vec<&str> = moves
                        .iter()
                        .map(String::as_str)
                        .filter(|w| !w.is_empty())
                        .collect();
                    Target::Line(
                        crate::rules::Game::from_uci(None, &words, false)
                            .map_err(|e| e.to_string())?,
                    )
                }
            };
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
        BookCommand::ImportPolyglot {
            input,
            output,
            plies,
            max_nodes,
        } => {
            let name = input.display().to_string();
            let bytes = std::fs::read(&input).map_err(|e| format!("{name}: {e}"))?;
            let entries = polyglot::read_entries(&bytes, &name)?;
            check_writable(&output)?;
            let (book, report) = polyglot::import(&entries, plies.max(1), max_nodes.max(1));
            if book.replies(ROOT).next().is_none() {
                return Err(format!(
                    "{name}: no entry for the start position: nothing to import"
                ));
            }
            book.save(&output).map_err(|e| e.to_string())?;
            say!(
                "{} entries: {} kept, {} of them of weight 0 (kept but never played); dropped: {} illegal, {} not reached from the start position within {plies} plies{}; {} positions reached again by another move order were expanded once",
                report.entries,
                report.used,
                report.zero_weight,
                report.illegal,
                report.entries - report.used - report.illegal,
                if report.truncated { " (node limit reached: raise --max-nodes)" } else { "" },
                report.transpositions
            );
            say!(
                "{}; written to {}",
                summary(&book, "imported"),
                output.display()
            );
            Ok(())
        }
        BookCommand::ExportPolyglot { input, output } => {
            let (book, name) = open(input.as_deref())?;
            let entries = polyglot::export(&book);
            crate::util::write_atomically(&output, &polyglot::write_entries(&entries))
                .map_err(|e| format!("{}: {e}", output.display()))?;
            say!(
                "{} Polyglot entries from book {name} written to {}",
                entries.len(),
                output.display()
            );
            Ok(())
        }
        BookCommand::Bench { book, batches } => {
            let (book, name) = open(book.as_deref())?;
            say!("{}", summary(&book, &name));
            let r = crate::book::bench::bench(&book, batches);
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
    }
}
