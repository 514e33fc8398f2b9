//! Trajectories on the real board: the obstacles on a path and the forecast of its duration.
//!
//! PIONEER: "If squares of the trajectory are occupied or its lines blocked by own pieces, each
//! can be led away in one move, and the forecast duration is the length on the empty board plus
//! the number of pieces to lead away. If they are occupied by the opponent, or under his attack,
//! or occupied by own blocked pawns, by pieces with important duties or simply pinned, the
//! obstacle probably cannot be removed in one move; the trajectory is dropped, or postponed."
//!
//! Design note: a `Route` is one concrete path (its stops) with the obstacles found on it and the
//! move at which each stop is reached. Own pieces in the way are cleared "just in time", so stop
//! i is reached at move i plus the clearing moves needed up to it; this gives the opponent the
//! least time to react, which is what the timing of counter-trajectories must assume. An own
//! piece pinned to its king (`pins`) cannot be cleared. The best path through a bundle is found
//! by dynamic programming over the bundle's steps (fewest irremovable obstacles first, then
//! fewest clearing moves), so the dozens of shortest king or knight paths are never listed one
//! by one. `first_steps` keeps every first square from which an equally good path continues:
//! the zone search plays all of them. `best_route`, the quickest way of a piece to any of a set
//! of squares, serves every layer above that sends a piece somewhere in time: a counter, a
//! freeing move, a linked piece.

use super::control::{control, Control};
use super::pins::pinned;
use super::trajectory::{bundle, distance, two_fragment, Bundle, Mover};
use crate::rules::see::attackers_to;
use crate::rules::{BitBoard, Board, Color, Piece, Square};
use cozy_chess::{
    get_between_rays, get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks,
    get_pawn_quiets, get_rook_moves,
};

/// What stands in a trajectory's way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObstacleKind {
    /// An own piece that can step aside in one move (costs one move).
    OwnMovable(Piece),
    /// An own pawn that cannot move (blocked).
    OwnBlockedPawn,
    /// An own piece pinned to its king.
    OwnPinned(Piece),
    /// An own piece with no square to step aside to.
    OwnImmobile(Piece),
    /// An enemy piece on a stop or a line of the path.
    Enemy(Piece),
    /// The opponent controls a stop (PIONEER's three rules).
    Controlled(Control),
}

/// One obstacle on a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Obstacle {
    /// The square of the obstacle (for control: the controlled stop).
    pub square: Square,
    /// Index of the stop whose move it hinders (1 = the first move).
    pub step: u8,
    /// What it is.
    pub kind: ObstacleKind,
}

impl Obstacle {
    /// Can the obstacle be removed by one move of the mover's side (an own piece stepping aside)?
    pub fn removable(&self) -> bool {
        matches!(self.kind, ObstacleKind::OwnMovable(_))
    }
}

/// A concrete trajectory on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// How the piece moves.
    pub mover: Mover,
    /// Whose piece it is.
    pub side: Color,
    /// The stops, `squares[0]` being where the piece stands.
    pub squares: Vec<Square>,
    /// `arrival[i]`: the mover's own move at which it reaches `squares[i]` (0 for the start).
    pub arrival: Vec<u8>,
    /// Obstacles in path order.
    pub obstacles: Vec<Obstacle>,
    /// Every first stop from which an equally good path continues (includes `squares[1]`).
    pub first_steps: BitBoard,
}

impl Route {
    /// Length on the empty board, in moves.
    pub fn len(&self) -> u8 {
        (self.squares.len() - 1) as u8
    }

    /// Is it the trivial route (the piece is already there)?
    pub fn is_empty(&self) -> bool {
        self.squares.len() < 2
    }

    /// Forecast duration: length plus one move per own piece to lead away.
    pub fn forecast(&self) -> u8 {
        self.arrival.last().copied().unwrap_or(0)
    }

    /// Where the piece starts.
    pub fn start(&self) -> Square {
        self.squares[0]
    }

    /// Where it ends.
    pub fn end(&self) -> Square {
        *self.squares.last().expect("a route has a start")
    }

    /// Obstacles that cannot be cleared in one move (the route is dropped or postponed).
    pub fn hard_obstacles(&self) -> impl Iterator<Item = &Obstacle> {
        self.obstacles.iter().filter(|o| !o.removable())
    }

