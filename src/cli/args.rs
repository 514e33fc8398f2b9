//! One validation scheme for every numeric argument of the command line: each kind of number
//! has one parser here, with the same range as its UCI option where there is one, so that clap
//! refuses `--threads 0` or `--hash 0` for every command alike, before any work starts.

use clap::builder::{RangedI64ValueParser, RangedU64ValueParser};

/// Search threads (as the UCI option Threads).
pub fn threads() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=256)
}

/// Transposition table size in MB (as the UCI option Hash).
pub fn hash_mb() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=65_536)
}

/// Lines of analysis (as the UCI option MultiPV).
pub fn multipv() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=256)
}

/// A search depth in plies.
pub fn depth() -> RangedI64ValueParser<i32> {
    RangedI64ValueParser::new().range(1..=100)
}

/// A perft depth, or a number of plies of a book.
pub fn plies() -> RangedU64ValueParser<u32> {
    RangedU64ValueParser::new().range(1..=100)
}

/// A count that must be at least one (nodes, positions, epochs, batches).
pub fn count<T: TryFrom<u64> + Clone + Send + Sync + 'static>() -> RangedU64ValueParser<T> {
    RangedU64ValueParser::new().range(1..)
}

/// A time in seconds: positive and finite.
pub fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

/// A strength level, from the weakest (`MIN_LEVEL`) to full strength.
pub fn strength_level(text: &str) -> Result<f64, String> {
    use crate::search::strength::{MAX_LEVEL, MIN_LEVEL};
    match text.parse::<f64>() {
        Ok(x) if (MIN_LEVEL..=MAX_LEVEL as f64).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{text}' is not a level from {MIN_LEVEL} to {MAX_LEVEL}"
        )),
    }
}

/// A weight between 0 and 1.
pub fn fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number between 0 and 1")),
    }
}

/// A positive finite number (a step size).
pub fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{text}' is not a positive number")),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[test]
    fn zero_and_nonsense_are_refused_for_every_command() {
        let refused = [
            "tropa bench --hash 0",
            "tropa bench --threads 0",
            "tropa bench 0",
            "tropa perft 0",
            "tropa analyse --multipv 0",
            "tropa analyse --time 0",
            "tropa analyse --time nan",
            "tropa analyse --depth -3",
            "tropa book build --pgn a.pgn -o b.tbk --threads 0",
            "tropa book build --pgn a.pgn -o b.tbk --plies 0",
            "tropa book import-polyglot a.bin -o b.tbk --plies 0",
            "tropa book bench --batches 0",
            "tropa study --max-positions 0",
            "tropa tune --data d.txt -o w.rs --result-weight 2",
            "tropa tune --data d.txt -o w.rs --epochs 0",
        ];
        for line in refused {
            let words = line.split(' ');
            assert!(
                crate::cli::Cli::try_parse_from(words).is_err(),
                "accepted: {line}"
            );
        }
        let accepted = "tropa analyse --multipv 3 --time 0.5 --threads 2 --hash 8";
        assert!(crate::cli::Cli::try_parse_from(accepted.split(' ')).is_ok());
    }
}
