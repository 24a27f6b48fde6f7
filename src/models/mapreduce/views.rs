//! Tables, the Gantt chart and the sweep observations of the MapReduce model.

use crate::chart::{Axis, Chart, Corner, Series, Span};
use crate::error::ModelError;
use crate::format::{plural, sig};
use crate::model::SweepData;
use crate::spec::{Params, Scale, SweepSpec, Value};
use crate::table::{Row, Status, Table};

use super::schedule::{solve, Budget, Intervals, Shuffle};
use super::{evaluate_within, Evaluation, Inputs};

/// Mapper and reducer rows shown in the Gantt chart and the tables.
const MAPPER_ROWS: usize = 8;
const REDUCER_ROWS: usize = 4;
const TABLE_ROWS: usize = 12;

/// `count` indices from 1..=n, evenly spread, always with the first and last.
fn sample(n: usize, count: usize) -> Vec<usize> {
    if n <= count {
        return (1..=n).collect();
    }
    let mut out: Vec<usize> = (0..count).map(|k| 1 + (k * (n - 1)) / (count - 1).max(1)).collect();
    out.dedup();
    out
}

/// "1–2, 5–6": runs of consecutive numbers.
fn runs(xs: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while let Some(&start) = xs.get(k) {
        let mut end = start;
        while xs.get(k + 1) == Some(&(end + 1)) {
            end += 1;
            k += 1;
        }
        parts.push(if end == start { format!("{start}") } else { format!("{start}–{end}") });
        k += 1;
    }
    parts.join(", ")
}

/// The intervals mapper i sends in, ascending.
fn sends_of(iv: &Intervals, i: usize) -> Vec<usize> {
    (1..=iv.r()).map(|j| iv.itv(i, j)).collect()
}

pub fn schedule_table(inputs: &Inputs, e: &Evaluation) -> Table {
    let iv = &inputs.intervals;
    let m = iv.m();
    let c = inputs.send_rate();
    let t = &e.solution.t;
    let rows = sample(m, TABLE_ROWS)
        .into_iter()
        .map(|i| {
            let alpha = e.solution.alpha.get(i - 1).copied().unwrap_or(f64::NAN);
            let sends = sends_of(iv, i);
            let shown = if sends.len() > 24 {
                format!("{} … ({} in all)", runs(sends.get(..12).unwrap_or(&[])), sends.len())
            } else {
                runs(&sends)
            };
            Row {
                cells: vec![
                    format!("M{i}"),
                    sig(alpha, 6),
                    format!("{}%", sig(100.0 * alpha / inputs.v, 4)),
                    sig(i as f64 * inputs.s, 6),
                    sig(t.get(i - 1).copied().unwrap_or(f64::NAN), 6),
                    shown,
                    sig(c * alpha, 4),
                ],
                status: Status::Plain,
                remark: None,
                link: None,
            }
        })
        .collect();
    let shown = if m > TABLE_ROWS { format!(", {TABLE_ROWS} of {m} shown") } else { String::new() };
    Table {
        id: "schedule",
        title: format!("Load split and shuffle on {}{shown}", plural(m as f64, "mapper", "mappers")),
        caption: "Mapper i is ready after iS, maps α_i until t_i = iS + A_i α_i, then sends γα_i/r to one reducer in each of its intervals (itv(i, 1) … itv(i, r)), each send taking γCα_i/r.".into(),
        columns: ["mapper", "α_i", "share of V", "maps from (s)", "maps until t_i (s)", "sends in intervals", "each send (s)"]
            .map(String::from)
            .to_vec(),
        rows,
        notes: vec![format!(
            "The shuffle ends at t_{{N+1}} = {} s after N = {}; the reducers then take t_red = {} s, so T = {} s.",
            sig(e.t_shuffle, 8),
            plural(iv.count() as f64, "interval", "intervals"),
            sig(e.t_red, 6),
            sig(e.t(), 8)
        )],
    }
}

