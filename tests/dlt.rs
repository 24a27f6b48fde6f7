//! The `dlt` model against the lecture (Drozdowski), SPEC's published
//! values, and independent computations.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, clippy::type_complexity)]

use isoperf::api;
use isoperf::models::dlt::schedule::{growth, hetero_split, prefixes, recursion, target_load, Power, Star, TargetLoad};
use isoperf::spec::{OutValue, Outputs, RawParams, RawValue};
use proptest::prelude::*;

mod common;
use common::{close, flag, num, raw};

/// SPEC requires the closed form and the recursion to agree this closely.
const CLOSED_VS_RECURSION_RTOL: f64 = 1e-9;
/// The published T(m) are printed to 7–10 significant figures.
const PUBLISHED_RTOL: f64 = 1e-9;

fn eval(pairs: &[(&str, &str)]) -> Outputs {
    common::evaluate("dlt", pairs)
}

#[test]
fn spec_published_schedule_lengths() {
    // SPEC, dlt reproduction: A = 1, C = 1e-6, S = 1e2, V = 1e3.
    let star = Star::new(1.0, 1e-6, 1e2).unwrap();
    for (m, published) in [(1, 1100.001), (2, 650.000775), (3, 533.3340667), (4, 500.00075)] {
        let s = star.split(m, 1e3);
        assert!(s.feasible, "m = {m}");
        assert!(close(s.t, published, PUBLISHED_RTOL), "T({m}) = {} vs {published}", s.t);
    }
    assert!(!star.split(5, 1e3).feasible, "m = 5 is infeasible for V = 1e3");
    assert_eq!(star.max_processors(1e3, 1_000_000), 4);
    assert!(close(star.t1(1e3), 1100.001, PUBLISHED_RTOL));
}

#[test]
fn infeasible_m_reports_m_max_and_its_schedule() {
    let out = eval(&[("m", "5")]);
    assert!(!flag(&out, "feasible"));
    assert_eq!(num(&out, "m_max"), 4.0);
    assert_eq!(num(&out, "m_used"), 4.0);
    assert!(close(num(&out, "T"), 500.00075, PUBLISHED_RTOL));
    assert!(num(&out, "alpha_m") > 0.0, "no negative load part is shown");
    let remarks = api::remarks("dlt", &raw(&[("m", "5")])).unwrap();
    let warning = remarks.iter().find(|r| r.key == Some("m")).expect("a remark at the m field");
    assert!(warning.text.contains("cannot all be activated") && warning.text.contains("m_max = 4"), "{}", warning.text);
}

fn identical_lists(m: usize, a: f64, c: f64, s: f64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    (vec![a; m], vec![c; m], vec![s; m])
}

#[test]
fn closed_form_equals_the_recursion_for_every_feasible_m_up_to_1000() {
    let sets = [
        (1.0, 1e-6, 1e2, 1e3),
        (1.0, 1e-6, 1e2, 1e13),
        (2.0, 0.5, 1e-3, 1e6),
        (1e-9, 1e-12, 1e-6, 1e9),
        (1.0, 1e-15, 1.0, 1e7),
        (1.0, 0.0, 5.0, 1e8),
    ];
    for (a, c, s, v) in sets {
        let star = Star::new(a, c, s).unwrap();
        let mut checked = 0;
        for m in 1..=1000 {
            let closed = star.split(m, v);
            if !closed.feasible {
                continue;
            }
            let (la, lc, ls) = identical_lists(m, a, c, s);
            let alpha = recursion(&la, &lc, &ls, v).unwrap();
            let rec = hetero_split(&la, &lc, &ls, v).unwrap();
            assert!(
                close(closed.t, rec.t, CLOSED_VS_RECURSION_RTOL),
                "A={a} C={c} S={s} V={v} m={m}: {} vs {}",
                closed.t,
                rec.t
            );
            assert!(
                close(closed.alpha_m, alpha[m - 1], CLOSED_VS_RECURSION_RTOL),
                "α_m at m={m}: {} vs {}",
                closed.alpha_m,
                alpha[m - 1]
            );
            assert!(close(closed.alpha_1, alpha[0], CLOSED_VS_RECURSION_RTOL), "α_1 at m={m}");
            checked += 1;
        }
        assert!(checked >= 4, "set {a} {c} {s} {v} checked only {checked}");
    }
}

