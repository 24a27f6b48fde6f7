//! Helpers the native tests share: raw parameters as a form sends them,
//! evaluation through the facade, reading outputs, and relative closeness.
//! Each test names its own tolerance where it uses it, with its derivation.
#![allow(dead_code)] // each test binary uses a different part

use isoperf::api;
use isoperf::spec::{OutValue, Outputs, RawParams, RawValue};

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
