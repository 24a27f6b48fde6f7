//! Which scaling law do measurements follow? A search of the performance-
//! model normal form (Calotoiu et al., "Using automated performance
//! modeling to find scalability bugs in complex codes", SC '13, the method
//! of Extra-P): time(p) = c₀ + Σ_k c_k · p^(i_k) · log₂(p)^(j_k) with one or
//! two terms, i from [`EXPONENTS`] and their negatives (strong-scaling
//! times fall with p), j ∈ {0, 1, 2}; beside them the constant alone, the
//! pure 1/p law (no constant: perfect strong scaling) and eq. (1) of Medya
//! et al. (c₀ + c₁/p + c₂/√p, itself one of the two-term hypotheses).
//!
//! Each hypothesis is fitted by linear least squares on relative errors
//! (timings span decades: a 1% error at p = 1 weighs as much as one at
//! p = 1024) and scored by its leave-one-out cross-validation error, exact
//! for least squares through the hat matrix (e_i / (1 − h_ii)), with AIC
//! beside it. With 110 terms there are some 6000 two-term hypotheses, and on
//! noisy data one of them beats the true one-term law by chance. So the
//! choice climbs a ladder of complexity, each rung's best hypothesis taking
//! over only where its leave-one-out errors are smaller than the current
//! choice's by a paired test at [`T_CRITICAL`] standard errors, or by half
//! ([`CLEAR_GAIN`]): the constant
//! or the pure 1/p law, then one term, then eq. (1) (the paper's own law),
//! then any two terms. Hypotheses that predict a time ≤ 0 at a measured p
//! are left out.

use serde::Serialize;

/// The exponents of p in the normal form (and their negatives), as
/// fractions: Extra-P's default search space.
pub const EXPONENTS: [(i32, i32); 19] = [
    (0, 1),
    (1, 4),
    (1, 3),
    (1, 2),
    (2, 3),
    (3, 4),
    (1, 1),
    (5, 4),
    (4, 3),
    (3, 2),
    (5, 3),
    (7, 4),
    (2, 1),
    (9, 4),
    (7, 3),
    (5, 2),
    (8, 3),
    (11, 4),
    (3, 1),
];

/// The exponents of log₂ p.
pub const LOG_EXPONENTS: [u8; 3] = [0, 1, 2];

/// How many standard errors of the paired difference in squared
/// leave-one-out errors a more complex hypothesis must gain over the
/// current choice to replace it: the best of thousands of hypotheses gains
/// a few by chance (on one-term laws with 2% noise, up to about 3).
pub const T_CRITICAL: f64 = 4.0;

/// Or, whatever the paired test says, by a cross-validation error this
/// fraction of the choice's or less: a law that halves the error of all
/// simpler ones is no chance gain (the best of thousands gains up to about
/// a third on one-term laws with one run at each of 11 process counts),
/// while the paired test, on squared errors, is weak where the simpler law
/// fails at a few points only (at the ends of the range of p).
pub const CLEAR_GAIN: f64 = 0.5;

/// Leave-one-out errors below this (relative) count as zero: exact data fit
/// several laws to rounding, and the simplest of them is the answer.
pub const CV_FLOOR: f64 = 1e-9;

/// How many hypotheses a search reports.
pub const REPORTED: usize = 5;

/// Fewer distinct p than this and the best law is flagged as chosen from
/// too few points.
pub const FEW_POINTS: usize = 6;

/// How far past the measured range of p (as a factor) a prediction is
/// flagged as an extrapolation.
pub const FAR: f64 = 4.0;

/// A term's factor p^i·log₂(p)^j: i as a fraction, and j.
type Factor = ((i32, i32), u8);

/// One term c · p^i · log₂(p)^j.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Term {
    pub coefficient: f64,
    /// The exponent of p.
    pub i: f64,
    /// The exponent of log₂ p.
    pub j: u8,
    /// i as a fraction ("-1/2").
    #[serde(skip)]
    pub fraction: (i32, i32),
}

