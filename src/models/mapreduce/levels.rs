//! Parts capped at one level, or at levels rising along the first
//! mappers: the shape of the optimum where per-mapper rates in any order
//! meet start-ups that outlast the transfers (a random list of rates, a
//! gigabyte on a thousand mappers), found by one pass a level and proved
//! optimal by a dual solution built for it.
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
//! level at which the parts sum to one: regula falsi on the sum, which is
//! piecewise linear in L.
//!
//! The first ℓ intervals' windows hold only the first mappers, and so do
//! the tail's windows that wrap onto them: a lower level there costs those
//! windows less. So the levels may rise along the first mappers ([`staircase`]),
//! each lower level ended by a pinned mapper whose interval is tight at
//! the level's part (x_pin = L_j = its own reach); going back, the level
//! drops to the pin's part there. With no top level at all, the last
//! mapper's part is the unknown instead ([`Last::Free`]): the chain, its
//! first mappers capped at the pins' levels. And the unknown level need
//! not be the top one ([`Last::Under`]): where a list's levels rise over
//! hundreds of mappers, a level may end at no tight mapper, below levels
//! that pins end (the first 1414 mappers of a random 2000-list, r = 250,
//! ℓ = 100, V = 10¹¹: mappers 117 and 141 share a level no interval is
//! tight at, below one that mapper 306 pins). Going back, the cap is then
//! the pins' alone down to the unknown level's last mapper, and the
//! level there.
//!
//! The last intervals' windows hold only the last mappers in the same
//! way, so a level may dip there: a pin among the last ℓ − 1 mappers
//! ([`dips_from`]) ends a level below the one before it, which caps only
//! the run of mappers right before the pin that reach its part; back past
//! the first mapper that does not, the cap is the one before again (the
//! two-speed 2000-list of seed 3 with r = 400, ℓ = 300 and V = 10⁹:
//! mappers 1991 and 1992 capped at mapper 1993's part, 0.58 of the top
//! level). Or the dip holds through runs of mappers below it back to a
//! marked one, where it ends (the same list's first 600 mappers: mapper
//! 583's level caps mappers 575, 578 and 581 between runs below it, back
//! to mapper 574). The dual is the same, each pin's level balanced over
//! the mappers it caps.
//!
//! A list's counts keep their shape over runs of counts, and from one run
//! to the next a pin moves, or one is added or dropped, or the unknown
//! level ends elsewhere: [`capped_levels_near`] tries the shape of the
//! count before, then a few such changes to it.
//!
//! # The proof
//!
//! Any dual solution bounds t_{N+1} from below (see [`super::schedule`]):
//! flows F_n ≥ 0 through the intervals n < m (F_0 = 0, and 1 through
//! every interval from m on), each interval's flow split among its
//! window's mappers, and w with A_k (F_k − F_{k−1}) + c Y_k ≥ w for every
//! mapper k, Y_k what mapper k receives; its value is
//! w + S (m − Σ_{n<m} F_n). Complementary slackness builds one for this
//! shape: no flow through a slack interval (after a capped mapper), a
//! pin's flow its own unknown, each mapper that is not capped receives
//! only from windows whose largest part it holds alone, so its flow grows
//! by (w − c Y_k)/A_k (going backward from an unknown flow at the end of
//! its run where the mappers of the run top windows of their own), and
//! the capped mappers receive what makes their constraints tight. Each
//! run going backward must meet the flow before it, each level's windows
//! its mappers' demands, and all supplies all demands: a small linear
//! system in w and the unknown flows. Where the flows are non-negative,
//! the windows can split their flows to meet the capped mappers' demands
//! ([`super::schedule::split_feasible`]), and the value meets the
//! schedule's length to [`GAP_RTOL`], the schedule is optimal.

use std::cell::Cell;

use super::banded::Banded;
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

/// Most steps on the level (each a few passes over the mappers), regula
/// falsi or bisection: bisection alone narrows the bracket to 2⁻⁶⁰ of
/// itself, and the secant finishes it.
const BISECTIONS: usize = 60;

/// Passes that re-read the windows' largest parts before a level's parts
/// are taken as they are (a part below the level moves the ones before it
/// by c/A of its change, so they settle within a few).
const PASSES: usize = 12;

/// What the last mapper does in a shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    /// Idle: no part.
    Idle,
    /// Capped at the top level.
    Capped,
    /// A part of its own, the unknown in place of the top level: no level
    /// above the pinned ones, every mapper after the last pin below none
    /// (the chain, its first mappers capped at lower levels).
    Free,
    /// Idle, the unknown level capping mapper `d` (0-based) and those
    /// before it down to the pin below: above it only the pins' levels,
    /// and none after the last pin.
    Under(usize),
}

/// The first mapper (0-based) whose pin dips: the last ℓ − 1 mappers, whose
/// parts alone fill the windows of the last intervals (past the first ℓ,
/// where pins end the levels that rise).
fn dips_from(iv: &Intervals) -> usize {
    iv.width().max(iv.m() + 1 - iv.width())
}

/// The parts at level `level` (scaled), the last mapper idle or capped,
/// which mappers are capped, and the pin whose level caps each capped
/// mapper (`None`: the unknown level); `None` where a part would be
/// negative. A `pinned` mapper ends a lower level: its part is what the
/// next one allows, and the mappers before it are capped at that. Among
/// the last mappers ([`dips_from`]) a pin's level dips: it caps only the
/// run of mappers right before the pin that reach it, and back past the
/// first mapper below it (or back to a marked one below it, held through
/// the runs below it in between), the cap is what it was after the pin. The
/// passes start from the front windows' `largest` parts (all at the level
/// where they are not one for each window), and leave them where they
/// settled.
fn parts_at(
    iv: &Intervals,
    sc: &Scaled,
    level: f64,
    last: Last,
    pinned: &[bool],
    largest: &mut Vec<f64>,
) -> Option<Parts> {
    let m = sc.a.len();
    let dips = dips_from(iv);
    let mut x = vec![level; m];
    let mut capped = vec![false; m];
    let mut by_pin = vec![None; m];
    // Whether a mark among the last mappers comes before each mapper: where
    // a dip whose pin has one ends.
    let mut marked_before = vec![false; m];
    for k in dips.max(1)..m {
        *marked_before.get_mut(k)? = marked_before.get(k - 1).copied().unwrap_or(false)
            || (k > dips && pinned.get(k - 1).copied().unwrap_or(false));
    }
    if largest.len() + 1 != m {
        *largest = vec![level; m.saturating_sub(1)];
    }
    for _ in 0..PASSES {
        charge(2 * m);
        let before = x.clone();
        *x.last_mut()? = if matches!(last, Last::Idle | Last::Under(_)) { 0.0 } else { level };
        *capped.last_mut()? = last == Last::Capped;
        let mut cap = if matches!(last, Last::Free | Last::Under(_)) { f64::INFINITY } else { level };
        // The pin whose level is the cap (`None`: the unknown level); the
        // caps the dips in force lowered, innermost last, each with whether
        // the dip before it held; and whether the innermost dip holds
        // through the mappers below it (its end is marked further back) or
        // ends at the first of them.
        let mut cap_pin = None;
        let mut dipped: Vec<(f64, Option<usize>, bool)> = Vec::new();
        let mut holding = false;
        for n in (1..m).rev() {
            let k = n - 1;
            if last == Last::Under(k) && level < cap {
                (cap, cap_pin) = (level, None);
            }
            let (a_n, a_next) = (*sc.a.get(k)?, *sc.a.get(n)?);
            let reach = (a_next * x.get(n)? + sc.s - sc.c * largest.get(k)?) / a_n;
            if reach.is_nan() || reach < 0.0 {
                return None;
            }
            let marked = pinned.get(k).copied().unwrap_or(false);
            let ends = marked && holding && !dipped.is_empty() && k >= dips && reach < cap;
            if k < dips {
                while let Some(before) = dipped.pop() {
                    (cap, cap_pin, holding) = before;
                }
            } else if ends {
                holding = false;
            }
            let dip_pin = cap_pin;
            while reach < cap && !holding {
                let Some(before) = dipped.pop() else { break };
                (cap, cap_pin, holding) = before;
            }
            let pin = marked && !ends && reach < cap;
            if pin {
                if k >= dips {
                    dipped.push((cap, cap_pin, holding));
                    holding = marked_before.get(k).copied().unwrap_or(false);
                }
                (cap, cap_pin) = (reach, Some(k));
            }
            *x.get_mut(n - 1)? = reach.min(cap);
            *capped.get_mut(n - 1)? = reach >= cap;
            *by_pin.get_mut(n - 1)? = if ends { dip_pin } else { cap_pin.filter(|_| reach >= cap) };
        }
        for (top, &k) in largest.iter_mut().zip(&iv.largest_senders_to(&x, m - 1)) {
            *top = *x.get(k.checked_sub(1)?)?;
        }
        if x == before {
            break;
        }
    }
    Some((x, capped, by_pin))
}

