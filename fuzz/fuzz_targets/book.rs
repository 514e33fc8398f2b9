#![no_main]
//! Fuzz target: see `tropa::fuzz::book_file`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tropa::fuzz::book_file(data));