/// A fitted hypothesis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hypothesis {
    /// A named law ("eq. (1)", "1/p"), else empty.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub name: &'static str,
    pub formula: String,
    /// c₀ (0 for the pure 1/p law, which has none).
    pub constant: f64,
    pub terms: Vec<Term>,
    /// Root mean square of the leave-one-out relative errors.
    pub cv_error: f64,
    /// n ln(RSS/n) + 2k on relative errors, k the coefficients.
    pub aic: f64,
    /// Root mean square of the relative residuals of the fit.
    pub rms_error: f64,
    #[serde(skip)]
    pub has_constant: bool,
    /// The rung of the ladder of complexity it stands on.
    #[serde(skip)]
    pub rung: u8,
    /// The leave-one-out relative errors, by measurement.
    #[serde(skip)]
    pub loo: Vec<f64>,
}

impl Hypothesis {
    /// The law's time at p.
    pub fn at(&self, p: f64) -> f64 {
        self.constant + self.terms.iter().map(|t| t.coefficient * basis(p, t.i, t.j)).sum::<f64>()
    }
}

/// The ranked hypotheses and what to beware of.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Laws {
    /// The best [`REPORTED`], best first.
    pub hypotheses: Vec<Hypothesis>,
    /// Measurements, and distinct p among them.
    pub n: usize,
    pub distinct: usize,
    pub p_min: f64,
    pub p_max: f64,
    pub warnings: Vec<String>,
}

/// Why data cannot be searched.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LawsError {
    /// Fewer distinct p than the simplest law with a slope needs.
    TooFew { distinct: usize },
    /// A p < 1 or a time ≤ 0 (or not finite), at data row `row` (1-based).
    Value { row: usize, what: &'static str, value: f64 },
}

impl std::fmt::Display for LawsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LawsError::TooFew { distinct } => write!(
                f,
                "{distinct} distinct p value(s): a scaling law needs measurements at 3 or more process counts (6 or more to choose among two-term laws)"
            ),
            LawsError::Value { row, what, value } => {
                let valid = if *what == "p" { "p ≥ 1" } else { "a time > 0" };
                write!(f, "data row {row}: {what} = {} is not a measurement: expected {valid}", crate::format::num(*value))
            }
        }
    }
}

impl std::error::Error for LawsError {}

fn basis(p: f64, i: f64, j: u8) -> f64 {
    p.powf(i) * p.log2().powi(i32::from(j))
}

/// A term's factor as text: "p^(1/2)·log2(p)".
fn term_text((num, den): (i32, i32), j: u8) -> String {
    let power = match (num, den) {
        (0, _) => String::new(),
        (1, 1) => "p".into(),
        (n, 1) => format!("p^{n}"),
        (n, d) => format!("p^({n}/{d})"),
    };
    let log = match j {
        0 => String::new(),
        1 => "log2(p)".into(),
        j => format!("log2(p)^{j}"),
    };
    match (power.is_empty(), log.is_empty()) {
        (true, true) => "1".into(),
        (false, true) => power,
        (true, false) => log,
        (false, false) => format!("{power}·{log}"),
    }
}

fn formula(constant: Option<f64>, terms: &[Term]) -> String {
    let mut out = constant.map(|c| crate::format::number(c, 4)).unwrap_or_default();
    for t in terms {
        let c = crate::format::number(t.coefficient.abs(), 4);
        let sign = if t.coefficient < 0.0 { "−" } else { "+" };
        let body = format!("{c}·{}", term_text(t.fraction, t.j));
        out = if out.is_empty() {
            if t.coefficient < 0.0 {
                format!("−{body}")
            } else {
                body
            }
        } else {
            format!("{out} {sign} {body}")
        };
    }
    out
}

/// A candidate: whether it has a constant, and its terms' (fraction, j).
struct Candidate {
    name: &'static str,
    constant: bool,
    terms: Vec<Factor>,
    /// Its rung: 0 the constant and 1/p, 1 one term, 2 eq. (1) (the law the
    /// paper derives, a hypothesis the data test rather than one found
    /// among thousands), 3 two terms.
    rung: u8,
}