/// A shape's parts, which mappers are capped, and the pin whose level caps
/// each capped mapper (`None`: the unknown level; a pin that acts caps
/// itself).
type Parts = (Vec<f64>, Vec<bool>, Vec<Option<usize>>);

/// A level found, to start the next search from: the level and the
/// windows' largest parts there.
#[derive(Debug, Clone, Default)]
struct Warm {
    level: f64,
    largest: Vec<f64>,
}

/// The least level at which the parts sum to one, with its parts, and
/// where a search for a shape close by would start.
fn level_parts(iv: &Intervals, sc: &Scaled, last: Last, pinned: &[bool], warm: &mut Warm) -> Option<Parts> {
    let m = sc.a.len();
    // Each sum's passes start from the windows' largest parts where the
    // sum before settled (at first the warm level's, of this count or the
    // one before), scaled to the level: they move little with it, and
    // settle in two or three passes where from the level alone they took
    // six or seven.
    // Without a warm level, the first sum starts from the level alone.
    let mut settled = (warm.level, Vec::new());
    if warm.level > 0.0 {
        settled.1.clone_from(&warm.largest);
        settled.1.resize(m.saturating_sub(1), warm.level);
    }
    let mut parts = |level: f64| {
        let (from, mut largest) = (settled.0, std::mem::take(&mut settled.1));
        if from > 0.0 {
            largest.iter_mut().for_each(|v| *v *= level / from);
        }
        let found = parts_at(iv, sc, level, last, pinned, &mut largest);
        settled = (level, largest);
        found
    };
    let mut total = |level: f64| parts(level).map(|(x, ..)| x.iter().sum::<f64>());
    let (mut lo, mut hi, mut sum_lo, mut sum_hi);
    if warm.level > 0.0 {
        // From the last level, steps growing until they bracket the one.
        let (from, at_from) = (warm.level, total(warm.level)?);
        let mut step = from * ((1.0 - at_from).abs() * 2.0 + 1e-12);
        loop {
            let to = if at_from < 1.0 { from + step } else { (from - step).max(0.0) };
            let at_to = total(to)?;
            if (at_to >= 1.0) != (at_from >= 1.0) || to == 0.0 {
                (lo, sum_lo, hi, sum_hi) =
                    if at_from < 1.0 { (from, at_from, to, at_to) } else { (to, at_to, from, at_from) };
                break;
            }
            step *= 4.0;
            if step > 1.0 {
                return None;
            }
        }
    } else {
        hi = 1.0 / m as f64;
        while total(hi)? < 1.0 {
            hi *= 2.0;
            if hi > 1.0 {
                return None;
            }
        }
        lo = hi / 2.0;
        // A free last part (the chain's before it grow from it) may be
        // far below 1/m.
        while total(lo)? >= 1.0 {
            (hi, lo) = (lo, lo / 2.0);
            if lo < f64::MIN_POSITIVE {
                return None;
            }
        }
        (sum_lo, sum_hi) = (total(lo)?, total(hi)?);
    }
    // Regula falsi, the Illinois way (the end that stays put has its
    // excess halved), falling back to bisection: the sum is piecewise
    // linear in the level, so the secant lands on one within a few steps
    // where bisection took sixty.
    let (mut excess_lo, mut excess_hi, mut kept) = (sum_lo - 1.0, sum_hi - 1.0, 0i8);
    for _ in 0..BISECTIONS {
        let secant = lo - excess_lo * (hi - lo) / (excess_hi - excess_lo);
        let mid = if secant > lo && secant < hi { secant } else { 0.5 * (lo + hi) };
        if mid <= lo || mid >= hi {
            break;
        }
        let sum = total(mid)?;
        if (sum - 1.0).abs() <= 4.0 * f64::EPSILON {
            (lo, sum_lo, hi, sum_hi) = (mid, sum, mid, sum);
            break;
        }
        if sum < 1.0 {
            (lo, sum_lo, excess_lo) = (mid, sum, sum - 1.0);
            if kept == 1 {
                excess_hi *= 0.5;
            }
            kept = 1;
        } else {
            (hi, sum_hi, excess_hi) = (mid, sum, sum - 1.0);
            if kept == -1 {
                excess_lo *= 0.5;
            }
            kept = -1;
        }
    }
    // The sum is linear within the last bracket: the secant meets one.
    let level = if sum_hi > sum_lo { lo + (1.0 - sum_lo) * (hi - lo) / (sum_hi - sum_lo) } else { hi };
    let (mut x, capped, by_pin) = parts(level.clamp(lo, hi))?;
    let sum: f64 = x.iter().sum();
    x.iter_mut().for_each(|v| *v /= sum);
    warm.level = level.clamp(lo, hi) / sum;
    warm.largest = iv.largest_senders_to(&x, m - 1).iter().map(|&k| x.get(k - 1).copied().unwrap_or(0.0)).collect();
    Some((x, capped, by_pin))
}

/// An affine function of the dual's unknowns: its constant, then w, then
/// the flow at the end of each run that goes backward, then each pinned
/// mapper's flow.
type Linear = Vec<f64>;

fn plus(p: &Linear, f: f64, q: &Linear) -> Linear {
    p.iter().zip(q).map(|(a, b)| a + f * b).collect()
}

fn value_at(p: &Linear, unknowns: &[f64]) -> f64 {
    p.first().copied().unwrap_or(0.0) + p.iter().skip(1).zip(unknowns).map(|(a, u)| a * u).sum::<f64>()
}

/// Solves the square system Σ_j e_i[j + 1] u_j = −e_i[0]: a dense
/// [`Banded`] (every diagonal in its band), eliminated with partial
/// pivoting.
fn solve_square(rows: &[Linear]) -> Option<Vec<f64>> {
    let d = rows.len();
    let mut system = Banded::new(d, d.saturating_sub(1), d.saturating_sub(1));
    let mut rhs = vec![vec![0.0; d]];
    for (i, row) in rows.iter().enumerate() {
        *rhs.first_mut()?.get_mut(i)? = -*row.first()?;
        for (j, &v) in row.iter().skip(1).enumerate() {
            system.add(i, j, v)?;
        }
    }
    system.solve(&mut rhs)?;
    rhs.pop()
}

