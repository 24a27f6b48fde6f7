//! Nonlinear least squares: minimise ½‖r(θ)‖² over θ in a box, by
//! Levenberg–Marquardt (Moré's scaled form, Nielsen's damping update), and
//! the linearised statistics of the estimate.
//!
//! Parameters that span decades (a time per flop, a bandwidth) are
//! iterated on ln θ ([`Bound::log`]), so that a step is a ratio and a
//! lower bound of 0 is never reached. The Jacobian is taken by central
//! differences (one-sided at a bound): the residuals are a model's outputs,
//! with no derivatives of their own. A parameter at a bound whose gradient
//! points out of the box is held there, and the others move on.
//!
//! The statistics are those of nonlinear regression (Bates and Watts,
//! *Nonlinear Regression Analysis and Its Applications*, ch. 2): the
//! covariance s²(JᵀJ)⁻¹ with s² = RSS/(n − k), standard errors, 95%
//! intervals from Student's t, correlations. JᵀJ is inverted through the
//! singular values of J with its columns scaled to unit length, which also
//! tells which parameters the data do not determine.

use nalgebra::{DMatrix, DVector};

/// Where a parameter may lie, and how it is stepped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    pub lo: f64,
    pub hi: f64,
    /// Iterate on ln θ (θ > 0): for parameters that span decades.
    pub log: bool,
}

impl Bound {
    /// Any real value, stepped linearly.
    pub const FREE: Bound = Bound { lo: f64::NEG_INFINITY, hi: f64::INFINITY, log: false };

    fn to_u(self, theta: f64) -> f64 {
        if self.log {
            theta.ln()
        } else {
            theta
        }
    }

    fn to_theta(self, u: f64) -> f64 {
        if self.log {
            u.exp()
        } else {
            u
        }
    }

    /// The box in the iterated variable.
    fn u_range(self) -> (f64, f64) {
        if self.log {
            (if self.lo > 0.0 { self.lo.ln() } else { f64::NEG_INFINITY }, self.hi.ln())
        } else {
            (self.lo, self.hi)
        }
    }
}

/// Why no minimum was computed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LmError {
    /// The residuals could not be evaluated at the starting point.
    Start,
    /// Fewer residuals than parameters, or no parameter.
    Shape { residuals: usize, params: usize },
}

impl std::fmt::Display for LmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LmError::Start => write!(f, "the model cannot be evaluated at the starting values"),
            LmError::Shape { residuals, params } => {
                write!(f, "{residuals} residual(s) cannot determine {params} parameter(s)")
            }
        }
    }
}

impl std::error::Error for LmError {}

/// Most iterations (each one solve and, after a step that is taken, a
/// Jacobian of 2k residual evaluations).
pub const MAX_ITERATIONS: usize = 400;

/// The relative reduction of the sum of squares, actual and predicted, at
/// which the minimum is reached (MINPACK's ftol).
const FTOL: f64 = 1e-15;

/// The relative step at which the minimum is reached (MINPACK's xtol).
const XTOL: f64 = 1e-13;

/// The cosine between the residuals and any column of the Jacobian at
/// which the minimum is reached (MINPACK's gtol).
const GTOL: f64 = 1e-13;

/// The first trust region's radius, a multiple of ‖D u‖ (MINPACK's
/// `factor`; 10 rather than its default 100): a first step from far away
/// cannot fly off to where the model is flat. From BoxBOD's first NIST
/// start, b = (1, 1), a step 100 times as long reaches b₂ = 68, where
/// e^(−b₂x) vanishes at every x and the fit stalls at b₁ = mean(y).
const FIRST_RADIUS: f64 = 10.0;

/// A minimum of ½‖r(θ)‖², or the best point reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Minimum {
    pub params: Vec<f64>,
    pub residuals: Vec<f64>,
    /// ∂r_i/∂θ_j at `params` (n × k).
    pub jacobian: DMatrix<f64>,
    /// ‖r‖², the residual sum of squares.
    pub rss: f64,
    pub iterations: usize,
    /// Whether a convergence test held (else [`MAX_ITERATIONS`] ran out).
    pub converged: bool,
    /// Which parameters ended at a bound of their box.
    pub at_bound: Vec<bool>,
}

fn squares(r: &[f64]) -> f64 {
    r.iter().map(|v| v * v).sum()
}

/// The parameters at iterated variables `u`.
fn thetas(u: &[f64], bounds: &[Bound]) -> Vec<f64> {
    u.iter().zip(bounds).map(|(u, b)| b.to_theta(*u)).collect()
}

