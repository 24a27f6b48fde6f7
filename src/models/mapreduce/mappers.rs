//! How many identical mappers are worth using: the m' ≤ m with the shortest
//! shuffle (t_red does not depend on m', so also the shortest T), found
//! exactly without solving every m'.
//!
//! A lower bound on each count's shuffle prunes the search ([`lower_bounds`],
//! O(1) a count): the count of the least bound is solved first, then every
//! other count whose bound does not exceed the best shuffle found, which
//! proves every count skipped slower. The bound is within about 0.3 % of
//! the shuffle near the best count, so only the counts near it are solved
//! (49 of m = 3500 at the iso-map's point with r = 100). The chain in
//! closed form ([`identical_chain`], O(1)) answers where its certificate
//! holds; the chain, the start-up bound, the chain with an idle tail and
//! (in the full module) the plateau with its descent answer elsewhere,
//! within a budget of intervals (each solve charged its intervals times
//! the passes the chain may take, the descent its mappers times the
//! passes its search makes, the chain after a plateau its intervals times
//! the passes of each plateau length it tried). A count none of them
//! solves blocks the proof only if its bound is not above the best shuffle
//! found in the end.
//!
//! Where the bounds leave thousands of counts (a shuffle flat in m to
//! 10⁻¹⁰ over them), neighbouring counts share their schedule's shape:
//! each count is tried first with the method that solved the count before,
//! the descent first near the shape proved there and the chain after a
//! plateau from the plateau's length there, a few passes each instead of
//! a search over every shape (m = 8053: 22 s -> 1.1 s for 1633 counts).
//!
//! For a per-mapper list the counts are its first m' mappers, which start
//! in list order ([`best_prefix`]): the same search, with bounds for
//! mappers of different speeds ([`prefix_lower_bounds`]) and the list's
//! own schedule as the first count solved. Where its counts near the best
//! are capped at levels ended by pins, the pins that proved one count are
//! tried first at the next (the counts share their first mappers, where
//! the pins are): the uniform 500-list of seed 3 with V = 10¹⁰, 104 such
//! counts, takes 0.44 s natively where each count's own search over pins
//! took 3.4 s.
//!
//! A list's bounds fall up to 5 % short of the shuffles near its best (a
//! random 2000-list with r = 250, ℓ = 100, V = 10¹¹ B: 498 counts left),
//! and the counts past the best may be of a shape only the general LP
//! solves (there 62 counts, 0.2 to 0.5 s each to solve). The search needs
//! only to know that such a count is slower than the best it has: the
//! general LP's relaxations stop once a dual bound passes that best, most
//! after their first round, and the count is ruled out by that bound. The
//! dual solution of that first round then bounds the counts around it
//! too, without an LP of their own ([`transferred_bound`]): the search
//! proves that list's best, 1364 mappers, in 0.5 s, where it stopped
//! unproven at the first such count before the general LP was asked.

use super::banded;
use super::schedule::{
    capped_level_charged, capped_level_passes, capped_levels_charged, descent_method, equal_parts, general_charged,
    identical_chain, plateau_method, single_group_methods, tied_chain, transferred_bound, Flows, Hint, Intervals,
    LevelsNear, PlateauNear, Shuffle, Verdict, BANDED_WORK,
};

/// Passes over the intervals (or the mappers) the search may make outside
/// the closed form where it runs off the page's thread (the report worker,
/// the command line), each about 5 ns natively: about 3 s at most. The
/// flattest shuffles need most of it: m = 4988, r = 35, ℓ = 37 solves 3358
/// counts for 5.1 · 10⁸ (2.9 s; the best is m itself), m = 8053, r = 280,
/// ℓ = 281 1633 for 2.0 · 10⁸ (1.0 s; m' = 8008); m = 3704, r = 481,
/// ℓ = 463 147 for 2.8 · 10⁷ (0.19 s).
pub const SEARCH_INTERVALS: usize = 600_000_000;

/// The same on the page's own thread (the quick report): about 0.1 s
/// natively at most. A search this does not prove is left to the worker.
pub const QUICK_SEARCH_INTERVALS: usize = 20_000_000;

