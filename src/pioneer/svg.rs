//! Drawing the zones: the board as SVG with an arrow for every trajectory.
//!
//! Colour tells the side and the role: White's attack trajectories are dark blue, its support
//! trajectories teal, its counter-trajectories light blue and dashed; Black's are dark red,
//! orange and pink, likewise. Fork trajectories (one piece serving two independent zones) are a
//! thick purple line. Late counters are not drawn; a legend under the board names the colours.
//!
//! Design note: the picture is plain SVG 1.1 text with no external fonts or images — the pieces
//! are Unicode chess symbols — so it renders in a browser, in a README on a forge and in an
//! image viewer alike.

use super::fork::forks;
use super::zone::Analysis;
use crate::rules::{Board, Color, File, Piece, Rank, Square};
use std::fmt::Write;

const CELL: i32 = 60;
const MARGIN: i32 = 24;
const LEGEND: i32 = 86;

/// The role of a drawn trajectory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowRole {
    /// An attack trajectory (the zone's main one).
    Attack,
    /// A support trajectory.
    Support,
    /// A counter-trajectory in time.
    Counter,
    /// A fork trajectory's common part.
    Fork,
}

/// The stroke colour and dash pattern of a trajectory of `side` in `role`.
pub fn style(side: Color, role: ArrowRole) -> (&'static str, &'static str) {
    match (side, role) {
        (_, ArrowRole::Fork) => ("#7d3c98", ""),
        (Color::White, ArrowRole::Attack) => ("#1f4e9c", ""),
        (Color::White, ArrowRole::Support) => ("#16a085", "2,5"),
        (Color::White, ArrowRole::Counter) => ("#5dade2", "9,6"),
        (Color::Black, ArrowRole::Attack) => ("#b03a2e", ""),
        (Color::Black, ArrowRole::Support) => ("#e67e22", "2,5"),
        (Color::Black, ArrowRole::Counter) => ("#f1948a", "9,6"),
    }
}

fn centre(square: Square) -> (i32, i32) {
    let file = square.file() as i32;
    let rank = square.rank() as i32;
    (
        MARGIN + file * CELL + CELL / 2,
        MARGIN + (7 - rank) * CELL + CELL / 2,
    )
}

fn glyph(piece: Piece, color: Color) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let i = piece as usize;
    if color == Color::White {
        white[i]
    } else {
        black[i]
    }
}

/// One trajectory to draw.
struct Arrow {
    squares: Vec<Square>,
    side: Color,
    role: ArrowRole,
}

fn arrow_svg(out: &mut String, arrow: &Arrow, offset: i32) {
    if arrow.squares.len() < 2 {
        return;
    }
    let (colour, dash) = style(arrow.side, arrow.role);
    let width = if arrow.role == ArrowRole::Fork { 9 } else { 4 };
    let points: Vec<String> = arrow
        .squares
        .iter()
        .map(|&s| {
            let (x, y) = centre(s);
            format!("{},{}", x + offset, y + offset)
        })
        .collect();
    let dash = if dash.is_empty() {
        String::new()
    } else {
        format!(" stroke-dasharray=\"{dash}\"")
    };
    let marker = format!("head-{}", colour.trim_start_matches('#'));
    let _ = writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\" stroke-opacity=\"0.8\" stroke-linecap=\"round\" stroke-linejoin=\"round\"{dash} marker-end=\"url(#{marker})\"/>",
        points.join(" ")
    );
}

/// The SVG picture of `board` with the trajectories of `analysis` (only `side`'s zones if given).
pub fn draw(board: &Board, analysis: &Analysis, side: Option<Color>) -> String {
    let arrows = arrows(board, analysis, side);
    let size = 8 * CELL + 2 * MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{}\" viewBox=\"0 0 {size} {}\" font-family=\"DejaVu Sans, sans-serif\">",
        size + LEGEND,
        size + LEGEND
    );
    write_arrow_heads(&mut out);
    let _ = writeln!(
        out,
        "<rect width=\"{size}\" height=\"{}\" fill=\"#ffffff\"/>",
        size + LEGEND
    );
    write_board(&mut out);
    write_pieces(&mut out, board);
    for (i, arrow) in arrows.iter().enumerate() {
        arrow_svg(&mut out, arrow, (i as i32 % 5 - 2) * 3);
    }
    write_legend(&mut out, size);
    out.push_str("</svg>\n");
    out
}

/// The trajectories to draw: each zone's attack, counters in time and supports, then the fork
/// trajectories' common parts; only `side`'s when one is given.
fn arrows(board: &Board, analysis: &Analysis, side: Option<Color>) -> Vec<Arrow> {
    let mut arrows = Vec::new();
    for zone in &analysis.zones {
        if side.is_some_and(|s| s != zone.side()) {
            continue;
        }
        arrows.push(Arrow {
            squares: zone.attack.route.squares.clone(),
            side: zone.side(),
            role: ArrowRole::Attack,
        });
        for c in zone.timely_counters() {
            arrows.push(Arrow {
                squares: c.route.squares.clone(),
                side: !zone.side(),
                role: ArrowRole::Counter,
            });
        }
        for s in &zone.supports {
            arrows.push(Arrow {
                squares: s.route.squares.clone(),
                side: zone.side(),
                role: ArrowRole::Support,
            });
        }
    }
    for f in forks(board, analysis, 2) {
        let mut squares = vec![f.square];
        squares.extend_from_slice(&f.common);
        let color = board.color_on(f.square).unwrap_or(Color::White);
        if side.is_none_or(|s| s == color) {
            arrows.push(Arrow {
                squares,
                side: color,
                role: ArrowRole::Fork,
            });
        }
    }
    arrows
}

