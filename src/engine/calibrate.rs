//! Calibration: any model's parameters fitted to measurements, and the
//! fit's uncertainty carried into the model's outputs.
//!
//! A data set is a CSV whose header names parameter keys (the inputs of
//! each run) and one output of the model (what was measured; `time` names
//! its first output in seconds), each with an optional unit in parentheses
//! (`T (ms)`, `n (KiB)`). The parameters to
//! fit start at the form's values, and every other parameter stays there.
//! The fit is nonlinear least squares ([`crate::fit::lm`]) on absolute or
//! relative errors, bounded to each parameter's valid range (and to twelve
//! decades either side of its start on a log scale, where "valid" reaches
//! zero: a parameter driven there is one the data want ≤ 0).
//!
//! Outputs of the calibrated model get 95% intervals by linearisation:
//! with g the gradient of an output in the fitted parameters and C their
//! covariance, the mean's interval is ± t·√(gᵀCg), and a new run's adds the
//! residual variance s² (relative fits: (s·y)²). [`monte_carlo`] samples the
//! parameters from the same normal law instead, to check the linearisation.
//! No model is named here.

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use super::uncertainty::{log_ends, Uncertainty};
use crate::chart::{Axis, Chart, Corner, Series, Style, INK};
use crate::csv::read_named;
use crate::error::AnalysisError;
use crate::fit::lm::{estimates, minimise, Bound, Estimates, Minimum};
use crate::format::echo;
use crate::model::AnyModel;
use crate::spec::{ModelSpec, ParamKind, Params, Scale};
use crate::table::{Row, Status, Table};

/// Decades a log-scale parameter may move from its start where its valid
/// range is open (down to 0, or up without end).
pub const LOG_REACH: f64 = 1e12;

/// Other names of a column of times: a column so named is the model's
/// first output in seconds (as a header `time` is).
pub const TIME_ALIASES: &[&str] = &["t", "seconds", "runtime"];

/// Units a header may give a column whose model unit is seconds or bytes,
/// with their factors to it.
const TIME_UNITS: &[(&str, f64)] =
    &[("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("ns", 1e-9), ("min", 60.0), ("h", 3600.0)];

/// What is fitted, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The parameters to fit.
    pub fit: Vec<String>,
    /// Least squares on relative errors (timings spanning decades).
    pub relative: bool,
}

/// One fitted parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fitted {
    #[serde(skip)]
    pub key: &'static str,
    pub value: f64,
    /// `None` for a parameter held at a bound (no estimate of its own).
    pub stderr: Option<f64>,
    /// The 95% interval: value ± t·stderr, or on a log scale
    /// value·exp(± t·stderr/value) (the same interval in ln θ, where the
    /// fit steps), so a positive parameter keeps a positive interval.
    pub ci95: Option<[f64; 2]>,
    /// The form's value the fit started from.
    pub start: f64,
    pub at_bound: bool,
}

/// One measurement and the calibrated model's value for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// The CSV line.
    pub line: usize,
    /// The inputs, in the order of [`Calibration::inputs`].
    pub inputs: Vec<f64>,
    pub measured: f64,
    pub fitted: f64,
    /// measured − fitted.
    pub residual: f64,
}

/// A calibrated model.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// The measured output.
    pub output: &'static str,
    /// The input columns (parameter keys), in the file's order.
    pub inputs: Vec<&'static str>,
    pub fitted: Vec<Fitted>,
    pub relative: bool,
    /// Covariance of the fitted parameters (k × k).
    pub covariance: DMatrix<f64>,
    pub correlation: DMatrix<f64>,
    /// R² of the measured values.
    pub r2: f64,
    /// Root mean square of measured − fitted, in the output's unit.
    pub rmse: f64,
    /// Mean and largest |measured − fitted| / measured.
    pub mean_relative_error: f64,
    pub max_relative_error: f64,
    /// The residual standard deviation s (relative for a relative fit).
    pub sigma: f64,
    pub dof: usize,
    pub t95: f64,
    pub points: Vec<Point>,
    pub iterations: usize,
    pub converged: bool,
    pub warnings: Vec<String>,
}

/// A column of the data set.
struct Column {
    key: &'static str,
    /// Multiplies the file's values into the form's units.
    factor: f64,
    /// The unit the header gives, if any.
    unit: Option<String>,
}

impl Column {
    /// A value as the file gives it: "-20 ms".
    fn as_written(&self, raw: f64) -> String {
        match &self.unit {
            Some(u) => format!("{} {}", crate::format::num(raw), echo(u)),
            None => crate::format::num(raw),
        }
    }
}

fn header_parts(field: &str) -> (String, Option<String>) {
    match field.split_once('(') {
        Some((name, rest)) => (name.trim().to_string(), Some(rest.trim_end_matches(')').trim().to_string())),
        None => (field.trim().to_string(), None),
    }
}

/// The factor from `unit` (as a header gives it) to the column's unit in
/// the form: its model unit, or for a number with a unit menu the unit
/// chosen there.
fn unit_factor(spec: &ModelSpec, base: &Params, key: &str, model_unit: &str, unit: &str) -> Option<f64> {
    if unit == model_unit {
        return Some(1.0);
    }
    let to_model = match model_unit {
        "s" => TIME_UNITS.iter().find(|(u, _)| *u == unit).map(|(_, f)| *f)?,
        "B" => crate::spec::BYTE_UNITS.iter().find(|o| o.value == unit).and_then(|o| o.factor)?,
        _ => return None,
    };
    // A number whose unit is chosen beside it is in that unit.
    let chosen = match spec.param(key).and_then(|p| p.unit_from) {
        Some(menu) => spec.unit_factor(base, menu).ok()?,
        None => 1.0,
    };
    Some(to_model / chosen)
}

