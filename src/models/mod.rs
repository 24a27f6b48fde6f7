//! The model registry and the three operations every front end calls:
//! evaluate, tables, chart. Each takes raw user input and validates it
//! against the model's [`ModelSpec`] first.

use crate::chart::Chart;
use crate::error::{AnalysisError, FieldError, ModelError};
use crate::spec::{ModelSpec, OutValue, Outputs, Params, RawParams, Remark, SweepSpec, Value};
use crate::table::Table;

pub mod dlt;
pub mod mapreduce;
pub mod pipeline;
pub mod pmm;
pub mod scaling;

/// A performance model: a declarative spec and pure functions of valid
/// parameters.
pub trait Model: Sync {
    fn spec(&self) -> &'static ModelSpec;

    /// The named outputs, in the order of `spec().outputs`.
    fn evaluate(&self, p: &Params) -> Result<Outputs, ModelError>;

    /// Comparison and reproduction tables for the current parameters.
    fn tables(&self, _p: &Params) -> Result<Vec<Table>, ModelError> {
        Ok(Vec::new())
    }

    /// The chart `id` (one of `spec().charts`) for the current parameters.
    fn chart(&self, id: &str, p: &Params) -> Result<Chart, ModelError>;

    /// Fills `out[j * xs.len() + i]` with `output` at (xs[i], ys[j]) by a
    /// fast path that exploits the model's structure, NaN where undefined;
    /// returns false when there is none (the map engine then evaluates
    /// point by point).
    fn field(&self, _output: &str, _p: &Params, _x: (&str, &[f64]), _y: (&str, &[f64]), _out: &mut [f64]) -> bool {
        false
    }

    /// Analyses measured data of kind `dataset` (one of `spec().datasets`).
    fn analyze(&self, dataset: &str, _text: &str, _p: &Params) -> Result<Analysis, AnalysisError> {
        Err(AnalysisError::general(format!("{} has no data set '{dataset}'", self.spec().id)))
    }

    /// A chart of the analysis of measured data.
    fn analysis_chart(&self, dataset: &str, _text: &str, _p: &Params, _chart: &str) -> Result<Chart, AnalysisError> {
        Err(AnalysisError::general(format!("{} has no data set '{dataset}'", self.spec().id)))
    }

    /// Sentences under a sweep chart that read its data (the lecture's
    /// observations, checked against the curves drawn).
    fn sweep_note(&self, _sweep: &SweepSpec, _p: &Params, _data: &SweepData) -> Option<String> {
        None
    }

    /// Conditions worth a sentence (infeasible, unreachable, near
    /// saturation) for the current parameters.
    fn remarks(&self, _p: &Params) -> Result<Vec<Remark>, ModelError> {
        Ok(Vec::new())
    }
}

/// The result of analysing measured data.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Analysis {
    pub tables: Vec<Table>,
    /// Parameter values the analysis suggests (fitted coefficients).
    pub suggest: Vec<(&'static str, f64)>,
    /// Everything computed, for export as JSON.
    pub result: serde_json::Value,
}

/// Every model of the calculator, in the order the page shows them.
pub static MODELS: &[&dyn Model] =
    &[&pmm::Pmm, &dlt::Dlt, &mapreduce::MapReduce, &pipeline::Pipeline, &scaling::Scaling];

pub fn specs() -> Vec<&'static ModelSpec> {
    MODELS.iter().map(|m| m.spec()).collect()
}

pub fn find(id: &str) -> Result<&'static dyn Model, ModelError> {
    MODELS.iter().copied().find(|m| m.spec().id == id).ok_or_else(|| ModelError::Unknown {
        what: "model",
        name: id.to_string(),
        known: MODELS.iter().map(|m| m.spec().id.to_string()).collect(),
    })
}

fn parse(model: &dyn Model, raw: &RawParams) -> Result<Params, ModelError> {
    model.spec().parse(raw).map_err(ModelError::Params)
}

/// Validates `raw` and evaluates model `id`. Every numeric output is finite.
pub fn evaluate(id: &str, raw: &RawParams) -> Result<Outputs, ModelError> {
    let model = find(id)?;
    let out = model.evaluate(&parse(model, raw)?)?;
    ensure_finite(model.spec(), out)
}

