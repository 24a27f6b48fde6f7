//! The chain with its first mapper tied to a mapper near the end: the
//! shape of the optimum where the windows that wrap around from the last
//! mappers to the first hold both, and the chain alone would leave the
//! first mapper's part below the last mappers' (a random list of rates
//! with a large load: 500 mappers, r = 250, ℓ = 100, V = 10¹¹).
//!
//! # The shape
//!
//! Mapper 1's part H is more than interval 1's send needs (interval 1 is
//! slack), so mapper 2's part is free of it; every later interval before
//! the last mapper is tight at its largest sender h(n):
//! A_{n+1} x_{n+1} = A_n x_n − S + c x_{h(n)}. Forward from H and x_2 each
//! part is affine in both (a window before the last mapper holds no later
//! mapper), and two equations fix them: the load, Σx = 1, and the tie
//! H = x_t with the partner t, the mapper that shares the largest part of
//! the wrapping windows with mapper 1. The partner is found among the
//! largest senders the chain alone gives those windows; the senders h(n)
//! are re-read until they hold, as the chain's are.
//!
//! # The proof
//!
//! The chain's dual solution (see [`super::schedule`]): flows F_n ≥ 0
//! through the intervals, F_m = 1, each mapper's constraint
//! A_k (F_k − F_{k−1}) + c Y_k = w tight, and its value
//! w + S (m − Σ_{n<m} F_n). Here interval 1 is slack, so F_1 = 0 and mapper
//! 1's constraint reads c Y_1 = w; the windows whose largest part mappers
//! 1 and t share split their unit flows, a share θ of them to mapper 1 and
//! the rest to t. Backward from F_m = 1 the flows are affine in w and θ,
//! and those two conditions fix both. Where θ is within [0, 1], every flow
//! is non-negative and the value meets the schedule's length to
//! [`CERTIFICATE_TOL`], the schedule is optimal.

use super::general::{members, windows, Window};
use super::schedule::{
    chain_parts, intervals_hold, raise_senders, Method, Scaled, Shuffle, Solution, CANCELLATION_LIMIT, CERTIFICATE_TOL,
};

/// Rounds of re-reading the largest senders before the shape is given up
/// (the chain's own rule).
const ROUNDS: usize = 8;

/// Partners tried: the largest senders of the most wrapping windows that
/// hold mapper 1, in the chain alone.
const PARTNERS: usize = 3;

/// How far two parts may differ and still share a window's largest part.
const TIE_RTOL: f64 = 1e-9;

/// A quantity affine in two unknowns: its constant, then the coefficients.
type Affine = [f64; 3];

fn plus(p: Affine, f: f64, q: Affine) -> Affine {
    [p[0] + f * q[0], p[1] + f * q[1], p[2] + f * q[2]]
}

fn at(p: Affine, u: [f64; 2]) -> f64 {
    p[0] + p[1] * u[0] + p[2] * u[1]
}

/// The unknowns where two affine quantities vanish (Cramer's rule).
fn zero_of(e: Affine, f: Affine) -> Option<[f64; 2]> {
    let det = e[1] * f[2] - e[2] * f[1];
    let u = [(-e[0] * f[2] + e[2] * f[0]) / det, (-e[1] * f[0] + e[0] * f[1]) / det];
    u.iter().all(|v| v.is_finite()).then_some(u)
}

/// The shuffle as the chain with its first mapper tied to a later one,
/// proved optimal by the dual solution of that shape; `None` where it is
/// not the optimum (or the windows do not wrap onto mapper 1).
pub fn tied_chain(p: &Shuffle) -> Option<Solution> {
    let iv = p.intervals;
    let m = iv.m();
    if p.a.len() != m || m < 3 || iv.groups() < 2 {
        return None;
    }
    let sc = p.scaled();
    let (chain, h) = chain_parts(&iv, &sc)?;
    let (tail, _) = windows(&iv);
    let mut partners: Vec<(usize, f64)> = Vec::new();
    for (w, weight) in tail.iter().filter(|(w, _)| members(w).any(|k| k == 0)) {
        let Some(top) = members(w).filter(|&k| k != 0).max_by(|&i, &j| part(&chain, i).total_cmp(&part(&chain, j)))
        else {
            continue;
        };
        match partners.iter_mut().find(|(k, _)| *k == top) {
            Some(slot) => slot.1 += weight,
            None => partners.push((top, *weight)),
        }
    }
    partners.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    partners.iter().take(PARTNERS).find_map(|&(t, _)| tied_to(p, &sc, &tail, h.clone(), t))
}

fn part(x: &[f64], k: usize) -> f64 {
    x.get(k).copied().unwrap_or(f64::NAN)
}

