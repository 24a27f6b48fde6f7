//! A parallel-pipeline reduction with an M/M/1 model of the Myrinet switch
//! path (Kuntraruk, Pottenger, Ross, `papers/parallel-pipeline.md`).
//!
//! P processors (a power of two) run a pipelined binary reduction of
//! 2 lg P + 1 stages; `groups` such pipelines share the N tasks evenly.
//! With n = N / groups tasks per pipeline and s = (n − P)/(P/2) steps,
//! eq. (6):
//!
//! T_total = (s + 1) T_comp + s T_comm [+ lg P (T_merge + T_comm) to drain],
//!
//! where each step's message crosses three M/M/1 queues, eq. (7)-(11):
//! leaf, spine, leaf, each with service time 8L/C, arrival rate
//! fan-in / T_comp, ρ = λ · 8L/C and response time D = (8L/C)/(1 − ρ) + τ.
//!
//! ```
//! use isoperf::models::pipeline::{hops, Switch};
//! // Eq. (12): L = 23720 B over C = 1.28 Gbit/s with T_comp = 0.15 s.
//! let h = hops(23720.0, 1.28e9, 0.15, &Switch::MYRINET);
//! let t_comm: f64 = h.iter().map(|h| h.response.unwrap()).sum();
//! assert!((62.0 * t_comm - 0.028).abs() < 0.0005); // not the printed 0.16 s
//! ```

use crate::chart::Chart;
use crate::error::{ModelError, ParamError};
use crate::format::{base, beside, over_percent, plural, sig};
use crate::spec::{
    AppliesWhen, ChoiceOption, Level, MapPreset, ModelSpec, ParamKind, ParamSpec, Params, Preset, PresetGroup,
    PresetValue, Range, Remark, Scale, BYTE_UNITS,
};
use crate::table::Table;

use crate::model::{chart_specs, output_specs, Model, Output, Read, View};

mod views;

/// The reproduction tables, for the tests.
pub mod views_for_tests {
    pub use super::views::{features_table, sorting_table};
}

/// Fan-ins and latency of the two-level switch (Figure 3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Switch {
    /// Hosts per leaf switch: messages arriving at a leaf, both ways.
    pub leaf_fanin: f64,
    /// Leaf links per spine switch.
    pub spine_fanin: f64,
    /// Propagation delay per hop, s (eq. 7's τ).
    pub tau: f64,
}

impl Switch {
    /// The paper's 16-port Myrinet: 8 hosts per leaf, 16 leaves per spine, τ = 0.
    pub const MYRINET: Switch = Switch { leaf_fanin: 8.0, spine_fanin: 16.0, tau: 0.0 };
}

/// One M/M/1 hop of the path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hop {
    pub name: &'static str,
    pub fanin: f64,
    /// λ, messages per second.
    pub arrival_rate: f64,
    /// 8L/C, s.
    pub service: f64,
    /// ρ = λ · service.
    pub rho: f64,
    /// Mean waiting time in the queue, ρ/(1 − ρ) · service; `None` when ρ ≥ 1.
    pub wait: Option<f64>,
    /// Mean response time D(L) of eq. (7); `None` when ρ ≥ 1 (unstable).
    pub response: Option<f64>,
}

/// The three hops of eq. (8)-(10) for a message of `l_bytes` over a channel
/// of `c_bps` bit/s, with one message per `t_comp` from each fan-in link.
pub fn hops(l_bytes: f64, c_bps: f64, t_comp: f64, switch: &Switch) -> [Hop; 3] {
    let service = 8.0 * l_bytes / c_bps;
    let hop = |name, fanin: f64| {
        let arrival_rate = fanin / t_comp;
        let rho = arrival_rate * service;
        let stable = rho < 1.0;
        Hop {
            name,
            fanin,
            arrival_rate,
            service,
            rho,
            wait: stable.then(|| rho / (1.0 - rho) * service),
            response: stable.then(|| service / (1.0 - rho) + switch.tau),
        }
    };
    [hop("leaf (up)", switch.leaf_fanin), hop("spine", switch.spine_fanin), hop("leaf (down)", switch.leaf_fanin)]
}

