//! A calibration's uncertainty carried into anything the model computes:
//! its charts, its sweeps, its maps.
//!
//! The fitted parameters θ are known to within their covariance C. For any
//! quantity y(θ) the model computes (a chart's curve point by point, a
//! map's grid), the 95% interval of the model's value is y ± t·√(gᵀCg),
//! g = ∂y/∂θ by central differences (one-sided where one side leaves the
//! model's domain), t Student's for the fit's degrees of freedom: the same
//! linearisation as [`super::calibrate::Calibration::interval`], which is
//! built on this ([`super::calibrate::Calibration::uncertainty`] gives a
//! calibration's). The interval is the model's (the mean of runs there), not
//! one new run's: a run scatters more, by the fit's residual noise.
//!
//! A band on a log axis is the same relative interval in ln y,
//! y·exp(± t·√(gᵀCg)/y) ([`log_ends`]): equal to first order, and it stays
//! positive where a time is known to within more than itself.
//!
//! A quantity is computed 2k + 1 times for k fitted parameters. A fitted
//! parameter that a chart or map sets itself (its axis) contributes
//! nothing: the perturbed value is overwritten, and its difference is 0.
//! No model is named here.

use nalgebra::DMatrix;

use crate::chart::{Chart, Series, Style};
use crate::format::echo;
use crate::model::AnyModel;
use crate::spec::{ModelSpec, ParamKind, RawParams, RawValue, Scale};

/// Largest Student t accepted (t for one degree of freedom is 12.7).
const MAX_T: f64 = 100.0;

/// Relative step of the central differences (as the calibration's own).
const STEP: f64 = 1e-6;

/// Fitted parameters known to within a covariance.
#[derive(Debug, Clone, PartialEq)]
pub struct Uncertainty {
    pub keys: Vec<&'static str>,
    /// k × k, in the form's units of the parameters.
    pub covariance: DMatrix<f64>,
    /// The multiplier of the standard error for 95%.
    pub t95: f64,
}

/// A quantity's value with the low and high ends of its 95% interval,
/// element by element (NaN where the model has no value, or no interval).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bands {
    pub value: Vec<f64>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
}

impl Bands {
    /// `value` without intervals (NaN ends): where the form cannot say
    /// where the fitted parameters are.
    pub fn unknown(value: Vec<f64>) -> Bands {
        let n = value.len();
        Bands { value, low: vec![f64::NAN; n], high: vec![f64::NAN; n] }
    }
}

impl Uncertainty {
    /// An uncertainty given from outside (the page keeps a calibration's
    /// `parameters`, `covariance` and `t95`), checked against `spec`: each
    /// key a non-integer numeric parameter, once; the covariance k × k,
    /// finite, symmetric, with a non-negative diagonal; t95 in (0, 100].
    pub fn new(spec: &ModelSpec, keys: &[String], covariance: &[Vec<f64>], t95: f64) -> Result<Uncertainty, String> {
        let k = keys.len();
        if k == 0 {
            return Err("the uncertainty names no parameter".into());
        }
        let mut found = Vec::with_capacity(k);
        for key in keys {
            let param = spec
                .params
                .iter()
                .find(|p| p.key == key)
                .ok_or_else(|| format!("{} has no parameter '{}' to carry an uncertainty", spec.id, echo(key)))?;
            if !matches!(param.kind, ParamKind::Number { integer: false, .. }) {
                return Err(format!("{} is not a continuous numeric parameter: it carries no uncertainty", param.key));
            }
            if found.contains(&param.key) {
                return Err(format!("{} is named twice in the uncertainty", param.key));
            }
            found.push(param.key);
        }
        if covariance.len() != k || covariance.iter().any(|row| row.len() != k) {
            return Err(format!("the covariance must be {k} × {k}, one row and column per parameter"));
        }
        let c = DMatrix::from_fn(k, k, |i, j| covariance.get(i).and_then(|r| r.get(j)).copied().unwrap_or(f64::NAN));
        if c.iter().any(|v| !v.is_finite()) {
            return Err("the covariance must be finite numbers".into());
        }
        let at = |i: usize, j: usize| c.get((i, j)).copied().unwrap_or(f64::NAN);
        for (i, key) in found.iter().enumerate() {
            if at(i, i) < 0.0 {
                return Err(format!("the variance of {key} is negative"));
            }
            for j in 0..i {
                let scale = (at(i, i) * at(j, j)).sqrt();
                if (at(i, j) - at(j, i)).abs() > 1e-9 * scale.max(f64::MIN_POSITIVE) {
                    return Err("the covariance must be symmetric".into());
                }
                if at(i, j).abs() > scale * (1.0 + 1e-9) {
                    return Err("the covariance has a correlation beyond ±1".into());
                }
            }
        }
        if !(t95 > 0.0 && t95 <= MAX_T) {
            return Err(format!("t95 must be in (0, {MAX_T}], not {}", crate::format::num(t95)));
        }
        Ok(Uncertainty { keys: found, covariance: c, t95 })
    }