fn candidates() -> Vec<Candidate> {
    let mut factors: Vec<Factor> = Vec::new();
    for &(n, d) in &EXPONENTS {
        for sign in [1, -1] {
            if n == 0 && sign == -1 {
                continue;
            }
            for &j in &LOG_EXPONENTS {
                if n == 0 && j == 0 {
                    continue; // the constant
                }
                factors.push(((sign * n, d), j));
            }
        }
    }
    let eq1 = [((-1, 1), 0), ((-1, 2), 0)];
    let mut out = vec![
        Candidate { name: "constant", constant: true, terms: vec![], rung: 0 },
        Candidate { name: "1/p", constant: false, terms: vec![((-1, 1), 0)], rung: 0 },
    ];
    for (a, &fa) in factors.iter().enumerate() {
        out.push(Candidate { name: "", constant: true, terms: vec![fa], rung: 1 });
        for &fb in factors.get(a + 1..).unwrap_or_default() {
            let pair = [fa, fb];
            let (name, rung) = if eq1.iter().all(|f| pair.contains(f)) { ("eq. (1)", 2) } else { ("", 3) };
            out.push(Candidate { name, constant: true, terms: pair.to_vec(), rung });
        }
    }
    out
}

/// Fits `c` to the points by least squares on relative errors; `None`
/// where the system is singular, leave-one-out is undefined, or the law
/// predicts a time ≤ 0 at a measured p.
/// Each factor's values p^i·log₂(p)^j / time at every measurement (the
/// columns of the relative least squares), computed once for all the
/// hypotheses that use it; the constant's is 1/time.
struct Columns {
    constant: Vec<f64>,
    factors: Vec<(Factor, Vec<f64>)>,
}

impl Columns {
    fn new(points: &[(f64, f64)], candidates: &[Candidate]) -> Columns {
        let mut factors: Vec<(Factor, Vec<f64>)> = Vec::new();
        for &(f, j) in candidates.iter().flat_map(|c| &c.terms) {
            if factors.iter().all(|(g, _)| *g != (f, j)) {
                let i = f64::from(f.0) / f64::from(f.1);
                factors.push(((f, j), points.iter().map(|&(p, t)| basis(p, i, j) / t).collect()));
            }
        }
        Columns { constant: points.iter().map(|&(_, t)| 1.0 / t).collect(), factors }
    }

    fn of(&self, factor: Factor) -> Option<&[f64]> {
        self.factors.iter().find(|(g, _)| *g == factor).map(|(_, v)| v.as_slice())
    }
}

/// Q's columns and R (upper triangular, at most 3 × 3).
type ThinQr = (Vec<Vec<f64>>, [[f64; 3]; 3]);

