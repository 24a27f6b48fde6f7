//! The `mapreduce` model: SPEC's public example, the interval tables, the
//! r = 1 closed form, and the exact shuffle solver against the LP (4)-(7)
//! as written, solved by an independent simplex (microlp).

#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::needless_range_loop
)]

use std::collections::BTreeSet;

use isoperf::api;
use isoperf::models::mapreduce::descent::plateau_descent;
use isoperf::models::mapreduce::general::{factorisation_work, interior_point, interior_point_whole};
use isoperf::models::mapreduce::levels::capped_level;
use isoperf::models::mapreduce::schedule::{
    chain, general, plateau_chain, single_group_methods_within, single_reducer, solve, solve_within, Budget, Intervals,
    Method, Shuffle, Solution, SolveError,
};
use isoperf::spec::{OutValue, Outputs, RawParams};
use microlp::{ComparisonOp, OptimizationDirection, Problem};
use proptest::prelude::*;

mod common;
use common::{close, evaluate, num, random_rates, raw, uniform, RANDOM_RATES};

/// The public example's values are exact rationals; f64 arithmetic of a few
/// dozen operations keeps them to this.
const EXACT_RTOL: f64 = 1e-12;
/// Two LP solvers in floating point (microlp's feasibility tolerance is 1e-7
/// in scaled units) agree on the optimum to this.
const LP_RTOL: f64 = 1e-6;
/// The closed form and the chain method take different arithmetic paths.
const CLOSED_RTOL: f64 = 1e-9;
/// The general LP's schedules are proved optimal to this (its dual bound,
/// `general::GAP_RTOL`), so two exact answers agree to it.
const GENERAL_RTOL: f64 = 1e-9;

/// HiGHS on the LP as written at m = 8053, r = 280, ℓ = 281, V = 1.93433e13,
/// S = 8.29517, γ = 0.33477 (`benches/mapreduce_highs.py --regimes`; 2.3
/// million rows, 21 minutes).
const HIGHS_8053: f64 = 66827.34235685431;

/// The lecture's map cost per unit, A = a_map + s_map/lu.
const LECTURE_A: f64 = 1e-5 + 1e-2 / 16e6;

/// A shuffle of identical mappers at the lecture's rates (A, C = 10⁻⁶ s/B)
/// with m mappers, r reducers, width ℓ, load V, start-up S and ratio γ.
fn lecture_shuffle(m: usize, r: usize, l: usize, v: f64, s: f64, gamma: f64) -> Shuffle {
    Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a: vec![LECTURE_A; m], s, c: gamma * 1e-6 / r as f64, v }
}

fn eval(pairs: &[(&str, &str)]) -> Outputs {
    common::evaluate("mapreduce", pairs)
}

fn example() -> Shuffle {
    Shuffle { intervals: Intervals::new(4, 4, 2).unwrap(), a: vec![1.0; 4], s: 1.0, c: 0.25, v: 100.0 }
}

/// vti(n) by brute force over every (i, j).
fn brute_vti(iv: &Intervals) -> Vec<BTreeSet<usize>> {
    let mut vti = vec![BTreeSet::new(); iv.count() + 1];
    for i in 1..=iv.m() {
        for j in 1..=iv.r() {
            vti[iv.itv(i, j)].insert(i);
        }
    }
    vti
}

