//! The iso-map engine: isolines against direct root-finding, gaps, log axes,
//! level ordering, bad ranges, and the CLI's JSON.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::api;
use isoperf::engine::isomap::{MapAxis, MapRequest, DEFAULT_GRID};
use isoperf::models::dlt::schedule::Star;
use isoperf::spec::{RawParams, RawValue};

mod common;
use common::raw;

/// The accuracy bound: 1% of the axis span, in the axis' own scale.
const SPAN_FRACTION: f64 = 0.01;

fn request(output: &str, x: &str, y: &str, levels: &[f64]) -> MapRequest {
    common::map_request(output, x, y, DEFAULT_GRID, levels)
}

/// Bisection in log space for the y at which f crosses `level` (f monotone in y).
fn root(f: impl Fn(f64) -> f64, level: f64, mut lo: f64, mut hi: f64) -> f64 {
    let rising = f(hi) > f(lo);
    for _ in 0..200 {
        let mid = (lo * hi).sqrt();
        if (f(mid) < level) == rising {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo * hi).sqrt()
}

#[test]
fn dlt_isoefficiency_v_vs_m_agrees_with_bisection() {
    // A = 1, C = 1e-6, S = 1e2 (the lecture's isoefficiency map).
    let m = api::iso_map(
        "dlt",
        &RawParams::new(),
        &request("efficiency", "m:1:1000:log", "V:1e3:1e13:log", &[0.5, 0.9, 0.99]),
    )
    .unwrap();
    let star = Star::new(1.0, 1e-6, 1e2).unwrap();
    let span = (1e13f64).log10() - (1e3f64).log10();
    for iso in &m.isolines {
        let mut checked = 0;
        for line in &iso.lines {
            for &(procs, v) in line {
                let eff = |load: f64| {
                    let s = star.split_real(procs, load);
                    star.t1(load) / (procs * s.t)
                };
                let lo = star.min_load(procs.ceil() as usize).max(1e3) * (1.0 + 1e-9);
                if eff(lo) >= iso.level || eff(1e13) <= iso.level {
                    continue; // the level is not crossed inside the map at this m
                }
                let v_star = root(eff, iso.level, lo, 1e13);
                let error = (v.log10() - v_star.log10()).abs() / span;
                assert!(
                    error <= SPAN_FRACTION,
                    "level {} at m = {procs}: V = {v:e} vs bisection {v_star:e} ({error:.4} of the span)",
                    iso.level
                );
                checked += 1;
            }
        }
        assert!(checked > 50, "level {}: only {checked} points checked", iso.level);
    }
    // Infeasible points (V ≤ L(m)) are gaps, not zeros.
    assert!(m.gaps > 0 && m.values.iter().all(|v| v.is_nan() || (*v > 0.0 && *v <= 1.0)));
}

#[test]
fn pmm_isoefficiency_n_vs_m_agrees_with_bisection() {
    // The classical isoefficiency function: the M that keeps ε fixed as N grows.
    let params = RawParams::new(); // Table 3, row "Dryad Tempest 25x1"
    let m = api::iso_map("pmm", &params, &request("efficiency", "N:4:10000:log", "M:100:1e6:log", &[0.5, 0.8, 0.95]))
        .unwrap();
    let span = 4.0; // decades of M
    let (tf, tc) = (1.0 / 8.64e9, 1.0 / 8.87e6);
    for iso in &m.isolines {
        let mut checked = 0;
        for line in &iso.lines {
            for &(n, order) in line {
                // Eq. (7): f = √N(√N+1)/(4M) · T_comm/T_flops, ε = 1/(1+f), solved for M directly.
                let q = n.sqrt();
                let f = 1.0 / iso.level - 1.0;
                let exact = q * (q + 1.0) / (4.0 * f) * tc / tf;
                if !(100.0..=1e6).contains(&exact) || exact < q {
                    continue;
                }
                let error = (order.log10() - exact.log10()).abs() / span;
                assert!(error <= SPAN_FRACTION, "level {} at N = {n}: M = {order} vs {exact}", iso.level);
                checked += 1;
            }
        }
        assert!(checked > 50, "level {}: {checked} points", iso.level);
    }
}

#[test]
fn levels_come_back_sorted_and_axes_sample_their_own_scale() {
    let r = MapRequest { nx: 11, ny: 5, ..request("T", "m:1:1000:log", "V:1e3:1e5", &[0.9, 0.5, 0.9]) };
    let m = api::iso_map("dlt", &RawParams::new(), &r).unwrap();
    assert_eq!(m.isolines.iter().map(|i| i.level).collect::<Vec<_>>(), [0.5, 0.9]);
    let xs = m.x.values(11);
    assert!((xs[5] - 1000f64.sqrt()).abs() < 1e-9, "log axis midpoint is the geometric mean");
    let ys = m.y.values(5);
    assert!((ys[2] - 5.05e4).abs() < 1e-6, "linear axis midpoint is the mean");
    assert_eq!(m.values.len(), 55);
}

#[test]
fn any_model_and_output_maps_through_evaluate() {
    // No fast path for the pipeline: every point is one evaluate; saturated points are gaps.
    let r = MapRequest { nx: 24, ny: 24, ..request("T_total", "L:1000:1e8:log", "t_comp:0.01:2:log", &[10.0, 100.0]) };
    let m = api::iso_map("pipeline", &RawParams::new(), &r).unwrap();
    assert!(m.gaps > 0, "large L and small T_comp saturate the spine");
    assert!(m.values.iter().any(|v| v.is_finite()));
}

#[test]
fn bad_requests_are_clear_errors() {
    // Ranges no axis can span are refused as the axis is read.
    for (field, text, needle) in [("x", "m:10:1", "expected min < max"), ("y", "V:0:1e13:log", "log axis")] {
        let e = MapAxis::parse(field, text).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains(needle), "{e}");
    }
    let cases = [
        (request("efficiency", "m:1:1e9:log", "V:1e3:1e13:log", &[0.5]), "x", "valid range"),
        (request("nope", "m:1:100", "V:1e3:1e5", &[0.5]), "output", "outputs: T, T1"),
        (request("T", "m:1:100", "m:1:100", &[0.5]), "y", "different"),
        (request("T", "processors:1:100", "V:1e3:1e5", &[0.5]), "x", "not a numeric parameter"),
        (MapRequest { nx: 1, ..request("T", "m:1:100", "V:1e3:1e5", &[1.0]) }, "grid", "expected 2 to 1024"),
    ];
    for (r, field, needle) in cases {
        let e = api::iso_map("dlt", &RawParams::new(), &r).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains(needle), "{e}");
    }
    let e = api::iso_map("dlt", &raw(&[("A", "-1")]), &request("T", "m:1:100", "V:1e3:1e5", &[1.0])).unwrap_err();
    assert_eq!(e.field, "A");
}

