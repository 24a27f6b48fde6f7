//! Helpers the tests share (native, and the wasm tests in tests/web.rs):
//! raw parameters as a form sends them, evaluation through the facade,
//! reading outputs, relative closeness, and reproducible random draws.
//! Each test names its own tolerance where it uses it, with its derivation.
#![allow(dead_code)] // each test binary uses a different part
#![allow(clippy::panic)] // test helpers: a panic is the failure message

use isoperf::api;
use isoperf::engine::isomap::{MapAxis, MapRequest};
use isoperf::spec::{OutValue, Outputs, PresetValue, RawParams, RawValue};

/// |a − b| within `rtol` of the larger magnitude.
pub fn close(a: f64, b: f64, rtol: f64) -> bool {
    (a - b).abs() <= rtol * a.abs().max(b.abs())
}

/// Parameters as the page's form sends them: text.
pub fn raw(pairs: &[(&str, &str)]) -> RawParams {
    pairs.iter().map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string()))).collect()
}

/// Model `model`'s outputs for `pairs` (the rest at defaults); panics with the error.
pub fn evaluate(model: &str, pairs: &[(&str, &str)]) -> Outputs {
    api::evaluate(model, &raw(pairs)).unwrap_or_else(|e| panic!("{model} {pairs:?}: {e}"))
}

/// A numeric output.
pub fn num(out: &Outputs, key: &str) -> f64 {
    out.num(key).unwrap_or_else(|| panic!("no number {key}"))
}

/// A yes/no output.
pub fn flag(out: &Outputs, key: &str) -> bool {
    out.0
        .iter()
        .find_map(|(k, v)| match v {
            OutValue::Bool(b) if *k == key => Some(*b),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no flag {key}"))
}

/// Whether `key` has no value for these parameters (JSON null).
pub fn missing(out: &Outputs, key: &str) -> bool {
    out.0.iter().any(|(k, v)| *k == key && *v == OutValue::Missing)
}

/// Every model at its defaults and at each of its presets.
pub fn defaults_and_presets() -> Vec<(&'static str, RawParams)> {
    let mut out = Vec::new();
    for m in isoperf::models::MODELS {
        let s = m.spec();
        out.push((s.id, RawParams::new()));
        out.extend(s.presets().map(|p| (s.id, preset_params(p.values))));
    }
    out
}

/// A preset's values as raw parameters.
pub fn preset_params(values: &[(&str, PresetValue)]) -> RawParams {
    values
        .iter()
        .map(|(k, v)| {
            let raw = match v {
                PresetValue::Num(x) => RawValue::Num(*x),
                PresetValue::Choice(c) => RawValue::Text(c.to_string()),
                PresetValue::List(xs) => RawValue::List(xs.iter().map(|x| RawValue::Num(*x)).collect()),
            };
            (k.to_string(), raw)
        })
        .collect()
}

/// A map of `output` over axes `x` and `y` (`KEY:MIN:MAX[:log]`) on an
/// n × n grid with isolines at `levels`.
pub fn map_request(output: &str, x: &str, y: &str, n: usize, levels: &[f64]) -> MapRequest {
    MapRequest {
        output: output.into(),
        x: MapAxis::parse("x", x).unwrap_or_else(|e| panic!("x axis {x}: {e:?}")),
        y: MapAxis::parse("y", y).unwrap_or_else(|e| panic!("y axis {y}: {e:?}")),
        nx: n,
        ny: n,
        levels: levels.to_vec(),
    }
}

/// A reproducible stream of uniform numbers in [0, 1) (a 64-bit LCG; the
/// same as `benches/mapreduce_highs.py`'s `uniform`).
pub fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as f64 / (1u64 << 31) as f64
    }
}

/// MapReduce per-mapper costs A_i for a random list of `m` rates (drawn by
/// [`uniform`] from `seed`, 0.5 to 1.5 × 10⁻⁵ s/B in list order), each with
/// the default s_map/lu = 10⁻²/(16 × 10⁶) as the form adds it: the lists of
/// `benches/mapreduce_highs.py --lists`.
pub fn random_rates(m: usize, seed: u64) -> Vec<f64> {
    let mut next = uniform(seed);
    (0..m).map(|_| 1e-5 * (0.5 + next()) + 1e-2 / 16e6).collect()
}

/// 100 random map rates (s/B: 0.5 to 1.5 × 10⁻⁵ from [`uniform`]'s seed 5,
/// to three digits) whose shuffle, with r = 40, ℓ = 20, V = 10¹⁰, S = 5 s
/// and γ = 0.5, only the general LP proves (tests/mapreduce.rs,
/// GENERAL_ONLY): the native, CLI and wasm tests' case of it.
pub const RANDOM_RATES: &str = concat!(
    "1.3e-05,6.4e-06,1.32e-05,8.09e-06,9.43e-06,7.59e-06,9.53e-06,1.4e-05,7.67e-06,7.06e-06,6.96e-06,7.18e-06,",
    "1.22e-05,6.96e-06,1.07e-05,1.46e-05,5.7e-06,1.46e-05,7.62e-06,8.74e-06,1.1e-05,1.4e-05,7.68e-06,8.51e-06,",
    "1.5e-05,6.28e-06,7.43e-06,1.04e-05,1.02e-05,5.32e-06,7.49e-06,1.49e-05,1.46e-05,5.2e-06,5.02e-06,8.34e-06,",
    "7.28e-06,1.24e-05,5.58e-06,5.22e-06,1.3e-05,5.11e-06,5.97e-06,7.93e-06,1.36e-05,1.04e-05,1.27e-05,1.3e-05,",
    "1.34e-05,9.94e-06,5.97e-06,9.75e-06,8.2e-06,6.51e-06,9.93e-06,1.2e-05,6.57e-06,5.41e-06,5.28e-06,1.03e-05,",
    "8.71e-06,1.39e-05,1.31e-05,1.41e-05,6.72e-06,1.11e-05,6.13e-06,9.16e-06,8.62e-06,8.76e-06,1.16e-05,7.75e-06,",
    "1.5e-05,9.1e-06,9.08e-06,1.01e-05,7.63e-06,1.31e-05,7.47e-06,1.09e-05,1.37e-05,9.01e-06,1.37e-05,1.14e-05,",
    "5.03e-06,1.4e-05,5.17e-06,9.94e-06,1.09e-05,5.9e-06,7.86e-06,1.21e-05,1.23e-05,9.95e-06,1.32e-05,1.22e-05,",
    "7.65e-06,1.23e-05,1.18e-05,9.83e-06",
);
