//! `scripts/result_fit.py` (how well the evaluations predict results) and `scripts/eval_scale.py`
//! (the net's scale against the hand-crafted one), which share their sampling, on a small
//! labelled file of lopsided positions with both sides to move: labels that agree with the
//! material are predicted far better than the same labels reversed, for the hand-crafted
//! evaluation and the built-in net alike; the file's own scores get a row of their own over
//! the lines that have one; a line without a result is refused.

mod common;

const POSITIONS: [(&str, f64); 8] = [
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 1.0),
    ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", 1.0),
    ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", 0.0),
    ("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", 0.0),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0.5,
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        0.5,
    ),
    (
        "r1bqkbn1/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQq - 0 1",
        1.0,
    ),
    (
        "rnbqkb1r/pppppppp/5n2/8/8/2N5/PPPPPPPP/R1BQKBN1 b Qkq - 0 1",
        0.0,
    ),
];

/// Runs `scripts/SCRIPT` with the built engine on every line of `file`: success and output.
fn on_every_line(script: &str, file: &std::path::Path) -> (bool, String) {
    let file = file.to_str().unwrap();
    common::script(script, &[env!("CARGO_BIN_EXE_tropa"), file, "--step", "1"])
}

/// The mean squared error a row of the script's output reports.
fn error_in(row: &str) -> f64 {
    let rest = row.split("mean squared error ").nth(1).unwrap();
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// The errors the script reports, one per row (hand-crafted, then the built-in net).
fn errors(file: &std::path::Path) -> Vec<f64> {
    let (ok, out) = on_every_line("result_fit.py", file);
    assert!(ok, "{out}");
    assert!(out.contains("8 positions"), "{out}");
    let rows: Vec<f64> = out
        .lines()
        .filter(|l| l.contains("mean squared error "))
        .map(error_in)
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(
        out.contains("hand-crafted: ") && out.contains("built-in net: "),
        "{out}"
    );
    rows
}

#[test]
fn results_that_follow_the_material_are_predicted_better_than_reversed_ones() {
    let dir = common::temp_dir("result-fit", "material");
    let write = |name: &str, flip: bool| {
        let path = dir.join(name);
        let lines: String = POSITIONS
            .iter()
            .map(|&(fen, result)| {
                let r = if flip { 1.0 - result } else { result };
                format!("{fen};{r};0\n")
            })
            .collect();
        std::fs::write(&path, lines).unwrap();
        path
    };
    let (right, reversed) = (write("right.txt", false), write("reversed.txt", true));
    for (good, bad) in errors(&right).into_iter().zip(errors(&reversed)) {
        assert!(good < 0.05, "{good}");
        assert!(bad > 0.15, "{bad}");
    }

    // eval_scale.py reads the same sample: the net's scores against the hand-crafted ones.
    let (ok, out) = on_every_line("eval_scale.py", &right);
    assert!(ok, "{out}");
    assert!(
        out.contains("of 8 positions: slope net/hand-crafted"),
        "{out}"
    );

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n").unwrap();
    let (ok, out) = on_every_line("result_fit.py", &bad);
    assert!(!ok);
    assert!(out.contains("a line without a result"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_files_own_scores_are_fitted_over_the_lines_that_have_one() {
    let dir = common::temp_dir("result-fit", "file-scores");
    let path = dir.join("scored.txt");
    // Scores that follow the results, but for one line without a score and one with a mate.
    let lines: String = POSITIONS
        .iter()
        .enumerate()
        .map(|(i, &(fen, result))| match i {
            0 => format!("{fen};{result};\n"),
            1 => format!("{fen};{result};32000\n"),
            _ => format!("{fen};{result};{}\n", (result - 0.5) * 1600.0),
        })
        .collect();
    std::fs::write(&path, lines).unwrap();
    let file = path.to_str().unwrap();
    let args = [
        env!("CARGO_BIN_EXE_tropa"),
        file,
        "--step",
        "1",
        "--file-scores",
    ];
    let (ok, out) = common::script("result_fit.py", &args);
    assert!(ok, "{out}");
    let row = out
        .lines()
        .find(|l| l.starts_with("the file's scores (6 positions): mean squared error "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(error_in(row) < 0.01, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
