//! The shuffle LP (4)-(7) for any input, by an interior-point method on a
//! compact form of it, and a proof of the answer's optimality by a dual
//! bound.
//!
//! # The compact form
//!
//! After t_m the intervals' lengths are free, so the LP reads: minimise
//! A_m x_m + c Σ_{n ≥ m} max_{k ∈ W_n} x_k (plus mS) over parts x ≥ 0 with
//! Σx = 1, where every interval n < m holds its largest send:
//! A_{n+1} x_{n+1} − A_n x_n + S ≥ c max_{k ∈ W_n} x_k. The windows W_n
//! (one range of mappers, or two where reducer groups overlap) repeat:
//! every reducer group between the first and the last sees the same ones,
//! so however many intervals there are, at most about 3m + ℓ windows are
//! distinct, each weighted by how often it occurs. A window's maximum is a
//! variable above at most four entries of chains of running maxima (see
//! [`Compact`]), so the LP has O(m) variables and constraints of two or
//! three terms each, whatever r and N.
//!
//! # The proof
//!
//! Any dual solution bounds the optimum from below over a box that holds an
//! optimum: with y the duals of its constraints Gz ≥ h (Σx = 1 as an
//! equation) and reduced costs ρ = q − Gᵀy, every feasible z in
//! 0 ≤ z ≤ u has qᵀz ≥ hᵀy + Σ_j min(0, ρ_j u_j), whatever y the solver
//! returns (Neumaier and Shcherbina's safe bound). The parts x give the
//! upper bound T: the schedule they imply is checked against every
//! interval as the LP states it. The box comes from T: the mappers'
//! finishing times only grow along the list, so a schedule no longer than
//! T has jS + A_j x_j ≤ T, and x_j ≤ u_j = min(1, (T − jS)/A_j); every
//! other variable bounds a maximum of parts from above and may be lowered
//! onto it without losing feasibility or cost, so an optimum has it at
//! most max_j u_j. (With u = 1, the bound of a unit load, thousands of
//! tiny negative ρ_j left gaps of 1.1 to 2.0 × 10⁻⁹ on one in three
//! random per-mapper lists of 1452 and 1891 mappers.) The answer is
//! accepted when the two meet to [`GAP_RTOL`].
//!
//! # Relaxations
//!
//! The chains of running maxima make the compact form's factorisation
//! grow as about m·ℓ² (6.0 × 10⁸ for 3000 mappers and ℓ = 300), though at
//! the optimum a window's largest part is one mapper's or a few tied ones'.
//! So a large LP is first solved with each window's maximum bounding a few
//! candidates only ([`relaxed`]), adding the mappers that exceeded it
//! round by round; dropping constraints only lowers the optimum, so each
//! relaxation's dual bound bounds the LP and the proof above holds as it
//! is (its box bounds each candidates' maximum by max_j u_j as well).

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultInfo, DefaultSettingsBuilder, DefaultSolver, IPSolver, NonnegativeConeT, SolverStatus, SupportedConeT,
    ZeroConeT,
};

use super::schedule::{Flows, Intervals, Method, Scaled, Shuffle, Solution, SolveError, Verdict};

thread_local! {
    /// The cost of the interior-point iterations this thread has made
    /// ([`spent`]).
    static SPENT: Cell<f64> = const { Cell::new(0.0) };
}

/// The cost of the interior-point iterations this thread's general LPs
/// have made so far, each counted by [`iteration_cost`] (about 8 × 10⁻¹⁰ s
/// a unit natively): relaxations' iterations at their own factorisation's
/// cost, far below the compact form's. A search that budgets its solves
/// reads it before and after one.
pub fn spent() -> f64 {
    SPENT.with(Cell::get)
}

/// The relative gap between the schedule's length and the dual bound at
/// which the schedule is accepted as optimal.
pub const GAP_RTOL: f64 = 1e-9;

/// A window: one or two ranges of mappers (1-based, inclusive); an empty
/// second range is (0, 0).
pub(super) type Window = [(usize, usize); 2];

/// The compact LP under construction: constraints Σ g_j z_j ≥ h (the first
/// one an equation), in triplets, and the variables that bound the maxima
/// of ranges of parts.
///
/// A range's maximum is read from chains of running maxima, so that the
/// LP stays sparse to factorise: a prefix [1, p] from the chain of
/// prefix maxima, a suffix [p, m] from that of suffix maxima, and any
/// other range of width w from blocks of w mappers (1 … w, w + 1 … 2w, …)
/// with their running maxima from each end (van Herk and Gil and Werman's
/// sliding-window maximum): the range is the end of one block and the start
/// of the next, so its maximum is that of two chain entries.
struct Compact {
    m: usize,
    rows: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f64>,
    rhs: Vec<f64>,
    vars: usize,
    /// prefix[p − 1] bounds max x_1 … x_p; suffix[p − 1] max x_p … x_m.
    prefix: Vec<usize>,
    suffix: Vec<usize>,
    /// For each block width: the running maxima from each block's start
    /// and from its end, by mapper.
    blocks: HashMap<usize, (Vec<usize>, Vec<usize>)>,
    /// The row of each interval n < m (its largest send), in order.
    chain: Vec<usize>,
}

const NONE: usize = usize::MAX;

impl Compact {
    fn new(m: usize) -> Compact {
        Compact {
            m,
            rows: Vec::new(),
            cols: Vec::new(),
            vals: Vec::new(),
            rhs: Vec::new(),
            vars: m,
            prefix: vec![0],
            suffix: vec![m - 1],
            blocks: HashMap::new(),
            chain: Vec::new(),
        }
    }

    fn var(&mut self) -> usize {
        self.vars += 1;
        self.vars - 1
    }

    /// Σ terms ≥ h.
    fn at_least(&mut self, terms: &[(usize, f64)], h: f64) {
        let row = self.rhs.len();
        for &(j, g) in terms {
            self.rows.push(row);
            self.cols.push(j);
            self.vals.push(g);
        }
        self.rhs.push(h);
    }

    /// A new variable above `a` and `b`.
    fn above(&mut self, a: usize, b: usize) -> usize {
        let v = self.var();
        self.at_least(&[(v, 1.0), (a, -1.0)], 0.0);
        self.at_least(&[(v, 1.0), (b, -1.0)], 0.0);
        v
    }

