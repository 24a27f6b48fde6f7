//! Pinned scenarios on charts (`api::with_scenarios`): each scenario's
//! curves are the same chart computed for its parameters, drawn faintly
//! behind the current ones and named in the note; a schedule (bars) is left
//! as it is; a scenario with no result is named as not drawn.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use isoperf::api::{self, Scenario};
use isoperf::chart::Style;

mod common;
use common::raw;

fn scenario(name: &str, pairs: &[(&str, &str)]) -> Scenario {
    Scenario { name: name.into(), params: raw(pairs) }
}

#[test]
fn a_scenario_adds_its_curves_faintly_behind_the_current_ones() {
    let current = api::chart("pmm", "time", &raw(&[("M", "16000")])).unwrap();
    let pinned = api::chart("pmm", "time", &raw(&[("M", "8000")])).unwrap();
    let with = api::with_scenarios("pmm", "time", current.clone(), &[scenario("A", &[("M", "8000")])]);
    let curves: Vec<_> = pinned.series.iter().filter(|s| s.style != Style::Marker).collect();
    let faint: Vec<_> = with.series.iter().filter(|s| s.faint).collect();
    assert_eq!(faint.len(), curves.len(), "one faint curve per curve of the pinned chart");
    // Behind: first in drawing order; the same points as the chart at M = 8000; no legend entries.
    assert!(with.series[..faint.len()].iter().all(|s| s.faint));
    for (f, c) in faint.iter().zip(&curves) {
        assert_eq!(f.points, c.points);
        assert_eq!(f.name, "");
        assert_eq!(f.color, c.color, "the same colour, blended when drawn");
    }
    assert_eq!(with.series.len(), current.series.len() + faint.len(), "the current chart is all there");
    assert!(with.note.as_deref().unwrap().starts_with("Faint: the pinned scenario A."), "{:?}", with.note);
    // The chart draws (the faint curves widen nothing that breaks it).
    isoperf::chart::to_svg(&with, 640, 400).unwrap();
}

#[test]
fn schedules_are_left_alone_and_failed_scenarios_are_named() {
    let gantt = api::chart("dlt", "gantt", &raw(&[])).unwrap();
    let same = api::with_scenarios("dlt", "gantt", gantt.clone(), &[scenario("A", &[("m", "3")])]);
    assert_eq!(same.series.len(), gantt.series.len());
    assert_eq!(same.note, gantt.note);

    let speedup = api::chart("dlt", "speedup", &raw(&[])).unwrap();
    let with = api::with_scenarios(
        "dlt",
        "speedup",
        speedup,
        &[scenario("good", &[("m", "3")]), scenario("bad", &[("m", "-1")])],
    );
    let note = with.note.unwrap();
    assert!(note.contains("Faint: the pinned scenario good."), "{note}");
    assert!(note.contains("Not drawn here: bad"), "{note}");
}

#[test]
fn at_most_four_scenarios_are_drawn() {
    let current = api::chart("pmm", "time", &raw(&[])).unwrap();
    let five: Vec<_> = (0..5).map(|k| scenario(&format!("S{k}"), &[("M", &format!("{}", 1000 * (k + 1)))])).collect();
    let with = api::with_scenarios("pmm", "time", current, &five);
    let note = with.note.unwrap();
    assert!(note.contains("S3") && !note.contains("S4"), "{note}");
    assert_eq!(api::MAX_SCENARIOS, 4);
}