    /// The standard deviation of parameter `j`.
    fn sd(&self, j: usize) -> f64 {
        self.covariance.get((j, j)).copied().unwrap_or(0.0).max(0.0).sqrt()
    }

    /// `f` (a vector quantity of the parameters) at `theta` with its 95%
    /// intervals: the gradient of each element by central differences in
    /// each parameter, one-sided where one side has no value, none (NaN
    /// ends) where neither has or an element's count changes.
    pub fn propagate(&self, theta: &[f64], f: &mut dyn FnMut(&[f64]) -> Vec<f64>) -> Bands {
        let value = f(theta);
        let n = value.len();
        let k = self.keys.len();
        let mut shifted = |j: usize, d: f64| {
            let mut at = theta.to_vec();
            if let Some(slot) = at.get_mut(j) {
                *slot += d;
            }
            Some(f(&at)).filter(|v| v.len() == n).unwrap_or_else(|| vec![f64::NAN; n])
        };
        // g (n × k): ∂ value[i] / ∂ θ_j
        let mut g = DMatrix::zeros(n, k);
        for (j, t) in theta.iter().enumerate().take(k) {
            let sd = self.sd(j);
            if sd == 0.0 {
                continue; // a parameter held at a bound: no spread
            }
            let h = STEP * t.abs().max(sd).max(f64::MIN_POSITIVE);
            let (up, down) = (shifted(j, h), shifted(j, -h));
            for (((slot, v), a), b) in g.column_mut(j).iter_mut().zip(&value).zip(&up).zip(&down) {
                *slot = match (a.is_finite(), b.is_finite()) {
                    (true, true) => (a - b) / (2.0 * h),
                    (true, false) => (a - v) / h,
                    (false, true) => (v - b) / h,
                    (false, false) => f64::NAN,
                };
            }
        }
        // gᵢᵀ C gᵢ for every row i at once.
        let gc = &g * &self.covariance;
        let (mut low, mut high) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (i, v) in value.iter().enumerate() {
            let var = gc.row(i).dot(&g.row(i));
            let half = self.t95 * var.max(0.0).sqrt();
            let ok = v.is_finite() && !var.is_nan();
            low.push(if ok { v - half } else { f64::NAN });
            high.push(if ok { v + half } else { f64::NAN });
        }
        Bands { value, low, high }
    }

    /// `f` (a quantity the model computes from the form's texts) at `raw`
    /// with its 95% intervals, the fitted parameters moved about the form's
    /// values. `None` when the form does not give every fitted parameter a
    /// valid value.
    pub fn at_form(
        &self,
        model: &dyn AnyModel,
        raw: &RawParams,
        f: &mut dyn FnMut(&RawParams) -> Vec<f64>,
    ) -> Option<Bands> {
        let params = model.spec().parse(raw).ok()?;
        let theta: Vec<f64> = self.keys.iter().map(|k| params.num(k)).collect::<Option<_>>()?;
        let mut moved = raw.clone();
        Some(self.propagate(&theta, &mut |t| {
            for (key, v) in self.keys.iter().zip(t) {
                moved.insert((*key).to_string(), RawValue::Num(*v));
            }
            f(&moved)
        }))
    }

