//! How long one keystroke costs: validating and evaluating a model, building
//! its tables and chart data, and rendering a chart (to SVG, natively).
//! The browser's figures come from www/bench.html.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use isoperf::api;
use isoperf::models::pmm::{predict, Implementation, Inputs, Rates};
use isoperf::spec::{RawParams, RawValue};

fn pmm(c: &mut Criterion) {
    let rates = Rates { t_startup: 1e-4, ..Rates::measured(8.64e9, 18.17e6) };
    let inputs = Inputs::new(Implementation::MsMpi, 100, 20000.0, rates).unwrap();
    c.bench_function("pmm/predict", |b| b.iter(|| predict(black_box(&inputs))));

    let raw: RawParams = [("impl", "msmpi"), ("N", "100"), ("M", "20000"), ("t_startup", "1e-4")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string())))
        .collect();
    c.bench_function("pmm/evaluate (parse + validate + predict)", |b| {
        b.iter(|| api::evaluate("pmm", black_box(&raw)).unwrap())
    });
    c.bench_function("pmm/tables", |b| b.iter(|| api::tables("pmm", black_box(&raw)).unwrap()));
    for chart in ["time", "efficiency", "overhead"] {
        c.bench_function(&format!("pmm/chart data {chart}"), |b| {
            b.iter(|| api::chart("pmm", chart, black_box(&raw)).unwrap())
        });
    }
    let chart = api::chart("pmm", "time", &raw).unwrap();
    c.bench_function("pmm/render time chart to SVG 800x500", |b| {
        b.iter(|| isoperf::chart::to_svg(black_box(&chart), 800, 500).unwrap())
    });
}

fn dlt(c: &mut Criterion) {
    use isoperf::models::dlt::schedule::{hetero_split, Star};
    let star = Star::new(1.0, 1e-6, 1e2).unwrap();
    // T(m) by the closed form: the same cost at any m.
    for m in [10usize, 1_000, 1_000_000] {
        c.bench_function(&format!("dlt/closed form T(m), m = {m}"), |b| {
            b.iter(|| star.split(black_box(m), black_box(1e13)))
        });
    }
    // The recursion (1)-(3), O(m).
    for m in [10_000usize, 1_000_000] {
        let (a, cc, s) = (vec![1.0; m], vec![1e-9; m], vec![1e-3; m]);
        let mut group = c.benchmark_group("dlt/recursion");
        group.sample_size(10);
        group.bench_function(format!("m = {m}"), |b| b.iter(|| hetero_split(black_box(&a), &cc, &s, 1e13).unwrap()));
        group.finish();
    }
    let raw: RawParams = [("m", "1000"), ("V", "1e13")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string())))
        .collect();
    c.bench_function("dlt/evaluate m = 1000, V = 1e13 (with m_max and the energy optimum)", |b| {
        b.iter(|| api::evaluate("dlt", black_box(&raw)).unwrap())
    });
    c.bench_function("dlt/chart data energy", |b| b.iter(|| api::chart("dlt", "energy", black_box(&raw)).unwrap()));
}

fn pipeline(c: &mut Criterion) {
    let raw: RawParams =
        [("N", "512"), ("P", "8"), ("t_comp", "1.39"), ("L", "8"), ("L_unit", "MiB"), ("C_unit", "Gibit/s")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string())))
            .collect();
    c.bench_function("pipeline/evaluate", |b| b.iter(|| api::evaluate("pipeline", black_box(&raw)).unwrap()));
    c.bench_function("pipeline/tables", |b| b.iter(|| api::tables("pipeline", black_box(&raw)).unwrap()));
    c.bench_function("pipeline/chart data comm", |b| {
        b.iter(|| api::chart("pipeline", "comm", black_box(&raw)).unwrap())
    });
}

fn scaling(c: &mut Criterion) {
    let timings = std::fs::read_to_string("www/data/graph500-scale27-synthetic.csv").unwrap();
    let throttling = std::fs::read_to_string("www/data/graph500-throttling-synthetic.csv").unwrap();
    c.bench_function("scaling/fit 960 runs (read CSV + QR + intervals)", |b| {
        b.iter(|| isoperf::models::scaling::fit_text(black_box(&timings)).unwrap())
    });
    c.bench_function("scaling/demand 3 configurations x 2 CTIs", |b| {
        b.iter(|| isoperf::models::scaling::demand_text(black_box(&throttling), &[0.05, 0.1], 288.0, 450.0).unwrap())
    });
}

fn broadcast(c: &mut Criterion) {
    use isoperf::collective::algorithms::{best_segments, Algorithm};
    use isoperf::collective::simulate::{schedule, simulate};
    use isoperf::collective::Network;
    let net = Network::Hockney { alpha: 1e-6, beta: 4e-11 };
    // The closed forms cost the same at any p; the segment search about 40 of them.
    for p in [64u64, 1_000_000] {
        c.bench_function(&format!("broadcast/every algorithm at its best segment count, p = {p}"), |b| {
            b.iter(|| Algorithm::ALL.map(|a| best_segments(a, black_box(p), 1_048_576.0, &net)))
        });
    }
    // The simulator behind the timeline and the tests: a chain of 64 processes in 64 segments.
    let chain = schedule(Algorithm::Chain, 64, 64).unwrap();
    c.bench_function("broadcast/simulate a chain, p = 64, 64 segments (4032 messages)", |b| {
        b.iter(|| simulate(black_box(&chain), 1_048_576.0, &net).unwrap())
    });
    let raw: RawParams = [("p", "1024"), ("n", "1"), ("n_unit", "MiB"), ("algorithm", "chain")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string())))
        .collect();
    c.bench_function("broadcast/evaluate p = 1024, n = 1 MiB", |b| {
        b.iter(|| api::evaluate("broadcast", black_box(&raw)).unwrap())
    });
    for chart in ["vs-n", "vs-p"] {
        c.bench_function(&format!("broadcast/chart data {chart}, p = 1024"), |b| {
            b.iter(|| api::chart("broadcast", chart, black_box(&raw)).unwrap())
        });
    }
}

/// One keystroke of the page at each model's defaults: the calls it made
/// before (check, evaluate, tables, remarks, each chart: one solve each)
/// against one report and the charts drawn from its evaluation.
fn keystroke(c: &mut Criterion) {
    for model in isoperf::models::MODELS {
        let spec = model.spec();
        let raw = RawParams::new();
        c.bench_function(&format!("{}/keystroke, five separate calls", spec.id), |b| {
            b.iter(|| {
                api::check(spec.id, black_box(&raw)).unwrap();
                api::evaluate(spec.id, &raw).unwrap();
                api::tables(spec.id, &raw).unwrap();
                api::remarks(spec.id, &raw).unwrap();
                for chart in spec.charts {
                    api::chart(spec.id, chart.id, &raw).unwrap();
                }
            })
        });
        c.bench_function(&format!("{}/keystroke, one report", spec.id), |b| {
            b.iter(|| {
                let session = api::Session::default();
                session.report(spec.id, black_box(&raw)).unwrap();
                for chart in spec.charts {
                    session.chart(spec.id, chart.id, &raw).unwrap();
                }
            })
        });
    }
}

criterion_group!(benches, pmm, dlt, pipeline, scaling, broadcast, keystroke);
criterion_main!(benches);