    /// Is the route free of obstacles that cannot be cleared in one move?
    pub fn passable(&self) -> bool {
        self.hard_obstacles().next().is_none()
    }

    /// Number of stops the opponent controls.
    pub fn controlled_count(&self) -> usize {
        self.obstacles
            .iter()
            .filter(|o| matches!(o.kind, ObstacleKind::Controlled(_)))
            .count()
    }

    /// Number of lines blocked by the opponent's pieces.
    pub fn blocked_count(&self) -> usize {
        self.obstacles
            .iter()
            .filter(|o| matches!(o.kind, ObstacleKind::Enemy(_)))
            .count()
    }

    /// Squares passed over between stops (sliders only), start and stops excluded.
    pub fn line_squares(&self, segment: usize) -> BitBoard {
        if self.mover.slides() && segment >= 1 && segment < self.squares.len() {
            get_between_rays(self.squares[segment - 1], self.squares[segment])
        } else {
            BitBoard::EMPTY
        }
    }

    /// All squares the route uses after its start: stops and lines.
    pub fn used_squares(&self) -> BitBoard {
        let mut out = BitBoard::EMPTY;
        for i in 1..self.squares.len() {
            out |= self.squares[i].bitboard() | self.line_squares(i);
        }
        out
    }

    /// The squares of the route in PIONEER's notation, e.g. `e1–a1–a7` (the caller adds the
    /// piece letter and a capture sign).
    pub fn squares_text(&self) -> String {
        self.squares
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("–")
    }
}

/// Squares the piece on `square` attacks or may move to with the given occupancy (pseudo-legal,
/// own pieces excluded; pawns: pushes and captures of enemy pieces).
pub fn piece_moves(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
        return BitBoard::EMPTY;
    };
    let own = board.colors(color) & occupied;
    let to = match piece {
        Piece::Pawn => {
            get_pawn_quiets(square, color, occupied)
                | (get_pawn_attacks(square, color) & board.colors(!color) & occupied)
        }
        Piece::Knight => get_knight_moves(square),
        Piece::Bishop => get_bishop_moves(square, occupied),
        Piece::Rook => get_rook_moves(square, occupied),
        Piece::Queen => get_bishop_moves(square, occupied) | get_rook_moves(square, occupied),
        Piece::King => get_king_moves(square),
    };
    to & !own
}

/// Classifies an own piece standing in the way of a route whose squares are `path`.
fn own_obstacle(board: &Board, square: Square, path: BitBoard, pins: BitBoard) -> ObstacleKind {
    let piece = board.piece_on(square).unwrap_or(Piece::Pawn);
    if pins.has(square) {
        return ObstacleKind::OwnPinned(piece);
    }
    let moves = piece_moves(board, square, board.occupied());
    if piece == Piece::Pawn && moves.is_empty() {
        return ObstacleKind::OwnBlockedPawn;
    }
    if (moves & !path).is_empty() {
        return ObstacleKind::OwnImmobile(piece);
    }
    // A king does not step onto attacked squares.
    if piece == Piece::King {
        let color = board.color_on(square).unwrap_or(Color::White);
        let safe = (moves & !path)
            .iter()
            .any(|s| (attackers_to(board, s, board.occupied()) & board.colors(!color)).is_empty());
        if !safe {
            return ObstacleKind::OwnImmobile(piece);
        }
    }
    ObstacleKind::OwnMovable(piece)
}

/// What a route must do at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Capture the enemy piece on the last square (no obstacle there, the exchange is judged
    /// elsewhere).
    Capture,
    /// Arrive on the last square, which must be free (or freed by an own piece).
    Arrive,
}

/// Context for assessing routes of one piece.
#[derive(Clone, Copy)]
pub struct Assessor<'a> {
    board: &'a Board,
    side: Color,
    start: Square,
    mover: Mover,
    piece: Piece,
    pins: BitBoard,
    check_control: bool,
}

impl<'a> Assessor<'a> {
    /// Routes of the piece on `start` (which must be occupied), moving as `mover`. With
    /// `check_control` the opponent's control of the stops is an obstacle.
    pub fn new(board: &'a Board, start: Square, mover: Mover, check_control: bool) -> Option<Self> {
        let side = board.color_on(start)?;
        Some(Assessor {
            board,
            side,
            start,
            mover,
            piece: mover.piece(),
            pins: pinned(board, side),
            check_control,
        })
    }

