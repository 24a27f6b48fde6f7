//! Charts and tables of the DLT model.

use crate::chart::{Axis, Chart, Corner, Series, Span, Style};
use crate::error::ModelError;
use crate::format::{percent, plural, sig};
use crate::spec::Scale;
use crate::table::{Row, Status, Table};

use super::schedule::{hetero_split, prefixes, Star, MAX_PROCESSORS};
use super::{identical, Evaluation, Inputs, Processors, SPEC};

/// At most this many processors are drawn in the Gantt chart …
const ROWS: usize = 40;
/// … and listed in the schedule table.
const TABLE_ROWS: usize = 12;

/// Processor numbers 1..=m, all when few, else `ROWS` evenly spread (first and last included).
fn sample(m: usize, count: usize) -> Vec<usize> {
    if m <= count {
        return (1..=m).collect();
    }
    let mut out: Vec<usize> = (0..count).map(|k| 1 + (k * (m - 1)) / (count - 1)).collect();
    out.dedup();
    out
}

/// Processor counts 1..=limit for a sweep: every one when few, else a
/// geometric grid of about 300.
fn counts(limit: usize) -> Vec<usize> {
    let mut out = vec![1usize];
    while let Some(&last) = out.last() {
        let next = ((last as f64 * 1.025).ceil() as usize).max(last + 1);
        if next > limit {
            break;
        }
        out.push(next);
    }
    if out.last() != Some(&limit) && limit > 1 {
        out.push(limit);
    }
    out
}

/// One processor's place in the schedule: (α_i, start of receiving, start of computing).
fn rows_of(inputs: &Inputs, e: &Evaluation, which: &[usize]) -> Vec<(usize, f64, f64, f64)> {
    let s = &e.schedule;
    match &inputs.processors {
        // P_i starts receiving once P_1 … P_(i−1) have received theirs.
        Processors::Identical { star, .. } => which
            .iter()
            .map(|&i| {
                let alpha = star.alpha(s.m, i, s.alpha_m);
                let before = star.load_before(s.m, i, s.alpha_m);
                let receive = (i - 1) as f64 * star.s() + star.c() * before;
                (i, alpha, receive, receive + star.s() + star.c() * alpha)
            })
            .collect(),
        Processors::Heterogeneous { c, s: st, .. } => {
            let Some(alpha) = s.alpha.as_ref() else { return Vec::new() };
            let mut starts = Vec::with_capacity(alpha.len());
            let mut clock = 0.0;
            for ((x, c), s) in alpha.iter().zip(c).zip(st) {
                starts.push(clock);
                clock += s + c * x;
            }
            which
                .iter()
                .filter_map(|&i| {
                    let (x, start) = (*alpha.get(i - 1)?, *starts.get(i - 1)?);
                    Some((i, x, start, start + st.get(i - 1)? + c.get(i - 1)? * x))
                })
                .collect()
        }
    }
}

/// (m, T(m), E(m)) over the feasible processor counts.
fn sweep(inputs: &Inputs, e: &Evaluation) -> Vec<(usize, f64, f64)> {
    match &inputs.processors {
        Processors::Identical { star, .. } => {
            let mut ms = counts(e.m_max.min(MAX_PROCESSORS));
            // The marked points must be on the curve.
            ms.extend([e.m_min_energy, e.schedule.m]);
            ms.sort_unstable();
            ms.dedup();
            ms
        }
        .into_iter()
        .map(|m| {
            let s = identical(star, m, inputs);
            (m, s.t, s.energy.total())
        })
        .collect(),
        Processors::Heterogeneous { a, c, s } => prefixes(a, c, s, inputs.v)
            .into_iter()
            .filter(|p| p.feasible)
            .map(|p| (p.p, p.t, inputs.power.energy(p.p, p.t, p.t_comm, p.busy).total()))
            .collect(),
    }
}

