//! Iso-maps: any numeric output of any model over any two numeric
//! parameters, sampled on a grid (undefined points are gaps), with
//! isolines by marching squares, in parameter units.

use std::fmt;
use std::fmt::Write as _;
use std::ops::Range;

use serde::Serialize;

use super::contour;
use crate::format::echo;
use crate::model::AnyModel;
use crate::spec::num;
use crate::spec::{Category, ParamKind, Params, RawParams, Value};

/// Grid sizes allowed per axis.
pub const MIN_GRID: usize = 2;
pub const MAX_GRID: usize = 1024;
/// The most isolines one map draws.
pub const MAX_LEVELS: usize = 100;
/// The default resolution (nodes per axis).
pub const DEFAULT_GRID: usize = 256;

/// One axis of a map: a numeric parameter over a range, linear or log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapAxis {
    pub key: String,
    pub min: f64,
    pub max: f64,
    pub log: bool,
}

/// Why a map cannot be drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct MapError {
    /// The part of the request at fault: "x", "y", "output", "levels", "grid", or a parameter key.
    pub field: String,
    pub message: String,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for MapError {}

fn bad(field: &str, message: impl Into<String>) -> MapError {
    MapError { field: field.into(), message: message.into() }
}

impl MapAxis {
    /// Parses `KEY:MIN:MAX[:log]` (the CLI's --x and --y).
    pub fn parse(field: &str, text: &str) -> Result<MapAxis, MapError> {
        let parts: Vec<&str> = text.split(':').collect();
        let number = |s: &str| {
            s.trim()
                .parse::<f64>()
                .map_err(|_| bad(field, format!("'{}' is not a number; expected KEY:MIN:MAX[:log]", echo(s))))
        };
        let axis = match parts.as_slice() {
            [key, min, max] => MapAxis { key: key.trim().into(), min: number(min)?, max: number(max)?, log: false },
            [key, min, max, "log"] => {
                MapAxis { key: key.trim().into(), min: number(min)?, max: number(max)?, log: true }
            }
            _ => return Err(bad(field, format!("'{}' is not KEY:MIN:MAX or KEY:MIN:MAX:log", echo(text)))),
        };
        axis.check_range(field)?;
        Ok(axis)
    }

    /// The range is one an axis can span: finite, min < max, and min > 0 on
    /// a log axis.
    pub fn check_range(&self, field: &str) -> Result<(), MapError> {
        if !(self.min.is_finite() && self.max.is_finite()) || self.min >= self.max {
            return Err(bad(
                field,
                format!("the range {} … {} is empty: expected min < max", num(self.min), num(self.max)),
            ));
        }
        if self.log && self.min <= 0.0 {
            return Err(bad(field, format!("a log axis cannot reach {}: expected min > 0", num(self.min))));
        }
        if !(self.max - self.min).is_finite() {
            return Err(bad(
                field,
                format!(
                    "the range {} … {} is wider than the largest number: expected a narrower range",
                    num(self.min),
                    num(self.max)
                ),
            ));
        }
        Ok(())
    }

    /// `n` sample values, checked: `n` within [`MIN_GRID`] … [`MAX_GRID`].
    pub fn samples(&self, n: usize) -> Result<Vec<f64>, MapError> {
        check_size(n)?;
        Ok(self.values(n))
    }

    /// `n` values from min to max, evenly spaced in the axis' own scale.
    pub fn values(&self, n: usize) -> Vec<f64> {
        (0..n).map(|k| self.at(n, k as f64)).collect()
    }

    /// The parameter value at fractional grid index `f` (0 … n − 1), kept
    /// inside [min, max] against rounding.
    pub fn at(&self, n: usize, f: f64) -> f64 {
        let t = f / (n.max(2) - 1) as f64;
        // libm, not std: the same bits natively and in wasm.
        let v = if self.log {
            libm::exp(libm::log(self.min) + t * (libm::log(self.max) - libm::log(self.min)))
        } else {
            self.min + t * (self.max - self.min)
        };
        // Not `clamp`, which panics on a reversed range: this never does.
        if v < self.min {
            self.min
        } else if v > self.max {
            self.max
        } else {
            v
        }
    }
}

