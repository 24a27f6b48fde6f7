//! The shuffle where mapping outlasts the start-ups by far but transfers
//! do not: a plateau, a descent as steep as the start-ups allow, and idle
//! last mappers, proved optimal by a dual solution built in O(m).
//!
//! # The schedule
//!
//! The first p mappers take equal parts H (the intervals between them
//! slack: S ≥ cH), mapper p + 1 a part y ≤ H, and from there every
//! interval n before the first idle mapper is as long as its largest send,
//! which for falling parts is its window's oldest mapper lo(n) (or the
//! plateau): A_{n+1} x_{n+1} = A_n x_n − S + c x_{lo(n)}. The descent ends
//! at exactly zero on mapper q + 1, and mappers q + 1 … m idle. Every part
//! is affine in (H, y); Σx = 1 and x_{q+1} = 0 fix both. With the last
//! mapper idle, t_m = mS, and each later window costs its oldest working
//! mapper's part, so spreading the load over a long plateau keeps every
//! window's maximum low while the descent lets the last mappers start
//! without waiting for transfers.
//!
//! Near the idle mappers the descent may pause: at a level step k,
//! x_{k+1} = x_k and interval k is slack. The two mappers then tie for
//! the largest part of every window that holds both, so the optimum sits
//! on a kink of the windows' maxima (found where a descent's dual flow
//! turns negative, typically ℓ − 2 intervals before the last working
//! mapper). Level steps add no unknown: the parts stay affine in (H, y).
//! They may come as a run (11 at m = 3704, ℓ = 463; 285 at m = 9183,
//! ℓ = 298), each new one leaving the flow through the next interval
//! negative: the run's length is then found by galloping and bisection, as
//! one active-set step. A run may also end well before the idle mappers,
//! the descent going on after it (plateau 4257, a descent of 21, 38 level
//! steps, a descent of 55 and one idle mapper at m = 4372, ℓ = 95): the
//! run's length is found by galloping and bisection from where the idle
//! mapper's windows begin (or up to three mappers before: with reducer
//! groups of different sizes the run may start earlier; and up to 64
//! (never past ℓ), first without active-set steps and then with them,
//! where a run fitted a plateau but was not proved: nine at m = 4162,
//! ℓ = 21, 37 at m = 10⁵ identical mappers, r = 300, ℓ = 100), and a run whose
//! last step's two mappers cannot share their windows is cut back the same
//! way. Without a plateau (a plateau of one: parts fall from the first
//! mapper) the slack interval may come right after the run instead (m =
//! 109, ℓ = 93: falling to mapper 16, 84 level steps, falling again).
//!
//! Where many reducer groups share a slow network and mapping is slow
//! beside the start-ups (AV/m ≫ S), this is the optimum the general LP
//! finds; here it costs a few passes over the m mappers instead.
//!
//! With one reducer group the descent goes at its own pace: every
//! interval from the plateau on is tight, down to the last mapper whose
//! part can still drop to zero, and the rest idle. That is the idle tail's
//! chain ([`super::schedule::idle_tail`]) after a plateau: at m = 8053,
//! r = 280, ℓ = 281 a plateau of 5, a descent over 8003 mappers and 45
//! idle, which the general LP proves only to 2.8 × 10⁻⁶.
//!
//! # The proof
//!
//! The dual has no flow through the slack intervals (the plateau's, the
//! step to mapper p + 1, the idle mappers'), a flow F_n through each tight
//! one, and the tail's unit flows on their windows' largest parts. Each
//! working mapper j must be covered: A_j (F_j − F_{j−1}) + c Y_j = w, with
//! Y_j the flows whose largest part is x_j. At a level step k there is no
//! flow through k, and mapper k + 1's equation says how much of the flows
//! on windows holding both k and k + 1 it takes (between none and all); in
//! a run of level steps, a mapper may take its share from any window that
//! holds it whose oldest is earlier in the run, all of them tying for its
//! largest part (earliest deadline first, [`runs_share`]). Backward from F_q = φ down the
//! descent every F_n is affine in (w, φ); no flow through the slack
//! interval and the plateau's total (its members tie, so they share their
//! windows' flows: p w = c Φ) fix both. Dual feasibility is F ≥ 0, the
//! plateau's flows covering each member's share w/c (earliest deadline
//! first over ranges of mappers, or a maximum flow), and the idle mappers
//! covered by the windows of idle senders only; the dual's value
//! w + S(m − Σ F_n) must meet the schedule's length.

use super::general::{oldest, windows, Window, Windows};
use super::schedule::{
    cover_feasible, intervals_hold, ranges_cover, ranges_split, split_feasible, Intervals, Method, Scaled, Shuffle,
    ShuffleEnds, Solution, CERTIFICATE_TOL,
};

/// k + a·u + b·v for two unknowns (u, v): (H, y) in the primal, (w, φ) in
/// the dual.
pub(super) type Affine2 = (f64, f64, f64);

pub(super) fn add(p: Affine2, q: Affine2) -> Affine2 {
    (p.0 + q.0, p.1 + q.1, p.2 + q.2)
}

pub(super) fn scale(p: Affine2, f: f64) -> Affine2 {
    (p.0 * f, p.1 * f, p.2 * f)
}

pub(super) fn at(p: Affine2, u: f64, v: f64) -> f64 {
    p.0 + p.1 * u + p.2 * v
}

/// Solves e1 = 0, e2 = 0 for (u, v).
fn solve2(e1: Affine2, e2: Affine2) -> Option<(f64, f64)> {
    let det = e1.1 * e2.2 - e1.2 * e2.1;
    let u = (-e1.0 * e2.2 + e1.2 * e2.0) / det;
    let v = (-e1.1 * e2.0 + e1.0 * e2.1) / det;
    (u.is_finite() && v.is_finite()).then_some((u, v))
}

/// Why a plateau length fails for a given first idle mapper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// The descent needs y above the plateau: the plateau is too short.
    Short,
    /// The step to y (at the slack interval) is steeper than the start-ups
    /// allow, or the descent turns negative: the plateau is too long.
    Long,
}

/// One schedule of the shape: parts (scaled), plateau p, last working q.
#[derive(Debug, Clone)]
struct Candidate {
    x: Parts,
    plateau: usize,
    working: usize,
    /// Where the descent's slack interval is.
    slack: Slack,
    /// The descent's flat intervals: k where x_{k+1} = x_k (ascending).
    flats: Vec<usize>,
    /// t_{N+1} (scaled), from the windows' maxima.
    length: f64,
}

/// Where the descent's one slack interval is (the step to the free part
/// y), as the plateau's length p changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slack {
    /// d intervals after the plateau's end: interval p + d.
    After(usize),
    /// Interval n, whatever the plateau (near the idle mappers). At the
    /// last working mapper's, n = q, x_{q+1} = 0 is not a step of the
    /// descent but the first idle mapper.
    At(usize),
}

impl Slack {
    /// The slack interval for plateau length p.
    fn at(self, p: usize) -> usize {
        match self {
            Slack::After(d) => p + d,
            Slack::At(n) => n,
        }
    }
}