/// The dual solution of the capped shape (see the module), checked: the
/// dual's value where it is feasible. `pinned` mappers (capped, their
/// intervals tight) end each level below the top one.
///
/// The flows, affine in the unknowns: none through a slack interval (after
/// a capped mapper), a pin's own unknown, and along a run of mappers below
/// the level, each gaining (w − c Y_k)/A_k. Where no mapper of the run
/// tops an interval's window, Y_k is the tail's alone and the run goes
/// forward from the flow before it; otherwise backward from an unknown
/// flow at its end, which the flow before it then fixes (an equation).
fn dual_value(
    sc: &Scaled,
    (tail, front): &Windows,
    x: &[f64],
    (capped, pinned, by_pin): (&[bool], &[bool], &[Option<usize>]),
    last: Last,
) -> Option<f64> {
    let m = x.len();
    let part = |k: usize| x.get(k).copied().unwrap_or(0.0);
    let is_capped = |k: usize| capped.get(k).copied().unwrap_or(false);
    let is_pinned = |k: usize| pinned.get(k).copied().unwrap_or(false);
    let argmax = |w: &Window| members(w).max_by(|&i, &j| part(i).total_cmp(&part(j)).then(j.cmp(&i)));
    if pinned.last().copied().unwrap_or(false) || !capped.contains(&true) {
        return None; // a pin on the last mapper, or no level at all
    }
    // Levels: each pin's, which has a balance of its own, then the unknown
    // one (its balance is the whole's); a capped mapper's is the one that
    // caps it.
    let pins = pinned.iter().filter(|&&b| b).count();
    let mut ordinal = vec![pins; m];
    for (i, k) in indices(pinned).into_iter().enumerate() {
        *ordinal.get_mut(k)? = i;
    }
    let mut level_of = vec![usize::MAX; m];
    for (k, slot) in level_of.iter_mut().enumerate().filter(|&(k, _)| is_capped(k)) {
        *slot = match by_pin.get(k)? {
            Some(pin) => *ordinal.get(*pin)?,
            None => pins,
        };
    }
    let levels = pins + 1;
    // Which front windows (interval n − 1) a mapper below the level tops.
    let front_top: Vec<usize> = front.iter().map(argmax).collect::<Option<_>>()?;
    let mut tops_front = vec![false; m];
    for &k in &front_top {
        if !is_capped(k) {
            *tops_front.get_mut(k)? = true;
        }
    }
    // Runs of mappers below the level (0-based, inclusive), and which go
    // backward: before mapper m, or to it where its part is free (that run
    // backward from F_m = 1, its last mapper's equation known).
    let free = last == Last::Free;
    let mut runs: Vec<(usize, usize, bool)> = Vec::new();
    for k in 0..if free { m } else { m - 1 } {
        if is_capped(k) {
            continue;
        }
        let backward = *tops_front.get(k)? || k + 1 == m;
        match runs.last_mut() {
            Some(run) if run.1 + 1 == k => {
                run.1 = k;
                run.2 |= backward;
            }
            _ => runs.push((k, k, backward)),
        }
    }
    let unknown_end = |&(_, e, backward): &(usize, usize, bool)| backward && e + 1 < m;
    let backward_runs = runs.iter().filter(|r| unknown_end(r)).count();
    // Unknowns: w, each backward run's last flow, each pin's flow.
    let d = 2 + backward_runs + pins;
    let unit = |i: usize| -> Linear { (0..d).map(|j| if j == i { 1.0 } else { 0.0 }).collect() };
    let zero: Linear = vec![0.0; d];
    // What the tail's windows give their largest where it is not capped,
    // and each level's tail weight.
    let mut tail_given = vec![0.0; m];
    let mut level_supply: Vec<Linear> = vec![zero.clone(); levels];
    for (w, weight) in tail {
        let top = argmax(w)?;
        match *level_of.get(top)? {
            usize::MAX => *tail_given.get_mut(top)? += weight,
            j => *level_supply.get_mut(j)?.first_mut()? += weight,
        }
    }
    let (a, c) = (&sc.a, sc.c);
    let mut equations: Vec<Linear> = Vec::with_capacity(d);
    // Flows F_0 … F_m (index n), F_m = 1: capped and pinned first.
    let mut flow = vec![zero.clone(); m + 1];
    *flow.last_mut()? = unit(0);
    let mut pin = 0;
    for n in 1..m {
        if is_pinned(n - 1) {
            *flow.get_mut(n)? = unit(2 + backward_runs + pin);
            pin += 1;
        }
    }
    let step = |k: usize, y: &Linear| -> Option<Linear> {
        let mut s = plus(&unit(1), -c, y);
        let a_k = *a.get(k)?;
        s.iter_mut().for_each(|v| *v /= a_k);
        Some(s)
    };
    for &(s, e, _) in runs.iter().filter(|r| !r.2) {
        for k in s..=e {
            let mut y = zero.clone();
            *y.first_mut()? = *tail_given.get(k)?;
            *flow.get_mut(k + 1)? = plus(flow.get(k)?, 1.0, &step(k, &y)?);
        }
    }
    let mut given = vec![zero.clone(); m];
    for (i, run) in runs.iter().enumerate().rev().filter(|(_, r)| r.2) {
        let &(s, e, _) = run;
        if unknown_end(run) {
            *flow.get_mut(e + 1)? = unit(2 + runs.iter().take(i).filter(|r| unknown_end(r)).count());
        }
        for k in (s..=e).rev() {
            // What mapper k receives: the flows of the front windows it tops
            // (intervals k + 1 on, 0-based k), all known by now.
            for (n, _) in front_top.iter().enumerate().skip(k).filter(|&(_, &t)| t == k) {
                *given.get_mut(k)? = plus(given.get(k)?, 1.0, flow.get(n + 1)?);
            }
            let mut y = given.get(k)?.clone();
            *y.first_mut()? += *tail_given.get(k)?;
            let before = plus(flow.get(k + 1)?, -1.0, &step(k, &y)?);
            if k == s {
                equations.push(plus(&before, -1.0, flow.get(k)?)); // meets the flow before the run
            } else {
                *flow.get_mut(k)? = before;
            }
        }
    }
    // Demands D_k = (w − A_k (F_k − F_{k−1}))/c, F_m = 1; each level's
    // windows meet its mappers' demands, and all supplies all demands. An
    // idle last mapper demands nothing (it holds with slack).
    let f_at = |n: usize| -> Linear { flow.get(n).cloned().unwrap_or_else(|| zero.clone()) };
    let demand_of = |k: usize| -> Linear {
        let rise = plus(&f_at(k + 1), -1.0, &f_at(k));
        let ak = a.get(k).copied().unwrap_or(0.0);
        plus(&unit(1), -ak, &rise).iter().map(|v| v / c).collect()
    };
    for (n, &top) in front_top.iter().enumerate() {
        if let Some(&j) = level_of.get(top).filter(|&&j| j != usize::MAX) {
            let slot = level_supply.get_mut(j)?;
            *slot = plus(slot, 1.0, flow.get(n + 1)?);
        }
    }
    let mut level_need: Vec<Linear> = vec![zero.clone(); levels];
    for k in (0..m).filter(|&k| is_capped(k)) {
        let slot = level_need.get_mut(*level_of.get(k)?)?;
        *slot = plus(slot, 1.0, &demand_of(k));
    }
    for (supply, need) in level_supply.iter().zip(&level_need).take(pins) {
        equations.push(plus(supply, -1.0, need));
    }
    // An idle last mapper takes what the tail's windows it tops give it
    // (its constraint holds with slack: checked below). With a free last
    // part there is no top level, and the levels' balances imply the whole.
    let last_given = *tail_given.last()?;
    let idle = matches!(last, Last::Idle | Last::Under(_));
    let counted = if idle { m - 1 } else { m };
    let mut need = zero.clone();
    *need.first_mut()? = if idle { last_given } else { 0.0 };
    for k in 0..counted {
        need = plus(&need, 1.0, &demand_of(k));
    }
    let weights: f64 = tail.iter().map(|(_, weight)| weight).sum();
    let mut supply = flow.iter().skip(1).take(m - 1).fold(zero.clone(), |acc, f| plus(&acc, 1.0, f));
    *supply.first_mut()? += weights;
    if !free {
        equations.push(plus(&supply, -1.0, &need));
    }
    let unknowns = solve_square(&equations)?;
    let w = *unknowns.first()?;
    let flows: Vec<f64> = flow.iter().skip(1).take(m - 1).map(|f| value_at(f, &unknowns)).collect();
    let total: f64 = flows.iter().sum::<f64>() + weights;
    let tol = CERTIFICATE_TOL * total.max(1.0);
    if !w.is_finite() || flows.iter().any(|&f| f.is_nan() || f < -tol) {
        return None;
    }
    let demands: Vec<f64> = (0..m).map(|k| value_at(&demand_of(k), &unknowns)).collect();
    if idle && *demands.last()? > last_given + tol {
        return None;
    }
    let demand = |j: usize| if j == m && idle { last_given } else { demands.get(j - 1).copied().unwrap_or(0.0) };
    let ranges = |w: &Window| -> Vec<(usize, usize)> { w.iter().copied().filter(|r| r.0 > 0).collect() };
    let mut supplies: Vec<(Vec<(usize, usize)>, f64)> = Vec::with_capacity(tail.len() + flows.len());
    supplies.extend(tail.iter().map(|(w, weight)| (ranges(w), *weight)));
    supplies.extend(front.iter().zip(&flows).filter(|(_, &f)| f > 0.0).map(|(w, &f)| (ranges(w), f)));
    if !split_feasible(m, &supplies, &demand) {
        return None;
    }
    Some(sc.s * (m as f64 - flows.iter().sum::<f64>()) + w)
}

