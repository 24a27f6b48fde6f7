//! Drawing a [`Chart`] with plotters (the `full` feature).

use std::ops::Range;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Axis, Chart, Corner, Series, Style, BAND_LEGEND, INK, PALETTE};
use crate::spec::Scale;

/// The colours a chart is drawn in: its paper, its ink (text, axes) and its grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub paper: RGBColor,
    pub ink: RGBColor,
    pub grid: RGBColor,
    /// How opaque a band's shading is (more on dark paper, where a light
    /// share of a colour hardly shows).
    pub band_opacity: f64,
}

impl Theme {
    /// Dark ink on white: the page in a light colour scheme, SVG and PNG exports.
    pub const LIGHT: Theme =
        Theme { paper: WHITE, ink: RGBColor(33, 37, 41), grid: RGBColor(225, 228, 232), band_opacity: 0.22 };
    /// Light ink on the dark page (its --paper, --ink and --line).
    pub const DARK: Theme = Theme {
        paper: RGBColor(22, 25, 29),
        ink: RGBColor(227, 230, 234),
        grid: RGBColor(52, 58, 65),
        band_opacity: 0.38,
    };
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
    let x_chars = if chart.x.tick_labels.is_empty() {
        longest_tick(&xr, xs)
    } else {
        chart.x.tick_labels.iter().map(|l| l.chars().count()).max().unwrap_or(0)
    };
    let room =
        Room { y_labels: label_width(&chart.y, &yr, ys), x_chars, x_log: xs == Scale::Log, y_log: ys == Scale::Log };
    area.fill(&theme.paper).map_err(backend_err)?;
    match (xs, ys) {
        (Scale::Linear, Scale::Linear) => draw_in(chart, area, (scale, theme), room, xr, yr),
        (Scale::Log, Scale::Linear) => draw_in(chart, area, (scale, theme), room, xr.log_scale(), yr),
        (Scale::Linear, Scale::Log) => draw_in(chart, area, (scale, theme), room, xr, yr.log_scale()),
        (Scale::Log, Scale::Log) => draw_in(chart, area, (scale, theme), room, xr.log_scale(), yr.log_scale()),
    }
}

/// Room around the plot for the axes' labels: the width of the y axis'
/// ticks and title (CSS px) and the characters of the longest x tick label
/// (half of it may stand past the plot's right end).
#[derive(Debug, Clone, Copy)]
struct Room {
    y_labels: f64,
    x_chars: usize,
    x_log: bool,
    y_log: bool,
}

/// How much of its colour a faint series keeps (the rest is the paper's).
const FAINT: f64 = 0.45;

/// `a` blended with `b`: `share` of `a`, the rest `b`.
fn blend(a: RGBColor, b: RGBColor, share: f64) -> RGBColor {
    let mix = |x: u8, y: u8| (share * f64::from(x) + (1.0 - share) * f64::from(y)).round().clamp(0.0, 255.0) as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

type Plot<'a, DB, X, Y> =
    ChartContext<'a, DB, Cartesian2d<<X as AsRangedCoord>::CoordDescType, <Y as AsRangedCoord>::CoordDescType>>;

/// The chart's frame on `on`: title, axes' room and coordinates (nothing drawn yet).
fn frame<'a, DB, X, Y>(
    chart: &Chart,
    on: &'a DrawingArea<DB, plotters::coord::Shift>,
    (scale, theme): (f64, Theme),
    room: Room,
    x: X,
    y: Y,
) -> Result<Plot<'a, DB, X, Y>, DrawError>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
{
    let px = |v: f64| (v * scale).round() as i32;
    let right = px(10.0).max(px(3.4 * room.x_chars as f64));
    let (title, size) =
        fitted_title(on, &chart.title, f64::from(on.dim_in_pixel().0) - f64::from(px(10.0) + right), scale)?;
    ChartBuilder::on(on)
        .margin(px(10.0))
        .margin_right(right)
        .caption(&title, ("sans-serif", size).into_font().color(&theme.ink))
        .x_label_area_size(px(40.0))
        .y_label_area_size(px(room.y_labels))
        .build_cartesian_2d(x, y)
        .map_err(backend_err)
}

