//! The analysis of a position: every attack of both sides, the zones of the live ones in the
//! order of examination, how the zones interact, and the linked zones that save failing ones.
//!
//! PIONEER: "The next level watches the interaction of zones and joins interacting zones into
//! one." — "If different pieces act in them, the zones are independent and can be examined
//! separately; it is enough to take into account a shift in time, usually of one tempo." — "If
//! different zones contain trajectories of the same piece, they must be joined into one
//! composite zone."
//!
//! Design note: this is the top of the zones' layer, the one place that gathers: `attacks`
//! collects the attack, promotion and mate trajectories of a side (`attacks::attack`,
//! `attacks::mate`), `Analysis::new` forms a zone of each live or postponed one
//! (`zone::Zone::form`), orders them, merges those that share a piece (`merge`, union–find) and
//! finds the linked zones (`critical`). A winning zone's material is only counted as won when
//! every independent zone of the opponent, given one tempo more, is held (`Analysis::outcome`),
//! no attack given up only for its target's escape comes in time with that tempo, and — for the
//! side to move — the zone's own answers allow it (`Zone::stronger_reply`,
//! `Zone::bigger_capture`). A hindrance names its plan by indices into the analysis
//! (`hindrance::Hindrance`); the analysis resolves them (`hindered_attack`, `linked_attack`,
//! `hindering_counter`).

use super::critical::{linked_zones, LinkedZone};
use super::hindrance::Hindrance;
use super::zone::{Zone, ZoneVerdict};
use crate::pioneer::attacks::attack::{attack_on, promotion, Attack, Goal, TrajectoryLimits};
use crate::pioneer::attacks::mate::mate_attacks;
use crate::pioneer::counters::counter::Counter;
use crate::pioneer::rejection::escape::escape_squares;
use crate::rules::{BitBoard, Board, Color, Move, Piece};

/// Every attack, promotion and mate trajectory of `side` within the limits, live and rejected.
pub fn attacks(board: &Board, side: Color, limits: TrajectoryLimits) -> Vec<Attack> {
    let mut out = Vec::new();
    let targets = board.colors(!side) & !board.pieces(Piece::King);
    for root in board.colors(side) {
        for target in targets {
            if let Some(a) = attack_on(board, root, target, limits) {
                out.push(a);
            }
        }
        if board.piece_on(root) == Some(Piece::Pawn) {
            if let Some(p) = promotion(board, root, limits) {
                out.push(p);
            }
        }
    }
    out.extend(mate_attacks(board, side, limits));
    out
}

/// Zones joined because they share a piece (Botvinnik's composite zone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composite {
    /// Indices of the member zones in `Analysis::zones`.
    pub members: Vec<usize>,
    /// Squares of all pieces taking part.
    pub pieces: BitBoard,
}

/// Joins zones that share a piece, transitively (union–find over the zones).
pub fn merge(zones: &[Zone]) -> Vec<Composite> {
    let mut parent: Vec<usize> = (0..zones.len()).collect();
    fn find(parent: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while parent[r] != r {
            r = parent[r];
        }
        let mut j = i;
        while parent[j] != r {
            let next = parent[j];
            parent[j] = r;
            j = next;
        }
        r
    }
    for i in 0..zones.len() {
        for j in i + 1..zones.len() {
            if !(zones[i].pieces & zones[j].pieces).is_empty() {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                if a != b {
                    parent[b] = a;
                }
            }
        }
    }
    let mut out: Vec<Composite> = Vec::new();
    let mut root_of: Vec<(usize, usize)> = Vec::new();
    for (i, zone) in zones.iter().enumerate() {
        let r = find(&mut parent, i);
        match root_of.iter().find(|(root, _)| *root == r) {
            Some(&(_, k)) => {
                out[k].members.push(i);
                out[k].pieces |= zone.pieces;
            }
            None => {
                root_of.push((r, out.len()));
                out.push(Composite {
                    members: vec![i],
                    pieces: zone.pieces,
                });
            }
        }
    }
    out
}