    /// Obstacles of the move from `a` to stop `b` (the `step`-th move), `last` telling whether
    /// `b` is the route's end and how it must be finished.
    fn segment(
        &self,
        a: Square,
        b: Square,
        step: u8,
        finish: Option<Finish>,
        path: BitBoard,
    ) -> Vec<Obstacle> {
        let board = self.board;
        let mut out = Vec::new();
        let occupied = board.occupied() & !self.start.bitboard();
        let on = |square: Square, out: &mut Vec<Obstacle>| {
            if !occupied.has(square) {
                return;
            }
            let kind = if board.color_on(square) == Some(self.side) {
                own_obstacle(board, square, path, self.pins)
            } else {
                ObstacleKind::Enemy(board.piece_on(square).unwrap_or(Piece::Pawn))
            };
            out.push(Obstacle { square, step, kind });
        };
        if self.mover.slides() {
            for s in get_between_rays(a, b) {
                on(s, &mut out);
            }
        }
        match finish {
            Some(Finish::Capture) => {}
            _ => on(b, &mut out),
        }
        // Control matters on every stop but the captured target's square (the exchange there is
        // judged by the exchange model).
        if self.check_control && finish != Some(Finish::Capture) {
            if let Some(c) = control(board, b, self.start, self.piece) {
                out.push(Obstacle {
                    square: b,
                    step,
                    kind: ObstacleKind::Controlled(c),
                });
            }
        }
        out
    }

    /// Assesses a concrete path of stops (`stops[0]` = start).
    pub fn route(&self, stops: &[Square], finish: Finish) -> Route {
        let mut path = BitBoard::EMPTY;
        for i in 0..stops.len() {
            path |= stops[i].bitboard();
            if i > 0 && self.mover.slides() {
                path |= get_between_rays(stops[i - 1], stops[i]);
            }
        }
        let mut obstacles = Vec::new();
        let mut arrival = vec![0u8];
        let mut clears = 0u8;
        for i in 1..stops.len() {
            let end = (i == stops.len() - 1).then_some(finish);
            let seg = self.segment(stops[i - 1], stops[i], i as u8, end, path);
            clears += seg.iter().filter(|o| o.removable()).count() as u8;
            arrival.push(i as u8 + clears);
            obstacles.extend(seg);
        }
        Route {
            mover: self.mover,
            side: self.side,
            squares: stops.to_vec(),
            arrival,
            obstacles,
            first_steps: stops.get(1).map_or(BitBoard::EMPTY, |s| s.bitboard()),
        }
    }

    fn segment_cost(
        &self,
        a: Square,
        b: Square,
        step: u8,
        finish: Option<Finish>,
        path: BitBoard,
    ) -> u16 {
        self.segment(a, b, step, finish, path)
            .iter()
            .map(|o| if o.removable() { 1 } else { 64 })
            .sum()
    }

    /// The best path through a bundle: fewest irremovable obstacles, then fewest clearing
    /// moves; `first_steps` holds every first stop that starts an equally good path.
    pub fn best_in_bundle(&self, bundle: &Bundle, finish: Finish) -> Route {
        let len = bundle.len as usize;
        if len == 0 {
            return self.route(&[self.start], finish);
        }
        // to_go[k][s]: least cost from stop s at step k to the end.
        let mut to_go = vec![[u16::MAX; 64]; len + 1];
        to_go[len][bundle.to as usize] = 0;
        let hint = bundle.inner_squares() | bundle.to.bitboard();
        // Cost of stepping s → t at step k and going on from t at the least cost (None if t
        // leads nowhere).
        let via = |to_go: &[[u16; 64]], k: usize, s: Square, t: Square| {
            let rest = to_go[k + 1][t as usize];
            (rest != u16::MAX).then(|| {
                let end = (k + 1 == len).then_some(finish);
                self.segment_cost(s, t, (k + 1) as u8, end, hint) + rest
            })
        };
        for k in (0..len).rev() {
            for s in bundle.step(k) {
                to_go[k][s as usize] = (bundle.step(k + 1) & self.mover.steps(s))
                    .into_iter()
                    .filter_map(|t| via(&to_go, k, s, t))
                    .min()
                    .unwrap_or(u16::MAX);
            }
        }
        // Walk forward choosing the cheapest continuation; collect equally good first steps.
        let mut stops = vec![self.start];
        let mut first_steps = BitBoard::EMPTY;
        let mut current = self.start;
        for k in 0..len {
            let mut choice: Option<(u16, Square)> = None;
            for t in bundle.step(k + 1) & self.mover.steps(current) {
                let Some(c) = via(&to_go, k, current, t) else {
                    continue;
                };
                if k == 0 && c == to_go[0][self.start as usize] {
                    first_steps |= t.bitboard();
                }
                if choice.is_none_or(|(best, _)| c < best) {
                    choice = Some((c, t));
                }
            }
            let Some((_, t)) = choice else { break };
            stops.push(t);
            current = t;
        }
        let mut route = self.route(&stops, finish);
        route.first_steps = first_steps | route.first_steps;
        route
    }