/// itv(i, j) for a sample of mappers and reducers, and who sends in each interval.
pub fn interval_table(inputs: &Inputs) -> Table {
    let iv = &inputs.intervals;
    let reducers = sample(iv.r(), 10);
    let rows = sample(iv.m(), TABLE_ROWS)
        .into_iter()
        .map(|i| {
            let mut cells = vec![format!("M{i}")];
            cells.extend(reducers.iter().map(|&j| iv.itv(i, j).to_string()));
            Row { cells, status: Status::Plain, remark: None, link: None }
        })
        .collect();
    let mut columns = vec!["itv(i, j)".to_string()];
    columns.extend(reducers.iter().map(|j| format!("R{j}")));
    let vti: Vec<String> = sample(iv.count(), 12)
        .into_iter()
        .map(|n| {
            let who: Vec<String> = iv
                .senders(n)
                .map(|s| if s.lo == s.hi { format!("{}", s.lo) } else { format!("{}–{}", s.lo, s.hi) })
                .collect();
            format!("vti({n}) = {{{}}}", who.join(", "))
        })
        .collect();
    Table {
        id: "intervals",
        title: format!(
            "Interval table itv(i, j): {}, {}, ℓ = {}",
            plural(iv.m() as f64, "mapper", "mappers"),
            plural(iv.r() as f64, "reducer", "reducers"),
            iv.width()
        ),
        caption: "The interval in which mapper i sends to reducer j. Reducers form groups of ℓ; each mapper holds one channel and each reducer one at a time, at most ℓ in all.".into(),
        columns,
        rows,
        notes: vec![format!("N = itv(m, r) = {}. {}", plural(iv.count() as f64, "interval", "intervals"), vti.join("; "))],
    }
}

/// SPEC's public example, m = r = 4, ℓ = 2: published vs computed.
pub fn reproduction_table() -> Table {
    const ALPHA: [f64; 4] = [2284.0, 2732.0, 3292.0, 3992.0];
    let p = Intervals::new(4, 4, 2).map(|iv| Shuffle { intervals: iv, a: vec![1.0; 4], s: 1.0, c: 0.25, v: 100.0 });
    let opt = p.as_ref().and_then(|p| solve(p).ok());
    let row = |what: String, published: f64, exact: &str, ours: f64| {
        let agrees = (ours - published).abs() <= 1e-9 * published.abs();
        Row {
            cells: vec![what, exact.to_string(), sig(published, 10), sig(ours, 10)],
            status: if agrees { Status::Agrees } else { Status::Disagrees },
            remark: None,
            link: None,
        }
    };
    let mut rows: Vec<Row> = ALPHA
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let ours = opt.as_ref().and_then(|o| o.alpha.get(k).copied()).unwrap_or(f64::NAN);
            row(format!("α_{}", k + 1), a / 123.0, &format!("{a}/123"), ours)
        })
        .collect();
    rows.push(row("t_10".into(), 9982.0 / 123.0, "9982/123", opt.as_ref().map_or(f64::NAN, |o| o.makespan())));
    Table {
        id: "reproduction",
        title: "Reproduction: the communication schedule m = r = 4, ℓ = 2".into(),
        caption: "A = 1, V = 100, S = C = γ = 1 (SPEC's public example); agreement to 10⁻⁹ relative.".into(),
        columns: ["quantity", "exact", "published", "isoperf"].map(String::from).to_vec(),
        rows,
        notes: vec!["Intervals per mapper: M1 {1, 2, 5, 6}, M2 {2, 3, 6, 7}, M3 {3, 4, 7, 8}, M4 {4, 5, 8, 9}.".into()],
    }
}

/// Joins spans on one row that are closer than `gap` (thousands of sends
/// read as one receive window at m = 1000).
fn merged(mut spans: Vec<(f64, f64)>, gap: f64) -> Vec<(f64, f64)> {
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (from, to) in spans {
        match out.last_mut() {
            Some(last) if from <= last.1 + gap => last.1 = last.1.max(to),
            _ => out.push((from, to)),
        }
    }
    out
}

