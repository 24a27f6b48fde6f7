//! The broadcast model's comparison table and charts.

use crate::chart::{Axis, Chart, Corner, Series, Span, Style, INK};
use crate::collective::algorithms::{lower_bound, most_segments, Algorithm};
use crate::collective::simulate::{schedule, simulate, Message};
use crate::collective::Network;
use crate::error::{ModelError, ParamError};
use crate::format::{compact, plural, sig};
use crate::spec::Scale;
use crate::table::{Row, Status, Table};

use super::{Evaluation, Inputs, TIMELINE_PROCESSES};

/// The most messages the page simulates on its thread for one table row.
const SIMULATED_MESSAGES: u64 = 20_000;
/// Points per curve of the charts.
const POINTS: usize = 61;

/// The messages `a`'s schedule holds at `k` segments, for the limits.
fn messages(a: Algorithm, p: u64, k: u64) -> u64 {
    let log = u64::from(crate::collective::algorithms::ceil_log2(p));
    let per = match a {
        Algorithm::Flat | Algorithm::Binomial => 1,
        Algorithm::Chain | Algorithm::Binary => k,
        Algorithm::SplitBinary => k + 1,
        Algorithm::ScatterRecursiveDoubling => 1 + log,
        Algorithm::ScatterRing => p,
    };
    p.saturating_mul(per)
}

/// `a` at `inputs` with `k` segments, simulated; `None` when too long to
/// play here or when it does not apply, and in the page's first-paint
/// module, which leaves the simulator out (its table says "±0.5%" until
/// the full module is in use).
fn simulated(a: Algorithm, inputs: &Inputs, k: u64) -> Option<(Vec<Message>, f64)> {
    if cfg!(not(feature = "full")) {
        return None;
    }
    if messages(a, inputs.p, k) > SIMULATED_MESSAGES {
        return None;
    }
    let s = schedule(a, usize::try_from(inputs.p).ok()?, usize::try_from(k).ok()?)?;
    let sim = simulate(&s, inputs.n, &inputs.net)?;
    Some((sim.messages, sim.time))
}

fn seconds(t: f64) -> String {
    format!("{} s", sig(t, 4))
}

/// Every algorithm at the current p and n: time, ratio to the bound,
/// segments, what its critical path holds, and whether its closed form is
/// exact; the fastest ranked first, the chosen one marked.
pub fn comparison_table(e: &Evaluation) -> Table {
    let i = &e.inputs;
    let mut ranked: Vec<(Algorithm, f64)> = e.timings.iter().filter_map(|t| Some((t.algorithm, t.time?))).collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    let rank = |a: Algorithm| ranked.iter().position(|r| r.0 == a).map(|k| k + 1);
    let mpich = e.mpich();
    let rows = e
        .timings
        .iter()
        .map(|t| {
            let a = t.algorithm;
            let Some(time) = t.time else {
                return Row {
                    cells: vec![
                        a.label().into(),
                        "—".into(),
                        "—".into(),
                        "—".into(),
                        "—".into(),
                        "—".into(),
                        "—".into(),
                    ],
                    status: if a == i.algorithm { Status::Current } else { Status::Plain },
                    remark: a.gap_reason(i.p).map(|r| format!("No time: {r}.")),
                    link: None,
                };
            };
            let (msgs, bytes) = a.critical_path(i.p, i.n, t.k).unwrap_or((f64::NAN, f64::NAN));
            let check = if a.exact(&i.net) {
                "exact".to_string()
            } else {
                match simulated(a, i, t.k) {
                    Some((_, sim)) => format!("estimate ({})", difference(time, sim)),
                    None => "estimate (±0.5%)".to_string(),
                }
            };
            let place = match rank(a) {
                Some(1) => "1, fastest".to_string(),
                Some(r) => r.to_string(),
                None => "—".into(),
            };
            Row {
                cells: vec![
                    a.label().into(),
                    seconds(time),
                    sig(time / e.bound, 3),
                    place,
                    if a.segmented() { t.k.to_string() } else { "—".into() },
                    format!("{}, {} B", plural(msgs, "message", "messages"), sig(bytes, 4)),
                    check,
                ],
                status: if a == i.algorithm { Status::Current } else { Status::Plain },
                remark: None,
                link: None,
            }
        })
        .collect();
    let mut notes = vec![format!(
        "Lower bound {}. Critical path: the messages and bytes along the longest chain of sends (the time on a network where each costs 1). Segments: {}. Closed form: exact where it equals the simulated schedule; an estimate's excess over the simulation in brackets (±0.5% where the schedule is too long to simulate here).",
        seconds(e.bound),
        if i.segments == 0 { "each segmented algorithm at its best count".to_string() } else { format!("{} for the segmented algorithms", i.segments) },
    )];
    if let (Some(t), Some(best)) = (e.time(mpich), e.time(e.best)) {
        notes.push(if mpich == e.best {
            format!("MPICH's default here is the {}, the fastest.", mpich.label())
        } else {
            format!("MPICH's default here is the {}: {} times the fastest.", mpich.label(), sig(t / best, 3))
        });
    }
    Table {
        id: "algorithms",
        title: format!("Broadcast of {} B to p = {} processes", sig(i.n, 4), i.p),
        caption: "Each algorithm's time, its ratio to the lower bound, its segment count and what its critical path holds; the chosen one highlighted. 'Exact': the closed form equals the simulated schedule.".into(),
        columns: vec![
            "algorithm".into(),
            "time".into(),
            "× bound".into(),
            "rank".into(),
            "segments".into(),
            "critical path".into(),
            "closed form".into(),
        ],
        rows,
        notes,
    }
}

