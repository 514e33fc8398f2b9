//! What the command-line tests share: running the built `tropa` and the repository's Python
//! scripts, a Python with python-chess for the tests that use it as a real client, a scratch
//! folder per test.
//! Each test file is its own crate and uses only some of these, hence `allow(dead_code)`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Runs `tropa ARGS` to the end.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tropa"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `tropa ARGS`: success, standard output, standard error.
pub fn tropa(args: &[&str]) -> (bool, String, String) {
    let out = run(args);
    (out.status.success(), stdout(&out), stderr(&out))
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `python3 scripts/SCRIPT ARGS` (`PYTHON` names another interpreter): success, and
/// standard output followed by standard error.
pub fn script<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> (bool, String) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    run_script(Command::new(python), script, args)
}

/// Runs `scripts/SCRIPT ARGS` on the Python of `python_with_chess`, for the scripts that use
/// python-chess: success, and standard output followed by standard error.
pub fn chess_script<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> (bool, String) {
    let python = python_with_chess().unwrap_or_else(|e| panic!("{e}"));
    run_script(python.command(), script, args)
}

fn run_script<S: AsRef<std::ffi::OsStr>>(
    mut python: Command,
    script: &str,
    args: &[S],
) -> (bool, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    let out = python.arg(path).args(args).output().expect("python3 runs");
    (out.status.success(), stdout(&out) + &stderr(&out))
}

/// A fresh folder of one test (the tests run side by side), named after `suite` and `test`.
pub fn temp_dir(suite: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tropa-{suite}-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A stand-in for the team's match runner in `dir`: the Python `source` as `runner.py`, and an
/// empty openings file beside it. Returns the two paths, for `--match` and `--openings`.
pub fn stand_in_match_runner(dir: &Path, source: &str) -> (PathBuf, PathBuf) {
    let runner = dir.join("runner.py");
    std::fs::write(&runner, source).unwrap();
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, "").unwrap();
    (runner, openings)
}

/// The python-chess release that the tests install when no Python at hand has one.
const PYTHON_CHESS: &str = "chess==1.11.2";

/// A Python 3 interpreter that can `import chess`, with the folder to put on its path.
pub struct PythonChess {
    interpreter: String,
    /// Where the tests installed python-chess themselves; `None` when the interpreter has it.
    installed: Option<PathBuf>,
}

impl PythonChess {
    /// A command that runs this interpreter with python-chess importable.
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.interpreter);
        if let Some(folder) = &self.installed {
            command.env("PYTHONPATH", folder);
        }
        command
    }
}

/// The Python for the tests that drive Tropa through python-chess: `PYTHON` (default
/// `python3`) when it has python-chess, else the same interpreter with python-chess installed
/// once into the build folder (`target/…/tmp/python-chess`) by `pip install --target`, which
/// an externally managed Python such as Debian's allows, so nothing is installed by hand.
/// When neither works, the error is one line that says what is missing and how to get it.
pub fn python_with_chess() -> Result<&'static PythonChess, &'static str> {
    static FOUND: OnceLock<Result<PythonChess, String>> = OnceLock::new();
    FOUND
        .get_or_init(find_python_chess)
        .as_ref()
        .map_err(String::as_str)
}

fn find_python_chess() -> Result<PythonChess, String> {
    let interpreter = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let imports = |folder: Option<&Path>| {
        let mut command = Command::new(&interpreter);
        if let Some(folder) = folder {
            command.env("PYTHONPATH", folder);
        }
        command
            .args(["-c", "import chess, chess.engine, chess.pgn"])
            .output()
            .is_ok_and(|out| out.status.success())
    };
    if imports(None) {
        return Ok(PythonChess {
            interpreter,
            installed: None,
        });
    }
    let folder = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("python-chess");
    if !imports(Some(&folder)) {
        install_python_chess(&interpreter, &folder).map_err(|why| {
            format!(
                "python-chess is missing: {interpreter} cannot import chess, and installing it \
                 into {} failed ({why}); install it (apt-get install python3-chess, or pip \
                 install chess) or set PYTHON to a python3 that has it",
                folder.display()
            )
        })?;
        if !imports(Some(&folder)) {
            return Err(format!(
                "python-chess installed into {} does not import with {interpreter}",
                folder.display()
            ));
        }
    }
    Ok(PythonChess {
        interpreter,
        installed: Some(folder),
    })
}

/// Installs python-chess into `folder` through a folder of this process's own, renamed into
/// place, so that test binaries running side by side never see half an installation.
fn install_python_chess(interpreter: &str, folder: &Path) -> Result<(), String> {
    let partial = folder.with_extension(format!("partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    let out = Command::new(interpreter)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(["--no-warn-script-location", "--no-input", "--target"])
        .arg(&partial)
        .arg(PYTHON_CHESS)
        .output()
        .map_err(|e| format!("cannot run {interpreter}: {e}"))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&partial);
        let said = stderr(&out);
        let last = said.lines().rev().find(|l| !l.trim().is_empty());
        return Err(last.unwrap_or("pip failed").trim().to_string());
    }
    let _ = std::fs::remove_dir_all(folder);
    match std::fs::rename(&partial, folder) {
        Ok(()) => Ok(()),
        // Another test binary got there first: its installation serves.
        Err(_) if folder.join("chess").is_dir() => {
            let _ = std::fs::remove_dir_all(&partial);
            Ok(())
        }
        Err(e) => Err(format!("cannot move it into place: {e}")),
    }
}
