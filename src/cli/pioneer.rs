//! `tropa plan` and `tropa study`: PIONEER's plans in words and its zone search.

use crate::cli::bench::POSITIONS;
use crate::explain::json::plans_json;
use crate::explain::{checked_report, CheckLimits};
use crate::pioneer::attack::TrajectoryLimits;
use crate::pioneer::plan::report_of;
use crate::pioneer::study::solve;
use crate::pioneer::svg::draw;
use crate::pioneer::zone::Analysis;
use crate::rules::notation::line_to_numbered_san;
use crate::rules::{parse_fen, Color, START_FEN};
use std::path::Path;
use std::time::Instant;

fn parse_side(side: Option<&str>) -> Result<Option<Color>, String> {
    match side.map(str::to_ascii_lowercase).as_deref() {
        None => Ok(None),
        Some("white" | "w") => Ok(Some(Color::White)),
        Some("black" | "b") => Ok(Some(Color::Black)),
        Some(other) => Err(format!("--side must be white or black, not '{other}'")),
    }
}

/// `tropa plan`: the plans of a position, each first move checked by a search of
/// `check_depth` plies unless that is `None`, as text or (`json`) as one JSON object,
/// optionally drawn as SVG; or, with `--bench`, the time of the analysis over the bench
/// positions.
pub fn plan(
    fen: Option<&str>,
    side: Option<&str>,
    svg: Option<&Path>,
    bench: bool,
    check_depth: Option<i32>,
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
        let limits = CheckLimits {
            depth: check_depth.unwrap_or(CheckLimits::default().depth),
            ..CheckLimits::default()
        };
        say!("{}", plans_json(&board, &analysis, side, limits));
        return Ok(());
    }
    let report = match check_depth {
        Some(depth) => {
            let limits = CheckLimits {
                depth,
                ..CheckLimits::default()
            };
            checked_report(&board, &analysis, side, limits)
        }
        None => report_of(&board, &analysis, side),
    };
    let elapsed = start.elapsed();
    for line in report {
        say!("{line}");
    }
    say!("analysed in {:.1} ms", elapsed.as_secs_f64() * 1000.0);
    if let Some(path) = svg {
        let picture = draw(&board, &analysis, side);
        crate::util::write_atomically(path, picture.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        say!("board with trajectories written to {}", path.display());
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

/// `tropa study`: the zone search, its verdict, main line and tree size, then every first move.
pub fn study(
    fen: Option<&str>,
    depth: Option<u32>,
    tree: bool,
    max_positions: usize,
) -> Result<(), String> {
    let board = parse_fen(fen.unwrap_or(START_FEN), false).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let study = solve(
        &board,
        depth,
        TrajectoryLimits::default(),
        tree,
        max_positions,
    );
    let unfinished = |r: &crate::pioneer::study::StudyResult| {
        if r.complete {
            String::new()
        } else if r.positions == 0 {
            "  (not searched: the study's position budget is spent)".to_string()
        } else {
            "  (stopped at the position limit: not proven)".to_string()
        }
    };
    let root = &study.root;
    say!("zone search, horizon {} plies", root.horizon);
    say!("verdict: {}{}", root.verdict, unfinished(root));
    say!("main line: {}", line_to_numbered_san(&board, &root.line));
    say!(
        "positions in the tree: {} ({} visits)",
        root.positions,
        root.nodes
    );
    if tree {
        say!("the tree (each move with its value for the side that made it):");
        for t in &study.tree {
            say!("  {}{} {:+}", "  ".repeat(t.ply as usize), t.san, t.value);
        }
    }
    say!("first moves, each searched with a tree of its own:");
    for f in &study.first_moves {
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
    }
    say!("time {:.1} ms", start.elapsed().as_secs_f64() * 1000.0);
    Ok(())
}
