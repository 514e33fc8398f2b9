//! The `tropa` binary: UCI engine and command-line tools.

fn main() {
    std::process::exit(tropa::cli::main());
}
