//! `tropa plan` and `tropa study`: PIONEER's plans in words and its zone search.
//!
//! Design note: `run_study` is the one run of a study, whether `--fen` asks for it or a study
//! set (`study_set.rs`) does, so the set measures what a user sees; only the report differs.

use crate::cli::bench::POSITIONS;
use crate::eval::nnue::Network;
use crate::explain::json::plans_json;
use crate::explain::{check_plans, checked_report, ranked, zone_order, CheckLimits, PlanStatus};
use crate::leaf_search::study_judge;
use crate::pioneer::attacks::attack::TrajectoryLimits;
use crate::pioneer::play::moves::StepRole;
use crate::pioneer::uses::plan::report_of;
use crate::pioneer::uses::proof::{prove_study, ProofRound, StudyProofs};
use crate::pioneer::uses::study::{solve, Study, StudyResult, StudySettings};
use crate::pioneer::uses::svg::draw;
use crate::pioneer::zones::analysis::Analysis;
use crate::rules::notation::line_to_numbered_san;
use crate::rules::{parse_fen, side_name, Board, Color, Move, START_FEN};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn parse_side(side: Option<&str>) -> Result<Option<Color>, String> {
    match side.map(str::to_ascii_lowercase).as_deref() {
        None => Ok(None),
        Some("white" | "w") => Ok(Some(Color::White)),
        Some("black" | "b") => Ok(Some(Color::Black)),
        Some(other) => Err(format!("--side must be white or black, not '{other}'")),
    }
}

