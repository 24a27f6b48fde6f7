//! The facade's operations that only the full build has (the `full`
//! feature): charts, measured-data analysis, calibration and scaling laws,
//! iso-maps and sweeps.

use crate::chart::Chart;
use crate::engine::uncertainty::{self, Bands, Uncertainty};
use crate::engine::{calibrate as calibration, isomap, map_layout, sweep};
use crate::error::{AnalysisError, ModelError};
use crate::model::{Analysis, AnyModel};
use crate::models::find;
use crate::spec::{ModelSpec, Params, RawParams};

use super::{parse, Session};

/// Chart `chart_id` of model `id`: one of its charts, or one of its sweeps
/// computed whole (the CLI).
pub fn chart(id: &str, chart_id: &str, raw: &RawParams) -> Result<Chart, ModelError> {
    Session::default().chart(id, chart_id, raw)
}

fn unknown_chart(spec: &ModelSpec, chart_id: &str) -> ModelError {
    ModelError::Unknown {
        what: "chart",
        name: chart_id.to_string(),
        known: spec.charts.iter().map(|c| c.id).chain(spec.sweeps.iter().map(|s| s.id)).map(String::from).collect(),
    }
}

/// Parameters for an analysis of measured data: a field that is invalid in
/// the form takes its default here (the form already shows its error), so a
/// typo in C1 does not hide the fit that could correct it.
fn lenient(model: &dyn AnyModel, raw: &RawParams) -> Result<Params, ModelError> {
    match model.spec().parse(raw) {
        Ok(p) => Ok(p),
        Err(errors) => {
            let mut patched = raw.clone();
            for e in &errors {
                patched.remove(&e.key);
            }
            parse(model, &patched)
        }
    }
}

/// Analyses measured data (CSV text) of data set `dataset` of model `id`.
pub fn analyze(id: &str, dataset: &str, text: &str, raw: &RawParams) -> Result<Analysis, AnalysisError> {
    let model = find(id)?;
    model.analyze(dataset, text, &lenient(model, raw)?)
}

pub fn analysis_chart(
    id: &str,
    dataset: &str,
    text: &str,
    raw: &RawParams,
    chart: &str,
) -> Result<Chart, AnalysisError> {
    let model = find(id)?;
    model.analysis_chart(dataset, text, &lenient(model, raw)?, chart)
}

/// A calibration as the front ends show it: everything as JSON (see
/// [`calibration::Calibration::to_json`]) and its charts.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Calibrated {
    pub result: serde_json::Value,
    pub tables: Vec<crate::table::Table>,
    /// The tables as CSV, for export.
    pub csv: String,
    pub charts: Vec<Chart>,
    /// Where the runs vary one input (p ≥ 1, a positive output): the
    /// scaling laws they follow in it ([`crate::fit::laws`]), as JSON.
    pub laws: Option<serde_json::Value>,
}

