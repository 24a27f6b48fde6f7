//! Divisible load on a star: the optimal split, its schedule length,
//! speedup and energy (Drozdowski, `papers/divisible-load-theory.md`,
//! "Basic scheduling model" eq. (1)-(3), "time and energy" eq. (8)-(12)).
//!
//! Identical processors use the closed form of [`schedule::Star`], O(1) in
//! m; heterogeneous ones the recursion (1)-(3), O(m). When V is too small to
//! give all m processors a positive load part, the model says so and
//! reports the schedule of the largest feasible count m_max instead.
//!
//! ```
//! use isoperf::models::dlt::schedule::Star;
//! // SPEC reproduction: A = 1, C = 1e-6, S = 100, V = 1000.
//! let star = Star::new(1.0, 1e-6, 100.0).unwrap();
//! assert!((star.split(2, 1e3).t - 650.000775).abs() < 1e-9);
//! assert!(!star.split(5, 1e3).feasible);
//! ```

use crate::chart::Chart;
use crate::error::{ModelError, ParamError};
use crate::format::{plural, sig};
use crate::model::{chart_specs, output_specs, Evaluated, Model, Output, Read, View};
use crate::spec::{
    AppliesWhen, ChoiceOption, Level, MapPreset, ModelSpec, ParamKind, ParamSpec, Params, Preset, PresetGroup,
    PresetValue, Range, Remark, Scale,
};
use crate::table::Table;

pub mod schedule;
mod views;

use schedule::{argmin, hetero_split, prefixes, target_load, Energy, Power, Star, TargetLoad, MAX_PROCESSORS};

/// The processors of the star.
#[derive(Debug, Clone, PartialEq)]
pub enum Processors {
    Identical {
        star: Star,
        m: usize,
    },
    /// Per-processor A_i, C_i, S_i, in the order the originator serves them.
    Heterogeneous {
        a: Vec<f64>,
        c: Vec<f64>,
        s: Vec<f64>,
    },
}

/// Valid inputs: lists of equal length, every rate in range.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    processors: Processors,
    v: f64,
    power: Power,
    e_target: f64,
}

impl Inputs {
    /// Validates the parameters: lists of one length, a star of valid rates.
    pub fn new(p: &Params) -> Result<Inputs, ModelError> {
        let num = |key: &'static str| p.require_num(key);
        let list = |key: &'static str| p.require_list(key).map(<[f64]>::to_vec);
        let processors = match p.choice("processors") {
            Some("heterogeneous") => {
                let (a, c, s) = (list("A_list")?, list("C_list")?, list("S_list")?);
                for (key, other) in [("C_list", &c), ("S_list", &s)] {
                    if other.len() != a.len() {
                        return Err(ParamError::constraint(
                            key,
                            format!("has {} values but A_list has {}", other.len(), a.len()),
                            "one value per processor, as many as in A_list".into(),
                        )
                        .into());
                    }
                }
                Processors::Heterogeneous { a, c, s }
            }
            _ => {
                // The parameter ranges keep A > 0 and C, S ≥ 0, so this always succeeds.
                let star = Star::new(num("A")?, num("C")?, num("S")?).ok_or_else(|| ModelError::Unknown {
                    what: "star",
                    name: "A, C, S".into(),
                    known: vec![],
                })?;
                Processors::Identical { star, m: num("m")? as usize }
            }
        };
        Ok(Inputs {
            processors,
            v: num("V")?,
            power: Power { processor: num("P_C")?, network: num("P_N")?, idle_reduction: num("k")? },
            e_target: num("e_target")?,
        })
    }

    /// The processor count asked for.
    pub fn m(&self) -> usize {
        match &self.processors {
            Processors::Identical { m, .. } => *m,
            Processors::Heterogeneous { a, .. } => a.len(),
        }
    }
}

/// One schedule: on how many processors, how long, and its energy.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub m: usize,
    pub t: f64,
    pub t_comm: f64,
    pub busy: f64,
    pub alpha_1: f64,
    pub alpha_m: f64,
    /// Every load part, for heterogeneous processors only (m can be 1e6).
    pub alpha: Option<Vec<f64>>,
    pub energy: Energy,
}

/// Everything the model reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub m_requested: usize,
    /// All of the m requested processors get a positive load part.
    pub feasible: bool,
    /// The largest processor count with a feasible schedule (heterogeneous:
    /// the longest feasible prefix of the list).
    pub m_max: usize,
    /// The schedule shown: of m processors, or of m_max when m is infeasible.
    pub schedule: Schedule,
    pub t1: f64,
    pub m_min_energy: usize,
    pub e_min: f64,
    pub target: TargetLoad,
}