impl Candidate {
    /// Its level steps: the flat intervals inside the descent.
    fn levels(&self) -> Vec<usize> {
        let k = self.slack.at(self.plateau);
        self.flats.iter().copied().filter(|&n| is_level(n, (self.plateau, self.working, k), &self.flats)).collect()
    }
}

/// Whether interval n is a level step of a descent from plateau p to last
/// working mapper q with slack interval k: one of `flats` (ascending),
/// strictly inside.
fn is_level(n: usize, (p, q, k): (usize, usize, usize), flats: &[usize]) -> bool {
    n > p && n < q && n != k && flats.binary_search(&n).is_ok()
}

/// Parts of the shape: H on mappers 1..=p, the descent on p + 1..=q, zero
/// after.
#[derive(Debug, Clone)]
struct Parts {
    p: usize,
    h: f64,
    descent: Vec<f64>,
}

impl Parts {
    /// x_j (1-based).
    fn get(&self, j: usize) -> f64 {
        if j <= self.p {
            self.h
        } else {
            self.descent.get(j - self.p - 1).copied().unwrap_or(0.0)
        }
    }

    fn to_vec(&self, m: usize) -> Vec<f64> {
        (1..=m).map(|j| self.get(j)).collect()
    }
}

/// The parts for plateau p, last working mapper q (x_{q+1} = 0 when
/// q < m), the one slack interval k = p + d of the descent (the free
/// part y is x_{k+1}; at k = q it is the idle x_{q+1} = 0; when q = m no
/// mapper idles and no interval is slack) and the descent's flat intervals (x_{n+1} = x_n, a slack
/// interval whose two mappers tie for its windows), or which way p is
/// off. `lo[n − 1]` is the oldest sender of interval n < m. O(q − p).
fn parts(sc: &Scaled, lo: &[usize], m: usize, p: usize, q: usize, slack: Slack, flats: &[usize]) -> Result<Parts, Fit> {
    let k = slack.at(p);
    if !(1 <= p && p < q && q <= m && (q == m || k <= q)) {
        return Err(Fit::Long);
    }
    let a = |j: usize| sc.a.get(j - 1).copied().unwrap_or(f64::NAN);
    // coef[j − p − 1] = x_j for j = p + 1 … q + 1, affine in (H, y).
    let plateau: Affine2 = (0.0, 1.0, 0.0);
    let free: Affine2 = (0.0, 0.0, 1.0);
    let mut coef: Vec<Affine2> = Vec::with_capacity(q - p + 1);
    let of =
        |j: usize, coef: &[Affine2]| if j <= p { plateau } else { coef.get(j - p - 1).copied().unwrap_or(plateau) };
    // Σ x_j over the working mappers, less one.
    let mut total: Affine2 = (-1.0, p as f64, 0.0);
    // The level steps, read in order (flats beyond the first that is past
    // n are not yet reached).
    let mut level = flats.iter().copied().filter(|&n| is_level(n, (p, q, k), flats)).peekable();
    for n in p..=q.min(m - 1) {
        let next = if n == k && q < m {
            free
        } else if level.next_if_eq(&n).is_some() {
            of(n, &coef)
        } else {
            let top = of(lo.get(n - 1).copied().unwrap_or(1), &coef);
            let (x, a_n) = (of(n, &coef), a(n));
            let f = 1.0 / a(n + 1);
            ((x.0 * a_n - sc.s + top.0 * sc.c) * f, (x.1 * a_n + top.1 * sc.c) * f, (x.2 * a_n + top.2 * sc.c) * f)
        };
        if n < q {
            total = add(total, next);
        }
        coef.push(next);
    }
    let working = coef.get(..q - p).unwrap_or(&[]);
    let (h, y) = if q < m && k < q {
        solve2(*coef.last().ok_or(Fit::Long)?, total).ok_or(Fit::Long)?
    } else {
        // No mapper idles, or the last working one's own interval is the
        // slack one: every part follows from H.
        let h = -total.0 / total.1;
        (h, 0.0)
    };
    let tol = 1e-12;
    if !(h > 0.0 && h.is_finite()) {
        return Err(Fit::Long);
    }
    // Falling and positive through the descent (y above the part before
    // it: the plateau is too short).
    let mut descent = Vec::with_capacity(q - p);
    let mut prev = h;
    for &c in working {
        let xj = at(c, h, y);
        if xj > prev * (1.0 + tol) {
            return Err(Fit::Short);
        }
        if xj.is_nan() || xj <= 0.0 {
            // With the slack interval last, every part follows from H, and
            // a descent this long runs out: the plateau is too short.
            return Err(if slack == Slack::At(q) && xj <= 0.0 { Fit::Short } else { Fit::Long });
        }
        descent.push(xj);
        prev = xj;
    }
    let x = Parts { p, h, descent };
    // The slack interval k holds: A_{k+1} y − A_k x_k + S ≥ c x_{lo(k)}
    // (a step steeper than the start-ups allow: the plateau is too long),
    // and so does each flat one.
    let holds = |n: usize| {
        let top = x.get(lo.get(n - 1).copied().unwrap_or(1));
        a(n + 1) * x.get(n + 1) - a(n) * x.get(n) + sc.s >= sc.c * top - tol * sc.s
    };
    if (q < m && !holds(k)) || !flats.iter().filter(|&&n| is_level(n, (p, q, k), flats)).all(|&n| holds(n)) {
        return Err(Fit::Long);
    }
    Ok(x)
}

/// How many tail intervals each mapper is the oldest sender of (its part
/// the largest of their windows where parts fall): `count[j]` for mapper j
/// (index 0 unused), and `upto[p]` their sum over mappers 1 … p.
struct TailCounts {
    count: Vec<f64>,
    upto: Vec<f64>,
}

impl TailCounts {
    /// From each tail window's oldest mapper and how many intervals have it.
    fn new(m: usize, oldest_of_tail: &[(usize, f64)]) -> TailCounts {
        let mut count = vec![0.0; m + 1];
        for &(oldest, weight) in oldest_of_tail {
            if let Some(c) = count.get_mut(oldest) {
                *c += weight;
            }
        }
        let upto = count.iter().scan(0.0, |sum, c| {
            *sum += c;
            Some(*sum)
        });
        TailCounts { upto: upto.collect(), count }
    }
}

/// t_{N+1} (scaled) of falling parts: t_m = mS + A_m x_m plus each tail
/// window's oldest part, times c: the plateau's windows at H, the
/// descent's each at its own part, in O(q − p).
fn length(sc: &Scaled, m: usize, tail: &TailCounts, x: &Parts) -> f64 {
    let last = sc.a.last().copied().unwrap_or(0.0) * x.get(m);
    let on_plateau = tail.upto.get(x.p).copied().unwrap_or(0.0) * x.h;
    let descent = x.descent.iter().zip(tail.count.iter().skip(x.p + 1)).map(|(x, n)| x * n).sum::<f64>();
    m as f64 * sc.s + last + sc.c * (on_plateau + descent)
}