/// How the per-step communication time is obtained.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Communication {
    /// Eq. (7)-(11).
    Queueing,
    /// A per-step time given directly (to reproduce the printed 0.16 s / 62).
    Fixed(f64),
}

/// Valid inputs: P a power of two ≥ 2, groups dividing N, N/groups ≥ P.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inputs {
    n: f64,
    p: f64,
    groups: f64,
    t_comp: f64,
    t_merge: f64,
    l_bytes: f64,
    c_bps: f64,
    switch: Switch,
    drain: bool,
    communication: Communication,
}

/// What eq. (1)-(6) and (11) give.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    pub hops: [Hop; 3],
    /// Per step; `None` when a hop is saturated under the queueing model.
    pub t_comm: Option<f64>,
    pub t_total: Option<f64>,
    pub t_seq: f64,
    pub steps: f64,
    pub s_par: f64,
    pub speedup_bound: f64,
}

/// The divisors of n nearest to g from below and above, by trial division
/// up to √n (n ≤ 1e9: at most 31,623 steps).
fn nearest_divisors(n: u64, g: u64) -> (u64, u64) {
    let (mut lower, mut higher) = (1, n);
    let mut d = 1;
    while d * d <= n {
        if n % d == 0 {
            for x in [d, n / d] {
                if x <= g {
                    lower = lower.max(x);
                }
                if x >= g {
                    higher = higher.min(x);
                }
            }
        }
        d += 1;
    }
    (lower, higher)
}

/// Base units per unit chosen in `unit_key` (bytes per MiB, bit/s per Gibit/s).
fn unit_factor(p: &Params, unit_key: &'static str) -> Result<f64, ModelError> {
    SPEC.unit_factor(p, unit_key)
}

fn lg(p: f64) -> f64 {
    p.log2()
}

impl Inputs {
    /// Tasks per pipeline.
    pub fn per_pipeline(&self) -> f64 {
        self.n / self.groups
    }

    /// The largest message (bytes) every hop can carry without saturating.
    pub fn max_message(&self) -> f64 {
        self.t_comp * self.c_bps / (8.0 * self.switch.leaf_fanin.max(self.switch.spine_fanin))
    }

    pub fn predict(&self) -> Prediction {
        let hops = hops(self.l_bytes, self.c_bps, self.t_comp, &self.switch);
        let t_comm = match self.communication {
            Communication::Fixed(t) => Some(t),
            Communication::Queueing => hops.iter().map(|h| h.response).sum(),
        };
        let (p, lg_p) = (self.p, lg(self.p));
        let steps = (self.per_pipeline() - p) / (p / 2.0);
        let drain = if self.drain { lg_p } else { 0.0 };
        let t_total = t_comm.map(|c| (steps + 1.0) * self.t_comp + steps * c + drain * (self.t_merge + c));
        Prediction {
            hops,
            t_comm,
            t_total,
            t_seq: self.n * self.t_comp + (self.n - 1.0) * self.t_merge,
            steps,
            s_par: p / (2.0 * lg_p + 1.0),
            speedup_bound: self.groups * p * 2.0 * lg_p / (2.0 * lg_p + 1.0),
        }
    }

