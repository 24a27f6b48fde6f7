//! Scalability from small-cluster measurements: Graph500 on a 32-node
//! cluster (Medya, Cherkasova et al., `papers/graph500-scalability.md`).
//!
//! Eq. (1) with an intercept: time(p) = C0 + C1/p + C2/√p. As a model it
//! evaluates the three terms for given coefficients; with measured data it
//! fits them ([`fit`]) and derives the interconnect bandwidth demand from
//! throttling runs ([`demand`]).
//!
//! ```
//! use isoperf::models::scaling::fit::crossover;
//! // Scale 27: C1 = 57.67, C2 = 3.8; communication overtakes at p = (C1/C2)².
//! assert_eq!(crossover(57.67, 3.8).map(|p| p.round()), Some(230.0));
//! ```

use crate::chart::Chart;
use crate::csv::{self, Column, Measure};
use crate::error::{AnalysisError, ModelError};
use crate::spec::{
    CalibrationExample, ChartSpec, DatasetSpec, Example, MapPreset, ModelSpec, ParamKind, ParamSpec, Params, Preset,
    PresetGroup, PresetValue, Range, Scale,
};

use crate::model::{chart_specs, output_specs, Analysis, Model, Output, Read, View};

pub mod demand;
pub mod fit;
mod views;

/// Defaults: the paper's scale-27 fit (C0 is not reported; 0).
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("C0", "C0", "s", ParamKind::number(0.0, Range::closed(-1e9, 1e9), Scale::Linear, false), "Intercept of the fit (noise, fixed costs); the paper does not report it.", "eq. (1)"),
    ParamSpec::new("C1", "C1", "s", ParamKind::number(57.67, Range::closed(0.0, 1e12), Scale::Log, false), "Processing: the time that divides by p (57.67 at scale 27, 102.1 at scale 28); a time, so not negative.", "eq. (1), §3"),
    ParamSpec::new("C2", "C2", "s", ParamKind::number(3.8, Range::closed(0.0, 1e12), Scale::Log, false), "Communication: the time that divides by √p (3.8 at scale 27, 10.3 at scale 28); a time, so not negative.", "eq. (1), §3"),
    ParamSpec::new("p", "Processes p", "", ParamKind::number(576.0, Range::closed(1.0, 1e9), Scale::Log, false), "MPI processes (the paper runs 18 per node; 32 nodes are 576).", "eq. (1)"),
    ParamSpec::new("saving", "Worthwhile saving", "", ParamKind::number(0.05, Range { min: 0.0, min_exclusive: true, max: 1.0 }, Scale::Log, false), "Doubling p must save at least this fraction of the time to be worth it.", "§4"),
    ParamSpec {
        kind: ParamKind::List { default: &[0.05, 0.1], range: Range { min: 0.0, min_exclusive: true, max: 10.0 }, scale: Scale::Log, group: "CTIs", max_len: 64 },
        ..ParamSpec::new("cti", "CTI", "", ParamKind::number(0.0, Range::closed(0.0, 1.0), Scale::Linear, false), "Completion-time increments at which to measure bandwidth demand (0.05 = 5% slower than at full bandwidth).", "eq. (2)")
    },
    ParamSpec::new("p_base", "Base p*", "", ParamKind::number(288.0, Range::closed(1.0, 1e9), Scale::Log, false), "The measured configuration eq. (3) extrapolates from (16 nodes × 18 = 288).", "eq. (3)"),
    ParamSpec::new("p_target", "Target p′", "", ParamKind::number(450.0, Range::closed(1.0, 1e9), Scale::Log, false), "The configuration to predict bandwidth demand for (25 nodes × 18 = 450).", "eq. (3), §4"),
];

const OUTPUTS: &[Output<ScalingEvaluation>] = &[
    Output::num("T", "Completion time", "s", "eq. (1): C0 + C1/p + C2/√p", |e| e.t),
    Output::num("T_proc", "Processing C1/p", "s", "the part that scales with 1/p", |e| e.c.c1 / e.p),
    Output::num("T_comm", "Communication C2/√p", "s", "the part that scales with 1/√p", |e| e.c.c2 / e.p.sqrt()),
    Output::num("comm_fraction", "Communication share", "", "(C2/√p) / T", |e| e.c.c2 / e.p.sqrt() / e.t),
    Output::new(
        "p_crossover",
        "Crossover p",
        "",
        "(C1/C2)²: C2/√p overtakes C1/p",
        Read::Maybe(|e| fit::crossover(e.c.c1, e.c.c2)),
    ),
    Output::new(
        "p_diminishing",
        "Diminishing returns from p",
        "",
        "doubling p saves less than the worthwhile fraction",
        Read::Maybe(|e| fit::diminishing_returns(e.c.c0, e.c.c1, e.c.c2, e.saving)),
    ),
];

