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
mod canvas;
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

/// The most keys a params object may have.
const MAX_KEYS: usize = 1_000;
/// The longest parameter key, in UTF-16 units.
const MAX_KEY: usize = 200;
/// The longest text argument or value (a list of 10⁶ numbers as text fits).
const MAX_TEXT: u32 = 1 << 25;
/// The most items a list value may have.
const MAX_ITEMS: u32 = 1 << 21;

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

/// What a JavaScript value is, for messages ("a number", "an object").
fn kind(v: &JsValue) -> String {
    if v.is_null() {
        return "null".into();
    }
    if js_sys::Array::is_array(v) {
        return "an array".into();
    }
    match v.js_typeof().as_string().as_deref() {
        Some(t @ ("object" | "undefined")) => format!("{}{t}", if t == "object" { "an " } else { "" }),
        Some(t) => format!("a {t}"),
        None => "a value of no known type".into(),
    }
}

/// A string argument, checked before anything reads it: any other type (a
/// number, an object, a symbol) is a `TypeError` naming the argument.
fn text_arg(name: &str, value: JsValue) -> Result<String, JsValue> {
    let Some(text) = value.dyn_ref::<js_sys::JsString>() else {
        return Err(type_error(&format!("{name} must be a string, not {}", kind(&value))));
    };
    if text.length() > MAX_TEXT {
        return Err(range_error(&format!("{name} is {} characters long; at most {MAX_TEXT} are read", text.length())));
    }
    Ok(String::from(text))
}

/// One parameter value: a number, a string, a boolean, `null`/`undefined`
/// (an empty field) or a flat list of those. Anything else, at any depth,
/// is a `TypeError` naming the parameter; nothing is read recursively, so
/// deep or self-referential objects are refused, not followed.
fn decode_value(key: &str, v: JsValue) -> Result<RawValue, JsValue> {
    if v.is_null() || v.is_undefined() {
        return Ok(RawValue::Text(String::new()));
    }
    if let Some(x) = v.as_f64() {
        return Ok(RawValue::Num(x));
    }
    if let Some(b) = v.as_bool() {
        return Ok(RawValue::Bool(b));
    }
    if v.is_string() {
        return text_arg(&format!("params.{key}"), v).map(RawValue::Text);
    }
    let Some(list) = v.dyn_ref::<js_sys::Array>() else {
        return Err(type_error(&format!(
            "params.{key} must be a number, a string, a boolean or a list of numbers, not {}",
            kind(&v)
        )));
    };
    if list.length() > MAX_ITEMS {
        return Err(range_error(&format!("params.{key} has {} items; at most {MAX_ITEMS} are read", list.length())));
    }
    let mut items = Vec::with_capacity(list.length() as usize);
    for (i, item) in list.iter().enumerate() {
        let raw = if item.is_null() || item.is_undefined() {
            RawValue::Text(String::new())
        } else if let Some(x) = item.as_f64() {
            RawValue::Num(x)
        } else if item.is_string() {
            RawValue::Text(text_arg(&format!("params.{key}[{i}]"), item)?)
        } else {
            return Err(type_error(&format!("params.{key}[{i}] must be a number or a string, not {}", kind(&item))));
        };
        items.push(raw);
    }
    Ok(RawValue::List(items))
}

/// Accepts `null`, `undefined` or a plain object (no array, no class
/// instance) of at most [`MAX_KEYS`] parameter values (see
/// [`decode_value`]); checked by type and shape before it is read.
fn decode_params(params: JsValue) -> Result<RawParams, JsValue> {
    if params.is_undefined() || params.is_null() {
        return Ok(RawParams::new());
    }
    let plain = params.is_object() && !js_sys::Array::is_array(&params) && {
        let proto = JsValue::from(js_sys::Object::get_prototype_of(&params));
        proto.is_null() || proto == JsValue::from(js_sys::Object::get_prototype_of(&js_sys::Object::new()))
    };
    if !plain {
        return Err(type_error(&format!(
            "params must be a plain object of parameter values, e.g. {{N: 25}}, not {}",
            kind(&params)
        )));
    }
    let entries = js_sys::Object::entries(params.unchecked_ref());
    if entries.length() as usize > MAX_KEYS {
        return Err(range_error(&format!("params has {} keys; a model has far fewer", entries.length())));
    }
    let mut raw = RawParams::new();
    for entry in entries.iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        let key = pair.get(0).as_string().unwrap_or_default();
        if key.encode_utf16().count() > MAX_KEY {
            return Err(range_error(&format!(
                "params has a key of {} characters; a parameter key is short",
                key.len()
            )));
        }
        let value = decode_value(&key, pair.get(1))?;
        raw.insert(key, value);
    }
    Ok(raw)
}