    /// Validates the parameters and converts L and C to bytes and bit/s.
    pub fn new(p: &Params) -> Result<Inputs, ModelError> {
        let num = |key: &'static str| p.require_num(key);
        let factor = |unit_key: &'static str| unit_factor(p, unit_key);
        let (n, procs, groups) = (num("N")?, num("P")?, num("groups")?);
        if procs.log2().fract() != 0.0 {
            let below = 2f64.powf(procs.log2().floor());
            return Err(ParamError::constraint(
                "P",
                format!(
                    "{procs} is not a power of two (the reduction is a binary tree); the nearest are {below} and {}",
                    2.0 * below
                ),
                "a power of two from 2 to 4096".into(),
            )
            .into());
        }
        if n % groups != 0.0 {
            let (lower, higher) = nearest_divisors(n as u64, groups as u64);
            return Err(ParamError::constraint(
                "groups",
                if lower == higher {
                    format!("{groups} groups cannot share N = {n} tasks evenly; the nearest divisor of N is {lower}")
                } else {
                    format!("{groups} groups cannot share N = {n} tasks evenly; the nearest divisors of N are {lower} and {higher}")
                },
                "a divisor of N".into(),
            )
            .into());
        }
        if n / groups < procs {
            return Err(ParamError::constraint(
                "N",
                format!(
                    "{} give each of the {} {}, fewer than its P = {}",
                    plural(n, "task", "tasks"),
                    plural(groups, "pipeline", "pipelines"),
                    plural(n / groups, "task", "tasks"),
                    plural(procs, "processor", "processors"),
                ),
                format!("at least P × groups = {} tasks", procs * groups),
            )
            .into());
        }
        let communication = match p.choice("comm") {
            Some("fixed") => Communication::Fixed(num("t_comm_fixed")?),
            _ => Communication::Queueing,
        };
        Ok(Inputs {
            n,
            p: procs,
            groups,
            t_comp: num("t_comp")?,
            t_merge: num("t_merge")?,
            l_bytes: num("L")? * factor("L_unit")?,
            c_bps: num("C")? * factor("C_unit")?,
            switch: Switch { leaf_fanin: num("leaf_fanin")?, spine_fanin: num("spine_fanin")?, tau: num("tau")? },
            drain: p.choice("drain") == Some("true"),
            communication,
        })
    }

    /// Whether a hop of `pred` is saturated under the queueing model.
    fn saturates(&self, pred: &Prediction) -> bool {
        self.communication == Communication::Queueing && pred.hops.iter().any(|h| h.rho >= 1.0)
    }

    /// Under the queueing model, a saturated hop has no finite delay: an error
    /// at L saying which hop, by how much, and the largest L that fits.
    fn check_stable(&self, pred: &Prediction, p: &Params) -> Result<(), ParamError> {
        if !self.saturates(pred) {
            return Ok(());
        }
        let Some(worst) = pred.hops.iter().filter(|h| h.rho >= 1.0).max_by(|a, b| a.rho.total_cmp(&b.rho)) else {
            return Ok(());
        };
        let unit = p.choice("L_unit").unwrap_or("B");
        let per_unit = self.l_bytes / p.num("L").unwrap_or(1.0);
        Err(ParamError::constraint(
            "L",
            format!(
                "saturates the {} hop: ρ = {} ≥ 1 ({} over capacity), so its M/M/1 queue grows without bound",
                worst.name,
                beside(worst.rho, 1.0, 4),
                over_percent(worst.rho)
            ),
            if self.max_message() >= 1.0 {
                // The size in bytes too, unless the unit is bytes already.
                let in_bytes = if unit == "B" { String::new() } else { format!(" ({} B)", base(self.max_message())) };
                format!(
                    "L < {} {unit}{in_bytes} for T_comp = {} s and C = {} bit/s, or a larger C or T_comp",
                    sig(self.max_message() / per_unit, 4),
                    sig(self.t_comp, 4),
                    sig(self.c_bps, 4)
                )
            } else {
                // Below one byte no message fits: say what to change instead.
                format!(
                    "a larger C or T_comp: at T_comp = {} s and C = {} bit/s even a 1-byte message saturates the switch",
                    sig(self.t_comp, 4),
                    sig(self.c_bps, 4)
                )
            },
        ))
    }
}

const RATE_UNITS: &[ChoiceOption] = &[
    ChoiceOption::unit("bit/s", 1.0),
    ChoiceOption::unit("kbit/s", 1e3),
    ChoiceOption::unit("Kibit/s", 1024.0),
    ChoiceOption::unit("Mbit/s", 1e6),
    ChoiceOption::unit("Mibit/s", 1_048_576.0),
    ChoiceOption::unit("Gbit/s", 1e9),
    ChoiceOption::unit("Gibit/s", 1_073_741_824.0),
];

