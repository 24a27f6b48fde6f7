//! How many identical mappers are worth using: the m' ≤ m with the shortest
//! shuffle (t_red does not depend on m', so also the shortest T), found
//! exactly without solving every m'.
//!
//! Two facts prune the search. A lower bound: mapper m' starts after m'
//! start-ups, and each of the G − 1 later reducer groups receives every
//! mapper's output after t_{m'} (in its intervals the windows' newest
//! senders run through every mapper once), so
//! t_{N+1} ≥ m'S + (G − 1)cV.
//! From m' = ℓ on, G = ⌈r/ℓ⌉ no longer changes and the bound only grows, so
//! the search ends at the first such m' whose bound reaches the best
//! shuffle found. Below the bound, the chain in closed form
//! ([`identical_chain`], O(1)) answers where its certificate holds; the
//! chain, the start-up bound, the chain with an idle tail and (in the full
//! module) the plateau with its descent answer elsewhere, within a budget
//! of intervals (each solve charged its intervals times the passes the
//! chain may take, and the descent its mappers times the passes its
//! search makes).

use super::schedule::{descent_method, identical_chain, single_group_methods, Intervals, Shuffle};

/// Interval passes the search may make outside the closed form: a few
/// milliseconds natively.
pub const SEARCH_INTERVALS: usize = 2_000_000;

/// Passes over the intervals one solve is charged: the chain's rounds.
const PASSES: usize = 8;

/// Passes over the mappers the descent is charged: its search's grid,
/// bisections and ternary searches for each of three idle counts.
const DESCENT_PASSES: usize = 128;

/// The outcome of the search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MapperSearch {
    /// m' with the shortest shuffle (the fewest mappers among equals, to
    /// 10⁻¹² relative), and that shuffle's end.
    Best { m: usize, t_shuffle: f64 },
    /// No proof: mapper count `m`, which its bound does not rule out, has
    /// a shuffle the quick methods do not solve (or the budget ran out);
    /// `best` is the best of the counts below it, an upper bound.
    Unproven { m: usize, best: Option<(usize, f64)> },
}

/// Ties within this relative difference go to the fewer mappers.
const TIE_RTOL: f64 = 1e-12;

/// The best m' ≤ `m` for identical mappers with map cost `a` per unit,
/// start-up `s`, send cost `c` per unit to one reducer, load `v`, `r`
/// reducers and bisection width `l`.
pub fn best_mappers(m: usize, r: usize, l: usize, a: f64, s: f64, c: f64, v: f64) -> MapperSearch {
    let mut best: Option<(usize, f64)> = None;
    let mut budget = SEARCH_INTERVALS;
    for k in 1..=m {
        let unproven = MapperSearch::Unproven { m: k, best };
        let Some(iv) = Intervals::new(k, r, l) else { return unproven };
        let bound = k as f64 * s + (iv.groups() - 1) as f64 * c * v;
        if let Some((_, t)) = best {
            if bound >= t {
                if k >= l {
                    break; // G is fixed from here and the bound only grows
                }
                continue;
            }
        }
        // Each solve is paid for before it runs; `None` once the budget is spent.
        let mut charge = |n: usize| budget.checked_sub(n).map(|left| budget = left);
        let t = match identical_chain(iv, a, s, c, v) {
            Some(ends) => ends.t_shuffle,
            None => {
                let p = Shuffle { intervals: iv, a: vec![a; k], s, c, v };
                let solved = charge(iv.count().saturating_mul(PASSES)).and_then(|()| {
                    single_group_methods(&p)
                        .or_else(|| charge(k.saturating_mul(DESCENT_PASSES)).and_then(|()| descent_method(&p)))
                });
                match solved {
                    Some(sol) => sol.makespan(),
                    None => return unproven,
                }
            }
        };
        if best.is_none_or(|(_, b)| t < b * (1.0 - TIE_RTOL)) {
            best = Some((k, t));
        }
    }
    match best {
        Some((m, t_shuffle)) => MapperSearch::Best { m, t_shuffle },
        None => MapperSearch::Unproven { m: 1, best: None },
    }
}
