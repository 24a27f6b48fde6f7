//! Parallel matrix multiplication on a √N × √N mesh: Dryad, MS-MPI and
//! Fox's algorithm (Li, Fox, Qiu, `papers/pmm-dryad-mpi.md`).
//!
//! Each of the √N iterations broadcasts an m × m block of A along a mesh
//! row, rolls a block of B, and multiplies, with m = M/√N:
//!
//! | implementation | broadcast (per iteration) | roll | source |
//! |---|---|---|---|
//! | Dryad (flat tree) | (√N−1)/2 · (T_startup + m²(T_comm+T_io)) | T_startup + m²(T_comm+T_io) | eq. (1), (2) |
//! | MS-MPI (binomial) | (√N−1)/2 · T_startup + ⌈log₂√N⌉/2 · m² T_comm | T_startup + m² T_comm / 2 | eq. (8), (9) |
//! | Fox (pipeline) | T_startup + m² T_comm | T_startup + m² T_comm | Table 2 |
//!
//! plus 2m³ T_flops of computation (eq. 3) and, for Dryad and MS-MPI,
//! (N+1)/2 · T_scheduling of task scheduling per iteration (eq. 4, 9).
//! T(N) is √N times the per-iteration sum; with `t_startup = 0` it is eq. (5)
//! for Dryad and eq. (9) for MS-MPI exactly.
//!
//! Efficiency is eq. (6) taken as the exact ratio T_seq / (N T(N)) with the
//! sequential time T_seq = 2 M³ T_flops (the paper's sequential MKL run), so
//! that the overhead f = 1/ε − 1 equals eq. (7) and eq. (10) exactly when
//! scheduling and start-up are zero.
//!
//! ```
//! use isoperf::models::pmm::{predict, Implementation, Inputs, Rates};
//! // Table 3, row "Dryad Tempest 25x1": 8.64e9 flop/s, 8.87e6 elements/s.
//! let i = Inputs::new(Implementation::Dryad, 25, 16000.0, Rates::measured(8.64e9, 8.87e6)).unwrap();
//! let p = predict(&i);
//! assert_eq!(format!("{:.3e}", p.coef_m2), "6.764e-8");
//! assert_eq!(format!("{:.3e}", p.coef_m3), "9.259e-12");
//! ```

use crate::chart::Chart;
use crate::error::{ModelError, ParamError};
use crate::model::{chart_specs, output_specs, Evaluated, Model, Output, View};
use crate::spec::{
    AppliesWhen, CalibrationExample, ChoiceOption, MapPreset, ModelSpec, ParamKind, ParamSpec, Params, Range, Scale,
};
use crate::table::Table;

pub mod reference;
mod views;

pub use reference::{TABLE3, TABLE3_RTOL};

/// The three implementations the paper compares (Table 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implementation {
    /// DryadLINQ: flat-tree broadcast through file pipes (eq. 1-5).
    Dryad,
    /// MS-MPI: binomial-tree broadcast (eq. 8-10).
    MsMpi,
    /// Fox, Hey, Otto 1987: pipelined broadcast (Table 2).
    Fox,
}

impl Implementation {
    pub const ALL: [Implementation; 3] = [Implementation::Dryad, Implementation::MsMpi, Implementation::Fox];

    pub fn key(self) -> &'static str {
        match self {
            Implementation::Dryad => "dryad",
            Implementation::MsMpi => "msmpi",
            Implementation::Fox => "fox",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Implementation::Dryad => "Dryad",
            Implementation::MsMpi => "MS-MPI",
            Implementation::Fox => "Fox",
        }
    }

    pub fn from_key(key: &str) -> Option<Implementation> {
        Implementation::ALL.into_iter().find(|i| i.key() == key)
    }
}

/// ⌈log₂ n⌉ for n ≥ 1: the rounds of a binomial broadcast over n processes.
pub fn ceil_log2(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

pub const MAX_PROCESSES: f64 = 1_000_000.0;
pub const MAX_ORDER: f64 = 10_000_000.0;

/// The machine and runtime: per-item times of the Hockney model and the
/// runtime's per-message and per-task overheads, all in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// Per floating-point operation.
    pub t_flops: f64,
    /// Per matrix element sent.
    pub t_comm: f64,
    /// Per element through Dryad's file pipe, on top of `t_comm`.
    pub t_io: f64,
    /// Per message.
    pub t_startup: f64,
    /// Per scheduled task.
    pub t_scheduling: f64,
}