/// Model `id` calibrated to the measurements in `text` (CSV with a header
/// of parameter keys and one output), the other parameters at `raw`; with
/// every numeric output's 95% interval at `raw`'s point.
pub fn calibrate(
    id: &str,
    raw: &RawParams,
    text: &str,
    request: &calibration::Request,
) -> Result<Calibrated, AnalysisError> {
    let model = find(id)?;
    let base = parse(model, raw)?;
    let cal = calibration::calibrate(model, &base, text, request)?;
    let at = cal.apply(model.spec(), &base).ok_or_else(|| AnalysisError::general("the fitted values are invalid"))?;
    let intervals: Vec<(&'static str, calibration::Interval)> = model
        .spec()
        .outputs
        .iter()
        .filter(|o| o.categories.is_empty())
        .filter_map(|o| cal.interval(model, &at, o.key).map(|i| (o.key, i)))
        .collect();
    let laws = match cal.inputs.as_slice() {
        [_] => {
            let points: Vec<(f64, f64)> =
                cal.points.iter().filter_map(|p| Some((*p.inputs.first()?, p.measured))).collect();
            crate::fit::laws::search(&points).ok()
        }
        _ => None,
    };
    let at = cal.inputs.first().and_then(|k| base.num(k));
    let tables = cal.tables(model.spec(), &intervals, laws.as_ref(), at);
    Ok(Calibrated {
        result: cal.to_json(&intervals),
        csv: crate::table::to_csv(&tables),
        tables,
        charts: {
            let mut charts = cal.charts(model, &base);
            charts.extend(laws.as_ref().and_then(|l| cal.laws_chart(model.spec(), l, at)));
            charts
        },
        laws: laws.and_then(|l| serde_json::to_value(l).ok()),
    })
}

/// The scaling laws that `(p, time)` measurements (CSV) follow, ranked
/// ([`crate::fit::laws`]), as JSON; each p of `at` predicted by the best,
/// with a warning where that extrapolates far.
pub fn laws(text: &str, at: &[f64]) -> Result<serde_json::Value, AnalysisError> {
    use crate::csv::{Column, Measure};
    const COLUMNS: [Column; 2] = [
        Column { name: "p", aliases: &["processes", "procs", "ranks", "nodes", "x"], measure: Measure::Positive },
        Column { name: "time", aliases: &["t", "seconds", "runtime", "y"], measure: Measure::Positive },
    ];
    let rows = crate::csv::read(text, &COLUMNS)?;
    let points: Vec<(f64, f64)> =
        rows.iter().map(|r| (r.first().copied().unwrap_or(0.0), r.get(1).copied().unwrap_or(0.0))).collect();
    let laws = crate::fit::laws::search(&points).map_err(|e| AnalysisError::general(e.to_string()))?;
    let mut value = serde_json::to_value(&laws).map_err(|e| AnalysisError::general(e.to_string()))?;
    if let (Some(best), Some(obj)) = (laws.hypotheses.first(), value.as_object_mut()) {
        let predictions: Vec<serde_json::Value> = at
            .iter()
            .map(|&p| serde_json::json!({"p": p, "time": best.at(p), "warning": laws.extrapolation(p)}))
            .collect();
        obj.insert("predictions".into(), serde_json::Value::Array(predictions));
    }
    Ok(value)
}

fn map_model(id: &str) -> Result<&'static dyn AnyModel, isomap::MapError> {
    find(id).map_err(|e| isomap::MapError { field: "model".into(), message: e.to_string() })
}

/// An iso-map of model `id` (see [`crate::engine::isomap`]).
pub fn iso_map(id: &str, raw: &RawParams, request: &isomap::MapRequest) -> Result<isomap::IsoMap, isomap::MapError> {
    isomap::map(map_model(id)?, raw, request)
}

/// Rows `rows` of an iso-map's grid, NaN where the model has no value.
pub fn iso_map_rows(
    id: &str,
    raw: &RawParams,
    request: &isomap::MapRequest,
    rows: std::ops::Range<usize>,
) -> Result<Vec<f64>, isomap::MapError> {
    isomap::field_rows(map_model(id)?, raw, request, rows)
}

