//! The wasm boundary in headless Chromium: `models`, `evaluate`, `check`
//! and `tables` as JavaScript sees them, errors as real `Error` objects.
//! Run by `scripts/test.sh` (wasm-bindgen-test-runner + chromedriver).

#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::api;
use isoperf::web;
use js_sys::{Array, Error, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

mod common;

wasm_bindgen_test_configure!(run_in_browser);

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).expect("readable property")
}

fn params(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &(*k).into(), v).expect("settable");
    }
    o.into()
}

#[wasm_bindgen_test]
fn models_lists_pmm_with_its_parameters() {
    let list: Array = web::models().expect("registry").dyn_into().expect("an array");
    let pmm = list.iter().find(|m| get(m, "id").as_string().as_deref() == Some("pmm")).expect("pmm is registered");
    let params: Array = get(&pmm, "params").dyn_into().expect("params array");
    let keys: Vec<String> = params.iter().filter_map(|p| get(&p, "key").as_string()).collect();
    assert_eq!(keys, ["impl", "N", "M", "t_flops", "t_comm", "t_io", "t_startup", "t_scheduling"]);
    // Plain objects, not Maps: the page reads them with dot access.
    assert!(get(&params.get(1), "range").is_object());
    assert_eq!(get(&get(&params.get(1), "range"), "max").as_f64(), Some(1e6));
}

#[wasm_bindgen_test]
fn evaluate_reproduces_table3_row1_across_the_boundary() {
    let out = web::evaluate("pmm".into(), JsValue::UNDEFINED).expect("defaults evaluate");
    let m2 = get(&out, "coef_M2").as_f64().expect("number");
    let m3 = get(&out, "coef_M3").as_f64().expect("number");
    // Table 3, row "Dryad Tempest 25x1": 6.764e-8 M² + 9.259e-12 M³.
    assert_eq!(format!("{m2:.3e} {m3:.3e}"), "6.764e-8 9.259e-12");
    // The same bits as the core returns without the boundary.
    let core = isoperf::api::evaluate("pmm", &Default::default()).unwrap();
    assert_eq!(Some(m2), core.num("coef_M2"));
    assert_eq!(Some(m3), core.num("coef_M3"));
    assert_eq!(get(&out, "T").as_f64(), core.num("T"));
    // Numbers and numeric strings are the same input.
    let a = web::evaluate("pmm".into(), params(&[("N", 36.0.into()), ("M", "20000".into())])).unwrap();
    let b = web::evaluate("pmm".into(), params(&[("N", "36".into()), ("M", 20000.0.into())])).unwrap();
    assert_eq!(get(&a, "T").as_f64(), get(&b, "T").as_f64());
    assert!(get(&a, "T").as_f64().unwrap() > 0.0);
}

#[wasm_bindgen_test]
fn errors_are_js_error_objects_naming_the_parameter() {
    let err = web::evaluate("pmm".into(), params(&[("N", 30.0.into())])).expect_err("30 is not a square");
    let e: Error = err.clone().dyn_into().expect("a real Error, not a string");
    let msg: String = e.message().into();
    assert!(msg.contains("N: 30 is not a perfect square") && msg.contains("25 and 36"), "{msg}");
    assert_eq!(get(&err, "key").as_string().as_deref(), Some("N"));
    let fields: Array = get(&err, "fields").dyn_into().expect("field list");
    assert_eq!(fields.length(), 1);

    for (key, value) in [
        ("t_flops", JsValue::from(-1.0)),
        ("M", JsValue::from(f64::NAN)),
        ("impl", "mpich".into()),
        ("M", JsValue::NULL),
    ] {
        let err = web::evaluate("pmm".into(), params(&[(key, value)])).expect_err("invalid");
        assert!(err.is_instance_of::<Error>());
        assert_eq!(get(&err, "key").as_string().as_deref(), Some(key));
        let msg: String = err.unchecked_ref::<Error>().message().into();
        assert!(msg.contains("expected"), "{msg}");
    }

    let err = web::evaluate("nope".into(), JsValue::UNDEFINED).expect_err("unknown model");
    assert!(err.is_instance_of::<Error>());
    let err = web::evaluate("pmm".into(), JsValue::from(3.0)).expect_err("params must be an object");
    assert!(err.is_instance_of::<Error>());
}

#[wasm_bindgen_test]
fn check_returns_every_field_problem_as_data() {
    let list: Array =
        web::check("pmm".into(), params(&[("N", (-1.0).into()), ("M", "x".into())])).unwrap().dyn_into().unwrap();
    let keys: Vec<String> = list.iter().filter_map(|f| get(&f, "key").as_string()).collect();
    assert_eq!(keys, ["N", "M"]);
    let ok: Array = web::check("pmm".into(), JsValue::UNDEFINED).unwrap().dyn_into().unwrap();
    assert_eq!(ok.length(), 0);
}

