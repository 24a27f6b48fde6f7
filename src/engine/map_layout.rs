//! The iso-map image, laid out: the colour field as pixels, isolines and
//! their labels, axes with ticks in parameter units, titles and a colour
//! bar, all in CSS pixels for a given width. The page blits the pixels and
//! draws what is laid out here; [`MapLayout::to_svg`] draws the same for the
//! command line and the native tests. Knows no model by name.

use std::fmt::Write as _;

use serde::Serialize;

use super::isomap::{Isoline, MapAxis};
use crate::spec::{Category, Guide};

/// Margins around the plot, CSS px: room for tick labels, titles and the bar.
/// The least margins (left, right, top, bottom); the side ones grow with their labels.
const MARGIN: (f64, f64, f64, f64) = (52.0, 70.0, 34.0, 52.0);
/// The y axis' title (12 px, turned) ends this far from the image's left edge.
pub const Y_TITLE_END: f64 = 27.0;
/// Height over width of the whole image 600 px wide and wider; a narrower
/// one (a phone) grows taller, up to square at [`MIN_WIDTH`], so its plot
/// is not a strip between the axis labels and the colour bar.
const ASPECT: f64 = 0.66;
/// The narrowest image laid out, CSS px.
pub const MIN_WIDTH: f64 = 320.0;
/// Gaps (points where the model has no value) are transparent in the
/// pixels (the page paints its own gap colour under them, --gap); the SVG
/// draws this grey under the field.
const GAP_GREY: u8 = 232;
/// A positive scale whose ends are further apart than this ratio is logarithmic.
const LOG_ABOVE: f64 = 100.0;
/// The share of values in each tail a robust colour scale may leave out.
const CLIP_TAIL: f64 = 0.02;
/// A tail shorter than this share of the whole range is kept on the scale
/// (only the long tail of a clipped scale is left out).
const KEEP_TAIL_BELOW: f64 = 0.05;
/// The scale is clipped only when the whole range would squeeze the body
/// of the values (between the tails' quantiles) into less than this share
/// of the colours.
const CLIP_WHEN_BODY_BELOW: f64 = 0.25;
/// Isolines are single lines (a halo under them read as a double line), in
/// light ink where their level's colour is dark (below this fraction of the
/// viridis scale) and dark ink elsewhere.
const LIGHT_INK_BELOW: f64 = 0.45;
/// Width of an isoline, CSS px (the page draws the same in www/map.js).
const ISOLINE_WIDTH: f64 = 1.5;
/// Height of the triangles that mark a clipped end of the colour bar, CSS px.
const ARROW: f64 = 8.0;
/// Rough advance of one character of the label fonts, per px of font size.
const CHAR_WIDTH: f64 = 0.62;

/// Viridis, 9 stops, interpolated linearly.
const VIRIDIS: [[f64; 3]; 9] = [
    [68.0, 1.0, 84.0],
    [71.0, 44.0, 122.0],
    [59.0, 81.0, 139.0],
    [44.0, 113.0, 142.0],
    [33.0, 144.0, 141.0],
    [39.0, 173.0, 129.0],
    [92.0, 200.0, 99.0],
    [170.0, 220.0, 50.0],
    [253.0, 231.0, 37.0],
];

/// The colour at fraction `t` (clamped to 0..1) of the scale.
pub fn colour(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let k = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - k as f64;
    let (a, b) = (VIRIDIS.get(k).copied().unwrap_or_default(), VIRIDIS.get(k + 1).copied().unwrap_or_default());
    let mix = |a: f64, b: f64| (a + f * (b - a)).round() as u8;
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// A rectangle in CSS px.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    fn contains(&self, o: &Rect) -> bool {
        o.x >= self.x && o.y >= self.y && o.x + o.w <= self.x + self.w && o.y + o.h <= self.y + self.h
    }
}

/// Where along its longest line an isoline label is tried, in order (fractions of the line).
const LABEL_SPOTS: [(usize, usize); 7] = [(1, 2), (1, 4), (3, 4), (3, 8), (5, 8), (1, 8), (7, 8)];
/// Height of a line of the colour bar's 10 px labels: labels are at least this far apart.
const BAR_LINE: f64 = 12.0;

/// A tick: where (CSS px along its axis) and its text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tick {
    pub at: f64,
    pub text: String,
}

/// A label on an isoline: its box (white under the text), centred at (x, y).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Label {
    pub text: String,
    pub x: f64,
    pub y: f64,
    pub rect: Rect,
}

