//! Interconnect bandwidth demand from throttling runs (Medya et al., §4):
//! CTI by eq. (2), the demand BW_{CTI,p} by interpolation, the demand
//! constant DC averaged over all pairs p1 > p2 and CTIs, and eq. (3):
//! BW_{CTI,p'} = BW_{CTI,p*} · DC · √(p'/p*).

use std::fmt;

use serde::Serialize;

use crate::format::num;

/// Why the demand cannot be derived.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DemandError {
    NoBaseline { p: f64 },
    NeverReached { p: f64, cti: f64, largest: f64, at_bw: f64 },
    TooFewConfigurations { found: usize },
    UnknownBase { p: f64, known: Vec<f64> },
    BadValue { row: usize, what: &'static str, value: f64 },
    BadCti { value: f64 },
}

impl fmt::Display for DemandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DemandError::NoBaseline { p } => {
                write!(f, "p = {} has no run at 100% bandwidth, which CTI (eq. 2) is relative to", num(*p))
            }
            DemandError::NeverReached { p, cti, largest, at_bw } => write!(
                f,
                "at p = {} the CTI never reaches {}: the largest measured is {largest:.4} (at {}% bandwidth); choose a smaller CTI or throttle further",
                num(*p),
                num(*cti),
                num(*at_bw)
            ),
            DemandError::TooFewConfigurations { found } => {
                write!(f, "{found} processor configuration(s) in the data; DC needs at least 2")
            }
            DemandError::UnknownBase { p, known } => {
                let ps: Vec<String> = known.iter().map(|x| num(*x)).collect();
                write!(f, "the base p = {} is not in the data; measured: {}", num(*p), ps.join(", "))
            }
            DemandError::BadValue { row, what, value } => write!(f, "data row {row}: {what} = {} is out of range", num(*value)),
            DemandError::BadCti { value } => write!(f, "CTI {} is out of range: expected 0 < CTI", num(*value)),
        }
    }
}