/// All field problems of `raw` at once, including the model's own rules
/// (which only show once every field is valid on its own). Empty when the
/// parameters evaluate.
pub fn check(id: &str, raw: &RawParams) -> Result<Vec<FieldError>, ModelError> {
    match evaluate(id, raw) {
        Ok(_) => Ok(Vec::new()),
        Err(ModelError::Params(mut errors)) => {
            // The model's own rules (N a perfect square, ...) run only on a
            // complete valid set. To report them for the fields that are valid
            // on their own, check again with the invalid fields at defaults.
            let mut patched = raw.clone();
            for e in &errors {
                patched.remove(&e.key);
            }
            if patched.len() < raw.len() {
                if let Err(ModelError::Params(more)) = evaluate(id, &patched) {
                    let fresh: Vec<_> = more
                        .into_iter()
                        .filter(|m| raw.contains_key(&m.key) && !errors.iter().any(|e| e.key == m.key))
                        .collect();
                    errors.extend(fresh);
                }
            }
            let model = find(id)?;
            let order = |key: &str| model.spec().params.iter().position(|p| p.key == key).unwrap_or(usize::MAX);
            errors.sort_by_key(|e| order(&e.key));
            Ok(ModelError::Params(errors).field_errors())
        }
        Err(e @ ModelError::Unknown { .. }) => Err(e),
        Err(e) => Ok(vec![FieldError { key: String::new(), message: e.to_string() }]),
    }
}

/// Tables need only valid fields: a model may show them where `evaluate`
/// reports a condition (the delay breakdown of a saturated queue).
pub fn tables(id: &str, raw: &RawParams) -> Result<Vec<Table>, ModelError> {
    let model = find(id)?;
    let p = parse(model, raw)?;
    model.tables(&p)
}

pub fn remarks(id: &str, raw: &RawParams) -> Result<Vec<Remark>, ModelError> {
    let model = find(id)?;
    let p = parse(model, raw)?;
    model.evaluate(&p)?;
    model.remarks(&p)
}

pub fn chart(id: &str, chart_id: &str, raw: &RawParams) -> Result<Chart, ModelError> {
    let model = find(id)?;
    let spec = model.spec();
    if spec.sweeps.iter().any(|s| s.id == chart_id) {
        return sweep_chart(id, chart_id, raw, None);
    }
    if !spec.charts.iter().any(|c| c.id == chart_id) {
        return Err(ModelError::Unknown {
            what: "chart",
            name: chart_id.to_string(),
            known: spec.charts.iter().map(|c| c.id).chain(spec.sweeps.iter().map(|s| s.id)).map(String::from).collect(),
        });
    }
    let p = parse(model, raw)?;
    model.chart(chart_id, &p)
}

fn ensure_finite(spec: &ModelSpec, out: Outputs) -> Result<Outputs, ModelError> {
    for (key, value) in &out.0 {
        let finite = match value {
            OutValue::Num(x) => x.is_finite(),
            OutValue::Array(xs) => xs.iter().all(|x| x.is_finite()),
            OutValue::Bool(_) | OutValue::Missing => true,
        };
        if !finite {
            let output = spec.outputs.iter().find(|o| o.key == *key).map_or("a result", |o| o.key);
            return Err(ModelError::NonFinite { output });
        }
    }
    Ok(out)
}

/// Parameters for an analysis of measured data: a field that is invalid in
/// the form takes its default here (the form already shows its error), so a
/// typo in C1 does not hide the fit that could correct it.
fn lenient(model: &dyn Model, raw: &RawParams) -> Result<Params, ModelError> {
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

/// An iso-map of model `id` (see [`crate::analysis::isomap`]).
pub fn iso_map(
    id: &str,
    raw: &RawParams,
    request: &crate::analysis::isomap::MapRequest,
) -> Result<crate::analysis::isomap::IsoMap, crate::analysis::isomap::MapError> {
    let model =
        find(id).map_err(|e| crate::analysis::isomap::MapError { field: "model".into(), message: e.to_string() })?;
    crate::analysis::isomap::map(model, raw, request)
}

/// The computed curves of a sweep: `ys[s][k]` is the output at `xs[k]` for
/// the series value `values[s]`, NaN where the model has no value.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepData {
    pub xs: Vec<f64>,
    pub values: Vec<f64>,
    pub ys: Vec<Vec<f64>>,
}

impl SweepData {
    /// The output at the x nearest `x` on curve `s`.
    pub fn at(&self, s: usize, x: f64) -> Option<(f64, f64)> {
        let ys = self.ys.get(s)?;
        self.xs
            .iter()
            .zip(ys)
            .filter(|(_, y)| y.is_finite())
            .min_by(|a, b| (a.0 - x).abs().total_cmp(&(b.0 - x).abs()))
            .map(|(x, y)| (*x, *y))
    }
}

fn find_sweep(model: &dyn Model, sweep_id: &str) -> Result<&'static SweepSpec, ModelError> {
    model.spec().sweeps.iter().find(|s| s.id == sweep_id).ok_or_else(|| ModelError::Unknown {
        what: "sweep",
        name: sweep_id.to_string(),
        known: model.spec().sweeps.iter().map(|s| s.id.to_string()).collect(),
    })
}