/// How values map to colours: from `min` to `max` (logarithmic when
/// `log`). A scale chosen robustly leaves out extreme tails: values below
/// `min` or above `max` take the end colours, and the bar marks those ends
/// (`below`, `above`) and says so (`note`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ColourScale {
    pub min: f64,
    pub max: f64,
    pub log: bool,
    /// Some values lie below `min` (the scale is clipped there).
    pub below: bool,
    /// Some values lie above `max`.
    pub above: bool,
    /// What the clipping leaves out, for the map's legend; empty when nothing.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl ColourScale {
    /// From the finite values, as [`ColourScale::robust`] without levels.
    pub fn of(values: &[f64]) -> Option<ColourScale> {
        Self::robust(values, &[])
    }

    /// A scale for `values` that extremes cannot ruin: when the values'
    /// whole range would squeeze all but the outer [`CLIP_TAIL`] of them
    /// into less than [`CLIP_WHEN_BODY_BELOW`] of the colours (a time that
    /// grows without bound near saturation), the scale spans the quantiles
    /// at [`CLIP_TAIL`] and 1 − [`CLIP_TAIL`], widened to every isoline
    /// level inside the values' range; otherwise the whole range.
    /// Logarithmic where that span is positive and covers more than two
    /// decades ([`LOG_ABOVE`]). `None` when there is no finite value.
    pub fn robust(values: &[f64], levels: &[f64]) -> Option<ColourScale> {
        let mut finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        finite.sort_unstable_by(f64::total_cmp);
        let (&data_min, &data_max) = (finite.first()?, finite.last()?);
        let quantile = |q: f64| finite.get(((finite.len() - 1) as f64 * q).round() as usize).copied();
        let (mut lo, mut hi) = (quantile(CLIP_TAIL)?, quantile(1.0 - CLIP_TAIL)?);
        for &l in levels.iter().filter(|l| l.is_finite() && **l >= data_min && **l <= data_max) {
            lo = lo.min(l);
            hi = hi.max(l);
        }
        let log_of = |a: f64, b: f64| a > 0.0 && b / a > LOG_ABOVE;
        let span = |a: f64, b: f64, log: bool| if log { b.ln() - a.ln() } else { b - a };
        let whole_log = log_of(data_min, data_max);
        let body = span(lo, hi, whole_log) / span(data_min, data_max, whole_log);
        let clip = hi > lo && body.is_finite() && body < CLIP_WHEN_BODY_BELOW;
        // Each end is clipped only where its own tail is long (a short tail keeps its values exact).
        let whole = span(data_min, data_max, whole_log);
        let long_tail = |a: f64, b: f64| span(a, b, whole_log) / whole > KEEP_TAIL_BELOW;
        let min = if clip && long_tail(data_min, lo) { lo } else { data_min };
        let max = if clip && long_tail(hi, data_max) { hi } else { data_max };
        let (below, above) = (data_min < min, data_max > max);
        // The note is prose: numbers as the page writes them (2.2 × 10¹⁸), not the image's 2.2e18.
        let prose = |v: f64| crate::format::tick(v, 0.0);
        let note = if below || above {
            let reach = match (below, above) {
                (true, true) => format!("values run from {} to {}", prose(data_min), prose(data_max)),
                (false, true) => format!("values reach {}", prose(data_max)),
                _ => format!("values fall to {}", prose(data_min)),
            };
            format!(
                "Colours span {} to {} (the middle {}% of the values, and the levels); {reach}, drawn in the end colours (▲▼ on the bar).",
                prose(min),
                prose(max),
                ((1.0 - 2.0 * CLIP_TAIL) * 100.0).round()
            )
        } else {
            String::new()
        };
        Some(ColourScale { min, max, log: log_of(min, max), below, above, note })
    }
    /// The fraction of the scale at `v` (0 at min, 1 at max).
    pub fn fraction(&self, v: f64) -> f64 {
        let (v, lo, hi) = if self.log { (v.ln(), self.min.ln(), self.max.ln()) } else { (v, self.min, self.max) };
        let span = hi - lo;
        (v - lo) / if span == 0.0 { 1.0 } else { span }
    }
}

/// Everything the map image shows, in CSS px of an image `width` wide.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapLayout {
    pub width: f64,
    pub height: f64,
    pub plot: Rect,
    /// The colour field, one RGBA pixel per grid node, top row first
    /// (`nx` × `ny`), to be scaled onto `plot`.
    #[serde(skip)]
    pub pixels: Vec<u8>,
    pub nx: usize,
    pub ny: usize,
    /// `None` when the map has no finite value.
    pub scale: Option<ColourScale>,
    /// Each isoline as a flat list x0, y0, x1, y1, … of CSS px, with its level.
    #[serde(skip)]
    pub isolines: Vec<(f64, Vec<Vec<f64>>)>,
    /// The colour each isoline is drawn in (in the order of `isolines`):
    /// light on the dark part of the scale, dark elsewhere.
    pub isoline_inks: Vec<&'static str>,
    /// One label per level where it fits without covering another.
    pub labels: Vec<Label>,
    pub x_ticks: Vec<Tick>,
    pub y_ticks: Vec<Tick>,
    pub title: String,
    pub x_title: String,
    pub y_title: String,
    pub bar: Rect,
    /// The colour bar, one RGBA pixel per row, top (max) first.
    #[serde(skip)]
    pub bar_pixels: Vec<u8>,
    /// Labels beside the bar: max, min and the levels between them that do
    /// not crowd each other.
    pub bar_ticks: Vec<Tick>,
    /// Where each level inside the scale crosses the bar (CSS px), labelled or not.
    pub bar_marks: Vec<f64>,
    /// A categorical map: regions coloured by category, no colour bar.
    pub categorical: bool,
    /// A categorical map's legend (below the axis title), and the guides'.
    pub legend: Vec<LegendEntry>,
    pub guides: Vec<GuideLine>,
    /// The baseline of the x axis' title, CSS px.
    pub x_title_at: f64,
    /// Where the 95% interval's ends cross each level (CSS px, as
    /// `isolines`), drawn dashed in the ink of the level's isoline.
    #[serde(skip)]
    pub interval_lines: Vec<(f64, Vec<Vec<f64>>)>,
    pub interval_inks: Vec<&'static str>,
    /// Nodes whose 95% interval straddles a level (drawn pale).
    pub uncertain: usize,
    /// What the pale regions and dashed lines are, when drawn.
    pub interval_note: Option<String>,
}

