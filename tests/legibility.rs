//! Legible maps and charts (issue 14): nothing drawn as text overlaps other
//! text. Every map preset of every model is laid out at a desktop, a phone
//! and the narrowest width, and the boxes of what it writes are measured:
//! isoline labels (inside the plot, apart from each other), colour-bar
//! labels, axis tick labels, and the bar's clipped-end triangles (inside the
//! image). The layout is in CSS pixels and the page scales the finished
//! drawing by the device-pixel ratio, so one layout serves DPR 1 and 2;
//! charts, whose fonts and strokes grow with the ratio, are drawn at both
//! and their legends measured. Robust colour scales: extremes do not ruin
//! the scale, and a smooth map is not clipped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use isoperf::api;
use isoperf::chart::Theme;
use isoperf::engine::isomap::{MapAxis, MapRequest};
use isoperf::engine::map_layout::{MapLayout, Rect, Y_TITLE_END};
use isoperf::models::MODELS;
use isoperf::spec::RawParams;
use plotters::prelude::{IntoDrawingArea, SVGBackend};

mod common;
use common::preset_params;

/// Widths the map is laid out at, CSS px: a desktop card, a 390 px phone's card, the narrowest.
const WIDTHS: [f64; 3] = [900.0, 358.0, 320.0];
/// Advance of a character per px of font size (as the layout estimates it; system-ui digits are narrower).
const CHAR: f64 = 0.62;
/// Grid nodes per axis: enough for the isolines' shapes, quick in a debug build.
const GRID: usize = 48;

fn text_box(text: &str, font: f64, x: f64, y_mid: f64, anchor: Anchor) -> Rect {
    let w = text.chars().count() as f64 * font * CHAR;
    let x = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - w / 2.0,
        Anchor::End => x - w,
    };
    Rect { x, y: y_mid - font * 0.6, w, h: font * 1.2 }
}

#[derive(Clone, Copy)]
enum Anchor {
    Start,
    Middle,
    End,
}

fn overlap(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

fn inside(inner: &Rect, outer: &Rect) -> bool {
    inner.x >= outer.x - 1e-9
        && inner.y >= outer.y - 1e-9
        && inner.x + inner.w <= outer.x + outer.w + 1e-9
        && inner.y + inner.h <= outer.y + outer.h + 1e-9
}

/// Every pair of `boxes` (named) that overlaps.
fn clashes(boxes: &[(String, Rect)]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (a, ra)) in boxes.iter().enumerate() {
        for (b, rb) in boxes.iter().skip(i + 1) {
            if overlap(ra, rb) {
                out.push(format!("'{a}' on '{b}'"));
            }
        }
    }
    out
}

fn layouts() -> Vec<(String, MapLayout)> {
    layouts_at(GRID)
}

/// Every preset laid out at every width, computed on a `grid` × `grid` grid (0: the preset's own).
fn layouts_at(grid: usize) -> Vec<(String, MapLayout)> {
    let mut out = Vec::new();
    for m in MODELS {
        let spec = m.spec();
        for preset in spec.maps {
            let request = MapRequest {
                output: preset.output.into(),
                x: MapAxis::parse("x", preset.x).unwrap(),
                y: MapAxis::parse("y", preset.y).unwrap(),
                nx: if grid == 0 { preset.grid } else { grid },
                ny: if grid == 0 { preset.grid } else { grid },
                levels: preset.levels.to_vec(),
            };
            if grid == 0 && !(spec.id == "pipeline" || spec.id == "dlt") {
                continue; // the scale tests need these two only
            }
            let raw = preset_params(preset.values);
            let map =
                api::iso_map(spec.id, &raw, &request).unwrap_or_else(|e| panic!("{}/{}: {e}", spec.id, preset.id));
            for width in WIDTHS {
                let layout = api::map_layout(spec.id, &request, &map.values, width, &raw, None).unwrap();
                out.push((format!("{}/{} at {width} px", spec.id, preset.id), layout));
            }
        }
    }
    out
}

