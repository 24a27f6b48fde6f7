//! Drawing a [`Chart`] with plotters (the `full` feature).

use std::ops::Range;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Axis, Chart, Corner, Style, PALETTE};
use crate::spec::Scale;

/// The colours a chart is drawn in: its paper, its ink (text, axes) and its grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub paper: RGBColor,
    pub ink: RGBColor,
    pub grid: RGBColor,
}

impl Theme {
    /// Dark ink on white: the page in a light colour scheme, SVG and PNG exports.
    pub const LIGHT: Theme = Theme { paper: WHITE, ink: RGBColor(33, 37, 41), grid: RGBColor(225, 228, 232) };
    /// Light ink on the dark page (its --paper, --ink and --line).
    pub const DARK: Theme =
        Theme { paper: RGBColor(22, 25, 29), ink: RGBColor(227, 230, 234), grid: RGBColor(52, 58, 65) };
}

/// Why a chart could not be drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum DrawError {
    /// No finite point to show (all gaps).
    NoData,
    Backend(String),
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawError::NoData => write!(f, "nothing to draw: every point is undefined for these parameters"),
            DrawError::Backend(s) => write!(f, "drawing failed: {s}"),
        }
    }
}

impl std::error::Error for DrawError {}

fn backend_err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> DrawError {
    DrawError::Backend(e.to_string())
}

/// The most decades a log axis spans.
const MAX_DECADES: i32 = 30;

/// The extent of the finite data on one axis, widened a little, and for log
/// axes restricted to positive normal numbers (a subnormal value has no
/// room below it for the axis to start). None when nothing can be shown.
fn extent(axis: &Axis, values: impl Iterator<Item = f64>) -> Option<Range<f64>> {
    if let Some((lo, hi)) = axis.bounds {
        return Some(lo..hi);
    }
    let log = axis.scale == Scale::Log;
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && (!log || *v >= f64::MIN_POSITIVE)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    if log {
        // At most MAX_DECADES below the largest value: what lies lower is
        // below any reader's interest, and ranges of hundreds of decades
        // (down to subnormal numbers) sent plotters' tick search into
        // minutes of work and gigabytes of ticks.
        let lo = lo.max(hi / 10f64.powi(MAX_DECADES));
        let (a, b) = if hi / lo < 1.000_001 { (lo / 2.0, hi * 2.0) } else { (lo, hi) };
        let pad = (b / a).powf(0.04);
        Some((a / pad).max(f64::MIN_POSITIVE)..(b * pad).min(f64::MAX))
    } else {
        let span = hi - lo;
        let pad = if span > 0.0 { 0.05 * span } else { lo.abs().max(1.0) * 0.1 };
        let range = (lo - pad)..(hi + pad);
        // A range wider than the largest number (−1e308 … 1e308) cannot be ticked.
        (range.start.is_finite() && range.end.is_finite() && (range.end - range.start).is_finite()).then_some(range)
    }
}

/// Draws `chart` on `area` in `theme`'s colours. `scale` multiplies every
/// length (fonts, strokes, margins) so a canvas sized in device pixels stays
/// sharp on HiDPI screens.
pub fn draw<DB: DrawingBackend>(
    chart: &Chart,
    area: &DrawingArea<DB, plotters::coord::Shift>,
    scale: f64,
    theme: Theme,
) -> Result<(), DrawError> {
    let pts: Vec<(f64, f64)> = chart.series.iter().flat_map(|s| s.extent_points()).collect();
    if !pts.iter().any(|(x, y)| x.is_finite() && y.is_finite()) {
        return Err(DrawError::NoData);
    }
    let xr = extent(&chart.x, pts.iter().map(|p| p.0)).ok_or(DrawError::NoData)?;
    let yr = extent(&chart.y, pts.iter().map(|p| p.1)).ok_or(DrawError::NoData)?;
    // A log axis over less than a decade has no labelled ticks: draw it linear.
    let scale_of = |axis: &Axis, r: &Range<f64>| match axis.scale {
        Scale::Log if r.end / r.start < 10.0 => Scale::Linear,
        s => s,
    };
    let (xs, ys) = (scale_of(&chart.x, &xr), scale_of(&chart.y, &yr));
    let legend_corner = match chart.legend {
        Corner::Auto => emptiest_corner(chart, (xs, &xr), (ys, &yr)),
        fixed => fixed,
    };
    area.fill(&theme.paper).map_err(backend_err)?;
    match (xs, ys) {
        (Scale::Linear, Scale::Linear) => draw_in(chart, legend_corner, area, (scale, theme), xr, yr),
        (Scale::Log, Scale::Linear) => draw_in(chart, legend_corner, area, (scale, theme), xr.log_scale(), yr),
        (Scale::Linear, Scale::Log) => draw_in(chart, legend_corner, area, (scale, theme), xr, yr.log_scale()),
        (Scale::Log, Scale::Log) => draw_in(chart, legend_corner, area, (scale, theme), xr.log_scale(), yr.log_scale()),
    }
}

