//! The wasm-bindgen exports. No logic lives here: each export decodes its
//! arguments, calls the core, and encodes the result. Failures cross as
//! real JavaScript `Error` objects carrying the message and, where one
//! parameter is at fault, its key (`error.key`) and every field problem
//! (`error.fields`).
//!
//! The page loads two builds of these exports. The first-paint module
//! (`--no-default-features`) has what the form and its outputs need:
//! the registry, `report`, `evaluate`, `check`, `tables`, `remarks` and
//! the number formats. The full module (the `full` feature, the default)
//! adds what [`full`] holds: charts, data analysis, iso-maps and sweeps,
//! and the general LP behind MapReduce's shuffle.
//!
//! What each export takes and returns is declared in TypeScript in
//! [`types`] and named on the export (`unchecked_return_type`,
//! `unchecked_param_type`), so `pkg/*.d.ts` has no `any`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::api::{self, Session};
use crate::error::ModelError;
use crate::spec::{RawParams, RawValue};

#[cfg(feature = "full")]
mod full;
#[cfg(feature = "full")]
pub use full::*;
mod types;

thread_local! {
    /// The page's session: a report and the chart draws after it share one evaluation.
    static SESSION: Session = Session::default();
}

/// A value as a plain JavaScript object: written as JSON in wasm and read by
/// the engine's `JSON.parse`, which builds large objects (the registry, a
/// report with its tables) several times faster than one `Reflect.set` per
/// field. Numbers cross exactly (`float_roundtrip`).
fn encode<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| error(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

fn model_error(e: &ModelError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let fields = e.field_errors();
    if let Some(first) = fields.first() {
        // Setting a property on a fresh Error object cannot fail.
        let _ = js_sys::Reflect::set(&err, &"key".into(), &first.key.as_str().into());
    }
    if let Ok(list) = encode(&fields) {
        let _ = js_sys::Reflect::set(&err, &"fields".into(), &list);
    }
    err.into()
}

/// Accepts a plain object of numbers, strings or booleans. `null` and
/// `undefined` values count as empty fields.
fn decode_params(params: JsValue) -> Result<RawParams, JsValue> {
    if params.is_undefined() || params.is_null() {
        return Ok(RawParams::new());
    }
    if !params.is_object() || js_sys::Array::is_array(&params) {
        return Err(error("params must be a plain object of parameter values, e.g. {N: 25}"));
    }
    let raw: std::collections::BTreeMap<String, Option<RawValue>> = serde_wasm_bindgen::from_value(params)
        .map_err(|e| error(&format!("params must map parameter keys to numbers or strings: {e}")))?;
    Ok(raw.into_iter().map(|(k, v)| (k, v.unwrap_or(RawValue::Text(String::new())))).collect())
}

/// The registry: every model with its parameters, outputs, presets, charts
/// and notes.
#[wasm_bindgen(unchecked_return_type = "ModelSpec[]")]
pub fn models() -> Result<JsValue, JsValue> {
    encode(&api::specs())
}

/// Everything the page shows for one parameter set, from one evaluation:
/// `{problems, outputs, display, tables, remarks, fields, changed}` (see
/// `api::Report`). Throws only for an unknown model or unreadable params.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn report(
    model_id: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let raw = decode_params(params)?;
    let out = SESSION.with(|s| s.report(model_id, &raw)).map_err(|e| model_error(&e))?;
    encode(&out)
}

/// `x` as the page shows an output: `digits` significant figures, `× 10ⁿ`
/// far from 1, an em dash for a non-finite value.
#[wasm_bindgen(js_name = formatNumber)]
pub fn format_number(x: f64, digits: usize) -> String {
    crate::format::number(x, digits)
}

/// The items of a list parameter's text (`"1, 2 3;4"`), split as the
/// validator splits them (an empty item between commas stays, so the list
/// table shows it where it is).
#[wasm_bindgen(js_name = splitList)]
pub fn split_list(text: &str) -> Vec<String> {
    crate::spec::split_list(text)
}

/// The text a number field shows for `x`: exact and short (`1e13`, `0.25`).
#[wasm_bindgen(js_name = fieldText)]
pub fn field_text(x: f64) -> String {
    crate::format::field_text(x)
}

/// Evaluates a model; throws an `Error` naming the parameter at fault.
#[wasm_bindgen(unchecked_return_type = "Outputs")]
pub fn evaluate(
    model_id: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let raw = decode_params(params)?;
    let out = api::evaluate(model_id, &raw).map_err(|e| model_error(&e))?;
    encode(&out)
}

/// Every field problem at once, as data: `[{key, message}]`, empty when the
/// parameters evaluate. Throws only for an unknown model.
#[wasm_bindgen(unchecked_return_type = "FieldError[]")]
pub fn check(
    model_id: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let raw = decode_params(params)?;
    let problems = api::check(model_id, &raw).map_err(|e| model_error(&e))?;
    encode(&problems)
}

/// The model's comparison and reproduction tables for these parameters.
#[wasm_bindgen(unchecked_return_type = "Table[]")]
pub fn tables(
    model_id: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let raw = decode_params(params)?;
    let out = api::tables(model_id, &raw).map_err(|e| model_error(&e))?;
    encode(&out)
}

/// Sentences about the result (infeasible m, unreachable targets, ...):
/// `[{key, level, text}]`.
#[wasm_bindgen(unchecked_return_type = "Remark[]")]
pub fn remarks(
    model_id: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let raw = decode_params(params)?;
    let out = api::remarks(model_id, &raw).map_err(|e| model_error(&e))?;
    encode(&out)
}
