//! Standard output of the tools. A reader that went away (`tropa analyse … | head -1`) ends the
//! program quietly with success, as the output it wanted has been written; any other failure to
//! write is reported once and ends the program with an error.

use std::io::Write;

/// Writes one line to standard output (used through `say!`).
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{args}").and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("tropa: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}
