//! Optimal load split on a star (single-level tree), results not returned
//! (Drozdowski, "Divisible load theory", slides "Basic scheduling model",
//! eq. (1)-(3), and "time and energy minimization", eq. (8)-(12)).
//!
//! The originator sends load part α_i to P_i (S_i + C_i α_i), one processor
//! after another; P_i computes for A_i α_i; all finish together (eq. 1):
//! α_i A_i = S_{i+1} + α_{i+1}(A_{i+1} + C_{i+1}), Σ α_i = V (eq. 2).
//!
//! For identical processors, with u = C/A,
//! G(j) = ((1+u)^j − 1)/u and F(j) = (G(j) − j)/u,
//! the recursion's k_i = (1+u)^(m−i) and l_i = (S/A) G(m−i) give
//! α_m = (V − (S/A) F(m)) / G(m), T(m) = mS + CV + A α_m,
//! so T(m) costs O(1) whatever m. G and F are evaluated without
//! cancellation (series where u m is small), which keeps tiny C/A exact.
//! Every α_i > 0 iff V > L(m) = (S/A) F(m) = (SA/C²)((1+C/A)^m − 1 − mC/A).

/// Processor count limit of the calculator (1e6).
pub const MAX_PROCESSORS: usize = 1_000_000;

pub use crate::series::{growth, Growth};

/// Identical processors: computing rate A (s per unit of load), link rate C
/// (s per unit) and start-up S (s per message). Valid by construction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Star {
    a: f64,
    c: f64,
    s: f64,
}

/// The optimal schedule of V on m identical processors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Split {
    pub m: usize,
    pub t: f64,
    pub alpha_1: f64,
    pub alpha_m: f64,
    /// All α_i > 0 (V > L(m)).
    pub feasible: bool,
    /// Σ (S + C α_i) = mS + CV: the originator's sending time (eq. 9).
    pub t_comm: f64,
    /// Σ (S + (C + A) α_i): the processors' busy time.
    pub busy: f64,
}

impl Star {
    /// `None` unless a > 0, c ≥ 0, s ≥ 0, all finite.
    pub fn new(a: f64, c: f64, s: f64) -> Option<Star> {
        let ok = a.is_finite() && c.is_finite() && s.is_finite() && a > 0.0 && c >= 0.0 && s >= 0.0;
        ok.then_some(Star { a, c, s })
    }

    pub fn a(&self) -> f64 {
        self.a
    }
    pub fn c(&self) -> f64 {
        self.c
    }
    pub fn s(&self) -> f64 {
        self.s
    }

    fn u(&self) -> f64 {
        self.c / self.a
    }

    /// The least load that activates all of m processors: L(m) = (S/A) F(m).
    pub fn min_load(&self, m: usize) -> f64 {
        self.s / self.a * growth(self.u(), m as f64).f
    }

    /// T(1) = S + (C + A) V: one processor does everything.
    pub fn t1(&self, v: f64) -> f64 {
        self.s + (self.c + self.a) * v
    }

    /// The closed-form schedule of load `v` on `m` processors, O(1) in m.
    pub fn split(&self, m: usize, v: f64) -> Split {
        let mut s = self.split_real(m as f64, v);
        s.m = m;
        s
    }

    /// The closed form at a real processor count m ≥ 1 (iso-maps sample m
    /// continuously); `m` of the result is m rounded down.
    pub fn split_real(&self, mf: f64, v: f64) -> Split {
        let u = self.u();
        self.split_grown(mf, v, &growth(u, mf), &growth(u, mf - 1.0))
    }

    /// The growth terms (1+u)^m and (1+u)^(m−1) depend on m and C/A alone:
    /// callers that sweep V at fixed m (iso-maps) compute them once.
    pub fn growths(&self, mf: f64) -> (Growth, Growth) {
        (growth(self.u(), mf), growth(self.u(), mf - 1.0))
    }

    /// The closed form given [`Star::growths`] of `mf`.
    pub fn split_grown(&self, mf: f64, v: f64, gm: &Growth, first: &Growth) -> Split {
        let m = mf as usize;
        let alpha_m = (v - self.s / self.a * gm.f) / gm.g;
        let alpha_1 = first.power * alpha_m + self.s / self.a * first.g;
        let t_comm = mf * self.s + self.c * v;
        Split {
            m,
            t: t_comm + self.a * alpha_m,
            alpha_1,
            alpha_m,
            feasible: alpha_m > 0.0 && alpha_m.is_finite(),
            t_comm,
            busy: t_comm + self.a * v,
        }
    }