/// The length (of a plateau, a level run, a descent) nearest `unfit` that
/// still fits, by bisection from `fit` (which fits) towards `unfit` (which
/// does not), on either side.
fn last_fitting(mut fit: usize, mut unfit: usize, fits: &dyn Fn(usize) -> bool) -> usize {
    while fit.abs_diff(unfit) > 1 {
        let mid = fit.min(unfit) + fit.abs_diff(unfit) / 2;
        if fits(mid) {
            fit = mid;
        } else {
            unfit = mid;
        }
    }
    fit
}

/// The least length in 1 ..= `most` that is not `short` (`most` if every
/// length below it is), by galloping from 1 and bisection: `short` holds
/// below the answer and not from it on.
fn first_long_enough(most: usize, short: &dyn Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, 1); // lo is short, hi not known to be
    while hi < most && short(hi) {
        (lo, hi) = (hi, (2 * hi).min(most));
    }
    last_fitting(lo, hi, short) + 1
}

/// Active-set steps a candidate may take before it is given up.
const PIVOTS: usize = 4;

/// How many mappers before the idle mapper's windows begin a level run is
/// looked for at most: with reducer groups of different sizes it may start
/// earlier (2 at m = 2274, r = 23, ℓ = 8).
const RUN_STARTS_BACK: usize = 3;

/// How many mappers before them a level run is looked for at most where
/// a run fits the first starts but none of them is proved (never more
/// than ℓ), each further start's run proved as found, then, where none
/// is, each again with active-set steps:
/// with three reducer groups of different sizes the run may start far
/// earlier (9 at m = 4162, r = 48, ℓ = 21, groups 21, 21 and 6), and with
/// tens of thousands of identical mappers in a few groups it grows with
/// m (r = 300, ℓ = 100, V/m = 10⁷: 12 at m = 7 × 10⁴, 26 at 8.5 × 10⁴, 37
/// at 10⁵). The far starts are tried only where a run fitted the near
/// ones; the descent's benches stay within their noise (about 10 %).
const RUN_STARTS_FAR: usize = 64;

/// Which plateau lengths a search reads first.
#[derive(Debug, Clone, Copy)]
enum Reads {
    /// Evenly spaced ones and those doubling away from the end.
    Grid,
    /// Those near this plateau; those doubling from the end (within
    /// [`NEAR_ENDS`] of it first, then the rest) only while the lengths read
    /// do not hold a run that fits between two that do not, and the evenly
    /// spaced ones only where none of these gives a run that fits.
    Near(usize),
    /// The same, but never the evenly spaced ones.
    Only(usize),
}

/// Plateau lengths sampled before the bisections.
const GRID: usize = 32;

/// Plateau lengths sampled on either side of the one an active-set step
/// moves from.
const NEAR: usize = 4;

/// How far back from the last working mapper a search near a plateau
/// reads the lengths doubling from it before the farther ones (each a pass
/// over the descent from it): the band of plateaus too short for the
/// descent normally ends within it.
const NEAR_ENDS: usize = 64;

/// The plateau lengths a search has read (ascending), with why each fails.
type Labels = Vec<(usize, Option<Fit>)>;

/// Each (a plateau that fits, the nearest below and above known not to).
type Seeds = Vec<(usize, usize, usize)>;

/// Where a search grows runs of plateaus that fit, from the labels read
/// (ascending): each (a plateau that fits, the nearest below and above
/// known not to), one for each run of fitting labels and one found by
/// bisection between each plateau too short and a longer one too long.
fn seeds_of(labels: &[(usize, Option<Fit>)], q: usize, label: &dyn Fn(usize) -> Option<Fit>) -> Seeds {
    let mut seeds = Vec::new();
    let mut below = 0; // the last plateau read that does not fit
    for (i, &(p, fit)) in labels.iter().enumerate() {
        let next = labels.get(i + 1).copied();
        match (fit, next) {
            (None, _) => {
                if i == 0 || labels.get(i - 1).is_some_and(|l| l.1.is_some()) {
                    let above = labels.iter().skip(i + 1).find(|l| l.1.is_some()).map_or(q, |l| l.0);
                    seeds.push((p, below, above));
                }
            }
            (Some(Fit::Short), Some((next_p, Some(Fit::Long)))) => {
                below = p;
                let (mut a, mut b) = (p, next_p);
                while b - a > 1 {
                    let mid = a + (b - a) / 2;
                    match label(mid) {
                        None => {
                            seeds.push((mid, a, b));
                            break;
                        }
                        Some(Fit::Short) => a = mid,
                        Some(Fit::Long) => b = mid,
                    }
                }
            }
            (Some(_), _) => below = p,
        }
    }
    seeds
}

/// The best plateau for last working mapper q. Which plateaus fit is read
/// on a grid of lengths: a plateau too short for the descent wants y
/// above H ([`Fit::Short`]), one too long a step steeper than the
/// start-ups allow ([`Fit::Long`]), so between a short one and a long one
/// a bisection finds where it changes, and a plateau that fits there;
/// every run of plateaus that fit (around those found, and around the
/// grid's) is grown by bisection to its ends, and the shortest shuffle
/// over it found by ternary search. The dual then says whether the best
/// is optimal.
fn search(
    sc: &Scaled,
    lo: &[usize],
    m: usize,
    (q, slack, flats): (usize, Slack, &[usize]),
    tail: &TailCounts,
    reads: Reads,
) -> Option<Candidate> {
    if q < 2 {
        return None;
    }
    let near = match reads {
        Reads::Grid => None,
        Reads::Near(p) | Reads::Only(p) => Some(p),
    };
    let label = |p: usize| parts(sc, lo, m, p, q, slack, flats).err();
    let fits = |p: usize| label(p).is_none();
    let span = q - 2; // plateaus 1 … q − 1

    // Evenly spaced, and doubling away from the last plateau: past 50 000
    // mappers the band of plateaus too short for the descent (between too
    // long ones on either side) lies within the last few hundred.
    let ends = (0..usize::BITS).map(|k| 1usize << k).take_while(|&d| d <= span).map(|d| q - d);
    // And around `near`, the plateau of the candidate an active-set step
    // moves from: the plateaus that fit the new shape may be a band of two
    // between ones that do not (m = 522, ℓ = 86). There the evenly spaced
    // lengths (each a pass over the descent from them, most of the mappers)
    // are read only where the lengths near the end and `near` give no run
    // that fits: m = 2951, r = 44, ℓ = 18: 45 ms -> 31 ms; m = 2703:
    // 53 -> 32 ms. Same methods on 24 300 random shuffles. And the lengths
    // doubling from the end (some 2q steps) only where those around `near`
    // do not bracket a run that fits, the farthest (most of those steps)
    // only where the nearer ones do not either (m = 4162: 49 -> 38 ms).
    let around = near.into_iter().flat_map(|p| p.saturating_sub(NEAR)..=p + NEAR).filter(|&p| (1..q).contains(&p));
    let even = (0..=GRID).map(|k| 1 + k * span / GRID);
    // The labels read so far (ascending), and the seeds they give.
    let read = |labels: &[(usize, Option<Fit>)], more: &mut dyn Iterator<Item = usize>| {
        let mut grid: Vec<usize> = labels.iter().map(|l| l.0).chain(more).collect();
        grid.sort_unstable();
        grid.dedup();
        let known = |p: usize| labels.binary_search_by_key(&p, |l| l.0).ok().and_then(|i| labels.get(i)).map(|l| l.1);
        let labels: Labels = grid.iter().map(|&p| (p, known(p).unwrap_or_else(|| label(p)))).collect();
        let seeds = seeds_of(&labels, q, &label);
        (labels, seeds)
    };
    let (_, seeds) = if near.is_some() {
        // Near `near` first: where the plateaus there hold runs that fit
        // with plateaus that do not on either side, those are the runs.
        let bracketed = |(labels, seeds): &(Labels, Seeds)| {
            !seeds.is_empty()
                && labels.first().is_some_and(|l| l.1.is_some())
                && labels.last().is_some_and(|l| l.1.is_some())
        };
        // Then the ends within NEAR_ENDS of q, then the farther ones.
        let mut read_so_far = read(&[], &mut around.into_iter());
        for ends in [ends.clone().filter(|&p| q - p <= NEAR_ENDS).collect::<Vec<_>>(), ends.collect()] {
            if !bracketed(&read_so_far) {
                read_so_far = read(&read_so_far.0, &mut ends.into_iter());
            }
        }
        let (labels, seeds) = read_so_far;
        if matches!(reads, Reads::Near(_)) && seeds.is_empty() {
            read(&labels, &mut even.into_iter())
        } else {
            (labels, seeds)
        }
    } else {
        read(&[], &mut even.chain(ends).chain(around))
    };
    let cost = |p: usize| parts(sc, lo, m, p, q, slack, flats).ok().map(|x| (length(sc, m, tail, &x), x));
    let mut best: Option<Candidate> = None;
    for (seed, below, above) in seeds {
        // The run that fits around the seed.
        let (mut a, mut b) = (last_fitting(seed, below, &fits), last_fitting(seed, above, &fits));
        // The run's ends too: where the plateau reaches into a level run the
        // length jumps (m = 1480, ℓ = 135: shortest at the run's first
        // plateau, falling after the jump to its last).
        let run_ends = [a, b];
        while b - a > 2 {
            let (l, r) = (a + (b - a) / 3, b - (b - a) / 3);
            let (Some(cl), Some(cr)) = (cost(l), cost(r)) else { break };
            if cl.0 <= cr.0 {
                b = r
            } else {
                a = l
            }
        }
        for p in (a..=b).chain(run_ends) {
            if let Some((length, x)) = cost(p) {
                if best.as_ref().is_none_or(|c| length < c.length) {
                    best = Some(Candidate { x, plateau: p, working: q, slack, flats: flats.to_vec(), length });
                }
            }
        }
    }
    best
}