    /// max x_1 … x_p.
    fn prefix(&mut self, p: usize) -> Option<usize> {
        while self.prefix.len() < p {
            let (last, next) = (*self.prefix.last()?, self.prefix.len());
            let v = self.above(last, next);
            self.prefix.push(v);
        }
        self.prefix.get(p.checked_sub(1)?).copied()
    }

    /// max x_p … x_m (`suffix` is kept from m down).
    fn suffix(&mut self, p: usize) -> Option<usize> {
        while self.suffix.len() < self.m + 1 - p {
            let (last, next) = (*self.suffix.last()?, self.m.checked_sub(1 + self.suffix.len())?);
            let v = self.above(last, next);
            self.suffix.push(v);
        }
        self.suffix.get(self.m.checked_sub(p)?).copied()
    }

    /// The running maxima of blocks of `width` mappers: from the start of
    /// the block to p, and from p to its end.
    fn block(&mut self, width: usize, p: usize) -> Option<(usize, usize)> {
        let m = self.m;
        let start = (p - 1) / width * width + 1;
        let end = (start + width - 1).min(m);
        let mut chains = self.blocks.remove(&width).unwrap_or_else(|| (vec![NONE; m], vec![NONE; m]));
        if *chains.0.get(p - 1)? == NONE {
            // Mapper k is variable k − 1.
            *chains.0.get_mut(start - 1)? = start - 1;
            for k in start + 1..=end {
                let v = self.above(*chains.0.get(k - 2)?, k - 1);
                *chains.0.get_mut(k - 1)? = v;
            }
            *chains.1.get_mut(end - 1)? = end - 1;
            for k in (start..end).rev() {
                let v = self.above(*chains.1.get(k)?, k - 1);
                *chains.1.get_mut(k - 1)? = v;
            }
        }
        let found = (*chains.0.get(p - 1)?, *chains.1.get(p - 1)?);
        self.blocks.insert(width, chains);
        Some(found)
    }

    /// The variables whose maximum is max x_lo … x_hi (one or two).
    fn cover(&mut self, lo: usize, hi: usize) -> Option<[usize; 2]> {
        if lo == 1 {
            let v = self.prefix(hi)?;
            return Some([v, v]);
        }
        if hi == self.m {
            let v = self.suffix(lo)?;
            return Some([v, v]);
        }
        let width = hi.checked_sub(lo)? + 1;
        let (from_start, _) = self.block(width, hi)?;
        if (lo - 1) % width == 0 {
            return Some([from_start, from_start]); // exactly one block
        }
        let (_, to_end) = self.block(width, lo)?;
        Some([to_end, from_start])
    }

    /// A variable at least the window's maximum.
    fn window(&mut self, w: &Window) -> Option<usize> {
        let mut parts: Vec<usize> = Vec::with_capacity(4);
        for &(lo, hi) in w.iter().filter(|r| r.0 > 0) {
            for v in self.cover(lo, hi)? {
                if !parts.contains(&v) {
                    parts.push(v);
                }
            }
        }
        Some(match parts[..] {
            [only] => only,
            [a, b] => self.above(a, b),
            _ => {
                let v = self.var();
                for part in parts {
                    self.at_least(&[(v, 1.0), (part, -1.0)], 0.0);
                }
                v
            }
        })
    }
}

/// The windows of intervals n ≥ m with how often each occurs, and the
/// window of every interval n < m.
pub(super) type Windows = (Vec<(Window, f64)>, Vec<Window>);

/// The first mapper of a window (its largest part when parts fall).
pub(super) fn oldest(w: &Window) -> usize {
    w.iter().filter(|r| r.0 > 0).map(|r| r.0).min().unwrap_or(1)
}

/// The shuffle's [`Windows`].
pub(super) fn windows(iv: &Intervals) -> Windows {
    let m = iv.m();
    let n_total = iv.count();
    let groups = iv.groups();
    let window_of = |n: usize| -> Window {
        let mut w = [(0, 0); 2];
        for (slot, s) in w.iter_mut().zip(iv.senders(n)) {
            *slot = (s.lo, s.hi);
        }
        w
    };
    let front: Vec<Window> = (1..m).map(window_of).collect();
    // Intervals whose newest group is g: n in (g m, (g + 1) m], the last
    // group's up to N. Groups 1 … G − 2 see the same windows (both their
    // own and the previous group full): one of them stands for all.
    let mut index: HashMap<Window, usize, BuildHasherDefault<WindowHasher>> =
        HashMap::with_capacity_and_hasher(3 * m + iv.width(), Default::default());
    let mut tail: Vec<(Window, f64)> = Vec::with_capacity(3 * m + iv.width());
    let representatives: Vec<(usize, f64)> = match groups {
        1 => vec![(0, 1.0)],
        2 => vec![(0, 1.0), (1, 1.0)],
        _ => vec![(0, 1.0), (1, (groups - 2) as f64), (groups - 1, 1.0)],
    };
    for (g, weight) in representatives {
        let first = (g * m + 1).max(m);
        let last = if g + 1 == groups { n_total } else { (g + 1) * m };
        for n in first..=last {
            let w = window_of(n);
            if let Some(slot) = index.get(&w).and_then(|&k| tail.get_mut(k)) {
                slot.1 += weight;
            } else {
                index.insert(w, tail.len());
                tail.push((w, weight));
            }
        }
    }
    (tail, front)
}

/// A multiply-rotate hash of a window's four numbers (Firefox's FxHash):
/// the index of windows is built for every shuffle a descent or a plateau
/// method tries, and SipHash took most of it.
#[derive(Default)]
struct WindowHasher(u64);

impl std::hash::Hasher for WindowHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The compact LP solved: the parts (scaled), the dual's value hᵀy + mS
/// and reduced costs ρ (for the bound on t_{N+1}, scaled, once a box is
/// known), the duals of Σx = 1 and of the intervals' rows (for the
/// list's other counts: [`transferred_bound`]) and the interior-point
/// iterations.
struct Solved {
    x: Vec<f64>,
    dual_value: f64,
    reduced: Vec<f64>,
    load: f64,
    flows: Vec<f64>,
    iterations: usize,
}

