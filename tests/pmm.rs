//! The `pmm` model against the paper (Li, Fox, Qiu) and against independent
//! evaluations of its closed forms.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::api;
use isoperf::error::ModelError;
use isoperf::models::pmm;
use isoperf::models::pmm::reference::{reproduce, reproduced};
use isoperf::models::pmm::{predict, Implementation, Inputs, Rates, TABLE3, TABLE3_RTOL};
use proptest::prelude::*;

mod common;
use common::{close, raw};

/// Two routes to the same number in f64 differ by a few ulps.
const ALGEBRA_RTOL: f64 = 1e-12;

fn row(id: &str) -> &'static pmm::reference::Table3Row {
    TABLE3.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("Table 3 has no row {id}"))
}

fn assert_coefficients(id: &str) {
    let r = row(id);
    let (m2, m3) = reproduce(r).expect("row parameters are valid");
    assert!(close(m2, r.paper_m2, TABLE3_RTOL), "{id}: M² coefficient {m2:e} vs printed {:e}", r.paper_m2);
    assert!(close(m3, r.paper_m3, TABLE3_RTOL), "{id}: M³ coefficient {m3:e} vs printed {:e}", r.paper_m3);
    assert!(reproduced(r));
}

#[test]
fn table3_row1_dryad_tempest_25x1() {
    // Table 3, row 1: 6.764e-8 M² + 9.259e-12 M³.
    assert_coefficients("t3-dryad-tempest-25x1");
    // Printed to 4 significant figures, ours rounds to the same digits.
    let (m2, m3) = reproduce(row("t3-dryad-tempest-25x1")).unwrap();
    assert_eq!(format!("{m2:.3e}"), "6.764e-8");
    assert_eq!(format!("{m3:.3e}"), "9.259e-12");
}

#[test]
fn table3_row3_dryad_azure_100x1() {
    // Table 3, row 3: 8.913e-8 M² + 2.865e-12 M³ (ours 8.914e-8: the rate 6.17e6 is printed to 3 figures).
    assert_coefficients("t3-dryad-azure-100x1");
}

#[test]
fn table3_row4_msmpi_tempest_1gbps() {
    // Table 3, row 4: 3.727e-8 M² + 9.259e-12 M³, with ⌈log₂ 5⌉ = 3.
    assert_coefficients("t3-msmpi-tempest-1gbps");
}

#[test]
fn table3_row5_msmpi_tempest_20gbps() {
    // Table 3, row 5: 2.205e-8 M² + 9.259e-12 M³.
    assert_coefficients("t3-msmpi-tempest-20gbps");
}

#[test]
fn table3_rows_2_6_7_are_inconsistent_with_the_papers_own_rates() {
    for id in ["t3-dryad-tempest-25x16", "t3-intelmpi-quarry", "t3-openmpi-odin"] {
        let r = row(id);
        assert!(!reproduced(r), "{id} should be flagged");
        assert!(r.remark.is_some(), "{id} needs a plain-language remark");
        let (m2, m3) = reproduce(r).unwrap();
        let worst = ((m2 - r.paper_m2) / r.paper_m2).abs().max(((m3 - r.paper_m3) / r.paper_m3).abs());
        assert!(worst > 0.05, "{id}: the discrepancy is {worst}, not a rounding matter");
    }
    // Quarry's and Odin's printed M³ coefficients match each other's flop rates.
    let (quarry, odin) = (row("t3-intelmpi-quarry"), row("t3-openmpi-odin"));
    assert!(close(2.0 / 100.0 / quarry.flop_rate, odin.paper_m3, 2e-3));
    assert!(close(2.0 / 100.0 / odin.flop_rate, quarry.paper_m3, 2e-2));
}

#[test]
fn the_table3_panel_flags_exactly_the_inconsistent_rows() {
    let t = pmm::reference::reproduction_table();
    assert_eq!(t.rows.len(), TABLE3.len());
    let flagged: Vec<bool> = t.rows.iter().map(|r| r.remark.is_some()).collect();
    assert_eq!(flagged, [false, true, false, false, false, true, true]);
}

/// Eq. (5), written out independently of `predict`, plus the start-up term
/// (√N+1)/2 · T_startup per iteration that eq. (4) drops.
fn dryad_eq5(n: f64, m: f64, tf: f64, tc: f64, tio: f64, ts: f64, tsched: f64) -> f64 {
    let q = n.sqrt();
    q * (n + 1.0) / 2.0 * tsched
        + (q + 1.0) * m * m / (2.0 * q) * (tio + tc)
        + 2.0 * m.powi(3) / n * tf
        + q * (q + 1.0) / 2.0 * ts
}