/// The schedule of this shape with the shortest shuffle over none, one or
/// a bisection width of idle mappers, or as many as a descent at its own
/// pace leaves idle, proved optimal; `None` where it does not apply or its
/// dual is infeasible.
pub fn plateau_descent(p: &Shuffle) -> Option<Solution> {
    plateau_descent_near(p, &mut Hint::default())
}

/// The shape of the last descent proved, counted back from the last mapper:
/// the next point of a map, a few mappers more or fewer, usually has the
/// same shape with the plateau a few mappers longer, found by one search
/// near it instead of the search over every shape.
#[derive(Debug, Clone, Default)]
pub struct Hint {
    back: Option<Back>,
    /// Whether the last shape proved was the hinted one (a search near it,
    /// some tens of passes over the mappers, not the search over every
    /// shape).
    proved_near: bool,
}

#[derive(Debug, Clone)]
struct Back {
    plateau: usize,
    idle: usize,
    slack: BackSlack,
    /// m − k for each flat interval k, descending.
    flats: Vec<usize>,
}

#[derive(Debug, Clone, Copy)]
enum BackSlack {
    After(usize),
    At(usize),
}

impl Hint {
    fn of(c: &Candidate, m: usize, proved_near: bool) -> Hint {
        let back = Some(Back {
            plateau: m - c.plateau,
            idle: m - c.working,
            slack: match c.slack {
                Slack::After(d) => BackSlack::After(d),
                Slack::At(n) => BackSlack::At(m - n),
            },
            flats: c.flats.iter().map(|&k| m - k).collect(),
        });
        Hint { back, proved_near }
    }

    /// Whether the last descent proved was the hinted shape.
    pub fn proved_near(&self) -> bool {
        self.proved_near
    }

    /// The hinted shape for m mappers: (last working mapper, slack, flats)
    /// and the plateau to search near.
    fn shape(&self, m: usize) -> Option<(usize, Slack, Vec<usize>, usize)> {
        let b = self.back.as_ref()?;
        let slack = match b.slack {
            BackSlack::After(d) => Slack::After(d),
            BackSlack::At(back) => Slack::At(m.checked_sub(back)?),
        };
        let flats = b.flats.iter().map(|&back| m.checked_sub(back)).collect::<Option<Vec<usize>>>()?;
        Some((m.checked_sub(b.idle)?, slack, flats, m.checked_sub(b.plateau)?))
    }
}

/// [`plateau_descent`], trying first the shape `hint` holds (a
/// neighbouring point's), and leaving in it the shape proved.
pub fn plateau_descent_near(p: &Shuffle, hint: &mut Hint) -> Option<Solution> {
    plateau_descent_in(p, hint, &std::cell::OnceCell::new())
}