/// Central differences of `f` at `u` (one-sided where a step would leave
/// the box), as ∂r/∂u.
fn jacobian(
    f: &mut dyn FnMut(&[f64]) -> Option<Vec<f64>>,
    u: &[f64],
    bounds: &[Bound],
    scale: &[f64],
    r0: &[f64],
) -> Option<DMatrix<f64>> {
    let (n, k) = (r0.len(), u.len());
    let mut jac = DMatrix::zeros(n, k);
    let theta = |u: &[f64]| thetas(u, bounds);
    for j in 0..k {
        let (uj, b, typical) = (*u.get(j)?, *bounds.get(j)?, *scale.get(j)?);
        let (lo, hi) = b.u_range();
        // ε^(1/3) of the variable's size: the step that balances truncation
        // against rounding in a central difference.
        let h = 6e-6 * uj.abs().max(typical);
        let mut at = u.to_vec();
        let mut eval = |x: f64, at: &mut Vec<f64>| -> Option<Vec<f64>> {
            *at.get_mut(j)? = x;
            f(&theta(at)).filter(|r| r.len() == n && r.iter().all(|v| v.is_finite()))
        };
        let column: Vec<f64> = if uj + h <= hi && uj - h >= lo {
            match (eval(uj + h, &mut at), eval(uj - h, &mut at)) {
                (Some(a), Some(b)) => a.iter().zip(&b).map(|(a, b)| (a - b) / (2.0 * h)).collect(),
                (Some(a), None) => a.iter().zip(r0).map(|(a, b)| (a - b) / h).collect(),
                (None, Some(b)) => r0.iter().zip(&b).map(|(a, b)| (a - b) / h).collect(),
                (None, None) => return None,
            }
        } else if uj + h <= hi {
            eval(uj + h, &mut at)?.iter().zip(r0).map(|(a, b)| (a - b) / h).collect()
        } else {
            r0.iter().zip(&eval(uj - h, &mut at)?).map(|(a, b)| (a - b) / h).collect()
        };
        jac.set_column(j, &DVector::from_vec(column));
    }
    Some(jac)
}

