//! The native fuzz run over the core (issue 13): a seeded, registry-driven
//! generator of adversarial parameters (inside, at and past every range,
//! NaN, ±∞, huge and tiny numbers, hostile text, lists of every length)
//! thrown at every entry point of every model: `evaluate`, `check`, a
//! session's `report`, `tables`, `remarks`, every chart drawn to SVG, a small
//! iso-map, a map axis, every sweep's curves and every data set's analysis
//! (with hostile CSV). It checks:
//!   - no panic;
//!   - no call over its budget (the page's thread, or a worker's);
//!   - every accepted output finite, every time (unit s) ≥ 0, every
//!     efficiency in [0, 1];
//!   - every error names what to change: a parameter (its key first), a
//!     field of the map request, or a line of the data — never an output,
//!     never a solver's internals;
//!
//! and shrinks each failure to the fewest parameters that still fail.
//! `cargo test --test fuzz` runs a short seeded run (and every case ever
//! found, `tests/fuzz-found.json`); the long run is
//!
//!   FUZZ_CALLS=1000000 FUZZ_BUDGET_MS=100 FUZZ_WORKER_BUDGET_MS=10000 \
//!     cargo test --release --test fuzz -- --nocapture
//!
//! (FUZZ_CALLS per model; FUZZ_MODELS=pmm,dlt runs only those models;
//! FUZZ_BUDGET_MS, 2000 by default (a debug build), is the budget, in CPU
//! time of the calling thread, of a call the page makes on its thread,
//! FUZZ_WORKER_BUDGET_MS, ten times that by default, of one it makes in a
//! worker; the long run uses 100 and 10000;
//! FUZZ_TRACE=FILE writes each call before it runs, to find one that never
//! returns or exhausts memory).
//! `scripts/fuzz.mjs` is the same harness for the wasm package.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use isoperf::api::{self, Session};
use isoperf::engine::isomap::{MapAxis, MapRequest};
use isoperf::error::ModelError;
use isoperf::models::specs;
use isoperf::spec::{ModelSpec, OutValue, ParamKind, RawParams, RawValue, Scale};

/// splitmix64: the same seed, the same run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

const HOSTILE: &[&str] = &[
    "",
    " ",
    "abc",
    "1,5",
    "1e",
    "--1",
    "0x19",
    "<img src=x onerror=alert(1)>",
    "\u{0}",
    "1\u{0}2",
    "NaN",
    "Infinity",
    "-Infinity",
    "١٢",
    "1e309",
    "-0",
    "\u{feff}1",
    "1;2;3",
    "1 2",
    "∞",
];
const EXTREMES: &[f64] = &[
    0.0,
    -0.0,
    -1.0,
    1.0,
    0.5,
    2.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e308,
    -1e308,
    5e-324,
    -5e-324,
    1e-300,
    9007199254740992.0,
    9007199254740994.0,
    4294967296.0,
    65536.0,
    65537.0,
];

fn number_for(rng: &mut Rng, min: f64, max: f64, scale: Scale, integer: bool) -> RawValue {
    let lo = if min.is_finite() { min } else { -1e6 };
    let hi = if max.is_finite() { max } else { 1e12 };
    match rng.below(6) {
        0 | 1 => {
            let x = if scale == Scale::Log && lo > 0.0 {
                (lo.ln() + rng.unit() * (hi.ln() - lo.ln())).exp()
            } else {
                lo + rng.unit() * (hi - lo)
            };
            RawValue::Num(if integer { x.round() } else { x })
        }
        2 => RawValue::Num(rng.pick(&[lo, hi, lo * (1.0 - 1e-12), hi * (1.0 + 1e-12), lo - 1.0, hi + 1.0])),
        3 => RawValue::Num(rng.pick(EXTREMES)),
        4 => {
            let extreme = rng.pick(EXTREMES);
            let x = rng.pick(&[lo, hi, extreme]);
            RawValue::Text(format!("{x:e}"))
        }
        _ => RawValue::Text(rng.pick(HOSTILE).to_string()),
    }
}