/// The schedule of this shape proved optimal (see [`plateau_descent`]), the
/// shuffle's windows built here or by another method before it, `hint`
/// tried first and left holding the shape proved; with the shuffle scaled.
fn prove_in(p: &Shuffle, hint: &mut Hint, windows_once: &std::cell::OnceCell<Windows>) -> Option<(Scaled, Candidate)> {
    let iv = p.intervals;
    let m = iv.m();
    hint.proved_near = false;
    if p.a.len() != m || m < 3 {
        return None;
    }
    let sc = p.scaled();
    if !(sc.c > 0.0 && sc.s > 0.0) {
        return None;
    }
    let (tail, front) = windows_once.get_or_init(|| windows(&iv));
    let lo: Vec<usize> = front.iter().map(oldest).collect();
    // The shapes tried: no, one, or a bisection width of idle mappers (so
    // that group 0's last windows hold only idle senders); then, where
    // none of those is proved, one idle mapper after a level run that
    // starts where the windows holding it begin (ℓ − 1 working mappers
    // before it), its slack interval after the plateau, or the run of all
    // ℓ − 1 with the slack interval last. On the random instances
    // and the maps' grids every optimum of this shape is one of these or a
    // few active-set steps from one; each group is proved in turn,
    // shortest first.
    let width = iv.width().min(m - 2);
    let end_run: Vec<usize> = (m.saturating_sub(width) + 1..=m - 2).collect();
    let idle = [(0, Slack::After(0), &[][..]), (1, Slack::After(0), &[][..]), (width, Slack::After(0), &[][..])];
    // Each tail window's oldest mapper (its largest part), with its count.
    let oldest_of_tail: Vec<(usize, f64)> = tail.iter().map(|(w, weight)| (oldest(w), *weight)).collect();
    let counts = TailCounts::new(m, &oldest_of_tail);
    let shape = Shape { sc: &sc, iv: &iv, tail, oldest_of_tail: &oldest_of_tail, counts: &counts, front, lo: &lo };
    // Whether a level run's shape fitted a plateau at all.
    let fitted = std::cell::Cell::new(false);
    let prove_shortest = |starts: &[(usize, Slack, &[usize])], pivots: usize, reads: Reads| {
        let mut found: Vec<Candidate> = starts
            .iter()
            .filter(|s| s.0 <= width)
            .filter_map(|&(idle, slack, flats)| search(&sc, &lo, m, (m - idle, slack, flats), &counts, reads))
            .collect();
        found.sort_by(|a, b| a.length.total_cmp(&b.length));
        fitted.set(fitted.get() || found.iter().any(|c| !c.flats.is_empty()));
        found.into_iter().find_map(|c| shape.prove(c, pivots))
    };
    // A level run starting `back` mappers before the idle mapper's windows
    // begin. How far it goes is found by galloping and bisection: too short
    // where the dual's flow through an interval is negative (the one after
    // the run, where the descent would rather be level too; or one of the
    // descent before it: at m = 2951, r = 44, ℓ = 18, runs of 1 to 3 of the
    // 4 steps) or the best plateau reaches into it, too long where its last
    // step's mappers cannot share their windows or no plateau fits (7 of 59
    // at m = 166, ℓ = 61; 38 of 93 at m = 4372, ℓ = 95, between descents of
    // 21 and 55). The last short run and the
    // first that is not are both tried: the first pivots to the optimum,
    // the second is it where the run is a whole. Where the windows begin at
    // the run's start, so does the run of all ℓ − 1 with the slack interval
    // last.
    let level_run = |back: usize, pivots: usize| -> Option<Candidate> {
        let far = back > RUN_STARTS_BACK;
        let whole = (back == 0).then_some((1, Slack::At(m - 1), &end_run[..]));
        let Some(start) = end_run.first().and_then(|s| s.checked_sub(back)).filter(|&s| s > 1) else {
            return whole.and_then(|w| prove_shortest(&[w], pivots, Reads::Grid));
        };
        // The run's plateau ends just before it: the lengths near there are
        // read first, and for a far start never the evenly spaced ones
        // (m = 4162: 13.7 million steps of the descent's parts, most of them
        // on that grid; reading near the start first for the near starts
        // too: 10.3 -> 4.0 million, 117 -> 49 ms with the other changes
        // of this commit).
        let reads = if far { Reads::Only(start - 1) } else { Reads::Near(start - 1) };
        let run = |len: usize| -> Vec<usize> { (start..start + len).collect() };
        let short = |len: usize| {
            search(&sc, &lo, m, (m - 1, Slack::After(0), &run(len)), &counts, reads)
                .is_some_and(|c| c.plateau >= start || matches!(shape.certify(&c), Err(Some(Pivot::Flow(_)))))
        };
        let len = first_long_enough(end_run.len() + back, &short);
        let (shorter, longer) = (run(len - 1), run(len));
        let mut starts = Vec::with_capacity(5);
        for (len, flats) in [(len, &longer), (len - 1, &shorter)].into_iter().filter(|r| !r.1.is_empty()) {
            // The slack interval after the plateau, or right after the run
            // (parts falling from the first mapper: m = 109, r = 94, ℓ = 93).
            starts.push((1, Slack::After(0), &flats[..]));
            starts.extend((start + len < m - 1).then_some((1, Slack::At(start + len), &flats[..])));
        }
        starts.extend(whole);
        prove_shortest(&starts, pivots, reads)
    };
    // Last, the descent that runs out at its own pace: every interval from
    // the plateau on tight, and q the last working mapper, the one whose
    // part can drop to zero with mapper q + 1 idle. A plateau of one finds
    // q by bisection (a longer descent runs out before it ends, a shorter
    // one cannot drop to zero). With one reducer group this is the only
    // shape tried: the idle tail's chain after a plateau (m = 8053,
    // ℓ = 281: a plateau of 5, 45 idle).
    let own_pace = || {
        let lasts = |q: usize| parts(&sc, &lo, m, 1, q, Slack::At(q), &[]).err() != Some(Fit::Short);
        let q = last_fitting(1, m, &lasts);
        prove_shortest(&[(m - q, Slack::At(q), &[][..])], PIVOTS, Reads::Grid)
    };
    let hinted = || {
        let (q, slack, flats, near) = hint.shape(m)?;
        shape.prove(search(&sc, &lo, m, (q, slack, &flats), &counts, Reads::Near(near))?, PIVOTS)
    };
    let near = hinted();
    let proved_near = near.is_some();
    let best = if let Some(c) = near {
        c
    } else if iv.groups() == 1 {
        own_pace()?
    } else {
        // The far starts only where a run fitted some plateau near the idle
        // mapper's windows (where the plateau with idle mappers is the
        // optimum, none does).
        // Each far start's run proved as found first, then with
        // active-set steps (m = 8.5 × 10⁴, r = 300, ℓ = 100, V = 1.02 ×
        // 10¹²: a run of 18 whose first fit is one step off).
        let far = || (RUN_STARTS_BACK + 1..=RUN_STARTS_FAR.min(iv.width())).filter(|_| fitted.get());
        prove_shortest(&idle, PIVOTS, Reads::Grid)
            .or_else(|| (0..=RUN_STARTS_BACK).find_map(|back| level_run(back, PIVOTS)))
            .or_else(|| far().find_map(|back| level_run(back, 0)))
            .or_else(|| far().find_map(|back| level_run(back, PIVOTS)))
            .or_else(own_pace)?
    };
    *hint = Hint::of(&best, m, proved_near);
    Some((sc, best))
}

/// [`plateau_descent_near`] with the shuffle's windows built here or by
/// another method before it.
pub(super) fn plateau_descent_in(
    p: &Shuffle,
    hint: &mut Hint,
    windows_once: &std::cell::OnceCell<Windows>,
) -> Option<Solution> {
    let (sc, best) = prove_in(p, hint, windows_once)?;
    let (iv, m) = (p.intervals, p.intervals.m());
    let x = best.x.to_vec(m);
    let largest = iv.largest_senders(&x);
    let t = p.boundaries(&sc, &x, &largest);
    intervals_hold(&sc, &x, &t, &largest)?;
    let end = t.last().copied()?;
    ((end - best.length).abs() <= CERTIFICATE_TOL * end.abs().max(sc.s)).then_some(())?;
    // With no mapper idle and no level step the shape is the chain after a plateau.
    let level = best.levels().len();
    let method = if best.working == m && level == 0 {
        Method::Plateau { plateau: best.plateau, below: 0 }
    } else {
        Method::PlateauDescent { plateau: best.plateau, working: best.working, level }
    };
    Some(p.unscale(&sc, x, t, largest, method))
}