/// One arrow-head marker per stroke colour in use.
fn write_arrow_heads(out: &mut String) {
    out.push_str("<defs>\n");
    let mut colours: Vec<&str> = Vec::new();
    for s in [Color::White, Color::Black] {
        for r in [
            ArrowRole::Attack,
            ArrowRole::Support,
            ArrowRole::Counter,
            ArrowRole::Fork,
        ] {
            let c = style(s, r).0;
            if !colours.contains(&c) {
                colours.push(c);
            }
        }
    }
    for c in colours {
        let _ = writeln!(
            out,
            "<marker id=\"head-{}\" viewBox=\"0 0 10 10\" refX=\"7\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{c}\"/></marker>",
            c.trim_start_matches('#')
        );
    }
    out.push_str("</defs>\n");
}

/// The squares with the files and ranks named along the edges.
fn write_board(out: &mut String) {
    for square in Square::ALL {
        let (x, y) = centre(square);
        let light = (square.file() as i32 + square.rank() as i32) % 2 == 1;
        let fill = if light { "#f0d9b5" } else { "#b58863" };
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>",
            x - CELL / 2,
            y - CELL / 2
        );
    }
    for (i, file) in File::ALL.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            MARGIN + i as i32 * CELL + CELL / 2,
            MARGIN + 8 * CELL + 17,
            (b'a' + *file as u8) as char
        );
    }
    for (i, rank) in Rank::ALL.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            MARGIN / 2,
            MARGIN + (7 - i as i32) * CELL + CELL / 2 + 5,
            *rank as u8 + 1
        );
    }
}

/// The pieces, as text glyphs.
fn write_pieces(out: &mut String, board: &Board) {
    for square in board.occupied() {
        let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
            continue;
        };
        let (x, y) = centre(square);
        let _ = writeln!(
            out,
            "<text x=\"{x}\" y=\"{}\" font-size=\"46\" text-anchor=\"middle\">{}</text>",
            y + 16,
            glyph(piece, color)
        );
    }
}

/// The legend under a board of `size` pixels: a sample stroke and a name per kind of arrow.
fn write_legend(out: &mut String, size: i32) {
    let legend = [
        (Color::White, ArrowRole::Attack, "White attack"),
        (Color::White, ArrowRole::Support, "White support"),
        (Color::White, ArrowRole::Counter, "White counter"),
        (Color::Black, ArrowRole::Attack, "Black attack"),
        (Color::Black, ArrowRole::Support, "Black support"),
        (Color::Black, ArrowRole::Counter, "Black counter"),
        (Color::White, ArrowRole::Fork, "fork: one piece, two zones"),
    ];
    for (i, (s, r, name)) in legend.iter().enumerate() {
        let (colour, dash) = style(*s, *r);
        let x = MARGIN + (i as i32 % 3) * 160;
        let y = size + 14 + (i as i32 / 3) * 24;
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{colour}\" stroke-width=\"4\"{dash}/><text x=\"{}\" y=\"{}\" font-size=\"13\">{name}</text>",
            x + 28,
            x + 34,
            y + 4
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attack::TrajectoryLimits;
    use crate::pioneer::examples::{DIAGRAM_51, RETI};
    use crate::rules::parse_fen;

    #[test]
    fn draws_board_pieces_and_arrows() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let svg = draw(&board, &analysis, Some(Color::White));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<rect x=").count(), 64);
        assert_eq!(svg.matches('♖').count(), 1);
        assert_eq!(svg.matches('♚').count(), 1);
        // The rook's trajectory e1–a1–a7 is an arrow in White's attack colour.
        let (e1, a1, a7) = (centre(Square::E1), centre(Square::A1), centre(Square::A7));
        let found = svg
            .lines()
            .filter(|l| l.contains("stroke=\"#1f4e9c\"") && l.starts_with("<polyline"))
            .any(|l| {
                let xs: Vec<i32> = l
                    .split('"')
                    .nth(1)
                    .unwrap()
                    .split([' ', ','])
                    .map(|v| v.parse().unwrap())
                    .collect();
                let o = xs[0] - e1.0;
                xs == vec![e1.0 + o, e1.1 + o, a1.0 + o, a1.1 + o, a7.0 + o, a7.1 + o]
            });
        assert!(found, "{svg}");
    }

    #[test]
    fn reti_picture_has_the_fork() {
        let board = parse_fen(RETI, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let svg = draw(&board, &analysis, None);
        assert!(svg.contains("stroke=\"#7d3c98\" stroke-width=\"9\""));
        assert!(svg.contains("stroke=\"#b03a2e\""));
    }
}
