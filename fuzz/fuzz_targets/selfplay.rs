#![no_main]
//! Fuzz target: see `tropa_fuzz_checks::selfplay_file`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| tropa_fuzz_checks::selfplay_file(data));
