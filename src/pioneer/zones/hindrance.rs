//! The hindrance: how an enemy piece stands against a plan of the analysis, with the plan named
//! by its index there.
//!
//! Design note: one type for what the critical squares (`critical`), the change of goal
//! (`goal_change`) and the combinations (`combination`) each ask of the piece that hinders a
//! plan: which plan — a zone, an attack given up, a mate in one — and, where the analysis knows
//! it, the counter by which the piece comes or the stop it controls. It keeps indices, not
//! references, so that it is `Copy` and outlives no analysis; `attack` and `counter` resolve it
//! against the analysis's zones and rejected attacks.

use super::zone::Zone;
use crate::pioneer::attacks::attack::Attack;
use crate::pioneer::counters::counter::Counter;
use crate::rules::Square;

/// How a piece hinders a plan of the side that makes it, the plan named by its index in the
/// analysis (`Analysis::zones`, `Analysis::rejected`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hindrance {
    /// It comes in time by counter `counter` of zone `zone`: it defends the target, controls a
    /// stop, blocks the line… as the counter's kind says.
    Counter {
        /// The hindered zone.
        zone: usize,
        /// The piece's counter in that zone.
        counter: usize,
    },
    /// It controls the stop `square` of zone `zone` now: the zone is postponed.
    Controls {
        /// The hindered zone.
        zone: usize,
        /// The stop it controls.
        square: Square,
    },
    /// It stands on the route of zone `zone`'s attack: the attacker's own piece in the way.
    InTheWay {
        /// The hindered zone.
        zone: usize,
    },
    /// The attack `rejected` was given up for it, or it stands in that attack's way: the target
    /// that escapes, a defender of the target, the controller of a stop, a piece on the line.
    Rejected {
        /// The attack given up.
        rejected: usize,
    },
    /// It alone guards a square on which the side would mate in one (no attack of the analysis).
    Mate,
}

impl Hindrance {
    /// The hindered zone, if the plan is a zone.
    pub fn zone(self) -> Option<usize> {
        match self {
            Hindrance::Counter { zone, .. }
            | Hindrance::Controls { zone, .. }
            | Hindrance::InTheWay { zone } => Some(zone),
            Hindrance::Rejected { .. } | Hindrance::Mate => None,
        }
    }

    /// The hindered plan's attack among `zones` and `rejected` (those of the analysis that
    /// found the hindrance); `None` for a mate in one, which is no attack of the analysis.
    pub fn attack<'a>(self, zones: &'a [Zone], rejected: &'a [Attack]) -> Option<&'a Attack> {
        match self {
            Hindrance::Counter { zone, .. }
            | Hindrance::Controls { zone, .. }
            | Hindrance::InTheWay { zone } => Some(&zones[zone].attack),
            Hindrance::Rejected { rejected: index } => Some(&rejected[index]),
            Hindrance::Mate => None,
        }
    }

    /// The counter by which the piece hinders, among `zones`, when it comes by one.
    pub fn counter(self, zones: &[Zone]) -> Option<&Counter> {
        match self {
            Hindrance::Counter { zone, counter } => Some(&zones[zone].counters[counter]),
            _ => None,
        }
    }
}