/// The title as it fits in `width` backend pixels: at 15 px, else smaller
/// down to 11 px, else cut with an ellipsis (a phone's 358 px chart).
fn fitted_title<DB: DrawingBackend>(
    on: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    width: f64,
    scale: f64,
) -> Result<(String, f64), DrawError> {
    let measure = |text: &str, size: f64| -> Result<f64, DrawError> {
        Ok(f64::from(
            on.estimate_text_size(text, &TextStyle::from(("sans-serif", size).into_font())).map_err(backend_err)?.0,
        ))
    };
    let full = 15.0 * scale;
    let w = measure(title, full)?;
    if w <= width {
        return Ok((title.to_string(), full));
    }
    let size = (full * width / w).max(11.0 * scale);
    Ok((cut_to_fit(on, title, size, width)?, size))
}

/// `text` at `size` backend pixels, cut with an ellipsis to fit in `width`
/// (an axis title longer than a phone's plot).
fn cut_to_fit<DB: DrawingBackend>(
    on: &DrawingArea<DB, plotters::coord::Shift>,
    text: &str,
    size: f64,
    width: f64,
) -> Result<String, DrawError> {
    let style = TextStyle::from(("sans-serif", size).into_font());
    let measure = |text: &str| -> Result<f64, DrawError> {
        Ok(f64::from(on.estimate_text_size(text, &style).map_err(backend_err)?.0))
    };
    let mut text = text.to_string();
    while measure(&text)? > width && text.chars().count() > 1 {
        text.pop();
        while text.ends_with(' ') {
            text.pop();
        }
        text.pop();
        text.push('…');
    }
    Ok(text)
}

/// A series' colour: its palette colour, blended toward the paper when faint.
fn colour_of(s: &Series, theme: Theme) -> RGBColor {
    let color = if s.color == INK {
        theme.ink
    } else {
        PALETTE.get(s.color % PALETTE.len()).map_or(theme.ink, |&(r, g, b)| RGBColor(r, g, b))
    };
    if s.faint {
        blend(color, theme.paper, FAINT)
    } else {
        color
    }
}