#[wasm_bindgen_test]
fn tables_cross_as_plain_objects() {
    let list: Array = web::tables("pmm".into(), JsValue::UNDEFINED).unwrap().dyn_into().unwrap();
    let ids: Vec<String> = list.iter().filter_map(|t| get(&t, "id").as_string()).collect();
    assert_eq!(ids, ["table2", "table3"]);
    let rows: Array = get(&list.get(1), "rows").dyn_into().unwrap();
    assert_eq!(rows.length(), 7);
}

#[wasm_bindgen_test]
fn dlt_lists_nulls_and_remarks_cross_the_boundary() {
    // A JS array and a comma-separated string are the same list.
    let list = |xs: &[f64]| -> JsValue { xs.iter().map(|x| JsValue::from(*x)).collect::<Array>().into() };
    let as_array = params(&[
        ("processors", "heterogeneous".into()),
        ("A_list", list(&[0.5, 1.0, 1.0, 2.0])),
        ("C_list", list(&[1e-6; 4])),
        ("S_list", list(&[50.0; 4])),
    ]);
    let as_text = params(&[
        ("processors", "heterogeneous".into()),
        ("A_list", "0.5, 1, 1, 2".into()),
        ("C_list", "1e-6 1e-6 1e-6 1e-6".into()),
        ("S_list", "50;50;50;50".into()),
    ]);
    let a = web::evaluate("dlt".into(), as_array).unwrap();
    let b = web::evaluate("dlt".into(), as_text).unwrap();
    assert_eq!(get(&a, "T").as_f64(), get(&b, "T").as_f64());
    let alpha: Array = get(&a, "alpha").dyn_into().expect("alpha is an array");
    assert_eq!(alpha.length(), 4);

    // Identical processors: no alpha vector, and an out-of-reach target is null, not NaN.
    let out = web::evaluate("dlt".into(), params(&[("m", 1000.0.into()), ("e_target", 0.99999999.into())])).unwrap();
    assert!(get(&out, "alpha").is_null());
    assert!(get(&out, "V_target").is_null());

    // SPEC: m = 5 is infeasible for V = 1e3; a remark at m says so.
    let list: Array = web::remarks("dlt".into(), params(&[("m", 5.0.into())])).unwrap().dyn_into().unwrap();
    let warning = list.iter().find(|r| get(r, "key").as_string().as_deref() == Some("m")).expect("a remark at m");
    assert_eq!(get(&warning, "level").as_string().as_deref(), Some("warning"));
    // Remarks cross the boundary as rich text: subscripts are <sub> marks.
    assert!(get(&warning, "text").as_string().unwrap().contains("m<sub>max</sub> = 4"));

    let err = web::evaluate("dlt".into(), params(&[("processors", "heterogeneous".into()), ("C_list", "1, 2".into())]))
        .unwrap_err();
    assert_eq!(get(&err, "key").as_string().as_deref(), Some("C_list"));
}

#[wasm_bindgen_test]
fn analyses_cross_the_boundary_with_line_and_column() {
    let text = "p,time\n18,4.4\n36,2.6\n72,1.7\n144,1.2\n288,0.9\n";
    let a = web::analyze("scaling".into(), "timings".into(), text.into(), JsValue::UNDEFINED).unwrap();
    let tables: Array = get(&a, "tables").dyn_into().unwrap();
    assert!(tables.length() >= 1);
    assert!(get(&get(&get(&a, "result"), "C1"), "value").as_f64().unwrap().is_finite());
    let err = web::analyze("scaling".into(), "timings".into(), "p,time\n18,4.4\n36,abc\n".into(), JsValue::UNDEFINED)
        .unwrap_err();
    assert!(err.is_instance_of::<Error>());
    assert_eq!(get(&err, "line").as_f64(), Some(3.0));
    assert_eq!(get(&err, "column").as_f64(), Some(2.0));
}