/// Everything PIONEER sees in a position: the attacks of both sides (live and rejected), the
/// zones of the live ones in the order of examination, and the composite zones.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Attacks given up, with their reasons.
    pub rejected: Vec<Attack>,
    /// Zones of the live and the postponed attacks, in the order of examination.
    pub zones: Vec<Zone>,
    /// Zones joined by shared pieces.
    pub composites: Vec<Composite>,
    /// Linked zones: trajectories that take a critical square of a failing zone or of an
    /// attack given up for its target's escape (`critical`).
    pub linked: Vec<LinkedZone>,
}

/// Where the opponent's compensation comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compensation {
    /// A zone (index into `Analysis::zones`).
    Zone(usize),
    /// An attack rejected only because its target could run (index into `Analysis::rejected`).
    Rejected(usize),
    /// The opponent's answer to the zone's first move: a mate, or a capture worth more than
    /// the zone or stopping its mate (`Zone::stronger_reply`).
    Reply(Move),
    /// A capture the zone's side gives up by playing the zone (`Zone::bigger_capture`).
    Forgone(Move),
}

/// What a winning zone finally yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZoneOutcome {
    /// The material is won: every independent zone of the opponent is held even with a tempo
    /// more.
    Gains,
    /// An independent attack of the opponent wins at least as much with a tempo more, the
    /// opponent answers the zone's first move with a mate or a capture worth more, or a capture
    /// of the zone's side wins more now.
    Compensated(Compensation),
    /// The zone does not win statically.
    NoGain,
}

impl Analysis {
    /// Analyses `board` for both sides.
    pub fn new(board: &Board, limits: TrajectoryLimits) -> Analysis {
        let mut rejected = Vec::new();
        let mut zones = Vec::new();
        for side in [Color::White, Color::Black] {
            let to_move = board.side_to_move() == side;
            for a in attacks(board, side, limits) {
                if a.live() || a.postponable() {
                    zones.push(Zone::form(board, a, to_move));
                } else {
                    rejected.push(a);
                }
            }
        }
        zones.sort_by_key(|z| z.order_key());
        let composites = merge(&zones);
        let linked = linked_zones(board, &zones, &rejected);
        Analysis {
            rejected,
            zones,
            composites,
            linked,
        }
    }

    /// Zones of one side, in the order of examination.
    pub fn zones_of(&self, side: Color) -> impl Iterator<Item = (usize, &Zone)> {
        self.zones
            .iter()
            .enumerate()
            .filter(move |(_, z)| z.side() == side)
    }

    /// The composite that holds zone `index`.
    pub fn composite_of(&self, index: usize) -> Option<&Composite> {
        self.composites.iter().find(|c| c.members.contains(&index))
    }

    /// Are two zones independent (in different composites)?
    pub fn independent(&self, a: usize, b: usize) -> bool {
        self.composite_of(a) != self.composite_of(b)
    }

    /// The attack of the plan `hindrance` hinders (`None` for a mate in one, which is no
    /// attack of the analysis).
    pub fn hindered_attack(&self, hindrance: Hindrance) -> Option<&Attack> {
        hindrance.attack(&self.zones, &self.rejected)
    }

    /// The attack a linked zone serves: the attack of the zone it links with, or the rejected
    /// attack it revives.
    pub fn linked_attack(&self, link: &LinkedZone) -> &Attack {
        self.hindered_attack(link.critical.hindrance)
            .expect("a critical square hinders an attack")
    }

    /// The counter a linked zone stops, when its critical square lies on a counter's way.
    pub fn hindering_counter(&self, link: &LinkedZone) -> Option<&Counter> {
        link.critical.hindrance.counter(&self.zones)
    }

