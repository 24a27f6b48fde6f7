//! Charts and tables of the scaling model and its analyses.

use super::demand::Demand;
use super::fit::{crossover, Fit};
use crate::chart::{Axis, Chart, Corner, Series, Style};
use crate::error::{AnalysisError, ModelError};
use crate::format::{count, sig};
use crate::spec::Scale;
use crate::table::{Row, Status, Table};

use super::{Coefficients, SPEC};

/// p on a geometric grid from `lo` to `hi`.
fn grid(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    (0..=n).map(|k| lo * (hi / lo).powf(k as f64 / n as f64)).collect()
}

pub fn components_chart(c: Coefficients, p: f64) -> Result<Chart, ModelError> {
    let cross = crossover(c.c1, c.c2);
    let hi = (p * 16.0).max(cross.unwrap_or(1.0) * 4.0).min(1e9);
    let ps = grid(1.0, hi, 200);
    let curve = |f: &dyn Fn(f64) -> f64| ps.iter().map(|&q| (q, f(q))).filter(|(_, y)| *y > 0.0).collect::<Vec<_>>();
    let mut series = vec![
        Series::new("C0 + C1/p + C2/√p", Style::Line, 1, curve(&|q| c.time(q))),
        Series::new("C1/p", Style::Dashed, 0, curve(&|q| c.c1 / q)),
        Series::new("C2/√p", Style::Dashed, 2, curve(&|q| c.c2 / q.sqrt())),
        Series::new("", Style::Marker, 1, vec![(p, c.time(p))]),
    ];
    if let Some(x) = cross {
        let y = c.c1 / x;
        series.push(Series::new(format!("crossover p = {}", sig(x, 4)), Style::Points, 4, vec![(x, y)]));
    }
    Ok(Chart {
        title: "Eq. (1) and its terms".into(),
        x: Axis::new(SPEC.axis_label("p"), Scale::Log),
        y: Axis::new("time (s)", Scale::Log),
        series,
        legend: Corner::Auto,
        note: cross.map(|x| format!("Communication C2/√p overtakes processing C1/p at p = {}.", sig(x, 4))),
    })
}

fn coefficient_row(name: &str, c: &super::fit::Coefficient) -> Row {
    Row {
        cells: vec![name.into(), sig(c.value, 5), sig(c.se, 3), format!("[{}, {}]", sig(c.ci[0], 4), sig(c.ci[1], 4))],
        status: Status::Plain,
        remark: None,
        link: None,
    }
}

/// A time term (C1 or C2) fitted below zero: no physical time, so the row
/// says so and the form does not take it.
fn not_a_time(mut row: Row, name: &str, c: &super::fit::Coefficient) -> Row {
    if c.value < 0.0 {
        row.status = Status::Disagrees;
        row.remark = Some(format!(
            "{name} < 0 is not a time: the data do not support this term of eq. (1){}. \"Use the fitted coefficients\" leaves {name} as it is.",
            if c.ci[1] >= 0.0 { " (its 95% interval includes 0)" } else { "" }
        ));
    }
    row
}

/// The fitted coefficients the form can take: C0 always (an intercept may
/// be negative), C1 and C2 when they are times (≥ 0).
pub fn suggestion(f: &Fit) -> Vec<(&'static str, f64)> {
    [("C0", f.c0.value), ("C1", f.c1.value), ("C2", f.c2.value)]
        .into_iter()
        .filter(|(k, v)| *k == "C0" || *v >= 0.0)
        .collect()
}