fn draw_in<DB, X, Y>(
    chart: &Chart,
    area: &DrawingArea<DB, plotters::coord::Shift>,
    (scale, theme): (f64, Theme),
    room: Room,
    x: X,
    y: Y,
) -> Result<(), DrawError>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64> + Clone,
    Y: AsRangedCoord<Value = f64> + Clone,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let px = |v: f64| (v * scale).round() as i32;
    let font = |size: f64| ("sans-serif", size * scale).into_font().color(&theme.ink);
    let whole = frame(chart, area, (scale, theme), room, x.clone(), y.clone())?;
    let ink = Ink::of(chart, |p| whole.backend_coord(&p), px(3.0));
    let plot = whole.plotting_area().get_pixel_range();
    // One entry for the bands, however many curves have one; a name longer
    // than the plot is wide (a two-term law on a phone) is cut to fit.
    let first_band = chart.series.iter().position(|s| s.style == Style::Band);
    let room_for_name = f64::from(plot.0.end - plot.0.start - px(LEGEND_PADS));
    let names: Vec<(String, RGBColor, Style)> = chart
        .series
        .iter()
        .enumerate()
        .filter(|(i, s)| match s.style {
            Style::Marker => false,
            Style::Band => Some(*i) == first_band,
            _ => !s.name.is_empty(),
        })
        .map(|(_, s)| {
            let name = if s.style == Style::Band { BAND_LEGEND } else { s.name.as_str() };
            Ok((cut_to_fit(area, name, 11.0 * scale, room_for_name)?, colour_of(s, theme), s.style))
        })
        .collect::<Result<_, DrawError>>()?;
    let entries: Vec<(&str, RGBColor, Style)> = names.iter().map(|(n, c, s)| (n.as_str(), *c, *s)).collect();
    let legend = Legend::measure(area, &entries, (scale, theme))?;
    // The legend goes in a corner of the plot where it covers none of the
    // drawing; when every corner would cover some, below the plot.
    let corner = legend.as_ref().and_then(|l| l.free_corner(plot.clone(), chart.legend, &ink));
    let (upper, below) = match (&legend, corner) {
        (Some(l), None) => {
            let height = l.rows_height(plot.0.end - plot.0.start);
            let (_, total) = area.dim_in_pixel();
            let (upper, lower) = area.split_vertically(total.saturating_sub(height + px(4.0).max(0) as u32));
            (upper, Some(lower))
        }
        _ => (area.clone(), None),
    };
    // The frame again on what is left of the area (only built, nothing drawn yet: cheap).
    drop(whole);
    let mut ctx = frame(chart, &upper, (scale, theme), room, x, y)?;
    // A tick within rounding of zero reads 0 on a linear axis; a log axis has no zero.
    let (x_span, y_span) = (
        if room.x_log { f64::NAN } else { span(ctx.x_range()) },
        if room.y_log { f64::NAN } else { span(ctx.y_range()) },
    );
    // Named rows (a schedule's processors) are labelled as many as fit one above another: every row, or every other, ...
    let rows = (f64::from(ctx.plotting_area().dim_in_pixel().1) / (13.0 * scale)).floor().max(2.0) as usize;
    let y_label_count = if chart.y.tick_labels.is_empty() { 6 } else { chart.y.tick_labels.len().min(16).min(rows) };
    // As many x ticks as their labels fit side by side (6 on a desktop; fewer
    // when `1.5 × 10⁻⁴` meets a phone), and axis titles no longer than their axis.
    let (plot_w, plot_h) = ctx.plotting_area().dim_in_pixel();
    let x_label_count =
        ((f64::from(plot_w) / ((6.5 * room.x_chars as f64 + 16.0) * scale)).floor() as usize).clamp(2, 6);
    let x_title = cut_to_fit(area, &chart.x.label, 12.0 * scale, f64::from(plot_w))?;
    let y_title = cut_to_fit(area, &chart.y.label, 12.0 * scale, f64::from(plot_h))?;
    ctx.configure_mesh()
        .light_line_style(theme.grid.stroke_width(px(1.0).max(1) as u32))
        .bold_line_style(theme.grid.stroke_width(px(1.0).max(1) as u32))
        .axis_style(theme.ink.stroke_width(px(1.0).max(1) as u32))
        .x_desc(x_title.as_str())
        .y_desc(y_title.as_str())
        .label_style(font(11.0))
        .axis_desc_style(font(12.0))
        .x_labels(x_label_count)
        .y_labels(y_label_count)
        .x_label_formatter(&|v| axis_tick(&chart.x, *v, x_span))
        .y_label_formatter(&|v| axis_tick(&chart.y, *v, y_span))
        .draw()
        .map_err(backend_err)?;

    let stroke = px(2.0).max(1) as u32;
    // Bands first, under every curve (shaded, so that overlapping ones both show).
    for s in chart.series.iter().filter(|s| s.style == Style::Band) {
        let fill = colour_of(s, theme).mix(theme.band_opacity).filled();
        ctx.draw_series(band_pieces(s).into_iter().map(|outline| Polygon::new(outline, fill))).map_err(backend_err)?;
    }
    for s in &chart.series {
        let color = colour_of(s, theme);
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
            Style::Band => continue, // drawn above, under the curves
        }
        .map_err(backend_err)?;
    }
    if let Some(l) = &legend {
        let plot = ctx.plotting_area().get_pixel_range();
        match (corner, &below) {
            (Some((left, top)), _) => l.draw_box(area, (left, top), (scale, theme))?,
            (None, Some(lower)) => l.draw_rows(lower, plot.0, (scale, theme))?,
            (None, None) => {}
        }
    }
    area.present().map_err(backend_err)?;
    Ok(())
}