/// The most passes the search for a list's best first mappers makes, in
/// solves of the whole list (or the quick search's budget, where that is
/// more): without a closed form each count is a chain over its intervals,
/// and where the bounds leave most counts (10⁵ mappers of two speeds with
/// V = 10¹⁴: 78 000 of them) the search would end unproven after seconds
/// of them. With V = 10¹² the same list's best, 5674 mappers, takes 72.
/// A solve is charged the capped level's reads at its dearest where they
/// are more than the chain's passes: the counts near a random list's best
/// are often capped levels (the uniform 500-list of seed 3 with r = 250,
/// ℓ = 100 and V = 10¹⁰: 104 counts, 1.6 × 10⁸ passes, 0.4 s natively).
const LIST_SOLVES: usize = 100;

/// Passes over the intervals one solve is charged: the chain's rounds.
const PASSES: usize = 8;

/// Passes over the mappers the descent is charged: its search's grid,
/// bisections and ternary searches for each of three idle counts.
const DESCENT_PASSES: usize = 128;

/// Passes over the mappers the descent is charged where the search near
/// the shape proved at the count before proves (the windows, a few tens of
/// plateau lengths over a short descent, the proof).
const NEAR_DESCENT_PASSES: usize = 96;

/// Passes over the intervals the chain after a plateau is charged for each
/// plateau length it tries: a chain and a split of the plateau's flows
/// (about 0.6 ms at 8300 intervals in one group). A bisection over all
/// lengths tries about 13.
const PLATEAU_TRY_PASSES: usize = 16;

/// Multiply-adds of the banded solves (where a chain's sweep lost too many
/// digits) charged as one pass: a chain after a plateau of two at
/// m = 4988, r = 35, ℓ = 37 (bandwidth 34) makes some 2 · 10⁷ in 10 ms.
const BANDED_WORK_PER_PASS: f64 = 4.0;

/// The outcome of the search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MapperSearch {
    /// m' with the shortest shuffle (the fewest mappers among equals, to
    /// 10⁻¹² relative), and that shuffle's end.
    Best { m: usize, t_shuffle: f64 },
    /// No proof: mapper count `m`, which its lower bound does not rule
    /// out, has a shuffle the quick methods do not solve (or the budget ran
    /// out); `best` is the best of the counts solved, an upper bound, and
    /// `budget` the interval passes the search had.
    Unproven { m: usize, best: Option<(usize, f64)>, budget: usize },
}

/// The quick methods a count is tried with, the one that solved the count
/// before first ([`in_turn`]): for identical mappers the single group's,
/// the descent, the plateau and the single capped level; for a list's
/// first mappers the plateau over slower mappers, the capped levels
/// (rising, at the pins of the count before), the chain tied first, and
/// the general LP, asked only whether the count is slower than the best
/// found (a random list's counts past its best come in runs that only it
/// decides, where the other methods failed first for 0.4 s a count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Solver {
    Single,
    Descent,
    Plateau,
    Level,
    Levels,
    Tied,
    General,
}

/// `solve` with each of `methods` in turn, the one that solved the count
/// before (`last`) first (a search's counts come in runs of one shape),
/// until one solves; that one is the next count's first.
fn in_turn<T>(last: &mut Solver, methods: &[Solver], mut solve: impl FnMut(Solver) -> Option<T>) -> Option<T> {
    let before = *last;
    let first = methods.iter().copied().filter(|&q| q == before);
    first.chain(methods.iter().copied().filter(|&q| q != before)).find_map(|method| {
        let solved = solve(method)?;
        *last = method;
        Some(solved)
    })
}

/// What solving a count learned: its shuffle, or only a lower bound on it
/// past the best shuffle found (the general LP's dual bound).
enum Found {
    Shuffle(f64),
    Longer(f64),
}

/// Ties within this relative difference go to the fewer mappers.
const TIE_RTOL: f64 = 1e-12;

/// A count is skipped only where its bound exceeds the best shuffle by
/// more than this as well: the solvers' answers are exact to about 10⁻⁹
/// relative, the bound's arithmetic to far better.
const BOUND_RTOL: f64 = 1e-9;

