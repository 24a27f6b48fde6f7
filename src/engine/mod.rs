//! Engines that work on any model through [`crate::model::AnyModel`]:
//! sweeps, iso-maps and the contouring behind them. No model is named here.

pub mod contour;
pub mod isomap;
pub mod sweep;