    /// `chart` (a chart the model draws from the form's texts) with a band
    /// under each of its curves (solid lines) that the fitted parameters
    /// move: the 95% interval of the model's value at each point. A curve
    /// whose x values change with the parameters gets none. `None` where
    /// the chart has none at the form's values.
    pub fn chart(
        &self,
        model: &dyn AnyModel,
        raw: &RawParams,
        mut chart: impl FnMut(&RawParams) -> Option<Chart>,
    ) -> Option<Chart> {
        let base = chart(raw)?;
        let curves: Vec<usize> = (0..base.series.len())
            .filter(|&i| base.series.get(i).is_some_and(|s| s.style == Style::Line && !s.faint && !s.points.is_empty()))
            .collect();
        let shape: Vec<Vec<u64>> = curves
            .iter()
            .filter_map(|&i| base.series.get(i))
            .map(|s| s.points.iter().map(|p| p.0.to_bits()).collect())
            .collect();
        // The curves' y values, one after another; NaN for a curve whose x moved.
        let flat = |c: &Chart| -> Vec<f64> {
            curves
                .iter()
                .zip(&shape)
                .flat_map(|(&i, xs)| {
                    let s = c.series.get(i).filter(|s| s.points.len() == xs.len());
                    let same = s.is_some_and(|s| s.points.iter().zip(xs).all(|(p, x)| p.0.to_bits() == *x));
                    let n = xs.len();
                    match s {
                        Some(s) if same => s.points.iter().map(|p| p.1).collect::<Vec<_>>(),
                        _ => vec![f64::NAN; n],
                    }
                })
                .collect()
        };
        let bands = self.at_form(model, raw, &mut |r| chart(r).map_or_else(Vec::new, |c| flat(&c)))?;
        let log = base.y.scale == Scale::Log;
        let mut at = 0;
        let mut added = Vec::new();
        for &i in &curves {
            let Some(s) = base.series.get(i) else { break };
            let n = s.points.len();
            let (Some(low), Some(high)) = (bands.low.get(at..at + n), bands.high.get(at..at + n)) else { break };
            at += n;
            let ends: Vec<(f64, f64)> = low.iter().copied().zip(high.iter().copied()).collect();
            added.extend(band_of(s, &ends, log));
        }
        Some(with_bands(base, added, &self.note()))
    }

    /// What a band shows, for a chart's note.
    pub fn note(&self) -> String {
        format!(
            "Shaded: the 95% interval of the model's value from the calibration of {} (the fit's uncertainty; one new run scatters more).",
            self.keys.join(", ")
        )
    }
}

/// The ends of the interval `value` ± (its half-width, as `low` and `high`
/// give it) as a band draws them on a log axis: the same relative interval
/// in ln y, value·exp(± half/value), which stays positive where the linear
/// interval reaches 0 (a time known to within more than itself); the linear
/// ends where that overflows.
pub fn log_ends(value: f64, low: f64, high: f64) -> (f64, f64) {
    let half = (high - low) / 2.0;
    let ends = (value * (-half / value).exp(), value * (half / value).exp());
    // Not positive, or known to within more than e^700 times itself: the linear ends.
    if value > 0.0 && ends.1.is_finite() {
        ends
    } else {
        (low, high)
    }
}

/// The band of `curve` from the linear ends of its points' intervals
/// (`ends`, point for point), drawn in the chart's scale (`log`: as
/// [`log_ends`]); none where the fitted parameters do not move the curve.
fn band_of(curve: &Series, ends: &[(f64, f64)], log: bool) -> Option<Series> {
    let points = &curve.points;
    let moves = ends.iter().zip(points).any(|((l, h), p)| h - l > 1e-12 * p.1.abs());
    if ends.len() != points.len() || !moves {
        return None;
    }
    let drawn: Vec<(f64, f64)> =
        ends.iter().zip(points).map(|(&(l, h), p)| if log { log_ends(p.1, l, h) } else { (l, h) }).collect();
    let lower = points.iter().zip(&drawn).map(|(p, e)| (p.0, e.0)).collect();
    let upper = points.iter().zip(&drawn).map(|(p, e)| (p.0, e.1)).collect();
    Some(Series::band(curve.name.clone(), curve.color, lower, upper))
}

/// `chart` with `bands` drawn under its curves and `note` after its own.
fn with_bands(mut chart: Chart, bands: Vec<Series>, note: &str) -> Chart {
    if !bands.is_empty() {
        chart.note = Some(match chart.note.take() {
            Some(n) => format!("{n} {note}"),
            None => note.to_string(),
        });
        chart.series.splice(0..0, bands);
    }
    chart
}

/// A sweep's chart with the bands of its curves: `low` and `high` are the
/// ends of each curve's 95% intervals at the sweep's x values (as `ys`, the
/// curves, were computed), and each curve of `chart` (a solid line, drawn
/// from the points where its value is finite) gets the band at the same
/// points.
pub fn sweep_bands(chart: Chart, ys: &[Vec<f64>], low: &[Vec<f64>], high: &[Vec<f64>], note: &str) -> Chart {
    let log = chart.y.scale == Scale::Log;
    let curves = chart.series.iter().filter(|s| s.style == Style::Line && !s.faint);
    let added = curves
        .zip(ys)
        .zip(low.iter().zip(high))
        .filter_map(|((s, y), (lo, hi))| {
            // The ends where the curve has a value: the points it draws.
            let ends: Vec<(f64, f64)> =
                y.iter().zip(lo.iter().zip(hi)).filter(|(v, _)| v.is_finite()).map(|(_, (l, h))| (*l, *h)).collect();
            band_of(s, &ends, log)
        })
        .collect();
    with_bands(chart, added, note)
}