/// Most pins the staircase's search adds (each a lower level) below a top
/// level, and below none (a free last part: one where it was found).
const MOST_PINS: usize = 12;
const MOST_FREE_PINS: usize = 1;

/// Most changes the staircase makes to a shape from a count close by
/// (a pin moves, or is added, or the unknown level ends elsewhere: one or
/// two from one count of a list to the next).
const NEAR_CHANGES: usize = 12;

/// Largest m·ℓ for which the chain with capped first mappers is tried:
/// where it fails its search takes some 25 ms at 500 · 100, 135 ms at
/// 500 · 300 and 650 ms at 2000 · 100 natively, before the general LP.
const MOST_FREE_READS: usize = 100_000;

/// One shape's parts at its level, checked against every interval: the
/// parts, which are capped and pinned, the largest senders, the boundaries.
struct Shape {
    x: Vec<f64>,
    capped: Vec<bool>,
    by_pin: Vec<Option<usize>>,
    largest: Vec<usize>,
    t: Vec<f64>,
}

impl Shape {
    fn at(p: &Shuffle, sc: &Scaled, last: Last, pinned: &[bool], warm: &mut Warm) -> Option<Shape> {
        let iv = p.intervals;
        let (x, capped, by_pin) = level_parts(&iv, sc, last, pinned, warm)?;
        let largest = iv.largest_senders(&x);
        let t = p.boundaries(sc, &x, &largest);
        intervals_hold(sc, &x, &t, &largest)?;
        Some(Shape { x, capped, by_pin, largest, t })
    }

    /// The pins that act: each caps itself at its level.
    fn pins(&self) -> Vec<bool> {
        self.by_pin.iter().enumerate().map(|(k, &pin)| pin == Some(k)).collect()
    }

    /// The marks that act: the pins, and the mappers below a dip where it
    /// ends.
    fn marks(&self) -> Vec<bool> {
        self.by_pin
            .iter()
            .zip(&self.capped)
            .enumerate()
            .map(|(k, (&pin, &capped))| pin == Some(k) || pin.is_some() && !capped)
            .collect()
    }

    fn length(&self) -> f64 {
        self.t.last().copied().unwrap_or(f64::INFINITY)
    }

    /// The shape as a solution where the dual of its shape proves it.
    fn proved(self, p: &Shuffle, sc: &Scaled, windows: &Windows, last: Last) -> Result<Solution, Shape> {
        // The dual reads every window's members (at most ℓ each).
        charge((windows.0.len() + windows.1.len()) * p.intervals.width());
        let length = self.length();
        let pinned = indices(&self.pins());
        let proved = dual_value(sc, windows, &self.x, (&self.capped, &self.pins(), &self.by_pin), last)
            .is_some_and(|bound| (length - bound).abs() <= GAP_RTOL * length.abs());
        if !proved {
            return Err(self);
        }
        let capped = self.capped.iter().filter(|&&c| c).count();
        let dips = pinned.iter().filter(|&&k| k >= dips_from(&p.intervals)).count();
        let method = match (last, pinned.len()) {
            (Last::Free, levels) => Method::ChainCappedFirst { capped, levels },
            (_, 0) => Method::CappedLevel { capped },
            (_, pins) => Method::CappedLevels { capped, levels: pins + 1, dips },
        };
        Ok(p.unscale(sc, self.x, self.t, self.largest, method))
    }
}

/// The shuffle with its parts capped at one level, proved optimal by the
/// dual solution of that shape; `None` where the shape is not the optimum.
pub fn capped_level(p: &Shuffle) -> Option<Solution> {
    one_level(p).and_then(Result::ok).map(|(solution, _)| solution)
}

/// [`capped_level`], or where one level is not the optimum, levels rising
/// along the first mappers ([`staircase`]) from the shorter of its shapes.
pub fn capped_levels(p: &Shuffle) -> Option<Solution> {
    levels_found(p).map(|(solution, _)| solution)
}

/// The shape of parts a solve proved: what the last mapper does and which
/// mappers are pins.
type Found = (Last, Vec<usize>);

/// The shape [`capped_levels_near`] proved last, which it tries first at
/// the next shuffle: for a list's counts (its first m' mappers) the pins,
/// among the first ℓ mappers, stay where they were from one count to the
/// next, and one level's search at them replaces a search over pins.
#[derive(Debug, Clone, Default)]
pub struct LevelsNear {
    found: Option<Found>,
    /// Where the level's search for that shape ended: the next count's
    /// level is close by (a count's parts change by about 1/m from the
    /// count before's), so its search starts there, a few sums where
    /// bracketing the level from 1/m took some twenty.
    warm: Warm,
}

impl LevelsNear {
    /// Reads the shape of parts capped at levels off a schedule another
    /// method proved (the general LP's), for the next shuffle to try first:
    /// in a list's search for its best count, one general LP then proves
    /// the counts around it at its pins, a level's search each. A shape
    /// misread is only a shape tried in vain: [`capped_levels_near`] proves
    /// whatever it keeps.
    pub fn learn(&mut self, p: &Shuffle, solved: &Solution) {
        if let Some(found) = shape_of(p, solved) {
            self.found = Some(found);
            self.warm = Warm::default();
        }
    }
}

/// How far a part may be from a level (relative to the largest part) and
/// still be read as at it, and how long an interval must be past its
/// largest send (relative to the schedule) to be read as slack: the
/// general LP's schedules are exact to about 10⁻⁹.
const READ_RTOL: f64 = 1e-6;

/// The capped levels' shape of a schedule: what its last mapper does and
/// its pins, each the first mapper after a lower level's capped ones
/// (those whose intervals are slack) whose interval is tight at the
/// level's part; a level that a higher part follows before any pin is the
/// unknown one ([`Last::Under`], at most one). `None` where no interval
/// is slack, or the shape is none of these.
fn shape_of(p: &Shuffle, solved: &Solution) -> Option<Found> {
    let m = p.intervals.m();
    let x = &solved.alpha;
    let top = x.iter().copied().fold(0.0, f64::max);
    let scale = solved.makespan().abs().max(p.s);
    if top.is_nan() || top <= 0.0 || x.len() != m {
        return None;
    }
    let at = |a: f64, b: f64| (a - b).abs() <= READ_RTOL * top;
    let mut pins = Vec::new();
    let (mut level, mut any, mut under, mut capped) = (None, false, None, 0);
    for k in 0..m.saturating_sub(1) {
        let send = p.c * x.get(solved.largest.get(k)?.checked_sub(1)?)?;
        let slack = solved.t.get(k + 1)? - solved.t.get(k)? - send > READ_RTOL * scale;
        let part = *x.get(k)?;
        // A part above a level that had no pin: that level is the unknown
        // one, ending at its last capped mapper, and this mapper is capped
        // at a higher level (its interval slack) or ends one (tight: a pin).
        let above = level.is_some_and(|v| part > v && !at(part, v));
        if above {
            if under.is_some() {
                return None;
            }
            under = Some(capped);
        }
        if slack {
            (level, any, capped) = (Some(part), true, k);
        } else if above || level.is_some_and(|v| at(part, v) && (!at(v, top) || under.is_some())) {
            pins.push(k);
            level = None;
        }
    }
    let end = *x.last()?;
    let last = match under {
        Some(d) if level.is_none() && end <= READ_RTOL * top => Last::Under(d),
        Some(_) => return None,
        None if end <= READ_RTOL * top => Last::Idle,
        None if at(end, top) => Last::Capped,
        None => Last::Free,
    };
    any.then_some((last, pins))
}

