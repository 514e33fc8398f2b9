//! Self-play data for the learned evaluation (`tropa datagen`): games played by the
//! search at a node limit from varied starts, stored compactly (`format`) for the trainer.
//!
//! Design note: each thread owns an engine with one search thread and plays whole games, taking
//! game indices from a shared counter; the games are appended to the output as they finish,
//! one checksummed frame each. A game depends only on the seed and its index (`play`), so a
//! run with one thread is reproducible byte for byte, and a resumed run (the output exists)
//! skips the indices already in the file after dropping a torn last frame.

pub mod coding;
pub mod format;
pub mod play;

use crate::eval::nnue::Network;
use crate::tablebases::Tablebases;
use format::{Evaluation, PlyCoding, RunHeader};
use play::{play_game, PlaySettings};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A data-generation run.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// How each game is played.
    pub play: PlaySettings,
    /// Seed of the run.
    pub seed: u64,
    /// Games the output should hold when the run ends.
    pub games: u32,
    /// Playing threads (each one engine with one search thread).
    pub threads: usize,
    /// Transposition table per engine, megabytes.
    pub hash_mb: usize,
    /// The net the engines evaluate with (none: the hand-crafted evaluation). The file's header
    /// records which, and a run is resumed only with the evaluation it was started with.
    pub net: Option<Arc<Network>>,
}

/// Counters a progress display reads while the run goes on.
#[derive(Debug, Default)]
pub struct Progress {
    /// Games written in this run.
    pub games: AtomicU64,
    /// Quiet positions in them.
    pub positions: AtomicU64,
}

/// What a finished run reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// Games found in the output before the run.
    pub resumed_games: usize,
    /// Bytes of a torn last frame that were dropped on resuming.
    pub dropped_bytes: usize,
    /// Games written by this run.
    pub new_games: u64,
    /// Quiet positions in them.
    pub new_positions: u64,
}

/// Where a run's games go: the file, how its frames code the plies, the indices already done
/// and the bytes of a torn last frame dropped on opening.
struct Output {
    file: std::fs::File,
    coding: PlyCoding,
    done: BTreeSet<u32>,
    dropped: usize,
}

