//! The default net, embedded in the binary.
//!
//! Design note: `default.nnue` is net 16, the 768→256×2→1 net with eight output buckets whose
//! training docs/learned-evaluation.md describes (its manifest, `default.json` beside it, names
//! the data it learned from): trained with every position also mirrored between the a- and
//! h-files and the game's result weighted 0.1 in its target, its output layer's rounding fitted
//! to data as it was written (`--refine-every 5`), then written with scale 308 so that its
//! scores are on the hand-crafted scale. Its bytes go through the same checked
//! `Network::from_bytes` as a file, once, on first use; a test checks that they parse, so the
//! `expect` below cannot fire in a tested build.

use super::Network;
use std::sync::{Arc, OnceLock};

/// The bytes of the default net.
const DEFAULT_NET: &[u8] = include_bytes!("default.nnue");

/// The built-in net (parsed and checked on first use, then shared).
pub fn builtin() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(Network::from_bytes(DEFAULT_NET).expect("the built-in net is checked by a test"))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    #[test]
    fn the_builtin_net_parses_has_width_256_and_likes_an_extra_queen() {
        let net = builtin();
        assert_eq!(net.hidden(), 256);
        assert!(Arc::ptr_eq(&net, &builtin()), "parsed once");
        let queen_up = parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
        assert!(net.evaluate_full(&queen_up) > 300);
    }
}
