//! The registry: every model of the calculator, in the order the page
//! shows them. Adding a model is one directory here and one line below.

use crate::error::ModelError;
use crate::model::{AnyModel, Registered};
use crate::spec::ModelSpec;

pub mod broadcast;
pub mod dlt;
pub mod mapreduce;
pub mod pipeline;
pub mod pmm;
pub mod scaling;

pub static MODELS: &[&dyn AnyModel] = &[
    &Registered::<pmm::Pmm>::NEW,
    &Registered::<dlt::Dlt>::NEW,
    &Registered::<mapreduce::MapReduce>::NEW,
    &Registered::<pipeline::Pipeline>::NEW,
    &Registered::<scaling::Scaling>::NEW,
    &Registered::<broadcast::Broadcast>::NEW,
];

pub fn specs() -> Vec<&'static ModelSpec> {
    MODELS.iter().map(|m| m.spec()).collect()
}

pub fn find(id: &str) -> Result<&'static dyn AnyModel, ModelError> {
    MODELS.iter().copied().find(|m| m.spec().id == id).ok_or_else(|| ModelError::Unknown {
        what: "model",
        name: id.to_string(),
        known: MODELS.iter().map(|m| m.spec().id.to_string()).collect(),
    })
}
