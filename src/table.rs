//! Tables a model shows beside its outputs (comparisons, reproductions of
//! the paper's tables). Cells are text, formatted by the core, so every
//! front end prints the same digits.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub id: &'static str,
    pub title: String,
    pub caption: String,
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

/// Whether a row agrees with its reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Plain,
    Current,
    Agrees,
    Disagrees,
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub cells: Vec<String>,
    pub status: Status,
    /// A plain-language remark shown under the row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
}
