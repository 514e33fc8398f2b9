//! Standard output of the tools. A reader that went away (`tropa analyse … | head -1`) ends the
//! program quietly with success, as the output it wanted has been written; any other failure to
//! write is reported once and ends the program with an error.

use std::io::Write;

/// Writes one line to standard output (used through `say!`).
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    ended(writeln!(out, "{args}").and_then(|()| out.flush()));
}

/// Ends the program if standard output failed: quietly for a closed pipe.
fn ended(written: std::io::Result<()>) {
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("tropa: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// Writes a prompt without ending the line, so the answer is typed after it.
pub fn prompt(text: &str) {
    let mut out = std::io::stdout().lock();
    ended(write!(out, "{text}").and_then(|()| out.flush()));
}