const CHARTS: &[View<ScalingEvaluation>] = &[
    View::new("components", "Completion time and its terms vs p", "Eq. (1) and, dashed, its processing and communication terms (log axes); the ring marks the current p, the dot the crossover p = (C1/C2)², where the two terms are equal.", draw),
];

fn draw(e: &ScalingEvaluation, _components: &str) -> Result<Chart, ModelError> {
    views::components_chart(e.c, e.p)
}

pub(crate) const FIT_CHARTS: &[ChartSpec] = &[
    ChartSpec {
        id: "fit",
        title: "Measured times and the fit",
        caption: "Data, the fitted eq. (1) and its 95% confidence band, extrapolated to 4× the largest measured p.",
    },
    ChartSpec {
        id: "fit-loglog",
        title: "The same on log axes",
        caption: "Log–log view: the 1/p and 1/√p regimes and the extrapolation.",
    },
    ChartSpec { id: "residuals", title: "Residuals", caption: "Measured minus fitted time for every data point." },
];
pub(crate) const DEMAND_CHARTS: &[ChartSpec] = &[
    ChartSpec {
        id: "cti",
        title: "CTI vs available bandwidth",
        caption: "Eq. (2) per processor configuration; dashed: the CTIs chosen.",
    },
    ChartSpec {
        id: "demand",
        title: "Bandwidth demand vs p",
        caption: "Measured BW_{CTI,p} and eq. (3)'s prediction from p*; the dashed line is 100% of the link.",
    },
];

const DATASETS: &[DatasetSpec] = &[
    DatasetSpec {
        id: "timings",
        title: "Completion times (p, time)",
        columns: TIMINGS,
        params: &[],
        help: "One run per line: processes p (a whole number) and completion time in seconds (> 0). Comma, semicolon or tab; a header line is optional, and one that names the columns (time,p) may give them in any order.",
        examples: &[
            Example { id: "scale27", label: "Scale 27 — synthetic, from C1 = 57.67, C2 = 3.8, σ = 0.2 s", path: "www/data/graph500-scale27-synthetic.csv" },
            Example { id: "scale28", label: "Scale 28 — synthetic, from C1 = 102.1, C2 = 10.3, σ = 0.44 s", path: "www/data/graph500-scale28-synthetic.csv" },
        ],
        charts: FIT_CHARTS,
    },
    DatasetSpec {
        id: "throttling",
        title: "Throttling runs (p, bandwidth %, time)",
        columns: THROTTLING,
        params: &["cti", "p_base", "p_target"],
        help: "Completion times with the interconnect throttled to a percentage of its bandwidth (0 < bandwidth ≤ 100); every p needs a run at 100%. A header that names the columns may give them in any order.",
        examples: &[Example { id: "throttling", label: "72, 162, 288 processes — synthetic, demand ∝ p^0.26", path: "www/data/graph500-throttling-synthetic.csv" }],
        charts: DEMAND_CHARTS,
    },
];

const NOTES: &[&str] = &[
    "The paper fits eq. (1) to about 1000 runs per scale but publishes no data: the example files are synthetic, generated by scripts/make-examples.py from the reported coefficients with Gaussian noise of the reported mean squared error (σ = √MSE), and say so in their first line.",
    "Confidence intervals are t-based: coefficient ± t(0.975, n − 3) × standard error, with s² = RSS/(n − 3). The mean squared error is RSS/n, as the paper's \"mean square error\".",
    "Fewer than 4 points, or fewer than 3 distinct p, cannot separate C0, C1/p and C2/√p: the fit says so instead of returning numbers.",
    "Bandwidth demand: CTI per eq. (2), BW_{CTI,p} interpolated linearly between the throttling levels around the target CTI, DC averaged over every pair p1 > p2 and every CTI, eq. (3) from p*; the spread uses the smallest and largest pair DC.",
];

