//! The `Model` trait, how a model is written, and [`AnyModel`], the same
//! model with its types erased, which the engines and the front ends hold.
//!
//! A model validates its parameters once into its own inputs and evaluates
//! them once into its own evaluation type. Everything the front ends show
//! is read from that one evaluation: outputs (declared with their readers
//! in [`Model::OUTPUTS`]), charts (declared with their painters in
//! [`Model::CHARTS`]), tables and remarks. Nothing is solved twice for one
//! parameter set.

use std::marker::PhantomData;

use crate::chart::Chart;
use crate::error::{AnalysisError, ModelError};
use crate::spec::{Category, ChartSpec, Guide, ModelSpec, OutValue, OutputSpec, Outputs, Params, Remark, SweepSpec};
use crate::table::Table;

/// How an output's value is read from an evaluation.
pub enum Read<E> {
    Num(fn(&E) -> f64),
    /// `None` where the parameters give no value (a target out of reach);
    /// a remark says why.
    Maybe(fn(&E) -> Option<f64>),
    Flag(fn(&E) -> bool),
    /// A vector (every load part), `None` where the model has none.
    Array(fn(&E) -> Option<Vec<f64>>),
    /// The index of a categorical output's category (in its spec's
    /// `categories`), `None` where it has none.
    Category(fn(&E) -> Option<usize>),
}

/// An output, declared once: what the page shows and how it is read.
pub struct Output<E> {
    pub spec: OutputSpec,
    pub read: Read<E>,
}

impl<E> Output<E> {
    pub const fn new(
        key: &'static str,
        label: &'static str,
        unit: &'static str,
        help: &'static str,
        read: Read<E>,
    ) -> Self {
        Output { spec: OutputSpec { key, label, unit, help, categories: &[] }, read }
    }

    /// A categorical output: one of `categories`, read as its index.
    pub const fn category(
        key: &'static str,
        label: &'static str,
        help: &'static str,
        categories: &'static [Category],
        read: fn(&E) -> Option<usize>,
    ) -> Self {
        Output { spec: OutputSpec { key, label, unit: "", help, categories }, read: Read::Category(read) }
    }

    pub const fn num(
        key: &'static str,
        label: &'static str,
        unit: &'static str,
        help: &'static str,
        read: fn(&E) -> f64,
    ) -> Self {
        Output::new(key, label, unit, help, Read::Num(read))
    }

    /// The value as JSON would carry it.
    pub fn value(&self, e: &E) -> OutValue {
        match &self.read {
            Read::Num(f) => OutValue::Num(f(e)),
            Read::Maybe(f) => f(e).map_or(OutValue::Missing, OutValue::Num),
            Read::Flag(f) => OutValue::Bool(f(e)),
            Read::Array(f) => f(e).map_or(OutValue::Missing, OutValue::Array),
            Read::Category(f) => {
                f(e).and_then(|k| self.spec.categories.get(k)).map_or(OutValue::Missing, |c| OutValue::Category(*c))
            }
        }
    }

    /// A numeric value, `None` for flags, vectors and missing values; a
    /// category's index for a categorical output (what a map colours).
    pub fn number(&self, e: &E) -> Option<f64> {
        match &self.read {
            Read::Num(f) => Some(f(e)),
            Read::Maybe(f) => f(e),
            Read::Category(f) => f(e).filter(|k| *k < self.spec.categories.len()).map(|k| k as f64),
            Read::Flag(_) | Read::Array(_) => None,
        }
    }
}

