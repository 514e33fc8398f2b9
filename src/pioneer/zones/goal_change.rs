//! Change of goal: when a zone fails because an enemy piece hinders it, the piece that hinders
//! becomes the goal.
//!
//! PIONEER: "If the gain is not reached, its cause must be found: the object of the attack may
//! retreat, the opponent may manage to defend it or to stop the attacking piece" — and the
//! goal may change: "even if the opponent manages to defend, in the struggle for the material
//! goal a general improvement of the position and the possibility of changing the goal can be
//! achieved". The classic form is the attack on the piece that controls a square of the
//! trajectory or defends its target (deflection).
//!
//! Design note: the change is read off an analysis already made. A zone is hindered by the
//! pieces that control one of its stops now (a postponed zone) and by the counter pieces that
//! arrive in time (a defended zone); the goal changes to such a piece when a zone of the same
//! side already attacks it and wins or holds it statically (verdict `Wins` or `Contested`).
//! Nothing new is searched: the link says which zone removes the hindrance of which.

use super::analysis::Analysis;
use super::hindrance::Hindrance;
use super::zone::ZoneVerdict;
use crate::pioneer::attacks::attack::Goal;
use crate::pioneer::board::pieces::piece_name;
use crate::pioneer::counters::counter::CounterKind;
use crate::rules::{Board, Square};

/// A zone whose hindering piece another zone of the same side takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoalChange {
    /// Where the hindering piece stands.
    pub hinderer: Square,
    /// What it does against the zone: controls a stop now, or comes by a counter in time.
    pub hindrance: Hindrance,
    /// The zone whose attack takes the hindering piece.
    pub via: usize,
}

impl GoalChange {
    /// The hindered zone (index into `Analysis::zones`).
    pub fn zone(&self) -> usize {
        self.hindrance.zone().expect("a goal change hinders a zone")
    }
}

/// The goal changes of `analysis`: for every postponed or defended zone, each hindering piece
/// that a winning or contested zone of the same side attacks, once per (zone, piece).
pub fn goal_changes(analysis: &Analysis) -> Vec<GoalChange> {
    let mut out: Vec<GoalChange> = Vec::new();
    for (zone, z) in analysis.zones.iter().enumerate() {
        let hindrances: Vec<(Square, Hindrance)> = match z.verdict {
            ZoneVerdict::Postponed => z
                .attack
                .controlled_stops()
                .into_iter()
                .map(|(square, by)| (by, Hindrance::Controls { zone, square }))
                .collect(),
            ZoneVerdict::Defended => z
                .indexed_timely_counters()
                .map(|(counter, c)| (c.square(), Hindrance::Counter { zone, counter }))
                .collect(),
            ZoneVerdict::Wins | ZoneVerdict::Contested => Vec::new(),
        };
        for (hinderer, hindrance) in hindrances {
            // The target itself is no new goal.
            let target =
                matches!(z.attack.goal, Goal::Capture { target, .. } if target == hinderer);
            if target
                || out
                    .iter()
                    .any(|g| g.zone() == zone && g.hinderer == hinderer)
            {
                continue;
            }
            let via = analysis.zones.iter().position(|v| {
                v.side() == z.side()
                    && matches!(v.verdict, ZoneVerdict::Wins | ZoneVerdict::Contested)
                    && matches!(v.attack.goal, Goal::Capture { target, .. } if target == hinderer)
            });
            if let Some(via) = via {
                out.push(GoalChange {
                    hinderer,
                    hindrance,
                    via,
                });
            }
        }
    }
    out
}

/// The change of goal in words: "B b4×c5 takes the knight on c5, which comes to defend the
/// target".
pub fn goal_change_text(analysis: &Analysis, board: &Board, change: &GoalChange) -> String {
    let what = match change.hindrance {
        Hindrance::Controls { square, .. } => format!("controls {square}"),
        other => other
            .counter(&analysis.zones)
            .map_or_else(|| "hinders it".to_string(), |c| coming_words(c.kind)),
    };
    let piece = board.piece_on(change.hinderer).map_or("piece", piece_name);
    format!(
        "{} takes the {piece} on {}, which {what}",
        analysis.zones[change.via].attack.notation(),
        change.hinderer
    )
}

/// What a counter piece of kind `kind` comes to do, in words: "comes to defend the target".
fn coming_words(kind: CounterKind) -> String {
    match kind {
        CounterKind::DefendTarget => "comes to defend the target".to_string(),
        CounterKind::TakeAttacker => "can take the attacker".to_string(),
        CounterKind::ControlStop { square, .. } => format!("comes to control {square}"),
        CounterKind::Block { square, .. } => format!("comes to block on {square}"),
        CounterKind::Flight { square } => format!("frees {square} for its king"),
        CounterKind::DenyPreparation { square } => {
            format!("comes to control {square} against the mate's preparation")
        }
        CounterKind::Unpin { pinner } => format!("comes to lift the pin by {pinner}"),
        CounterKind::Relieve {
            charge,
            guard: true,
        } => format!("comes to relieve the target of guarding {charge} against the mate"),
        CounterKind::Relieve { charge, .. } => {
            format!("comes to relieve the target of defending {charge}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::rules::parse_fen;

    #[test]
    fn the_defender_of_the_target_becomes_the_goal() {
        // A master game (`classics.pgn`), White to play its 22nd move: White's R c1–c3–a3×a7 is met in time by the knight c5
        // coming to defend a7, and White's B b4×c5 takes that knight: the goal changes to it.
        let board = parse_fen(
            "r2qk2r/pp1b1n1p/3b2p1/2nPp3/1B2P3/Q2B4/P3N1PP/2R2R1K w kq - 0 22",
            false,
        )
        .unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let changes = goal_changes(&analysis);
        let change = changes
            .iter()
            .find(|g| analysis.zones[g.zone()].attack.notation() == "R c1–c3–a3×a7")
            .expect("the rook's zone changes its goal");
        assert_eq!(change.hinderer, Square::C5);
        let counter = change
            .hindrance
            .counter(&analysis.zones)
            .expect("a counter");
        assert_eq!(counter.kind, CounterKind::DefendTarget);
        let via = &analysis.zones[change.via];
        assert_eq!(via.attack.notation(), "B b4×c5");
        assert_eq!(via.side(), analysis.zones[change.zone()].side());
        assert_eq!(
            goal_change_text(&analysis, &board, change),
            "B b4×c5 takes the knight on c5, which comes to defend the target"
        );
        // Every change links two zones of one side, and never to the zone's own target.
        for g in &changes {
            let (z, v) = (&analysis.zones[g.zone()], &analysis.zones[g.via]);
            assert_eq!(z.side(), v.side());
            assert_ne!(z.attack.goal.square(), g.hinderer);
            assert!(matches!(
                v.verdict,
                ZoneVerdict::Wins | ZoneVerdict::Contested
            ));
        }
    }

    #[test]
    fn no_change_without_a_zone_against_the_hinderer() {
        // Diagram 52: the king defends f6 in time; nothing of White's attacks the king's
        // square, and the bishop's own target is no new goal.
        let board = parse_fen(crate::pioneer::examples::DIAGRAM_52, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        assert!(goal_changes(&analysis)
            .iter()
            .all(|g| g.hinderer != Square::G8));
    }
}
