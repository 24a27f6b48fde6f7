//! Least-squares fit of eq. (1) of Medya et al. with an intercept:
//! time(p) = C0 + C1/p + C2/√p, by QR decomposition (nalgebra), with
//! standard errors, 95% confidence intervals, R², mean squared error and
//! residuals, and a comparison against the pure 1/p model by AIC.

use std::fmt;

use nalgebra::{DMatrix, DVector};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

/// Why data cannot be fitted.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FitError {
    TooFewPoints {
        n: usize,
        needed: usize,
    },
    TooFewDistinct {
        distinct: usize,
        needed: usize,
    },
    NonPositive {
        row: usize,
        what: &'static str,
        value: f64,
    },
    Singular,
    /// The sums of squares overflow double precision (values near 10³⁰⁸).
    Overflow,
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::TooFewPoints { n, needed } => write!(
                f,
                "{n} data points cannot determine C0, C1, C2 with an error estimate: at least {needed} are needed"
            ),
            FitError::TooFewDistinct { distinct, needed } => write!(
                f,
                "the data have {distinct} distinct p value(s); at least {needed} are needed to separate C0, C1/p and C2/√p (the system is rank-deficient)"
            ),
            FitError::NonPositive { row, what, value } => write!(f, "data row {row}: {what} must be positive, not {}", crate::format::num(*value)),
            FitError::Singular => write!(f, "the data do not determine the coefficients (the system is rank-deficient)"),
            FitError::Overflow => write!(
                f,
                "the data are too large to fit in double precision (their squares overflow): give times in a larger unit, or check for a stray value"
            ),
        }
    }
}

impl std::error::Error for FitError {}

/// One fitted coefficient.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Coefficient {
    pub value: f64,
    /// Standard error.
    pub se: f64,
    /// 95% confidence interval.
    pub ci: [f64; 2],
}

/// The fit and everything derived from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    #[serde(rename = "C0")]
    pub c0: Coefficient,
    #[serde(rename = "C1")]
    pub c1: Coefficient,
    #[serde(rename = "C2")]
    pub c2: Coefficient,
    pub r2: f64,
    /// Mean squared error RSS / n (the paper's "mean square error").
    pub mse: f64,
    pub n: usize,
    /// time − fitted, in input order.
    pub residuals: Vec<f64>,
    /// Student-t quantile for 95% two-sided intervals with n − 3 degrees of freedom.
    pub t95: f64,
    /// Covariance of (C0, C1, C2): s² (XᵀX)⁻¹.
    pub covariance: [[f64; 3]; 3],
    /// AIC of eq. (1) and of the pure time = C0 + C1/p model; lower is better.
    pub aic: f64,
    pub aic_inverse_only: f64,
}

fn row(p: f64) -> [f64; 3] {
    [1.0, 1.0 / p, 1.0 / p.sqrt()]
}

fn aic(rss: f64, n: usize, k: usize) -> f64 {
    let n = n as f64;
    n * (rss / n).max(f64::MIN_POSITIVE).ln() + 2.0 * k as f64
}

/// Least squares of `y` on the columns of `x` by QR; `None` if singular.
fn least_squares(x: &DMatrix<f64>, y: &DVector<f64>) -> Option<DVector<f64>> {
    let qr = x.clone().qr();
    let r = qr.r();
    let scale = r.diagonal().iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if r.diagonal().iter().any(|v| v.abs() <= 1e-12 * scale) {
        return None;
    }
    let qty = qr.q().transpose() * y;
    r.solve_upper_triangular(&qty)
}