/// A chart, declared once: its id, title and caption, and how it is drawn
/// from an evaluation (the painter is handed its own id, so one function
/// can draw several charts).
pub struct View<E> {
    pub spec: ChartSpec,
    pub draw: fn(&E, &'static str) -> Result<Chart, ModelError>,
}

impl<E> View<E> {
    pub const fn new(
        id: &'static str,
        title: &'static str,
        caption: &'static str,
        draw: fn(&E, &'static str) -> Result<Chart, ModelError>,
    ) -> Self {
        View { spec: ChartSpec { id, title, caption }, draw }
    }
}

/// The output specs of `outputs`, at compile time, so that
/// `ModelSpec::outputs` comes from the same declarations the values are
/// read with: `&output_specs::<_, { OUTPUTS.len() }>(OUTPUTS)`.
#[allow(clippy::indexing_slicing)] // evaluated by the compiler: a bad index fails the build
pub const fn output_specs<E, const N: usize>(outputs: &[Output<E>]) -> [OutputSpec; N] {
    let mut out = [OutputSpec { key: "", label: "", unit: "", help: "", categories: &[] }; N];
    let mut i = 0;
    while i < N {
        out[i] = outputs[i].spec;
        i += 1;
    }
    out
}

/// The chart specs of `views`, at compile time (see [`output_specs`]).
#[allow(clippy::indexing_slicing)] // evaluated by the compiler: a bad index fails the build
pub const fn chart_specs<E, const N: usize>(views: &[View<E>]) -> [ChartSpec; N] {
    let mut out = [ChartSpec { id: "", title: "", caption: "" }; N];
    let mut i = 0;
    while i < N {
        out[i] = views[i].spec;
        i += 1;
    }
    out
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

/// An evaluation that keeps the validated inputs beside what was computed
/// from them, for the views that need both.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluated<I, R> {
    pub inputs: I,
    pub result: R,
}

/// The result of analysing measured data.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Analysis {
    pub tables: Vec<Table>,
    /// Parameter values the analysis suggests (fitted coefficients).
    pub suggest: Vec<(&'static str, f64)>,
    /// Everything computed, for export as JSON.
    pub result: serde_json::Value,
    /// The tables as CSV, for export.
    pub csv: String,
}

impl Analysis {
    pub fn new(tables: Vec<Table>, suggest: Vec<(&'static str, f64)>, result: serde_json::Value) -> Self {
        Analysis { csv: crate::table::to_csv(&tables), tables, suggest, result }
    }
}

/// A performance model, as its author writes it.
pub trait Model: 'static {
    /// Everything the model computes for one parameter set, including the
    /// validated inputs its views need.
    type Evaluation: 'static;

    /// Parameters, presets, notes, ...; its `outputs` and `charts` are
    /// [`output_specs`] and [`chart_specs`] of the two lists below.
    fn spec() -> &'static ModelSpec;

    /// The outputs, in the order the page shows them.
    const OUTPUTS: &'static [Output<Self::Evaluation>];

    /// The charts, in the order the page shows them.
    const CHARTS: &'static [View<Self::Evaluation>];

    /// Validates `p` into the model's inputs and evaluates them.
    fn evaluate(p: &Params) -> Result<Self::Evaluation, ModelError>;

    /// One point of a sweep: [`Model::evaluate`], or, where a model's exact
    /// answer may take long (MapReduce's larger general LPs), a refusal
    /// that leaves the point a gap, so a sweep of hundreds of points stays
    /// within seconds. By default the form's evaluation.
    fn evaluate_point(p: &Params) -> Result<Self::Evaluation, ModelError> {
        Self::evaluate(p)
    }

    /// [`Model::evaluate`] where that is quick (milliseconds, for every
    /// accepted input), `None` where the evaluation may take long (a large
    /// or a general LP): a front end then runs `evaluate` off its
    /// interactive thread. Invalid parameters are always answered. By
    /// default every evaluation is quick.
    fn evaluate_quick(p: &Params) -> Option<Result<Self::Evaluation, ModelError>> {
        Some(Self::evaluate(p))
    }

    /// A condition under which the outputs are withheld while tables and
    /// charts still show (a saturated queue has no delay, but its
    /// breakdown explains why).
    fn withheld(_e: &Self::Evaluation) -> Result<(), ModelError> {
        Ok(())
    }

    /// Comparison and reproduction tables.
    fn tables(_e: &Self::Evaluation) -> Vec<Table> {
        Vec::new()
    }