const COMMUNICATION: &[ChoiceOption] =
    &[ChoiceOption::new("mm1", "M/M/1 switch path, eq. (7)-(11)"), ChoiceOption::new("fixed", "A fixed time per step")];

const DRAIN: &[ChoiceOption] = &[
    ChoiceOption::new("false", "Leave out (as the paper's examples)"),
    ChoiceOption::new("true", "Include the lg P drain steps"),
];

const FIXED: Option<AppliesWhen> = Some(AppliesWhen { key: "comm", values: &["fixed"] });

/// Defaults: feature extraction on one 16-processor pipeline (Table I, eq. 12).
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("N", "Tasks N", "", ParamKind::number(4096.0, Range::closed(2.0, 1e9), Scale::Log, true), "Input items (documents, arrays); the groups share them evenly.", "eq. (1), (6)"),
    ParamSpec::new("P", "Processors per pipeline P", "", ParamKind::number(16.0, Range::closed(2.0, 4096.0), Scale::Log, true), "A power of two: the reduction is a binary tree of lg P merge levels.", "§III, eq. (3)"),
    ParamSpec::new("groups", "Pipelines (groups)", "", ParamKind::number(1.0, Range::closed(1.0, 1e6), Scale::Log, true), "Independent pipelines of P processors each, N/groups tasks each; P × groups processors in all.", "§VI-B, Tables II-IV"),
    ParamSpec::new("t_comp", "T_comp", "s", ParamKind::number(0.15, Range::closed(1e-9, 1e6), Scale::Log, false), "Time of one application task (feature extraction: 0.15 s, quicksort of 10⁶ integers: 1.39 s).", "§VI-B, §VII-D"),
    ParamSpec {
        fallback: Some("t_comp"),
        ..ParamSpec::new("t_merge", "T_merge", "s", ParamKind::number(0.15, Range::closed(0.0, 1e6), Scale::Log, false), "Time of one merge; empty means T_comp, as Section IV bounds it.", "eq. (1), (6)")
    },
    ParamSpec {
        unit_from: Some("L_unit"),
        ..ParamSpec::new("L", "Message size L", "B", ParamKind::number(23720.0, Range::closed(1e-3, 1e15), Scale::Log, false), "Mean message size per step (exponentially distributed, §IV-A).", "eq. (7)-(10)")
    },
    ParamSpec::new("L_unit", "unit of L", "", ParamKind::Choice { default: "B", options: BYTE_UNITS }, "kB = 1000 B, KiB = 1024 B: chosen explicitly, never guessed.", "§VII-D"),
    ParamSpec {
        unit_from: Some("C_unit"),
        ..ParamSpec::new("C", "Channel capacity C", "bit/s", ParamKind::number(1.28, Range::closed(1e-9, 1e15), Scale::Log, false), "Link rate of the switch path (Myrinet: 1.28 Gbit/s).", "eq. (7)")
    },
    ParamSpec::new("C_unit", "unit of C", "", ParamKind::Choice { default: "Gbit/s", options: RATE_UNITS }, "Gbit/s = 10⁹ bit/s, Gibit/s = 2³⁰ bit/s.", "§VI-B"),
    ParamSpec::new("leaf_fanin", "Leaf fan-in", "", ParamKind::number(8.0, Range::closed(1.0, 1e6), Scale::Log, true), "Links into a leaf switch: hosts going up, spines coming down (8 on the paper's Myrinet).", "eq. (8), (10)"),
    ParamSpec::new("spine_fanin", "Spine fan-in", "", ParamKind::number(16.0, Range::closed(1.0, 1e6), Scale::Log, true), "Leaf links into a spine switch (16).", "eq. (9)"),
    ParamSpec::new("tau", "Propagation delay τ", "s", ParamKind::number(0.0, Range::closed(0.0, 1e3), Scale::Log, false), "Latency added at each hop; the paper sets τ = 0.", "eq. (7)"),
    ParamSpec::new("drain", "Drain terms", "", ParamKind::Choice { default: "false", options: DRAIN }, "Eq. (6) ends with lg P merge and communication steps to drain the pipeline; the paper's examples leave them out.", "eq. (6), notes 6-7"),
    ParamSpec::new("comm", "Communication per step", "", ParamKind::Choice { default: "mm1", options: COMMUNICATION }, "The queueing model, or a fixed per-step time (the printed 0.16 s over 62 steps reproduces Tables I-IV).", "eq. (11), (12)"),
    ParamSpec {
        applies_when: FIXED,
        ..ParamSpec::new("t_comm_fixed", "Fixed T_comm per step", "s", ParamKind::number(0.16 / 62.0, Range::closed(0.0, 1e6), Scale::Log, false), "Used instead of eq. (11) when the communication is fixed.", "eq. (12)")
    },
];