#[wasm_bindgen_test]
fn mapreduce_example_and_sweeps_cross_the_boundary() {
    // SPEC's public example: t_10 = 9982/123, α_4 = 3992/123.
    let example = params(&[
        ("m", 4.0.into()),
        ("r", 4.0.into()),
        ("l", 2.0.into()),
        ("V", 100.0.into()),
        ("C", 1.0.into()),
        ("gamma", 1.0.into()),
        ("a_map", 1.0.into()),
        ("s_map", 0.0.into()),
        ("a_red", 0.0.into()),
        ("s_red", 0.0.into()),
    ]);
    let out = web::evaluate("mapreduce".into(), example).unwrap();
    let t = get(&out, "t_shuffle").as_f64().unwrap();
    assert!((t - 9982.0 / 123.0).abs() <= 1e-12 * t);
    let alpha: Array = get(&out, "alpha").dyn_into().unwrap();
    assert_eq!(alpha.length(), 4);
    assert!((alpha.get(3).as_f64().unwrap() - 3992.0 / 123.0).abs() < 1e-12);
    // A sweep curve in the worker's form: the same numbers as evaluate at each x.
    let plan = web::sweep_plan("mapreduce".into(), "speedup-m-r".into()).unwrap();
    let xs = js_sys::Float64Array::new(&get(&plan, "xs")).to_vec();
    let curve = web::sweep_series(
        "mapreduce".into(),
        "speedup-m-r".into(),
        JsValue::UNDEFINED,
        3,
        None,
        None,
        JsValue::UNDEFINED,
    )
    .unwrap()
    .to_vec();
    assert_eq!(xs.len(), curve.len());
    let k = xs.iter().position(|&x| x >= 100.0).unwrap();
    let at =
        web::evaluate("mapreduce".into(), params(&[("m", xs[k].into()), ("r", 100.0.into()), ("l", 100.0.into())]))
            .unwrap();
    assert_eq!(get(&at, "speedup").as_f64(), Some(curve[k]));
    // A few points at a time (a worker's slow curve): the same numbers; a range past the end is cut.
    let part = |from, to| {
        web::sweep_series(
            "mapreduce".into(),
            "speedup-m-r".into(),
            JsValue::UNDEFINED,
            3,
            Some(from),
            Some(to),
            JsValue::UNDEFINED,
        )
        .unwrap()
        .to_vec()
    };
    assert_eq!(part(k, k + 3), curve[k..k + 3].to_vec());
    assert_eq!(part(xs.len() - 2, usize::MAX), curve[xs.len() - 2..].to_vec());
    assert!(part(xs.len() + 5, xs.len() + 9).is_empty());
    // A bad field is an Error naming it.
    let err = web::evaluate("mapreduce".into(), params(&[("gamma", 0.0.into())])).expect_err("γ must be positive");
    assert_eq!(get(&err, "key").as_string().as_deref(), Some("gamma"));
    // The interval count is 64-bit even where usize is 32: 65536 · 65537 does not wrap to 65536.
    let err =
        web::evaluate("mapreduce".into(), params(&[("m", 65536.0.into()), ("r", 65537.0.into()), ("l", 1.0.into())]))
            .expect_err("too many intervals");
    assert_eq!(get(&err, "key").as_string().as_deref(), Some("r"));
    let message = err.dyn_ref::<Error>().map(|e| String::from(e.message())).unwrap_or_default();
    assert!(message.contains("4295032832"), "{message}");
}

#[wasm_bindgen_test]
fn a_long_report_tells_its_progress_from_inside_the_call() {
    // A shuffle only the general LP proves (100 mappers of random rates,
    // tests/mapreduce.rs's GENERAL_ONLY, two reducer groups): each
    // interior-point iteration reports the digits gained, between 0 and 1,
    // rising to most of them.
    let heard = Array::new();
    let sink = heard.clone();
    let hook = wasm_bindgen::closure::Closure::<dyn Fn(f64)>::new(move |f: f64| {
        sink.push(&JsValue::from(f));
    });
    let case = params(&[
        ("mappers", "heterogeneous".into()),
        ("a_map_list", common::RANDOM_RATES.into()),
        ("r", "40".into()),
        ("l", "20".into()),
        ("V", "1e10".into()),
        ("S", "5".into()),
        ("gamma", "0.5".into()),
    ]);
    let r = web::report("mapreduce".into(), case, hook.as_ref().clone()).expect("a report");
    assert!(!get(&r, "outputs").is_null(), "outputs");
    let fractions: Vec<f64> = heard.to_vec().iter().filter_map(JsValue::as_f64).collect();
    assert!(fractions.len() >= 5, "{fractions:?}");
    assert!(fractions.iter().all(|f| (0.0..=1.0).contains(f)), "{fractions:?}");
    assert!(fractions.iter().copied().fold(0.0, f64::max) >= 0.7, "{fractions:?}");
    // Not a function: a TypeError naming the argument.
    let err = web::report("pmm".into(), JsValue::UNDEFINED, JsValue::from(3)).expect_err("not a function");
    assert!(err.is_instance_of::<js_sys::TypeError>());
    let message = err.dyn_ref::<Error>().map(|e| String::from(e.message())).unwrap_or_default();
    assert!(message.contains("onProgress"), "{message}");
}

