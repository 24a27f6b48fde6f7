//! Parts capped at one level: the shape of the optimum where per-mapper
//! rates in any order meet start-ups that outlast the transfers (a random
//! list of rates, a gigabyte on a thousand mappers), found by one pass a
//! level and proved optimal by a dual solution built for it.
//!
//! # The shape
//!
//! Every window's largest part is one level L, held by the mappers that
//! map fastest for their place ("capped"); every other mapper finishes as
//! late as the next one allows. Going back from the last mapper (idle, or
//! capped itself), interval n is tight where mapper n is not capped:
//! x_n = min(L, (A_{n+1} x_{n+1} + S − c M_n)/A_n), with M_n the largest
//! part of interval n's window (L where the window holds a capped mapper).
//! The intervals after capped mappers are slack. The shuffle ends at
//! mS + A_m x_m + c Σ_{n ≥ m} M_n, which grows with L, so L is the least
//! level at which the parts sum to one: bisection, then a secant step
//! within the last bracket (the sum is linear there).
//!
//! # The proof
//!
//! Any dual solution bounds t_{N+1} from below (see [`super::schedule`]):
//! flows F_n ≥ 0 through the intervals n < m (F_0 = 0, and 1 through
//! every interval from m on), each interval's flow split among its
//! window's mappers, and w with A_k (F_k − F_{k−1}) + c Y_k ≥ w for every
//! mapper k, Y_k what mapper k receives; its value is
//! w + S (m − Σ_{n<m} F_n). Complementary slackness builds one for this shape: no flow
//! through a slack interval (after a capped mapper), each mapper that is
//! not capped receives only from windows whose largest part it holds
//! alone, so its flow grows by (w − c Y_k)/A_k, and the capped mappers
//! receive what makes their constraints tight. Where the flows are
//! non-negative, the windows can split their flows to meet the capped
//! mappers' demands ([`super::schedule::split_feasible`]), and the value
//! meets the schedule's length to [`GAP_RTOL`], the schedule is optimal.

use std::cell::Cell;

use super::descent::{add, at, scale, Affine2};
use super::general::{members, windows, Window, Windows, GAP_RTOL};
use super::schedule::{intervals_hold, split_feasible, Intervals, Method, Scaled, Shuffle, Solution, CERTIFICATE_TOL};

thread_local! {
    /// Reads of a part or a window this thread's capped levels have made
    /// ([`work`]).
    static WORK: Cell<f64> = const { Cell::new(0.0) };
}

/// Reads of parts and windows the capped levels of this thread have made
/// so far (a pass over the mappers and their front windows counts 2m): a
/// search that budgets its solves reads it before and after one.
pub fn work() -> f64 {
    WORK.with(Cell::get)
}

/// The reads of [`capped_level`] at its dearest: every level's every pass
/// (the bisection, the bracket's search and the secant, for both ends of
/// the list), and the dual's reads of every window.
pub fn dearest_reads(iv: &Intervals) -> f64 {
    let levels = 2.0 * ((BISECTIONS + 2) as f64 + (iv.m() as f64).log2().ceil());
    levels * (PASSES * 2 * iv.m()) as f64 + iv.count() as f64 * iv.width() as f64
}

fn charge(reads: usize) {
    WORK.with(|w| w.set(w.get() + reads as f64));
}

/// Bisection steps on the level (each a few passes over the mappers):
/// the bracket narrows to 2⁻⁶⁰ of itself, and the secant finishes it.
const BISECTIONS: usize = 60;

/// Passes that re-read the windows' largest parts before a level's parts
/// are taken as they are (a part below the level moves the ones before it
/// by c/A of its change, so they settle within a few).
const PASSES: usize = 12;

/// The parts at level `level` (scaled), the last mapper idle or capped,
/// and which mappers are capped; `None` where a part would be negative.
fn parts_at(iv: &Intervals, sc: &Scaled, level: f64, last_capped: bool) -> Option<(Vec<f64>, Vec<bool>)> {
    let m = sc.a.len();
    let mut x = vec![level; m];
    let mut capped = vec![false; m];
    let mut largest = vec![level; m.saturating_sub(1)];
    for _ in 0..PASSES {
        charge(2 * m);
        let before = x.clone();
        *x.last_mut()? = if last_capped { level } else { 0.0 };
        *capped.last_mut()? = last_capped;
        for n in (1..m).rev() {
            let (a_n, a_next) = (*sc.a.get(n - 1)?, *sc.a.get(n)?);
            let reach = (a_next * x.get(n)? + sc.s - sc.c * largest.get(n - 1)?) / a_n;
            if reach.is_nan() || reach < 0.0 {
                return None;
            }
            *x.get_mut(n - 1)? = reach.min(level);
            *capped.get_mut(n - 1)? = reach >= level;
        }
        for (top, &k) in largest.iter_mut().zip(&iv.largest_senders_to(&x, m - 1)) {
            *top = *x.get(k.checked_sub(1)?)?;
        }
        if x == before {
            break;
        }
    }
    Some((x, capped))
}