/// The lecture's isoefficiency map of dlt, as the CLI takes it.
const DLT_MAP: [&str; 8] = ["map", "dlt", "--output", "efficiency", "--x", "m:1:1000:log", "--y", "V:1e3:1e13:log"];

#[test]
fn the_cli_prints_the_map_as_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isoperf"))
        .args(DLT_MAP)
        .args(["--levels", "0.9,0.99", "--grid", "64x48", "C=1e-6"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((json["nx"].as_u64(), json["ny"].as_u64()), (Some(64), Some(48)));
    assert_eq!(json["values"].as_array().unwrap().len(), 64 * 48);
    assert!(json["values"].as_array().unwrap().iter().any(|v| v.is_null()), "gaps are null");
    let iso = json["isolines"].as_array().unwrap();
    assert_eq!(iso.len(), 2);
    let point = &iso[0]["lines"][0][0];
    let (m, v) = (point[0].as_f64().unwrap(), point[1].as_f64().unwrap());
    assert!((1.0..=1000.0).contains(&m) && (1e3..=1e13).contains(&v), "points are in parameter units");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_isoperf"))
        .args(["map", "dlt", "--output", "T", "--x", "m:5:1", "--y", "V:1:2"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("x: the range 5 … 1 is empty"));
}

#[test]
fn an_axis_the_choices_leave_unused_is_refused() {
    // m is not used for a per-mapper list (mapreduce) or processor list (dlt).
    let mr: RawParams =
        [("mappers", "heterogeneous")].iter().map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string()))).collect();
    let request = MapRequest {
        output: "speedup".into(),
        x: MapAxis::parse("x", "m:10:100:log").unwrap(),
        y: MapAxis::parse("y", "r:10:100:log").unwrap(),
        nx: 4,
        ny: 4,
        levels: vec![],
    };
    let e = isoperf::api::iso_map("mapreduce", &mr, &request).unwrap_err();
    assert_eq!(e.field, "x");
    assert!(e.message.contains("mappers = identical"), "{}", e.message);
    let dlt: RawParams =
        [("processors", "heterogeneous")].iter().map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string()))).collect();
    let request = MapRequest { y: MapAxis::parse("y", "V:1000:1e6:log").unwrap(), ..request };
    assert_eq!(isoperf::api::iso_map("dlt", &dlt, &request).unwrap_err().field, "x");
}