    /// The shortest route to `to` (`None` if the mover can never get there).
    pub fn shortest(&self, to: Square, finish: Finish) -> Option<Route> {
        let b = bundle(self.mover, self.start, to)?;
        Some(self.best_in_bundle(b, finish))
    }

    /// Routes of length 3–4 built from two fragments (PIONEER: at most four moves without an
    /// obstacle, or three with one), best first.
    pub fn longer(&self, to: Square, finish: Finish) -> Vec<Route> {
        let mut out: Vec<Route> = Vec::new();
        for (via, a, b) in two_fragment(self.mover, self.start, to) {
            if self.board.occupied().has(via) {
                continue;
            }
            let first = self.best_in_bundle(&a, Finish::Arrive);
            let second_half = Assessor {
                start: via,
                ..*self
            }
            .best_in_bundle(&b, finish);
            let mut stops = first.squares.clone();
            stops.extend_from_slice(&second_half.squares[1..]);
            let route = self.route(&stops, finish);
            let count = route.obstacles.len();
            let allowed = match route.len() {
                3 => count <= 1,
                4 => count == 0,
                _ => false,
            };
            if allowed && route.passable() {
                out.push(route);
            }
        }
        out.sort_by_key(|r| (r.forecast(), r.obstacles.len()));
        out.dedup_by(|a, b| a.squares == b.squares);
        out
    }
}

/// Is `square` attacked by `side`?
fn attacked_by(board: &Board, square: Square, side: Color) -> bool {
    !(attackers_to(board, square, board.occupied()) & board.colors(side)).is_empty()
}

