//! The `pipeline` model against the paper (Kuntraruk, Pottenger, Ross) and
//! hand computation of the M/M/1 formulas.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::api;
use isoperf::models::pipeline::{hops, Inputs, Switch};
use isoperf::spec::Outputs;
use proptest::prelude::*;

mod common;
use common::{close, missing, num, raw};

/// Hand computations below repeat the formulas in another order.
const ALGEBRA_RTOL: f64 = 1e-12;
/// SPEC: eq. (13) and Table XVI are matched within 0.3% under the binary reading.
const TABLE16_RTOL: f64 = 3e-3;

fn eval(pairs: &[(&str, &str)]) -> Outputs {
    common::evaluate("pipeline", pairs)
}

#[test]
fn per_hop_formulas_by_hand() {
    // Eq. (7)-(10) with L = 1 MB, C = 1 Gbit/s, T_comp = 0.5 s, fan-ins 8 and 16, τ = 2 ms.
    let switch = Switch { leaf_fanin: 8.0, spine_fanin: 16.0, tau: 2e-3 };
    let h = hops(1e6, 1e9, 0.5, &switch);
    let service = 8e6 / 1e9; // 8 ms
    for (hop, fanin) in h.iter().zip([8.0, 16.0, 8.0]) {
        let lambda = fanin / 0.5;
        let rho = lambda * service;
        assert!(close(hop.service, service, ALGEBRA_RTOL));
        assert!(close(hop.arrival_rate, lambda, ALGEBRA_RTOL));
        assert!(close(hop.rho, rho, ALGEBRA_RTOL));
        assert!(close(hop.response.unwrap(), service / (1.0 - rho) + 2e-3, ALGEBRA_RTOL));
        assert!(close(hop.wait.unwrap(), rho * service / (1.0 - rho), ALGEBRA_RTOL));
        // Response = service + wait + τ (Little's decomposition of M/M/1).
        assert!(close(hop.response.unwrap(), hop.service + hop.wait.unwrap() + 2e-3, ALGEBRA_RTOL));
    }
}

#[test]
fn eq12_with_the_stated_l_and_c() {
    // Eq. (12): 4096 tasks on 8 groups of 16; the stated L and C give 9.478 s, not the printed 9.61 s.
    let out = eval(&[("N", "4096"), ("groups", "8")]);
    assert!(close(num(&out, "T_total"), 9.478, 1e-4), "{}", num(&out, "T_total"));
    assert!(close(62.0 * num(&out, "T_comm"), 0.0279, 1e-2));
    assert_eq!(num(&out, "steps"), 62.0);
    // 63 × 0.15 = 9.45 s of computation.
    assert!(close(num(&out, "T_total") - 62.0 * num(&out, "T_comm"), 9.45, ALGEBRA_RTOL));
}

#[test]
fn tables_1_to_4_come_from_the_printed_communication_truncated() {
    // Pred Time of Tables I-IV: 0.16 s over 62 steps per step, truncated to whole seconds.
    let fixed = (0.16 / 62.0).to_string();
    for (procs, n, pred) in [
        (16, 4096, 77.0),
        (16, 8192, 156.0),
        (16, 16384, 312.0),
        (32, 4096, 38.0),
        (32, 8192, 77.0),
        (32, 16384, 156.0),
        (64, 4096, 19.0),
        (64, 8192, 38.0),
        (64, 16384, 77.0),
        (128, 4096, 9.0),
        (128, 8192, 19.0),
        (128, 16384, 38.0),
    ] {
        let groups = (procs / 16).to_string();
        let out = eval(&[("N", &n.to_string()), ("groups", &groups), ("comm", "fixed"), ("t_comm_fixed", &fixed)]);
        assert_eq!(num(&out, "T_total").trunc(), pred, "{procs} processors, {n} tasks: {}", num(&out, "T_total"));
    }
    // With the stated L and C the first row truncates to 76, not 77.
    assert_eq!(num(&eval(&[]), "T_total").trunc(), 76.0);
}

