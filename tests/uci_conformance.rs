//! The UCI suites in Python (tests/uci_conformance.py, uci_bad_input.py, uci_book.py,
//! uci_console.py, uci_syzygy.py, on the client of tests/uci_client.py), run through
//! python-chess as a real client against the release binary.
//! They fail, not skip, when no python-chess can be had; `common::python_with_chess`
//! installs it into the build folder when the Python at hand lacks it.

mod common;

use std::sync::Mutex;

/// The suites measure timings (stop latency, isready while searching): run them one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn run_section(section: &str) {
    run_script("uci_conformance.py", &[section]);
}

/// Runs `python3 tests/SCRIPT ENGINE ARGS…` and asserts that every test in it passed.
fn run_script(script: &str, args: &[&str]) {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let script = format!("{}/tests/{script}", env!("CARGO_MANIFEST_DIR"));
    let section = args.first().copied().unwrap_or(script.as_str());
    let python = common::python_with_chess().unwrap_or_else(|e| panic!("{e}"));
    let output = python
        .command()
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_tropa"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run Python: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        output.status.success(),
        "UCI suite '{section}' failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    assert!(
        stdout.contains(" passed, 0 failed"),
        "no summary line:\n{stdout}"
    );
}

#[test]
fn uci_protocol_conformance() {
    run_section("protocol");
}

#[test]
fn uci_bad_input() {
    run_script("uci_bad_input.py", &[]);
}

#[test]
fn uci_book() {
    run_script("uci_book.py", &[]);
}

/// On the Syzygy tables in `tests/data/syzygy`.
#[test]
fn uci_syzygy() {
    run_script("uci_syzygy.py", &[]);
}

#[test]
fn uci_console_and_gui_info() {
    run_script("uci_console.py", &[]);
}