/// The best route of the piece on `from` to any of `squares` within `limit` moves (forecast),
/// kings avoiding squares the other side attacks. Its `first_steps` gather the first moves of
/// every equally fast route, whichever square of `squares` it ends on.
pub(crate) fn best_route(
    board: &Board,
    from: Square,
    squares: BitBoard,
    limit: u8,
) -> Option<Route> {
    let piece = board.piece_on(from)?;
    let color = board.color_on(from)?;
    let mover = Mover::new(piece, color);
    let assessor = Assessor::new(board, from, mover, true)?;
    let mut best: Option<Route> = None;
    for s in squares {
        if s == from {
            return Some(assessor.route(&[from], Finish::Arrive));
        }
        if distance(mover, from, s).is_none_or(|d| d > limit) {
            continue;
        }
        if piece == Piece::King && attacked_by(board, s, !color) {
            continue;
        }
        let Some(route) = assessor.shortest(s, Finish::Arrive) else {
            continue;
        };
        if !route.passable() || route.forecast() > limit {
            continue;
        }
        match best.as_mut() {
            Some(b) if route.forecast() == b.forecast() => b.first_steps |= route.first_steps,
            Some(b) if route.forecast() > b.forecast() => {}
            _ => best = Some(route),
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    fn assessor(board: &Board, from: Square) -> Assessor<'_> {
        let piece = board.piece_on(from).unwrap();
        let color = board.color_on(from).unwrap();
        Assessor::new(board, from, Mover::new(piece, color), true).unwrap()
    }

    #[test]
    fn own_piece_on_the_line_costs_one_move() {
        // Diagram 51 (rebuilt): R e1–a1×a7, the bishop b1 must first leave the first rank.
        let board = parse_fen(
            "6k1/p2p1p2/1p2p1p1/1P2n2r/2P5/3PP3/6P1/1B2RK2 w - - 0 1",
            false,
        )
        .unwrap();
        let a = assessor(&board, Square::E1);
        let b = bundle(Mover::Rook, Square::E1, Square::A7).unwrap();
        let route = a.best_in_bundle(b, Finish::Capture);
        assert_eq!(route.squares, vec![Square::E1, Square::A1, Square::A7]);
        assert_eq!(route.len(), 2);
        assert_eq!(route.forecast(), 3);
        assert_eq!(route.obstacles.len(), 1);
        assert_eq!(route.obstacles[0].square, Square::B1);
        assert_eq!(
            route.obstacles[0].kind,
            ObstacleKind::OwnMovable(Piece::Bishop)
        );
        assert_eq!(route.squares_text(), "e1–a1–a7");
        // The other path, e1–e7–a7, runs into the e3 pawn (blocked? no: it can advance) and
        // the black e6 pawn — an enemy piece, irremovable.
        let other = a.route(&[Square::E1, Square::E7, Square::A7], Finish::Capture);
        assert!(!other.passable());
    }

    #[test]
    fn blocked_pawns_and_pinned_pieces_cannot_step_aside() {
        // The white pawn d5 is blocked by d6; the rook d2 cannot go d2–d8.
        let board = parse_fen("3k4/8/3p4/3P4/8/8/3R4/4K3 w - - 0 1", false).unwrap();
        let route = assessor(&board, Square::D2).route(&[Square::D2, Square::D7], Finish::Arrive);
        assert!(route
            .obstacles
            .iter()
            .any(|o| o.kind == ObstacleKind::OwnBlockedPawn));
        // The knight e2, pinned by the bishop b5 to the king f1, cannot step off the second rank
        // for the rook a2.
        let board = parse_fen("4k3/8/8/1b6/8/8/R3N3/5K2 w - - 0 1", false).unwrap();
        let route = assessor(&board, Square::A2).route(&[Square::A2, Square::H2], Finish::Arrive);
        assert!(route
            .obstacles
            .iter()
            .any(|o| o.kind == ObstacleKind::OwnPinned(Piece::Knight)));
    }

    #[test]
    fn controlled_stops_are_obstacles() {
        // The rook a1 going a1–a5–h5: a5 is controlled by the b6 pawn (rule 1).
        let board = parse_fen("4k3/8/1p6/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let route = assessor(&board, Square::A1)
            .route(&[Square::A1, Square::A5, Square::H5], Finish::Arrive);
        assert!(route
            .obstacles
            .iter()
            .any(|o| matches!(o.kind, ObstacleKind::Controlled(c) if c.by == Square::B6)));
        // The other corner, h1, is free.
        let route = assessor(&board, Square::A1)
            .shortest(Square::H5, Finish::Arrive)
            .unwrap();
        assert!(route.passable());
        assert!(route.squares.contains(&Square::H1));
    }

    #[test]
    fn first_steps_keep_every_equally_good_start() {
        // Réti: the king h8 toward d6 may start with g7 or g8.
        let board = parse_fen("7K/8/k1P5/7p/8/8/8/8 w - - 0 1", false).unwrap();
        let route = assessor(&board, Square::H8)
            .shortest(Square::D6, Finish::Arrive)
            .unwrap();
        assert_eq!(route.len(), 4);
        assert_eq!(
            route.first_steps,
            Square::G7.bitboard() | Square::G8.bitboard()
        );
    }

    #[test]
    fn three_move_route_with_one_obstacle_from_two_fragments() {
        // PIONEER's diagram 53 (rebuilt): a2 is controlled by the knight b4 and the fifth rank is
        // shut by the blocked d5 pawn, so the rook goes R d2–d1–a1×a5.
        let board = parse_fen(crate::pioneer::examples::DIAGRAM_53, false).unwrap();
        let a = assessor(&board, Square::D2);
        let shortest = a.shortest(Square::A5, Finish::Capture).unwrap();
        assert!(!shortest.passable());
        let longer = a.longer(Square::A5, Finish::Capture);
        assert!(longer
            .iter()
            .any(|r| r.squares == vec![Square::D2, Square::D1, Square::A1, Square::A5]));
    }
}
