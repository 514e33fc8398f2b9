//! The study set (`tests/data/studies.epd`) and `tropa study --epd`.
//!
//! Design note: the set itself is checked for form only (every record legal, with a legal key
//! move, a claimed result and a source), which is fast; how many records PIONEER solves is a
//! measurement kept in docs/study.md, not a test. The command is tested on a small set written to
//! a temporary file.

mod common;

use common::tropa;
use std::path::Path;
use tropa::cli::epd::read_suite;

const RETI: &str = "7K/8/k1P5/7p/8/8/8/8 w - - bm Kg7; id \"Reti\"; c0 \"Reti 1921\"; c1 \"draw\";";

/// Writes `text` to a fresh file in the temporary directory.
fn temp_epd(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("tropa-{}-{name}.epd", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn every_record_of_the_set_is_legal_with_a_key_move_a_claim_and_a_source() {
    let records = read_suite(Path::new("tests/data/studies.epd")).unwrap();
    assert!(records.len() >= 40, "{} records", records.len());
    let mut ids = std::collections::HashSet::new();
    for r in &records {
        assert!(!r.best.is_empty(), "{}: no bm", r.place);
        assert!(ids.insert(r.id.clone()), "{}: id {} twice", r.place, r.id);
        let op = |code: &str| {
            r.other
                .iter()
                .find(|(c, _)| c == code)
                .map(|(_, operand)| operand.clone())
        };
        let claim = op("c1").unwrap_or_default();
        assert!(
            claim == "win" || claim == "draw",
            "{}: c1 {claim:?}",
            r.place
        );
        assert!(
            op("c0").is_some_and(|s| !s.is_empty()),
            "{}: no source",
            r.place
        );
        assert!(
            op("c2").is_some_and(|s| s.contains("Stockfish")),
            "{}: no check",
            r.place
        );
        let half = op("c5").unwrap_or_default();
        assert!(
            half == "tuning" || half == "validation",
            "{}: c5 {half:?}",
            r.place
        );
    }
    // Réti's study, on which PIONEER was developed, is tuning whatever the rule says.
    let reti = records.iter().find(|r| r.id == "Reti 1921").unwrap();
    assert!(reti
        .other
        .contains(&("c5".to_string(), "tuning".to_string())));
}

#[test]
fn study_epd_counts_each_half_validation_first() {
    let kpk = "2k5/8/1K1P4/8/8/8/8/8 w - - bm Kc6; id \"KPK\"; c1 \"win\"; c5 \"tuning\";";
    let kqk = "8/8/8/8/8/2k5/8/K6Q w - - bm Qh3; id \"KQK\"; c1 \"win\"; c5 \"validation\";";
    let path = temp_epd("halves", &format!("{kpk}\n{kqk}\n"));
    let (ok, out, err) = tropa(&["study", "--epd", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    // Each half's line counts its records' lines.
    let counts = |line: &str| {
        let solved = line.contains("solved yes");
        let proven = solved && line.contains("proven yes");
        (usize::from(solved), usize::from(proven))
    };
    for (half, record) in [("validation", lines[1]), ("tuning", lines[0])] {
        let (solved, proven) = counts(record);
        let expected = format!("{half}: 1 records: {solved} solved, {proven} solved and proven");
        assert!(lines.contains(&expected.as_str()), "{expected}\n{out}");
    }
    assert!(lines[2].starts_with("validation: "), "{out}");
    assert!(lines[3].starts_with("tuning: "), "{out}");
    assert!(lines[4].starts_with("2 records: "), "{out}");
}

#[test]
fn study_epd_prints_one_line_per_record_and_the_totals() {
    let kpk = "2k5/8/1K1P4/8/8/8/8/8 w - - bm Kc6; id \"KPK\"; c1 \"win\";";
    let path = temp_epd("set", &format!("{RETI}\n# a comment\n{kpk}\n"));
    let (ok, out, err) = tropa(&["study", "--epd", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("Reti  bm Kg7  draw  played Kg7  solved yes  proven yes"),
        "{out}"
    );
    assert!(
        lines[0].contains("zone tree ") && lines[0].contains("proof tree "),
        "{out}"
    );
    assert!(lines[1].starts_with("KPK  bm Kc6  win  played "), "{out}");
    assert!(lines[2].starts_with("2 records: "), "{out}");
    assert!(
        lines[2].contains("solved and proven") && lines[2].contains("total time"),
        "{out}"
    );
    assert!(err.contains("proof of the start position"), "{err}");
}

#[test]
fn study_epd_refuses_bad_input_naming_the_line() {
    let path = temp_epd(
        "noclaim",
        &format!("{RETI}\n8/8/1KP5/3r4/8/8/8/k7 w - - bm c7;\n"),
    );
    let (ok, _, err) = tropa(&["study", "--epd", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("noclaim.epd:2: no c1"), "{err}");
    std::fs::write(&path, "8/8/1KP5/3r4/8/8/8/k7 w - - c1 \"win\";\n").unwrap();
    let (ok, _, err) = tropa(&["study", "--epd", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("noclaim.epd:1: no bm"), "{err}");
    std::fs::write(&path, "8/8/1KP5/3r4/8/8/8/k7 w - - bm c7; c1 \"lose\";\n").unwrap();
    let (ok, _, err) = tropa(&["study", "--epd", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("noclaim.epd:1: c1 must be"), "{err}");
    std::fs::write(&path, "8/8/1KP5/3r4/8/8/8/k8 w - - bm c7; c1 \"win\";\n").unwrap();
    let (ok, _, err) = tropa(&["study", "--epd", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("noclaim.epd:1"), "{err}");
    std::fs::remove_file(&path).unwrap();
    let (ok, _, err) = tropa(&["study", "--epd", "no/such/file.epd"]);
    assert!(!ok);
    assert!(err.contains("no/such/file.epd"), "{err}");
    let (ok, _, _) = tropa(&[
        "study",
        "--epd",
        "x.epd",
        "--fen",
        "8/8/8/8/8/8/8/K6k w - -",
    ]);
    assert!(!ok);
}

#[test]
fn study_epd_on_threads_prints_the_lines_of_one_thread_in_the_file_order() {
    let set = "k7/8/1K6/8/8/8/8/7R w - - bm Rh8; id \"KRK mate\"; c1 \"win\";\n\
               8/8/8/8/8/8/k7/2K5 w - - bm Kc2; id \"KK\"; c1 \"draw\";\n\
               8/8/8/8/8/1k6/8/1K1R4 w - - bm Rd3+; id \"KRK\"; c1 \"win\";\n";
    let path = temp_epd("threads", set);
    let run = |threads: &str| {
        let (ok, out, err) = tropa(&[
            "study",
            "--epd",
            path.to_str().unwrap(),
            "--threads",
            threads,
        ]);
        assert!(ok, "{err}");
        // The times differ from run to run: everything before them must not.
        let untimed = |line: &str| {
            line.rsplit_once("  ")
                .map_or(line, |(head, _)| head)
                .split(", total time")
                .next()
                .unwrap()
                .to_string()
        };
        (out.lines().map(untimed).collect::<Vec<_>>(), out, err)
    };
    let (one, _, _) = run("1");
    let (three, out, err) = run("3");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(one, three, "{out}");
    let ids: Vec<&str> = out
        .lines()
        .take(3)
        .map(|l| l.split("  bm").next().unwrap())
        .collect();
    assert_eq!(ids, ["KRK mate", "KK", "KRK"], "{out}");
    assert!(out.contains("(3 threads;"), "{out}");
    assert!(err.contains("KRK: proof of the start position"), "{err}");
    let (ok, _, _) = tropa(&[
        "study",
        "--fen",
        "8/8/8/8/8/8/k7/2K5 w - - 0 1",
        "--threads",
        "2",
    ]);
    assert!(!ok, "--threads without --epd is refused");
}