fn units_for(model_unit: &str) -> String {
    match model_unit {
        "s" => TIME_UNITS.iter().map(|(u, _)| *u).collect::<Vec<_>>().join(", "),
        "B" => crate::spec::BYTE_UNITS.iter().map(|o| o.value).collect::<Vec<_>>().join(", "),
        "" => "none".into(),
        u => u.into(),
    }
}

/// The input columns and the output column, each with its place in the file.
type Header = (Vec<(usize, Column)>, (usize, Column));

/// Reads the header: the input columns and the output column.
fn columns(model: &dyn AnyModel, base: &Params, header: &[String], line: usize) -> Result<Header, AnalysisError> {
    let spec = model.spec();
    let (mut inputs, mut output) = (Vec::new(), None);
    for (at, field) in header.iter().enumerate() {
        let err = |m: String| AnalysisError::at(line, at + 1, m);
        let (name, unit) = header_parts(field);
        let by_name = |key: &str| key == name || key.eq_ignore_ascii_case(&name);
        let param = spec.params.iter().find(|p| p.key == name).or_else(|| spec.params.iter().find(|p| by_name(p.key)));
        // "time" (or t, runtime, seconds) names the model's first output in seconds.
        let time = name.eq_ignore_ascii_case("time") || TIME_ALIASES.contains(&name.to_lowercase().as_str());
        let out = spec
            .outputs
            .iter()
            .find(|o| o.key == name)
            .or_else(|| spec.outputs.iter().find(|o| by_name(o.key)))
            .or_else(|| spec.outputs.iter().find(|o| time && o.unit == "s"));
        let (key, model_unit) = match (param, out) {
            (Some(p), _) => {
                if !matches!(p.kind, ParamKind::Number { .. }) {
                    return Err(err(format!(
                        "{} is not a number parameter of {}: a column holds one number per run",
                        p.key, spec.id
                    )));
                }
                (p.key, p.unit)
            }
            (None, Some(o)) => (o.key, o.unit),
            (None, None) => {
                let keys: Vec<&str> =
                    spec.params.iter().filter(|p| matches!(p.kind, ParamKind::Number { .. })).map(|p| p.key).collect();
                let outs: Vec<&str> = spec.outputs.iter().map(|o| o.key).collect();
                return Err(err(format!(
                    "'{}' is not a parameter or an output of {}: the parameters are {}; the outputs {}",
                    echo(field.trim()),
                    spec.id,
                    keys.join(", "),
                    outs.join(", ")
                )));
            }
        };
        let factor = match unit.as_deref() {
            None => 1.0,
            Some(u) => unit_factor(spec, base, key, model_unit, u)
                .ok_or_else(|| err(format!("{key}: the unit '{}' is not one of {}", echo(u), units_for(model_unit))))?,
        };
        let column = Column { key, factor, unit };
        if param.is_some() {
            if inputs.iter().any(|(_, c): &(usize, Column)| c.key == key) {
                return Err(err(format!("{key} is named twice")));
            }
            inputs.push((at, column));
        } else if let Some((first, _)) = output.replace((at, column)) {
            return Err(err(format!(
                "a second measured output ({key}, beside column {}): the data set measures one output",
                first + 1
            )));
        }
    }
    let outs: Vec<&str> = spec.outputs.iter().map(|o| o.key).collect();
    let output = output.ok_or_else(|| {
        AnalysisError::at(
            line,
            0,
            format!("no column names an output of {} to fit to: one of {}", spec.id, outs.join(", ")),
        )
    })?;
    Ok((inputs, output))
}

/// The model's value of `output` at `params`, `None` where it has none.
fn value_of(model: &dyn AnyModel, params: &Params, output: &str) -> Option<f64> {
    model.evaluate(params).ok().and_then(|e| e.number(output)).filter(|v| v.is_finite())
}

