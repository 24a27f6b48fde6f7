//! MapReduce as a divisible load (Berlinska and Drozdowski, presented in
//! `papers/divisible-load-theory.md`, slides "DLT in MapReduce"): m mappers
//! split the load V, send γα_i/r to each of r reducers over at most l
//! channels at a time, and the reducers sort what they receive.
//!
//! The shuffle is the LP (4)-(7) over the interval tables itv and vti,
//! solved exactly by [`schedule::solve`]; the reduce phase takes
//! t_red = s_red + a_red z log₂ z with z = γV/r, and T = t_{N+1} + t_red.
//!
//! ```
//! use isoperf::models::mapreduce::schedule::{solve, Intervals, Shuffle};
//! // SPEC's public example: m = r = 4, l = 2, A = 1, V = 100, S = C = γ = 1.
//! let p = Shuffle { intervals: Intervals::new(4, 4, 2).unwrap(), a: vec![1.0; 4], s: 1.0, c: 0.25, v: 100.0 };
//! let opt = solve(&p).unwrap();
//! assert!((opt.makespan() - 9982.0 / 123.0).abs() < 1e-9);
//! ```

use crate::chart::Chart;
use crate::error::{ModelError, ParamError};
use crate::format::{count, plural, sig};
use crate::spec::{
    AppliesWhen, ChoiceOption, Level, MapPreset, ModelSpec, ParamKind, ParamSpec, Params, Preset, PresetGroup,
    PresetValue, Range, Remark, Scale, SweepSpec,
};
use crate::table::Table;

use crate::model::{chart_specs, output_specs, Evaluated, Model, Output, Read, SweepData, View};

mod banded;
#[cfg(feature = "full")]
pub mod descent;
#[cfg(feature = "full")]
pub mod general;
#[cfg(feature = "full")]
pub mod levels;
pub mod mappers;
pub mod schedule;
#[cfg(feature = "full")]
pub mod tied;
mod views;

use mappers::MapperSearch;

use schedule::{Intervals, Method, Shuffle, ShuffleEnds, Solution, SolveError, MAX_INTERVALS};

/// Largest mapper or reducer count the calculator takes.
pub const MAX_NODES: usize = 100_000;

/// Points of a map's row that get a sweep point's budget where a map
/// point's leaves them without a value (the plateau methods past
/// [`schedule::PLATEAU_QUICK_INTERVALS`], tens of milliseconds): one at
/// m ≈ 1389, γ = 1 at the descent point (m = 594, r = 12, ℓ = 8,
/// V = 1.405 × 10¹¹, S = 9.037). Counted by row, so that a map drawn in
/// bands of rows is the same as one drawn whole.
#[cfg(feature = "full")]
const MAP_ROW_RETRIES: usize = 2;

/// Valid inputs in the papers' units.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    intervals: Intervals,
    /// A_i = a_map(i) + s_map/lu per mapper.
    a: Vec<f64>,
    s: f64,
    c: f64,
    gamma: f64,
    v: f64,
    a_red: f64,
    s_red: f64,
    /// The bisection width asked for (the schedule uses min(l, m)).
    l: usize,
    /// The field that sets the mapper count: `m`, or `a_map_list` for heterogeneous mappers.
    mappers_key: &'static str,
    /// The field of the mappers' rates: `a_map`, or `a_map_list`.
    rates_key: &'static str,
}

impl Inputs {
    pub fn new(p: &Params) -> Result<Inputs, ModelError> {
        let num = |key: &'static str| p.require_num(key);
        let per_unit = num("s_map")? / num("lu")?;
        if !per_unit.is_finite() {
            // A tiny lu spreads s_map over so little load that the cost per byte overflows.
            return Err(ParamError::constraint(
                "lu",
                format!(
                    "s_map / lu = {} / {} does not fit in a number",
                    crate::spec::num(num("s_map")?),
                    crate::spec::num(num("lu")?)
                ),
                "a larger load unit lu (or a smaller s_map)".into(),
            )
            .into());
        }
        let (a_map, mappers_key): (Vec<f64>, &'static str) = match p.choice("mappers") {
            Some("heterogeneous") => (p.require_list("a_map_list")?.to_vec(), "a_map_list"),
            _ => (vec![num("a_map")?; num("m")? as usize], "m"),
        };
        let m = a_map.len();
        let (r, l) = (num("r")? as usize, num("l")? as usize);
        let count = Intervals::interval_count(m, r, l);
        if count > MAX_INTERVALS as u64 {
            return Err(ParamError::constraint(
                "r",
                format!(
                    "m = {} and r = {} in groups of ℓ = {} give {count} shuffle intervals",
                    plural(m as f64, "mapper", "mappers"),
                    plural(r as f64, "reducer", "reducers"),
                    l.min(m)
                ),
                format!("at most {MAX_INTERVALS} intervals (m·⌈r/ℓ⌉ + ℓ − 1): fewer reducers, fewer mappers or a wider bisection ℓ"),
            )
            .into());
        }
        let intervals = Intervals::new(m, r, l)
            .ok_or_else(|| ParamError::constraint(mappers_key, "no mappers".into(), "at least one mapper".into()))?;
        let inputs = Inputs {
            intervals,
            a: a_map.iter().map(|a| a + per_unit).collect(),
            s: num("S")?,
            c: num("C")?,
            gamma: num("gamma")?,
            v: num("V")?,
            a_red: num("a_red")?,
            s_red: num("s_red")?,
            l,
            mappers_key,
            rates_key: if mappers_key == "m" { "a_map" } else { "a_map_list" },
        };
        let z = inputs.reducer_input();
        if z < 1.0 {
            return Err(ParamError::constraint(
                "V",
                format!(
                    "each reducer would receive γV/r = {} units, less than one, where z log₂ z is negative",
                    sig(z, 4)
                ),
                format!(
                    "V ≥ r/γ = {} so every reducer gets at least one unit",
                    crate::spec::num(r as f64 / inputs.gamma)
                ),
            )
            .into());
        }
        Ok(inputs)
    }