/// The Gantt chart of the schedule.
pub fn gantt(inputs: &Inputs, e: &Evaluation) -> Result<Chart, ModelError> {
    let iv = &inputs.intervals;
    let (m, r) = (iv.m(), iv.r());
    let c = inputs.send_rate();
    let t = &e.solution.t;
    let alpha = &e.solution.alpha;
    let total = e.t();
    // In a large schedule, sends closer than 1/1000 of T merge into one bar;
    // a small one shows every send.
    let summarise = m * r > 64;
    let gap = total / 1000.0;
    let merged = |spans: Vec<(f64, f64)>, gap: f64| if summarise { merged(spans, gap) } else { spans };
    let mappers = sample(m, MAPPER_ROWS);
    let reducers = sample(r, REDUCER_ROWS);
    let rows = mappers.len() + reducers.len();
    let y = |k: usize| (rows - k) as f64;
    let send = |i: usize, n: usize| -> (f64, f64) {
        let from = t.get(n - 1).copied().unwrap_or(f64::NAN);
        (from, from + c * alpha.get(i - 1).copied().unwrap_or(f64::NAN))
    };
    let (mut startup, mut mapping, mut sending, mut receiving, mut reducing) = (vec![], vec![], vec![], vec![], vec![]);
    for (k, &i) in mappers.iter().enumerate() {
        let row = y(k);
        let ready = i as f64 * inputs.s;
        startup.push(Span { row, from: ready - inputs.s, to: ready });
        mapping.push(Span { row, from: ready, to: t.get(i - 1).copied().unwrap_or(ready) });
        let sends = (1..=r).map(|j| send(i, iv.itv(i, j))).collect();
        sending.extend(merged(sends, gap).into_iter().map(|(from, to)| Span { row, from, to }));
    }
    for (k, &j) in reducers.iter().enumerate() {
        let row = y(mappers.len() + k);
        let windows = (1..=m).map(|i| send(i, iv.itv(i, j))).collect();
        receiving.extend(merged(windows, gap).into_iter().map(|(from, to)| Span { row, from, to }));
        reducing.push(Span { row, from: e.t_shuffle, to: total });
    }
    let mut labels: Vec<String> =
        mappers.iter().map(|i| format!("M{i}")).chain(reducers.iter().map(|j| format!("R{j}"))).collect();
    labels.reverse();
    let title = if mappers.len() < m || reducers.len() < r {
        format!("Schedule, {} of {m} mappers and {} of {r} reducers", mappers.len(), reducers.len())
    } else {
        format!(
            "Schedule, {}, {}, ℓ = {}",
            plural(m as f64, "mapper", "mappers"),
            plural(r as f64, "reducer", "reducers"),
            iv.width()
        )
    };
    Ok(Chart {
        title,
        // Room right of T for the legend: no bar is ever there.
        x: Axis::new("time (s)", Scale::Linear).bounded(0.0, total * 1.45),
        y: Axis::new("", Scale::Linear).bounded(0.4, rows as f64 + 0.6).labelled(labels),
        series: vec![
            Series::spans("start-up", 5, startup),
            Series::spans("mapping", 0, mapping),
            Series::spans("sending", 1, sending),
            Series::spans("receiving", 2, receiving),
            Series::spans("reducing", 3, reducing),
        ],
        legend: Corner::UpperRight,
        note: summarise.then(|| "Sends closer than 0.1% of T are drawn as one bar.".to_string()),
    })
}

/// A parameter value as the page prints it: whole numbers in full.
fn val(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e9 {
        crate::format::count(x)
    } else {
        crate::format::base(x)
    }
}