/// `params` with each fitted key at its value.
fn with_values(spec: &ModelSpec, params: &Params, keys: &[&'static str], values: &[f64]) -> Option<Params> {
    let mut p = params.clone();
    for (key, v) in keys.iter().zip(values) {
        p = p.with(key, spec.value_at(key, *v)?);
    }
    Some(p)
}

/// Fits `request.fit` of `model` to the data set `text`, the other
/// parameters at `base` (the form's).
///
/// # Errors
///
/// The data set's problems with their line and column (a column that is
/// no parameter or output, a value out of a parameter's range, a measured
/// time ≤ 0); a parameter that cannot be fitted (not a number, an
/// integer, a column of the data); fewer runs than parameters, or runs that
/// all have the same inputs; parameters the data do not determine; a model
/// that cannot be evaluated at a run with the form's values.
pub fn calibrate(
    model: &dyn AnyModel,
    base: &Params,
    text: &str,
    request: &Request,
) -> Result<Calibration, AnalysisError> {
    let spec = model.spec();
    let table = read_named(text)?;
    let (inputs, (out_at, out)) = columns(model, base, &table.header, table.header_line)?;
    // The parameters to fit, their bounds and starts.
    if request.fit.is_empty() {
        return Err(AnalysisError::general("no parameter to fit: name one or more, e.g. --fit t_flops,t_comm"));
    }
    let mut keys: Vec<&'static str> = Vec::new();
    let (mut bounds, mut start) = (Vec::new(), Vec::new());
    for name in &request.fit {
        let name = name.trim();
        let p = spec.params.iter().find(|p| p.key == name).ok_or_else(|| {
            let fittable: Vec<&str> = spec
                .params
                .iter()
                .filter(|p| matches!(p.kind, ParamKind::Number { integer: false, .. }))
                .map(|p| p.key)
                .collect();
            AnalysisError::general(format!(
                "'{}' is not a parameter of {}: it can fit {}",
                echo(name),
                spec.id,
                fittable.join(", ")
            ))
        })?;
        let ParamKind::Number { range, scale, integer: false, .. } = p.kind else {
            return Err(AnalysisError::general(format!(
                "{} cannot be fitted: only parameters that take any real value in a range can (not whole numbers or choices)",
                p.key
            )));
        };
        if inputs.iter().any(|(_, c)| c.key == p.key) {
            return Err(AnalysisError::general(format!(
                "{} is a column of the data (each run's value), so it cannot also be fitted",
                p.key
            )));
        }
        if keys.contains(&p.key) {
            return Err(AnalysisError::general(format!("{} is named twice in the parameters to fit", p.key)));
        }
        let s = base.num(p.key).unwrap_or(f64::NAN);
        // On ln θ where 0 is not a valid value; a range that holds 0 (a
        // time that may vanish) is stepped linearly, so the fit can reach it.
        let log = scale == Scale::Log && (range.min > 0.0 || (range.min == 0.0 && range.min_exclusive)) && s > 0.0;
        let bound = if log {
            let lo = if range.min > 0.0 { range.min } else { s / LOG_REACH };
            Bound { lo: lo.max(s / LOG_REACH), hi: range.max.min(s * LOG_REACH), log }
        } else {
            let lo = if range.min_exclusive { range.min + 1e-12 * range.min.abs().max(s.abs()) } else { range.min };
            Bound { lo, hi: range.max, log }
        };
        keys.push(p.key);
        bounds.push(bound);
        start.push(s);
    }
    let k = keys.len();
    // The runs: each row's parameters (the fitted ones set later).
    let mut runs: Vec<(usize, Params, f64)> = Vec::with_capacity(table.rows.len());
    let out_spec = spec.outputs.iter().find(|o| o.key == out.key);
    for (line, row) in &table.rows {
        let mut p = base.clone();
        for (at, c) in &inputs {
            let raw = row.get(*at).copied().unwrap_or(f64::NAN);
            let v = raw * c.factor;
            let param =
                spec.param(c.key).ok_or_else(|| AnalysisError::general(format!("{} is not a parameter", c.key)))?;
            let value = param.parse(&crate::spec::RawValue::Num(v)).map_err(|e| {
                AnalysisError::at(*line, at + 1, format!("{} = {}: {}", c.key, c.as_written(raw), e.message()))
            })?;
            p = p.with(c.key, value);
        }
        let y_raw = row.get(out_at).copied().unwrap_or(f64::NAN);
        let y = y_raw * out.factor;
        let time = out_spec.is_some_and(|o| o.unit == "s");
        if (time && y <= 0.0) || (request.relative && y == 0.0) {
            let valid = if time { "a time > 0" } else { "a value ≠ 0 (errors are relative to it)" };
            return Err(AnalysisError::at(
                *line,
                out_at + 1,
                format!("{} = {} is not a measurement: expected {valid}", out.key, out.as_written(y_raw)),
            ));
        }
        runs.push((*line, p, y));
    }
    let n = runs.len();
    if n <= k {
        return Err(AnalysisError::general(format!(
            "{n} run(s) cannot determine {k} parameter(s) with an error estimate: at least {} are needed",
            k + 1
        )));
    }
    let mut distinct: Vec<Vec<u64>> = table
        .rows
        .iter()
        .map(|(_, r)| inputs.iter().map(|(at, _)| r.get(*at).map_or(0, |v| v.to_bits())).collect())
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() == 1 && k > 1 {
        return Err(AnalysisError::general(format!(
            "every run has the same inputs{}: one setting cannot tell {k} parameters apart; measure runs that vary {}",
            if inputs.is_empty() {
                String::new()
            } else {
                format!(" ({})", inputs.iter().map(|(_, c)| c.key).collect::<Vec<_>>().join(", "))
            },
            if inputs.is_empty() {
                "the parameters (add their columns)".to_string()
            } else {
                inputs.iter().map(|(_, c)| c.key).collect::<Vec<_>>().join(" or ")
            }
        )));
    }
    // The model at the start, run by run: a run it cannot evaluate is named.
    for (line, p, _) in &runs {
        let p = with_values(spec, p, &keys, &start)
            .ok_or_else(|| AnalysisError::general("the form's values are invalid"))?;
        if let Err(e) = model.evaluate(&p) {
            return Err(AnalysisError::at(*line, 0, format!("this run cannot be evaluated: {e}")));
        }
        if value_of(model, &p, out.key).is_none() {
            return Err(AnalysisError::at(
                *line,
                0,
                format!("the model gives no {} for this run with the form's values", out.key),
            ));
        }
    }
    let relative = request.relative;
    let mut residuals = |theta: &[f64]| -> Option<Vec<f64>> {
        runs.iter()
            .map(|(_, p, y)| {
                let v = value_of(model, &with_values(spec, p, &keys, theta)?, out.key)?;
                Some(if relative { (v - y) / v } else { v - y })
            })
            .collect()
    };
    let min = minimise(&mut residuals, &start, &bounds).map_err(|e| AnalysisError::general(e.to_string()))?;
    let est = estimates(&min).ok_or_else(|| AnalysisError::general("the fit has no degrees of freedom left"))?;
    if let Some(flat) = est.unidentified.first() {
        let names: Vec<&str> = flat.iter().filter_map(|j| keys.get(*j).copied()).collect();
        let which = if names.len() == 1 {
            format!(
                "{} is not identifiable from these data: changing it leaves every fitted {} the same",
                names.join(""),
                out.key
            )
        } else {
            format!(
                "{} are not identifiable from these data: trading one for the other leaves every fitted {} the same",
                names.join(" and "),
                out.key
            )
        };
        return Err(AnalysisError::general(format!(
            "{which}; measure runs where {} matter{}, or fit fewer parameters (the rest keep the form's values)",
            if names.len() == 1 { "it" } else { "they" },
            if names.len() == 1 { "s" } else { "" }
        )));
    }
    Ok(summarise(spec, &runs, &table.rows, &inputs, out.key, keys, &bounds, &start, min, est, relative))
}

#[allow(clippy::too_many_arguments)]
fn summarise(
    spec: &ModelSpec,
    runs: &[(usize, Params, f64)],
    rows: &[(usize, Vec<f64>)],
    inputs: &[(usize, Column)],
    output: &'static str,
    keys: Vec<&'static str>,
    bounds: &[Bound],
    start: &[f64],
    min: Minimum,
    est: Estimates,
    relative: bool,
) -> Calibration {
    let points: Vec<Point> = runs
        .iter()
        .zip(rows)
        .zip(&min.residuals)
        .map(|(((line, _, y), (_, row)), r)| {
            let fitted = if relative { y * (1.0 + r) } else { y + r };
            Point {
                line: *line,
                inputs: inputs.iter().map(|(at, c)| row.get(*at).copied().unwrap_or(f64::NAN) * c.factor).collect(),
                measured: *y,
                fitted,
                residual: y - fitted,
            }
        })
        .collect();
    let n = points.len() as f64;
    let mean = points.iter().map(|p| p.measured).sum::<f64>() / n;
    let tss: f64 = points.iter().map(|p| (p.measured - mean).powi(2)).sum();
    let rss: f64 = points.iter().map(|p| p.residual.powi(2)).sum();
    let rel: Vec<f64> = points.iter().map(|p| (p.residual / p.measured).abs()).collect();
    let mut warnings = Vec::new();
    if !min.converged {
        warnings.push(format!(
            "The fit did not converge within {} iterations: the values are the best point reached.",
            crate::fit::lm::MAX_ITERATIONS
        ));
    }
    let fitted: Vec<Fitted> = keys
        .iter()
        .enumerate()
        .map(|(j, key)| {
            let value = min.params.get(j).copied().unwrap_or(f64::NAN);
            let at_bound = min.at_bound.get(j).copied().unwrap_or(false);
            let b = bounds.get(j).copied().unwrap_or(Bound::FREE);
            let stderr = est.stderr.get(j).copied().filter(|_| !at_bound);
            let ci95 = stderr.map(|se| {
                let half = est.t95 * se;
                if b.log {
                    [value * (-half / value).exp(), value * (half / value).exp()]
                } else {
                    [value - half, value + half]
                }
            });
            if at_bound {
                let side = if value <= b.lo { ("low", b.lo) } else { ("high", b.hi) };
                let why = match spec.param(key).map(|p| &p.kind) {
                    Some(ParamKind::Number { range, .. }) if range.contains(side.1) && (side.1 == range.min || side.1 == range.max) => {
                        format!("the end of its valid range ({range})")
                    }
                    _ => format!("{} decades from the form's value", LOG_REACH.log10()),
                };
                warnings.push(format!(
                    "{key} was driven to its {} bound, {}: {why}. The data ask for a value beyond it; {key} is held there (no interval of its own) and the others are fitted with it.",
                    side.0,
                    crate::format::num(side.1)
                ));
            }
            Fitted { key, value, stderr, ci95, start: start.get(j).copied().unwrap_or(f64::NAN), at_bound }
        })
        .collect();
    Calibration {
        output,
        inputs: inputs.iter().map(|(_, c)| c.key).collect(),
        fitted,
        relative,
        covariance: est.covariance,
        correlation: est.correlation,
        r2: if tss > 0.0 { 1.0 - rss / tss } else { f64::NAN },
        rmse: (rss / n).sqrt(),
        mean_relative_error: rel.iter().sum::<f64>() / n,
        max_relative_error: rel.iter().fold(0.0, |m, v| m.max(*v)),
        sigma: est.sigma,
        dof: est.dof,
        t95: est.t95,
        points,
        iterations: min.iterations,
        converged: min.converged,
        warnings,
    }
}

/// An output of the calibrated model with its 95% intervals.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    pub value: f64,
    /// Of the model's value (the mean of runs there): the fitted
    /// parameters' uncertainty only.
    pub ci95: [f64; 2],
    /// Of one new run's measurement: the mean's uncertainty and the
    /// residual noise. Only for the measured output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pi95: Option<[f64; 2]>,
}