/// The LP (4)-(7) exactly as the lecture writes it: variables α_1..α_m and
/// t_1..t_{N+1}, one constraint per interval and sender. Loads in units of
/// V so microlp's tolerances apply to O(1) numbers. Returns (t_{N+1}, α).
fn lp_as_written(p: &Shuffle) -> (f64, Vec<f64>) {
    let iv = p.intervals;
    let (m, n) = (iv.m(), iv.count());
    let vti = brute_vti(&iv);
    let mut lp = Problem::new(OptimizationDirection::Minimize);
    let x: Vec<_> = (0..m).map(|_| lp.add_var(0.0, (0.0, f64::INFINITY))).collect();
    let t: Vec<_> = (0..=n + 1)
        .map(|k| lp.add_var(if k == n + 1 { 1.0 } else { 0.0 }, (f64::NEG_INFINITY, f64::INFINITY)))
        .collect();
    for i in 1..=m {
        lp.add_constraint([(t[i], 1.0), (x[i - 1], -p.a[i - 1] * p.v)], ComparisonOp::Eq, i as f64 * p.s);
    }
    for k in 1..=n {
        for &i in &vti[k] {
            lp.add_constraint([(t[k + 1], 1.0), (t[k], -1.0), (x[i - 1], -p.c * p.v)], ComparisonOp::Ge, 0.0);
        }
    }
    lp.add_constraint(x.iter().map(|&v| (v, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    let s = lp.solve().unwrap().into_solution().unwrap();
    (s.var_value(t[n + 1]), x.iter().map(|&v| s.var_value(v) * p.v).collect())
}

/// `ours` (a solution of `p`, random case `case`) equals microlp on the LP
/// as written, and its makespan is what its parts imply.
fn assert_lp_as_written(case: usize, p: &Shuffle, ours: &Solution) {
    let (lp, _) = lp_as_written(p);
    let direct = makespan_of(p, &ours.alpha);
    assert!(close(direct, ours.makespan(), 1e-9), "case {case}: reported {} vs implied {direct}", ours.makespan());
    assert!(
        close(ours.makespan(), lp, LP_RTOL),
        "case {case} {p:?}: ours {} ({:?}) vs LP {lp}",
        ours.makespan(),
        ours.method
    );
}

/// Checks α against every constraint of the LP and returns the t_{N+1} it
/// implies, computed directly from the definitions (no solver code).
fn makespan_of(p: &Shuffle, alpha: &[f64]) -> f64 {
    let iv = p.intervals;
    let (m, n) = (iv.m(), iv.count());
    // Each interval's largest send, by brute force over every (i, j).
    let mut largest = vec![0.0f64; n + 1];
    for (i, &part) in alpha.iter().enumerate() {
        for j in 1..=iv.r() {
            let k = iv.itv(i + 1, j);
            largest[k] = largest[k].max(p.c * part);
        }
    }
    let total: f64 = alpha.iter().sum();
    assert!(close(total, p.v, 1e-9), "Σα = {total} ≠ V = {}", p.v);
    assert!(alpha.iter().all(|&a| a >= -1e-9 * p.v), "negative part in {alpha:?}");
    let mut t: Vec<f64> = (1..=m).map(|i| i as f64 * p.s + p.a[i - 1] * alpha[i - 1]).collect();
    for k in 1..=n {
        let need = largest[k];
        if k < m {
            let have = t[k] - t[k - 1];
            assert!(have >= need - 1e-9 * t[m - 1].abs().max(1.0), "interval {k}: {have} < {need}");
        } else {
            t.push(t[k - 1] + need);
        }
    }
    t[n]
}

#[test]
fn public_example_spec() {
    // SPEC mapreduce "Reproduction (public)": m = r = 4, l = 2, A = 1, V = 100, S = C = γ = 1.
    let opt = solve(&example()).unwrap();
    for (k, want) in [2284.0, 2732.0, 3292.0, 3992.0].iter().enumerate() {
        assert!(close(opt.alpha[k], want / 123.0, EXACT_RTOL), "α_{} = {}", k + 1, opt.alpha[k]);
    }
    assert!(close(opt.makespan(), 9982.0 / 123.0, EXACT_RTOL), "t_10 = {}", opt.makespan());
    assert_eq!(opt.t.len(), 10);
    assert_eq!(opt.method, Method::Chain);
    let iv = example().intervals;
    let per_mapper: Vec<Vec<usize>> = (1..=4).map(|i| (1..=4).map(|j| iv.itv(i, j)).collect()).collect();
    assert_eq!(per_mapper, vec![vec![1, 2, 5, 6], vec![2, 3, 6, 7], vec![3, 4, 7, 8], vec![4, 5, 8, 9]]);
}

#[test]
fn public_example_through_evaluate_and_the_lp_as_written() {
    let out = eval(&[
        ("m", "4"),
        ("r", "4"),
        ("l", "2"),
        ("V", "100"),
        ("S", "1"),
        ("C", "1"),
        ("gamma", "1"),
        ("a_map", "1"),
        ("s_map", "0"),
        ("a_red", "0"),
        ("s_red", "0"),
    ]);
    assert!(close(num(&out, "t_shuffle"), 9982.0 / 123.0, EXACT_RTOL));
    assert!(close(num(&out, "T"), 9982.0 / 123.0, EXACT_RTOL));
    assert_eq!(num(&out, "intervals"), 9.0);
    // T_seq = S + AV = 101 with no reduce cost.
    assert!(close(num(&out, "speedup"), 101.0 / (9982.0 / 123.0), EXACT_RTOL));
    let (t, alpha) = lp_as_written(&example());
    assert!(close(t, 9982.0 / 123.0, LP_RTOL), "simplex on the LP as written: {t}");
    assert!(close(alpha[3], 3992.0 / 123.0, LP_RTOL));
}

#[test]
fn interval_tables_obey_the_channel_rules() {
    for m in 1..=9 {
        for r in 1..=11 {
            for l in 1..=12 {
                let iv = Intervals::new(m, r, l).unwrap();
                let width = l.min(m);
                assert_eq!(iv.width(), width);
                let n = iv.count();
                assert_eq!(Intervals::interval_count(m, r, l), n as u64);
                let mut used = BTreeSet::new();
                // One channel per mapper: its r sends fall in distinct intervals.
                for i in 1..=m {
                    let sends: BTreeSet<usize> = (1..=r).map(|j| iv.itv(i, j)).collect();
                    assert_eq!(sends.len(), r, "mapper {i} reuses an interval (m={m} r={r} l={l})");
                    used.extend(sends);
                }
                // One channel per reducer.
                for j in 1..=r {
                    let recv: BTreeSet<usize> = (1..=m).map(|i| iv.itv(i, j)).collect();
                    assert_eq!(recv.len(), m, "reducer {j} receives twice in one interval (m={m} r={r} l={l})");
                }
                // At most l at a time, every interval in 1..=N used, N the largest.
                let vti = brute_vti(&iv);
                assert_eq!(used, (1..=n).collect::<BTreeSet<_>>(), "m={m} r={r} l={l}");
                for k in 1..=n {
                    assert!(vti[k].len() <= width, "interval {k} has {} senders > l (m={m} r={r} l={l})", vti[k].len());
                    let ranges: BTreeSet<usize> = iv.senders(k).flat_map(|s| s.lo..=s.hi).collect();
                    assert_eq!(ranges, vti[k], "vti({k}) (m={m} r={r} l={l})");
                    for &i in &vti[k] {
                        let j = iv.reducer(i, k).unwrap();
                        assert_eq!(iv.itv(i, j), k);
                    }
                }
                if r <= width {
                    assert_eq!(n, m + r - 1, "plain pipeline when r ≤ l");
                }
            }
        }
    }
}

#[test]
fn largest_senders_match_brute_force() {
    let mut next = uniform(17);
    for m in 1..=8 {
        for r in 1..=9 {
            for l in 1..=5 {
                let iv = Intervals::new(m, r, l).unwrap();
                let x: Vec<f64> = (0..m).map(|_| next()).collect();
                let best = iv.largest_senders(&x);
                for (k, set) in brute_vti(&iv).iter().enumerate().skip(1) {
                    let want = set.iter().map(|&i| x[i - 1]).fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!(x[best[k - 1] - 1], want, "interval {k} (m={m} r={r} l={l})");
                }
                // The first intervals only (the chain's rounds read those before the last mapper).
                for last in [0, m.saturating_sub(1), m, iv.count()] {
                    let front = iv.largest_senders_to(&x, last);
                    assert_eq!(front, best[..last.min(best.len())], "first {last} (m={m} r={r} l={l})");
                }
            }
        }
    }
}

#[test]
fn single_reducer_closed_form_equals_the_lp() {
    // r = 1: vti(n) = {n}, every constraint tight; see single_reducer's derivation.
    for &(m, a, s, c, v) in &[
        (1usize, 1.0, 1.0, 0.5, 100.0),
        (4, 1.0, 1.0, 1.0, 100.0),
        (7, 2.0, 0.1, 0.3, 50.0),
        (30, 1e-5, 1.0, 1e-8, 1e15),
        (1000, 1.0000625e-5, 1.0, 1e-7, 1e15),
        (200, 1.0, 0.0, 1e-12, 1e3), // tiny c/A: the series branch
    ] {
        let p = Shuffle { intervals: Intervals::new(m, 1, 1).unwrap(), a: vec![a; m], s, c, v };
        let (alpha_1, alpha_m, t) = single_reducer(m, a, s, c, v);
        assert!(alpha_1 > 0.0 && alpha_m > 0.0);
        let opt = solve(&p).unwrap();
        assert!(close(opt.makespan(), t, CLOSED_RTOL), "m={m}: chain {} vs closed {t}", opt.makespan());
        assert!(close(opt.alpha[0], alpha_1, CLOSED_RTOL) && close(opt.alpha[m - 1], alpha_m, CLOSED_RTOL));
        assert!(close(makespan_of(&p, &opt.alpha), t, CLOSED_RTOL));
        if m <= 30 {
            let (lp, _) = lp_as_written(&p);
            assert!(close(lp, t, LP_RTOL), "m={m}: LP {lp} vs closed {t}");
        }
    }
}

#[test]
fn optimum_equals_the_lp_as_written_on_random_instances() {
    // Two independent methods: the chain method (or constraint generation
    // where its certificate fails) against microlp on the full LP (4)-(7).
    let mut next = uniform(12345);
    let (mut by_chain, mut by_general, mut by_bound, mut by_idle, mut by_plateau, mut by_level) = (0, 0, 0, 0, 0, 0);
    let mut by_tied = 0;
    for case in 0..300 {
        let m = 1 + (next() * 7.0) as usize;
        let r = 1 + (next() * 8.0) as usize;
        let l = 1 + (next() * 6.0) as usize;
        let hetero = next() < 0.3;
        let a: Vec<f64> = (0..m).map(|_| if hetero { 10f64.powf(next() - 0.5) } else { 1.0 }).collect();
        let s = 10f64.powf(next() * 4.5 - 3.0);
        let c = 10f64.powf(next() * 2.5 - 2.0);
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s, c, v: 100.0 };
        let ours = solve(&p).unwrap_or_else(|e| panic!("case {case}: {e}"));
        match ours.method {
            Method::Chain => by_chain += 1,
            Method::InteriorPoint { .. } => by_general += 1,
            Method::StartupBound => by_bound += 1,
            Method::IdleTail { .. } => by_idle += 1,
            Method::Plateau { .. } | Method::PlateauIdle { .. } | Method::PlateauDescent { .. } => by_plateau += 1,
            Method::CappedLevel { .. } | Method::CappedLevels { .. } | Method::ChainCappedFirst { .. } => by_level += 1,
            Method::ChainTiedFirst { .. } => by_tied += 1,
        }
        assert_lp_as_written(case, &p, &ours);
    }
    // Every path of the solver was exercised (the capped level's: in
    // capped_levels_equal_the_general_lp_on_random_lists).
    assert!(
        by_chain > 200 && by_general > 0 && by_bound > 0 && by_idle > 0 && by_plateau > 0,
        "chain {by_chain}, general LP {by_general}, start-up bound {by_bound}, idle tail {by_idle}, plateau {by_plateau}, capped level {by_level}, tied first {by_tied}"
    );
}

#[test]
fn chain_and_general_lp_agree_at_the_lecture_scale() {
    // Reference set at m = 100 (r = l = 100): C = 1e-6 beside V = 1e15 — the
    // scaled units keep the shuffle terms.
    let a = 1e-5 + 1e-2 / 16e6;
    let p = Shuffle {
        intervals: Intervals::new(100, 100, 100).unwrap(),
        a: vec![a; 100],
        s: 1.0,
        c: 0.1 * 1e-6 / 100.0,
        v: 1e15,
    };
    let fast = chain(&p).expect("the chain certificate holds at the reference set");
    let slow = general(&p).unwrap();
    assert!(close(fast.makespan(), slow.makespan(), GENERAL_RTOL), "{} vs {}", fast.makespan(), slow.makespan());
    // The shuffle tail is r sends of the last part: mS + (A + γC) α_m.
    let tail = 100.0 * 1.0 + (a + 0.1 * 1e-6) * fast.alpha[99];
    assert!(close(fast.makespan(), tail, 1e-12));
}

/// A shuffle only the general LP proves, as a form's values: 100 mappers
/// of random rates (0.5 to 1.5 × 10⁻⁵ s/B, the native tests' stream from
/// seed 5, to three digits), 40 reducers in two groups of 20. (With
/// identical mappers, the specialised methods now prove every shape drawn
/// but rare ones: the last used here, m = 109, r = 94, ℓ = 93, is a level
/// run between descents from the first mapper; mappers of two speeds in
/// turn, used here before, are a plateau of the fast ones with the slow
/// ones below it; seed 3's list, after them, the chain with mapper 1
/// capped.)
const GENERAL_ONLY: [(&str, &str); 7] = [
    ("mappers", "heterogeneous"),
    ("a_map_list", RANDOM_RATES),
    ("r", "40"),
    ("l", "20"),
    ("V", "1e10"),
    ("S", "5"),
    ("gamma", "0.5"),
];

#[test]
fn map_and_sweep_points_take_the_general_lp_only_within_their_budgets() {
    // GENERAL_ONLY, at more multiply-subtracts a step than a map point
    // allows: within the form's budget but beyond a map point's, which
    // refuses at once and names its limit.
    let inputs =
        isoperf::models::mapreduce::Inputs::new(&isoperf::models::mapreduce::SPEC.parse(&raw(&GENERAL_ONLY)).unwrap())
            .unwrap();
    let p = inputs.shuffle();
    assert_eq!(p.a.len(), 100);
    let form = solve_within(&p, Budget::FORM).unwrap();
    assert!(matches!(form.method, Method::InteriorPoint { .. }), "{:?}", form.method);
    assert_eq!(form, solve(&p).unwrap());
    match solve_within(&p, Budget::MAP_POINT) {
        Err(SolveError::TooLarge { work, limit }) => {
            assert_eq!(limit, Budget::MAP_POINT.general_work);
            assert!(work > limit && work < Budget::FORM.general_work, "{work}");
        }
        other => panic!("{other:?}"),
    }
    // The page's message names the field, the limit and why a map differs.
    let refused = isoperf::models::mapreduce::evaluate_within(&inputs, Budget::MAP_POINT).err().unwrap().to_string();
    assert!(
        refused.contains("at a point of a map or a sweep") && refused.contains("more than 20000 operations"),
        "{refused}"
    );
    let answered = isoperf::models::mapreduce::evaluate_within(&inputs, Budget::FORM).unwrap();
    assert!(close(answered.t_shuffle, form.makespan(), 1e-12));
    // Where a simpler form proves the optimum, every budget gives the same answer.
    let descent = descent_case(594, 12);
    let quick = solve_within(&descent, Budget::MAP_POINT).unwrap();
    assert!(matches!(quick.method, Method::PlateauDescent { .. }), "{:?}", quick.method);
    assert_eq!(quick, solve_within(&descent, Budget::FORM).unwrap());
}

/// The gaps of a speedup map over m and r with start-ups that outlast the
/// transfers (S = 100 s, C = 10⁻³ s/B, γ = 1, V = 1 MB: 46 of 64 × 64
/// points, m from 64 to 90): their general LPs are past a map point's
/// budget, and their parts are capped at one level, which a map's or a
/// sweep's point now takes where the general LP is refused. Each such
/// point gives the form's answer, bit for bit (a sweep's point the general
/// LP's where that is within its budget); a point whose capped level
/// would read past its budget is still refused.
#[test]
fn map_points_past_the_general_lps_budget_take_the_capped_level() {
    let mut levels = 0;
    for (m, r) in [(72, 334), (80, 1000), (90, 2154), (64, 10_000), (90, 10_000)] {
        let p = Shuffle {
            intervals: Intervals::new(m, r, 100).unwrap(),
            a: vec![1e-5 + 1e-2 / 16e6; m],
            s: 100.0,
            c: 1e-3 / r as f64,
            v: 1e6,
        };
        let form = solve(&p).unwrap();
        assert!(matches!(form.method, Method::CappedLevel { .. }), "m = {m}, r = {r}: {:?}", form.method);
        let point = solve_within(&p, Budget::MAP_POINT).unwrap();
        assert!(close(point.makespan(), form.makespan(), 2.0 * GENERAL_RTOL), "m = {m}, r = {r}: {:?}", point.method);
        if !matches!(point.method, Method::CappedLevel { .. }) {
            continue; // the general LP within the map's budget
        }
        levels += 1;
        assert_eq!(point, form, "m = {m}, r = {r}");
        let sweep = solve_within(&p, Budget::SWEEP_POINT).unwrap(); // the general LP where it is within
        assert!(close(sweep.makespan(), form.makespan(), 2.0 * GENERAL_RTOL), "m = {m}, r = {r}: {:?}", sweep.method);
        let tight = Budget { level_reads: 1e4, ..Budget::MAP_POINT };
        assert!(matches!(solve_within(&p, tight), Err(SolveError::TooLarge { .. })), "m = {m}, r = {r}");
    }
    assert!(levels >= 3, "{levels} map points took the capped level");
}

#[test]
fn reference_set_speedup_levels_off_near_r() {
    let sp = |m: &str| num(&eval(&[("m", m)]), "speedup");
    let (s100, s1000, s10000) = (sp("100"), sp("1000"), sp("10000"));
    assert!(s100 < s1000 && s1000 < s10000);
    // The last tenfold of m adds under 3%; the plateau is T_seq/t_red ≈ 1.4 r.
    assert!(s10000 / s1000 < 1.03, "{s1000} → {s10000}");
    let out = eval(&[]);
    let plateau = num(&out, "T_seq") / num(&out, "t_red");
    assert!(s10000 < plateau && s10000 > 0.98 * plateau);
    assert!((0.5..2.0).contains(&(s10000 / 100.0)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn schedule_length_grows_with_gamma_and_c(
        m in 1usize..40, r in 1usize..30, l in 1usize..30,
        log_c in -9.0f64..-4.0, gamma in 0.01f64..1.0, factor in 1.01f64..4.0,
    ) {
        let base = [("m", m.to_string()), ("r", r.to_string()), ("l", l.to_string()), ("C", format!("{}", 10f64.powf(log_c))), ("gamma", gamma.to_string())];
        let pairs = |changes: &[(&str, String)]| -> Vec<(String, String)> {
            base.iter().map(|(k, v)| (k.to_string(), changes.iter().find(|(c, _)| c == k).map_or(v.clone(), |(_, w)| w.clone()))).collect()
        };
        let t = |pairs: Vec<(String, String)>| {
            let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            num(&eval(&refs), "t_shuffle")
        };
        let t0 = t(pairs(&[]));
        let more_gamma = t(pairs(&[("gamma", (gamma * factor).to_string())]));
        let more_c = t(pairs(&[("C", format!("{}", 10f64.powf(log_c) * factor))]));
        prop_assert!(more_gamma >= t0 * (1.0 - 1e-12), "γ×{factor}: {t0} → {more_gamma}");
        prop_assert!(more_c >= t0 * (1.0 - 1e-12), "C×{factor}: {t0} → {more_c}");
    }
}

#[test]
fn heterogeneous_mappers_take_per_mapper_rates() {
    let out = eval(&[
        ("mappers", "heterogeneous"),
        ("a_map_list", "1, 1, 2, 2"),
        ("r", "4"),
        ("l", "2"),
        ("V", "100"),
        ("S", "1"),
        ("C", "1"),
        ("gamma", "1"),
        ("s_map", "0"),
        ("a_red", "0"),
        ("s_red", "0"),
    ]);
    let OutValue::Array(alpha) = out.0.iter().find(|(k, _)| *k == "alpha").unwrap().1.clone() else { panic!() };
    assert_eq!(alpha.len(), 4);
    let p =
        Shuffle { intervals: Intervals::new(4, 4, 2).unwrap(), a: vec![1.0, 1.0, 2.0, 2.0], s: 1.0, c: 0.25, v: 100.0 };
    let (lp, _) = lp_as_written(&p);
    assert!(close(num(&out, "t_shuffle"), lp, LP_RTOL));
    // The slow mappers get less than the fast ones before them would.
    assert!(alpha[2] < alpha[1] * 1.25);
}

#[test]
fn bad_input_names_the_field_and_the_valid_range() {
    let err = |pairs: &[(&str, &str)]| api::evaluate("mapreduce", &raw(pairs)).unwrap_err().to_string();
    for (pairs, key, valid) in [
        (vec![("m", "0")], "m", "1 ≤ value ≤ 1e5"),
        (vec![("m", "2.5")], "m", "integer"),
        (vec![("r", "-1")], "r", "1 ≤ value"),
        (vec![("l", "0")], "l", "1 ≤ value"),
        (vec![("gamma", "0")], "gamma", "0 < value"),
        (vec![("V", "-5")], "V", "0 < value"),
        (vec![("lu", "0")], "lu", "0 < value"),
        (vec![("a_red", "-1e-5")], "a_red", "0 ≤ value"),
        (vec![("C", "NaN")], "C", "NaN"),
        (vec![("S", "")], "S", "no value"),
        (vec![("V", "10"), ("r", "100")], "V", "V ≥ r/γ"),
        (vec![("m", "100000"), ("r", "100000"), ("l", "1")], "r", "give 10000000000 shuffle intervals"),
        // N = 65536 · 65537 wraps to 65536 in 32 bits; counted in 64 it is refused.
        (vec![("m", "65536"), ("r", "65537"), ("l", "1")], "r", "give 4295032832 shuffle intervals"),
        // Issue 13: s_map/lu overflowed to ∞ and the solver's own words reached the user.
        (vec![("m", "4"), ("r", "4"), ("l", "2"), ("V", "100"), ("lu", "5e-324")], "lu", "a larger load unit lu"),
        // Issue 13 (fuzzing): rates 10²⁹¹ apart sent the simplex into seconds of
        // work and then its internals ("dual simplex: no var can repair row 14")
        // reached the user; now refused at once, at the rate.
        (vec![("m", "8"), ("a_map", "1e-300"), ("s_map", "0")], "a_map", "within about 10¹⁵ of each other"),
        (
            vec![("m", "2"), ("a_map", "1e-300"), ("s_map", "0"), ("r", "312")],
            "a_map",
            "differ by a factor of 3.2 × 10²⁹⁰",
        ),
    ] {
        let e = err(&pairs);
        assert!(e.starts_with(&format!("{key}:")), "{pairs:?}: {e}");
        assert!(e.contains(valid), "{pairs:?}: {e}");
        for internal in ["simplex:", "row ", "basic var", "variable ", "objective coefficient", "time limit"] {
            assert!(!e.contains(internal), "{pairs:?}: a solver's internals reach the user: {e}");
        }
    }
}

/// Issue 16: rates 10²⁰ apart (mapping all but free, sends slow, no
/// start-up) were refused as beyond double precision. The chain, solved
/// from the last mapper back, answers with its certificate: every interval
/// before the last mapper is all but empty, so the last mapper takes the
/// load and sends it to each of the r reducers in turn, t_{N+1} = γCV.
#[test]
fn rates_far_apart_are_answered_with_their_certificate() {
    let out = evaluate(
        "mapreduce",
        &[("m", "64"), ("a_map", "1e-15"), ("s_map", "0"), ("r", "312"), ("C", "1e9"), ("S", "0")],
    );
    let (gamma, c, v) = (0.1, 1e9, 1e15);
    assert!(close(num(&out, "t_shuffle"), gamma * c * v, LP_RTOL), "{}", num(&out, "t_shuffle"));
}

#[test]
fn lecture_observations_read_the_curves() {
    let chart = api::chart("mapreduce", "speedup-m-r", &RawParams::new()).unwrap();
    let note = chart.note.clone().unwrap();
    assert!(note.contains("levels off") && note.contains("Speedup grows with r"), "{note}");
    // The numbers quoted are those of the curves at m = 10000.
    let last = |s: usize| chart.series[s].points.last().unwrap().1;
    assert!(
        note.contains(&isoperf::format::sig(last(0), 3)) && note.contains(&isoperf::format::sig(last(4), 3)),
        "{note}"
    );
    assert!(last(0) < last(2) && last(2) < last(4));

    let chart = api::chart("mapreduce", "speedup-m-gamma", &RawParams::new()).unwrap();
    let note = chart.note.unwrap();
    // From m = r = 100 exactly (the grid has no point there) to m = 10000.
    let gain = |s: usize| {
        let gamma = ["1", "0.1", "0.01", "0.001"][s];
        let at_r = num(&eval(&[("gamma", gamma), ("m", "100")]), "speedup");
        chart.series[s].points.last().unwrap().1 / at_r
    };
    // γ = 0.001 gains more from m ≫ r than γ = 1.
    assert!(gain(3) > 1.5 * gain(0), "{} vs {}", gain(3), gain(0));
    assert!(note.contains(&isoperf::format::sig(gain(3), 3)), "{note}");

    // ℓ 50 → 100 and C / 2 both shorten the shuffle (γ = 1 in this sweep).
    let chart = api::chart("mapreduce", "shuffle-m-l", &RawParams::new()).unwrap();
    let note = chart.note.unwrap();
    assert!(note.contains("wider bisection"), "{note}");
    let at_1000 = |s: usize| {
        chart.series[s].points.iter().min_by(|a, b| (a.0 - 1000.0).abs().total_cmp(&(b.0 - 1000.0).abs())).unwrap().1
    };
    assert!(at_1000(3) < at_1000(2) && at_1000(2) < at_1000(1) && at_1000(1) < at_1000(0));
    let t = |pairs: &[(&str, &str)]| num(&eval(pairs), "t_shuffle");
    let (narrow, wide, faster) =
        (t(&[("gamma", "1"), ("l", "50")]), t(&[("gamma", "1")]), t(&[("gamma", "1"), ("l", "50"), ("C", "5e-7")]));
    assert!(wide < narrow && faster < narrow);
    for x in [narrow, wide, faster] {
        assert!(note.contains(&isoperf::format::sig(x, 3)), "{note} lacks {x}");
    }
}

#[test]
fn gantt_and_tables_for_small_and_large_schedules() {
    let small = raw(&[
        ("m", "4"),
        ("r", "4"),
        ("l", "2"),
        ("V", "100"),
        ("a_map", "1"),
        ("s_map", "0"),
        ("C", "1"),
        ("gamma", "1"),
    ]);
    let g = api::chart("mapreduce", "gantt", &small).unwrap();
    // Four sends per mapper in distinct intervals stay separate bars.
    let sending = g.series.iter().find(|s| s.name.starts_with("sending")).unwrap();
    assert_eq!(sending.spans.len(), 16);
    let big = api::chart("mapreduce", "gantt", &RawParams::new()).unwrap();
    assert!(big.title.contains("8 of 1000 mappers"), "{}", big.title);
    let spans: usize = big.series.iter().map(|s| s.spans.len()).sum();
    assert!(spans < 400, "m = 1000 is summarised: {spans} bars");
    let tables = api::tables("mapreduce", &RawParams::new()).unwrap();
    let repro = tables.iter().find(|t| t.id == "reproduction").unwrap();
    assert!(repro.rows.iter().all(|r| r.status == isoperf::table::Status::Agrees));
}

#[test]
fn observations_say_what_the_curves_show_outside_the_lecture_regime() {
    // The 4 × 4 example's system (V = 100, S = 1): extra mappers cost more
    // start-up than they save, and γ = 0.01 gives reducers under one unit.
    let example = raw(&[
        ("m", "4"),
        ("r", "4"),
        ("l", "2"),
        ("V", "100"),
        ("C", "1"),
        ("gamma", "1"),
        ("a_map", "1"),
        ("s_map", "0"),
        ("a_red", "0"),
        ("s_red", "0"),
    ]);
    let chart = api::chart("mapreduce", "speedup-m-r", &example).unwrap();
    let note = chart.note.unwrap();
    assert!(note.contains("does not level off") && !note.contains("levels off:"), "{note}");
    // Every curve that exists peaks inside the range.
    for s in chart.series.iter().filter(|s| s.style == isoperf::chart::Style::Line && s.points.len() > 2) {
        let peak = s.points.iter().map(|p| p.1).fold(0.0, f64::max);
        assert!(s.points.last().unwrap().1 < 0.5 * peak, "{}", s.name);
    }
    assert!(note.contains("No curve for r = ℓ = 200") && note.contains("V ≥ r/γ"), "{note}");
    let note = api::chart("mapreduce", "speedup-m-gamma", &example).unwrap().note.unwrap();
    assert!(note.contains("No curve for γ = 0.01, 0.001"), "{note}");
    assert!(!note.contains("NaN"));
}

#[test]
fn sweeps_over_m_are_refused_for_a_per_mapper_list() {
    // m is not used with heterogeneous mappers: a flat curve would mislead.
    let hetero =
        raw(&[("mappers", "heterogeneous"), ("a_map_list", "1, 1, 2, 2"), ("r", "4"), ("l", "2"), ("V", "100")]);
    for sweep in ["speedup-m-r", "speedup-m-gamma", "shuffle-m-l"] {
        let e = api::chart("mapreduce", sweep, &hetero).unwrap_err().to_string();
        assert!(e.starts_with("m:") && e.contains("mappers = identical"), "{sweep}: {e}");
        assert!(api::sweep_series("mapreduce", sweep, &hetero, 0).is_err());
    }
    // The schedule chart still draws.
    assert!(api::chart("mapreduce", "gantt", &hetero).is_ok());
}

/// The page's quick report (what it calls on every keystroke) evaluates a
/// shuffle only where the chain method over at most QUICK_INTERVALS
/// intervals solves it; else it says `deferred` (the page's report worker
/// then runs the full report), refusing at once what the general LP would
/// refuse. Where it evaluates, it is the full report, value for value.
#[test]
fn quick_reports_leave_long_shuffles_to_a_worker() {
    use isoperf::api::Session;
    use isoperf::models::mapreduce::schedule::{solve_quick, QUICK_INTERVALS};
    let quick = |pairs: &[(&str, &str)]| Session::default().quick_report("mapreduce", &raw(pairs)).unwrap();
    let full = |pairs: &[(&str, &str)]| Session::default().report("mapreduce", &raw(pairs)).unwrap();

    // The reference set (N = 1099, the chain method): quick, and the same report.
    for pairs in [
        &[][..],
        &[("m", "10"), ("r", "4"), ("l", "2")],
        &[("mappers", "heterogeneous"), ("a_map_list", "1e-8, 2e-8, 4e-8"), ("r", "4"), ("l", "4")],
    ] {
        let (q, f) = (quick(pairs), full(pairs));
        assert!(!q.deferred, "{pairs:?}");
        assert_eq!(serde_json::to_value(&q).unwrap(), serde_json::to_value(&f).unwrap(), "{pairs:?}");
    }

    // More intervals than QUICK_INTERVALS (m·⌈r/ℓ⌉ + ℓ − 1 = 1 000 009): deferred, no problems, the fields' states all there.
    let big = [("m", "10000"), ("r", "1000"), ("l", "10")];
    assert!(Intervals::new(10000, 1000, 10).unwrap().count() > QUICK_INTERVALS);
    let q = quick(&big);
    assert!(q.deferred && q.problems.is_empty() && q.outputs.is_none() && q.tables.is_none());
    assert_eq!(q.changed, vec!["m", "r", "l"]);
    assert_eq!(q.fields.len(), isoperf::api::specs().iter().find(|s| s.id == "mapreduce").unwrap().params.len());
    let f = full(&big);
    assert!(!f.deferred && f.outputs.is_some(), "the full report evaluates it: {:?}", f.problems);

    // Start-ups outlasting transfers (S = 10⁹ s, 40 mappers, one reducer):
    // the chain form fails, the load fits before the start-up bound mS,
    // and the quick report answers at once.
    let bound_case = [("m", "40"), ("S", "1e9"), ("r", "1"), ("l", "1")];
    let q = quick(&bound_case);
    assert!(!q.deferred && q.outputs.is_some(), "{:?}", q.problems);
    assert!(q.remarks.iter().any(|r| r.text.contains("start-up bound")), "{:?}", q.remarks);
    // Mappers of random rates, a shuffle none of the specialised methods
    // certifies: the general LP solves it, so the quick report defers.
    assert!(quick(&GENERAL_ONLY).deferred);
    let f = full(&GENERAL_ONLY);
    assert!(f.outputs.is_some(), "{:?}", f.problems);
    assert!(f.remarks.iter().any(|r| r.text.contains("the general LP")), "{:?}", f.remarks);

    // What the general LP refuses at once (rates beyond double precision of
    // each other) is refused by the quick report too, at its field.
    let refused = [("m", "8"), ("a_map", "1e-300"), ("s_map", "0"), ("r", "312")];
    let (q, f) = (quick(&refused), full(&refused));
    assert!(!q.deferred);
    assert_eq!(q.problems, f.problems);
    assert_eq!(q.problems[0].key, "a_map");

    // Invalid fields never wait for a worker.
    let q = quick(&[("m", "0"), ("r", "1000"), ("l", "10")]);
    assert!(!q.deferred && q.problems.iter().any(|p| p.key == "m"));

    // The solver's own quick path: exactly the chain method, or nothing.
    let a = 1e-5 + 1e-2 / 16e6;
    let p = Shuffle {
        intervals: Intervals::new(8, 10, 2).unwrap(),
        a: vec![a; 8],
        s: 6.582915368489921,
        c: 0.006673898720672668 * 1e-6 / 10.0,
        v: 5771185.7108901655,
    };
    assert!(chain(&p).is_none() && solve_quick(&p).is_none());
    assert_eq!(solve_quick(&example()), Some(solve(&example())));
}

/// Where start-ups outlast transfers the chain form fails; the general LP
/// (the interior-point method on the compact form, with its dual bound)
/// equals the LP as written, solved by another solver on another
/// formulation, on 120 random start-up-bound instances, per-mapper rates
/// among them; and the lecture-scale case that took the old simplex 46
/// rounds of constraint generation (m = 100, S = 10⁸) meets every
/// constraint, with the makespan its parts imply.
#[test]
fn general_lp_equals_the_lp_as_written() {
    let mut next = uniform(777);
    let mut needed = 0;
    for case in 0..120 {
        let m = 2 + (next() * 24.0) as usize;
        let r = 1 + (next() * 5.0) as usize;
        let l = 1 + (next() * r as f64) as usize;
        let a: Vec<f64> = (0..m).map(|_| if next() < 0.3 { 10f64.powf(next() - 0.5) } else { 1.0 }).collect();
        // Start-ups from 1/10 of a mapper's whole-load time to 10 times it.
        let s = 100.0 * 10f64.powf(next() * 2.0 - 1.0);
        let c = 10f64.powf(next() * 2.0 - 2.0);
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s, c, v: 100.0 };
        let ours = general(&p).unwrap_or_else(|e| panic!("case {case}: {e}"));
        if chain(&p).is_none() {
            needed += 1;
        }
        let direct = makespan_of(&p, &ours.alpha);
        assert!(close(direct, ours.makespan(), 1e-9), "case {case}: reported {} vs implied {direct}", ours.makespan());
        let (lp, _) = lp_as_written(&p);
        assert!(close(ours.makespan(), lp, LP_RTOL), "case {case} {p:?}: ours {} vs LP {lp}", ours.makespan());
    }
    assert!(needed >= 30, "only {needed} instances where the chain form fails");

    let a = 1e-5 + 1e-2 / 16e6;
    let p = Shuffle { intervals: Intervals::new(100, 100, 100).unwrap(), a: vec![a; 100], s: 1e8, c: 1e-9, v: 1e15 };
    assert!(chain(&p).is_none());
    let ours = general(&p).unwrap();
    assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9));
    // Start-up bound: the last map ends at m·S (every mapper's part is mapped before its successor starts).
    assert!(ours.t[99] >= 100.0 * 1e8 * (1.0 - 1e-9), "t_m = {}", ours.t[99]);
}

/// Heterogeneous mappers in random order, where the chain's and the shaped
/// methods' certificates often fail and the general LP answers (4 of them;
/// more before the capped level's dual followed runs of mappers that top
/// windows of their own): every one of 80 random lists across the regimes (m up to 150, S from 0) is
/// answered, meets every constraint of the LP as written and, where small,
/// equals microlp on it.
#[test]
fn random_per_mapper_lists_are_answered() {
    let mut next = uniform(16_2026);
    let (mut compared, mut by_general) = (0, 0);
    for case in 0..80 {
        let m = 2 + (next() * 148.0) as usize;
        let r = 1 + (next() * next() * 300.0) as usize;
        let l = 1 + (next() * r as f64) as usize;
        let v = 10f64.powf(next() * 15.0);
        let s = if next() < 0.1 { 0.0 } else { 10f64.powf(next() * 4.0 - 3.0) };
        let gamma = 10f64.powf(-3.0 * next());
        let a: Vec<f64> = (0..m).map(|_| 1e-5 * (0.5 + next()) + 1e-2 / 16e6).collect();
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s, c: gamma * 1e-6 / r as f64, v };
        let ours = solve(&p).unwrap_or_else(|e| panic!("case {case} {p:?} refused: {e}"));
        by_general += usize::from(matches!(ours.method, Method::InteriorPoint { .. }));
        let direct = makespan_of(&p, &ours.alpha);
        assert!(close(direct, ours.makespan(), 1e-9), "case {case}: reported {} vs implied {direct}", ours.makespan());
        if m <= 30 && p.intervals.count() <= 120 && s > 0.0 {
            let scaled = Shuffle { a: p.a.iter().map(|a| a / s).collect(), s: 1.0, c: p.c / s, ..p.clone() };
            let (lp, _) = lp_as_written(&scaled);
            assert!(close(ours.makespan(), lp * s, LP_RTOL), "case {case}: ours {} vs LP {}", ours.makespan(), lp * s);
            compared += 1;
        }
    }
    assert!(
        compared >= 5 && by_general >= 3,
        "{compared} compared with the LP as written, {by_general} by the general LP"
    );
}