/// [`plateau_descent_in`]'s ends only, in O(m) beyond the proof instead
/// of O(N): the parts never rise (checked), so each tail interval's
/// largest part is its window's oldest, whose counts the candidate's
/// length already sums; the intervals before the last mapper are checked
/// as the LP states them. For a map's points, which read T alone (with
/// r/ℓ reducer groups, N is r/ℓ times m).
pub(super) fn plateau_descent_ends_in(
    p: &Shuffle,
    hint: &mut Hint,
    windows_once: &std::cell::OnceCell<Windows>,
) -> Option<ShuffleEnds> {
    let (sc, best) = prove_in(p, hint, windows_once)?;
    let (iv, m) = (p.intervals, p.intervals.m());
    let x = best.x.to_vec(m);
    x.iter().zip(x.iter().skip(1)).all(|(a, b)| *b <= a * (1.0 + 1e-12)).then_some(())?;
    let front = iv.largest_senders_to(&x, m - 1);
    // t_1 … t_m, then t_{N+1}: the proved length.
    let mut t = p.boundaries(&sc, &x, &front);
    let t_map = t.last().copied()?;
    t.push(best.length);
    intervals_hold(&sc, &x, &t, &front)?;
    Some(ShuffleEnds { t_map: sc.seconds(t_map), t_shuffle: sc.seconds(best.length) })
}

/// An active-set step a failed proof asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pivot {
    /// The dual's flow through this interval is negative.
    Flow(usize),
    /// This level step's split of its shared windows fails.
    Level(usize),
}

/// What a candidate is proved against: the shuffle (scaled), its windows
/// (the tail's with their weights, and each one's oldest mapper; the
/// front's), and the oldest sender of each front interval.
struct Shape<'a> {
    sc: &'a Scaled,
    iv: &'a Intervals,
    tail: &'a [(Window, f64)],
    oldest_of_tail: &'a [(usize, f64)],
    counts: &'a TailCounts,
    front: &'a [Window],
    lo: &'a [usize],
}