    pub fn m(&self) -> usize {
        self.intervals.m()
    }

    pub fn r(&self) -> usize {
        self.intervals.r()
    }

    /// z = γV/r, what each reducer receives.
    pub fn reducer_input(&self) -> f64 {
        self.gamma * self.v / self.r() as f64
    }

    /// c = γC/r: time to send one unit of a mapper's part to one reducer.
    pub fn send_rate(&self) -> f64 {
        self.gamma * self.c / self.r() as f64
    }

    /// The shuffle's ends in closed form, where the mappers are identical
    /// and the chain's certificate holds ([`schedule::identical_chain`]).
    pub fn closed_form_ends(&self) -> Option<ShuffleEnds> {
        let a = *self.a.first()?;
        if self.mappers_key != "m" {
            return None;
        }
        schedule::identical_chain(self.intervals, a, self.s, self.send_rate(), self.v)
    }

    pub fn shuffle(&self) -> Shuffle {
        Shuffle { intervals: self.intervals, a: self.a.clone(), s: self.s, c: self.send_rate(), v: self.v }
    }

    /// t_red = s_red + a_red z log₂ z.
    pub fn t_red(&self) -> f64 {
        let z = self.reducer_input();
        self.s_red + self.a_red * z * libm::log2(z)
    }

    /// T_seq = S + A V + s_red + a_red (γV) log₂(γV): the fastest mapper
    /// maps and reduces everything alone, nothing is shuffled.
    pub fn t_seq(&self) -> f64 {
        let a = self.a.iter().copied().fold(f64::INFINITY, f64::min);
        let zv = self.gamma * self.v;
        self.s + a * self.v + self.s_red + self.a_red * zv * libm::log2(zv)
    }
}

/// Everything the model reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub solution: Solution,
    pub t_shuffle: f64,
    pub t_red: f64,
    pub t_seq: f64,
    /// The best mapper count, searched when first read (a sweep or a map
    /// of another output never needs it).
    mappers: std::cell::OnceCell<Option<MapperSearch>>,
    /// The interval passes that search may make.
    search_budget: usize,
}

impl Inputs {
    /// The search for the best m' ≤ m identical mappers within `budget`
    /// interval passes, the shuffle of all m `given` where it is solved
    /// already; `None` for a per-mapper list, whose search starts from its
    /// own schedule ([`Evaluation::search`]).
    pub fn best_mappers(&self, budget: usize, given: Option<f64>) -> Option<MapperSearch> {
        let a = *self.a.first()?;
        (self.mappers_key == "m").then(|| {
            mappers::best_mappers_after(self.m(), self.r(), self.l, a, self.s, self.send_rate(), self.v, budget, given)
        })
    }
}

impl Evaluation {
    /// The best mapper count and its T, where the search proves one.
    pub fn best(&self, inputs: &Inputs) -> Option<(usize, f64)> {
        match self.search(inputs)? {
            // The given m: its own schedule's T, to the bit.
            MapperSearch::Best { m, .. } if m == inputs.m() => Some((m, self.t())),
            MapperSearch::Best { m, t_shuffle } => Some((m, t_shuffle + self.t_red)),
            MapperSearch::Unproven { .. } => None,
        }
    }

    /// The search's outcome: the best count of identical mappers, or the
    /// best first mappers of a per-mapper list.
    pub fn search(&self, inputs: &Inputs) -> Option<MapperSearch> {
        *self.mappers.get_or_init(|| match inputs.mappers_key {
            "m" => inputs.best_mappers(self.search_budget, Some(self.t_shuffle)),
            _ => Some(mappers::best_prefix(&inputs.shuffle(), self.t_shuffle, self.search_budget)),
        })
    }

    pub fn t(&self) -> f64 {
        self.t_shuffle + self.t_red
    }
    pub fn speedup(&self) -> f64 {
        self.t_seq / self.t()
    }
}

pub fn evaluate(inputs: &Inputs) -> Result<Evaluation, ModelError> {
    evaluated(inputs, schedule::solve(&inputs.shuffle()), mappers::SEARCH_INTERVALS)
}

/// [`evaluate`] within a budget (see [`schedule::solve_within`]); the best
/// mapper count, if read, within the quick search's.
pub fn evaluate_within(inputs: &Inputs, budget: schedule::Budget) -> Result<Evaluation, ModelError> {
    evaluated(inputs, schedule::solve_within(&inputs.shuffle(), budget), mappers::QUICK_SEARCH_INTERVALS)
}

/// [`evaluate_within`] at a point of a map, the descent trying first the
/// shape it proved at the map's last point (see [`schedule::solve_near`]).
#[cfg(feature = "full")]
fn evaluate_near(
    inputs: &Inputs,
    budget: schedule::Budget,
    hint: &mut schedule::Hint,
) -> Result<Evaluation, ModelError> {
    evaluated(inputs, schedule::solve_near(&inputs.shuffle(), budget, hint), mappers::QUICK_SEARCH_INTERVALS)
}