/// Parts capped at one level (random lists whose start-ups outlast the
/// transfers, windows of 40 to 150 mappers): wherever the method proves
/// its schedule, the schedule equals the general LP's optimum (the
/// interior-point method on the compact form, proved by its own dual
/// bound) to both proofs' tolerance, and its parts imply the length it
/// reports; it proves most of these lists, and the form's solve takes it
/// before the general LP.
#[test]
fn capped_levels_equal_the_general_lp_on_random_lists() {
    let mut next = uniform(28_2026);
    let (mut proved, mut cases) = (0, 0);
    for case in 0..16 {
        let m = 150 + (next() * 250.0) as usize;
        let l = 40 + (next() * 110.0) as usize;
        let r = l + (next() * 2.0 * l as f64) as usize;
        let v = 10f64.powf(8.0 + next());
        let s = 0.5 + next();
        let speeds = 1 + (next() * 3.0) as usize; // one to three speeds, or uniform
        let a: Vec<f64> = (0..m)
            .map(|_| {
                let u = next();
                let rate = if speeds == 1 { 0.5 + u } else { 1.0 + (u * speeds as f64).floor() / speeds as f64 };
                1e-5 * rate + 1e-2 / 16e6
            })
            .collect();
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s, c: 0.1 * 1e-6 / r as f64, v };
        cases += 1;
        let Some(level) = capped_level(&p) else { continue };
        proved += 1;
        let Method::CappedLevel { capped } = level.method else { panic!("{:?}", level.method) };
        assert!(capped >= 1 && capped < m, "case {case}: {capped} capped of {m}");
        implied_and_general_lp_agree(&format!("case {case}"), &p, &level);
        assert_eq!(solve(&p).unwrap().method, level.method, "case {case}");
    }
    assert!(proved >= cases / 2, "the capped level proved {proved} of {cases}");
}

/// A plateau with mappers below it (lists of two or three speeds whose map
/// time outweighs the start-ups): the fastest mappers at the front take
/// equal parts, the slower ones between them finish as late as the next
/// one allows, and the chain follows. Each equals the general LP's optimum
/// (the interior-point method on the compact form, proved by its own dual
/// bound; before, only it solved these), and its parts imply the length it
/// reports, and the search for the best first mappers finds what brute
/// force finds. Mappers of two speeds in turn (100, r = 40, ℓ = 20, V = 10¹⁰,
/// S = 5 s, γ = 0.5); random lists of 500 (1 or 2, and 1, 1.5 or 2 × 10⁻⁵
/// s/B, r = 250, ℓ = 100, V = 10¹⁰, S = 1 s, γC = 10⁻⁷ s/B).
#[test]
fn plateaus_over_slower_mappers_equal_the_general_lp() {
    use isoperf::models::mapreduce::mappers::{best_prefix, prefix_lower_bounds, MapperSearch, SEARCH_INTERVALS};
    let in_turn: Vec<f64> = (0..100).map(|i| if i % 2 == 0 { 1e-5 } else { 2e-5 } + 1e-2 / 16e6).collect();
    let cases = [
        (in_turn, 40, 20, 5.0, 0.5 * 1e-6 / 40.0, 3),
        (speed_rates(500, 2.0, 3), 250, 100, 1.0, 0.1e-6 / 250.0, 4),
        (speed_rates(500, 3.0, 3), 250, 100, 1.0, 0.1e-6 / 250.0, 13),
    ];
    for (a, r, l, s, c, length) in cases {
        let m = a.len();
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s, c, v: 1e10 };
        let solved = solve(&p).unwrap();
        let Method::Plateau { plateau, below } = solved.method else { panic!("m = {m}: {:?}", solved.method) };
        assert_eq!(plateau, length, "m = {m}");
        let height = solved.alpha[length - 1];
        let under = solved.alpha[..length].iter().filter(|&&x| x < height * (1.0 - 1e-9)).count();
        assert!(below >= 1 && under == below, "m = {m}: {below} mappers below the plateau, {under} parts below it");
        let direct = makespan_of(&p, &solved.alpha);
        assert!(close(direct, solved.makespan(), 1e-9), "m = {m}: reported {} vs implied {direct}", solved.makespan());
        let lp = interior_point_whole(&p, Budget::FORM.general_work).unwrap();
        assert!(
            close(solved.makespan(), lp.makespan(), 2.0 * GENERAL_RTOL),
            "m = {m}: plateau {} vs general LP {}",
            solved.makespan(),
            lp.makespan()
        );
        // The best first mappers: the counts near m are plateaus over
        // slower mappers too (before, past the search's budget for the
        // general LP at m = 500: not shown). Brute force over every count
        // its lower bound leaves.
        let search = best_prefix(&p, solved.makespan(), SEARCH_INTERVALS);
        let MapperSearch::Best { m: best, t_shuffle } = search else { panic!("m = {m}: {search:?}") };
        let bounds = prefix_lower_bounds(&p.a, r, l, s, c, p.v);
        let mut all = vec![(m, solved.makespan())];
        for k in 1..m {
            if bounds[k - 1] <= solved.makespan() {
                let prefix = Shuffle { intervals: Intervals::new(k, r, l).unwrap(), a: p.a[..k].to_vec(), ..p.clone() };
                all.push((k, solve(&prefix).unwrap().makespan()));
            }
        }
        let shortest = all.iter().map(|&(_, t)| t).fold(f64::INFINITY, f64::min);
        let brute = all.iter().filter(|&&(_, t)| t <= shortest * (1.0 + 1e-12)).map(|&(k, _)| k).min().unwrap();
        assert_eq!(best, brute, "m = {m}");
        assert!(close(t_shuffle, shortest, 1e-12), "m = {m}: {t_shuffle} vs {shortest}");
    }
}

/// The random list of `seed` of `speeds` speeds: `m` rates evenly spaced
/// from 1 to 2 × 10⁻⁵ s/B in random order (drawn by [`uniform`]), each
/// with the default s_map/lu.
fn speed_rates(m: usize, speeds: f64, seed: u64) -> Vec<f64> {
    let mut next = uniform(seed);
    (0..m).map(|_| 1e-5 * (1.0 + (next() * speeds).floor() / (speeds - 1.0)) + 1e-2 / 16e6).collect()
}

/// HiGHS on the LP as written for the first 1646 mappers of the random
/// two-speed list of seed 3 (1 or 2 × 10⁻⁵ s/B, the stream of
/// [`plateaus_over_slower_mappers_equal_the_general_lp`]), r = 250,
/// ℓ = 100, V = 10¹¹, S = 1 s, γC = 10⁻⁷ s/B (411 500 rows, 272 s).
const HIGHS_TWO_SPEEDS_1646: f64 = 1770.42289810557;

/// That shuffle is a plateau of 13 over slower mappers: its fast mappers
/// 1, 2, 4, 6, 8 and 13 take equal parts, the 7 between them fall below.
/// The plateau's search galloped past it (8 too short, 16 passed by
/// mapper 17, 17 too long) and the general LP took 4 s; it now tries the
/// lengths it stepped over after the last one too short, one by one.
#[test]
fn a_plateau_the_search_stepped_over_is_found_one_length_at_a_time() {
    let a = speed_rates(1646, 2.0, 3);
    let p = Shuffle { intervals: Intervals::new(1646, 250, 100).unwrap(), a, s: 1.0, c: 0.1e-6 / 250.0, v: 1e11 };
    let solved = solve(&p).unwrap();
    assert_eq!(solved.method, Method::Plateau { plateau: 13, below: 7 });
    let level = solved.alpha[12];
    let on: Vec<usize> = (1..=13).filter(|&k| close(solved.alpha[k - 1], level, 1e-9)).collect();
    assert_eq!(on, [1, 2, 4, 6, 8, 13]);
    let direct = makespan_of(&p, &solved.alpha);
    assert!(close(direct, solved.makespan(), 1e-9), "reported {} vs implied {direct}", solved.makespan());
    assert!(
        close(solved.makespan(), HIGHS_TWO_SPEEDS_1646, GENERAL_RTOL),
        "{} vs HiGHS {HIGHS_TWO_SPEEDS_1646}",
        solved.makespan()
    );
}

/// Random lists of 500 rates (r = 250, ℓ = 100, S = 1 s, γC = 10⁻⁷ s/B,
/// V = 10¹⁰ B) whose optimum caps the parts at levels rising along the
/// first mappers: the first ℓ intervals' windows hold only the first
/// mappers, so lower levels there keep those windows' largest parts low.
/// Until now only the general LP solved these (0.4 s natively for seed 3).
/// The levels are read back from the parts (the running maximum of the
/// first ℓ parts rises through them to the top part), and the answer is
/// the general LP's to its tolerance.
/// Seeds of [`common::random_rates`] whose 500-lists take levels rising
/// along the first mappers with V = 10¹⁰ (4 of the first 12 seeds: 3, 5,
/// 8 and 12).
const STAIRCASE_SEEDS: [u64; 2] = [3, 5];

#[test]
fn capped_levels_rising_along_the_first_mappers_equal_the_general_lp() {
    for seed in STAIRCASE_SEEDS {
        let (r, l) = (250, 100);
        let p = Shuffle {
            intervals: Intervals::new(500, r, l).unwrap(),
            a: common::random_rates(500, seed),
            s: 1.0,
            c: 0.1e-6 / r as f64,
            v: 1e10,
        };
        let solved = solve(&p).unwrap();
        let Method::CappedLevels { capped, levels, .. } = solved.method else {
            panic!("seed {seed}: {:?}", solved.method)
        };
        assert!(levels >= 2 && capped >= levels, "seed {seed}: {levels} levels, {capped} capped");
        // The running maximum over the first ℓ parts rises through every
        // level (and where a mapper below the next level passes the one
        // before, through its part too), to the top part.
        let mut highest = 0.0f64;
        let mut heights = 0;
        for &x in &solved.alpha[..l] {
            if x > highest * (1.0 + 1e-9) {
                highest = x;
                heights += 1;
            }
        }
        let top = solved.alpha.iter().copied().fold(0.0, f64::max);
        assert!(close(highest, top, 1e-9), "seed {seed}: the top part {top} is not among the first {l}");
        assert!(heights >= levels, "seed {seed}: {heights} heights among the first {l} parts, {levels} levels");
        implied_and_general_lp_agree(&format!("seed {seed}"), &p, &solved);
    }
    // The seed-3 list with three times the load: no top level, the chain
    // to the last mapper with mapper 1 held at the part of a later mapper
    // whose interval is tight (the general LP's before, 0.42 s natively).
    let r = 250;
    let p = Shuffle {
        intervals: Intervals::new(500, r, 100).unwrap(),
        a: common::random_rates(500, 3),
        s: 1.0,
        c: 0.1e-6 / r as f64,
        v: 3e10,
    };
    let solved = solve(&p).unwrap();
    let Method::ChainCappedFirst { capped, levels } = solved.method else { panic!("{:?}", solved.method) };
    assert_eq!((capped, levels), (2, 1));
    let held = solved.alpha[0];
    let ties = solved.alpha.iter().filter(|&&x| close(x, held, 1e-9)).count();
    assert!(ties >= 2 && solved.alpha.iter().any(|&x| x > held * (1.0 + 1e-6)), "mapper 1's part ties {ties}");
    implied_and_general_lp_agree("V = 3e10", &p, &solved);
}

/// The seed-3 list of 500 mappers, r = 250, ℓ = 100, with ten times the
/// load of the staircase's: the chain alone leaves mapper 1's part below
/// mapper 455's, and the optimum raises it to that part (interval 1 slack):
/// the two share the largest part of the windows that wrap around from the
/// last mappers to the first. The general LP's before (0.5 s natively);
/// from m' = 475 on, every count of the list has this shape, and the search
/// for the best count, stuck at m' = 498 before, proves m_best = 500.
#[test]
fn the_chain_with_its_first_mapper_tied_to_a_later_one_equals_the_general_lp() {
    use isoperf::models::mapreduce::mappers::{best_prefix, prefix_lower_bounds, MapperSearch, SEARCH_INTERVALS};
    let (r, l, v) = (250, 100, 1e11);
    let prefix = |k: usize| seed_3_prefix(k, r, l, v);
    for k in [480, 500] {
        let p = prefix(k);
        let solved = solve(&p).unwrap();
        assert_eq!(solved.method, Method::ChainTiedFirst { partner: 455 }, "m' = {k}");
        let (x1, x455) = (solved.alpha[0], solved.alpha[454]);
        assert!(close(x1, x455, 1e-9), "m' = {k}: α_1 = {x1}, α_455 = {x455}");
        // Interval 1 is slack: t_2 − t_1 exceeds mapper 1's send by seconds.
        let slack = solved.t[1] - solved.t[0] - p.c * x1;
        assert!(slack > 1.0, "m' = {k}: interval 1's slack {slack} s");
        implied_and_general_lp_agree(&format!("m' = {k}"), &p, &solved);
    }
    let t_all = solve(&prefix(500)).unwrap().makespan();
    let MapperSearch::Best { m: best, t_shuffle } = best_prefix(&prefix(500), t_all, SEARCH_INTERVALS) else {
        panic!("the search is unproven")
    };
    // Against every count whose lower bound does not rule it out, solved alone.
    let bounds = prefix_lower_bounds(&random_rates(500, 3), r, l, 1.0, 0.1e-6 / r as f64, v);
    let open: Vec<usize> = (1..=500).filter(|&k| bounds[k - 1] <= t_all).collect();
    assert!(open.len() >= 20 && open.len() < 100, "{} counts not ruled out by their bound", open.len());
    let (brute, low) = open
        .iter()
        .map(|&k| (k, solve(&prefix(k)).unwrap().makespan()))
        .fold((0, f64::INFINITY), |b, (k, t)| if t < b.1 { (k, t) } else { b });
    assert_eq!((best, brute), (500, 500));
    assert!(close(t_shuffle, low, 1e-12), "{t_shuffle} vs {low}");
}