#[test]
fn vanishing_communication_approaches_the_c_to_zero_limit() {
    // SPEC: T = A V / m + (m + 1) S / 2 as C → 0; C = 1e-15 must not lose it to cancellation.
    for m in [1usize, 2, 10, 100, 1000] {
        let (a, s, v) = (1.0, 1e2, 1e9);
        let limit = a * v / m as f64 + (m as f64 + 1.0) * s / 2.0;
        for c in [0.0, 1e-15, 1e-12] {
            let t = Star::new(a, c, s).unwrap().split(m, v).t;
            assert!(close(t, limit, 1e-9 + 2.0 * c * v / limit), "C={c} m={m}: {t} vs {limit}");
        }
    }
}

#[test]
fn feasibility_bound_is_l_of_m() {
    // All α_i > 0 iff V > L(m) = (SA/C²)((1 + C/A)^m − 1 − mC/A) (SPEC).
    let (a, c, s) = (1.0, 1e-3, 2.0);
    let star = Star::new(a, c, s).unwrap();
    for m in [2usize, 5, 40, 300] {
        let direct = s * a / (c * c) * ((1.0 + c / a).powi(m as i32) - 1.0 - m as f64 * c / a);
        let l = star.min_load(m);
        assert!(close(l, direct, 1e-9), "L({m}) = {l} vs {direct}");
        assert!(star.split(m, l * (1.0 + 1e-9)).feasible);
        assert!(!star.split(m, l * (1.0 - 1e-9)).feasible);
    }
    // m_max is the last m with L(m) < V.
    let v = 1e6;
    let m_max = star.max_processors(v, 1_000_000);
    assert!(star.min_load(m_max) < v && star.min_load(m_max + 1) >= v, "m_max = {m_max}");
}

#[test]
fn t_of_m_costs_the_same_at_a_million_processors() {
    let star = Star::new(1.0, 1e-9, 0.0).unwrap();
    let s = star.split(1_000_000, 1e12);
    assert!(s.feasible && s.t.is_finite());
    assert!(close(growth(1e-9, 1e6).g, ((1e6 * 1e-9f64).exp() - 1.0) / 1e-9, 1e-9));
}

#[test]
fn heterogeneous_recursion_solves_the_linear_system() {
    use nalgebra::{DMatrix, DVector};
    // Eq. (1)-(2) as a dense system, solved by LU: an independent method.
    let cases: [(&[f64], &[f64], &[f64], f64); 3] = [
        (&[1.0, 2.0, 0.5, 1.5], &[0.1, 0.2, 0.05, 0.3], &[1.0, 0.5, 2.0, 0.0], 1e3),
        (&[0.5, 1.0, 1.0, 2.0], &[1e-6, 1e-6, 2e-6, 1e-6], &[50.0, 50.0, 50.0, 50.0], 1e3),
        (&[3.0, 1.0, 2.0, 1.0, 5.0, 0.7], &[0.0, 0.4, 0.1, 0.2, 0.9, 0.01], &[0.3, 0.1, 0.0, 0.2, 0.5, 0.7], 250.0),
    ];
    for (a, c, s, v) in cases {
        let m = a.len();
        let mut mat = DMatrix::<f64>::zeros(m, m);
        let mut rhs = DVector::<f64>::zeros(m);
        for i in 0..m - 1 {
            mat[(i, i)] = a[i];
            mat[(i, i + 1)] = -(a[i + 1] + c[i + 1]);
            rhs[i] = s[i + 1];
        }
        for j in 0..m {
            mat[(m - 1, j)] = 1.0;
        }
        rhs[m - 1] = v;
        let solved = mat.lu().solve(&rhs).expect("non-singular");
        let alpha = recursion(a, c, s, v).unwrap();
        for i in 0..m {
            assert!(close(alpha[i], solved[i], 1e-10), "α_{} = {} vs LU {}", i + 1, alpha[i], solved[i]);
        }
    }
}

