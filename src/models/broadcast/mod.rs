//! Broadcast algorithms compared (SPEC.md, "broadcast"): the classic
//! algorithms of [`crate::collective`] for `p` processes and `n` bytes under
//! the Hockney or the LogGP cost model, the lower bound, the fastest
//! algorithm, the best segment count, and MPICH's default choice; each
//! algorithm's schedule simulated and drawn as a timeline.
//!
//! Table 2 of the matrix-multiplication paper compares three of them (flat
//! tree, binomial tree, Fox's pipeline); the others are MPICH's (Thakur,
//! Rabenseifner, Gropp 2005) and Open MPI's (Pjesivac-Grbovic et al. 2007).
//!
//! ```
//! use isoperf::collective::{algorithms, Network};
//! // Hockney, α = 1, β = 1: a binomial tree over 4 processes takes 2 rounds of 1 + 4.
//! let net = Network::Hockney { alpha: 1.0, beta: 1.0 };
//! assert_eq!(algorithms::binomial(4, 4.0, &net), 10.0);
//! ```

use crate::chart::Chart;
use crate::collective::algorithms::{
    best_segments, lower_bound, most_segments, mpich_choice, Algorithm, MPICH_LONG, MPICH_MIN_PROCS, MPICH_SHORT,
};
use crate::collective::Network;
use crate::error::{ModelError, ParamError};
use crate::format::{base, sig};
use crate::model::{chart_specs, output_specs, Model, Output, Read, View};
use crate::spec::{
    AppliesWhen, CalibrationExample, Category, ChoiceOption, Guide, Level, MapPreset, ModelSpec, ParamKind, ParamSpec,
    Params, Preset, PresetGroup, PresetValue, Range, Remark, Scale, BYTE_UNITS,
};
use crate::table::Table;

mod views;

/// The most processes the timeline draws (one row each).
pub const TIMELINE_PROCESSES: u64 = 64;

/// Valid inputs: p ≥ 2 processes, n ≥ 1 byte, a cost model with positive
/// costs (g ≥ o), and 0 (the best) or 1 … n segments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inputs {
    pub p: u64,
    /// Bytes.
    pub n: f64,
    pub net: Network,
    pub algorithm: Algorithm,
    /// 0: each segmented algorithm at its best count.
    pub segments: u64,
}

/// One algorithm at these inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    pub algorithm: Algorithm,
    /// The segment count used (1 when unsegmented).
    pub k: u64,
    /// `None` where the algorithm does not apply.
    pub time: Option<f64>,
}

/// Every algorithm timed, the bound, and who wins.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub inputs: Inputs,
    pub timings: Vec<Timing>,
    pub bound: f64,
    pub best: Algorithm,
    /// The chosen algorithm's best segment count and its time, when it is segmented.
    pub segments_best: Option<(u64, f64)>,
}

impl Evaluation {
    pub fn timing(&self, a: Algorithm) -> Option<&Timing> {
        self.timings.iter().find(|t| t.algorithm == a)
    }

    pub fn time(&self, a: Algorithm) -> Option<f64> {
        self.timing(a).and_then(|t| t.time)
    }

    pub fn mpich(&self) -> Algorithm {
        mpich_choice(self.inputs.p, self.inputs.n)
    }
}

/// Every algorithm's time at `inputs`, each segmented one at the given
/// segment count or (0) its best.
pub fn timings(inputs: &Inputs) -> Vec<Timing> {
    let Inputs { p, n, net, segments, .. } = *inputs;
    Algorithm::ALL
        .into_iter()
        .map(|a| {
            let (k, time) = match (a.segmented(), segments) {
                (true, 0) => {
                    let (k, t) = best_segments(a, p, n, &net);
                    (k, Some(t))
                }
                (true, k) => (k, a.time(p, n, k, &net)),
                (false, _) => (1, a.time(p, n, 1, &net)),
            };
            Timing { algorithm: a, k, time: time.filter(|t| t.is_finite()) }
        })
        .collect()
}

