//! The registry is consistent: every model's spec can drive a form, a URL
//! and the CLI without surprises.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::HashSet;

use isoperf::api;
use isoperf::chart::to_svg;
use isoperf::models::MODELS;
use isoperf::spec::{ParamKind, RawParams, Scale};

mod common;
use common::preset_params;

#[test]
fn model_ids_and_keys_are_unique() {
    let ids: HashSet<&str> = MODELS.iter().map(|m| m.spec().id).collect();
    assert_eq!(ids.len(), MODELS.len());
    for m in MODELS {
        let s = m.spec();
        let keys: HashSet<&str> = s.params.iter().map(|p| p.key).collect();
        assert_eq!(keys.len(), s.params.len(), "{}: duplicate parameter key", s.id);
        let outs: HashSet<&str> = s.outputs.iter().map(|o| o.key).collect();
        assert_eq!(outs.len(), s.outputs.len(), "{}: duplicate output key", s.id);
        let charts: HashSet<&str> = s.charts.iter().map(|c| c.id).collect();
        assert_eq!(charts.len(), s.charts.len());
        let presets: HashSet<&str> = s.presets().map(|p| p.id).collect();
        assert_eq!(presets.len(), s.presets().count());
    }
}

#[test]
fn defaults_are_inside_their_ranges_and_evaluate_to_finite_outputs() {
    for m in MODELS {
        let s = m.spec();
        for p in s.params {
            match &p.kind {
                ParamKind::Number { default, range, scale, integer, .. } => {
                    assert!(range.contains(*default), "{}.{}: default {default} outside {range}", s.id, p.key);
                    assert!(range.min < range.max, "{}.{}", s.id, p.key);
                    assert!(!*integer || default.fract() == 0.0, "{}.{}", s.id, p.key);
                    if *scale == Scale::Log {
                        assert!(range.max > 0.0, "{}.{}: a log scale needs positive values", s.id, p.key);
                    }
                }
                ParamKind::Choice { default, options } => {
                    assert!(options.iter().any(|o| o.value == *default), "{}.{}", s.id, p.key);
                }
                ParamKind::List { default, range, max_len, .. } => {
                    assert!(!default.is_empty() && default.len() <= *max_len, "{}.{}", s.id, p.key);
                    assert!(default.iter().all(|x| range.contains(*x)), "{}.{}: default outside {range}", s.id, p.key);
                }
            }
            assert!(!p.help.is_empty() && !p.label.is_empty() && !p.reference.is_empty(), "{}.{}", s.id, p.key);
            if let Some(w) = &p.applies_when {
                match s.param(w.key).map(|q| &q.kind) {
                    Some(ParamKind::Choice { options, .. }) => {
                        assert!(w.values.iter().all(|v| options.iter().any(|o| o.value == *v)), "{}.{}", s.id, p.key)
                    }
                    _ => panic!("{}.{} applies_when names a non-choice parameter", s.id, p.key),
                }
            }
        }
        let out = api::evaluate(s.id, &RawParams::new()).unwrap_or_else(|e| panic!("{}: defaults fail: {e}", s.id));
        let keys: Vec<&str> = out.0.iter().map(|(k, _)| *k).collect();
        let spec_keys: Vec<&str> = s.outputs.iter().map(|o| o.key).collect();
        assert_eq!(keys, spec_keys, "{}: outputs follow the spec", s.id);
        for (k, v) in &out.0 {
            if let isoperf::spec::OutValue::Num(x) = v {
                assert!(x.is_finite(), "{}.{k} = {x}", s.id);
            }
        }
    }
}

#[test]
fn every_preset_names_known_keys_and_evaluates() {
    for m in MODELS {
        let s = m.spec();
        for p in s.presets() {
            for (k, _) in p.values {
                assert!(s.param(k).is_some(), "{}: preset {} sets unknown key {k}", s.id, p.id);
            }
            api::evaluate(s.id, &preset_params(p.values))
                .unwrap_or_else(|e| panic!("{}: preset {} fails: {e}", s.id, p.id));
        }
    }
}

