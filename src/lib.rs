//! isoperf: analytical performance models of parallel and distributed
//! programs, from the papers in `shared/papers/`.
//!
//! The crate is built in layers, each using only those above it in this
//! list (`docs/architecture.md` draws them):
//!
//! 1. vocabulary: [`spec`], [`error`], [`format`](mod@format), [`table`], [`chart`],
//!    [`csv`], [`series`], [`collective`] (broadcast algorithms, their costs
//!    and a simulator of their schedules), [`progress`], [`fit`] (nonlinear
//!    least squares and the search for a scaling law);
//! 2. [`model`]: the `Model` trait and its type-erased adapter;
//! 3. [`models`]: the models, one directory each, and the registry;
//! 4. [`engine`]: sweeps and iso-maps, written against the trait alone;
//! 5. [`api`]: the one facade every front end calls;
//! 6. the front ends: `web` (wasm-bindgen exports) and the `isoperf` binary.
//!
//! Everything but `web` is plain Rust and builds and tests natively.

// The documentation is the developers' map of the code: it names the
// private constants and functions that decide a behaviour, and links them.
#![allow(rustdoc::private_intra_doc_links)]

pub mod chart;
pub mod collective;
pub mod csv;
pub mod error;
pub mod fit;
pub mod format;
pub mod progress;
pub mod series;
pub mod spec;
pub mod table;

pub mod model;

pub mod models;

#[cfg(feature = "full")]
pub mod engine;

pub mod api;

#[cfg(target_arch = "wasm32")]
pub mod web;