impl Calibration {
    /// `params` with the fitted values in place.
    pub fn apply(&self, spec: &ModelSpec, params: &Params) -> Option<Params> {
        let keys: Vec<&'static str> = self.fitted.iter().map(|f| f.key).collect();
        let values: Vec<f64> = self.fitted.iter().map(|f| f.value).collect();
        with_values(spec, params, &keys, &values)
    }

    /// The uncertainty of the fitted parameters, for charts, sweeps and maps.
    pub fn uncertainty(&self) -> Uncertainty {
        Uncertainty {
            keys: self.fitted.iter().map(|f| f.key).collect(),
            covariance: self.covariance.clone(),
            t95: self.t95,
        }
    }

    /// `output` at `params` (the fitted values put in place) with its 95%
    /// intervals, by linearisation: the gradient by central differences in
    /// the fitted parameters (one-sided at a bound). `None` where the model
    /// has no value there.
    pub fn interval(&self, model: &dyn AnyModel, params: &Params, output: &str) -> Option<Interval> {
        let spec = model.spec();
        let keys: Vec<&'static str> = self.fitted.iter().map(|f| f.key).collect();
        let theta: Vec<f64> = self.fitted.iter().map(|f| f.value).collect();
        let mut at = |t: &[f64]| {
            vec![with_values(spec, params, &keys, t).and_then(|p| value_of(model, &p, output)).unwrap_or(f64::NAN)]
        };
        let bands = self.uncertainty().propagate(&theta, &mut at);
        let (value, low, high) = (*bands.value.first()?, *bands.low.first()?, *bands.high.first()?);
        if !(value.is_finite() && low.is_finite()) {
            return None;
        }
        let half = (high - low) / 2.0;
        let pi95 = (output == self.output).then(|| {
            let noise = if self.relative { self.sigma * value } else { self.sigma };
            let half = ((half * half) + (self.t95 * noise).powi(2)).sqrt();
            [value - half, value + half]
        });
        Some(Interval { value, ci95: [low, high], pi95 })
    }