impl Solved {
    /// The dual bound on t_{N+1} (scaled) over the box that a schedule of
    /// length `length` puts an optimum in (see the module's proof).
    fn bound(&self, sc: &Scaled, length: f64) -> f64 {
        box_bound(sc, self.x.len(), self.dual_value, &self.reduced, length)
    }

    /// Its duals of Σx = 1 (in seconds) and of the intervals' rows.
    fn flows_in_seconds(&self, sc: &Scaled) -> Flows {
        Flows { load: sc.seconds(self.load), through: self.flows.clone() }
    }
}

/// The bound hᵀy + mS + Σ_j min(0, ρ_j u_j) on t_{N+1} (scaled) of duals
/// whose value is `dual_value` and reduced costs `reduced`, over the box
/// that a schedule of length `length` puts an optimum of the `m` mappers'
/// parts in (see the module's proof).
fn box_bound(sc: &Scaled, m: usize, dual_value: f64, reduced: &[f64], length: f64) -> f64 {
    let part_bound = |j: usize| {
        let a = sc.a.get(j).copied().unwrap_or(0.0);
        let u = (length - (j + 1) as f64 * sc.s) / a;
        if u.is_nan() {
            1.0
        } else {
            u.clamp(0.0, 1.0)
        }
    };
    let largest = (0..m).map(part_bound).fold(0.0, f64::max);
    let below: f64 =
        reduced.iter().enumerate().map(|(j, &r)| r.min(0.0) * if j < m { part_bound(j) } else { largest }).sum();
    dual_value + below
}

/// The work of one factorisation of the interior-point method's system
/// [0 Gᵀ; G −I] for constraints G (rows × vars, in triplets): the
/// multiply-subtracts of its LDLᵀ factorisation in the fill-reducing order
/// (approximate minimum degree) the solver uses, Σ_k c_k(c_k + 1)/2 over
/// the columns of L with c_k entries below the diagonal (the sum the
/// ordering reports, but that sum is a `usize`: on wasm32 it wrapped past
/// 4.3 × 10⁹, so a factorisation of 4.2 × 10⁹ natively refused was
/// attempted in the page for four minutes). Counted here in f64 from the
/// order, by the elimination tree and the row subtrees of L (Liu), and
/// given up once past `limit`: `Err(work so far)`. Deterministic, a
/// property of the LP's structure, found without forming the factor.
fn factor_work(
    rows: &[usize],
    cols: &[usize],
    vars: usize,
    constraints: usize,
    limit: f64,
) -> Option<Result<f64, f64>> {
    // Upper triangle by columns: the variables' diagonal, then for each
    // constraint i its column vars + i with G's entries of row i and the diagonal.
    let n = vars + constraints;
    let mut entries: Vec<(usize, usize)> = (0..vars).map(|j| (j, j)).collect();
    entries.extend(rows.iter().zip(cols).map(|(&i, &j)| (j, vars + i)));
    entries.extend((vars..n).map(|k| (k, k)));
    entries.sort_unstable_by_key(by_column);
    entries.dedup();
    let mut colptr = vec![0usize; n + 1];
    for &(_, c) in &entries {
        *colptr.get_mut(c + 1)? += 1;
    }
    for k in 0..n {
        *colptr.get_mut(k + 1)? += *colptr.get(k)?;
    }
    let rowval: Vec<usize> = entries.iter().map(|&(r, _)| r).collect();
    let (_, iperm, _) = amd::order(n, &colptr, &rowval, &amd::Control::default()).ok()?;
    // The lower triangle of the permuted matrix, (column j, row i > j),
    // sorted by row as the upper triangle was by column: row i's entries
    // are those between starts[i] and starts[i + 1].
    let mut lower: Vec<(usize, usize)> = Vec::with_capacity(entries.len());
    for &(r, c) in entries.iter().filter(|(r, c)| r != c) {
        let (a, b) = (*iperm.get(r)?, *iperm.get(c)?);
        lower.push((a.min(b), a.max(b)));
    }
    lower.sort_unstable_by_key(by_column);
    let starts: Vec<usize> = (0..=n).map(|i| lower.partition_point(|&(_, row)| row < i)).collect();
    let row = |i: usize| -> Option<&[(usize, usize)]> { lower.get(*starts.get(i)?..*starts.get(i + 1)?) };
    // The elimination tree, with path compression through `ancestor`.
    let (mut parent, mut ancestor) = (vec![NONE; n], vec![NONE; n]);
    for i in 0..n {
        for &(j, _) in row(i)? {
            let mut k = j;
            while *ancestor.get(k)? != NONE && *ancestor.get(k)? != i {
                let up = *ancestor.get(k)?;
                *ancestor.get_mut(k)? = i;
                k = up;
            }
            if *ancestor.get(k)? == NONE {
                *ancestor.get_mut(k)? = i;
                *parent.get_mut(k)? = i;
            }
        }
    }
    // Row i of L holds every column on the tree paths from its entries up
    // to i: each adds one below the diagonal of that column, and c(c + 1)/2
    // grows by the column's new count.
    let (mut count, mut mark) = (vec![0.0f64; n], vec![NONE; n]);
    let mut work = 0.0;
    for i in 0..n {
        *mark.get_mut(i)? = i;
        for &(j, _) in row(i)? {
            let mut k = j;
            while *mark.get(k)? != i {
                *mark.get_mut(k)? = i;
                let c = count.get_mut(k)?;
                *c += 1.0;
                work += *c;
                k = *parent.get(k)?;
            }
        }
        if work > limit {
            return Some(Err(work));
        }
    }
    Some(Ok(work))
}

/// A (row, column) entry's sort key: by column, then row.
fn by_column(&(r, c): &(usize, usize)) -> (usize, usize) {
    (c, r)
}

/// The compact LP for the scaled shuffle `sc` and its costs q, by variable.
fn compact(sc: &Scaled, m: usize, tail: &[(Window, f64)], front: &[Window]) -> Option<(Compact, Vec<f64>)> {
    build(sc, m, tail, front, |lp, _, w| lp.window(w))
}

