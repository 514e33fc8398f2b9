//! The command line: `tropa` alone speaks UCI; subcommands run the tools.
//!
//! Every tool prints through `say!` (a closed pipe ends it quietly), validates its numbers with
//! the parsers of `args` (clap refuses them before any work), reads moves in SAN or UCI, and
//! checks the files it will write before it starts.

/// Prints a line on standard output through `out::line`.
macro_rules! say {
    () => {
        $crate::cli::out::line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::cli::out::line(format_args!($($arg)*))
    };
}

mod annotate;
mod args;
pub mod bench;
pub mod book;
mod combination_measure;
mod datagen;
pub mod epd;
mod learned;
pub mod out;
mod pioneer;
mod plan_measure;
mod play;
mod play_view;
mod study_set;
mod tools;
mod wdl_fit;

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
    Uci {
        /// Play the whole session at this strength level (-10 to 20, fractions allowed), over
        /// Skill Level and UCI_Elo: how scripts/calibrate_levels.py measures the levels UCI_Elo
        /// maps to, below Skill Level 0 too.
        #[arg(long, value_parser = args::strength_level, allow_negative_numbers = true)]
        level: Option<f64>,
    },
    /// Fixed-depth search over the bench positions; last line "N nodes M nps".
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = args::depth())]
        depth: i32,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16, value_parser = args::hash_mb())]
        hash: usize,
        /// Search threads (node counts are deterministic only with 1).
        #[arg(long, default_value_t = 1, value_parser = args::threads())]
        threads: usize,
        /// Guide the search with PIONEER's zone moves (as the UCI option PioneerGuide).
        #[arg(long)]
        pioneer_guide: bool,
        /// Which evaluation the search uses.
        #[command(flatten)]
        eval: learned::EvalArgs,
    },
    /// Count leaf nodes of the move tree, split by root move.
    Perft {
        /// Depth in plies.
        #[arg(value_parser = args::plies())]
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
        #[arg(long, default_value_t = 4, value_parser = args::plies())]
        max_depth: u32,
        /// Skip expected counts larger than this.
        #[arg(long, value_parser = args::count::<u64>())]
        max_nodes: Option<u64>,
        /// Threads counting in parallel (one position count per thread at a time).
        #[arg(long, default_value_t = 1, value_parser = args::threads())]
        threads: usize,
    },
    /// Print every hand-crafted evaluation term for both sides, then the net's score (the
    /// built-in net, or --eval-file; none with --hce).
    Eval {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Which evaluation the search uses.
        #[command(flatten)]
        eval: learned::EvalArgs,
    },
    /// Analyse a position, printing each iteration with the main line in SAN.
    Analyse {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the position first, in SAN or UCI ("e4 e5 Nf3" or "e2e4 e7e5").
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
        /// Search depth.
        #[arg(long, value_parser = args::depth())]
        depth: Option<i32>,
        /// Search time in seconds (default 5 when no depth is given).
        #[arg(long, value_parser = args::seconds)]
        time: Option<f64>,
        /// Number of lines.
        #[arg(long, default_value_t = 1, value_parser = args::multipv())]
        multipv: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = args::threads())]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64, value_parser = args::hash_mb())]
        hash: usize,
        /// Syzygy tablebase folders, separated by ':' (as the UCI option SyzygyPath).
        #[arg(long)]
        syzygy: Option<String>,
        /// Do not end with PIONEER's plans for the side to move.
        #[arg(long)]
        no_plans: bool,
        /// Which evaluation the search uses.
        #[command(flatten)]
        eval: learned::EvalArgs,
    },
    /// PIONEER: the zones of play of a position explained as plans (after Botvinnik).
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
        /// Plans drawn in the SVG: the first N as the text numbers them.
        #[arg(long, default_value_t = 3, value_parser = args::count::<usize>())]
        top: usize,
        /// Time the analysis over the bench positions instead (median, worst, zones).
        #[arg(long)]
        bench: bool,
        /// Depth of the search that checks each plan's first move (default: depth 8, then 10
        /// while a node budget allows).
        #[arg(long, value_parser = args::depth())]
        check_depth: Option<i32>,
        /// Show PIONEER's plans without checking them by the search.
        #[arg(long)]
        no_check: bool,
        /// Write the checked plans as one JSON object (best first) instead of text.
        #[arg(long, conflicts_with_all = ["no_check", "bench", "svg"])]
        json: bool,
        /// Instead, measure the plans against a deeper search over positions of these games
        /// (moves 15–30 by a fixed rule).
        #[arg(long, conflicts_with_all = ["no_check", "bench", "svg", "json", "fen"])]
        measure: Option<PathBuf>,
        /// Instead, measure the plans over a set of combination positions (EPD: the key move as
        /// `bm`, the labelled defender and method as `c1` and `c2`): is the key move among the
        /// first 3 plans the search does not refute?
        #[arg(long, conflicts_with_all = ["no_check", "bench", "svg", "json", "fen", "measure"])]
        combinations: Option<PathBuf>,
        /// With --combinations: also search each record by Tropa's own search alone (MultiPV 3)
        /// with the nodes its plans' check spent, and count the key move among its 3 lines.
        #[arg(long, requires = "combinations")]
        control: bool,
        /// Positions measured with --measure or --combinations.
        #[arg(long, default_value_t = 100, value_parser = args::count::<usize>())]
        positions: usize,
        /// Depth of the referee search of --measure.
        #[arg(long, default_value_t = 14, value_parser = args::depth())]
        referee_depth: i32,
    },
    /// PIONEER's zone search (zone moves and combinations, both sides), then a proof of its
    /// verdict with the defender on every legal move (study mode).
    Study {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Run every record of a study set instead: EPD with the key move (`bm`) and the
        /// claimed result for the side to move (`c1 "win"` or `c1 "draw"`); one line per record,
        /// then the totals.
        #[arg(long, conflicts_with_all = ["fen", "tree"])]
        epd: Option<PathBuf>,
        /// With `--epd`: the claimed result of every record, instead of each record's `c1`
        /// (for a set whose `c1` says something else, such as the combination set).
        #[arg(long, value_enum, requires = "epd")]
        claim: Option<study_set::Claim>,
        /// Search horizon in plies (default: from the zones' timing).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: Option<u32>,
        /// Also print the searched tree.
        #[arg(long)]
        tree: bool,
        /// Stop a zone-search tree at this many positions (its verdict is then not proven).
        #[arg(long, default_value_t = crate::pioneer::uses::study::MAX_POSITIONS, value_parser = args::count::<usize>())]
        max_positions: usize,
        /// Largest tree of the proof from the start position (a first move's proof gets a
        /// quarter, all first moves together as much); the budget grows from 500 in rounds
        /// shown on standard error, and a proof that only holds goes two plies deeper at a
        /// time (up to 15) within the same budget.
        #[arg(long, default_value_t = crate::pioneer::uses::proof::MAX_PROOF_POSITIONS, value_parser = args::count::<usize>())]
        proof_positions: usize,
        /// Syzygy tablebase folders, separated by ':': every position of a tree that the tables
        /// cover (but the searched position itself) is valued by them.
        #[arg(long)]
        syzygy: Option<String>,
        /// Depth of the engine's search that judges every horizon leaf of a proof (a leaf is
        /// then a win only where the search sees one too, and no hold where it sees the
        /// attacker decisively behind), with a shallow search (`proof::ESTIMATE_DEPTH` plies)
        /// ordering the proof's moves; 0: the zone model alone, in the zones' order.
        #[arg(long, default_value_t = crate::pioneer::uses::proof::LEAF_DEPTH, value_parser = clap::value_parser!(u32).range(0..=20))]
        leaf_depth: u32,
        /// With `--epd`: records run at once, each on a thread of its own (the verdicts and
        /// trees are those of one thread; only the times change).
        #[arg(long, value_parser = args::threads())]
        threads: Option<usize>,
        /// Which evaluation the search uses.
        #[command(flatten)]
        eval: learned::EvalArgs,
    },
    /// Opening books: build, show, import/export Polyglot, bench.
    Book {
        /// What to do with books.
        #[command(subcommand)]
        command: book::BookCommand,
    },
    /// Annotate the games of a PGN file with evaluations, ?!/?/?? and the better lines.
    ///
    /// Evaluations as [%eval] comments, the better move as a variation with ?!, ? or ?? where the
    /// played move loses winning chances (0.1, 0.2, 0.3 on lichess's curve), PIONEER's plan at
    /// mistakes and blunders.
    Annotate {
        /// The games.
        input: PathBuf,
        /// Where to write the annotated games (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// How long each position is searched.
        #[command(flatten)]
        limits: PositionLimits,
        /// Threads in all: games are annotated side by side, a game per thread.
        #[arg(long, default_value_t = 1, value_parser = args::threads())]
        threads: usize,
        /// Transposition table size per game being annotated, in MB.
        #[arg(long, default_value_t = 64, value_parser = args::hash_mb())]
        hash: usize,
        /// Which evaluation the search uses.
        #[command(flatten)]
        eval: learned::EvalArgs,
    },
    /// Play a game against Tropa in the terminal (moves in SAN or UCI; type help).
    Play {
        /// Strength from 1 (depth 1) to 10 (no depth limit).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10))]
        level: u32,
        /// Time control: minutes + increment seconds for each side, e.g. 5+3 (default: untimed,
        /// Tropa takes a second a move).
        #[arg(long, value_parser = play::parse_clock)]
        clock: Option<(std::time::Duration, std::time::Duration)>,
        /// Your colour.
        #[arg(long, default_value = "white", value_parser = play::parse_color)]
        color: crate::rules::Color,
        /// Start position.
        #[arg(long)]
        fen: Option<String>,
        /// Where the game is saved as PGN (default: tropa-game-SECONDS.pgn here).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64, value_parser = args::hash_mb())]
        hash: usize,
        /// Which evaluation the search uses.
        #[command(flatten)]
        eval: learned::EvalArgs,
    },
    /// Run a test suite of EPD records (bm, am, STS c0 points) and print the score.
    Epd {
        /// The suite.
        file: PathBuf,
        /// How long each position is searched.
        #[command(flatten)]
        limits: PositionLimits,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = args::threads())]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64, value_parser = args::hash_mb())]
        hash: usize,
        /// List every miss with the move played and the moves wanted.
        #[arg(long, short)]
        verbose: bool,
        /// Which evaluation the search uses.
        #[command(flatten)]
        eval: learned::EvalArgs,
    },
    /// Fit the evaluation weights to labelled positions (Texel method).
    Tune {
        /// Positions, one "FEN;result;score" per line (plain or .xz).
        #[arg(long)]
        data: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 300, value_parser = args::count::<usize>())]
        epochs: usize,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 1.0, value_parser = args::positive)]
        learning_rate: f64,
        /// Weight of the game result in the target (the rest: the engine score).
        #[arg(long, default_value_t = 0.5, value_parser = args::fraction)]
        result_weight: f64,
        /// Use at most this many positions (0 = all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
        /// Where to write the weights: in the source tree, `src/eval/weights.rs` (checked before
        /// the fit starts).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Fit the win/draw/loss model of UCI_ShowWDL to game results; prints the parameters.
    FitWdl {
        /// Positions, one "FEN;result[;score]" per line (plain or .xz).
        #[arg(long)]
        data: PathBuf,
        /// Use at most this many positions (0 = all).
        #[arg(long, default_value_t = 0)]
        limit: usize,
        /// Adam iterations over the whole data.
        #[arg(long, default_value_t = 400)]
        iterations: usize,
    },
    /// Self-play games at a node limit, stored for training the learned evaluation.
    Datagen(datagen::DatagenArgs),
    /// Games, plies, quiet positions and results of `tropa datagen` files (plain or .xz).
    DatagenStats {
        /// Data files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// A local web page to analyse a position: the board, the live search and PIONEER's plans
    /// drawn on it (docs/serve.md). Ctrl-C ends it.
    Serve {
        /// The address to listen on; anything but a loopback address lets other machines in.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port (0: a free one, printed at start).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Start a browser on the page ($BROWSER, else xdg-open).
        #[arg(long)]
        open: bool,
    },
    /// The search constants an SPSA run may tune, one line each in the SPSA input format of
    /// OpenBench and scripts/spsa.py (name, int, default, min, max, C_end, R_end); a build
    /// with the cargo feature `tune` takes them as UCI options.
    Tunables,
    /// Rewrites a `tropa datagen` file (plain or .xz, any version) in the current, compact
    /// format, as a plain file.
    DatagenConvert {
        /// The file to read.
        input: PathBuf,
        /// The file to write (atomically).
        output: PathBuf,
    },
}

