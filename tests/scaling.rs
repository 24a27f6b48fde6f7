//! Fitting eq. (1) of Medya et al. and deriving bandwidth demand, against
//! independent computations.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::api;
use isoperf::models::scaling::demand::{demand, DemandError};
use isoperf::models::scaling::fit::{crossover, diminishing_returns, fit, FitError};

/// Noiseless data must give back the coefficients this closely.
const RECOVERY_RTOL: f64 = 1e-9;

fn model(c0: f64, c1: f64, c2: f64, p: f64) -> f64 {
    c0 + c1 / p + c2 / p.sqrt()
}

/// Deterministic standard normal deviates (LCG + Box–Muller).
struct Noise(u64);
impl Noise {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

fn ps() -> Vec<f64> {
    (1..=32).map(|nodes| 18.0 * f64::from(nodes)).collect()
}

#[test]
fn noiseless_data_recovers_the_papers_coefficients() {
    // Scale 27 of the paper: C1 = 57.67, C2 = 3.8 (C0 unreported; 0.5 here).
    let points: Vec<(f64, f64)> = ps().into_iter().map(|p| (p, model(0.5, 57.67, 3.8, p))).collect();
    let f = fit(&points).unwrap();
    for (got, want) in [(f.c0.value, 0.5), (f.c1.value, 57.67), (f.c2.value, 3.8)] {
        assert!((got - want).abs() <= RECOVERY_RTOL * want.abs().max(1.0), "{got} vs {want}");
    }
    assert!(f.r2 > 1.0 - 1e-12 && f.mse < 1e-20);
    assert!((f.crossover().unwrap() - (57.67f64 / 3.8).powi(2)).abs() < 1e-6);
}

#[test]
fn noisy_data_fall_inside_the_confidence_intervals_at_the_stated_rate() {
    // 200 data sets with σ = 0.2 (the paper's MSE 0.04): each 95% interval should
    // cover its true value about 95% of the time; accept 88–99% over 600 intervals.
    let mut noise = Noise(27);
    let (mut covered, mut total) = (0, 0);
    for _ in 0..200 {
        let points: Vec<(f64, f64)> = ps()
            .into_iter()
            .flat_map(|p| [p, p])
            .map(|p| (p, model(1.0, 57.67, 3.8, p) + 0.2 * noise.normal()))
            .collect();
        let f = fit(&points).unwrap();
        for (c, truth) in [(f.c0, 1.0), (f.c1, 57.67), (f.c2, 3.8)] {
            total += 1;
            covered += usize::from(c.ci[0] <= truth && truth <= c.ci[1]);
        }
    }
    let rate = covered as f64 / total as f64;
    assert!((0.88..=0.99).contains(&rate), "coverage {rate}");
}

#[test]
fn r2_and_mse_against_the_normal_equations_solved_by_cramer() {
    let mut noise = Noise(28);
    let points: Vec<(f64, f64)> =
        ps().into_iter().map(|p| (p, model(0.3, 102.1, 10.3, p) + 0.44 * noise.normal())).collect();
    let f = fit(&points).unwrap();
    // XᵀX b = Xᵀy by Cramer's rule: an independent route to the same β.
    let rows: Vec<[f64; 3]> = points.iter().map(|(p, _)| [1.0, 1.0 / p, 1.0 / p.sqrt()]).collect();
    let mut a = [[0.0f64; 3]; 3];
    let mut b = [0.0f64; 3];
    for (r, (_, y)) in rows.iter().zip(&points) {
        for i in 0..3 {
            b[i] += r[i] * y;
            for j in 0..3 {
                a[i][j] += r[i] * r[j];
            }
        }
    }
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(a);
    let beta: Vec<f64> = (0..3)
        .map(|k| {
            let mut m = a;
            for i in 0..3 {
                m[i][k] = b[i];
            }
            det(m) / d
        })
        .collect();
    for (got, want) in [(f.c0.value, beta[0]), (f.c1.value, beta[1]), (f.c2.value, beta[2])] {
        assert!((got - want).abs() <= 1e-6 * want.abs().max(1.0), "{got} vs Cramer {want}");
    }
    let predicted: Vec<f64> = points.iter().map(|(p, _)| beta[0] + beta[1] / p + beta[2] / p.sqrt()).collect();
    let rss: f64 = points.iter().zip(&predicted).map(|((_, y), q)| (y - q).powi(2)).sum();
    let mean = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
    let tss: f64 = points.iter().map(|(_, y)| (y - mean).powi(2)).sum();
    assert!((f.mse - rss / points.len() as f64).abs() < 1e-9);
    assert!((f.r2 - (1.0 - rss / tss)).abs() < 1e-9);
    let resid_sum: f64 = f.residuals.iter().sum();
    assert!(resid_sum.abs() < 1e-8, "with an intercept the residuals sum to zero");
}

#[test]
fn rank_deficient_data_are_clear_errors() {
    let three = [(18.0, 4.0), (36.0, 2.5), (72.0, 1.7)];
    assert_eq!(fit(&three).unwrap_err(), FitError::TooFewPoints { n: 3, needed: 4 });
    let one_p = [(36.0, 2.5), (36.0, 2.6), (36.0, 2.4), (36.0, 2.5)];
    assert!(fit(&one_p).unwrap_err().to_string().contains("1 distinct p value(s)"));
    let two_p = [(36.0, 2.5), (36.0, 2.6), (72.0, 1.4), (72.0, 1.5)];
    assert!(matches!(fit(&two_p).unwrap_err(), FitError::TooFewDistinct { distinct: 2, .. }));
    assert!(fit(&[(0.0, 1.0), (1.0, 1.0), (2.0, 1.0), (3.0, 1.0)])
        .unwrap_err()
        .to_string()
        .contains("p must be positive"));
    assert!(fit(&[(1.0, -1.0), (2.0, 1.0), (3.0, 1.0), (4.0, 1.0)]).is_err());
    // Issue 13: values near 10³⁰⁸ overflowed the sums of squares and the fit
    // suggested C0 = NaN, C1 = ∞; non-finite input is refused at its row.
    assert_eq!(fit(&[(1.0, 1.0), (2.0, 1.0), (4.0, 1.0), (1e308, 1e308)]).unwrap_err(), FitError::Overflow);
    assert!(matches!(
        fit(&[(1.0, 1.0), (2.0, 1.0), (4.0, f64::INFINITY), (8.0, 1.0)]).unwrap_err(),
        FitError::NonPositive { row: 3, .. }
    ));
    let e =
        isoperf::api::analyze("scaling", "timings", "1,1\n2,1\n4,1\n1e308,1e308\n", &isoperf::spec::RawParams::new())
            .unwrap_err();
    assert!(e.to_string().contains("double precision"), "{e}");
    // Found by scripts/fuzz.mjs: a negative C1 or C2 gave a negative processing or communication time.
    for key in ["C1", "C2"] {
        let raw: isoperf::spec::RawParams =
            [(key.to_string(), isoperf::spec::RawValue::Num(-1.0))].into_iter().collect();
        let e = isoperf::api::evaluate("scaling", &raw).unwrap_err();
        assert!(e.to_string().starts_with(&format!("{key}:")), "{e}");
    }
}

#[test]
fn crossover_and_diminishing_returns() {
    assert_eq!(crossover(57.67, 3.8).map(|p| (p * 100.0).round() / 100.0), Some(230.32));
    assert_eq!(crossover(57.67, 0.0), None);
    // Doubling p saves c1/(2p) + c2(1 − 1/√2)/√p; with c0 = 0, c2 = 0 that is half of T: never below 10%.
    assert_eq!(diminishing_returns(0.0, 1.0, 0.0, 0.1), None);
    let p = diminishing_returns(1.0, 57.67, 3.8, 0.05).unwrap();
    let t = |p: f64| model(1.0, 57.67, 3.8, p);
    assert!(((t(p) - t(2.0 * p)) / t(p) - 0.05).abs() < 1e-9, "at p = {p}");
}

/// A throttling set made from a known demand curve: below 100% bandwidth,
/// CTI(bw, p) = 0.1 (D(p)/bw)³, so CTI = 0.1 exactly at bw = D(p).
fn throttling(d: impl Fn(f64) -> f64) -> Vec<(f64, f64, f64)> {
    let mut rows = Vec::new();
    for p in [72.0f64, 162.0, 288.0] {
        let t100 = 100.0 / p.sqrt();
        rows.push((p, 100.0, t100));
        for bw in (10..=30).map(|k| f64::from(2 * k)) {
            rows.push((p, bw, t100 * (1.0 + 0.1 * (d(p) / bw).powi(3))));
        }
    }
    rows
}

#[test]
fn demand_constant_and_eq3_on_a_hand_computed_example() {
    // D(p) = 24 √(p/72) = 24, 36, 48 %: demand grows exactly as √p, on measured
    // levels, so BW_{0.1,p} = D(p) and DC = 1 for every pair.
    let rows = throttling(|p| 24.0 * (p / 72.0).sqrt());
    let d = demand(&rows, &[0.1], 288.0, 450.0).unwrap();
    assert_eq!(d.pairs.len(), 3);
    for c in &d.configurations {
        let want = 24.0 * (c.p / 72.0).sqrt();
        assert!((c.demand[0] - want).abs() < 1e-9, "p = {}: {} vs {want}", c.p, c.demand[0]);
    }
    assert!((d.dc - 1.0).abs() < 1e-12, "DC = {}", d.dc);
    // Between levels the demand is interpolated linearly: CTI = 0.05 at p = 72
    // falls between 30% (CTI 0.0512) and 32% (CTI 0.0422).
    let half = demand(&rows, &[0.05], 288.0, 450.0).unwrap();
    let (c30, c32) = (0.1 * (24.0f64 / 30.0).powi(3), 0.1 * (24.0f64 / 32.0).powi(3));
    assert!((half.configurations[0].demand[0] - (30.0 + 2.0 * (c30 - 0.05) / (c30 - c32))).abs() < 1e-9);
    // Eq. (3): BW(450) = BW(288) · DC · √(450/288).
    let base = d.configurations.iter().find(|c| c.p == 288.0).unwrap().demand[0];
    assert!((d.predictions[0].bandwidth - base * d.dc * (450.0f64 / 288.0).sqrt()).abs() < 1e-12);
    // Demand reaches 100% at p = 288 (100 / (BW · DC))².
    assert!((d.predictions[0].p_full - 288.0 * (100.0 / (base * d.dc)).powi(2)).abs() < 1e-9);
}

#[test]
fn fifteen_ratios_over_three_configurations_and_five_ctis() {
    // The paper: 4, 9, 16 nodes, 5 CTIs, 15 ratios.
    let rows = throttling(|p| 24.0 * (p / 72.0).powf(0.26));
    let d = demand(&rows, &[0.02, 0.04, 0.06, 0.08, 0.1], 288.0, 450.0).unwrap();
    assert_eq!(d.pairs.len(), 15);
    assert!(d.dc_min <= d.dc && d.dc <= d.dc_max);
    assert!(d.dc < 1.0, "demand grows slower than √p: DC = {}", d.dc);
}

#[test]
fn demand_errors_are_clear() {
    let rows = throttling(|p| 24.0 * (p / 72.0).sqrt());
    let e = demand(&rows, &[5.0], 288.0, 450.0).unwrap_err();
    assert!(matches!(e, DemandError::NeverReached { .. }), "{e}");
    assert!(e.to_string().contains("never reaches 5"), "{e}");
    let no_base: Vec<_> = rows.iter().copied().filter(|r| !(r.0 == 72.0 && r.1 == 100.0)).collect();
    assert_eq!(demand(&no_base, &[0.1], 288.0, 450.0).unwrap_err(), DemandError::NoBaseline { p: 72.0 });
    assert!(demand(&rows, &[0.1], 100.0, 450.0).unwrap_err().to_string().contains("not in the data"));
    let one: Vec<_> = rows.iter().copied().filter(|r| r.0 == 72.0).collect();
    assert!(matches!(demand(&one, &[0.1], 72.0, 450.0).unwrap_err(), DemandError::TooFewConfigurations { found: 1 }));
}

#[test]
fn example_files_are_labelled_synthetic_and_analyse() {
    use isoperf::models::MODELS;
    use isoperf::spec::RawParams;
    for m in MODELS {
        for d in m.spec().datasets {
            for x in d.examples {
                let text = std::fs::read_to_string(x.path).unwrap_or_else(|e| panic!("{}: {e}", x.path));
                assert!(text.starts_with("# SYNTHETIC"), "{} must say it is synthetic", x.path);
                assert!(x.label.contains("synthetic"), "{}", x.label);
                let a = api::analyze(m.spec().id, d.id, &text, &RawParams::new())
                    .unwrap_or_else(|e| panic!("{}: {e}", x.path));
                assert!(!a.tables.is_empty());
                for c in d.charts {
                    let chart = api::analysis_chart(m.spec().id, d.id, &text, &RawParams::new(), c.id).unwrap();
                    let svg = isoperf::chart::to_svg(&chart, 640, 400).unwrap();
                    assert!(!svg.contains("NaN"), "{}/{}", d.id, c.id);
                }
            }
        }
    }
}

#[test]
fn the_cli_fits_and_derives_demand() {
    let run = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_isoperf")).args(args).output().unwrap();
    let out = run(&["fit", "scaling", "www/data/graph500-scale27-synthetic.csv"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["C0", "C1", "C2"] {
        assert!(json[key]["value"].is_f64() && json[key]["se"].is_f64() && json[key]["ci"].is_array(), "{key}");
    }
    assert_eq!(json["n"], 960);
    assert_eq!(json["residuals"].as_array().unwrap().len(), 960);
    // The synthetic file was made from C1 = 57.67, C2 = 3.8: its intervals cover them.
    for (key, truth) in [("C1", 57.67), ("C2", 3.8)] {
        let ci = &json[key]["ci"];
        assert!(ci[0].as_f64().unwrap() <= truth && truth <= ci[1].as_f64().unwrap(), "{key}: {ci}");
    }
    let out = run(&[
        "demand",
        "www/data/graph500-throttling-synthetic.csv",
        "--cti",
        "0.02,0.04,0.06,0.08,0.1",
        "--base-p",
        "288",
        "--target-p",
        "450",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["pairs"].as_array().unwrap().len(), 15);
    let dc = json["dc"].as_f64().unwrap();
    assert!((0.7..0.9).contains(&dc), "the synthetic set was made for DC ≈ 0.8: {dc}");
    let bad = run(&["demand", "www/data/graph500-throttling-synthetic.csv", "--cti", "9"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("never reaches 9"));
}

/// A fit can put a time term below zero (noisy or flattening data); the
/// table says it is not a time, and "Use the fitted coefficients" does not
/// put it into a form whose C2 must be ≥ 0.
#[test]
fn a_negative_time_term_is_flagged_and_not_suggested() {
    // Times flatten faster than C0 + C1/p allows: the least squares C2 is negative.
    let text = "p,time\n1,10\n2,6\n4,4\n8,3\n16,2.9\n";
    let f = isoperf::models::scaling::fit_text(text).unwrap();
    assert!(f.c2.value < 0.0 && f.c1.value > 0.0, "C1 = {}, C2 = {}", f.c1.value, f.c2.value);
    let a = api::analyze("scaling", "timings", text, &isoperf::spec::RawParams::new()).unwrap();
    let keys: Vec<&str> = a.suggest.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, ["C0", "C1"]);
    let fit = a.tables.iter().find(|t| t.id == "fit").unwrap();
    let c2 = fit.rows.iter().find(|r| r.cells[0] == "C2").unwrap();
    assert!(c2.remark.as_deref().is_some_and(|r| r.starts_with("C2 < 0 is not a time")), "{:?}", c2.remark);
    assert!(fit.rows.iter().filter(|r| r.remark.is_some()).count() == 1, "only C2 is flagged");
    // The suggested values are the fit's.
    assert_eq!(a.suggest[1].1, f.c1.value);
}