/// `tropa plan`: the plans of a position, each first move checked by the search within
/// `check` unless that is `None`, as text or (`json`) as one JSON object,
/// optionally drawn as SVG; or, with `--bench`, the time of the analysis over the bench
/// positions.
pub fn plan(
    fen: Option<&str>,
    side: Option<&str>,
    svg: Option<&Path>,
    top: usize,
    bench: bool,
    check: Option<CheckLimits>,
    json: bool,
) -> Result<(), String> {
    let side = parse_side(side)?;
    if bench {
        return plan_bench();
    }
    let board = parse_fen(fen.unwrap_or(START_FEN), false).map_err(|e| e.to_string())?;
    if let Some(path) = svg {
        crate::util::check_writable(path)?;
    }
    let start = Instant::now();
    let analysis = Analysis::new(&board, TrajectoryLimits::default());
    if json {
        let limits = check.unwrap_or_default();
        say!("{}", plans_json(&board, &analysis, side, limits));
        return Ok(());
    }
    // The zones in the order the text numbers them: best first when checked.
    let (report, order, combination) = match check {
        Some(limits) => {
            let checks = check_plans(&board, &analysis, limits);
            let order = zone_order(&checks);
            // The picture shows the best combination the search does not refute.
            let combination = ranked(&checks).into_iter().find_map(|c| match c.role {
                StepRole::Combination(k) if c.status != PlanStatus::Refuted => Some(k),
                _ => None,
            });
            let report = checked_report(&board, &analysis, side, &checks);
            (report, order, combination)
        }
        None => (
            report_of(&board, &analysis, side),
            (0..analysis.zones.len()).collect(),
            None,
        ),
    };
    let elapsed = start.elapsed();
    // The picture is written before the text, which may go to a reader that stops early.
    if let Some(path) = svg {
        let shown: Vec<usize> = order
            .into_iter()
            .filter(|&i| side.is_none_or(|s| s == analysis.zones[i].side()))
            .take(top)
            .collect();
        let shown_combination =
            combination.filter(|_| side.is_none_or(|s| s == board.side_to_move()));
        let picture = draw(&board, &analysis, &shown, side, shown_combination.as_ref());
        crate::util::write_atomically(path, picture.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    for line in report {
        say!("{line}");
    }
    say!("analysed in {:.1} ms", elapsed.as_secs_f64() * 1000.0);
    if let Some(path) = svg {
        say!(
            "board with the first {top} plans' trajectories written to {}",
            path.display()
        );
    }
    Ok(())
}

fn plan_bench() -> Result<(), String> {
    let mut times = Vec::new();
    let mut zones = Vec::new();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = parse_fen(fen, false).map_err(|e| e.to_string())?;
        // Median of 5 runs per position.
        let mut runs = Vec::new();
        let mut count = 0;
        for _ in 0..5 {
            // The whole answer of `tropa plan`: analysis, forks, outcomes and the text.
            let start = Instant::now();
            let analysis = Analysis::new(&board, TrajectoryLimits::default());
            let text = report_of(&board, &analysis, None);
            runs.push(start.elapsed().as_secs_f64() * 1000.0);
            count = analysis.zones.len();
            std::hint::black_box(text);
        }
        runs.sort_by(f64::total_cmp);
        let t = runs[runs.len() / 2];
        say!(
            "{:2}/{} {:8.2} ms {:3} zones  {fen}",
            i + 1,
            POSITIONS.len(),
            t,
            count
        );
        times.push(t);
        zones.push(count);
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let worst = sorted[sorted.len() - 1];
    let mut z = zones.clone();
    z.sort_unstable();
    say!(
        "plan over {} positions: median {median:.2} ms, worst {worst:.2} ms; zones median {}, max {}",
        times.len(),
        z[z.len() / 2],
        z[z.len() - 1]
    );
    Ok(())
}

/// How a tree's line is introduced: a main line, or where an unfinished tree stood.
fn line_label(complete: bool) -> &'static str {
    if complete {
        "main line"
    } else {
        "where it stopped"
    }
}

/// A study run: the zone search and the proofs of its verdicts, as `tropa study` makes them.
pub(super) struct StudyRun {
    /// The zone search.
    pub(super) study: Study,
    /// The proofs of its verdicts.
    pub(super) proofs: StudyProofs,
    /// Time of both.
    pub(super) elapsed: Duration,
}

/// What `tropa study` was asked for.
pub struct StudyOptions {
    /// Search horizon in plies (default: from the zones' timing).
    depth: Option<u32>,
    /// Print the zone search's tree.
    tree: bool,
    /// Largest zone-search tree.
    max_positions: usize,
    /// Largest proof tree from the start position.
    proof_positions: usize,
    /// Trajectory limits and endgame tables of every tree (no judge: each run makes its own).
    settings: StudySettings,
    /// The depth and evaluation of the search that judges a proof's leaves, if any.
    leaf_search: Option<(u32, Option<Arc<Network>>)>,
}

impl StudyOptions {
    /// The options of the command line; an error when `--syzygy` names no readable tables.
    /// `leaf_search`: the depth and evaluation of the search that judges a proof's horizon
    /// leaves, if any.
    pub fn new(
        depth: Option<u32>,
        tree: bool,
        max_positions: usize,
        proof_positions: usize,
        syzygy: Option<String>,
        leaf_search: Option<(u32, Option<Arc<Network>>)>,
    ) -> Result<StudyOptions, String> {
        let tables = syzygy
            .as_deref()
            .map(super::tools::open_tables)
            .transpose()?;
        Ok(StudyOptions {
            depth,
            tree,
            max_positions,
            proof_positions,
            settings: StudySettings {
                limits: TrajectoryLimits::default(),
                tables: tables.map(Arc::new),
                judge: None,
                stop: None,
            },
            leaf_search,
        })
    }
}

/// A proof's progress on standard error: a line a round, or on a terminal one line a proof,
/// redrawn at every round, its bar filling as the proof takes its budget.
struct ProgressLine {
    /// Redraw in place (standard error is a terminal and one study runs)?
    redraw: bool,
    /// What the line being redrawn is about, while one is.
    open: Option<String>,
}

impl ProgressLine {
    /// Redraws in place where standard error is a terminal and `label` is empty (a study alone).
    fn new(label: &str) -> Self {
        ProgressLine {
            redraw: label.is_empty() && std::io::stderr().is_terminal(),
            open: None,
        }
    }

    /// Shows `text`, the progress of `what`: in place of the last line where that was about the
    /// same and lines are redrawn.
    fn show(&mut self, what: &str, text: &str) {
        if !self.redraw {
            eprintln!("{text}");
            return;
        }
        if self.open.as_deref().is_some_and(|open| open != what) {
            eprintln!();
        }
        eprint!("\r\x1b[K{text}");
        self.open = Some(what.to_string());
    }

    /// Ends a line being redrawn.
    fn end(&mut self) {
        if self.open.take().is_some() {
            eprintln!();
        }
    }
}

/// A bar of `BAR_CELLS` cells, `share` (0 to 1) of them full.
fn bar(share: f64) -> String {
    const BAR_CELLS: usize = 20;
    let full = ((share * BAR_CELLS as f64).round() as usize).min(BAR_CELLS);
    format!("[{}{}]", "#".repeat(full), ".".repeat(BAR_CELLS - full))
}

/// Runs the zone search and the proofs from `board`, and with `first_moves` those of every
/// first move as well, reporting progress on standard error (`ProgressLine`), each line after
/// `label` (which study it is, where several run at once). The run has a judge of its own, so
/// that runs on several threads never wait on one another and a study's verdicts do not depend
/// on the others.
pub(super) fn run_study(
    board: &Board,
    options: &StudyOptions,
    label: &str,
    first_moves: bool,
) -> StudyRun {
    let start = Instant::now();
    let settings = &StudySettings {
        judge: options
            .leaf_search
            .clone()
            .map(|(depth, net)| study_judge(depth, net)),
        ..options.settings.clone()
    };
    let study = solve(
        board,
        options.depth,
        settings,
        options.tree,
        options.max_positions,
        first_moves,
        &mut |first| {
            eprintln!(
                "{label}zone search of {}: {}, {} positions, {:.1} s",
                line_to_numbered_san(board, &[first.mv]),
                first.result.verdict,
                first.result.positions,
                start.elapsed().as_secs_f64()
            )
        },
    );
    let mut progress = ProgressLine::new(label);
    let mut report_round = |mv: Option<Move>, r: &ProofRound| {
        let what = mv.map_or("the start position".to_string(), |m| {
            line_to_numbered_san(board, &[m])
        });
        let text = format!(
            "{label}proof of {what} {} {:3.0}% of {} positions: {}{} plies, budget {}, {} in \
             the tree, {}, {:.1} s",
            bar(r.progress()),
            100.0 * r.progress(),
            r.max_positions,
            if r.mate { "a mate within " } else { "" },
            r.horizon,
            r.budget,
            r.positions,
            if r.complete {
                "complete"
            } else {
                "not complete"
            },
            r.elapsed.as_secs_f64()
        );
        progress.show(&what, &text);
    };
    let proofs = prove_study(
        board,
        &study,
        settings,
        options.proof_positions,
        &mut report_round,
    );
    progress.end();
    StudyRun {
        study,
        proofs,
        elapsed: start.elapsed(),
    }
}

/// ", N valued by the tables" when the study has tables.
fn table_leaves(options: &StudyOptions, result: &StudyResult) -> String {
    match options.settings.tables {
        Some(_) => format!(", {} valued by the tables", result.table_leaves),
        None => String::new(),
    }
}

/// `tropa study`: the zone search, its verdict, main line and tree size, then the proof of
/// what the side to move gets, then every first move with its zone verdict and its proof.
pub fn study(fen: Option<&str>, options: &StudyOptions) -> Result<(), String> {
    let board = parse_fen(fen.unwrap_or(START_FEN), false).map_err(|e| e.to_string())?;
    let run = run_study(&board, options, "", true);
    let (study, proofs) = (&run.study, &run.proofs);
    let unfinished = |r: &StudyResult| {
        if r.complete {
            String::new()
        } else if r.positions == 0 {
            "  (not searched: the study's position budget is spent)".to_string()
        } else {
            "  (stopped at the position limit)".to_string()
        }
    };
    let root = &study.root;
    say!(
        "zone search (both sides on combinations and zone moves: the model's verdict, not a proof), horizon {} plies",
        root.horizon
    );
    if root.line.is_empty() && root.complete {
        say!("the side to move has no zone move: the verdict is the static value");
    }
    say!("verdict: {}{}", root.verdict, unfinished(root));
    say!(
        "{}: {}",
        line_label(root.complete),
        line_to_numbered_san(&board, &root.line)
    );
    say!(
        "positions in the tree: {} ({} visits{})",
        root.positions,
        root.nodes,
        table_leaves(options, root)
    );
    if options.tree {
        say!("the tree (each move with its value for the side that made it):");
        for t in &study.tree {
            say!("  {}{} {:+}", "  ".repeat(t.ply as usize), t.san, t.value);
        }
    }
    let proof = &proofs.root;
    let mover = board.side_to_move();
    say!(
        "proof ({} on combinations and zone moves, {} on every legal move), horizon {} plies, deeper while it only holds or fails",
        side_name(mover),
        side_name(!mover),
        study.root.horizon
    );
    say!("{}", proof.summary());
    say!(
        "{}: {}",
        line_label(proof.result.complete),
        line_to_numbered_san(&board, &proof.result.line)
    );
    say!(
        "positions in the tree: {} ({} rounds, {:.1} ms{})",
        proof.result.positions,
        proof.rounds,
        proof.elapsed.as_secs_f64() * 1000.0,
        table_leaves(options, &proof.result)
    );
    say!("first moves, each with a zone-search tree and a proof of its own:");
    for (f, proof) in study.first_moves.iter().zip(&proofs.first_moves) {
        let verdict = if f.result.positions == 0 {
            "—".to_string()
        } else {
            f.result.verdict.to_string()
        };
        say!(
            "  {:28} {:10} {:5} positions{}{}",
            line_to_numbered_san(&board, &[f.mv]),
            verdict,
            f.result.positions,
            if f.zone_move {
                ""
            } else {
                "  (not a zone move)"
            },
            unfinished(&f.result)
        );
        if !f.result.line.is_empty() {
            say!("      {}", line_to_numbered_san(&board, &f.result.line));
        }
        match proof {
            Some(p) => {
                say!("      {} ({} positions)", p.summary(), p.result.positions);
                if !p.is_proven() && !p.result.line.is_empty() {
                    let mut line = vec![f.mv];
                    line.extend(&p.result.line);
                    say!("      {}", line_to_numbered_san(&board, &line));
                }
            }
            None => say!("      no proof tried: the proofs' position budget is spent"),
        }
    }
    say!("time {:.1} ms", run.elapsed.as_secs_f64() * 1000.0);
    Ok(())
}
