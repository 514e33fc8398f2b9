//! Layer 2, rejection: PIONEER's reasons for giving a trajectory up before any search.
//!
//! `reject` names the four reasons (`Rejection`); `safety` judges reason 1 past the exchange on
//! the target square (is the capturing piece trapped, or another piece left to be taken?);
//! `escape` finds reason 2, the squares the target can run to in time; `duty` says what chains a
//! piece to its place besides a pin (the one defence of a piece or of a mating square), which
//! narrows its escape. Reason 3 is the board's control of a stop and reason 4 a route's own
//! obstacle (`board::route`). The files use the board only, and `reject` uses `safety`.

pub mod duty;
pub mod escape;
pub mod reject;
pub mod safety;