/// The best m' ≤ `m` for identical mappers with map cost `a` per unit,
/// start-up `s`, send cost `c` per unit to one reducer, load `v`, `r`
/// reducers and bisection width `l`, within `budget` interval passes
/// ([`SEARCH_INTERVALS`] or [`QUICK_SEARCH_INTERVALS`]).
#[allow(clippy::too_many_arguments)]
pub fn best_mappers(m: usize, r: usize, l: usize, a: f64, s: f64, c: f64, v: f64, budget: usize) -> MapperSearch {
    best_mappers_after(m, r, l, a, s, c, v, budget, None)
}

/// [`best_mappers`] where the shuffle of all `m` mappers is already
/// solved (`given`, the form's: it may have taken a method or a budget the
/// search does not have, such as a plateau over 10⁶ intervals, and it is
/// not solved again).
#[allow(clippy::too_many_arguments)]
pub fn best_mappers_after(
    m: usize,
    r: usize,
    l: usize,
    a: f64,
    s: f64,
    c: f64,
    v: f64,
    budget: usize,
    given: Option<f64>,
) -> MapperSearch {
    let mut bounds = lower_bounds(m, r, l, a, s, c, v);
    if given.is_some() {
        bounds.truncate(m.saturating_sub(1)); // m is known, as a list's is ([`best_prefix`])
    }
    let mut last = Solver::Single;
    let mut hint = Hint::default();
    let mut plateau = PlateauNear::default();
    search(&bounds, given.map(|t| (m, t)), budget, |k, budget, _| {
        // A method runs only while the budget holds its dearest case, and is
        // charged what it did: the descent its search near the last shape
        // proved where that proves, the chain after a plateau each length it
        // tried.
        let iv = Intervals::new(k, r, l)?;
        if let Some(ends) = identical_chain(iv, a, s, c, v) {
            return Some(Found::Shuffle(ends.t_shuffle));
        }
        let p = Shuffle { intervals: iv, a: vec![a; k], s, c, v };
        let n = iv.count();
        in_turn(&mut last, &[Solver::Single, Solver::Descent, Solver::Plateau, Solver::Level], |method| {
            let most = match method {
                Solver::Single => n.saturating_mul(PASSES),
                Solver::Descent => k.saturating_mul(DESCENT_PASSES),
                Solver::Plateau => n.saturating_mul(PLATEAU_TRY_PASSES),
                Solver::Level => 0, // it holds its own dearest case
                Solver::Levels | Solver::Tied | Solver::General => return None, // a list's
            };
            if *budget < most {
                return None;
            }
            let banded_before = banded::work();
            let (solved, cost) = match method {
                // Equal parts too, a few passes, where a start-up is a hair past a part's transfer.
                Solver::Single => (single_group_methods(&p).or_else(|| equal_parts(&p)), most),
                Solver::Descent => {
                    let solved = descent_method(&p, &mut hint);
                    (solved, if hint.proved_near() { k.saturating_mul(NEAR_DESCENT_PASSES) } else { most })
                }
                Solver::Plateau => {
                    let solved = plateau_method(&p, &mut plateau, BANDED_WORK);
                    (solved, n.saturating_mul(PLATEAU_TRY_PASSES).saturating_mul(plateau.tried))
                }
                Solver::Level => (capped_level_charged(&p, budget), 0),
                Solver::Levels | Solver::Tied | Solver::General => (None, 0),
            };
            let banded = (banded::work() - banded_before) / BANDED_WORK_PER_PASS;
            *budget = budget.saturating_sub(cost).saturating_sub(banded as usize);
            solved.map(|sol| Found::Shuffle(sol.makespan()))
        })
    })
}

