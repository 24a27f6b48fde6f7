//! (A module of tests/calibrate.rs.) A calibration's uncertainty carried into the model's charts, sweeps and
//! maps (issue 17, point 3): the bands of a chart against Monte Carlo
//! sampling of the fitted parameters, each map node's and sweep point's
//! interval against the calibration's own interval at that point, the map
//! pale exactly where the interval straddles a level, nothing where the
//! fitted parameters are the axes, and every malformed uncertainty refused.

use isoperf::api::{self, Session};
use isoperf::chart::Style;
use isoperf::engine::calibrate::{calibrate, Calibration, Request};
use isoperf::engine::uncertainty::Uncertainty;
use isoperf::fit::Normal;
use isoperf::model::AnyModel;
use isoperf::models::find;
use isoperf::spec::{Params, RawParams, RawValue, Value};

use super::common::map_request;

fn raw(pairs: &[(&str, &str)]) -> RawParams {
    pairs.iter().map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string()))).collect()
}

fn params(model: &dyn AnyModel, raw: &RawParams) -> Params {
    model.spec().parse(raw).unwrap()
}

/// `n` runs of `model` at `runs` (each its key=value pairs), each the
/// model's T at `truth` with relative noise `sigma`, as a CSV with `header`.
fn runs(model: &str, truth: &[(&str, &str)], header: &[&str], runs: &[Vec<f64>], sigma: f64, seed: u64) -> String {
    let m = find(model).unwrap();
    let mut noise = Normal::seeded(seed);
    let mut csv = format!("{},T\n", header.join(","));
    for run in runs {
        let mut r = raw(truth);
        for (k, v) in header.iter().zip(run) {
            r.insert(k.to_string(), RawValue::Num(*v));
        }
        let t = m.evaluate(&params(m, &r)).unwrap().number("T").unwrap() * (1.0 + sigma * noise.draw());
        let cells: Vec<String> = run.iter().map(f64::to_string).collect();
        csv += &format!("{},{t}\n", cells.join(","));
    }
    csv
}

/// pmm fitted (t_flops, t_comm) to 15 runs with 5% noise, and the form
/// with the fitted values in place.
/// `model` fitted (`fit`, on relative errors) to `csv`, from its defaults,
/// and the form with the fitted values in place.
fn fitted(model: &str, csv: &str, fit: &[&str]) -> (Calibration, RawParams) {
    let m = find(model).unwrap();
    let request = Request { fit: fit.iter().map(|k| k.to_string()).collect(), relative: true };
    let cal = calibrate(m, &params(m, &RawParams::new()), csv, &request).unwrap();
    let form = cal.fitted.iter().map(|f| (f.key.to_string(), RawValue::Num(f.value))).collect();
    (cal, form)
}

fn pmm_fit() -> (Calibration, RawParams) {
    let grid: Vec<Vec<f64>> =
        [1.0, 4.0, 16.0, 64.0, 256.0].iter().flat_map(|&n| [4000.0, 16000.0, 32000.0].map(|m| vec![n, m])).collect();
    let csv = runs("pmm", &[("t_flops", "2e-10"), ("t_comm", "5e-8")], &["N", "M"], &grid, 0.05, 17);
    fitted("pmm", &csv, &["t_flops", "t_comm"])
}

/// Central differences of a linear quantity are exact but for rounding.
const LINEAR_RTOL: f64 = 1e-6;

#[test]
fn the_interval_of_a_linear_quantity_is_exact() {
    let pmm = find("pmm").unwrap();
    let c = vec![vec![4.0, -1.5], vec![-1.5, 9.0]];
    let u = Uncertainty::new(pmm.spec(), &["t_flops".into(), "t_comm".into()], &c, 2.0).unwrap();
    let theta = [3.0, 7.0];
    let b = u.propagate(&theta, &mut |t| vec![3.0 * t[0] - 2.0 * t[1], t[0], 5.0]);
    // g = (3, −2): gᵀCg = 9·4 + 4·9 + 2·3·(−2)·(−1.5) = 90; g = (1, 0): 4; a constant: 0.
    for (i, var) in [90.0_f64, 4.0, 0.0].iter().enumerate() {
        let half = 2.0 * var.sqrt();
        assert!((b.high[i] - b.value[i] - half).abs() <= LINEAR_RTOL * half.max(1.0), "element {i}: {b:?}");
        assert!((b.value[i] - b.low[i] - half).abs() <= LINEAR_RTOL * half.max(1.0), "element {i}: {b:?}");
    }
    // Where the quantity has no value, neither has its interval.
    let gap = u.propagate(&theta, &mut |t| vec![if t[0] > 3.0 { f64::NAN } else { 1.0 }, f64::NAN]);
    assert!(gap.low[1].is_nan() && gap.high[1].is_nan());
    // One side undefined: the other side's one-sided difference (here 0).
    assert_eq!((gap.low[0], gap.high[0]), (1.0, 1.0));
}

