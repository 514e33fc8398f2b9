//! `tropa epd`: run a test suite of EPD records and score it.
//!
//! Design note: each record is a position (four FEN fields, optionally the two counters) and
//! operations `opcode operands;`. Scored are `bm` (the engine must play one of these moves),
//! `am` (it must avoid all of these) and, in the Strategic Test Suite's style, `c0 "Nf3=10,
//! Nd2=7"` (points for each listed move, 10 for the best). Every position starts from an empty
//! table, so with `--depth` or `--nodes` on one thread a run is reproducible.

use crate::eval::nnue::Network;
use crate::explain::ending::ending;
use crate::rules::notation::{move_from_text, move_to_san};
use crate::rules::{Game, Move};
use crate::search::{Engine, Limits, SearchControl, Silent};
use indicatif::ProgressBar;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// One test position with what it asks for.
#[derive(Clone, Debug)]
pub struct Record {
    /// Where it is: `file:line`.
    pub place: String,
    /// The `id` operand, or the place when there is none.
    pub id: String,
    /// The position.
    pub game: Game,
    /// Best moves: playing one of them solves the record.
    pub best: Vec<Move>,
    /// Moves to avoid.
    pub avoid: Vec<Move>,
    /// Points for moves (STS `c0`); empty when the record has none.
    pub points: Vec<(Move, u32)>,
    /// Every operation but `bm`, `am` and `id` as `(opcode, operand)`, quotes removed, in file
    /// order (`c0`, `c1`, ...).
    pub other: Vec<(String, String)>,
}

impl Record {
    /// The operand of the record's operation `code` (`"c1"`), if it has one.
    pub fn operand(&self, code: &str) -> Option<&str> {
        self.other
            .iter()
            .find(|(c, _)| c == code)
            .map(|(_, operand)| operand.as_str())
    }

    /// The half of its set the record names in `c5` ("tuning" or "validation",
    /// `scripts/epd_halves.py`), "" where it names none.
    pub fn half(&self) -> &str {
        self.operand("c5").unwrap_or_default()
    }
}

/// The halves of a set (`Record::half`) in the order they are reported: validation first,
/// then tuning, then any other name by its spelling (the records that name none, "", first).
pub fn in_report_order<'a>(halves: impl Iterator<Item = &'a String>) -> Vec<&'a String> {
    let mut names: Vec<&String> = halves.collect();
    names.sort_by_key(|&h| (h != "validation", h != "tuning", h));
    names
}

/// Splits the operations part of an EPD line into `(opcode, operands)`, honouring quotes.
fn operations(text: &str) -> Vec<(String, String)> {
    let mut ops = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ';' if !quoted => {
                ops.push(std::mem::take(&mut current));
            }
            _ => current.push(c),
        }
    }
    ops.push(current);
    ops.iter()
        .filter_map(|op| {
            let op = op.trim();
            let (code, rest) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            (!code.is_empty()).then(|| (code.to_string(), rest.trim().to_string()))
        })
        .collect()
}

/// Reads the moves of a `bm`/`am` operand; the error names the move.
fn moves_of(game: &Game, operand: &str) -> Result<Vec<Move>, String> {
    operand
        .split_whitespace()
        .map(|m| move_from_text(game.board(), m, false).map_err(|e| format!("'{m}': {e}")))
        .collect()
}

/// Reads `"Nf3=10, Nd2=7"`; a `c0` that is a plain comment (a source, a main line with
/// `c8=Q` in it) gives no points: only a list of `move=number` items does.
fn points_of(game: &Game, operand: &str) -> Result<Vec<(Move, u32)>, String> {
    let items: Vec<&str> = operand
        .trim_matches('"')
        .split(',')
        .map(str::trim)
        .collect();
    let pairs: Vec<(&str, u32)> = items
        .iter()
        .filter_map(|item| {
            let (m, p) = item.split_once('=')?;
            Some((m.trim(), p.trim().parse().ok()?))
        })
        .collect();
    if pairs.len() < items.len() {
        return Ok(Vec::new());
    }
    pairs
        .into_iter()
        .map(|(m, points)| {
            let mv = move_from_text(game.board(), m, false).map_err(|e| format!("'{m}': {e}"))?;
            Ok((mv, points))
        })
        .collect()
}