/// The least level at which the parts sum to one, with its parts.
fn level_parts(iv: &Intervals, sc: &Scaled, last_capped: bool) -> Option<(f64, Vec<f64>, Vec<bool>)> {
    let m = sc.a.len();
    let total = |level: f64| parts_at(iv, sc, level, last_capped).map(|(x, _)| x.iter().sum::<f64>());
    let mut hi = 1.0 / m as f64;
    while total(hi)? < 1.0 {
        hi *= 2.0;
        if hi > 1.0 {
            return None;
        }
    }
    let mut lo = hi / 2.0;
    let (mut sum_lo, mut sum_hi) = (total(lo)?, total(hi)?);
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let sum = total(mid)?;
        if sum < 1.0 {
            (lo, sum_lo) = (mid, sum);
        } else {
            (hi, sum_hi) = (mid, sum);
        }
    }
    // The sum is linear within the last bracket: the secant meets one.
    let level = if sum_hi > sum_lo { lo + (1.0 - sum_lo) * (hi - lo) / (sum_hi - sum_lo) } else { hi };
    let (mut x, capped) = parts_at(iv, sc, level.clamp(lo, hi), last_capped)?;
    let sum: f64 = x.iter().sum();
    x.iter_mut().for_each(|v| *v /= sum);
    Some((level / sum, x, capped))
}