#[test]
fn eq13_and_table16_under_the_binary_reading() {
    for (n, pred) in [(512, 208.0), (1024, 417.0), (2048, 837.0), (4096, 1676.0)] {
        let n = n.to_string();
        let common = [("N", n.as_str()), ("P", "8"), ("t_comp", "1.39"), ("L", "8"), ("C", "1.28")];
        let mut binary = common.to_vec();
        binary.extend([("L_unit", "MiB"), ("C_unit", "Gibit/s")]);
        let t = num(&eval(&binary), "T_total");
        assert!(close(t, pred, TABLE16_RTOL), "N={n}: binary reading {t} vs Table XVI {pred}");
        let mut si = common.to_vec();
        si.extend([("L_unit", "MB"), ("C_unit", "Gbit/s")]);
        let t_si = num(&eval(&si), "T_total");
        assert!(!close(t_si, pred, TABLE16_RTOL), "N={n}: the SI reading {t_si} should not match {pred}");
    }
    // Eq. (13): 127 × 1.39 = 176.53 s of computation.
    let out = eval(&[
        ("N", "512"),
        ("P", "8"),
        ("t_comp", "1.39"),
        ("L", "8"),
        ("L_unit", "MiB"),
        ("C", "1.28"),
        ("C_unit", "Gibit/s"),
    ]);
    assert!(close(num(&out, "T_total") - 126.0 * num(&out, "T_comm"), 176.53, ALGEBRA_RTOL));
    assert_eq!(num(&out, "L_bytes"), 8.0 * 1_048_576.0);
    assert_eq!(num(&out, "C_bps"), 1.28 * 1_073_741_824.0);
}

#[test]
fn relative_errors_of_tables_5_and_17() {
    // (pred − actual)/actual, Table V row "128, 4096": (9 − 13)/13 = −30.7%; Table XVII row 1: (208 − 181)/181 = 14.92%.
    let t = isoperf::models::pipeline::views_for_tests::features_table();
    let row = t.rows.iter().find(|r| r.cells[0] == "128" && r.cells[1] == "4096").unwrap();
    assert_eq!(row.cells[7], "-30.77%");
    assert_eq!(row.cells[6], "-30.7%");
    let s = isoperf::models::pipeline::views_for_tests::sorting_table();
    assert_eq!(s.rows[0].cells[8], "+14.92%");
}

#[test]
fn speedup_models_of_eq4_and_eq5() {
    for (p, lg) in [(2.0, 1.0), (8.0, 3.0), (16.0, 4.0), (1024.0, 10.0)] {
        let out = eval(&[("P", &p.to_string()), ("N", "8192")]);
        assert!(close(num(&out, "S_par"), p / (2.0 * lg + 1.0), ALGEBRA_RTOL));
        assert!(close(num(&out, "speedup_bound"), p * 2.0 * lg / (2.0 * lg + 1.0), ALGEBRA_RTOL));
    }
    let out = eval(&[("groups", "4")]);
    assert!(close(num(&out, "speedup_bound"), 4.0 * 16.0 * 8.0 / 9.0, ALGEBRA_RTOL));
    // Eq. (1): T_seq = N T_comp + (N − 1) T_merge, T_merge = T_comp unless given.
    assert!(close(num(&out, "T_seq"), 4096.0 * 0.15 + 4095.0 * 0.15, ALGEBRA_RTOL));
    let out = eval(&[("t_merge", "0.3")]);
    assert!(close(num(&out, "T_seq"), 4096.0 * 0.15 + 4095.0 * 0.3, ALGEBRA_RTOL));
}

#[test]
fn drain_adds_lg_p_merges_and_messages() {
    let without = eval(&[]);
    let with = eval(&[("drain", "true"), ("t_merge", "0.2")]);
    let expect = 4.0 * (0.2 + num(&without, "T_comm"));
    assert!(close(num(&with, "T_total") - num(&without, "T_total"), expect, 1e-12));
}

