//! Charts and the live Table 2 of the PMM model.

use crate::chart::{Axis, Chart, Corner, Series, Style};
use crate::error::ModelError;
use crate::format::sig;
use crate::spec::Scale;
use crate::table::{Row, Status, Table};

use super::{ceil_log2, predict, Implementation, Inputs, Prediction, MAX_PROCESSES, SPEC};

fn color(i: Implementation) -> usize {
    match i {
        Implementation::Dryad => 0,
        Implementation::MsMpi => 1,
        Implementation::Fox => 2,
    }
}

/// The mesh sides a sweep over N covers: 1 … max(2√N, 10), within M and
/// the parameter range.
fn mesh_sides(i: &Inputs) -> std::ops::RangeInclusive<u64> {
    let limit = (MAX_PROCESSES.sqrt() as u64).min(i.order() as u64);
    1..=(2 * i.sqrt_n()).max(10).min(limit).max(1)
}

fn sweep(
    i: &Inputs,
    imp: Implementation,
    from: u64,
    f: impl Fn(&Inputs, &Prediction) -> (f64, f64),
) -> Vec<(f64, f64)> {
    mesh_sides(i).filter(|q| *q >= from).filter_map(|q| i.with(imp, q * q)).map(|j| f(&j, &predict(&j))).collect()
}

fn current_marker(i: &Inputs, point: (f64, f64)) -> Series {
    Series::new("", Style::Marker, color(i.implementation()), vec![point])
}

pub fn chart(id: &str, i: &Inputs) -> Result<Chart, ModelError> {
    let now = predict(i);
    let n = i.n() as f64;
    match id {
        "time" | "efficiency" => {
            let efficiency = id == "efficiency";
            let value = |p: &Prediction| if efficiency { p.efficiency } else { p.t };
            let mut series: Vec<Series> = Implementation::ALL
                .into_iter()
                .map(|imp| {
                    Series::new(imp.label(), Style::Line, color(imp), sweep(i, imp, 1, |j, p| (j.n() as f64, value(p))))
                })
                .collect();
            series.push(current_marker(i, (n, value(&now))));
            let y = if efficiency {
                Axis::new(SPEC.axis_label("efficiency"), Scale::Linear).bounded(0.0, 1.05)
            } else {
                Axis::new(SPEC.axis_label("T"), Scale::Log)
            };
            let title = if efficiency { "Efficiency vs N" } else { "T(N) vs N" };
            Ok(Chart {
                title: format!("{title}, M = {}", i.order()),
                x: Axis::new(SPEC.axis_label("N"), Scale::Log),
                y,
                series,
                legend: if efficiency { Corner::LowerLeft } else { Corner::UpperRight },
                note: None,
            })
        }
        "overhead" => {
            let mut series = Vec::new();
            let mut x_max: f64 = 0.0;
            for imp in [Implementation::Dryad, Implementation::MsMpi] {
                let points = sweep(i, imp, 2, |j, p| (j.convergence_term(), p.overhead));
                x_max = points.iter().fold(x_max, |a, p| a.max(p.0));
                series.push(Series::new(format!("{} f", imp.label()), Style::Points, color(imp), points));
            }
            for imp in [Implementation::Dryad, Implementation::MsMpi] {
                let slope = i.with(imp, i.n()).map_or(f64::NAN, |j| j.overhead_slope());
                series.push(Series::new(
                    format!("{} slope {}", imp.label(), sig(slope, 3)),
                    Style::Dashed,
                    color(imp),
                    vec![(0.0, 0.0), (x_max, slope * x_max)],
                ));
            }
            if i.implementation() != Implementation::Fox {
                series.push(current_marker(i, (i.convergence_term(), now.overhead)));
            }
            Ok(Chart {
                title: format!("Overhead f vs convergence term, M = {}", i.order()),
                x: Axis::new("√N(√N+1)/4M (Dryad), √N(1+⌈log₂√N⌉)/4M (MS-MPI)", Scale::Linear),
                y: Axis::new(SPEC.axis_label("overhead"), Scale::Linear),
                series,
                legend: Corner::UpperLeft,
                note: None,
            })
        }
        other => Err(ModelError::Unknown {
            what: "chart",
            name: other.into(),
            known: super::CHARTS.iter().map(|c| c.spec.id.into()).collect(),
        }),
    }
}