/// An LP of the compact form's shape: `maximum` gives the variable that
/// bounds window k's largest part (k counts the tail's windows, then the
/// front's).
fn build(
    sc: &Scaled,
    m: usize,
    tail: &[(Window, f64)],
    front: &[Window],
    mut maximum: impl FnMut(&mut Compact, usize, &Window) -> Option<usize>,
) -> Option<(Compact, Vec<f64>)> {
    let mut lp = Compact::new(m);
    // Row 0: Σx = 1 (the only equation).
    let all: Vec<(usize, f64)> = (0..m).map(|k| (k, 1.0)).collect();
    lp.at_least(&all, 1.0);
    for k in 0..m {
        lp.at_least(&[(k, 1.0)], 0.0);
    }
    let mut cost: Vec<(usize, f64)> = vec![(m - 1, *sc.a.last()?)];
    for (k, (w, weight)) in tail.iter().enumerate() {
        let v = maximum(&mut lp, k, w)?;
        cost.push((v, sc.c * weight));
    }
    for (i, w) in front.iter().enumerate() {
        let n = i + 1; // interval n < m
        let v = maximum(&mut lp, tail.len() + i, w)?;
        let mut terms: Vec<(usize, f64)> = vec![(n, *sc.a.get(n)?), (n - 1, -*sc.a.get(n - 1)?)];
        match terms.iter_mut().find(|t| t.0 == v) {
            Some(t) => t.1 -= sc.c,
            None => terms.push((v, -sc.c)),
        }
        lp.chain.push(lp.rhs.len());
        lp.at_least(&terms, -sc.s);
    }
    let mut q = vec![0.0; lp.vars];
    for (v, w) in cost {
        *q.get_mut(v)? += w;
    }
    Some((lp, q))
}

/// The multiply-subtracts one factorisation of the general LP for `p`
/// would take (what [`interior_point`]'s `max_work` is compared with),
/// without solving it: tens of milliseconds for thousands of mappers.
pub fn factorisation_work(p: &Shuffle) -> Option<f64> {
    let m = p.intervals.m();
    if p.a.len() != m || m == 0 {
        return None;
    }
    let (tail, front) = windows(&p.intervals);
    let (lp, _) = compact(&p.scaled(), m, &tail, &front)?;
    factor_work(&lp.rows, &lp.cols, lp.vars, lp.rhs.len(), f64::INFINITY)?.ok()
}

/// `Err(work)` where one factorisation of `lp` would take more than
/// `max_work` multiply-subtracts, `Ok(work)` otherwise.
fn within(lp: &Compact, max_work: f64) -> Option<Result<f64, f64>> {
    // The factor holds at least G's entries, one multiply-subtract each:
    // a bound that refuses the largest without ordering them.
    let entries = lp.rows.len() as f64;
    if entries > max_work {
        return Some(Err(entries));
    }
    factor_work(&lp.rows, &lp.cols, lp.vars, lp.rhs.len(), max_work)
}

/// How closely the interior-point method solves an LP: its tolerance on
/// the gap and the residuals, the static regularisation its
/// factorisations add to the diagonal (Clarabel's default is 10⁻⁸), and
/// the most steps of iterative refinement each solve with a factorisation
/// takes (Clarabel's default is 10).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Precision {
    tolerance: f64,
    regularisation: f64,
    refinement: u32,
}

/// The compact form's answer. The tolerance is the method's own floor:
/// at 10⁻¹² the dual bound fell 1.0 to 3.0 × 10⁻⁹ short of the schedule
/// on 5 of 108 random lists and identical mappers (300 to 3000 mappers,
/// several reducer groups) and they were refused; at 10⁻¹⁴ the two meet
/// to 10⁻¹¹. The regularisation is a thousandth of Clarabel's default:
/// with the default the method can stall with its primal residual at
/// 10⁻¹⁰ (AlmostSolved), and parts that far off cost the schedule 10⁻⁸
/// to 10⁻⁷ of its length (3 more of the 108, and the random list of 10⁴
/// mappers in three reducer groups, r = 300, ℓ = 100, V = 10¹² B: 2.5 ×
/// 10⁻⁸; with this it ends at 10⁻¹³ and is proved to 5 × 10⁻¹²). Where it
/// does not stall it takes as many iterations or fewer: 48 compact forms
/// of 600 to 2000 mappers took 12.8 s with this, 27.6 s with the default
/// first (one in six stalled, then solved again with this).
const FINE: Precision = Precision { tolerance: 1e-14, regularisation: 1e-11, refinement: 10 };

/// Relaxations once near, and the compact form again where [`FINE`]
/// leaves it unproven: Clarabel's default regularisation (the random list
/// of 300 mappers among the 108, r = 300, ℓ = 100, V = 10¹⁴ B, is proved
/// with it and not with [`FINE`]).
const TIGHT: Precision = Precision { tolerance: 1e-14, regularisation: 1e-8, refinement: 10 };

/// Solves `lp` (costs `q`) by the interior-point method to `precision`,
/// reporting its progress where `report`; `None` where the method fails.
/// [`solve_lp`], its iterations added to [`spent`] at `cost` each (where
/// it fails, [`COMPACT_ITERATIONS`] of them).
fn solve_lp_charged(
    sc: &Scaled,
    lp: &Compact,
    q: Vec<f64>,
    precision: Precision,
    report: bool,
    cost: f64,
) -> Option<Solved> {
    let solved = solve_lp(sc, lp, q, precision, report);
    let iterations = solved.as_ref().map_or(COMPACT_ITERATIONS, |s| s.iterations as f64);
    SPENT.with(|s| s.set(s.get() + cost * iterations));
    solved
}