impl Evaluation {
    pub fn speedup(&self) -> f64 {
        self.t1 / self.schedule.t
    }
    pub fn efficiency(&self) -> f64 {
        self.speedup() / self.schedule.m as f64
    }
}

fn identical(star: &Star, m: usize, inputs: &Inputs) -> Schedule {
    let split = star.split(m, inputs.v);
    Schedule {
        m,
        t: split.t,
        t_comm: split.t_comm,
        busy: split.busy,
        alpha_1: split.alpha_1,
        alpha_m: split.alpha_m,
        alpha: None,
        energy: inputs.power.energy(m, split.t, split.t_comm, split.busy),
    }
}

fn heterogeneous(a: &[f64], c: &[f64], s: &[f64], m: usize, inputs: &Inputs) -> Option<Schedule> {
    let (a, c, s) = (a.get(..m)?, c.get(..m)?, s.get(..m)?);
    let h = hetero_split(a, c, s, inputs.v)?;
    Some(Schedule {
        m,
        t: h.t,
        t_comm: h.t_comm,
        busy: h.busy,
        alpha_1: h.alpha.first().copied().unwrap_or(f64::NAN),
        alpha_m: h.alpha.last().copied().unwrap_or(f64::NAN),
        energy: inputs.power.energy(m, h.t, h.t_comm, h.busy),
        alpha: Some(h.alpha),
    })
}

/// Evaluates the model.
pub fn evaluate(inputs: &Inputs) -> Result<Evaluation, ModelError> {
    let v = inputs.v;
    let m = inputs.m();
    match &inputs.processors {
        Processors::Identical { star, .. } => {
            let feasible = star.split(m, v).feasible;
            let m_max = star.max_processors(v, MAX_PROCESSORS);
            let used = if feasible { m } else { m_max.min(m) };
            let schedule = identical(star, used, inputs);
            let energy_at = |j: usize| identical(star, j, inputs).energy.total();
            let m_min_energy = argmin(m_max, energy_at);
            // On the m asked for, whatever V is now:
            // e(V) = T(1)/(m T(m)), T(1) = S + (C+A)V, m T(m) = m S (m − F/G) + m (C + A/G) V.
            let g = schedule::growth(star.c() / star.a(), m as f64);
            let mf = m as f64;
            let target = target_load(
                inputs.e_target,
                (star.s(), star.c() + star.a()),
                (mf * star.s() * (mf - g.f / g.g), mf * (star.c() + star.a() / g.g)),
                star.min_load(m),
            );
            let finite = |t: &TargetLoad| match t {
                TargetLoad::At(x) | TargetLoad::AnyFeasible(x) => x.is_finite(),
                TargetLoad::Unreachable { sup } => sup.is_finite(),
            };
            if !(schedule.t.is_finite() && schedule.alpha_1.is_finite() && finite(&target)) {
                return Err(too_many_processors(star, m).into());
            }
            Ok(Evaluation {
                m_requested: m,
                feasible,
                m_max,
                t1: star.t1(v),
                m_min_energy,
                e_min: energy_at(m_min_energy),
                schedule,
                target,
            })
        }
        Processors::Heterogeneous { a, c, s } => {
            let all = prefixes(a, c, s, v);
            let m_max = all.iter().rev().find(|p| p.feasible).map_or(1, |p| p.p);
            let full = heterogeneous(a, c, s, m, inputs);
            let positive = |h: &Schedule| h.alpha.as_ref().is_some_and(|x| x.iter().all(|x| *x > 0.0));
            let feasible = full.as_ref().is_some_and(positive);
            let (schedule, m_max) = match full {
                Some(h) if feasible => (h, m_max),
                _ => {
                    // The prefix test (α_p = P_p α_1 − Q_p > 0) can pass by
                    // round-off where the schedule itself then gives a part
                    // below zero (P_p, Q_p ≈ 10²¹ apart from α_1): step down
                    // to a schedule whose parts are all positive. One
                    // processor always is (α_1 = V); a few steps bound the work.
                    let h = (1..=m_max)
                        .rev()
                        .take(8)
                        .chain([1])
                        .filter_map(|p| heterogeneous(a, c, s, p, inputs))
                        .find(positive)
                        .ok_or(ModelError::NonFinite { output: "alpha" })?;
                    let used = h.m;
                    (h, used)
                }
            };
            let energy_of = |p: &schedule::Prefix| inputs.power.energy(p.p, p.t, p.t_comm, p.busy).total();
            let best = all.iter().filter(|p| p.feasible).min_by(|x, y| energy_of(x).total_cmp(&energy_of(y)));
            let (m_min_energy, e_min) = best.map_or((1, f64::NAN), |p| (p.p, energy_of(p)));
            // On the whole list, whatever V is now.
            let used = all.last().ok_or(ModelError::NonFinite { output: "alpha" })?;
            // T(1) is the fastest single processor's time, so that speedup
            // and efficiency compare with the best one machine could do (the
            // first in the list could be the slowest: efficiencies of 10²³).
            let alone: Vec<(f64, f64)> = s.iter().zip(c.iter().zip(a)).map(|(s, (c, a))| (*s, c + a)).collect();
            let t1 = alone.iter().map(|(s, g)| s + g * v).fold(f64::INFINITY, f64::min);
            if !t1.is_finite() {
                return Err(ModelError::NonFinite { output: "T1" });
            }
            let mf = m as f64;
            let target = fastest_target_load(
                inputs.e_target,
                &alone,
                (mf * used.t_at_zero, mf * used.t_per_load),
                used.min_load.max(0.0),
            );
            Ok(Evaluation { m_requested: m, feasible, m_max, t1, m_min_energy, e_min, schedule, target })
        }
    }
}