pub fn fit_tables(f: &Fit, points: &[(f64, f64)]) -> Vec<Table> {
    let better = if f.aic < f.aic_inverse_only { "eq. (1) with C2/√p" } else { "the pure 1/p model" };
    let coefficients = Table {
        id: "fit",
        title: format!("Fit of eq. (1) to {} runs", f.n),
        caption: format!(
            "R² = {}, mean squared error = {} s², 95% intervals with t = {} ({} degrees of freedom).",
            sig(f.r2, 4),
            sig(f.mse, 3),
            sig(f.t95, 4),
            f.n.saturating_sub(3)
        ),
        columns: ["coefficient", "value (s)", "standard error", "95% interval"].map(String::from).to_vec(),
        rows: vec![
            coefficient_row("C0", &f.c0),
            not_a_time(coefficient_row("C1", &f.c1), "C1", &f.c1),
            not_a_time(coefficient_row("C2", &f.c2), "C2", &f.c2),
        ],
        notes: vec![
            format!(
                "AIC: {} for eq. (1), {} for time = C0 + C1/p alone; {better} fits better (lower AIC).",
                sig(f.aic, 5),
                sig(f.aic_inverse_only, 5)
            ),
            match f.crossover() {
                Some(x) => format!("Communication C2/√p overtakes processing C1/p at p = (C1/C2)² = {}.", sig(x, 4)),
                None => "With C1 or C2 not positive there is no crossover.".into(),
            },
        ],
    };
    let largest = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let rows = [1.0, 2.0, 4.0, 8.0, 16.0]
        .iter()
        .map(|k| {
            let p = largest * k;
            let (t, band) = f.predict(p);
            Row {
                cells: vec![
                    count(p),
                    sig(t, 5),
                    format!("± {}", sig(band, 3)),
                    if *k == 1.0 { "measured".into() } else { "extrapolated".into() },
                ],
                status: if *k == 1.0 { Status::Plain } else { Status::Current },
                remark: None,
                link: None,
            }
        })
        .collect();
    let predictions = Table {
        id: "predictions",
        title: "Predicted completion time".into(),
        caption: "The fitted eq. (1) with its 95% confidence band, at and beyond the largest measured p.".into(),
        columns: ["p", "time (s)", "95% band (s)", "basis"].map(String::from).to_vec(),
        rows,
        notes: Vec::new(),
    };
    vec![coefficients, predictions]
}

pub fn demand_tables(d: &Demand) -> Vec<Table> {
    let mut columns = vec!["p".to_string()];
    columns.extend(d.ctis.iter().map(|c| format!("BW at CTI {}", crate::spec::num(*c))));
    let measured = Table {
        id: "demand",
        title: "Bandwidth demand (% of the link)".into(),
        caption: "The bandwidth at which each configuration's completion time is the CTI above its time at 100%, interpolated between throttling levels.".into(),
        columns,
        rows: d
            .configurations
            .iter()
            .map(|c| {
                let mut cells = vec![count(c.p)];
                cells.extend(c.demand.iter().map(|b| format!("{}%", sig(*b, 4))));
                Row { cells, status: if c.p == d.base_p { Status::Current } else { Status::Plain }, remark: None, link: None }
            })
            .collect(),
        notes: vec![format!(
            "DC = {} averaged over {} ratios (pairs p1 > p2 × CTIs), from {} to {}.",
            sig(d.dc, 4),
            d.pairs.len(),
            sig(d.dc_min, 4),
            sig(d.dc_max, 4)
        )],
    };
    let prediction = Table {
        id: "demand-prediction",
        title: format!("Eq. (3): demand at p′ = {} from p* = {}", count(d.target_p), count(d.base_p)),
        caption: "BW_{CTI,p′} = BW_{CTI,p*} · DC · √(p′/p*), with the range the smallest and largest pair DC give, and the p at which the demand reaches 100% of the link: beyond it adding nodes stops paying.".into(),
        columns: ["CTI", "predicted demand", "range", "100% of the link at p ="].map(String::from).to_vec(),
        rows: d
            .predictions
            .iter()
            .map(|x| Row {
                cells: vec![
                    sig(x.cti, 3),
                    format!("{}%", sig(x.bandwidth, 4)),
                    format!("{}–{}%", sig(x.bandwidth_low, 4), sig(x.bandwidth_high, 4)),
                    sig(x.p_full, 4),
                ],
                status: if x.bandwidth >= 100.0 { Status::Disagrees } else { Status::Plain },
                remark: (x.bandwidth >= 100.0).then(|| "The predicted demand exceeds the link: this CTI cannot be met at p′.".to_string()),
                link: None,
            })
            .collect(),
        notes: Vec::new(),
    };
    vec![measured, prediction]
}

fn unknown(chart: &str) -> AnalysisError {
    AnalysisError::general(format!("unknown chart '{chart}'"))
}