/// What to map.
#[derive(Debug, Clone, PartialEq)]
pub struct MapRequest {
    pub output: String,
    pub x: MapAxis,
    pub y: MapAxis,
    pub nx: usize,
    pub ny: usize,
    pub levels: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Isoline {
    pub level: f64,
    /// Polylines as (x, y) in parameter units.
    pub lines: Vec<Vec<(f64, f64)>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IsoMap {
    pub model: String,
    pub output: String,
    pub x: MapAxis,
    pub y: MapAxis,
    pub nx: usize,
    pub ny: usize,
    /// Row-major, `values[j * nx + i]` at (`xs[i]`, `ys[j]`); `null` (NaN) is a gap.
    #[serde(serialize_with = "gaps_as_null")]
    pub values: Vec<f64>,
    pub gaps: usize,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// For a categorical output: its categories, which `values` index; the
    /// isolines are then the boundaries between regions (level: the index).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<Category>,
    pub isolines: Vec<Isoline>,
}

fn gaps_as_null<S: serde::Serializer>(values: &[f64], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(values.iter().map(|v| v.is_finite().then_some(*v)))
}

fn check_axis(model: &dyn AnyModel, raw: &RawParams, field: &str, axis: &MapAxis) -> Result<(), MapError> {
    let spec = model.spec();
    let param = spec.param(&axis.key).ok_or_else(|| {
        let numeric: Vec<&str> =
            spec.params.iter().filter(|p| matches!(p.kind, ParamKind::Number { .. })).map(|p| p.key).collect();
        bad(
            field,
            format!("{} has no parameter '{}'; numeric parameters: {}", spec.id, echo(&axis.key), numeric.join(", ")),
        )
    })?;
    let ParamKind::Number { range, .. } = &param.kind else {
        return Err(bad(field, format!("{} is not a numeric parameter", axis.key)));
    };
    // An axis the current choices leave unused would paint a flat map.
    if let (false, Some(when)) = (spec.applies(param, raw), &param.applies_when) {
        let in_use: Vec<&str> = spec
            .params
            .iter()
            .filter(|p| matches!(p.kind, ParamKind::Number { .. }) && spec.applies(p, raw))
            .map(|p| p.key)
            .collect();
        return Err(bad(
            field,
            format!(
                "{} is not used with these choices: it applies when {} = {}; map over a parameter in use ({}) instead",
                axis.key,
                when.key,
                when.values.join(" or "),
                in_use.join(", ")
            ),
        ));
    }
    axis.check_range(field)?;
    if !range.contains(axis.min) || !range.contains(axis.max) {
        return Err(bad(
            field,
            format!("{} … {} leaves {}'s valid range {range}", num(axis.min), num(axis.max), axis.key),
        ));
    }
    Ok(())
}

/// Checks `request` and the fixed parameters; the axes' sample values.
fn prepare(
    model: &dyn AnyModel,
    raw: &RawParams,
    request: &MapRequest,
) -> Result<(Params, Vec<f64>, Vec<f64>), MapError> {
    let spec = model.spec();
    if !spec.outputs.iter().any(|o| o.key == request.output) {
        let keys: Vec<&str> = spec.outputs.iter().map(|o| o.key).collect();
        return Err(bad(
            "output",
            format!("{} has no output '{}'; outputs: {}", spec.id, echo(&request.output), keys.join(", ")),
        ));
    }
    check_axis(model, raw, "x", &request.x)?;
    check_axis(model, raw, "y", &request.y)?;
    if request.x.key == request.y.key {
        return Err(bad("y", "the two axes must be different parameters"));
    }
    check_shape(request)?;
    let mut raw = raw.clone();
    raw.remove(&request.x.key);
    raw.remove(&request.y.key);
    let params = spec.parse(&raw).map_err(|es| match es.first() {
        Some(e) => bad(&e.key, e.message()),
        None => bad("params", "invalid parameters"),
    })?;
    Ok((params, request.x.values(request.nx), request.y.values(request.ny)))
}

fn check_size(n: usize) -> Result<(), MapError> {
    if (MIN_GRID..=MAX_GRID).contains(&n) {
        Ok(())
    } else {
        Err(bad("grid", format!("{n} points per axis: expected {MIN_GRID} to {MAX_GRID}")))
    }
}

/// The grid sizes and levels of `request` are ones a map can have.
pub fn check_shape(request: &MapRequest) -> Result<(), MapError> {
    check_size(request.nx)?;
    check_size(request.ny)?;
    if request.levels.iter().any(|l| !l.is_finite()) {
        return Err(bad("levels", "levels must be finite numbers"));
    }
    if request.levels.len() > MAX_LEVELS {
        return Err(bad("levels", format!("{} levels: at most {MAX_LEVELS} isolines are drawn", request.levels.len())));
    }
    Ok(())
}

/// `values` is a whole grid of `request` (nx × ny values).
pub fn check_grid(request: &MapRequest, values: &[f64]) -> Result<(), MapError> {
    check_shape(request)?;
    if values.len() != request.nx * request.ny {
        return Err(bad("values", format!("{} values for a {} × {} grid", values.len(), request.nx, request.ny)));
    }
    Ok(())
}

/// The values of rows `rows` of the grid (row j at y = `ys[j]`), row-major;
/// NaN where the model is undefined. Computing a map band by band lets a
/// worker report progress and give way to a newer request.
pub fn field_rows(
    model: &dyn AnyModel,
    raw: &RawParams,
    request: &MapRequest,
    rows: Range<usize>,
) -> Result<Vec<f64>, MapError> {
    let (params, xs, ys) = prepare(model, raw, request)?;
    let rows = rows.start.min(request.ny)..rows.end.min(request.ny);
    let band = ys.get(rows.clone()).unwrap_or(&[]);
    let mut values = vec![f64::NAN; request.nx * band.len()];
    if !model.field(&request.output, &params, (&request.x.key, &xs), (&request.y.key, band), &mut values) {
        generic_field(model, &params, request, &xs, band, &mut values);
    }
    Ok(values)
}

/// The isolines of a full grid of values, in parameter units, levels sorted.
pub fn isolines_of(values: &[f64], request: &MapRequest) -> Vec<Isoline> {
    let mut levels = request.levels.clone();
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    levels
        .iter()
        .map(|&level| Isoline {
            level,
            lines: contour::isolines(values, request.nx, request.ny, level)
                .into_iter()
                .map(|line| {
                    line.into_iter().map(|(i, j)| (request.x.at(request.nx, i), request.y.at(request.ny, j))).collect()
                })
                .collect(),
        })
        .collect()
}

/// The boundaries of a categorical grid (each value a category's index,
/// `count` categories): for each category present, the line where its
/// indicator crosses ½, as an isoline whose level is the category's index.
pub fn boundaries(values: &[f64], request: &MapRequest, count: usize) -> Vec<Isoline> {
    (0..count)
        .filter(|&k| values.contains(&(k as f64)))
        .map(|k| {
            let indicator: Vec<f64> = values
                .iter()
                .map(|v| if v.is_finite() { f64::from(u8::from(*v == k as f64)) } else { f64::NAN })
                .collect();
            let mut one = request.clone();
            one.levels = vec![0.5];
            let lines = isolines_of(&indicator, &one).into_iter().flat_map(|i| i.lines).collect();
            Isoline { level: k as f64, lines }
        })
        .collect()
}

/// The categories of `output` of `model` (empty for a numeric output).
pub fn categories(model: &dyn AnyModel, output: &str) -> &'static [Category] {
    model.spec().outputs.iter().find(|o| o.key == output).map_or(&[], |o| o.categories)
}

/// The lines a map of `values` draws: isolines at the levels, or for a
/// categorical output the boundaries between its regions.
pub fn lines_of(values: &[f64], request: &MapRequest, categories: &[Category]) -> Vec<Isoline> {
    if categories.is_empty() {
        isolines_of(values, request)
    } else {
        boundaries(values, request, categories.len())
    }
}

/// Evaluates `request` over the grid and extracts its isolines.
pub fn map(model: &dyn AnyModel, raw: &RawParams, request: &MapRequest) -> Result<IsoMap, MapError> {
    let values = field_rows(model, raw, request, 0..request.ny)?;
    let categories = categories(model, &request.output);
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (min, max) = finite.fold((None, None), |(lo, hi): (Option<f64>, Option<f64>), v| {
        (Some(lo.map_or(v, |l| l.min(v))), Some(hi.map_or(v, |h| h.max(v))))
    });
    Ok(IsoMap {
        model: model.spec().id.into(),
        output: request.output.clone(),
        x: request.x.clone(),
        y: request.y.clone(),
        nx: request.nx,
        ny: request.ny,
        gaps: values.iter().filter(|v| !v.is_finite()).count(),
        isolines: lines_of(&values, request, categories),
        values,
        min,
        max,
        categories: categories.to_vec(),
    })
}

/// Any model, any output: one `evaluate` per point; integer parameters
/// take the nearest whole value, and points the model rejects are gaps.
fn generic_field(
    model: &dyn AnyModel,
    params: &crate::spec::Params,
    r: &MapRequest,
    xs: &[f64],
    ys: &[f64],
    out: &mut [f64],
) {
    let spec = model.spec();
    let valid = |key: &str, v: f64| spec.value_at(key, v);
    let xv: Vec<Option<Value>> = xs.iter().map(|x| valid(&r.x.key, *x)).collect();
    for (j, y) in ys.iter().enumerate() {
        let Some(yv) = valid(&r.y.key, *y) else { continue };
        let row = params.with(&r.y.key, yv);
        for (i, x) in xv.iter().enumerate() {
            let Some(x) = x else { continue };
            let value = model.evaluate(&row.with(&r.x.key, x.clone())).ok().and_then(|e| e.number(&r.output));
            if let (Some(slot), Some(v)) = (out.get_mut(j * r.nx + i), value) {
                *slot = if v.is_finite() { v } else { f64::NAN };
            }
        }
    }
}

/// A computed grid as CSV: `x,y,output` and a line per node (x fastest),
/// the coordinates as the engine sampled them, an empty cell for a gap; a
/// categorical output's cells are its categories' ids. With `interval`
/// (a calibrated model's 95% interval at each node), two more columns:
/// its low and high ends.
pub fn grid_csv(
    request: &MapRequest,
    values: &[f64],
    categories: &[Category],
    interval: Option<(&[f64], &[f64])>,
) -> String {
    let xs = request.x.values(request.nx);
    let ys = request.y.values(request.ny);
    let mut out = format!("{},{},{}", request.x.key, request.y.key, request.output);
    let interval = interval.filter(|_| categories.is_empty());
    if interval.is_some() {
        let _ = write!(out, ",{o} 95% low,{o} 95% high", o = request.output);
    }
    for (j, y) in ys.iter().enumerate() {
        for (i, x) in xs.iter().enumerate() {
            let v = values.get(j * request.nx + i).copied().filter(|v| v.is_finite());
            let cell = match v {
                Some(v) if !categories.is_empty() => {
                    categories.get(v as usize).map(|c| c.id.to_string()).unwrap_or_default()
                }
                Some(v) => v.to_string(),
                None => String::new(),
            };
            let _ = write!(out, "\n{x},{y},{cell}");
            if let Some((low, high)) = interval {
                let k = j * request.nx + i;
                let end = |e: &[f64]| e.get(k).filter(|v| v.is_finite()).map(f64::to_string).unwrap_or_default();
                let _ = write!(out, ",{},{}", end(low), end(high));
            }
        }
    }
    out
}