impl Rates {
    /// Table 3's form: a flop rate and an element rate, nothing else.
    pub fn measured(flop_rate: f64, element_rate: f64) -> Rates {
        Rates { t_flops: 1.0 / flop_rate, t_comm: 1.0 / element_rate, t_io: 0.0, t_startup: 0.0, t_scheduling: 0.0 }
    }
}

/// Valid inputs of the PMM model: N a perfect square, M ≥ √N, every time
/// inside its parameter's range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inputs {
    implementation: Implementation,
    n: u64,
    sqrt_n: u64,
    order: f64,
    rates: Rates,
}

impl Inputs {
    /// # Errors
    /// A [`ParamError`] naming the first parameter out of its range, or N
    /// that is not a perfect square (with the nearest squares), or M < √N.
    pub fn new(implementation: Implementation, n: u64, order: f64, rates: Rates) -> Result<Inputs, ParamError> {
        let spec = &SPEC;
        let raw = [
            ("N", n as f64),
            ("M", order),
            ("t_flops", rates.t_flops),
            ("t_comm", rates.t_comm),
            ("t_io", rates.t_io),
            ("t_startup", rates.t_startup),
            ("t_scheduling", rates.t_scheduling),
        ];
        for (key, x) in raw {
            if let Some(p) = spec.param(key) {
                p.parse(&crate::spec::RawValue::Num(x))?;
            }
        }
        let sqrt_n = (n as f64).sqrt().round() as u64;
        if sqrt_n * sqrt_n != n {
            let lo = (n as f64).sqrt().floor() as u64;
            let hi = lo + 1;
            return Err(ParamError::constraint(
                "N",
                format!(
                    "{n} is not a perfect square (the processes form a √N × √N mesh); the nearest squares are {} and {}",
                    lo * lo,
                    hi * hi
                ),
                format!("a perfect square from 1 to {}", crate::spec::num(MAX_PROCESSES)),
            ));
        }
        if order < sqrt_n as f64 {
            return Err(ParamError::constraint(
                "M",
                format!("{order} is smaller than √N = {sqrt_n}, so some processes would hold no block"),
                format!("an integer from √N = {sqrt_n} to {}", crate::spec::num(MAX_ORDER)),
            ));
        }
        Ok(Inputs { implementation, n, sqrt_n, order, rates })
    }

    /// Validates the parameters (N a perfect square, M ≥ √N).
    pub fn from_params(p: &Params) -> Result<Inputs, ModelError> {
        let num = |key: &'static str| p.require_num(key);
        let chosen = p.require_choice("impl")?;
        let implementation = Implementation::from_key(chosen).ok_or_else(|| ModelError::Unknown {
            what: "implementation",
            name: chosen.into(),
            known: Implementation::ALL.iter().map(|i| i.key().to_string()).collect(),
        })?;
        let rates = Rates {
            t_flops: num("t_flops")?,
            t_comm: num("t_comm")?,
            t_io: num("t_io")?,
            t_startup: num("t_startup")?,
            t_scheduling: num("t_scheduling")?,
        };
        Ok(Inputs::new(implementation, num("N")? as u64, num("M")?, rates)?)
    }

    /// The same inputs for another implementation or mesh (charts, Table 2).
    /// Returns `None` where the new N is not valid for this M.
    pub fn with(&self, implementation: Implementation, n: u64) -> Option<Inputs> {
        Inputs::new(implementation, n, self.order, self.rates).ok()
    }

    pub fn implementation(&self) -> Implementation {
        self.implementation
    }
    pub fn n(&self) -> u64 {
        self.n
    }
    pub fn sqrt_n(&self) -> u64 {
        self.sqrt_n
    }
    pub fn order(&self) -> f64 {
        self.order
    }
    pub fn rates(&self) -> &Rates {
        &self.rates
    }

