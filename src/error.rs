//! Errors that carry the key of the parameter at fault, so that every front
//! end can point at the field and say what would be valid.

use std::fmt;

use serde::Serialize;

use crate::format::{echo, num};

/// What is wrong with one value.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Problem {
    Empty,
    NotANumber(String),
    NotFinite,
    /// A number beyond the largest double (1e309), as typed.
    TooLarge(String),
    NotInteger(f64),
    OutOfRange(f64),
    UnknownChoice(String),
    UnknownKey,
    /// A rule that involves the model, e.g. "not a perfect square".
    Constraint(String),
    /// The n-th item (from 1) of a list has the problem.
    Item(usize, Box<Problem>),
}

/// One parameter's value is not acceptable.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamError {
    pub key: String,
    /// What a valid value looks like ("an integer with 1 ≤ value ≤ 10000").
    pub valid: String,
    pub problem: Problem,
}

impl ParamError {
    /// A rule of the model, with its own sentence of what is valid.
    pub fn constraint(key: &str, what: String, valid: String) -> Self {
        ParamError { key: key.to_string(), valid, problem: Problem::Constraint(what) }
    }

    /// The sentence without the key, for showing beside the field itself.
    pub fn message(&self) -> String {
        format!("{}; expected {}", describe(&self.problem), self.valid)
    }
}

fn describe(problem: &Problem) -> String {
    match problem {
        Problem::Empty => "no value given".to_string(),
        // The text is quoted and cut where it was read (spec::parse_number).
        Problem::NotANumber(s) => format!("{s} is not a number"),
        Problem::NotFinite => "NaN and infinity are not allowed".to_string(),
        Problem::TooLarge(s) => format!("{s} is too large to compute with (numbers stop near 1.8e308)"),
        Problem::NotInteger(x) => format!("{} is not a whole number", num(*x)),
        Problem::OutOfRange(x) => format!("{} is out of range", num(*x)),
        Problem::UnknownChoice(s) => format!("'{}' is not an option", echo(s)),
        Problem::UnknownKey => "is not a parameter of this model".to_string(),
        Problem::Constraint(s) => s.clone(),
        Problem::Item(i, p) => format!("value {i}: {}", describe(p)),
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", echo(&self.key), self.message())
    }
}

impl std::error::Error for ParamError {}

/// Why a model could not produce outputs.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ModelError {
    /// One or more parameters are invalid.
    Params(Vec<ParamError>),
    /// No model, chart or preset by that name.
    Unknown { what: &'static str, name: String, known: Vec<String> },
    /// A result left the range of finite numbers.
    NonFinite { output: &'static str },
    /// A numerical solver failed on valid input.
    Solver(String),
}

impl ModelError {
    pub fn param(e: ParamError) -> Self {
        ModelError::Params(vec![e])
    }

    /// Field-level problems as data: `[{key, message}]`.
    pub fn field_errors(&self) -> Vec<FieldError> {
        match self {
            ModelError::Params(es) => {
                es.iter().map(|e| FieldError { key: e.key.clone(), message: e.message() }).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Params(es) => {
                let parts: Vec<String> = es.iter().map(|e| e.to_string()).collect();
                write!(f, "{}", parts.join("; "))
            }
            ModelError::Unknown { what, name, known } => {
                write!(f, "unknown {what} '{}'; known: {}", echo(name), known.join(", "))
            }
            ModelError::NonFinite { output } => {
                write!(f, "{output} is too large to represent for these parameters; reduce the problem size")
            }
            ModelError::Solver(message) => write!(f, "no schedule: {message}"),
        }
    }
}

impl std::error::Error for ModelError {}

impl From<ParamError> for ModelError {
    fn from(e: ParamError) -> Self {
        ModelError::param(e)
    }
}

impl From<Vec<ParamError>> for ModelError {
    fn from(es: Vec<ParamError>) -> Self {
        ModelError::Params(es)
    }
}

/// A problem at one field of the form.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldError {
    pub key: String,
    pub message: String,
}

/// Why measured data could not be read or analysed: a line and column of
/// the data where one is at fault.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalysisError {
    /// 1-based; 0 when no single line is at fault.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.message),
            (l, 0) => write!(f, "line {l}: {}", self.message),
            (l, c) => write!(f, "line {l}, column {c}: {}", self.message),
        }
    }
}

impl std::error::Error for AnalysisError {}

impl AnalysisError {
    pub fn general(message: impl Into<String>) -> Self {
        AnalysisError { line: 0, column: 0, message: message.into() }
    }

    /// A problem at `line` (1-based), `column` (1-based, 0 for the whole line).
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> Self {
        AnalysisError { line, column, message: message.into() }
    }
}

impl From<ModelError> for AnalysisError {
    fn from(e: ModelError) -> Self {
        AnalysisError::general(e.to_string())
    }
}
