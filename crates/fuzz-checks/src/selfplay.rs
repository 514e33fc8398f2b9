//! The fuzz check for the self-play data reader (called through this crate's `selfplay_file`):
//! `tropa datagen-stats`, `tropa datagen-convert`, the trainer and a resumed `tropa datagen`
//! all read data files that may come from elsewhere (a downloaded chunk, a disk that filled up).
//!
//! Design note: every frame carries a checksum, so random bytes almost never reach the game
//! parser behind it. Every input is therefore read twice: as it comes, and laid out as a data
//! file of the version its first byte names, its other bytes cut into frames (each frame's
//! length from one byte, its checksum filled in), which leaves the payloads arbitrary. Whatever
//! is read must account for every byte, and its games must write in the current format and
//! read back the same.

use tropa::datagen::format::{image, read, Evaluation, PlyCoding, RunHeader, HEADER, HEADER_V1};
use tropa::util::fnv1a64;

/// The self-play data reader (`datagen::format::read`), each input as it comes and laid out
/// as a well-formed file (see the module note).
pub fn selfplay_file(data: &[u8]) {
    check(data);
    check(&well_formed(data));
}

/// `data` as a data file: the version from its first byte (1 to 3), a header with its node
/// limit and seed, then frames whose lengths come from the bytes themselves.
fn well_formed(data: &[u8]) -> Vec<u8> {
    let (first, rest) = data.split_first().unwrap_or((&0, &[]));
    let version = 1 + u16::from(*first % 3);
    let header = RunHeader {
        nodes: 5000,
        seed: u64::from(*first),
        evaluation: Evaluation::HandCrafted,
    };
    let mut bytes = header.to_bytes()[..if version == 1 { HEADER_V1 } else { HEADER }].to_vec();
    bytes[8..10].copy_from_slice(&version.to_le_bytes());
    let mut rest = rest;
    while let Some((&len, tail)) = rest.split_first() {
        let (payload, tail) = tail.split_at(usize::from(len).min(tail.len()));
        bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&fnv1a64(payload).to_le_bytes());
        bytes.extend_from_slice(payload);
        rest = tail;
    }
    bytes
}

fn check(bytes: &[u8]) {
    let file = match read(bytes) {
        Ok(file) => file,
        Err(e) => {
            assert!(e.0.len() < 400, "error too long: {}", e.0);
            return;
        }
    };
    assert_eq!(
        file.intact_len + file.dropped,
        bytes.len(),
        "bytes unaccounted for"
    );
    for game in &file.games {
        let quiet = game.samples().count();
        assert!(quiet <= game.plies.len());
    }
    // What was read is a set of legal games: the current format holds them and gives them back.
    let again = image(file.header, &file.games)
        .unwrap_or_else(|e| panic!("games read cannot be written: {e}"));
    let back = read(&again).unwrap_or_else(|e| panic!("own file refused: {e}"));
    assert_eq!(back.coding, PlyCoding::Compact);
    assert_eq!((back.header, back.dropped), (file.header, 0));
    assert_eq!(back.games, file.games, "games changed on the way through");
}
