#![no_main]
//! Fuzz target: see `tropa_fuzz_checks::fen`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tropa_fuzz_checks::fen(data));
