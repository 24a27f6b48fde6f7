//! Engines that work on any model through [`crate::model::AnyModel`]:
//! sweeps, iso-maps, the contouring behind them and the map image's layout,
//! and the calibration of a model's parameters from measurements. No model
//! is named here.

pub mod calibrate;
pub mod contour;
pub mod isomap;
pub mod map_layout;
pub mod sweep;
pub mod uncertainty;
