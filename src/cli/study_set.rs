//! `tropa study --epd`: a study set through PIONEER's zone search and proofs, one line a record.
//!
//! Design note: every record goes through the very run `tropa study --fen` makes
//! (`pioneer::run_study`), so the set measures what a user sees; only the report differs, and
//! the first moves' own trees, which a record's line does not read, are not searched (the start
//! position's trees come first and never depend on them). With
//! `--threads N` the records are shared out among N threads, each run with a judge of its own;
//! the lines still come in the file's order, each as soon as it and those before it are done. A
//! record's verdict and trees do not depend on the thread count (the judge clears its search
//! before every leaf), only the times do.

use crate::cli::epd::{in_report_order, read_suite, Record};
use crate::cli::pioneer::{run_study, StudyOptions, StudyRun};
use crate::pioneer::uses::proof::ProofOutcome;
use crate::rules::notation::move_to_san;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The result a study-set record claims for the side to move (its `c1` operation, or
/// `--claim` for every record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Claim {
    /// The side to move wins.
    Win,
    /// The side to move at least draws, and no more.
    Draw,
}

/// The claim of a record; the error names the record's line.
fn claim_of(record: &Record) -> Result<Claim, String> {
    match record.operand("c1") {
        Some("win") => Ok(Claim::Win),
        Some("draw") => Ok(Claim::Draw),
        Some(other) => Err(format!(
            "{}: c1 must be \"win\" or \"draw\", not \"{other}\"",
            record.place
        )),
        None => Err(format!(
            "{}: no c1 (the claimed result, \"win\" or \"draw\")",
            record.place
        )),
    }
}

/// One record's outcome, as its line reports it.
struct Outcome {
    line: String,
    solved: bool,
    proven: bool,
    zone_positions: usize,
    proof_positions: usize,
    elapsed: Duration,
}

/// The line of `record` (claiming `claim`) after `run`.
fn outcome_of(record: &Record, claim: Claim, run: &StudyRun) -> Outcome {
    let board = record.game.board();
    let proof = &run.proofs.root;
    let played = proof.result.line.first().copied();
    let solved = played.is_some_and(|m| record.best.contains(&m));
    let proven = match claim {
        Claim::Win => proof.outcome == ProofOutcome::Wins,
        Claim::Draw => proof.outcome == ProofOutcome::Holds,
    };
    let key: Vec<String> = record.best.iter().map(|&m| move_to_san(board, m)).collect();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let line = format!(
        "{}  bm {}  {}  played {}  solved {}  proven {}  ({})  zone tree {}  proof tree {}  {:.1} s",
        record.id,
        key.join(" "),
        if claim == Claim::Win { "win" } else { "draw" },
        played.map_or("-".to_string(), |m| move_to_san(board, m)),
        yes_no(solved),
        yes_no(proven),
        proof.summary(),
        run.study.root.positions,
        proof.result.positions,
        run.elapsed.as_secs_f64()
    );
    Outcome {
        line,
        solved,
        proven,
        zone_positions: run.study.root.positions,
        proof_positions: proof.result.positions,
        elapsed: run.elapsed,
    }
}

/// `tropa study --epd`: every record of a study set through the zone search and the proofs
/// (the same run as `--fen`), on `threads` threads, one line each in the file's order —
/// PIONEER's move (the first of the proof's main line), whether it is the key move (`bm`),
/// whether the proof establishes the claimed result (`c1 "win"`: the side to move wins;
/// `c1 "draw"`: it at least draws, and no more), the sizes of the zone tree and the proof tree
/// from the start position, the time — then, where the records name their half (`c5`), each
/// half's counts, validation first, then the totals, where a record counts as solved and
/// proven when both hold. Every record is checked before any is run, so that a bad line costs
/// no search. Progress goes to standard error, each line after the record's id. `claim`, when
/// given, is every record's claim, and `c1` is not read (a set whose `c1` says something else,
/// such as the combination set's defender).
pub fn study_set(
    path: &Path,
    options: &StudyOptions,
    threads: usize,
    claim: Option<Claim>,
) -> Result<(), String> {
    let records = read_suite(path)?;
    let mut claims = Vec::new();
    for record in &records {
        if record.best.is_empty() {
            return Err(format!("{}: no bm (the key move)", record.place));
        }
        claims.push(match claim {
            Some(claim) => claim,
            None => claim_of(record)?,
        });
    }
    let start = Instant::now();
    let threads = threads.clamp(1, records.len().max(1));
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    let (mut solved, mut proven, mut zone_positions, mut proof_positions) = (0, 0, 0, 0);
    // Per half (the record's `c5`, "" without one): records, solved, solved and proven.
    let mut halves: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    let mut own_time = Duration::ZERO;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let send = send.clone();
            let (records, claims, next) = (&records, &claims, &next);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(record) = records.get(i) else { break };
                eprintln!("{}: {}", record.place, record.id);
                // A record's line reads the start position's trees only.
                let label = format!("{}: ", record.id);
                let run = run_study(record.game.board(), options, &label, false);
                if send.send((i, outcome_of(record, claims[i], &run))).is_err() {
                    break;
                }
            });
        }
        drop(send);
        // Lines in the file's order: a record done early waits for those before it.
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (i, outcome) in receive {
            waiting.insert(i, outcome);
            while let Some(o) = waiting.remove(&printed) {
                say!("{}", o.line);
                solved += o.solved as usize;
                proven += (o.solved && o.proven) as usize;
                let half = halves
                    .entry(records[printed].half().to_string())
                    .or_default();
                half[0] += 1;
                half[1] += o.solved as usize;
                half[2] += (o.solved && o.proven) as usize;
                zone_positions += o.zone_positions;
                proof_positions += o.proof_positions;
                own_time += o.elapsed;
                printed += 1;
            }
        }
    });
    let threads_note = if threads > 1 {
        format!(
            " ({threads} threads; the records' own times add up to {:.1} s)",
            own_time.as_secs_f64()
        )
    } else {
        String::new()
    };
    if halves.keys().any(|h| !h.is_empty()) {
        for name in in_report_order(halves.keys()) {
            let [records, solved, proven] = halves[name];
            say!(
                "{}: {records} records: {solved} solved, {proven} solved and proven",
                if name.is_empty() { "no half" } else { name }
            );
        }
    }
    say!(
        "{} records: {solved} solved, {proven} solved and proven, positions {zone_positions} in the zone trees and {proof_positions} in the proof trees, total time {:.1} s{threads_note}",
        records.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