    /// The fitted parameters as the JSON the command line prints:
    /// `{"t_flops": {"value", "stderr", "ci95": [lo, hi], ...}, ...}`.
    pub fn fitted_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        for f in &self.fitted {
            map.insert(f.key.to_string(), serde_json::to_value(f).unwrap_or(serde_json::Value::Null));
        }
        serde_json::Value::Object(map)
    }

    /// Everything as JSON, with `outputs` (each output's interval at the
    /// form's point) beside it.
    pub fn to_json(&self, outputs: &[(&'static str, Interval)]) -> serde_json::Value {
        let matrix =
            |m: &DMatrix<f64>| -> Vec<Vec<f64>> { m.row_iter().map(|r| r.iter().copied().collect()).collect() };
        let mut intervals = serde_json::Map::new();
        for (key, i) in outputs {
            intervals.insert((*key).to_string(), serde_json::to_value(i).unwrap_or(serde_json::Value::Null));
        }
        serde_json::json!({
            "fitted": self.fitted_json(),
            "parameters": self.fitted.iter().map(|f| f.key).collect::<Vec<_>>(),
            "correlation": matrix(&self.correlation),
            "covariance": matrix(&self.covariance),
            "output": self.output,
            "inputs": self.inputs,
            "relative": self.relative,
            "r2": finite(self.r2),
            "rmse": self.rmse,
            "mean_relative_error": self.mean_relative_error,
            "max_relative_error": self.max_relative_error,
            "sigma": self.sigma,
            "dof": self.dof,
            "t95": self.t95,
            "n": self.points.len(),
            "iterations": self.iterations,
            "converged": self.converged,
            "warnings": self.warnings,
            "points": self.points,
            "outputs": intervals,
        })
    }
}

/// Most groups of runs (distinct settings of the inputs other than the
/// chart's x) drawn as curves of their own.
const MAX_GROUPS: usize = 6;

/// Points of each drawn curve.
const CURVE_POINTS: usize = 48;

/// Laws drawn over the runs: the five the table ranks.
const LAWS_DRAWN: usize = 5;

impl Calibration {
    /// The input the charts put on x: the one with the most distinct values.
    fn x_input(&self) -> Option<usize> {
        (0..self.inputs.len()).max_by_key(|&i| {
            let mut v: Vec<u64> = self.points.iter().map(|p| p.inputs.get(i).map_or(0, |x| x.to_bits())).collect();
            v.sort_unstable();
            v.dedup();
            (v.len(), usize::MAX - i)
        })
    }

    /// The runs grouped by the inputs other than input `x` (in order of
    /// first appearance).
    fn groups(&self, x: Option<usize>) -> Vec<(Vec<f64>, Vec<&Point>)> {
        let mut groups: Vec<(Vec<f64>, Vec<&Point>)> = Vec::new();
        for p in &self.points {
            let key: Vec<f64> = p.inputs.iter().enumerate().filter(|(i, _)| Some(*i) != x).map(|(_, v)| *v).collect();
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(p),
                None => groups.push((key, vec![p])),
            }
        }
        groups
    }

    /// The measured runs over the calibrated model's curves (with the 95%
    /// interval of the model's value where one group is drawn), and the
    /// residuals: what the page draws under the fit. `base` is the form's
    /// parameters (the fitted values are put in place here).
    pub fn charts(&self, model: &dyn AnyModel, base: &Params) -> Vec<Chart> {
        let spec = model.spec();
        let Some(at) = self.apply(spec, base) else { return Vec::new() };
        let x = self.x_input();
        let x_key = x.and_then(|i| self.inputs.get(i).copied());
        let xs_of = |p: &Point| x.and_then(|i| p.inputs.get(i).copied()).unwrap_or(p.line as f64);
        let groups = self.groups(x);
        let label = |key: &[f64]| -> String {
            let names = self.inputs.iter().enumerate().filter(|(i, _)| Some(*i) != x).map(|(_, k)| *k);
            names
                .zip(key)
                .map(|(k, v)| format!("{k} = {}", crate::format::number(*v, 4)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let all_x: Vec<f64> = self.points.iter().map(xs_of).collect();
        let all_y: Vec<f64> = self.points.iter().flat_map(|p| [p.measured, p.fitted]).collect();
        let log = |v: &[f64]| {
            let (lo, hi) = v.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), x| (lo.min(*x), hi.max(*x)));
            lo > 0.0 && hi / lo >= 20.0
        };
        let (x_log, y_log) = (log(&all_x), log(&all_y));
        let x_scale = if x_log { Scale::Log } else { Scale::Linear };
        let y_scale = if y_log { Scale::Log } else { Scale::Linear };
        let x_label = x_key.map_or_else(|| "CSV line".to_string(), |k| spec.axis_label(k));
        let mut fit_series = Vec::new();
        let mut residual_series = Vec::new();
        let curves = x_key.is_some() && groups.len() <= MAX_GROUPS;
        for (g, (key, members)) in groups.iter().enumerate() {
            let color = if groups.len() <= MAX_GROUPS { g % 6 } else { 1 };
            let name = if key.is_empty() || groups.len() > MAX_GROUPS { "measured".to_string() } else { label(key) };
            let measured: Vec<(f64, f64)> = members.iter().map(|p| (xs_of(p), p.measured)).collect();
            let residuals: Vec<(f64, f64)> = members
                .iter()
                .map(|p| (xs_of(p), if self.relative { 100.0 * p.residual / p.measured } else { p.residual }))
                .collect();
            if !curves {
                let fitted: Vec<(f64, f64)> = members.iter().map(|p| (xs_of(p), p.fitted)).collect();
                fit_series.push(Series::new("measured", Style::Points, 1, measured));
                fit_series.push(Series::new("fitted", Style::Points, 0, fitted));
                residual_series.push(Series::new("residual", Style::Points, 1, residuals));
                continue;
            }
            // The group's curve: its other inputs set, x over the measured range.
            let (Some(xi), Some(xk)) = (x, x_key) else { continue };
            let mut params = at.clone();
            let mut valid = true;
            for (k, v) in self.inputs.iter().enumerate().filter(|(i, _)| *i != xi).map(|(_, k)| k).zip(key) {
                match spec.value_at(k, *v) {
                    Some(value) => params = params.with(k, value),
                    None => valid = false,
                }
            }
            let (lo, hi) =
                measured.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| (lo.min(*x), hi.max(*x)));
            let mut grid: Vec<f64> = (0..CURVE_POINTS)
                .map(|j| {
                    let f = j as f64 / (CURVE_POINTS - 1) as f64;
                    if x_log {
                        lo * (hi / lo).powf(f)
                    } else {
                        lo + (hi - lo) * f
                    }
                })
                .chain(measured.iter().map(|(x, _)| *x))
                .collect();
            grid.sort_by(f64::total_cmp);
            grid.dedup();
            let mut curve = Vec::new();
            let (mut lower, mut upper) = (Vec::new(), Vec::new());
            // A whole-number input is drawn at whole numbers only.
            let integer = matches!(spec.param(xk).map(|p| &p.kind), Some(ParamKind::Number { integer: true, .. }));
            if integer {
                grid.iter_mut().for_each(|x| *x = x.round());
                grid.dedup();
            }
            for gx in grid.iter().filter(|_| valid) {
                let Some(value) = spec.value_at(xk, *gx) else { continue };
                let p = params.with(xk, value);
                if groups.len() == 1 {
                    if let Some(i) = self.interval(model, &p, self.output) {
                        let [lo, hi] = i.ci95;
                        let (lo, hi) = if y_log { log_ends(i.value, lo, hi) } else { (lo, hi) };
                        curve.push((*gx, i.value));
                        lower.push((*gx, lo));
                        upper.push((*gx, hi));
                    }
                } else if let Some(v) = value_of(model, &p, self.output) {
                    curve.push((*gx, v));
                }
            }
            let model_name = if key.is_empty() { "model".to_string() } else { format!("model, {name}") };
            fit_series.push(Series::new(name.clone(), Style::Points, color, measured));
            fit_series.push(Series::new(model_name.clone(), Style::Line, color, curve));
            if groups.len() == 1 {
                fit_series.insert(0, Series::band(model_name.clone(), color, lower, upper));
            }
            residual_series.push(Series::new(name, Style::Points, color, residuals));
        }
        if let (Some(first), Some(last)) =
            (all_x.iter().copied().reduce(f64::min), all_x.iter().copied().reduce(f64::max))
        {
            residual_series.push(Series::new("", Style::Dashed, INK, vec![(first, 0.0), (last, 0.0)]));
        }
        let y_label = spec.axis_label(self.output);
        let fit_note = if curves {
            "Points: the measured runs; lines: the calibrated model at each run's other inputs; shaded, where one group is drawn: the 95% interval of the model's value (the fit's uncertainty; a new run scatters more)."
        } else {
            "The measured runs and the calibrated model's value for each."
        };
        let residual_unit = if self.relative {
            "measured − fitted (% of measured)".to_string()
        } else {
            format!("measured − fitted ({y_label})")
        };
        let residual_note =
            "A pattern here (a trend, a curve) is what the model leaves unexplained; noise is scatter about zero.";
        let mut charts = vec![
            Chart {
                title: format!("Measured {} and the calibrated model", self.output),
                x: Axis::new(x_label.clone(), x_scale),
                y: Axis::new(y_label, y_scale),
                series: fit_series,
                legend: Corner::Auto,
                note: Some(fit_note.to_string()),
            },
            Chart {
                title: match x_key {
                    Some(k) => format!("Residuals against {k}"),
                    None => "Residuals".to_string(),
                },
                x: Axis::new(x_label, x_scale),
                y: Axis::new(residual_unit.clone(), Scale::Linear),
                series: residual_series,
                legend: Corner::Auto,
                note: Some(residual_note.to_string()),
            },
        ];
        // The residuals against each other input, in the file's order.
        for (i, key) in self.inputs.iter().enumerate().filter(|(i, _)| Some(*i) != x) {
            let points: Vec<(f64, f64)> = self
                .points
                .iter()
                .filter_map(|p| {
                    let r = if self.relative { 100.0 * p.residual / p.measured } else { p.residual };
                    Some((*p.inputs.get(i)?, r))
                })
                .collect();
            let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
            let scale = if log(&xs) { Scale::Log } else { Scale::Linear };
            let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(*x), hi.max(*x)));
            charts.push(Chart {
                title: format!("Residuals against {key}"),
                x: Axis::new(spec.axis_label(key), scale),
                y: Axis::new(residual_unit.clone(), Scale::Linear),
                series: vec![
                    Series::new("residual", Style::Points, 1, points),
                    Series::new("", Style::Dashed, INK, vec![(lo, 0.0), (hi, 0.0)]),
                ],
                legend: Corner::Auto,
                note: Some(residual_note.to_string()),
            });
        }
        charts
    }

    /// The runs of one input over the best scaling laws they follow
    /// (`laws`, the first [`LAWS_DRAWN`]), drawn over the runs' range and, dashed, on
    /// to `at` (the form's value of the input) where that lies beyond.
    pub fn laws_chart(&self, spec: &ModelSpec, laws: &crate::fit::laws::Laws, at: Option<f64>) -> Option<Chart> {
        let input = *self.inputs.first()?;
        let points: Vec<(f64, f64)> =
            self.points.iter().filter_map(|p| Some((*p.inputs.first()?, p.measured))).collect();
        let (lo, hi) = (laws.p_min, laws.p_max);
        let reach = at.filter(|x| x.is_finite() && *x > hi && *x <= 1e3 * hi);
        let grid = |from: f64, to: f64| -> Vec<f64> {
            (0..CURVE_POINTS).map(|j| from * (to / from).powf(j as f64 / (CURVE_POINTS - 1) as f64)).collect()
        };
        let mut series = vec![Series::new("measured", Style::Points, 6, points)];
        for (i, h) in laws.hypotheses.iter().take(LAWS_DRAWN).enumerate() {
            let curve = |xs: Vec<f64>| -> Vec<(f64, f64)> {
                xs.into_iter().map(|x| (x, h.at(x))).filter(|(_, y)| *y > 0.0).collect()
            };
            let name = h.formula.replace('p', input);
            series.push(Series::new(name, Style::Line, i, curve(grid(lo, hi))));
            if let Some(to) = reach {
                series.push(Series::new("", Style::Dashed, i, curve(grid(hi, to))));
            }
        }
        let positive = laws.hypotheses.iter().take(LAWS_DRAWN).all(|h| h.at(lo) > 0.0 && h.at(hi) > 0.0);
        Some(Chart {
            title: format!("Scaling laws of {} in {input}", self.output),
            x: Axis::new(spec.axis_label(input), Scale::Log),
            y: Axis::new(spec.axis_label(self.output), if positive { Scale::Log } else { Scale::Linear }),
            series,
            legend: Corner::Auto,
            note: Some(format!(
                "The runs and the five best laws (first: the one chosen){}.",
                if reach.is_some() { format!(", dashed past the runs to the form's {input}") } else { String::new() }
            )),
        })
    }
}