/// In a list's search for its best count, a count the general LP solves
/// tells the next where its levels are: the pins read off its schedule
/// prove the seed-3 list's first 499 mappers (V = 10¹⁰, levels rising
/// along the first mappers) in one level's search, the same schedule the
/// search over pins finds reading several times as much.
#[test]
fn levels_read_off_a_general_lp_schedule_prove_the_next_count_at_their_pins() {
    use isoperf::models::mapreduce::levels::{capped_levels, capped_levels_near, work, LevelsNear};
    let whole = seed_3_prefix(500, 250, 100, 1e10);
    let lp = interior_point_whole(&whole, Budget::FORM.general_work).unwrap();
    let mut near = LevelsNear::default();
    near.learn(&whole, &lp);
    let next = seed_3_prefix(499, 250, 100, 1e10);
    let before = work();
    let at_pins = capped_levels_near(&next, &mut near).unwrap();
    let read_at_pins = work() - before;
    let before = work();
    let searched = capped_levels(&next).unwrap();
    let read_searching = work() - before;
    assert!(matches!(at_pins.method, Method::CappedLevels { levels, .. } if levels >= 2), "{:?}", at_pins.method);
    assert_eq!(at_pins.method, searched.method);
    assert!(close(at_pins.makespan(), searched.makespan(), 1e-12), "{} vs {}", at_pins.makespan(), searched.makespan());
    assert!(
        read_at_pins * 3.0 < read_searching,
        "{read_at_pins} reads at the pins read off, {read_searching} searching"
    );
}

/// The first `k` mappers of the uniform random list of seed 3
/// ([`random_rates`]: the first k of any length) with `r` reducers, width
/// `l`, load `v`, S = 1 s and γC = 10⁻⁷ s/B.
fn seed_3_prefix(k: usize, r: usize, l: usize, v: f64) -> Shuffle {
    Shuffle { intervals: Intervals::new(k, r, l).unwrap(), a: random_rates(k, 3), s: 1.0, c: 0.1e-6 / r as f64, v }
}

/// A solution's reported length is the one its parts imply (to 10⁻⁹), and
/// the general LP's (to twice its tolerance).
fn implied_and_general_lp_agree(case: &str, p: &Shuffle, solved: &Solution) {
    let direct = makespan_of(p, &solved.alpha);
    assert!(close(direct, solved.makespan(), 1e-9), "{case}: reported {} vs implied {direct}", solved.makespan());
    let lp = interior_point_whole(p, Budget::FORM.general_work).unwrap();
    assert!(
        close(solved.makespan(), lp.makespan(), 2.0 * GENERAL_RTOL),
        "{case}: {:?} {} vs general LP {}",
        solved.method,
        solved.makespan(),
        lp.makespan()
    );
}

/// The general LP on a random list of 1452 mappers without start-ups
/// (S = 0), which the chain also proves: its dual bound over the box of
/// every part of a unit load fell short of its schedule by 2.0 × 10⁻⁹ and
/// the answer was refused (as on one in three such lists, and on two of
/// 115 random lists that only the general LP solves); over the box the
/// schedule's own length gives (each finishing time jS + A_j x_j at most
/// that length), it proves it, and the two exact answers agree.
#[test]
fn the_general_lp_proves_a_random_list_without_start_ups() {
    let mut next = uniform(5);
    let a: Vec<f64> = (0..1452).map(|_| 1e-5 * (0.5 + next())).collect();
    let p =
        Shuffle { intervals: Intervals::new(1452, 27, 15).unwrap(), a, s: 0.0, c: 1.889e-2 * 1e-6 / 27.0, v: 1.269e10 };
    let by_chain = solve(&p).unwrap();
    assert_eq!(by_chain.method, Method::Chain);
    let ours = general(&p).unwrap();
    assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9));
    assert!(
        close(ours.makespan(), by_chain.makespan(), GENERAL_RTOL),
        "{} vs the chain's {}",
        ours.makespan(),
        by_chain.makespan()
    );
}

/// The general LP on random lists that the chain proves with its own
/// certificate, rates uniform in 0.5 to 1.5 × 10⁻⁵ s/B or of two speeds,
/// 0.5 or 1.5 × 10⁻⁵ s/B, each with the default s_map/lu; S = 1 s, γC =
/// 10⁻⁷ s/B. The first two (1000 mappers, one and three reducer groups)
/// were refused solved to 10⁻¹² (the dual bound 1.4 and 1.0 × 10⁻⁹ short
/// of the schedule) and are proved solved to the method's floor (10⁻¹⁴).
/// The third (twenty groups) stalls with Clarabel's default
/// regularisation, its primal residual at 10⁻¹⁰, and is proved with a
/// thousandth of it. The fourth (300 mappers) is the other way round:
/// proved by the second solve, with the default. The general LP and the
/// chain, two exact methods with two certificates, agree to 10⁻⁹.
#[test]
fn the_general_lp_proves_random_lists_of_hundreds_of_mappers() {
    let two_speeds = |seed: u64| {
        let mut next = uniform(seed);
        (0..1000).map(|_| if next() < 0.5 { 0.5e-5 } else { 1.5e-5 } + 1e-2 / 16e6).collect::<Vec<f64>>()
    };
    // (case, rates, r, ℓ, V, solved a second time)
    let cases = [
        ("uniform, one group", random_rates(1000, 1100), 100, 100, 1e14, false),
        ("two speeds, three groups", two_speeds(1301), 300, 100, 1e14, false),
        ("two speeds, twenty groups", two_speeds(2000), 1000, 50, 1e13, false),
        ("uniform, 300 mappers", random_rates(300, 600), 300, 100, 1e14, true),
    ];
    for (case, a, r, l, v, second) in cases {
        let m = a.len();
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s: 1.0, c: 0.1e-6 / r as f64, v };
        let by_chain = solve(&p).unwrap();
        assert_eq!(by_chain.method, Method::Chain, "{case}");
        let ours = interior_point_whole(&p, Budget::FORM.general_work).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert!(
            matches!(ours.method, Method::InteriorPoint { again, .. } if again == second),
            "{case}: {:?}",
            ours.method
        );
        assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), GENERAL_RTOL), "{case}");
        assert!(
            close(ours.makespan(), by_chain.makespan(), GENERAL_RTOL),
            "{case}: {} vs the chain's {}",
            ours.makespan(),
            by_chain.makespan()
        );
    }
}

/// Random lists of 3000 and 10⁴ mappers with r = 400 and ℓ = 300 (the
/// first is the last list of `benches/mapreduce_highs.py --lists`): no
/// method of a simpler form proves them, and one factorisation of their
/// general LP's compact form takes 6.0 × 10⁸ and 2.1 × 10⁹
/// multiply-subtracts. The form refused both at 3 × 10⁸; it takes them
/// (through relaxations, 5 s and a few minutes natively), so here only
/// the budget is checked against the work, counted without solving.
#[test]
fn the_form_takes_the_general_lp_of_large_random_lists() {
    for m in [3000, 10_000] {
        let a = random_rates(m, 7);
        let p = Shuffle { intervals: Intervals::new(m, 400, 300).unwrap(), a, s: 0.1, c: 1e-6 / 400.0, v: 1e9 };
        let refused = solve_within(&p, Budget::SWEEP_POINT);
        assert!(
            matches!(refused, Err(SolveError::TooLarge { .. })),
            "m = {m}: only the general LP proves it: {refused:?}"
        );
        let work = factorisation_work(&p).unwrap();
        assert!(
            work > 3e8 && work <= Budget::FORM.general_work,
            "m = {m}: {work:e} against {:e}",
            Budget::FORM.general_work
        );
    }
}

/// The general LP through relaxations (each window's largest part bounding
/// only the mappers found to exceed it so far) and the same LP's compact
/// form solved whole are two routes to one optimum: on a random list of
/// 600 mappers (r = 400, ℓ = 300, 2.1 × 10⁷ a factorisation of the
/// compact form) both prove their schedules to 10⁻⁹ and agree to that,
/// and the relaxations' schedule meets every constraint of the LP as
/// written. Their progress is reported round by round. (The form's solve
/// takes a third route to it: parts capped at one level.)
#[test]
fn relaxations_and_the_compact_form_agree_on_a_random_list() {
    let m = 600;
    let p = Shuffle {
        intervals: Intervals::new(m, 400, 300).unwrap(),
        a: random_rates(m, 7),
        s: 0.1,
        c: 1e-6 / 400.0,
        v: 1e9,
    };
    let heard = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = std::rc::Rc::clone(&heard);
    let relaxed =
        isoperf::progress::with(move |f| sink.borrow_mut().push(f), || interior_point(&p, Budget::FORM.general_work))
            .unwrap();
    let Method::InteriorPoint { rounds, .. } = relaxed.method else { panic!("{:?}", relaxed.method) };
    assert!(rounds > 1, "through relaxations: {:?}", relaxed.method);
    // One report a round but the last, of the gap's digits gained: never back.
    let heard = heard.borrow();
    assert_eq!(heard.len(), rounds - 1, "{heard:?}");
    assert!(heard.windows(2).all(|f| f[0] <= f[1]) && heard.iter().all(|f| (0.0..=1.0).contains(f)), "{heard:?}");
    let whole = interior_point_whole(&p, Budget::FORM.general_work).unwrap();
    assert!(
        matches!(whole.method, Method::InteriorPoint { rounds: 1, .. }),
        "the compact form whole: {:?}",
        whole.method
    );
    assert!(
        close(relaxed.makespan(), whole.makespan(), 2.0 * GENERAL_RTOL),
        "relaxations {} vs the compact form {}",
        relaxed.makespan(),
        whole.makespan()
    );
    assert!(close(makespan_of(&p, &relaxed.alpha), relaxed.makespan(), GENERAL_RTOL));
    let form = solve(&p).unwrap();
    assert!(matches!(form.method, Method::CappedLevel { .. }), "{:?}", form.method);
    assert!(close(form.makespan(), whole.makespan(), 2.0 * GENERAL_RTOL), "capped level {}", form.makespan());
}

/// Issue 16: inputs a new user tries that were refused ("the general
/// simplex would need N variables"). With one reducer group and start-ups
/// that outlast the work, the load fits on the first mappers and the
/// shuffle ends at the start-up bound mS, which no schedule beats; the
/// schedule meets every constraint of the LP as written (checked here by
/// brute force over every interval and sender). m = 10⁵ with one reducer
/// is a chain that grows from its fixed point S/c, answered with its
/// certificate; HiGHS on the LP as written gives 100000101.00625011 s at
/// m = 20000 (the optimum does not depend on m beyond the chain's length).
#[test]
fn new_users_inputs_are_answered() {
    let a = 1e-5 + 1e-2 / 16e6;
    let c = 0.1 * 1e-6 / 100.0;
    for (m, v) in [(1000usize, 1e9), (400, 1e6)] {
        let p = Shuffle { intervals: Intervals::new(m, 100, 100).unwrap(), a: vec![a; m], s: 1.0, c, v };
        let ours = solve(&p).unwrap_or_else(|e| panic!("m = {m}, V = {v}: {e}"));
        assert_eq!(ours.method, Method::StartupBound);
        assert!(close(makespan_of(&p, &ours.alpha), m as f64, 1e-12), "m = {m}: the start-up bound mS");
    }
    let p =
        Shuffle { intervals: Intervals::new(20000, 1, 1).unwrap(), a: vec![a; 20000], s: 1.0, c: 0.1 * 1e-6, v: 1e15 };
    let ours = solve(&p).unwrap();
    assert_eq!(ours.method, Method::Chain);
    assert!(close(ours.makespan(), 100000101.00625011, 1e-12), "{}", ours.makespan());
    let out = evaluate("mapreduce", &[("m", "100000"), ("r", "1"), ("l", "1")]);
    assert!(close(num(&out, "t_shuffle"), 100000101.00625011, 1e-12));
}

/// Where the load fits before mS, the start-up bound's schedule is the
/// one of its plateaus h = (k/48) S/c, k = 1…47, that carries the most
/// load: from the last mapper a window can still reach back, each part as
/// large as its interval allows (A α_n = A α_{n+1} + S − c h), at most h,
/// all scaled to V. Identical mappers' loads are now summed in closed form
/// (their parts rise by (S − ch)/A until they reach h); here every
/// plateau's parts are summed one by one, as the definition says, on
/// random inputs of 50 to 10⁴ mappers in one reducer group.
#[test]
fn the_start_up_bound_takes_the_plateau_that_carries_the_most_load() {
    const PLATEAUS: usize = 48;
    let mut next = uniform(2026);
    let mut checked = 0;
    while checked < 12 {
        let m = 10f64.powf(1.7 + 2.3 * next()) as usize;
        let r = 1 + (next() * 300.0) as usize;
        let (s, gamma) = (10f64.powf(2.0 * next() - 1.0), 10f64.powf(-3.0 * next()));
        let v = 10f64.powf(4.0 + 7.0 * next());
        let p = lecture_shuffle(m, r, r, v, s, gamma);
        let Ok(ours) = solve(&p) else { continue };
        if ours.method != Method::StartupBound {
            continue;
        }
        let last = m - r.max(1).min(m); // the mappers that may work
        let profile = |h: f64| {
            let mut parts = vec![0.0; m];
            let mut next_part = 0.0;
            for n in (0..last).rev() {
                parts[n] = ((LECTURE_A * next_part + s - p.c * h) / LECTURE_A).min(h).max(0.0);
                next_part = parts[n];
            }
            parts
        };
        let loads: Vec<f64> =
            (1..PLATEAUS).map(|k| profile(s / p.c * k as f64 / PLATEAUS as f64).iter().sum()).collect();
        let best = (1..PLATEAUS).max_by(|&a, &b| loads[a - 1].total_cmp(&loads[b - 1])).unwrap();
        let parts = profile(s / p.c * best as f64 / PLATEAUS as f64);
        let load = loads[best - 1];
        for (n, (&ours, &part)) in ours.alpha.iter().zip(&parts).enumerate() {
            let want = part * v / load;
            assert!(
                (ours - want).abs() <= 1e-9 * v / m as f64,
                "m = {m}, r = {r}, V = {v}: α_{} = {ours}, {want} by the definition (plateau {best}/48)",
                n + 1
            );
        }
        assert!(close(makespan_of(&p, &ours.alpha), m as f64 * s, 1e-12));
        checked += 1;
    }
}

/// One reducer group whose parts fall from the chain's fixed point S/c
/// over thousands of mappers: the chain (m = 2399) and the chain after a
/// plateau of two (m = 4988). Both were refused before (the general LP's
/// gap 0.50 and 0.013): a sweep in x_1 loses every digit there, and the
/// parts and flows are solved as banded systems instead. Against HiGHS on
/// the LP as written (`benches/mapreduce_highs.py --regimes`, feasibility
/// tolerances 1e-10), and the parts against every constraint.
#[test]
fn long_falling_chains_are_proved() {
    for (m, r, l, v, s, gamma, highs, plateau) in [
        (2399usize, 4usize, 4usize, 9.7159e10, 6.8, 0.6552, 16357.010568301584, None),
        (4988, 35, 37, 1.63218e12, 9.66733, 0.968523, 48997.92130587828, Some(2)),
    ] {
        let p = lecture_shuffle(m, r, l, v, s, gamma);
        let ours = solve(&p).unwrap_or_else(|e| panic!("m = {m}: {e}"));
        let want = match plateau {
            None => Method::Chain,
            Some(plateau) => Method::Plateau { plateau, below: 0 },
        };
        assert_eq!(ours.method, want, "m = {m}");
        assert!(close(ours.makespan(), highs, GENERAL_RTOL), "m = {m}: ours {} vs HiGHS {highs}", ours.makespan());
        assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9), "m = {m}");
        // The parts fall from S/c: the first at the fixed point, the last below it.
        let (first, last) = (ours.alpha[0], ours.alpha[m - 1]);
        assert!(close(p.c * first, s, 1e-5) && last < 0.5 * first, "m = {m}: {first} … {last}");
    }
}

/// The random two-speed list of 10⁵ mappers (seed 3, 1 or 2 × 10⁻⁵ s/B),
/// one reducer group (r = ℓ = 100), V = 10¹⁴, S = 1 s, γC = 10⁻⁷ s/B: a
/// chain whose sweeps lose all but seven digits (their gap 3 × 10⁻⁸), and
/// whose banded systems (2.4 × 10⁷ multiply-subtracts) were past what any
/// solve allowed. The form then took the general LP, which did not
/// converge at this size: refused after 280 s. The form's banded systems
/// may now take up to [`Budget::FORM`]'s, and prove it in 0.1 s natively;
/// a map's point still may not.
#[test]
fn a_chain_of_a_hundred_thousand_mappers_is_proved_by_banded_systems() {
    let m = 100_000;
    let a = speed_rates(m, 2.0, 3);
    let p = Shuffle { intervals: Intervals::new(m, 100, 100).unwrap(), a, s: 1.0, c: 0.1e-6 / 100.0, v: 1e14 };
    assert!(single_group_methods_within(&p, Budget::MAP_POINT.banded_work).is_none());
    let ours = solve(&p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ours.method, Method::Chain);
    assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9), "{}", ours.makespan());
    // Every mapper works, the last one started after its m start-ups.
    assert!(ours.makespan() > m as f64 * p.s && ours.alpha.iter().all(|&part| part > 0.0));
}

/// t_{N+1} of equal parts V/m on identical mappers at the lecture's rates
/// where S ≥ cV/m: every interval before the last mapper S long, every
/// later one cV/m: mS + A V/m + (N − m + 1) cV/m.
fn equal_parts_length(p: &Shuffle) -> f64 {
    let (m, part) = (p.intervals.m(), p.v / p.intervals.m() as f64);
    m as f64 * p.s + LECTURE_A * part + (p.intervals.count() - m + 1) as f64 * p.c * part
}