fn value_for(rng: &mut Rng, kind: &ParamKind) -> RawValue {
    match kind {
        ParamKind::Choice { options, .. } => {
            if rng.chance(0.85) {
                RawValue::Text(rng.pick(options).value.to_string())
            } else {
                RawValue::Text(rng.pick(HOSTILE).to_string())
            }
        }
        ParamKind::List { range, scale, .. } => {
            let n = rng.pick(&[0usize, 1, 2, 3, 4, 8, 20, 100]);
            let items: Vec<RawValue> = (0..n)
                .map(|_| {
                    if rng.chance(0.85) {
                        number_for(rng, range.min, range.max, *scale, false)
                    } else {
                        rng.pick(&[RawValue::Bool(true), RawValue::Text("x".into()), RawValue::Text(String::new())])
                    }
                })
                .collect();
            if rng.chance(0.5) {
                RawValue::List(items)
            } else {
                let sep = rng.pick(&[",", ", ", ";", " "]);
                RawValue::Text(items.iter().map(ToString::to_string).collect::<Vec<_>>().join(sep))
            }
        }
        ParamKind::Number { range, scale, integer, .. } => {
            if rng.chance(0.02) {
                rng.pick(&[RawValue::Bool(true), RawValue::List(vec![]), RawValue::Text(String::new())])
            } else {
                number_for(rng, range.min, range.max, *scale, *integer)
            }
        }
    }
}

fn params_for(rng: &mut Rng, spec: &ModelSpec) -> RawParams {
    let mut params = RawParams::new();
    let n = rng.pick(&[1, 1, 2, 3, spec.params.len()]);
    for _ in 0..n {
        let p = &spec.params[rng.below(spec.params.len())];
        params.insert(p.key.to_string(), value_for(rng, &p.kind));
    }
    if rng.chance(0.03) {
        params.insert(rng.pick(&["zz", "n", "__proto__", "T"]).to_string(), RawValue::Num(1.0));
    }
    params
}

/// A map axis over a numeric parameter, often a bad one.
fn axis_for(rng: &mut Rng, spec: &ModelSpec) -> String {
    let numeric: Vec<_> = spec.params.iter().filter(|p| matches!(p.kind, ParamKind::Number { .. })).collect();
    let p = rng.pick(&numeric);
    let ParamKind::Number { range, scale, integer, .. } = &p.kind else { unreachable!() };
    let mut end = || number_for(rng, range.min, range.max, *scale, *integer).to_string();
    let (a, b) = (end(), end());
    format!("{}:{a}:{b}{}", p.key, if rng.chance(0.5) { ":log" } else { "" })
}

/// CSV text for a data set with `columns` columns: numbers, extremes,
/// hostile cells, wrong column counts, comments, BOM, CRLF, quotes.
fn csv_for(rng: &mut Rng, columns: usize) -> String {
    let rows = rng.pick(&[0usize, 1, 3, 4, 6, 12, 40]);
    let mut text = String::new();
    if rng.chance(0.1) {
        text.push('\u{feff}');
    }
    if rng.chance(0.3) {
        text.push_str("# measured\n");
    }
    let newline = if rng.chance(0.2) { "\r\n" } else { "\n" };
    for r in 0..rows {
        let n = if rng.chance(0.05) { rng.below(5) } else { columns };
        let cells: Vec<String> = (0..n)
            .map(|c| match rng.below(8) {
                0 => format!("{:e}", rng.pick(EXTREMES)),
                1 => rng.pick(HOSTILE).to_string(),
                2 => format!("\"{}\"", 1 + r),
                _ if c == 0 => format!("{}", 2u64.pow(rng.below(12) as u32)),
                _ => format!("{}", 1.0 + rng.unit() * 100.0),
            })
            .collect();
        text.push_str(&cells.join(rng.pick(&[",", ";", "\t"])));
        text.push_str(newline);
    }
    text
}