    /// Conditions worth a sentence (infeasible, unreachable, near saturation).
    fn remarks(_e: &Self::Evaluation) -> Vec<Remark> {
        Vec::new()
    }

    /// Fills `out[j * xs.len() + i]` with `output` at (`xs[i]`, `ys[j]`) by a
    /// fast path that exploits the model's structure, NaN where undefined;
    /// returns false when there is none (the map engine then evaluates
    /// point by point).
    fn field(_output: &str, _p: &Params, _x: (&str, &[f64]), _y: (&str, &[f64]), _out: &mut [f64]) -> bool {
        false
    }

    /// Reference lines for its maps at these parameters (thresholds a
    /// library switches at), drawn where their parameter is an axis.
    fn map_guides(_p: &Params) -> Vec<Guide> {
        Vec::new()
    }

    /// Analyses measured data of kind `dataset` (one of `spec().datasets`).
    fn analyze(dataset: &str, _text: &str, _p: &Params) -> Result<Analysis, AnalysisError> {
        Err(AnalysisError::general(format!("{} has no data set '{dataset}'", Self::spec().id)))
    }

    /// A chart of the analysis of measured data.
    fn analysis_chart(dataset: &str, _text: &str, _p: &Params, _chart: &str) -> Result<Chart, AnalysisError> {
        Err(AnalysisError::general(format!("{} has no data set '{dataset}'", Self::spec().id)))
    }

    /// Sentences under a sweep chart that read its data (the lecture's
    /// observations, checked against the curves drawn).
    /// Points a sweep's chart marks beyond its curves (where each curve is
    /// best), as series of their own.
    fn sweep_marks(_sweep: &SweepSpec, _p: &Params) -> Vec<crate::chart::Series> {
        Vec::new()
    }

    fn sweep_note(_sweep: &SweepSpec, _p: &Params, _data: &SweepData) -> Option<String> {
        None
    }
}

/// A model with its types erased: what the registry lists and the engines
/// and front ends hold.
pub trait AnyModel: Sync {
    fn spec(&self) -> &'static ModelSpec;
    fn evaluate(&self, p: &Params) -> Result<Box<dyn AnyEvaluation>, ModelError>;
    /// See [`Model::evaluate_point`].
    fn evaluate_point(&self, p: &Params) -> Result<Box<dyn AnyEvaluation>, ModelError>;
    /// See [`Model::evaluate_quick`].
    fn evaluate_quick(&self, p: &Params) -> Option<Result<Box<dyn AnyEvaluation>, ModelError>>;
    #[cfg(feature = "full")]
    fn field(&self, output: &str, p: &Params, x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> bool;
    #[cfg(feature = "full")]
    fn map_guides(&self, p: &Params) -> Vec<Guide>;
    #[cfg(feature = "full")]
    fn analyze(&self, dataset: &str, text: &str, p: &Params) -> Result<Analysis, AnalysisError>;
    #[cfg(feature = "full")]
    fn analysis_chart(&self, dataset: &str, text: &str, p: &Params, chart: &str) -> Result<Chart, AnalysisError>;
    #[cfg(feature = "full")]
    fn sweep_note(&self, sweep: &SweepSpec, p: &Params, data: &SweepData) -> Option<String>;

    fn sweep_marks(&self, sweep: &SweepSpec, p: &Params) -> Vec<crate::chart::Series>;
}

/// One evaluation with its type erased: every view of it.
pub trait AnyEvaluation {
    /// Every output, in the order of the spec; the model's withholding
    /// condition as an error. Every number is finite.
    fn outputs(&self) -> Result<Outputs, ModelError>;
    /// One numeric output (sweeps and maps read just one), `None` when
    /// withheld, missing, not finite or not declared.
    fn number(&self, key: &str) -> Option<f64>;
    fn tables(&self) -> Vec<Table>;
    fn remarks(&self) -> Vec<Remark>;
    /// Chart `id`; an error names the charts there are.
    #[cfg(feature = "full")]
    fn chart(&self, id: &str) -> Result<Chart, ModelError>;
}

/// The adapter from [`Model`] to [`AnyModel`]: `&Registered::<Dlt>::NEW`
/// is a registry entry.
pub struct Registered<M>(PhantomData<fn() -> M>);

impl<M: Model> Registered<M> {
    pub const NEW: Self = Registered(PhantomData);
}

struct Erased<M: Model>(M::Evaluation);

impl<M: Model> AnyModel for Registered<M> {
    fn spec(&self) -> &'static ModelSpec {
        M::spec()
    }