/// [`capped_levels`], trying first the shape `near` holds (the last one
/// proved or read): the same shuffle where that shape is proved optimal
/// again, or else where a few changes to it are ([`staircase`]: from one
/// count of a list to the next a pin moves, or one is added, or the
/// unknown level ends elsewhere).
pub fn capped_levels_near(p: &Shuffle, near: &mut LevelsNear) -> Option<Solution> {
    if let Some((last, pins)) = near.found.clone() {
        let (sc, windows) = (p.scaled(), windows(&p.intervals));
        match shape_at_pins(p, &sc, &windows, last, &pins, &mut near.warm) {
            Some(Ok(solution)) => return Some(solution),
            Some(Err(started)) => {
                if let Some((solution, found, warm)) = staircase(p, &sc, &windows, last, started, Search::Near) {
                    (near.found, near.warm) = (Some(found), warm);
                    return Some(solution);
                }
            }
            None => {}
        }
    }
    let (solution, found) = levels_found(p)?;
    (near.found, near.warm) = (Some(found), Warm::default());
    Some(solution)
}

/// The shape with the last mapper doing `last` and the mappers `pins`
/// pinned: its solution where its dual proves it, or else the shape, its
/// level's search and its pins, for the staircase to go on from. The
/// level's search starts at `warm` and ends there.
fn shape_at_pins(
    p: &Shuffle,
    sc: &Scaled,
    windows: &Windows,
    last: Last,
    pins: &[usize],
    warm: &mut Warm,
) -> Option<Result<Solution, Started>> {
    let m = p.intervals.m();
    let under_fits = match last {
        Last::Under(d) => d + 1 < m,
        _ => true,
    };
    if p.a.len() != m || m < 2 || !under_fits {
        return None;
    }
    let mut pinned = vec![false; m];
    for &k in pins {
        *pinned.get_mut(k).filter(|_| k + 1 < m)? = true;
    }
    let shape = Shape::at(p, sc, last, &pinned, warm)?;
    Some(shape.proved(p, sc, windows, last).map_err(|shape| (shape, warm.clone(), pinned)))
}

/// [`capped_levels`] with the shape it proved.
fn levels_found(p: &Shuffle) -> Option<(Solution, Found)> {
    match one_level(p)? {
        Ok((solution, last)) => Some((solution, (last, Vec::new()))),
        Err((last, shape, warm)) => {
            let (sc, windows) = (p.scaled(), windows(&p.intervals));
            let none = vec![false; p.intervals.m()];
            let iv = &p.intervals;
            let fresh = Search::Fresh { front: iv.width().min(iv.m() - 1) };
            let found = staircase(p, &sc, &windows, last, (shape, warm, none.clone()), fresh)
                .or_else(|| {
                    // Levels dipping at the last mappers, from the one level.
                    let mut warm = Warm::default();
                    let level = Shape::at(p, &sc, last, &none, &mut warm)?;
                    let dips = Search::Dips { from: dips_from(iv) };
                    staircase(p, &sc, &windows, last, (level, warm, none.clone()), dips)
                })
                .or_else(|| {
                    // No top level: the chain to a free last part, its first
                    // mappers capped at the levels of the pins.
                    if iv.m() * iv.width() > MOST_FREE_READS {
                        return None;
                    }
                    let mut warm = Warm::default();
                    let chain = Shape::at(p, &sc, Last::Free, &none, &mut warm)?;
                    staircase(p, &sc, &windows, Last::Free, (chain, warm, none), fresh)
                });
            found.map(|(solution, found, _)| (solution, found))
        }
    }
}

/// Where a staircase starts: a shape, where the search for its level
/// ended, and its pins.
type Started = (Shape, Warm, Vec<bool>);

/// A level's shape not proved optimal: what its last mapper does, the
/// shape, and where the search for its level ended.
type Unproved = (Last, Shape, Warm);

/// One level, the last mapper idle and then capped: the solution and what
/// its last mapper does, or the shorter shape where neither is proved;
/// `None` where neither holds.
fn one_level(p: &Shuffle) -> Option<Result<(Solution, Last), Unproved>> {
    let iv = p.intervals;
    let m = iv.m();
    if p.a.len() != m || m < 2 {
        return None;
    }
    let sc = p.scaled();
    let windows = windows(&iv);
    let none = vec![false; m];
    let mut shorter: Option<Unproved> = None;
    for last in [Last::Idle, Last::Capped] {
        let mut warm = Warm::default();
        let Some(shape) = Shape::at(p, &sc, last, &none, &mut warm) else { continue };
        match shape.proved(p, &sc, &windows, last) {
            Ok(solution) => return Some(Ok((solution, last))),
            Err(shape) if shorter.as_ref().is_none_or(|s| shape.length() < s.1.length()) => {
                shorter = Some((last, shape, warm));
            }
            Err(_) => {}
        }
    }
    shorter.map(Err)
}

/// The sum of the parts at `level` and the shuffle's length with them
/// (unscaled to one), from the windows' largest parts `start`.
fn sum_and_length(
    p: &Shuffle,
    sc: &Scaled,
    level: f64,
    last: Last,
    pinned: &[bool],
    start: &[f64],
) -> Option<(f64, f64)> {
    let (x, ..) = parts_at(&p.intervals, sc, level, last, pinned, &mut start.to_vec())?;
    let largest = p.intervals.largest_senders(&x);
    Some((x.iter().sum(), *p.boundaries(sc, &x, &largest).last()?))
}

