//! How long one keystroke costs: validating and evaluating a model, building
//! its tables and chart data, and rendering a chart (to SVG, natively).
//! The browser's figures come from www/bench.html.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use isoperf::models;
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
        b.iter(|| models::evaluate("pmm", black_box(&raw)).unwrap())
    });
    c.bench_function("pmm/tables", |b| b.iter(|| models::tables("pmm", black_box(&raw)).unwrap()));
    for chart in ["time", "efficiency", "overhead"] {
        c.bench_function(&format!("pmm/chart data {chart}"), |b| {
            b.iter(|| models::chart("pmm", chart, black_box(&raw)).unwrap())
        });
    }
    let chart = models::chart("pmm", "time", &raw).unwrap();
    c.bench_function("pmm/render time chart to SVG 800x500", |b| {
        b.iter(|| isoperf::chart::to_svg(black_box(&chart), 800, 500).unwrap())
    });
}

criterion_group!(benches, pmm);
criterion_main!(benches);