    /// Time to move one element: Dryad adds the file-pipe time T_io.
    pub fn t_element(&self) -> f64 {
        match self.implementation {
            Implementation::Dryad => self.rates.t_comm + self.rates.t_io,
            Implementation::MsMpi | Implementation::Fox => self.rates.t_comm,
        }
    }

    /// The slope of f against its convergence term (Figure 4):
    /// (T_comm + T_io)/T_flops for Dryad, T_comm/T_flops otherwise.
    pub fn overhead_slope(&self) -> f64 {
        self.t_element() / self.rates.t_flops
    }

    /// Table 2's convergence rate of the parallel overhead:
    /// f = rate × overhead_slope when scheduling and start-up are zero.
    pub fn convergence_term(&self) -> f64 {
        let q = self.sqrt_n as f64;
        let m = self.order;
        match self.implementation {
            Implementation::Dryad => q * (q + 1.0) / (4.0 * m),
            Implementation::MsMpi => q * (1.0 + f64::from(ceil_log2(self.sqrt_n))) / (4.0 * m),
            Implementation::Fox => q / m,
        }
    }
}

/// The prediction for one set of inputs. Per-iteration terms are for one of
/// the √N broadcast-multiply-roll iterations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    pub t: f64,
    pub t_seq: f64,
    pub speedup: f64,
    pub efficiency: f64,
    pub overhead: f64,
    pub coef_m2: f64,
    pub coef_m3: f64,
    pub t_sched: f64,
    pub t_bcast: f64,
    pub t_roll: f64,
    pub t_compute: f64,
}

/// Evaluates the model (see the module documentation for the formulas).
pub fn predict(i: &Inputs) -> Prediction {
    predict_at(i.implementation, i.n as f64, i.sqrt_n as f64, f64::from(ceil_log2(i.sqrt_n)), i.order, &i.rates)
}

/// The formulas at a real process count n (iso-maps sample N continuously);
/// `rounds` is the binomial tree's ⌈log₂ √N⌉.
fn predict_at(implementation: Implementation, n: f64, q: f64, rounds: f64, order: f64, r: &Rates) -> Prediction {
    let m = order / q;
    let block = m * m;
    let c = match implementation {
        Implementation::Dryad => r.t_comm + r.t_io,
        Implementation::MsMpi | Implementation::Fox => r.t_comm,
    };
    let (t_sched, t_bcast, t_roll, coef_m2) = match implementation {
        Implementation::Dryad => (
            (n + 1.0) / 2.0 * r.t_scheduling,
            (q - 1.0) / 2.0 * (r.t_startup + block * c),
            r.t_startup + block * c,
            (q + 1.0) / (2.0 * q) * c,
        ),
        Implementation::MsMpi => (
            (n + 1.0) / 2.0 * r.t_scheduling,
            (q - 1.0) / 2.0 * r.t_startup + rounds / 2.0 * block * c,
            r.t_startup + block * c / 2.0,
            (1.0 + rounds) / (2.0 * q) * c,
        ),
        Implementation::Fox => (0.0, r.t_startup + block * c, r.t_startup + block * c, 2.0 / q * c),
    };
    let t_compute = 2.0 * m * m * m * r.t_flops;
    let t = q * (t_sched + t_bcast + t_roll + t_compute);
    let t_seq = 2.0 * order * order * order * r.t_flops;
    // N T(N) - T_seq is exactly N √N (scheduling + broadcast + roll), since
    // √N · 2m³ T_flops = T_seq / N. Summing the non-negative terms instead of
    // subtracting keeps f ≥ 0 and accurate when it is tiny.
    let overhead = n * q * (t_sched + t_bcast + t_roll) / t_seq;
    let efficiency = 1.0 / (1.0 + overhead);
    Prediction {
        t,
        t_seq,
        speedup: n * efficiency,
        efficiency,
        overhead,
        coef_m2,
        coef_m3: 2.0 / n * r.t_flops,
        t_sched,
        t_bcast,
        t_roll,
        t_compute,
    }
}

