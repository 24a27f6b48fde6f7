//! Fitting measured data: nonlinear least squares with the statistics of
//! its estimates ([`lm`]), and the search for a scaling law among the
//! performance-model normal form's hypotheses ([`laws`]). Plain numerics:
//! a model's calibration, which evaluates the model at every step, is in
//! `engine::calibrate`.

pub mod laws;
pub mod lm;

/// Standard normal draws from a seed: xorshift64 started from the seed
/// mixed by splitmix64 (a small seed would start xorshift on tiny numbers),
/// Box–Muller. For sampling a fit's parameters (Monte Carlo) and for
/// synthetic data in tests: deterministic, not cryptographic.
#[derive(Debug, Clone)]
pub struct Normal(u64);

impl Normal {
    pub fn seeded(seed: u64) -> Normal {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Normal((z ^ (z >> 31)).max(1))
    }

    /// A uniform draw in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// A standard normal draw.
    pub fn draw(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// The two-sided 95% quantile of Student's t with `dof` degrees of freedom
/// (NaN for none).
pub fn t95(dof: usize) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    StudentsT::new(0.0, 1.0, dof as f64).map_or(f64::NAN, |t| t.inverse_cdf(0.975))
}