#[test]
fn prefixes_agree_with_the_recursion_on_each_prefix() {
    let a = [1.0, 2.0, 0.5, 1.5, 1.0, 3.0];
    let c = [0.01, 0.02, 0.005, 0.03, 0.01, 0.0];
    let s = [5.0, 1.0, 20.0, 3.0, 40.0, 2.0];
    for v in [10.0, 60.0, 200.0, 1e4] {
        for p in prefixes(&a, &c, &s, v) {
            let h = hetero_split(&a[..p.p], &c[..p.p], &s[..p.p], v).unwrap();
            assert_eq!(p.feasible, h.feasible, "V={v} p={}", p.p);
            if h.feasible {
                assert!(close(p.t, h.t, 1e-9), "T of prefix {}: {} vs {}", p.p, p.t, h.t);
                assert!(close(p.t_comm, h.t_comm, 1e-9) && close(p.busy, h.busy, 1e-9));
                assert!(close(p.t_at_zero + p.t_per_load * v, h.t, 1e-9));
            }
        }
    }
}

#[test]
fn energy_terms_by_hand() {
    // Eq. (8), (10), (11) for m = 2 of the SPEC case with P_C = 200, P_N = 50, k = 3.
    let out = eval(&[("m", "2")]);
    let t = 650.000775;
    let (m, s, c, a, v, pc, pn, k) = (2.0, 1e2, 1e-6, 1.0, 1e3, 200.0, 50.0, 3.0);
    let e_i = t * ((m + 1.0) * pc + pn) / k;
    let e_rn = pn * (k - 1.0) / k * (m * s + c * v);
    let e_rc = pc * (k - 1.0) / k * (2.0 * m * s + (2.0 * c + a) * v);
    assert!(close(num(&out, "E_I"), e_i, 1e-9), "{} vs {e_i}", num(&out, "E_I"));
    assert!(close(num(&out, "E_RN"), e_rn, 1e-12));
    assert!(close(num(&out, "E_RC"), e_rc, 1e-12));
    assert!(close(num(&out, "E"), e_i + e_rn + e_rc, 1e-9));
}

fn brute_force_energy_argmin(star: &Star, v: f64, power: &Power, limit: usize) -> usize {
    (1..=limit)
        .min_by(|x, y| {
            let e = |m: usize| {
                let s = star.split(m, v);
                power.energy(m, s.t, s.t_comm, s.busy).total()
            };
            e(*x).total_cmp(&e(*y))
        })
        .unwrap()
}

#[test]
fn energy_optimal_m_is_the_exhaustive_minimum() {
    let power = Power { processor: 200.0, network: 50.0, idle_reduction: 3.0 };
    for (a, c, s, v) in [
        (1.0, 1e-6, 1e2, 1e3),
        (1.0, 1e-6, 1e2, 1e9),
        (1.0, 1e-6, 1e2, 1e11),
        (1.0, 1e-4, 1.0, 1e8),
        (2.0, 1e-3, 10.0, 1e10),
    ] {
        let star = Star::new(a, c, s).unwrap();
        let m_max = star.max_processors(v, 1_000_000);
        let limit = m_max.min(200_000);
        let p = raw(&[("A", &a.to_string()), ("C", &c.to_string()), ("S", &s.to_string()), ("V", &v.to_string())]);
        let out = api::evaluate("dlt", &p).unwrap();
        if m_max <= limit {
            assert_eq!(
                num(&out, "m_min_energy") as usize,
                brute_force_energy_argmin(&star, v, &power, limit),
                "V={v} C={c}"
            );
        }
    }
}