    /// α_i (i from 1) of the m-processor schedule.
    pub fn alpha(&self, m: usize, i: usize, alpha_m: f64) -> f64 {
        let g = growth(self.u(), (m - i.min(m)) as f64);
        g.power * alpha_m + self.s / self.a * g.g
    }

    /// α_1 + … + α_(i−1) of the m-processor schedule:
    /// α_m (G(m) − G(m−i+1)) + (S/A)(F(m) − F(m−i+1)).
    pub fn load_before(&self, m: usize, i: usize, alpha_m: f64) -> f64 {
        let u = self.u();
        let (all, rest) = (growth(u, m as f64), growth(u, (m + 1 - i.clamp(1, m)) as f64));
        alpha_m * (all.g - rest.g) + self.s / self.a * (all.f - rest.f)
    }

    /// The largest m ≤ `limit` whose schedule activates every processor,
    /// m_max = max{m : L(m) < V}. L grows with m, so bisection finds it.
    pub fn max_processors(&self, v: f64, limit: usize) -> usize {
        if self.s == 0.0 {
            return limit;
        }
        let fits = |m: usize| self.split(m, v).feasible;
        let (mut lo, mut hi) = (1usize, limit.max(1));
        if fits(hi) {
            return hi;
        }
        // fits(lo) holds (one processor takes all of V > 0); fits(hi) fails.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// Heterogeneous processors: the recursion (1)-(3) of the lecture, O(m).
///
/// k_m = 1, l_m = 0, k_i = k_{i+1}(A_{i+1}+C_{i+1})/A_i,
/// l_i = S_{i+1}/A_i + l_{i+1}(A_{i+1}+C_{i+1})/A_i,
/// α_m = (V − Σ l_i) / Σ k_i, α_i = k_i α_m + l_i.
/// Returns `None` when the sums overflow (the first processor would get
/// more than 1e308 times the last one's load).
pub fn recursion(a: &[f64], c: &[f64], s: &[f64], v: f64) -> Option<Vec<f64>> {
    let m = a.len();
    if m == 0 || c.len() != m || s.len() != m {
        return None;
    }
    let mut k = vec![0.0; m];
    let mut l = vec![0.0; m];
    let (mut kn, mut ln) = (1.0, 0.0);
    let (mut sum_k, mut sum_l) = (0.0, 0.0);
    // Walk from P_m back to P_1; `next` is (A, C, S) of P_(i+1).
    let mut next: Option<(f64, f64, f64)> = None;
    for (i, ((ai, ci), si)) in a.iter().zip(c).zip(s).enumerate().rev() {
        if let Some((an, cn, sn)) = next {
            let ratio = (an + cn) / ai;
            ln = sn / ai + ln * ratio;
            kn *= ratio;
        }
        if let (Some(ks), Some(ls)) = (k.get_mut(i), l.get_mut(i)) {
            *ks = kn;
            *ls = ln;
        }
        sum_k += kn;
        sum_l += ln;
        next = Some((*ai, *ci, *si));
    }
    if !(sum_k.is_finite() && sum_l.is_finite()) {
        return None;
    }
    let alpha_m = (v - sum_l) / sum_k;
    Some(k.iter().zip(&l).map(|(k, l)| k * alpha_m + l).collect())
}

/// The schedule of heterogeneous processors, given their load parts.
#[derive(Debug, Clone, PartialEq)]
pub struct HeteroSplit {
    pub alpha: Vec<f64>,
    pub t: f64,
    pub feasible: bool,
    pub t_comm: f64,
    pub busy: f64,
}

pub fn hetero_split(a: &[f64], c: &[f64], s: &[f64], v: f64) -> Option<HeteroSplit> {
    let alpha = recursion(a, c, s, v)?;
    let feasible = alpha.iter().all(|x| *x > 0.0);
    let t_comm: f64 = s.iter().zip(c).zip(&alpha).map(|((s, c), x)| s + c * x).sum();
    let busy = t_comm + a.iter().zip(&alpha).map(|(a, x)| a * x).sum::<f64>();
    // The last processor finishes after all sending plus its own computing.
    let t = t_comm + a.last().copied().unwrap_or(0.0) * alpha.last().copied().unwrap_or(0.0);
    Some(HeteroSplit { alpha, t, feasible, t_comm, busy })
}

/// Every prefix P_1..P_p of a heterogeneous star at once, in O(m), by the
/// forward form α_i = P_i α_1 − Q_i of eq. (1):
/// P_{i+1} = P_i A_i/(A_{i+1}+C_{i+1}), Q_{i+1} = (Q_i A_i + S_{i+1})/(A_{i+1}+C_{i+1}).
/// Used to find the largest feasible prefix and the energy-optimal one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prefix {
    pub p: usize,
    pub t: f64,
    pub feasible: bool,
    pub t_comm: f64,
    pub busy: f64,
    /// T as an affine function of V: T(V) = t_at_zero + t_per_load · V.
    pub t_at_zero: f64,
    pub t_per_load: f64,
    /// The least V that activates all p processors.
    pub min_load: f64,
}

pub fn prefixes(a: &[f64], c: &[f64], s: &[f64], v: f64) -> Vec<Prefix> {
    let (Some(&a1), Some(&c1), Some(&s1)) = (a.first(), c.first(), s.first()) else { return Vec::new() };
    let first = c1 + a1;
    let mut out = Vec::with_capacity(a.len());
    let (mut pi, mut qi) = (1.0, 0.0);
    // Running sums over i ≤ p of P_i, Q_i, S_i, C_i P_i, C_i Q_i, A_i P_i, A_i Q_i.
    let (mut sp, mut sq, mut ss, mut scp, mut scq, mut sap, mut saq) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let mut previous_a: Option<f64> = None;
    for ((&ai, &ci), &si) in a.iter().zip(c).zip(s) {
        if let Some(ap) = previous_a {
            let d = ai + ci;
            qi = (qi * ap + si) / d;
            pi = pi * ap / d;
        }
        previous_a = Some(ai);
        sp += pi;
        sq += qi;
        ss += si;
        scp += ci * pi;
        scq += ci * qi;
        sap += ai * pi;
        saq += ai * qi;
        let alpha_1 = (v + sq) / sp;
        let alpha_p = pi * alpha_1 - qi;
        let t_comm = ss + alpha_1 * scp - scq;
        let busy = t_comm + alpha_1 * sap - saq;
        out.push(Prefix {
            p: out.len() + 1,
            t: s1 + first * alpha_1,
            feasible: alpha_p > 0.0 && alpha_1.is_finite(),
            t_comm,
            busy,
            t_at_zero: s1 + first * sq / sp,
            t_per_load: first / sp,
            min_load: if pi > 0.0 { sp * qi / pi - sq } else { f64::INFINITY },
        });
    }
    out
}

/// The smallest load V > `min_load` whose efficiency e(V) = T(1)/(m T(m))
/// reaches `target`. T(1) = a + bV and m T(m) = c + dV are affine in V, so
/// e is a monotone ratio of linear functions and the root is exact:
/// V* = (target·c − a)/(b − target·d).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TargetLoad {
    /// e(V*) = target.
    At(f64),
    /// Every feasible V already reaches the target: the answer is "just above L(m)".
    AnyFeasible(f64),
    /// e(V) never reaches the target; it approaches `sup`.
    Unreachable { sup: f64 },
}