/// A sweep is drawn only where the parameters it varies are used: m means
/// nothing for a per-mapper list, and a flat curve would say otherwise.
fn sweep_applies(model: &dyn Model, sweep: &SweepSpec, raw: &RawParams) -> Result<(), ModelError> {
    let spec = model.spec();
    for key in std::iter::once(&sweep.x).chain(std::iter::once(&sweep.series)).chain(sweep.linked) {
        let Some(param) = spec.param(key) else { continue };
        if let (false, Some(when)) = (spec.applies(param, raw), &param.applies_when) {
            return Err(ModelError::param(crate::error::ParamError::constraint(
                key,
                format!("this chart varies {key}, which is not used with {} = {}", when.key, raw_choice(raw, when.key)),
                format!("{} = {} for this chart", when.key, when.values.join(" or ")),
            )));
        }
    }
    Ok(())
}

fn raw_choice(raw: &RawParams, key: &str) -> String {
    match raw.get(key) {
        Some(crate::spec::RawValue::Text(t)) => t.trim().to_string(),
        _ => "this choice".into(),
    }
}

fn sweep_xs(model: &dyn Model, sweep: &SweepSpec) -> Vec<f64> {
    let integer = matches!(
        model.spec().param(sweep.x).map(|p| &p.kind),
        Some(crate::spec::ParamKind::Number { integer: true, .. })
    );
    sweep.xs(integer)
}

/// The x values and series values of sweep `sweep_id` (for the page's worker).
pub fn sweep_plan(id: &str, sweep_id: &str) -> Result<(Vec<f64>, Vec<f64>), ModelError> {
    let model = find(id)?;
    let sweep = find_sweep(model, sweep_id)?;
    Ok((sweep_xs(model, sweep), sweep.values.to_vec()))
}

/// The form's values with those the sweep fixes.
pub fn sweep_base(p: &Params, sweep: &SweepSpec) -> Params {
    sweep.fixed.iter().fold(p.clone(), |p, (key, v)| p.with(key, Value::Num(*v)))
}

/// Curve `index` of sweep `sweep_id`: the output at every x, NaN where the
/// model reports an error. Needs only valid fields.
pub fn sweep_series(id: &str, sweep_id: &str, raw: &RawParams, index: usize) -> Result<Vec<f64>, ModelError> {
    let model = find(id)?;
    let sweep = find_sweep(model, sweep_id)?;
    let value = *sweep.values.get(index).ok_or_else(|| ModelError::Unknown {
        what: "series",
        name: index.to_string(),
        known: (0..sweep.values.len()).map(|k| k.to_string()).collect(),
    })?;
    sweep_applies(model, sweep, raw)?;
    let mut p = sweep_base(&parse(model, raw)?, sweep).with(sweep.series, Value::Num(value));
    for key in sweep.linked {
        p = p.with(key, Value::Num(value));
    }
    Ok(sweep_xs(model, sweep)
        .into_iter()
        .map(|x| {
            let out = model.evaluate(&p.with(sweep.x, Value::Num(x))).ok();
            out.and_then(|o| o.num(sweep.output)).filter(|y| y.is_finite()).unwrap_or(f64::NAN)
        })
        .collect())
}

/// The chart of a sweep from its curves (`ys`, as [`sweep_series`] computed
/// them), or computing them all when `ys` is `None` (the CLI).
pub fn sweep_chart(id: &str, sweep_id: &str, raw: &RawParams, ys: Option<Vec<Vec<f64>>>) -> Result<Chart, ModelError> {
    let model = find(id)?;
    let sweep = find_sweep(model, sweep_id)?;
    sweep_applies(model, sweep, raw)?;
    let p = sweep_base(&parse(model, raw)?, sweep);
    let ys = match ys {
        Some(ys) => ys,
        None => (0..sweep.values.len()).map(|k| sweep_series(id, sweep_id, raw, k)).collect::<Result<_, _>>()?,
    };
    let data = SweepData { xs: sweep_xs(model, sweep), values: sweep.values.to_vec(), ys };
    let mut chart = crate::chart::sweep(model.spec(), sweep, &data);
    let here = model.evaluate(&p).ok().and_then(|o| o.num(sweep.output));
    if let (Some(x), Some(y)) = (p.num(sweep.x), here) {
        chart.series.push(crate::chart::Series::new(
            "current parameters",
            crate::chart::Style::Marker,
            0,
            vec![(x, y)],
        ));
    }
    chart.note = model.sweep_note(sweep, &p, &data);
    Ok(chart)
}