impl Calibration {
    /// The tables the page shows: the fitted parameters (with the fit's
    /// quality and warnings in its notes), every output at the form's point
    /// with its intervals (`outputs`), and where given the scaling laws of
    /// the one input the runs vary, with the best law's value at the form's
    /// value `at` of that input (and a warning where that is far outside
    /// the runs).
    pub fn tables(
        &self,
        spec: &ModelSpec,
        outputs: &[(&'static str, Interval)],
        laws: Option<&crate::fit::laws::Laws>,
        at: Option<f64>,
    ) -> Vec<Table> {
        let n = |x: f64| crate::format::number(x, 4);
        let pct = |x: f64| format!("{}%", crate::format::number(100.0 * x, 3));
        let label = |key: &str| -> String {
            let (label, unit) = match (spec.param(key), spec.outputs.iter().find(|o| o.key == key)) {
                (Some(p), _) => (p.label, p.unit),
                (None, Some(o)) => (o.label, o.unit),
                _ => (key, ""),
            };
            if unit.is_empty() {
                label.to_string()
            } else {
                format!("{label} ({unit})")
            }
        };
        let row = |cells: Vec<String>| Row { cells, status: Status::Plain, remark: None, link: None };
        let interval =
            |ci: Option<[f64; 2]>| ci.map_or_else(|| "—".to_string(), |[lo, hi]| format!("{} … {}", n(lo), n(hi)));
        let mut notes = vec![format!(
            "{} runs, {} degrees of freedom: R² = {}, RMSE = {} {}, relative error {} on average ({} at most); {} {} iterations.",
            self.points.len(),
            self.dof,
            if self.r2.is_finite() { crate::format::number(self.r2, 6) } else { "—".into() },
            n(self.rmse),
            spec.outputs.iter().find(|o| o.key == self.output).map_or("", |o| o.unit),
            pct(self.mean_relative_error),
            pct(self.max_relative_error),
            if self.relative { "Least squares on relative errors;" } else { "Least squares;" },
            if self.converged { format!("converged in {}", self.iterations) } else { format!("not converged after {}", self.iterations) },
        )];
        for i in 0..self.fitted.len() {
            for j in i + 1..self.fitted.len() {
                if let (Some(a), Some(b), Some(r)) =
                    (self.fitted.get(i), self.fitted.get(j), self.correlation.get((i, j)))
                {
                    notes.push(format!("Correlation of {} and {}: {}.", a.key, b.key, crate::format::number(*r, 3)));
                }
            }
        }
        notes.extend(self.warnings.iter().cloned());
        let mut tables = vec![Table {
            id: "calibration-fit",
            title: format!("Fitted to {} measured {}", self.points.len(), self.output),
            caption:
                "Each value with its standard error and 95% interval; the other parameters keep the form's values."
                    .into(),
            columns: vec![
                "Parameter".into(),
                "Fitted".into(),
                "Std. error".into(),
                "95% interval".into(),
                "Form's value".into(),
            ],
            rows: self
                .fitted
                .iter()
                .map(|f| {
                    row(vec![
                        label(f.key),
                        n(f.value),
                        f.stderr.map_or_else(|| "—".into(), n),
                        interval(f.ci95),
                        n(f.start),
                    ])
                })
                .collect(),
            notes,
        }];
        if !outputs.is_empty() {
            tables.push(Table {
                id: "calibration-outputs",
                title: "The calibrated model at the form's point".into(),
                caption: format!(
                    "Each output with the fitted values in place: the 95% interval of the model's value (the fit's uncertainty, carried through the model), and for {} the 95% interval of one new run (with the runs' scatter).",
                    self.output
                ),
                columns: vec!["Output".into(), "Value".into(), "95% interval of the model".into(), "95% interval of a new run".into()],
                rows: outputs.iter().map(|(k, i)| row(vec![label(k), n(i.value), interval(Some(i.ci95)), interval(i.pi95)])).collect(),
                notes: Vec::new(),
            });
        }
        if let (Some(laws), Some(input)) = (laws, self.inputs.first()) {
            tables.push(Table {
                id: "calibration-laws",
                title: format!("Scaling laws of {} in {input}", self.output),
                caption: format!(
                    "The performance-model normal form searched (one or two terms c·{input}^i·log₂({input})^j and a constant, the pure 1/{input} law and eq. (1)), ranked by leave-one-out cross-validation: the first is the one chosen, a more complex law only where it is clearly better."
                ),
                columns: vec!["Law".into(), "Cross-validation error".into(), "AIC".into()],
                rows: laws
                    .hypotheses
                    .iter()
                    .map(|h| {
                        let name = if h.name.is_empty() || h.name == "constant" { String::new() } else { format!(" ({})", h.name) };
                        row(vec![format!("{}{name}", h.formula.replace('p', input)), pct(h.cv_error), crate::format::number(h.aic, 4)])
                    })
                    .collect(),
                notes: {
                    let mut notes = laws.warnings.clone();
                    if let (Some(best), Some(x)) = (laws.hypotheses.first(), at) {
                        notes.push(format!(
                            "At the form's {input} = {}, the first law gives {} = {}.",
                            crate::format::num(x),
                            self.output,
                            n(best.at(x))
                        ));
                        notes.extend(laws.extrapolation(x).map(|w| w.replace("p = ", &format!("{input} = ")).replace("largest p", &format!("largest {input}")).replace("smallest p", &format!("smallest {input}"))));
                    }
                    notes
                },
            });
        }
        tables
    }
}

fn finite(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x)
    } else {
        serde_json::Value::Null
    }
}