/// The common shape of the exports that take `(modelId, params)`: checks
/// and reads both, runs `op` on them, and encodes its result or its error.
fn model_call<T: Serialize>(
    model_id: JsValue,
    params: JsValue,
    op: impl FnOnce(&str, &RawParams) -> Result<T, ModelError>,
) -> Result<JsValue, JsValue> {
    let model_id = text_arg("modelId", model_id)?;
    let raw = decode_params(params)?;
    encode(&op(&model_id, &raw).map_err(|e| model_error(&e))?)
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
/// `onProgress(fraction)`, when given, hears how far a long evaluation has
/// come (MapReduce's general LP reports after each iteration), from inside
/// this call: a worker posts it to the page.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn report(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ProgressHook | null")] on_progress: JsValue,
) -> Result<JsValue, JsValue> {
    let run = || model_call(model_id, params, |id, raw| SESSION.with(|s| s.report(id, raw)));
    if on_progress.is_undefined() || on_progress.is_null() {
        return run();
    }
    let Some(hook) = on_progress.dyn_ref::<js_sys::Function>().cloned() else {
        return Err(type_error(&format!("onProgress must be a function, not {}", kind(&on_progress))));
    };
    with_progress(hook, run)
}

/// `run` with its progress passed to `hook` (a hook that throws is not the
/// report's failure: its error is dropped). Only the full module has long
/// evaluations to report on.
#[cfg(feature = "full")]
fn with_progress<R>(hook: js_sys::Function, run: impl FnOnce() -> R) -> R {
    crate::progress::with(move |fraction| drop(hook.call1(&JsValue::NULL, &JsValue::from(fraction))), run)
}

#[cfg(not(feature = "full"))]
fn with_progress<R>(_: js_sys::Function, run: impl FnOnce() -> R) -> R {
    run()
}

/// [`report`] where its evaluation is quick (milliseconds for every
/// accepted input): what the page calls on every keystroke. Where the
/// evaluation may take long (MapReduce's largest or general LPs), the
/// report has the field problems, field states and `changed`, no outputs,
/// and `deferred: true`: call `report` in a worker for the rest.
#[wasm_bindgen(js_name = quickReport, unchecked_return_type = "Report")]
pub fn quick_report(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    model_call(model_id, params, |id, raw| SESSION.with(|s| s.quick_report(id, raw)))
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
pub fn split_list(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<Vec<String>, JsValue> {
    let text = &text_arg("text", text)?;
    Ok(crate::spec::split_list(text))
}

/// The text a number field shows for `x`: exact and short (`1e13`, `0.25`).
#[wasm_bindgen(js_name = fieldText)]
pub fn field_text(x: f64) -> String {
    crate::format::field_text(x)
}

/// Evaluates a model; throws an `Error` naming the parameter at fault.
#[wasm_bindgen(unchecked_return_type = "Outputs")]
pub fn evaluate(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    model_call(model_id, params, api::evaluate)
}

/// Every field problem at once, as data: `[{key, message}]`, empty when the
/// parameters evaluate. Throws only for an unknown model.
#[wasm_bindgen(unchecked_return_type = "FieldError[]")]
pub fn check(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    model_call(model_id, params, api::check)
}

/// The model's comparison and reproduction tables for these parameters.
#[wasm_bindgen(unchecked_return_type = "Table[]")]
pub fn tables(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    model_call(model_id, params, api::tables)
}

/// Sentences about the result (infeasible m, unreachable targets, ...):
/// `[{key, level, text}]`.
#[wasm_bindgen(unchecked_return_type = "Remark[]")]
pub fn remarks(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    model_call(model_id, params, api::remarks)
}