/// The dual solution of the capped shape (see the module), checked: the
/// dual's value where it is feasible.
/// Affine functions are of (w, θ), θ the flow before the first capped
/// mapper.
fn dual_value(sc: &Scaled, (tail, front): &Windows, x: &[f64], capped: &[bool], last_capped: bool) -> Option<f64> {
    let m = x.len();
    let part = |k: usize| x.get(k).copied().unwrap_or(0.0);
    let holds_capped = |w: &Window| members(w).any(|k| capped.get(k).copied().unwrap_or(false));
    let argmax = |w: &Window| members(w).max_by(|&i, &j| part(i).total_cmp(&part(j)).then(j.cmp(&i)));
    // What the tail's windows without a capped mapper give their largest.
    let mut tail_given = vec![0.0; m];
    for (w, weight) in tail {
        if !holds_capped(w) {
            *tail_given.get_mut(argmax(w)?)? += weight;
        }
    }
    // The first capped mapper (0-based); every front window from it on
    // must hold a capped mapper.
    let first = capped.iter().position(|&c| c)?;
    if front.iter().skip(first).any(|w| !holds_capped(w)) {
        return None;
    }
    // Flows F_1 … F_{m−1} (index n − 1), affine in w and θ = F_first
    // (the interval before the first capped mapper; none if it is mapper 1).
    let zero: Affine2 = (0.0, 0.0, 0.0);
    let mut flow = vec![zero; m.saturating_sub(1)];
    let (a, c) = (&sc.a, sc.c);
    if first > 0 {
        // Interval n = first (1-based) ends the first run: F_first = θ; then
        // back: F_{n−1} = F_n − (w − c Y_n)/A_n, Y_n what mapper n receives
        // from the tail and from the intervals whose windows it tops.
        let mut given = vec![zero; m];
        *flow.get_mut(first - 1)? = (0.0, 0.0, 1.0);
        let top = |n: usize| argmax(front.get(n - 1)?);
        let mut to = top(first)?;
        *given.get_mut(to)? = add(*given.get(to)?, *flow.get(first - 1)?);
        for n in (1..=first).rev() {
            let mapper = n - 1;
            let y = add(*given.get(mapper)?, (*tail_given.get(mapper)?, 0.0, 0.0));
            let step = (-c * y.0, 1.0 - c * y.1, -c * y.2);
            let below = add(*flow.get(n - 1)?, scale(step, -1.0 / a.get(mapper)?));
            if n == 1 {
                // F_0 = 0 fixes θ in w: put it back into every flow.
                if below.2.abs() < f64::MIN_POSITIVE {
                    return None;
                }
                let (t0, tw) = (-below.0 / below.2, -below.1 / below.2);
                for f in flow.iter_mut().take(first) {
                    *f = (f.0 + f.2 * t0, f.1 + f.2 * tw, 0.0);
                }
            } else {
                *flow.get_mut(n - 2)? = below;
                to = top(n - 1)?;
                *given.get_mut(to)? = add(*given.get(to)?, below);
            }
        }
    }
    // After the first capped mapper: no flow through a slack interval, and
    // a run of mappers below the level gains (w − c Y_k)/A_k each.
    for n in first + 1..m {
        let mapper = n - 1;
        *flow.get_mut(n - 1)? = if *capped.get(mapper)? {
            zero
        } else {
            let before = if n >= 2 { *flow.get(n - 2)? } else { zero };
            let step = (-c * tail_given.get(mapper)?, 1.0, 0.0);
            add(before, scale(step, 1.0 / a.get(mapper)?))
        };
    }
    // Demands D_k = (w − A_k (F_k − F_{k−1}))/c, F_m = 1; they meet the
    // supplies (the flows and the tail's weights) in all: that fixes w. An
    // idle last mapper demands nothing (it holds with slack).
    let f_at = |n: usize| -> Affine2 {
        match n {
            0 => zero,
            n if n == m => (1.0, 0.0, 0.0),
            n => flow.get(n - 1).copied().unwrap_or(zero),
        }
    };
    let demand_of = |k: usize| -> Affine2 {
        let rise = add(f_at(k + 1), scale(f_at(k), -1.0));
        let ak = a.get(k).copied().unwrap_or(0.0);
        (-ak * rise.0 / c, (1.0 - ak * rise.1) / c, 0.0)
    };
    // An idle last mapper takes what the tail's windows it tops give it
    // (its constraint holds with slack: checked below).
    let last_given = *tail_given.last()?;
    let counted = if last_capped { m } else { m - 1 };
    let taken = if last_capped { 0.0 } else { last_given };
    let need = (0..counted).fold((taken, 0.0, 0.0), |acc, k| add(acc, demand_of(k)));
    let weights: f64 = tail.iter().map(|(_, weight)| weight).sum();
    let supply = flow.iter().fold((weights, 0.0, 0.0), |acc, f| add(acc, *f));
    let slope = need.1 - supply.1;
    if slope.is_nan() || slope == 0.0 {
        return None;
    }
    let w = (supply.0 - need.0) / slope;
    let flows: Vec<f64> = flow.iter().map(|&f| at(f, w, 0.0)).collect();
    let total: f64 = flows.iter().sum::<f64>() + weights;
    let tol = CERTIFICATE_TOL * total.max(1.0);
    if !w.is_finite() || flows.iter().any(|&f| f.is_nan() || f < -tol) {
        return None;
    }
    let demands: Vec<f64> = (0..m).map(|k| at(demand_of(k), w, 0.0)).collect();
    if !last_capped && *demands.last()? > last_given + tol {
        return None;
    }
    let demand =
        |j: usize| if j == m && !last_capped { last_given } else { demands.get(j - 1).copied().unwrap_or(0.0) };
    let ranges = |w: &Window| -> Vec<(usize, usize)> { w.iter().copied().filter(|r| r.0 > 0).collect() };
    let mut supplies: Vec<(Vec<(usize, usize)>, f64)> = Vec::with_capacity(tail.len() + flows.len());
    supplies.extend(tail.iter().map(|(w, weight)| (ranges(w), *weight)));
    supplies.extend(front.iter().zip(&flows).filter(|(_, &f)| f > 0.0).map(|(w, &f)| (ranges(w), f)));
    if !split_feasible(m, &supplies, &demand) {
        return None;
    }
    Some(sc.s * (m as f64 - flows.iter().sum::<f64>()) + w)
}

/// The shuffle with its parts capped at one level, proved optimal by the
/// dual solution of that shape; `None` where the shape is not the optimum.
pub fn capped_level(p: &Shuffle) -> Option<Solution> {
    let iv = p.intervals;
    let m = iv.m();
    if p.a.len() != m || m < 2 {
        return None;
    }
    let sc = p.scaled();
    let windows = windows(&iv);
    [false, true].into_iter().find_map(|last_capped| {
        let (_, x, capped) = level_parts(&iv, &sc, last_capped)?;
        let largest = iv.largest_senders(&x);
        let t = p.boundaries(&sc, &x, &largest);
        intervals_hold(&sc, &x, &t, &largest)?;
        let length = *t.last()?;
        // The dual reads every window's members (at most ℓ each).
        charge((windows.0.len() + windows.1.len()) * iv.width());
        let bound = dual_value(&sc, &windows, &x, &capped, last_capped)?;
        ((length - bound).abs() <= GAP_RTOL * length.abs()).then_some(())?;
        let count = capped.iter().filter(|&&c| c).count();
        Some(p.unscale(&sc, x, t, largest, Method::CappedLevel { capped: count }))
    })
}
