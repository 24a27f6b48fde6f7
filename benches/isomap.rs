//! The iso-map of benches/isomap_numpy.py, natively: DLT efficiency over
//! m (1 … 1000, log) and V (1e3 … 1e13, log), 256 × 256, three levels.

#![allow(clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use isoperf::api;
use isoperf::engine::isomap::{MapAxis, MapRequest};
use isoperf::spec::RawParams;

fn isomap(c: &mut Criterion) {
    let request = MapRequest {
        output: "efficiency".into(),
        x: MapAxis::parse("x", "m:1:1000:log").unwrap(),
        y: MapAxis::parse("y", "V:1e3:1e13:log").unwrap(),
        nx: 256,
        ny: 256,
        levels: vec![0.5, 0.9, 0.99],
    };
    let raw = RawParams::new();
    c.bench_function("isomap/dlt efficiency 256x256, 3 levels (grid + isolines)", |b| {
        b.iter(|| api::iso_map("dlt", black_box(&raw), &request).unwrap())
    });
    let dlt = isoperf::models::find("dlt").unwrap();
    let values = isoperf::engine::isomap::field_rows(dlt, &raw, &request, 0..256).unwrap();
    c.bench_function("isomap/dlt 256x256 grid only", |b| {
        b.iter(|| isoperf::engine::isomap::field_rows(dlt, black_box(&raw), &request, 0..256).unwrap())
    });
    c.bench_function("isomap/dlt 256x256 isolines only (3 levels)", |b| {
        b.iter(|| isoperf::engine::isomap::isolines_of(black_box(&values), &request))
    });
    let pmm = MapRequest {
        x: MapAxis::parse("x", "N:4:10000:log").unwrap(),
        y: MapAxis::parse("y", "M:100:1e6:log").unwrap(),
        levels: vec![0.5, 0.8, 0.95],
        ..request.clone()
    };
    c.bench_function("isomap/pmm efficiency N x M 256x256, 3 levels", |b| {
        b.iter(|| api::iso_map("pmm", black_box(&raw), &pmm).unwrap())
    });
}

/// The broadcast model's winner map: the fastest algorithm over n × p,
/// 128 × 128 (every point times the seven algorithms and searches three
/// segment counts), then its region boundaries.
fn winner_map(c: &mut Criterion) {
    let request = MapRequest {
        output: "best".into(),
        x: MapAxis::parse("x", "n:1:1e9:log").unwrap(),
        y: MapAxis::parse("y", "p:2:4096:log").unwrap(),
        nx: 128,
        ny: 128,
        levels: vec![],
    };
    let raw = RawParams::new();
    c.bench_function("isomap/broadcast winner map 128x128 (grid + boundaries)", |b| {
        b.iter(|| api::iso_map("broadcast", black_box(&raw), &request).unwrap())
    });
}

criterion_group!(benches, isomap, winner_map);
criterion_main!(benches);