pub fn chart(id: &str, inputs: &Inputs, e: &Evaluation) -> Result<Chart, ModelError> {
    let s = &e.schedule;
    let here = |x: f64, y: f64| Series::new("", Style::Marker, 0, vec![(x, y)]);
    match id {
        "gantt" => {
            let which = sample(s.m, ROWS);
            let rows = rows_of(inputs, e, &which);
            let n = rows.len();
            // Row 1 at the top: processor k of the list sits at y = n + 1 − k.
            let y = |k: usize| (n - k) as f64;
            let receive = rows.iter().enumerate().map(|(k, r)| Span { row: y(k), from: r.2, to: r.3 }).collect();
            let compute = rows.iter().enumerate().map(|(k, r)| Span { row: y(k), from: r.3, to: s.t }).collect();
            let mut labels: Vec<String> = rows.iter().map(|r| format!("P{}", r.0)).collect();
            labels.reverse();
            let shown = if n < s.m { format!(", {n} shown") } else { String::new() };
            Ok(Chart {
                title: format!("Schedule on {}{shown}", plural(s.m as f64, "processor", "processors")),
                x: Axis::new("time (s)", Scale::Linear).bounded(0.0, s.t * 1.02),
                y: Axis::new("processor", Scale::Linear).bounded(0.4, n as f64 + 0.6).labelled(labels),
                series: vec![
                    Series::spans("receiving (S + Cα)", 1, receive),
                    Series::spans("computing (Aα)", 0, compute),
                ],
                legend: Corner::LowerLeft,
                note: None,
            })
        }
        "speedup" | "efficiency" => {
            let eff = id == "efficiency";
            let points: Vec<(f64, f64)> = sweep(inputs, e)
                .into_iter()
                .map(|(m, t, _)| {
                    let sp = e.t1 / t;
                    (m as f64, if eff { sp / m as f64 } else { sp })
                })
                .collect();
            let last = points.last().map_or(1.0, |p| p.0);
            // Log axes only pay off over more than a decade.
            let scale = |span: f64| if span > 20.0 { Scale::Log } else { Scale::Linear };
            let mut series = vec![Series::new(if eff { "efficiency" } else { "speedup" }, Style::Line, 1, points)];
            let value = if eff { e.efficiency() } else { e.speedup() };
            if !eff {
                series.push(Series::new("ideal: m", Style::Dashed, 5, vec![(1.0, 1.0), (last, last)]));
            }
            series.push(here(s.m as f64, value));
            let y = if eff {
                Axis::new(SPEC.axis_label("efficiency"), Scale::Linear).bounded(0.0, 1.05)
            } else {
                Axis::new(SPEC.axis_label("speedup"), scale(e.t1 / e.schedule.t.min(e.t1)))
            };
            Ok(Chart {
                title: format!("{} vs m, V = {}", if eff { "Efficiency" } else { "Speedup" }, sig(inputs.v, 4)),
                x: Axis::new(SPEC.axis_label("m"), scale(last)),
                y,
                series,
                legend: Corner::Auto,
                note: None,
            })
        }
        "energy" => {
            let pts = sweep(inputs, e);
            let curve: Vec<(f64, f64)> = pts.iter().map(|p| (p.1, p.2)).collect();
            let first = pts.first().map_or(1, |p| p.0);
            let last = pts.last().map_or(1, |p| p.0);
            let best = pts.iter().find(|p| p.0 == e.m_min_energy).map(|p| (p.1, p.2));
            let mut series = vec![Series::new("E(T(m)), m = 1 … mₘₐₓ", Style::Line, 1, curve.clone())];
            if curve.len() < 60 {
                series.push(Series::new("", Style::Points, 1, curve));
            }
            if let Some(b) = best {
                series.push(Series::new(format!("least E: m = {}", e.m_min_energy), Style::Marker, 2, vec![b]));
            }
            series.push(Series::new("current m", Style::Points, 0, vec![(s.t, s.energy.total())]));
            let interior = e.m_min_energy > first && e.m_min_energy < last;
            let note = if interior {
                format!(
                    "E has an interior minimum: {} use the least energy, {} J over T = {} s. Fewer processors run longer and idle longer; more add idle power faster than they shorten the schedule.",
                    plural(e.m_min_energy as f64, "processor", "processors"),
                    sig(e.e_min, 4),
                    sig(best.map_or(f64::NAN, |b| b.0), 4)
                )
            } else if e.m_min_energy == last && last > first {
                format!(
                    "No interior minimum: E keeps falling up to the largest feasible count, m_max = {last}, so the shortest feasible schedule is also the most frugal for this V."
                )
            } else {
                format!(
                    "No interior minimum: E is least on {} (m = {}) for this V.",
                    plural(e.m_min_energy as f64, "processor", "processors"),
                    e.m_min_energy
                )
            };
            Ok(Chart {
                title: format!("Energy vs schedule length, V = {}", sig(inputs.v, 4)),
                x: Axis::new(SPEC.axis_label("T"), Scale::Log),
                y: Axis::new(SPEC.axis_label("E"), Scale::Log),
                series,
                legend: Corner::Auto,
                note: Some(note),
            })
        }
        other => Err(ModelError::Unknown {
            what: "chart",
            name: other.into(),
            known: SPEC.charts.iter().map(|c| c.id.to_string()).collect(),
        }),
    }
}