/// The model at `p` with some values replaced, within a map point's
/// budget: a sweep's note is drawn on the page's thread, so it never waits
/// for a general LP (where one would be needed it says why the point has
/// no value, like the sweep itself).
fn evaluated(p: &Params, changes: &[(&str, f64)]) -> Result<Evaluation, ModelError> {
    let q = changes.iter().fold(p.clone(), |q, (k, v)| q.with(k, Value::Num(*v)));
    evaluate_within(&Inputs::new(&q)?, Budget::MAP_POINT)
}

/// The speedup of `p` with some values replaced, if it evaluates.
fn speedup_with(p: &Params, changes: &[(&str, f64)]) -> Option<f64> {
    evaluated(p, changes).ok().map(|e| e.speedup())
}

/// The shuffle time t_{N+1} of `p` with some values replaced, if it evaluates.
fn shuffle_with(p: &Params, changes: &[(&str, f64)]) -> Option<f64> {
    evaluated(p, changes).ok().map(|e| e.t_shuffle)
}

/// The defined points of curve `s`.
fn defined(data: &SweepData, s: usize) -> Vec<(f64, f64)> {
    let ys = data.ys.get(s).map_or(&[][..], Vec::as_slice);
    data.xs.iter().zip(ys).filter(|(_, y)| y.is_finite()).map(|(x, y)| (*x, *y)).collect()
}

/// The largest x at which every curve is defined.
fn common_end(data: &SweepData) -> Option<f64> {
    data.xs
        .iter()
        .rev()
        .copied()
        .find(|x| (0..data.values.len()).all(|s| data.at(s, *x).is_some_and(|(at, _)| at == *x)))
}

/// The model's reason for no value at x on curve s.
fn why_not(sweep: &SweepSpec, p: &Params, value: f64, x: f64) -> String {
    let mut changes = vec![(sweep.series, value), (sweep.x, x)];
    changes.extend(sweep.linked.iter().map(|key| (*key, value)));
    match evaluated(p, &changes) {
        Err(e) => e.to_string(),
        Ok(_) => "no value".into(),
    }
}

/// Curves with no point at all, and the first gap of the others, with the
/// model's reason.
fn gap_reason(sweep: &SweepSpec, p: &Params, data: &SweepData) -> Vec<String> {
    let mut out = Vec::new();
    let empty: Vec<f64> = (0..data.values.len())
        .filter(|&s| defined(data, s).is_empty())
        .filter_map(|s| data.values.get(s).copied())
        .collect();
    if let (Some(&first), Some(&x)) = (empty.first(), data.xs.first()) {
        let list: Vec<String> = empty.iter().map(|v| val(*v)).collect();
        out.push(format!("No curve for {} = {}: {}.", sweep.label, list.join(", "), why_not(sweep, p, first, x)));
    }
    let partial = data.ys.iter().enumerate().find_map(|(s, ys)| {
        if defined(data, s).is_empty() {
            return None;
        }
        ys.iter().zip(&data.xs).find(|(y, _)| !y.is_finite()).map(|(_, x)| (s, *x))
    });
    if let Some((value, x)) = partial.and_then(|(s, x)| Some((*data.values.get(s)?, x))) {
        out.push(format!(
            "Points with no value are left out, first at {} = {} for {} = {}: {}.",
            sweep.x,
            val(x),
            sweep.label,
            val(value),
            why_not(sweep, p, value, x)
        ));
    }
    out
}

