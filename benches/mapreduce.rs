//! One exact solve of the MapReduce shuffle LP (4)-(7) at the lecture's
//! reference set (r = l = 100, V = 1 PB), for m = 100, 1000 and 5000, and a
//! sweep of 50 values of m, and the page's quick report at its limit
//! (`QUICK_INTERVALS`); the speedup map over m and r the page offers
//! (identical mappers: the chain in closed form per point), the idle-tail
//! method, and the search for m_best. Compare with `benches/mapreduce_highs.py`
//! (scipy's HiGHS on the same LP) and the browser's www/bench.html.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use isoperf::api;
use isoperf::models::mapreduce::general::interior_point_whole;
use isoperf::models::mapreduce::levels::{capped_levels_near, LevelsNear};
use isoperf::models::mapreduce::schedule::{general, solve, Budget, Intervals, Shuffle};
use isoperf::spec::RawParams;

/// The lecture's reference set with m mappers.
fn reference(m: usize) -> Shuffle {
    let a = 1e-5 + 1e-2 / 16e6;
    Shuffle { intervals: Intervals::new(m, 100, 100).unwrap(), a: vec![a; m], s: 1.0, c: 0.1 * 1e-6 / 100.0, v: 1e15 }
}

/// Form values given as numbers.
fn numbers(pairs: &[(&str, f64)]) -> RawParams {
    pairs.iter().map(|&(k, v)| (k.to_string(), isoperf::spec::RawValue::Num(v))).collect()
}

fn shuffle(c: &mut Criterion) {
    for m in [100, 1000, 5000] {
        let p = reference(m);
        c.bench_function(&format!("mapreduce/solve m={m} r=l=100"), |b| b.iter(|| solve(black_box(&p)).unwrap()));
    }
    // The general LP the exact methods save (the fallback) on the same shuffle.
    let p = reference(100);
    c.bench_function("mapreduce/general LP (fallback) m=100 r=l=100", |b| b.iter(|| general(black_box(&p)).unwrap()));
    // Shuffles the general LP alone proved before the plateau and the
    // descent (the issue's random instances: two reducer groups, mapping
    // outlasting the start-ups; and ten thousand mappers on ten groups),
    // then one it still proves alone (parts nearly equal on five groups).
    let a = 1e-5 + 1e-2 / 16e6;
    for (m, r, l, gamma, v, s) in [
        (594usize, 12usize, 8usize, 4.483e-2, 1.405e11, 9.037),
        (1177, 115, 100, 1.877e-2, 2.579e10, 1.061),
        (10000, 10, 8, 4.483e-2, 1.405e11, 9.037),
        // Level steps near the idle mapper: one (m = 8000, r = 100), and a
        // level run of the last seven working mappers (m = 862, γ = 0.0353).
        (8000, 100, 8, 4.483e-2, 1.405e11, 9.037),
        (862, 12, 8, 3.535e-2, 1.405e11, 9.037),
    ] {
        let p =
            Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a: vec![a; m], s, c: gamma * 1e-6 / r as f64, v };
        c.bench_function(&format!("mapreduce/solve (plateau and descent) m={m} r={r} l={l}"), |b| {
            b.iter(|| solve(black_box(&p)).unwrap())
        });
    }
    // The first was the general LP's (1.7 s) until its level run, nine
    // mappers before the idle mapper's windows, was looked for; parts falling from the
    // first mapper with a level run the second (the general LP's before);
    // the plateau with idle mappers the next two (the general LP's before
    // the plateau methods took on up to 16 000 intervals; the second with
    // the chain after a plateau tried first before); then two chains
    // falling from S/c, solved as banded systems, a descent that pauses for
    // a level run, and one reducer group's descent that runs out 45 mappers
    // before the end (all four refused before); last, level runs between
    // descents (the general LP's before: 0.1 s, 7.1 s, 0.86 s and 0.43 s).
    for (method, m, r, l, v, s, gamma) in [
        ("a level run of 11 starting nine back, three groups", 4162, 48, 21, 4.67765e10, 4.28736, 0.500888),
        ("falling from the first mapper, a level run of 84", 109, 94, 93, 3.55643e8, 3.72034, 0.386189),
        ("plateau, idle mapper", 1000, 115, 24, 542.0, 7.08, 0.977),
        ("plateau, idle mappers", 7095, 5, 3, 1.43098e6, 2.95386, 0.506924),
        ("falling chain", 2399, 4, 4, 9.7159e10, 6.8, 0.6552),
        ("plateau of two, falling chain", 4988, 35, 37, 1.63218e12, 9.66733, 0.968523),
        ("descent with a level run of 11", 3704, 481, 463, 2.982e11, 1.4251, 0.050474),
        ("one group, plateau and descent, 45 idle", 8053, 280, 281, 1.93433e13, 8.29517, 0.33477),
        ("a level run of 18 between descents", 428, 59, 41, 6.9327e9, 6.7281, 0.2322),
        ("a level run of 38 between descents", 4372, 167, 95, 1.12472e11, 3.40971, 2.82596e-2),
        ("a level run of 4 between descents, three groups", 2951, 44, 18, 5.09331e10, 5.6313, 0.601827),
        ("a level run of 3 between descents, three groups", 2703, 13, 6, 1.95752e10, 6.03172, 0.721544),
        // Equal parts on all but the last mapper over 586 000 intervals:
        // its proof reads the distinct windows, not the intervals.
        ("plateau, idle mapper, 91 groups", 6444, 362, 4, 1.15767e5, 6.0931, 5.87259e-3),
        // The descent that pauses once, over 1.2 million intervals.
        ("plateau, descent, 117 groups", 10000, 930, 8, 1.405e11, 9.037, 4.483e-2),
    ] {
        let p =
            Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a: vec![a; m], s, c: gamma * 1e-6 / r as f64, v };
        c.bench_function(&format!("mapreduce/solve ({method}) m={m} r={r} l={l}"), |b| {
            b.iter(|| solve(black_box(&p)).unwrap())
        });
    }
    // Ten reducer groups (r = 1000, l = 100).
    let a = 1e-5 + 1e-2 / 16e6;
    let p =
        Shuffle { intervals: Intervals::new(1000, 1000, 100).unwrap(), a: vec![a; 1000], s: 1.0, c: 1e-10, v: 1e15 };
    c.bench_function("mapreduce/solve m=1000 r=1000 l=100", |b| b.iter(|| solve(black_box(&p)).unwrap()));
}