/// Times every algorithm at `inputs`.
pub fn evaluate(inputs: &Inputs) -> Evaluation {
    let Inputs { p, n, net, algorithm, .. } = *inputs;
    let timings = timings(inputs);
    let best = timings
        .iter()
        .filter_map(|t| Some((t.algorithm, t.time?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(Algorithm::Binomial, |(a, _)| a);
    let segments_best = algorithm.segmented().then(|| best_segments(algorithm, p, n, &net));
    Evaluation { inputs: *inputs, timings, bound: lower_bound(p, n, &net), best, segments_best }
}

impl Inputs {
    pub fn new(p: &Params) -> Result<Inputs, ModelError> {
        let num = |key: &'static str| p.require_num(key);
        let net = match p.choice("cost") {
            Some("loggp") => Network::LogGP { l: num("L")?, o: num("o")?, g: num("g")?, big_g: num("G")? },
            _ => Network::Hockney { alpha: num("alpha")?, beta: num("beta")? },
        };
        let inputs = Inputs {
            p: num("p")? as u64,
            n: num("n")? * SPEC.unit_factor(p, "n_unit")?,
            net,
            algorithm: Algorithm::from_id(p.require_choice("algorithm")?).unwrap_or(Algorithm::Binomial),
            segments: num("segments")? as u64,
        };
        inputs.check()?;
        Ok(inputs)
    }

    /// The model's own rules beyond each field's range: at least one byte,
    /// g ≥ o, and no segment shorter than a byte (the form and the map's
    /// fast path both hold to them).
    fn check(&self) -> Result<(), ParamError> {
        let n = self.n;
        if n.is_nan() || n < 1.0 {
            return Err(ParamError::constraint(
                "n",
                format!("{} B is less than one byte", base(n)),
                "a message of at least 1 byte".into(),
            ));
        }
        if let Network::LogGP { o, g, .. } = self.net {
            if g < o {
                return Err(ParamError::constraint(
                    "g",
                    format!(
                        "g = {} s is shorter than the overhead o = {} s: a process cannot start messages faster than it can hand them over",
                        base(g),
                        base(o)
                    ),
                    format!("g ≥ o = {} s", base(o)),
                ));
            }
        }
        let most = most_segments(n);
        if self.segments > most {
            return Err(ParamError::constraint(
                "segments",
                format!("{} segments of a {} B message would be shorter than a byte", self.segments, base(n)),
                format!("0 (the best count) or 1 to {most}"),
            ));
        }
        Ok(())
    }
}

/// The algorithms as a categorical output's categories, in [`Algorithm::ALL`] order.
pub const ALGORITHMS: &[Category] = &[
    Category { id: Algorithm::Flat.id(), label: Algorithm::Flat.label() },
    Category { id: Algorithm::Binomial.id(), label: Algorithm::Binomial.label() },
    Category { id: Algorithm::Chain.id(), label: Algorithm::Chain.label() },
    Category { id: Algorithm::Binary.id(), label: Algorithm::Binary.label() },
    Category { id: Algorithm::SplitBinary.id(), label: Algorithm::SplitBinary.label() },
    Category { id: Algorithm::ScatterRecursiveDoubling.id(), label: Algorithm::ScatterRecursiveDoubling.label() },
    Category { id: Algorithm::ScatterRing.id(), label: Algorithm::ScatterRing.label() },
];

const ALGORITHM_CHOICES: &[ChoiceOption] = &[
    ChoiceOption::new("flat", "Flat tree (Dryad)"),
    ChoiceOption::new("binomial", "Binomial tree (MS-MPI, MPICH short)"),
    ChoiceOption::new("chain", "Pipelined chain (Fox)"),
    ChoiceOption::new("binary", "Segmented binary tree"),
    ChoiceOption::new("split_binary", "Split-binary tree (Open MPI)"),
    ChoiceOption::new("scatter_rd", "Scatter + recursive doubling (MPICH medium)"),
    ChoiceOption::new("scatter_ring", "Scatter + ring (MPICH long)"),
];

const COST_MODELS: &[ChoiceOption] =
    &[ChoiceOption::new("hockney", "Hockney: α + nβ"), ChoiceOption::new("loggp", "LogGP: L, o, g, G")];

const HOCKNEY: Option<AppliesWhen> = Some(AppliesWhen { key: "cost", values: &["hockney"] });
const LOGGP: Option<AppliesWhen> = Some(AppliesWhen { key: "cost", values: &["loggp"] });

/// Tempest's 20 Gbit/s InfiniBand under MS-MPI (Tables 1 and 3): the
/// ping-pong latency (printed 42.5 ms; µs is the likelier unit, as pmm's
/// notes say) and the 18.17 × 10⁶ elements/s of 8 bytes of Table 3.
const TEMPEST_ALPHA: f64 = 42.5e-6;
const TEMPEST_BETA: f64 = 1.0 / (8.0 * 18.17e6);

/// Defaults: one row broadcast of pmm's reference case (Table 3, MS.MPI
/// Tempest 20 Gbps): √25 = 5 processes, a 3200 × 3200 block of doubles.
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("p", "Processes p", "", ParamKind::number(5.0, Range::closed(2.0, 1e8), Scale::Log, true), "Processes taking part, the root included (pmm's row broadcast: √N).", "SPEC, broadcast"),
    ParamSpec {
        unit_from: Some("n_unit"),
        ..ParamSpec::new("n", "Message size n", "B", ParamKind::number(81_920_000.0, Range::positive(1e15), Scale::Log, false), "Bytes the root broadcasts (pmm: an m × m block of 8-byte elements, 8m² B; 3200² × 8 = 81,920,000 B for N = 25, M = 16000).", "SPEC, broadcast")
    },
    ParamSpec::new("n_unit", "unit of n", "", ParamKind::Choice { default: "B", options: BYTE_UNITS }, "kB = 1000 B, KiB = 1024 B: chosen explicitly, never guessed. A map over n reads n in this unit.", "SPEC, broadcast"),
    ParamSpec::new("cost", "Cost model", "", ParamKind::Choice { default: "hockney", options: COST_MODELS }, "Hockney: a message of b bytes takes α + bβ. LogGP: it arrives L + 2o + (b − 1)G after it starts and holds its sender g + (b − 1)G. Either way a process sends one message and receives one at a time (single-port, full-duplex).", "Hockney 1994; Alexandrov et al. 1995"),
    ParamSpec {
        applies_when: HOCKNEY,
        ..ParamSpec::new("alpha", "Start-up α", "s", ParamKind::number(TEMPEST_ALPHA, Range::positive(1e3), Scale::Log, false), "Time per message, whatever its size (latency and software overhead).", "Hockney")
    },
    ParamSpec {
        applies_when: HOCKNEY,
        ..ParamSpec::new("beta", "Per-byte time β", "s/B", ParamKind::Number { default: TEMPEST_BETA, range: Range::positive(1.0), scale: Scale::Log, integer: false, reciprocal_unit: Some("B/s") }, "Time per byte: the inverse of the bandwidth (1.25 GB/s is β = 8 × 10⁻¹⁰ s/B).", "Hockney")
    },
    ParamSpec {
        applies_when: LOGGP,
        ..ParamSpec::new("L", "Latency L", "s", ParamKind::number(1e-6, Range::positive(1e3), Scale::Log, false), "Time a small message spends in the network.", "LogGP")
    },
    ParamSpec {
        applies_when: LOGGP,
        ..ParamSpec::new("o", "Overhead o", "s", ParamKind::number(2e-7, Range::positive(1e3), Scale::Log, false), "Processor time to send or to receive a message, at each end.", "LogGP")
    },
    ParamSpec {
        applies_when: LOGGP,
        ..ParamSpec::new("g", "Gap g", "s", ParamKind::number(5e-7, Range::positive(1e3), Scale::Log, false), "Least time between two messages of one process (at least o).", "LogGP")
    },
    ParamSpec {
        applies_when: LOGGP,
        ..ParamSpec::new("G", "Gap per byte G", "s/B", ParamKind::Number { default: 4e-11, range: Range::positive(1.0), scale: Scale::Log, integer: false, reciprocal_unit: Some("B/s") }, "Time per byte of a long message: the inverse of the bandwidth.", "LogGP")
    },
    ParamSpec::new("algorithm", "Algorithm", "", ParamKind::Choice { default: "binomial", options: ALGORITHM_CHOICES }, "The algorithm whose time T, segment count and timeline are shown; the table compares them all.", "SPEC, broadcast"),
    ParamSpec::new("segments", "Segments k", "", ParamKind::number(0.0, Range::closed(0.0, 1_048_576.0), Scale::Linear, true), "Pieces the segmented algorithms (chain, binary, split-binary) cut the message into; 0 takes each one's best count.", "SPEC, broadcast"),
];

const OUTPUTS: &[Output<Evaluation>] = &[
    Output::new("T", "Broadcast time T", "s", "of the chosen algorithm", Read::Maybe(|e| e.time(e.inputs.algorithm))),
    Output::category("best", "Fastest algorithm", "the least time of the seven", ALGORITHMS, |e| Some(e.best.index())),
    Output::num("lower_bound", "Lower bound", "s", "Hockney: ⌈log₂ p⌉α + nβ; LogGP: see the notes", |e| {
        e.bound
    }),
    Output::new(
        "ratio",
        "T over the bound",
        "",
        "how far the chosen algorithm is from the bound",
        Read::Maybe(|e| e.time(e.inputs.algorithm).map(|t| t / e.bound)),
    ),
    Output::new(
        "segments_best",
        "Best segment count",
        "",
        "of the chosen algorithm, when it is segmented",
        Read::Maybe(|e| e.segments_best.map(|(k, _)| k as f64)),
    ),
    Output::new(
        "T_flat",
        "Flat tree",
        "s",
        "Hockney (p − 1)(α + nβ): the root sends to each in turn (Dryad; pmm paper, Table 2)",
        Read::Maybe(|e| e.time(Algorithm::Flat)),
    ),
    Output::new(
        "T_binomial",
        "Binomial tree",
        "s",
        "Hockney ⌈log₂ p⌉(α + nβ) (MS-MPI; MPICH below 12288 B; pmm paper, Table 2)",
        Read::Maybe(|e| e.time(Algorithm::Binomial)),
    ),
    Output::new(
        "T_chain",
        "Pipelined chain",
        "s",
        "Hockney (p + k − 2)(α + nβ/k), k segments (Fox 1987; pmm paper, Table 2)",
        Read::Maybe(|e| e.time(Algorithm::Chain)),
    ),
    Output::new(
        "T_binary",
        "Binary tree",
        "s",
        "Hockney (2(k − 1) + P)(α + nβ/k), P the heap's longest path (Pjesivac-Grbovic et al. 2007)",
        Read::Maybe(|e| e.time(Algorithm::Binary)),
    ),
    Output::new(
        "T_split_binary",
        "Split-binary tree",
        "s",
        "two binary trees on n/2, then one swap of n/2 (Open MPI; Pjesivac-Grbovic et al. 2007)",
        Read::Maybe(|e| e.time(Algorithm::SplitBinary)),
    ),
    Output::new(
        "T_scatter_rd",
        "Scatter + recursive doubling",
        "s",
        "Hockney 2 log₂ p α + 2(p − 1)/p nβ, p a power of two (van de Geijn; Thakur et al. 2005)",
        Read::Maybe(|e| e.time(Algorithm::ScatterRecursiveDoubling)),
    ),
    Output::new(
        "T_scatter_ring",
        "Scatter + ring",
        "s",
        "Hockney (⌈log₂ p⌉ + p − 1)α + 2(p − 1)/p nβ, any p (Thakur et al. 2005)",
        Read::Maybe(|e| e.time(Algorithm::ScatterRing)),
    ),
    Output::category("mpich", "MPICH's default", "by its message-size and process-count thresholds", ALGORITHMS, |e| {
        Some(e.mpich().index())
    }),
    Output::new(
        "mpich_ratio",
        "MPICH's default over the fastest",
        "",
        "1 where MPICH picks the model's optimum",
        Read::Maybe(|e| Some(e.time(e.mpich())? / e.time(e.best)?)),
    ),
];

const CHARTS: &[View<Evaluation>] = &[
    View::new("vs-n", "T against message size", "Every algorithm's time against n at the current p (log axes); dashed: the lower bound. Dots mark where the fastest algorithm changes; the ring marks the current n on the chosen algorithm.", draw),
    View::new("vs-p", "T against process count", "Every algorithm's time against p at the current n (log axes); dashed: the lower bound. Dots mark where the fastest algorithm changes; the ring marks the current p.", draw),
    View::new("timeline", "Timeline of the chosen algorithm", "The chosen algorithm's schedule as simulated: one row per process, one bar per message it receives, from the send's start to its arrival, coloured by segment.", draw),
];

fn draw(e: &Evaluation, id: &str) -> Result<Chart, ModelError> {
    views::chart(id, e)
}

const NOTES: &[&str] = &[
    "Every process sends one message and receives one at a time, both at once (single-port, full-duplex). Under Hockney a message of b bytes holds both ends for α + bβ; under LogGP it arrives L + 2o + (b − 1)G after it starts and holds its sender g + (b − 1)G.",
    "A discrete-event simulator plays each algorithm's actual sends (who sends which segment to whom, in program order; the scatters' exchanges and the split-binary swap as send-receives). Its times equal the closed forms to 10⁻⁹ for every p from 2 to 1000 tested, except the scatters under LogGP, whose closed forms start every exchange after the whole scatter: estimates within 0.5% of the simulation. The table says which.",
    "Recursive doubling needs p to be a power of two; for other p it has no time here (MPICH then uses the ring).",
    "Lower bound. Hockney: ⌈log₂ p⌉α + nβ (the processes reached at most double per start-up, and the last receives n bytes). LogGP: the larger of L + 2o + (n − 1)G (the last byte crosses once) and L + 2o + (⌈log₂ p⌉ − 1)·min(g, L + 2o) (the processes reached at most double every min(g, L + 2o)).",
    "MPICH's default (MPICH 3's MPIR_Bcast_intra, after Thakur, Rabenseifner and Gropp 2005): the binomial tree below 12288 B or 8 processes, scatter + recursive doubling below 524288 B when p is a power of two, scatter + ring otherwise. Its thresholds are drawn on the winner map.",
    "Table 1 of the matrix-multiplication paper prints its ping-pong latencies in ms (42.5 ms on Tempest's InfiniBand); its own MS-MPI broadcasts of §3.1 suggest µs, which the presets use.",
];

macro_rules! hockney {
    ($id:literal, $label:literal, $source:literal, $note:literal, $alpha:expr, $beta:expr) => {
        Preset {
            id: $id,
            label: $label,
            source: $source,
            note: $note,
            values: &[
                ("cost", PresetValue::Choice("hockney")),
                ("alpha", PresetValue::Num($alpha)),
                ("beta", PresetValue::Num($beta)),
            ],
        }
    };
}

const PAPER_NETWORKS: &[Preset] = &[
    hockney!("tempest-20g", "Tempest, MS-MPI over 20 Gbit/s InfiniBand (Tables 1, 3)", "pmm paper, Tables 1 and 3", "α = 42.5 µs (Table 1's ping-pong latency, read as µs); β = 1/(8 × 18.17 × 10⁶) s/B (Table 3's MS.MPI rate, 8-byte elements).", TEMPEST_ALPHA, TEMPEST_BETA),
    hockney!("tempest-1g", "Tempest, MS-MPI over 1 Gbit/s Ethernet (Tables 1, 3)", "pmm paper, Tables 1 and 3", "α = 116.3 µs; β = 1/(8 × 10.73 × 10⁶) s/B.", 116.3e-6, 1.0 / (8.0 * 10.73e6)),
    hockney!("azure-100m", "Azure small instances, 100 Mbit/s (Tables 1, 3)", "pmm paper, Tables 1 and 3", "α = 285.8 µs; β = 1/(8 × 6.17 × 10⁶) s/B, Dryad's rate (Table 3 gives no MPI rate for Azure; it includes the file pipe).", 285.8e-6, 1.0 / (8.0 * 6.17e6)),
    hockney!("quarry-10g", "Quarry, Intel MPI over 10 Gbit/s (Tables 1, 3)", "pmm paper, Tables 1 and 3", "α = 75.3 µs; β = 1/(8 × 15.62 × 10⁶) s/B.", 75.3e-6, 1.0 / (8.0 * 15.62e6)),
    hockney!("odin-10g", "Odin, Open MPI over 10 Gbit/s (Tables 1, 3)", "pmm paper, Tables 1 and 3", "α = 94.1 µs; β = 1/(8 × 16.71 × 10⁶) s/B.", 94.1e-6, 1.0 / (8.0 * 16.71e6)),
    hockney!("myrinet", "Myrinet 1.28 Gbit/s, start-up as the pipeline paper's τ = 0 (§IV)", "pipeline paper, §IV and §VI-B", "β = 8/1.28 × 10⁹ s/B from C = 1.28 Gbit/s; the paper neglects latency (τ = 0) and gives no start-up, so α is a nominal 1 µs.", 1e-6, 8.0 / 1.28e9),
    hockney!("fdr-56g", "FDR InfiniBand 56 Gbit/s (the Graph500 paper's cluster, §3)", "Graph500 paper, §3", "β = 8/56 × 10⁹ s/B from the link rate; the paper gives no latency, so α is a typical 1 µs for FDR.", 1e-6, 8.0 / 56e9),
];

const COMMON_NETWORKS: &[Preset] = &[
    hockney!("10gbe", "10 Gigabit Ethernet, MPI over TCP", "IEEE 802.3ae line rate; a typical MPI latency over TCP", "β = 8/10¹⁰ s/B (1.25 GB/s); α = 10 µs, typical of MPI over TCP on 10 GbE.", 10e-6, 8.0 / 10e9),
    hockney!("hdr-200g", "InfiniBand HDR 200 Gbit/s", "NVIDIA ConnectX-6 HDR: 200 Gb/s, sub-microsecond latency", "β = 8/2 × 10¹¹ s/B (25 GB/s); α = 1 µs, an MPI-level latency on HDR.", 1e-6, 8.0 / 200e9),
    Preset {
        id: "hdr-200g-loggp",
        label: "InfiniBand HDR 200 Gbit/s as LogGP",
        source: "NVIDIA ConnectX-6 HDR data sheet; LogGP after Alexandrov et al. 1995",
        note: "L = 0.6 µs, o = 0.2 µs, g = 0.25 µs (4 million messages per second per process), G = 4 × 10⁻¹¹ s/B (25 GB/s).",
        values: &[
            ("cost", PresetValue::Choice("loggp")),
            ("L", PresetValue::Num(0.6e-6)),
            ("o", PresetValue::Num(0.2e-6)),
            ("g", PresetValue::Num(0.25e-6)),
            ("G", PresetValue::Num(4e-11)),
        ],
    },
];

const PRESET_GROUPS: &[PresetGroup] = &[
    PresetGroup { label: "Networks of the papers", presets: PAPER_NETWORKS },
    PresetGroup { label: "Common networks", presets: COMMON_NETWORKS },
];

pub static SPEC: ModelSpec = ModelSpec {
    calibration_examples: &[CalibrationExample {
        id: "pingpong",
        label: "Ping-pong (p = 2), 1 B – 64 MiB — synthetic, from α = 5 µs, β = 0.1 ns/B, 2% noise",
        path: "www/data/broadcast-pingpong-synthetic.csv",
        fit: &["alpha", "beta"],
        relative: true,
    }],
    params: PARAMS,
    outputs: &output_specs::<_, { OUTPUTS.len() }>(OUTPUTS),
    preset_groups: PRESET_GROUPS,
    charts: &chart_specs::<_, { CHARTS.len() }>(CHARTS),
    maps: &[
        MapPreset { id: "winner", label: "Fastest algorithm: message size vs processes (MPICH's switches dashed)", output: "best", x: "n:1:1e9:log", y: "p:2:4096:log", levels: &[], grid: 128, values: &[] },
        MapPreset { id: "mpich-loss", label: "MPICH's default over the fastest: message size vs processes", output: "mpich_ratio", x: "n:1:1e9:log", y: "p:2:4096:log", levels: &[1.05, 1.2, 1.5, 2.0], grid: 128, values: &[] },
    ],
    gaps: "the chosen output has no value there (recursive doubling needs p to be a power of two)",
    notes: NOTES,
    short_title: "Broadcast",
    ..ModelSpec::new(
        "broadcast",
        "Broadcast algorithms",
        "Li, Fox, Qiu — Table 2; Thakur, Rabenseifner, Gropp 2005; Pjesivac-Grbovic et al. 2007",
        "Seven ways to send n bytes from one process to p − 1 others, timed in closed form under Hockney or LogGP, checked by simulating their sends: why MPI libraries switch algorithms with message size.",
    )
};

/// What the winner map's dashed lines mark.
const MPICH_GUIDES: &str = "MPICH's default switches";

/// The `broadcast` model of the registry.
pub struct Broadcast;

impl Model for Broadcast {
    type Evaluation = Evaluation;
    const OUTPUTS: &'static [Output<Evaluation>] = OUTPUTS;
    const CHARTS: &'static [View<Evaluation>] = CHARTS;

    fn spec() -> &'static ModelSpec {
        &SPEC
    }

    fn evaluate(p: &Params) -> Result<Evaluation, ModelError> {
        Ok(evaluate(&Inputs::new(p)?))
    }

    fn tables(e: &Evaluation) -> Vec<Table> {
        vec![views::comparison_table(e)]
    }

    fn remarks(e: &Evaluation) -> Vec<Remark> {
        let mut out = Vec::new();
        let chosen = e.inputs.algorithm;
        if let Some(reason) = chosen.gap_reason(e.inputs.p) {
            out.push(Remark {
                key: Some("algorithm"),
                level: Level::Warning,
                text: format!("The {} has no time for p = {}: {reason}.", chosen.label(), e.inputs.p),
            });
        }
        if !chosen.segmented() {
            out.push(Remark {
                key: Some("segments"),
                level: Level::Info,
                text: format!("The {} sends whole messages: the segment count applies to the chain, binary and split-binary trees.", chosen.label()),
            });
        }
        let mpich = e.mpich();
        if let (Some(t_mpich), Some(t_best)) = (e.time(mpich), e.time(e.best)) {
            if mpich != e.best && t_mpich > t_best * 1.05 {
                out.push(Remark {
                    key: Some("mpich_ratio"),
                    level: Level::Info,
                    text: format!(
                        "MPICH's default here, the {}, takes {} times as long as the {}.",
                        mpich.label(),
                        sig(t_mpich / t_best, 3),
                        e.best.label()
                    ),
                });
            }
        }
        out
    }

    /// MPICH's switch points: 12288 B and 524288 B on an n axis (in the
    /// form's unit of n), 8 processes on a p axis.
    fn map_guides(p: &Params) -> Vec<Guide> {
        let bytes = SPEC.unit_factor(p, "n_unit").unwrap_or(1.0);
        vec![
            Guide { key: "n", value: MPICH_SHORT / bytes, label: format!("{} B", MPICH_SHORT), source: MPICH_GUIDES },
            Guide { key: "n", value: MPICH_LONG / bytes, label: format!("{} B", MPICH_LONG), source: MPICH_GUIDES },
            Guide {
                key: "p",
                value: MPICH_MIN_PROCS as f64,
                label: format!("p = {MPICH_MIN_PROCS}"),
                source: MPICH_GUIDES,
            },
        ]
    }

    /// Any output over any two numeric parameters: the inputs once, then per
    /// point the two values set and every algorithm timed (the simulator is
    /// not run).
    fn field(output: &str, p: &Params, x: (&str, &[f64]), y: (&str, &[f64]), out: &mut [f64]) -> bool {
        let Some(read) = OUTPUTS.iter().find(|o| o.spec.key == output) else { return false };
        let (Ok(base), Ok(factor)) = (Inputs::new(p), SPEC.unit_factor(p, "n_unit")) else { return false };
        let set = |i: &mut Inputs, key: &str, v: f64| -> bool {
            match (key, &mut i.net) {
                ("p", _) => i.p = v.round() as u64,
                ("n", _) => i.n = v * factor,
                ("segments", _) => i.segments = v.round() as u64,
                ("alpha", Network::Hockney { alpha, .. }) => *alpha = v,
                ("beta", Network::Hockney { beta, .. }) => *beta = v,
                ("L", Network::LogGP { l, .. }) => *l = v,
                ("o", Network::LogGP { o, .. }) => *o = v,
                ("g", Network::LogGP { g, .. }) => *g = v,
                ("G", Network::LogGP { big_g, .. }) => *big_g = v,
                _ => return false,
            }
            true
        };
        let valid = |i: &Inputs| i.p >= 2 && i.check().is_ok();
        let nx = x.1.len();
        for (j, &yv) in y.1.iter().enumerate() {
            for (i, &xv) in x.1.iter().enumerate() {
                let mut inputs = base;
                if !(set(&mut inputs, x.0, xv) && set(&mut inputs, y.0, yv)) {
                    return false;
                }
                let value = if valid(&inputs) { read.number(&evaluate(&inputs)) } else { None };
                if let Some(o) = out.get_mut(j * nx + i) {
                    *o = value.filter(|v| v.is_finite()).unwrap_or(f64::NAN);
                }
            }
        }
        true
    }
}