const PROCESSOR_KINDS: &[ChoiceOption] = &[
    ChoiceOption::new("identical", "Identical (closed form)"),
    ChoiceOption::new("heterogeneous", "Heterogeneous (per-processor list)"),
];

const IDENTICAL: Option<AppliesWhen> = Some(AppliesWhen { key: "processors", values: &["identical"] });
const HETEROGENEOUS: Option<AppliesWhen> = Some(AppliesWhen { key: "processors", values: &["heterogeneous"] });

const fn list(default: &'static [f64], range: Range) -> ParamKind {
    ParamKind::List { default, range, scale: Scale::Log, group: "processors", max_len: MAX_PROCESSORS }
}

/// Defaults: the lecture's example (A = 1, C = 1e-6, S = 1e2) with V = 1e3
/// on 4 processors, the largest count it can activate.
const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "processors",
        label: "Processors",
        unit: "",
        kind: ParamKind::Choice { default: "identical", options: PROCESSOR_KINDS },
        help: "Identical processors share A, C, S; heterogeneous ones each have their own, served in list order.",
        reference: "eq. (1)-(3)",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "m",
        label: "Processors m",
        unit: "",
        kind: ParamKind::number(4.0, Range::closed(1.0, MAX_PROCESSORS as f64), Scale::Log, true),
        help: "Number of worker processors P_1 … P_m; the originator P_0 only distributes.",
        reference: "Basic scheduling model",
        applies_when: IDENTICAL,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "V",
        label: "Load size V",
        unit: "units",
        kind: ParamKind::number(1e3, Range::closed(1e-9, 1e18), Scale::Log, false),
        help: "Size of the divisible load (e.g. bytes), in the units A and C are per.",
        reference: "eq. (2)",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "A",
        label: "A (computing)",
        unit: "s/unit",
        kind: ParamKind::number(1.0, Range::closed(1e-15, 1e9), Scale::Log, false),
        help: "Time to process one unit of load on a processor: P_i computes α_i for A α_i.",
        reference: "Basic scheduling model",
        applies_when: IDENTICAL,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "C",
        label: "C (communication)",
        unit: "s/unit",
        kind: ParamKind::number(1e-6, Range::closed(0.0, 1e9), Scale::Log, false),
        help: "Time to send one unit of load: sending α_i takes S + C α_i.",
        reference: "Basic scheduling model",
        applies_when: IDENTICAL,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "S",
        label: "S (start-up)",
        unit: "s",
        kind: ParamKind::number(1e2, Range::closed(0.0, 1e9), Scale::Log, false),
        help: "Start-up time of each message. S > 0 is why a small V cannot activate many processors.",
        reference: "Basic scheduling model",
        applies_when: IDENTICAL,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "A_list",
        label: "A_i",
        unit: "s/unit",
        kind: list(&[1.0, 1.0, 1.0, 1.0], Range::closed(1e-15, 1e9)),
        help: "Computing time per unit of each processor, in the order the originator serves them.",
        reference: "eq. (1)",
        applies_when: HETEROGENEOUS,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "C_list",
        label: "C_i",
        unit: "s/unit",
        kind: list(&[1e-6, 1e-6, 1e-6, 1e-6], Range::closed(0.0, 1e9)),
        help: "Communication time per unit to each processor.",
        reference: "eq. (1)",
        applies_when: HETEROGENEOUS,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "S_list",
        label: "S_i",
        unit: "s",
        kind: list(&[1e2, 1e2, 1e2, 1e2], Range::closed(0.0, 1e9)),
        help: "Start-up time of the message to each processor.",
        reference: "eq. (1)",
        applies_when: HETEROGENEOUS,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "P_C",
        label: "P_C (processor power)",
        unit: "W",
        kind: ParamKind::number(200.0, Range::closed(0.0, 1e9), Scale::Log, false),
        help: "Power of an active processor; idle it draws P_C/k.",
        reference: "eq. (8), (11)",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "P_N",
        label: "P_N (network power)",
        unit: "W",
        kind: ParamKind::number(50.0, Range::closed(0.0, 1e9), Scale::Log, false),
        help: "Power of the active network; idle it draws P_N/k.",
        reference: "eq. (8), (10)",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "k",
        label: "k (idle reduction)",
        unit: "",
        kind: ParamKind::number(3.0, Range { min: 1.0, min_exclusive: true, max: 1e6 }, Scale::Log, false),
        help: "Idle power is active power divided by k (the lecture measured k ≈ 1.8 idle, 20 hibernating).",
        reference: "eq. (8)-(11)",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
    ParamSpec {
        key: "e_target",
        label: "Target efficiency",
        unit: "",
        kind: ParamKind::number(0.9, Range { min: 0.0, min_exclusive: true, max: 1.0 }, Scale::Linear, false),
        help: "For the inverse query: the smallest V that reaches this efficiency on the current processors.",
        reference: "eq. (14)",
        applies_when: None,
        fallback: None,
        unit_from: None,
    },
];