/// How much of its colour a faint series keeps (the rest is the paper's).
const FAINT: f64 = 0.45;

/// `a` blended with `b`: `share` of `a`, the rest `b`.
fn blend(a: RGBColor, b: RGBColor, share: f64) -> RGBColor {
    let mix = |x: u8, y: u8| (share * f64::from(x) + (1.0 - share) * f64::from(y)).round().clamp(0.0, 255.0) as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

fn draw_in<DB, X, Y>(
    chart: &Chart,
    legend_corner: Corner,
    area: &DrawingArea<DB, plotters::coord::Shift>,
    (scale, theme): (f64, Theme),
    x: X,
    y: Y,
) -> Result<(), DrawError>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let px = |v: f64| (v * scale).round() as i32;
    let font = |size: f64| ("sans-serif", size * scale).into_font().color(&theme.ink);
    let mut ctx = ChartBuilder::on(area)
        .margin(px(10.0))
        .caption(&chart.title, font(15.0))
        .x_label_area_size(px(40.0))
        .y_label_area_size(px(label_width(&chart.y)))
        .build_cartesian_2d(x, y)
        .map_err(backend_err)?;
    let (x_span, y_span) = (span(ctx.x_range()), span(ctx.y_range()));
    ctx.configure_mesh()
        .light_line_style(theme.grid.stroke_width(px(1.0).max(1) as u32))
        .bold_line_style(theme.grid.stroke_width(px(1.0).max(1) as u32))
        .axis_style(theme.ink.stroke_width(px(1.0).max(1) as u32))
        .x_desc(chart.x.label.as_str())
        .y_desc(chart.y.label.as_str())
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .x_labels(6)
        .y_labels(if chart.y.tick_labels.is_empty() { 6 } else { chart.y.tick_labels.len().min(16) })
        .x_label_formatter(&|v| axis_tick(&chart.x, *v, x_span))
        .y_label_formatter(&|v| axis_tick(&chart.y, *v, y_span))
        .draw()
        .map_err(backend_err)?;

    let stroke = px(2.0).max(1) as u32;
    let mut legend = Vec::new();
    for s in &chart.series {
        let color = PALETTE.get(s.color % PALETTE.len()).map_or(theme.ink, |&(r, g, b)| RGBColor(r, g, b));
        let color = if s.faint { blend(color, theme.paper, FAINT) } else { color };
        let pts: Vec<(f64, f64)> = s.points.iter().copied().filter(|(a, b)| a.is_finite() && b.is_finite()).collect();
        match s.style {
            Style::Line => ctx.draw_series(LineSeries::new(pts, color.stroke_width(stroke))),
            Style::Dashed => ctx.draw_series(DashedLineSeries::new(pts, px(6.0), px(4.0), color.stroke_width(stroke))),
            Style::Points => ctx.draw_series(pts.into_iter().map(|p| Circle::new(p, px(3.0), color.filled()))),
            Style::Marker => {
                ctx.draw_series(pts.into_iter().map(|p| Circle::new(p, px(6.0), color.stroke_width(stroke))))
            }
            Style::Spans => ctx.draw_series(
                s.spans
                    .iter()
                    .filter(|b| b.from.is_finite() && b.to.is_finite())
                    .map(|b| Rectangle::new([(b.from, b.row - 0.36), (b.to, b.row + 0.36)], color.filled())),
            ),
        }
        .map_err(backend_err)?;
        if s.style != Style::Marker && !s.name.is_empty() {
            legend.push((s.name.as_str(), color));
        }
    }
    let plot = ctx.plotting_area().get_pixel_range();
    draw_legend(area, plot, legend_corner, &legend, (scale, theme))?;
    area.present().map_err(backend_err)?;
    Ok(())
}