/// Fits eq. (1) to `(p, time)` pairs.
///
/// # Errors
/// Fewer than 4 points, fewer than 3 distinct p, p ≤ 0 or time < 0.
pub fn fit(points: &[(f64, f64)]) -> Result<Fit, FitError> {
    let n = points.len();
    if n < 4 {
        return Err(FitError::TooFewPoints { n, needed: 4 });
    }
    for (i, &(p, t)) in points.iter().enumerate() {
        if !p.is_finite() || p <= 0.0 {
            return Err(FitError::NonPositive { row: i + 1, what: "p", value: p });
        }
        if !t.is_finite() || t < 0.0 {
            return Err(FitError::NonPositive { row: i + 1, what: "time", value: t });
        }
    }
    let mut distinct: Vec<f64> = points.iter().map(|p| p.0).collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    if distinct.len() < 3 {
        return Err(FitError::TooFewDistinct { distinct: distinct.len(), needed: 3 });
    }
    let x = DMatrix::from_fn(n, 3, |i, j| points.get(i).map_or(0.0, |p| row(p.0).get(j).copied().unwrap_or(0.0)));
    let y = DVector::from_iterator(n, points.iter().map(|p| p.1));
    let beta = least_squares(&x, &y).ok_or(FitError::Singular)?;
    let fitted = &x * &beta;
    let residuals: Vec<f64> = y.iter().zip(fitted.iter()).map(|(a, b)| a - b).collect();
    let rss: f64 = residuals.iter().map(|r| r * r).sum();
    if !(rss.is_finite() && beta.iter().all(|b| b.is_finite())) {
        return Err(FitError::Overflow);
    }
    let mean = y.mean();
    let tss: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let dof = (n - 3) as f64;
    let s2 = rss / dof;
    let xtx_inv = (x.transpose() * &x).try_inverse().ok_or(FitError::Singular)?;
    let cov = xtx_inv * s2;
    let t95 = StudentsT::new(0.0, 1.0, dof).map_or(f64::NAN, |t| t.inverse_cdf(0.975));
    let coef = |j: usize| {
        let value = beta.get(j).copied().unwrap_or(f64::NAN);
        let se = cov.get((j, j)).copied().unwrap_or(f64::NAN).max(0.0).sqrt();
        Coefficient { value, se, ci: [value - t95 * se, value + t95 * se] }
    };
    // The 1/p-only model, for the AIC comparison.
    let x1 = x.columns(0, 2).into_owned();
    let rss1 = least_squares(&x1, &y).map_or(f64::INFINITY, |b| (&y - &x1 * b).norm_squared());
    let mut covariance = [[0.0; 3]; 3];
    for (i, r) in covariance.iter_mut().enumerate() {
        for (j, c) in r.iter_mut().enumerate() {
            *c = cov.get((i, j)).copied().unwrap_or(f64::NAN);
        }
    }
    Ok(Fit {
        c0: coef(0),
        c1: coef(1),
        c2: coef(2),
        r2: if tss > 0.0 { 1.0 - rss / tss } else { 1.0 },
        mse: rss / n as f64,
        n,
        residuals,
        t95,
        covariance,
        aic: aic(rss, n, 3),
        aic_inverse_only: aic(rss1, n, 2),
    })
}

impl Fit {
    /// time(p) and the half-width of its 95% confidence band.
    pub fn predict(&self, p: f64) -> (f64, f64) {
        let x = row(p);
        let value = self.c0.value * x[0] + self.c1.value * x[1] + self.c2.value * x[2];
        let mut var = 0.0;
        for (xi, row) in x.iter().zip(&self.covariance) {
            for (xj, c) in x.iter().zip(row) {
                var += xi * c * xj;
            }
        }
        (value, self.t95 * var.max(0.0).sqrt())
    }

    /// Where C2/√p overtakes C1/p: p = (C1/C2)².
    pub fn crossover(&self) -> Option<f64> {
        crossover(self.c1.value, self.c2.value)
    }
}

/// p at which the communication term C2/√p overtakes computation C1/p
/// (none when either is zero, or when (C1/C2)² is beyond any number).
pub fn crossover(c1: f64, c2: f64) -> Option<f64> {
    Some((c1 / c2).powi(2)).filter(|x| c1 > 0.0 && c2 > 0.0 && x.is_finite())
}

/// The smallest p from which doubling p saves less than `fraction` of the
/// time, for time(p) = c0 + c1/p + c2/√p: the saving T(p) − T(2p) =
/// c1/(2p) + c2 (1 − 1/√2)/√p falls with p, so bisection finds it.
pub fn diminishing_returns(c0: f64, c1: f64, c2: f64, fraction: f64) -> Option<f64> {
    let t = |p: f64| c0 + c1 / p + c2 / p.sqrt();
    let saves_enough = |p: f64| t(p) - t(2.0 * p) >= fraction * t(p);
    if !saves_enough(1.0) {
        return Some(1.0);
    }
    let mut hi = 2.0;
    while saves_enough(hi) {
        hi *= 2.0;
        if hi > 1e15 {
            return None;
        }
    }
    let mut lo = hi / 2.0;
    for _ in 0..100 {
        let mid = (lo * hi).sqrt();
        if saves_enough(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(hi)
}
