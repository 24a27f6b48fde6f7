//! The iso-map image, laid out: the colour field as pixels, isolines and
//! their labels, axes with ticks in parameter units, titles and a colour
//! bar, all in CSS pixels for a given width. The page blits the pixels and
//! draws what is laid out here; [`MapLayout::to_svg`] draws the same for the
//! command line and the native tests. Knows no model by name.

use std::fmt::Write as _;

use serde::Serialize;

use super::isomap::{Isoline, MapAxis};

/// Margins around the plot, CSS px: room for tick labels, titles and the bar.
const MARGIN: (f64, f64, f64, f64) = (74.0, 96.0, 34.0, 52.0); // left, right, top, bottom
/// Height over width of the whole image.
const ASPECT: f64 = 0.66;
/// The narrowest image laid out, CSS px.
pub const MIN_WIDTH: f64 = 320.0;
/// Gaps (points where the model has no value) are this grey.
const GAP_GREY: u8 = 232;
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
}

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

/// How values map to colours.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ColourScale {
    pub min: f64,
    pub max: f64,
    pub log: bool,
}

impl ColourScale {
    /// From the finite values: logarithmic where they are positive and span
    /// more than three decades. `None` when there is no finite value.
    pub fn of(values: &[f64]) -> Option<ColourScale> {
        let (min, max) = values
            .iter()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
        (min <= max).then(|| ColourScale { min, max, log: min > 0.0 && max / min > 1e3 })
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
}

/// Short text for a tick or level: three significant figures between 1e-3
/// and 1e5, `2.5e6` otherwise.
pub fn short(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if (1e-3..1e5).contains(&a) {
        let rounded: f64 = format!("{v:.2e}").parse().unwrap_or(v);
        format!("{rounded}")
    } else {
        format!("{v:.1e}").replace(".0e", "e")
    }
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
}

impl MapLayout {
    /// Lays out `map` in an image `width` CSS px wide (at least [`MIN_WIDTH`]).
    pub fn new(map: &MapPicture<'_>, width: f64) -> MapLayout {
        let width = if width.is_finite() { width.round().max(MIN_WIDTH) } else { MIN_WIDTH };
        let height = (width * ASPECT).round();
        let (left, right, top, bottom) = MARGIN;
        let plot = Rect { x: left, y: top, w: width - left - right, h: height - top - bottom };
        let scale = ColourScale::of(map.values);
        let lut: Vec<[u8; 3]> = (0..256).map(|k| colour(k as f64 / 255.0)).collect();
        let (nx, ny) = (map.nx, map.ny);
        let mut pixels = vec![0u8; nx * ny * 4];
        for j in 0..ny {
            for i in 0..nx {
                let v = map.values.get(j * nx + i).copied().unwrap_or(f64::NAN);
                let rgb = match scale {
                    Some(s) if v.is_finite() => {
                        let k = (255.0 * s.fraction(v)).round().clamp(0.0, 255.0) as usize;
                        lut.get(k).copied().unwrap_or([0, 0, 0])
                    }
                    _ => [GAP_GREY; 3],
                };
                let o = ((ny - 1 - j) * nx + i) * 4;
                if let Some(px) = pixels.get_mut(o..o + 4) {
                    px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
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

        // A label per level, on its longest line: at the middle, else a
        // quarter or three quarters along, wherever it covers no other label.
        let mut labels: Vec<Label> = Vec::new();
        for (level, lines) in &isolines {
            let Some(line) = lines.iter().max_by_key(|l| l.len()) else { continue };
            let points = line.len() / 2;
            if points < 2 {
                continue;
            }
            let text = short(*level);
            let w = text.chars().count() as f64 * 12.0 * CHAR_WIDTH + 8.0;
            let spot = [points / 2, points / 4, 3 * points / 4].into_iter().find_map(|k| {
                let (x, y) = (*line.get(2 * k)?, *line.get(2 * k + 1)?);
                let rect = Rect { x: x - w / 2.0, y: y - 8.0, w, h: 16.0 };
                (!labels.iter().any(|l| l.rect.overlaps(&rect))).then_some((x, y, rect))
            });
            if let Some((x, y, rect)) = spot {
                labels.push(Label { text, x, y, rect });
            }
        }

        let x_ticks = labelled_ticks(ticks(map.x), px, |t| {
            let half = t.text.chars().count() as f64 * 11.0 * CHAR_WIDTH / 2.0 + 3.0;
            (t.at - half, t.at + half)
        });
        let y_ticks = labelled_ticks(ticks(map.y), py, |t| (t.at - 7.0, t.at + 7.0));

        let bar = Rect { x: plot.x + plot.w + 22.0, y: plot.y, w: 14.0, h: plot.h };
        let rows = bar.h.max(1.0).round() as usize;
        let bar_pixels = (0..rows)
            .flat_map(|k| {
                let [r, g, b] = colour(1.0 - k as f64 / rows as f64);
                [r, g, b, 255]
            })
            .collect();
        let mut bar_ticks = Vec::new();
        let mut bar_marks = Vec::new();
        if let Some(s) = scale {
            let at = |v: f64| bar.y + bar.h - s.fraction(v) * bar.h;
            bar_ticks.push(Tick { at: bar.y + 4.0, text: short(s.max) });
            bar_ticks.push(Tick { at: bar.y + bar.h - 4.0, text: short(s.min) });
            // Levels between, each at least a line of 10 px text from those placed.
            for (level, _) in &isolines {
                if *level <= s.min || *level >= s.max {
                    continue;
                }
                let y = at(*level);
                bar_marks.push(y);
                if bar_ticks.iter().all(|t| (t.at - y).abs() >= 11.0) {
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
        }
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
        image(&mut s, p, self.nx, self.ny, &self.pixels);
        for (stroke, width) in [("rgba(255,255,255,0.85)", 3.0), ("#111", 1.3)] {
            for (_, lines) in &self.isolines {
                for line in lines {
                    let points: Vec<String> = line
                        .chunks_exact(2)
                        .map(|c| format!("{:.2},{:.2}", c.first().unwrap_or(&0.0), c.get(1).unwrap_or(&0.0)))
                        .collect();
                    let _ = write!(
                        s,
                        r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-linejoin="round"/>"#,
                        points.join(" ")
                    );
                }
            }
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
            h - 6.0,
            escape(&self.x_title)
        );
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
            [short(0.5), short(25.0), short(1e-8), short(2.5e6), short(0.999)],
            ["0.5", "25", "1e-8", "2.5e6", "0.999"]
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