/// A band's outlines: for each run of points where both ends are finite,
/// its low end left to right, then its high end back.
fn band_pieces(s: &Series) -> Vec<Vec<(f64, f64)>> {
    let finite = |p: &(f64, f64)| p.0.is_finite() && p.1.is_finite();
    let mut pieces = Vec::new();
    let mut low: Vec<(f64, f64)> = Vec::new();
    let mut high: Vec<(f64, f64)> = Vec::new();
    let mut close = |low: &mut Vec<(f64, f64)>, high: &mut Vec<(f64, f64)>| {
        if low.len() >= 2 {
            pieces.push(low.drain(..).chain(high.drain(..).rev()).collect());
        }
        low.clear();
        high.clear();
    };
    for (lo, hi) in s.points.iter().zip(&s.upper) {
        if finite(lo) && finite(hi) {
            low.push(*lo);
            high.push(*hi);
        } else {
            close(&mut low, &mut high);
        }
    }
    close(&mut low, &mut high);
    pieces
}

/// What a chart's series drew, in backend pixels: the boxes of its bars and
/// points along its lines and markers.
#[derive(Default)]
struct Ink {
    boxes: Vec<[(i32, i32); 2]>,
    points: Vec<(i32, i32)>,
    /// The weight of a point, in square pixels (a stroke's width squared).
    point_area: i64,
}

impl Ink {
    fn of(chart: &Chart, to_px: impl Fn((f64, f64)) -> (i32, i32), stroke: i32) -> Ink {
        let mut ink = Ink { point_area: i64::from(stroke) * i64::from(stroke), ..Ink::default() };
        for s in &chart.series {
            ink.add(s, &to_px);
        }
        ink
    }

    fn add(&mut self, s: &Series, to_px: &impl Fn((f64, f64)) -> (i32, i32)) {
        let finite = |p: &&(f64, f64)| p.0.is_finite() && p.1.is_finite();
        let pts: Vec<(i32, i32)> = s.points.iter().filter(finite).map(|&p| to_px(p)).collect();
        if s.style == Style::Band {
            // Both ends, as lines.
            for end in [&s.points, &s.upper] {
                self.add(&Series::new("", Style::Line, s.color, end.clone()), to_px);
            }
            return;
        }
        match s.style {
            // Lines are straight between their vertices in pixels: a point every 3 px along each segment.
            Style::Line | Style::Dashed => {
                for w in pts.windows(2) {
                    if let [a, b] = w {
                        let steps = ((a.0 - b.0).abs().max((a.1 - b.1).abs()) / 3).clamp(1, 400);
                        for k in 0..steps {
                            let t = f64::from(k) / f64::from(steps);
                            let at = |u: i32, v: i32| (f64::from(u) + t * f64::from(v - u)).round() as i32;
                            self.points.push((at(a.0, b.0), at(a.1, b.1)));
                        }
                    }
                }
                self.points.extend(pts.last());
            }
            Style::Points | Style::Marker => self.points.extend(pts),
            Style::Band => {}
            Style::Spans => self.boxes.extend(
                s.spans
                    .iter()
                    .filter(|b| b.from.is_finite() && b.to.is_finite())
                    .map(|b| [to_px((b.from, b.row - 0.36)), to_px((b.to, b.row + 0.36))]),
            ),
        }
    }

    /// How much of the drawing a box covers, in square pixels.
    fn covered(&self, [(l, t), (r, b)]: [(i32, i32); 2]) -> i64 {
        let bars: i64 = self
            .boxes
            .iter()
            .map(|[(x0, y0), (x1, y1)]| {
                let w = i64::from((r.min(*x0.max(x1)) - l.max(*x0.min(x1))).max(0));
                let h = i64::from((b.min(*y0.max(y1)) - t.max(*y0.min(y1))).max(0));
                w * h
            })
            .sum();
        let inside = self.points.iter().filter(|(x, y)| (l..=r).contains(x) && (t..=b).contains(y)).count();
        bars + inside as i64 * self.point_area
    }
}