/// A category's colour: the charts' palette, in category order.
pub fn category_colour(k: usize) -> [u8; 3] {
    let (r, g, b) = crate::chart::PALETTE.get(k % crate::chart::PALETTE.len()).copied().unwrap_or((128, 128, 128));
    [r, g, b]
}

/// The legend's text for the dashed lines: what they mark, once.
fn guide_legend(guides: &[Guide]) -> String {
    let mut sources: Vec<&str> = guides.iter().map(|g| g.source).collect();
    sources.dedup();
    format!("dashed: {}", sources.join(", "))
}

/// The guides whose parameter is an axis, as lines across the plot, each
/// labelled at the top (an x guide) or at the left (a y guide) of the
/// plot, apart from the labels placed before.
fn guide_lines(map: &MapPicture<'_>, plot: Rect, px: &dyn Fn(f64) -> f64, py: &dyn Fn(f64) -> f64) -> Vec<GuideLine> {
    let inside = |a: &MapAxis, v: f64| v >= a.min && v <= a.max && (!a.log || v > 0.0);
    let mut out: Vec<GuideLine> = Vec::new();
    for g in map.guides {
        let text = g.label.clone();
        let w = text.chars().count() as f64 * 10.0 * CHAR_WIDTH + 6.0;
        let (line, mut rect) = if g.key == map.x.key && inside(map.x, g.value) {
            let x = px(g.value);
            let left = if x + 3.0 + w <= plot.x + plot.w { x + 3.0 } else { x - 3.0 - w };
            ((x, plot.y, x, plot.y + plot.h), Rect { x: left, y: plot.y + 3.0, w, h: 14.0 })
        } else if g.key == map.y.key && inside(map.y, g.value) {
            let y = py(g.value);
            let top = if y - 17.0 >= plot.y { y - 17.0 } else { y + 3.0 };
            ((plot.x, y, plot.x + plot.w, y), Rect { x: plot.x + 3.0, y: top, w, h: 14.0 })
        } else {
            continue;
        };
        // Step down past the labels already placed.
        while out.iter().any(|o| o.rect.overlaps(&rect)) && rect.y + 2.0 * rect.h < plot.y + plot.h {
            rect.y += rect.h + 2.0;
        }
        let (x1, y1, x2, y2) = line;
        out.push(GuideLine { x1, y1, x2, y2, label: text, rect });
    }
    out
}

/// Short text for a tick or level: three significant figures, as the
/// charts write their ticks ([`crate::format::compact`]).
pub fn short(v: f64) -> String {
    crate::format::compact(v, 3)
}

/// Tick values: decades (and 2, 5 over a short range) on log axes, round
/// steps on linear ones.
pub fn ticks(axis: &MapAxis) -> Vec<f64> {
    let mut out = Vec::new();
    if axis.log {
        if !(axis.min > 0.0 && axis.max > axis.min) {
            return out;
        }
        let lo = axis.min.log10().floor() as i32;
        let hi = axis.max.log10().ceil() as i32;
        let steps: &[f64] = if hi - lo <= 3 { &[1.0, 2.0, 5.0] } else { &[1.0] };
        let stride = ((hi - lo + 7) / 8).max(1) as usize;
        for e in (lo..=hi).step_by(stride) {
            for s in steps {
                let v = s * 10f64.powi(e);
                if v >= axis.min * 0.999999 && v <= axis.max * 1.000001 {
                    out.push(v);
                }
            }
        }
    } else {
        let span = axis.max - axis.min;
        if !(span > 0.0 && span.is_finite()) {
            return out;
        }
        let mag = 10f64.powf((span / 6.0).log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0].iter().map(|s| s * mag).find(|s| span / s <= 7.0).unwrap_or(mag * 10.0);
        let mut k = (axis.min / step).ceil();
        while k * step <= axis.max + step * 1e-9 && out.len() < 64 {
            let v = k * step;
            out.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
            k += 1.0;
        }
    }
    out
}