/// [`evaluate`] where that is quick (see [`schedule::solve_quick`]).
/// The best mapper count is searched at once, within the quick search's
/// budget: where that proves none, the whole evaluation is left to
/// [`evaluate`] (the report worker's larger budget and full module), so
/// that the page shows what the command line does.
pub fn evaluate_quick(inputs: &Inputs) -> Option<Result<Evaluation, ModelError>> {
    let e = evaluated(inputs, schedule::solve_quick(&inputs.shuffle())?, mappers::QUICK_SEARCH_INTERVALS);
    match &e {
        Ok(e) if matches!(e.search(inputs), Some(MapperSearch::Unproven { .. })) => None,
        _ => Some(e),
    }
}

/// A map point's solve within the map's budget, or where that is too small
/// a sweep point's, `retries` times a row at most.
#[cfg(feature = "full")]
fn within_map_budget<T, E>(
    retries: &mut usize,
    mut solve: impl FnMut(schedule::Budget) -> Result<T, E>,
) -> Result<T, E> {
    solve(schedule::Budget::MAP_POINT).or_else(|e| match retries.checked_sub(1) {
        Some(left) => {
            *retries = left;
            solve(schedule::Budget::SWEEP_POINT)
        }
        None => Err(e),
    })
}

fn evaluated(
    inputs: &Inputs,
    solution: Result<Solution, SolveError>,
    search_budget: usize,
) -> Result<Evaluation, ModelError> {
    let solution = solution.map_err(|e| match e {
        SolveError::Precision { .. } => ModelError::param(ParamError::constraint(
            inputs.rates_key,
            e.to_string(),
            "mapper times a_map · V, transfer times C · V and start-ups S within about 10¹⁵ of each other, or parameters where the chain method applies".into(),
        )),
        SolveError::TooLarge { limit, .. } => ModelError::param(ParamError::constraint(
            inputs.mappers_key,
            e.to_string(),
            format!(
                "a smaller general LP{}: fewer mappers, or parameters where a simpler schedule is optimal (a faster network, a larger V)",
                if limit < schedule::Budget::FORM.general_work { " at a point of a map or a sweep (the form takes larger ones)" } else { "" }
            ),
        )),
        SolveError::Unproven { .. } | SolveError::NeedsGeneralLp => ModelError::Solver(e.to_string()),
    })?;
    let t_shuffle = solution.makespan();
    Ok(Evaluation {
        t_shuffle,
        t_red: inputs.t_red(),
        t_seq: inputs.t_seq(),
        solution,
        mappers: Default::default(),
        search_budget,
    })
}

/// What the search for the best mapper count found, where it is worth a
/// sentence: the given m far past the best, or no proof.
fn mappers_remark(inputs: &Inputs, e: &Evaluation) -> Option<Remark> {
    let m = inputs.m();
    let text = match e.search(inputs)? {
        MapperSearch::Best { m: best, .. } if 2 * best <= m => {
            let (_, t_best) = e.best(inputs)?;
            let (all, few) = match inputs.mappers_key {
                "m" => (plural(m as f64, "mapper", "mappers"), best.to_string()),
                _ => (format!("the list's {m} mappers"), format!("its first {best}")),
            };
            format!(
                "With V = {} B, {all} are no faster than {few}: T = {} s at m = {best} against {} s. More mappers only add start-ups here.",
                crate::format::base(inputs.v),
                sig(t_best, 6),
                sig(e.t(), 6)
            )
        }
        MapperSearch::Best { .. } => return None,
        MapperSearch::Unproven { m: stuck, best, budget } => {
            // The given m is a count solved too (the search may not reach it).
            let best = match best {
                Some((b, t)) if t < e.t_shuffle => (b, t),
                _ => (m, e.t_shuffle),
            };
            format!(
                "m_best is not shown: m' = {stuck} is not ruled out by its lower bound but needs the general solver, or more interval passes than the search's budget of {}; the best count found is m' = {} with T = {} s.",
                crate::format::number(budget as f64, 2),
                best.0,
                sig(best.1 + e.t_red, 6)
            )
        }
    };
    Some(Remark { key: Some("m_best"), level: Level::Info, text })
}

const MAPPER_KINDS: &[ChoiceOption] = &[
    ChoiceOption::new("identical", "Identical (one a_map)"),
    ChoiceOption::new("heterogeneous", "Heterogeneous (per-mapper a_map)"),
];

const IDENTICAL: Option<AppliesWhen> = Some(AppliesWhen { key: "mappers", values: &["identical"] });
const HETEROGENEOUS: Option<AppliesWhen> = Some(AppliesWhen { key: "mappers", values: &["heterogeneous"] });