fn sweep(c: &mut Criterion) {
    let raw = RawParams::new();
    c.bench_function("mapreduce/evaluate (reference set, m=1000)", |b| {
        b.iter(|| api::evaluate("mapreduce", black_box(&raw)).unwrap())
    });
    // The page's keystroke at the largest shuffle it still solves on its own
    // thread (QUICK_INTERVALS): m = 1999, r = 1000, ℓ = 10 give 199 909
    // intervals, solved by the chain method; one more mapper goes to the worker.
    let largest_quick = numbers(&[("m", 1999.0), ("r", 1000.0), ("l", 10.0)]);
    assert!(!api::Session::default().quick_report("mapreduce", &largest_quick).unwrap().deferred);
    c.bench_function("mapreduce/quick report at the quick limit (N = 199909, chain)", |b| {
        b.iter(|| api::Session::default().quick_report("mapreduce", black_box(&largest_quick)).unwrap())
    });
    c.bench_function("mapreduce/sweep 50 values of m, one curve", |b| {
        b.iter(|| api::sweep_series("mapreduce", "speedup-m-r", black_box(&raw), 3).unwrap())
    });
}

fn mappers(c: &mut Criterion) {
    use isoperf::engine::isomap::{MapAxis, MapRequest};
    use isoperf::models::mapreduce::mappers::{best_mappers, SEARCH_INTERVALS};
    use isoperf::models::mapreduce::schedule::identical_chain;
    let raw = RawParams::new();
    for grid in [64, 128] {
        let request = MapRequest {
            output: "speedup".into(),
            x: MapAxis::parse("x", "m:10:10000:log").unwrap(),
            y: MapAxis::parse("y", "r:10:1000:log").unwrap(),
            nx: grid,
            ny: grid,
            levels: vec![25.0, 50.0, 100.0, 250.0, 500.0, 1000.0],
        };
        c.bench_function(&format!("mapreduce/map speedup m x r {grid}x{grid} (grid + isolines)"), |b| {
            b.iter(|| api::iso_map("mapreduce", black_box(&raw), &request).unwrap())
        });
    }
    // At the descent point (m = 594, r = 12, ℓ = 8, S = 9.037, V = 1.405e11):
    // half the points a plateau and a descent, each tried first with the
    // shape proved at the point before.
    let at = numbers(&[("m", 594.0), ("r", 12.0), ("l", 8.0), ("V", 1.405e11), ("S", 9.037), ("gamma", 4.483e-2)]);
    let request = MapRequest {
        output: "speedup".into(),
        x: MapAxis::parse("x", "m:10:10000:log").unwrap(),
        y: MapAxis::parse("y", "r:10:1000:log").unwrap(),
        nx: 32,
        ny: 32,
        levels: vec![25.0, 50.0, 100.0, 250.0, 500.0, 1000.0],
    };
    c.bench_function("mapreduce/map speedup m x r 32x32 at the descent point", |b| {
        b.iter(|| api::iso_map("mapreduce", black_box(&at), &request).unwrap())
    });
    let a = 1e-5 + 1e-2 / 16e6;
    let (s, cost) = (1.0, 0.1 * 1e-6 / 100.0);
    c.bench_function("mapreduce/chain in closed form m=10000 r=1000 l=100", |b| {
        b.iter(|| identical_chain(black_box(Intervals::new(10000, 1000, 100).unwrap()), a, s, cost, 1e15).unwrap())
    });
    // Where the load fits before mS: the start-up bound, after the chain fails.
    let bound =
        Shuffle { intervals: Intervals::new(10_000, 100, 100).unwrap(), a: vec![a; 10_000], s, c: cost, v: 1e10 };
    c.bench_function("mapreduce/solve at the start-up bound m=10000 r=l=100 V=1e10", |b| {
        b.iter(|| solve(black_box(&bound)).unwrap())
    });
    // A third of its points at the start-up bound, the rest chains, idle
    // tails and plateaus.
    let request = MapRequest {
        output: "speedup".into(),
        x: MapAxis::parse("x", "m:10:10000:log").unwrap(),
        y: MapAxis::parse("y", "V:1e6:1e15:log").unwrap(),
        nx: 64,
        ny: 64,
        levels: vec![10.0, 100.0, 1000.0],
    };
    let mut group = c.benchmark_group("mapreduce/map speedup m x V");
    group.sample_size(10);
    group.bench_function("64x64 (grid + isolines)", |b| {
        b.iter(|| api::iso_map("mapreduce", black_box(&raw), &request).unwrap())
    });
    group.finish();
    let idle = Shuffle { intervals: Intervals::new(1000, 100, 100).unwrap(), a: vec![a; 1000], s, c: cost, v: 1e10 };
    c.bench_function("mapreduce/solve with an idle tail m=1000 r=l=100 V=1e10", |b| {
        b.iter(|| solve(black_box(&idle)).unwrap())
    });
    for (m, v) in [(1000usize, 1e15), (100000, 1e15), (1000, 1e9), (1000, 1e10)] {
        c.bench_function(&format!("mapreduce/m_best m={m} V={v:e}"), |b| {
            b.iter(|| best_mappers(black_box(m), 100, 100, a, s, cost, v, SEARCH_INTERVALS))
        });
    }
    // The iso-map's point (S = 9.037, γ = 0.04483, V = 1.405e11, ℓ = 8): the
    // best count lies in the descent's regime, found among the counts the
    // lower bounds leave (m_best = 577 at r = 12, 558 at r = 100).
    for (m, r) in [(594usize, 12usize), (3500, 100)] {
        let c_map = 4.483e-2 * 1e-6 / r as f64;
        c.bench_function(&format!("mapreduce/m_best descent regime m={m} r={r} l=8"), |b| {
            b.iter(|| best_mappers(black_box(m), r, 8, a, 9.037, c_map, 1.405e11, SEARCH_INTERVALS))
        });
    }
    // One reducer group, the shuffle flat in m to 10⁻¹⁰ over thousands of
    // counts the lower bounds leave: each count tried first with the method
    // and the shape that solved the count before (m_best = 8008).
    let mut flat = c.benchmark_group("mapreduce/m_best flat");
    flat.sample_size(10);
    let (r, gamma) = (280usize, 0.33477);
    flat.bench_function("m=8053 r=280 l=281", |b| {
        b.iter(|| {
            best_mappers(black_box(8053), r, 281, a, 8.29517, gamma * 1e-6 / r as f64, 1.93433e13, SEARCH_INTERVALS)
        })
    });
    flat.finish();
    // A per-mapper list's best first mappers: 1000 and 10⁵ mappers of two
    // speeds (1 and 2 × 10⁻⁵ s/B in turn) on the lecture's system; the
    // bounds leave a few tens of counts with V = 10⁹, over a thousand of
    // the 10⁵ with V = 10¹² (the best some 5700).
    use isoperf::models::mapreduce::mappers::best_prefix;
    let mut lists = c.benchmark_group("mapreduce/m_best of a list");
    lists.sample_size(10);
    let two_speeds = |m: usize| (0..m).map(|i| if i % 2 == 0 { 1e-5 } else { 2e-5 }).collect::<Vec<f64>>();
    let (r, send) = (100usize, 0.1 * 1e-6 / 100.0);
    for (m, v) in [(1000usize, 1e9), (100_000, 1e12)] {
        let p = Shuffle { intervals: Intervals::new(m, r, 100).unwrap(), a: two_speeds(m), s: 1.0, c: send, v };
        let t_all = solve(&p).unwrap().makespan();
        lists.bench_function(format!("m={m} V={v:e}"), |b| {
            b.iter(|| best_prefix(black_box(&p), t_all, SEARCH_INTERVALS))
        });
    }
    // The uniform random 500-list of seed 3 (r = 250, ℓ = 100): with
    // V = 10¹⁰, 104 counts near its best (427) are capped levels, each tried
    // first at the pins of the count before; with V = 10¹¹ the counts from
    // 475 on are the chain with mapper 1 tied to mapper 455 (both unproven
    // before, the general LP past the search's budget).
    for (v, shape) in [(1e10, "capped levels"), (1e11, "the chain tied first")] {
        let p = seed_3_list(v);
        let t_all = solve(&p).unwrap().makespan();
        lists.bench_function(format!("uniform m=500 V={v:e} ({shape})"), |b| {
            b.iter(|| best_prefix(black_box(&p), t_all, SEARCH_INTERVALS))
        });
    }
    // The uniform random 2000-list of seed 1 (the tests' `random_rates`,
    // r = 250, ℓ = 100, V = 10¹¹): 71 counts past its best (1364) that
    // only the general LP decides, each ruled out by its relaxations' dual
    // bound (unproven before, the general LP past the search's budget).
    let p = Shuffle {
        intervals: Intervals::new(2000, 250, 100).unwrap(),
        a: random_rates(2000, 1),
        s: 1.0,
        c: 0.1 * 1e-6 / 250.0,
        v: 1e11,
    };
    let t_all = solve(&p).unwrap().makespan();
    lists.bench_function("uniform m=2000 V=1e11 (counts ruled out by the general LP)", |b| {
        b.iter(|| best_prefix(black_box(&p), t_all, SEARCH_INTERVALS))
    });
    lists.finish();
    // Its whole shuffle with V = 10¹¹: the general LP's before (0.5 s).
    let p = seed_3_list(1e11);
    c.bench_function("mapreduce/solve a random list (the chain tied first) m=500 r=250 l=100", |b| {
        b.iter(|| solve(black_box(&p)).unwrap())
    });
}

