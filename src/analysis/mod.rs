//! Analyses of measured data: reading it, fitting models to it, deriving
//! demands from it. No web types; the page and the CLI call these.

pub mod contour;
pub mod csv;
pub mod demand;
pub mod fit;
pub mod isomap;