#[test]
fn the_slides_energy_minimum_is_visible_in_the_chart() {
    // Slides, "Energy E vs schedule length": a minimum for V = 1e13, none inside the range for V = 1e3.
    let slide = [("A", "1"), ("C", "1e-6"), ("S", "1e2"), ("P_N", "50"), ("P_C", "200"), ("k", "3")];
    let with_v = |v: &'static str, m: &'static str| {
        let mut p = slide.to_vec();
        p.push(("V", v));
        p.push(("m", m));
        raw(&p)
    };
    let big = api::chart("dlt", "energy", &with_v("1e13", "1000")).unwrap();
    assert!(big.note.as_deref().unwrap().starts_with("E has an interior minimum"), "{:?}", big.note);
    let out = api::evaluate("dlt", &with_v("1e13", "1000")).unwrap();
    let best = num(&out, "m_min_energy");
    assert!(best > 1.0 && best < num(&out, "m_max"));
    let small = api::chart("dlt", "energy", &with_v("1e3", "4")).unwrap();
    assert!(small.note.as_deref().unwrap().starts_with("No interior minimum"), "{:?}", small.note);
}

#[test]
fn target_load_is_exact_and_agrees_with_bisection() {
    let star = Star::new(1.0, 1e-6, 1e2).unwrap();
    for m in [2usize, 4, 50] {
        for target in [0.5, 0.9, 0.99] {
            let out = eval(&[("m", &m.to_string()), ("e_target", &target.to_string())]);
            let v_star = num(&out, "V_target");
            let eff = |v: f64| star.t1(v) / (m as f64 * star.split(m, v).t);
            assert!(close(eff(v_star), target, 1e-9), "m={m} e={target}: e(V*) = {}", eff(v_star));
            // Bisection on e(V) = target between L(m) and a V that reaches it.
            let (mut lo, mut hi) = (star.min_load(m) * (1.0 + 1e-12), 1e3 * v_star);
            for _ in 0..200 {
                let mid = (lo * hi).sqrt();
                if eff(mid) < target {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            assert!(close(hi, v_star, 1e-8), "bisection {hi} vs closed {v_star}");
        }
    }
    // With C > 0 efficiency tends to (C + A)/(m (C + A/G)) < 1: 0.99999999 on 1000 processors is out of reach.
    assert_eq!(target_load(0.5, (0.0, 1.0), (0.0, 4.0), 0.0), TargetLoad::Unreachable { sup: 0.25 });
    let out = eval(&[("m", "1000"), ("e_target", "0.99999999")]);
    assert!(matches!(out.0.iter().find(|(k, _)| *k == "V_target").map(|x| &x.1), Some(OutValue::Missing)));
}

#[test]
fn bad_input_names_the_field_and_range() {
    for (key, value, needle) in [
        ("m", "0", "1 ≤ value"),
        ("m", "2.5", "whole number"),
        ("V", "0", "1e-9 ≤ value"),
        ("V", "-5", "1e-9 ≤ value"),
        ("A", "0", "1e-15 ≤ value"),
        ("C", "-1", "0 ≤ value"),
        ("S", "-1", "0 ≤ value"),
        ("k", "1", "1 < value"),
        ("P_C", "-3", "0 ≤ value"),
        ("P_N", "NaN", "NaN"),
        ("e_target", "1.5", "value ≤ 1"),
    ] {
        let e = api::evaluate("dlt", &raw(&[(key, value)])).unwrap_err();
        let f = e.field_errors();
        assert_eq!(f.len(), 1, "{key}={value}: {e}");
        assert_eq!(f[0].key, key);
        assert!(f[0].message.contains(needle) && f[0].message.contains("expected"), "{key}={value}: {}", f[0].message);
    }
    let het =
        |a: &str, c: &str| raw(&[("processors", "heterogeneous"), ("A_list", a), ("C_list", c), ("S_list", "1,1,1")]);
    let e = api::evaluate("dlt", &het("1,2,3", "0.1,0.1")).unwrap_err();
    assert_eq!(e.field_errors()[0].key, "C_list");
    assert!(e.to_string().contains("has 2 values but A_list has 3"), "{e}");
    let e = api::evaluate("dlt", &het("1,x,3", "0.1,0.1,0.1")).unwrap_err();
    assert!(e.to_string().contains("A_list: value 2: 'x' is not a number"), "{e}");
    let e = api::evaluate("dlt", &het("1,-2,3", "0.1,0.1,0.1")).unwrap_err();
    assert!(e.to_string().contains("value 2: -2 is out of range"), "{e}");
}

#[test]
fn heterogeneous_outputs_the_whole_vector() {
    let out = eval(&[
        ("processors", "heterogeneous"),
        ("A_list", "0.5, 1, 1, 2"),
        ("C_list", "1e-6 1e-6 2e-6 1e-6"),
        ("S_list", "50;50;50;50"),
    ]);
    let alpha = out
        .0
        .iter()
        .find_map(|(k, v)| match v {
            OutValue::Array(a) if *k == "alpha" => Some(a.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(alpha.len(), 4);
    assert!(close(alpha.iter().sum::<f64>(), 1e3, 1e-12));
    assert!(alpha[0] > alpha[1], "the fast first processor gets more");
}

proptest! {
    #[test]
    fn identical_loads_sum_to_v_and_all_finish_together(
        a in 1e-3f64..1e3, c_ratio in 0.0f64..1.0, s in 0.0f64..1e3, v in 1.0f64..1e12, m in 1usize..300,
    ) {
        let c = a * c_ratio;
        let star = Star::new(a, c, s).unwrap();
        let m = m.min(star.max_processors(v, 300));
        let sp = star.split(m, v);
        prop_assert!(sp.feasible);
        let alphas: Vec<f64> = (1..=m).map(|i| star.alpha(m, i, sp.alpha_m)).collect();
        prop_assert!(alphas.iter().all(|x| *x > 0.0));
        prop_assert!(close(alphas.iter().sum::<f64>(), v, 1e-9));
        let mut clock = 0.0;
        for x in &alphas {
            clock += s + c * x;
            let finish = clock + a * x;
            prop_assert!(close(finish, sp.t, 1e-9), "finish {} vs T {}", finish, sp.t);
        }
    }

    #[test]
    fn heterogeneous_loads_sum_to_v_and_all_finish_together(
        rows in prop::collection::vec((1e-2f64..10.0, 0.0f64..1.0, 0.0f64..5.0), 1..40), v in 1e2f64..1e6,
    ) {
        let a: Vec<f64> = rows.iter().map(|r| r.0).collect();
        let c: Vec<f64> = rows.iter().map(|r| r.1).collect();
        let s: Vec<f64> = rows.iter().map(|r| r.2).collect();
        let h = hetero_split(&a, &c, &s, v).unwrap();
        prop_assert!(close(h.alpha.iter().sum::<f64>(), v, 1e-9));
        if h.feasible {
            let mut clock = 0.0;
            for i in 0..a.len() {
                clock += s[i] + c[i] * h.alpha[i];
                prop_assert!(close(clock + a[i] * h.alpha[i], h.t, 1e-9));
            }
        }
    }

    #[test]
    fn outputs_are_finite_and_non_negative(
        m in 1u32..1_000_000, v in -9.0f64..18.0, a in -15.0f64..9.0, c in -15.0f64..9.0, s in -6.0f64..9.0,
    ) {
        let mut p = RawParams::new();
        p.insert("m".into(), RawValue::Num(f64::from(m)));
        for (key, exponent) in [("V", v), ("A", a), ("C", c), ("S", s)] {
            p.insert(key.into(), RawValue::Num(10f64.powf(exponent)));
        }
        let out = api::evaluate("dlt", &p).unwrap();
        for (k, x) in &out.0 {
            if let OutValue::Num(x) = x {
                prop_assert!(x.is_finite() && *x >= 0.0, "{} = {} at {:?}", k, x, p);
            }
        }
        prop_assert!(num(&out, "efficiency") <= 1.0 + 1e-12);
    }

    /// Issue 13: heterogeneous speedup and efficiency compare with the fastest
    /// single processor, so efficiency ≤ 1 (m T(m) ≥ Σ_i (S_i + g_i α_i), a
    /// weighted mean of the single-processor times S_i + g_i V, g_i = C_i + A_i),
    /// every load part is positive, and the target-efficiency load reaches
    /// its target.
    #[test]
    fn heterogeneous_efficiency_is_against_the_fastest_processor(
        rows in prop::collection::vec((-15.0f64..9.0, -15.0f64..9.0, -6.0f64..9.0), 1..12),
        v in -9.0f64..18.0,
        target in 0.05f64..0.99,
    ) {
        let list = |f: &dyn Fn(&(f64, f64, f64)) -> f64| rows.iter().map(|r| format!("{:e}", 10f64.powf(f(r)))).collect::<Vec<_>>().join(",");
        let (a, c, s) = (list(&|r| r.0), list(&|r| r.1), list(&|r| r.2));
        let v = format!("{:e}", 10f64.powf(v));
        let params = [("processors", "heterogeneous"), ("A_list", &a), ("C_list", &c), ("S_list", &s), ("V", &v)];
        let Ok(out) = api::evaluate("dlt", &raw(&params)) else { return Ok(()) };
        let fastest = rows
            .iter()
            .map(|r| 10f64.powf(r.2) + (10f64.powf(r.1) + 10f64.powf(r.0)) * v.parse::<f64>().unwrap())
            .fold(f64::INFINITY, f64::min);
        prop_assert!(close(num(&out, "T1"), fastest, 1e-12), "T1 {} vs the fastest {}", num(&out, "T1"), fastest);
        let e = num(&out, "efficiency");
        prop_assert!((0.0..=1.0 + 1e-9).contains(&e), "efficiency {} for {:?}", e, params);
        if let Some(OutValue::Array(alpha)) = out.0.iter().find(|(k, _)| *k == "alpha").map(|(_, x)| x) {
            prop_assert!(alpha.iter().all(|x| *x > 0.0), "alpha {:?} for {:?}", alpha, params);
        }
        let target_text = format!("{target}");
        let with_target: Vec<(&str, &str)> = params.iter().copied().chain([("e_target", target_text.as_str())]).collect();
        let out = api::evaluate("dlt", &raw(&with_target)).unwrap();
        if let Some(OutValue::Num(v_star)) = out.0.iter().find(|(k, _)| *k == "V_target").map(|(_, x)| x) {
            let v_text = format!("{v_star:e}");
            let at: Vec<(&str, &str)> = with_target.iter().copied().filter(|(k, _)| *k != "V").chain([("V", v_text.as_str())]).collect();
            if let Ok(there) = api::evaluate("dlt", &raw(&at)) {
                if flag(&there, "feasible") {
                    prop_assert!(num(&there, "efficiency") >= target * (1.0 - 1e-6), "e(V*) = {} < {}", num(&there, "efficiency"), target);
                }
            }
        }
    }
}

/// Issue 13 (fuzzing): A_list = 1000,1 made the first (slow) processor T(1)
/// and the efficiency 500.5; a second processor 10²¹ faster than the first
/// passed the prefix test by round-off and got a load part below zero.
#[test]
fn heterogeneous_regressions_from_fuzzing() {
    let het = |a: &str, c: &str, s: &str, v: &str| {
        api::evaluate(
            "dlt",
            &raw(&[("processors", "heterogeneous"), ("A_list", a), ("C_list", c), ("S_list", s), ("V", v)]),
        )
        .unwrap()
    };
    let out = het("1000,1", "0,0", "0,0", "1000");
    assert_eq!(num(&out, "T1"), 1000.0, "the second processor alone: 1 s/unit × 1000 units");
    assert!(num(&out, "efficiency") <= 1.0, "{}", num(&out, "efficiency"));
    let out = het("1e9,9.879882197584052e-13", "0,0", "0,4177079.4783135992", "1e-6");
    let Some(OutValue::Array(alpha)) = out.0.iter().find(|(k, _)| *k == "alpha").map(|(_, x)| x.clone()) else {
        panic!("alpha")
    };
    assert!(alpha.iter().all(|x| *x > 0.0), "{alpha:?}");
    assert!(close(alpha.iter().sum::<f64>(), 1e-6, 1e-12));
    assert_eq!(num(&out, "m_used"), alpha.len() as f64);
}
