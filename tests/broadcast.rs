//! Broadcast algorithms (issue 15): every closed form against the
//! simulator playing the algorithm's sends, under Hockney and LogGP; no
//! algorithm below the lower bound; the best segment count against a
//! brute-force search; hand-computed cases.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use isoperf::collective::algorithms::{self, best_segments, lower_bound, mpich_choice, Algorithm};
use isoperf::collective::simulate::{schedule, simulate};
use isoperf::collective::Network;

/// The exact closed forms match the simulation to rounding.
const EXACT: f64 = 1e-9;
/// How far an estimate may fall below its schedule.
const UNDER: f64 = 0.01;

/// Networks: Hockney with a slow start-up on a fast link and the reverse;
/// LogGP with a gap shorter than the latency (InfiniBand-like) and one
/// longer (a gap-bound NIC).
const NETWORKS: [Network; 4] = [
    Network::Hockney { alpha: 1e-5, beta: 1e-9 },
    Network::Hockney { alpha: 1e-6, beta: 1e-8 },
    Network::LogGP { l: 2e-6, o: 3e-7, g: 5e-7, big_g: 2e-10 },
    Network::LogGP { l: 1e-6, o: 2e-7, g: 4e-6, big_g: 1e-9 },
];

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= EXACT * a.abs().max(b.abs())
}

/// Process counts: every p up to 64, then powers of two and their
/// neighbours, and a spread up to 1000.
fn process_counts() -> Vec<usize> {
    let mut ps: Vec<usize> = (2..=64).collect();
    for e in 7..=10 {
        ps.extend([(1 << e) - 1, 1 << e, (1 << e) + 1]);
    }
    ps.extend((65..=1000).step_by(53));
    ps.push(1000);
    ps.sort_unstable();
    ps.dedup();
    ps
}

/// Simulates `algorithm` and returns (formula, simulated), or `None` where it does not apply.
fn both(algorithm: Algorithm, p: usize, n: f64, k: usize, net: &Network) -> Option<(f64, f64)> {
    let formula = algorithm.time(p as u64, n, k as u64, net);
    let Some(s) = schedule(algorithm, p, k) else {
        assert_eq!(formula, None, "{algorithm:?} p = {p}: a form without a schedule");
        return None;
    };
    let sim = simulate(&s, n, net).unwrap_or_else(|| panic!("{algorithm:?} p = {p} k = {k}: the schedule stalls"));
    let formula = formula.unwrap_or_else(|| panic!("{algorithm:?} p = {p}: a schedule without a form"));
    Some((formula, sim.time))
}