/// Defaults: the lecture's reference set.
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "mappers",
        "Mappers",
        "",
        ParamKind::Choice { default: "identical", options: MAPPER_KINDS },
        "Identical mappers share a_map; heterogeneous ones each have their own, started in list order.",
        "eq. (5): A_i",
    ),
    ParamSpec {
        applies_when: IDENTICAL,
        ..ParamSpec::new(
            "m",
            "Mappers m",
            "",
            ParamKind::number(1000.0, Range::closed(1.0, MAX_NODES as f64), Scale::Log, true),
            "Number of mappers; mapper i starts after i start-ups.",
            "Assumptions & Notation",
        )
    },
    ParamSpec::new(
        "r",
        "Reducers r",
        "",
        ParamKind::number(100.0, Range::closed(1.0, MAX_NODES as f64), Scale::Log, true),
        "Number of reducers; each receives γV/r.",
        "Assumptions & Notation",
    ),
    ParamSpec::new(
        "l",
        "Bisection width ℓ",
        "channels",
        ParamKind::number(100.0, Range::closed(1.0, MAX_NODES as f64), Scale::Log, true),
        "Most channels in use at once; reducers are served in groups of ℓ (min(ℓ, m) is used: one channel per mapper).",
        "Assumptions & Notation, itv",
    ),
    ParamSpec::new(
        "V",
        "Load size V",
        "B",
        ParamKind::number(1e15, Range::positive(1e21), Scale::Log, false),
        "Total input (1 PB in the lecture).",
        "eq. (7)",
    ),
    ParamSpec::new(
        "S",
        "Start-up S",
        "s",
        ParamKind::number(1.0, Range::closed(0.0, 1e9), Scale::Log, false),
        "Start-up of each processor; mapper i is ready after iS.",
        "eq. (5)",
    ),
    ParamSpec::new(
        "C",
        "C (communication)",
        "s/B",
        ParamKind::number(1e-6, Range::closed(0.0, 1e9), Scale::Log, false),
        "Time per byte between two processors in an empty network (1/C is the link speed).",
        "eq. (6)",
    ),
    ParamSpec::new(
        "gamma",
        "γ (map output ratio)",
        "",
        ParamKind::number(0.1, Range::positive(1e6), Scale::Log, false),
        "Mapper output as a fraction of its input; γα_i/r goes to each reducer.",
        "eq. (6)",
    ),
    ParamSpec {
        applies_when: IDENTICAL,
        ..ParamSpec::new(
            "a_map",
            "a_map (map rate)",
            "s/B",
            ParamKind::number(1e-5, Range::positive(1e9), Scale::Log, false),
            "Map time per byte.",
            "Modeling Setting",
        )
    },
    ParamSpec {
        applies_when: HETEROGENEOUS,
        ..ParamSpec::new(
            "a_map_list",
            "a_map(i)",
            "s/B",
            ParamKind::List {
                default: &[1e-5, 1e-5, 2e-5, 2e-5],
                range: Range::positive(1e9),
                scale: Scale::Log,
                group: "mappers",
                max_len: MAX_NODES,
            },
            "Map time per byte of each mapper, in start order.",
            "eq. (5): A_i",
        )
    },
    ParamSpec::new(
        "s_map",
        "s_map (per load unit)",
        "s",
        ParamKind::number(1e-2, Range::closed(0.0, 1e9), Scale::Log, false),
        "Map start-up per load unit; spread over the unit it adds s_map/lu to each byte's cost.",
        "Modeling Setting",
    ),
    ParamSpec::new(
        "lu",
        "Load unit lu",
        "B",
        ParamKind::number(16e6, Range::positive(1e18), Scale::Log, false),
        "Size of one load unit (16–64 MB).",
        "Modeling Setting",
    ),
    ParamSpec::new(
        "a_red",
        "a_red (reduce rate)",
        "s/B",
        ParamKind::number(1e-5, Range::closed(0.0, 1e9), Scale::Log, false),
        "Reduce time factor: a reducer sorts z bytes in a_red z log₂ z.",
        "Modeling Setting",
    ),
    ParamSpec::new(
        "s_red",
        "s_red (reduce start-up)",
        "s",
        ParamKind::number(1e-2, Range::closed(0.0, 1e9), Scale::Log, false),
        "Start-up of each reducer's computation.",
        "Modeling Setting",
    ),
];

const OUTPUTS: &[Output<MapReduceEvaluation>] = &[
    Output::num("T", "Schedule length T", "s", "t_{N+1} + t_red", |e| e.result.t()),
    Output::num("t_shuffle", "End of shuffle t_{N+1}", "s", "optimum of the LP (4)-(7)", |e| e.result.t_shuffle),
    Output::num("t_red", "Reduce time t_red", "s", "s_red + a_red z log₂ z, z = γV/r", |e| e.result.t_red),
    Output::num("speedup", "Speedup", "", "T_seq / T", |e| e.result.speedup()),
    Output::num("T_seq", "One machine T_seq", "s", "S + AV + s_red + a_red γV log₂(γV)", |e| e.result.t_seq),
    Output::num("t_map", "Last map ends t_m", "s", "mS + A_m α_m", |e| {
        e.result.solution.t.get(e.inputs.m() - 1).copied().unwrap_or(f64::NAN)
    }),
    Output::num("intervals", "Intervals N", "", "itv(m, r)", |e| e.inputs.intervals.count() as f64),
    Output::num("A", "Map cost A", "s/B", "a_map + s_map/lu (first mapper)", |e| {
        e.inputs.a.first().copied().unwrap_or(f64::NAN)
    }),
    Output::num("z", "Reducer input z", "B", "γV/r", |e| e.inputs.reducer_input()),
    Output::new("alpha", "Load parts α_i", "B", "every α_i", Read::Array(|e| Some(e.result.solution.alpha.clone()))),
    Output::new(
        "m_best",
        "Best mapper count m_best",
        "",
        "the m' ≤ m with the shortest T (of a list, its first m')",
        Read::Maybe(|e| e.result.best(&e.inputs).map(|(m, _)| m as f64)),
    ),
    Output::new(
        "T_best",
        "T with m_best mappers",
        "s",
        "T at m_best",
        Read::Maybe(|e| e.result.best(&e.inputs).map(|(_, t)| t)),
    ),
];

