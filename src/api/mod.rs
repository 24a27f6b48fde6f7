//! The one facade every front end calls: the page's wasm exports, the
//! command line and the tests. Each operation takes a model id and raw user
//! input, validates it against the model's spec, and reads what it needs
//! from one evaluation.
//!
//! [`Session`] keeps the last evaluation, so that the page's one
//! [`Session::report`] per keystroke and the chart draws that follow it
//! solve the model once.
//!
//! What only the full build has (charts, data analysis, iso-maps, sweeps)
//! is in [`full`]: the page's first-paint module needs none of it.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Serialize;

use crate::error::{FieldError, ModelError};
use crate::format;
use crate::model::{AnyEvaluation, AnyModel};
use crate::models::find;
use crate::spec::{ModelSpec, OutValue, Outputs, ParamKind, Params, RawParams, RawValue, Remark};
use crate::table::Table;

pub use crate::models::specs;

#[cfg(feature = "full")]
pub mod export;
#[cfg(feature = "full")]
mod full;
#[cfg(feature = "full")]
pub use full::*;

fn parse(model: &dyn AnyModel, raw: &RawParams) -> Result<Params, ModelError> {
    model.spec().parse(raw).map_err(ModelError::Params)
}

type Evaluation = Rc<Result<Box<dyn AnyEvaluation>, ModelError>>;

/// The outputs of `model` for `raw`: validated, evaluated, read.
fn outputs(model: &dyn AnyModel, raw: &RawParams) -> Result<Outputs, ModelError> {
    model.evaluate(&parse(model, raw)?)?.outputs()
}

/// Validates `raw` and evaluates model `id`. Every numeric output is finite.
pub fn evaluate(id: &str, raw: &RawParams) -> Result<Outputs, ModelError> {
    outputs(find(id)?, raw)
}

/// All field problems of `raw` at once, including the model's own rules
/// (which only show once every field is valid on its own). Empty when the
/// parameters evaluate.
pub fn check(id: &str, raw: &RawParams) -> Result<Vec<FieldError>, ModelError> {
    let model = find(id)?;
    match outputs(model, raw) {
        Ok(_) => Ok(Vec::new()),
        Err(e) => problems(model, raw, e),
    }
}

/// How far an operation may go: `Any` evaluates whatever it takes; `Quick`
/// leaves out an evaluation that may take long (see
/// [`crate::model::Model::evaluate_quick`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pace {
    Any,
    Quick,
}

impl Pace {
    fn evaluate(self, model: &dyn AnyModel, p: &Params) -> Option<Result<Box<dyn AnyEvaluation>, ModelError>> {
        match self {
            Pace::Any => Some(model.evaluate(p)),
            Pace::Quick => model.evaluate_quick(p),
        }
    }
}

/// The field problems that error `e` of evaluating `raw` stands for.
fn problems(model: &dyn AnyModel, raw: &RawParams, e: ModelError) -> Result<Vec<FieldError>, ModelError> {
    match e {
        ModelError::Params(mut errors) => {
            // The model's own rules (N a perfect square, ...) run only on a
            // complete valid set. To report them for the fields that are valid
            // on their own, check again with the invalid fields at defaults.
            let mut patched = raw.clone();
            for e in &errors {
                patched.remove(&e.key);
            }
            if patched.len() < raw.len() {
                // Quick only: the rules a long evaluation would find show once the fields are fixed.
                let more = parse(model, &patched).and_then(|p| match Pace::Quick.evaluate(model, &p) {
                    Some(e) => e?.outputs(),
                    None => Ok(Outputs(Vec::new())),
                });
                if let Err(ModelError::Params(more)) = more {
                    let fresh: Vec<_> = more
                        .into_iter()
                        .filter(|m| raw.contains_key(&m.key) && !errors.iter().any(|e| e.key == m.key))
                        .collect();
                    errors.extend(fresh);
                }
            }
            let order = |key: &str| model.spec().params.iter().position(|p| p.key == key).unwrap_or(usize::MAX);
            errors.sort_by_key(|e| order(&e.key));
            Ok(ModelError::Params(errors).field_errors())
        }
        e @ ModelError::Unknown { .. } => Err(e),
        e => Ok(vec![FieldError { key: String::new(), message: e.to_string() }]),
    }
}

/// Tables need only valid fields: a model may show them where `evaluate`
/// reports a condition (the delay breakdown of a saturated queue).
pub fn tables(id: &str, raw: &RawParams) -> Result<Vec<Table>, ModelError> {
    let model = find(id)?;
    Ok(model.evaluate(&parse(model, raw)?)?.tables())
}