impl Shape<'_> {
    /// `c` proved, or moved and proved by active-set steps, at most
    /// `pivots` deep: where its dual has a negative flow through interval
    /// n, n is made the slack one, or else a level one (its two mappers
    /// tie: the optimum sits on a kink there); where a level step's two
    /// mappers cannot share their windows, the descent goes on there.
    /// Where the plateau's split fails, the optimum is degenerate (its face
    /// holds plateaus one shorter or longer, of equal length to round-off)
    /// and the neighbours' duals are tried.
    fn prove(&self, c: Candidate, pivots: usize) -> Option<Candidate> {
        let m = self.iv.m();
        let k = c.slack.at(c.plateau);
        let step = match self.certify(&c) {
            Ok(()) => return Some(c),
            Err(Some(step)) => step,
            Err(None) => return self.neighbour(&c),
        };
        if pivots == 0 {
            return None;
        }
        let search = |slack: Slack, flats: &[usize]| {
            search(self.sc, self.lo, m, (c.working, slack, flats), self.counts, Reads::Near(c.plateau))
        };
        let without = |n: usize| -> Vec<usize> { c.flats.iter().copied().filter(|&f| f != n).collect() };
        let next = |slack: Slack, flats: &[usize]| search(slack, flats).and_then(|n| self.prove(n, pivots - 1));
        let proved = match step {
            // A level step whose mappers cannot share their windows: the
            // descent goes on there. At the end of a level run it may go on
            // from further back: how many of the run's last steps go is
            // found by galloping and bisection, one pivot in all (55 of 93 at
            // m = 4372, ℓ = 95).
            Pivot::Level(n) => {
                let run = (0..=n).rev().take_while(|j| c.flats.binary_search(j).is_ok()).count();
                let cut =
                    |len: usize| -> Vec<usize> { c.flats.iter().copied().filter(|&f| f + len <= n || f > n).collect() };
                let short = |len: usize| {
                    len < run
                        && search(c.slack, &cut(len))
                            .is_some_and(|next| self.certify(&next) == Err(Some(Pivot::Level(n - len))))
                };
                next(c.slack, &cut(first_long_enough(run, &short)))
            }
            Pivot::Flow(n) if n > c.plateau && n != k && n <= c.working => {
                // That interval made the slack one (near the idle mappers,
                // also where it stays as the plateau changes), or else a
                // level one.
                let moved = if n == c.working { Slack::At(n) } else { Slack::After(n - c.plateau) };
                let near = n < c.working && n + self.iv.width() >= c.working;
                let mut flats = c.flats.clone();
                flats.push(n);
                flats.sort_unstable();
                let idle = c.working < m;
                // A level step next to one already taken grows a level run
                // (ℓ long at most), as long as the flow through the interval
                // after it stays negative: its length is found by galloping
                // and bisection, one pivot in all.
                let grows = n >= 1 && c.flats.contains(&(n - 1)) && c.flats.len() < self.iv.width();
                let level = |flats: &[usize]| {
                    if !grows {
                        return next(c.slack, flats);
                    }
                    let run = |len: usize| -> Vec<usize> {
                        let mut run: Vec<usize> = c.flats.iter().copied().chain(n..n + len).collect();
                        run.sort_unstable();
                        run.dedup();
                        run
                    };
                    let short = |len: usize| {
                        search(c.slack, &run(len))
                            .is_some_and(|next| self.certify(&next) == Err(Some(Pivot::Flow(n + len))))
                    };
                    let most = (c.working - n).min(self.iv.width() - c.flats.len()).max(1);
                    next(c.slack, &run(first_long_enough(most, &short)))
                };
                idle.then(|| next(moved, &without(n)))
                    .flatten()
                    .or_else(|| (n < c.working && !c.flats.contains(&n)).then(|| level(&flats)).flatten())
                    .or_else(|| (idle && near).then(|| next(Slack::At(n), &without(n))).flatten())
            }
            Pivot::Flow(_) => None,
        };
        proved.or_else(|| self.neighbour(&c))
    }

    fn neighbour(&self, c: &Candidate) -> Option<Candidate> {
        let m = self.iv.m();
        [c.plateau.checked_sub(1), Some(c.plateau + 1)].into_iter().flatten().find_map(|p| {
            let x = parts(self.sc, self.lo, m, p, c.working, c.slack, &c.flats).ok()?;
            let next = Candidate {
                length: length(self.sc, m, self.counts, &x),
                x,
                plateau: p,
                working: c.working,
                slack: c.slack,
                flats: c.flats.clone(),
            };
            self.certify(&next).ok().map(|()| next)
        })
    }

    /// The dual solution of a candidate, checked (see the module's proof):
    /// `Err(Some(step))` where the flow through an interval is negative
    /// (the first such) or a level step's split fails, `Err(None)` where
    /// anything else fails.
    fn certify(&self, cand: &Candidate) -> Result<(), Option<Pivot>> {
        let Shape { sc, iv, tail, oldest_of_tail, front, lo, .. } = *self;
        let m = iv.m();
        let (p, q) = (cand.plateau, cand.working);
        let idle = q < m;
        let k = cand.slack.at(p); // the slack interval, where a mapper idles
        let a = |j: usize| sc.a.get(j - 1).copied().unwrap_or(f64::NAN);
        // The tail's unit flows: on the plateau (shared), on one falling part,
        // or on idle senders only.
        // A flat interval's two mappers tie: the windows whose oldest is the
        // first of them and that hold the second may give their flow to either.
        let flats = cand.levels();
        let mut tau = Descent::zeros(p, q);
        let mut pairs = Descent::zeros(p, q);
        let mut tail_shared: Vec<(usize, usize, f64)> = Vec::new();
        // The tail's windows that hold plateau mappers: one range of them
        // (most), or two where the window wraps around the mappers; their
        // flow in all. No list is built for a window of one range: a proof
        // reads some 3m windows, and their lists took a fifth of it.
        let (mut tail_single, mut tail_wrapped) = (Vec::new(), Vec::new());
        let mut on_plateau_flow = 0.0;
        let mut idle_supply: Vec<(Vec<(usize, usize)>, f64)> = Vec::new();
        for ((w, weight), &(first, _)) in tail.iter().zip(oldest_of_tail) {
            if first <= p {
                let mut on = w.iter().filter(|r| r.0 > 0 && r.0 <= p).map(|&(l, h)| (l, h.min(p)));
                match (on.next(), on.next()) {
                    (Some((lo, hi)), None) => tail_single.push((lo, hi, *weight)),
                    (one, two) => tail_wrapped.push((one.into_iter().chain(two).collect::<Vec<_>>(), *weight)),
                }
                on_plateau_flow += weight;
            } else if first <= q {
                let shared = flats.binary_search(&first).is_ok() && holds(w, first + 1);
                *(if shared { &mut pairs } else { &mut tau }).get_mut(first).ok_or(None)? += weight;
                if shared {
                    tail_shared.push((first, reach(w, first, &flats), *weight));
                }
            } else {
                idle_supply.push((w.iter().filter(|r| r.0 > 0).map(|&(l, h)| (l - q, h - q)).collect(), *weight));
            }
        }
        let walk = Walk { sc, lo, front, tau: &tau, pairs: &pairs, flats: &flats, p, q };
        // Affine in (w, φ) first: no flow through the slack interval, and the
        // plateau's members share its flows, w/c each but mapper p, which gets
        // (w − A_p F_p)/c.
        let end: Affine2 = if idle { (0.0, 0.0, 1.0) } else { (1.0, 0.0, 0.0) };
        let (flow, on_plateau, _, _) = walk.backward(end, (0.0, 1.0, 0.0), idle).ok_or(None)?;
        let f_p = flow.get(p).ok_or(None)?;
        let phi = on_plateau.iter().fold((on_plateau_flow, 0.0, 0.0), |acc, s| add(acc, s.1));
        let balance = add(add(scale(phi, sc.c), (0.0, -(p as f64), 0.0)), scale(f_p, a(p)));
        let (w, fq) = if idle {
            solve2(flow.get(k).ok_or(None)?, balance).ok_or(None)?
        } else {
            (-(balance.0 + balance.2) / balance.1, 1.0)
        };
        if !(w.is_finite() && fq.is_finite()) {
            return Err(None);
        }
        // The flows again, as numbers now that w and φ are known (the affine
        // forms' coefficients can be large and cancel), and the plateau's
        // supplies with them.
        let (flows, on_plateau, splits, front_shared) =
            walk.backward(if idle { fq } else { 1.0 }, w, idle).ok_or(None)?;
        let f_p = flows.get(p).ok_or(None)?;
        if let Some(n) = (p..=q.min(m - 1)).find(|&n| flows.get(n).is_some_and(|f| f < -CERTIFICATE_TOL)) {
            return Err(Some(Pivot::Flow(n)));
        }
        if let Some(&(k, _, _, _)) =
            splits.iter().find(|&&(_, given, pool, _)| !(given >= -CERTIFICATE_TOL && given <= pool + CERTIFICATE_TOL))
        {
            // Each level step's second mapper cannot take what it needs from
            // the windows its first one is oldest in; in a run of level steps
            // it may take from any window whose oldest is earlier in the run
            // and that holds it.
            let sources: Vec<(usize, usize, f64)> = tail_shared.into_iter().chain(front_shared).collect();
            if !runs_share(&splits, &sources) {
                return Err(Some(Pivot::Level(k)));
            }
        }
        let mut single: Vec<(usize, usize, f64)> =
            on_plateau.iter().map(|&(oldest, f)| (oldest, p, f.max(0.0))).collect();
        single.extend(tail_single);
        let mut wrapped: Vec<(Vec<(usize, usize)>, f64)> = tail_wrapped;
        let a_p = a(p);
        let demand = |j: usize| if j < p { w / sc.c } else { (w - a_p * f_p) / sc.c };
        // Dual feasibility asks each member for at least its share (flow
        // beyond it only raises a reduced cost), and the gap below checks that
        // the shares leave nothing: a cover, not an exact split, so round-off
        // in the flows' total cannot refuse a proof.
        let split = if wrapped.is_empty() {
            ranges_cover(p, &single, &demand)
        } else {
            // The supplies' total is the demands' (the plateau's balance), so
            // a cover is a split.
            wrapped.extend(single.iter().map(|&(lo, hi, v)| (vec![(lo, hi)], v)));
            split_feasible(p, &wrapped, &demand)
        };
        if !split {
            return Err(None);
        }
        let f_q = flows.get(q).ok_or(None)?;
        let f_last = if q + 1 == m { f_q } else { 0.0 };
        let idle_need = |i: usize| {
            let j = q + i;
            let need = if j == m {
                w - a(m) * (1.0 - f_last)
            } else if j == q + 1 {
                w + a(j) * f_q
            } else {
                w
            };
            need.max(0.0) / sc.c
        };
        if idle && !cover_feasible(m - q, &idle_supply, &idle_need, false) {
            return Err(None);
        }
        let dual = w + sc.s * (m as f64 - flows.from_p.iter().take(q.min(m - 1) + 1 - p).sum::<f64>());
        if (cand.length - dual).abs() <= CERTIFICATE_TOL * cand.length.abs().max(sc.s) {
            Ok(())
        } else {
            Err(None)
        }
    }
}

/// Whether window `w` holds mapper `j`.
fn holds(w: &Window, j: usize) -> bool {
    w.iter().any(|&(lo, hi)| lo > 0 && lo <= j && j <= hi)
}

/// A value of the dual's backward pass: a number, or affine in (w, φ).
trait Linear: Copy {
    fn number(v: f64) -> Self;
    fn plus(self, o: Self) -> Self;
    fn times(self, f: f64) -> Self;
}

/// Values by interval or mapper n from the plateau's last p to the last
/// working q, zero before p: the dual's flows and what they put on the
/// descent's parts. A proof reads only these, so it costs O(q − p) beyond
/// the tail's windows, not O(m) (most proofs are of short descents).
#[derive(Debug, Clone)]
struct Descent<T> {
    p: usize,
    from_p: Vec<T>,
}

impl<T: Linear> Descent<T> {
    fn zeros(p: usize, q: usize) -> Descent<T> {
        Descent { p, from_p: vec![T::number(0.0); (q + 1).saturating_sub(p)] }
    }

    fn get(&self, n: usize) -> Option<T> {
        match n.checked_sub(self.p) {
            Some(i) => self.from_p.get(i).copied(),
            None => Some(T::number(0.0)),
        }
    }