/// Opens `path` for appending: a new file gets the header of the current version; an existing
/// one must belong to the same run (seed, node limit and evaluation), keeps its version's
/// coding and loses a torn last frame.
fn open_output(path: &Path, header: RunHeader) -> Result<Output, String> {
    let name = path.display();
    let (done, dropped, intact, coding) = match std::fs::read(path) {
        Ok(bytes) => {
            let file = format::read(&bytes).map_err(|e| format!("{name}: {e}"))?;
            if file.header != header {
                let run = |h: &RunHeader| {
                    format!("seed {}, {} nodes and {}", h.seed, h.nodes, h.evaluation)
                };
                return Err(format!(
                    "{name} holds a run with {}, not {}",
                    run(&file.header),
                    run(&header)
                ));
            }
            let done = file.games.iter().map(|g| g.index).collect();
            (done, file.dropped, Some(file.intact_len), file.coding)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            (BTreeSet::new(), 0, None, PlyCoding::Compact)
        }
        Err(e) => return Err(format!("{name}: {e}")),
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{name}: {e}"))?;
    match intact {
        Some(len) => file
            .set_len(len as u64)
            .map_err(|e| format!("{name}: {e}"))?,
        None => file
            .write_all(&header.to_bytes())
            .map_err(|e| format!("{name}: {e}"))?,
    }
    Ok(Output {
        file,
        coding,
        done,
        dropped,
    })
}

/// Runs data generation into `output` until it holds `settings.games` games, adjudicating the
/// positions `tables` cover by their verdict.
pub fn run(
    settings: &RunSettings,
    tables: Option<&Tablebases>,
    output: &Path,
    progress: &Progress,
) -> Result<RunSummary, String> {
    let header = RunHeader {
        nodes: u32::try_from(settings.play.nodes).map_err(|_| "node limit too large")?,
        seed: settings.seed,
        evaluation: Evaluation::of(settings.net.as_ref().map(|n| n.to_bytes()).as_deref()),
    };
    let Output {
        file,
        coding,
        done,
        dropped,
    } = open_output(output, header)?;
    let todo: Vec<u32> = (0..settings.games).filter(|i| !done.contains(i)).collect();
    let next = AtomicU64::new(0);
    let file = Mutex::new(file);
    let error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            scope.spawn(|| {
                let mut engine = crate::search::Engine::new(settings.hash_mb, 1);
                engine.set_network(settings.net.clone());
                loop {
                    let slot = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&index) = todo.get(slot) else {
                        break;
                    };
                    if error.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
                        break;
                    }
                    let game = play_game(&mut engine, &settings.play, tables, settings.seed, index);
                    // The search plays legal moves only: a frame that cannot be coded is a bug
                    // to report, not a game to skip silently.
                    let written = game
                        .to_frame(coding)
                        .map_err(|e| format!("game {index}: {e}"))
                        .and_then(|frame| {
                            file.lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .write_all(&frame)
                                .map_err(|e| e.to_string())
                        });
                    if let Err(e) = written {
                        *error.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some(format!("{}: {e}", output.display()));
                        break;
                    }
                    progress.games.fetch_add(1, Ordering::Relaxed);
                    progress
                        .positions
                        .fetch_add(game.samples().count() as u64, Ordering::Relaxed);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    file.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .sync_all()
        .map_err(|e| format!("{}: {e}", output.display()))?;
    Ok(RunSummary {
        resumed_games: done.len(),
        dropped_bytes: dropped,
        new_games: progress.games.load(Ordering::Relaxed),
        new_positions: progress.positions.load(Ordering::Relaxed),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(seed: u64, games: u32) -> RunSettings {
        RunSettings {
            play: PlaySettings {
                nodes: 300,
                random_plies: 8,
                openings: Vec::new(),
            },
            seed,
            games,
            threads: 1,
            hash_mb: 1,
            net: None,
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tropa-datagen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        dir
    }

    #[test]
    fn a_seeded_run_is_reproducible_and_resumes_after_a_torn_write() {
        let (a, b, c) = (temp("a"), temp("b"), temp("c"));
        run(&settings(11, 3), None, &a, &Progress::default()).unwrap();
        run(&settings(11, 3), None, &b, &Progress::default()).unwrap();
        let whole = std::fs::read(&a).unwrap();
        assert_eq!(whole, std::fs::read(&b).unwrap());
        let file = format::read(&whole).unwrap();
        assert_eq!(file.games.len(), 3);
        assert!(file.games.iter().all(|g| !g.plies.is_empty()));

        run(&settings(12, 3), None, &c, &Progress::default()).unwrap();
        assert_ne!(whole, std::fs::read(&c).unwrap(), "the seed must matter");

        // Kill in the middle of the third game's frame, then resume.
        std::fs::write(&b, &whole[..whole.len() - 5]).unwrap();
        let summary = run(&settings(11, 3), None, &b, &Progress::default()).unwrap();
        assert_eq!(summary.resumed_games, 2);
        assert!(summary.dropped_bytes > 0);
        assert_eq!(summary.new_games, 1);
        assert_eq!(whole, std::fs::read(&b).unwrap());

        // Another run's file is not appended to: another seed, or another evaluation.
        assert!(run(&settings(12, 4), None, &a, &Progress::default())
            .unwrap_err()
            .contains("seed 11"));
        assert_eq!(file.header.evaluation, Evaluation::HandCrafted);
        let with_net = RunSettings {
            net: Some(Arc::new(crate::eval::nnue::tests::random_net(16, 4))),
            ..settings(11, 4)
        };
        let refused = run(&with_net, None, &a, &Progress::default()).unwrap_err();
        assert!(
            refused.contains(
                "and the hand-crafted evaluation, not seed 11, 300 nodes and the net with checksum"
            ),
            "{refused}"
        );
        for p in [a, b, c] {
            let _ = std::fs::remove_file(p);
        }
    }
}