/// Sentences about the result; an error where there is no result.
pub fn remarks(id: &str, raw: &RawParams) -> Result<Vec<Remark>, ModelError> {
    let model = find(id)?;
    let e = model.evaluate(&parse(model, raw)?)?;
    e.outputs()?;
    Ok(e.remarks())
}

/// An output as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Display {
    /// `6.764 × 10⁻⁸`, `yes`, `1, 2, 3, …, 9 (9 values)`, `—` for no value.
    pub text: String,
    /// `≈ 1.6 h` for a long time in seconds, else empty.
    pub human: String,
}

/// The state of one field of the form.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldState {
    /// Whether the current choices use the parameter.
    pub active: bool,
    /// The line under a number field: its value in the base unit or as a
    /// rate (`= 1.28 × 10⁹ B`, `= 4 × 10⁹ flop/s`), and `not used: …`
    /// where the choices leave it out, joined by ` · `.
    pub hint: String,
}

/// Everything the page shows for one parameter set, from one evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Every field problem (as [`check`] gives them); empty when there are outputs.
    pub problems: Vec<FieldError>,
    /// The outputs (as [`evaluate`] gives them), `None` with problems.
    pub outputs: Option<Outputs>,
    /// Each output as text, `None` with problems.
    pub display: Option<BTreeMap<&'static str, Display>>,
    /// The tables, also with problems when every field is valid on its own.
    pub tables: Option<Vec<Table>>,
    /// Sentences about the outputs; empty with problems.
    pub remarks: Vec<Remark>,
    pub fields: BTreeMap<&'static str, FieldState>,
    /// The parameters whose value differs from the default (what a link must carry).
    pub changed: Vec<&'static str>,
    /// True when a [`Session::quick_report`] left out a long evaluation:
    /// every field is valid on its own, and the outputs, tables, remarks and
    /// the model's own rules come from [`Session::report`] (the page runs it
    /// in a worker).
    pub deferred: bool,
}

/// A front end's session: the last evaluation is kept, so that a report and
/// the charts drawn after it for the same parameters solve the model once.
#[derive(Default)]
pub struct Session {
    last: RefCell<Option<(&'static str, Params, Evaluation)>>,
    solves: std::cell::Cell<u64>,
}

impl Session {
    /// How many times this session has evaluated a model.
    pub fn solves(&self) -> u64 {
        self.solves.get()
    }

    #[cfg(feature = "full")]
    fn evaluation(&self, model: &dyn AnyModel, p: &Params) -> Evaluation {
        self.evaluation_at(model, p, Pace::Any).unwrap_or_else(|| Rc::new(model.evaluate(p)))
    }

    /// The kept evaluation for `p`, or a new one; `None` when `pace` leaves it out.
    fn evaluation_at(&self, model: &dyn AnyModel, p: &Params, pace: Pace) -> Option<Evaluation> {
        let id = model.spec().id;
        if let Some((last_id, last_p, e)) = &*self.last.borrow() {
            if *last_id == id && last_p == p {
                return Some(Rc::clone(e));
            }
        }
        let e = Rc::new(pace.evaluate(model, p)?);
        self.solves.set(self.solves.get() + 1);
        *self.last.borrow_mut() = Some((id, p.clone(), Rc::clone(&e)));
        Some(e)
    }

    /// Everything the page shows for `raw`: problems, outputs and their
    /// text, tables, remarks, the state of every field and what a link
    /// must carry.
    pub fn report(&self, id: &str, raw: &RawParams) -> Result<Report, ModelError> {
        self.report_at(id, raw, Pace::Any)
    }

    /// [`Session::report`] where its evaluation is quick; else a report
    /// with the field problems, field states and `changed`, marked
    /// `deferred` (for a worker's `report`). What the page calls on every
    /// keystroke: it never blocks for long.
    pub fn quick_report(&self, id: &str, raw: &RawParams) -> Result<Report, ModelError> {
        self.report_at(id, raw, Pace::Quick)
    }