/// `estimate` against `simulated`: "+0.30%", "−0.12%", "exact here".
fn difference(estimate: f64, simulated: f64) -> String {
    let d = (estimate - simulated) / simulated;
    if d.abs() < 5e-7 {
        "exact here".into()
    } else {
        format!("{}{}%", if d > 0.0 { "+" } else { "−" }, sig(100.0 * d.abs(), 2))
    }
}

/// `count` values from `lo` to `hi`, evenly spaced on a log scale.
fn log_grid(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    let (a, b) = (lo.ln(), hi.ln());
    (0..count).map(|k| (a + (b - a) * k as f64 / (count - 1) as f64).exp()).collect()
}

/// Every algorithm's time at `inputs` with `p` and `n` replaced, each at
/// its best segment count (or the form's, where the message has that many bytes).
fn times_at(inputs: &Inputs, p: u64, n: f64) -> Vec<Option<f64>> {
    let segments = inputs.segments.min(most_segments(n));
    super::timings(&Inputs { p, n, segments, ..*inputs }).into_iter().map(|t| t.time).collect()
}

/// A sweep over `xs` of every algorithm and the bound, with the points where
/// the fastest changes.
fn sweep(
    inputs: &Inputs,
    xs: &[f64],
    at: impl Fn(f64) -> (u64, f64),
) -> (Vec<Series>, Vec<(f64, Algorithm, Algorithm)>) {
    let mut curves: Vec<Vec<(f64, f64)>> = vec![Vec::new(); Algorithm::ALL.len()];
    let mut bound = Vec::new();
    // At each x the algorithms within rounding of the least time (at p = 2 the flat tree, the binomial tree and the chain tie).
    let mut fastest: Vec<Vec<Algorithm>> = Vec::new();
    for &x in xs {
        let (p, n) = at(x);
        let times = times_at(inputs, p, n);
        for (curve, t) in curves.iter_mut().zip(&times) {
            if let Some(t) = t {
                curve.push((x, *t));
            }
        }
        bound.push((x, lower_bound(p, n, &inputs.net)));
        let least = times.iter().flatten().copied().fold(f64::INFINITY, f64::min);
        fastest.push(
            Algorithm::ALL
                .into_iter()
                .zip(&times)
                .filter(|(_, t)| t.is_some_and(|t| t <= least * (1.0 + 1e-9)))
                .map(|(a, _)| a)
                .collect(),
        );
    }
    // A tie goes to the winner that follows, so a tie is no change.
    let mut winners: Vec<Option<Algorithm>> = fastest.iter().map(|f| f.first().copied()).collect();
    for k in (0..winners.len().saturating_sub(1)).rev() {
        if let (Some(next), Some(here)) = (winners.get(k + 1).copied().flatten(), fastest.get(k)) {
            if here.contains(&next) {
                if let Some(w) = winners.get_mut(k) {
                    *w = Some(next);
                }
            }
        }
    }
    let mut switches = Vec::new();
    for (k, pair) in winners.windows(2).enumerate() {
        if let ([Some(before), Some(now)], Some(&x)) = (pair, xs.get(k + 1)) {
            if before != now {
                switches.push((x, *before, *now));
            }
        }
    }
    let mut series: Vec<Series> = Algorithm::ALL
        .into_iter()
        .zip(curves)
        .enumerate()
        .filter(|(_, (_, c))| !c.is_empty())
        .map(|(k, (a, c))| Series::new(a.label(), Style::Line, k, c))
        .collect();
    series.push(Series::new("lower bound", Style::Dashed, INK, bound));
    (series, switches)
}