#[test]
fn every_exact_closed_form_equals_its_simulated_schedule() {
    let mut checked = 0;
    for p in process_counts() {
        // Up to p = 64 every network and segment count, at a tiny and a large
        // message under Hockney and a medium one under LogGP; above, one size
        // and one network of each kind, and the ring (p² messages) at a few p.
        let small = p <= 64;
        for (w, net) in NETWORKS.iter().enumerate() {
            if !small && w % 2 == 1 {
                continue;
            }
            let sizes: &[f64] = match (small, net) {
                (true, Network::Hockney { .. }) => &[1.0, 1e6],
                (true, Network::LogGP { .. }) => &[1e3],
                (false, _) => &[1e6],
            };
            for &n in sizes {
                for algorithm in Algorithm::ALL.into_iter().filter(|a| a.exact(net)) {
                    if !small && algorithm == Algorithm::ScatterRing && ![127, 128, 129].contains(&p) {
                        continue;
                    }
                    let ks: &[usize] = match (algorithm.segmented(), small) {
                        (true, true) => &[1, 2, 7, 23],
                        (true, false) => &[1, 16],
                        (false, _) => &[1],
                    };
                    for &k in ks {
                        let Some((formula, sim)) = both(algorithm, p, n, k, net) else { continue };
                        assert!(
                            close(formula, sim),
                            "{algorithm:?} p = {p}, n = {n}, k = {k}, {net:?}: formula {formula}, simulated {sim}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 2000, "{checked} cases");
}

/// The estimates (the scatters under LogGP, which start every exchange
/// after the whole scatter) stay near their schedules: never more than 1%
/// below (they are upper bounds but for the stragglers of a scatter whose
/// exchanges start early) nor twice above, and never below the lower
/// bound. The page shows the simulated time beside them.
#[test]
fn the_estimates_bound_their_schedules() {
    let mut checked = 0;
    let (mut worst, mut under): (f64, f64) = (0.0, 0.0);
    for p in (2..=64).chain([127, 128, 129, 255, 256, 257]) {
        for net in &NETWORKS {
            for n in [1.0, 1e3, 1e6] {
                for algorithm in Algorithm::ALL.into_iter().filter(|a| !a.exact(net)) {
                    let Some((formula, sim)) = both(algorithm, p, n, 1, net) else { continue };
                    let bound = lower_bound(p as u64, n, net);
                    assert!(
                        sim >= bound * (1.0 - EXACT),
                        "{algorithm:?} p = {p}, n = {n}: simulated {sim} below the bound {bound}"
                    );
                    assert!(
                        formula >= sim * (1.0 - UNDER),
                        "{algorithm:?} p = {p}, n = {n}, {net:?}: estimate {formula} below its schedule {sim}"
                    );
                    worst = worst.max(formula / sim - 1.0);
                    under = under.max(1.0 - formula / sim);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 400, "{checked} cases");
    println!("estimates: up to {:.1}% above, {:.2}% below their schedules", 100.0 * worst, 100.0 * under);
    assert!(worst < 1.0, "an estimate is {:.0}% above its schedule", 100.0 * worst);
}

#[test]
fn no_algorithm_beats_the_lower_bound() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for _ in 0..5000 {
        let p = 2 + (next() * 1e5) as u64;
        let n = 10f64.powf(next() * 9.0);
        let net = if next() < 0.5 {
            Network::Hockney { alpha: 10f64.powf(-7.0 + 3.0 * next()), beta: 10f64.powf(-11.0 + 3.0 * next()) }
        } else {
            let o = 10f64.powf(-8.0 + 2.0 * next());
            Network::LogGP {
                l: 10f64.powf(-7.0 + 2.0 * next()),
                o,
                g: o * (1.0 + 10.0 * next()),
                big_g: 10f64.powf(-11.0 + 3.0 * next()),
            }
        };
        let bound = lower_bound(p, n, &net);
        for algorithm in Algorithm::ALL {
            let k = best_segments(algorithm, p, n, &net).0;
            if let Some(t) = algorithm.time(p, n, k, &net) {
                assert!(t >= bound * (1.0 - EXACT), "{algorithm:?} p = {p}, n = {n}, {net:?}: {t} < bound {bound}");
            }
        }
    }
}

#[test]
fn the_best_segment_count_is_the_brute_force_one() {
    for net in &NETWORKS {
        for p in [2u64, 3, 4, 10, 33, 100, 1000] {
            for n in [1.0, 10.0, 1e3, 1e5, 1e6] {
                for algorithm in Algorithm::ALL.into_iter().filter(|a| a.segmented()) {
                    let (k, t) = best_segments(algorithm, p, n, net);
                    let most = algorithms::most_segments(n).min(20_000);
                    let brute = (1..=most).map(|k| algorithm.time(p, n, k, net).unwrap()).fold(f64::INFINITY, f64::min);
                    assert!(
                        close(t, brute),
                        "{algorithm:?} p = {p}, n = {n}, {net:?}: best k = {k} gives {t}, brute force {brute}"
                    );
                }
            }
        }
    }
}

/// Hand-computed cases: p = 4, n = 4 bytes, alpha = beta = 1 (a piece of b bytes costs 1 + b).
#[test]
fn small_cases_by_hand() {
    let h = Network::Hockney { alpha: 1.0, beta: 1.0 };
    // Flat: 3 messages of 5.
    assert_eq!(algorithms::flat(4, 4.0, &h), 15.0);
    // Binomial: 2 rounds of 5; with 5 processes 3 rounds.
    assert_eq!(algorithms::binomial(4, 4.0, &h), 10.0);
    assert_eq!(algorithms::binomial(5, 4.0, &h), 15.0);
    // Chain with 4 segments of 1 byte: (4 + 4 − 2) messages of 2.
    assert_eq!(algorithms::chain(4, 4.0, 4, &h), 12.0);
    // Scatter: 2 + 3/4·4 = 5; recursive doubling: 2 + 3 = 5; ring: 3 + 3 = 6.
    assert_eq!(algorithms::scatter_recursive_doubling(4, 4.0, &h), Some(10.0));
    assert_eq!(algorithms::scatter_ring(4, 4.0, &h), 11.0);
    assert_eq!(algorithms::scatter_recursive_doubling(6, 4.0, &h), None);
    // Binary heap of 4 nodes (depth 2, the deepest node 4 = 100₂ has no right edge); of 5, node 5 = 101₂ has one.
    assert_eq!(algorithms::heap_shape(4), (2, 0));
    assert_eq!(algorithms::heap_shape(5), (2, 1));
    assert_eq!(algorithms::heap_shape(7), (2, 2));
    // One segment: the longest path is max((D − 1)·2, D + R) messages of 5.
    assert_eq!(algorithms::binary(4, 4.0, 1, &h), 10.0);
    assert_eq!(algorithms::binary(5, 4.0, 1, &h), 15.0);
    // Two segments of 2 bytes (3 each): the root serves both children per segment, 2 messages apart.
    assert_eq!(algorithms::binary(5, 4.0, 2, &h), 3.0 * (2.0 + 3.0));
    assert_eq!(lower_bound(4, 4.0, &h), 6.0);
    // LogGP, l = 4, o = 1, g = 2, G = 1: a 3-byte message arrives after 4 + 2 + 2 = 8 and holds its sender for 2 + 2 = 4.
    let lg = Network::LogGP { l: 4.0, o: 1.0, g: 2.0, big_g: 1.0 };
    assert_eq!((lg.delivery(3.0), lg.gap(3.0)), (8.0, 4.0));
    // Flat to 4 processes: the third send starts at 2 · 4 and arrives 8 later.
    assert_eq!(algorithms::flat(4, 3.0, &lg), 16.0);
    // Binomial to 4: max(d + d, s + d) = 16.
    assert_eq!(algorithms::binomial(4, 3.0, &lg), 16.0);
    // Bound: max(8, 6 + 1 · min(2, 6)) = 8.
    assert_eq!(lower_bound(4, 3.0, &lg), 8.0);
}

/// MPICH's rules (MPICH 3's MPIR_Bcast_intra; Thakur, Rabenseifner, Gropp
/// 2005): short messages or fewer than 8 processes take the binomial tree,
/// medium ones on a power of two scatter + recursive doubling, the rest the ring.
#[test]
fn mpich_switches_at_its_thresholds() {
    assert_eq!(mpich_choice(64, 12287.0), Algorithm::Binomial);
    assert_eq!(mpich_choice(7, 1e9), Algorithm::Binomial);
    assert_eq!(mpich_choice(64, 12288.0), Algorithm::ScatterRecursiveDoubling);
    assert_eq!(mpich_choice(64, 524_287.0), Algorithm::ScatterRecursiveDoubling);
    assert_eq!(mpich_choice(64, 524_288.0), Algorithm::ScatterRing);
    assert_eq!(mpich_choice(63, 20_000.0), Algorithm::ScatterRing);
}

// ---- The model, through the facade the page and the CLI use ----------------------------------

mod common;
use common::{evaluate, missing, num, raw};
use isoperf::api;
use isoperf::spec::{OutValue, Outputs};

/// A categorical output's id.
fn category(out: &Outputs, key: &str) -> &'static str {
    out.0
        .iter()
        .find_map(|(k, v)| match v {
            OutValue::Category(c) if *k == key => Some(c.id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no category {key}"))
}

/// Table 2 of the matrix-multiplication paper (Li, Fox, Qiu) prices the
/// broadcast of an M × M matrix over N processes at ⌈log₂ N⌉ M² T_comm
/// (MS-MPI's binomial tree) and M² T_comm (Fox's pipeline, whose start-ups
/// vanish as segments shrink); its flat tree, N M² T_comm, counts the root
/// too. With α → 0 and β = T_comm per 8-byte element the model gives them.
#[test]
fn table2_of_the_pmm_paper() {
    // Table 3's MS.MPI Tempest 20 Gbps rate: 18.17 × 10⁶ elements/s; N = 25, M = 16000.
    let (n_procs, m, t_comm) = (25u64, 16000.0, 1.0 / 18.17e6);
    let net = Network::Hockney { alpha: 1e-15, beta: t_comm / 8.0 };
    let bytes = 8.0 * m * m;
    let m2 = m * m * t_comm;
    // The binomial tree takes whole rounds: ⌈log₂ 25⌉ = 5 (SPEC, pmm).
    assert!(close(algorithms::binomial(n_procs, bytes, &net), 5.0 * m2));
    // The pipeline reaches M² T_comm as segments shrink: (p + k − 2)/k → 1, within (p − 2)/k of 2²⁰ segments.
    let (k, chain) = best_segments(Algorithm::Chain, n_procs, bytes, &net);
    assert_eq!(k, algorithms::MAX_SEGMENTS);
    assert!((chain / m2 - 1.0).abs() <= 23.0 / algorithms::MAX_SEGMENTS as f64 + EXACT, "{chain} vs {m2}");
    // The flat tree sends N − 1 copies; Table 2 writes N M² T_comm, within 1/N.
    let flat = algorithms::flat(n_procs, bytes, &net);
    assert!(close(flat, 24.0 * m2) && (25.0 * m2 - flat) / (25.0 * m2) <= 1.0 / 25.0 + EXACT);
}

/// SPEC, broadcast: the chain's best segment size is s* = √(n α / ((p − 2) β)),
/// so its best count n/s* = √((p − 2) n β / α); the integer search lands next to it.
#[test]
fn the_chains_best_count_is_the_specs_optimum() {
    for (p, n, alpha, beta) in [(64u64, 1e7, 1e-5, 1e-9), (10, 1e6, 2e-6, 1e-8), (1000, 1e9, 5e-5, 4e-11)] {
        let net = Network::Hockney { alpha, beta };
        let k_star = ((p - 2) as f64 * n * beta / alpha).sqrt();
        let (k, _) = best_segments(Algorithm::Chain, p, n, &net);
        assert!((k as f64 - k_star).abs() <= 1.0, "p = {p}, n = {n}: k = {k}, SPEC's optimum {k_star}");
    }
}

#[test]
fn the_model_reports_every_algorithm_and_the_winner() {
    // Defaults: pmm's row broadcast on Tempest (p = 5, 81.92 MB, α = 42.5 µs, β = 1/(8 × 18.17 × 10⁶)).
    let out = evaluate("broadcast", &[]);
    let net = Network::Hockney { alpha: 42.5e-6, beta: 1.0 / (8.0 * 18.17e6) };
    let n = 81_920_000.0;
    assert!(close(num(&out, "T_binomial"), algorithms::binomial(5, n, &net)));
    assert!(close(num(&out, "T"), num(&out, "T_binomial")), "the default algorithm is the binomial tree");
    assert!(close(num(&out, "lower_bound"), lower_bound(5, n, &net)));
    assert!(close(num(&out, "T_chain"), best_segments(Algorithm::Chain, 5, n, &net).1));
    // Recursive doubling needs a power of two: a gap, not a number.
    assert!(missing(&out, "T_scatter_rd"));
    assert!(missing(&out, "segments_best"), "the binomial tree is not segmented");
    // The fastest is the least of the seven; MPICH takes the binomial tree below 8 processes.
    let times: Vec<(&str, f64)> = ["flat", "binomial", "chain", "binary", "split_binary", "scatter_ring"]
        .into_iter()
        .map(|id| (id, num(&out, &format!("T_{id}"))))
        .collect();
    let least = times.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert_eq!(category(&out, "best"), least.0);
    assert_eq!(category(&out, "mpich"), "binomial");
    assert!(close(num(&out, "mpich_ratio"), num(&out, "T_binomial") / least.1));
    // A power of two: recursive doubling has its time, and the chosen chain its best count.
    let out = evaluate("broadcast", &[("p", "64"), ("algorithm", "chain"), ("n", "1"), ("n_unit", "MiB")]);
    assert!(num(&out, "T_scatter_rd") > 0.0);
    let (k, t) = best_segments(Algorithm::Chain, 64, 1_048_576.0, &net);
    assert_eq!(num(&out, "segments_best"), k as f64);
    assert!(close(num(&out, "T"), t));
    // A fixed segment count applies to every segmented algorithm.
    let out = evaluate("broadcast", &[("p", "64"), ("algorithm", "binary"), ("segments", "8")]);
    assert!(close(num(&out, "T"), algorithms::binary(64, n, 8, &net)));
    // LogGP: the same algorithms under the other cost model.
    let out = evaluate(
        "broadcast",
        &[("cost", "loggp"), ("p", "16"), ("L", "2e-6"), ("o", "3e-7"), ("g", "5e-7"), ("G", "2e-10")],
    );
    let lg = Network::LogGP { l: 2e-6, o: 3e-7, g: 5e-7, big_g: 2e-10 };
    assert!(close(num(&out, "T_flat"), algorithms::flat(16, n, &lg)));
    assert!(close(num(&out, "lower_bound"), lower_bound(16, n, &lg)));
}

/// The page's bad input: each a message at its field naming the valid range.
#[test]
fn bad_input_is_refused_at_its_field() {
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
    let cases: &[Case] = &[
        (&[("p", "1")], "p", "2 ≤ value"),
        (&[("p", "2.5")], "p", "integer"),
        (&[("p", "1e9")], "p", "≤ 1e8"),
        (&[("n", "0")], "n", "0 < value"),
        (&[("n", "-5")], "n", "0 < value"),
        (&[("n", "0.5")], "n", "at least 1 byte"),
        (&[("alpha", "0")], "alpha", "0 < value"),
        (&[("beta", "-1e-9")], "beta", "0 < value"),
        (&[("cost", "loggp"), ("o", "1e-6"), ("g", "1e-7")], "g", "g ≥ o"),
        (&[("cost", "loggp"), ("G", "0")], "G", "0 < value"),
        (&[("n", "10"), ("segments", "11")], "segments", "1 to 10"),
        (&[("segments", "2e6")], "segments", "≤ 1048576"),
        (&[("algorithm", "<script>")], "algorithm", "flat"),
    ];
    for (pairs, key, says) in cases {
        let e = api::evaluate("broadcast", &raw(pairs)).expect_err(&format!("{pairs:?} is accepted"));
        let fields = e.field_errors();
        let f = fields.iter().find(|f| f.key == *key).unwrap_or_else(|| panic!("{pairs:?}: no message at {key}: {e}"));
        assert!(f.message.contains(says), "{pairs:?}: '{}' does not say '{says}'", f.message);
    }
}

/// p in the millions: the formulas answer at once; the timeline says it
/// draws at most 64 processes instead of simulating millions.
#[test]
fn millions_of_processes_get_formulas_and_no_timeline() {
    let out = evaluate("broadcast", &[("p", "5000000"), ("algorithm", "scatter_ring")]);
    assert!(num(&out, "T") > 0.0 && num(&out, "T_binomial") > 0.0);
    let e = api::chart("broadcast", "timeline", &raw(&[("p", "5000000")])).unwrap_err();
    assert!(e.to_string().contains("at most 64"), "{e}");
    // At p ≤ 64 it is drawn, with one row per process.
    let chart =
        api::chart("broadcast", "timeline", &raw(&[("p", "16"), ("algorithm", "chain"), ("segments", "4")])).unwrap();
    assert_eq!(chart.y.tick_labels.len(), 16);
    let bars: usize = chart.series.iter().map(|s| s.spans.len()).sum();
    assert_eq!(bars, 15 * 4, "a chain of 16 passes 4 segments over 15 links");
}