const OUTPUTS: &[Output<PipelineEvaluation>] = &[
    Output::new(
        "T_total",
        "Total time T_total",
        "s",
        "eq. (6) with N/groups tasks per pipeline",
        Read::Maybe(|e| e.prediction.t_total),
    ),
    Output::new(
        "T_comm",
        "Communication per step T_comm",
        "s",
        "eq. (11): D_leaf1 + D_spine + D_leaf2",
        Read::Maybe(|e| e.prediction.t_comm),
    ),
    Output::num("T_seq", "Sequential time T_seq", "s", "eq. (1): N T_comp + (N − 1) T_merge", |e| e.prediction.t_seq),
    Output::new(
        "speedup",
        "Speedup",
        "",
        "T_seq / T_total",
        Read::Maybe(|e| e.prediction.t_total.map(|t| e.prediction.t_seq / t)),
    ),
    Output::num(
        "speedup_bound",
        "Speedup bound",
        "",
        "eq. (5) × groups: P · 2 lg P / (2 lg P + 1) per pipeline",
        |e| e.prediction.speedup_bound,
    ),
    Output::num("S_par", "S_par per pipeline", "", "eq. (4): P / (2 lg P + 1)", |e| e.prediction.s_par),
    Output::num("steps", "Steady-state steps", "", "(N/groups − P) / (P/2)", |e| e.prediction.steps),
    Output::num("processors", "Processors in all", "", "P × groups", |e| e.inputs.p * e.inputs.groups),
    Output::num("service_time", "Service time 8L/C", "s", "per hop, eq. (7)", |e| e.prediction.hops[0].service),
    Output::new("D_leaf1", "D leaf (up)", "s", "eq. (8)", Read::Maybe(|e| e.prediction.hops[0].response)),
    Output::new("D_spine", "D spine", "s", "eq. (9)", Read::Maybe(|e| e.prediction.hops[1].response)),
    Output::new("D_leaf2", "D leaf (down)", "s", "eq. (10)", Read::Maybe(|e| e.prediction.hops[2].response)),
    Output::num("rho_leaf1", "ρ leaf (up)", "", "leaf fan-in · 8L/C / T_comp", |e| e.prediction.hops[0].rho),
    Output::num("rho_spine", "ρ spine", "", "spine fan-in · 8L/C / T_comp", |e| e.prediction.hops[1].rho),
    Output::num("rho_leaf2", "ρ leaf (down)", "", "leaf fan-in · 8L/C / T_comp", |e| e.prediction.hops[2].rho),
    Output::new("W_leaf1", "Wait leaf (up)", "s", "ρ/(1 − ρ) · 8L/C", Read::Maybe(|e| e.prediction.hops[0].wait)),
    Output::new("W_spine", "Wait spine", "s", "ρ/(1 − ρ) · 8L/C", Read::Maybe(|e| e.prediction.hops[1].wait)),
    Output::new("W_leaf2", "Wait leaf (down)", "s", "ρ/(1 − ρ) · 8L/C", Read::Maybe(|e| e.prediction.hops[2].wait)),
    Output::num("L_bytes", "L in bytes", "B", "the message size used", |e| e.inputs.l_bytes),
    Output::num("C_bps", "C in bit/s", "bit/s", "the capacity used", |e| e.inputs.c_bps),
];