/// The crossover dots (on the new winner's curve) and the sentence that names them.
fn crossovers(
    inputs: &Inputs,
    switches: &[(f64, Algorithm, Algorithm)],
    at: impl Fn(f64) -> (u64, f64),
    what: &str,
    unit: &str,
) -> (Option<Series>, Option<String>) {
    if switches.is_empty() {
        return (None, None);
    }
    let dots = switches
        .iter()
        .filter_map(|&(x, _, now)| {
            let (p, n) = at(x);
            Some((x, times_at(inputs, p, n).get(now.index()).copied().flatten()?))
        })
        .collect();
    let words: Vec<String> = switches
        .iter()
        .take(6)
        .map(|(x, before, now)| format!("{} → {} at {what} ≈ {}{unit}", before.label(), now.label(), compact(*x, 3)))
        .collect();
    (Some(Series::new("fastest changes", Style::Points, INK, dots)), Some(format!("Fastest: {}.", words.join("; "))))
}

pub fn chart(id: &str, e: &Evaluation) -> Result<Chart, ModelError> {
    let i = &e.inputs;
    let chosen = i.algorithm;
    let mark = |x: f64| e.time(chosen).map(|t| Series::new("", Style::Marker, chosen.index(), vec![(x, t)]));
    match id {
        "vs-n" => {
            let xs = log_grid(1.0, (1e9f64).max(10.0 * i.n), POINTS);
            let at = |n: f64| (i.p, n);
            let (mut series, switches) = sweep(i, &xs, at);
            let (dots, note) = crossovers(i, &switches, at, "n", " B");
            series.extend(dots);
            series.extend(mark(i.n));
            Ok(Chart {
                title: format!("Broadcast time against n, p = {}", i.p),
                x: Axis::new("message size n (B)", Scale::Log),
                y: Axis::new("time (s)", Scale::Log),
                series,
                legend: Corner::UpperLeft,
                note,
            })
        }
        "vs-p" => {
            let top = (4096.0f64).max(4.0 * i.p as f64).min(1e8);
            let xs: Vec<f64> = {
                let mut v: Vec<f64> = log_grid(2.0, top, POINTS).into_iter().map(f64::round).collect();
                v.push(i.p as f64);
                v.sort_by(f64::total_cmp);
                v.dedup();
                v
            };
            let at = |p: f64| (p as u64, i.n);
            let (mut series, switches) = sweep(i, &xs, at);
            let (dots, note) = crossovers(i, &switches, at, "p", "");
            series.extend(dots);
            series.extend(mark(i.p as f64));
            Ok(Chart {
                title: format!("Broadcast time against p, n = {} B", sig(i.n, 4)),
                x: Axis::new("processes p", Scale::Log),
                y: Axis::new("time (s)", Scale::Log),
                series,
                legend: Corner::UpperLeft,
                note,
            })
        }
        "timeline" => timeline(e),
        _ => Err(ModelError::Unknown {
            what: "chart",
            name: id.into(),
            known: vec!["vs-n".into(), "vs-p".into(), "timeline".into()],
        }),
    }
}