/// The map image as every front end draws it: the colour field maps each
/// node to its colour of the scale, gaps grey; isolines stay in the plot;
/// no two labels (on the lines or beside the bar) cover each other.
#[test]
fn the_map_image_is_laid_out_without_overlaps() {
    use isoperf::engine::map_layout::{category_colour, colour, MapLayout};
    for model in isoperf::models::MODELS {
        let spec = model.spec();
        for preset in spec.maps {
            let mut r = request(preset.output, preset.x, preset.y, preset.levels);
            r.nx = 48;
            r.ny = 48;
            let raw: RawParams = common::preset_params(preset.values);
            let m = api::iso_map(spec.id, &raw, &r).unwrap();
            for width in [320.0, 640.0, 1100.0] {
                let l: MapLayout = api::map_layout(spec.id, &r, &m.values, width, &raw, None).unwrap();
                let tag = format!("{}/{} at {width}", spec.id, preset.id);
                assert_eq!(l.pixels.len(), 48 * 48 * 4, "{tag}");
                // 0.66 of the width from 600 px up; taller below, square at the narrowest (a phone).
                let aspect = if width >= 600.0 { 0.66 } else { 0.66 + 0.34 * (600.0 - width) / 280.0 };
                let base = (width * aspect).round();
                if l.categorical {
                    // A categorical map adds its legend's rows below the axis title.
                    let rows = l.legend.iter().map(|e| e.y).fold(0.0, f64::max);
                    assert!(
                        !l.legend.is_empty() && l.height >= base + 12.0 && rows < l.height,
                        "{tag}: height {}, legend to {rows}",
                        l.height
                    );
                } else {
                    assert!((l.height - base).abs() < 1.0, "{tag}: height {}", l.height);
                }
                // Node (i, j) is pixel (i, ny − 1 − j): the y axis points up.
                for (k, v) in m.values.iter().enumerate() {
                    let (i, j) = (k % 48, k / 48);
                    let o = ((47 - j) * 48 + i) * 4;
                    // A gap is transparent (the page's gap colour shows through).
                    let expect = match &l.scale {
                        _ if l.categorical && v.is_finite() => {
                            let [r, g, b] = category_colour(*v as usize);
                            [r, g, b, 255]
                        }
                        Some(s) if v.is_finite() => {
                            let [r, g, b] = colour((255.0 * s.fraction(*v)).round() / 255.0);
                            [r, g, b, 255]
                        }
                        _ => [0, 0, 0, 0],
                    };
                    assert_eq!(&l.pixels[o..o + 4], &expect, "{tag}: node ({i}, {j}) = {v}");
                }
                let p = l.plot;
                for (_, lines) in &l.isolines {
                    for c in lines.iter().flat_map(|line| line.chunks(2)) {
                        assert!(c[0] >= p.x - 1e-6 && c[0] <= p.x + p.w + 1e-6, "{tag}: x {}", c[0]);
                        assert!(c[1] >= p.y - 1e-6 && c[1] <= p.y + p.h + 1e-6, "{tag}: y {}", c[1]);
                    }
                }
                for (a, la) in l.labels.iter().enumerate() {
                    for lb in &l.labels[a + 1..] {
                        let (ra, rb) = (la.rect, lb.rect);
                        let apart =
                            ra.x + ra.w <= rb.x || rb.x + rb.w <= ra.x || ra.y + ra.h <= rb.y || rb.y + rb.h <= ra.y;
                        assert!(apart, "{tag}: labels {} and {} overlap", la.text, lb.text);
                    }
                }
                let mut at: Vec<f64> = l.bar_ticks.iter().map(|t| t.at).collect();
                at.sort_by(f64::total_cmp);
                assert!(at.windows(2).all(|w| w[1] - w[0] >= 11.0 - 1e-9), "{tag}: bar labels {:?}", l.bar_ticks);
                assert!(!l.x_ticks.is_empty() && !l.y_ticks.is_empty(), "{tag}");
                // Legend entries and guide labels stay in the image, apart from each other.
                let image = |x: f64, y: f64| x >= 0.0 && x <= l.width && y >= 0.0 && y <= l.height;
                for e in &l.legend {
                    let end = e.x + 14.0 + e.text.chars().count() as f64 * 11.0 * 0.62;
                    assert!(image(e.x, e.y) && end <= l.width + 1.0, "{tag}: legend '{}' leaves the image", e.text);
                }
                for (a, ga) in l.guides.iter().enumerate() {
                    assert!(
                        image(ga.rect.x, ga.rect.y) && image(ga.rect.x + ga.rect.w, ga.rect.y + ga.rect.h),
                        "{tag}: guide '{}' leaves the image",
                        ga.label
                    );
                    for gb in &l.guides[a + 1..] {
                        let (ra, rb) = (ga.rect, gb.rect);
                        let apart =
                            ra.x + ra.w <= rb.x || rb.x + rb.w <= ra.x || ra.y + ra.h <= rb.y || rb.y + rb.h <= ra.y;
                        assert!(apart, "{tag}: guide labels {} and {} overlap", ga.label, gb.label);
                    }
                }
                // Tick labels keep apart: 11 px text at about 0.62 em a character.
                let mut labelled: Vec<_> = l.x_ticks.iter().filter(|t| !t.text.is_empty()).collect();
                labelled.sort_by(|a, b| a.at.total_cmp(&b.at));
                assert!(labelled.len() >= 2, "{tag}: at least the ends of the x axis are labelled");
                for w in labelled.windows(2) {
                    let room = (w[0].text.chars().count() + w[1].text.chars().count()) as f64 * 11.0 * 0.62 / 2.0;
                    assert!(w[1].at - w[0].at >= room, "{tag}: x labels {} and {} touch", w[0].text, w[1].text);
                }
                let mut labelled: Vec<f64> = l.y_ticks.iter().filter(|t| !t.text.is_empty()).map(|t| t.at).collect();
                labelled.sort_by(f64::total_cmp);
                assert!(labelled.windows(2).all(|w| (w[1] - w[0]).abs() >= 14.0), "{tag}: y labels touch");
            }
        }
    }
}