/// Identical mappers whose start-up is exactly a part's transfer, S = cV/m
/// (with round inputs S m r = γ C V: S = 1 s, γ = 0.1, C = 10⁻⁶ s/B, V =
/// 10⁷ m r bytes). The optimum is equal parts V/m, every interval before
/// the last mapper's end exactly S long: t_{N+1} = mS + A V/m + (N − m + 1)
/// c V/m. The chain found these parts, but which of a window's equal parts
/// was its largest was left to rounding, and the dual built on that had
/// negative flows: the general LP took 0.05 to 0.3 s here (6.3 s at 10⁴
/// mappers with r = 300, over two minutes at 10⁵ with r = 1000, ℓ = 100).
#[test]
fn equal_parts_where_a_start_up_is_a_parts_transfer_are_proved_by_the_chain() {
    for (m, r, l) in [(1000usize, 50usize, 5usize), (1000, 300, 100), (2000, 1000, 100), (10_000, 300, 100)] {
        let v = 1e7 * (m * r) as f64;
        let p = lecture_shuffle(m, r, l, v, 1.0, 0.1);
        let ours = solve(&p).unwrap_or_else(|e| panic!("m = {m}, r = {r}: {e}"));
        assert_eq!(ours.method, Method::Chain, "m = {m}, r = {r}");
        let part = v / m as f64;
        assert!(close(p.s, p.c * part, EXACT_RTOL), "S = cV/m");
        let closed = equal_parts_length(&p);
        assert!(close(ours.makespan(), closed, CLOSED_RTOL), "m = {m}, r = {r}: {} against {closed}", ours.makespan());
        assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), CLOSED_RTOL), "m = {m}, r = {r}");
        assert!(ours.alpha.iter().all(|&a| close(a, part, CLOSED_RTOL)), "m = {m}, r = {r}: parts not equal");
    }
}

/// The general LP's length for the 2 × 10⁴ mappers below, proved to 10⁻⁹
/// by its dual bound (19 s natively, before equal parts).
const GENERAL_20000: f64 = 300106.24973439646;

/// Equal parts where the start-up is a hair past a part's transfer: 2 ×
/// 10⁴ identical mappers, r = 1000, ℓ = 100, S 10⁻⁹ of itself past cV/m
/// (V = 2 × 10¹⁴ (1 − 10⁻⁹)). The optimum falls from a plateau, but neither the
/// descent nor the plateau methods prove it here (their duals lose the
/// digits that tell its parts apart), and the general LP took 19 s
/// natively (its length above). Equal parts are within 10⁻⁹ of it, proved
/// by the dual of the chain rising to them, whose flows do not depend on S.
#[test]
fn equal_parts_a_hair_past_a_parts_transfer_are_proved_within_the_certificate() {
    let (m, r, l) = (20_000usize, 1000usize, 100usize);
    let v = 1e7 * (m * r) as f64 * (1.0 - 1e-9);
    let p = lecture_shuffle(m, r, l, v, 1.0, 0.1);
    assert!(plateau_descent(&p).is_none() && plateau_chain(&p).is_none());
    let ours = solve(&p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ours.method, Method::Plateau { plateau: m, below: 0 });
    let part = v / m as f64;
    assert!(ours.alpha.iter().all(|&a| close(a, part, EXACT_RTOL)), "parts not equal");
    let equal = equal_parts_length(&p);
    assert!(close(ours.makespan(), equal, CLOSED_RTOL), "{} against {equal}", ours.makespan());
    assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), CLOSED_RTOL));
    assert!(close(ours.makespan(), GENERAL_20000, GENERAL_RTOL), "{} against the general LP's", ours.makespan());
    // The page says what they are.
    let pairs = [("m", "20000"), ("r", "1000"), ("l", "100"), ("V", "1.999999998e14")];
    let remarks = api::remarks("mapreduce", &raw(&pairs)).unwrap();
    assert!(remarks.iter().any(|r| r.text.contains("equal parts on all 20000 mappers")), "{remarks:?}");
    // The search for the best count proves them too: fewer mappers take
    // larger parts, past S/c, and their chains rise (longer).
    let out = eval(&pairs);
    assert_eq!(num(&out, "m_best"), m as f64);
    assert!(close(num(&out, "T_best"), num(&out, "T"), EXACT_RTOL));
}

/// A plateau past the intervals the form gave the plateau methods (16 000,
/// or 40 000 for windows of 64 or more): 5000 identical mappers, r = 500,
/// ℓ = 20 (125 019 intervals), a start-up 2 × 10⁻⁷ of itself longer than a
/// part's transfer (V = 2.5 × 10¹³ (1 − 2 × 10⁻⁷), S = 1 s, γ = 0.1). The
/// descent does not prove it, and the general LP ends 2.2 × 10⁻⁹ short of
/// a proof: refused. The form now tries the plateau methods whatever the
/// intervals, and a plateau of 44 proves it in 60 ms. Its schedule meets
/// the LP as written, and is shorter than equal parts (feasible here, S ≥
/// cV/m) by about as little as the start-up is past the transfer.
#[test]
fn a_plateau_over_125_000_intervals_is_proved_where_the_general_lp_gives_no_proof() {
    let (m, r, l, v) = (5000usize, 500usize, 20usize, 2.4999995e13);
    let p = lecture_shuffle(m, r, l, v, 1.0, 0.1);
    assert!(plateau_descent(&p).is_none());
    let ours = solve(&p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ours.method, Method::Plateau { plateau: 44, below: 0 });
    assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9), "{}", ours.makespan());
    let equal = equal_parts_length(&p);
    let shorter = (equal - ours.makespan()) / equal;
    assert!(shorter > 0.0 && shorter < 1e-6, "{} against equal parts' {equal}", ours.makespan());
}

/// 10⁵ identical mappers, r = 1000, ℓ = 100 (10⁶ intervals), a start-up
/// 10⁻⁶ of itself longer than a part's transfer (V = 10¹⁵ (1 − 10⁻⁶), S =
/// 1 s, γ = 0.1). The plateau's sweeps lose too many digits at every
/// length here, and its banded retries need 10⁹ multiply-subtracts, past
/// the quick budget's 8 × 10⁶: with that budget each length read as too
/// long and the plateau failed, as did every later method, with no answer
/// in minutes. The form now gives the plateau its own banded budget, and
/// a plateau of 567 proves it (3.4 s natively, 19 lengths). Its schedule
/// meets the LP as written and is shorter than equal parts (feasible
/// here, S ≥ cV/m) by about as little as the start-up is past the
/// transfer. The search for the best count starts from the form's
/// schedule of all 10⁵ (its quick methods do not solve it) and proves it
/// the best: fewer mappers take larger parts, whose chains rise.
#[test]
fn a_plateau_over_a_million_intervals_takes_the_forms_banded_budget() {
    let (m, r, l, v) = (100_000usize, 1000usize, 100usize, 9.99999e14);
    let p = lecture_shuffle(m, r, l, v, 1.0, 0.1);
    assert!(plateau_chain(&p).is_none(), "the quick budget's plateau does not prove it");
    // One evaluation, as the page's report worker makes it.
    let pairs = [("m", "100000"), ("r", "1000"), ("l", "100"), ("V", "9.99999e14")];
    let report = api::Session::default().report("mapreduce", &raw(&pairs)).unwrap();
    let text = |r: &isoperf::spec::Remark| r.text.contains("the first 567 mappers take equal parts");
    assert!(report.remarks.iter().any(text), "a plateau of 567: {:?}", report.remarks);
    let out = report.outputs.expect("outputs");
    let Some((_, OutValue::Array(alpha))) = out.0.iter().find(|(key, _)| *key == "alpha") else { panic!("no alpha") };
    let t_shuffle = num(&out, "t_shuffle");
    assert!(close(makespan_of(&p, alpha), t_shuffle, 1e-9), "{t_shuffle}");
    let equal = equal_parts_length(&p);
    let shorter = (equal - t_shuffle) / equal;
    assert!(shorter > 0.0 && shorter < 1e-5, "{t_shuffle} against equal parts' {equal}");
    assert_eq!(num(&out, "m_best"), m as f64);
    assert!(close(num(&out, "T_best"), num(&out, "T"), EXACT_RTOL));
}

/// Identical mappers by the tens of thousands in three reducer groups
/// (r = 300, ℓ = 100, S = 1 s, γ = 0.1, V/m = 10⁷): a plateau, then a
/// level run that starts further before the idle mapper's windows the
/// more mappers there are (26 mappers at m = 85 000, 37 at 10⁵), past the
/// 16 the descent looked back. No method answered within a minute (the
/// general LP over 10⁵ mappers); the descent now looks back 64 and proves
/// them in about a second natively, the last (V/m = 1.2 × 10⁷, a run of
/// 18) only with active-set steps from its far start. Each schedule meets
/// the LP as written, its level run's parts equal.
#[test]
fn level_runs_far_before_the_idle_mappers_windows_are_proved() {
    for (m, load, level) in [(85_000usize, 1e7, 28usize), (100_000, 1e7, 39), (85_000, 1.2e7, 18)] {
        let p = lecture_shuffle(m, 300, 100, load * m as f64, 1.0, 0.1);
        let ours = plateau_descent(&p).unwrap_or_else(|| panic!("m = {m}: the descent proves it"));
        let Method::PlateauDescent { plateau, working, level: steps } = ours.method else {
            panic!("m = {m}: {:?}", ours.method)
        };
        assert_eq!((working, steps), (m - 1, level), "m = {m}: {:?}", ours.method);
        assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9), "m = {m}: {}", ours.makespan());
        // The level steps: consecutive equal parts after the plateau.
        let after = &ours.alpha[plateau..working];
        let equal = after.windows(2).filter(|w| close(w[0], w[1], 1e-12)).count();
        assert!(equal >= level, "m = {m}: {equal} level steps after the plateau of {plateau}");
    }
}

/// One reducer group over wide windows, start-ups about as long as the
/// transfers: 40 000 identical mappers, r = ℓ = 2000, V = 4 × 10¹⁴,
/// S = 1 s, γ = 0.1. Its 41 999 intervals were past what the form gave the
/// plateau methods, and the general LP ran 21 s to no proof (gap
/// 3 × 10⁻⁵): refused. With one group the form now always tries them (no
/// window wraps around the mappers), and a plateau of 10 proves it.
#[test]
fn one_reducer_group_takes_the_plateau_methods_whatever_its_intervals() {
    let m = 40_000;
    let p = lecture_shuffle(m, 2000, 2000, 4e14, 1.0, 0.1);
    let ours = solve(&p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ours.method, Method::Plateau { plateau: 10, below: 0 });
    assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9), "{}", ours.makespan());
    // The plateau's ten parts equal, the parts after it falling.
    let (plateau, after) = ours.alpha.split_at(10);
    assert!(plateau.iter().all(|&part| close(part, plateau[0], 1e-9)), "{:?}", plateau);
    assert!(after[0] < plateau[0] && after.windows(2).take(100).all(|w| w[1] <= w[0]), "{:?}", &after[..3]);
}

/// Two reducer groups where the descent pauses for a level run: the flow
/// through the interval after each new level step stays negative for 11
/// intervals (m = 3704) and 285 (m = 9183), which the active-set steps
/// now take as one run (found by galloping and bisection). Both were
/// refused as too large for the general LP before. The first equals the
/// general LP's optimum (interior point allowed 3 × 10⁹ operations a step:
/// 5310.025805973846 s in 17 s natively, proved to 10⁻⁹ by its dual bound).
#[test]
fn level_runs_of_the_descent_are_proved() {
    for (m, r, l, v, s, gamma, level, general) in [
        (3704usize, 481usize, 463usize, 2.982e11, 1.4251, 0.050474, 11usize, Some(5310.025805973846)),
        (9183, 312, 298, 8.39742e11, 2.5228, 1.80098e-2, 285, None),
    ] {
        let p = lecture_shuffle(m, r, l, v, s, gamma);
        let ours = solve(&p).unwrap_or_else(|e| panic!("m = {m}: {e}"));
        let Method::PlateauDescent { plateau, working, level: run } = ours.method else {
            panic!("m = {m}: {:?}", ours.method)
        };
        assert_eq!((working, run), (m - 1, level), "m = {m}: the last mapper idles after a level run");
        if let Some(general) = general {
            assert!(close(ours.makespan(), general, GENERAL_RTOL), "m = {m}: {} vs {general}", ours.makespan());
        }
        // The run: equal neighbours inside the descent, and only there.
        let flat = ours.alpha.windows(2).skip(plateau).filter(|w| w[1] > 0.0 && close(w[0], w[1], 1e-12)).count();
        assert_eq!(flat, level, "m = {m}: equal neighbours after the plateau of {plateau}");
    }
}

/// m_best off the page's thread: at m = 3704, r = 481, ℓ = 463 the lower
/// bounds leave 147 counts, each a descent of a few milliseconds, more
/// than the page's quick search may solve (QUICK_SEARCH_INTERVALS) but
/// within the report worker's and the command line's (SEARCH_INTERVALS):
/// m_best = 2048, its T_best that count's own shuffle, both neighbours
/// slower. Where the quick search proves nothing though the shuffle itself
/// is quick (m = 4776, one reducer group: its idle tail in a pass), the
/// quick report leaves it all to the worker, so that the page says what the
/// command line does (there m_best = 2742).
#[test]
fn the_best_mapper_count_is_searched_off_the_page_thread() {
    use isoperf::api::Session;
    use isoperf::models::mapreduce::mappers::{best_mappers, MapperSearch, QUICK_SEARCH_INTERVALS, SEARCH_INTERVALS};
    use isoperf::models::mapreduce::schedule::solve_quick;
    let (r, l, v, s, gamma) = (481, 463, 2.982e11, 1.4251, 0.050474);
    let c = gamma * 1e-6 / r as f64;
    let quick = best_mappers(3704, r, l, LECTURE_A, s, c, v, QUICK_SEARCH_INTERVALS);
    assert!(matches!(quick, MapperSearch::Unproven { .. }), "{quick:?}");
    let MapperSearch::Best { m: best, t_shuffle } = best_mappers(3704, r, l, LECTURE_A, s, c, v, SEARCH_INTERVALS)
    else {
        panic!("unproven with the full budget")
    };
    assert_eq!(best, 2048);
    let at = |k: usize| solve(&lecture_shuffle(k, r, l, v, s, gamma)).unwrap().makespan();
    assert!(close(t_shuffle, at(2048), 1e-15), "{t_shuffle} vs {}", at(2048));
    assert!(at(2047) > t_shuffle && at(2049) > t_shuffle);
    let pairs =
        raw(&[("m", "3704"), ("r", "481"), ("l", "463"), ("V", "2.982e11"), ("S", "1.4251"), ("gamma", "0.050474")]);
    let report = Session::default().report("mapreduce", &pairs).unwrap();
    let outputs = report.outputs.as_ref().unwrap();
    assert_eq!(serde_json::to_value(outputs).unwrap()["m_best"], serde_json::json!(2048.0));

    let one_group = [
        ("m", "4776"),
        ("r", "280"),
        ("l", "280"),
        ("V", "8.252313668635212e9"),
        ("S", "0.02456329367858964"),
        ("gamma", "0.2761002164240201"),
    ];
    let (m, r, v, s, gamma) = (4776, 280, 8.252313668635212e9, 0.02456329367858964, 0.2761002164240201);
    assert!(matches!(solve_quick(&lecture_shuffle(m, r, r, v, s, gamma)), Some(Ok(_))));
    let q = Session::default().quick_report("mapreduce", &raw(&one_group)).unwrap();
    assert!(q.deferred && q.outputs.is_none(), "the quick report defers");
    // The worker's search proves it: m_best = 2742, both neighbours slower.
    let f = Session::default().report("mapreduce", &raw(&one_group)).unwrap();
    let outputs = serde_json::to_value(f.outputs.as_ref().unwrap()).unwrap();
    assert_eq!(outputs["m_best"], serde_json::json!(2742.0), "{:?}", f.remarks);
    let at = |k: usize| solve(&lecture_shuffle(k, r, r, v, s, gamma)).unwrap().makespan();
    assert!(at(2741) > at(2742) && at(2743) > at(2742) && at(2742) < at(m));
}

/// The points of a map solved in turn, each descent trying first the shape
/// proved at the point before (rows of the preset's maps at the descent
/// point: m = 10 … 10⁴ at r = 12 and 700, and at γ = 1), equal the points
/// solved alone to 10⁻¹²; so does each point after a hint from another
/// shape (a level run of 11 at m = 3704), which the descent finds wanting.
#[test]
fn a_descent_tried_near_the_last_one_proved_equals_one_solved_alone() {
    use isoperf::models::mapreduce::descent::Hint;
    use isoperf::models::mapreduce::schedule::solve_near;
    let (l, v, s) = (8, 1.405e11, 9.037);
    let mut level_run = Hint::default();
    let elsewhere = lecture_shuffle(3704, 481, 463, 2.982e11, 1.4251, 0.050474);
    assert!(solve_near(&elsewhere, Budget::FORM, &mut level_run).is_ok());
    let mut descents = 0;
    for (r, gamma) in [(12usize, 4.483e-2), (700, 4.483e-2), (12, 1.0)] {
        let mut hint = Hint::default();
        for i in 0..64 {
            let m = (10f64 * 1000f64.powf(i as f64 / 63.0)).round() as usize;
            let p = lecture_shuffle(m, r, l, v, s, gamma);
            let alone = solve_within(&p, Budget::MAP_POINT);
            let near = solve_near(&p, Budget::MAP_POINT, &mut hint);
            let after_elsewhere = solve_near(&p, Budget::MAP_POINT, &mut level_run.clone());
            for (label, other) in [("near", &near), ("after a level run", &after_elsewhere)] {
                match (&alone, other) {
                    (Ok(a), Ok(b)) => {
                        assert!(close(a.makespan(), b.makespan(), 1e-12), "m = {m}, r = {r}, γ = {gamma}, {label}");
                        descents += usize::from(matches!(a.method, Method::PlateauDescent { .. }));
                    }
                    (Err(_), Err(_)) => {}
                    (a, b) => panic!("m = {m}, r = {r}, γ = {gamma}, {label}: {a:?} vs {b:?}"),
                }
            }
        }
    }
    assert!(descents >= 40, "{descents} descents");
}

