//! `tropa plan --measure GAMES.pgn`: PIONEER's plans against a deeper search over middlegame
//! positions from master games.
//!
//! Design note: the positions are taken by a fixed rule, not chosen by hand: from the games of
//! the file in order, game k gives the position before ply 28 + (13·k mod 32), that is between
//! moves 15 and 30 with either side to move, when the game is that long. For each, the first
//! move of the best confirmed plan of the side to move must score within `MARGIN` of the
//! referee's best move, and every zone PIONEER calls a win is checked for a first move that
//! loses material (`explain::measure`).

use crate::book::pgn::read_pgn;
use crate::explain::measure::measure_position;
use crate::explain::CheckLimits;
use crate::rules::notation::move_to_san;
use crate::rules::{write_fen, Game};
use std::path::Path;
use std::time::Instant;

/// A plan's first move at most this far below the referee's best counts as good.
const MARGIN: i32 = 100;
/// Plies of the first position a game may give.
const FIRST_PLY: usize = 28;
/// Spread of the positions over the plies after it.
const PLY_SPREAD: usize = 32;

/// Measures `positions` positions of `pgn` with plans checked within `check` and a referee
/// search of `referee_depth`; one line per position, then the totals.
pub fn measure(
    pgn: &Path,
    positions: usize,
    check: CheckLimits,
    referee_depth: i32,
) -> Result<(), String> {
    let bytes = std::fs::read(pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
    let file = read_pgn(&bytes, &pgn.display().to_string(), FIRST_PLY + PLY_SPREAD)?;
    let referee = CheckLimits {
        nodes: u64::MAX,
        ..CheckLimits::fixed(referee_depth)
    };
    let start = Instant::now();
    let (mut measured, mut good, mut no_plan, mut no_own, mut explained) = (0, 0, 0, 0, 0);
    // Win claims the report makes (confirmed by the check) and wins by the zone model alone.
    let (mut claims, mut losing, mut static_claims, mut static_losing) = (0, 0, 0, 0);
    for (k, opening) in file.openings.iter().enumerate() {
        if measured == positions {
            break;
        }
        let ply = FIRST_PLY + (13 * k) % PLY_SPREAD;
        if opening.moves.len() <= ply {
            continue;
        }
        let mut game = Game::new();
        for &mv in &opening.moves[..ply] {
            game.play(mv);
        }
        let board = game.board();
        let m = measure_position(board, check, referee);
        let Some((best, best_score)) = m.best else {
            continue;
        };
        measured += 1;
        explained += usize::from(m.explained);
        let verdict = match m.top_plan {
            None if m.own_plans == 0 => {
                no_plan += 1;
                no_own += 1;
                "no plan of its own".to_string()
            }
            None => {
                no_plan += 1;
                format!("none of its {} plans confirmed", m.own_plans)
            }
            Some((mv, score)) => {
                let within = m.top_plan_within(MARGIN);
                good += usize::from(within);
                format!(
                    "plan {} {:+} {}",
                    move_to_san(board, mv),
                    score,
                    if within { "ok" } else { "worse" }
                )
            }
        };
        let bad = m.losing_win_claims(MARGIN, false);
        let reported = m.win_claims.iter().filter(|c| c.confirmed).count();
        static_claims += m.win_claims.len();
        static_losing += bad.len();
        claims += reported;
        losing += bad.iter().filter(|c| c.confirmed).count();
        let bad_text: Vec<String> = bad
            .iter()
            .map(|c| {
                let refuted = if c.confirmed { "" } else { " refuted" };
                format!("{} {:+}{refuted}", move_to_san(board, c.mv), c.score)
            })
            .collect();
        say!(
            "{measured:3} game {:4} ply {ply}: best {} {best_score:+} {}; {verdict}; win claims {} ({reported} confirmed){}  {}",
            opening.number,
            move_to_san(board, best),
            if m.explained { "explained" } else { "unexplained" },
            m.win_claims.len(),
            if bad.is_empty() {
                String::new()
            } else {
                format!(" (losing: {})", bad_text.join(", "))
            },
            write_fen(board, false)
        );
    }
    if measured == 0 {
        return Err(format!("{}: no game reaches move 15", pgn.display()));
    }
    say!(
        "{measured} positions: top confirmed plan within {MARGIN} cp of the best move at depth {referee_depth} in {good} ({:.0}%), no confirmed plan in {no_plan} (no plan of its own in {no_own}); the best move explained by a plan not refuted in {explained} ({:.0}%); {losing} of {claims} claimed wins (confirmed by the check) lose material, {static_losing} of {static_claims} wins by the zone model alone; {:.0} s",
        100.0 * good as f64 / measured as f64,
        100.0 * explained as f64 / measured as f64,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