fn solve_lp(sc: &Scaled, lp: &Compact, q: Vec<f64>, precision: Precision, report: bool) -> Option<Solved> {
    let Precision { tolerance, regularisation, refinement } = precision;
    let (m, vars, rows) = (lp.m, lp.vars, lp.rhs.len());
    // Clarabel: A z + s = b, s in the cones; G z ≥ h is −G z + s = −h.
    let neg: Vec<f64> = lp.vals.iter().map(|g| -g).collect();
    let a = CscMatrix::new_from_triplets(rows, vars, lp.rows.clone(), lp.cols.clone(), neg);
    let b: Vec<f64> = lp.rhs.iter().map(|h| -h).collect();
    let cones: [SupportedConeT<f64>; 2] = [ZeroConeT(1), NonnegativeConeT(rows - 1)];
    let settings = DefaultSettingsBuilder::default()
        .verbose(false)
        .tol_gap_abs(tolerance)
        .tol_gap_rel(tolerance)
        .tol_feas(tolerance)
        .static_regularization_constant(regularisation)
        .iterative_refinement_enable(refinement > 0)
        .iterative_refinement_max_iter(refinement)
        .max_iter(200)
        .build()
        .ok()?;
    let zero = CscMatrix::zeros((vars, vars));
    let mut solver = DefaultSolver::new(&zero, &q, &a, &b, &cones, settings).ok()?;
    // Progress for a front end that shows it: digits of the gap and the
    // residuals gained, of those the tolerances ask for.
    if report {
        let digits = -tolerance.log10();
        solver.set_termination_callback(move |info: &DefaultInfo<f64>| {
            let off = info.gap_rel.max(info.res_primal).max(info.res_dual);
            crate::progress::report(-off.log10() / digits);
            false
        });
    }
    solver.solve();
    let sol = &solver.solution;
    if !matches!(sol.status, SolverStatus::Solved | SolverStatus::AlmostSolved | SolverStatus::MaxIterations) {
        return None;
    }
    // The dual bound: y = z (≥ 0 but for the equation), ρ = q − Gᵀy.
    let y: Vec<f64> = sol.z.iter().enumerate().map(|(r, &z)| if r == 0 { z } else { z.max(0.0) }).collect();
    let (dual_value, reduced) = dual_bound(sc, lp, q, &y)?;
    let flows = lp.chain.iter().map(|&r| y.get(r).copied()).collect::<Option<_>>()?;
    let (x, load, iterations) = (sol.x.get(..m)?.to_vec(), *y.first()?, sol.iterations as usize);
    Some(Solved { x, dual_value, reduced, load, flows, iterations })
}

/// The value hᵀy + mS of duals `y` of `lp` (costs `q`; ≥ 0 but for the
/// equation), and the reduced costs ρ = q − Gᵀy.
fn dual_bound(sc: &Scaled, lp: &Compact, mut q: Vec<f64>, y: &[f64]) -> Option<(f64, Vec<f64>)> {
    for ((&r, &j), &g) in lp.rows.iter().zip(&lp.cols).zip(&lp.vals) {
        *q.get_mut(j)? -= g * y.get(r)?;
    }
    let value = lp.rhs.iter().zip(y).map(|(h, y)| h * y).sum::<f64>() + lp.m as f64 * sc.s;
    Some((value, q))
}

/// The parts x (scaled) made feasible: clipped at zero and scaled to sum to
/// one, then, interval by interval before the last mapper, the next
/// mapper's part raised where the interval is short of its largest send
/// (which does not involve that part: a window ends at its interval's
/// mapper), and finally all scaled down to sum to one, which keeps every
/// interval long enough (each has S ≥ 0 to spare at zero load). The
/// interior-point solution falls short by round-off only, so the parts
/// move by about as much. Returns the parts and the schedule they imply.
fn feasible(p: &Shuffle, sc: &Scaled, x: &[f64]) -> Option<Schedule> {
    let iv = p.intervals;
    let (m, width) = (iv.m(), iv.width());
    let mut x: Vec<f64> = x.iter().map(|v| v.max(0.0)).collect();
    let normalise = |x: &mut Vec<f64>| -> Option<()> {
        let total: f64 = x.iter().sum();
        (total > 0.0 && total.is_finite()).then_some(())?;
        x.iter_mut().for_each(|v| *v /= total);
        Some(())
    };
    normalise(&mut x)?;
    // Sliding maximum over the window [n − ℓ + 1, n] of interval n < m.
    let mut window: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for n in 1..m {
        let xn = *x.get(n - 1)?;
        while window.back().is_some_and(|&b| x.get(b - 1).is_some_and(|&v| v <= xn)) {
            window.pop_back();
        }
        window.push_back(n);
        while window.front().is_some_and(|&f| f + width <= n) {
            window.pop_front();
        }
        let top = *x.get(*window.front()? - 1)?;
        let (an, an1) = (*sc.a.get(n - 1)?, *sc.a.get(n)?);
        let slack = sc.s + an1 * x.get(n)? - an * xn - sc.c * top;
        if slack < 0.0 && an1 > 0.0 {
            *x.get_mut(n)? += -slack / an1 * (1.0 + 1e-9);
        }
    }
    normalise(&mut x)?;
    let largest = iv.largest_senders(&x);
    let t = p.boundaries(sc, &x, &largest);
    super::schedule::intervals_hold(sc, &x, &t, &largest)?;
    Some((x, t, largest))
}

/// A schedule (scaled): its parts, boundaries and largest senders.
type Schedule = (Vec<f64>, Vec<f64>, Vec<usize>);

/// The schedule a solved LP's parts imply, made feasible ([`feasible`]),
/// its gap to the dual bound, relative to its length, and that bound in
/// seconds.
fn schedule_and_gap(p: &Shuffle, sc: &Scaled, solved: &Solved) -> Option<(Schedule, f64, f64)> {
    let (x, t, largest) = feasible(p, sc, &solved.x)?;
    let length = *t.last()?;
    let bound = solved.bound(sc, length);
    Some(((x, t, largest), (length - bound) / length.abs(), sc.seconds(bound)))
}

/// Past this work a factorisation of the compact form, the general LP is
/// first solved through relaxations ([`relaxed`]): measured on random
/// per-mapper lists (r = 400, ℓ = 300), 600 mappers (2.1 × 10⁷) took
/// 0.98 s whole and 0.19 s relaxed, 1903 mappers of another list
/// (1.3 × 10⁷) 1.1 and 0.8 s; below about 10⁷ the rounds cost more than
/// they save.
const RELAXED_ABOVE: f64 = 1e7;

/// The cost of one interior-point iteration on `lp`, in multiply-subtracts,
/// from the `work` of its factorisation: that work and about 100 for each
/// variable, constraint and entry of the LP (the solves, their refinement
/// and the steps in the cones). Measured natively, a relaxation's
/// iterations × this × 8.1 × 10⁻¹⁰ s came to 0.84 to 1.33 times (median
/// 1.09) the time it took, over the 18 rounds of a random 1498- and
/// 3000-mapper list (r = 400, ℓ = 300), and 0.84 to 1.35 (median 0.98)
/// over the 294 of two searches over random 2000-lists and of a whole
/// one. With 150, fitted on such lists earlier, it came to 1.2 to 2.0
/// times: a search's general LPs spent little more than half their share
/// of its budget.
fn iteration_cost(lp: &Compact, work: f64) -> f64 {
    work + 100.0 * (lp.vars + lp.rhs.len() + lp.rows.len()) as f64
}