const PRESETS: &[Preset] = &[
    Preset {
        id: "scale27",
        label: "Scale 27: C1 = 57.67, C2 = 3.8",
        source: "§3, Figure 3(a)",
        note: "R² = 0.95, MSE 0.04 in the paper; C0 is not reported.",
        values: &[("C0", PresetValue::Num(0.0)), ("C1", PresetValue::Num(57.67)), ("C2", PresetValue::Num(3.8))],
    },
    Preset {
        id: "scale28",
        label: "Scale 28: C1 = 102.1, C2 = 10.3",
        source: "§3, Figure 3(b)",
        note: "R² = 0.97, MSE 0.19 in the paper; C0 is not reported.",
        values: &[("C0", PresetValue::Num(0.0)), ("C1", PresetValue::Num(102.1)), ("C2", PresetValue::Num(10.3))],
    },
];

const PRESET_GROUPS: &[PresetGroup] = &[PresetGroup { label: "The paper's fits", presets: PRESETS }];

pub static SPEC: ModelSpec = ModelSpec {
    calibration_examples: &[
        CalibrationExample { id: "scale27", label: "Scale 27 — synthetic, from C1 = 57.67, C2 = 3.8, σ = 0.2 s", path: "www/data/graph500-scale27-synthetic.csv", fit: &["C0", "C1", "C2"], relative: false },
        CalibrationExample { id: "scale28", label: "Scale 28 — synthetic, from C1 = 102.1, C2 = 10.3, σ = 0.44 s", path: "www/data/graph500-scale28-synthetic.csv", fit: &["C0", "C1", "C2"], relative: false },
    ],
    params: PARAMS,
    outputs: &output_specs::<_, { OUTPUTS.len() }>(OUTPUTS),
    preset_groups: PRESET_GROUPS,
    charts: &chart_specs::<_, { CHARTS.len() }>(CHARTS),
    datasets: DATASETS,
    maps: &[
        MapPreset { id: "share-p-c2", label: "Communication share: p vs C2", output: "comm_fraction", x: "p:1:100000:log", y: "C2:0.1:100:log", levels: &[0.1, 0.5, 0.9], grid: 256, values: &[] },
    ],
    gaps: "the coefficients give no positive time here",
    notes: NOTES,
    short_title: "Scalability",
    ..ModelSpec::new(
        "scaling",
        "Scalability from measurements",
        "Medya, Cherkasova et al. — Towards performance and scalability analysis of distributed memory programs on large-scale clusters",
        "Fit time(p) = C0 + C1/p + C2/√p to runs on a small cluster, find where communication takes over, and predict the interconnect bandwidth a larger cluster will need.",
    )
};

/// Eq. (1) at given coefficients.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coefficients {
    pub c0: f64,
    pub c1: f64,
    pub c2: f64,
}

impl Coefficients {
    pub fn time(&self, p: f64) -> f64 {
        self.c0 + self.c1 / p + self.c2 / p.sqrt()
    }
}

fn num(p: &Params, key: &'static str) -> Result<f64, ModelError> {
    p.require_num(key)
}

fn coefficients(p: &Params) -> Result<Coefficients, ModelError> {
    Ok(Coefficients { c0: num(p, "C0")?, c1: num(p, "C1")?, c2: num(p, "C2")? })
}

/// Processes: a header may call them p, processes, processors, procs, ranks, np, cores or nodes.
const P: Column = Column {
    name: "p",
    aliases: &["processes", "processors", "procs", "ranks", "np", "cores", "nodes"],
    measure: Measure::Count,
};
const TIME: Column = Column {
    name: "time",
    aliases: &["t", "seconds", "secs", "runtime", "elapsed", "wall"],
    measure: Measure::Positive,
};
const BANDWIDTH: Column = Column { name: "bandwidth", aliases: &["bw", "throttle"], measure: Measure::Percent };
const TIMINGS: &[Column] = &[P, TIME];
const THROTTLING: &[Column] = &[P, BANDWIDTH, TIME];

fn points(text: &str) -> Result<Vec<(f64, f64)>, AnalysisError> {
    Ok(csv::read(text, TIMINGS)?
        .into_iter()
        .map(|r| (r.first().copied().unwrap_or(f64::NAN), r.get(1).copied().unwrap_or(f64::NAN)))
        .collect())
}

fn throttling(text: &str) -> Result<Vec<(f64, f64, f64)>, AnalysisError> {
    Ok(csv::read(text, THROTTLING)?
        .into_iter()
        .map(|r| {
            (
                r.first().copied().unwrap_or(f64::NAN),
                r.get(1).copied().unwrap_or(f64::NAN),
                r.get(2).copied().unwrap_or(f64::NAN),
            )
        })
        .collect())
}

