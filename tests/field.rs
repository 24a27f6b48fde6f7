//! The iso-map fast paths (`field`) of every model against plain
//! evaluation, for every numeric output and random points: a map must show
//! exactly what the form shows at each of its nodes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::model::AnyModel;
use isoperf::models::MODELS;
use isoperf::spec::{ModelSpec, ParamKind, ParamSpec, RawParams, RawValue, Scale};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

mod common;
use common::{close, preset_params};

/// The fast paths rearrange the same closed forms (G and F once per m, N
/// continuous but evaluated at perfect squares here): rounding differs by a
/// few hundred ulps at most; 1e-9 leaves a wide margin and still catches
/// any formula that differs.
const FIELD_RTOL: f64 = 1e-9;

/// A value of `p` in its range: geometric over a log scale (clipped to
/// 1e-12 … 1e12, where the models' maps live), uniform otherwise, rounded
/// for an integer.
fn value(p: &ParamSpec, f: f64) -> Option<f64> {
    let ParamKind::Number { range, scale, integer, .. } = &p.kind else { return None };
    let lo = if range.min_exclusive || range.min <= 0.0 { range.min.max(1e-12) } else { range.min };
    let hi = range.max.min(1e12);
    let x = match scale {
        Scale::Log if lo > 0.0 => (lo.ln() + f * (hi.ln() - lo.ln())).exp(),
        _ => lo + f * (hi - lo),
    };
    let x = if *integer { x.round().clamp(range.min.ceil(), range.max) } else { x };
    range.contains(x).then_some(x)
}

fn numeric_params(spec: &ModelSpec, raw: &RawParams) -> Vec<&'static ParamSpec> {
    spec.params.iter().filter(|p| matches!(p.kind, ParamKind::Number { .. }) && spec.applies(p, raw)).collect()
}

/// Checks one point of one model; `Ok(false)` where the model has no fast path there.
fn agrees(
    model: &dyn AnyModel,
    x: &ParamSpec,
    y: &ParamSpec,
    fx: f64,
    fy: f64,
    preset: &RawParams,
) -> Result<bool, String> {
    let spec = model.spec();
    let (Some(xv), Some(yv)) = (value(x, fx), value(y, fy)) else { return Ok(false) };
    let mut raw = preset.clone();
    raw.insert(x.key.into(), RawValue::Num(xv));
    raw.insert(y.key.into(), RawValue::Num(yv));
    let Ok(p) = spec.parse(&raw) else { return Ok(false) };
    // Where the form refuses the point (N not a perfect square), the map
    // shows the model's continuous extension: nothing to compare. Points
    // the page would send to a worker (MapReduce's general LP, seconds at
    // most) have no fast path either: they are left to the model's own tests.
    let Some(Ok(evaluation)) = model.evaluate_quick(&p) else { return Ok(false) };
    let mut checked = false;
    for output in spec.outputs {
        let mut out = [f64::NAN];
        if !model.field(output.key, &p, (x.key, &[xv]), (y.key, &[yv]), &mut out) {
            continue;
        }
        checked = true;
        let fast = out[0];
        let plain = evaluation.number(output.key);
        match plain {
            // A gap of the map (an infeasible m) is a point where the form
            // reports another schedule (of m_max) or no value at all.
            _ if fast.is_nan() => {}
            Some(plain) if close(fast, plain, FIELD_RTOL) => {}
            _ => {
                return Err(format!(
                    "{} {} at {}={xv}, {}={yv}: field {fast}, evaluate {plain:?}",
                    spec.id, output.key, x.key, y.key
                ))
            }
        }
    }
    Ok(checked)
}

/// One model's pairs of numbers, at one of its presets (or its defaults).
struct Pair {
    model: &'static dyn AnyModel,
    preset: RawParams,
    x: &'static ParamSpec,
    y: &'static ParamSpec,
}

/// Checks `pair` at random points; whether any reached a fast path.
fn check(pair: &Pair) -> Result<bool, String> {
    let mut runner = TestRunner::new(Config { cases: 8, ..Config::default() });
    let seen = std::cell::Cell::new(false);
    runner
        .run(&(0.0..=1.0f64, 0.0..=1.0f64), |(fx, fy)| match agrees(pair.model, pair.x, pair.y, fx, fy, &pair.preset) {
            Ok(checked) => {
                seen.set(seen.get() | checked);
                Ok(())
            }
            Err(e) => Err(TestCaseError::fail(e)),
        })
        .map_err(|e| e.to_string())?;
    Ok(seen.get())
}

#[test]
fn every_fast_path_agrees_with_evaluate_at_random_points() {
    let mut pairs = Vec::new();
    for model in MODELS {
        let spec = model.spec();
        let mut presets = vec![RawParams::new()];
        presets.extend(spec.presets().map(|p| preset_params(p.values)));
        for preset in presets {
            let params = numeric_params(spec, &preset);
            for (i, x) in params.iter().enumerate() {
                for y in params.iter().skip(i + 1) {
                    pairs.push(Pair { model: *model, preset: preset.clone(), x, y });
                }
            }
        }
    }
    // MapReduce's points solve LPs (seconds at most in a debug build): the
    // pairs are shared out among the machine's cores.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let results: Vec<Result<bool, String>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(pair) = pairs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                        done.push(check(pair));
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    let failures: Vec<_> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(failures.is_empty(), "{}", failures.iter().map(|e| e.as_str()).collect::<Vec<_>>().join("\n"));
    // pmm and dlt have fast paths over most pairs of their numbers: a test
    // that reached none would prove nothing.
    let fast_paths = results.iter().filter(|r| matches!(r, Ok(true))).count();
    assert!(fast_paths > 50, "only {fast_paths} parameter pairs reached a fast path");
}