/// One call of an entry point, and what it was asked.
#[derive(Debug, Clone)]
enum Call {
    Evaluate,
    Check,
    Report,
    QuickReport,
    Tables,
    Remarks,
    Chart(&'static str),
    Map {
        output: &'static str,
        x: String,
        y: String,
    },
    Axis {
        text: String,
        n: usize,
    },
    /// Points `from..from + 3` of curve `index`, as the page's sweep worker computes them.
    Sweep {
        sweep: &'static str,
        index: usize,
        from: usize,
    },
    Analyze {
        dataset: &'static str,
        text: String,
    },
}

/// Calls the page makes only in a worker (map bands, sweep points, and any
/// evaluation the quick report defers, with its charts), superseded by a
/// newer request: their budget (FUZZ_WORKER_BUDGET_MS) is by default this
/// many times the page's (as in scripts/fuzz.mjs).
const WORKER_BUDGET_FACTOR: u64 = 10;

/// The most milliseconds a call may take: on the page's thread, in a worker.
#[derive(Clone, Copy)]
struct Budget {
    page: u128,
    worker: u128,
}

impl Call {
    fn in_a_worker(&self, id: &str, raw: &RawParams) -> bool {
        match self {
            Call::Map { .. } | Call::Sweep { .. } => true,
            Call::Evaluate | Call::Check | Call::Report | Call::Tables | Call::Remarks | Call::Chart(_) => {
                Session::default().quick_report(id, raw).is_ok_and(|r| r.deferred)
            }
            Call::QuickReport | Call::Axis { .. } | Call::Analyze { .. } => false,
        }
    }
}

fn call_for(rng: &mut Rng, spec: &'static ModelSpec) -> Call {
    loop {
        return match rng.below(15) {
            0..=3 => Call::Evaluate,
            4 => Call::Check,
            5 => Call::Report,
            6 | 14 => Call::QuickReport,
            7 => Call::Tables,
            8 => Call::Remarks,
            9 if !spec.charts.is_empty() => Call::Chart(rng.pick(spec.charts).id),
            10 if !spec.outputs.is_empty() => {
                Call::Map { output: rng.pick(spec.outputs).key, x: axis_for(rng, spec), y: axis_for(rng, spec) }
            }
            11 => Call::Axis { text: axis_for(rng, spec), n: rng.pick(&[0, 1, 2, 16, 4097, 1 << 20, usize::MAX]) },
            12 if !spec.sweeps.is_empty() => {
                Call::Sweep { sweep: rng.pick(spec.sweeps).id, index: rng.below(4), from: rng.below(60) }
            }
            13 if !spec.datasets.is_empty() => {
                let d = rng.pick(spec.datasets);
                Call::Analyze { dataset: d.id, text: csv_for(rng, d.columns.len()) }
            }
            _ => continue,
        };
    }
}

/// What an error must name: a parameter (or a key the caller sent), or
/// something else the caller sent (a chart, a sweep, a map field, a line of
/// data); never an output, never a solver's internals.
fn names_what_to_change(spec: &ModelSpec, raw: &RawParams, e: &ModelError) -> Result<(), String> {
    readable(&e.to_string())?;
    match e {
        ModelError::Params(es) => {
            // A parameter of the model, or a key the caller sent (an unknown one).
            let known = |k: &str| spec.params.iter().any(|p| p.key == k) || raw.contains_key(k);
            match es.iter().find(|p| !known(&p.key)) {
                Some(p) => Err(format!("an error names '{}', not a parameter: {e}", p.key)),
                None => Ok(()),
            }
        }
        ModelError::Unknown { .. } => Ok(()),
        ModelError::NonFinite { output } => Err(format!("an error names the output {output}, not an input: {e}")),
        ModelError::Solver(_) => Err(format!("a solver's own words reach the user: {e}")),
        _ => Err(format!("an error of a new kind: {e}")),
    }
}

/// A message a person can read: no number printed with dozens of digits,
/// no control character echoed raw.
fn readable(message: &str) -> Result<(), String> {
    let mut run = 0;
    let mut quoted = false; // what the caller sent, quoted back (at most 40 characters)
    for c in message.chars() {
        quoted ^= c == '\'';
        if quoted {
            continue;
        }
        run = if c.is_ascii_digit() { run + 1 } else { 0 };
        if run > 24 {
            return Err(format!("a number with dozens of digits: {}", message.chars().take(160).collect::<String>()));
        }
        if c.is_control() {
            return Err(format!("a raw control character: {message:?}"));
        }
    }
    Ok(())
}

/// What is wrong with the outputs, or None.
fn judge_outputs(spec: &ModelSpec, out: &isoperf::spec::Outputs) -> Option<String> {
    for o in spec.outputs {
        let Some((_, v)) = out.0.iter().find(|(k, _)| *k == o.key) else { continue };
        let xs: Vec<f64> = match v {
            OutValue::Num(x) => vec![*x],
            OutValue::Array(xs) => xs.clone(),
            _ => vec![],
        };
        if let Some(x) = xs.iter().find(|x| !x.is_finite()) {
            return Some(format!("non-finite {} = {x}", o.key));
        }
        if o.unit == "s" {
            if let Some(x) = xs.iter().find(|x| **x < 0.0) {
                return Some(format!("negative time {} = {x}", o.key));
            }
        }
        if o.key == "efficiency" {
            if let Some(x) = xs.iter().find(|x| !(0.0..=1.0 + 1e-9).contains(*x)) {
                return Some(format!("efficiency = {x}"));
            }
        }
    }
    None
}

/// Runs one call; Err says what is wrong.
fn run(spec: &'static ModelSpec, call: &Call, raw: &RawParams) -> Result<(), String> {
    let id = spec.id;
    let model = |r: Result<(), ModelError>| r.or_else(|e| names_what_to_change(spec, raw, &e));
    match call {
        Call::Evaluate => match api::evaluate(id, raw) {
            Ok(out) => judge_outputs(spec, &out).map_or(Ok(()), Err),
            Err(e) => names_what_to_change(spec, raw, &e),
        },
        Call::Check => model(api::check(id, raw).map(drop)),
        Call::Report => match Session::default().report(id, raw) {
            Ok(report) => report.outputs.as_ref().and_then(|out| judge_outputs(spec, out)).map_or(Ok(()), Err),
            Err(e) => names_what_to_change(spec, raw, &e),
        },
        Call::QuickReport => match Session::default().quick_report(id, raw) {
            Ok(report) if report.deferred && (report.outputs.is_some() || !report.problems.is_empty()) => {
                Err("a deferred report with outputs or problems".into())
            }
            Ok(report) => report.outputs.as_ref().and_then(|out| judge_outputs(spec, out)).map_or(Ok(()), Err),
            Err(e) => names_what_to_change(spec, raw, &e),
        },
        Call::Tables => model(api::tables(id, raw).map(drop)),
        Call::Remarks => model(api::remarks(id, raw).map(drop)),
        Call::Chart(chart) => model(api::chart(id, chart, raw).map(|c| {
            // Drawing may refuse ("nothing to draw") but must end and not panic.
            let _ = isoperf::chart::to_svg(&c, 480, 300);
        })),
        Call::Map { output, x, y } => {
            let (Ok(x), Ok(y)) = (MapAxis::parse("x", x), MapAxis::parse("y", y)) else { return Ok(()) };
            let request = MapRequest { output: output.to_string(), x, y, nx: 4, ny: 4, levels: vec![] };
            match api::iso_map(id, raw, &request) {
                Ok(map) if map.values.iter().any(|v| v.is_infinite()) => Err("an infinite map value".into()),
                Ok(_) => Ok(()),
                Err(e) if e.field.is_empty() => Err(format!("a map error names no field: {}", e.message)),
                Err(e) => readable(&e.message),
            }
        }
        Call::Axis { text, n } => match api::iso_axis(text, *n) {
            Ok(xs) if xs.iter().any(|x| !x.is_finite()) => Err(format!("a non-finite axis value from {text} × {n}")),
            Ok(_) => Ok(()),
            Err(e) if e.field.is_empty() => Err(format!("an axis error names no field: {}", e.message)),
            Err(e) => readable(&e.message),
        },
        Call::Sweep { sweep, index, from } => {
            model(api::sweep_points(id, sweep, raw, *index, *from..*from + 3).map(drop))
        }
        Call::Analyze { dataset, text } => match api::analyze(id, dataset, text, raw) {
            Ok(a) => {
                let json = serde_json::to_string(&a).map_err(|e| e.to_string())?;
                if json.contains("NaN") || json.contains("inf") {
                    return Err("a non-finite number in an analysis".into());
                }
                Ok(())
            }
            // Every analysis error carries its line (0: the data as a whole).
            Err(e) => readable(&e.message),
        },
    }
}

#[derive(Debug)]
struct Finding {
    model: &'static str,
    call: Call,
    problem: String,
    params: RawParams,
}

/// Milliseconds of CPU time this thread has used: what a call costs, whatever
/// else the machine runs (a wall clock on a busy machine finds slow calls
/// that are not).
fn cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
    } else {
        0.0
    }
}

