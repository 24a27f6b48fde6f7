//! Charts as data ([`Chart`]), and (with the `full` feature) one drawing
//! function generic over the plotters backend in [`draw`]: the page draws
//! on a canvas, the tests and the CLI draw to SVG.

use serde::{Deserialize, Serialize};

use crate::spec::Scale;

#[cfg(feature = "full")]
mod draw;
#[cfg(feature = "full")]
pub use draw::{draw, to_svg, DrawError, Theme};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Axis {
    pub label: String,
    pub scale: Scale,
    /// Fixed bounds; otherwise the data decide. `lo > hi` runs the axis
    /// downwards (P1 at the top of a Gantt chart).
    pub bounds: Option<(f64, f64)>,
    /// When non-empty, the tick at whole number v (from 1) reads
    /// `tick_labels[v - 1]` ("P3"), and other ticks are blank.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tick_labels: Vec<String>,
}

impl Axis {
    pub fn new(label: impl Into<String>, scale: Scale) -> Self {
        Axis { label: label.into(), scale, bounds: None, tick_labels: Vec::new() }
    }

    pub fn labelled(mut self, labels: Vec<String>) -> Self {
        self.tick_labels = labels;
        self
    }

    pub fn bounded(mut self, lo: f64, hi: f64) -> Self {
        self.bounds = Some((lo, hi));
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    Line,
    Dashed,
    Points,
    /// One emphasised point (the current parameters).
    Marker,
    /// Horizontal bars from `spans` (Gantt charts); `points` unused.
    Spans,
    /// A shaded interval about a curve: from `points` (its low end) up to
    /// `upper` (its high end, at the same x), drawn behind the curves.
    Band,
}

/// A horizontal bar on row `row` from `from` to `to` (x units).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub row: f64,
    pub from: f64,
    pub to: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Series {
    pub name: String,
    #[serde(deserialize_with = "points_with_gaps")]
    pub points: Vec<(f64, f64)>,
    pub style: Style,
    /// Index into [`PALETTE`].
    pub color: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<Span>,
    /// A band's high end, point for point with `points` (its low end).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "points_with_gaps")]
    pub upper: Vec<(f64, f64)>,
    /// Drawn faintly (its colour blended towards the paper): a
    /// pinned scenario's curve behind the current one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub faint: bool,
}

/// Points as JSON gives them back: a gap (NaN or an infinity, which JSON
/// writes as null) reads as NaN, which no chart draws.
fn points_with_gaps<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(f64, f64)>, D::Error> {
    let read: Vec<(Option<f64>, Option<f64>)> = Deserialize::deserialize(d)?;
    Ok(read.into_iter().map(|(x, y)| (x.unwrap_or(f64::NAN), y.unwrap_or(f64::NAN))).collect())
}

impl Series {
    pub fn new(name: impl Into<String>, style: Style, color: usize, points: Vec<(f64, f64)>) -> Self {
        Series { name: name.into(), points, style, color, spans: Vec::new(), upper: Vec::new(), faint: false }
    }

    pub fn spans(name: impl Into<String>, color: usize, spans: Vec<Span>) -> Self {
        Series { spans, ..Series::new(name, Style::Spans, color, Vec::new()) }
    }

    /// The interval from `lower` to `upper` (the same x, point for point)
    /// about the curve named `name`.
    pub fn band(name: impl Into<String>, color: usize, lower: Vec<(f64, f64)>, upper: Vec<(f64, f64)>) -> Self {
        Series { upper, ..Series::new(name, Style::Band, color, lower) }
    }

    /// The (x, y) points this series covers, for axis ranges.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    fn extent_points(&self) -> Vec<(f64, f64)> {
        if self.style == Style::Spans {
            self.spans.iter().flat_map(|s| [(s.from, s.row), (s.to, s.row)]).collect()
        } else if self.style == Style::Band {
            self.points.iter().chain(&self.upper).copied().collect()
        } else {
            self.points.clone()
        }
    }
}

/// Where the legend goes: the corner the curves leave empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Corner {
    /// The corner the data leave emptiest.
    #[default]
    Auto,
    UpperRight,
    UpperLeft,
    LowerLeft,
    LowerRight,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Chart {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
    pub legend: Corner,
    /// A sentence the page shows under the chart (what the user sees).
    #[serde(default, serialize_with = "crate::format::rich_text::maybe", skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Colour-blind-safe (Okabe–Ito) series colours, and a grey for a seventh.
pub const PALETTE: [(u8, u8, u8); 7] =
    [(213, 94, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167), (230, 159, 0), (86, 180, 233), (128, 128, 128)];

/// The legend's entry for the bands of a chart (one, however many curves have one).
pub const BAND_LEGEND: &str = "95% interval of the model";

/// A series colour that is the theme's ink (a bound, a reference line);
/// small enough to cross JSON as an exact number.
pub const INK: usize = 999;