/// The search over the counts 1 … `bounds.len()` (count k's lower bound
/// `bounds[k − 1]`), after `known` (a count and its shuffle, already
/// solved), within `budget`: the count of the least bound first (its
/// shuffle is normally close to the best, so that the bounds rule out most
/// counts at once), then every other one its bound does not rule out,
/// each by `solve(k, budget left, past)`, which charges what it spends and
/// gives the shuffle where it proves one, or a lower bound on it where that
/// is past `past` (a count that long is slower than the best found). A
/// count it does not solve is harmless once the best shuffle found is
/// below its bound; where neither the best
/// so far nor any later count's bound is (the uniform 500-list of seed 3
/// with V = 10¹¹: 2.7 s of capped levels that fail, the rest of the budget,
/// before), the search stops there. Reports the fraction of the budget
/// spent.
fn search(
    bounds: &[f64],
    known: Option<(usize, f64)>,
    budget: usize,
    mut solve: impl FnMut(usize, &mut usize, f64) -> Option<Found>,
) -> MapperSearch {
    let count = bounds.len();
    let bound = |k: usize| bounds.get(k - 1).copied().unwrap_or(0.0);
    let first = (1..=count).map(|k| (bound(k), k)).min_by(|x, y| x.0.total_cmp(&y.0)).map_or(1, |(_, k)| k);
    let mut solved: Vec<(usize, f64)> = known.into_iter().collect();
    let mut unsolved: Vec<(usize, f64)> = Vec::new();
    let mut best = known.map_or(f64::INFINITY, |(_, t)| t);
    let (mut left, mut reported) = (budget, 0.0);
    let order: Vec<usize> = std::iter::once(first).chain((1..=count).filter(|&k| k != first)).collect();
    // The least bound of the counts after each place in the order: no
    // shuffle found later is shorter.
    let mut later: Vec<f64> = order
        .iter()
        .rev()
        .scan(f64::INFINITY, |least, &k| {
            let after = *least;
            *least = least.min(bound(k));
            Some(after)
        })
        .collect();
    later.reverse();
    for (i, &k) in order.iter().enumerate() {
        if ruled_out(bound(k), best) {
            continue;
        }
        report_spent(budget, left, &mut reported);
        // Only the search's own progress is heard, not each solve's.
        let lower = match crate::progress::unheard(|| solve(k, &mut left, past(best))) {
            Some(Found::Shuffle(t)) => {
                solved.push((k, t));
                best = best.min(t);
                continue;
            }
            Some(Found::Longer(lower)) => lower.max(bound(k)),
            None => bound(k),
        };
        // The best found in the end is at least the least of the best now
        // and the later counts' bounds: a count not ruled out by that never
        // will be, and the search stops unproven here.
        if !ruled_out(lower, best.min(later.get(i).copied().unwrap_or(f64::INFINITY))) {
            return MapperSearch::Unproven { m: k, best: fewest(&solved), budget };
        }
        unsolved.push((k, lower));
    }
    let best = fewest(&solved);
    match unsolved.iter().find(|&&(_, bound)| !ruled_out(bound, best.map_or(f64::INFINITY, |(_, t)| t))) {
        Some(&(k, _)) => MapperSearch::Unproven { m: k, best, budget },
        None => match best {
            Some((m, t_shuffle)) => MapperSearch::Best { m, t_shuffle },
            None => MapperSearch::Unproven { m: 1, best: None, budget },
        },
    }
}

/// Whether a count whose shuffle is at least `bound` is slower than `best`.
fn ruled_out(bound: f64, best: f64) -> bool {
    bound > past(best)
}

/// The length past which a count is slower than `best`.
fn past(best: f64) -> f64 {
    best * (1.0 + TIE_RTOL) / (1.0 - BOUND_RTOL)
}

/// Reports the fraction of `whole` spent, once a whole percent more of it is.
fn report_spent(whole: usize, left: usize, reported: &mut f64) {
    let whole = whole.max(1) as f64;
    let spent = ((whole - left as f64) / whole * 100.0).floor() / 100.0;
    if spent > *reported {
        *reported = spent;
        crate::progress::report(spent);
    }
}