/// Table 2 of the paper, evaluated at the current N, M and rates.
pub fn broadcast_table(i: &Inputs) -> Table {
    let n = i.n() as f64;
    let m = i.order();
    let rows = [Implementation::Fox, Implementation::MsMpi, Implementation::Dryad]
        .into_iter()
        .map(|imp| {
            let j = i.with(imp, i.n()).unwrap_or(*i);
            let p = predict(&j);
            let (algorithm, cost_formula, cost, rate_formula) = match imp {
                Implementation::Fox => ("pipeline", "M² T_comm", m * m * j.t_element(), "√N / M"),
                Implementation::MsMpi => (
                    "binomial tree",
                    "⌈log₂ N⌉ M² T_comm",
                    f64::from(ceil_log2(i.n())) * m * m * j.t_element(),
                    "√N (1 + ⌈log₂ √N⌉) / 4M",
                ),
                Implementation::Dryad => {
                    ("flat tree", "N M² (T_comm + T_io)", n * m * m * j.t_element(), "√N (√N + 1) / 4M")
                }
            };
            Row {
                cells: vec![
                    imp.label().into(),
                    algorithm.into(),
                    cost_formula.into(),
                    sig(cost, 4),
                    sig(p.t_bcast, 4),
                    rate_formula.into(),
                    sig(j.convergence_term(), 4),
                    sig(j.convergence_term() * j.overhead_slope(), 4),
                    sig(p.overhead, 4),
                ],
                status: if imp == i.implementation() { Status::Current } else { Status::Plain },
                remark: None,
                link: None,
            }
        })
        .collect::<Vec<Row>>();
    let rows = rows.into_iter().chain(row_broadcasts(i)).collect();
    Table {
        id: "table2",
        title: format!("Table 2, live: broadcast algorithms at N = {}, M = {}", i.n(), m),
        caption: "Table 2's broadcast cost of an M × M matrix over N processes and its convergence rate of the parallel overhead, beside this model's per-iteration broadcast of an m × m block within a mesh row. With zero start-up and scheduling, f equals rate × slope exactly. Below the paper's three rows, the broadcast model's seven algorithms for the same row broadcast; each opens in that model.".into(),
        columns: [
            "implementation",
            "broadcast",
            "Table 2 cost",
            "cost (s)",
            "model: per iteration (s)",
            "convergence rate",
            "rate",
            "rate × slope",
            "f (model)",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        notes: std::iter::once("slope = (T_comm + T_io)/T_flops for Dryad, T_comm/T_flops for MPI and Fox; ⌈log₂⌉ as in SPEC: the binomial tree takes whole rounds.".to_string())
            .chain(row_broadcast_note(i))
            .collect(),
    }
}

/// The bytes of one m × m block (8-byte elements) and its per-byte time
/// (the element time over 8): what a row broadcast of pmm sends.
fn block_message(i: &Inputs) -> (f64, f64) {
    let m = i.order() / i.sqrt_n() as f64;
    (8.0 * m * m, i.t_element() / 8.0)
}

fn row_broadcast_note(i: &Inputs) -> Option<String> {
    let (bytes, beta) = block_message(i);
    let alpha = i.rates().t_startup;
    if i.sqrt_n() < 2 {
        return None; // one process per row: nothing to broadcast
    }
    Some(format!(
        "Broadcast-model rows: one row broadcast of {} B (an m × m block of 8-byte elements) over √N = {} processes under Hockney with α = T_startup = {} s and β = T_comm/8 = {} s/B, each algorithm at its best segment count.{}",
        sig(bytes, 4),
        i.sqrt_n(),
        sig(alpha, 4),
        sig(beta, 4),
        if alpha > 0.0 { "" } else { " With T_startup = 0 (the paper's rows) the broadcast model, which needs α > 0, opens with its own α (42.5 µs)." }
    ))
}

/// The broadcast model's algorithms for this row broadcast, each row linked
/// to the broadcast model with the matching p, n, β (and α) and algorithm.
fn row_broadcasts(i: &Inputs) -> Vec<Row> {
    use crate::collective::algorithms::{best_segments, Algorithm};
    use crate::collective::Network;
    let (bytes, beta) = block_message(i);
    let alpha = i.rates().t_startup;
    let p = i.sqrt_n();
    let net = Network::Hockney { alpha, beta };
    if p < 2 || !(bytes >= 1.0 && beta > 0.0) {
        return Vec::new();
    }
    Algorithm::ALL
        .into_iter()
        .map(|a| {
            let time = a.time(p, bytes, best_segments(a, p, bytes, &net).0, &net);
            let link = format!(
                "#model=broadcast&p={p}&n={}&n_unit=B&beta={}{}&algorithm={}",
                crate::format::num(bytes),
                crate::format::num(beta),
                if alpha > 0.0 { format!("&alpha={}", crate::format::num(alpha)) } else { String::new() },
                a.id()
            );
            Row {
                cells: vec![
                    "broadcast model".into(),
                    a.label().into(),
                    String::new(),
                    String::new(),
                    time.map_or("—".into(), |t| sig(t, 4)),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ],
                status: Status::Plain,
                remark: a.gap_reason(p).map(|r| format!("No time: {r}.")),
                link: Some(link),
            }
        })
        .collect()
}