/// The interior-point iterations the compact form is counted to take
/// against the rounds' (the 1498 random mappers above take 32).
const COMPACT_ITERATIONS: f64 = 30.0;

/// The interior-point iterations a first relaxation is counted to take
/// (18 to 25 on a random 2000-list and on its counts near the best): a
/// search's first round started with less left took the page's quick
/// search over a random list of 10⁴ mappers 0.17 s, where it takes 0.06.
const FIRST_ROUND_ITERATIONS: f64 = 20.0;

/// The most relaxations solved before the compact form is taken instead
/// (the lists above took 7 to 15; 10⁴ mappers 15).
const RELAXED_ROUNDS: usize = 40;

/// Most window entries one round reads for its violations (the windows of
/// 10⁴ mappers and ℓ = 600 hold 2.4 × 10⁷).
const RELAXED_READS: f64 = 2e8;

/// A relaxation solved only to learn its violations.
const LOOSE: Precision = Precision { tolerance: 1e-7, regularisation: 1e-8, refinement: 10 };

/// A relaxation solved for a search's question (whether its bound passes
/// the best the search has), and to learn its violations where it does
/// not: the search over the random 2000-list of [`relaxed`] proved its
/// best with it, where with [`LOOSE`] it ran out of its budget.
/// Without iterative refinement: the dual bound is safe however roughly
/// the steps are solved, and the counts the uniform 2000-list of seed 4
/// (r = 250, ℓ = 100, V = 10¹¹ B) rules out this way took 7.8 ms each
/// against 10.7 ms with Clarabel's refinement, their bounds the same to
/// 10⁻⁵.
const ROUGH: Precision = Precision { tolerance: 1e-4, regularisation: 1e-8, refinement: 0 };

/// Rounds solved [`ROUGH`] at most, while their schedules are longer than
/// the search's best (a count likely to be ruled out): a second rough
/// round rules out most counts the first leaves. Of 36 random 2000-lists
/// (uniform, two and three speeds, seeds 1 to 12, r = 250, ℓ = 100,
/// V = 10¹¹ B), 15 got m_best with two, 12 with one.
const ROUGH_ROUNDS: usize = 2;

/// For each window (the tail's, then the front's), the mappers (0-based,
/// ascending) whose parts its maximum bounds in a relaxation of the
/// compact form.
struct Candidates(Vec<Vec<usize>>);

impl Candidates {
    /// Each window's fastest mapper (the smallest A; the first of equals),
    /// which takes the largest part where all finish together.
    fn fastest(sc: &Scaled, windows: &[Window]) -> Option<Candidates> {
        let rate = |k: usize| sc.a.get(k).copied().unwrap_or(f64::INFINITY);
        let fastest = |w: &Window| members(w).min_by(|&i, &j| rate(i).total_cmp(&rate(j))).map(|k| vec![k]);
        windows.iter().map(fastest).collect::<Option<_>>().map(Candidates)
    }

    /// Adds, for each window, the mappers whose parts in `x` exceed its
    /// candidates' largest: the two largest of them and any within 10⁻⁶
    /// of the window's largest part (mappers that tie there). Returns how
    /// many were added.
    fn add_violators(&mut self, windows: &[Window], x: &[f64]) -> usize {
        let part = |k: usize| x.get(k).copied().unwrap_or(0.0);
        let mut added = 0;
        let mut over: Vec<usize> = Vec::new();
        for (w, set) in windows.iter().zip(&mut self.0) {
            let top = members(w).map(part).fold(0.0, f64::max);
            let bound = set.iter().map(|&k| part(k)).fold(0.0, f64::max);
            let tie = top * (1.0 - 1e-6);
            let bar = tie.min(bound * (1.0 + 1e-9) + f64::MIN_POSITIVE);
            over.clear();
            over.extend(members(w).filter(|&k| part(k) >= bar && set.binary_search(&k).is_err()));
            over.sort_unstable_by(|&i, &j| part(j).total_cmp(&part(i)));
            let keep = over.iter().take_while(|&&k| part(k) >= tie).count().max(2);
            over.truncate(keep);
            added += over.len();
            set.extend_from_slice(&over);
            set.sort_unstable();
        }
        added
    }
}

/// The mappers of a window, 0-based.
pub(super) fn members(w: &Window) -> impl Iterator<Item = usize> + '_ {
    w.iter().filter(|r| r.0 > 0).flat_map(|&(lo, hi)| lo - 1..hi)
}

/// The relaxation of the compact form in which each window's maximum
/// bounds its candidates' parts only: one variable for each distinct set
/// (a single candidate is its own maximum).
fn relaxation(
    sc: &Scaled,
    m: usize,
    tail: &[(Window, f64)],
    front: &[Window],
    candidates: &Candidates,
) -> Option<(Compact, Vec<f64>)> {
    let mut shared: HashMap<&[usize], usize, BuildHasherDefault<WindowHasher>> = HashMap::default();
    build(sc, m, tail, front, |lp, k, _| {
        let set = candidates.0.get(k)?;
        if let [only] = set[..] {
            return Some(only);
        }
        if let Some(&v) = shared.get(&set[..]) {
            return Some(v);
        }
        let v = lp.var();
        for &j in set {
            lp.at_least(&[(v, 1.0), (j, -1.0)], 0.0);
        }
        shared.insert(set, v);
        Some(v)
    })
}