/// The best first m' ≤ m mappers of the per-mapper list `shuffle.a` (they
/// start in list order), given the whole list's shuffle `t_all`, within
/// `budget` interval passes (at most [`LIST_SOLVES`] solves of the whole
/// list): [`search`] over the counts below m, with the bounds of
/// [`prefix_lower_bounds`], each count solved by the chain, the start-up
/// bound and the chain with an idle tail (a few passes over the intervals
/// each), or else ruled out by the flows of the last count the general LP
/// ruled out after one round (a bound from another count's dual solution,
/// [`transferred_bound`]: less than a millisecond at 2000 mappers, where
/// a round takes ten), or else by a plateau (over slower mappers: the lengths tried
/// from the count before's), or else by parts capped at one level or at
/// levels rising along the first mappers (some sixty levels' passes over
/// the mappers: the start-up bound counts just above a random list's
/// best, and its counts near the best where the load is larger; each
/// count tried first at the pins that proved the count before, which stay
/// among the first mappers the counts share), or else by the general LP
/// while its cost fits what is left of the budget (tens of milliseconds at
/// 160 mappers), asked only whether the count is slower than the best
/// found; a count none of them solves or rules out blocks the proof only
/// if its bound is not above the best shuffle found.
pub fn best_prefix(shuffle: &Shuffle, t_all: f64, budget: usize) -> MapperSearch {
    let (m, r, l) = (shuffle.intervals.m(), shuffle.intervals.r(), shuffle.intervals.width());
    let mut bounds = prefix_lower_bounds(&shuffle.a, r, l, shuffle.s, shuffle.c, shuffle.v);
    bounds.truncate(m.saturating_sub(1));
    let (mut plateau, mut levels) = (PlateauNear::default(), LevelsNear::default());
    // The count before's method first: a plateau's search that fails tries
    // some tens of lengths, each a few passes, where the levels at the pins
    // of the count before take one level's search.
    let mut last = Solver::Tied;
    // The flows of the last count the general LP ruled out after one round,
    // which bound the counts around it: each count is tried with them first.
    let mut flows: Option<Flows> = None;
    search(&bounds, Some((m, t_all)), list_budget(&shuffle.intervals, budget), |k, left, past| {
        let iv = Intervals::new(k, r, l)?;
        *left = left.checked_sub(iv.count().saturating_mul(PASSES))?;
        let prefix = Shuffle { intervals: iv, a: shuffle.a.get(..k)?.to_vec(), ..*shuffle };
        let banded_before = banded::work();
        let single = single_group_methods(&prefix);
        let banded = (banded::work() - banded_before) / BANDED_WORK_PER_PASS;
        *left = left.saturating_sub(banded as usize);
        if let Some(solved) = single {
            return Some(Found::Shuffle(solved.makespan()));
        }
        if let Some(given) = &flows {
            // A pass for each window member it reads (about 3m windows of
            // at most ℓ mappers) and each interval: 0.6 ms at 1082 mappers,
            // ℓ = 100, where it took 0.6 to 0.7 ms natively.
            let reads = iv.m().saturating_mul(iv.width());
            *left = left.checked_sub(reads.saturating_add(iv.count().saturating_mul(PASSES)))?;
            if let Some(bound) = transferred_bound(&prefix, given, past).filter(|&bound| bound > past) {
                return Some(Found::Longer(bound));
            }
        }
        let methods = [Solver::Plateau, Solver::Levels, Solver::Tied, Solver::General];
        in_turn(&mut last, &methods, |method| match method {
            Solver::Plateau => {
                // Its length tried first the count before's: each length a
                // few passes.
                let pass = iv.count().saturating_mul(PLATEAU_TRY_PASSES);
                (*left >= pass).then_some(())?;
                let solved = plateau_method(&prefix, &mut plateau, BANDED_WORK);
                *left = left.saturating_sub(pass.saturating_mul(plateau.tried));
                solved.map(|sol| Found::Shuffle(sol.makespan()))
            }
            Solver::Levels => {
                capped_levels_charged(&prefix, left, &mut levels).map(|sol| Found::Shuffle(sol.makespan()))
            }
            // The chain with its first mapper tied to a later one: a few passes.
            Solver::Tied => {
                *left = left.checked_sub(iv.count().saturating_mul(PASSES))?;
                tied_chain(&prefix).map(|sol| Found::Shuffle(sol.makespan()))
            }
            Solver::General => match general_charged(&prefix, left, past)? {
                Verdict::Solved(solved) => {
                    levels.learn(&prefix, &solved);
                    Some(Found::Shuffle(solved.makespan()))
                }
                Verdict::Longer { bound, flows: dual } => {
                    flows = dual.or(flows.take());
                    Some(Found::Longer(bound))
                }
            },
            Solver::Single | Solver::Descent | Solver::Level => None, // identical mappers'
        })
    })
}