const CHARTS: &[View<MapReduceEvaluation>] = &[
    View::new("gantt", "Schedule", "Mapper i starts after i start-ups S, maps α_i for A α_i, then in each of its intervals sends γα_i/r to one reducer (γCα_i/r); a reducer's bars are its receive windows, then it reduces for t_red once the shuffle ends.", draw),
];

fn draw(e: &MapReduceEvaluation, _gantt: &str) -> Result<Chart, ModelError> {
    views::gantt(&e.inputs, &e.result)
}

const R_VALUES: &[f64] = &[10.0, 25.0, 50.0, 100.0, 200.0];
const GAMMA_VALUES: &[f64] = &[1.0, 0.1, 0.01, 0.001];
const L_VALUES: &[f64] = &[10.0, 25.0, 50.0, 100.0];

const SWEEPS: &[SweepSpec] = &[
    SweepSpec {
        id: "speedup-m-r",
        title: "Speedup vs m for several r",
        caption: "ℓ = r for each curve (as in the reference set r = ℓ = 100); everything else as in the form.",
        output: "speedup",
        x: "m",
        x_min: 1.0,
        x_max: 10000.0,
        points: 50,
        x_log: true,
        series: "r",
        label: "r = ℓ",
        values: R_VALUES,
        linked: &["l"],
        fixed: &[],
    },
    SweepSpec {
        id: "speedup-m-gamma",
        title: "Speedup vs m for several γ",
        caption: "Everything else as in the form.",
        output: "speedup",
        x: "m",
        x_min: 1.0,
        x_max: 10000.0,
        points: 50,
        x_log: true,
        series: "gamma",
        label: "γ",
        values: GAMMA_VALUES,
        linked: &[],
        fixed: &[],
    },
    SweepSpec {
        id: "shuffle-m-l",
        title: "Shuffle time vs m for several ℓ",
        caption: "γ = 1, so every mapper sends as much as it reads; ℓ below r splits the reducers into groups served in turn. Everything else as in the form.",
        output: "t_shuffle",
        x: "m",
        x_min: 1.0,
        x_max: 10000.0,
        points: 50,
        x_log: true,
        series: "l",
        label: "ℓ",
        values: L_VALUES,
        linked: &[],
        fixed: &[("gamma", 1.0)],
    },
];
const PRESETS: &[Preset] = &[
    Preset {
        id: "reference",
        label: "Lecture reference set (m = 1000, r = ℓ = 100, V = 1 PB)",
        source: "Slides, Modeling Setting",
        note: "lu = 16 MB, S = 1 s, C = 10⁻⁶ s/B, γ = 0.1, a_map = a_red = 10⁻⁵ s/B, s_map = s_red = 10 ms.",
        values: &[
            ("mappers", PresetValue::Choice("identical")),
            ("m", PresetValue::Num(1000.0)),
            ("r", PresetValue::Num(100.0)),
            ("l", PresetValue::Num(100.0)),
            ("V", PresetValue::Num(1e15)),
            ("S", PresetValue::Num(1.0)),
            ("C", PresetValue::Num(1e-6)),
            ("gamma", PresetValue::Num(0.1)),
            ("a_map", PresetValue::Num(1e-5)),
            ("s_map", PresetValue::Num(1e-2)),
            ("lu", PresetValue::Num(16e6)),
            ("a_red", PresetValue::Num(1e-5)),
            ("s_red", PresetValue::Num(1e-2)),
        ],
    },
    Preset {
        id: "example-4x4",
        label: "Communication schedule m = r = 4, ℓ = 2",
        source: "Slides, Communication Schedule; SPEC reproduction",
        note: "A = 1 (a_map = 1, s_map = 0), V = 100, S = C = γ = 1, no reduce cost: α = (2284, 2732, 3292, 3992)/123, t₁₀ = 9982/123.",
        values: &[
            ("mappers", PresetValue::Choice("identical")),
            ("m", PresetValue::Num(4.0)),
            ("r", PresetValue::Num(4.0)),
            ("l", PresetValue::Num(2.0)),
            ("V", PresetValue::Num(100.0)),
            ("S", PresetValue::Num(1.0)),
            ("C", PresetValue::Num(1.0)),
            ("gamma", PresetValue::Num(1.0)),
            ("a_map", PresetValue::Num(1.0)),
            ("s_map", PresetValue::Num(0.0)),
            ("lu", PresetValue::Num(16e6)),
            ("a_red", PresetValue::Num(0.0)),
            ("s_red", PresetValue::Num(0.0)),
        ],
    },
    Preset {
        id: "heterogeneous-4",
        label: "Four mappers, two of them half as fast",
        source: "Illustration",
        note: "The example's system with per-mapper map rates; the LP gives the slow mappers less.",
        values: &[
            ("mappers", PresetValue::Choice("heterogeneous")),
            ("a_map_list", PresetValue::List(&[1.0, 1.0, 2.0, 2.0])),
            ("r", PresetValue::Num(4.0)),
            ("l", PresetValue::Num(2.0)),
            ("V", PresetValue::Num(100.0)),
            ("S", PresetValue::Num(1.0)),
            ("C", PresetValue::Num(1.0)),
            ("gamma", PresetValue::Num(1.0)),
            ("s_map", PresetValue::Num(0.0)),
            ("a_red", PresetValue::Num(0.0)),
            ("s_red", PresetValue::Num(0.0)),
        ],
    },
];

const PRESET_GROUPS: &[PresetGroup] = &[PresetGroup { label: "Lecture examples", presets: PRESETS }];