/// A level run between two descents: a plateau, parts falling, a run of
/// equal parts, falling again, and the last mapper idle. The run starts
/// where the idle mapper's windows begin but ends well before it, so the
/// search, which started from a run of all ℓ − 1 mappers before the idle
/// one, left these to the general LP: 7.1 s natively at m = 4372, where its
/// interior point (3 × 10⁸ operations a step allowed) found
/// t_shuffle = 14926.60033710251 s, proved to 10⁻⁹ by its dual bound. The
/// run's length is now found by bisection (too short where the flow after
/// it is negative, too long where its last two mappers cannot share their
/// windows), from where those windows begin or up to three mappers
/// before (sixteen where a run fitted a plateau but was not proved); in a
/// run, a mapper may take its share of any window that holds
/// it whose oldest is earlier in the run. m = 40, 109, 166 and 522 equal
/// the general LP solved here.
#[test]
fn a_level_run_between_two_descents_is_proved() {
    for (m, r, l, v, s, gamma, plateau, level, known) in [
        (166usize, 70usize, 61usize, 7.41996e9, 9.50316, 1.22137e-3, 101usize, 7usize, None),
        (522, 92, 86, 4.23165e8, 1.29291, 7.70028e-2, 433, 82, None),
        (4372, 167, 95, 1.12472e11, 3.40971, 2.82596e-2, 4257, 38, Some(14926.60033710251)),
        // Three reducer groups (8, 8, 7): the run starts two mappers before
        // the idle mapper's windows begin (general LP 14589.585459102585 s,
        // 0.56 s natively).
        (2274, 23, 8, 8.38943e9, 6.21324, 0.630025, 2262, 5, Some(14589.585459102585)),
        // Three groups (18, 18, 8), the run two mappers back: shorter runs
        // leave a negative flow in the descent before the run, not after
        // it (general LP 18016.0809948447 s, 0.86 s natively).
        (2951, 44, 18, 5.09331e10, 5.6313, 0.601827, 2915, 4, Some(18016.0809948447)),
        // Three groups (6, 6, 1): the last level step's first mapper is the
        // oldest in no window that holds the next, whose share comes from
        // the windows of the one before (general LP 18478.53854531987 s,
        // 0.43 s natively).
        (2703, 13, 6, 1.95752e10, 6.03172, 0.721544, 2687, 3, Some(18478.53854531987)),
        // Three groups (21, 21, 6): the run starts nine mappers before the
        // idle mapper's windows begin, found where a run fitted a plateau
        // nearer them (general LP 18822.42773497881 s, 1.7 s natively).
        (4162, 48, 21, 4.67765e10, 4.28736, 0.500888, 4124, 11, Some(18822.42773497881)),
        // Parts falling from the first mapper (no plateau), the slack
        // interval right after the run (two groups, ℓ and 1).
        (40, 30, 29, 5.00768e8, 7.88939, 0.500278, 1, 7, None),
        (109, 94, 93, 3.55643e8, 3.72034, 0.386189, 1, 84, None),
    ] {
        let p = lecture_shuffle(m, r, l, v, s, gamma);
        let ours = solve(&p).unwrap_or_else(|e| panic!("m = {m}: {e}"));
        assert_eq!(ours.method, Method::PlateauDescent { plateau, working: m - 1, level }, "m = {m}");
        let general = known.unwrap_or_else(|| general(&p).unwrap().makespan());
        assert!(close(ours.makespan(), general, GENERAL_RTOL), "m = {m}: {} vs {general}", ours.makespan());
        assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9), "m = {m}");
        // Equal on the plateau, then falling, level for the run, and
        // falling again (at least two steps) to the idle last mapper.
        let x = &ours.alpha;
        assert!(x[..plateau].iter().all(|&v| v == x[0]) && x[m - 1] == 0.0, "m = {m}");
        let steps: Vec<bool> = x[plateau - 1..m - 1].windows(2).map(|w| close(w[0], w[1], 1e-12)).collect();
        assert!(x.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-12)), "m = {m}: the parts fall");
        let first = steps.iter().position(|&level| level).unwrap_or_else(|| panic!("m = {m}: no level step"));
        let run = steps[first..].iter().take_while(|&&level| level).count();
        assert!(first >= 1 && run == level, "m = {m}: {first} falling, then {run} level");
        assert!(steps[first + run..].len() >= 2 && steps[first + run..].iter().all(|&level| !level), "m = {m}");
    }
}

/// The chain for identical mappers in closed form equals the chain method's
/// O(N) passes wherever it certifies, and certifies wherever the chain
/// method finds parts that grow along the pipeline; on small instances both
/// equal the LP as written.
#[test]
fn identical_chain_closed_form_equals_the_chain_method() {
    use isoperf::models::mapreduce::schedule::identical_chain;
    let mut next = uniform(777);
    let (mut closed, mut growing) = (0, 0);
    for case in 0..400 {
        let small = case % 4 == 0;
        let m = if small { 1 + (next() * 6.0) as usize } else { 1 + 10f64.powf(next() * 4.0) as usize };
        let r = if small { 1 + (next() * 7.0) as usize } else { 1 + 10f64.powf(next() * 3.0) as usize };
        let l = 1 + (next() * r as f64) as usize;
        let a = 10f64.powf(next() * 4.0 - 7.0);
        let s = if next() < 0.1 { 0.0 } else { 10f64.powf(next() * 4.0 - 2.0) };
        let c = 10f64.powf(next() * 4.0 - 12.0);
        let v = 10f64.powf(next() * 10.0 + 5.0);
        let Some(iv) = Intervals::new(m, r, l) else { continue };
        let p = Shuffle { intervals: iv, a: vec![a; m], s, c, v };
        let by_chain = chain(&p);
        let grows = by_chain.as_ref().is_some_and(|o| o.alpha.windows(2).all(|w| w[1] >= w[0]));
        let ends = identical_chain(iv, a, s, c, v);
        if let Some(e) = ends {
            closed += 1;
            let o =
                by_chain.as_ref().unwrap_or_else(|| panic!("case {case} {p:?}: closed form certified, chain did not"));
            assert!(
                close(e.t_shuffle, o.makespan(), CLOSED_RTOL),
                "case {case}: closed {} vs chain {}",
                e.t_shuffle,
                o.makespan()
            );
            assert!(
                close(e.t_map, o.t[m - 1], CLOSED_RTOL),
                "case {case}: t_m closed {} vs chain {}",
                e.t_map,
                o.t[m - 1]
            );
            if small {
                let (lp, _) = lp_as_written(&p);
                assert!(close(e.t_shuffle, lp, LP_RTOL), "case {case}: closed {} vs LP {lp}", e.t_shuffle);
            }
        }
        if grows && m > 1 {
            growing += 1;
            assert!(ends.is_some(), "case {case} {p:?}: growing chain not found in closed form");
        }
    }
    assert!(closed >= 100 && growing >= 100, "closed {closed}, growing {growing}");
}

/// A small shuffle drawn across the regimes for the m_best tests:
/// (m, r, ℓ, A, S, c, V), m ≤ 41.
fn small_shuffle(next: &mut impl FnMut() -> f64) -> (usize, usize, usize, f64, f64, f64, f64) {
    let m = 2 + (next() * 40.0) as usize;
    let r = 1 + (next() * 12.0) as usize;
    let l = 1 + (next() * r as f64) as usize;
    let a = 10f64.powf(next() * 2.0 - 6.0);
    let s = 10f64.powf(next() * 3.0 - 2.0);
    let c = 10f64.powf(next() * 3.0 - 10.0);
    let v = 10f64.powf(next() * 6.0 + 5.0);
    (m, r, l, a, s, c, v)
}

/// Asserts a search for the best count against brute force: `all` the
/// shuffles of counts 1 … m, `bounds` their lower bounds (never above
/// them); a proved best has the shortest shuffle (the fewest mappers among
/// equals), an unproven search is stuck only where `may_stick`. Returns
/// (1 if proved, 1 if its best is below m).
fn equals_brute_force(
    case: usize,
    search: isoperf::models::mapreduce::mappers::MapperSearch,
    all: &[f64],
    bounds: &[f64],
    may_stick: impl Fn(usize) -> bool,
) -> (usize, usize) {
    use isoperf::models::mapreduce::mappers::MapperSearch;
    for ((k, &t), &bound) in (1..).zip(all).zip(bounds) {
        assert!(bound <= t * (1.0 + BOUND_RTOL), "case {case}, m' = {k}: lower bound {bound} > shuffle {t}");
    }
    let low = all.iter().copied().fold(f64::INFINITY, f64::min);
    let brute = 1 + all.iter().position(|&t| t <= low * (1.0 + 1e-9)).unwrap();
    match search {
        MapperSearch::Best { m: best, t_shuffle } => {
            assert!(close(t_shuffle, low, 1e-9), "case {case}: T_best {t_shuffle} vs brute force {low} (m' = {brute})");
            assert!(close(all[best - 1], low, 1e-9), "case {case}: m_best {best} vs brute force {brute}");
            (1, usize::from(best < all.len()))
        }
        MapperSearch::Unproven { m: stuck, .. } => {
            assert!(may_stick(stuck), "case {case}: stuck at {stuck}");
            (0, 0)
        }
    }
}

/// m_best against brute force: every m' ≤ m solved by the exact solver
/// (the simplex included), the fewest mappers among equal shuffles.
#[test]
fn best_mapper_count_equals_brute_force() {
    use isoperf::models::mapreduce::mappers::{best_mappers, lower_bounds, SEARCH_INTERVALS};
    let mut next = uniform(4242);
    let (mut proven, mut inner) = (0, 0);
    for case in 0..120 {
        let (m, r, l, a, s, c, v) = small_shuffle(&mut next);
        let shuffle = |k: usize| {
            let p = Shuffle { intervals: Intervals::new(k, r, l).unwrap(), a: vec![a; k], s, c, v };
            solve(&p).map(|o| o.makespan())
        };
        let all: Vec<f64> = (1..=m).map(|k| shuffle(k).unwrap_or(f64::INFINITY)).collect();
        let search = best_mappers(m, r, l, a, s, c, v, SEARCH_INTERVALS);
        let (best, below) = equals_brute_force(case, search, &all, &lower_bounds(m, r, l, a, s, c, v), |stuck| {
            // Only where a count below the bound needs the general LP.
            !all[stuck - 1].is_finite() || Intervals::new(stuck, r, l).unwrap().groups() > 1
        });
        proven += best;
        inner += below;
    }
    assert!(proven >= 90 && inner >= 20, "proven {proven}, best below m {inner}");
}

/// m_best of a per-mapper list, its first m' mappers, against brute force:
/// every prefix solved by the exact solver (the simplex included), the
/// fewest mappers among equal shuffles. The lists' lower bounds never pass
/// a prefix's shuffle, and for equal rates they are the identical
/// mappers' bounds (computed by other sums).
#[test]
fn best_first_mappers_of_a_list_equal_brute_force() {
    use isoperf::models::mapreduce::mappers::{best_prefix, lower_bounds, prefix_lower_bounds, SEARCH_INTERVALS};
    use isoperf::models::mapreduce::schedule::single_group_methods;
    let mut next = uniform(977);
    let (mut proven, mut inner) = (0, 0);
    for case in 0..120 {
        let (m, r, l, a, s, c, v) = small_shuffle(&mut next);
        // Rates within a factor of ten of each other, in random order.
        let list: Vec<f64> = (0..m).map(|_| a * 10f64.powf(next() - 0.5)).collect();
        let prefix = |k: usize| Shuffle { intervals: Intervals::new(k, r, l).unwrap(), a: list[..k].to_vec(), s, c, v };
        let all: Vec<f64> = (1..=m).map(|k| solve(&prefix(k)).map_or(f64::INFINITY, |o| o.makespan())).collect();
        let search = best_prefix(&prefix(m), all[m - 1], SEARCH_INTERVALS);
        let (best, below) =
            equals_brute_force(case, search, &all, &prefix_lower_bounds(&list, r, l, s, c, v), |stuck| {
                // Only where a prefix below the bound needs more than the chain's methods.
                single_group_methods(&prefix(stuck)).is_none()
            });
        proven += best;
        inner += below;
        if case % 10 == 0 {
            let equal = prefix_lower_bounds(&vec![a; m], r, l, s, c, v);
            for (k, (x, y)) in equal.iter().zip(lower_bounds(m, r, l, a, s, c, v)).enumerate() {
                assert!(close(*x, y, 1e-12), "case {case}, m' = {}: {x} vs identical {y}", k + 1);
            }
        }
    }
    assert!(proven >= 90 && inner >= 20, "proven {proven}, best below m {inner}");
}

/// m_best of random lists whose counts near the best are start-up bound,
/// against brute force (every prefix solved by the exact solver): the
/// search proves every best. With a bisection ℓ wider than the best count
/// and many reducers, most prefixes are solved by parts capped at one
/// level, which the chain's methods do not solve; with a narrower ℓ some
/// needed the general LP (within the search's budget) until the capped
/// level's dual followed runs of mappers below the level that top windows
/// of their own (backward from the flow at the run's end): now the capped
/// level proves every count the chain's methods leave. Six searches meet
/// such a count that its bound does not rule out: without the capped
/// level they would stop unproven there.
#[test]
fn best_first_mappers_of_random_lists_through_capped_levels_and_the_general_lp_equal_brute_force() {
    use isoperf::models::mapreduce::mappers::{best_prefix, prefix_lower_bounds, MapperSearch, SEARCH_INTERVALS};
    use isoperf::models::mapreduce::schedule::single_group_methods;
    let mut next = uniform(11);
    let (mut through_levels, mut through_general) = (0, 0);
    for case in 0..24 {
        let wide = case < 12;
        let m = if wide { 60 + (next() * 80.0) as usize } else { 40 + (next() * 40.0) as usize };
        let l = if wide { m / 2 + (next() * m as f64 * 1.5) as usize } else { 10 + (next() * 30.0) as usize };
        let r = if wide { (l as f64 * (1.0 + 2.0 * next())) as usize } else { l + (next() * l as f64) as usize };
        let v = if wide { 10f64.powf(7.0 + 2.0 * next()) } else { (10.0 + next() * 20.0).powi(2) / 1e-5 };
        let list: Vec<f64> = (0..m).map(|_| 1e-5 * (0.5 + next()) + 1e-2 / 16e6).collect();
        let (s, c) = (1.0, 0.1e-6 / r as f64);
        let prefix = |k: usize| Shuffle { intervals: Intervals::new(k, r, l).unwrap(), a: list[..k].to_vec(), s, c, v };
        let all: Vec<f64> = (1..=m).map(|k| solve(&prefix(k)).unwrap().makespan()).collect();
        let bounds = prefix_lower_bounds(&list, r, l, s, c, v);
        let search = best_prefix(&prefix(m), all[m - 1], SEARCH_INTERVALS);
        let MapperSearch::Best { t_shuffle, .. } = search else { panic!("case {case}: {search:?}") };
        equals_brute_force(case, search, &all, &bounds, |_| false);
        // Counts the chain's methods leave, not ruled out by their bounds.
        let left: Vec<usize> = (1..=m)
            .filter(|&k| bounds[k - 1] <= t_shuffle * (1.0 + 1e-9) && single_group_methods(&prefix(k)).is_none())
            .collect();
        through_levels += usize::from(left.iter().any(|&k| capped_level(&prefix(k)).is_some()));
        through_general += usize::from(left.iter().any(|&k| capped_level(&prefix(k)).is_none()));
    }
    assert!(through_levels >= 6, "{through_levels} of 24 searches needed a capped level");
    assert_eq!(through_general, 0, "the capped level proves every count the chain's methods leave");
}

/// m_best of random lists whose counts near the best are the chain with
/// its first mappers capped (200 uniform rates of seed 3, V = 3 × 10⁹): 23
/// and 29 counts that the bounds leave, each a search over pins, which the
/// search for the best count left to the general LP past its budget
/// (unproven at m' = 178 and 180). It now tries each count first at the
/// pins that proved the count before, and finds what solving every count
/// alone finds.
#[test]
fn best_first_mappers_through_capped_first_mappers_equal_brute_force() {
    use isoperf::models::mapreduce::mappers::{best_prefix, prefix_lower_bounds, MapperSearch, SEARCH_INTERVALS};
    let (m, s, v) = (200, 1.0, 3e9);
    let list = random_rates(m, 3);
    for (r, l) in [(60, 20), (100, 40)] {
        let c = 0.1e-6 / r as f64;
        let prefix = |k: usize| Shuffle { intervals: Intervals::new(k, r, l).unwrap(), a: list[..k].to_vec(), s, c, v };
        let solved: Vec<Solution> = (1..=m).map(|k| solve(&prefix(k)).unwrap()).collect();
        let all: Vec<f64> = solved.iter().map(Solution::makespan).collect();
        let bounds = prefix_lower_bounds(&list, r, l, s, c, v);
        let search = best_prefix(&prefix(m), all[m - 1], SEARCH_INTERVALS);
        let MapperSearch::Best { t_shuffle, .. } = search else { panic!("r = {r}, ℓ = {l}: {search:?}") };
        equals_brute_force(r, search, &all, &bounds, |_| false);
        let capped_first = (1..=m)
            .filter(|&k| bounds[k - 1] <= t_shuffle * (1.0 + 1e-9))
            .filter(|&k| matches!(solved[k - 1].method, Method::ChainCappedFirst { .. }))
            .count();
        assert!(capped_first >= 20, "r = {r}, ℓ = {l}: {capped_first} counts near the best with capped first mappers");
    }
}

/// m_best of the uniform random 500-list of seed 3 with r = 400, ℓ = 300,
/// V = 10¹⁰: two counts near the best need the general LP, which proves
/// them through relaxations in tens of milliseconds; charged at the
/// compact form's cost the first took the whole budget and the search
/// stopped unproven at the second. Its best is the first 427 mappers,
/// their own shuffle, both neighbours slower.
#[test]
fn best_first_mappers_charge_the_general_lp_what_its_relaxations_cost() {
    use isoperf::models::mapreduce::mappers::{best_prefix, MapperSearch, SEARCH_INTERVALS};
    let prefix = |k: usize| seed_3_prefix(k, 400, 300, 1e10);
    let at = |k: usize| solve(&prefix(k)).unwrap().makespan();
    let search = best_prefix(&prefix(500), at(500), SEARCH_INTERVALS);
    let MapperSearch::Best { m: best, t_shuffle } = search else { panic!("{search:?}") };
    assert_eq!(best, 427);
    assert!(close(t_shuffle, at(427), 1e-12), "{t_shuffle} vs {}", at(427));
    assert!(at(426) > t_shuffle && at(428) > t_shuffle);
}