/// The limits of a search per position (`annotate`, `epd`): one of seconds, nodes or depth.
#[derive(clap::Args, Debug)]
pub struct PositionLimits {
    /// Seconds per position (the default, 1 s, when no limit is given).
    #[arg(long, value_parser = args::seconds, conflicts_with_all = ["nodes", "depth"])]
    movetime: Option<f64>,
    /// Nodes per position.
    #[arg(long, value_parser = args::count::<u64>(), conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Depth per position.
    #[arg(long, value_parser = args::depth())]
    depth: Option<i32>,
}

impl PositionLimits {
    /// The search limits: the one given, or one second.
    fn limits(&self) -> crate::search::Limits {
        let movetime = match (self.movetime, self.nodes, self.depth) {
            (None, None, None) => Some(1.0),
            (t, _, _) => t,
        };
        crate::search::Limits {
            movetime: movetime.map(|t| (t * 1000.0) as u64),
            nodes: self.nodes,
            depth: self.depth,
            ..Default::default()
        }
    }
}

/// The plan check of `--check-depth`: one round at that depth, or the default rounds.
fn check_limits(check_depth: Option<i32>) -> crate::explain::CheckLimits {
    check_depth.map_or_else(Default::default, crate::explain::CheckLimits::fixed)
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    // No subcommand is a UCI session at the options' strength.
    let command = cli.command.unwrap_or(Command::Uci { level: None });
    let result = match command {
        Command::Uci { level } => {
            crate::uci::run(
                &mut std::io::stdin().lock(),
                crate::uci::Output::stdout(),
                level,
            );
            Ok(())
        }
        Command::Bench {
            depth,
            hash,
            threads,
            pioneer_guide,
            eval,
        } => eval.network().map(|net| {
            bench::run_with(depth, hash, threads, pioneer_guide, net);
        }),
        Command::Perft {
            depth,
            fen,
            chess960,
        } => tools::perft(depth, fen.as_deref(), chess960),
        Command::PerftSuite {
            files,
            max_depth,
            max_nodes,
            threads,
        } => tools::perft_suite(&files, max_depth, max_nodes, threads),
        Command::Eval { fen, eval } => eval
            .network()
            .and_then(|net| tools::eval(fen.as_deref(), net.as_deref())),
        Command::Analyse {
            fen,
            moves,
            depth,
            time,
            multipv,
            threads,
            hash,
            syzygy,
            no_plans,
            eval,
        } => eval.network().and_then(|net| {
            tools::analyse(&tools::AnalyseArgs {
                fen,
                moves,
                depth,
                time,
                multipv,
                threads,
                hash,
                syzygy,
                plans: !no_plans,
                net,
            })
        }),
        Command::Plan {
            check_depth,
            measure: Some(games),
            positions,
            referee_depth,
            ..
        } => plan_measure::measure(&games, positions, check_limits(check_depth), referee_depth),
        Command::Plan {
            check_depth,
            combinations: Some(set),
            positions,
            control,
            ..
        } => combination_measure::measure(&set, positions, check_limits(check_depth), control),
        Command::Plan {
            fen,
            side,
            svg,
            top,
            bench,
            check_depth,
            no_check,
            json,
            ..
        } => pioneer::plan(
            fen.as_deref(),
            side.as_deref(),
            svg.as_deref(),
            top,
            bench,
            (!no_check).then(|| check_limits(check_depth)),
            json,
        ),
        Command::Study {
            fen,
            epd,
            claim,
            depth,
            tree,
            max_positions,
            proof_positions,
            syzygy,
            leaf_depth,
            threads,
            eval,
        } => eval
            .network()
            .and_then(|net| {
                pioneer::StudyOptions::new(
                    depth,
                    tree,
                    max_positions,
                    proof_positions,
                    syzygy,
                    (leaf_depth > 0).then_some((leaf_depth, net)),
                )
            })
            .and_then(|options| match (epd, threads) {
                (Some(path), threads) => {
                    study_set::study_set(&path, &options, threads.unwrap_or(1), claim)
                }
                (None, Some(_)) => Err("--threads runs the records of --epd at once: \
                                        give --epd, or leave --threads out"
                    .to_string()),
                (None, None) => pioneer::study(fen.as_deref(), &options),
            }),
        Command::Book { command } => book::run(command),
        Command::Annotate {
            input,
            output,
            limits,
            threads,
            hash,
            eval,
        } => eval.network().and_then(|net| {
            annotate::run(&annotate::AnnotateArgs {
                input,
                output,
                limits: limits.limits(),
                threads,
                hash,
                net,
            })
        }),
        Command::Play {
            level,
            clock,
            color,
            fen,
            save,
            hash,
            eval,
        } => eval.network().and_then(|net| {
            let save = save.unwrap_or_else(|| {
                let secs = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                PathBuf::from(format!("tropa-game-{secs}.pgn"))
            });
            play::run(play::PlayArgs {
                level,
                clock,
                color,
                fen,
                save,
                hash,
                net,
            })
        }),
        Command::Epd {
            file,
            limits,
            threads,
            hash,
            verbose,
            eval,
        } => eval.network().and_then(|net| {
            let options = epd::EpdArgs {
                limits: limits.limits(),
                threads,
                hash,
                verbose,
                net,
            };
            epd::run(&file, &options)
        }),
        Command::Tune {
            data,
            epochs,
            learning_rate,
            result_weight,
            limit,
            output,
        } => tools::tune(&data, epochs, learning_rate, result_weight, limit, &output),
        Command::FitWdl {
            data,
            limit,
            iterations,
        } => wdl_fit::fit(&data, limit, iterations, |line| eprintln!("{line}")).map(|m| {
            println!(
                "a: [{:.1}, {:.1}], b: [{:.1}, {:.1}]",
                m.a[0], m.a[1], m.b[0], m.b[1]
            )
        }),
        Command::Datagen(args) => datagen::datagen(&args),
        Command::DatagenStats { files } => datagen::stats(&files),
        Command::DatagenConvert { input, output } => datagen::convert(&input, &output),
        Command::Serve { host, port, open } => {
            crate::serve::serve(&crate::serve::ServeOptions { host, port, open })
        }
        Command::Tunables => {
            for tunable in crate::search::params::TUNABLES {
                println!("{}", tunable.spsa_line());
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("tropa: {message}");
            1
        }
    }
}