/// The interval passes the search for a list's best first mappers may
/// make within `budget`: at most [`LIST_SOLVES`] solves of the whole list.
fn list_budget(intervals: &Intervals, budget: usize) -> usize {
    let whole_list = intervals.count().saturating_mul(PASSES).max(capped_level_passes(intervals));
    budget.min(QUICK_SEARCH_INTERVALS.max(whole_list.saturating_mul(LIST_SOLVES)))
}

/// The fewest mappers whose shuffle is within [`TIE_RTOL`] of the shortest.
fn fewest(solved: &[(usize, f64)]) -> Option<(usize, f64)> {
    let shortest = solved.iter().map(|&(_, t)| t).fold(f64::INFINITY, f64::min);
    solved.iter().copied().filter(|&(_, t)| t <= shortest * (1.0 + TIE_RTOL)).min_by_key(|&(k, _)| k)
}

/// Lower bounds on the shuffle t_{N+1} of k = 1 … m identical mappers
/// (`bounds[k − 1]`), in O(m).
///
/// Interval boundaries never decrease, and interval n lasts at least c
/// times the part of any mapper that sends in it. For k mappers, and every
/// mapper i ≤ k:
///
/// - Mapper i sends to each of the r reducers in its own interval n ≥ i,
///   all after t_i = iS + Aα_i, so t_{N+1} ≥ iS + (A + rc)α_i.
/// - Intervals n ≤ k hold only the first reducer group, mapper n among
///   them, so t_{k+1} ≥ t_i + c Σ_{i ≤ j ≤ k} α_j. Each of the G − 1 later
///   groups g has its own first k intervals gk + 1 … gk + k, after t_{k+1},
///   interval gk + o holding mapper o: together they last at least
///   c Σα = cV. So with D = (G − 1)cV,
///   t_{N+1} − D ≥ iS + Aα_i + c Σ_{i ≤ j ≤ k} α_j for every i, and
///   t_{N+1} − D ≥ t_k ≥ kS.
///
/// Any weights y ≥ 0 summing to one over a family bound t_{N+1} by their
/// mix, least over α with Σα = V. For the first family [`water_level`]
/// gives that least value exactly. For the second, weights falling as
/// ρ^{i−1} with ρ = A/(A + c) give every α_j the same coefficient w, so
/// that the mix is S Σ i y_i + wV whatever the α: the relaxation's optimum
/// where all k mappers work, and close to it near the best count. The
/// water level of that family with slope A + c (only interval i counted)
/// and kS + D are kept beside it.
pub fn lower_bounds(m: usize, r: usize, l: usize, a: f64, s: f64, c: f64, v: f64) -> Vec<f64> {
    let ln_rho = -libm::log1p(c / a); // ln ρ, exact where c ≪ A
    let rho = libm::exp(ln_rho);
    let (mut weight, mut weights, mut moment) = (1.0, 0.0, 0.0); // ρ^{k−1}, Σ ρ^{j−1}, Σ j ρ^{j−1}
    (1..=m)
        .map(|k| {
            weights += weight;
            moment += k as f64 * weight;
            weight *= rho;
            let Some(iv) = Intervals::new(k, r, l) else { return 0.0 };
            let later_groups = (iv.groups() - 1) as f64 * c * v;
            // Σ y = 1 with y_i = (w/c)(1 − ρ)ρ^{i−1}: w = c/(1 − ρ^k).
            let w = c / -libm::expm1(k as f64 * ln_rho);
            let mixed = if w.is_finite() { s * moment / weights + w * v } else { 0.0 };
            let first_sends = mixed.max(water_level(a + c, s, v, k)).max(k as f64 * s) + later_groups;
            first_sends.max(water_level(a + iv.r() as f64 * c, s, v, k))
        })
        .collect()
}