/// m_best of a random 700-list (the uniform rates of seed 3, r = 250,
/// ℓ = 100, V = 1.25 × 10¹⁰ B) within the page's own quick budget: past
/// its best (480 mappers) come counts the budget leaves to the general LP,
/// each asked only whether it is slower than the best found, and ruled out
/// by the dual bound of its relaxations once that passes the best.
/// Solving them instead ran out of the budget (unproven at 494). The quick search finds what the full budget finds, and the
/// bound that rules out count 494 lies between the best and that count's
/// own shuffle (from the capped levels, another exact method).
#[test]
fn best_first_mappers_rule_out_counts_by_the_general_lps_dual_bound() {
    use isoperf::models::mapreduce::general::{interior_point_asked, Question};
    use isoperf::models::mapreduce::mappers::{best_prefix, MapperSearch, QUICK_SEARCH_INTERVALS, SEARCH_INTERVALS};
    use isoperf::models::mapreduce::schedule::Verdict;
    let (m, r, l, v) = (700, 250, 100, 1.25e10);
    let prefix = |k: usize| seed_3_prefix(k, r, l, v);
    let t_all = solve(&prefix(m)).unwrap().makespan();
    let quick = best_prefix(&prefix(m), t_all, QUICK_SEARCH_INTERVALS);
    let MapperSearch::Best { m: best, t_shuffle } = quick else { panic!("{quick:?}") };
    assert_eq!(best, 480);
    assert_eq!(quick, best_prefix(&prefix(m), t_all, SEARCH_INTERVALS));
    assert!(close(t_shuffle, solve(&prefix(best)).unwrap().makespan(), 1e-12));
    let past = solve(&prefix(494)).unwrap();
    assert!(matches!(past.method, Method::CappedLevels { .. }), "{:?}", past.method);
    let asked = |longest: f64| interior_point_asked(&prefix(494), Question { past: longest, allowance: f64::INFINITY });
    let Some(Verdict::Longer { bound, .. }) = asked(t_shuffle) else { panic!("494 not ruled out") };
    assert!(
        bound > t_shuffle && bound <= past.makespan() * (1.0 + 1e-12),
        "{t_shuffle} < {bound} ≤ {}",
        past.makespan()
    );
    // Asked past its own shuffle, the general LP solves the count.
    let Some(Verdict::Solved(solved)) = asked(past.makespan() * 1.001) else { panic!("494 not solved") };
    assert!(close(solved.makespan(), past.makespan(), 1e-9), "{} vs {}", solved.makespan(), past.makespan());
}

/// A count a search asks about that is faster than the best it has is
/// solved, not ruled out, and its rounds after the first are solved as a
/// plain solve's: a rough first round's parts name spurious violators,
/// and rough rounds went on naming them (count 1683 of the three-speed
/// 2000-list of seed 1, r = 250, ℓ = 100, V = 10¹¹ B: 17 rounds, where
/// the plain solve takes 3).
#[test]
fn a_count_faster_than_the_best_is_solved_in_a_plain_solves_rounds() {
    use isoperf::models::mapreduce::general::{interior_point_asked, Question};
    use isoperf::models::mapreduce::schedule::Verdict;
    let (k, r, l, v) = (1683, 250, 100, 1e11);
    let a = speed_rates(k, 3.0, 1);
    let p = Shuffle { intervals: Intervals::new(k, r, l).unwrap(), a, s: 1.0, c: 0.1e-6 / r as f64, v };
    let plain = interior_point(&p, 3e9).unwrap();
    let Method::InteriorPoint { rounds: plain_rounds, .. } = plain.method else { panic!("{:?}", plain.method) };
    let question = Question { past: plain.makespan() * 1.001, allowance: f64::INFINITY };
    let Some(Verdict::Solved(asked)) = interior_point_asked(&p, question) else { panic!("count {k} not solved") };
    let Method::InteriorPoint { rounds, .. } = asked.method else { panic!("{:?}", asked.method) };
    assert!(rounds <= plain_rounds + 1, "{rounds} rounds asked, {plain_rounds} plain");
    assert!(close(asked.makespan(), plain.makespan(), GENERAL_RTOL), "{} vs {}", asked.makespan(), plain.makespan());
}

/// A count the general LP rules out after its first round hands its
/// flows to the counts around it: the same flows through their intervals
/// (1 through those the count lacks) bound their LPs too (the safe bound
/// holds for any duals), and past the best there, where solving each took
/// its own relaxation. The random 700-list of seed 3 (r = 250, ℓ = 100,
/// V = 1.25 × 10¹⁰ B): count 400's flows rule out counts 395 to 403,
/// which the exact solver puts past the best; asked about a length past a
/// count's own shuffle, the bound they give is below that shuffle, as a
/// lower bound must be.
#[test]
fn flows_of_a_count_ruled_out_bound_the_counts_around_it() {
    use isoperf::models::mapreduce::general::{interior_point_asked, transferred_bound, Question};
    use isoperf::models::mapreduce::schedule::Verdict;
    let (r, l, v) = (250, 100, 1.25e10);
    let prefix = |k: usize| seed_3_prefix(k, r, l, v);
    let best = solve(&prefix(480)).unwrap().makespan();
    let question = Question { past: best, allowance: f64::INFINITY };
    let Some(Verdict::Longer { bound, flows: Some(flows) }) = interior_point_asked(&prefix(400), question) else {
        panic!("count 400 not ruled out after one round")
    };
    assert!(bound > best && flows.mappers() == 400, "{bound} vs {best}");
    for k in (395..400).chain(401..=403) {
        let own = solve(&prefix(k)).unwrap().makespan();
        let handed = transferred_bound(&prefix(k), &flows, best).unwrap();
        assert!(handed > best && own > best, "count {k}: {handed} and {own} against the best {best}");
        let longer = own * 1.01;
        let below = transferred_bound(&prefix(k), &flows, longer).unwrap();
        assert!(below <= own * (1.0 + GENERAL_RTOL), "count {k}: bound {below} past its shuffle {own}");
    }
}

/// The search for a list's best count reports its own progress, the
/// fraction of its budget spent, and not each count's: the relaxations of
/// a count that takes a second round reported their own fraction, from 0
/// again (the uniform 440-list of seed 3, r = 250, ℓ = 100, V = 5 × 10⁹ B:
/// 9 reports, the bar falling back 3 times).
#[test]
fn the_search_for_the_best_count_reports_only_its_own_progress() {
    use isoperf::models::mapreduce::mappers::{best_prefix, SEARCH_INTERVALS};
    use std::cell::RefCell;
    use std::rc::Rc;
    let p = seed_3_prefix(440, 250, 100, 5e9);
    let t_all = solve(&p).unwrap().makespan();
    let heard = Rc::new(RefCell::new(Vec::new()));
    let into = Rc::clone(&heard);
    isoperf::progress::with(move |f| into.borrow_mut().push(f), || best_prefix(&p, t_all, SEARCH_INTERVALS));
    let heard = heard.borrow();
    assert!(!heard.is_empty());
    assert!(heard.windows(2).all(|w| w[1] >= w[0]), "the bar falls back: {heard:?}");
}

/// m_best where the counts near the best share their schedule's shape (one
/// reducer group: a plateau, then the chain): the search tries each count
/// first with the method, and the plateau's length, that solved the count
/// before, and finds what solving every count alone finds.
#[test]
fn best_mapper_count_tried_near_the_count_before_equals_brute_force() {
    use isoperf::models::mapreduce::mappers::{best_mappers, MapperSearch, SEARCH_INTERVALS};
    for (m, r, l, v, s, gamma) in
        [(600, 35, 37, 1.63218e11, 9.66733, 0.968523), (1000, 100, 101, 1.93433e12, 8.29517, 0.33477)]
    {
        let all: Vec<(f64, Method)> = (1..=m)
            .map(|k| solve(&lecture_shuffle(k, r, l, v, s, gamma)).map(|o| (o.makespan(), o.method)).unwrap())
            .collect();
        let plateaus = all.iter().filter(|(_, method)| matches!(method, Method::Plateau { .. })).count();
        assert!(plateaus >= 50, "m = {m}: {plateaus} counts with a plateau");
        let low = all.iter().map(|(t, _)| *t).fold(f64::INFINITY, f64::min);
        let brute = 1 + all.iter().position(|(t, _)| *t <= low * (1.0 + 1e-12)).unwrap();
        let c = gamma * 1e-6 / r as f64;
        let MapperSearch::Best { m: best, t_shuffle } = best_mappers(m, r, l, LECTURE_A, s, c, v, SEARCH_INTERVALS)
        else {
            panic!("m = {m}: unproven")
        };
        assert_eq!(best, brute, "m = {m}");
        assert!(close(t_shuffle, low, 1e-12), "m = {m}: {t_shuffle} vs {low}");
    }
}

/// The search's lower bound is evaluated in a few dozen operations; the
/// exact shuffles it is compared with are exact to 10⁻⁹ and better.
const BOUND_RTOL: f64 = 1e-9;

/// m_best where the best count lies deep inside the descent's regime (the
/// page's iso-map point m = 594, r = 12, ℓ = 8, and r = 100 beside it):
/// the search solves only the counts its bound does not rule out, and
/// finds what solving every count finds. Every count's bound stays below
/// its shuffle.
#[test]
fn best_mapper_count_in_the_descent_regime_equals_brute_force() {
    use isoperf::models::mapreduce::mappers::{best_mappers, lower_bounds, MapperSearch, SEARCH_INTERVALS};
    for (m, r, want) in [(594, 12, 577), (800, 100, 558)] {
        let p = descent_case(m, r);
        let bounds = lower_bounds(m, r, 8, p.a[0], p.s, p.c, p.v);
        let all: Vec<f64> = (1..=m)
            .map(|k| {
                let q = Shuffle { intervals: Intervals::new(k, r, 8).unwrap(), a: vec![p.a[0]; k], ..p.clone() };
                let t = solve(&q).unwrap().makespan();
                let bound = bounds[k - 1];
                assert!(bound <= t * (1.0 + BOUND_RTOL), "r = {r}, m' = {k}: lower bound {bound} > shuffle {t}");
                t
            })
            .collect();
        let low = all.iter().copied().fold(f64::INFINITY, f64::min);
        let brute = 1 + all.iter().position(|&t| t <= low * (1.0 + 1e-12)).unwrap();
        assert_eq!(brute, want, "r = {r}: brute force");
        match best_mappers(m, r, 8, p.a[0], p.s, p.c, p.v, SEARCH_INTERVALS) {
            MapperSearch::Best { m: best, t_shuffle } => {
                assert_eq!(best, brute, "r = {r}");
                assert!(close(t_shuffle, low, GENERAL_RTOL), "r = {r}: T_best {t_shuffle} vs {low}");
            }
            other => panic!("r = {r}: {other:?}"),
        }
    }
    // Through the model: the remark's numbers are T at m' = 577.
    let at =
        |m: &str| eval(&[("l", "8"), ("V", "1.405e11"), ("S", "9.037"), ("gamma", "4.483e-2"), ("r", "12"), ("m", m)]);
    let (given, best) = (at("594"), at("577"));
    assert_eq!(num(&given, "m_best"), 577.0);
    assert!(close(num(&given, "T_best"), num(&best, "T"), GENERAL_RTOL));
}

/// The issue's example: a gigabyte on a thousand mappers of the lecture's
/// system is slower than on 142 (the chain with an idle tail from m' = 143).
#[test]
fn a_gigabyte_needs_far_fewer_mappers() {
    let best = eval(&[("V", "1e9")]);
    let at_best = eval(&[("V", "1e9"), ("m", "142")]);
    assert_eq!(num(&best, "m_best"), 142.0);
    assert!(close(num(&best, "T_best"), num(&at_best, "T"), 1e-12));
    assert!(num(&best, "T") > 3.0 * num(&best, "T_best"));
    let remarks = api::remarks("mapreduce", &raw(&[("V", "1e9")])).unwrap();
    assert!(
        remarks.iter().any(|r| r.key == Some("m_best") && r.text.contains("1000 mappers are no faster than 142")),
        "{remarks:?}"
    );
    // At the reference set every extra mapper still pays: m_best = m.
    let reference = eval(&[]);
    assert_eq!(num(&reference, "m_best"), 1000.0);
    assert_eq!(num(&reference, "T_best"), num(&reference, "T"));
}

/// Many reducer groups on a slow network: the chain after a plateau. The
/// shuffle-m-l sweep's gaps (γ = 1, ℓ = 10 < r = 100) were refused as
/// needing the general simplex; HiGHS on the LP as written (feasibility
/// tolerances 10⁻¹⁰; the LP of benches/mapreduce_highs.py) gives
/// t_shuffle = 353.9577279097958 s (m = 43, V = 10⁹) and
/// 1923.9357874996324 s (m = 110, V = 10¹⁰).
#[test]
fn many_groups_take_a_plateau_then_the_chain() {
    for (m, v, highs) in [("43", "1e9", 353.9577279097958), ("110", "1e10", 1923.9357874996324)] {
        let out = eval(&[("m", m), ("r", "100"), ("l", "10"), ("V", v), ("gamma", "1")]);
        assert!(close(num(&out, "t_shuffle"), highs, 1e-12), "m = {m}: {} vs HiGHS {highs}", num(&out, "t_shuffle"));
        let remarks =
            api::remarks("mapreduce", &raw(&[("m", m), ("r", "100"), ("l", "10"), ("V", v), ("gamma", "1")])).unwrap();
        assert!(remarks.iter().any(|r| r.text.contains("the chain after a plateau")), "{remarks:?}");
    }
    // Against the LP as written on random instances with several groups.
    let mut next = uniform(99);
    let mut plateaus = 0;
    // The regime of the sweep's gaps: A ≫ c ≫ S, ℓ a fraction of r.
    for case in 0..120 {
        let m = 10 + (next() * 30.0) as usize;
        let r = 20 + (next() * 40.0) as usize;
        let l = 2 + (next() * (r as f64 / 4.0)) as usize;
        let p = Shuffle {
            intervals: Intervals::new(m, r, l).unwrap(),
            a: vec![1.0; m],
            s: 10f64.powf(next() * 2.0 - 4.0),
            c: 10f64.powf(next() * 2.0 - 2.5),
            v: 1.0,
        };
        let Some(ours) = isoperf::models::mapreduce::schedule::plateau_chain(&p) else { continue };
        plateaus += 1;
        // microlp's tolerances are absolute: the LP is solved with times
        // scaled so the start-up is one (t scales with A, S and c alike).
        let scale = 1.0 / p.s;
        let scaled = Shuffle { a: p.a.iter().map(|a| a * scale).collect(), s: 1.0, c: p.c * scale, ..p.clone() };
        let (lp, _) = lp_as_written(&scaled);
        assert!(
            close(ours.makespan(), lp / scale, LP_RTOL),
            "case {case} {p:?}: plateau {} vs LP {}",
            ours.makespan(),
            lp / scale
        );
        assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9), "case {case}: reported vs implied");
    }
    assert!(plateaus >= 12, "{plateaus} plateau schedules certified");
}

/// The issue's distribution (V from 1 to 10¹⁵, S from 0 to 10, m up to 2000,
/// r up to 5000, ℓ from 1 to r, γ from 10⁻³ to 1; V ≥ r/γ): every instance
/// is answered (47 of 300 were refused before the general LP), every answer
/// meets every constraint of the LP as written and, where small, equals
/// microlp on it; the general LP answers some, each proved optimal by its
/// dual bound.
#[test]
fn the_issues_random_instances_are_all_answered() {
    let mut next = uniform(20261125);
    let a = 1e-5 + 1e-2 / 16e6;
    let (mut drawn, mut compared, mut by_general, mut by_descent) = (0, 0, 0, 0);
    while drawn < 300 {
        let m = (10f64.powf(next() * 2000f64.log10()) as usize).max(1);
        let r = (10f64.powf(next() * 5000f64.log10()) as usize).max(1);
        let l = 1 + (next() * r as f64) as usize;
        let gamma = 10f64.powf(next() * 3.0 - 3.0);
        let v = 10f64.powf(next() * 15.0);
        let s = next() * 10.0;
        if v < r as f64 / gamma {
            continue;
        }
        let Some(intervals) = Intervals::new(m, r, l.min(r)) else { continue };
        drawn += 1;
        let p = Shuffle { intervals, a: vec![a; m], s, c: gamma * 1e-6 / r as f64, v };
        let ours = solve(&p).unwrap_or_else(|e| panic!("{p:?} refused: {e}"));
        by_general += usize::from(matches!(ours.method, Method::InteriorPoint { .. }));
        by_descent += usize::from(matches!(ours.method, Method::PlateauDescent { .. }));
        if m * r <= 200_000 {
            let direct = makespan_of(&p, &ours.alpha);
            assert!(close(direct, ours.makespan(), 1e-9), "{p:?}: reported {} vs implied {direct}", ours.makespan());
        }
        if m <= 30 && intervals.count() <= 120 && s > 0.0 {
            let scaled = Shuffle { a: vec![a / s; m], s: 1.0, c: p.c / s, ..p.clone() };
            let (lp, _) = lp_as_written(&scaled);
            assert!(close(ours.makespan(), lp * s, LP_RTOL), "{p:?}: ours {} vs LP {}", ours.makespan(), lp * s);
            compared += 1;
        }
    }
    assert!(compared >= 20, "{compared} compared with the LP as written");
    // What only the general LP solved before takes the plateau and the
    // descent now, and the plateau with idle mappers the degenerate rest
    // (parts nearly equal on all but the last mappers: optimal faces).
    assert!(by_descent >= 30 && by_general == 0, "{by_descent} by the descent, {by_general} by the general LP");
}

#[test]
fn the_general_lp_reports_its_progress() {
    // Each interior-point iteration reports the digits of the gap and the
    // residuals gained (of twelve), the start included.
    let iv = Intervals::new(300, 40, 9).unwrap();
    let a = 1e-5 + 1e-2 / 16e6;
    let p = Shuffle { intervals: iv, a: vec![a; 300], s: 7.08, c: 0.977 * 1e-6 / 40.0, v: 542.0 };
    let heard = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = std::rc::Rc::clone(&heard);
    let lp = isoperf::progress::with(move |f| sink.borrow_mut().push(f), || general(&p)).unwrap();
    let Method::InteriorPoint { iterations, .. } = lp.method else { panic!("{:?}", lp.method) };
    let heard = heard.borrow();
    assert!(
        heard.len() >= iterations && heard.len() <= iterations + 1,
        "one report per iteration ({iterations}): {heard:?}"
    );
    assert!(heard.iter().all(|f| (0.0..=1.0).contains(f)), "{heard:?}");
    assert!(heard.last().is_some_and(|&f| f >= 0.7), "{heard:?}");
}

