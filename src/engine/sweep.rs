//! Sweeps: one output against one parameter for several values of a
//! second (the lecture's "speedup vs m for several r"), computed curve by
//! curve (the page's worker reports progress between curves) and drawn with
//! the model's sentences that read them. Written against [`AnyModel`]: no
//! model is named here.

use crate::chart::{Axis, Chart, Corner, Series, Style, PALETTE};
use crate::error::{ModelError, ParamError};
use crate::model::{AnyModel, SweepData};
use crate::spec::{ModelSpec, ParamKind, Params, RawParams, RawValue, Scale, SweepSpec, Value};

fn parse(model: &dyn AnyModel, raw: &RawParams) -> Result<Params, ModelError> {
    model.spec().parse(raw).map_err(ModelError::Params)
}

/// The sweep `sweep_id` of `model`.
pub fn find(model: &dyn AnyModel, sweep_id: &str) -> Result<&'static SweepSpec, ModelError> {
    model.spec().sweeps.iter().find(|s| s.id == sweep_id).ok_or_else(|| ModelError::Unknown {
        what: "sweep",
        name: sweep_id.to_string(),
        known: model.spec().sweeps.iter().map(|s| s.id.to_string()).collect(),
    })
}

/// A sweep is drawn only where the parameters it varies are used: m means
/// nothing for a per-mapper list, and a flat curve would say otherwise.
fn sweep_applies(model: &dyn AnyModel, sweep: &SweepSpec, raw: &RawParams) -> Result<(), ModelError> {
    let spec = model.spec();
    for key in std::iter::once(&sweep.x).chain(std::iter::once(&sweep.series)).chain(sweep.linked) {
        let Some(param) = spec.param(key) else { continue };
        if let (false, Some(when)) = (spec.applies(param, raw), &param.applies_when) {
            return Err(ModelError::param(ParamError::constraint(
                key,
                format!(
                    "this chart varies {key}, which is not used with {} = '{}'",
                    when.key,
                    crate::format::echo(&raw_choice(raw, when.key))
                ),
                format!("{} = {} for this chart", when.key, when.values.join(" or ")),
            )));
        }
    }
    Ok(())
}

fn raw_choice(raw: &RawParams, key: &str) -> String {
    match raw.get(key) {
        Some(RawValue::Text(t)) => t.trim().to_string(),
        _ => "this choice".into(),
    }
}

fn sweep_xs(model: &dyn AnyModel, sweep: &SweepSpec) -> Vec<f64> {
    let integer = matches!(model.spec().param(sweep.x).map(|p| &p.kind), Some(ParamKind::Number { integer: true, .. }));
    sweep.xs(integer)
}

/// The x values and series values of sweep `sweep_id` (for the page's worker).
pub fn plan(model: &dyn AnyModel, sweep_id: &str) -> Result<(Vec<f64>, Vec<f64>), ModelError> {
    let sweep = find(model, sweep_id)?;
    Ok((sweep_xs(model, sweep), sweep.values.to_vec()))
}

/// The form's values with those the sweep fixes.
pub fn base(p: &Params, sweep: &SweepSpec) -> Params {
    sweep.fixed.iter().fold(p.clone(), |p, (key, v)| p.with(key, Value::Num(*v)))
}

/// Curve `index` of sweep `sweep_id`: the output at every x, NaN where the
/// model reports an error. Needs only valid fields.
pub fn series(model: &dyn AnyModel, sweep_id: &str, raw: &RawParams, index: usize) -> Result<Vec<f64>, ModelError> {
    series_points(model, sweep_id, raw, index, 0..usize::MAX)
}

/// Points `points` of curve `index` (cut to the curve), as [`series`]
/// computes them: a worker computes a slow curve a few points at a time.
pub fn series_points(
    model: &dyn AnyModel,
    sweep_id: &str,
    raw: &RawParams,
    index: usize,
    points: std::ops::Range<usize>,
) -> Result<Vec<f64>, ModelError> {
    let sweep = find(model, sweep_id)?;
    let value = *sweep.values.get(index).ok_or_else(|| ModelError::Unknown {
        what: "series",
        name: index.to_string(),
        known: (0..sweep.values.len()).map(|k| k.to_string()).collect(),
    })?;
    sweep_applies(model, sweep, raw)?;
    let mut p = base(&parse(model, raw)?, sweep).with(sweep.series, Value::Num(value));
    for key in sweep.linked {
        p = p.with(key, Value::Num(value));
    }
    let xs = sweep_xs(model, sweep);
    let points = points.start.min(xs.len())..points.end.min(xs.len());
    Ok(xs
        .get(points)
        .unwrap_or_default()
        .iter()
        .map(|&x| {
            let e = model.evaluate_point(&p.with(sweep.x, Value::Num(x))).ok();
            e.and_then(|e| e.number(sweep.output)).unwrap_or(f64::NAN)
        })
        .collect())
}

/// The chart of a sweep from its curves (`ys`, as [`series`] computed
/// them), or computing them all when `ys` is `None` (the CLI), with its
/// marks, its note, and the current parameters marked where `output_at`
/// (an output of the model at some parameters) gives their value.
pub fn chart(
    model: &dyn AnyModel,
    sweep_id: &str,
    raw: &RawParams,
    ys: Option<Vec<Vec<f64>>>,
    output_at: &dyn Fn(&Params, &str) -> Option<f64>,
) -> Result<Chart, ModelError> {
    let sweep = find(model, sweep_id)?;
    sweep_applies(model, sweep, raw)?;
    let p = base(&parse(model, raw)?, sweep);
    let ys = match ys {
        Some(ys) => ys,
        None => (0..sweep.values.len()).map(|k| series(model, sweep_id, raw, k)).collect::<Result<_, _>>()?,
    };
    let data = SweepData { xs: sweep_xs(model, sweep), values: sweep.values.to_vec(), ys };
    let mut chart = sweep_figure(model.spec(), sweep, &data);
    chart.series.extend(model.sweep_marks(sweep, &p));
    if let (Some(x), Some(y)) = (p.num(sweep.x), output_at(&p, sweep.output)) {
        chart.series.push(Series::new("current parameters", Style::Marker, 0, vec![(x, y)]));
    }
    chart.note = model.sweep_note(sweep, &p, &data);
    Ok(chart)
}

/// The chart of a sweep: one line per series value, points where the
/// output is defined (a gap joins its neighbours; no NaN is drawn).
fn sweep_figure(spec: &ModelSpec, sweep: &SweepSpec, data: &SweepData) -> Chart {
    let series = data
        .values
        .iter()
        .zip(&data.ys)
        .enumerate()
        .map(|(k, (value, ys))| {
            let points = data.xs.iter().zip(ys).filter(|(_, y)| y.is_finite()).map(|(x, y)| (*x, *y)).collect();
            Series::new(
                format!("{} = {}", sweep.label, crate::format::base(*value)),
                Style::Line,
                (k + 1) % PALETTE.len(),
                points,
            )
        })
        .collect();
    let y_values: Vec<f64> = data.ys.iter().flatten().copied().filter(|y| y.is_finite() && *y > 0.0).collect();
    let (lo, hi) = y_values.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), y| (lo.min(*y), hi.max(*y)));
    Chart {
        title: sweep.title.to_string(),
        x: Axis::new(spec.axis_label(sweep.x), if sweep.x_log { Scale::Log } else { Scale::Linear }),
        y: Axis::new(spec.axis_label(sweep.output), if hi / lo > 20.0 { Scale::Log } else { Scale::Linear }),
        series,
        legend: Corner::Auto,
        note: None,
    }
}