pub fn target_load(target: f64, (a, b): (f64, f64), (c, d): (f64, f64), min_load: f64) -> TargetLoad {
    let at_limit = if c + d * min_load > 0.0 { (a + b * min_load) / (c + d * min_load) } else { b / d };
    let at_infinity = b / d;
    if at_limit >= target {
        return TargetLoad::AnyFeasible(min_load);
    }
    if at_infinity > at_limit && at_infinity > target {
        let v = (target * c - a) / (b - target * d);
        if v.is_finite() && v > min_load {
            return TargetLoad::At(v);
        }
    }
    TargetLoad::Unreachable { sup: at_infinity.max(at_limit) }
}

/// Power of the platform (slides "time and energy minimization").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Power {
    /// P_C, W per active processor (the originator too).
    pub processor: f64,
    /// P_N, W of the active network.
    pub network: f64,
    /// k > 1: idle power is P/k.
    pub idle_reduction: f64,
}

/// E = E_I + E_RN + E_RC, eq. (8)-(12), for a schedule of length `t` on `m`
/// processors whose sending takes `t_comm` and whose processors are busy
/// `busy` seconds in total.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Energy {
    pub idle: f64,
    pub network: f64,
    pub compute: f64,
}

impl Energy {
    pub fn total(&self) -> f64 {
        self.idle + self.network + self.compute
    }
}

