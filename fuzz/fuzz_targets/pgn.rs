#![no_main]
//! Fuzz target: see `tropa::fuzz::pgn`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tropa::fuzz::pgn(data));