const NOTES: &[&str] = &[
    "Speedup is T_seq / T with T_seq = S + AV + s_red + a_red (γV) log₂(γV): one machine (the fastest mapper) maps and reduces everything, with no shuffle.",
    "The shuffle LP (4)-(7) is solved exactly. The chain method makes every interval before the last mapper exactly as long as its largest send, which is O(m + N); a dual solution then proves the result optimal. Where that proof fails and there is one reducer group, start-ups may outlast the work: then the load fits on the first mappers, the last ones idle, and the shuffle ends at mS, which no schedule beats (mapper m starts after m start-ups). With one reducer group and a load that does not fit before mS, the chain runs over the first q mappers and the rest idle, again with its dual proof. Where many reducer groups share a slow network, the first mappers take equal parts (a plateau) and the chain follows, or the last mappers idle, each with its dual proof. Any other shuffle is solved as a general LP in a compact form (one variable per distinct window of senders, however many intervals there are) by an interior-point method, and its schedule is accepted only when a dual bound proves it optimal to 10⁻⁹. A remark says which method answered.",
    "m_best is the m' ≤ m with the shortest T (ties go to fewer mappers); of a per-mapper list, its first m' mappers, which start first. The search solves no more m' than it must: mapper m' starts after m' start-ups and every later reducer group receives all of V after t_m', so T ≥ m'S + (⌈r/ℓ⌉ − 1)γCV/r + t_red, and once ℓ is reached that bound only grows; with each mapper's own map cost, bounds of the same kind order a list's counts, and they are solved from the least bound until the bounds pass the best T found. Where identical mappers' parts grow along the pipeline (m'S < γCV/r) the chain is solved in closed form, O(1) per m'.",
    "Everything is solved in scaled units (α/V, t/T0), so C = 10⁻⁹ s/B beside V = 10¹⁵ B loses nothing.",
    "Intervals follow the original work's itv(i, j) = (⌈j/ℓ⌉ − 1)m + i + ((j − 1) mod ℓ), with ℓ taken as min(ℓ, m): no mapper can hold two channels at once. With r ≤ ℓ the shuffle is a plain pipeline, N = m + r − 1.",
    "Reducers all receive z = γV/r and reduce for s_red + a_red z log₂ z after the shuffle ends; V must give each at least one unit.",
    "Heterogeneous mappers each have their own a_map, started in list order; m is the length of the list.",
];

pub static SPEC: ModelSpec = ModelSpec {
    params: PARAMS,
    outputs: &output_specs::<_, { OUTPUTS.len() }>(OUTPUTS),
    preset_groups: PRESET_GROUPS,
    charts: &chart_specs::<_, { CHARTS.len() }>(CHARTS),
    sweeps: SWEEPS,
    maps: &[
        MapPreset { id: "speedup-m-r", label: "Speedup: m vs r (ℓ as in the form)", output: "speedup", x: "m:10:10000:log", y: "r:10:1000:log", levels: &[25.0, 50.0, 100.0, 250.0, 500.0, 1000.0], grid: 64, values: &[] },
        MapPreset { id: "speedup-m-gamma", label: "Speedup: m vs γ", output: "speedup", x: "m:10:10000:log", y: "gamma:0.001:1:log", levels: &[50.0, 100.0, 250.0, 500.0, 1000.0, 2000.0], grid: 64, values: &[] },
    ],
    gaps: "no schedule: the shuffle's general LP is too large to solve here",
    notes: NOTES,
    short_title: "MapReduce",
    ..ModelSpec::new(
        "mapreduce",
        "MapReduce as a divisible load",
        "Drozdowski — Divisible load theory, from basics to applications (lecture), after Berlinska and Drozdowski",
        "m mappers split V, shuffle γV to r reducers over at most ℓ channels, and the reducers sort: the load split and shuffle schedule from the LP (4)-(7), solved exactly, with the speedup.",
    )
};

/// The `mapreduce` model of the registry.
pub struct MapReduce;

/// The inputs and the schedule.
pub type MapReduceEvaluation = Evaluated<Inputs, Evaluation>;

impl Model for MapReduce {
    type Evaluation = MapReduceEvaluation;
    const OUTPUTS: &'static [Output<MapReduceEvaluation>] = OUTPUTS;
    const CHARTS: &'static [View<MapReduceEvaluation>] = CHARTS;