impl Power {
    pub fn energy(&self, m: usize, t: f64, t_comm: f64, busy: f64) -> Energy {
        self.energy_real(m as f64, t, t_comm, busy)
    }

    /// [`Power::energy`] at a real processor count (iso-maps).
    pub fn energy_real(&self, m: f64, t: f64, t_comm: f64, busy: f64) -> Energy {
        let k = self.idle_reduction;
        let above_idle = (k - 1.0) / k;
        Energy {
            // (8): the originator, m processors and the network, idle all along.
            idle: t * ((m + 1.0) * self.processor + self.network) / k,
            // (10): the network runs while the originator sends.
            network: self.network * above_idle * t_comm,
            // (11): the originator while sending, each P_i while receiving and computing.
            compute: self.processor * above_idle * (t_comm + busy),
        }
    }
}

/// The m in 1..=`limit` that minimises `energy(m)`. E(m) falls while extra
/// processors shorten the schedule and rises once their idle power
/// dominates; a geometric scan brackets the minimum and a local search
/// pins it (checked against exhaustive search in the tests).
pub fn argmin(limit: usize, energy: impl Fn(usize) -> f64) -> usize {
    // An energy that is not a number counts as none at all (a NaN with its
    // sign bit set would otherwise order below every real energy).
    let energy = |m: usize| Some(energy(m)).filter(|e| !e.is_nan()).unwrap_or(f64::INFINITY);
    let limit = limit.max(1);
    if limit <= 256 {
        return (1..=limit).min_by(|a, b| energy(*a).total_cmp(&energy(*b))).unwrap_or(1);
    }
    let mut grid = vec![1usize];
    while let Some(&last) = grid.last() {
        let next = ((last as f64 * 1.05).ceil() as usize).max(last + 1);
        if next >= limit {
            break;
        }
        grid.push(next);
    }
    grid.push(limit);
    let at = |i: usize| grid.get(i).copied().unwrap_or(limit);
    let best = (0..grid.len()).min_by(|a, b| energy(at(*a)).total_cmp(&energy(at(*b)))).unwrap_or(0);
    let (mut lo, mut hi) = (at(best.saturating_sub(1)), at(best + 1));
    while hi - lo > 8 {
        let m1 = lo + (hi - lo) / 3;
        let m2 = hi - (hi - lo) / 3;
        if energy(m1) <= energy(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo..=hi).min_by(|a, b| energy(*a).total_cmp(&energy(*b))).unwrap_or(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_sums_match_direct_summation() {
        for u in [0.0f64, 1e-12, 1e-6, 1e-3, 0.1, 1.0] {
            for j in [1usize, 2, 3, 10, 57] {
                // ((1+u)^i − 1)/u = Σ_{k=1..i} C(i,k) u^(k−1): no cancellation.
                let term = |i: usize| {
                    let (mut sum, mut binom, mut power) = (0.0f64, 1.0f64, 1.0f64);
                    for k in 1..=i {
                        binom *= (i + 1 - k) as f64 / k as f64;
                        sum += binom * power;
                        power *= u;
                    }
                    sum
                };
                let (mut g, mut f) = (0.0f64, 0.0f64);
                for i in 0..j {
                    g += 1.0 + u * term(i);
                    f += term(i);
                }
                let gr = growth(u, j as f64);
                assert!((gr.g - g).abs() <= 1e-12 * g, "G u={u} j={j}: {} vs {g}", gr.g);
                let tol = 1e-12;
                assert!((gr.f - f).abs() <= tol * f.max(1.0), "F u={u} j={j}: {} vs {f}", gr.f);
            }
        }
    }
}