/// Half-widths of the bands and of Monte Carlo agree to this fraction
/// (4000 draws put a 2.5% quantile within about 3% of its value; the
/// curves are not linear in the parameters).
const MONTE_CARLO_RTOL: f64 = 0.06;

#[test]
fn a_charts_bands_agree_with_monte_carlo_sampling_of_the_fitted_parameters() {
    let (cal, form) = pmm_fit();
    let u = cal.uncertainty();
    let session = Session::default();
    for chart_id in ["time", "efficiency"] {
        let chart = session.chart_carrying("pmm", chart_id, &form, Some(&u)).unwrap();
        let bands: Vec<_> = chart.series.iter().filter(|s| s.style == Style::Band).collect();
        let curves: Vec<_> = chart.series.iter().filter(|s| s.style == Style::Line).collect();
        assert_eq!(bands.len(), curves.len(), "{chart_id}: a band under each curve");
        assert!(chart.note.as_deref().unwrap().contains("95% interval of the model's value"));
        // Monte Carlo: the chart at 4000 draws of the parameters from the fit's normal law.
        let l = isoperf::fit::lm::cholesky(&cal.covariance).unwrap();
        let mut normal = Normal::seeded(5);
        let mut draws: Vec<Vec<Vec<f64>>> = vec![Vec::new(); curves.len()];
        for _ in 0..4000 {
            let z = nalgebra::DVector::from_fn(2, |_, _| normal.draw());
            let d = &l * z;
            let mut r = form.clone();
            for (j, f) in cal.fitted.iter().enumerate() {
                r.insert(f.key.to_string(), RawValue::Num(f.value + d[j]));
            }
            let c = session.chart("pmm", chart_id, &r).unwrap();
            for (k, s) in c.series.iter().filter(|s| s.style == Style::Line).enumerate() {
                draws[k].push(s.points.iter().map(|p| p.1).collect());
            }
        }
        // The normal quantile, not Student's t: Monte Carlo draws the normal law itself.
        let z = 1.959_963_984_540_054;
        // On a log axis the band is the interval in ln y: compare there.
        let log = chart.y.scale == isoperf::spec::Scale::Log;
        let at = |y: f64| if log { y.ln() } else { y };
        for (k, (band, curve)) in bands.iter().zip(&curves).enumerate() {
            assert_eq!(band.name, curve.name);
            for i in (0..curve.points.len()).step_by(7) {
                let mut ys: Vec<f64> = draws[k].iter().map(|d| at(d[i])).collect();
                ys.sort_by(f64::total_cmp);
                let q = |f: f64| ys[((ys.len() - 1) as f64 * f).round() as usize];
                let (value, low, high) = (at(curve.points[i].1), at(band.points[i].1), at(band.upper[i].1));
                assert!(((value - low) - (high - value)).abs() <= 1e-9 * (high - low), "symmetric about the curve");
                let half = (high - value) * z / cal.t95;
                for got in [value - q(0.025), q(0.975) - value] {
                    assert!(
                        ((got - half) / half).abs() < MONTE_CARLO_RTOL,
                        "{chart_id}, {} at x = {}: Monte Carlo {got} vs linearised {half}",
                        curve.name,
                        curve.points[i].0
                    );
                }
            }
        }
    }
}