#[wasm_bindgen_test]
fn report_crosses_as_plain_objects_with_the_same_bits() {
    let r = web::report("pmm".into(), JsValue::UNDEFINED, JsValue::UNDEFINED).expect("a report");
    let outputs = get(&r, "outputs");
    // Table 3, row "Dryad Tempest 25x1", as evaluate gives it, to the bit.
    let core = api::evaluate("pmm", &Default::default()).unwrap();
    assert_eq!(get(&outputs, "coef_M2").as_f64(), core.num("coef_M2"));
    assert_eq!(get(&get(&get(&r, "display"), "coef_M2"), "text").as_string().as_deref(), Some("6.764 × 10⁻⁸"));
    assert_eq!(Array::from(&get(&r, "problems")).length(), 0);
    assert!(Array::is_array(&get(&r, "tables")));
    // A bad field: problems at the field, no outputs, the changed key for the link.
    let r = web::report("pmm".into(), params(&[("N", "24".into())]), JsValue::UNDEFINED).unwrap();
    let problems = Array::from(&get(&r, "problems"));
    assert_eq!(get(&problems.get(0), "key").as_string().as_deref(), Some("N"));
    assert!(get(&r, "outputs").is_null());
    assert_eq!(
        Array::from(&get(&r, "changed")).to_vec().iter().filter_map(JsValue::as_string).collect::<Vec<_>>(),
        ["N"]
    );
    assert_eq!(web::format_number(2.5e-8, 4), "2.500 × 10⁻⁸");
    assert_eq!(web::field_text(1e13), "1e13");
}

/// A calibration's uncertainty crosses the boundary as calibrate's result
/// gives it ({parameters, covariance, t95}): a chart's data gets its bands,
/// a map's rows come back three times as long (values, low ends, high
/// ends), and a malformed one is a RangeError that says what is wrong.
#[wasm_bindgen_test]
fn a_carried_uncertainty_bands_charts_and_maps() {
    let carried = |json: &str| js_sys::JSON::parse(json).unwrap();
    let good = carried(r#"{"parameters": ["t_flops", "t_comm"], "covariance": [[1e-24, 0], [0, 1e-18]], "t95": 2.0}"#);
    let form = params(&[("t_flops", 2e-10.into()), ("t_comm", 5e-8.into())]);
    let chart = web::chart_data("pmm".into(), "time".into(), form.clone(), JsValue::UNDEFINED, good.clone()).unwrap();
    let series: Array = get(&chart, "series").dyn_into().unwrap();
    let bands = series.iter().filter(|s| get(s, "style").as_string().as_deref() == Some("band")).count();
    assert_eq!(bands, 3, "a band under each implementation's curve");
    let request =
        carried(r#"{"output": "T", "x": "N:4:64:log", "y": "M:1000:4000", "levels": [10], "nx": 8, "ny": 8}"#);
    let rows = web::iso_map_rows("pmm".into(), form.clone(), request.clone(), 0, 2, good).unwrap().to_vec();
    assert_eq!(rows.len(), 3 * 16);
    assert!((0..16).all(|k| rows[16 + k] < rows[k] && rows[k] < rows[32 + k]), "{rows:?}");
    let plain = web::iso_map_rows("pmm".into(), form.clone(), request, 0, 2, JsValue::UNDEFINED).unwrap().to_vec();
    assert_eq!(plain, rows[..16].to_vec());
    let bad = carried(r#"{"parameters": ["t_flops"], "covariance": [[-1]], "t95": 2.0}"#);
    let err =
        web::chart_data("pmm".into(), "time".into(), form, JsValue::UNDEFINED, bad).expect_err("a negative variance");
    assert!(err.is_instance_of::<js_sys::RangeError>());
    let message = err.dyn_ref::<Error>().map(|e| String::from(e.message())).unwrap_or_default();
    assert_eq!(message, "the variance of t_flops is negative");
}

/// The general LP's work is counted in f64 on wasm32 too: the ordering's
/// own count is a 32-bit `usize` there and wrapped, so a random list of
/// 10⁴ mappers (r = 900, ℓ = 600: 4.15 × 10⁹ multiply-subtracts a
/// factorisation, refused natively at once) was attempted in the page for
/// four minutes. Now its compact form is refused here as natively (the
/// form solves that list through relaxations instead, in minutes).
#[wasm_bindgen_test]
fn the_general_lp_work_is_counted_past_32_bits() {
    use isoperf::models::mapreduce::general::{factorisation_work, interior_point_whole};
    use isoperf::models::mapreduce::schedule::{Budget, Intervals, Shuffle, SolveError};
    let p = Shuffle {
        intervals: Intervals::new(10_000, 900, 600).unwrap(),
        a: common::random_rates(10_000, 7),
        s: 0.1,
        c: 1e-6 / 900.0,
        v: 1e9,
    };
    let work = factorisation_work(&p).unwrap();
    assert!((4.1e9..4.2e9).contains(&work), "{work:e}");
    match interior_point_whole(&p, Budget::FORM.general_work) {
        Err(SolveError::TooLarge { work, limit }) => {
            assert_eq!(limit, Budget::FORM.general_work);
            assert!(work > limit, "{work:e}");
        }
        other => panic!("expected a refusal: {other:?}"),
    }
}