/// Ticks at `values`, placed by `at`, every one marked; a label that would
/// touch one already kept (its span along the axis from `span`) is left
/// out, decades (1, 10, 100, …) kept first.
fn labelled_ticks(values: Vec<f64>, at: impl Fn(f64) -> f64, span: impl Fn(&Tick) -> (f64, f64)) -> Vec<Tick> {
    let ticks: Vec<Tick> = values.iter().map(|&v| Tick { at: at(v), text: short(v) }).collect();
    let decade = |v: f64| v > 0.0 && (v.log10() - v.log10().round()).abs() < 1e-9;
    let mut order: Vec<usize> = (0..ticks.len()).collect();
    order.sort_by_key(|&k| !values.get(k).is_some_and(|v| decade(*v)));
    let mut kept: Vec<(f64, f64)> = Vec::new();
    let mut out = ticks.clone();
    for k in order {
        let Some(t) = ticks.get(k) else { continue };
        let (from, to) = span(t);
        if kept.iter().any(|&(a, b)| from < b && a < to) {
            if let Some(o) = out.get_mut(k) {
                o.text.clear();
            }
        } else {
            kept.push((from, to));
        }
    }
    out
}

fn fraction(axis: &MapAxis, v: f64) -> f64 {
    if axis.log {
        (v.ln() - axis.min.ln()) / (axis.max.ln() - axis.min.ln())
    } else {
        (v - axis.min) / (axis.max - axis.min)
    }
}

/// What the map shows: its grid, its isolines in parameter units, and the
/// titles of its axes and of the output.
pub struct MapPicture<'a> {
    pub x: &'a MapAxis,
    pub y: &'a MapAxis,
    pub nx: usize,
    pub ny: usize,
    pub values: &'a [f64],
    pub isolines: &'a [Isoline],
    pub title: String,
    pub x_title: String,
    pub y_title: String,
    /// A categorical output's categories (the values index them): the map
    /// colours regions by category, draws their boundaries and a legend
    /// instead of a colour bar. Empty for a number.
    pub categories: &'a [Category],
    /// Reference lines of the model, drawn where their parameter is an axis.
    pub guides: &'a [Guide],
    /// A calibrated model's 95% interval at each node, when it carries one.
    pub interval: Option<MapInterval<'a>>,
}

/// The ends of the 95% interval of a calibrated model's value at each node
/// (as `values`), and the lines where each end crosses a level.
pub struct MapInterval<'a> {
    pub low: &'a [f64],
    pub high: &'a [f64],
    /// The isolines of `low` and of `high` at the map's levels.
    pub lines: &'a [Isoline],
}

/// How much of its colour a node keeps where the interval straddles a
/// level (the rest is white): the map is pale where its answer is uncertain.
const UNCERTAIN_KEEPS: f64 = 0.45;

/// An entry of a categorical map's legend: a swatch of `rgb` (a dashed
/// line when `None`) at (`x`, `y` − 5), 10 px square, and its text after it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LegendEntry {
    pub text: String,
    pub rgb: Option<[u8; 3]>,
    pub x: f64,
    pub y: f64,
}

/// A reference line across the plot, dashed, from (`x1`, `y1`) to
/// (`x2`, `y2`), and its label on a light box `rect` (text centred in it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GuideLine {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    pub label: String,
    pub rect: Rect,
}

/// A line of the legend's 11 px text, CSS px.
const LEGEND_LINE: f64 = 17.0;