const OUTPUTS: &[Output<DltEvaluation>] = &[
    Output::num(
        "T",
        "Schedule length T(m)",
        "s",
        "mS + CV + A α_m: the last processor finishes after all sending",
        |e| e.result.schedule.t,
    ),
    Output::num(
        "T1",
        "T(1)",
        "s",
        "S + (C + A) V: one processor does it all (heterogeneous: the fastest one, min over i of S_i + (C_i + A_i) V)",
        |e| e.result.t1,
    ),
    Output::num("speedup", "Speedup", "", "eq. (13): T(1) / T(m)", |e| e.result.speedup()),
    Output::num("efficiency", "Efficiency", "", "eq. (14): T(1) / (m T(m))", |e| e.result.efficiency()),
    Output::num("alpha_1", "First load part α_1", "units", "the largest part, sent first", |e| {
        e.result.schedule.alpha_1
    }),
    Output::num("alpha_m", "Last load part α_m", "units", "eq. (3); > 0 iff V > L(m)", |e| e.result.schedule.alpha_m),
    Output::new("feasible", "All m processors active", "", "every α_i > 0", Read::Flag(|e| e.result.feasible)),
    Output::num("m_max", "Largest feasible m", "", "max{m : L(m) < V}", |e| e.result.m_max as f64),
    Output::num("m_used", "Processors in the schedule", "", "m, or m_max when m is infeasible", |e| {
        e.result.schedule.m as f64
    }),
    Output::num("E", "Energy E", "J", "eq. (12): E_I + E_RN + E_RC", |e| e.result.schedule.energy.total()),
    Output::num("E_I", "Idle energy E_I", "J", "eq. (8): T((m+1)P_C + P_N)/k", |e| e.result.schedule.energy.idle),
    Output::num("E_RN", "Network energy E_RN", "J", "eq. (10): P_N (k−1)/k (mS + CV)", |e| {
        e.result.schedule.energy.network
    }),
    Output::num("E_RC", "Computing energy E_RC", "J", "eq. (11): P_C (k−1)/k (2mS + (2C+A)V)", |e| {
        e.result.schedule.energy.compute
    }),
    Output::num("m_min_energy", "Energy-optimal m", "", "the m (≤ m_max) that minimises E, all else fixed", |e| {
        e.result.m_min_energy as f64
    }),
    Output::num("E_min", "Least energy", "J", "E at the energy-optimal m", |e| e.result.e_min),
    Output::new(
        "V_target",
        "V for target efficiency",
        "units",
        "smallest V whose efficiency reaches the target at this m",
        Read::Maybe(|e| target_value(&e.result.target)),
    ),
    Output::new(
        "alpha",
        "Load parts α_i",
        "units",
        "every α_i (heterogeneous processors)",
        Read::Array(|e| e.result.schedule.alpha.clone()),
    ),
];

