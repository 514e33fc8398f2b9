//! The developers' scripts that have no command of their own in `tropa`:
//! `scripts/bench_compare.py` (two binaries' `tropa bench` speed, run alternately),
//! `scripts/profile_lines.py` (a callgrind profile of one function by line and instruction),
//! `scripts/time_safety.py` (time forfeits at very short controls),
//! `scripts/combination_set.py` (the combination set's builder) and `scripts/epd_halves.py`
//! (the tuning and validation halves of a set), each on the real binary where a test can afford
//! it and on stand-ins where a result must be known.

mod common;

use std::path::Path;

/// A stand-in for a binary whose `bench` prints `last_line` as its last line.
fn stand_in_bench(dir: &Path, name: &str, last_line: &str) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("#!/bin/sh\necho 'position 1'\necho '{last_line}'\n"),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn bench_compare_reports_medians_ratio_and_a_different_tree() {
    let tropa = env!("CARGO_BIN_EXE_tropa");
    let (ok, out) = common::script(
        "bench_compare.py",
        &[tropa, tropa, "--rounds", "2", "--depth", "3"],
    );
    assert!(ok, "{out}");
    let nodes = |name: &str| -> String {
        let line = out.lines().find(|l| l.starts_with(name)).unwrap();
        line.split_whitespace().nth(1).unwrap().to_string()
    };
    assert_eq!(nodes("base:"), nodes("new:"), "{out}");
    assert!(!out.contains("differ"), "{out}");
    assert!(
        out.contains("ratio new/base: ") && out.contains("over 2 rounds"),
        "{out}"
    );

    let dir = common::temp_dir("tool-scripts", "bench-compare");
    let slow = stand_in_bench(&dir, "slow", "1000 nodes 100000 nps");
    let fast = stand_in_bench(&dir, "fast", "1200 nodes 150000 nps");
    let (ok, out) = common::script("bench_compare.py", &[&slow, &fast, "--rounds", "3"]);
    assert!(ok, "{out}");
    assert!(out.contains("the node counts differ"), "{out}");
    assert!(out.contains("ratio new/base: 1.500 over 3 rounds"), "{out}");

    let broken = stand_in_bench(&dir, "broken", "no figures here");
    let (ok, out) = common::script("bench_compare.py", &[&slow, &broken, "--rounds", "1"]);
    assert!(
        !ok && out.contains("error: ") && out.contains("unexpected last line"),
        "{out}"
    );
}

/// Answers as the team's match runner does, with the games asked for; at the fast control
/// Tropa (engine A) loses one game on time.
const STAND_IN_RUNNER: &str = r#"import sys
args = sys.argv[1:]
games = int(args[args.index("--games") + 1])
forfeits = 1 if args[args.index("--tc") + 1].startswith("0.1+") else 0
print(f"games {games}  W 0  D {games}  L 0  score 50.0%  elo +0.0 [-inf, +inf]  LOS 50.0%  "
      f"penta [0, 0, 1, 0, 0]  forfeits(time) A {forfeits} B 0  failures A 0 B 0  "
      f"min-clock tropa 0.250s reference 0.125s")
"#;