const IMPLEMENTATIONS: &[ChoiceOption] = &[
    ChoiceOption::new("dryad", "Dryad (flat tree)"),
    ChoiceOption::new("msmpi", "MS-MPI (binomial tree)"),
    ChoiceOption::new("fox", "Fox 1987 (pipeline)"),
];

const fn per_item(default: f64, range: Range, rate_unit: &'static str) -> ParamKind {
    ParamKind::Number { default, range, scale: Scale::Log, integer: false, reciprocal_unit: Some(rate_unit) }
}

/// The defaults are Table 3, row "Dryad Tempest 25x1".
const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "impl",
        label: "Implementation",
        unit: "",
        kind: ParamKind::Choice { default: "dryad", options: IMPLEMENTATIONS },
        help: "Which broadcast the row groups use: Dryad's flat tree, MS-MPI's binomial tree, or Fox's pipeline.",
        reference: "Table 2",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "N",
        label: "Processes N",
        unit: "",
        kind: ParamKind::number(25.0, Range::closed(1.0, MAX_PROCESSES), Scale::Log, true),
        help: "Number of processes; a perfect square, arranged as a √N × √N mesh.",
        reference: "§4",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "M",
        label: "Matrix order M",
        unit: "",
        kind: ParamKind::number(16000.0, Range::closed(1.0, MAX_ORDER), Scale::Log, true),
        help: "The matrices are M × M; each process holds m × m blocks with m = M/√N.",
        reference: "§4",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "t_flops",
        label: "T_flops",
        unit: "s/flop",
        kind: per_item(1.0 / 8.64e9, Range::closed(1e-18, 1.0), "flop/s"),
        help: "Time per floating-point operation of the block multiply (eq. 3).",
        reference: "eq. (3), Table 3",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "t_comm",
        label: "T_comm",
        unit: "s/element",
        kind: per_item(1.0 / 8.87e6, Range::closed(1e-18, 1.0), "elements/s"),
        help: "Time to send one matrix element (8 bytes) between two processes (Hockney model). Table 3 gives Dryad's T_io + T_comm as one rate.",
        reference: "eq. (1), (8), Table 3",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "t_io",
        label: "T_io",
        unit: "s/element",
        kind: ParamKind::number(0.0, Range::closed(0.0, 1.0), Scale::Log, false),
        help: "Extra time per element through Dryad's file pipe (≈40% of Dryad's point-to-point cost, §4). Zero when T_comm already holds T_io + T_comm.",
        reference: "eq. (1)",
        applies_when: Some(AppliesWhen { key: "impl", values: &["dryad"] }),
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "t_startup",
        label: "T_startup",
        unit: "s/message",
        kind: ParamKind::number(0.0, Range::closed(0.0, 100.0), Scale::Log, false),
        help: "Start-up (latency) time per message. Eq. (5) and (9) drop it; non-zero values add (√N+1)/2 · T_startup per iteration.",
        reference: "eq. (1), (2), (8)",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "t_scheduling",
        label: "T_scheduling",
        unit: "s/task",
        kind: ParamKind::number(0.0, Range::closed(0.0, 100.0), Scale::Log, false),
        help: "Time to schedule one task; each iteration pays (N+1)/2 of them on average (eq. 4, 9). Fox's algorithm has no scheduler.",
        reference: "eq. (4), (9)",
        applies_when: Some(AppliesWhen { key: "impl", values: &["dryad", "msmpi"] }),
        fallback: None,
        unit_from: None,
    },
];