const CHARTS: &[View<PipelineEvaluation>] = &[
    View::new("delay", "Delay per hop", "Each hop's response time split into service (8L/C) and queueing wait (and τ); a saturated hop has no bar.", draw),
    View::new("time", "T_total vs P", "Eq. (6) at the current task count for P = 2, 4, 8, … per pipeline (same number of groups).", draw),
    View::new("speedup", "Speedup vs P", "T_seq / T_total against the bound of eq. (5) (× groups), as P doubles.", draw),
    View::new("comm", "Communication vs message size", "T_comm per step against L (log axes): it blows up as the busiest hop's ρ approaches 1; the dashed line marks that L.", draw),
];

fn draw(e: &PipelineEvaluation, id: &str) -> Result<Chart, ModelError> {
    views::chart(id, &e.inputs)
}

const NOTES: &[&str] = &[
    "Eq. (12) prints a communication term of 0.16 s, but L = 23,720 B over C = 1.28 Gbit/s gives 62 × 0.45 ms = 0.028 s (T_total 9.478 s, not 9.61 s). Tables I-IV's predicted times are the formula with the printed 0.16/62 s per step, truncated to whole seconds: choose 'A fixed time per step' to reproduce them.",
    "Eq. (13) and Table XVI (208, 417, 837, 1676 s) are matched within 0.3% only if 8M means 8 × 2²⁰ bytes and 1.28G means 1.28 × 2³⁰ bit/s. The unit menus make that reading explicit: MiB and Gibit/s reproduce the paper, MB and Gbit/s give 209 s.",
    "Tables V and XVII give relative errors as (predicted − actual)/actual. Table V's actual times for 32 and 64 processors at 16384 tasks (165, 83) differ from Tables II-III (166, 84); its errors were computed from the latter.",
    "An M/M/1 hop with ρ ≥ 1 has no steady state: isoperf then reports which hop saturates and the largest L that fits, and shows no delay for it.",
    "The speedup bound of eq. (5) is P · 2 lg P/(2 lg P + 1) per pipeline; the tables' 'SP from SP Model' column prints P × groups, the ≈ ≤ P of the proof.",
];

/// The paper's switch and its leaving out of the drain terms, set by every preset.
const SWITCH: [(&str, PresetValue); 4] = [
    ("leaf_fanin", PresetValue::Num(8.0)),
    ("spine_fanin", PresetValue::Num(16.0)),
    ("tau", PresetValue::Num(0.0)),
    ("drain", PresetValue::Choice("false")),
];

macro_rules! feature {
    ($id:literal, $label:literal, $groups:expr) => {
        Preset {
            id: $id,
            label: $label,
            source: "Tables I-IV",
            note: "Feature extraction: T_comp = 0.15 s, L = 23,720 B, C = 1.28 Gbit/s, 16-processor pipelines.",
            values: &[
                ("N", PresetValue::Num(4096.0)),
                ("P", PresetValue::Num(16.0)),
                ("groups", PresetValue::Num($groups)),
                ("t_comp", PresetValue::Num(0.15)),
                ("t_merge", PresetValue::Choice("")),
                ("L", PresetValue::Num(23720.0)),
                ("L_unit", PresetValue::Choice("B")),
                ("C", PresetValue::Num(1.28)),
                ("C_unit", PresetValue::Choice("Gbit/s")),
                ("comm", PresetValue::Choice("mm1")),
                SWITCH[0],
                SWITCH[1],
                SWITCH[2],
                SWITCH[3],
            ],
        }
    };
}