#[test]
fn every_sweep_is_declared_in_range_and_draws_for_defaults() {
    use isoperf::spec::ParamKind;
    for m in MODELS {
        let s = m.spec();
        for sweep in s.sweeps {
            let range_of = |key: &str| match s.param(key).map(|p| &p.kind) {
                Some(ParamKind::Number { range, integer, .. }) => (*range, *integer),
                other => panic!("{}/{}: {key} is not a number parameter: {other:?}", s.id, sweep.id),
            };
            let (xr, _) = range_of(sweep.x);
            assert!(xr.contains(sweep.x_min) && xr.contains(sweep.x_max), "{}/{}: x range", s.id, sweep.id);
            for key in std::iter::once(&sweep.series).chain(sweep.linked) {
                let (r, integer) = range_of(key);
                for v in sweep.values {
                    assert!(r.contains(*v) && (!integer || v.fract() == 0.0), "{}/{}: {key} = {v}", s.id, sweep.id);
                }
            }
            for (key, v) in sweep.fixed {
                assert!(range_of(key).0.contains(*v), "{}/{}: fixed {key} = {v}", s.id, sweep.id);
            }
            assert!(s.outputs.iter().any(|o| o.key == sweep.output), "{}/{}: output", s.id, sweep.id);
            let chart =
                api::chart(s.id, sweep.id, &RawParams::new()).unwrap_or_else(|e| panic!("{}/{}: {e}", s.id, sweep.id));
            assert_eq!(
                chart.series.iter().filter(|x| x.style == isoperf::chart::Style::Line && x.points.len() >= 2).count(),
                sweep.values.len(),
                "{}/{}",
                s.id,
                sweep.id
            );
            let svg = to_svg(&chart, 640, 400).unwrap();
            assert!(!svg.contains("NaN"), "{}/{}: NaN in the SVG", s.id, sweep.id);
            assert!(chart.note.is_some(), "{}/{}: no observation", s.id, sweep.id);
        }
    }
}

#[test]
fn every_chart_renders_for_defaults_and_presets() {
    for m in MODELS {
        let s = m.spec();
        let mut sets = vec![RawParams::new()];
        sets.extend(s.presets().map(|p| preset_params(p.values)));
        for raw in &sets {
            for c in s.charts {
                let chart = api::chart(s.id, c.id, raw).unwrap_or_else(|e| panic!("{}/{}: {e}", s.id, c.id));
                assert!(
                    chart.series.iter().any(|x| x.points.len() >= 2 || !x.spans.is_empty()),
                    "{}/{}: no curve",
                    s.id,
                    c.id
                );
                let svg = to_svg(&chart, 640, 400).unwrap_or_else(|e| panic!("{}/{}: {e}", s.id, c.id));
                assert!(svg.contains("<polyline") || svg.contains("<circle"), "{}/{}: nothing drawn", s.id, c.id);
                assert!(!svg.contains("NaN"), "{}/{}: NaN in the SVG", s.id, c.id);
            }
        }
    }
}

#[test]
fn unknown_models_and_charts_are_clear_errors() {
    let e = api::evaluate("nope", &RawParams::new()).unwrap_err().to_string();
    assert!(e.contains("unknown model 'nope'") && e.contains("pmm"), "{e}");
    let e = api::chart("pmm", "nope", &RawParams::new()).unwrap_err().to_string();
    assert!(e.contains("unknown chart") && e.contains("time"), "{e}");
}

#[test]
fn the_registry_serialises_to_json() {
    let json = serde_json::to_value(api::specs()).expect("serialisable");
    let pmm = &json[0];
    assert_eq!(pmm["id"], "pmm");
    let n = pmm["params"].as_array().and_then(|ps| ps.iter().find(|p| p["key"] == "N")).expect("N");
    assert_eq!(n["kind"], "number");
    assert_eq!(n["integer"], true);
    assert_eq!(n["range"]["min"], 1.0);
}