pub fn fit_chart(chart: &str, points: &[(f64, f64)], f: &Fit) -> Result<Chart, AnalysisError> {
    let lo = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.0).fold(1.0, f64::max) * 4.0;
    let ps = grid(lo.max(1e-9), hi, 160);
    let line: Vec<(f64, f64)> = ps.iter().map(|&p| (p, f.predict(p).0)).collect();
    let upper: Vec<(f64, f64)> = ps.iter().map(|&p| (p, f.predict(p).0 + f.predict(p).1)).collect();
    let lower: Vec<(f64, f64)> = ps.iter().map(|&p| (p, f.predict(p).0 - f.predict(p).1)).collect();
    match chart {
        "fit" | "fit-loglog" => {
            let log = chart == "fit-loglog";
            let scale = if log { Scale::Log } else { Scale::Linear };
            Ok(Chart {
                title: format!("Fit: C1 = {}, C2 = {}, R² = {}", sig(f.c1.value, 4), sig(f.c2.value, 4), sig(f.r2, 3)),
                x: Axis::new("processes p", scale),
                y: Axis::new("completion time (s)", scale),
                series: vec![
                    Series::new("measured", Style::Points, 5, points.to_vec()),
                    Series::new("fit, eq. (1)", Style::Line, 1, line),
                    Series::new("95% band", Style::Dashed, 0, upper),
                    Series::new("", Style::Dashed, 0, lower),
                ],
                legend: Corner::Auto,
                note: None,
            })
        }
        "residuals" => Ok(Chart {
            title: format!("Residuals, MSE = {}", sig(f.mse, 3)),
            x: Axis::new("processes p", Scale::Log),
            y: Axis::new("measured − fitted (s)", Scale::Linear),
            series: vec![
                Series::new(
                    "residual",
                    Style::Points,
                    1,
                    points.iter().zip(&f.residuals).map(|(p, r)| (p.0, *r)).collect(),
                ),
                Series::new("", Style::Dashed, 5, vec![(lo, 0.0), (hi / 4.0, 0.0)]),
            ],
            legend: Corner::Auto,
            note: None,
        }),
        other => Err(unknown(other)),
    }
}

pub fn demand_chart(chart: &str, d: &Demand) -> Result<Chart, AnalysisError> {
    match chart {
        "cti" => {
            let mut series: Vec<Series> = d
                .configurations
                .iter()
                .enumerate()
                .map(|(k, c)| Series::new(format!("p = {}", sig(c.p, 4)), Style::Line, k, c.cti_curve.clone()))
                .collect();
            for (k, c) in d.ctis.iter().enumerate() {
                series.push(Series::new(
                    if k == 0 { "target CTIs".to_string() } else { String::new() },
                    Style::Dashed,
                    5,
                    vec![(0.0, *c), (100.0, *c)],
                ));
            }
            Ok(Chart {
                title: "Completion time increment vs bandwidth".into(),
                x: Axis::new("available bandwidth (%)", Scale::Linear),
                y: Axis::new("CTI, eq. (2)", Scale::Linear),
                series,
                legend: Corner::Auto,
                note: None,
            })
        }
        "demand" => {
            let lo = d.configurations.first().map_or(1.0, |c| c.p);
            let hi = d.target_p.max(d.predictions.iter().map(|x| x.p_full).fold(0.0, f64::max).min(d.target_p * 16.0));
            let ps = grid(lo, hi.max(lo * 2.0), 120);
            let mut series = Vec::new();
            for (k, x) in d.predictions.iter().enumerate() {
                let base = x.bandwidth / (d.dc * (d.target_p / d.base_p).sqrt());
                let curve = ps.iter().map(|&p| (p, base * d.dc * (p / d.base_p).sqrt())).collect();
                series.push(Series::new(format!("eq. (3), CTI {}", sig(x.cti, 3)), Style::Line, k, curve));
                let measured = d.configurations.iter().filter_map(|c| Some((c.p, *c.demand.get(k)?))).collect();
                series.push(Series::new("", Style::Points, k, measured));
            }
            series.push(Series::new("100% of the link", Style::Dashed, 5, vec![(lo, 100.0), (hi, 100.0)]));
            Ok(Chart {
                title: format!("Bandwidth demand, DC = {}", sig(d.dc, 3)),
                x: Axis::new("processes p", Scale::Log),
                y: Axis::new("bandwidth demand (%)", Scale::Linear),
                series,
                legend: Corner::Auto,
                note: d.predictions.first().map(|x| {
                    format!(
                        "At CTI {} the demand reaches the whole link at p ≈ {}: beyond it, adding nodes stops paying.",
                        sig(x.cti, 3),
                        sig(x.p_full, 4)
                    )
                }),
            })
        }
        other => Err(unknown(other)),
    }
}
