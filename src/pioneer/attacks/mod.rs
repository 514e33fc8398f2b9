//! Layer 3, attacks: the attack trajectories of a root piece against its goal.
//!
//! `attack` holds what an attack is (`Goal`, with a mate's `Preparation`; `Attack`;
//! `TrajectoryLimits`) and builds the attacks on material and the promotions, judged at once for
//! the reasons of rejection; `mate` builds the attacks on the king (mating squares, a mate
//! prepared by a second piece) and the king's flights against them. `mate` uses `attack`; the
//! list of every attack of a side is gathered by the analysis (`zones::analysis::attacks`).
//! `hunt` follows the longer attacks on the king that no trajectory describes: a check, then
//! checks only, to a mate or material won (a king hunt), and a piece offered whose capture lets
//! such a hunt begin (an offer); it stands on the rules alone, and the combinations read it
//! (`zones::combination`).

pub mod attack;
pub mod hunt;
pub mod mate;