#[test]
fn every_map_preset_draws_a_map_with_isolines() {
    use isoperf::engine::isomap::{MapAxis, MapRequest};
    for m in MODELS {
        let s = m.spec();
        assert!(!s.gaps.is_empty(), "{}: say what a blank map point means", s.id);
        for preset in s.maps {
            let request = MapRequest {
                output: preset.output.into(),
                x: MapAxis::parse("x", preset.x).unwrap(),
                y: MapAxis::parse("y", preset.y).unwrap(),
                nx: 48,
                ny: 48,
                levels: preset.levels.to_vec(),
            };
            let map = api::iso_map(s.id, &preset_params(preset.values), &request)
                .unwrap_or_else(|e| panic!("{}/{}: {e}", s.id, preset.id));
            assert!(
                map.values.iter().filter(|v| v.is_finite()).count() > 48 * 48 / 4,
                "{}/{}: mostly gaps",
                s.id,
                preset.id
            );
            assert!(map.isolines.iter().any(|l| !l.lines.is_empty()), "{}/{}: no isoline", s.id, preset.id);
        }
    }
}

/// Issue 13, class 7: a message quotes at most a short, printable piece of
/// what the user sent (a 100 kB value was echoed whole, a NUL printed raw).
#[test]
fn messages_quote_a_short_printable_piece_of_the_input() {
    use isoperf::spec::{RawParams, RawValue};
    let long = "x".repeat(100_000);
    for (key, value) in [("N", long.clone()), ("N", "1\0two".to_string()), (long.as_str(), "1".to_string())] {
        let raw: RawParams = [(key.to_string(), RawValue::Text(value))].into_iter().collect();
        let e = isoperf::api::evaluate("pmm", &raw).unwrap_err().to_string();
        assert!(e.chars().count() < 300, "{} characters: {}", e.len(), &e[..200]);
        assert!(!e.chars().any(char::is_control), "{e:?}");
    }
    let e = isoperf::api::evaluate(&format!("pmm{long}"), &RawParams::new()).unwrap_err().to_string();
    assert!(e.contains("… (100003 characters)") && e.len() < 300, "{}", &e[..100]);
    assert_eq!(isoperf::format::echo("short"), "short");
}

/// The page analyses a data set again only when its text or one of the
/// parameters it declares (`DatasetSpec::params`) changes: the analysis of
/// every example must not move when any other number parameter does.
#[test]
fn a_data_set_declares_every_parameter_its_analysis_reads() {
    use isoperf::spec::RawValue;
    for s in MODELS.iter().map(|m| m.spec()) {
        for d in s.datasets {
            for p in d.params {
                assert!(s.params.iter().any(|q| q.key == *p), "{}/{}: unknown parameter {p}", s.id, d.id);
            }
            for x in d.examples {
                let text = std::fs::read_to_string(x.path).unwrap_or_else(|e| panic!("{}: {e}", x.path));
                let base = api::analyze(s.id, d.id, &text, &RawParams::new()).expect("the example analyses");
                let base = serde_json::to_value(&base).unwrap();
                for q in s.params.iter().filter(|q| !d.params.contains(&q.key)) {
                    let ParamKind::Number { default, range, .. } = q.kind else { continue };
                    // Another value inside the range: halfway to the far end.
                    let other = if range.max.is_finite() && range.max > default {
                        (default + range.max) / 2.0
                    } else {
                        (default + range.min) / 2.0
                    };
                    let raw = RawParams::from([(q.key.to_string(), RawValue::Num(other))]);
                    let moved = api::analyze(s.id, d.id, &text, &raw).map(|a| serde_json::to_value(&a).unwrap());
                    assert!(
                        moved.ok().as_ref() == Some(&base),
                        "{}/{}: {} = {other} changes the analysis of {}",
                        s.id,
                        d.id,
                        q.key,
                        x.id
                    );
                }
            }
        }
    }
}