macro_rules! sorting {
    ($id:literal, $label:literal, $l_unit:literal, $c_unit:literal) => {
        Preset {
            id: $id,
            label: $label,
            source: "Table XVI, eq. (13)",
            note: "Quicksort of 10⁶-integer arrays: T_comp = 1.39 s, L = 8M, C = 1.28G, one 8-processor pipeline.",
            values: &[
                ("N", PresetValue::Num(512.0)),
                ("P", PresetValue::Num(8.0)),
                ("groups", PresetValue::Num(1.0)),
                ("t_comp", PresetValue::Num(1.39)),
                ("t_merge", PresetValue::Choice("")),
                ("L", PresetValue::Num(8.0)),
                ("L_unit", PresetValue::Choice($l_unit)),
                ("C", PresetValue::Num(1.28)),
                ("C_unit", PresetValue::Choice($c_unit)),
                ("comm", PresetValue::Choice("mm1")),
                SWITCH[0],
                SWITCH[1],
                SWITCH[2],
                SWITCH[3],
            ],
        }
    };
}

const PRESETS: &[Preset] = &[
    feature!("features-16", "Feature extraction, 16 processors (Table I)", 1.0),
    feature!("features-32", "Feature extraction, 2 × 16 processors (Table II)", 2.0),
    feature!("features-64", "Feature extraction, 4 × 16 processors (Table III)", 4.0),
    feature!("features-128", "Feature extraction, 8 × 16 processors (Table IV, eq. 12)", 8.0),
    Preset {
        id: "eq12-printed",
        label: "Eq. (12) as printed: 0.16 s of communication over 62 steps",
        source: "eq. (12), Tables I-IV",
        note: "The per-step communication the printed 0.16 s implies; reproduces the predicted times of Tables I-IV.",
        values: &[
            ("N", PresetValue::Num(4096.0)),
            ("P", PresetValue::Num(16.0)),
            ("groups", PresetValue::Num(8.0)),
            ("t_comp", PresetValue::Num(0.15)),
            ("t_merge", PresetValue::Choice("")),
            ("comm", PresetValue::Choice("fixed")),
            ("t_comm_fixed", PresetValue::Num(0.16 / 62.0)),
            ("L", PresetValue::Num(23720.0)),
            ("L_unit", PresetValue::Choice("B")),
            ("C", PresetValue::Num(1.28)),
            ("C_unit", PresetValue::Choice("Gbit/s")),
            SWITCH[0],
            SWITCH[1],
            SWITCH[2],
            SWITCH[3],
        ],
    },
    sorting!("sorting-binary", "Sorting, binary reading: 8 MiB, 1.28 Gibit/s (Table XVI)", "MiB", "Gibit/s"),
    sorting!("sorting-si", "Sorting, SI reading: 8 MB, 1.28 Gbit/s", "MB", "Gbit/s"),
];

const PRESET_GROUPS: &[PresetGroup] = &[PresetGroup { label: "The paper's experiments", presets: PRESETS }];

pub static SPEC: ModelSpec = ModelSpec {
    params: PARAMS,
    outputs: &output_specs::<_, { OUTPUTS.len() }>(OUTPUTS),
    preset_groups: PRESET_GROUPS,
    charts: &chart_specs::<_, { CHARTS.len() }>(CHARTS),
    maps: &[
        MapPreset { id: "total-l-tcomp", label: "T_total: message size vs T_comp", output: "T_total", x: "L:1000:1e8:log", y: "t_comp:0.01:10:log", levels: &[30.0, 100.0, 300.0, 1000.0], grid: 256, values: &[] },
    ],
    gaps: "a hop of the switch path is saturated (ρ ≥ 1)",
    notes: NOTES,
    short_title: "Pipeline",
    ..ModelSpec::new(
        "pipeline",
        "Parallel-pipeline reduction",
        "Kuntraruk, Pottenger, Ross — Application resource requirement estimation in a parallel-pipeline model of execution",
        "A pipelined binary reduction over P processors, with each step's message crossing an M/M/1 leaf–spine–leaf switch path.",
    )
};

/// The `pipeline` model of the registry.
pub struct Pipeline;

/// The inputs, the prediction, and whether every queue is stable.
pub struct PipelineEvaluation {
    pub inputs: Inputs,
    pub prediction: Prediction,
    stable: Result<(), ParamError>,
}