/// Eq. (4): √N times the per-iteration sum, with m = M/√N.
fn dryad_eq4(n: f64, m_order: f64, tf: f64, tc: f64, tio: f64, tsched: f64) -> f64 {
    let q = n.sqrt();
    let m = m_order / q;
    q * ((n + 1.0) / 2.0 * tsched + (q + 1.0) / 2.0 * m * m * (tio + tc) + 2.0 * m.powi(3) * tf)
}

#[allow(clippy::too_many_arguments)]
fn inputs(imp: Implementation, n: u64, m: f64, tf: f64, tc: f64, tio: f64, ts: f64, tsched: f64) -> Inputs {
    let rates = Rates { t_flops: tf, t_comm: tc, t_io: tio, t_startup: ts, t_scheduling: tsched };
    Inputs::new(imp, n, m, rates).expect("valid inputs")
}

#[test]
fn eq4_and_eq5_agree_with_the_model() {
    for q in [1u64, 2, 3, 5, 10, 31, 100] {
        let n = q * q;
        for m in [q as f64, 1000.0, 16000.0, 123457.0] {
            for (tf, tc, tio, tsched) in
                [(1.0 / 8.64e9, 1.0 / 8.87e6, 0.0, 0.0), (1e-9, 5e-8, 3e-8, 0.02), (2e-10, 1e-6, 1e-7, 1.5)]
            {
                let t = predict(&inputs(Implementation::Dryad, n, m, tf, tc, tio, 0.0, tsched)).t;
                let e4 = dryad_eq4(n as f64, m, tf, tc, tio, tsched);
                let e5 = dryad_eq5(n as f64, m, tf, tc, tio, 0.0, tsched);
                assert!(close(e4, e5, ALGEBRA_RTOL), "eq. (4) {e4} vs eq. (5) {e5}");
                assert!(close(t, e5, ALGEBRA_RTOL), "model {t} vs eq. (5) {e5} at N={n}, M={m}");
            }
        }
    }
}

#[test]
fn startup_adds_half_sqrt_n_plus_one_per_iteration() {
    for (n, ts) in [(25u64, 1e-3), (100, 0.1163), (1, 2.0)] {
        let with = predict(&inputs(Implementation::Dryad, n, 8000.0, 1e-10, 1e-7, 0.0, ts, 0.0)).t;
        let e5 = dryad_eq5(n as f64, 8000.0, 1e-10, 1e-7, 0.0, ts, 0.0);
        assert!(close(with, e5, ALGEBRA_RTOL));
        // MS-MPI's eq. (8) + roll carry the same (√N+1)/2 start-ups per iteration.
        let q = (n as f64).sqrt();
        let a = predict(&inputs(Implementation::MsMpi, n, 8000.0, 1e-10, 1e-7, 0.0, ts, 0.0)).t;
        let b = predict(&inputs(Implementation::MsMpi, n, 8000.0, 1e-10, 1e-7, 0.0, 0.0, 0.0)).t;
        assert!(close(a - b, q * (q + 1.0) / 2.0 * ts, 1e-9));
    }
}

#[test]
fn msmpi_follows_eq9_with_the_ceiling_of_log2() {
    for q in [1u64, 2, 3, 4, 5, 8, 10, 17] {
        let n = q * q;
        let (m, tf, tc, tsched) = (20000.0, 1.0 / 8.64e9, 1.0 / 18.17e6, 0.01);
        let rounds = (q as f64).log2().ceil();
        let nf = n as f64;
        let qf = q as f64;
        let eq9 = qf * (nf + 1.0) / 2.0 * tsched + m * m * (1.0 + rounds) / (2.0 * qf) * tc + 2.0 * m.powi(3) / nf * tf;
        let p = predict(&inputs(Implementation::MsMpi, n, m, tf, tc, 0.0, 0.0, tsched));
        assert!(close(p.t, eq9, ALGEBRA_RTOL), "q={q}: {} vs eq. (9) {eq9}", p.t);
        assert!(close(p.t, qf * (p.t_sched + p.t_bcast + p.t_roll + p.t_compute), ALGEBRA_RTOL));
    }
    // SPEC: for N = 25 the coefficient is (1+3)/10 = 0.4.
    let p = predict(&inputs(Implementation::MsMpi, 25, 1000.0, 1e-9, 1.0, 0.0, 0.0, 0.0));
    assert!(close(p.coef_m2, 0.4, ALGEBRA_RTOL));
}