const OUTPUTS: &[Output<PmmEvaluation>] = &[
    Output::num(
        "T",
        "Job turnaround time T(N)",
        "s",
        "eq. (5) Dryad, eq. (9) MS-MPI, Table 2 Fox; plus start-up terms when T_startup > 0",
        |e| e.result.t,
    ),
    Output::num("T_seq", "Sequential time T_seq", "s", "2 M³ T_flops: one process, no communication", |e| {
        e.result.t_seq
    }),
    Output::num("speedup", "Speedup", "", "T_seq / T(N)", |e| e.result.speedup),
    Output::num("efficiency", "Parallel efficiency ε", "", "eq. (6): T_seq / (N · T(N))", |e| e.result.efficiency),
    Output::num("overhead", "Parallel overhead f", "", "eq. (7), (10): 1/ε − 1", |e| e.result.overhead),
    Output::num(
        "coef_M2",
        "M² coefficient",
        "s",
        "T = coef_M2 · M² + coef_M3 · M³ + terms without M (Table 3's last column)",
        |e| e.result.coef_m2,
    ),
    Output::num("coef_M3", "M³ coefficient", "s", "2 T_flops / N", |e| e.result.coef_m3),
    Output::num("t_bcast", "Broadcast per iteration", "s", "eq. (1) Dryad, eq. (8) MS-MPI", |e| e.result.t_bcast),
    Output::num("t_roll", "Roll per iteration", "s", "eq. (2); MS-MPI follows eq. (9), which counts half of it", |e| {
        e.result.t_roll
    }),
    Output::num("t_compute", "Compute per iteration", "s", "eq. (3): 2 m³ T_flops", |e| e.result.t_compute),
    Output::num("t_sched", "Scheduling per iteration", "s", "(N+1)/2 · T_scheduling (eq. 4, 9)", |e| e.result.t_sched),
];

const CHARTS: &[View<PmmEvaluation>] = &[
    View::new("time", "T(N) for the three implementations", "Turnaround time over N = 1, 4, 9, … at the current M and rates; the ring marks the current N.", draw),
    View::new("efficiency", "Efficiency vs N", "Parallel efficiency ε = T_seq / (N T(N)) for the three implementations.", draw),
    View::new("overhead", "Figure 4: overhead f vs its convergence term", "Dots: f over N = 4, 9, …; dashed: the line of slope (T_comm+T_io)/T_flops (Dryad) and T_comm/T_flops (MS-MPI) that eq. (7) and (10) predict. Dots leave the line when T_startup or T_scheduling is non-zero.", draw),
];

fn draw(e: &PmmEvaluation, id: &str) -> Result<Chart, ModelError> {
    views::chart(id, &e.inputs)
}

const NOTES: &[&str] = &[
    "MS-MPI's binomial broadcast over √N processes takes ⌈log₂ √N⌉ rounds; Table 3 is reproduced only with the ceiling (for N = 25 the M² factor is (1+3)/10 = 0.4, not (1+log₂ 5)/10).",
    "Eq. (8) plus the roll of eq. (2) would give (2 + log₂ √N)/2 · m² T_comm per iteration, but eq. (9) prints (1 + log₂ √N)/2. isoperf follows eq. (9), which amounts to half a roll per iteration (shown as t_roll).",
    "Efficiency is eq. (6) as the exact ratio T_seq / (N · T(N)) with T_seq = 2 M³ T_flops, the sequential MKL time of §5; so the overhead f equals eq. (7) and (10) exactly when T_startup and T_scheduling are zero.",
    "Fox's algorithm (1987) broadcasts by a pipeline: Table 2 gives a broadcast cost of M² T_comm and a convergence rate √N/M, i.e. T(N) = 2 M²/√N · T_comm + 2 M³/N · T_flops.",
    "Table 1 prints ping-pong latencies in ms (116.3 ms on 1 Gbps Ethernet); §3.1 measures a whole MS-MPI zero-byte broadcast at 0.46–0.61 ms, so µs is the likelier unit. The platform presets keep the printed ms; edit T_startup to try µs.",
];

