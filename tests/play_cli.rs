//! `tropa play` through a pseudo-terminal (tests/play_pty.py, Python's `pty` module): a full short
//! game with an illegal move refused, a take-back, a hint and a flipped board; a timed game as
//! Black ended by resignation; the end of the input saving the game unfinished; draw offers
//! taken when Tropa is lost and declined when it is winning.

use std::process::Command;

#[test]
fn play_in_a_pseudo_terminal() {
    let dir = std::env::temp_dir().join(format!("tropa-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/play_pty.py");
    let out = Command::new(python)
        .args([script, env!("CARGO_BIN_EXE_tropa"), dir.to_str().unwrap()])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["short game", "resignation", "adjourned", "draw offers"] {
        assert!(stdout.contains(&format!("ok {name}")), "{stdout}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
