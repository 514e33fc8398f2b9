//! Test positions rebuilt from the PIONEER chapter's text (its diagrams were not at hand, so each
//! is a position that has the pieces and relations the text describes), a master-game position,
//! and positions that the tests of more than one file share (a duty, checked where it is found
//! and where it is relieved). Used by the unit tests only; the search and the plans never look at
//! them.

/// Diagram 51: White wins the a7 pawn by R e1–a1×a7 after B b1–c2 clears the first rank; Black
/// needs three moves to defend (K g8–g7 and R h5–h8–a8, or two pawn moves and Rh7).
pub const DIAGRAM_51: &str = "6k1/p2p1p2/1p2p1p1/1P2n2r/2P5/3PP3/6P1/1B2RK2 w - - 0 1";

/// Diagram 52: White attacks the knight f6 by B h6–g5×f6; Black defends in time with K g8–g7.
/// (The knight's own squares are all taken or controlled, so it cannot run.)
pub const DIAGRAM_52: &str = "4r1k1/3b1p1p/p4npB/4p2p/2P5/3BR2P/PP3PP1/6K1 w - - 0 1";

/// Diagram 53: R d2–a2×a5 is shut by the knight b4 controlling a2, R d2–d5×a5 by the blocked d5
/// pawn and the defended c5 pawn; the three-move R d2–d1–a1×a5 remains.
pub const DIAGRAM_53: &str = "5k2/8/3p4/p1pP2r1/1n6/8/3R4/6K1 w - - 0 1";

/// Réti's study (1921): White to play and draw; only 1.Kg7.
pub const RETI: &str = "7K/8/k1P5/7p/8/8/8/8 w - - 0 1";

/// Fischer–Spassky, Reykjavik 1972, game 6, before 20.e4: 20.Bxa6 wins a pawn in the exchange
/// model on a6, but after 20...Rc6 the bishop is lost (b7 and c8 are covered, and leaving a6
/// uncovers Ra7 against Qa3).
pub const FISCHER_SPASSKY_6: &str = "2r2qk1/r2n2p1/p3p2p/2pp4/8/Q3P3/PP2BPPP/2R2RK1 w - - 0 20";

/// The knight d6 alone defends the bishop b7 against the rook b1; White's bishop comes to take
/// the knight in two moves (c1–a3×d6 or c1–f4×d6).
pub const DUTY: &str = "3k4/1b6/3n4/8/8/8/8/1RB3K1 b - - 0 1";

/// The rook c8 alone guards e8, where R e1–e8 would mate; White's bishop takes the rook in two
/// moves (d3–a6×c8).
pub const GUARD: &str = "2r3k1/5ppp/8/8/8/3B4/5PPP/4R1K1 w - - 0 1";