    fn get_mut(&mut self, n: usize) -> Option<&mut T> {
        self.from_p.get_mut(n.checked_sub(self.p)?)
    }
}

impl Linear for f64 {
    fn number(v: f64) -> f64 {
        v
    }
    fn plus(self, o: f64) -> f64 {
        self + o
    }
    fn times(self, f: f64) -> f64 {
        self * f
    }
}

impl Linear for Affine2 {
    fn number(v: f64) -> Affine2 {
        (v, 0.0, 0.0)
    }
    fn plus(self, o: Affine2) -> Affine2 {
        add(self, o)
    }
    fn times(self, f: f64) -> Affine2 {
        scale(self, f)
    }
}

/// The flows F_p … F_q (indexed by n), those on the plateau with the
/// oldest mapper of their window, at each flat interval k what its second
/// mapper takes of the first one's shared windows, with their total and
/// what the second mapper kept of its own (see [`runs_share`]), and the
/// front's shared windows: their oldest mapper, the last mapper of its
/// level run they hold, and their flow.
type Flows<T> = (Descent<T>, Vec<(usize, T)>, Vec<(usize, T, T, T)>, Vec<(usize, usize, T)>);

/// The descent's intervals, walked backward by the dual.
struct Walk<'a> {
    sc: &'a Scaled,
    lo: &'a [usize],
    front: &'a [Window],
    /// The tail's unit flows on each falling part.
    tau: &'a Descent<f64>,
    /// The tail's unit flows a flat interval's two mappers share, by the first.
    pairs: &'a Descent<f64>,
    /// The flat intervals (x_{k+1} = x_k, no flow through them).
    flats: &'a [usize],
    p: usize,
    q: usize,
}

impl Walk<'_> {
    /// Backward from F_q = `end`, each interval's flow on its window's
    /// largest part: F_{j−1} = F_j − (w − c Y_j)/A_j down to F_p. At a
    /// flat interval k = j − 1, F_k = 0 instead, and mapper j's own
    /// equation says how much of the windows k and j share goes to j.
    /// Interval q's own flow is placed only where mappers after it idle
    /// (else it is the tail's unit, already among the windows).
    fn backward<T: Linear>(&self, end: T, w: T, idle: bool) -> Option<Flows<T>> {
        let (p, q) = (self.p, self.q);
        let mut flow = Descent::zeros(p, q);
        let mut chain = Descent::zeros(p, q);
        // What each mapper kept of its own shared windows (the level step
        // after it took the rest).
        let mut kept = Descent::zeros(p, q);
        let mut shared = Descent { p, from_p: self.pairs.from_p.iter().map(|&v| T::number(v)).collect() };
        let mut on_plateau: Vec<(usize, T)> = Vec::new();
        let mut splits: Vec<(usize, T, T, T)> = Vec::new();
        let mut sources: Vec<(usize, usize, T)> = Vec::new();
        let mut place = |n: usize, f: T, chain: &mut Descent<T>, shared: &mut Descent<T>| {
            let oldest = self.lo.get(n - 1).copied().unwrap_or(1);
            let window = self.front.get(n - 1);
            let pair = self.flats.binary_search(&oldest).is_ok() && window.is_some_and(|w| holds(w, oldest + 1));
            if oldest <= p {
                on_plateau.push((oldest, f));
            } else if let Some(slot) = if pair { shared.get_mut(oldest) } else { chain.get_mut(oldest) } {
                *slot = slot.plus(f);
                if let Some(w) = window.filter(|_| pair) {
                    sources.push((oldest, reach(w, oldest, self.flats), f));
                }
            }
        };
        *flow.get_mut(q)? = end;
        if idle {
            place(q, end, &mut chain, &mut shared);
        }
        let mut f_j = end;
        for j in (p + 1..=q).rev() {
            let a_j = *self.sc.a.get(j - 1)?;
            let y = T::number(self.tau.get(j)?).plus(chain.get(j)?).plus(kept.get(j)?);
            let next = if self.flats.binary_search(&(j - 1)).is_ok() {
                // A_j F_j + c (Y_j + σ) = w: mapper j takes σ of the pool, j − 1 the rest.
                let given = w.plus(f_j.times(-a_j)).times(1.0 / self.sc.c).plus(y.times(-1.0));
                let pool = shared.get(j - 1)?;
                splits.push((j - 1, given, pool, kept.get(j)?));
                *kept.get_mut(j - 1)? = pool.plus(given.times(-1.0));
                T::number(0.0)
            } else {
                f_j.plus(w.plus(y.times(-self.sc.c)).times(-1.0 / a_j))
            };
            *flow.get_mut(j - 1)? = next;
            place(j - 1, next, &mut chain, &mut shared);
            f_j = next;
        }
        Some((flow, on_plateau, splits, sources))
    }
}

/// The last mapper of the level run from mapper i that window `w` holds
/// without a gap: i's level run ends at the first mapper after it whose
/// interval is not flat.
fn reach(w: &Window, i: usize, flats: &[usize]) -> usize {
    let mut j = i;
    while flats.binary_search(&j).is_ok() && holds(w, j + 1) {
        j += 1;
    }
    j
}

/// Whether the level runs' mappers can share their windows: in a run of
/// level steps every mapper ties with the oldest of each window that holds
/// it, so a window's flow may go to any mapper from its oldest to the last
/// it holds in the run (`sources`: oldest, that last, flow). Each mapper
/// after a run's first needs what the chained split gave it and what it
/// kept of its own windows (`splits`: the interval before it, given, the
/// pool, kept); the run's first takes what is left. Each run is then a
/// split of ranges over its mappers ([`ranges_split`]). (The chained split
/// lets a mapper take only from the windows its predecessor is oldest in:
/// at m = 2703, r = 13, ℓ = 6 the last step's first mapper is oldest in
/// none, while the windows of the one before it hold both.)
fn runs_share(splits: &[(usize, f64, f64, f64)], sources: &[(usize, usize, f64)]) -> bool {
    // (mapper, its need), by mapper: a run's are consecutive.
    let mut needs: Vec<(usize, f64)> = splits.iter().map(|&(k, given, _, kept)| (k + 1, given + kept)).collect();
    needs.sort_unstable_by_key(|n| n.0);
    needs.chunk_by(|a, b| b.0 == a.0 + 1).all(|run| {
        let (Some(&(second, _)), Some(&(last, _))) = (run.first(), run.last()) else { return true };
        let first = second - 1;
        // Positions 1 … run.len() + 1 for mappers first … last.
        let supplies: Vec<(usize, usize, f64)> = sources
            .iter()
            .filter(|s| (first..=last).contains(&s.0))
            .map(|&(oldest, reach, flow)| (oldest - first + 1, reach - first + 1, flow))
            .collect();
        let rest = supplies.iter().map(|s| s.2).sum::<f64>() - run.iter().map(|n| n.1).sum::<f64>();
        let demand = |j: usize| if j == 1 { rest } else { run.get(j - 2).map_or(0.0, |n| n.1) };
        ranges_split(run.len() + 1, &supplies, &demand)
    })
}