/// The load parts and timing of each processor (sampled when many).
pub fn schedule_table(inputs: &Inputs, e: &Evaluation) -> Table {
    let s = &e.schedule;
    let rows = rows_of(inputs, e, &sample(s.m, TABLE_ROWS))
        .into_iter()
        .map(|(i, alpha, receive, compute)| Row {
            cells: vec![
                format!("P{i}"),
                sig(alpha, 6),
                format!("{}%", sig(100.0 * alpha / inputs.v, 4)),
                sig(receive, 6),
                sig(compute, 6),
                sig(s.t, 6),
            ],
            status: Status::Plain,
            remark: None,
            link: None,
        })
        .collect::<Vec<_>>();
    let shown =
        if rows.len() < s.m { format!(" ({} of {} shown, evenly spaced)", rows.len(), s.m) } else { String::new() };
    Table {
        id: "schedule",
        title: format!("Load split on {}{shown}", plural(s.m as f64, "processor", "processors")),
        caption: "α_i is the load part of P_i; it receives from the given time for S + C α_i, computes for A α_i, and finishes with every other processor at T(m).".into(),
        columns: ["processor", "α_i", "share of V", "receives from (s)", "computes from (s)", "finishes (s)"]
            .map(String::from)
            .to_vec(),
        rows,
        notes: if e.feasible {
            Vec::new()
        } else {
            vec![format!(
                "The requested m = {} is infeasible for this V; this is the schedule of m_max = {}.",
                e.m_requested,
                plural(e.m_max as f64, "processor", "processors")
            )]
        },
    }
}

/// SPEC's published values: A = 1, C = 1e-6, S = 1e2, V = 1e3.
pub const PUBLISHED: [(usize, Option<f64>); 5] =
    [(1, Some(1100.001)), (2, Some(650.000775)), (3, Some(533.3340667)), (4, Some(500.00075)), (5, None)];

/// The published schedule lengths against the closed form and the recursion.
pub fn reproduction_table() -> Table {
    let star = Star::new(1.0, 1e-6, 1e2);
    let rows = PUBLISHED
        .iter()
        .map(|&(m, published)| {
            let closed = star.map(|s| s.split(m, 1e3));
            let rec = hetero_split(&vec![1.0; m], &vec![1e-6; m], &vec![1e2; m], 1e3);
            let feasible = closed.is_some_and(|c| c.feasible);
            let t = closed.map_or(f64::NAN, |c| c.t);
            let rt = rec.as_ref().map_or(f64::NAN, |r| r.t);
            let (cells_t, delta, verdict, status) = match published {
                Some(p) if feasible => {
                    let d = (t - p) / p;
                    let ok = d.abs() < 5e-10;
                    (
                        sig(t, 10),
                        percent(d),
                        if ok { "reproduced" } else { "differs" },
                        if ok { Status::Agrees } else { Status::Disagrees },
                    )
                }
                None if !feasible => ("infeasible".into(), "—".into(), "reproduced", Status::Agrees),
                _ => (sig(t, 10), "—".into(), "differs", Status::Disagrees),
            };
            Row {
                cells: vec![
                    m.to_string(),
                    published.map_or("infeasible".into(), |p| sig(p, 10)),
                    cells_t,
                    if feasible { sig(rt, 10) } else { "α_m ≤ 0".into() },
                    delta,
                    verdict.into(),
                ],
                status,
                remark: None,
                link: None,
            }
        })
        .collect();
    Table {
        id: "reproduction",
        title: "Reproduction: A = 1, C = 10⁻⁶, S = 100, V = 1000".into(),
        caption:
            "Schedule lengths T(1…5) as published, from the closed form, and from the lecture's recursion (1)-(3)."
                .into(),
        columns: ["m", "published T(m)", "closed form", "recursion (1)-(3)", "Δ", "verdict"].map(String::from).to_vec(),
        rows,
        notes: vec!["Five processors need V > L(5) ≈ 1000.0010 to all get load: V = 1000 is just short.".into()],
    }
}