/// The shape tied to partner `t` (0-based), from the chain's senders `h`.
fn tied_to(p: &Shuffle, sc: &Scaled, tail: &[(Window, f64)], mut h: Vec<usize>, t: usize) -> Option<Solution> {
    let iv = p.intervals;
    let m = iv.m();
    let mut x = vec![0.0; m];
    *h.first_mut()? = 1; // interval 1 (slack) holds mapper 1 alone
    for round in 0.. {
        parts(sc, &h, t, &mut x)?;
        let front = iv.largest_senders_to(&x, m - 1);
        if !raise_senders(&mut h, &front, &x, 1) {
            break;
        }
        if round + 1 == ROUNDS {
            return None;
        }
    }
    if x.iter().any(|&v| v < -1e-12) {
        return None;
    }
    for v in &mut x {
        *v = v.max(0.0);
    }
    let largest = iv.largest_senders(&x);
    let mut tight = h.clone();
    tight.extend(largest.iter().skip(m - 1));
    let times = p.boundaries(sc, &x, &tight);
    intervals_hold(sc, &x, &times, &largest)?;
    let length = *times.last()?;
    let bound = dual_value(sc, tail, &x, &h, t)?;
    if (length - bound).abs() > CERTIFICATE_TOL * length.abs().max(sc.s) {
        return None;
    }
    Some(p.unscale(sc, x, times, tight, Method::ChainTiedFirst { partner: t + 1 }))
}

/// The parts of the shape: x_1 = H, x_2 free, then the chain at the
/// senders `h` (1-based; h[n − 1] for interval n), each part affine in
/// (H, x_2), fixed by the load and the tie x_1 = x_{t+1}. `None` where the
/// sweep loses too many digits (as the chain's: see the chain method).
fn parts(sc: &Scaled, h: &[usize], t: usize, x: &mut [f64]) -> Option<()> {
    let m = x.len();
    let mut ab: Vec<Affine> = Vec::with_capacity(m);
    ab.extend([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
    for k in 2..m {
        // x_{k+1} from x_k and the largest part of interval k's window.
        let (xk, xh) = (*ab.get(k - 1)?, *ab.get(h.get(k - 1)?.checked_sub(1)?)?);
        let (ak, next) = (*sc.a.get(k - 1)?, *sc.a.get(k)?);
        let mut y = plus(plus([-sc.s, 0.0, 0.0], ak, xk), sc.c, xh);
        y.iter_mut().for_each(|v| *v /= next);
        ab.push(y);
    }
    let load = ab.iter().fold([-1.0, 0.0, 0.0], |sum, &y| plus(sum, 1.0, y));
    let tie = plus(*ab.first()?, -1.0, *ab.get(t)?);
    let u = zero_of(load, tie)?;
    let (mut term, mut largest) = (0.0f64, 0.0f64);
    for (slot, y) in x.iter_mut().zip(&ab) {
        *slot = at(*y, u);
        term = term.max(y[0].abs()).max((y[1] * u[0]).abs()).max((y[2] * u[1]).abs());
        largest = largest.max(slot.abs());
    }
    // The chain's limit on digits lost.
    (term / largest.max(f64::MIN_POSITIVE) * m as f64 <= CANCELLATION_LIMIT).then_some(())
}

/// The dual solution of the shape (see the module), checked: its value
/// where it is feasible.
fn dual_value(sc: &Scaled, tail: &[(Window, f64)], x: &[f64], h: &[usize], t: usize) -> Option<f64> {
    let m = x.len();
    let level = part(x, 0);
    let near = |v: f64| (v - level).abs() <= TIE_RTOL * level.abs();
    // The tail's unit flows: to each window's largest sender, and those
    // whose largest part mappers 1 and t share, θ of them to mapper 1.
    let zero = [0.0; 3];
    let mut given = vec![zero; m];
    let mut shared = 0.0;
    for (w, weight) in tail {
        let top = members(w).max_by(|&i, &j| part(x, i).total_cmp(&part(x, j)).then(j.cmp(&i)))?;
        let both = members(w).any(|k| k == 0) && members(w).any(|k| k == t);
        if both && near(part(x, top)) && near(part(x, t)) {
            shared += weight;
        } else {
            given.get_mut(top)?[0] += weight;
        }
    }
    if shared <= 0.0 {
        return None; // no tie: the chain's shape, not this one
    }
    *given.first_mut()? = plus(*given.first()?, shared, [0.0, 0.0, 1.0]);
    *given.get_mut(t)? = plus(*given.get(t)?, shared, [1.0, 0.0, -1.0]);
    // Backward from F_m = 1: u_k = (w − c Y_k)/A_k, F_{k−1} = F_k − u_k.
    let mut flows = vec![zero; m]; // F_0 … F_{m−1}
    let mut flow: Affine = [1.0, 0.0, 0.0];
    for k in (2..=m).rev() {
        if k < m {
            *flows.get_mut(k)? = flow;
            let top = h.get(k - 1)?.checked_sub(1)?;
            *given.get_mut(top)? = plus(*given.get(top)?, 1.0, flow);
        }
        let mut u = plus([0.0, 1.0, 0.0], -sc.c, *given.get(k - 1)?);
        let a = *sc.a.get(k - 1)?;
        u.iter_mut().for_each(|v| *v /= a);
        flow = plus(flow, -1.0, u);
    }
    // F_1 = 0, and mapper 1's constraint c Y_1 = w.
    let own = plus([0.0, 1.0, 0.0], -sc.c, *given.first()?);
    let [w, share] = zero_of(flow, own)?;
    let tol = CERTIFICATE_TOL;
    if !(-tol..=1.0 + tol).contains(&share) {
        return None;
    }
    let values: Vec<f64> = flows.iter().skip(2).map(|&f| at(f, [w, share])).collect();
    if values.iter().any(|&f| f.is_nan() || f < -tol * f.abs().max(1.0)) {
        return None;
    }
    Some(w + sc.s * (m as f64 - values.iter().sum::<f64>()))
}