#[test]
fn fox_is_table2s_pipeline() {
    // T(N) = 2 M²/√N T_comm + 2 M³/N T_flops (SPEC, from Table 2).
    for (n, m) in [(4u64, 1000.0), (64, 4096.0), (400, 30000.0)] {
        let (tf, tc) = (1e-10, 3e-8);
        let q = (n as f64).sqrt();
        let expect = 2.0 * m * m / q * tc + 2.0 * m.powi(3) / n as f64 * tf;
        let p = predict(&inputs(Implementation::Fox, n, m, tf, tc, 0.0, 0.0, 0.0));
        assert!(close(p.t, expect, ALGEBRA_RTOL));
        // Table 2: overhead converges as √N/M.
        assert!(close(p.overhead, q / m * tc / tf, 1e-9));
    }
}

#[test]
fn overhead_is_eq7_and_eq10_exactly_without_startup_and_scheduling() {
    for imp in [Implementation::Dryad, Implementation::MsMpi, Implementation::Fox] {
        for (n, m) in [(4u64, 2000.0), (25, 16000.0), (100, 48000.0), (1024, 65536.0)] {
            let i = inputs(imp, n, m, 1.0 / 8.64e9, 1.0 / 8.87e6, 2e-8, 0.0, 0.0);
            let p = predict(&i);
            let eq = i.convergence_term() * i.overhead_slope();
            assert!(close(p.overhead, eq, 1e-9), "{imp:?} N={n}: f={} vs {eq}", p.overhead);
            assert!(close(p.efficiency, 1.0 / (1.0 + eq), 1e-12));
        }
    }
}

#[test]
fn sequential_time_and_speedup() {
    let p = predict(&inputs(Implementation::Dryad, 25, 16000.0, 1.0 / 8.64e9, 1.0 / 8.87e6, 0.0, 0.0, 0.0));
    assert!(close(p.t_seq, 2.0 * 16000f64.powi(3) / 8.64e9, ALGEBRA_RTOL));
    assert!(close(p.speedup, p.t_seq / p.t, ALGEBRA_RTOL));
    assert!(close(p.speedup, 25.0 * p.efficiency, ALGEBRA_RTOL));
}

#[test]
fn ceil_log2_counts_binomial_rounds() {
    for n in 1u64..5000 {
        let mut rounds = 0;
        let mut reached = 1u64;
        while reached < n {
            reached *= 2;
            rounds += 1;
        }
        assert_eq!(pmm::ceil_log2(n), rounds, "n={n}");
    }
}

fn error_of(pairs: &[(&str, &str)]) -> ModelError {
    api::evaluate("pmm", &raw(pairs)).expect_err("must be rejected")
}

fn single_field(e: &ModelError) -> (String, String) {
    let f = e.field_errors();
    assert_eq!(f.len(), 1, "{e}");
    (f[0].key.clone(), f[0].message.clone())
}

#[test]
fn non_square_n_names_the_nearest_squares() {
    let (key, msg) = single_field(&error_of(&[("N", "30")]));
    assert_eq!(key, "N");
    assert!(msg.contains("25") && msg.contains("36") && msg.contains("perfect square"), "{msg}");
    let (_, msg) = single_field(&error_of(&[("N", "99")]));
    assert!(msg.contains("81") && msg.contains("100"), "{msg}");
}

#[test]
fn bad_values_name_the_parameter_and_the_valid_range() {
    let cases: &[(&str, &str, &str)] = &[
        ("t_flops", "0", "1e-18 ≤ value"),
        ("t_flops", "-1e-9", "1e-18 ≤ value"),
        ("t_flops", "1e-320", "1e-18 ≤ value"),
        ("t_comm", "1e400", "'1e400' is too large"),
        ("t_comm", "NaN", "NaN"),
        ("t_comm", "inf", "infinity"),
        ("t_io", "-1", "0 ≤ value"),
        ("M", "0", "1 ≤ value"),
        ("M", "2.5", "whole number"),
        ("M", "", "no value"),
        ("N", "1e12", "1e6"),
        ("N", "-4", "1 ≤ value"),
        ("impl", "mpich", "dryad, msmpi, fox"),
        ("t_startup", "1,5", "decimal point"),
        ("t_scheduling", "abc", "not a number"),
    ];
    for (key, value, needle) in cases {
        let e = error_of(&[(key, value)]);
        let (k, msg) = single_field(&e);
        assert_eq!(&k, key);
        assert!(msg.contains(needle), "{key}={value}: {msg}");
        assert!(msg.contains("expected"), "{key}={value} must say what is valid: {msg}");
        assert!(e.to_string().starts_with(key), "the one-line message names the key: {e}");
    }
}

#[test]
fn m_below_sqrt_n_and_unknown_keys_are_rejected() {
    let (key, msg) = single_field(&error_of(&[("N", "100"), ("M", "9")]));
    assert_eq!(key, "M");
    assert!(msg.contains("√N = 10"), "{msg}");
    let (key, msg) = single_field(&error_of(&[("n", "25")]));
    assert_eq!(key, "n");
    assert!(msg.contains("N, M"), "{msg}");
}