/// A legend entry's room beside its name, CSS px: the box's two pads, the
/// swatch and the gap after it (as [`Legend::measure`] sets them).
const LEGEND_PADS: f64 = 2.0 * 6.0 + 18.0 + 6.0;

/// The legend: a swatch and a name per series, measured by the backend (a
/// canvas measures its own text; plotters' own legend measures text
/// through the page's DOM), drawn in a box at a corner of the plot or in
/// rows below it.
struct Legend<'e> {
    entries: &'e [(&'e str, RGBColor, Style)],
    /// Each name's width, in backend pixels.
    widths: Vec<i32>,
    row: i32,
    pad: i32,
    swatch: i32,
    gap: i32,
    inset: i32,
    style: TextStyle<'static>,
}

impl<'e> Legend<'e> {
    fn measure<DB: DrawingBackend>(
        area: &DrawingArea<DB, plotters::coord::Shift>,
        entries: &'e [(&'e str, RGBColor, Style)],
        (scale, theme): (f64, Theme),
    ) -> Result<Option<Legend<'e>>, DrawError> {
        if entries.is_empty() {
            return Ok(None);
        }
        let px = |v: f64| (v * scale).round() as i32;
        let style = ("sans-serif", 11.0 * scale).into_font().color(&theme.ink).pos(Pos::new(HPos::Left, VPos::Center));
        let mut row = px(14.0);
        let mut widths = Vec::with_capacity(entries.len());
        for (name, _, _) in entries {
            let (w, h) = area.estimate_text_size(name, &style).map_err(backend_err)?;
            widths.push(w as i32);
            row = row.max(h as i32 + px(2.0));
        }
        Ok(Some(Legend { entries, widths, row, pad: px(6.0), swatch: px(18.0), gap: px(6.0), inset: px(6.0), style }))
    }

    /// The size of the box of one entry per row.
    fn box_size(&self) -> (i32, i32) {
        let text = self.widths.iter().copied().max().unwrap_or(0);
        (2 * self.pad + self.swatch + self.gap + text, 2 * self.pad + self.row * self.entries.len() as i32)
    }

    /// The top-left corner (backend pixels) of the box at a corner of
    /// `plot` that covers none of `ink`: `preferred` when it is free, else
    /// the first free one; `None` when each covers some.
    fn free_corner(&self, plot: (Range<i32>, Range<i32>), preferred: Corner, ink: &Ink) -> Option<(i32, i32)> {
        let (width, height) = self.box_size();
        let at = |corner: Corner| {
            let left = match corner {
                Corner::UpperLeft | Corner::LowerLeft => plot.0.start + self.inset,
                Corner::Auto | Corner::UpperRight | Corner::LowerRight => plot.0.end - self.inset - width,
            };
            let top = match corner {
                Corner::Auto | Corner::UpperLeft | Corner::UpperRight => plot.1.start + self.inset,
                Corner::LowerLeft | Corner::LowerRight => plot.1.end - self.inset - height,
            };
            (left, top)
        };
        let fits = left_of(&plot.0, width + 2 * self.inset) && left_of(&plot.1, height + 2 * self.inset);
        [preferred, Corner::UpperRight, Corner::UpperLeft, Corner::LowerLeft, Corner::LowerRight]
            .into_iter()
            .map(at)
            .find(|&(l, t)| fits && ink.covered([(l, t), (l + width, t + height)]) == 0)
    }

    /// Where each entry goes in rows `width` wide: (row, x offset).
    fn flow(&self, width: i32) -> Vec<(i32, i32)> {
        let mut out = Vec::with_capacity(self.widths.len());
        let (mut row, mut x) = (0, 0);
        for &w in &self.widths {
            let entry = self.swatch + self.gap + w;
            if x > 0 && x + entry > width - 2 * self.pad {
                row += 1;
                x = 0;
            }
            out.push((row, x));
            x += entry + 2 * self.gap;
        }
        out
    }

    /// The height of the legend in rows under a plot `width` wide.
    fn rows_height(&self, width: i32) -> u32 {
        let rows = self.flow(width).last().map_or(1, |(r, _)| r + 1);
        (2 * self.pad + self.row * rows).max(0) as u32
    }

    fn draw_box<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
        (left, top): (i32, i32),
        (scale, theme): (f64, Theme),
    ) -> Result<(), DrawError> {
        let (base_x, base_y) = area.get_base_pixel();
        let (left, top) = (left - base_x, top - base_y);
        let (width, height) = self.box_size();
        let at: Vec<(i32, i32)> = (0..self.entries.len() as i32).map(|i| (i, 0)).collect();
        self.draw_entries(area, [(left, top), (left + width, top + height)], &at, (scale, theme))
    }

    /// The legend in rows under the plot, from its left edge (`plot_x`, backend pixels).
    fn draw_rows<DB: DrawingBackend>(
        &self,
        lower: &DrawingArea<DB, plotters::coord::Shift>,
        plot_x: Range<i32>,
        (scale, theme): (f64, Theme),
    ) -> Result<(), DrawError> {
        let (base_x, _) = lower.get_base_pixel();
        let width = plot_x.end - plot_x.start;
        let at = self.flow(width);
        let left = plot_x.start - base_x;
        let height = self.rows_height(width) as i32;
        self.draw_entries(lower, [(left, 0), (left + width, height)], &at, (scale, theme))
    }

    /// The frame, then each entry at its (row, x offset) inside it.
    fn draw_entries<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, plotters::coord::Shift>,
        frame: [(i32, i32); 2],
        at: &[(i32, i32)],
        (scale, theme): (f64, Theme),
    ) -> Result<(), DrawError> {
        let px = |v: f64| (v * scale).round() as i32;
        area.draw(&Rectangle::new(frame, theme.paper.mix(0.85).filled())).map_err(backend_err)?;
        area.draw(&Rectangle::new(frame, theme.grid.stroke_width(px(1.0).max(1) as u32))).map_err(backend_err)?;
        let half = px(2.0);
        let [(left, top), _] = frame;
        for ((name, color, style), &(row, dx)) in self.entries.iter().zip(at) {
            let mid = top + self.pad + self.row * row + self.row / 2;
            let x = left + self.pad + dx;
            // The swatch draws as the series does: a line, a dashed line, a dot, a bar.
            let bar = |from: i32, to: i32, h: i32| Rectangle::new([(from, mid - h), (to, mid + h)], color.filled());
            match style {
                Style::Points => area.draw(&Circle::new((x + self.swatch / 2, mid), px(3.0), color.filled())),
                Style::Dashed => {
                    let third = self.swatch * 2 / 5;
                    area.draw(&bar(x, x + third, half))
                        .and_then(|()| area.draw(&bar(x + self.swatch - third, x + self.swatch, half)))
                }
                Style::Spans => area.draw(&bar(x, x + self.swatch, px(5.0))),
                Style::Band => area.draw(&Rectangle::new(
                    [(x, mid - px(5.0)), (x + self.swatch, mid + px(5.0))],
                    color.mix(theme.band_opacity).filled(),
                )),
                _ => area.draw(&bar(x, x + self.swatch, half)),
            }
            .map_err(backend_err)?;
            area.draw(&Text::new(*name, (x + self.swatch + self.gap, mid), self.style.clone())).map_err(backend_err)?;
        }
        Ok(())
    }
}