#[test]
fn the_cli_writes_the_map_image_as_svg_and_png() {
    let bin = env!("CARGO_BIN_EXE_isoperf");
    let args: Vec<&str> = DLT_MAP.iter().copied().chain(["--levels", "0.5,0.9,0.99", "--grid", "64x64"]).collect();
    let svg = std::process::Command::new(bin).args(&args).args(["--svg", "--width", "640"]).output().unwrap();
    assert!(svg.status.success(), "{}", String::from_utf8_lossy(&svg.stderr));
    let svg = String::from_utf8(svg.stdout).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains(">Efficiency</text>")
            && svg.contains("Processors m, log")
            && svg.contains("data:image/png;base64,")
    );
    // The lecture's three levels are all labelled on their lines.
    for level in ["0.5", "0.9", "0.99"] {
        assert!(
            svg.contains(&format!("text-anchor=\"middle\" dominant-baseline=\"middle\" fill=\"#111\">{level}</text>")),
            "{level}"
        );
    }
    let png = std::process::Command::new(bin).args(&args).arg("--png").output().unwrap();
    assert!(png.status.success());
    assert_eq!(&png.stdout[..8], &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: 64 × 64, RGBA.
    assert_eq!(&png.stdout[16..24], &[0, 0, 0, 64, 0, 0, 0, 64]);
}

