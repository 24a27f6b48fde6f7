//! `Session::report`, the page's one call per keystroke: it says what
//! `check`, `evaluate`, `tables` and `remarks` say, from one evaluation
//! that the chart draws after it reuse.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::api::{self, Session};
use isoperf::models::MODELS;
use isoperf::spec::{RawParams, RawValue};

mod common;
use common::{defaults_and_presets, raw};

fn json<T: serde::Serialize>(x: &T) -> String {
    serde_json::to_string(x).unwrap()
}

/// Every model at its defaults and presets, and a few sets with problems.
fn cases() -> Vec<(&'static str, RawParams)> {
    let mut out = defaults_and_presets();
    out.push(("pmm", raw(&[("N", "24")])));
    out.push(("pmm", raw(&[("N", "abc"), ("M", "3")])));
    out.push(("pipeline", raw(&[("L", "1e9")]))); // saturated: outputs withheld, tables shown
    out.push(("scaling", raw(&[("C0", "-1000")]))); // no positive time
    out.push(("dlt", raw(&[("m", "5")]))); // infeasible m: a remark
    out
}

#[test]
fn a_report_says_what_the_four_calls_say() {
    for (id, raw) in cases() {
        let session = Session::default();
        let r = session.report(id, &raw).unwrap();
        assert_eq!(json(&r.problems), json(&api::check(id, &raw).unwrap()), "{id} {raw:?}");
        match api::evaluate(id, &raw) {
            Ok(out) => {
                assert_eq!(r.outputs.as_ref().map(json), Some(json(&out)), "{id} {raw:?}");
                assert_eq!(json(&r.remarks), json(&api::remarks(id, &raw).unwrap()), "{id} {raw:?}");
                let display = r.display.as_ref().unwrap();
                assert_eq!(display.len(), out.0.len(), "{id}: a text for every output");
            }
            Err(_) => assert!(r.outputs.is_none() && r.display.is_none() && r.remarks.is_empty(), "{id} {raw:?}"),
        }
        assert_eq!(r.tables.as_ref().map(json), api::tables(id, &raw).ok().map(|t| json(&t)), "{id} {raw:?}");
        assert!(session.solves() <= 1, "{id} {raw:?}: {} evaluations for one report", session.solves());
    }
}

#[test]
fn the_charts_after_a_report_reuse_its_evaluation() {
    for m in MODELS {
        let s = m.spec();
        let session = Session::default();
        let raw = RawParams::new();
        session.report(s.id, &raw).unwrap();
        for c in s.charts {
            let chart = session.chart(s.id, c.id, &raw).unwrap();
            let alone = api::chart(s.id, c.id, &raw).unwrap();
            assert_eq!(format!("{chart:?}"), format!("{alone:?}"), "{}/{}", s.id, c.id);
        }
        assert_eq!(session.solves(), 1, "{}: a report and {} charts", s.id, s.charts.len());
        // A new value is a new evaluation.
        session.report(s.id, &raw_with_first_number_changed(s)).unwrap();
        assert_eq!(session.solves(), 2, "{}", s.id);
    }
}

fn raw_with_first_number_changed(s: &isoperf::spec::ModelSpec) -> RawParams {
    let p = s.params.iter().find(|p| matches!(p.kind, isoperf::spec::ParamKind::Number { .. })).unwrap();
    let isoperf::spec::ParamKind::Number { default, range, .. } = p.kind else { unreachable!() };
    let other = if range.contains(default + 1.0) { default + 1.0 } else { default - 1.0 };
    [(p.key.to_string(), RawValue::Num(other))].into_iter().collect()
}

#[test]
fn fields_say_what_is_used_and_convert_units() {
    // pipeline: L = 8 MiB shows its size in bytes; C's rate its bit/s.
    let r = Session::default().report("pipeline", &raw(&[("L", "8"), ("L_unit", "MiB")])).unwrap();
    assert_eq!(r.fields["L"].hint, "= 8388608 B");
    assert!(r.changed.contains(&"L") && r.changed.contains(&"L_unit"), "{:?}", r.changed);
    // dlt: heterogeneous processors leave m unused, and the field says so.
    let r = Session::default().report("dlt", &raw(&[("processors", "heterogeneous")])).unwrap();
    assert!(!r.fields["m"].active);
    assert_eq!(r.fields["m"].hint, "not used: applies to Identical only");
    assert!(r.fields["A_list"].active);
    // Typing the default again is no change; another spelling of it neither.
    let r = Session::default().report("dlt", &raw(&[("V", "1e3"), ("m", "4.0")])).unwrap();
    assert!(r.changed.is_empty(), "{:?}", r.changed);
    let r = Session::default().report("dlt", &raw(&[("V", "abc")])).unwrap();
    assert_eq!(r.changed, vec!["V"]);
    assert_eq!(r.problems.len(), 1);
    assert_eq!(r.problems[0].key, "V");
}

#[test]
fn outputs_read_as_the_page_shows_them() {
    // Table 3, row "Dryad Tempest 25x1": the M² and M³ coefficients as printed.
    let r = Session::default().report("pmm", &RawParams::new()).unwrap();
    let d = r.display.unwrap();
    assert_eq!(d["coef_M2"].text, "6.764 × 10⁻⁸");
    assert_eq!(d["coef_M3"].text, "9.259 × 10⁻¹²");
}
