//! `scripts/selfplay_chunk.py`, which cuts a `tropa datagen` run into the compressed chunks of
//! `data/selfplay/` and rebuilds the run from them: a cut taken while the run grows (a torn
//! last frame included) and a later cut restore the run byte for byte, and a file from another
//! run is refused.

mod common;

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

fn tropa() -> &'static str {
    env!("CARGO_BIN_EXE_tropa")
}

fn chunker(folder: &Path, args: &[&str]) -> (bool, String) {
    let mut all = vec![OsStr::new("--folder"), folder.as_os_str()];
    all.extend(args.iter().map(OsStr::new));
    common::script("selfplay_chunk.py", &all)
}

fn datagen(path: &Path, seed: &str) {
    let status = Command::new(tropa())
        .args(["datagen", "--games", "4", "--nodes", "300", "--seed", seed])
        .arg("--output")
        .arg(path)
        .output()
        .unwrap()
        .status;
    assert!(status.success());
}

#[test]
fn chunks_cut_while_a_run_grows_restore_it_exactly() {
    let dir = std::env::temp_dir().join(format!("tropa-chunks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.dg");
    datagen(&whole, "5");
    let bytes = std::fs::read(&whole).unwrap();

    // The run as it stood mid-write: two thirds of the file, the last frame torn.
    let run = dir.join("r1.dg");
    std::fs::write(&run, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let folder = dir.join("selfplay");
    let run_arg = run.to_str().unwrap();
    let cut = ["cut", run_arg, "--commit", "abc1234", "--tropa", tropa()];
    let (ok, out) = chunker(&folder, &cut);
    assert!(ok, "{out}");
    // The finished run, with a torn frame after it.
    let mut grown = bytes.clone();
    grown.extend_from_slice(&[7, 0, 0]);
    std::fs::write(&run, &grown).unwrap();
    let (ok, out) = chunker(&folder, &cut);
    assert!(ok, "{out}");
    let (ok, out) = chunker(&folder, &cut);
    assert!(!ok && out.contains("no whole game"), "{out}");

    let manifest = std::fs::read_to_string(folder.join("MANIFEST.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = manifest.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3, "{manifest}");
    assert_eq!(rows[1][0], "r1-000.dg.xz");
    assert_eq!(rows[2][0], "r1-001.dg.xz");
    let games: usize = rows[1..]
        .iter()
        .map(|r| r[8].parse::<usize>().unwrap())
        .sum();
    assert_eq!(games, 4, "{manifest}");

    let restored = dir.join("restored.dg");
    let (ok, out) = chunker(&folder, &["restore", "r1", restored.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert_eq!(std::fs::read(&restored).unwrap(), bytes);

    // Another run under the same name is not appended to.
    datagen(&dir.join("other.dg"), "6");
    std::fs::copy(dir.join("other.dg"), &run).unwrap();
    let (ok, out) = chunker(&folder, &cut);
    assert!(!ok && out.contains("not the run"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The run of `datagen` at `path` rewritten as format version 2 (the fixed coding), as the
/// runs before version 3 were written.
fn as_version_2(path: &Path) -> Vec<u8> {
    use tropa::datagen::format::{read_path, PlyCoding};
    let file = read_path(path).unwrap();
    let mut bytes = file.header.to_bytes().to_vec();
    bytes[8..10].copy_from_slice(&2u16.to_le_bytes());
    for game in &file.games {
        bytes.extend(game.to_frame(PlyCoding::Fixed).unwrap());
    }
    bytes
}

#[test]
fn chunks_of_an_older_version_convert_to_the_same_games() {
    use tropa::datagen::format::{read_path, PlyCoding};
    let dir = common::temp_dir("chunks", "convert");
    let current = dir.join("current.dg");
    datagen(&current, "7");
    let old = as_version_2(&current);
    let run = dir.join("r2.dg");
    // Two chunks of version 2: half the games, then the rest.
    let half = {
        let file = tropa::datagen::format::read(&old).unwrap();
        let first = file.games[0].to_frame(PlyCoding::Fixed).unwrap().len();
        32 + first + 1
    };
    std::fs::write(&run, &old[..half]).unwrap();
    let folder = dir.join("selfplay");
    let cut = [
        "cut",
        run.to_str().unwrap(),
        "--commit",
        "abc1234",
        "--tropa",
        tropa(),
    ];
    assert!(chunker(&folder, &cut).0);
    std::fs::write(&run, &old).unwrap();
    assert!(chunker(&folder, &cut).0);

    let convert = ["convert", "--tropa", tropa()];
    let (ok, out) = chunker(&folder, &convert);
    assert!(ok && out.contains("r2-001.dg.xz"), "{out}");
    // Converted chunks are left alone the next time.
    let (ok, out) = chunker(&folder, &convert);
    assert!(ok && out.is_empty(), "{out}");
    let restored = dir.join("restored.dg");
    let (ok, out) = chunker(&folder, &["restore", "r2", restored.to_str().unwrap()]);
    assert!(ok, "{out}");
    let (before, after) = (read_path(&current).unwrap(), read_path(&restored).unwrap());
    assert_eq!(after.coding, PlyCoding::Compact);
    assert_eq!((after.header, &after.games), (before.header, &before.games));
    assert!(std::fs::metadata(&restored).unwrap().len() < old.len() as u64);

    // The run's own file is still version 2: cutting from it now is refused.
    let (ok, out) = chunker(&folder, &cut);
    assert!(!ok && out.contains("restore the run"), "{out}");
    // A file that is not data is an error, not a panic.
    let bad = Command::new(tropa())
        .arg("datagen-convert")
        .arg(dir.join("missing.dg"))
        .arg(dir.join("out.dg"))
        .output()
        .unwrap();
    assert!(!bad.status.success() && !bad.stderr.is_empty());
    assert!(!dir.join("out.dg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