/// Parses one EPD line; `Ok(None)` for a blank line or a comment (`#`).
pub fn parse_record(line: &str, place: &str) -> Result<Option<Record>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    if fields.len() < 4 {
        return Err(format!("{place}: not an EPD record"));
    }
    let mut rest = fields.get(4).copied().unwrap_or("");
    let mut fen = fields[..4].join(" ");
    // Some suites write the two move counters of a full FEN before the operations.
    let words: Vec<&str> = rest.splitn(3, ' ').collect();
    if words.len() >= 2 && words[0].parse::<u32>().is_ok() && words[1].parse::<u32>().is_ok() {
        fen = format!("{fen} {} {}", words[0], words[1]);
        rest = words.get(2).copied().unwrap_or("");
    }
    let game = Game::from_uci(Some(&fen), &[], false).map_err(|e| format!("{place}: {e}"))?;
    let mut record = Record {
        place: place.to_string(),
        id: place.to_string(),
        game,
        best: Vec::new(),
        avoid: Vec::new(),
        points: Vec::new(),
        other: Vec::new(),
    };
    for (code, operand) in operations(rest) {
        let bad = |e: String| format!("{place}: {code} {e}");
        match code.as_str() {
            "bm" => record.best = moves_of(&record.game, &operand).map_err(bad)?,
            "am" => record.avoid = moves_of(&record.game, &operand).map_err(bad)?,
            "id" => record.id = operand.trim_matches('"').to_string(),
            _ => {
                if code == "c0" {
                    record.points = points_of(&record.game, &operand).map_err(bad)?;
                }
                record
                    .other
                    .push((code.clone(), operand.trim_matches('"').to_string()));
            }
        }
    }
    Ok(Some(record))
}

/// What a record scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// Whether the move met the `bm`/`am` operations (true when the record has none).
    pub solved: bool,
    /// Points earned and the most there were (0 and 0 without `c0` points).
    pub points: (u32, u32),
}

/// Scores a move against a record.
pub fn mark(record: &Record, mv: Move) -> Mark {
    let solved =
        (record.best.is_empty() || record.best.contains(&mv)) && !record.avoid.contains(&mv);
    let earned = record
        .points
        .iter()
        .find(|(m, _)| *m == mv)
        .map_or(0, |p| p.1);
    let most = record.points.iter().map(|p| p.1).max().unwrap_or(0);
    Mark {
        solved,
        points: (earned, most),
    }
}

/// How long each position is searched.
pub struct EpdArgs {
    /// The search limits.
    pub limits: Limits,
    /// Search threads.
    pub threads: usize,
    /// Table size in MB.
    pub hash: usize,
    /// List every miss.
    pub verbose: bool,
    /// The net to evaluate with (none: the hand-crafted evaluation).
    pub net: Option<Arc<Network>>,
}

/// Reads every record of a suite file; the first bad line is an error naming file and line.
pub fn read_suite(path: &Path) -> Result<Vec<Record>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let place = format!("{}:{}", path.display(), i + 1);
        if let Some(record) = parse_record(line, &place)? {
            records.push(record);
        }
    }
    if records.is_empty() {
        return Err(format!("{}: no EPD record", path.display()));
    }
    Ok(records)
}