/// The lecture's observations, read off the curves drawn: each sentence
/// states what these curves show, including where they differ from the
/// lecture's.
pub fn observation(sweep: &SweepSpec, p: &Params, data: &SweepData) -> Option<String> {
    let n = data.values.len();
    let r_now = p.num("r")?;
    let mut sentences: Vec<String> = Vec::new();
    match sweep.id {
        "speedup-m-r" => {
            // Per curve: (r, value a tenfold of m before the end, value at the end, peak, m at peak).
            let mut level = Vec::new();
            let mut peaked = Vec::new();
            for s in 0..n {
                let pts = defined(data, s);
                let (Some(&(x1, y1)), Some(value)) = (pts.last(), data.values.get(s)) else { continue };
                let (px, py) = pts.iter().copied().fold((x1, y1), |best, q| if q.1 > best.1 { q } else { best });
                let before = pts.iter().copied().rev().find(|q| q.0 <= x1 / 10.0);
                match before {
                    Some((_, y0)) if y1 >= 0.95 * py => level.push((*value, x1, y1 / y0 - 1.0, y1)),
                    _ if y1 < 0.95 * py => peaked.push((*value, px, py, x1, y1)),
                    _ => {}
                }
            }
            if !level.is_empty() {
                let (gmin, gmax) =
                    level.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), l| (lo.min(l.2), hi.max(l.2)));
                let at: Vec<String> =
                    level.iter().map(|(r, _, _, y)| format!("{} at r = {}", sig(*y, 3), val(*r))).collect();
                let x_end = level.iter().map(|l| l.1).fold(f64::INFINITY, f64::min);
                sentences.push(format!(
                    "With growing m, speedup levels off: over the last tenfold of m (to m = {}) it grows only {}–{}%, and settles near r ({}).",
                    val(x_end),
                    sig(100.0 * gmin.max(0.0), 2),
                    sig(100.0 * gmax.max(0.0), 2),
                    at.join(", ")
                ));
            }
            if !peaked.is_empty() {
                let each: Vec<String> = peaked
                    .iter()
                    .map(|(r, px, py, x1, y1)| {
                        format!(
                            "r = {}: {} near m = {}, {} at m = {}",
                            val(*r),
                            sig(*py, 3),
                            val(*px),
                            sig(*y1, 3),
                            val(*x1)
                        )
                    })
                    .collect();
                sentences.push(format!(
                    "Here speedup does not level off: it peaks and then falls as m grows ({}), because each extra mapper's start-up costs more than its share of V saves.",
                    each.join("; ")
                ));
            }
            if let Some(x) = common_end(data) {
                let ys: Vec<(f64, f64)> =
                    (0..n).filter_map(|s| Some((*data.values.get(s)?, data.at(s, x)?.1))).collect();
                let increasing = ys.windows(2).all(|w| matches!(w, [a, b] if b.1 >= a.1));
                if let (Some(first), Some(last)) = (ys.first(), ys.last()) {
                    sentences.push(if increasing {
                        format!(
                            "Speedup grows with r: at m = {} it rises from {} (r = {}) to {} (r = {}).",
                            val(x),
                            sig(first.1, 3),
                            val(first.0),
                            sig(last.1, 3),
                            val(last.0)
                        )
                    } else {
                        let all: Vec<String> =
                            ys.iter().map(|(r, y)| format!("{} at r = {}", sig(*y, 3), val(*r))).collect();
                        format!(
                            "Here speedup does not grow with r at every step: at m = {} it is {}.",
                            val(x),
                            all.join(", ")
                        )
                    });
                }
            }
        }
        "speedup-m-gamma" => {
            // Gain from m = r (evaluated there exactly, not read off the grid) to the end of each curve.
            let parts: Vec<(f64, f64, f64, f64)> = (0..n)
                .filter_map(|s| {
                    let pts = defined(data, s);
                    let (x_end, end) = *pts.last()?;
                    let gamma = *data.values.get(s)?;
                    let at_r = speedup_with(p, &[("gamma", gamma), ("m", r_now)])?;
                    (x_end > 2.0 * r_now).then_some((gamma, at_r, end, x_end))
                })
                .collect();
            if let (Some(big), Some(small)) = (parts.first(), parts.last()) {
                if parts.len() >= 2 {
                    let holds = small.2 / small.1 > big.2 / big.1;
                    sentences.push(format!(
                        "{}: with γ = {}, going from m = r = {} to m = {} multiplies speedup by {} (to {}); with γ = {}, going to m = {} multiplies it by {} (to {}).",
                        if holds { "The smaller γ, the less the mappers send, so m ≫ r pays off" } else { "Here a smaller γ does not make m ≫ r pay off more" },
                        val(small.0),
                        val(r_now),
                        val(small.3),
                        sig(small.2 / small.1, 3),
                        sig(small.2, 3),
                        val(big.0),
                        val(big.3),
                        sig(big.2 / big.1, 3),
                        sig(big.2, 3)
                    ));
                    if holds {
                        sentences.push("γ is the key to scaling MapReduce.".into());
                    }
                }
            }
        }
        "shuffle-m-l" => {
            if let Some(m_now) = p.num("m").filter(|_| p.choice("mappers") == Some("identical")) {
                let l_hi = *data.values.last()?;
                let l_lo = *data.values.get(n.checked_sub(2)?)?;
                let c = p.num("C")?;
                let narrow = shuffle_with(p, &[("l", l_lo)]);
                let wide = shuffle_with(p, &[("l", l_hi)]);
                let faster = shuffle_with(p, &[("l", l_lo), ("C", c * l_lo / l_hi)]);
                match (narrow, wide, faster) {
                    (Some(narrow), Some(wide), _) if (wide - narrow).abs() <= 1e-9 * wide => sentences.push(format!(
                        "With r = {}, ℓ = {} already serves them all at once (or m ≤ ℓ), so widening the bisection changes nothing here.",
                        plural(r_now, "reducer", "reducers"),
                        val(l_lo)
                    )),
                    (Some(narrow), Some(wide), Some(faster)) => sentences.push(format!(
                        "A wider bisection acts like faster communication: at m = {}, widening ℓ from {} to {} cuts the shuffle from {} s to {} s; keeping ℓ = {} and making links {}× faster (C × {}) cuts it to {} s.",
                        val(m_now),
                        val(l_lo),
                        val(l_hi),
                        sig(narrow, 3),
                        sig(wide, 3),
                        val(l_lo),
                        sig(l_hi / l_lo, 3),
                        sig(l_lo / l_hi, 3),
                        sig(faster, 3)
                    )),
                    _ => {}
                }
            }
        }
        _ => return None,
    }
    sentences.extend(gap_reason(sweep, p, data));
    (!sentences.is_empty()).then(|| sentences.join(" "))
}