#[test]
fn a_chart_whose_curves_the_fit_does_not_move_gets_no_band_and_exports_its_bands_as_columns() {
    let (cal, form) = pmm_fit();
    let u = cal.uncertainty();
    let session = Session::default();
    // Figure 4's dots and slopes do not change with t_flops and t_comm alike… its dashed lines are no curves.
    let plain = session.chart("pmm", "overhead", &form).unwrap();
    let carried = session.chart_carrying("pmm", "overhead", &form, Some(&u)).unwrap();
    assert_eq!(plain.series.len(), carried.series.len());
    assert_eq!(plain.note, carried.note);
    // A banded chart's data: each band is two columns beside its curve.
    let chart = session.chart_carrying("pmm", "time", &form, Some(&u)).unwrap();
    let table = api::export::chart_table(&chart);
    for name in chart.series.iter().filter(|s| s.style == Style::Line).map(|s| &s.name) {
        for end in ["95% low", "95% high"] {
            assert!(table.columns.contains(&format!("{name} ({end})")), "{name} ({end}) in {:?}", table.columns);
        }
    }
    // Drawn shaded under the curves (one polygon per band, translucent).
    let svg = isoperf::chart::to_svg(&chart, 800, 500).unwrap();
    assert!(svg.matches(r#"<polygon opacity="0.22""#).count() >= 3, "bands drawn as shaded polygons");
}

/// Two routes to one linearisation (the form's texts moved, the parsed
/// parameters moved) agree to the rounding of the differences.
const ROUTE_RTOL: f64 = 1e-6;

#[test]
fn each_map_nodes_interval_is_the_calibrations_interval_there_and_the_map_is_pale_where_it_straddles_a_level() {
    let (cal, form) = pmm_fit();
    let pmm = find("pmm").unwrap();
    let u = cal.uncertainty();
    let levels = [0.8, 0.9, 0.95];
    // Nodes the model evaluates as they are: t_io continuous, M on whole thousands.
    let request = map_request("efficiency", "t_io:0:2e-7", "M:1000:24000", 24, &levels);
    let bands = api::iso_map_rows_carrying("pmm", &form, &request, 0..24, &u).unwrap();
    let plain = api::iso_map_rows("pmm", &form, &request, 0..24).unwrap();
    assert_eq!(bands.value, plain);
    let (xs, ys) = (request.x.values(24), request.y.values(24));
    for (j, y) in ys.iter().enumerate() {
        for (i, x) in xs.iter().enumerate() {
            let k = j * 24 + i;
            let mut r = form.clone();
            r.insert("t_io".into(), RawValue::Num(*x));
            r.insert("M".into(), RawValue::Num(y.round()));
            let want = cal.interval(pmm, &params(pmm, &r), "efficiency").unwrap();
            for (got, want) in [(bands.low[k], want.ci95[0]), (bands.high[k], want.ci95[1])] {
                assert!((got - want).abs() <= ROUTE_RTOL * want.abs(), "t_io = {x}, M = {y}: {got} vs {want}");
            }
        }
    }
    let straddling = (0..576).filter(|&k| levels.iter().any(|l| bands.low[k] < *l && *l < bands.high[k])).count();
    assert!(straddling > 0, "some nodes lie within the interval of a level");
    let interval = Some((bands.low.as_slice(), bands.high.as_slice()));
    let layout = api::map_layout("pmm", &request, &bands.value, 640.0, &form, interval).unwrap();
    assert_eq!(layout.uncertain, straddling);
    assert!(layout.interval_note.as_deref().unwrap().contains(&format!("{straddling} of 576 points")));
    // Each level's interval lines: where its low and its high end cross it.
    assert_eq!(layout.interval_lines.len(), 2 * levels.len());
    let crosses = |e: &[f64], l: f64| e.iter().any(|v| *v < l) && e.iter().any(|v| *v > l);
    for (k, (level, lines)) in layout.interval_lines.iter().enumerate() {
        let end = if k < levels.len() { &bands.low } else { &bands.high };
        assert_eq!(!lines.is_empty(), crosses(end, *level), "level {level}, {}", if k < 3 { "low" } else { "high" });
    }
    assert!(layout.interval_lines.iter().any(|(_, lines)| !lines.is_empty()));
    // Pale pixels exactly at the straddling nodes: the plain map's colour mixed with white.
    let plain_layout = api::map_layout("pmm", &request, &bands.value, 640.0, &form, None).unwrap();
    assert!(plain_layout.interval_note.is_none() && plain_layout.uncertain == 0);
    let paler = plain_layout.pixels.chunks(4).zip(layout.pixels.chunks(4)).filter(|(a, b)| a != b).count();
    assert_eq!(paler, straddling);
    assert!(plain_layout
        .pixels
        .chunks(4)
        .zip(layout.pixels.chunks(4))
        .all(|(a, b)| a.iter().zip(b).all(|(x, y)| y >= x)));
    // The grid's CSV carries both ends.
    let csv = api::map_csv("pmm", &request, &bands.value, interval).unwrap();
    assert!(csv.starts_with("t_io,M,efficiency,efficiency 95% low,efficiency 95% high\n"));
    assert_eq!(csv.lines().count(), 1 + 576);
    assert!(layout.to_svg().contains("stroke-dasharray"));
}

#[test]
fn a_map_over_the_fitted_parameters_themselves_carries_no_uncertainty() {
    let (cal, form) = pmm_fit();
    let u = cal.uncertainty();
    let request = map_request("T", "t_flops:1e-10:4e-10", "t_comm:2e-8:8e-8", 8, &[100.0]);
    let b = api::iso_map_rows_carrying("pmm", &form, &request, 0..8, &u).unwrap();
    for k in 0..64 {
        assert_eq!((b.low[k], b.high[k]), (b.value[k], b.value[k]), "node {k}: the axes set both parameters");
    }
}

/// A categorical output (broadcast's fastest algorithm) has no interval:
/// its map carries none, whatever the uncertainty, and its categories are
/// the plain map's.
#[test]
fn a_categorical_map_carries_no_uncertainty() {
    let spec = find("broadcast").unwrap().spec();
    let u =
        Uncertainty::new(spec, &["alpha".into(), "beta".into()], &[vec![1e-14, 0.0], vec![0.0, 1e-24]], 2.0).unwrap();
    let request = map_request("best", "n:1:1e9:log", "p:2:4096:log", 16, &[]);
    let form = RawParams::new();
    let b = api::iso_map_rows_carrying("broadcast", &form, &request, 0..16, &u).unwrap();
    assert_eq!(b.value, api::iso_map_rows("broadcast", &form, &request, 0..16).unwrap());
    assert!(b.low.iter().chain(&b.high).all(|v| v.is_nan()), "no interval on a category");
}

#[test]
fn each_sweep_points_interval_is_the_calibrations_interval_there() {
    // MapReduce fitted (a_map, C) to 12 runs with 3% noise.
    let grid: Vec<Vec<f64>> =
        [10.0, 20.0, 50.0, 100.0].iter().flat_map(|&m| [1e12, 1e13, 1e14].map(|v| vec![m, v])).collect();
    let csv = runs("mapreduce", &[], &["m", "V"], &grid, 0.03, 7);
    let mr = find("mapreduce").unwrap();
    let (cal, form) = fitted("mapreduce", &csv, &["a_map", "C"]);
    let u = cal.uncertainty();
    let sweep = mr.spec().sweeps.iter().find(|s| s.id == "speedup-m-r").unwrap();
    let (xs, values) = api::sweep_plan("mapreduce", sweep.id).unwrap();
    let index = 1;
    let b = api::sweep_points_carrying("mapreduce", sweep.id, &form, index, 0..4, &u).unwrap();
    assert_eq!(b.value, api::sweep_points("mapreduce", sweep.id, &form, index, 0..4).unwrap());
    let base = params(mr, &form);
    for (i, x) in xs.iter().take(4).enumerate() {
        let mut p = base.with(sweep.series, Value::Num(values[index])).with(sweep.x, Value::Num(*x));
        for key in sweep.linked {
            p = p.with(key, Value::Num(values[index]));
        }
        for (key, v) in sweep.fixed {
            p = p.with(key, Value::Num(*v));
        }
        let want = cal.interval(mr, &p, sweep.output).unwrap();
        assert!(want.ci95[1] > want.ci95[0], "the fit moves the speedup");
        for (got, want) in [(b.low[i], want.ci95[0]), (b.high[i], want.ci95[1])] {
            assert!((got - want).abs() <= ROUTE_RTOL * want.abs(), "m = {x}: {got} vs {want}");
        }
    }
    // The sweep's chart from its curves and their ends: a band under each curve.
    let curves: Vec<Vec<f64>> = vec![b.value.clone()];
    let chart = Session::default()
        .sweep_chart_carrying(
            "mapreduce",
            sweep.id,
            &form,
            curves,
            (std::slice::from_ref(&b.low), std::slice::from_ref(&b.high)),
            &u,
        )
        .unwrap();
    let band = chart.series.iter().find(|s| s.style == Style::Band).unwrap();
    assert_eq!(band.points.len(), 4);
    assert!(band.points.iter().zip(&band.upper).all(|(l, h)| l.1 < h.1));
}

#[test]
fn a_malformed_uncertainty_is_refused_with_what_is_wrong() {
    let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let ok = vec![vec![1.0, 0.5], vec![0.5, 1.0]];
    // (keys, covariance, t95, what the message says)
    type Case = (Vec<String>, Vec<Vec<f64>>, f64, &'static str);
    let cases: Vec<Case> = vec![
        (keys(&[]), vec![], 2.0, "names no parameter"),
        (keys(&["t_flops", "nope"]), ok.clone(), 2.0, "no parameter 'nope'"),
        (keys(&["t_flops", "N"]), ok.clone(), 2.0, "N is not a continuous numeric parameter"),
        (keys(&["t_flops", "t_flops"]), ok.clone(), 2.0, "named twice"),
        (keys(&["t_flops", "t_comm"]), vec![vec![1.0]], 2.0, "must be 2 × 2"),
        (keys(&["t_flops", "t_comm"]), vec![vec![1.0, f64::NAN], vec![0.0, 1.0]], 2.0, "finite"),
        (keys(&["t_flops", "t_comm"]), vec![vec![1.0, 0.5], vec![0.4, 1.0]], 2.0, "symmetric"),
        (keys(&["t_flops", "t_comm"]), vec![vec![-1.0, 0.0], vec![0.0, 1.0]], 2.0, "variance of t_flops is negative"),
        (keys(&["t_flops", "t_comm"]), vec![vec![1.0, 2.0], vec![2.0, 1.0]], 2.0, "correlation beyond ±1"),
        (keys(&["t_flops", "t_comm"]), ok.clone(), 0.0, "t95 must be in (0, 100]"),
        (keys(&["t_flops", "t_comm"]), ok.clone(), f64::NAN, "t95 must be in (0, 100]"),
        (keys(&["<img src=x>"]), vec![vec![1.0]], 2.0, "no parameter '"),
    ];
    for (k, c, t, want) in cases {
        let e = api::uncertainty("pmm", &k, &c, t).unwrap_err();
        assert!(e.contains(want), "{k:?}: {e}");
    }
    assert!(api::uncertainty("pmm", &keys(&["t_flops", "t_comm"]), &ok, 2.0).is_ok());
}

#[test]
fn a_band_with_gaps_crosses_json_and_draws() {
    use isoperf::chart::{Axis, Chart, Corner, Series};
    use isoperf::engine::uncertainty::log_ends;
    use isoperf::spec::Scale;
    // JSON writes NaN and infinities as null: they read back as gaps, which no chart draws.
    let band = Series::band(
        "T",
        1,
        vec![(1.0, 0.5), (2.0, f64::NAN), (3.0, 2.5)],
        vec![(1.0, 1.5), (2.0, f64::INFINITY), (3.0, 3.5)],
    );
    let chart = Chart {
        title: "t".into(),
        x: Axis::new("x", Scale::Linear),
        y: Axis::new("y", Scale::Linear),
        series: vec![band, Series::new("T", Style::Line, 1, vec![(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)])],
        legend: Corner::Auto,
        note: None,
    };
    let back: Chart = serde_json::from_str(&serde_json::to_string(&chart).unwrap()).unwrap();
    assert!(back.series[0].points[1].1.is_nan() && back.series[0].upper[1].1.is_nan());
    assert!(isoperf::chart::to_svg(&back, 400, 300).is_ok());
    let table = api::export::chart_table(&back);
    assert_eq!(table.rows[1].cells, ["2", "—", "—", "2"]);
    // On a log axis the same relative interval, unless it overflows: then the linear ends.
    let (lo, hi) = log_ends(10.0, 9.0, 11.0);
    assert!((lo - 10.0 * (-0.1_f64).exp()).abs() < 1e-12 && (hi - 10.0 * 0.1_f64.exp()).abs() < 1e-12);
    assert_eq!(log_ends(1.0, -1e300, 1e300), (-1e300, 1e300));
    assert_eq!(log_ends(-1.0, -2.0, 0.0), (-2.0, 0.0));
}