pub static SPEC: ModelSpec = ModelSpec {
    calibration_examples: &[CalibrationExample {
        id: "runs",
        label: "Dryad on 1–64 processes — synthetic, from T_flops = 2 × 10⁻¹⁰, T_comm = 5 × 10⁻⁸, 3% noise",
        path: "www/data/pmm-runs-synthetic.csv",
        fit: &["t_flops", "t_comm"],
        relative: true,
    }],
    params: PARAMS,
    outputs: &output_specs::<_, { OUTPUTS.len() }>(OUTPUTS),
    preset_groups: reference::PRESET_GROUPS,
    charts: &chart_specs::<_, { CHARTS.len() }>(CHARTS),
    maps: &[
        MapPreset { id: "isoefficiency-n-m", label: "Isoefficiency: N vs M (the classical isoefficiency function)", output: "efficiency", x: "N:4:10000:log", y: "M:100:1000000:log", levels: &[0.5, 0.8, 0.9, 0.95], grid: 256, values: &[] },
        MapPreset { id: "speedup-n-m", label: "Speedup: N vs M", output: "speedup", x: "N:4:10000:log", y: "M:100:1000000:log", levels: &[10.0, 100.0, 1000.0], grid: 256, values: &[] },
    ],
    gaps: "M < √N: some processes would hold no block",
    notes: NOTES,
    short_title: "Matrix multiplication",
    ..ModelSpec::new(
        "pmm",
        "Parallel matrix multiplication",
        "Li, Fox, Qiu — Performance model for parallel matrix multiplication with Dryad: dataflow graph runtime",
        "Broadcast-multiply-roll on a √N × √N mesh: Dryad's flat-tree broadcast, MS-MPI's binomial tree, and Fox's pipeline.",
    )
};

/// The `pmm` model of the registry.
pub struct Pmm;

/// The inputs and the prediction.
pub type PmmEvaluation = Evaluated<Inputs, Prediction>;

impl Model for Pmm {
    type Evaluation = PmmEvaluation;
    const OUTPUTS: &'static [Output<PmmEvaluation>] = OUTPUTS;
    const CHARTS: &'static [View<PmmEvaluation>] = CHARTS;

    fn spec() -> &'static ModelSpec {
        &SPEC
    }

    fn evaluate(p: &Params) -> Result<PmmEvaluation, ModelError> {
        let inputs = Inputs::from_params(p)?;
        let result = predict(&inputs);
        Ok(Evaluated { inputs, result })
    }

    fn tables(e: &PmmEvaluation) -> Vec<Table> {
        vec![views::broadcast_table(&e.inputs), reference::reproduction_table()]
    }

    /// Any output over any two of N, M and the times, with N continuous
    /// (the mesh side √N real, ⌈log₂ √N⌉ rounds): the isoefficiency
    /// function of N and M is a smooth curve, not a staircase of squares.
    fn field(output: &str, p: &Params, x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> bool {
        let keys = ["N", "M", "t_flops", "t_comm", "t_io", "t_startup", "t_scheduling"];
        let Some(implementation) = p.choice("impl").and_then(Implementation::from_key) else { return false };
        if !keys.contains(&x.0) || !keys.contains(&y.0) {
            return false;
        }
        let base: [f64; 7] = keys.map(|k| p.num(k).unwrap_or(f64::NAN));
        let slot = |key: &str| keys.iter().position(|k| *k == key).unwrap_or(0);
        let (sx, sy) = (slot(x.0), slot(y.0));
        let nx = x.1.len();
        for (j, &yv) in y.1.iter().enumerate() {
            for (i, &xv) in x.1.iter().enumerate() {
                let mut v = base;
                for (slot, value) in [(sx, xv), (sy, yv)] {
                    if let Some(s) = v.get_mut(slot) {
                        *s = value;
                    }
                }
                let [n, order, t_flops, t_comm, t_io, t_startup, t_scheduling] = v;
                let q = n.sqrt();
                let value = if order < q {
                    f64::NAN
                } else {
                    let rates = Rates { t_flops, t_comm, t_io, t_startup, t_scheduling };
                    let r = predict_at(implementation, n, q, q.log2().ceil().max(0.0), order, &rates);
                    match output {
                        "T" => r.t,
                        "T_seq" => r.t_seq,
                        "speedup" => r.speedup,
                        "efficiency" => r.efficiency,
                        "overhead" => r.overhead,
                        "coef_M2" => r.coef_m2,
                        "coef_M3" => r.coef_m3,
                        "t_bcast" => r.t_bcast,
                        "t_roll" => r.t_roll,
                        "t_compute" => r.t_compute,
                        "t_sched" => r.t_sched,
                        _ => return false,
                    }
                };
                if let Some(o) = out.get_mut(j * nx + i) {
                    *o = if value.is_finite() { value } else { f64::NAN };
                }
            }
        }
        true
    }
}
