//! The picture of a balance study, as SVG: above, the first mover's score by start position
//! (points with their 95% intervals, the overall score and 50% as lines); below, the piece
//! worths as bars. Drawn with `plotters`' SVG backend (text is left to the viewer's fonts).
//!
//! Owns: `svg`.
//! Must not know: how the numbers were computed.

use super::report::Report;
use super::BalanceError;
use plotters::prelude::*;

const WIDTH: u32 = 900;
const HEIGHT: u32 = 640;
const SCORE_COLOUR: RGBColor = RGBColor(31, 119, 180);
const WORTH_COLOUR: RGBColor = RGBColor(214, 124, 40);
/// Piece bars labelled with the piece's name; more get its letter only.
const NAMED_BARS: usize = 8;

fn chart_error(e: impl std::fmt::Display) -> BalanceError {
    BalanceError::Chart(e.to_string())
}

/// The SVG text of the picture.
pub fn svg(report: &Report) -> Result<String, BalanceError> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let (top, bottom) = root.split_vertically(HEIGHT * 55 / 100);
        scores(report, &top)?;
        worths(report, &bottom)?;
        root.present().map_err(chart_error)?;
    }
    Ok(text)
}

fn scores(report: &Report, area: &DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), BalanceError> {
    let n = report.starts.len().max(1);
    let f = &report.first_mover;
    let caption = format!(
        "{}: first mover's score by start position ({} games, overall {:.1}% [{:.1} .. {:.1}])",
        report.variant,
        report.games,
        100.0 * f.mean,
        100.0 * f.low,
        100.0 * f.high
    );
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..100f64)
        .map_err(chart_error)?;
    let labels: Vec<u64> = report.starts.iter().map(|r| r.start).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n.min(24))
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).map_or(String::new(), |s| s.to_string())
            } else {
                String::new()
            }
        })
        .max_light_lines(0)
        .y_labels(11)
        .x_desc("start position")
        .y_desc("score %")
        .draw()
        .map_err(chart_error)?;
    let line =
        |y: f64, colour: RGBColor| PathElement::new(vec![(-0.5, y), (n as f64 - 0.5, y)], colour.stroke_width(1));
    chart.draw_series([line(50.0, BLACK), line(100.0 * f.mean, SCORE_COLOUR)]).map_err(chart_error)?;
    chart
        .draw_series(report.starts.iter().enumerate().map(|(i, r)| {
            PathElement::new(
                vec![(i as f64, 100.0 * r.score.low), (i as f64, 100.0 * r.score.high)],
                SCORE_COLOUR.stroke_width(1),
            )
        }))
        .map_err(chart_error)?;
    chart
        .draw_series(
            report
                .starts
                .iter()
                .enumerate()
                .map(|(i, r)| Circle::new((i as f64, 100.0 * r.score.mean), 3, SCORE_COLOUR.filled())),
        )
        .map_err(chart_error)?;
    Ok(())
}

fn worths(report: &Report, area: &DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), BalanceError> {
    let pieces: Vec<_> = report.worths.pieces.iter().filter(|p| p.worth.is_finite()).collect();
    let n = pieces.len().max(1);
    let top = pieces.iter().map(|p| p.worth).fold(100.0f64, f64::max) * 1.1;
    let bottom = pieces.iter().map(|p| p.worth).fold(0.0f64, f64::min) * 1.1;
    let unit = if report.worths.pawn_raw.is_some() { "pawn = 100" } else { "centipawns" };
    let caption = format!("piece worth ({}, {unit}; {} positions)", report.worths.method, report.worths.positions);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, bottom..top)
        .map_err(chart_error)?;
    // Names fit under a few bars; under many, the letters (the table names them).
    let names: Vec<String> = pieces
        .iter()
        .map(|p| if n <= NAMED_BARS { format!("{} {}", p.letter, p.name) } else { p.letter.to_string() })
        .collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .max_light_lines(0)
        .y_labels(8)
        .y_desc("worth")
        .draw()
        .map_err(chart_error)?;
    chart
        .draw_series(
            pieces.iter().enumerate().map(|(i, p)| {
                Rectangle::new([(i as f64 - 0.35, 0.0), (i as f64 + 0.35, p.worth)], WORTH_COLOUR.filled())
            }),
        )
        .map_err(chart_error)?;
    Ok(())
}