const CHARTS: &[View<DltEvaluation>] = &[
    View::new(
        "gantt",
        "Schedule",
        "Each processor receives its part (start-up and transfer), then computes; all finish together at T(m).",
        draw,
    ),
    View::new(
        "speedup",
        "Speedup vs m",
        "T(1)/T(m) over the feasible processor counts; dashed: ideal speedup m.",
        draw,
    ),
    View::new("efficiency", "Efficiency vs m", "T(1)/(m T(m)) over the feasible processor counts.", draw),
    View::new(
        "energy",
        "Energy E vs schedule length T(m)",
        "One point per processor count m = 1 … m_max (T falls as m grows); the ring marks the least energy.",
        draw,
    ),
];

fn draw(e: &DltEvaluation, id: &str) -> Result<Chart, ModelError> {
    views::chart(id, &e.inputs, &e.result)
}

const NOTES: &[&str] = &[
    "Infeasible m: with S > 0, a load V ≤ L(m) = (SA/C²)((1+C/A)^m − 1 − mC/A) cannot give all m processors a positive part. isoperf then reports the schedule of m_max = max{m : L(m) < V} processors (m_used), counting only those in speedup, efficiency and energy; it never shows negative load parts.",
    "Identical processors use the closed form α_m = (V − (S/A)F(m))/G(m) with G(m) = ((1+u)^m − 1)/u, F(m) = (G(m) − m)/u, u = C/A, evaluated with series where u·m is small, so T(m) is exact for tiny C/A and costs the same for m = 10 or 10⁶.",
    "Heterogeneous processors are served in list order with the lecture's recursion (1)-(3); m_max is then the longest feasible prefix of the list, and T(1) is the fastest single processor's time, min over i of S_i + (C_i + A_i)V (not the first in the list's), so speedup and efficiency compare with the best one machine could do and efficiency never exceeds 1.",
    "Energy follows eq. (8)-(12) with the originator not computing; for heterogeneous processors E_RN and E_RC use the actual sending and busy times Σ(S_i + C_iα_i) and Σ(S_i + (C_i + A_i)α_i).",
    "The target-efficiency query is exact: T(1) and m·T(m) are affine in V, so e(V) is a ratio of linear functions and V* = (e·c − a)/(b − e·d); for heterogeneous processors it is the largest V* over the single processors T(1) is the least of.",
];

macro_rules! energy_case {
    ($id:literal, $label:literal, $v:expr, $m:expr) => {
        Preset {
            id: $id,
            label: $label,
            source: "Slides, time and energy minimization",
            note: "A = 1, C = 10⁻⁶, S = 100, P_N = 50, P_C = 200, k = 3, as on the slide.",
            values: &[
                ("processors", PresetValue::Choice("identical")),
                ("A", PresetValue::Num(1.0)),
                ("C", PresetValue::Num(1e-6)),
                ("S", PresetValue::Num(1e2)),
                ("P_N", PresetValue::Num(50.0)),
                ("P_C", PresetValue::Num(200.0)),
                ("k", PresetValue::Num(3.0)),
                ("V", PresetValue::Num($v)),
                ("m", PresetValue::Num($m)),
            ],
        }
    };
}

const PRESETS: &[Preset] = &[
    energy_case!("energy-v1e13", "Energy vs T, V = 10¹³ (interior minimum)", 1e13, 1000.0),
    energy_case!("energy-v1e3", "Energy vs T, V = 1000 (no interior minimum)", 1e3, 4.0),
    Preset {
        id: "infeasible-m5",
        label: "V = 1000 on m = 5: infeasible",
        source: "SPEC reproduction",
        note: "Five processors cannot all be activated for V = 1000; the page shows the schedule of m_max = 4.",
        values: &[
            ("processors", PresetValue::Choice("identical")),
            ("V", PresetValue::Num(1e3)),
            ("m", PresetValue::Num(5.0)),
        ],
    },
    Preset {
        id: "heterogeneous-4",
        label: "Four processors of different speeds",
        source: "Illustration",
        note: "A fast and a slow processor each side of two average ones; the fast one gets the most load.",
        values: &[
            ("processors", PresetValue::Choice("heterogeneous")),
            ("V", PresetValue::Num(1e3)),
            ("A_list", PresetValue::List(&[0.5, 1.0, 1.0, 2.0])),
            ("C_list", PresetValue::List(&[1e-6, 1e-6, 2e-6, 1e-6])),
            ("S_list", PresetValue::List(&[50.0, 50.0, 50.0, 50.0])),
        ],
    },
];