/// Minimises ½‖r(θ)‖² from `start` within `bounds` (one per parameter);
/// `f` returns the residuals, `None` where they cannot be evaluated (a
/// step there is refused as if the sum of squares were infinite).
///
/// # Errors
///
/// Residuals that cannot be evaluated at the start (clamped into the
/// box), or fewer residuals than parameters.
pub fn minimise(
    f: &mut dyn FnMut(&[f64]) -> Option<Vec<f64>>,
    start: &[f64],
    bounds: &[Bound],
) -> Result<Minimum, LmError> {
    let k = start.len();
    let theta_of = |u: &[f64]| thetas(u, bounds);
    let clamp = |u: &mut [f64]| {
        for (u, b) in u.iter_mut().zip(bounds) {
            let (lo, hi) = b.u_range();
            *u = u.clamp(lo, hi);
        }
    };
    let mut u: Vec<f64> = start.iter().zip(bounds).map(|(t, b)| b.to_u(t.clamp(b.lo, b.hi))).collect();
    clamp(&mut u);
    // The size below which a variable counts as zero for its difference
    // step: a thousandth of its start; for a start at 0, a millionth of
    // its box where that is finite, else 10⁻³ (on a log scale, ln θ moves
    // by ratios, and 10⁻³ is a relative step).
    let scale: Vec<f64> = u
        .iter()
        .zip(bounds)
        .map(|(u, b)| {
            let (lo, hi) = b.u_range();
            let fallback = if b.log || !(hi - lo).is_finite() { 1e-3 } else { 1e-6 * (hi - lo) };
            if *u != 0.0 {
                (1e-3 * u.abs()).max(if b.log { 1e-3 } else { 0.0 })
            } else {
                fallback
            }
        })
        .collect();
    let mut r = f(&theta_of(&u)).filter(|r| r.iter().all(|v| v.is_finite())).ok_or(LmError::Start)?;
    if k == 0 || r.len() < k || bounds.len() != k || u.iter().any(|u| !u.is_finite()) {
        return Err(LmError::Shape { residuals: r.len(), params: k });
    }
    let mut cost = squares(&r);
    let mut jac = jacobian(f, &u, bounds, &scale, &r).ok_or(LmError::Start)?;
    let mut diag: Vec<f64> = (0..k).map(|j| jac.column(j).norm()).collect();
    let mut lambda = 1e-3 * diag.iter().fold(0.0_f64, |m, d| m.max(d * d)).max(f64::MIN_POSITIVE);
    let mut nu = 2.0;
    // The trust region's radius in the scaled norm ‖D s‖.
    let mut radius = {
        let du: f64 = u.iter().zip(&diag).map(|(u, d)| (u * d).powi(2)).sum::<f64>().sqrt();
        if du > 0.0 {
            FIRST_RADIUS * du
        } else {
            FIRST_RADIUS
        }
    };
    let (mut iterations, mut converged) = (0, cost == 0.0);
    while !converged && iterations < MAX_ITERATIONS {
        iterations += 1;
        let g = jac.transpose() * DVector::from_column_slice(&r);
        // A parameter at a bound that the gradient pushes out of the box is held.
        let free: Vec<usize> = (0..k)
            .filter(|&j| {
                let (lo, hi) = bounds.get(j).map_or((f64::NEG_INFINITY, f64::INFINITY), |b| b.u_range());
                let (uj, gj) = (u.get(j).copied().unwrap_or(0.0), g.get(j).copied().unwrap_or(0.0));
                !((uj <= lo && gj > 0.0) || (uj >= hi && gj < 0.0))
            })
            .collect();
        // MINPACK's gtol: every free column nearly orthogonal to r.
        let rnorm = cost.sqrt();
        let cosine = free
            .iter()
            .map(|&j| {
                let c = jac.column(j).norm();
                if c > 0.0 {
                    (g.get(j).copied().unwrap_or(0.0) / (c * rnorm)).abs()
                } else {
                    0.0
                }
            })
            .fold(0.0_f64, f64::max);
        if free.is_empty() || cosine <= GTOL {
            converged = true;
            break;
        }
        for (d, j) in diag.iter_mut().zip(0..k) {
            *d = d.max(jac.column(j).norm());
        }
        let jf = jac.select_columns(&free);
        let jtj = jf.transpose() * &jf;
        let gf = DVector::from_iterator(free.len(), free.iter().map(|&j| g.get(j).copied().unwrap_or(0.0)));
        let d: Vec<f64> =
            free.iter().map(|&j| diag.get(j).copied().unwrap_or(1.0).max(f64::MIN_POSITIVE.sqrt())).collect();
        let scaled_norm = |s: &DVector<f64>| s.iter().zip(&d).map(|(s, d)| (s * d).powi(2)).sum::<f64>().sqrt();
        // The damped step, damped more until it lies within the trust region.
        let mut step = None;
        for _ in 0..200 {
            let mut damped = jtj.clone();
            for (a, d) in d.iter().enumerate() {
                if let Some(v) = damped.get_mut((a, a)) {
                    *v += lambda * d * d;
                }
            }
            match cholesky(&damped).and_then(|l| cholesky_solve(&l, &(-&gf))) {
                Some(s) if scaled_norm(&s) <= 1.5 * radius => {
                    step = Some(s);
                    break;
                }
                _ => lambda = (lambda * 4.0).max(f64::MIN_POSITIVE),
            }
        }
        let Some(step) = step else { break };
        let mut trial = u.clone();
        for (a, &j) in free.iter().enumerate() {
            if let (Some(t), Some(s)) = (trial.get_mut(j), step.get(a)) {
                *t += s;
            }
        }
        clamp(&mut trial);
        let at = |v: &[f64], j: usize| v.get(j).copied().unwrap_or(0.0);
        let taken = DVector::from_iterator(free.len(), free.iter().map(|&j| at(&trial, j) - at(&u, j)));
        let size =
            taken.iter().zip(&free).map(|(s, &j)| s.abs() / at(&u, j).abs().max(at(&scale, j))).fold(0.0, f64::max);
        if size <= XTOL {
            converged = true;
            break;
        }
        let r_trial = f(&theta_of(&trial)).filter(|t| t.len() == r.len() && t.iter().all(|v| v.is_finite()));
        let cost_trial = r_trial.as_deref().map_or(f64::INFINITY, squares);
        // Predicted reduction of ‖r‖² by the linear model: −(2 sᵀg + sᵀJᵀJs).
        let predicted = -(2.0 * taken.dot(&gf) + taken.dot(&(&jtj * &taken)));
        let ratio = if predicted > 0.0 { (cost - cost_trial) / predicted } else { -1.0 };
        let length = scaled_norm(&taken);
        if ratio < 0.25 {
            radius = 0.5 * radius.min(2.0 * length).max(f64::MIN_POSITIVE);
        } else if ratio > 0.75 {
            radius = radius.max(2.0 * length);
        }
        match r_trial {
            Some(rt) if ratio > 1e-4 => {
                let actual = (cost - cost_trial) / cost;
                let small = actual.abs() <= FTOL && predicted / cost <= FTOL;
                u = trial;
                r = rt;
                cost = cost_trial;
                let Some(j) = jacobian(f, &u, bounds, &scale, &r) else { break };
                jac = j;
                lambda *= (1.0 - (2.0 * ratio - 1.0).powi(3)).max(1.0 / 3.0);
                nu = 2.0;
                converged = small || cost == 0.0;
            }
            _ => {
                // Predicted and actual both at rounding: nothing left to gain.
                if predicted.abs() <= FTOL * cost {
                    converged = true;
                    break;
                }
                lambda *= nu;
                nu *= 2.0;
                if !lambda.is_finite() {
                    break;
                }
            }
        }
    }
    // ∂r/∂θ = ∂r/∂u · du/dθ (1/θ on a log scale).
    let params = theta_of(&u);
    for (j, (b, t)) in bounds.iter().zip(&params).enumerate() {
        if b.log {
            let mut c = jac.column_mut(j);
            c /= *t;
        }
    }
    let at_bound = u
        .iter()
        .zip(bounds)
        .map(|(u, b)| {
            let (lo, hi) = b.u_range();
            *u <= lo || *u >= hi
        })
        .collect();
    Ok(Minimum { params, rss: cost, residuals: r, jacobian: jac, iterations, converged, at_bound })
}

