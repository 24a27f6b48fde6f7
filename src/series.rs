//! The geometric series of divisible load theory: (1+u)^j, G(j) and F(j),
//! evaluated without cancellation. The star of `dlt` and the single-reducer
//! closed form of `mapreduce` both stand on them.

use libm::{exp, expm1, log1p};

/// (1+u)^j, G(j) = Σ_{i<j} (1+u)^i and F(j) = Σ_{i<j} ((1+u)^i − 1)/u,
/// all for real j ≥ 0. Infinite when (1+u)^j overflows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Growth {
    pub power: f64,
    pub g: f64,
    pub f: f64,
}

pub fn growth(u: f64, j: f64) -> Growth {
    if j <= 0.0 {
        return Growth { power: 1.0, g: 0.0, f: 0.0 };
    }
    if j == 1.0 {
        // Exactly: no rounding of (G − 1)/u when u is huge.
        return Growth { power: 1.0 + u, g: 1.0, f: 0.0 };
    }
    let x = j * log1p(u);
    if x > 0.5 {
        let g = expm1(x) / u;
        return Growth { power: exp(x), g, f: (g - j) / u };
    }
    // F = Σ_{k≥2} C(j,k) u^(k−2): every term positive, so no cancellation
    // however small u is; the ratio of terms is below x ≤ 0.5.
    let (mut term, mut f) = (j * (j - 1.0) / 2.0, 0.0);
    let mut k = 2.0;
    while term != 0.0 && k < 200.0 {
        f += term;
        term *= (j - k) / (k + 1.0) * u;
        if term.abs() <= f64::EPSILON * 1e-3 * f {
            break;
        }
        k += 1.0;
    }
    // G = j + u F and (1+u)^j = 1 + u G, from the same binomial expansion.
    let g = j + u * f;
    Growth { power: 1.0 + u * g, g, f }
}