/// Pin candidates among the mappers `within`: a mapper below the level
/// with a larger part before it (a pin lowers the parts before it to its
/// own), at most `per_stretch` of them, the largest parts, in each stretch
/// between capped or pinned mappers.
fn candidates(
    (x, capped): (&[f64], &[bool]),
    pinned: &[bool],
    within: std::ops::Range<usize>,
    per_stretch: usize,
) -> Vec<usize> {
    let mut found = Vec::new();
    let mut stretch: Vec<(f64, usize)> = Vec::new();
    let mut before = 0.0f64;
    let mut flush = |stretch: &mut Vec<(f64, usize)>| {
        if stretch.len() > per_stretch {
            stretch.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        found.extend(stretch.drain(..).take(per_stretch).map(|(_, k)| k));
    };
    let end = within.end.min(x.len().saturating_sub(1));
    for (k, (&part, (&capped, &pin))) in x.iter().zip(capped.iter().zip(pinned)).enumerate().take(end) {
        if capped || pin {
            flush(&mut stretch);
        } else if before > part && k >= within.start {
            stretch.push((part, k));
        }
        before = before.max(part);
    }
    flush(&mut stretch);
    found
}

/// Where a pin could close the top level with the last mapper idle: the
/// mappers that level caps, and the pin candidates of its stretches
/// ([`candidates`]), after the last pin in the shape (`last` idle), or
/// after the unknown level's end at its level with the last mapper idle.
fn closing_pins(
    p: &Shuffle,
    sc: &Scaled,
    shape: &Shape,
    pinned: &[bool],
    last: Last,
    level: f64,
    start: &[f64],
) -> Vec<usize> {
    let (idle, after) = match last {
        Last::Under(d) => (parts_at(&p.intervals, sc, level, Last::Idle, pinned, &mut start.to_vec()), d + 1),
        _ => (None, pinned.iter().rposition(|&b| b).map_or(0, |k| k + 1)),
    };
    let (x, capped) = idle.as_ref().map_or((&shape.x, &shape.capped), |(x, capped, ..)| (x, capped));
    let mut closing: Vec<usize> = (after..x.len()).filter(|&k| capped.get(k) == Some(&true)).collect();
    closing.extend(candidates((x, capped), pinned, after..x.len(), PER_STRETCH));
    closing.sort_unstable();
    closing.dedup();
    closing
}

/// Most runs of mappers below a dip that the search holds it through.
const MOST_HELD_RUNS: usize = 6;

/// Most dips the search adds at the last mappers (one where it was found).
const MOST_DIPS: usize = 3;

/// Pin candidates tried in each stretch between capped mappers.
const PER_STRETCH: usize = 2;

/// Pins whose estimates come nearest that are solved in full each round.
const PIN_TRIALS: usize = 3;

/// Most changes that move the unknown level solved in full by a search
/// from a count close by, where the estimates' best do not shorten the
/// shape (each a level's search: some milliseconds at 1500 mappers).
const MOVED_TRIALS: usize = 64;

/// Most changes that move the unknown level estimated in a round: 10 to
/// 232 where they shortened the shape on the uniform seed-3 2000-list
/// (r = 250, ℓ = 100, V = 10¹¹), 8000 to 10 000 at a two-speed list's
/// level capping a hundred mappers, where each is a place to end the
/// level and each has a hundred places for a pin after it.
const MOST_MOVED: usize = 256;

/// One change the staircase's search tries: pins toggled (added or
/// removed; two for a pin moved within its stretch) and what the last
/// mapper does (where the unknown level ends).
#[derive(Debug, Clone, Copy)]
struct Change {
    toggle: [Option<usize>; 2],
    last: Last,
}

/// The changes worth a try from `shape`: a pin added at a candidate
/// ([`candidates`]: every one among the first mappers from one level, the
/// [`PER_STRETCH`] largest of each stretch from a count close by), each pin
/// removed or moved to such a mapper between its neighbours, and an
/// unknown level ended at another of its capped mappers, or at the end.
fn changes(shape: &Shape, pinned: &[bool], last: Last, search: Search) -> Vec<Change> {
    let m = pinned.len();
    let change = |a: usize, b: Option<usize>| Change { toggle: [Some(a), b], last };
    match search {
        Search::Fresh { front } => {
            // Pins added among the first mappers only, every candidate.
            let every = candidates((&shape.x, &shape.capped), pinned, 0..front, usize::MAX);
            return every.into_iter().map(|k| change(k, None)).collect();
        }
        Search::Dips { from } => {
            // A dip at every candidate among the last mappers, ending at
            // the first mapper below it, or held back to a later run of
            // mappers below it (its end marked there).
            let mut tries = Vec::new();
            for k in candidates((&shape.x, &shape.capped), pinned, from..m, usize::MAX) {
                tries.push(change(k, None));
                let part = shape.x.get(k).copied().unwrap_or(0.0);
                let below = |j: usize| shape.x.get(j).is_some_and(|&x| x < part);
                let runs = (from..k).rev().filter(|&j| below(j) && !below(j + 1));
                tries.extend(runs.skip(1).take(MOST_HELD_RUNS).map(|j| change(k, Some(j))));
            }
            return tries;
        }
        Search::Near => {}
    }
    let adds = candidates((&shape.x, &shape.capped), pinned, 0..m, PER_STRETCH);
    let pins = indices(pinned);
    let mut tries: Vec<Change> = adds.iter().map(|&k| change(k, None)).collect();
    tries.extend(pins.iter().map(|&k| change(k, None)));
    for (i, &pin) in pins.iter().enumerate() {
        let lo = i.checked_sub(1).and_then(|j| pins.get(j)).map_or(0, |&k| k + 1);
        let hi = pins.get(i + 1).copied().unwrap_or(m);
        tries.extend(adds.iter().filter(|&&k| (lo..hi).contains(&k)).map(|&k| change(k, Some(pin))));
    }
    let unknown = |d: usize| Change { toggle: [None, None], last: Last::Under(d) };
    match last {
        // The unknown level ended at another of its capped mappers, or the
        // top one unknown again.
        Last::Under(d) => {
            let (lo, hi) = around(&pins, d, m);
            tries.extend((lo..hi).filter(|&k| k != d && shape.capped.get(k) == Some(&true)).map(unknown));
            tries.push(Change { toggle: [None, None], last: Last::Idle });
        }
        // The unknown level ended at a capped mapper: below the last pin
        // (whose level is then the top one) or after it (nothing capped
        // beyond).
        Last::Idle => {
            let capped = (0..m).filter(|&k| shape.capped.get(k) == Some(&true) && pinned.get(k) != Some(&true));
            tries.extend(capped.map(unknown));
        }
        Last::Capped | Last::Free => return tries,
    }
    // A pin's level made the unknown one, ending where the pin was.
    tries.extend(pins.iter().map(|&pin| Change { toggle: [Some(pin), None], last: Last::Under(pin) }));
    tries
}

/// Where `flags` hold, in order: the pins of a mask.
fn indices(flags: &[bool]) -> Vec<usize> {
    flags.iter().enumerate().filter(|&(_, &b)| b).map(|(k, _)| k).collect()
}

/// The stretch of mappers between the pins around `d`: from the one
/// below it (exclusive) to the one above it (or the end).
fn around(pins: &[usize], d: usize, m: usize) -> (usize, usize) {
    let lo = pins.iter().rev().find(|&&k| k < d).map_or(0, |&k| k + 1);
    let hi = pins.iter().find(|&&k| k > d).copied().unwrap_or(m);
    (lo, hi)
}

/// Changes that move the unknown level and a pin at once, where a single
/// step is longer though the two together shorten the shape (from one
/// count of a list to the next, the levels of the uniform seed-3
/// 2000-list with V = 10¹¹ merge and split so, at 7 of the counts 1384 to
/// 1454): `closing` are the mappers where a pin could close the top level
/// ([`closing_pins`]).
fn moved_levels(shape: &Shape, pinned: &[bool], last: Last, closing: &[usize]) -> Vec<Change> {
    let m = pinned.len();
    let adds = candidates((&shape.x, &shape.capped), pinned, 0..m, PER_STRETCH);
    let pins = indices(pinned);
    let capped = |k: &usize| shape.capped.get(*k) == Some(&true);
    let idle = |toggle: [Option<usize>; 2]| Change { toggle, last: Last::Idle };
    let mut tries = Vec::new();
    match last {
        Last::Under(d) => {
            let (lo, hi) = around(&pins, d, m);
            // The top level unknown again, ended by a pin after d.
            let after = closing.iter().copied().filter(|&k| k > d);
            tries.extend(after.clone().map(|k| idle([Some(k), None])));
            // The unknown level moved up past a pin added below it, or
            // split by one.
            for k in adds.iter().chain(closing).copied().filter(|k| (lo..hi).contains(k)) {
                let ends = (lo..hi).filter(capped).filter(|&e| e > k && e > d);
                tries.extend(ends.map(|e| Change { toggle: [Some(k), None], last: Last::Under(e) }));
            }
            // The top level unknown again with the last pin's level merged
            // into it: that pin dropped, the level ended by a pin at d or a
            // candidate near it, or by one further on.
            if let Some(&last_pin) = pins.last().filter(|&&k| k > d) {
                let near_d = std::iter::once(d).chain(adds.iter().copied().filter(|k| (lo..hi).contains(k)));
                tries.extend(near_d.chain(after.filter(|&k| k != last_pin)).map(|k| idle([Some(k), Some(last_pin)])));
            }
        }
        // The top level's lower part unknown, its upper part ended by a pin.
        Last::Idle => {
            let after = pins.last().map_or(0, |&k| k + 1);
            for d in (after..m).filter(capped) {
                let ends = closing.iter().filter(|&&k| k > d);
                tries.extend(ends.map(|&k| Change { toggle: [Some(k), None], last: Last::Under(d) }));
            }
        }
        Last::Capped | Last::Free => return tries,
    }
    // A pin's level made the unknown one, the top level ended by a pin.
    for &pin in &pins {
        tries.extend(closing.iter().map(|&k| Change { toggle: [Some(pin), Some(k)], last: Last::Under(pin) }));
    }
    tries
}

/// How the staircase searches: from one level, adding pins among the
/// first `front` mappers (where the first intervals' windows hold only
/// them), or dips among the last mappers from `from` on (where the last
/// intervals' windows hold only them), or from a shape proved or read at
/// a count close by, changing pins anywhere ([`candidates`]: a list's levels may rise over hundreds
/// of mappers) and where the unknown level ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Search {
    Fresh { front: usize },
    Dips { from: usize },
    Near,
}

/// `pinned` with a change's pins toggled.
fn toggled(pinned: &[bool], change: &Change) -> Option<Vec<bool>> {
    let mut tried = pinned.to_vec();
    for &k in change.toggle.iter().flatten() {
        let slot = tried.get_mut(k)?;
        *slot = !*slot;
    }
    Some(tried)
}

