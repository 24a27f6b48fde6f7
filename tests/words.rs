//! The words every model shows: no typed-out notation (`t_{N+1}`) where
//! the page can set subscripts, no count that disagrees with its noun
//! ("1 processors"), and no subscript mark where the text is drawn or
//! shown as plain text (chart titles, axes, legends; field messages).
//!
//! Texts are read as the front ends receive them: the registry and the
//! reports serialized to JSON, charts as the core builds them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use isoperf::api::{self, Session};
use isoperf::models::MODELS;
use isoperf::spec::RawParams;

mod common;
use common::{defaults_and_presets, raw};

/// Nouns that must not follow the count 1.
const PLURALS: &[&str] = &[
    "processors",
    "processes",
    "tasks",
    "mappers",
    "reducers",
    "intervals",
    "values",
    "rows",
    "points",
    "groups",
    "pipelines",
    "nodes",
    "levels",
    "lines",
    "pairs",
    "hops",
    "columns",
    "steps",
    "messages",
    "iterations",
    "rounds",
    "segments",
    "configurations",
    "measurements",
    "curves",
    "divisors",
    "bytes",
    "decades",
];

/// Every string in a JSON value.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(xs) => xs.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

fn texts_of<T: serde::Serialize>(x: &T) -> Vec<String> {
    let mut out = Vec::new();
    strings(&serde_json::to_value(x).unwrap(), &mut out);
    out
}

/// "1 processors" with the 1 a whole count (not 0.1 or 21 or 10¹).
fn one_with_plural(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for (i, w) in chars.windows(2).enumerate() {
        if w != ['1', ' '] {
            continue;
        }
        let before = i.checked_sub(1).and_then(|k| chars.get(k));
        if before.is_some_and(|c| c.is_alphanumeric() || ".,·^⁻".contains(*c)) {
            continue;
        }
        let rest: String = chars[i + 2..].iter().collect();
        let word: String = rest.chars().take_while(|c| c.is_alphabetic()).collect();
        if PLURALS.contains(&word.as_str()) {
            return Some(format!("1 {word}"));
        }
    }
    None
}

/// Parameter sets where counts are 1, on top of the defaults and presets.
fn cases() -> Vec<(&'static str, RawParams)> {
    let mut out = defaults_and_presets();
    out.push(("dlt", raw(&[("m", "1")])));
    out.push(("dlt", raw(&[("m", "5")]))); // infeasible: the schedule of m_max
    out.push(("mapreduce", raw(&[("m", "1"), ("r", "1"), ("l", "1")])));
    out.push(("pipeline", raw(&[("N", "64"), ("P", "2"), ("groups", "1")])));
    out.push(("pipeline", raw(&[("L", "1e9")]))); // saturated
    out.push(("pmm", raw(&[("N", "1")])));
    out.push(("scaling", raw(&[("p", "1")])));
    out
}

fn check_rich(what: &str, texts: &[String], problems: &mut Vec<String>) {
    for t in texts {
        if t.contains("_{") {
            problems.push(format!("{what}: typed-out subscript in {t:?}"));
        }
        if let Some(p) = one_with_plural(t) {
            problems.push(format!("{what}: '{p}' in {t:?}"));
        }
        // A hedged plural ("processor(s)") where the count is known.
        if t.contains("(s) ") || t.contains("(s).") || t.contains("(es)") {
            problems.push(format!("{what}: a hedged plural in {t:?}"));
        }
        if t.matches("<sub>").count() != t.matches("</sub>").count() {
            problems.push(format!("{what}: unbalanced subscript marks in {t:?}"));
        }
    }
}

fn check_plain(what: &str, texts: &[String], problems: &mut Vec<String>) {
    check_rich(what, texts, problems);
    for t in texts.iter().filter(|t| t.contains("<sub>")) {
        problems.push(format!("{what}: a subscript mark in plain text {t:?}"));
    }
}