/// Each curve's best mapper count over a sweep across m (where the search
/// proves one), as one series of points: the curve's value at m_best.
#[cfg(feature = "full")]
pub fn best_marks(sweep: &SweepSpec, p: &Params) -> Vec<Series> {
    use super::mappers::{MapperSearch, QUICK_SEARCH_INTERVALS};
    use crate::chart::Style;
    if sweep.x != "m" || p.choice("mappers") == Some("heterogeneous") {
        return Vec::new();
    }
    let points: Vec<(f64, f64)> = sweep
        .values
        .iter()
        .filter_map(|&value| {
            let q = sweep
                .linked
                .iter()
                .fold(p.with(sweep.series, Value::Num(value)), |q, key| q.with(key, Value::Num(value)));
            let inputs = Inputs::new(&q.with("m", Value::Num(sweep.x_max))).ok()?;
            let MapperSearch::Best { m, t_shuffle } = inputs.best_mappers(QUICK_SEARCH_INTERVALS, None)? else {
                return None;
            };
            let t = t_shuffle + inputs.t_red();
            let y = match sweep.output {
                "speedup" => inputs.t_seq() / t,
                "T" => t,
                "t_shuffle" => t_shuffle,
                _ => return None,
            };
            Some((m as f64, y))
        })
        .collect();
    if points.is_empty() {
        return Vec::new();
    }
    vec![Series::new(format!("m_best of each curve (m ≤ {})", val(sweep.x_max)), Style::Points, 0, points)]
}