/// Levels rising along the mappers: where the windows of the first ℓ
/// intervals hold only the first mappers (and the tail's wrap onto
/// them), each window's largest part costs its own level, and lower
/// levels there can shorten the shuffle. Each level ends at a pin, a
/// mapper whose interval is tight at the level's part, or is the unknown
/// one ([`Last::Under`]). The shape is changed one step at a time
/// ([`changes`]: pins added, removed or moved, the unknown level's end
/// moved) until the dual of the shape proves it, or no change shortens
/// it: each round estimates every change's length at the level as it
/// stands (one pass over the parts, the sum's change priced at the
/// length's slope along the level), then solves the [`PIN_TRIALS`] best
/// in full and keeps the shortest; from a count close by, where none of
/// them shortens the shape, the changes that move the unknown level
/// ([`moved_levels`]) are solved in full until one does. The solution
/// comes with its shape and where its level's search ended.
fn staircase(
    p: &Shuffle,
    sc: &Scaled,
    windows: &Windows,
    mut last: Last,
    (mut shape, mut warm, mut pinned): Started,
    search: Search,
) -> Option<(Solution, Found, Warm)> {
    let rounds = match (search, last) {
        (Search::Near, _) => NEAR_CHANGES,
        (Search::Dips { .. }, _) => MOST_DIPS,
        (_, Last::Free) => MOST_FREE_PINS,
        _ => MOST_PINS,
    };
    let mut moved_left = MOVED_TRIALS;
    for _ in 0..rounds {
        let length = shape.length();
        let (level, start) = (warm.level, warm.largest.clone());
        let (sum_up, length_up) = sum_and_length(p, sc, level * (1.0 + 1e-7), last, &pinned, &start)?;
        let slope = (length_up - length) / (sum_up - 1.0);
        if !slope.is_finite() {
            return None;
        }
        // Marks that no longer act (a pin's reach above the level after
        // it, a dip's end at no dip) are dropped.
        for (slot, acts) in pinned.iter_mut().zip(shape.marks()) {
            *slot &= acts;
        }
        let estimated = |tries: Vec<Change>| -> Option<Vec<(f64, Change)>> {
            let mut estimates = Vec::with_capacity(tries.len());
            for change in tries {
                let tried = toggled(&pinned, &change)?;
                if let Some((sum, at)) = sum_and_length(p, sc, level, change.last, &tried, &start) {
                    estimates.push((at - slope * (sum - 1.0), change));
                }
            }
            estimates.sort_by(|a, b| a.0.total_cmp(&b.0));
            Some(estimates)
        };
        let estimates = estimated(changes(&shape, &pinned, last, search))?;
        // Dips are tried after the levels rising along the first mappers
        // failed, most often in vain: none is solved in full unless its
        // estimate is shorter.
        if matches!(search, Search::Dips { .. }) && estimates.first().is_none_or(|(at, _)| *at >= length) {
            return None;
        }
        let mut best: Option<(Vec<bool>, Last, Shape, Warm)> = None;
        let solve = |change: &Change, best: &mut Option<(Vec<bool>, Last, Shape, Warm)>| -> Option<()> {
            let mut near = warm.clone();
            let tried = toggled(&pinned, change)?;
            if let Some(next) = Shape::at(p, sc, change.last, &tried, &mut near) {
                let bar = best.as_ref().map_or(length * (1.0 - 1e-13), |b| b.2.length());
                if next.length() < bar {
                    *best = Some((tried, change.last, next, near));
                }
            }
            Some(())
        };
        for (_, change) in estimates.iter().take(PIN_TRIALS) {
            solve(change, &mut best)?;
        }
        // From a count close by, where no change the estimates favour
        // shortens the shape: the changes that move the unknown level,
        // alone or with a pin, each solved in full (the level as it stands
        // prices them poorly: it moves too), the nearest estimates first, until
        // one does.
        if best.is_none() && search == Search::Near {
            let closing = closing_pins(p, sc, &shape, &pinned, last, level, &start);
            let mut moved = moved_levels(&shape, &pinned, last, &closing);
            // Each an estimate's pass: none where they would be many.
            if moved.len() > MOST_MOVED {
                moved.clear();
            }
            let mut moved = estimated(moved)?;
            moved.extend(estimates.iter().skip(PIN_TRIALS).filter(|(_, c)| c.last != last).cloned());
            moved.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (_, change) in moved.iter() {
                if moved_left == 0 || best.is_some() {
                    break;
                }
                moved_left -= 1;
                solve(change, &mut best)?;
            }
        }
        (pinned, last, shape, warm) = best?;
        // The marks that act (a pin that does not caps its mapper as any
        // other, so the shape is the same without it).
        let acting = indices(&shape.marks());
        shape = match shape.proved(p, sc, windows, last) {
            Ok(solution) => return Some((solution, (last, acting), warm)),
            Err(next) => next,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// t_{N+1} of the LP (4)-(7) as written, from the parts alone: every
    /// interval n < m at least its largest send (each mapper i sends to
    /// reducer j in interval itv(i, j)), the later ones as long as theirs.
    fn makespan_of(p: &Shuffle, alpha: &[f64]) -> f64 {
        let (m, r, l) = (alpha.len(), p.intervals.r(), p.intervals.width());
        let itv = |i: usize, j: usize| (j.div_ceil(l) - 1) * m + i + (j - 1) % l;
        let mut need = vec![0.0f64; itv(m, r) + 1];
        for (i, &part) in alpha.iter().enumerate() {
            for j in 1..=r {
                let slot = &mut need[itv(i + 1, j)];
                *slot = slot.max(p.c * part);
            }
        }
        let t: Vec<f64> = (1..=m).map(|i| i as f64 * p.s + p.a[i - 1] * alpha[i - 1]).collect();
        for n in 1..m {
            assert!(t[n] - t[n - 1] >= need[n] - 1e-9 * t[m - 1], "interval {n}: {} < {}", t[n] - t[n - 1], need[n]);
        }
        t[m - 1] + need[m..].iter().sum::<f64>()
    }

    /// `solved` is `reference` to `rtol`, and the length its parts imply
    /// ([`makespan_of`], the LP as written) is the one it reports, to 10⁻⁹.
    fn assert_length(p: &Shuffle, solved: &Solution, reference: f64, rtol: f64) {
        let t = solved.makespan();
        assert!((t / reference - 1.0).abs() < rtol, "{t} vs {reference}");
        let direct = makespan_of(p, &solved.alpha);
        assert!((direct / t - 1.0).abs() < 1e-9, "reported {t} vs implied {direct}");
    }

    /// The shuffle's length with the last mapper doing `last` and the
    /// mappers `marks` marked, whether its dual proves it or not (infinite
    /// where the shape has no parts).
    fn length_at(p: &Shuffle, last: Last, marks: &[usize]) -> f64 {
        let (sc, windows) = (p.scaled(), windows(&p.intervals));
        match shape_at_pins(p, &sc, &windows, last, marks, &mut Warm::default()) {
            Some(Ok(solved)) => solved.makespan(),
            Some(Err((shape, ..))) => sc.seconds(shape.length()),
            None => f64::INFINITY,
        }
    }

    /// `m` rates `rate(u)` of the native tests' stream of seed 3 (a 64-bit
    /// LCG, u in [0, 1)), each plus the default s_map/lu.
    fn seed_3_rates(m: usize, rate: impl Fn(f64) -> f64) -> Vec<f64> {
        let mut seed = 3u64;
        (0..m)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                rate((seed >> 33) as f64 / (1u64 << 31) as f64) + 1e-2 / 16e6
            })
            .collect()
    }

    /// The first k mappers of the uniform random list of seed 3 (the
    /// native tests' `random_rates`: 0.5 to 1.5 × 10⁻⁵ s/B), r = 250,
    /// ℓ = 100, V = 10¹¹, S = 1 s, γC = 10⁻⁷ s/B.
    fn seed_3_prefix(k: usize) -> Shuffle {
        let a = seed_3_rates(k, |u| 1e-5 * (0.5 + u));
        Shuffle { intervals: Intervals::new(k, 250, 100).unwrap(), a, s: 1.0, c: 0.1e-6 / 250.0, v: 1e11 }
    }

    /// HiGHS on the LP as written for [`seed_3_prefix`]`(1414)`
    /// (`benches/mapreduce_highs.py --lists`, 76 s).
    const HIGHS_1414: f64 = 1562.2457389070603;

    /// The first 1414 mappers of the seed-3 2000-list: levels rising over
    /// the first 300 mappers, the one of mappers 117 and 141 ended by no
    /// pin (no mapper's interval is tight at its part) below a level that
    /// mapper 306 pins. The shape with that level the unknown one is the
    /// optimum (HiGHS's to 10⁻¹⁴); every shape of pins alone is longer.
    #[test]
    fn an_unknown_level_below_a_pinned_one_is_the_optimum_highs_finds() {
        let p = seed_3_prefix(1414);
        let shape = (Last::Under(140), vec![7, 53, 84, 305]);
        let (sc, windows) = (p.scaled(), windows(&p.intervals));
        let Some(Ok(solved)) = shape_at_pins(&p, &sc, &windows, shape.0, &shape.1, &mut Warm::default()) else {
            panic!("not proved")
        };
        assert_eq!(solved.method, Method::CappedLevels { capped: 17, levels: 5, dips: 0 });
        assert_length(&p, &solved, HIGHS_1414, 1e-12);
        // Mappers 117 and 141 share the unknown level; 187 … 292 the level
        // mapper 306 pins, its interval tight.
        let x = &solved.alpha;
        assert!((x[116] / x[140] - 1.0).abs() < 1e-12 && x[186] > x[116] * 1.01);
        assert!((x[305] / x[186] - 1.0).abs() < 1e-12);
        // With a pin in its place (the largest part after 141, mapper
        // 163's), or no level of its own, the shuffle is longer.
        for pins in [vec![7, 53, 84, 162], vec![7, 53, 84, 162, 305], vec![7, 53, 84]] {
            let longer = length_at(&p, Last::Idle, &pins);
            assert!(longer > HIGHS_1414 * (1.0 + 1e-7), "{pins:?}: {longer}");
        }
        // Read back off its own schedule, the shape proves the next counts.
        assert_eq!(shape_of(&p, &solved), Some(shape.clone()));
        let mut near = LevelsNear::default();
        near.learn(&p, &solved);
        for k in [1415, 1416] {
            let next = capped_levels_near(&seed_3_prefix(k), &mut near).unwrap();
            assert!(solved.makespan() < next.makespan(), "{k}");
            assert_eq!(near.found, Some(shape.clone()), "{k}");
        }
    }

    /// HiGHS on the LP as written for [`seed_3_prefix`]`(1413)` (76 s).
    const HIGHS_1413: f64 = 1561.2840369308124;

    /// The first 1413 mappers, from the shape that proves the first 1412
    /// (pins at mappers 8, 54, 85 and 141, the top level unknown): at the
    /// optimum the level mapper 141 pinned is the unknown one and mapper
    /// 306 pins the top level. Each change alone makes the shuffle longer
    /// (306 pins nothing while the top level is the unknown one), so no
    /// single step finds it; together they are one of the changes that
    /// move the unknown level, which the search from a count close by
    /// solves in full where no single step shortens the shape.
    #[test]
    fn a_pins_level_made_the_unknown_one_and_a_pin_closing_the_top_one_are_found_at_once() {
        let p = seed_3_prefix(1413);
        let from = (Last::Idle, vec![7, 53, 84, 140]);
        let mut near = LevelsNear { found: Some(from.clone()), warm: Warm::default() };
        let solved = capped_levels_near(&p, &mut near).unwrap();
        assert_eq!(near.found, Some((Last::Under(140), vec![7, 53, 84, 305])));
        assert_length(&p, &solved, HIGHS_1413, 1e-12);
        let steps = [from, (Last::Under(140), vec![7, 53, 84]), (Last::Idle, vec![7, 53, 84, 140, 305])];
        for (last, pins) in steps {
            let length = length_at(&p, last, &pins);
            assert!(length > HIGHS_1413 * (1.0 + 1e-7), "{last:?} {pins:?}: {length}");
        }
    }

    /// The first m mappers of the two-speed list of seed 3 (1 or
    /// 2 × 10⁻⁵ s/B in random order, the native tests' stream), r = 400,
    /// ℓ = 300, V = 10⁹, S = 1 s, γC = 10⁻⁷ s/B: start-ups outlast the
    /// transfers.
    fn two_speeds(m: usize) -> Shuffle {
        let a = seed_3_rates(m, |u| 1e-5 * (1.0 + (2.0 * u).floor()));
        Shuffle { intervals: Intervals::new(m, 400, 300).unwrap(), a, s: 1.0, c: 0.1e-6 / 400.0, v: 1e9 }
    }

    /// The general LP (the interior point of [`super::super::general`],
    /// 13 s natively, proved by its dual bound to 10⁻⁹) for
    /// [`two_speeds`]`(2000)`.
    const GENERAL_TWO_SPEEDS: f64 = 2000.314298568;

    /// One level caps the fast mappers, and at the end a lower one dips
    /// below it: mapper 1993's interval is tight at its part, which caps
    /// mappers 1991 and 1992 (the last windows hold only the last mappers),
    /// and before mapper 1990 (below it) the cap is the top level again.
    /// Found from the one level by a pin among the last mappers, and the
    /// general LP's optimum; one level alone is longer (by 2.5 × 10⁻⁹ relative,
    /// 5 ms, the last mapper idle).
    #[test]
    fn a_level_dipping_below_the_top_one_at_the_last_mappers_is_the_optimum_highs_finds() {
        let p = two_speeds(2000);
        let solved = capped_levels(&p).unwrap();
        assert_eq!(solved.method, Method::CappedLevels { capped: 1032, levels: 2, dips: 1 });
        assert_length(&p, &solved, GENERAL_TWO_SPEEDS, 1e-9);
        let t = solved.makespan();
        let x = &solved.alpha;
        let top = x.iter().copied().fold(0.0, f64::max);
        assert!((x[1990] / x[1992] - 1.0).abs() < 1e-12 && (x[1991] / x[1992] - 1.0).abs() < 1e-12);
        assert!(x[1992] < 0.6 * top && x[1989] < x[1992] && (x[1986] / top - 1.0).abs() < 1e-12);
        for last in [Last::Idle, Last::Capped] {
            let length = length_at(&p, last, &[]);
            assert!(length > t * (1.0 + 2e-9), "{last:?}: {length}");
        }
    }

    /// HiGHS on the LP as written for [`two_speeds`]`(600)` (34 s).
    const HIGHS_TWO_SPEEDS_600: f64 = 600.3774665195518;

    /// The first 600 mappers: mapper 583's level dips below the top one and
    /// holds through runs of mappers below it, capping mappers 575, 578
    /// and 581 back to mapper 574, below it, where it ends. Found from the
    /// one level by a dip with its end marked, and HiGHS's optimum; the dip
    /// ending at the first mapper below it, or at the next run below it,
    /// is longer.
    #[test]
    fn a_dip_held_through_runs_below_it_is_the_optimum_highs_finds() {
        let p = two_speeds(600);
        let solved = capped_levels(&p).unwrap();
        assert_eq!(solved.method, Method::CappedLevels { capped: 290, levels: 2, dips: 1 });
        assert_length(&p, &solved, HIGHS_TWO_SPEEDS_600, 1e-12);
        let t = solved.makespan();
        // 0-based: mapper k + 1 is x[k].
        let x = &solved.alpha;
        let top = x.iter().copied().fold(0.0, f64::max);
        for k in [574, 577, 580] {
            assert!((x[k] / x[582] - 1.0).abs() < 1e-12, "{k}");
        }
        for k in [573, 575, 576, 578, 579, 581] {
            assert!(x[k] < x[582] * (1.0 - 1e-3), "{k}");
        }
        assert!(x[582] < 0.8 * top && (x[568] / top - 1.0).abs() < 1e-12);
        for marks in [vec![582], vec![578, 582]] {
            let length = length_at(&p, Last::Idle, &marks);
            assert!(length > t * (1.0 + 1e-9), "{marks:?}: {length}");
        }
    }
}