/// The general LP through relaxations (constraint generation): each
/// window's maximum bounds only a few candidate mappers, at first the
/// fastest, and every relaxation adds the mappers whose parts exceeded it.
/// A relaxation's dual bound bounds the LP too (its optimum is no longer:
/// it drops constraints), and its parts, made feasible, give a schedule of
/// the LP; once the two meet to [`GAP_RTOL`] the schedule is optimal. A
/// relaxation's factorisation takes a small part of the compact form's
/// (1.4 × 10⁸ against 2.1 × 10⁹ at 10⁴ mappers, ℓ = 300), as each window
/// bounds a few parts instead of reading chains of running maxima.
/// Relaxations are solved loosely while they only show violations, to
/// [`TIGHT`] once near. `None` where the rounds do not prove it, where a
/// relaxation's factorisation would take more than `max_work`, or where
/// the rounds' cost ([`iteration_cost`] times their iterations) would
/// pass `allowance` (the compact form is then taken). Where the optimum
/// ties long plateaus every plateau mapper becomes a candidate of its
/// windows, round after round: as identical mappers' descents do (3000
/// identical mappers with r = 83, ℓ = 54 took 16 rounds and 56 s, the
/// compact form 1.4 s), or a random list whose parts lie within a factor
/// of two of each other (1498 mappers, r = 313, ℓ = 223: 13 rounds and
/// 4.1 s had not proved it, and the compact form takes 5.5 s).
///
/// A search for the best mapper count asks only whether a count's shuffle
/// is longer than the best it has (`past`, in seconds): the rounds stop
/// once a dual bound is past it. Past a random list's best count the first
/// relaxation's bound is mostly enough (the uniform 2000-list of seed 1
/// with r = 250, ℓ = 100, V = 10¹¹ B: of the 71 counts the search leaves
/// to the general LP, 0.04 to 4 % slower than the best, 61 are ruled out
/// after one round and 10 after two, where solving them takes 3 to 7).
fn relaxed(
    p: &Shuffle,
    sc: &Scaled,
    tail: &[(Window, f64)],
    front: &[Window],
    max_work: f64,
    allowance: f64,
    past: f64,
) -> Option<Verdict> {
    let m = p.intervals.m();
    let windows: Vec<Window> = tail.iter().map(|(w, _)| *w).chain(front.iter().copied()).collect();
    let reads: f64 =
        windows.iter().flat_map(|w| w.iter().filter(|r| r.0 > 0)).map(|&(lo, hi)| (hi + 1 - lo) as f64).sum();
    if reads > RELAXED_READS {
        return None;
    }
    let mut candidates = Candidates::fastest(sc, &windows)?;
    // A search's question is answered by a bound that clears its best by
    // 4 × 10⁻⁴ or more (the counts above), so its rounds begin rougher,
    // for at most [`ROUGH_ROUNDS`] and while the count seems slower.
    let first = if past.is_finite() { ROUGH } else { LOOSE };
    let (mut iterations, mut spent, mut first_gap, mut done, mut precision) = (0, 0.0, f64::NAN, 0.0_f64, first);
    let mut last_iterations = 0;
    for round in 1..=RELAXED_ROUNDS {
        let (lp, q) = relaxation(sc, m, tail, front, &candidates)?;
        let cost = iteration_cost(&lp, within(&lp, max_work)?.ok()?);
        // A round takes about as many iterations as the one before (the
        // first some twenty: a search's allowance may be too small for it).
        let expected = if round == 1 { FIRST_ROUND_ITERATIONS } else { last_iterations as f64 };
        if spent + cost * expected > allowance {
            return None;
        }
        let solved = solve_lp_charged(sc, &lp, q, precision, false, cost)?;
        iterations += solved.iterations;
        last_iterations = solved.iterations;
        spent += cost * solved.iterations as f64;
        let ((x, t, largest), gap, bound) = schedule_and_gap(p, sc, &solved)?;
        if gap <= GAP_RTOL {
            let method = Method::InteriorPoint { iterations, rounds: round, again: false };
            return Some(Verdict::Solved(p.unscale(sc, x, t, largest, method)));
        }
        if bound > past {
            // A first round's flows bound the counts around it (each
            // window bounds one part there as in theirs); a later round's
            // lean on their windows' candidates (count 1329 of the list of
            // [`transferred_bound`] ruled out after three rounds: 1521.01
            // s, its flows on count 1328 only 1431.77).
            let flows = (round == 1).then(|| solved.flows_in_seconds(sc));
            return Some(Verdict::Longer { bound, flows });
        }
        let shorter_than_past = t.last().is_some_and(|&length| sc.seconds(length) <= past);
        // Progress: the digits of the gap gained, of those still missing
        // (never back: a round's gap may grow).
        if first_gap.is_nan() {
            first_gap = gap;
        }
        done = done.max((first_gap / gap).ln() / (first_gap / GAP_RTOL).ln());
        crate::progress::report(done);
        let added = candidates.add_violators(&windows, &solved.x);
        if added == 0 || gap < 1e2 * LOOSE.tolerance {
            if precision == TIGHT && added == 0 {
                return None;
            }
            precision = TIGHT;
        } else if precision == ROUGH && (shorter_than_past || round >= ROUGH_ROUNDS) {
            // A count faster than the best is to be solved, not ruled
            // out: rough parts named hundreds of spurious violators round
            // after round (the three-speed 2000-list of seed 1, r = 250,
            // ℓ = 100, V = 10¹¹ B, count 1683: 16 rough rounds and 0.96 s,
            // against 2 and 0.14 s).
            precision = LOOSE;
        }
    }
    None
}

/// The shuffle by the interior-point method on the compact form, its
/// length proved optimal to [`GAP_RTOL`] by the dual bound; refused where
/// one factorisation would take more than `max_work` multiply-subtracts.
/// Where the compact form's factorisation would take more than
/// [`RELAXED_ABOVE`], through relaxations first ([`relaxed`]).
pub fn interior_point(p: &Shuffle, max_work: f64) -> Result<Solution, SolveError> {
    solve_general(p, max_work, true, Question::ANY).and_then(solved)
}

/// What a search for the best mapper count asks of one count's LP.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Question {
    /// Only a shuffle no longer than this (seconds) matters: a dual bound
    /// past it ends the solve.
    pub past: f64,
    /// The most the solve may spend, as [`spent`] counts it.
    pub allowance: f64,
}

impl Question {
    /// A plain solve's: any length, any cost.
    const ANY: Question = Question { past: f64::INFINITY, allowance: f64::INFINITY };
}

/// [`interior_point`] for a search's `question`: `None` where it is not
/// answered within its allowance.
pub fn interior_point_asked(p: &Shuffle, question: Question) -> Option<Verdict> {
    solve_general(p, f64::INFINITY, true, question).ok()
}