/// The uniform random 500-list of seed 3 ([`random_rates`]) with r = 250,
/// ℓ = 100, S = 1 s, γC = 10⁻⁷ s/B and load `v`.
fn seed_3_list(v: f64) -> Shuffle {
    Shuffle {
        intervals: Intervals::new(500, 250, 100).unwrap(),
        a: random_rates(500, 3),
        s: 1.0,
        c: 0.1 * 1e-6 / 250.0,
        v,
    }
}

/// `m` random rates, 0.5 to 1.5 × 10⁻⁵ s/B in random order plus the
/// default s_map/lu (the native tests' `random_rates` of `seed`).
fn random_rates(m: usize, mut seed: u64) -> Vec<f64> {
    (0..m)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            1e-5 * (0.5 + (seed >> 33) as f64 / (1u64 << 31) as f64) + 1e-2 / 16e6
        })
        .collect()
}

/// Random lists of rates (0.5 to 1.5 × 10⁻⁵ s/B in random order, the
/// native tests' stream) whose start-ups outlast the transfers (V = 10⁹,
/// S = 1 s): parts capped at one level (the general LP's before: 0.3 s at
/// m = 500, 2.1 s at m = 2000 with r = 250, ℓ = 100, 13 s at m = 2000
/// with r = 400, ℓ = 300); and the 500-list with ten times the load
/// (V = 10¹⁰): levels rising along the first mappers (the general LP's
/// before: 0.4 s).
fn capped_levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("mapreduce/solve a random list (capped level)");
    group.sample_size(20);
    let cases =
        [(500usize, 250usize, 100usize, 1e9), (2000, 250, 100, 1e9), (2000, 400, 300, 1e9), (500, 250, 100, 1e10)];
    for (m, r, l, v) in cases {
        let p = Shuffle {
            intervals: Intervals::new(m, r, l).unwrap(),
            a: random_rates(m, 3),
            s: 1.0,
            c: 0.1 * 1e-6 / r as f64,
            v,
        };
        let name =
            if v > 1e9 { format!("m={m} r={r} l={l} V={v:e} (levels rising)") } else { format!("m={m} r={r} l={l}") };
        group.bench_function(name, |b| b.iter(|| solve(black_box(&p)).unwrap()));
    }
    group.finish();
}