const PRESET_GROUPS: &[PresetGroup] = &[PresetGroup { label: "Lecture examples", presets: PRESETS }];

pub static SPEC: ModelSpec = ModelSpec {
    params: PARAMS,
    outputs: &output_specs::<_, { OUTPUTS.len() }>(OUTPUTS),
    preset_groups: PRESET_GROUPS,
    charts: &chart_specs::<_, { CHARTS.len() }>(CHARTS),
    maps: &[
        MapPreset { id: "isoefficiency-v-m", label: "Isoefficiency: V vs m (A = 1, C = 1e-6, S = 1e2)", output: "efficiency", x: "m:1:1000:log", y: "V:1000:1e13:log", levels: &[0.5, 0.9, 0.99], grid: 256, values: &[] },
        MapPreset { id: "isoefficiency-a-c", label: "Isoefficiency: A vs C", output: "efficiency", x: "A:0.001:1000:log", y: "C:1e-9:0.001:log", levels: &[0.5, 0.9, 0.99], grid: 256, values: &[] },
        MapPreset { id: "isoenergy-k-m", label: "Iso-energy: k vs m (V = 1e13)", output: "E", x: "m:1:1000:log", y: "k:1.1:20:log", levels: &[2.1e15, 2.3e15, 2.6e15, 3e15], grid: 256, values: &[("V", PresetValue::Num(1e13)), ("processors", PresetValue::Choice("identical"))] },
    ],
    gaps: "m processors cannot all be activated for this V (some load part would be ≤ 0)",
    notes: NOTES,
    short_title: "Divisible load",
    ..ModelSpec::new(
        "dlt",
        "Divisible load on a star",
        "Drozdowski — Divisible load theory, from basics to applications (lecture)",
        "The originator splits a divisible load V among m processors so that all finish together: schedule length, speedup, energy, and the least V that activates them.",
    )
};

