//! Fitting measured data: nonlinear least squares with the statistics of
//! its estimates ([`lm`]), and the search for a scaling law among the
//! performance-model normal form's hypotheses ([`laws`]). Plain numerics:
//! a model's calibration, which evaluates the model at every step, is in
//! `engine::calibrate`.

pub mod laws;
pub mod lm;

/// The two-sided 95% quantile of Student's t with `dof` degrees of freedom
/// (NaN for none).
pub fn t95(dof: usize) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    StudentsT::new(0.0, 1.0, dof as f64).map_or(f64::NAN, |t| t.inverse_cdf(0.975))
}