/// Random lists of two and three speeds (1 or 2, and 1, 1.5 or 2 × 10⁻⁵
/// s/B in random order, the native tests' stream) whose map time outweighs
/// the start-ups (V = 10¹⁰, S = 1 s): a plateau of the fastest front
/// mappers with the slower ones between them below it (the general LP's
/// before: 0.4 to 0.6 s at m = 500, r = 250, ℓ = 100).
fn plateaus_over_slower_mappers(c: &mut Criterion) {
    let mut group = c.benchmark_group("mapreduce/solve a random list (plateau over slower mappers)");
    for speeds in [2u64, 3] {
        let (m, r, l) = (500usize, 250usize, 100usize);
        let a = speed_rates(m, speeds);
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s: 1.0, c: 0.1 * 1e-6 / r as f64, v: 1e10 };
        group
            .bench_function(format!("{speeds} speeds m={m} r={r} l={l}"), |b| b.iter(|| solve(black_box(&p)).unwrap()));
    }
    group.finish();
}

/// `m` rates of `speeds` speeds, 1 to 2 × 10⁻⁵ s/B in random order, plus
/// the default s_map/lu (the native tests' stream of seed 3).
fn speed_rates(m: usize, speeds: u64) -> Vec<f64> {
    let mut seed = 3u64;
    (0..m)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let u = (seed >> 33) as f64 / (1u64 << 31) as f64;
            1e-5 * (1.0 + (u * speeds as f64).floor() / (speeds - 1) as f64) + 1e-2 / 16e6
        })
        .collect()
}