#[test]
fn level_steps_equal_the_lp_as_written() {
    // Longer descents (m from 10 to 40) pause for a level step near the
    // idle mappers, where two mappers tie for their windows' largest part:
    // each such schedule against microlp on the LP (4)-(7).
    let mut next = uniform(99);
    let mut compared = 0;
    for case in 0..1500 {
        let m = 10 + (next() * 30.0) as usize;
        let r = 2 + (next() * 20.0) as usize;
        let l = 2 + (next() * 6.0) as usize;
        let s = 100.0 / m as f64 * 10f64.powf(next() * 1.2 - 1.5);
        let c = s * m as f64 / 100.0 * 10f64.powf(next() * 2.0 - 2.5);
        let Some(intervals) = Intervals::new(m, r, l.min(r)) else { continue };
        if intervals.count() > 160 {
            continue;
        }
        let p = Shuffle { intervals, a: vec![1.0; m], s, c, v: 100.0 };
        let Some(ours) = plateau_descent(&p) else { continue };
        let Method::PlateauDescent { level: 1.., .. } = ours.method else { continue };
        assert_lp_as_written(case, &p, &ours);
        // The level step: two neighbours with equal parts inside the descent.
        assert!(
            ours.alpha.windows(2).any(|w| w[0] == w[1] && w[0] < ours.alpha[0] && w[0] > 0.0),
            "case {case}: no level step"
        );
        compared += 1;
    }
    assert!(compared >= 40, "{compared} schedules with level steps compared");
}

/// Many reducer groups, mapping slow beside the start-ups: the regime of
/// the plateau and the descent (the page's general-LP example, m = 594,
/// r = 12, ℓ = 8, and its neighbours over m and r).
fn descent_case(m: usize, r: usize) -> Shuffle {
    let a = 1e-5 + 1e-2 / 16e6;
    Shuffle {
        intervals: Intervals::new(m, r, 8).unwrap(),
        a: vec![a; m],
        s: 9.037,
        c: 4.483e-2 * 1e-6 / r as f64,
        v: 1.405e11,
    }
}

#[test]
fn plateau_and_descent_equal_the_general_lp() {
    // Two independent methods: the descent's dual solution and the
    // interior-point method's dual bound, both to GENERAL_RTOL.
    // From m = 3500 at r = 100 the descent pauses for a level step near
    // the idle mapper (these took the general LP, seconds natively, before).
    let cases =
        [(300, 100, 0), (594, 10, 0), (594, 12, 0), (594, 100, 0), (1000, 10, 0), (1000, 1000, 0), (3000, 100, 0)];
    let level_cases = [(3500, 100, 1)];
    for (m, r, want_level) in cases.into_iter().chain(level_cases) {
        let p = descent_case(m, r);
        let ours = plateau_descent(&p).unwrap_or_else(|| panic!("m = {m}, r = {r}: no proof"));
        // With no mapper idle the shape is the chain after a plateau.
        let (plateau, working, level) = match ours.method {
            Method::PlateauDescent { plateau, working, level } => (plateau, working, level),
            Method::Plateau { plateau, .. } => (plateau, m, 0),
            other => panic!("{other:?}"),
        };
        assert_eq!(level, want_level, "m = {m}, r = {r}: level steps");
        let lp = general(&p).unwrap();
        assert!(matches!(lp.method, Method::InteriorPoint { .. }));
        assert!(
            close(ours.makespan(), lp.makespan(), GENERAL_RTOL),
            "m = {m}, r = {r}: {} vs {}",
            ours.makespan(),
            lp.makespan()
        );
        assert_eq!(ours, solve(&p).unwrap(), "m = {m}, r = {r}: solve takes the descent");
        // The shape: equal parts, then falling ones, then idle mappers.
        let h = ours.alpha[0];
        assert!(ours.alpha[..plateau].iter().all(|&x| close(x, h, 1e-12)));
        assert!(ours.alpha[plateau..working].windows(2).all(|w| w[1] <= w[0] && w[1] > 0.0));
        assert!(ours.alpha[working..].iter().all(|&x| x == 0.0));
        if m * r <= 200_000 {
            let direct = makespan_of(&p, &ours.alpha);
            assert!(
                close(direct, ours.makespan(), 1e-9),
                "m = {m}, r = {r}: reported {} vs implied {direct}",
                ours.makespan()
            );
        }
    }
}

#[test]
fn plateau_and_descent_equal_the_lp_as_written_on_small_instances() {
    // Small shuffles where mapping outlasts the start-ups and several
    // reducer groups share the network, against microlp on the LP (4)-(7).
    let mut next = uniform(4242);
    let (mut proved, mut idle) = (0, 0);
    for case in 0..400 {
        let m = 3 + (next() * 10.0) as usize;
        let r = 2 + (next() * 30.0) as usize;
        let l = 1 + (next() * 6.0) as usize;
        let hetero = next() < 0.3;
        let a: Vec<f64> = (0..m).map(|_| if hetero { 10f64.powf(0.2 * next() - 0.1) } else { 1.0 }).collect();
        // Start-ups from 1/30 to 1/2 of a mapper's share of the load (the
        // descent takes a few steps), and a send of an equal part from
        // 1/300 to 1/3 of a start-up (the plateau's intervals slack).
        let s = 100.0 / m as f64 * 10f64.powf(next() * 1.2 - 1.5);
        let c = s * m as f64 / 100.0 * 10f64.powf(next() * 2.0 - 2.5);
        let p = Shuffle { intervals: Intervals::new(m, r, l.min(r)).unwrap(), a, s, c, v: 100.0 };
        let Some(ours) = plateau_descent(&p) else { continue };
        proved += 1;
        idle += usize::from(matches!(ours.method, Method::PlateauDescent { .. }));
        assert_lp_as_written(case, &p, &ours);
    }
    assert!(proved >= 200 && idle >= 25, "{proved} of 400 proved by the descent, {idle} with idle mappers");
}

/// One reducer group whose chain runs out 45 mappers before the end, after
/// a plateau of 5 (m = 8053, r = 280, ℓ = 281): the idle tail's chain
/// (no plateau) is not optimal for any length, and the general LP proves
/// its answer only to 2.8 × 10⁻⁶. Refused before; now the descent at its
/// own pace, against HiGHS on the LP as written and every constraint.
#[test]
fn one_group_descent_after_a_plateau_is_proved() {
    let (m, r, a, s) = (8053, 280, LECTURE_A, 8.29517);
    let p = lecture_shuffle(m, r, 281, 1.93433e13, s, 0.33477);
    let ours = solve(&p).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ours.method, Method::PlateauDescent { plateau: 5, working: 8008, level: 0 });
    assert!(close(ours.makespan(), HIGHS_8053, GENERAL_RTOL), "ours {} vs HiGHS {HIGHS_8053}", ours.makespan());
    assert!(close(makespan_of(&p, &ours.alpha), ours.makespan(), 1e-9));
    // Every interval from the plateau to the last working mapper tight:
    // A x_{n+1} = A x_n − S + c x_{n−r+1} (the window's oldest part).
    let x = &ours.alpha;
    for n in 5usize..8008 {
        let oldest = x[(n + 1).saturating_sub(r).max(1) - 1];
        let step = a * x[n] - a * x[n - 1] + s - p.c * oldest;
        assert!(step.abs() <= 1e-9 * a * x[0], "interval {n}: {step}");
    }
    assert!(x[..5].iter().all(|&v| v == x[0]) && x[8007] > 0.0 && x[8008..].iter().all(|&v| v == 0.0));
    // m_best: the lower bounds, 1.4 % below the shuffles here, leave some
    // 1600 counts, each solved near the one before's shape. The best is
    // m' = 8008, the mappers that work at m = 8053: the idle ones only add
    // their start-ups. (Unproven before the search tried each count near the
    // one before: it named m' = 7900.)
    let report = isoperf::api::Session::default()
        .report(
            "mapreduce",
            &raw(&[
                ("m", "8053"),
                ("r", "280"),
                ("l", "281"),
                ("V", "1.93433e13"),
                ("S", "8.29517"),
                ("gamma", "0.33477"),
            ]),
        )
        .unwrap();
    let outputs = serde_json::to_value(report.outputs.as_ref().unwrap()).unwrap();
    assert_eq!(outputs["m_best"], serde_json::json!(8008.0), "{:?}", report.remarks);
    let at = |k: usize| solve(&lecture_shuffle(k, r, 281, 1.93433e13, s, 0.33477)).unwrap().makespan();
    let best = at(8008);
    assert!(best < ours.makespan() && at(8007) > best && at(8009) > best);
    let t_red = outputs["t_red"].as_f64().unwrap();
    assert!(close(outputs["T_best"].as_f64().unwrap(), best + t_red, 1e-12));
}

/// One reducer group where mapping outlasts the start-ups and the chain
/// runs out before the last mappers: a plateau, the descent at its own
/// pace (every interval tight) and idle mappers after the one whose part
/// can drop to zero. Small shuffles against microlp on the LP as written.
#[test]
fn one_group_descent_at_its_own_pace_equals_the_lp_as_written() {
    let mut next = uniform(8053);
    let (mut proved, mut idle) = (0, 0);
    for case in 0..300 {
        let m = 3 + (next() * 12.0) as usize;
        let r = 1 + (next() * 12.0) as usize;
        let l = r + (next() * 3.0) as usize;
        let s = 100.0 / m as f64 * 10f64.powf(next() * 1.2 - 1.5);
        let c = s * m as f64 / 100.0 * 10f64.powf(next() * 2.0 - 2.0);
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a: vec![1.0; m], s, c, v: 100.0 };
        let Some(ours) = plateau_descent(&p) else { continue };
        proved += 1;
        idle += usize::from(matches!(ours.method, Method::PlateauDescent { working, .. } if working < m));
        assert_lp_as_written(case, &p, &ours);
    }
    assert!(proved >= 100 && idle >= 20, "{proved} of 300 proved by the descent, {idle} with idle mappers");
}

/// Equal parts with idle last mappers past the form's plateau limit (16 000
/// intervals): their proof splits the tail's flows evenly over the working
/// mappers by Hall's condition on arcs, O(N log N), where a maximum flow
/// took minutes. Refused before as too large for the general LP (3.7 × 10⁸
/// and 3.2 × 10⁸ operations a step). The parts' T is recomputed here from
/// the interval tables, and the same shape at m = 2000 equals the general LP.
#[test]
fn equal_parts_with_idle_mappers_are_proved_past_the_plateau_limit() {
    for (m, r, l, v, s, gamma, working) in [
        (63167usize, 93usize, 43usize, 1.36071e4, 3.7902, 8.8506e-2, 63166usize),
        (12521, 573, 96, 6.68793e5, 0.75068, 1.81512e-3, 12520),
    ] {
        let p = lecture_shuffle(m, r, l, v, s, gamma);
        let iv = p.intervals;
        assert!(iv.count() > 16_000, "m = {m}: N = {}", iv.count());
        let ours = solve(&p).unwrap_or_else(|e| panic!("m = {m}: {e}"));
        assert_eq!(ours.method, Method::PlateauIdle { working }, "m = {m}");
        // Equal parts V/q on the first q mappers, none after: every interval
        // from m on lasts c V/q where a working mapper sends in it.
        let h = v / working as f64;
        assert!(ours.alpha.iter().enumerate().all(|(i, &x)| if i < working { close(x, h, 1e-12) } else { x == 0.0 }));
        let sending = (m..=iv.count()).filter(|&n| iv.senders(n).any(|g| g.lo <= working)).count();
        let t = m as f64 * s + p.c * h * sending as f64;
        assert!(close(ours.makespan(), t, CLOSED_RTOL), "m = {m}: {} vs {t}", ours.makespan());
    }
    let p = lecture_shuffle(2000, 93, 43, 1.36071e4, 3.7902, 8.8506e-2);
    let (ours, lp) = (solve(&p).unwrap(), general(&p).unwrap());
    assert_eq!(ours.method, Method::PlateauIdle { working: 1999 });
    assert!(close(ours.makespan(), lp.makespan(), GENERAL_RTOL), "{} vs {}", ours.makespan(), lp.makespan());
}

/// The descent past 50 000 mappers (r = 83, ℓ = 54, the same shuffle per
/// mapper: V/m, S and c): a plateau, a descent of 20 and 54 idle. At
/// m = 84 630 (from the issue's random shuffles) it was refused: the
/// plateau lengths the descent fits lay between the search's grid points.
/// At m = 60 000 the plateau's split failed: earliest deadline first
/// dropped each supply with up to 10⁻⁹ of the total left, 1.6 × 10⁻⁴ short
/// in all at the last member. Their parts checked here one by one, and
/// the same shape at m = 3000 equal to the general LP.
#[test]
fn the_descent_past_50_000_mappers_is_proved() {
    let (r, l, s, gamma) = (83, 54, 9.7171, 0.0240981);
    let per_mapper = 1.6725e12 / 84630.0;
    for (m, plateau) in [(84630, 84556), (60000, 59926)] {
        let p = lecture_shuffle(m, r, l, per_mapper * m as f64, s, gamma);
        let ours = solve(&p).unwrap_or_else(|e| panic!("m = {m}: {e}"));
        let working = plateau + 20;
        assert_eq!(ours.method, Method::PlateauDescent { plateau, working, level: 0 });
        let x = &ours.alpha;
        let total: f64 = x.iter().sum();
        assert!(close(total, p.v, 1e-10), "m = {m}: {total} vs {}", p.v);
        assert!(
            x[..plateau].iter().all(|&v| v == x[0]) && x[working - 1] > 0.0 && x[working..].iter().all(|&v| v == 0.0)
        );
        assert!(x.windows(2).all(|w| w[1] <= w[0]), "m = {m}: the parts fall");
        assert!(close(makespan_of(&p, x), ours.makespan(), 1e-9), "m = {m}");
    }
    let p = lecture_shuffle(3000, r, l, per_mapper * 3000.0, s, gamma);
    let (ours, lp) = (solve(&p).unwrap(), general(&p).unwrap());
    assert_eq!(ours.method, Method::PlateauDescent { plateau: 2926, working: 2946, level: 0 });
    assert!(close(ours.makespan(), lp.makespan(), GENERAL_RTOL), "{} vs {}", ours.makespan(), lp.makespan());
}

/// A map of T reads each descent's ends without its schedule over every
/// interval: at the descent point (m = 594, r = 12, ℓ = 8, V = 1.405 × 10¹¹,
/// S = 9.037), over m = 10 … 10⁴ and r = 10 … 1000 (log, 12 × 8), every
/// point equals the form's T, and so does t_map. To [`TAIL_SUM_RTOL`]: the
/// form adds the tail's intervals one by one (m = 10⁴, r = 72: 9 · 10⁴ of
/// them), the map each mapper's count of the windows it is largest in.
#[test]
fn a_map_of_t_reads_each_descents_ends_as_the_form_does() {
    use isoperf::models::MODELS;
    let model = MODELS.iter().find(|m| m.spec().id == "mapreduce").unwrap();
    let pairs = [("m", "594"), ("r", "12"), ("l", "8"), ("V", "1.405e11"), ("S", "9.037"), ("gamma", "4.483e-2")];
    let p = model.spec().parse(&raw(&pairs)).unwrap();
    let ms: Vec<f64> = (0..12).map(|i| 10f64.powf(1.0 + 3.0 * i as f64 / 11.0).round()).collect();
    let rs: Vec<f64> = (0..8).map(|j| 10f64.powf(1.0 + 2.0 * j as f64 / 7.0).round()).collect();
    let (mut descents, mut t, mut t_map) = (0, vec![f64::NAN; 96], vec![f64::NAN; 96]);
    assert!(model.field("T", &p, ("m", &ms), ("r", &rs), &mut t));
    assert!(model.field("t_map", &p, ("m", &ms), ("r", &rs), &mut t_map));
    for (k, (t, t_map)) in t.iter().zip(&t_map).enumerate() {
        let (m, r) = (ms[k % 12].to_string(), rs[k / 12].to_string());
        let form = evaluate("mapreduce", &[&pairs[2..], &[("m", m.as_str()), ("r", r.as_str())]].concat());
        assert!(close(*t, num(&form, "T"), TAIL_SUM_RTOL), "m = {m}, r = {r}: {t} vs {}", num(&form, "T"));
        assert!(close(*t_map, num(&form, "t_map"), 1e-12), "m = {m}, r = {r}: t_map {t_map}");
        let shuffle = lecture_shuffle(ms[k % 12] as usize, rs[k / 12] as usize, 8, 1.405e11, 9.037, 4.483e-2);
        descents += usize::from(matches!(solve(&shuffle).unwrap().method, Method::PlateauDescent { .. }));
    }
    assert!(descents >= 20, "{descents} points with a descent");
}

/// The form's running sum over the tail's intervals rounds at each of them
/// (up to N · 2⁻⁵³: 1.4 · 10⁻¹⁰ at m = 10⁴, r = 1000, N = 1.25 · 10⁶; at
/// most 2.2 · 10⁻¹⁰ within the calculator's 2 · 10⁶ intervals); the
/// certificate's own tolerance is 10⁻⁹.
const TAIL_SUM_RTOL: f64 = 1e-9;

/// The speedup map over m and γ at the descent point (m = 594, r = 12,
/// ℓ = 8, V = 1.405 × 10¹¹, S = 9.037) had one gap: at γ = 1 and
/// m ≈ 1389 (N = 2785) only the plateau methods prove the shuffle, past a
/// map point's 1000 intervals for them, and the general LP is past its
/// budget too. A few points a row now get a sweep point's budget: the row
/// fills, and that point equals the form's value.
#[test]
fn the_speedup_map_over_m_and_gamma_fills_at_the_descent_point() {
    use isoperf::models::MODELS;
    let model = MODELS.iter().find(|m| m.spec().id == "mapreduce").unwrap();
    let pairs = [("m", "594"), ("r", "12"), ("l", "8"), ("V", "1.405e11"), ("S", "9.037"), ("gamma", "4.483e-2")];
    let p = model.spec().parse(&raw(&pairs)).unwrap();
    // The preset's 64 columns, m = 10 … 10⁴ (log), on the row γ = 1.
    let ms: Vec<f64> = (0..64).map(|i| 10f64.powf(1.0 + 3.0 * i as f64 / 63.0)).collect();
    let mut row = vec![f64::NAN; 64];
    assert!(model.field("speedup", &p, ("m", &ms), ("gamma", &[1.0]), &mut row));
    let gaps: Vec<f64> = ms.iter().zip(&row).filter(|(_, v)| !v.is_finite()).map(|(m, _)| *m).collect();
    assert!(gaps.is_empty(), "no speedup at m = {gaps:?}");
    let at = ms.iter().position(|&m| m.round() == 1389.0).unwrap();
    let form = evaluate("mapreduce", &[&pairs[1..5], &[("m", "1389"), ("gamma", "1")]].concat());
    assert!(close(row[at], num(&form, "speedup"), 1e-12), "{} vs {}", row[at], num(&form, "speedup"));
}
