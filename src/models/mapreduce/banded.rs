//! Square banded linear systems by Gaussian elimination with partial
//! pivoting (the scheme of LAPACK's `gbsv`), for the chain's parts and
//! its dual flows where a sweep in one unknown would lose every digit.
//!
//! A long chain whose parts fall from its fixed point S/c has one mode
//! that grows by a factor of about 1 + c/A an interval and others that
//! die out. Written as affine functions of its first part, the parts then
//! need 10¹⁷ times more digits than a double has by the 2400th mapper;
//! the system itself is well conditioned (the load Σx = 1 pins the growing
//! mode at the chain's end), so elimination with partial pivoting, which
//! is backward stable, solves it to rounding. It costs
//! O(n · lower · (lower + upper)), so the chain takes it only where the
//! sweep's cancellation is large.

use std::cell::Cell;

thread_local! {
    /// Multiply-adds of every elimination and substitution this thread has
    /// made ([`work`]).
    static WORK: Cell<f64> = const { Cell::new(0.0) };
}

/// Multiply-adds the banded solves of this thread have made so far: a
/// search that budgets its solves reads it before and after one.
pub fn work() -> f64 {
    WORK.with(Cell::get)
}

/// An n × n matrix with `lower` diagonals below the main one and `upper`
/// above it, stored by rows with room for the `lower` extra diagonals that
/// row exchanges fill in above.
#[derive(Debug, Clone)]
pub(super) struct Banded {
    n: usize,
    lower: usize,
    upper: usize,
    /// Row i holds columns i − lower ..= i + lower + upper.
    rows: Vec<f64>,
}

impl Banded {
    pub(super) fn new(n: usize, lower: usize, upper: usize) -> Banded {
        Banded { n, lower, upper, rows: vec![0.0; n * (2 * lower + upper + 1)] }
    }

    fn width(&self) -> usize {
        2 * self.lower + self.upper + 1
    }

    /// Where a_ij is stored, for i, j < n and j within the stored band.
    fn slot(&self, i: usize, j: usize) -> Option<usize> {
        let offset = (j + self.lower).checked_sub(i)?;
        (i < self.n && j < self.n && offset < self.width()).then_some(i * self.width() + offset)
    }

    /// a_ij += v; `None` outside the band given to [`Banded::new`].
    pub(super) fn add(&mut self, i: usize, j: usize, v: f64) -> Option<()> {
        if j > i + self.upper {
            return None;
        }
        let k = self.slot(i, j)?;
        *self.rows.get_mut(k)? += v;
        Some(())
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        self.slot(i, j).and_then(|k| self.rows.get(k)).copied().unwrap_or(0.0)
    }

    /// Solves A x = b in place for every right-hand side b (each of length
    /// n); `None` if A is singular to working precision or a value is not
    /// finite.
    pub(super) fn solve(mut self, rhs: &mut [Vec<f64>]) -> Option<()> {
        let (n, lower, width) = (self.n, self.lower, self.width());
        let reach = lower + self.upper; // the upper band of U
        if rhs.iter().any(|b| b.len() != n) {
            return None;
        }
        // Each column eliminated from up to `lower` rows of the band's width,
        // and every right-hand side through both substitutions.
        let multiply_adds = n as f64 * (lower as f64 * (reach + rhs.len()) as f64 + (reach * rhs.len()) as f64);
        WORK.with(|w| w.set(w.get() + multiply_adds));
        for k in 0..n {
            let last = (k + lower).min(n - 1);
            let pivot = (k..=last).max_by(|&a, &b| self.at(a, k).abs().total_cmp(&self.at(b, k).abs()))?;
            let p = self.at(pivot, k);
            if p == 0.0 || !p.is_finite() {
                return None;
            }
            let right = (k + reach).min(n - 1);
            if pivot != k {
                for j in k..=right {
                    let (a, b) = (self.slot(k, j)?, self.slot(pivot, j)?);
                    self.rows.swap(a, b);
                }
                for b in rhs.iter_mut() {
                    b.swap(k, pivot);
                }
            }
            // Row k's columns k ..= right, then each row below it.
            let (above, below) = self.rows.split_at_mut((k + 1) * width);
            let pivot_row = above.get(k * width + lower..=k * width + lower + right - k)?;
            for i in k + 1..=last {
                // Row i holds column j at i·width + j + lower − i.
                let start = (i - k - 1) * width + k + lower - i;
                let row = below.get_mut(start..=start + right - k)?;
                let f = row.first()? / p;
                if f == 0.0 {
                    continue;
                }
                for (a, &v) in row.iter_mut().zip(pivot_row).skip(1) {
                    *a -= f * v;
                }
                for b in rhs.iter_mut() {
                    let bk = *b.get(k)?;
                    *b.get_mut(i)? -= f * bk;
                }
            }
        }
        for b in rhs.iter_mut() {
            for k in (0..n).rev() {
                let right = (k + reach).min(n - 1);
                let row = self.rows.get(k * width + lower..=k * width + lower + right - k)?;
                let mut v = *b.get(k)?;
                for (a, x) in row.iter().zip(b.get(k..=right)?).skip(1) {
                    v -= a * x;
                }
                let x = v / row.first()?;
                if !x.is_finite() {
                    return None;
                }
                *b.get_mut(k)? = x;
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tridiagonal system against its solution, and a row exchange
    /// forced by a zero on the diagonal.
    #[test]
    fn solves_with_pivoting() {
        let n = 6;
        let x: Vec<f64> = (0..n).map(|i| 1.0 + i as f64 * 0.5).collect();
        let mut a = Banded::new(n, 2, 1);
        let mut b = vec![0.0; n];
        for (i, bi) in b.iter_mut().enumerate() {
            for (j, xj) in x.iter().enumerate().take(i + 2).skip(i.saturating_sub(2)) {
                // Zero diagonal in row 0: the first step must exchange rows.
                let v = if i == j && i == 0 { 0.0 } else { 1.0 + ((3 * i + 7 * j) % 5) as f64 };
                a.add(i, j, v).unwrap();
                *bi += v * xj;
            }
        }
        assert!(a.add(0, 3, 1.0).is_none(), "outside the band");
        let mut rhs = vec![b];
        a.solve(&mut rhs).unwrap();
        for (got, want) in rhs[0].iter().zip(&x) {
            assert!((got - want).abs() < 1e-12, "{got} against {want}");
        }
    }

    #[test]
    fn singular_is_none() {
        let mut a = Banded::new(2, 1, 1);
        for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            a.add(i, j, 1.0).unwrap();
        }
        assert!(a.solve(&mut [vec![1.0, 2.0]]).is_none());
    }
}