impl std::error::Error for DemandError {}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Configuration {
    pub p: f64,
    /// (bandwidth %, CTI) measured, by increasing bandwidth.
    pub cti_curve: Vec<(f64, f64)>,
    /// BW_{CTI,p} for each requested CTI, %.
    pub demand: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    pub cti: f64,
    pub p1: f64,
    pub p2: f64,
    pub dc: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    pub cti: f64,
    /// Eq. (3) with the mean DC, and with the smallest and largest pair DC.
    pub bandwidth: f64,
    pub bandwidth_low: f64,
    pub bandwidth_high: f64,
    /// The p at which the predicted demand reaches 100% of the link.
    pub p_full: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Demand {
    pub ctis: Vec<f64>,
    pub configurations: Vec<Configuration>,
    pub pairs: Vec<Pair>,
    pub dc: f64,
    pub dc_min: f64,
    pub dc_max: f64,
    pub base_p: f64,
    pub target_p: f64,
    pub predictions: Vec<Prediction>,
}

/// The bandwidth at which the measured CTI falls to `cti`: scanning down
/// from 100%, the first measured CTI at or above the target, interpolated
/// linearly with its neighbour above.
fn demand_at(curve: &[(f64, f64)], cti: f64) -> Option<f64> {
    let k = curve.iter().rposition(|&(_, c)| c >= cti)?;
    let (b1, c1) = *curve.get(k)?;
    match curve.get(k + 1) {
        Some(&(b2, c2)) if c1 > c2 => Some(b1 + (c1 - cti) * (b2 - b1) / (c1 - c2)),
        _ => Some(b1),
    }
}

/// Analyses throttling runs `(p, bandwidth %, time)`.
pub fn demand(rows: &[(f64, f64, f64)], ctis: &[f64], base_p: f64, target_p: f64) -> Result<Demand, DemandError> {
    for &c in ctis {
        if !c.is_finite() || c <= 0.0 {
            return Err(DemandError::BadCti { value: c });
        }
    }
    for (i, &(p, bw, t)) in rows.iter().enumerate() {
        let bad = |what, value| Err(DemandError::BadValue { row: i + 1, what, value });
        if p.is_nan() || p <= 0.0 {
            return bad("p", p);
        }
        if bw.is_nan() || bw <= 0.0 || bw > 100.0 {
            return bad("bandwidth %", bw);
        }
        if t.is_nan() || t <= 0.0 {
            return bad("time", t);
        }
    }
    let mut ps: Vec<f64> = rows.iter().map(|r| r.0).collect();
    ps.sort_by(f64::total_cmp);
    ps.dedup();
    if ps.len() < 2 {
        return Err(DemandError::TooFewConfigurations { found: ps.len() });
    }
    if !ps.contains(&base_p) {
        return Err(DemandError::UnknownBase { p: base_p, known: ps });
    }
    let mut configurations = Vec::new();
    for &p in &ps {
        // Mean time per bandwidth level.
        let mut levels: Vec<(f64, f64, usize)> = Vec::new();
        for r in rows.iter().filter(|r| r.0 == p) {
            match levels.iter_mut().find(|l| l.0 == r.1) {
                Some(l) => {
                    l.1 += r.2;
                    l.2 += 1;
                }
                None => levels.push((r.1, r.2, 1)),
            }
        }
        levels.sort_by(|a, b| a.0.total_cmp(&b.0));
        let full =
            levels.iter().find(|l| l.0 == 100.0).map(|l| l.1 / l.2 as f64).ok_or(DemandError::NoBaseline { p })?;
        // Eq. (2): CTI_bw = (time at bw − time at 100) / time at 100.
        let cti_curve: Vec<(f64, f64)> = levels.iter().map(|l| (l.0, (l.1 / l.2 as f64 - full) / full)).collect();
        let mut demand = Vec::with_capacity(ctis.len());
        for &c in ctis {
            let bw = demand_at(&cti_curve, c).ok_or_else(|| {
                let (at_bw, largest) =
                    cti_curve.iter().copied().fold((f64::NAN, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a });
                DemandError::NeverReached { p, cti: c, largest, at_bw }
            })?;
            demand.push(bw);
        }
        configurations.push(Configuration { p, cti_curve, demand });
    }
    let mut pairs = Vec::new();
    for (k, &c) in ctis.iter().enumerate() {
        for (i, a) in configurations.iter().enumerate() {
            for b in configurations.iter().take(i) {
                // a.p > b.p: configurations are sorted by p.
                let (bw1, bw2) =
                    (a.demand.get(k).copied().unwrap_or(f64::NAN), b.demand.get(k).copied().unwrap_or(f64::NAN));
                pairs.push(Pair { cti: c, p1: a.p, p2: b.p, dc: (bw1 / bw2) / (a.p / b.p).sqrt() });
            }
        }
    }
    let dc = pairs.iter().map(|x| x.dc).sum::<f64>() / pairs.len() as f64;
    let dc_min = pairs.iter().map(|x| x.dc).fold(f64::INFINITY, f64::min);
    let dc_max = pairs.iter().map(|x| x.dc).fold(f64::NEG_INFINITY, f64::max);
    let base = configurations
        .iter()
        .find(|c| c.p == base_p)
        .ok_or(DemandError::UnknownBase { p: base_p, known: ps.clone() })?;
    let growth = (target_p / base_p).sqrt();
    let predictions = ctis
        .iter()
        .zip(&base.demand)
        .map(|(&cti, &bw)| Prediction {
            cti,
            bandwidth: bw * dc * growth,
            bandwidth_low: bw * dc_min * growth,
            bandwidth_high: bw * dc_max * growth,
            p_full: base_p * (100.0 / (bw * dc)).powi(2),
        })
        .collect();
    Ok(Demand { ctis: ctis.to_vec(), configurations, pairs, dc, dc_min, dc_max, base_p, target_p, predictions })
}