impl Model for Pipeline {
    type Evaluation = PipelineEvaluation;
    const OUTPUTS: &'static [Output<PipelineEvaluation>] = OUTPUTS;
    const CHARTS: &'static [View<PipelineEvaluation>] = CHARTS;

    fn spec() -> &'static ModelSpec {
        &SPEC
    }

    fn evaluate(p: &Params) -> Result<PipelineEvaluation, ModelError> {
        let inputs = Inputs::new(p)?;
        let prediction = inputs.predict();
        let stable = inputs.check_stable(&prediction, p);
        Ok(PipelineEvaluation { prediction, inputs, stable })
    }

    /// Any output over two of the times, sizes and rates (not the counts N,
    /// P, groups, whose rules the form checks): the inputs once, then per
    /// point the two values set and eq. (1)-(11) predicted; a saturated
    /// hop is a gap, as the form withholds its outputs.
    fn field(output: &str, p: &Params, x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> bool {
        const AXES: [&str; 6] = ["t_comp", "t_merge", "L", "C", "tau", "t_comm_fixed"];
        let Some(read) = OUTPUTS.iter().find(|o| o.spec.key == output) else { return false };
        let (Ok(base), Ok(l_factor), Ok(c_factor)) =
            (Inputs::new(p), unit_factor(p, "L_unit"), unit_factor(p, "C_unit"))
        else {
            return false;
        };
        if !AXES.contains(&x.0) || !AXES.contains(&y.0) {
            return false;
        }
        let set = |i: &mut Inputs, key: &str, v: f64| match key {
            "t_comp" => i.t_comp = v,
            "t_merge" => i.t_merge = v,
            "L" => i.l_bytes = v * l_factor,
            "C" => i.c_bps = v * c_factor,
            "tau" => i.switch.tau = v,
            _ => {
                if let Communication::Fixed(_) = i.communication {
                    i.communication = Communication::Fixed(v);
                }
            }
        };
        let nx = x.1.len();
        for (j, &yv) in y.1.iter().enumerate() {
            for (i, &xv) in x.1.iter().enumerate() {
                let mut inputs = base;
                set(&mut inputs, x.0, xv);
                set(&mut inputs, y.0, yv);
                let prediction = inputs.predict();
                let value = if inputs.saturates(&prediction) {
                    None
                } else {
                    read.number(&PipelineEvaluation { inputs, prediction, stable: Ok(()) })
                };
                if let Some(o) = out.get_mut(j * nx + i) {
                    *o = value.filter(|v| v.is_finite()).unwrap_or(f64::NAN);
                }
            }
        }
        true
    }

    /// A saturated hop has no steady state: no delay figures, but the
    /// breakdown and charts show which hop and by how much.
    fn withheld(e: &PipelineEvaluation) -> Result<(), ModelError> {
        e.stable.clone().map_err(ModelError::from)
    }

    fn tables(e: &PipelineEvaluation) -> Vec<Table> {
        vec![views::breakdown_table(&e.inputs), views::features_table(), views::sorting_table()]
    }

    fn remarks(e: &PipelineEvaluation) -> Vec<Remark> {
        let r = &e.prediction;
        let mut out = Vec::new();
        for h in r.hops.iter().filter(|h| h.rho >= 0.8) {
            out.push(Remark {
                key: Some("L"),
                level: Level::Warning,
                text: if h.rho >= 1.0 {
                    format!("The {} hop is saturated: ρ = {} ≥ 1. Its queue has no steady state, so it has no delay figure.", h.name, beside(h.rho, 1.0, 4))
                } else {
                    format!(
                        "The {} hop is near saturation: ρ = {}, so its wait is {} times its service time; a {}% larger L saturates it.",
                        h.name,
                        beside(h.rho, 1.0, 3),
                        sig(h.rho / (1.0 - h.rho), 3),
                        sig(100.0 * (1.0 / h.rho - 1.0), 2)
                    )
                },
            });
        }
        out
    }
}