/// The image of a computed iso-map (`values`, as [`iso_map_rows`] gives
/// them) laid out `width` CSS px wide: pixels, isolines, labels, axes,
/// titles and colour bar, for the page to blit and draw or for SVG. With
/// `interval` (the low and high ends of a calibrated model's 95% interval
/// at each node, as [`iso_map_rows_carrying`] gives them), the map is pale
/// where the interval straddles a level, and dashed lines show where its
/// ends cross the levels.
pub fn map_layout(
    id: &str,
    request: &isomap::MapRequest,
    values: &[f64],
    width: f64,
    raw: &RawParams,
    interval: Option<(&[f64], &[f64])>,
) -> Result<map_layout::MapLayout, isomap::MapError> {
    let model = map_model(id)?;
    let spec = model.spec();
    isomap::check_grid(request, values)?;
    check_interval(request, interval)?;
    let interval_lines: Vec<isomap::Isoline> = interval
        .map(|(low, high)| {
            isomap::isolines_of(low, request).into_iter().chain(isomap::isolines_of(high, request)).collect()
        })
        .unwrap_or_default();
    let axis_title = |a: &isomap::MapAxis| format!("{}{}", spec.axis_label(&a.key), if a.log { ", log" } else { "" });
    let categories = isomap::categories(model, &request.output);
    let isolines = isomap::lines_of(values, request, categories);
    // The model's reference lines at these parameters (none when they do not parse).
    let guides = lenient(model, raw).map(|p| model.map_guides(&p)).unwrap_or_default();
    let picture = map_layout::MapPicture {
        x: &request.x,
        y: &request.y,
        nx: request.nx,
        ny: request.ny,
        values,
        isolines: &isolines,
        title: spec.axis_label(&request.output),
        x_title: axis_title(&request.x),
        y_title: axis_title(&request.y),
        categories,
        guides: &guides,
        interval: interval.map(|(low, high)| map_layout::MapInterval { low, high, lines: &interval_lines }),
    };
    Ok(map_layout::MapLayout::new(&picture, width))
}

/// Both ends of a map's interval, where given, the size of its grid.
fn check_interval(request: &isomap::MapRequest, interval: Option<(&[f64], &[f64])>) -> Result<(), isomap::MapError> {
    for end in interval.iter().flat_map(|(low, high)| [*low, *high]) {
        isomap::check_grid(request, end)?;
    }
    Ok(())
}

/// A computed grid as CSV (`x,y,output`; a categorical output's cells are
/// category ids), with the ends of each node's 95% interval after it where
/// `interval` gives them.
pub fn map_csv(
    id: &str,
    request: &isomap::MapRequest,
    values: &[f64],
    interval: Option<(&[f64], &[f64])>,
) -> Result<String, isomap::MapError> {
    isomap::check_grid(request, values)?;
    check_interval(request, interval)?;
    Ok(isomap::grid_csv(request, values, isomap::categories(map_model(id)?, &request.output), interval))
}

/// The isolines of a computed grid (`values`, nx × ny), in parameter units.
pub fn iso_lines(values: &[f64], request: &isomap::MapRequest) -> Result<Vec<isomap::Isoline>, isomap::MapError> {
    isomap::check_grid(request, values)?;
    Ok(isomap::isolines_of(values, request))
}

/// The `n` sample values of a map axis `KEY:MIN:MAX[:log]`, as the engine uses them.
pub fn iso_axis(text: &str, n: usize) -> Result<Vec<f64>, isomap::MapError> {
    isomap::MapAxis::parse("axis", text)?.samples(n)
}

/// The x values and series values of sweep `sweep_id` (for the page's worker).
pub fn sweep_plan(id: &str, sweep_id: &str) -> Result<(Vec<f64>, Vec<f64>), ModelError> {
    sweep::plan(find(id)?, sweep_id)
}

/// Curve `index` of sweep `sweep_id`: the output at every x, NaN where the
/// model reports an error. Needs only valid fields.
pub fn sweep_series(id: &str, sweep_id: &str, raw: &RawParams, index: usize) -> Result<Vec<f64>, ModelError> {
    sweep::series(find(id)?, sweep_id, raw, index)
}

/// Points `points` of that curve (cut to it).
pub fn sweep_points(
    id: &str,
    sweep_id: &str,
    raw: &RawParams,
    index: usize,
    points: std::ops::Range<usize>,
) -> Result<Vec<f64>, ModelError> {
    sweep::series_points(find(id)?, sweep_id, raw, index, points)
}