fn attempt(spec: &'static ModelSpec, call: &Call, raw: &RawParams, budget: Budget) -> Option<String> {
    let limit = if call.in_a_worker(spec.id, raw) { budget.worker } else { budget.page };
    let started = cpu_ms();
    let outcome = catch_unwind(AssertUnwindSafe(|| run(spec, call, raw)));
    let ms = (cpu_ms() - started) as u128;
    match outcome {
        Err(panic) => {
            let text =
                panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
            Some(format!("panic: {}", text.unwrap_or_default()))
        }
        Ok(_)
            if ms > limit && {
                // Once more, so a stall of the machine's is not a finding.
                let again = cpu_ms();
                let _ = catch_unwind(AssertUnwindSafe(|| run(spec, call, raw)));
                (cpu_ms() - again) as u128 > limit
            } =>
        {
            Some(format!("slow: {ms} ms of CPU, twice"))
        }
        Ok(Err(problem)) => Some(problem),
        Ok(Ok(())) => None,
    }
}

/// The fewest parameters that still give the same kind of failure.
fn shrink(spec: &'static ModelSpec, call: &Call, raw: &RawParams, budget: Budget) -> RawParams {
    let kind = |p: &RawParams| attempt(spec, call, p, budget).map(|s| s.split(':').next().unwrap_or("").to_string());
    let want = kind(raw);
    let mut best = raw.clone();
    for key in raw.keys() {
        let mut trial = best.clone();
        trial.remove(key);
        if kind(&trial) == want {
            best = trial;
        }
    }
    best
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn fuzz_every_entry_point_of_every_model() {
    let calls = env("FUZZ_CALLS", 600);
    let seed = env("FUZZ_SEED", 20261123);
    let page = env("FUZZ_BUDGET_MS", 2000);
    let budget = Budget {
        page: u128::from(page),
        worker: u128::from(env("FUZZ_WORKER_BUDGET_MS", page * WORKER_BUDGET_FACTOR)),
    };
    let mut rng = Rng(seed);
    let mut trace = std::env::var("FUZZ_TRACE").ok().and_then(|path| std::fs::File::create(path).ok());
    // Panics are findings, caught and reported: keep their noise out of the log.
    std::panic::set_hook(Box::new(|_| {}));
    let mut findings: BTreeMap<String, Finding> = BTreeMap::new();
    let mut slowest: BTreeMap<&str, (f64, String)> = BTreeMap::new();
    let started = Instant::now();
    let only = std::env::var("FUZZ_MODELS").unwrap_or_default();
    let chosen = |id: &str| only.is_empty() || only.split(',').any(|m| m.trim() == id);
    for spec in specs().iter().copied().filter(|s| chosen(s.id)) {
        for _ in 0..calls {
            let raw = params_for(&mut rng, spec);
            let call = call_for(&mut rng, spec);
            if let Some(trace) = trace.as_mut() {
                // FUZZ_TRACE=FILE: each call before it runs, to name one that never returns.
                let _ = writeln!(trace, "{} {call:?} {raw:?}", spec.id).and_then(|()| trace.flush());
            }
            let t0 = cpu_ms();
            let problem = attempt(spec, &call, &raw, budget);
            let ms = cpu_ms() - t0;
            let entry = slowest.entry(spec.id).or_insert((0.0, String::new()));
            if ms > entry.0 {
                *entry = (ms, format!("{call:?}"));
            }
            let Some(problem) = problem else { continue };
            let name = format!("{call:?}");
            let kind = format!(
                "{} {} {}",
                spec.id,
                name.split(['(', ' ']).next().unwrap_or(""),
                problem.split(':').next().unwrap_or("")
            );
            findings.entry(kind).or_insert_with(|| Finding {
                model: spec.id,
                params: shrink(spec, &call, &raw, budget),
                call,
                problem,
            });
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "fuzz: {} calls per model, seed {seed}, {:.1} s; slowest per model: {}",
        calls,
        started.elapsed().as_secs_f64(),
        slowest
            .iter()
            .map(|(m, (ms, call))| format!("{m} {ms:.1} ms ({})", call.chars().take(60).collect::<String>()))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let report: Vec<String> = findings
        .values()
        .map(|f| format!("- {} {:?}: {}\n    params: {:?}", f.model, f.call, f.problem, f.params))
        .collect();
    assert!(findings.is_empty(), "{} finding(s):\n{}", findings.len(), report.join("\n"));
}

/// Every case a fuzzer or the issue ever found (`tests/fuzz-found.json`,
/// shared with the wasm harness), replayed with the same checks.
#[test]
fn every_case_ever_found_stays_fixed() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz-found.json")).unwrap();
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() >= 15, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for case in &cases {
        let s = |key: &str| case.get(key).and_then(|v| v.as_str()).unwrap_or_default().to_string();
        let call = match s("call").as_str() {
            "evaluate" => Call::Evaluate,
            "report" => Call::Report,
            "chart" => Call::Chart(Box::leak(s("chart").into_boxed_str())),
            "isoAxis" => Call::Axis { text: s("axis"), n: case["n"].as_u64().unwrap_or(0) as usize },
            "analyze" => Call::Analyze { dataset: Box::leak(s("dataset").into_boxed_str()), text: s("text") },
            // The contour code's own test covers grids with infinities (no model call here).
            "isoLines" => continue,
            other => panic!("a call this replay does not know: {other}"),
        };
        let spec = specs().into_iter().find(|m| m.id == s("model")).unwrap_or(specs()[0]);
        let params = case.get("params").cloned().unwrap_or_else(|| serde_json::json!({}));
        let raw: RawParams = serde_json::from_value(params).unwrap();
        if let Some(problem) = attempt(spec, &call, &raw, Budget { page: 60_000, worker: 60_000 }) {
            wrong.push(format!("{}: {problem}", s("found")));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