/// The legend: a swatch and a name per series, in a box at `corner` of the
/// plot (`plot`, in backend pixels). Text is measured by the backend, so a
/// canvas measures it itself (plotters' own legend measures text through
/// the page's DOM).
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    plot: (Range<i32>, Range<i32>),
    corner: Corner,
    entries: &[(&str, RGBColor)],
    (scale, theme): (f64, Theme),
) -> Result<(), DrawError> {
    if entries.is_empty() {
        return Ok(());
    }
    let px = |v: f64| (v * scale).round() as i32;
    let style = ("sans-serif", 11.0 * scale).into_font().color(&theme.ink).pos(Pos::new(HPos::Left, VPos::Center));
    let mut text_width = 0;
    let mut row = px(14.0);
    for (name, _) in entries {
        let (w, h) = area.estimate_text_size(name, &style).map_err(backend_err)?;
        text_width = text_width.max(w as i32);
        row = row.max(h as i32 + px(2.0));
    }
    let (pad, swatch, gap, inset) = (px(6.0), px(18.0), px(6.0), px(6.0));
    let width = 2 * pad + swatch + gap + text_width;
    let height = 2 * pad + row * entries.len() as i32;
    let (base_x, base_y) = area.get_base_pixel();
    let left = match corner {
        Corner::UpperLeft | Corner::LowerLeft => plot.0.start + inset,
        Corner::Auto | Corner::UpperRight | Corner::LowerRight => plot.0.end - inset - width,
    } - base_x;
    let top = match corner {
        Corner::Auto | Corner::UpperLeft | Corner::UpperRight => plot.1.start + inset,
        Corner::LowerLeft | Corner::LowerRight => plot.1.end - inset - height,
    } - base_y;
    let frame = [(left, top), (left + width, top + height)];
    area.draw(&Rectangle::new(frame, theme.paper.mix(0.85).filled())).map_err(backend_err)?;
    area.draw(&Rectangle::new(frame, theme.grid.stroke_width(px(1.0).max(1) as u32))).map_err(backend_err)?;
    let half = px(2.0);
    for (i, (name, color)) in entries.iter().enumerate() {
        let mid = top + pad + row * i as i32 + row / 2;
        let x = left + pad;
        area.draw(&Rectangle::new([(x, mid - half), (x + swatch, mid + half)], color.filled())).map_err(backend_err)?;
        area.draw(&Text::new(*name, (x + swatch + gap, mid), style.clone())).map_err(backend_err)?;
    }
    Ok(())
}

/// Room for the tick labels of the y axis and its title, in CSS pixels.
fn label_width(axis: &Axis) -> f64 {
    let longest = axis.tick_labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    (7.0 * longest as f64 + 26.0).max(64.0)
}

/// Position of `v` on an axis as a fraction of its range (log-aware).
fn fraction((scale, range): (Scale, &Range<f64>), v: f64) -> f64 {
    if scale == Scale::Log {
        (v.ln() - range.start.ln()) / (range.end.ln() - range.start.ln())
    } else {
        (v - range.start) / (range.end - range.start)
    }
}