/// The chart of a sweep from its computed curves, or computing them all
/// when `ys` is `None`.
pub fn sweep_chart(id: &str, sweep_id: &str, raw: &RawParams, ys: Option<Vec<Vec<f64>>>) -> Result<Chart, ModelError> {
    Session::default().sweep_chart(id, sweep_id, raw, ys)
}

impl Session {
    /// [`sweep_chart`], its current parameters' value from the kept
    /// evaluation when they are the same (a model's sweeps often share
    /// them, and at m in the thousands one evaluation can take seconds).
    pub fn sweep_chart(
        &self,
        id: &str,
        sweep_id: &str,
        raw: &RawParams,
        ys: Option<Vec<Vec<f64>>>,
    ) -> Result<Chart, ModelError> {
        let model = find(id)?;
        let output_at = |p: &Params, key: &str| self.evaluation(model, p).as_ref().as_ref().ok()?.number(key);
        sweep::chart(model, sweep_id, raw, ys, &output_at)
    }

    /// Chart `chart_id` (a chart or a sweep of model `id`) for `raw`, from
    /// the kept evaluation when the parameters are the same.
    pub fn chart(&self, id: &str, chart_id: &str, raw: &RawParams) -> Result<Chart, ModelError> {
        let model = find(id)?;
        let spec = model.spec();
        if spec.sweeps.iter().any(|s| s.id == chart_id) {
            return self.sweep_chart(id, chart_id, raw, None);
        }
        if !spec.charts.iter().any(|c| c.id == chart_id) {
            return Err(unknown_chart(spec, chart_id));
        }
        let p = parse(model, raw)?;
        match &*self.evaluation(model, &p) {
            Ok(e) => e.chart(chart_id),
            Err(err) => Err(err.clone()),
        }
    }
}

/// A calibration's uncertainty for model `id` (`keys`, their `covariance`
/// and `t95`, as [`calibrate`]'s answer gives them), checked: what is
/// wrong with it, in a sentence.
pub fn uncertainty(id: &str, keys: &[String], covariance: &[Vec<f64>], t95: f64) -> Result<Uncertainty, String> {
    let model = find(id).map_err(|e| e.to_string())?;
    Uncertainty::new(model.spec(), keys, covariance, t95)
}

impl Session {
    /// [`Session::chart`], with a band under each curve the fitted
    /// parameters of `carried` move (see [`Uncertainty::chart`]).
    pub fn chart_carrying(
        &self,
        id: &str,
        chart_id: &str,
        raw: &RawParams,
        carried: Option<&Uncertainty>,
    ) -> Result<Chart, ModelError> {
        let chart = self.chart(id, chart_id, raw)?;
        let Some(u) = carried else { return Ok(chart) };
        let model = find(id)?;
        let mut first = Some(chart.clone());
        // The form's chart is the one just drawn; the moved parameters' are new.
        let banded = u.chart(model, raw, |r| first.take().or_else(|| self.chart(id, chart_id, r).ok()));
        Ok(banded.unwrap_or(chart))
    }
}

/// Points `points` of curve `index` of sweep `sweep_id` with their 95%
/// intervals under `carried`.
pub fn sweep_points_carrying(
    id: &str,
    sweep_id: &str,
    raw: &RawParams,
    index: usize,
    points: std::ops::Range<usize>,
    carried: &Uncertainty,
) -> Result<Bands, ModelError> {
    let model = find(id)?;
    let value = sweep::series_points(model, sweep_id, raw, index, points.clone())?;
    let mut at = |r: &RawParams| sweep::series_points(model, sweep_id, r, index, points.clone()).unwrap_or_default();
    Ok(carried.at_form(model, raw, &mut at).unwrap_or_else(|| Bands::unknown(value)))
}