/// `tropa epd`: searches every record, lists the misses with `verbose`, then one summary line.
pub fn run(path: &Path, args: &EpdArgs) -> Result<(), String> {
    let records = read_suite(path)?;
    let mut engine = Engine::new(args.hash, args.threads);
    engine.options.move_overhead = 0;
    engine.set_network(args.net.clone());
    let bar = ProgressBar::new(records.len() as u64);
    let start = Instant::now();
    let (mut solved, mut earned, mut most, mut scored) = (0, 0, 0, 0);
    for record in &records {
        bar.inc(1);
        let board = record.game.board();
        // A finished position has no move to find.
        let best = if ending(&record.game).is_some() {
            None
        } else {
            engine.clear();
            let control = SearchControl::new();
            engine
                .search(&record.game, &args.limits, &control, &mut Silent)
                .best
        };
        let Some(mv) = best else {
            bar.suspend(|| say!("{}: {}: no move to play", record.place, record.id));
            continue;
        };
        let m = mark(record, mv);
        scored += 1;
        solved += m.solved as usize;
        earned += m.points.0;
        most += m.points.1;
        if args.verbose && (!m.solved || m.points.0 < m.points.1) {
            let list = |moves: &[Move]| {
                let san: Vec<String> = moves.iter().map(|&m| move_to_san(board, m)).collect();
                san.join(" ")
            };
            let mut wanted = Vec::new();
            if !record.best.is_empty() {
                wanted.push(format!("bm {}", list(&record.best)));
            }
            if !record.avoid.is_empty() {
                wanted.push(format!("am {}", list(&record.avoid)));
            }
            if m.points.1 > 0 {
                wanted.push(format!("{}/{} points", m.points.0, m.points.1));
            }
            bar.suspend(|| {
                say!(
                    "miss {} ({}): played {}, {}",
                    record.id,
                    record.place,
                    move_to_san(board, mv),
                    wanted.join(", ")
                )
            });
        }
    }
    bar.finish_and_clear();
    let percent = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let points = if most > 0 {
        format!(
            ", {earned}/{most} points ({:.1}%)",
            percent(earned as usize, most as usize)
        )
    } else {
        String::new()
    };
    say!(
        "{}: solved {solved}/{scored} ({:.1}%){points} in {:.1} s",
        path.display(),
        percent(solved, scored),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_operations_counters_and_sts_points() {
        let line =
            r#"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 bm Ra8#; id "mate; in one"; c0 "Ra8=10, Kf2=3";"#;
        let r = parse_record(line, "t.epd:1").unwrap().unwrap();
        assert_eq!(r.id, "mate; in one");
        assert_eq!(r.best.len(), 1);
        assert_eq!(r.points.len(), 2);
        let king = r.points[1].0;
        assert_eq!(
            mark(&r, r.best[0]),
            Mark {
                solved: true,
                points: (10, 10)
            }
        );
        assert_eq!(
            mark(&r, king),
            Mark {
                solved: false,
                points: (3, 10)
            }
        );
        let avoid = parse_record("7k/8/5K2/8/8/8/8/6Q1 w - - am Qg6;", "t.epd:2")
            .unwrap()
            .unwrap();
        assert!(!mark(&avoid, avoid.avoid[0]).solved);
        assert!(parse_record("# a comment", "x").unwrap().is_none());
        let err = parse_record("8/8/8/8/8/8/8/K6k w - - bm Qh8;", "t.epd:3").unwrap_err();
        assert!(err.starts_with("t.epd:3: bm 'Qh8'"), "{err}");
    }

    #[test]
    fn a_comment_with_a_promotion_is_no_points_list_and_is_kept() {
        let line =
            r#"8/8/1KP5/3r4/8/8/8/k7 w - - bm c7; c0 "Saavedra 1895, 6.c8=R wins"; c1 "win";"#;
        let r = parse_record(line, "t.epd:1").unwrap().unwrap();
        assert!(r.points.is_empty());
        assert_eq!(
            r.other,
            vec![
                ("c0".to_string(), "Saavedra 1895, 6.c8=R wins".to_string()),
                ("c1".to_string(), "win".to_string())
            ]
        );
    }
}