    fn report_at(&self, id: &str, raw: &RawParams, pace: Pace) -> Result<Report, ModelError> {
        let model = find(id)?;
        let spec = model.spec();
        let mut report = Report {
            problems: Vec::new(),
            outputs: None,
            display: None,
            tables: None,
            remarks: Vec::new(),
            fields: field_states(spec, raw),
            changed: changed(spec, raw),
            deferred: false,
        };
        let p = match parse(model, raw) {
            Ok(p) => p,
            Err(e) => {
                report.problems = problems(model, raw, e)?;
                return Ok(report);
            }
        };
        let Some(evaluation) = self.evaluation_at(model, &p, pace) else {
            report.deferred = true;
            return Ok(report);
        };
        let e = match &*evaluation {
            Ok(e) => e,
            Err(err) => {
                report.problems = problems(model, raw, err.clone())?;
                return Ok(report);
            }
        };
        report.tables = Some(e.tables());
        match e.outputs() {
            Ok(outputs) => {
                report.display = Some(display(spec, &outputs));
                report.outputs = Some(outputs);
                report.remarks = e.remarks();
            }
            Err(err) => report.problems = problems(model, raw, err)?,
        }
        Ok(report)
    }
}

fn display(spec: &ModelSpec, outputs: &Outputs) -> BTreeMap<&'static str, Display> {
    let mut out = BTreeMap::new();
    for (key, value) in &outputs.0 {
        let unit = spec.outputs.iter().find(|o| o.key == *key).map_or("", |o| o.unit);
        let (text, human) = match value {
            OutValue::Num(x) => (format::number(*x, 4), if unit == "s" { format::duration(*x) } else { String::new() }),
            OutValue::Bool(b) => ((if *b { "yes" } else { "no" }).to_string(), String::new()),
            OutValue::Category(c) => (c.label.to_string(), String::new()),
            OutValue::Array(xs) => (format::array(xs), String::new()),
            OutValue::Missing => ("—".to_string(), String::new()),
        };
        out.insert(*key, Display { text, human });
    }
    out
}

/// A number as typed, `None` when it is not one (or empty, or not finite).
fn typed_number(raw: Option<&RawValue>) -> Option<f64> {
    match raw? {
        RawValue::Num(x) => Some(*x),
        RawValue::Text(t) => crate::spec::parse_number(t).ok(),
        _ => None,
    }
    .filter(|x| x.is_finite())
}

fn field_states(spec: &ModelSpec, raw: &RawParams) -> BTreeMap<&'static str, FieldState> {
    let mut out = BTreeMap::new();
    for p in spec.params {
        let active = spec.applies(p, raw);
        let mut parts = Vec::new();
        if let ParamKind::Number { reciprocal_unit, .. } = &p.kind {
            let x = typed_number(raw.get(p.key));
            let mut conversion = String::new();
            if let (Some(unit), Some(x)) = (reciprocal_unit, x) {
                if x > 0.0 && (1.0 / x).is_finite() {
                    conversion = format!("= {} {unit}", format::number(1.0 / x, 4));
                }
            }
            let factor = p.unit_from.and_then(|from| {
                let ParamKind::Choice { options, .. } = &spec.param(from)?.kind else { return None };
                let chosen = spec.chosen(from, raw)?;
                options.iter().find(|o| o.value == chosen)?.factor
            });
            if let (Some(f), Some(x)) = (factor, x) {
                if (x * f).is_finite() {
                    conversion = format!("= {} {}", format::base(x * f), p.unit);
                }
            }
            if !conversion.is_empty() {
                parts.push(conversion);
            }
            if let (false, Some(when)) = (active, &p.applies_when) {
                let labels: Vec<&str> = when
                    .values
                    .iter()
                    .map(|v| {
                        let option = match spec.param(when.key).map(|q| &q.kind) {
                            Some(ParamKind::Choice { options, .. }) => options.iter().find(|o| o.value == *v),
                            _ => None,
                        };
                        option.map_or(*v, |o| o.label.split(" (").next().unwrap_or(o.label))
                    })
                    .collect();
                parts.push(format!("not used: applies to {} only", labels.join(", ")));
            }
        }
        out.insert(p.key, FieldState { active, hint: parts.join(" · ") });
    }
    out
}

fn changed(spec: &ModelSpec, raw: &RawParams) -> Vec<&'static str> {
    spec.params
        .iter()
        .filter(|p| {
            let Some(value) = raw.get(p.key) else { return false };
            let blank = matches!(value, RawValue::Text(t) if t.trim().is_empty());
            if p.fallback.is_some() {
                return !blank;
            }
            match (&p.kind, value) {
                (ParamKind::Choice { default, .. }, RawValue::Text(t)) => t != default,
                _ => p.parse(value).ok() != Some(p.default_value()),
            }
        })
        .map(|p| p.key)
        .collect()
}