/// Q (its columns) and R of the columns `a` by modified Gram–Schmidt,
/// each column orthogonalised twice ("twice is enough": Giraud et al.,
/// Numer. Math. 2005); `None` where a column is within 10⁻¹⁰ of the span of
/// the ones before it.
#[allow(clippy::indexing_slicing)] // k ≤ 3 columns of equal length, indexed within
fn thin_qr(a: &[&[f64]]) -> Option<ThinQr> {
    let k = a.len();
    if k > 3 {
        return None;
    }
    let mut q: Vec<Vec<f64>> = Vec::with_capacity(k);
    let mut r = [[0.0; 3]; 3];
    for (j, col) in a.iter().enumerate() {
        let mut v = col.to_vec();
        let norm0 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        for _ in 0..2 {
            for (i, qi) in q.iter().enumerate() {
                let d: f64 = qi.iter().zip(&v).map(|(a, b)| a * b).sum();
                r[i][j] += d;
                for (x, y) in v.iter_mut().zip(qi) {
                    *x -= d * y;
                }
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm.is_nan() || norm <= 1e-10 * norm0 || !norm.is_finite() {
            return None;
        }
        r[j][j] = norm;
        v.iter_mut().for_each(|x| *x /= norm);
        q.push(v);
    }
    Some((q, r))
}

#[allow(clippy::indexing_slicing)] // β, R and Q's columns have k entries, Q's columns n
fn fit(c: &Candidate, points: &[(f64, f64)], columns: &Columns) -> Option<Hypothesis> {
    let n = points.len();
    let k = c.terms.len() + usize::from(c.constant);
    if n < k + 2 {
        return None;
    }
    let value = |(a, b): (i32, i32)| f64::from(a) / f64::from(b);
    let mut cols: Vec<&[f64]> = Vec::with_capacity(k);
    if c.constant {
        cols.push(&columns.constant);
    }
    for &t in &c.terms {
        cols.push(columns.of(t)?);
    }
    // Rows divided by the measured time: least squares on relative errors
    // (y = 1), by a thin QR of at most three columns.
    let (q, r) = thin_qr(&cols)?;
    // β = R⁻¹ Qᵀ1, fitted = Q Qᵀ1.
    let qty: Vec<f64> = q.iter().map(|qj| qj.iter().sum()).collect();
    let mut beta = vec![0.0; k];
    for a in (0..k).rev() {
        let tail: f64 = (a + 1..k).map(|b| r[a][b] * beta[b]).sum();
        beta[a] = (qty[a] - tail) / r[a][a];
    }
    let mut loo = Vec::with_capacity(n);
    let mut residuals = Vec::with_capacity(n);
    for i in 0..n {
        let (fitted, h) = q.iter().zip(&qty).fold((0.0, 0.0), |(f, h), (qj, c)| (f + qj[i] * c, h + qj[i] * qj[i]));
        if h >= 1.0 - 1e-10 {
            return None;
        }
        residuals.push(1.0 - fitted);
        loo.push((1.0 - fitted) / (1.0 - h));
    }
    let press: f64 = loo.iter().map(|e| e * e).sum();
    let rss: f64 = residuals.iter().map(|e| e * e).sum();
    let constant = if c.constant { *beta.first()? } else { 0.0 };
    let mut terms: Vec<Term> = c
        .terms
        .iter()
        .enumerate()
        .map(|(a, &(f, j))| Term {
            coefficient: beta.get(a + usize::from(c.constant)).copied().unwrap_or(f64::NAN),
            i: value(f),
            j,
            fraction: f,
        })
        .collect();
    if !beta.iter().all(|b| b.is_finite()) {
        return None;
    }
    // The term that grows fastest first.
    terms.sort_by(|a, b| b.i.total_cmp(&a.i).then(b.j.cmp(&a.j)));
    let h = Hypothesis {
        has_constant: c.constant,
        name: c.name,
        formula: String::new(), // written for the hypotheses reported
        constant,
        terms,
        cv_error: (press / n as f64).sqrt(),
        aic: n as f64 * (rss / n as f64).max(f64::MIN_POSITIVE).ln() + 2.0 * k as f64,
        rms_error: (rss / n as f64).sqrt(),
        rung: c.rung,
        loo,
    };
    if points.iter().any(|&(p, _)| h.at(p) <= 0.0) {
        return None;
    }
    Some(h)
}

/// Whether `b` gains on `a`: by a cross-validation error [`CLEAR_GAIN`] of
/// `a`'s or less, or by the paired test: the mean of e_a² − e_b² over the
/// measurements (leave-one-out errors, those below [`CV_FLOOR`] as zero)
/// at least [`T_CRITICAL`] standard errors above 0.
fn gains(a: &Hypothesis, b: &Hypothesis) -> bool {
    if b.cv_error.max(CV_FLOOR) <= CLEAR_GAIN * a.cv_error && a.cv_error > CV_FLOOR {
        return true;
    }
    let floor = |e: f64| if e.abs() < CV_FLOOR { 0.0 } else { e };
    let d: Vec<f64> = a.loo.iter().zip(&b.loo).map(|(x, y)| floor(*x).powi(2) - floor(*y).powi(2)).collect();
    let n = d.len() as f64;
    if n < 2.0 {
        return false;
    }
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    mean > 0.0 && (var == 0.0 || mean / (var / n).sqrt() >= T_CRITICAL)
}

/// Ranks the hypotheses for `(p, time)` measurements, best first.
///
/// # Errors
///
/// A p < 1 or a time ≤ 0, or fewer than 3 distinct p.
pub fn search(points: &[(f64, f64)]) -> Result<Laws, LawsError> {
    for (row, &(p, t)) in points.iter().enumerate() {
        if !(p.is_finite() && p >= 1.0) {
            return Err(LawsError::Value { row: row + 1, what: "p", value: p });
        }
        if !(t.is_finite() && t > 0.0) {
            return Err(LawsError::Value { row: row + 1, what: "time", value: t });
        }
    }
    let mut ps: Vec<f64> = points.iter().map(|p| p.0).collect();
    ps.sort_by(f64::total_cmp);
    ps.dedup();
    let distinct = ps.len();
    if distinct < 3 {
        return Err(LawsError::TooFew { distinct });
    }
    let (p_min, p_max) = (ps.first().copied().unwrap_or(1.0), ps.last().copied().unwrap_or(1.0));
    let candidates = candidates();
    let columns = Columns::new(points, &candidates);
    let fitted: Vec<Hypothesis> = candidates
        .iter()
        // A term needs a distinct p of its own beyond the constant.
        .filter(|c| c.terms.len() + usize::from(c.constant) < distinct)
        .filter_map(|c| fit(c, points, &columns))
        .collect();
    // The best of each rung, then up the ladder while a rung's best gains
    // significantly on the choice.
    let best_of = |rung: u8| {
        fitted.iter().enumerate().filter(|(_, h)| h.rung == rung).min_by(|a, b| a.1.cv_error.total_cmp(&b.1.cv_error))
    };
    let mut chosen: Option<usize> = None;
    for rung in 0..=3 {
        let Some((at, h)) = best_of(rung) else { continue };
        chosen = match chosen.and_then(|c| fitted.get(c)) {
            Some(current) if !gains(current, h) => chosen,
            _ => Some(at),
        };
    }
    let mut ranked: Vec<Hypothesis> = Vec::with_capacity(REPORTED);
    if let Some(best) = chosen.and_then(|c| fitted.get(c)) {
        ranked.push(best.clone());
    }
    let mut rest: Vec<&Hypothesis> =
        fitted.iter().enumerate().filter(|(i, _)| Some(*i) != chosen).map(|(_, h)| h).collect();
    rest.sort_by(|a, b| a.cv_error.total_cmp(&b.cv_error).then(a.rung.cmp(&b.rung)));
    ranked.extend(rest.into_iter().take(REPORTED.saturating_sub(ranked.len())).cloned());
    for h in &mut ranked {
        h.formula = formula(h.has_constant.then_some(h.constant), &h.terms);
    }
    let mut warnings = Vec::new();
    if let Some(best) = ranked.first() {
        if distinct < FEW_POINTS {
            warnings.push(format!(
                "The best law, {}, is chosen from only {distinct} distinct process counts: with fewer than {FEW_POINTS}, two-term laws cannot be told apart; measure more values of p.",
                best.formula
            ));
        }
        if points.len() == distinct {
            warnings.push(
                "Each p was measured once: the noise of single runs can make a spurious second term look real. Repeat each run (three to five times) and give every time."
                    .to_string(),
            );
        }
        if p_max < 4.0 * p_min {
            warnings.push(format!(
                "The measurements span p = {} … {}, less than a factor of 4: laws that differ only far from there fit alike.",
                crate::format::num(p_min),
                crate::format::num(p_max)
            ));
        }
    }
    Ok(Laws { hypotheses: ranked, n: points.len(), distinct, p_min, p_max, warnings })
}

impl Laws {
    /// How far `p` lies outside the measured range, as a sentence, where
    /// that is more than a factor [`FAR`].
    pub fn extrapolation(&self, p: f64) -> Option<String> {
        if p > FAR * self.p_max {
            Some(format!(
                "p = {} is {}× the largest p measured ({}): the law is extrapolated far past the data.",
                crate::format::num(p),
                crate::format::number(p / self.p_max, 3),
                crate::format::num(self.p_max)
            ))
        } else if p * FAR < self.p_min {
            Some(format!(
                "p = {} is below the smallest p measured ({}) by more than {FAR}×: the law is extrapolated.",
                crate::format::num(p),
                crate::format::num(self.p_min)
            ))
        } else {
            None
        }
    }
}