/// Fits eq. (1) to CSV text (the CLI's `isoperf fit scaling FILE`).
pub fn fit_text(text: &str) -> Result<fit::Fit, AnalysisError> {
    fit::fit(&points(text)?).map_err(|e| AnalysisError::general(e.to_string()))
}

/// Bandwidth demand from CSV text (the CLI's `isoperf demand FILE`).
pub fn demand_text(text: &str, ctis: &[f64], base_p: f64, target_p: f64) -> Result<demand::Demand, AnalysisError> {
    demand::demand(&throttling(text)?, ctis, base_p, target_p).map_err(|e| AnalysisError::general(e.to_string()))
}

/// The `scaling` model of the registry.
pub struct Scaling;

/// The coefficients and the time they give at p.
pub struct ScalingEvaluation {
    pub c: Coefficients,
    pub p: f64,
    pub saving: f64,
    pub t: f64,
}

impl Model for Scaling {
    type Evaluation = ScalingEvaluation;
    const OUTPUTS: &'static [Output<ScalingEvaluation>] = OUTPUTS;
    const CHARTS: &'static [View<ScalingEvaluation>] = CHARTS;

    fn spec() -> &'static ModelSpec {
        &SPEC
    }

    fn evaluate(p: &Params) -> Result<ScalingEvaluation, ModelError> {
        let c = coefficients(p)?;
        let procs = num(p, "p")?;
        Ok(ScalingEvaluation { c, p: procs, saving: num(p, "saving")?, t: c.time(procs) })
    }

    /// Coefficients that give no positive time have no outputs; the chart
    /// of their terms still shows why.
    fn withheld(e: &ScalingEvaluation) -> Result<(), ModelError> {
        if e.t > 0.0 {
            return Ok(());
        }
        Err(ModelError::param(crate::error::ParamError::constraint(
            "C0",
            format!("these coefficients give a non-positive time ({}) at p = {}", crate::format::sig(e.t, 4), e.p),
            "coefficients with C0 + C1/p + C2/√p > 0".into(),
        )))
    }

    fn remarks(e: &ScalingEvaluation) -> Vec<crate::spec::Remark> {
        let c = e.c;
        match fit::diminishing_returns(c.c0, c.c1, c.c2, e.saving) {
            None => vec![crate::spec::Remark {
                key: Some("p_diminishing"),
                level: crate::spec::Level::Info,
                text: format!(
                    "Doubling p always saves at least {}% here (with C0 ≤ 0 the 1/√p term alone saves 29%): no diminishing returns below that.",
                    crate::format::sig(100.0 * e.saving, 3)
                ),
            }],
            Some(_) => Vec::new(),
        }
    }

    fn analyze(dataset: &str, text: &str, p: &Params) -> Result<Analysis, AnalysisError> {
        match dataset {
            "timings" => {
                let f = fit_text(text)?;
                Ok(Analysis::new(
                    views::fit_tables(&f, &points(text)?),
                    views::suggestion(&f),
                    serde_json::to_value(&f).map_err(|e| AnalysisError::general(e.to_string()))?,
                ))
            }
            "throttling" => {
                let ctis = p.list("cti").unwrap_or(&[]).to_vec();
                let d = demand_text(text, &ctis, num(p, "p_base")?, num(p, "p_target")?)?;
                Ok(Analysis::new(
                    views::demand_tables(&d),
                    Vec::new(),
                    serde_json::to_value(&d).map_err(|e| AnalysisError::general(e.to_string()))?,
                ))
            }
            other => {
                Err(AnalysisError::general(format!("scaling has no data set '{other}'; known: timings, throttling")))
            }
        }
    }

    fn analysis_chart(dataset: &str, text: &str, p: &Params, chart: &str) -> Result<Chart, AnalysisError> {
        match dataset {
            "timings" => views::fit_chart(chart, &points(text)?, &fit_text(text)?),
            "throttling" => {
                let ctis = p.list("cti").unwrap_or(&[]).to_vec();
                views::demand_chart(chart, &demand_text(text, &ctis, num(p, "p_base")?, num(p, "p_target")?)?)
            }
            other => Err(AnalysisError::general(format!("scaling has no data set '{other}'"))),
        }
    }
}