/// The ratio of a scaled Jacobian's smallest singular value to its largest
/// below which the data do not determine the parameters (about 10⁻⁸:
/// a fit then moves them along that direction without changing the sum of
/// squares in its first eight digits).
pub const IDENTIFIABLE_RCOND: f64 = 1e-8;

/// The linearised statistics of a least-squares estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimates {
    /// s²(JᵀJ)⁻¹ (k × k).
    pub covariance: DMatrix<f64>,
    pub stderr: Vec<f64>,
    pub correlation: DMatrix<f64>,
    /// n − k.
    pub dof: usize,
    /// s = √(RSS/(n − k)), the residual standard deviation.
    pub sigma: f64,
    /// Student's t for two-sided 95% intervals with n − k degrees of freedom.
    pub t95: f64,
    /// Parameters the data do not determine: for each direction in which
    /// the sum of squares is flat, the parameters it moves (indices).
    pub unidentified: Vec<Vec<usize>>,
}

/// The statistics of `min` (n residuals, k parameters, n > k). A
/// parameter held at a bound is not estimated: its row and column of the
/// covariance are zero, and it counts neither as a degree of freedom used
/// nor as unidentified.
pub fn estimates(min: &Minimum) -> Option<Estimates> {
    let (n, k) = min.jacobian.shape();
    let held = |j: usize| min.at_bound.get(j).copied().unwrap_or(false);
    let free = (0..k).filter(|&j| !held(j)).count();
    let dof = n.checked_sub(free).filter(|d| *d > 0)?;
    let norms: Vec<f64> = (0..k).map(|j| if held(j) { 0.0 } else { min.jacobian.column(j).norm() }).collect();
    let mut scaled = min.jacobian.clone();
    for (j, &c) in norms.iter().enumerate() {
        let mut col = scaled.column_mut(j);
        if c > 0.0 {
            col /= c;
        } else {
            col.fill(0.0);
        }
    }
    let (singular, right) = jacobi_svd(&scaled);
    let top = singular.iter().fold(0.0_f64, |m, s| m.max(*s));
    let mut unidentified = Vec::new();
    let mut inverse = DMatrix::zeros(k, k);
    for (a, &s) in singular.iter().enumerate() {
        let v = right.column(a).into_owned();
        if s <= IDENTIFIABLE_RCOND * top || top == 0.0 {
            let moved: Vec<usize> = (0..k).filter(|&j| !held(j) && v.get(j).is_some_and(|x| x.abs() > 0.1)).collect();
            if !moved.is_empty() {
                unidentified.push(moved);
            }
            continue;
        }
        inverse += (&v * v.transpose()) / (s * s);
    }
    // A zero column is a parameter the residuals do not depend on.
    for (j, &c) in norms.iter().enumerate() {
        if c == 0.0 && !held(j) && !unidentified.iter().any(|u| u.contains(&j)) {
            unidentified.push(vec![j]);
        }
    }
    let sigma2 = min.rss / dof as f64;
    let norm = |j: usize| norms.get(j).copied().unwrap_or(0.0);
    let covariance = DMatrix::from_fn(k, k, |i, j| {
        let (ci, cj) = (norm(i), norm(j));
        if ci > 0.0 && cj > 0.0 {
            sigma2 * inverse.get((i, j)).copied().unwrap_or(0.0) / (ci * cj)
        } else {
            0.0
        }
    });
    let stderr: Vec<f64> = covariance.diagonal().iter().map(|v| v.max(0.0).sqrt()).collect();
    let se = |j: usize| stderr.get(j).copied().unwrap_or(0.0);
    let correlation = DMatrix::from_fn(k, k, |i, j| {
        let d = se(i) * se(j);
        if i == j {
            1.0
        } else if d > 0.0 {
            covariance.get((i, j)).copied().unwrap_or(0.0) / d
        } else {
            0.0
        }
    });
    Some(Estimates { covariance, stderr, correlation, dof, sigma: sigma2.sqrt(), t95: super::t95(dof), unidentified })
}