    fn evaluate(&self, p: &Params) -> Result<Box<dyn AnyEvaluation>, ModelError> {
        Ok(Box::new(Erased::<M>(M::evaluate(p)?)))
    }

    fn evaluate_point(&self, p: &Params) -> Result<Box<dyn AnyEvaluation>, ModelError> {
        Ok(Box::new(Erased::<M>(M::evaluate_point(p)?)))
    }

    fn evaluate_quick(&self, p: &Params) -> Option<Result<Box<dyn AnyEvaluation>, ModelError>> {
        Some(match M::evaluate_quick(p)? {
            Ok(e) => Ok(Box::new(Erased::<M>(e))),
            Err(e) => Err(e),
        })
    }

    #[cfg(feature = "full")]
    fn field(&self, output: &str, p: &Params, x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> bool {
        M::field(output, p, x, y, out)
    }

    #[cfg(feature = "full")]
    fn map_guides(&self, p: &Params) -> Vec<Guide> {
        M::map_guides(p)
    }

    #[cfg(feature = "full")]
    fn analyze(&self, dataset: &str, text: &str, p: &Params) -> Result<Analysis, AnalysisError> {
        M::analyze(dataset, text, p)
    }

    #[cfg(feature = "full")]
    fn analysis_chart(&self, dataset: &str, text: &str, p: &Params, chart: &str) -> Result<Chart, AnalysisError> {
        M::analysis_chart(dataset, text, p, chart)
    }

    #[cfg(feature = "full")]
    fn sweep_note(&self, sweep: &SweepSpec, p: &Params, data: &SweepData) -> Option<String> {
        M::sweep_note(sweep, p, data)
    }

    fn sweep_marks(&self, sweep: &SweepSpec, p: &Params) -> Vec<crate::chart::Series> {
        M::sweep_marks(sweep, p)
    }
}

impl<M: Model> AnyEvaluation for Erased<M> {
    fn outputs(&self) -> Result<Outputs, ModelError> {
        M::withheld(&self.0)?;
        let mut out = Vec::with_capacity(M::OUTPUTS.len());
        for o in M::OUTPUTS {
            let value = o.value(&self.0);
            let finite = match &value {
                OutValue::Num(x) => x.is_finite(),
                OutValue::Array(xs) => xs.iter().all(|x| x.is_finite()),
                OutValue::Bool(_) | OutValue::Category(_) | OutValue::Missing => true,
            };
            if !finite {
                return Err(ModelError::NonFinite { output: o.spec.key });
            }
            out.push((o.spec.key, value));
        }
        Ok(Outputs(out))
    }

    fn number(&self, key: &str) -> Option<f64> {
        M::withheld(&self.0).ok()?;
        M::OUTPUTS.iter().find(|o| o.spec.key == key)?.number(&self.0).filter(|x| x.is_finite())
    }

    fn tables(&self) -> Vec<Table> {
        M::tables(&self.0)
    }

    fn remarks(&self) -> Vec<Remark> {
        M::remarks(&self.0)
    }

    #[cfg(feature = "full")]
    fn chart(&self, id: &str) -> Result<Chart, ModelError> {
        match M::CHARTS.iter().find(|c| c.spec.id == id) {
            Some(view) => (view.draw)(&self.0, view.spec.id),
            None => Err(ModelError::Unknown {
                what: "chart",
                name: id.to_string(),
                known: M::CHARTS.iter().map(|c| c.spec.id.to_string()).collect(),
            }),
        }
    }
}
