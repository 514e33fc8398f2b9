//! Rejection of trajectories, for PIONEER's four reasons (docs/sources.md#pioneer).
//!
//! The PIONEER chapter lists the grounds on which a trajectory may be given up before any search:
//! 1. the piece moving along the attack (or defence) trajectory does not secure a favourable
//!    outcome in the exchange model on the target square;
//! 2. the target is mobile enough to escape;
//! 3. the opponent controls a square of the trajectory or blocks its line;
//! 4. an own piece stands on a square or line of the trajectory and cannot leave it (most often
//!    a pawn blocked by an enemy pawn).
//!
//! Design note: every rejection keeps its reason and the square that caused it, so that the
//! plan output can say *why* a trajectory was dropped, and so that the zone search can tell a
//! trajectory rejected only because its target would run (whose escape moves must then be
//! searched) from one that is hopeless.

use super::safety::Refutation;
use crate::pioneer::board::control::ControlRule;
use crate::pioneer::board::pieces::{piece_letter, piece_name};
use crate::rules::{BitBoard, Piece, Square};
use std::fmt;

/// Why an own piece cannot leave the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stuck {
    /// A pawn blocked in front.
    BlockedPawn,
    /// A piece pinned to its king.
    Pinned,
    /// A piece with no free square off the path.
    NoSquare,
}

/// One reason to give up a trajectory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// Reason 1: the exchange on the target square does not gain (value for the attacker).
    UnfavourableExchange {
        /// Material result of the exchange for the attacker, in centipawns.
        value: i32,
    },
    /// Reason 1: the exchange on the target square gains, but one reply wins more back: the
    /// capturing piece is trapped there, or a piece it left is taken (`safety`).
    CaptureRefuted {
        /// The capturing piece.
        piece: Piece,
        /// The reply and the net material.
        refutation: Refutation,
    },
    /// Reason 2: the target can step to a safe square before the attacker arrives.
    TargetEscapes {
        /// The safe squares.
        squares: BitBoard,
    },
    /// Reason 3a: the opponent controls a stop of the trajectory.
    Controlled {
        /// The stop.
        square: Square,
        /// Where the controlling piece stands.
        by: Square,
        /// The controlling piece.
        piece: Piece,
        /// The control rule that applies.
        rule: ControlRule,
    },
    /// Reason 3b: an enemy piece stands on a stop or blocks a line of the trajectory.
    Blocked {
        /// Where it stands.
        square: Square,
        /// The blocking piece.
        piece: Piece,
    },
    /// Reason 4: an own piece in the way cannot leave it.
    OwnPieceStuck {
        /// Where it stands.
        square: Square,
        /// The piece.
        piece: Piece,
        /// Why it cannot move away.
        why: Stuck,
    },
}

impl Rejection {
    /// The number of the reason in the PIONEER chapter (1–4).
    pub fn number(&self) -> u8 {
        match self {
            Rejection::UnfavourableExchange { .. } | Rejection::CaptureRefuted { .. } => 1,
            Rejection::TargetEscapes { .. } => 2,
            Rejection::Controlled { .. } | Rejection::Blocked { .. } => 3,
            Rejection::OwnPieceStuck { .. } => 4,
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rejection::UnfavourableExchange { value } => {
                write!(
                    f,
                    "(1) the exchange on the target square does not gain ({value:+})"
                )
            }
            Rejection::CaptureRefuted { piece, refutation } => {
                let Refutation {
                    reply,
                    replier,
                    taken,
                    net,
                } = refutation;
                let letter = match replier {
                    Piece::Pawn => String::new(),
                    other => piece_letter(other).to_string(),
                };
                let net = f64::from(net) / 100.0;
                match taken {
                    Some(Piece::King) => write!(
                        f,
                        "(1) the capture allows mate by the reply {letter}{}",
                        reply.to
                    ),
                    None => write!(
                        f,
                        "(1) the {} is trapped after the reply {letter}{} (net {net:+.2})",
                        piece_name(piece),
                        reply.to
                    ),
                    Some(lost) => write!(
                        f,
                        "(1) the capture leaves the {} on {} to the reply {letter}x{} (net {net:+.2})",
                        piece_name(lost),
                        reply.to,
                        reply.to
                    ),
                }
            }
            Rejection::TargetEscapes { squares } => {
                let list: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                write!(f, "(2) the target can escape to {}", list.join(", "))
            }
            Rejection::Controlled {
                square,
                by,
                piece,
                rule,
            } => {
                let why = match rule {
                    ControlRule::NotMoreValuable => "no more valuable than the mover",
                    ControlRule::Undefended => "square undefended",
                    ControlRule::RookAgainstMinor => "rook against a minor piece",
                };
                write!(
                    f,
                    "(3) {square} is controlled by the {} on {by} ({why})",
                    piece_name(piece)
                )
            }
            Rejection::Blocked { square, piece } => {
                write!(
                    f,
                    "(3) the {} on {square} blocks the path",
                    piece_name(piece)
                )
            }
            Rejection::OwnPieceStuck { square, piece, why } => {
                let why = match why {
                    Stuck::BlockedPawn => "blocked",
                    Stuck::Pinned => "pinned",
                    Stuck::NoSquare => "with no square to go to",
                };
                write!(
                    f,
                    "(4) the own {} on {square} is in the way and {why}",
                    piece_name(piece)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_numbered_and_worded() {
        let r = Rejection::Blocked {
            square: Square::D5,
            piece: Piece::Pawn,
        };
        assert_eq!(r.number(), 3);
        assert_eq!(r.to_string(), "(3) the pawn on d5 blocks the path");
        let r = Rejection::OwnPieceStuck {
            square: Square::D5,
            piece: Piece::Pawn,
            why: Stuck::BlockedPawn,
        };
        assert_eq!(r.number(), 4);
        assert!(r.to_string().contains("blocked"));
        let r = Rejection::TargetEscapes {
            squares: Square::A6.bitboard() | Square::B8.bitboard(),
        };
        assert_eq!(r.number(), 2);
        assert_eq!(r.to_string(), "(2) the target can escape to a6, b8");
        assert_eq!(
            Rejection::UnfavourableExchange { value: -220 }.to_string(),
            "(1) the exchange on the target square does not gain (-220)"
        );
        let trapped = Refutation {
            reply: "c8c6".parse().unwrap(),
            replier: Piece::Rook,
            taken: None,
            net: -230,
        };
        let r = Rejection::CaptureRefuted {
            piece: Piece::Bishop,
            refutation: trapped,
        };
        assert_eq!(r.number(), 1);
        assert_eq!(
            r.to_string(),
            "(1) the bishop is trapped after the reply Rc6 (net -2.30)"
        );
        let r = Rejection::CaptureRefuted {
            piece: Piece::Queen,
            refutation: Refutation {
                reply: "e2e7".parse().unwrap(),
                replier: Piece::Queen,
                taken: Some(Piece::Knight),
                net: -220,
            },
        };
        assert_eq!(
            r.to_string(),
            "(1) the capture leaves the knight on e7 to the reply Qxe7 (net -2.20)"
        );
    }
}