/// Text Rust draws on a chart: plain, and no notation left for the page to
/// lower (`T_comm`): Unicode subscripts (`mₘₐₓ`) or words instead.
fn check_drawn(what: &str, texts: &[String], problems: &mut Vec<String>) {
    check_plain(what, texts, problems);
    for t in texts.iter().filter(|t| isoperf::format::rich(t) != **t) {
        problems.push(format!("{what}: typed-out notation in drawn text {t:?}"));
    }
}

#[test]
fn the_registry_reads_well() {
    let mut problems = Vec::new();
    for m in MODELS {
        let s = m.spec();
        check_rich(s.id, &texts_of(&s), &mut problems);
        // Drawn by Rust or shown in attributes and menus: plain text.
        let plain: Vec<String> = s
            .charts
            .iter()
            .map(|c| c.title.to_string())
            .chain(s.sweeps.iter().map(|w| w.title.to_string()))
            .chain(s.maps.iter().map(|p| p.label.to_string()))
            .chain([s.title.to_string(), s.gaps.to_string()])
            .collect();
        check_plain(s.id, &plain, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_report_reads_well() {
    let mut problems = Vec::new();
    for (id, raw) in cases() {
        let what = format!("{id} {raw:?}");
        let r = Session::default().report(id, &raw).unwrap();
        check_rich(&what, &texts_of(&r.tables), &mut problems);
        check_rich(&what, &texts_of(&r.remarks), &mut problems);
        // Field messages are plain text (beside the field, on the CLI's stderr).
        let messages: Vec<String> = r.problems.iter().map(|p| p.message.clone()).collect();
        check_plain(&what, &messages, &mut problems);
        let hints: Vec<String> = r.fields.values().map(|f| f.hint.clone()).collect();
        check_plain(&what, &hints, &mut problems);
        for c in MODELS.iter().find(|m| m.spec().id == id).unwrap().spec().charts {
            let Ok(chart) = api::chart(id, c.id, &raw) else { continue };
            // What Rust draws is plain; the note under the chart is rich.
            let drawn: Vec<String> = [chart.title.clone(), chart.x.label.clone(), chart.y.label.clone()]
                .into_iter()
                .chain(chart.series.iter().map(|s| s.name.clone()))
                .chain(chart.x.tick_labels.iter().chain(&chart.y.tick_labels).cloned())
                .collect();
            check_drawn(&format!("{what} chart {}", c.id), &drawn, &mut problems);
            check_rich(&format!("{what} chart {}", c.id), &texts_of(&chart.note), &mut problems);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The measured-data analyses of the shipped examples read as well.
#[test]
fn analyses_read_well() {
    let mut problems = Vec::new();
    for m in MODELS {
        let s = m.spec();
        for d in s.datasets {
            for x in d.examples {
                let text =
                    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/").to_string() + x.path).unwrap();
                let a = api::analyze(s.id, d.id, &text, &RawParams::new()).unwrap();
                check_rich(&format!("{} {}", s.id, x.id), &texts_of(&a.tables), &mut problems);
                for c in d.charts {
                    let chart = api::analysis_chart(s.id, d.id, &text, &RawParams::new(), c.id).unwrap();
                    let drawn: Vec<String> = [chart.title.clone(), chart.x.label.clone(), chart.y.label.clone()]
                        .into_iter()
                        .chain(chart.series.iter().map(|s| s.name.clone()))
                        .collect();
                    check_drawn(&format!("{} {} chart {}", s.id, x.id, c.id), &drawn, &mut problems);
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The scan itself finds what it looks for.
#[test]
fn the_scan_finds_bad_words() {
    assert_eq!(one_with_plural("the schedule of 1 processors."), Some("1 processors".into()));
    assert_eq!(one_with_plural("1 tasks"), Some("1 tasks".into()));
    assert_eq!(one_with_plural("1 processor, 21 processors, 0.1 values, 10¹ points"), None);
    let mut problems = Vec::new();
    check_rich("t", &["End of shuffle t_{N+1}".into()], &mut problems);
    check_plain("t", &["α<sub>i</sub>".into()], &mut problems);
    check_drawn("t", &["T_comm vs L".into(), "m = 1 … mₘₐₓ".into()], &mut problems);
    assert_eq!(problems.len(), 3, "{problems:?}");
}