#[test]
fn time_safety_counts_forfeits_of_every_part() {
    let dir = common::temp_dir("tool-scripts", "time-safety");
    let (runner, _) = common::stand_in_match_runner(&dir, STAND_IN_RUNNER);
    // The movestogo part plays real games from these openings, Tropa against itself.
    let openings = dir.join("openings.pgn");
    std::fs::write(
        &openings,
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 e6 *\n",
    )
    .unwrap();
    let tropa = env!("CARGO_BIN_EXE_tropa");
    let (ok, out) = common::chess_script(
        "time_safety.py",
        &[
            "--engine",
            tropa,
            "--ref",
            tropa,
            "--games",
            "3",
            "--fast-games",
            "2",
            "--mtg-games",
            "2",
            "--mtg",
            "40/1",
            "--match",
            runner.to_str().unwrap(),
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    assert!(!ok, "a forfeit must fail the run: {out}");
    let part = |label: &str| out.lines().find(|l| l.starts_with(label)).unwrap_or("");
    assert!(
        part("main:").contains("games 3 ") && part("main:").contains("Tropa time forfeits 0"),
        "{out}"
    );
    assert!(
        part("fast:").contains("games 2 ") && part("fast:").contains("Tropa time forfeits 1"),
        "{out}"
    );
    assert!(part("main:").contains("Tropa min clock 0.250s"), "{out}");
    // The movestogo games were played: their forfeits and failures add to the fast one.
    let mtg = part("movestogo:");
    let count = |after: &str| -> usize {
        let rest = &mtg[mtg.find(after).unwrap_or_else(|| panic!("{out}")) + after.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    let bad = 1 + count("Tropa time forfeits ") + count("Tropa failures ");
    assert!(
        mtg.contains("games 2 ") && !mtg.contains("min clock inf"),
        "{out}"
    );
    assert!(
        out.contains(&format!("TOTAL Tropa time forfeits and failures: {bad}")),
        "{out}"
    );
}

/// `scripts/combination_set.py`, the builder of `tests/data/combinations.epd`, on a small input
/// with Tropa as its judge at depth 6: the records it writes carry every label, and `--verify`
/// finds each of them again (the build is deterministic); with `--tuned` the same records come
/// out, each with its half.
#[test]
fn combination_set_builds_labelled_records_that_verify() {
    let dir = common::temp_dir("tool-scripts", "combination-set");
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let wac = std::fs::read_to_string(format!("{data}/wac.epd")).unwrap();
    let (suite, bk) = (dir.join("wac.epd"), dir.join("bk.epd"));
    std::fs::write(&suite, wac.lines().take(60).collect::<Vec<_>>().join("\n")).unwrap();
    std::fs::write(&bk, "").unwrap();
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::copy(
        format!("{data}/games/masters-1790-1858.pgn"),
        games.join("classics.pgn"),
    )
    .unwrap();
    for empty in ["fischer.pgn", "kasparov.pgn"] {
        std::fs::write(games.join(empty), "").unwrap();
    }
    let out = dir.join("set.epd");
    let tropa = env!("CARGO_BIN_EXE_tropa");
    let paths = [&suite, &bk, &games, &out].map(|p| p.to_str().unwrap().to_string());
    // The builder's inputs and quotas, the same for both runs.
    let build = |out: &str, more: &[&str]| {
        let mut args = vec!["--stockfish", tropa, "--depth", "6", "--wac", &paths[0]];
        args.extend(["--bk", &paths[1], "--games-dir", &paths[2], "--out", out]);
        args.extend([
            "--suite-quota",
            "4",
            "--per-file",
            "3",
            "--max-sf-per-file",
            "12",
        ]);
        args.extend(more);
        common::chess_script("combination_set.py", &args)
    };
    let (ok, log) = build(&paths[3], &[]);
    assert!(ok, "{log}");
    let written = std::fs::read_to_string(&out).unwrap();
    let records: Vec<&str> = written.lines().collect();
    assert!(!records.is_empty(), "no record: {log}");
    let methods = [
        "overloading",
        "removal",
        "decoy",
        "deflection",
        "interference",
        "clearance",
    ];
    for record in &records {
        assert!(
            record.contains(" bm ") && record.contains("id \"combo."),
            "{record}"
        );
        assert!(
            record.contains("c1 \"defender ") && record.contains("c3 \"guards "),
            "{record}"
        );
        assert!(
            methods
                .iter()
                .any(|m| record.contains(&format!("c2 \"{m}\""))),
            "{record}"
        );
        assert!(record.contains(" d6: "), "{record}");
    }
    let (ok, log) = common::chess_script(
        "combination_set.py",
        &["--verify", &paths[3], "--stockfish", tropa, "--depth", "6"],
    );
    assert!(ok && log.contains("0 records differ"), "{log}");

    // Again with the first record as the set tuned on: the same records, each with its half.
    let tuned = dir.join("tuned.epd");
    std::fs::write(&tuned, format!("{}\n", records[0])).unwrap();
    let halves = dir.join("halves.epd");
    let more = [&tuned, &halves].map(|p| p.to_str().unwrap().to_string());
    let (ok, log) = build(&more[1], &["--tuned", &more[0]]);
    assert!(
        ok && log.contains("tuned records found again 1 of 1"),
        "{log}"
    );
    let split = std::fs::read_to_string(&halves).unwrap();
    let split: Vec<&str> = split.lines().collect();
    assert_eq!(split.len(), records.len(), "{log}");
    assert_eq!(split[0], format!("{} c5 \"tuning\";", records[0]));
    for (with, without) in split.iter().zip(&records) {
        let half = with
            .strip_prefix(*without)
            .unwrap_or_else(|| panic!("{with}"));
        assert!(
            [" c5 \"tuning\";", " c5 \"validation\";"].contains(&half),
            "{with}"
        );
    }
}

#[test]
fn epd_halves_writes_each_records_half_once_and_checks_it() {
    let dir = common::temp_dir("tool-scripts", "epd-halves");
    let set = dir.join("set.epd");
    let records = [
        "# a comment stays",
        "7K/8/k1P5/7p/8/8/8/8 w - - bm Kg7; id \"a\";",
        "8/8/1KP5/3r4/8/8/8/k7 w - - bm c7; id \"b\"; c5 \"tuning\";",
        "2k5/8/1K1P4/8/8/8/8/8 w - -",
    ];
    std::fs::write(&set, records.join("\n") + "\n").unwrap();
    let path = set.to_str().unwrap();
    let (ok, out) = common::script("epd_halves.py", &[path, "--check"]);
    assert!(!ok && out.contains("2 records without c5"), "{out}");
    let (ok, out) = common::script("epd_halves.py", &[path]);
    assert!(ok && out.contains("2 halves written"), "{out}");
    let text = std::fs::read_to_string(&set).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], records[0]);
    assert_eq!(lines[2], records[2], "a half already named is kept");
    // The rule is the position's alone: the same four fields, the same half, with or without
    // the record's operations.
    let half = |line: &str| {
        line.split("c5 \"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        lines[1].starts_with(records[1]) && lines[1].ends_with("\";"),
        "{text}"
    );
    assert!(
        lines[3].starts_with("2k5/8/1K1P4/8/8/8/8/8 w - - c5 \""),
        "{text}"
    );
    for line in [lines[1], lines[3]] {
        assert!(
            ["tuning", "validation"].contains(&half(line).as_str()),
            "{text}"
        );
    }
    let (ok, out) = common::script("epd_halves.py", &[path, "--check"]);
    assert!(ok && out.contains("0 halves written"), "{out}");
    let (ok, out) = common::script("epd_halves.py", &[path]);
    assert!(ok && out.contains("0 halves written"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&set).unwrap(),
        text,
        "a second run changes nothing"
    );
    std::fs::write(&set, "not an epd\n").unwrap();
    let (ok, out) = common::script("epd_halves.py", &[path]);
    assert!(!ok && out.contains(":1: not an EPD record"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn profile_lines_sums_a_functions_own_instructions_by_line() {
    let dir = common::temp_dir("tool-scripts", "profile-lines");
    // A callgrind profile with instruction addresses: positions written absolute, relative
    // and repeated; a call's inclusive cost, which is not the function's own; a function the
    // pattern does not match, and one it matches in a library: both left out.
    let profile = dir.join("cg.out");
    std::fs::write(
        &profile,
        "version: 1\ncmd:  ./binary bench\npositions: instr line\nevents: Ir\n\
         ob=(1) /somewhere/binary\n\
         fn=(1) hot::function\n0x1000 10 5\n+4 * 7\n+4 11 3\n\
         cfn=(2) callee\ncalls=1 0x2000 20\n* * 1000\n+2 12 2\n\
         fn=(2)\n0x2000 20 9\nfn=(3) other\n0x1008 30 100\n\
         ob=(2) /lib/libc.so.6\nfn=(4) hot::in_a_library\n0x1004 40 50\n",
    )
    .unwrap();
    let objdump = dir.join("objdump");
    std::fs::write(
        &objdump,
        "#!/bin/sh\ncat <<'END'\n/work/src/a.rs:10\n    1000:\tmov a\n    1004:\tadd b\n\
         /work/src/b.rs:11 (discriminator 2)\n    1008:\tcall x\n    100a:\tret\nEND\n",
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&objdump).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&objdump, permissions).unwrap();
    let args = |profile: &Path, pattern: &str| {
        vec![
            profile.to_str().unwrap().to_string(),
            "binary".into(),
            pattern.into(),
            "--objdump".into(),
            objdump.to_str().unwrap().to_string(),
        ]
    };

    let (ok, out) = common::script("profile_lines.py", &args(&profile, "^hot::"));
    assert!(ok, "{out}");
    assert!(out.starts_with("17 instructions run"), "{out}");
    let line = |source: &str| out.lines().find(|l| l.ends_with(source)).map(str::trim);
    let (a, b) = ("work/src/a.rs:10", "work/src/b.rs:11");
    assert_eq!(line(a), Some(format!("12  70.6 %  {a}").as_str()), "{out}");
    assert_eq!(line(b), Some(format!("5  29.4 %  {b}").as_str()), "{out}");
    assert!(out.contains(&format!("7  1004  {a}")), "{out}");

    // Bad input: a profile without instruction addresses, a cost that is not a number, a
    // pattern that is not a regular expression.
    let plain = dir.join("plain.out");
    std::fs::write(&plain, "version: 1\nfn=(1) hot::function\n16 5\n").unwrap();
    let broken = dir.join("broken.out");
    std::fs::write(
        &broken,
        "positions: instr line\nfn=(1) hot::f\n0x10 1 many\n",
    )
    .unwrap();
    for (profile, pattern, message) in [
        (&plain, "^hot::", "--dump-instr=yes"),
        (&broken, "^hot::", "broken.out:3: not a cost line"),
        (&profile, "(", "bad pattern"),
    ] {
        let (ok, out) = common::script("profile_lines.py", &args(profile, pattern));
        assert!(
            !ok && out.contains("error: ") && out.contains(message),
            "{out}"
        );
        assert!(!out.contains("Traceback"), "{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