#[test]
fn map_texts_never_overlap_and_stay_in_the_image() {
    let mut problems = Vec::new();
    let mut labels_seen = 0;
    for (what, l) in layouts() {
        let image = Rect { x: 0.0, y: 0.0, w: l.width, h: l.height };
        // Isoline labels: inside the plot, apart from each other.
        let labels: Vec<(String, Rect)> = l.labels.iter().map(|x| (x.text.clone(), x.rect)).collect();
        labels_seen += labels.len();
        problems.extend(clashes(&labels).into_iter().map(|c| format!("{what}: isoline labels {c}")));
        for (text, r) in &labels {
            if !inside(r, &l.plot) {
                problems.push(format!("{what}: isoline label '{text}' leaves the plot: {r:?}"));
            }
        }
        // The colour bar's labels (10 px), right of the bar.
        let bar: Vec<(String, Rect)> = l
            .bar_ticks
            .iter()
            .map(|t| (t.text.clone(), text_box(&t.text, 10.0, l.bar.x + l.bar.w + 4.0, t.at, Anchor::Start)))
            .collect();
        problems.extend(clashes(&bar).into_iter().map(|c| format!("{what}: colour-bar labels {c}")));
        for (text, r) in &bar {
            if !inside(r, &image) {
                problems.push(format!("{what}: colour-bar label '{text}' leaves the image: {r:?}"));
            }
        }
        // Axis tick labels (11 px): below the plot, centred; left of it, right-aligned.
        let below = l.plot.y + l.plot.h + 7.0 + 6.6;
        let x_ticks: Vec<(String, Rect)> = l
            .x_ticks
            .iter()
            .filter(|t| !t.text.is_empty())
            .map(|t| (t.text.clone(), text_box(&t.text, 11.0, t.at, below, Anchor::Middle)))
            .collect();
        let y_ticks: Vec<(String, Rect)> = l
            .y_ticks
            .iter()
            .filter(|t| !t.text.is_empty())
            .map(|t| (t.text.clone(), text_box(&t.text, 11.0, l.plot.x - 7.0, t.at, Anchor::End)))
            .collect();
        problems.extend(clashes(&x_ticks).into_iter().map(|c| format!("{what}: x ticks {c}")));
        problems.extend(clashes(&y_ticks).into_iter().map(|c| format!("{what}: y ticks {c}")));
        for (text, r) in &y_ticks {
            if r.x < Y_TITLE_END {
                problems.push(format!("{what}: y tick '{text}' runs into the y axis' title: {r:?}"));
            }
        }
        for (text, r) in x_ticks.iter().chain(&y_ticks) {
            if !inside(r, &image) {
                problems.push(format!("{what}: tick '{text}' leaves the image: {r:?}"));
            }
        }
        // The clipped ends' triangles are inside the image, clear of the bar's labels' column.
        for (tip, base, _) in l.bar_arrows() {
            if tip.min(base) < 0.0 || tip.max(base) > l.height {
                problems.push(format!("{what}: a bar triangle leaves the image ({tip}, {base})"));
            }
        }
    }
    assert!(labels_seen > 20, "only {labels_seen} isoline labels laid out: the test checks little");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn an_extreme_tail_does_not_ruin_the_colour_scale() {
    // The pipeline's time runs to ~1e18 near saturation (on the preset's own grid): the scale is
    // clipped to the body of the values.
    let all = layouts_at(0);
    let (what, pipeline) = all.iter().find(|(w, _)| w.starts_with("pipeline/")).unwrap();
    let s = pipeline.scale.as_ref().unwrap();
    assert!(s.above, "{what}: the tail above is clipped: {s:?}");
    assert!(s.max < 1e8, "{what}: the scale ends at the body of the values, not the tail: {s:?}");
    assert!(!s.note.is_empty() && s.note.contains("end colours"), "{}", s.note);
    assert!(pipeline.bar_ticks[0].text.starts_with('≥'), "the top label says values go beyond it");
    assert_eq!(pipeline.bar_arrows().len(), usize::from(s.above) + usize::from(s.below));

    // A smooth map (dlt's efficiency) keeps its whole range.
    let (what, dlt) = all.iter().find(|(w, _)| w.starts_with("dlt/")).unwrap();
    let s = dlt.scale.as_ref().unwrap();
    assert!(!s.above && !s.below && s.note.is_empty(), "{what}: {s:?}");
}

#[test]
fn robust_scale_by_hand() {
    use isoperf::engine::map_layout::ColourScale;
    // 98 values 1..98 and two wild ones: the body spans 1-98 of a 1-1e12 range.
    let mut v: Vec<f64> = (1..=98).map(f64::from).collect();
    v.extend([1e12, 5e11]);
    let s = ColourScale::robust(&v, &[]).unwrap();
    assert!(s.above && !s.below, "only the long tail is clipped: {s:?}");
    assert!(s.max <= 98.0 && s.min == 1.0, "{s:?}");
    // A level beyond the 98th percentile but inside the values stays on the scale.
    let s = ColourScale::robust(&v, &[1e3]).unwrap();
    assert_eq!(s.max, 1e3);
    // No tail: the whole range, exactly.
    let s = ColourScale::robust(&[0.5, 0.7, 0.9], &[]).unwrap();
    assert_eq!((s.min, s.max, s.above, s.below), (0.5, 0.9, false, false));
    assert!(ColourScale::robust(&[f64::NAN], &[]).is_none());
}

/// Every (x, width) of the legend's texts and swatches in an SVG chart: the
/// swatches are the legend's small filled rects, each followed by its name.
fn legend_parts(svg: &str, names: &[String]) -> Vec<(String, f64, f64)> {
    let mut out = Vec::new();
    let attr = |tag: &str, name: &str| -> Option<f64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.parse().ok()
    };
    let tags: Vec<&str> = svg.split('<').collect();
    for (i, tag) in tags.iter().enumerate() {
        let Some(text) = tag.strip_prefix("text").and_then(|t| t.split('>').nth(1)) else { continue };
        if !names.iter().any(|n| n == text.trim()) {
            continue;
        }
        // The swatch is the last rect (a line, a bar) or circle (a dot) before the text.
        let swatch = tags[..i].iter().rev().find(|t| t.starts_with("rect") || t.starts_with("circle"));
        let (Some(sw), Some(tx)) = (swatch, attr(tag, "x")) else { continue };
        let end = if sw.starts_with("circle") {
            attr(sw, "cx").zip(attr(sw, "r")).map(|(cx, r)| cx + r)
        } else {
            attr(sw, "x").zip(attr(sw, "width")).map(|(x, w)| x + w)
        };
        let Some(end) = end else { continue };
        out.push((text.trim().to_string(), end, tx));
    }
    out
}