/// The two-speed list of the same stream with r = 400, ℓ = 300 and V = 10⁹
/// (start-ups outlast the transfers): one level, and at the last mappers a
/// level that dips below it, held through runs of mappers below it for the
/// first 600 (the general LP's before: 0.7 s), ending at the first mapper
/// below it for all 2000 (15 s).
fn dipping_level(c: &mut Criterion) {
    let mut group = c.benchmark_group("mapreduce/solve a random list (a level dipping at the end)");
    group.sample_size(20);
    let (r, l) = (400usize, 300usize);
    for m in [600usize, 2000] {
        let a = speed_rates(m, 2);
        let p = Shuffle { intervals: Intervals::new(m, r, l).unwrap(), a, s: 1.0, c: 0.1 * 1e-6 / r as f64, v: 1e9 };
        group.bench_function(format!("2 speeds m={m} r={r} l={l} V=1e9"), |b| b.iter(|| solve(black_box(&p)).unwrap()));
    }
    group.finish();
}

/// Lists of 10⁵ mappers of the same stream in one reducer group
/// (r = ℓ = 100), V = 10¹⁴: chains whose sweeps lose too many digits,
/// proved by banded systems (the two-speed list was refused after 280 s
/// before, the uniform one took over a minute).
fn long_banded_chains(c: &mut Criterion) {
    let mut group = c.benchmark_group("mapreduce/solve a list of 10^5 mappers (a chain in banded systems)");
    group.sample_size(10);
    let m = 100_000;
    for (name, a) in [("2 speeds", speed_rates(m, 2)), ("uniform", random_rates(m, 3))] {
        let p = Shuffle { intervals: Intervals::new(m, 100, 100).unwrap(), a, s: 1.0, c: 0.1e-6 / 100.0, v: 1e14 };
        group.bench_function(format!("{name} m={m} r=100 l=100 V=1e14"), |b| b.iter(|| solve(black_box(&p)).unwrap()));
    }
    group.finish();
}

/// 10⁵ identical mappers at the lecture's rates in one reducer group over
/// wide windows (r = ℓ = 5000), V = 10¹⁵, S = 1 s, γ = 0.1: a plateau of 25,
/// which the form tries whatever the intervals where there is one group
/// (the general LP's before: 88 s to no proof).
fn wide_plateau(c: &mut Criterion) {
    let mut group = c.benchmark_group("mapreduce/solve 10^5 identical mappers in one wide group (a plateau)");
    group.sample_size(10);
    let (m, r) = (100_000usize, 5000usize);
    let p = Shuffle {
        intervals: Intervals::new(m, r, r).unwrap(),
        a: vec![1e-5 + 1e-2 / 16e6; m],
        s: 1.0,
        c: 0.1e-6 / r as f64,
        v: 1e15,
    };
    group.bench_function(format!("m={m} r={r} l={r} V=1e15"), |b| b.iter(|| solve(black_box(&p)).unwrap()));
    group.finish();
}