    /// Does zone `index` win material once the opponent's independent zones are examined with
    /// a one-tempo shift in the opponent's favour, and (the zone's side to move) no mate or
    /// capture worth more answers its first move, and no capture of its own wins more now?
    pub fn outcome(&self, board: &Board, index: usize) -> ZoneOutcome {
        let zone = &self.zones[index];
        if zone.verdict != ZoneVerdict::Wins {
            return ZoneOutcome::NoGain;
        }
        if let Some(reply) = zone.stronger_reply(board) {
            return ZoneOutcome::Compensated(Compensation::Reply(reply));
        }
        if let Some(capture) = zone.bigger_capture(board) {
            return ZoneOutcome::Compensated(Compensation::Forgone(capture));
        }
        for (j, other) in self.zones_of(!zone.side()) {
            if !self.independent(index, j) {
                continue;
            }
            let shifted = Zone::form(board, other.attack.clone(), true);
            if shifted.verdict == ZoneVerdict::Wins && shifted.attack.gain >= zone.attack.gain {
                return ZoneOutcome::Compensated(Compensation::Zone(j));
            }
        }
        // An attack refuted only because its target had time to run may come in time with the
        // extra tempo.
        let ours = self.composite_of(index).map_or(zone.pieces, |c| c.pieces);
        for (k, a) in self.rejected.iter().enumerate() {
            let Goal::Capture { target, .. } = a.goal else {
                continue;
            };
            if a.side == zone.side()
                || !a.only_escapes()
                || ours.has(a.root())
                || ours.has(target)
                || a.gain < zone.attack.gain
                || !escape_squares(board, &a.route, target, true).is_empty()
            {
                continue;
            }
            let mut live = a.clone();
            live.rejections.clear();
            if Zone::form(board, live, true).verdict == ZoneVerdict::Wins {
                return ZoneOutcome::Compensated(Compensation::Rejected(k));
            }
        }
        ZoneOutcome::Gains
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::counters::support::SupportKind;
    use crate::pioneer::examples::{DIAGRAM_51, DIAGRAM_52, RETI};
    use crate::rules::{parse_fen, Square};

    fn find<'a>(analysis: &'a Analysis, notation: &str) -> (usize, &'a Zone) {
        analysis
            .zones
            .iter()
            .enumerate()
            .find(|(_, z)| z.attack.notation() == notation)
            .unwrap_or_else(|| panic!("no zone {notation}"))
    }

    /// The outcome of the winning zone whose first move is `first` (UCI) in `fen`.
    fn outcome_of_winning_move(fen: &str, first: &str) -> ZoneOutcome {
        let board = crate::rules::parse_fen(fen, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let first = first.parse().unwrap();
        let (i, _) = analysis
            .zones
            .iter()
            .enumerate()
            .find(|(_, z)| z.verdict == ZoneVerdict::Wins && z.first_move(&board) == Some(first))
            .expect("a zone that wins by its timing");
        analysis.outcome(&board, i)
    }

    #[test]
    fn a_bigger_capture_now_outweighs_the_zone() {
        // Game 52 of the classics before 16…Rxd8: …gxf5 wins the knight, but the queen d8 is
        // there to be taken, and gone after …gxf5.
        assert_eq!(
            outcome_of_winning_move(
                "r1bQ1rk1/pp3pbp/6p1/4pNP1/5P1P/2n1B3/PPP5/R3KB1R b KQ - 0 16",
                "g6f5"
            ),
            ZoneOutcome::Compensated(Compensation::Forgone("f8d8".parse().unwrap()))
        );
    }

    #[test]
    fn a_mate_in_reply_answers_any_zone() {
        // Game 78 of the classics before 28…Qg3+: …fxe4 wins a pawn, and 29.Qg7# follows.
        assert_eq!(
            outcome_of_winning_move(
                "3r2k1/p6p/6p1/2pP1p2/4P3/1PQ1K3/PB4q1/2R2b2 b - - 0 28",
                "f5e4"
            ),
            ZoneOutcome::Compensated(Compensation::Reply("c3g7".parse().unwrap()))
        );
    }

    #[test]
    fn a_capture_elsewhere_that_wins_more_answers_the_zone() {
        // Morphy–Harrwitz, Paris 1858, before 25…Rc8: Q g8×a2 wins the a2 pawn by the zone's
        // timing, but the queen leaves the rook a8 to 26.Nxa8.
        let board = crate::rules::parse_fen(
            "r4bqk/1pN4p/p1bp2r1/4pN2/4P2R/7P/PPP1QRP1/6K1 b - - 0 25",
            false,
        )
        .unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let (i, zone) = analysis
            .zones
            .iter()
            .enumerate()
            .find(|(_, z)| z.attack.root() == Square::G8 && z.attack.goal.square() == Square::A2)
            .expect("Q g8×a2");
        assert_eq!(zone.verdict, ZoneVerdict::Wins);
        assert_eq!(
            analysis.outcome(&board, i),
            ZoneOutcome::Compensated(Compensation::Reply("c7a8".parse().unwrap()))
        );
    }

    #[test]
    fn diagram_51_rook_wins_the_a7_pawn() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let (i, zone) = find(&analysis, "R e1–a1×a7");
        assert_eq!(zone.verdict, ZoneVerdict::Wins);
        assert!(zone
            .supports
            .iter()
            .any(|s| s.kind == SupportKind::Clear { square: Square::B1 }));
        assert_eq!(analysis.outcome(&board, i), ZoneOutcome::Gains);
    }