/// Whether `length` pixels fit in `range`.
fn left_of(range: &Range<i32>, length: i32) -> bool {
    range.end - range.start >= length
}

/// Room for the tick labels of the y axis and its title, in CSS pixels:
/// the longest of its own labels, or of the ticks its range gives
/// (`1 × 10⁻⁴` needs more room than `0.5`).
fn label_width(axis: &Axis, range: &Range<f64>, scale: Scale) -> f64 {
    let longest = if axis.tick_labels.is_empty() {
        longest_tick(range, scale)
    } else {
        axis.tick_labels.iter().map(|l| l.chars().count()).max().unwrap_or(0)
    };
    (7.0 * longest as f64 + 26.0).max(64.0)
}

/// The characters of the longest tick label a range of `scale` may get.
fn longest_tick(range: &Range<f64>, scale: Scale) -> usize {
    let span = range.end - range.start;
    let samples: Vec<f64> = if scale == Scale::Log {
        let (lo, hi) = (range.start.log10().floor() as i32, range.end.log10().ceil() as i32);
        (lo.max(-330)..=hi.min(330).max(lo))
            .flat_map(|k| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(k)))
            .filter(|v| range.contains(v))
            .collect()
    } else {
        (0..=6).map(|k| range.start + span * f64::from(k) / 6.0).collect()
    };
    samples.iter().map(|&v| crate::format::tick(v, span).chars().count()).max().unwrap_or(0)
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

    /// A legend entry longer than the plot is wide (a two-term law on a
    /// phone) is cut with an ellipsis instead of running off the image.
    #[test]
    fn a_legend_name_wider_than_the_plot_is_cut_to_fit() {
        let long = format!("0.2243 + 58.07·p^-1·log2(p) − 19.24·p^(-5/4)·log2(p)^2{}", " + 1·p".repeat(12));
        let chart = Chart {
            title: "laws".into(),
            x: Axis::new("p", Scale::Linear),
            y: Axis::new("T", Scale::Linear),
            series: vec![
                Series::new(long.clone(), Style::Line, 0, vec![(1.0, 1.0), (2.0, 2.0)]),
                Series::new("short", Style::Line, 1, vec![(1.0, 2.0), (2.0, 1.0)]),
            ],
            legend: Corner::Auto,
            note: None,
        };
        let svg = to_svg(&chart, 360, 300).unwrap();
        assert!(!svg.contains(&long) && svg.contains("0.2243 + 58.07") && svg.contains('…'), "{svg}");
        assert!(svg.contains("short"), "a name that fits is whole: {svg}");
        assert!(to_svg(&chart, 3000, 600).unwrap().contains(&long), "and so is a long one where it fits");
    }

    #[test]
    fn ticks_are_short() {
        let tick = |v: f64| axis_tick(&Axis::new("x", Scale::Linear), v, 1.0);
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(25.0), "25");
        assert_eq!(tick(1e-8), "10⁻⁸");
        assert_eq!(tick(2.5e6), "2.5 × 10⁶"); // one axis never mixes 10000 with 1e5
        assert_eq!(tick(1e5), "10⁵");
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

    /// A log axis from 1 to 10⁹ labels its first tick 1: zero is a linear
    /// axis' rounding rule (a broadcast chart read "0" at 1 byte).
    #[test]
    fn a_log_axis_has_no_zero_tick() {
        let c = Chart {
            title: "T".into(),
            x: Axis::new("n", Scale::Log),
            y: Axis::new("t", Scale::Log),
            series: vec![Series::new("s", Style::Line, 0, vec![(1.0, 1e-4), (1e9, 10.0)])],
            legend: Corner::default(),
            note: None,
        };
        let mut out = String::new();
        draw(&c, &SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area(), 1.0, Theme::LIGHT).unwrap();
        let texts: Vec<&str> =
            out.split("<text").skip(1).filter_map(|t| t.split('>').nth(1)?.split('<').next()).map(str::trim).collect();
        assert!(texts.contains(&"1"), "{texts:?}");
        assert!(!texts.contains(&"0"), "{texts:?}");
    }
}
