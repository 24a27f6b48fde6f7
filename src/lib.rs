//! isoperf: analytical performance models of parallel and distributed
//! programs, from the papers in `shared/papers/`.
//!
//! The core (everything but [`web`]) is plain Rust: each model declares its
//! parameters once ([`spec`]), validates them into [`spec::Params`], and
//! predicts with a pure function. The browser package and the `isoperf`
//! command line are thin front ends over [`models::evaluate`].

pub mod analysis;
pub mod chart;
pub mod error;
pub mod format;
pub mod models;
pub mod spec;
pub mod table;

#[cfg(target_arch = "wasm32")]
pub mod web;
