//! Drawing the zones: the board as SVG with an arrow for every trajectory of the plans shown.
//!
//! Colour tells the side and the role: White's attack trajectories are dark blue, its support
//! trajectories teal, its counter-trajectories light blue and dashed; Black's are dark red,
//! orange and pink, likewise. Fork trajectories (one piece serving two independent zones) are a
//! thick purple line; a combination's move is a thick amber arrow, with its defender ringed and
//! the square the defender guards framed in amber. Late counters are not drawn. Each plan's
//! attack carries its number from the text at its start; a legend under the board names the
//! colours.
//!
//! Design note: only the plans the caller lists are drawn (the command line draws the first
//! three by default): a middlegame has dozens of zones, and all their arrows hide the board.
//! The picture is plain SVG 1.1 with no external fonts or images — the pieces are drawn as
//! vector shapes of our own, the text uses a generic font only for coordinates and numbers —
//! so it looks the same in a browser, in a README on a forge and in an image viewer.

use crate::pioneer::board::pieces::piece_name;
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::combination::Combination;
use crate::pioneer::zones::fork::forks;
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
    /// The move of a combination (`zones::combination`).
    Combination,
}

/// The stroke colour and dash pattern of a trajectory of `side` in `role`.
pub fn style(side: Color, role: ArrowRole) -> (&'static str, &'static str) {
    match (side, role) {
        (_, ArrowRole::Fork) => ("#7d3c98", ""),
        (_, ArrowRole::Combination) => ("#d68910", ""),
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

/// The shapes of a piece in a 40×40 box, its foot at y = 37: `{F}` is the body's fill, `{S}`
/// its outline, `{D}` the colour of inner details.
fn piece_shapes(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => concat!(
            r#"<circle cx="20" cy="13" r="5.5" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
            r#"<path d="M14,33 L26,33 L23.5,22 Q20,18.5 16.5,22 Z" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
            r#"<rect x="11" y="32" width="18" height="5" rx="1.5" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
        ),
        Piece::Knight => concat!(
            r#"<path d="M12,36 L30,36 L29,29 Q31,17 24,9 L21,5 L19,9.5 Q12,12 8.5,21 L10.5,24.5 L16,21.5 L18.5,22.5 Q12,27 12,36 Z" fill="{F}" stroke="{S}" stroke-width="1.5" stroke-linejoin="round"/>"#,
            r#"<circle cx="18.5" cy="14" r="1.4" fill="{D}"/>"#,
        ),
        Piece::Bishop => concat!(
            r#"<circle cx="20" cy="7.5" r="2.6" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
            r#"<path d="M14,32 Q11.5,21 20,10 Q28.5,21 26,32 Z" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
            r#"<path d="M22.5,16 L17.5,22.5" stroke="{D}" stroke-width="1.6" stroke-linecap="round"/>"#,
            r#"<rect x="11" y="32" width="18" height="5" rx="1.5" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
        ),
        Piece::Rook => concat!(
            r#"<path d="M11,9 L15,9 L15,12.5 L18,12.5 L18,9 L22,9 L22,12.5 L25,12.5 L25,9 L29,9 L29,16.5 L11,16.5 Z" fill="{F}" stroke="{S}" stroke-width="1.5" stroke-linejoin="round"/>"#,
            r#"<rect x="13.5" y="16.5" width="13" height="15.5" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
            r#"<rect x="10" y="32" width="20" height="5" rx="1.5" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
        ),
        Piece::Queen => concat!(
            r#"<path d="M11,32 L7.5,13 L15,24 L14,9.5 L20,22 L26,9.5 L25,24 L32.5,13 L29,32 Z" fill="{F}" stroke="{S}" stroke-width="1.5" stroke-linejoin="round"/>"#,
            r#"<circle cx="7.5" cy="12" r="2.2" fill="{F}" stroke="{S}" stroke-width="1.3"/>"#,
            r#"<circle cx="14" cy="8.5" r="2.2" fill="{F}" stroke="{S}" stroke-width="1.3"/>"#,
            r#"<circle cx="26" cy="8.5" r="2.2" fill="{F}" stroke="{S}" stroke-width="1.3"/>"#,
            r#"<circle cx="32.5" cy="12" r="2.2" fill="{F}" stroke="{S}" stroke-width="1.3"/>"#,
            r#"<rect x="10" y="32" width="20" height="5" rx="1.5" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
        ),
        Piece::King => concat!(
            r#"<path d="M19,4 L21,4 L21,8 L24,8 L24,10.5 L21,10.5 L21,16 L19,16 L19,10.5 L16,10.5 L16,8 L19,8 Z" fill="{F}" stroke="{S}" stroke-width="1.2"/>"#,
            r#"<path d="M11,32 Q6.5,20 13.5,17.5 Q18,16.5 20,21.5 Q22,16.5 26.5,17.5 Q33.5,20 29,32 Z" fill="{F}" stroke="{S}" stroke-width="1.5" stroke-linejoin="round"/>"#,
            r#"<rect x="10" y="32" width="20" height="5" rx="1.5" fill="{F}" stroke="{S}" stroke-width="1.5"/>"#,
        ),
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
    let width = match arrow.role {
        ArrowRole::Fork => 9,
        ArrowRole::Combination => 6,
        _ => 4,
    };
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

/// The SVG picture of `board` with the trajectories of the zones of `analysis` listed in
/// `shown` (indices), numbered 1, 2, … in that order as the text numbers them, the fork
/// trajectories of `side` (both sides when `None`), and a `combination`'s move, with its
/// defender ringed and the square the defender guards marked.
pub fn draw(
    board: &Board,
    analysis: &Analysis,
    shown: &[usize],
    side: Option<Color>,
    combination: Option<&Combination>,
) -> String {
    let mut arrows = arrows(board, analysis, shown, side);
    if let Some(c) = combination {
        arrows.push(Arrow {
            squares: vec![c.mv.from, c.mv.to],
            side: board.side_to_move(),
            role: ArrowRole::Combination,
        });
    }
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
    if let Some(c) = combination {
        write_defender(&mut out, c);
    }
    write_numbers(&mut out, analysis, shown);
    write_legend(&mut out, size);
    out.push_str("</svg>\n");
    out
}

/// The trajectories to draw: each shown zone's attack, counters in time and supports, then the
/// fork trajectories' common parts (only `side`'s when one is given).
fn arrows(board: &Board, analysis: &Analysis, shown: &[usize], side: Option<Color>) -> Vec<Arrow> {
    let mut arrows = Vec::new();
    for zone in shown.iter().filter_map(|&i| analysis.zones.get(i)) {
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

/// The pieces, as vector shapes scaled from their 40×40 box to fill most of a square.
fn write_pieces(out: &mut String, board: &Board) {
    const SCALE: f64 = 1.35;
    for square in board.occupied() {
        let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
            continue;
        };
        let (x, y) = centre(square);
        let (fill, stroke, detail, side) = match color {
            Color::White => ("#fafafa", "#1c1c1c", "#1c1c1c", "white"),
            Color::Black => ("#262626", "#0d0d0d", "#e8e8e8", "black"),
        };
        let shapes = piece_shapes(piece)
            .replace("{F}", fill)
            .replace("{S}", stroke)
            .replace("{D}", detail);
        let _ = writeln!(
            out,
            "<g class=\"piece {side} {}\" transform=\"translate({:.1},{:.1}) scale({SCALE})\">{shapes}</g>",
            piece_name(piece),
            f64::from(x) - 20.0 * SCALE,
            f64::from(y) - 21.0 * SCALE,
        );
    }
}

/// Each shown zone's number, in a disc of its attack colour at the start of its trajectory.
fn write_numbers(out: &mut String, analysis: &Analysis, shown: &[usize]) {
    for (number, zone) in shown
        .iter()
        .filter_map(|&i| analysis.zones.get(i))
        .enumerate()
    {
        let Some(&start) = zone.attack.route.squares.first() else {
            continue;
        };
        let (x, y) = centre(start);
        let (cx, cy) = (x - CELL / 2 + 11, y - CELL / 2 + 11);
        let _ = writeln!(
            out,
            "<g class=\"plan-number\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"10\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"1.5\"/><text x=\"{cx}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\">{}</text></g>",
            style(zone.side(), ArrowRole::Attack).0,
            cy + 5,
            number + 1
        );
    }
}

/// A combination's defender ringed and the square it guards framed, in the combination's colour.
fn write_defender(out: &mut String, c: &Combination) {
    let colour = style(Color::White, ArrowRole::Combination).0;
    let (x, y) = centre(c.defender.square);
    let _ = writeln!(
        out,
        "<circle class=\"defender\" cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"4\"/>",
        CELL / 2 - 3
    );
    if c.defender.guards != c.defender.square {
        let (x, y) = centre(c.defender.guards);
        let half = CELL / 2 - 4;
        let _ = writeln!(
            out,
            "<rect class=\"guarded\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"6,4\"/>",
            x - half,
            y - half,
            2 * half,
            2 * half
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
        (
            Color::White,
            ArrowRole::Combination,
            "combination (defender ringed)",
        ),
    ];
    // In the last row's third column: the numbered disc.
    let (x, y) = (MARGIN + 2 * 160, size + 14 + 2 * 24);
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{y}\" r=\"8\" fill=\"#555555\"/><text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\">1</text><text x=\"{}\" y=\"{}\" font-size=\"13\">plan, as in the text</text>",
        x + 14,
        x + 14,
        y + 4,
        x + 34,
        y + 4
    );
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
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::pioneer::examples::{DIAGRAM_51, RETI};
    use crate::rules::parse_fen;

    #[test]
    fn draws_board_pieces_and_arrows() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let white: Vec<usize> = (0..analysis.zones.len())
            .filter(|&i| analysis.zones[i].side() == Color::White)
            .collect();
        let svg = draw(&board, &analysis, &white, Some(Color::White), None);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let squares = format!("width=\"{CELL}\" height=\"{CELL}\"");
        assert_eq!(svg.matches(&squares).count(), 64);
        assert_eq!(svg.matches("class=\"piece white rook\"").count(), 1);
        assert_eq!(svg.matches("class=\"piece black king\"").count(), 1);
        assert!(!svg.contains('♖'), "no font glyphs");
        assert_eq!(svg.matches("class=\"plan-number\"").count(), white.len());
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
        let all: Vec<usize> = (0..analysis.zones.len()).collect();
        let svg = draw(&board, &analysis, &all, None, None);
        assert!(svg.contains("stroke=\"#7d3c98\" stroke-width=\"9\""));
        assert!(svg.contains("stroke=\"#b03a2e\""));
    }

    #[test]
    fn a_combination_rings_its_defender_and_frames_the_guarded_square() {
        // The rook c8 alone guards e8 against R e1–e8#; Q c2×c8 removes it.
        let board = parse_fen("2r3k1/5ppp/8/8/8/8/2Q2PPP/4R1K1 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let combos = crate::pioneer::zones::combination::combinations(&board, &analysis);
        let c = combos
            .iter()
            .find(|c| c.mv.to == Square::C8)
            .expect("the removal");
        let svg = draw(&board, &analysis, &[], None, Some(c));
        let (x, y) = centre(Square::C8);
        assert!(
            svg.contains(&format!("<circle class=\"defender\" cx=\"{x}\" cy=\"{y}\"")),
            "{svg}"
        );
        let (x, y) = centre(Square::E8);
        let half = CELL / 2 - 4;
        assert!(svg.contains(&format!(
            "<rect class=\"guarded\" x=\"{}\" y=\"{}\"",
            x - half,
            y - half
        )));
        assert!(svg.contains("stroke=\"#d68910\" stroke-width=\"6\""));
        assert!(svg.contains("combination (defender ringed)"));
    }

    /// Only the zones asked for are drawn, numbered in the order given.
    #[test]
    fn only_the_listed_zones_are_drawn_with_their_numbers() {
        let board = parse_fen(RETI, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let last = analysis.zones.len() - 1;
        let svg = draw(&board, &analysis, &[last], None, None);
        assert_eq!(svg.matches("class=\"plan-number\"").count(), 1);
        assert!(svg.contains(">1</text></g>"));
        let attacks = svg
            .lines()
            .filter(|l| l.starts_with("<polyline") && !l.contains("stroke-dasharray"))
            .filter(|l| !l.contains("#7d3c98"))
            .count();
        assert_eq!(attacks, 1, "{svg}");
    }
}