#[test]
fn the_grid_csv_has_a_line_per_node_and_empty_gaps() {
    let mut r = request("efficiency", "m:1:1000:log", "V:1000:1e13:log", &[0.5]);
    r.nx = 16;
    r.ny = 12;
    let m = api::iso_map("dlt", &RawParams::new(), &r).unwrap();
    let csv = isoperf::engine::isomap::grid_csv(&r, &m.values, &[], None);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "m,V,efficiency");
    assert_eq!(lines.len(), 16 * 12 + 1);
    assert!(lines[1].starts_with("1,1000,"), "{}", lines[1]);
    for (k, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        match m.values[k] {
            v if v.is_finite() => assert_eq!(cells[2].parse::<f64>().unwrap(), v, "line {}", k + 2),
            _ => assert_eq!(cells[2], "", "line {}", k + 2),
        }
    }
    assert!(m.gaps > 0, "the corner m = 1000, V = 1000 is infeasible: a gap");
}

/// Issue 13, class 3: geometry a caller can send (reversed ranges, a log
/// axis through 0, absurd sizes, a grid that disagrees with its buffer, too
/// many levels) is an error naming the part at fault, never a panic.
#[test]
fn map_geometry_a_caller_can_send_is_an_error_not_a_panic() {
    use isoperf::engine::isomap::{MapAxis, MapRequest, MAX_GRID, MAX_LEVELS};
    for (text, field_says) in [
        ("m:2:1", "empty"),
        ("t_comm:0:0", "empty"),
        ("L:-1:1:log", "log axis"),
        ("V:-1:1:log", "log axis"),
        ("m:NaN:4", "empty"),
        ("m:1:inf", "empty"),
    ] {
        let e = MapAxis::parse("x", text).expect_err(text);
        assert_eq!(e.field, "x", "{text}");
        assert!(e.message.contains(field_says), "{text}: {}", e.message);
    }
    // A reversed axis built by hand still samples without a panic.
    let reversed = MapAxis { key: "m".into(), min: 2.0, max: 1.0, log: false };
    assert_eq!(reversed.values(3).len(), 3);
    for n in [0, 1, MAX_GRID + 1, 2_147_483_648, usize::MAX] {
        let e = isoperf::api::iso_axis("m:1:10", n).expect_err("size");
        assert_eq!(e.field, "grid", "{n}");
    }
    assert_eq!(isoperf::api::iso_axis("m:1:10", 4).unwrap(), vec![1.0, 4.0, 7.0, 10.0]);

    let request = |nx, ny, levels: Vec<f64>| MapRequest {
        output: "T".into(),
        x: MapAxis::parse("x", "m:1:10").unwrap(),
        y: MapAxis::parse("y", "V:1:10").unwrap(),
        levels,
        nx,
        ny,
    };
    let e = isoperf::api::iso_lines(&[], &request(100_000, 100_000, vec![1.0])).expect_err("huge grid");
    assert_eq!(e.field, "grid");
    let e = isoperf::api::iso_lines(&[1.0; 3], &request(2, 2, vec![1.0])).expect_err("3 values for 2 × 2");
    assert_eq!(e.field, "values");
    let e = isoperf::api::iso_lines(&[1.0; 4], &request(2, 2, vec![0.5; MAX_LEVELS + 1])).expect_err("levels");
    assert_eq!(e.field, "levels");
    // Non-finite values in a grid are gaps, not a panic.
    let lines =
        isoperf::api::iso_lines(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.0], &request(2, 2, vec![0.5])).unwrap();
    assert!(lines.iter().flat_map(|l| &l.lines).flatten().all(|(x, y)| x.is_finite() && y.is_finite()));
}