/// The singular values of `a` (n × k, n ≥ k) and its right singular
/// vectors (the columns of V), by one-sided Jacobi rotations (Hestenes,
/// 1958; accurate to the last digits of each singular value however small,
/// Demmel and Veselić, 1992): columns are rotated pairwise until all are
/// orthogonal, and their lengths are the singular values. A few sweeps
/// for the handful of parameters a fit has; nalgebra's SVD (with its
/// Cholesky) took 16 KB more of the page's module.
pub fn jacobi_svd(a: &DMatrix<f64>) -> (Vec<f64>, DMatrix<f64>) {
    let k = a.ncols();
    let mut u = a.clone();
    let mut v = DMatrix::identity(k, k);
    for _ in 0..60 {
        let mut rotated = false;
        for p in 0..k {
            for q in p + 1..k {
                let alpha = u.column(p).norm_squared();
                let beta = u.column(q).norm_squared();
                let gamma = u.column(p).dot(&u.column(q));
                if gamma == 0.0 || gamma.abs() <= f64::EPSILON * (alpha * beta).sqrt() {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                for m in [&mut u, &mut v] {
                    for i in 0..m.nrows() {
                        let (x, y) = (m.get((i, p)).copied().unwrap_or(0.0), m.get((i, q)).copied().unwrap_or(0.0));
                        if let Some(e) = m.get_mut((i, p)) {
                            *e = c * x - s * y;
                        }
                        if let Some(e) = m.get_mut((i, q)) {
                            *e = s * x + c * y;
                        }
                    }
                }
            }
        }
        if !rotated {
            break;
        }
    }
    ((0..k).map(|j| u.column(j).norm()).collect(), v)
}

/// The lower-triangular L with L Lᵀ = `a` (symmetric, positive
/// semidefinite): a pivot at or below 10⁻¹⁴ of its diagonal entry (a
/// parameter held at a bound has a zero row and column of covariance)
/// leaves its column of L zero. `None` for a negative pivot (not
/// semidefinite).
pub fn cholesky(a: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let k = a.nrows();
    let mut l: DMatrix<f64> = DMatrix::zeros(k, k);
    for j in 0..k {
        let row: f64 = (0..j).map(|m| l.get((j, m)).copied().unwrap_or(0.0).powi(2)).sum();
        let diagonal = a.get((j, j)).copied()?;
        let d = diagonal - row;
        // Relative to the pivot's own diagonal entry: a fit's parameters
        // differ in scale by many decades.
        if d <= 1e-14 * diagonal.abs() {
            if d < -1e-10 * diagonal.abs() {
                return None;
            }
            continue;
        }
        let ljj = d.sqrt();
        *l.get_mut((j, j))? = ljj;
        for i in j + 1..k {
            let dot: f64 =
                (0..j).map(|m| l.get((i, m)).copied().unwrap_or(0.0) * l.get((j, m)).copied().unwrap_or(0.0)).sum();
            *l.get_mut((i, j))? = (a.get((i, j)).copied()? - dot) / ljj;
        }
    }
    Some(l)
}

/// x with L Lᵀ x = b, for L from [`cholesky`] of a positive definite
/// matrix (`None` where a pivot is zero).
fn cholesky_solve(l: &DMatrix<f64>, b: &DVector<f64>) -> Option<DVector<f64>> {
    let k = l.nrows();
    let mut y = b.clone();
    for i in 0..k {
        let dot: f64 = (0..i).map(|m| l.get((i, m)).copied().unwrap_or(0.0) * y.get(m).copied().unwrap_or(0.0)).sum();
        let d = l.get((i, i)).copied().filter(|d| *d > 0.0)?;
        *y.get_mut(i)? = (y.get(i).copied()? - dot) / d;
    }
    for i in (0..k).rev() {
        let dot: f64 =
            (i + 1..k).map(|m| l.get((m, i)).copied().unwrap_or(0.0) * y.get(m).copied().unwrap_or(0.0)).sum();
        let d = l.get((i, i)).copied()?;
        *y.get_mut(i)? = (y.get(i).copied()? - dot) / d;
    }
    Some(y)
}