impl Session {
    /// A sweep's chart from its computed curves with the bands of their
    /// 95% intervals (`low`, `high`: each curve's ends, as
    /// [`sweep_points_carrying`] gives them).
    pub fn sweep_chart_carrying(
        &self,
        id: &str,
        sweep_id: &str,
        raw: &RawParams,
        ys: Vec<Vec<f64>>,
        (low, high): (&[Vec<f64>], &[Vec<f64>]),
        carried: &Uncertainty,
    ) -> Result<Chart, ModelError> {
        let chart = self.sweep_chart(id, sweep_id, raw, Some(ys.clone()))?;
        Ok(uncertainty::sweep_bands(chart, &ys, low, high, &carried.note()))
    }
}

/// Rows `rows` of an iso-map's grid with their 95% intervals under
/// `carried`; none (NaN ends, nothing computed for them) where the output
/// is a category (a best algorithm), which has no interval.
pub fn iso_map_rows_carrying(
    id: &str,
    raw: &RawParams,
    request: &isomap::MapRequest,
    rows: std::ops::Range<usize>,
    carried: &Uncertainty,
) -> Result<Bands, isomap::MapError> {
    let model = map_model(id)?;
    let value = isomap::field_rows(model, raw, request, rows.clone())?;
    if !isomap::categories(model, &request.output).is_empty() {
        return Ok(Bands::unknown(value));
    }
    let mut at = |r: &RawParams| isomap::field_rows(model, r, request, rows.clone()).unwrap_or_default();
    Ok(carried.at_form(model, raw, &mut at).unwrap_or_else(|| Bands::unknown(value)))
}

/// A pinned scenario: its name and its parameters.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub params: RawParams,
}

/// The most scenarios drawn behind a chart.
pub const MAX_SCENARIOS: usize = 4;

/// `current` (chart `chart_id` of model `id`) with each scenario's curves
/// of the same chart drawn faintly behind it (see [`overlay`]).
pub fn with_scenarios(id: &str, chart_id: &str, current: Chart, scenarios: &[Scenario]) -> Chart {
    if scenarios.is_empty() {
        return current;
    }
    let pinned = scenarios.iter().take(MAX_SCENARIOS).map(|s| (s.name.as_str(), chart(id, chart_id, &s.params).ok()));
    overlay(current, pinned)
}

/// `current` with each pinned chart's curves drawn faintly behind it,
/// without legend entries; the note says which scenarios are drawn and
/// which have no curve (`None`: no result for their parameters). A schedule
/// (bars, no curves) is returned as it is. At most [`MAX_SCENARIOS`].
pub fn overlay<'a>(mut current: Chart, pinned: impl IntoIterator<Item = (&'a str, Option<Chart>)>) -> Chart {
    use crate::chart::Style;
    let is_curve = |x: &crate::chart::Series| matches!(x.style, Style::Line | Style::Dashed | Style::Points);
    if !current.series.iter().any(is_curve) {
        return current; // a schedule (bars): nothing to draw behind
    }
    let mut drawn = Vec::new();
    let mut faint = Vec::new();
    let mut missing = Vec::new();
    for (name, chart) in pinned.into_iter().take(MAX_SCENARIOS) {
        let curves: Vec<_> = chart.map(|c| c.series.into_iter().filter(is_curve).collect()).unwrap_or_default();
        if curves.is_empty() {
            missing.push(name);
            continue;
        }
        drawn.push(name);
        faint.extend(curves.into_iter().map(|mut c| {
            c.name = String::new();
            c.faint = true;
            c
        }));
    }
    if drawn.is_empty() && missing.is_empty() {
        return current;
    }
    let mut note = Vec::new();
    if !drawn.is_empty() {
        let list = drawn.join(", ");
        note.push(format!("Faint: the pinned scenario{} {list}.", if drawn.len() > 1 { "s" } else { "" }));
    }
    if !missing.is_empty() {
        note.push(format!("Not drawn here: {} (no curve for its parameters).", missing.join(", ")));
    }
    note.extend(current.note.take());
    current.note = Some(note.join(" "));
    faint.append(&mut current.series);
    current.series = faint;
    current
}