/// Lower bounds on the shuffle t_{N+1} of the first k = 1 … m mappers of
/// a list with map costs `a` (`bounds[k − 1]`), in O(m): the families of
/// [`lower_bounds`] for mappers of different speeds. For every mapper
/// i ≤ k, with D = (G − 1)cV for the k mappers' G reducer groups:
///
/// - t_{N+1} ≥ iS + (A_i + rc)α_i (mapper i's r sends, after it maps);
/// - t_{N+1} − D ≥ iS + A_iα_i + c Σ_{i ≤ j ≤ k} α_j, and ≥ kS.
///
/// The first family's least mix over α is its water level (with slopes
/// b_i = A_i + rc, [`WaterLevel`]). In the second, weights falling as
/// (1 − ρ_i) Π_{j<i} ρ_j with ρ_j = A_j/(A_j + c) give every α_j the same
/// coefficient w = c/(1 − Π_{j ≤ k} ρ_j), so that the mix is
/// S Σ i y_i + wV whatever the α (for identical mappers, the weights of
/// [`lower_bounds`]); the water level with slopes A_i + c (interval i
/// only) and kS + D are kept beside it.
pub fn prefix_lower_bounds(a: &[f64], r: usize, l: usize, s: f64, c: f64, v: f64) -> Vec<f64> {
    let (mut sends, mut own) = (WaterLevel::new(s, v), WaterLevel::new(s, v));
    // ln Π_{j ≤ k} ρ_j and Σ_{i ≤ k} i (1 − ρ_i) Π_{j<i} ρ_j.
    let (mut ln_product, mut moment) = (0.0, 0.0);
    a.iter()
        .enumerate()
        .map(|(i, &ai)| {
            let k = i + 1;
            let ln_rho = -libm::log1p(c / ai);
            moment += k as f64 * libm::exp(ln_product) * -libm::expm1(ln_rho);
            ln_product += ln_rho;
            let sends = sends.add(k, ai + r as f64 * c);
            let own = own.add(k, ai + c);
            let Some(iv) = Intervals::new(k, r, l) else { return 0.0 };
            let later_groups = (iv.groups() - 1) as f64 * c * v;
            let share = -libm::expm1(ln_product); // 1 − Π ρ_j = c/w
            let mixed = if share > 0.0 { (s * moment + c * v) / share } else { 0.0 };
            (mixed.max(own).max(k as f64 * s) + later_groups).max(sends)
        })
        .collect()
}

/// The water level of mappers 1 … k added one by one: min over α ≥ 0 with
/// Σα = V of max_{i ≤ k} (iS + b_iα_i), the level L with
/// Σ_i (L − iS)⁺/b_i = V. For the first p mappers alone that is
/// (V + S Σ_{i ≤ p} i/b_i)/Σ_{i ≤ p} 1/b_i, and adding mapper p + 1 averages
/// it with (p + 1)S: it falls while the next mapper starts below it, then
/// rises, so the level of k mappers is the least over p ≤ k.
struct WaterLevel {
    s: f64,
    v: f64,
    speed: f64,
    moment: f64,
    least: f64,
}

impl WaterLevel {
    fn new(s: f64, v: f64) -> WaterLevel {
        WaterLevel { s, v, speed: 0.0, moment: 0.0, least: f64::INFINITY }
    }

    /// Adds mapper `i` with slope `b`; the level of the mappers so far.
    fn add(&mut self, i: usize, b: f64) -> f64 {
        self.speed += 1.0 / b;
        self.moment += i as f64 / b;
        self.least = self.least.min((self.v + self.s * self.moment) / self.speed);
        self.least
    }
}

/// min over α ≥ 0 with Σα = v of max_{i ≤ k} (is + bα_i): the water level
/// L with Σ_{i ≤ k} (L − is)⁺ = bv, which is the least over the p ≤ k
/// mappers that get a part of (bv + s p(p + 1)/2)/p (a larger level for
/// any p other than the filled ones), convex in p, least near √(2bv/s).
fn water_level(b: f64, s: f64, v: f64, k: usize) -> f64 {
    let level = |p: f64| (b * v + s * p * (p + 1.0) / 2.0) / p;
    let k = k as f64;
    let p = if s > 0.0 { (2.0 * b * v / s).sqrt().floor().clamp(1.0, k) } else { k };
    level(p).min(level((p + 1.0).min(k)))
}