/// The chosen algorithm's simulated schedule: a row per process (P0, the
/// root, at the top), a bar per message it receives, coloured by the first
/// segment it carries (six colours, repeating).
fn timeline(e: &Evaluation) -> Result<Chart, ModelError> {
    let i = &e.inputs;
    let a = i.algorithm;
    if i.p > TIMELINE_PROCESSES {
        return Err(ParamError::constraint(
            "p",
            format!("the timeline draws one row per process, at most {TIMELINE_PROCESSES}; p = {} (the formulas still answer)", i.p),
            format!("p ≤ {TIMELINE_PROCESSES} for the timeline"),
        )
        .into());
    }
    if let Some(reason) = a.gap_reason(i.p) {
        return Err(ParamError::constraint(
            "algorithm",
            format!("the {} has no schedule for p = {}: {reason}", a.label(), i.p),
            "another algorithm, or p a power of two".into(),
        )
        .into());
    }
    let k = e.timing(a).map_or(1, |t| t.k);
    let Some((messages, time)) = simulated(a, i, k) else {
        return Err(ParamError::constraint(
            "segments",
            format!("the {} in {k} segments over {} processes sends more than {SIMULATED_MESSAGES} messages, too many to draw", a.label(), i.p),
            format!("fewer segments: at most {} for the timeline", (SIMULATED_MESSAGES / i.p.max(1)).max(1)),
        )
        .into());
    };
    let p = i.p as usize;
    // P0 at the top: process r sits at y = p − r.
    let row = |r: usize| (p - r) as f64;
    let pieces_per_colour = |m: &Message| m.first_piece % 6;
    let mut bars: Vec<Vec<Span>> = vec![Vec::new(); 6];
    for m in &messages {
        if let Some(b) = bars.get_mut(pieces_per_colour(m)) {
            b.push(Span { row: row(m.to), from: m.start, to: m.end });
        }
    }
    let pieces = match a {
        Algorithm::SplitBinary => 2 * k,
        Algorithm::ScatterRecursiveDoubling | Algorithm::ScatterRing => i.p,
        Algorithm::Chain | Algorithm::Binary => k,
        Algorithm::Flat | Algorithm::Binomial => 1,
    };
    let what =
        if matches!(a, Algorithm::ScatterRecursiveDoubling | Algorithm::ScatterRing) { "piece" } else { "segment" };
    let series: Vec<Series> = bars
        .into_iter()
        .enumerate()
        .filter(|(_, b)| !b.is_empty())
        .map(|(c, b)| {
            let name = match (pieces, pieces > 6) {
                (1, _) => "message".to_string(),
                (_, false) => format!("{what} {}", c + 1),
                (_, true) => format!("{what}s {}, {}, …", c + 1, c + 7),
            };
            Series::spans(name, c, b)
        })
        .collect();
    let mut labels: Vec<String> = (0..p).map(|r| format!("P{r}")).collect();
    labels.reverse();
    let segments = if a.segmented() { format!(", {k} segments") } else { String::new() };
    Ok(Chart {
        title: format!("{} on {} processes{segments}: {}", capitalised(a.label()), p, seconds(time)),
        x: Axis::new("time (s)", Scale::Linear).bounded(0.0, time * 1.02),
        y: Axis::new("process", Scale::Linear).bounded(0.4, p as f64 + 0.6).labelled(labels),
        series,
        legend: Corner::LowerRight,
        note: Some(format!(
            "{} messages; the last process has the whole message at {}{}.",
            messages.len(),
            seconds(time),
            match &i.net {
                Network::Hockney { .. } => String::new(),
                Network::LogGP { .. } =>
                    " (a bar ends when the message arrives: L + 2o + (b − 1)G after it starts)".to_string(),
            }
        )),
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