    fn spec() -> &'static ModelSpec {
        &SPEC
    }

    fn evaluate(p: &Params) -> Result<MapReduceEvaluation, ModelError> {
        let inputs = Inputs::new(p)?;
        let result = evaluate(&inputs)?;
        Ok(Evaluated { inputs, result })
    }

    /// A sweep's point: within [`schedule::Budget::SWEEP_POINT`].
    fn evaluate_point(p: &Params) -> Result<MapReduceEvaluation, ModelError> {
        let inputs = Inputs::new(p)?;
        let result = evaluate_within(&inputs, schedule::Budget::SWEEP_POINT)?;
        Ok(Evaluated { inputs, result })
    }

    /// Long: more than [`schedule::QUICK_INTERVALS`] intervals, or a
    /// shuffle only the general LP solves.
    fn evaluate_quick(p: &Params) -> Option<Result<MapReduceEvaluation, ModelError>> {
        let inputs = match Inputs::new(p) {
            Ok(inputs) => inputs,
            Err(e) => return Some(Err(e)),
        };
        Some(evaluate_quick(&inputs)?.map(|result| Evaluated { inputs, result }))
    }

    /// Any output over any two numeric parameters, each point validated as
    /// the form would; where the mappers are identical and the chain's
    /// certificate holds, T, t_shuffle, t_map and the speedup come from the
    /// chain in closed form (O(1) a point instead of O(N)), elsewhere from
    /// the exact solver, the descent's without its schedule over every
    /// interval ([`schedule::solve_near_ends`]). Maps are drawn by the full
    /// module only.
    #[cfg(feature = "full")]
    fn field(output: &str, p: &Params, x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> bool {
        let Some(read) = OUTPUTS.iter().find(|o| o.spec.key == output) else { return false };
        // T, t_shuffle, t_map and the speedup follow from the shuffle's ends.
        let of_ends = |inputs: &Inputs, ends: schedule::ShuffleEnds| -> Option<f64> {
            let t = ends.t_shuffle + inputs.t_red();
            match output {
                "T" => Some(t),
                "t_shuffle" => Some(ends.t_shuffle),
                "t_map" => Some(ends.t_map),
                "speedup" => Some(inputs.t_seq() / t),
                _ => None,
            }
        };
        let ends_only = matches!(output, "T" | "t_shuffle" | "t_map" | "speedup");
        let closed = |inputs: &Inputs| of_ends(inputs, inputs.closed_form_ends()?);
        let xs: Vec<_> = x.1.iter().map(|v| SPEC.value_at(x.0, *v)).collect();
        let nx = x.1.len();
        let mut hint = schedule::Hint::default();
        for (j, yv) in y.1.iter().enumerate() {
            let Some(yv) = SPEC.value_at(y.0, *yv) else { continue };
            let row = p.with(y.0, yv);
            let mut retries = MAP_ROW_RETRIES;
            for (i, xv) in xs.iter().enumerate() {
                let Some(xv) = xv else { continue };
                let Ok(inputs) = Inputs::new(&row.with(x.0, xv.clone())) else { continue };
                let value = closed(&inputs).or_else(|| {
                    if ends_only {
                        let shuffle = inputs.shuffle();
                        let ends =
                            within_map_budget(&mut retries, |b| schedule::solve_near_ends(&shuffle, b, &mut hint))
                                .ok()?;
                        return of_ends(&inputs, ends);
                    }
                    let result = within_map_budget(&mut retries, |b| evaluate_near(&inputs, b, &mut hint)).ok()?;
                    read.number(&Evaluated { inputs, result })
                });
                if let (Some(slot), Some(v)) = (out.get_mut(j * nx + i), value) {
                    *slot = if v.is_finite() { v } else { f64::NAN };
                }
            }
        }
        true
    }

    fn tables(e: &MapReduceEvaluation) -> Vec<Table> {
        vec![views::schedule_table(&e.inputs, &e.result), views::interval_table(&e.inputs), views::reproduction_table()]
    }

    /// On the sweeps over m, each curve's m_best over the sweep's range
    /// (sweeps are drawn by the full module only).
    #[cfg(feature = "full")]
    fn sweep_marks(sweep: &SweepSpec, p: &Params) -> Vec<crate::chart::Series> {
        views::best_marks(sweep, p)
    }

    fn sweep_note(sweep: &SweepSpec, p: &Params, data: &SweepData) -> Option<String> {
        views::observation(sweep, p, data)
    }

    fn remarks(evaluated: &MapReduceEvaluation) -> Vec<Remark> {
        let (inputs, e) = (&evaluated.inputs, &evaluated.result);
        let mut out = Vec::new();
        // The mappers past `working`, idle: "no mapper idle", "the last mapper idle", "the last 3 mappers idle".
        let idle_after = |working: usize| match inputs.m() - working {
            0 => "no mapper idle".to_string(),
            1 => "the last mapper idle".to_string(),
            idle => format!("the last {idle} mappers idle"),
        };
        let method = match e.solution.method {
            Method::Chain => "the chain method (every interval before the last mapper as long as its largest send), proved optimal by a dual solution".to_string(),
            Method::StartupBound => format!(
                "the start-up bound: mapper m starts after m start-ups, so no shuffle ends before mS = {} s, and the load fits on the first mappers with the last ones idle",
                sig(inputs.m() as f64 * inputs.s, 6)
            ),
            Method::IdleTail { working } => format!(
                "the chain over the first {} (every interval before mapper {working} as long as its largest send), with {}: start-ups outlast the transfers they would save; proved optimal by a dual solution",
                plural(working as f64, "mapper", "mappers"),
                idle_after(working)
            ),
            Method::Plateau { plateau, below: 0 } if plateau == inputs.m() => format!(
                "equal parts on all {}: a start-up is about as long as a part's transfer (S ≥ cV/m), so every interval before the last mapper lasts S; proved optimal by a dual solution",
                plural(plateau as f64, "mapper", "mappers")
            ),
            Method::Plateau { plateau, below: 0 } => format!(
                "the chain after a plateau: the first {} take equal parts (the windows that wrap around the mappers all hold them), every later interval as long as its largest send; proved optimal by a dual solution",
                plural(plateau as f64, "mapper", "mappers")
            ),
            Method::Plateau { plateau, below } => format!(
                "the chain after a plateau: {} of the first {plateau} mappers take equal parts, and {} as late as the next mapper allows; every later interval as long as its largest send; proved optimal by a dual solution",
                count((plateau - below) as f64),
                if below == 1 { "the slower one between them finishes".to_string() } else { format!("the {} slower ones between them finish", count(below as f64)) }
            ),
            Method::PlateauIdle { working } => format!(
                "equal parts on the first {}, {}: start-ups outlast the transfers, and every later reducer group receives the same from each working mapper; proved optimal by a dual solution",
                plural(working as f64, "mapper", "mappers"),
                idle_after(working)
            ),
            Method::PlateauDescent { plateau, working, level } => {
                let level = match level {
                    0 => String::new(),
                    1 => " (level for one step, where two mappers tie for their windows' largest part)".to_string(),
                    n => format!(" (level for {n} steps, where two mappers tie for their windows' largest part)"),
                };
                // Without a plateau the parts fall from the first mapper.
                let from = if plateau == 1 {
                    "parts falling from the first mapper".to_string()
                } else {
                    format!("equal parts on the first {}, then parts falling", plural(plateau as f64, "mapper", "mappers"))
                };
                let because = match (plateau, inputs.intervals.groups()) {
                    (1, _) => "",
                    (_, 1) => ", and the rest would start after the transfers they could save",
                    _ => ", and the long plateau keeps every later reducer group's largest part low",
                };
                format!(
                    "{from} as fast as the start-ups allow to mapper {working}{level}, {}: mapping outlasts the start-ups, so the last mappers start without waiting{because}; proved optimal by a dual solution",
                    idle_after(working)
                )
            }
            Method::CappedLevel { capped } => format!(
                "parts capped at one level: {} hold every window's largest part, and every other mapper finishes as late as the next one allows (start-ups outlast the transfers, and the faster mappers take no more than the level); proved optimal by a dual solution",
                plural(capped as f64, "mapper", "mappers")
            ),
            Method::CappedLevels { capped, levels, dips } if dips > 0 => {
                let shape = match (levels - 1 - dips, dips) {
                    (0, 1) => "one level, and a lower one dipping below it at the last mappers".to_string(),
                    (0, _) => format!("one level, and {dips} lower ones dipping at the last mappers"),
                    _ => format!("{levels} levels, rising along the first mappers and dipping at the last ones"),
                };
                let windows = if levels == dips + 1 {
                    "the last intervals' windows hold only the last mappers"
                } else {
                    "the first and the last intervals' windows hold only the first and the last mappers"
                };
                let lower = if levels == 2 { "a lower level there keeps" } else { "lower levels there keep" };
                format!(
                    "parts capped at {shape}: {} hold every window's largest part, and every other mapper finishes as late as the next one allows; {windows}, so {lower} those windows' largest parts low (start-ups outlast the transfers); proved optimal by a dual solution",
                    plural(capped as f64, "mapper", "mappers")
                )
            }
            Method::CappedLevels { capped, levels, .. } => format!(
                "parts capped at {levels} levels rising along the first mappers: {} hold every window's largest part, and every other mapper finishes as late as the next one allows; the first intervals' windows hold only the first mappers, so lower levels there keep those windows' largest parts low (start-ups outlast the transfers); proved optimal by a dual solution",
                plural(capped as f64, "mapper", "mappers")
            ),
            Method::ChainCappedFirst { capped, levels } => format!(
                "the chain method with its first mappers capped: {capped} of them held at {}, and every other mapper finishes as late as the next one allows; the first intervals' windows hold only the first mappers, so lower parts there keep those windows' largest parts low; proved optimal by a dual solution",
                if levels == 1 {
                    "one level, which ends at a mapper whose interval is tight".to_string()
                } else {
                    format!("{levels} levels rising along them, each ending at a mapper whose interval is tight")
                }
            ),
            Method::ChainTiedFirst { partner } => format!(
                "the chain method with the first mapper's part raised to mapper {partner}'s: the two share the largest part of the windows that wrap around from the last mappers to the first, so the first mapper's interval is longer than its send, and every later interval before the last mapper is as long as its largest send; proved optimal by a dual solution"
            ),
            Method::InteriorPoint { iterations, rounds: 1, again } => format!(
                "the general LP: no schedule of a simpler form is optimal here, so the LP in a compact form (one variable for each distinct window of senders) was solved by an interior-point method{} and its schedule proved optimal by a dual bound to 10⁻⁹",
                if again {
                    format!(", a second time more regularised where the first fell short of the proof ({iterations} iterations in all),")
                } else {
                    format!(" in {iterations} iterations")
                }
            ),
            Method::InteriorPoint { iterations, rounds, .. } => format!(
                "the general LP: no schedule of a simpler form is optimal here, so the LP was solved by an interior-point method through {rounds} relaxations (each window's largest part bounding only the mappers found to exceed it so far; {iterations} iterations in all) and its schedule proved optimal by a dual bound to 10⁻⁹"
            ),
        };
        out.push(Remark { key: Some("t_shuffle"), level: Level::Info, text: format!("Solved by {method}.") });
        if inputs.l > inputs.m() {
            out.push(Remark {
                key: Some("l"),
                level: Level::Info,
                text: format!(
                    "ℓ = {} is wider than m = {}: a mapper holds one channel at a time, so ℓ = {} is used.",
                    inputs.l,
                    inputs.m(),
                    inputs.m()
                ),
            });
        }
        out.extend(mappers_remark(inputs, e));
        let share = e.t_red / e.t();
        if share > 0.5 {
            out.push(Remark {
                key: Some("t_red"),
                level: Level::Info,
                text: format!("The reduce phase is {}% of T: more mappers can only shorten the rest, so speedup levels off near T_seq/t_red = {}.", sig(100.0 * share, 3), sig(e.t_seq / e.t_red, 4)),
            });
        }
        out
    }
}