#[test]
fn every_field_problem_is_reported_at_once() {
    let e = error_of(&[("N", "-1"), ("M", "x"), ("t_flops", "0")]);
    let keys: Vec<String> = e.field_errors().into_iter().map(|f| f.key).collect();
    assert_eq!(keys, ["N", "M", "t_flops"]);
}

#[test]
fn every_corner_of_the_valid_ranges_evaluates_to_finite_outputs() {
    let mut count = 0;
    for imp in ["dryad", "msmpi", "fox"] {
        for (n, m) in [("1", "1"), ("1", "1e7"), ("1000000", "1000"), ("1000000", "1e7")] {
            for tf in ["1e-18", "1"] {
                for tc in ["1e-18", "1"] {
                    for tio in ["0", "1"] {
                        for ts in ["0", "100"] {
                            for tsched in ["0", "100"] {
                                let p = raw(&[
                                    ("impl", imp),
                                    ("N", n),
                                    ("M", m),
                                    ("t_flops", tf),
                                    ("t_comm", tc),
                                    ("t_io", tio),
                                    ("t_startup", ts),
                                    ("t_scheduling", tsched),
                                ]);
                                let out = api::evaluate("pmm", &p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
                                for (k, v) in out.0 {
                                    if let isoperf::spec::OutValue::Num(x) = v {
                                        assert!(x.is_finite() && x >= 0.0, "{k} = {x} at {p:?}");
                                    }
                                }
                                count += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(count, 3 * 4 * 32);
}

fn implementation() -> impl Strategy<Value = Implementation> {
    prop_oneof![Just(Implementation::Dryad), Just(Implementation::MsMpi), Just(Implementation::Fox)]
}

proptest! {
    #[test]
    fn efficiency_is_in_0_1_and_times_are_positive(
        imp in implementation(),
        q in 1u64..=1000,
        m_factor in 1.0f64..1e4,
        tf in 1e-13f64..1e-6,
        tc in 1e-12f64..1e-3,
        tio in 0.0f64..1e-4,
        ts in 0.0f64..1.0,
        tsched in 0.0f64..10.0,
    ) {
        let m = ((q as f64) * m_factor).round().min(pmm::MAX_ORDER);
        let i = inputs(imp, q * q, m, tf, tc, tio, ts, tsched);
        let p = predict(&i);
        prop_assert!(p.t.is_finite() && p.t > 0.0);
        prop_assert!(p.efficiency > 0.0 && p.efficiency <= 1.0, "ε = {}", p.efficiency);
        prop_assert!(p.overhead >= 0.0);
        prop_assert!(p.speedup > 0.0 && p.speedup <= (q * q) as f64 * (1.0 + 1e-12));
        for x in [p.t_bcast, p.t_roll, p.t_compute, p.t_sched] {
            prop_assert!(x.is_finite() && x >= 0.0);
        }
    }

    #[test]
    fn more_expensive_communication_never_helps(
        imp in implementation(), q in 1u64..200, tc in 1e-10f64..1e-5, k in 1.0f64..100.0,
    ) {
        let m = 1000.0 * q as f64;
        let a = predict(&inputs(imp, q * q, m, 1e-10, tc, 0.0, 0.0, 0.0)).t;
        let b = predict(&inputs(imp, q * q, m, 1e-10, tc * k, 0.0, 0.0, 0.0)).t;
        prop_assert!(b >= a);
    }

    #[test]
    fn any_typed_text_gives_outputs_or_a_field_error(text in ".{0,12}", key in prop::sample::select(vec!["impl", "N", "M", "t_flops", "t_comm", "t_io", "t_startup", "t_scheduling"])) {
        match api::evaluate("pmm", &raw(&[(key, &text)])) {
            Ok(out) => {
                for (_, v) in out.0 {
                    if let isoperf::spec::OutValue::Num(x) = v {
                        prop_assert!(x.is_finite() && x >= 0.0);
                    }
                }
            }
            Err(e) => {
                let f = e.field_errors();
                prop_assert_eq!(f.len(), 1);
                prop_assert_eq!(&f[0].key, key);
            }
        }
    }
}

#[test]
fn check_reports_model_rules_beside_invalid_fields() {
    // N = 30 breaks a model rule, t_flops = abc a field rule: both at once.
    let problems = api::check("pmm", &raw(&[("N", "30"), ("t_flops", "abc")])).unwrap();
    let keys: Vec<&str> = problems.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(keys, ["N", "t_flops"]);
    assert!(problems[0].message.contains("25 and 36"));
    assert!(api::check("pmm", &raw(&[("N", "36")])).unwrap().is_empty());
}