/// `output` at `params` for `samples` draws of the fitted parameters from
/// the normal law of their estimate (mean the fitted values, covariance
/// the fit's), by a seeded generator ([`crate::fit::Normal`]): the draws' 2.5% and 97.5% quantiles,
/// to check [`Calibration::interval`]'s linearisation. Draws outside a
/// parameter's valid range, or where the model has no value, are skipped.
pub fn monte_carlo(
    cal: &Calibration,
    model: &dyn AnyModel,
    params: &Params,
    output: &str,
    samples: usize,
    seed: u64,
) -> Option<[f64; 2]> {
    let spec = model.spec();
    let keys: Vec<&'static str> = cal.fitted.iter().map(|f| f.key).collect();
    let k = keys.len();
    let l = crate::fit::lm::cholesky(&cal.covariance)?;
    let mut normal = crate::fit::Normal::seeded(seed);
    let mut values = Vec::with_capacity(samples);
    for _ in 0..samples {
        let z = DVector::from_fn(k, |_, _| normal.draw());
        let theta: Vec<f64> = cal.fitted.iter().zip((&l * z).iter()).map(|(f, d)| f.value + d).collect();
        if let Some(v) = with_values(spec, params, &keys, &theta).and_then(|p| value_of(model, &p, output)) {
            values.push(v);
        }
    }
    if values.len() < samples / 2 {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let q = |f: f64| values.get(((values.len() - 1) as f64 * f).round() as usize).copied();
    Some([q(0.025)?, q(0.975)?])
}