/// Appends each line (flat x0, y0, x1, y1, … in CSS px) as an SVG
/// polyline drawn with `stroke` (its stroke attributes).
fn polylines(s: &mut String, lines: &[Vec<f64>], stroke: &str) {
    for line in lines {
        let points: Vec<String> = line
            .chunks_exact(2)
            .map(|c| format!("{:.2},{:.2}", c.first().unwrap_or(&0.0), c.get(1).unwrap_or(&0.0)))
            .collect();
        let _ = write!(s, r#"<polyline points="{}" fill="none" {stroke}/>"#, points.join(" "));
    }
}

impl MapLayout {
    /// Lays out `map` in an image `width` CSS px wide (at least [`MIN_WIDTH`]).
    pub fn new(map: &MapPicture<'_>, width: f64) -> MapLayout {
        let width = if width.is_finite() { width.round().max(MIN_WIDTH) } else { MIN_WIDTH };
        let narrow = ((600.0 - width) / (600.0 - MIN_WIDTH)).clamp(0.0, 1.0);
        let height = (width * (ASPECT + (1.0 - ASPECT) * narrow)).round();
        let levels: Vec<f64> = map.isolines.iter().map(|i| i.level).collect();
        let scale = ColourScale::robust(map.values, &levels);
        // Room for the y axis' labels left of the plot (right of its title)
        // and for the colour bar's labels right of it, as long as they are.
        let end = |v: f64, beyond: bool, sign: &str| if beyond { format!("{sign} {}", short(v)) } else { short(v) };
        let text_width = |text: &str, font: f64| text.chars().count() as f64 * font * CHAR_WIDTH;
        let y_labels = ticks(map.y).into_iter().map(|v| text_width(&short(v), 11.0)).fold(0.0, f64::max);
        let bar_labels = scale
            .iter()
            .flat_map(|s| [end(s.max, s.above, "≥"), end(s.min, s.below, "≤")])
            .chain(levels.iter().map(|&l| short(l)))
            .map(|t| text_width(&t, 10.0))
            .fold(0.0, f64::max);
        let categorical = !map.categories.is_empty();
        let (left, right, top, bottom) = MARGIN;
        let left = left.max(Y_TITLE_END + 4.0 + 7.0 + y_labels);
        let right = if categorical { 24.0 } else { right.max(22.0 + 14.0 + 4.0 + bar_labels + 4.0) };
        // A categorical map's legend: the categories present, then the guides, in rows below the axis title.
        let mut legend: Vec<LegendEntry> = Vec::new();
        if categorical {
            let present = |k: usize| map.values.contains(&(k as f64));
            let entries = map
                .categories
                .iter()
                .enumerate()
                .filter(|(k, _)| present(*k))
                .map(|(k, c)| (c.label.to_string(), Some(category_colour(k))))
                .chain((!map.guides.is_empty()).then(|| (guide_legend(map.guides), None)));
            let (mut x, mut row) = (left, 0usize);
            for (text, rgb) in entries {
                let w = 14.0 + text_width(&text, 11.0) + 14.0;
                if x > left && x + w > width - 8.0 {
                    x = left;
                    row += 1;
                }
                legend.push(LegendEntry { text, rgb, x, y: height + 12.0 + row as f64 * LEGEND_LINE });
                x += w;
            }
        }
        let rows = legend.iter().map(|e| e.y).fold(f64::NEG_INFINITY, f64::max);
        let extra = if legend.is_empty() { 0.0 } else { rows - height + 12.0 };
        let plot = Rect { x: left, y: top, w: width - left - right, h: height - top - bottom };
        // The x axis' title keeps its place; a legend adds its rows below it.
        let x_title_at = height - 6.0;
        let height = height + extra;
        let lut: Vec<[u8; 3]> = (0..256).map(|k| colour(k as f64 / 255.0)).collect();
        let (nx, ny) = (map.nx, map.ny);
        let mut pixels = vec![0u8; nx * ny * 4];
        // A node is uncertain where its interval has a level strictly inside.
        let interval = map.interval.as_ref().filter(|_| !categorical);
        let straddles = |k: usize| {
            interval.is_some_and(|b| match (b.low.get(k), b.high.get(k)) {
                (Some(lo), Some(hi)) => levels.iter().any(|l| lo < l && l < hi),
                _ => false,
            })
        };
        let mut uncertain = 0;
        for j in 0..ny {
            for i in 0..nx {
                let v = map.values.get(j * nx + i).copied().unwrap_or(f64::NAN);
                let rgba = match &scale {
                    _ if categorical && v.is_finite() && v >= 0.0 && (v as usize) < map.categories.len() => {
                        let [r, g, b] = category_colour(v as usize);
                        [r, g, b, 255]
                    }
                    _ if categorical => [0, 0, 0, 0],
                    Some(s) if v.is_finite() => {
                        let k = (255.0 * s.fraction(v)).round().clamp(0.0, 255.0) as usize;
                        let [r, g, b] = lut.get(k).copied().unwrap_or([0, 0, 0]);
                        [r, g, b, 255]
                    }
                    _ => [0, 0, 0, 0], // a gap: the page's gap colour shows through
                };
                let mut rgba = rgba;
                if straddles(j * nx + i) {
                    uncertain += 1;
                    for c in rgba.iter_mut().take(3) {
                        *c = (UNCERTAIN_KEEPS * f64::from(*c) + (1.0 - UNCERTAIN_KEEPS) * 255.0).round() as u8;
                    }
                }
                let o = ((ny - 1 - j) * nx + i) * 4;
                if let Some(px) = pixels.get_mut(o..o + 4) {
                    px.copy_from_slice(&rgba);
                }
            }
        }
        let px = |v: f64| plot.x + fraction(map.x, v) * plot.w;
        let py = |v: f64| plot.y + plot.h - fraction(map.y, v) * plot.h;
        let isolines: Vec<(f64, Vec<Vec<f64>>)> = map
            .isolines
            .iter()
            .map(|iso| {
                (iso.level, iso.lines.iter().map(|l| l.iter().flat_map(|&(x, y)| [px(x), py(y)]).collect()).collect())
            })
            .collect();

        // A label per level, on its longest line: at the middle, else further
        // along or back (LABEL_SPOTS), wherever it lies inside the plot and
        // covers no other label.
        let mut labels: Vec<Label> = Vec::new();
        for (level, lines) in isolines.iter().filter(|_| !categorical) {
            let Some(line) = lines.iter().max_by_key(|l| l.len()) else { continue };
            let points = line.len() / 2;
            if points < 2 {
                continue;
            }
            let text = short(*level);
            let w = text.chars().count() as f64 * 12.0 * CHAR_WIDTH + 8.0;
            let spot = LABEL_SPOTS.iter().find_map(|&(num, den)| {
                let k = points * num / den;
                let (x, y) = (*line.get(2 * k)?, *line.get(2 * k + 1)?);
                let rect = Rect { x: x - w / 2.0, y: y - 8.0, w, h: 16.0 };
                (plot.contains(&rect) && !labels.iter().any(|l| l.rect.overlaps(&rect))).then_some((x, y, rect))
            });
            if let Some((x, y, rect)) = spot {
                labels.push(Label { text, x, y, rect });
            }
        }

        let ink = |level: f64| match &scale {
            _ if categorical => "#111",
            Some(s) if s.fraction(level).clamp(0.0, 1.0) < LIGHT_INK_BELOW => "#fff",
            _ => "#111",
        };
        let isoline_inks = isolines.iter().map(|(level, _)| ink(*level)).collect();
        let interval_lines: Vec<(f64, Vec<Vec<f64>>)> = interval
            .map(|b| {
                b.lines
                    .iter()
                    .map(|iso| {
                        let lines = iso.lines.iter().map(|l| l.iter().flat_map(|&(x, y)| [px(x), py(y)]).collect());
                        (iso.level, lines.collect())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let interval_inks = interval_lines.iter().map(|(level, _)| ink(*level)).collect();
        let interval_note = interval.map(|_| {
            format!(
                "Pale: where the 95% interval of the calibrated model's value straddles a level ({uncertain} of {} points); dashed: where its low and high ends cross each level.",
                nx * ny
            )
        });
        let guides = guide_lines(map, plot, &px, &py);

        let x_ticks = labelled_ticks(ticks(map.x), px, |t| {
            let half = t.text.chars().count() as f64 * 11.0 * CHAR_WIDTH / 2.0 + 3.0;
            (t.at - half, t.at + half)
        });
        let y_ticks = labelled_ticks(ticks(map.y), py, |t| (t.at - 7.0, t.at + 7.0));

        let bar = if categorical {
            Rect { x: plot.x + plot.w, y: plot.y, w: 0.0, h: 0.0 }
        } else {
            Rect { x: plot.x + plot.w + 22.0, y: plot.y, w: 14.0, h: plot.h }
        };
        let rows = if categorical { 0 } else { bar.h.max(1.0).round() as usize };
        let scale = if categorical { None } else { scale };
        let bar_pixels = (0..rows)
            .flat_map(|k| {
                let [r, g, b] = colour(1.0 - k as f64 / rows as f64);
                [r, g, b, 255]
            })
            .collect();
        let mut bar_ticks = Vec::new();
        let mut bar_marks = Vec::new();
        if let Some(s) = &scale {
            let at = |v: f64| bar.y + bar.h - s.fraction(v) * bar.h;
            bar_ticks.push(Tick { at: bar.y + 4.0, text: end(s.max, s.above, "≥") });
            bar_ticks.push(Tick { at: bar.y + bar.h - 4.0, text: end(s.min, s.below, "≤") });
            // Levels between, each at least a line of 10 px text (BAR_LINE) from those placed.
            for (level, _) in &isolines {
                if *level <= s.min || *level >= s.max {
                    continue;
                }
                let y = at(*level);
                bar_marks.push(y);
                if bar_ticks.iter().all(|t| (t.at - y).abs() >= BAR_LINE) {
                    bar_ticks.push(Tick { at: y, text: short(*level) });
                }
            }
        }
        MapLayout {
            width,
            height,
            plot,
            pixels,
            nx,
            ny,
            scale,
            isolines,
            isoline_inks,
            labels,
            x_ticks,
            y_ticks,
            title: map.title.clone(),
            x_title: map.x_title.clone(),
            y_title: map.y_title.clone(),
            bar,
            bar_pixels,
            bar_ticks,
            bar_marks,
            categorical,
            legend,
            guides,
            x_title_at,
            interval_lines,
            interval_inks,
            uncertain,
            interval_note,
        }
    }

    /// The colour field with its gaps in grey (an image with no page under it).
    pub fn opaque_pixels(&self) -> Vec<u8> {
        let mut out = self.pixels.clone();
        for px in out.chunks_exact_mut(4) {
            if px.get(3) == Some(&0) {
                px.copy_from_slice(&[GAP_GREY, GAP_GREY, GAP_GREY, 255]);
            }
        }
        out
    }

    /// The triangles at the ends of the bar where the scale is clipped:
    /// (tip y, base y, colour fraction), CSS px.
    pub fn bar_arrows(&self) -> Vec<(f64, f64, f64)> {
        let b = self.bar;
        let mut out = Vec::new();
        if let Some(s) = &self.scale {
            if s.above {
                out.push((b.y - ARROW - 2.0, b.y - 2.0, 1.0));
            }
            if s.below {
                out.push((b.y + b.h + ARROW + 2.0, b.y + b.h + 2.0, 0.0));
            }
        }
        out
    }

    /// The image as SVG: the colour field embedded as a PNG, the rest as
    /// vectors (the command line's `map --svg`).
    pub fn to_svg(&self) -> String {
        let mut s = String::new();
        let (w, h) = (self.width, self.height);
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
        );
        let _ = write!(s, r##"<rect width="{w}" height="{h}" fill="#fff"/>"##);
        let p = self.plot;
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="rgb({GAP_GREY},{GAP_GREY},{GAP_GREY})"/>"#,
            p.x, p.y, p.w, p.h
        );
        image(&mut s, p, self.nx, self.ny, &self.pixels);
        let width = ISOLINE_WIDTH;
        for ((_, lines), stroke) in self.isolines.iter().zip(&self.isoline_inks) {
            polylines(&mut s, lines, &format!(r#"stroke="{stroke}" stroke-width="{width}" stroke-linejoin="round""#));
        }
        for ((_, lines), stroke) in self.interval_lines.iter().zip(&self.interval_inks) {
            polylines(&mut s, lines, &format!(r#"stroke="{stroke}" stroke-width="1" stroke-dasharray="4 3""#));
        }
        for l in &self.labels {
            let r = l.rect;
            let _ = write!(
                s,
                r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{}" fill="rgba(255,255,255,0.9)"/>"#,
                r.x, r.y, r.w, r.h
            );
            let _ = write!(
                s,
                r##"<text x="{:.2}" y="{:.2}" font-size="12" font-weight="600" text-anchor="middle" dominant-baseline="middle" fill="#111">{}</text>"##,
                l.x,
                l.y,
                escape(&l.text)
            );
        }
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#212529"/>"##,
            p.x, p.y, p.w, p.h
        );
        for t in &self.x_ticks {
            let (x, y) = (t.at, p.y + p.h);
            if t.text.is_empty() {
                let _ = write!(s, r##"<line x1="{x:.2}" y1="{y}" x2="{x:.2}" y2="{}" stroke="#212529"/>"##, y + 5.0);
                continue;
            }
            let _ = write!(
                s,
                r##"<line x1="{x:.2}" y1="{y}" x2="{x:.2}" y2="{}" stroke="#212529"/><text x="{x:.2}" y="{}" font-size="11" text-anchor="middle" dominant-baseline="hanging">{}</text>"##,
                y + 5.0,
                y + 7.0,
                escape(&t.text)
            );
        }
        for t in &self.y_ticks {
            let y = t.at;
            let _ = write!(
                s,
                r##"<line x1="{}" y1="{y:.2}" x2="{}" y2="{y:.2}" stroke="#212529"/><text x="{}" y="{y:.2}" font-size="11" text-anchor="end" dominant-baseline="middle">{}</text>"##,
                p.x - 5.0,
                p.x,
                p.x - 7.0,
                escape(&t.text)
            );
        }
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
            p.x + p.w / 2.0,
            self.x_title_at,
            escape(&self.x_title)
        );
        for g in &self.guides {
            let r = g.rect;
            let _ = write!(
                s,
                r##"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#111" stroke-width="1.5" stroke-dasharray="6 4"/><rect x="{:.2}" y="{:.2}" width="{:.2}" height="{}" fill="rgba(255,255,255,0.9)"/><text x="{:.2}" y="{:.2}" font-size="10" text-anchor="middle" dominant-baseline="middle" fill="#111">{}</text>"##,
                g.x1,
                g.y1,
                g.x2,
                g.y2,
                r.x,
                r.y,
                r.w,
                r.h,
                r.x + r.w / 2.0,
                r.y + r.h / 2.0,
                escape(&g.label)
            );
        }
        for e in &self.legend {
            match e.rgb {
                Some([r, g, b]) => {
                    let _ = write!(
                        s,
                        r##"<rect x="{:.2}" y="{:.2}" width="10" height="10" fill="rgb({r},{g},{b})" stroke="#212529"/>"##,
                        e.x,
                        e.y - 5.0
                    );
                }
                None => {
                    let _ = write!(
                        s,
                        r##"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#212529" stroke-width="1.5" stroke-dasharray="4 3"/>"##,
                        e.x,
                        e.y,
                        e.x + 10.0,
                        e.y
                    );
                }
            }
            let _ = write!(
                s,
                r#"<text x="{:.2}" y="{:.2}" font-size="11" dominant-baseline="middle">{}</text>"#,
                e.x + 14.0,
                e.y,
                escape(&e.text)
            );
        }
        let _ = write!(
            s,
            r#"<text transform="translate(14 {}) rotate(-90)" font-size="12" text-anchor="middle" dominant-baseline="hanging">{}</text>"#,
            p.y + p.h / 2.0,
            escape(&self.y_title)
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="8" font-size="13" font-weight="600" text-anchor="middle" dominant-baseline="hanging">{}</text>"#,
            p.x + p.w / 2.0,
            escape(&self.title)
        );
        let b = self.bar;
        image(&mut s, b, 1, self.bar_pixels.len() / 4, &self.bar_pixels);
        for (tip, base, fraction) in self.bar_arrows() {
            let [r, g, bl] = colour(fraction);
            let _ = write!(
                s,
                r##"<polygon points="{:.2},{base:.2} {:.2},{base:.2} {:.2},{tip:.2}" fill="rgb({r},{g},{bl})" stroke="#212529"/>"##,
                b.x,
                b.x + b.w,
                b.x + b.w / 2.0
            );
        }
        let _ = write!(
            s,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#212529"/>"##,
            b.x, b.y, b.w, b.h
        );
        for t in &self.bar_ticks {
            let _ = write!(
                s,
                r#"<text x="{}" y="{:.2}" font-size="10" dominant-baseline="middle">{}</text>"#,
                b.x + b.w + 4.0,
                t.at,
                escape(&t.text)
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// An RGBA image (`w` × `h`) stretched over `rect`, as an SVG `<image>` of an embedded PNG.
fn image(s: &mut String, rect: Rect, w: usize, h: usize, rgba: &[u8]) {
    let _ = write!(
        s,
        r#"<image x="{}" y="{}" width="{}" height="{}" preserveAspectRatio="none" href="data:image/png;base64,{}"/>"#,
        rect.x,
        rect.y,
        rect.w,
        rect.h,
        base64(&png(w, h, rgba))
    );
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// An RGBA image as PNG, its pixels in stored (uncompressed) deflate
/// blocks: no compression library for a picture the CLI writes once.
pub fn png(width: usize, height: usize, rgba: &[u8]) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(out.get(start..).unwrap_or_default());
        out.extend_from_slice(&crc.to_be_bytes());
    }
    let mut raw = Vec::with_capacity(height * (width * 4 + 1));
    for row in rgba.chunks(width * 4).take(height) {
        raw.push(0); // filter: none
        raw.extend_from_slice(row);
    }
    let mut z = vec![0x78, 0x01];
    let mut blocks = raw.chunks(65535).peekable();
    if blocks.peek().is_none() {
        z.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(block) = blocks.next() {
        z.push(u8::from(blocks.peek().is_none()));
        let len = block.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(block);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for byte in &raw {
        a = (a + u32::from(*byte)) % 65521;
        b = (b + a) % 65521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut out = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    let mut header = Vec::new();
    header.extend_from_slice(&(width as u32).to_be_bytes());
    header.extend_from_slice(&(height as u32).to_be_bytes());
    header.extend_from_slice(&[8, 6, 0, 0, 0]); // 8 bits, RGBA
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for byte in data {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for group in data.chunks(3) {
        let b = [
            group.first().copied().unwrap_or(0),
            group.get(1).copied().unwrap_or(0),
            group.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= group.len() {
                out.push(char::from(ALPHABET.get(((n >> (18 - 6 * k)) & 63) as usize).copied().unwrap_or(b'=')));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_and_ticks() {
        assert_eq!(
            [
                short(0.5),
                short(25.0),
                short(1e-8),
                short(2.5e6),
                short(0.999),
                short(1e5),
                short(4.1e-5),
                short(12000.0),
                short(4842.3),
                short(-4842.3)
            ],
            ["0.5", "25", "10⁻⁸", "2.5 × 10⁶", "0.999", "10⁵", "4.1 × 10⁻⁵", "12000", "4840", "-4840"]
        );
        let log = MapAxis { key: "m".into(), min: 1.0, max: 1000.0, log: true };
        assert_eq!(ticks(&log), [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]);
        let lin = MapAxis { key: "k".into(), min: 0.0, max: 1.0, log: false };
        assert_eq!(ticks(&lin), [0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]);
        // No panic and no ticks for an axis that cannot be drawn.
        assert!(ticks(&MapAxis { key: "k".into(), min: 1.0, max: 1.0, log: false }).is_empty());
    }

    #[test]
    fn viridis_ends_and_middle() {
        assert_eq!(colour(0.0), [68, 1, 84]);
        assert_eq!(colour(1.0), [253, 231, 37]);
        assert_eq!(colour(0.5), [33, 144, 141]);
        assert_eq!(colour(f64::NAN), [68, 1, 84]);
    }

    /// The checksums are those of zlib and PNG: CRC-32 of "IEND" as every
    /// PNG ends; Adler-32 of the one filtered row 0, 255, 255, 255, 255 by
    /// hand from RFC 1950: a = 1 + 1020 = 0x3FD, b = 1 + 256 + 511 + 766 + 1021 = 0x9FB.
    #[test]
    fn png_checksums() {
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
        let p = png(1, 1, &[255, 255, 255, 255]);
        let adler = &p[p.len() - 20..p.len() - 16];
        assert_eq!(adler, &[0x00, 0x09, 0xfb, 0x03, 0xfd][1..]);
        assert_eq!(&p[..8], &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]);
        let tail = &p[p.len() - 12..];
        assert_eq!(tail, &[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82]);
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
        assert_eq!(base64(b"M"), "TQ==");
    }
}
