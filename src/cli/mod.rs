//! The command line: `tropa` alone speaks UCI; subcommands run the tools.

pub mod bench;
pub mod book;
mod datagen;
mod leaf_search;
mod learned;
mod pioneer;
mod tools;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Tropa, a chess engine in the classical Soviet school. Without a subcommand it speaks UCI on
/// standard input and output.
#[derive(Parser, Debug)]
#[command(name = "tropa", version, about)]
pub struct Cli {
    /// What to do (default: UCI).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Speak UCI on standard input/output (the default).
    Uci,
    /// Fixed-depth search over the bench positions; last line "N nodes M nps".
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Search threads (node counts are deterministic only with 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Guide the search with PIONEER's zone moves (as the UCI option PioneerGuide).
        #[arg(long)]
        pioneer_guide: bool,
        /// Evaluate with this net (as the UCI option EvalFile); default: hand-crafted.
        #[arg(long)]
        eval_file: Option<PathBuf>,
    },
    /// Count leaf nodes of the move tree, split by root move.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Read castling rights as Chess960 (Shredder-FEN or X-FEN).
        #[arg(long)]
        chess960: bool,
    },
    /// Check every count of perft suites (EPD lines "FEN ;D1 n ;D2 n …").
    PerftSuite {
        /// Suite files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Skip depths deeper than this.
        #[arg(long, default_value_t = 4)]
        max_depth: u32,
        /// Skip expected counts larger than this.
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Threads counting in parallel (one position count per thread at a time).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Print every evaluation term for both sides (and a net's score with --eval-file).
    Eval {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Also show this net's evaluation.
        #[arg(long)]
        eval_file: Option<PathBuf>,
    },
    /// Analyse a position, printing each iteration with the main line in SAN.
    Analyse {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (UCI notation) played from the position first.
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
        /// Search depth.
        #[arg(long)]
        depth: Option<i32>,
        /// Search time in seconds (default 5 when no depth is given).
        #[arg(long)]
        time: Option<f64>,
        /// Number of lines.
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Evaluate with this net (as the UCI option EvalFile); default: hand-crafted.
        #[arg(long)]
        eval_file: Option<PathBuf>,
    },
    /// PIONEER: the zones of play of a position explained as plans (seed 004).
    Plan {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Only this side's plans (white or black).
        #[arg(long)]
        side: Option<String>,
        /// Also draw the board with the trajectories as SVG into this file.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Time the analysis over the bench positions instead (median, worst, zones).
        #[arg(long)]
        bench: bool,
    },
    /// PIONEER's zone search: only moves on the zones' trajectories, both sides (study mode).
    Study {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Search horizon in plies (default: from the zones' timing).
        #[arg(long)]
        depth: Option<u32>,
        /// Also print the searched tree.
        #[arg(long)]
        tree: bool,
        /// Stop a tree at this many positions (its verdict is then not proven).
        #[arg(long, default_value_t = crate::pioneer::study::MAX_POSITIONS)]
        max_positions: usize,
    },
    /// Opening books: build, show, import/export Polyglot, bench.
    Book {
        /// What to do with books.
        #[command(subcommand)]
        command: book::BookCommand,
    },
    /// Fit the evaluation weights to labelled positions (Texel method).
    Tune {
        /// Positions, one "FEN;result;score" per line (plain or .xz).
        #[arg(long)]
        data: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 1.0)]
        learning_rate: f64,
        /// Weight of the game result in the target (the rest: the engine score).
        #[arg(long, default_value_t = 0.5)]
        result_weight: f64,
        /// Use at most this many positions (0 = all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
        /// Where to write the weights.
        #[arg(short, long, default_value = "src/eval/weights.rs")]
        output: PathBuf,
    },
    /// Self-play games at a node limit, stored for training the learned evaluation.
    Datagen(datagen::DatagenArgs),
    /// Games, plies, quiet positions and results of `tropa datagen` files (plain or .xz).
    DatagenStats {
        /// Data files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Uci) => {
            crate::uci::run(&mut std::io::stdin().lock(), crate::uci::Output::stdout());
            Ok(())
        }
        Some(Command::Bench {
            depth,
            hash,
            threads,
            pioneer_guide,
            eval_file,
        }) => learned::load(eval_file.as_deref()).map(|net| {
            bench::run_with(
                depth.clamp(1, 64),
                hash.max(1),
                threads.clamp(1, 256),
                pioneer_guide,
                net,
            );
        }),
        Some(Command::Perft {
            depth,
            fen,
            chess960,
        }) => tools::perft(depth, fen.as_deref(), chess960),
        Some(Command::PerftSuite {
            files,
            max_depth,
            max_nodes,
            threads,
        }) => tools::perft_suite(&files, max_depth, max_nodes, threads),
        Some(Command::Eval { fen, eval_file }) => learned::load(eval_file.as_deref())
            .and_then(|net| tools::eval(fen.as_deref(), net.as_deref())),
        Some(Command::Analyse {
            fen,
            moves,
            depth,
            time,
            multipv,
            threads,
            hash,
            eval_file,
        }) => learned::load(eval_file.as_deref()).and_then(|net| {
            tools::analyse(&tools::AnalyseArgs {
                fen,
                moves,
                depth,
                time,
                multipv,
                threads,
                hash,
                net,
            })
        }),
        Some(Command::Plan {
            fen,
            side,
            svg,
            bench,
        }) => pioneer::plan(fen.as_deref(), side.as_deref(), svg.as_deref(), bench),
        Some(Command::Study {
            fen,
            depth,
            tree,
            max_positions,
        }) => pioneer::study(fen.as_deref(), depth, tree, max_positions),
        Some(Command::Book { command }) => book::run(command),
        Some(Command::Tune {
            data,
            epochs,
            learning_rate,
            result_weight,
            limit,
            output,
        }) => tools::tune(&data, epochs, learning_rate, result_weight, limit, &output),
        Some(Command::Datagen(args)) => datagen::datagen(&args),
        Some(Command::DatagenStats { files }) => datagen::stats(&files),
    };
    match result {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("tropa: {message}");
            1
        }
    }
}