/// A lower bound on the shuffle of `p`, a list's first mappers, from
/// `flows`, a dual solution of the LP of another count of its first
/// mappers (or of a relaxation of that LP), valid wherever the shuffle is
/// no longer than `past` (seconds): so a bound past `past` proves the
/// shuffle longer. The same value of the load and the same flows through
/// the intervals before `p`'s last mapper (1 through those before mappers
/// the flows' count lacks, as through every interval after its last
/// mapper), on the relaxation in which each window bounds its fastest
/// mapper's part alone, over the box a shuffle no longer than `past` puts
/// an optimum in: the safe bound of the module's proof, which holds for
/// any duals (the reduced costs that turn negative are charged their
/// box). The two LPs differ only at the last mappers (the windows that
/// hold them, the intervals before them), which costs the bound little a
/// mapper. The uniform 2000-list of seed 4 (r = 250, ℓ = 100, V = 10¹¹ B),
/// whose best shuffle is 1520.77 s: count 1082 ruled out by its first
/// relaxation's bound of 1545.27 s, its flows bound each count from 1081
/// (1545.04 s) down to 942 (1526.06 s) past that best, in 0.6 to 0.7 ms
/// where each count's own first relaxation took 7.7 to 10 ms. The
/// uniform 2000-list of seed 1, best 1535.06 s: count 1447's flows
/// (1581.91 s) bound each count up to 1467 at 1581.63 s or more.
pub fn transferred_bound(p: &Shuffle, flows: &Flows, past: f64) -> Option<f64> {
    let m = p.intervals.m();
    if p.a.len() != m || m == 0 {
        return None;
    }
    let sc = p.scaled();
    let (tail, front) = windows(&p.intervals);
    let all: Vec<Window> = tail.iter().map(|(w, _)| *w).chain(front.iter().copied()).collect();
    let (lp, q) = relaxation(&sc, m, &tail, &front, &Candidates::fastest(&sc, &all)?)?;
    let mut y = vec![0.0; lp.rhs.len()];
    *y.first_mut()? = sc.of_seconds(flows.load);
    // Through the intervals before mappers they did not have: 1, as
    // through every interval after their last mapper.
    for (&row, &flow) in lp.chain.iter().zip(flows.through.iter().chain(std::iter::repeat(&1.0))) {
        *y.get_mut(row)? = flow.max(0.0);
    }
    let (dual_value, reduced) = dual_bound(&sc, &lp, q, &y)?;
    Some(sc.seconds(box_bound(&sc, m, dual_value, &reduced, sc.of_seconds(past))))
}

/// [`interior_point`] on the compact form alone, without relaxations: the
/// same LP by another route (for tests).
pub fn interior_point_whole(p: &Shuffle, max_work: f64) -> Result<Solution, SolveError> {
    solve_general(p, max_work, false, Question::ANY).and_then(solved)
}

/// The solution of a solve that asked about no length.
fn solved(verdict: Verdict) -> Result<Solution, SolveError> {
    match verdict {
        Verdict::Solved(solution) => Ok(solution),
        Verdict::Longer { .. } => Err(SolveError::Unproven { gap: f64::NAN }),
    }
}

fn solve_general(p: &Shuffle, max_work: f64, relaxations: bool, question: Question) -> Result<Verdict, SolveError> {
    let start = spent();
    let iv = p.intervals;
    let m = iv.m();
    let sc = p.scaled();
    let failed = || SolveError::Unproven { gap: f64::NAN };
    if p.a.len() != m || m == 0 {
        return Err(failed());
    }
    let (tail, front) = windows(&iv);
    // A search's question goes to the rounds first, within its allowance:
    // their first bound alone rules out most counts past a random list's
    // best (see [`relaxed`]), where ordering the compact form (to choose
    // between it and the rounds) took a third of each count's time.
    let asked = relaxations && question.past.is_finite();
    if asked {
        if let Some(verdict) = relaxed(p, &sc, &tail, &front, max_work, question.allowance, question.past) {
            return Ok(verdict);
        }
    }
    let (lp, q) = compact(&sc, m, &tail, &front).ok_or_else(failed)?;
    let work = within(&lp, max_work).ok_or_else(failed)?;
    let at_least = work.unwrap_or_else(|past| past);
    if relaxations && !asked && at_least > RELAXED_ABOVE && max_work > RELAXED_ABOVE {
        // Half the compact form's estimated cost, where it is within
        // `max_work` to fall back on: where they fail, the rounds and the
        // compact form take about half as long again as the compact form
        // alone (the 1498 random mappers above: 7.8 s against 5.5 s; the
        // 3000 random mappers' ten rounds take 30 % of it); no limit but
        // `max_work` a round where not.
        let allowance =
            if work.is_ok() { COMPACT_ITERATIONS * iteration_cost(&lp, at_least) / 2.0 } else { f64::INFINITY };
        if let Some(verdict) = relaxed(p, &sc, &tail, &front, max_work, allowance, question.past) {
            return Ok(verdict);
        }
    }
    if let Err(work) = work {
        return Err(SolveError::TooLarge { work, limit: max_work });
    }
    let (cost, left) = (iteration_cost(&lp, at_least), question.allowance - (spent() - start));
    if COMPACT_ITERATIONS * cost > left {
        return Err(SolveError::TooLarge { work: at_least, limit: left / COMPACT_ITERATIONS });
    }
    // Where the first solve leaves it unproven, the compact form is solved
    // once more with [`TIGHT`]; its progress is reported afresh.
    let (mut unproven, mut iterations) = (f64::NAN, 0);
    for precision in [FINE, TIGHT] {
        let Some(solved) = solve_lp_charged(&sc, &lp, q.clone(), precision, true, cost) else { continue };
        iterations += solved.iterations;
        let Some(((x, t, largest), gap, bound)) = schedule_and_gap(p, &sc, &solved) else { continue };
        if gap <= GAP_RTOL {
            let method = Method::InteriorPoint { iterations, rounds: 1, again: precision == TIGHT };
            return Ok(Verdict::Solved(p.unscale(&sc, x, t, largest, method)));
        }
        if bound > question.past {
            return Ok(Verdict::Longer { bound, flows: None });
        }
        unproven = unproven.min(gap);
    }
    Err(SolveError::Unproven { gap: unproven })
}