    #[test]
    fn diagram_52_black_defends_f6_in_time() {
        let board = parse_fen(DIAGRAM_52, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let (i, zone) = find(&analysis, "B h6–g5×f6");
        assert_eq!(zone.verdict, ZoneVerdict::Defended);
        assert!(zone
            .timely_counters()
            .any(|c| c.piece == Piece::King && c.route.end() == Square::G7));
        assert_eq!(analysis.outcome(&board, i), ZoneOutcome::NoGain);
    }

    #[test]
    fn reti_zones_share_the_kings_and_merge() {
        let board = parse_fen(RETI, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let (_, h) = find(&analysis, "P h5–h4–h3–h2–h1=Q");
        assert_eq!(h.verdict, ZoneVerdict::Wins);
        let (_, c) = find(&analysis, "P c6–c7–c8=Q");
        assert_eq!(c.verdict, ZoneVerdict::Defended);
        // The c-pawn's zone holds both kings (the white one escorting, the black one
        // countering) and the c-pawn; the h-pawn's zone holds only the h-pawn: independent.
        assert!(c.pieces.has(Square::H8) || c.supports.iter().any(|s| s.piece == Piece::King));
        assert!(c.pieces.has(Square::A6));
        assert_eq!(h.pieces, Square::H5.bitboard());
    }

    #[test]
    fn one_tempo_shift_finds_the_compensation() {
        // White takes the a7 pawn at once; Black's rook would take the bishop h3, which now has
        // time to run — but given the tempo White spends on a7, it has not.
        let board = parse_fen("7r/p5k1/8/8/8/7B/8/R5K1 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let (i, zone) = find(&analysis, "R a1×a7");
        assert_eq!(zone.verdict, ZoneVerdict::Wins);
        let k = analysis
            .rejected
            .iter()
            .position(|a| a.notation() == "R h8×h3")
            .expect("the rook's attack is refuted by the knight's escape");
        assert_eq!(
            analysis.outcome(&board, i),
            ZoneOutcome::Compensated(Compensation::Rejected(k))
        );
        // Without the bishop White simply wins the pawn.
        let board = parse_fen("7r/p5k1/8/8/8/8/8/R5K1 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let (i, _) = find(&analysis, "R a1×a7");
        assert_eq!(analysis.outcome(&board, i), ZoneOutcome::Gains);
    }

    #[test]
    fn merging_is_transitive() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let total: usize = analysis.composites.iter().map(|c| c.members.len()).sum();
        assert_eq!(total, analysis.zones.len());
        for c in &analysis.composites {
            for &i in &c.members {
                for &j in &c.members {
                    assert!(!analysis.independent(i, j));
                }
            }
        }
        for (a, ca) in analysis.composites.iter().enumerate() {
            for cb in &analysis.composites[a + 1..] {
                assert!((ca.pieces & cb.pieces).is_empty());
            }
        }
    }

    #[test]
    fn zones_come_shortest_first() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let keys: Vec<_> = analysis.zones.iter().map(|z| z.order_key()).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }

    #[test]
    fn attack_lists_cover_both_kinds() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let list = attacks(&board, Color::White, TrajectoryLimits::default());
        assert!(list
            .iter()
            .any(|a| a.notation() == "R e1–a1×a7" && a.live()));
        assert!(list.iter().all(|a| a.side == Color::White));
        assert!(list.iter().any(|a| matches!(a.goal, Goal::Promote { .. })));
    }
}