/// Identical mappers at the lecture's rates, S = 1 s, γ = 0.1, where a
/// start-up is a part's transfer (V = 10⁷ m r bytes, S = cV/m): equal
/// parts, proved by the chain once its dual reads each window's newest
/// sender among parts equal but for rounding (the general LP's before:
/// 6.3 s natively at 10⁴ mappers, over two minutes to no answer at 10⁵).
/// Then one a hair past it (V 10⁻⁶ less at 10⁴ mappers, r = 5000): a
/// plateau of 97 over 5 × 10⁵ intervals, past the intervals the form gave
/// the plateau methods (the general LP's before: 6.3 s to no proof).
fn equal_parts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mapreduce/solve identical mappers where a start-up is a part's transfer");
    group.sample_size(10);
    for (m, r, l, v) in
        [(10_000usize, 300usize, 100usize, 3e13), (100_000, 1000, 100, 1e15), (10_000, 5000, 100, 4.999995e14)]
    {
        let p = Shuffle {
            intervals: Intervals::new(m, r, l).unwrap(),
            a: vec![1e-5 + 1e-2 / 16e6; m],
            s: 1.0,
            c: 0.1e-6 / r as f64,
            v,
        };
        group.bench_function(format!("m={m} r={r} l={l} V={v:e}"), |b| b.iter(|| solve(black_box(&p)).unwrap()));
    }
    group.finish();
}

/// The first 1414 mappers of the uniform random 2000-list of seed 3 with
/// r = 250, ℓ = 100, V = 10¹¹: levels rising over 300 mappers, one of them
/// ended by no pin below one that mapper 306 pins, proved at the shape
/// read off the general LP's schedule of the first 1413 (the general LP
/// alone: 2.5 to 3.5 s natively).
fn levels_near(c: &mut Criterion) {
    let prefix = |k: usize| Shuffle {
        intervals: Intervals::new(k, 250, 100).unwrap(),
        a: random_rates(k, 3),
        s: 1.0,
        c: 0.1 * 1e-6 / 250.0,
        v: 1e11,
    };
    let before = prefix(1413);
    let mut near = LevelsNear::default();
    near.learn(&before, &interior_point_whole(&before, Budget::FORM.general_work).unwrap());
    let p = prefix(1414);
    let mut group = c.benchmark_group("mapreduce/levels near the count before");
    group.sample_size(20);
    group.bench_function("uniform m'=1414 of 2000 r=250 l=100 V=1e11 (an unknown level below a pinned one)", |b| {
        b.iter(|| capped_levels_near(black_box(&p), &mut near.clone()).unwrap())
    });
    // From the shape of the first 1412 (pins at 8, 54, 85 and 141, the top
    // level unknown) to the first 1413's: the level mapper 141 pinned made
    // the unknown one and mapper 306 pinning the top level, two changes at
    // once (each alone longer); the general LP before.
    let before = prefix(1412);
    let mut near = LevelsNear::default();
    near.learn(&before, &interior_point_whole(&before, Budget::FORM.general_work).unwrap());
    let p = prefix(1413);
    group.bench_function("uniform m'=1413 of 2000 (the unknown level and a pin moved at once)", |b| {
        b.iter(|| capped_levels_near(black_box(&p), &mut near.clone()).unwrap())
    });
    // The chain with its first two mappers capped, proved at the count
    // before's pin, its level's search from that count's level.
    let mut near = LevelsNear::default();
    for k in [1000, 1001] {
        capped_levels_near(&prefix(k), &mut near).unwrap();
    }
    let p = prefix(1002);
    group.bench_function("uniform m'=1002 of 2000 (the chain, its first mappers capped)", |b| {
        b.iter(|| capped_levels_near(black_box(&p), &mut near.clone()).unwrap())
    });
    group.finish();
}

criterion_group!(
    benches,
    shuffle,
    sweep,
    mappers,
    capped_levels,
    plateaus_over_slower_mappers,
    dipping_level,
    long_banded_chains,
    wide_plateau,
    equal_parts,
    levels_near
);
criterion_main!(benches);