/// The corner whose 40% × 40% box holds the fewest drawn points (lines
/// are sampled between their vertices).
fn emptiest_corner(chart: &Chart, x: (Scale, &Range<f64>), y: (Scale, &Range<f64>)) -> Corner {
    let mut counts = [0usize; 4]; // upper right, upper left, lower left, lower right
    let mut add = |px: f64, py: f64| {
        let (fx, fy) = (fraction(x, px), fraction(y, py));
        if !(fx.is_finite() && fy.is_finite()) {
            return;
        }
        let (right, left, top, bottom) = (fx > 0.6, fx < 0.4, fy > 0.6, fy < 0.4);
        let hits = [right && top, left && top, left && bottom, right && bottom];
        for (count, hit) in counts.iter_mut().zip(hits) {
            *count += usize::from(hit);
        }
    };
    for s in &chart.series {
        let pts = s.extent_points();
        for w in pts.windows(2) {
            if let [a, b] = w {
                if matches!(s.style, Style::Line | Style::Dashed) {
                    for k in 0..16 {
                        let t = k as f64 / 16.0;
                        add(a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
                    }
                }
            }
        }
        for p in pts {
            add(p.0, p.1);
        }
    }
    let corners = [Corner::UpperRight, Corner::UpperLeft, Corner::LowerLeft, Corner::LowerRight];
    corners.into_iter().zip(counts).min_by_key(|(_, n)| *n).map_or(Corner::UpperRight, |(c, _)| c)
}

fn axis_tick(axis: &Axis, v: f64, span: f64) -> String {
    if axis.tick_labels.is_empty() {
        return crate::format::tick(v, span);
    }
    let r = v.round();
    if (v - r).abs() > 1e-9 || r < 1.0 {
        return String::new();
    }
    axis.tick_labels.get(r as usize - 1).cloned().unwrap_or_default()
}

/// The width of an axis range, for telling a tick at zero from rounding.
fn span(r: Range<f64>) -> f64 {
    (r.end - r.start).abs()
}

/// Renders a chart to an SVG string (tests, CLI).
pub fn to_svg(chart: &Chart, width: u32, height: u32) -> Result<String, DrawError> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        draw(chart, &area, 1.0, Theme::LIGHT)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::Series;

    #[test]
    fn ticks_are_short() {
        let tick = |v: f64| axis_tick(&Axis::new("x", Scale::Linear), v, 1.0);
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(25.0), "25");
        assert_eq!(tick(1e-8), "1 × 10⁻⁸");
        assert_eq!(tick(2.5e6), "2500000"); // whole, as the page's cards print it
        assert_eq!(tick(2.5e7), "2.5 × 10⁷");
        // Ticks 0.0005 apart stay apart (three decimals printed both as 0.002).
        assert_eq!([tick(0.0015), tick(0.002), tick(0.0025)], ["0.0015", "0.002", "0.0025"]);
        assert_eq!(tick(0.1 + 0.2), "0.3");
        assert_eq!(tick(12000.0), "12000");
    }

    #[test]
    fn all_gaps_is_a_clear_error() {
        let c = Chart {
            title: "t".into(),
            x: Axis::new("x", Scale::Linear),
            y: Axis::new("y", Scale::Log),
            series: vec![Series::new("s", Style::Line, 0, vec![(1.0, f64::NAN), (2.0, -1.0)])],
            legend: Corner::default(),
            note: None,
        };
        assert_eq!(to_svg(&c, 300, 200), Err(DrawError::NoData));
    }

    /// The dark theme paints its own paper, ink and grid, and no white.
    #[test]
    fn the_dark_theme_paints_in_its_colours() {
        let c = Chart {
            title: "Speedup".into(),
            x: Axis::new("m", Scale::Linear),
            y: Axis::new("speedup", Scale::Linear),
            series: vec![Series::new("s", Style::Line, 0, vec![(1.0, 1.0), (2.0, 1.8), (4.0, 3.1)])],
            legend: Corner::default(),
            note: None,
        };
        let svg = |theme: Theme| {
            let mut out = String::new();
            draw(&c, &SVGBackend::with_string(&mut out, (480, 300)).into_drawing_area(), 1.0, theme).unwrap();
            out.to_uppercase()
        };
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        let (dark, light) = (svg(Theme::DARK), svg(Theme::LIGHT));
        for colour in [Theme::DARK.paper, Theme::DARK.ink, Theme::DARK.grid] {
            assert!(dark.contains(&hex(colour)), "the dark chart uses {}", hex(colour));
        }
        assert!(!dark.contains("#FFFFFF"), "no white in the dark chart");
        assert!(light.contains("#FFFFFF") && !light.contains(&hex(Theme::DARK.paper)));
    }
}