/// The isoefficiency map of the lecture, m against V with A, C, S fixed, as
/// a tight loop: G(m) and F(m) once per m, then per point
/// α_m = (V − (S/A)F)/G, T = mS + CV + Aα_m, T(1) = S + (C+A)V.
/// `None` when the request is not of that shape.
fn m_by_v_field(output: &str, base: &[f64; 8], x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> Option<bool> {
    #[derive(Clone, Copy)]
    enum What {
        Time,
        Speedup,
        Efficiency,
    }
    let what = match output {
        "T" => What::Time,
        "speedup" => What::Speedup,
        "efficiency" => What::Efficiency,
        _ => return None,
    };
    let m_on_x = match (x.0, y.0) {
        ("m", "V") => true,
        ("V", "m") => false,
        _ => return None,
    };
    let [_, _, a, c, s, _, _, _] = *base;
    let star = Star::new(a, c, s)?;
    let (ms, vs) = if m_on_x { (x.1, y.1) } else { (y.1, x.1) };
    // Per m: (m, G(m), (S/A) F(m)).
    let per_m: Vec<(f64, f64, f64)> = ms
        .iter()
        .map(|&m| {
            let (g, _) = star.growths(m);
            (m, g.g, s / a * g.f)
        })
        .collect();
    let value = |&(m, g, sf): &(f64, f64, f64), v: f64| -> f64 {
        let alpha_m = (v - sf) / g;
        if alpha_m.is_nan() || alpha_m <= 0.0 {
            return f64::NAN; // infeasible: a gap
        }
        let t = m * s + c * v + a * alpha_m;
        let t1 = s + (c + a) * v;
        match what {
            What::Time => t,
            What::Speedup => t1 / t,
            What::Efficiency => t1 / (m * t),
        }
    };
    let nx = x.1.len();
    for (j, row) in out.chunks_mut(nx).enumerate() {
        for (i, cell) in row.iter_mut().enumerate() {
            let (mi, vi) = if m_on_x { (i, j) } else { (j, i) };
            let (Some(pm), Some(&v)) = (per_m.get(mi), vs.get(vi)) else { continue };
            let r = value(pm, v);
            *cell = if r.is_finite() { r } else { f64::NAN };
        }
    }
    Some(true)
}

/// The `dlt` model of the registry.
pub struct Dlt;

/// m processors whose closed form overflows: the load parts shrink by
/// 1 + C/A from one processor to the next, and (1 + C/A)^m leaves double
/// precision. Refused at m, with the largest m that stays within it.
fn too_many_processors(star: &Star, m: usize) -> ParamError {
    let ratio = star.c() / star.a();
    let limit = (700.0 / ratio.ln_1p()).floor().max(1.0);
    ParamError::constraint(
        "m",
        format!(
            "with C/A = {}, (1 + C/A)^m for m = {m} processors is beyond double precision",
            crate::format::number(ratio, 3)
        ),
        format!(
            "m ≤ {} for these A and C (the later processors would get no load anyway)",
            crate::format::count(limit)
        ),
    )
}

/// The target-efficiency query when T(1) is the fastest of several single
/// processors: e(V) = min_i (S_i + g_i V) / (m T(m)), so e(V) ≥ target
/// exactly when every processor's ratio e_i(V) is (each a ratio of linear
/// functions, solved exactly by [`target_load`]); the answer is the
/// largest of their answers, checked against every e_i.
fn fastest_target_load(target: f64, alone: &[(f64, f64)], parallel: (f64, f64), min_load: f64) -> TargetLoad {
    let (c, d) = parallel;
    let mut answer = TargetLoad::AnyFeasible(min_load);
    for &one in alone {
        answer = match (answer, target_load(target, one, parallel, min_load)) {
            (TargetLoad::Unreachable { sup: a }, TargetLoad::Unreachable { sup: b }) => {
                TargetLoad::Unreachable { sup: a.min(b) }
            }
            (u @ TargetLoad::Unreachable { .. }, _) | (_, u @ TargetLoad::Unreachable { .. }) => u,
            (TargetLoad::AnyFeasible(_), other) | (other, TargetLoad::AnyFeasible(_)) => other,
            (TargetLoad::At(x), TargetLoad::At(y)) => TargetLoad::At(x.max(y)),
        };
    }
    if let TargetLoad::At(v) = answer {
        let e = |(s, g): (f64, f64)| (s + g * v) / (c + d * v);
        if alone.iter().any(|&one| e(one) < target * (1.0 - 1e-12)) {
            let sup = alone.iter().map(|&(s, g)| if d > 0.0 { g / d } else { s / c }).fold(f64::INFINITY, f64::min);
            return TargetLoad::Unreachable { sup };
        }
    }
    answer
}

fn target_value(t: &TargetLoad) -> Option<f64> {
    match t {
        TargetLoad::At(v) | TargetLoad::AnyFeasible(v) => Some(*v),
        TargetLoad::Unreachable { .. } => None,
    }
}

/// The inputs and everything computed from them.
pub type DltEvaluation = Evaluated<Inputs, Evaluation>;

impl Model for Dlt {
    type Evaluation = DltEvaluation;
    const OUTPUTS: &'static [Output<DltEvaluation>] = OUTPUTS;
    const CHARTS: &'static [View<DltEvaluation>] = CHARTS;

    fn spec() -> &'static ModelSpec {
        &SPEC
    }

    fn evaluate(p: &Params) -> Result<DltEvaluation, ModelError> {
        let inputs = Inputs::new(p)?;
        let result = evaluate(&inputs)?;
        Ok(Evaluated { inputs, result })
    }

    fn tables(e: &DltEvaluation) -> Vec<Table> {
        vec![views::schedule_table(&e.inputs, &e.result), views::reproduction_table()]
    }

    /// Identical processors, outputs T, T1, speedup, efficiency over any two of
    /// m, V, A, C, S: the closed form per point (m may be fractional), with
    /// infeasible points (some α_i ≤ 0) as gaps.
    fn field(output: &str, p: &Params, x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> bool {
        let axes = ["m", "V", "A", "C", "S", "P_C", "P_N", "k"];
        if p.choice("processors") != Some("identical")
            || !["T", "T1", "speedup", "efficiency", "E", "E_I", "E_RN", "E_RC"].contains(&output)
            || !axes.contains(&x.0)
            || !axes.contains(&y.0)
        {
            return false;
        }
        let base: [f64; 8] = axes.map(|k| p.num(k).unwrap_or(f64::NAN));
        if let Some(done) = m_by_v_field(output, &base, x, y, out) {
            return done;
        }
        let slot = |key: &str| axes.iter().position(|k| *k == key).unwrap_or(0);
        let (sx, sy) = (slot(x.0), slot(y.0));
        let nx = x.1.len();
        // With A and C fixed, (1+C/A)^m depends on m alone: one growth per
        // distinct m (a column or a row), not one per point.
        let cached: Option<Vec<(f64, _)>> = (![x.0, y.0].iter().any(|k| *k == "A" || *k == "C")).then(|| {
            let [m0, _, a, c, s, _, _, _] = base;
            let star = Star::new(a, c, s);
            let ms: Vec<f64> = match (x.0, y.0) {
                ("m", _) => x.1.to_vec(),
                (_, "m") => y.1.to_vec(),
                _ => vec![m0],
            };
            ms.into_iter().map(|m| (m, star.map(|st| st.growths(m)))).collect()
        });
        let growth_of = |i: usize, j: usize| -> Option<(schedule::Growth, schedule::Growth)> {
            let table = cached.as_ref()?;
            let k = if x.0 == "m" {
                i
            } else if y.0 == "m" {
                j
            } else {
                0
            };
            table.get(k).and_then(|(_, g)| *g)
        };
        // With A, C and S fixed the star itself is one value for the whole map.
        let fixed_star =
            (![x.0, y.0].iter().any(|k| ["A", "C", "S"].contains(k))).then(|| Star::new(base[2], base[3], base[4]));
        for (j, &yv) in y.1.iter().enumerate() {
            for (i, &xv) in x.1.iter().enumerate() {
                let mut v = base;
                for (slot, value) in [(sx, xv), (sy, yv)] {
                    if let Some(s) = v.get_mut(slot) {
                        *s = value;
                    }
                }
                let [m, load, a, c, s, p_c, p_n, k] = v;
                let power = Power { processor: p_c, network: p_n, idle_reduction: k };
                let value = fixed_star.unwrap_or_else(|| Star::new(a, c, s)).and_then(|star| {
                    // The closed form takes real m ≥ 1 (G and F are defined for real j).
                    let split = match growth_of(i, j) {
                        Some((gm, first)) => star.split_grown(m, load, &gm, &first),
                        None => star.split_real(m, load),
                    };
                    let t1 = star.t1(load);
                    let energy = || power.energy_real(m, split.t, split.t_comm, split.busy);
                    split.feasible.then(|| match output {
                        "T" => split.t,
                        "T1" => t1,
                        "speedup" => t1 / split.t,
                        "E" => energy().total(),
                        "E_I" => energy().idle,
                        "E_RN" => energy().network,
                        "E_RC" => energy().compute,
                        _ => t1 / (m * split.t),
                    })
                });
                if let Some(o) = out.get_mut(j * nx + i) {
                    *o = value.filter(|v| v.is_finite()).unwrap_or(f64::NAN);
                }
            }
        }
        true
    }

    fn remarks(evaluated: &DltEvaluation) -> Vec<Remark> {
        let (inputs, e) = (&evaluated.inputs, &evaluated.result);
        let mut out = Vec::new();
        let key = match &inputs.processors {
            Processors::Identical { .. } => "m",
            Processors::Heterogeneous { .. } => "A_list",
        };
        if !e.feasible {
            out.push(Remark {
                key: Some(key),
                level: Level::Warning,
                text: format!(
                    "{} cannot all be activated for V = {}: the last would get no load. The largest feasible count is m_max = {}; the results are the schedule of {}.",
                    plural(e.m_requested as f64, "processor", "processors"),
                    sig(inputs.v, 6),
                    e.m_max,
                    plural(e.schedule.m as f64, "processor", "processors")
                ),
            });
        }
        let target = sig(inputs.e_target, 3);
        out.push(Remark {
            key: Some("V_target"),
            level: Level::Info,
            text: match e.target {
                TargetLoad::At(v) => {
                    format!(
                        "Efficiency {target} on {} needs V ≥ {}.",
                        plural(e.m_requested as f64, "processor", "processors"),
                        sig(v, 4)
                    )
                }
                TargetLoad::AnyFeasible(l) => format!(
                    "Every V that activates {} (V > {}) already reaches efficiency {target}.",
                    if e.m_requested == 1 {
                        "the one processor".to_string()
                    } else {
                        format!("all {} processors", e.m_requested)
                    },
                    sig(l, 4)
                ),
                TargetLoad::Unreachable { sup } => format!(
                    "Efficiency {target} is out of reach on {}: it approaches {} as V grows.",
                    plural(e.m_requested as f64, "processor", "processors"),
                    sig(sup, 4)
                ),
            },
        });
        out
    }
}