#[test]
fn saturation_is_rejected_on_every_hop() {
    // Spine: 16 messages per T_comp; at L = 20 MiB, C = 1.28 Gibit/s, T_comp = 1.39 s, ρ_spine > 1.
    let base = [("N", "512"), ("P", "8"), ("t_comp", "1.39"), ("L_unit", "MiB"), ("C", "1.28"), ("C_unit", "Gibit/s")];
    let mut spine = base.to_vec();
    spine.push(("L", "20"));
    let e = api::evaluate("pipeline", &raw(&spine)).unwrap_err();
    let f = e.field_errors();
    assert_eq!(f[0].key, "L");
    assert!(
        f[0].message.contains("spine hop") && f[0].message.contains("ρ = ") && f[0].message.contains("expected L <"),
        "{}",
        f[0].message
    );
    // Each leaf alone: a leaf fan-in above the spine's saturates the leaves first.
    let mut leaves = base.to_vec();
    leaves.extend([("L", "10"), ("leaf_fanin", "40"), ("spine_fanin", "1")]);
    let msg = api::evaluate("pipeline", &raw(&leaves)).unwrap_err().to_string();
    assert!(msg.contains("leaf"), "{msg}");
    // The breakdown still shows every ρ and no delay for the saturated hop.
    // 20 MiB messages at 1.28 Gibit/s on the paper's Myrinet, queueing.
    let params = isoperf::models::pipeline::SPEC
        .parse(&raw(&[
            ("N", "512"),
            ("P", "8"),
            ("t_comp", "1.39"),
            ("L", "20"),
            ("L_unit", "MiB"),
            ("C", "1.28"),
            ("C_unit", "Gibit/s"),
        ]))
        .unwrap();
    let i = Inputs::new(&params).unwrap();
    let p = i.predict();
    assert!(p.hops[1].rho >= 1.0 && p.hops[1].response.is_none() && p.hops[1].wait.is_none());
    assert!(p.hops[0].rho < 1.0 && p.hops[0].response.is_some());
    assert!(p.t_total.is_none());
    let tables = api::tables("pipeline", &raw(&spine)).unwrap();
    let breakdown = &tables[0];
    assert_eq!(breakdown.rows[1].cells[6], "—");
    assert!(breakdown.rows[1].remark.as_deref().unwrap().starts_with("Saturated"));
    // Every hop saturating at once (ρ ≥ 1 each) is rejected too.
    let mut all = base.to_vec();
    all.extend([("L", "10"), ("leaf_fanin", "100"), ("spine_fanin", "100")]);
    assert!(api::evaluate("pipeline", &raw(&all)).is_err());
    // With a fixed per-step time the prediction stands, but no hop delay is invented.
    let mut fixed = spine.clone();
    fixed.extend([("comm", "fixed"), ("t_comm_fixed", "0.25")]);
    let out = eval(&fixed);
    assert!(missing(&out, "D_spine") && missing(&out, "W_spine"));
    assert!(num(&out, "T_total") > 0.0 && num(&out, "rho_spine") >= 1.0);
}

#[test]
fn near_saturation_warns() {
    // ρ_spine ≈ 0.9.
    let r = api::remarks(
        "pipeline",
        &raw(&[
            ("N", "512"),
            ("P", "8"),
            ("t_comp", "1.39"),
            ("L", "12.8"),
            ("L_unit", "MiB"),
            ("C", "1.28"),
            ("C_unit", "Gibit/s"),
        ]),
    )
    .unwrap();
    assert!(r.iter().any(|x| x.text.contains("spine hop is near saturation")), "{r:?}");
}

#[test]
fn bad_input_names_the_field() {
    for (pairs, key, needle) in [
        (vec![("P", "12")], "P", "nearest are 8 and 16"),
        (vec![("P", "1")], "P", "2 ≤ value"),
        (vec![("N", "8")], "N", "fewer than its P = 16"),
        (vec![("groups", "3")], "groups", "nearest divisors of N are 2 and 4"),
        (vec![("t_comp", "0")], "t_comp", "1e-9 ≤ value"),
        (vec![("L", "0")], "L", "1e-3 ≤ value"),
        (vec![("C", "-1")], "C", "1e-9 ≤ value"),
        (vec![("leaf_fanin", "0")], "leaf_fanin", "1 ≤ value"),
        (vec![("L_unit", "MiB/s")], "L_unit", "B, kB, KiB"),
        (vec![("drain", "maybe")], "drain", "false, true"),
    ] {
        let e = api::evaluate("pipeline", &raw(&pairs)).unwrap_err();
        let f = e.field_errors();
        assert_eq!(f[0].key, key, "{pairs:?}: {e}");
        assert!(f[0].message.contains(needle), "{pairs:?}: {}", f[0].message);
    }
}

proptest! {
    #[test]
    fn stable_queues_give_positive_delays_that_grow_with_l(
        l in 1.0f64..1e7, c in 1e6f64..1e11, t in 1e-3f64..10.0, k in 1.01f64..2.0,
    ) {
        let a = hops(l, c, t, &Switch::MYRINET);
        let b = hops(l * k, c, t, &Switch::MYRINET);
        for (x, y) in a.iter().zip(&b) {
            prop_assert_eq!(x.response.is_some(), x.rho < 1.0);
            if let (Some(dx), Some(dy)) = (x.response, y.response) {
                prop_assert!(dx > 0.0 && dy > dx);
            }
        }
    }
}