#[test]
fn chart_legend_swatches_never_cover_their_names_at_dpr_1_and_2() {
    let mut checked = 0;
    for m in MODELS {
        let spec = m.spec();
        for c in spec.charts {
            let chart = api::chart(spec.id, c.id, &RawParams::new()).unwrap();
            let names: Vec<String> =
                chart.series.iter().filter(|s| !s.name.is_empty()).map(|s| s.name.clone()).collect();
            if names.is_empty() {
                continue;
            }
            for dpr in [1.0, 2.0] {
                let (w, h) = ((640.0 * dpr) as u32, (400.0 * dpr) as u32);
                let mut svg = String::new();
                {
                    let area = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
                    isoperf::chart::draw(&chart, &area, dpr, Theme::LIGHT).unwrap();
                }
                for (name, swatch_end, text_x) in legend_parts(&svg, &names) {
                    assert!(
                        text_x >= swatch_end + 2.0 * dpr,
                        "{}/{} at DPR {dpr}: the swatch ends at {swatch_end}, '{name}' starts at {text_x}",
                        spec.id,
                        c.id
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} legend entries measured");
}

/// The numbers of attribute `name` in an SVG tag (`points` gives pairs flattened).
fn numbers(tag: &str, name: &str) -> Vec<f64> {
    let Some(at) = tag.find(&format!(" {name}=\"")) else { return Vec::new() };
    let value = tag[at + name.len() + 3..].split('"').next().unwrap_or("");
    value.split([' ', ',']).filter_map(|v| v.parse().ok()).collect()
}

/// Every chart of every model at its defaults and at each preset:
/// (model id, chart id, "defaults" or "preset …", the chart).
fn every_chart() -> Vec<(&'static str, &'static str, String, isoperf::chart::Chart)> {
    let mut out = Vec::new();
    for m in MODELS {
        let spec = m.spec();
        let sets = std::iter::once(("defaults".to_string(), RawParams::new()))
            .chain(spec.presets().map(|p| (format!("preset {}", p.id), preset_params(p.values))));
        for (what, raw) in sets {
            for c in spec.charts {
                if let Ok(chart) = api::chart(spec.id, c.id, &raw) {
                    out.push((spec.id, c.id, what.clone(), chart));
                }
            }
        }
    }
    out
}

/// `chart` drawn as SVG at `w` × `h` CSS px and device-pixel ratio `dpr`.
fn svg_of(chart: &isoperf::chart::Chart, w: f64, h: f64, dpr: f64) -> String {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, ((w * dpr) as u32, (h * dpr) as u32)).into_drawing_area();
        isoperf::chart::draw(chart, &area, dpr, Theme::LIGHT).unwrap();
    }
    svg
}

/// Issue 14: a Gantt chart's legend covered a bar. The legend goes to a
/// corner that covers none of the drawing: its frame (the translucent box)
/// meets no bar, no data point and no vertex of a data line of any chart,
/// for the defaults and every preset, at a desktop and a phone size, DPR 1 and 2.
#[test]
fn chart_legends_cover_no_data() {
    let palette: Vec<String> =
        isoperf::chart::PALETTE.iter().map(|(r, g, b)| format!("#{r:02X}{g:02X}{b:02X}")).collect();
    let mut checked = 0;
    for (model, id, what, chart) in every_chart() {
        if chart.series.iter().all(|s| s.name.is_empty()) {
            continue;
        }
        for (w, h, dpr) in [(640.0, 400.0, 1.0), (640.0, 400.0, 2.0), (358.0, 260.0, 2.0)] {
            let svg = svg_of(&chart, w, h, dpr);
            let tags: Vec<&str> = svg.split('<').collect();
            let Some(frame_at) = tags.iter().position(|t| t.starts_with("rect") && t.contains("opacity=\"0.85\""))
            else {
                continue;
            };
            let f = numbers(tags[frame_at], "x").into_iter().chain(numbers(tags[frame_at], "y")).collect::<Vec<_>>();
            let (fw, fh) = (numbers(tags[frame_at], "width")[0], numbers(tags[frame_at], "height")[0]);
            let frame = Rect { x: f[0], y: f[1], w: fw, h: fh };
            let inside = |x: f64, y: f64| x > frame.x && x < frame.x + frame.w && y > frame.y && y < frame.y + frame.h;
            let at = format!("{model}/{id} ({what}) at {w}×{h}, DPR {dpr}");
            let data_colour = |t: &str| palette.iter().any(|p| t.contains(&format!("\"{p}\"")));
            for t in tags[..frame_at].iter().filter(|t| data_colour(t)) {
                if t.starts_with("rect") {
                    let bar = Rect {
                        x: numbers(t, "x")[0],
                        y: numbers(t, "y")[0],
                        w: numbers(t, "width")[0],
                        h: numbers(t, "height")[0],
                    };
                    assert!(!overlap(&bar, &frame), "{at}: the legend {frame:?} covers a bar {bar:?}");
                } else if t.starts_with("circle") {
                    let (cx, cy) = (numbers(t, "cx")[0], numbers(t, "cy")[0]);
                    assert!(!inside(cx, cy), "{at}: the legend {frame:?} covers a point at ({cx}, {cy})");
                } else if t.starts_with("polyline") {
                    for p in numbers(t, "points").chunks(2) {
                        assert!(
                            !inside(p[0], p[1]),
                            "{at}: the legend {frame:?} covers a line through ({}, {})",
                            p[0],
                            p[1]
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} legends measured");
}

/// Issue 14: on a phone a schedule's row labels (M1, M143, …) were drawn
/// on top of each other. Named rows are labelled as many as fit: no two
/// labels closer than a line of text, at a desktop and a phone size.
#[test]
fn schedule_row_labels_never_overlap() {
    let mut checked = 0;
    for m in MODELS {
        let spec = m.spec();
        for c in spec.charts {
            let Ok(chart) = api::chart(spec.id, c.id, &RawParams::new()) else { continue };
            if chart.y.tick_labels.is_empty() {
                continue;
            }
            for (w, h, dpr) in [(640.0, 400.0, 1.0), (330.0, 280.0, 1.0), (330.0, 280.0, 2.0), (330.0, 200.0, 2.0)] {
                let mut svg = String::new();
                {
                    let area =
                        SVGBackend::with_string(&mut svg, ((w * dpr) as u32, (h * dpr) as u32)).into_drawing_area();
                    isoperf::chart::draw(&chart, &area, dpr, Theme::LIGHT).unwrap();
                }
                let mut rows: Vec<(f64, f64)> = svg
                    .split("<text")
                    .skip(1)
                    .filter_map(|t| {
                        let text = t.split('>').nth(1)?.split('<').next()?.trim();
                        chart
                            .y
                            .tick_labels
                            .iter()
                            .any(|l| l == text)
                            .then(|| (numbers(t, "y")[0], numbers(t, "font-size")[0]))
                    })
                    .collect();
                rows.sort_by(|a, b| a.0.total_cmp(&b.0));
                assert!(rows.len() >= 2, "{}/{}: {} row labels at {w}×{h}", spec.id, c.id, rows.len());
                for pair in rows.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    assert!(
                        b.0 - a.0 >= 0.9 * a.1,
                        "{}/{} at {w}×{h}, DPR {dpr}: row labels {} px apart, font {} px",
                        spec.id,
                        c.id,
                        b.0 - a.0,
                        a.1
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "only {checked} schedules measured");
}

/// The texts of an SVG chart: (text, x, y, font px, anchor, rotated).
fn svg_texts(svg: &str) -> Vec<(String, f64, f64, f64, Anchor, bool)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let text = t.split('>').nth(1)?.split('<').next()?.trim().to_string();
            let anchor = if t.contains("text-anchor=\"end\"") {
                Anchor::End
            } else if t.contains("text-anchor=\"middle\"") {
                Anchor::Middle
            } else {
                Anchor::Start
            };
            // plotters' SVG writes font sizes in points (px / 1.24).
            let font = numbers(t, "font-size").first()? * 1.24;
            Some((text, numbers(t, "x")[0], numbers(t, "y")[0], font, anchor, t.contains("rotate(")))
        })
        .collect()
}

/// Issue 14: on a phone a chart's x tick labels (`5 × 10⁻⁵ 1 × 10⁻⁴1.5 × 10⁻⁴`)
/// ran into each other and an axis title ran past the chart. Every chart of
/// every model, at its defaults and every preset, at a desktop and a phone
/// size, DPR 1 and 2: the x tick labels keep apart, and every text is
/// inside the image (a rotated y title within the image's height).
#[test]
fn chart_axis_texts_keep_apart_and_inside() {
    let mut checked = 0;
    for (model, id, what, chart) in every_chart() {
        for (w, h, dpr) in [(640.0, 400.0, 1.0), (640.0, 400.0, 2.0), (358.0, 304.0, 2.0), (330.0, 280.0, 1.0)] {
            let svg = svg_of(&chart, w, h, dpr);
            let at = format!("{model}/{id} ({what}) at {w}×{h}, DPR {dpr}");
            let (iw, ih) = (w * dpr, h * dpr);
            let texts = svg_texts(&svg);
            for (text, x, y, font, anchor, rotated) in &texts {
                // Texts are fitted by the backend's own measure (the browser's
                // measureText; here plotters' estimate for SVG, 0.7 em per byte with
                // em = px / 1.24²); the x tick labels' spacing is checked below with CHAR.
                let width = text.len() as f64 * 0.7 * font / (1.24 * 1.24);
                if *rotated {
                    assert!(width <= ih + 1.0, "{at}: the rotated '{text}' ({width:.0} px) is longer than the image");
                    continue;
                }
                let b = Rect { w: width, ..text_box(text, *font, *x, *y, *anchor) };
                let b = if matches!(anchor, Anchor::Middle) { Rect { x: x - width / 2.0, ..b } } else { b };
                assert!(
                    b.x >= -1.0 && b.x + b.w <= iw + 1.0,
                    "{at}: '{text}' runs from {:.0} to {:.0} px, outside the image's {iw} px",
                    b.x,
                    b.x + b.w
                );
            }
            // The x tick labels: centred texts on one line below the plot (the lowest such line above the axis title).
            let title_y =
                texts.iter().filter(|t| matches!(t.4, Anchor::Middle) && !t.5).map(|t| t.2).fold(0.0, f64::max);
            let mut ticks: Vec<&(String, f64, f64, f64, Anchor, bool)> = texts
                .iter()
                .filter(|t| matches!(t.4, Anchor::Middle) && !t.5 && t.2 < title_y && t.2 > ih / 2.0)
                .collect();
            let Some(row) = ticks.iter().map(|t| t.2).reduce(f64::max) else { continue };
            ticks.retain(|t| (t.2 - row).abs() < 0.5);
            ticks.sort_by(|a, b| a.1.total_cmp(&b.1));
            for pair in ticks.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let (ra, rb) = (text_box(&a.0, a.3, a.1, a.2, a.4), text_box(&b.0, b.3, b.1, b.2, b.4));
                assert!(ra.x + ra.w <= rb.x, "{at}: x tick labels '{}' and '{}' overlap", a.0, b.0);
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} charts measured");
}
