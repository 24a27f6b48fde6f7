//! The declarative description of a model: its parameters, outputs, presets,
//! charts and notes. This is the single source of truth from which the page
//! builds its forms, the URL hash its state, the CLI its arguments, and the
//! validator its messages.

use std::collections::BTreeMap;
use std::fmt;

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::error::{ModelError, ParamError, Problem};
use crate::format::echo;
pub use crate::format::num;

/// How a numeric axis or slider is best explored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    Linear,
    Log,
}

/// The closed or half-open interval a numeric parameter must lie in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Range {
    pub min: f64,
    /// When true, `min` itself is not allowed (times that must be positive).
    pub min_exclusive: bool,
    pub max: f64,
}

impl Range {
    /// `min <= x <= max`.
    pub const fn closed(min: f64, max: f64) -> Self {
        Range { min, min_exclusive: false, max }
    }

    /// `0 < x <= max`.
    pub const fn positive(max: f64) -> Self {
        Range { min: 0.0, min_exclusive: true, max }
    }

    pub fn contains(&self, x: f64) -> bool {
        let above = if self.min_exclusive { x > self.min } else { x >= self.min };
        above && x <= self.max
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = if self.min_exclusive { "<" } else { "≤" };
        write!(f, "{} {op} value ≤ {}", num(self.min), num(self.max))
    }
}

/// What kind of value a parameter takes.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ParamKind {
    Number {
        default: f64,
        range: Range,
        scale: Scale,
        integer: bool,
        /// When set, the page also shows 1/value in this unit (a rate for a
        /// per-item time, e.g. "flop/s" beside "s/flop").
        #[serde(skip_serializing_if = "Option::is_none")]
        reciprocal_unit: Option<&'static str>,
    },
    Choice {
        default: &'static str,
        options: &'static [ChoiceOption],
    },
    /// A list of numbers, one per item (per-processor values). Lists with
    /// the same `group` are edited together as the columns of one table
    /// and must have equal lengths.
    List {
        default: &'static [f64],
        range: Range,
        scale: Scale,
        group: &'static str,
        max_len: usize,
    },
}

impl ParamKind {
    /// A number without a reciprocal display.
    pub const fn number(default: f64, range: Range, scale: Scale, integer: bool) -> Self {
        ParamKind::Number { default, range, scale, integer, reciprocal_unit: None }
    }
}

/// Sizes in bytes, SI and binary prefixes side by side (kB = 1000 B,
/// KiB = 1024 B): a unit choice is explicit, never guessed.
pub const BYTE_UNITS: &[ChoiceOption] = &[
    ChoiceOption::unit("B", 1.0),
    ChoiceOption::unit("kB", 1e3),
    ChoiceOption::unit("KiB", 1024.0),
    ChoiceOption::unit("MB", 1e6),
    ChoiceOption::unit("MiB", 1_048_576.0),
    ChoiceOption::unit("GB", 1e9),
    ChoiceOption::unit("GiB", 1_073_741_824.0),
];

#[derive(Debug, Clone, Serialize)]
pub struct ChoiceOption {
    pub value: &'static str,
    pub label: &'static str,
    /// For a unit choice: how many base units one of this unit is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub factor: Option<f64>,
}

impl ChoiceOption {
    pub const fn new(value: &'static str, label: &'static str) -> Self {
        ChoiceOption { value, label, factor: None }
    }

    pub const fn unit(value: &'static str, factor: f64) -> Self {
        ChoiceOption { value, label: value, factor: Some(factor) }
    }
}

/// A parameter that only matters for some values of a choice parameter.
#[derive(Debug, Clone, Serialize)]
pub struct AppliesWhen {
    pub key: &'static str,
    pub values: &'static [&'static str],
}

#[derive(Debug, Clone, Serialize)]
pub struct ParamSpec {
    pub key: &'static str,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub label: &'static str,
    pub unit: &'static str,
    #[serde(flatten)]
    pub kind: ParamKind,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub help: &'static str,
    /// Where in the paper the parameter comes from, e.g. "eq. (5)".
    pub reference: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applies_when: Option<AppliesWhen>,
    /// Left empty or out, the parameter takes this other parameter's value
    /// (T_merge = T_comp unless given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<&'static str>,
    /// The choice parameter that holds this number's unit (its options carry
    /// factors to `unit`, the base unit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_from: Option<&'static str>,
}

impl ParamSpec {
    /// A parameter that always applies and has no fallback or unit menu;
    /// override those with struct update syntax.
    pub const fn new(
        key: &'static str,
        label: &'static str,
        unit: &'static str,
        kind: ParamKind,
        help: &'static str,
        reference: &'static str,
    ) -> Self {
        ParamSpec { key, label, unit, kind, help, reference, applies_when: None, fallback: None, unit_from: None }
    }

    /// The default as a value.
    pub fn default_value(&self) -> Value {
        match &self.kind {
            ParamKind::Number { default, .. } => Value::Num(*default),
            ParamKind::Choice { default, .. } => Value::Choice((*default).to_string()),
            ParamKind::List { default, .. } => Value::List(default.to_vec()),
        }
    }

    /// A sentence naming what is valid, for error messages.
    pub fn valid(&self) -> String {
        match &self.kind {
            ParamKind::Number { range, integer, .. } => {
                let what = if *integer { "an integer" } else { "a number" };
                let unit = match (self.unit_from, self.unit) {
                    (Some(_), _) => " (in the unit chosen beside it)".to_string(),
                    (None, "") => String::new(),
                    (None, u) => format!(" ({u})"),
                };
                format!("{what} with {range}{unit}")
            }
            ParamKind::Choice { options, .. } => {
                let names: Vec<&str> = options.iter().map(|o| o.value).collect();
                format!("one of {}", names.join(", "))
            }
            ParamKind::List { range, max_len, .. } => {
                let unit = if self.unit.is_empty() { String::new() } else { format!(" ({})", self.unit) };
                format!("1 to {max_len} comma-separated numbers, each with {range}{unit}")
            }
        }
    }

    /// `problem` with this parameter's key and what would be valid.
    pub fn error(&self, problem: Problem) -> ParamError {
        ParamError { key: self.key.to_string(), valid: self.valid(), problem }
    }

    /// Checks one raw value against this spec.
    pub fn parse(&self, raw: &RawValue) -> Result<Value, ParamError> {
        let err = |problem| self.error(problem);
        match &self.kind {
            ParamKind::Number { range, integer, .. } => {
                let x = match raw {
                    RawValue::Num(x) => *x,
                    RawValue::Bool(b) => return Err(err(Problem::NotANumber(format!("{b}")))),
                    RawValue::Text(s) => parse_number(s).map_err(err)?,
                    RawValue::List(_) => {
                        return Err(err(Problem::NotANumber(format!("the list [{}]", echo(&raw.to_string())))))
                    }
                };
                if !x.is_finite() {
                    return Err(err(Problem::NotFinite));
                }
                if *integer && x.fract() != 0.0 {
                    return Err(err(Problem::NotInteger(x)));
                }
                if !range.contains(x) {
                    return Err(err(Problem::OutOfRange(x)));
                }
                Ok(Value::Num(x))
            }
            ParamKind::List { range, max_len, .. } => {
                let items: Vec<RawValue> = match raw {
                    RawValue::List(items) => items.clone(),
                    RawValue::Num(x) => vec![RawValue::Num(*x)],
                    RawValue::Text(s) if s.trim().is_empty() => Vec::new(),
                    RawValue::Text(s) => split_list(s).into_iter().map(RawValue::Text).collect(),
                    RawValue::Bool(b) => return Err(err(Problem::NotANumber(format!("{b}")))),
                };
                if items.is_empty() {
                    return Err(err(Problem::Empty));
                }
                if items.len() > *max_len {
                    return Err(err(Problem::Constraint(format!("{} values are too many", items.len()))));
                }
                let mut values = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let at = |p: Problem| err(Problem::Item(i + 1, Box::new(p)));
                    let x = match item {
                        RawValue::Num(x) => *x,
                        RawValue::Text(s) => parse_number(s).map_err(at)?,
                        other => return Err(at(Problem::NotANumber(other.to_string()))),
                    };
                    if !x.is_finite() {
                        return Err(at(Problem::NotFinite));
                    }
                    if !range.contains(x) {
                        return Err(at(Problem::OutOfRange(x)));
                    }
                    values.push(x);
                }
                Ok(Value::List(values))
            }
            ParamKind::Choice { options, .. } => {
                let owned;
                let s = match raw {
                    RawValue::Text(s) => s.trim(),
                    RawValue::Bool(b) => {
                        owned = b.to_string();
                        owned.as_str()
                    }
                    other => return Err(err(Problem::UnknownChoice(other.to_string()))),
                };
                match options.iter().find(|o| o.value == s) {
                    Some(o) => Ok(Value::Choice(o.value.to_string())),
                    None => Err(err(Problem::UnknownChoice(s.to_string()))),
                }
            }
        }
    }
}

/// The items of a typed list. With commas or semicolons those separate
/// (an empty item stays, so "1,,3" reports item 2 as empty instead of
/// shifting item 3 into its place); otherwise white space does.
pub fn split_list(text: &str) -> Vec<String> {
    let t = text.trim();
    if t.contains([',', ';']) {
        t.split([',', ';']).map(|x| x.trim().to_string()).collect()
    } else {
        t.split_whitespace().map(str::to_string).collect()
    }
}

/// Parses what a user typed. Accepts plain and scientific notation; rejects
/// decimal commas, NaN and infinities with a message that says so.
pub(crate) fn parse_number(text: &str) -> Result<f64, Problem> {
    let s = text.trim();
    if s.is_empty() {
        return Err(Problem::Empty);
    }
    let lower = s.to_ascii_lowercase();
    if lower.contains("nan") || lower.contains("inf") {
        return Err(Problem::NotFinite);
    }
    if s.contains(',') {
        return Err(Problem::NotANumber(format!("'{}' (use a decimal point, not a comma)", echo(s))));
    }
    let x = s.parse::<f64>().map_err(|_| Problem::NotANumber(format!("'{}'", echo(s))))?;
    // "1e309" is a number, only too large for a double: say so.
    if x.is_infinite() {
        return Err(Problem::TooLarge(format!("'{}'", echo(s))));
    }
    Ok(x)
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct OutputSpec {
    pub key: &'static str,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub label: &'static str,
    pub unit: &'static str,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub help: &'static str,
    /// For a categorical output (one of several labels, such as the fastest
    /// algorithm), its categories; its value is a category's id, and maps
    /// colour each region by its category. Empty for a number.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub categories: &'static [Category],
}

/// A reference line a model draws on its maps where parameter `key` is
/// an axis (MPICH's switch points on the broadcast winner map): at `value`
/// in the parameter's own units, dashed, with a short `label` on the line
/// and, once in the legend, what such lines mark (`source`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Guide {
    pub key: &'static str,
    pub value: f64,
    pub label: String,
    pub source: &'static str,
}

/// One value a categorical output can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Category {
    pub id: &'static str,
    pub label: &'static str,
}

/// A named set of parameter values from a paper. Keys it leaves out keep
/// whatever the user has.
#[derive(Debug, Clone, Serialize)]
pub struct Preset {
    pub id: &'static str,
    pub label: &'static str,
    /// The table, figure or section the values come from.
    pub source: &'static str,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub note: &'static str,
    pub values: &'static [(&'static str, PresetValue)],
}

/// Presets that come from one table or figure.
#[derive(Debug, Clone, Serialize)]
pub struct PresetGroup {
    pub label: &'static str,
    pub presets: &'static [Preset],
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(untagged)]
pub enum PresetValue {
    Num(f64),
    Choice(&'static str),
    List(&'static [f64]),
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct ChartSpec {
    pub id: &'static str,
    pub title: &'static str,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub caption: &'static str,
}

/// A ready-made iso-map: an output over two parameters, with levels.
#[derive(Debug, Clone, Serialize)]
pub struct MapPreset {
    pub id: &'static str,
    pub label: &'static str,
    pub output: &'static str,
    /// `KEY:MIN:MAX[:log]`.
    pub x: &'static str,
    pub y: &'static str,
    pub levels: &'static [f64],
    /// Grid nodes per axis (fewer where each point solves an LP).
    pub grid: usize,
    /// Form values the map needs (the slide's V for iso-energy); applied with it.
    pub values: &'static [(&'static str, PresetValue)],
}

/// A chart of one output against one parameter for several values of a
/// second parameter (the lecture's "speedup vs m for several r"), computed
/// point by point off the main thread.
#[derive(Debug, Clone, Serialize)]
pub struct SweepSpec {
    pub id: &'static str,
    pub title: &'static str,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub caption: &'static str,
    pub output: &'static str,
    /// The parameter along the x axis.
    pub x: &'static str,
    pub x_min: f64,
    pub x_max: f64,
    pub points: usize,
    pub x_log: bool,
    /// The parameter that differs between the curves, and its values.
    pub series: &'static str,
    /// How a curve is named: "r = ℓ" for "r = ℓ = 100".
    pub label: &'static str,
    pub values: &'static [f64],
    /// Parameters set to the series value too (l = r).
    pub linked: &'static [&'static str],
    /// Values this sweep fixes whatever the form says (γ = 1 where the
    /// shuffle must matter); the caption says so.
    pub fixed: &'static [(&'static str, f64)],
}

impl SweepSpec {
    /// The x values: `points` values from `x_min` to `x_max` (geometric on a
    /// log axis), rounded and deduplicated for an integer parameter.
    pub fn xs(&self, integer: bool) -> Vec<f64> {
        let n = self.points.max(2);
        let mut out: Vec<f64> = (0..n)
            .map(|k| {
                let f = k as f64 / (n - 1) as f64;
                let x = if self.x_log {
                    libm::exp(libm::log(self.x_min) + f * (libm::log(self.x_max) - libm::log(self.x_min)))
                } else {
                    self.x_min + f * (self.x_max - self.x_min)
                };
                if integer {
                    x.round()
                } else {
                    x
                }
            })
            .collect();
        out.dedup();
        out
    }
}

/// A kind of measured data a model can analyse.
#[derive(Debug, Clone, Serialize)]
pub struct DatasetSpec {
    pub id: &'static str,
    pub title: &'static str,
    /// The columns, in the order rows without a naming header give them
    /// (listed by name).
    #[serde(serialize_with = "crate::csv::names")]
    pub columns: &'static [crate::csv::Column],
    /// The parameters its analysis reads: a change of any other leaves
    /// the analysis as it is (the page does not redo it).
    pub params: &'static [&'static str],
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub help: &'static str,
    /// Example files served with the page, all labelled synthetic.
    pub examples: &'static [Example],
    pub charts: &'static [ChartSpec],
}

#[derive(Debug, Clone, Serialize)]
pub struct Example {
    pub id: &'static str,
    pub label: &'static str,
    /// Path relative to the page.
    pub path: &'static str,
}

/// Example runs to calibrate a model from, and what they are for.
#[derive(Debug, Clone, Serialize)]
pub struct CalibrationExample {
    pub id: &'static str,
    pub label: &'static str,
    /// Path relative to the page.
    pub path: &'static str,
    /// The parameters the runs are meant to fit.
    pub fit: &'static [&'static str],
    /// Whether to fit relative errors (times spanning decades).
    pub relative: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModelSpec {
    pub id: &'static str,
    pub title: &'static str,
    /// The title in a word or two, for the tabs of a narrow screen (empty: the title).
    pub short_title: &'static str,
    pub paper: &'static str,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
    pub outputs: &'static [OutputSpec],
    pub preset_groups: &'static [PresetGroup],
    pub charts: &'static [ChartSpec],
    /// Charts of an output swept over a parameter, several curves each.
    pub sweeps: &'static [SweepSpec],
    /// Measured data the model analyses (pasted or uploaded CSV).
    pub datasets: &'static [DatasetSpec],
    /// Iso-maps worth a click (the lecture's isoefficiency maps, ...).
    pub maps: &'static [MapPreset],
    /// Example runs to calibrate the model from (CSV files served with the
    /// page, all labelled synthetic; see `engine::calibrate`).
    pub calibration_examples: &'static [CalibrationExample],
    /// What a blank point of an iso-map means for this model.
    pub gaps: &'static str,
    /// Paragraphs the page shows under the form: how ambiguities of the paper
    /// were resolved, and where the paper contradicts itself.
    #[serde(serialize_with = "crate::format::rich_text::many")]
    pub notes: &'static [&'static str],
}

impl ModelSpec {
    /// A model with no parameters, outputs, presets, charts, sweeps, data
    /// sets, maps or notes: the base of a model's spec written with struct
    /// update syntax (`ModelSpec { params: PARAMS, ..ModelSpec::new(…) }`),
    /// so that a new optional field needs no change to the models.
    pub const fn new(id: &'static str, title: &'static str, paper: &'static str, summary: &'static str) -> Self {
        ModelSpec {
            id,
            title,
            short_title: "",
            paper,
            summary,
            params: &[],
            outputs: &[],
            preset_groups: &[],
            charts: &[],
            sweeps: &[],
            datasets: &[],
            maps: &[],
            calibration_examples: &[],
            gaps: "",
            notes: &[],
        }
    }

    pub fn param(&self, key: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.key == key)
    }

    /// `v` as a value of the numeric parameter `key`, as a map or sweep
    /// sets it: rounded where the parameter is an integer, `None` outside
    /// its valid range.
    pub fn value_at(&self, key: &str, v: f64) -> Option<Value> {
        let p = self.param(key)?;
        let v = match p.kind {
            ParamKind::Number { integer: true, .. } => v.round(),
            _ => v,
        };
        p.parse(&RawValue::Num(v)).ok()
    }

    /// Base units per unit chosen in the unit choice `unit_key` of `p`
    /// (bytes per MiB, bit/s per Gibit/s).
    pub fn unit_factor(&self, p: &Params, unit_key: &'static str) -> Result<f64, ModelError> {
        let chosen = p.require_choice(unit_key)?;
        self.param(unit_key)
            .and_then(|spec| match &spec.kind {
                ParamKind::Choice { options, .. } => options.iter().find(|o| o.value == chosen)?.factor,
                _ => None,
            })
            .ok_or_else(|| ModelError::Unknown { what: "unit", name: chosen.into(), known: vec![] })
    }

    /// Whether `spec` is used under the choices in `raw` (see `applies_when`).
    pub fn applies(&self, spec: &ParamSpec, raw: &RawParams) -> bool {
        let Some(when) = &spec.applies_when else { return true };
        self.chosen(when.key, raw).is_none_or(|chosen| when.values.contains(&chosen))
    }

    /// The option chosen for choice parameter `key` in `raw` (as typed,
    /// trimmed), or its default when `raw` leaves it out; `None` when `raw`
    /// holds something other than text there.
    pub fn chosen<'a>(&'a self, key: &str, raw: &'a RawParams) -> Option<&'a str> {
        match (raw.get(key), self.param(key).map(|p| &p.kind)) {
            (Some(RawValue::Text(s)), _) => Some(s.trim()),
            (None, Some(ParamKind::Choice { default, .. })) => Some(default),
            _ => None,
        }
    }

    pub fn presets(&self) -> impl Iterator<Item = &Preset> {
        self.preset_groups.iter().flat_map(|g| g.presets.iter())
    }

    /// "Label (unit)" of a parameter or output, for chart axes.
    pub fn axis_label(&self, key: &str) -> String {
        let (label, unit) = match (self.param(key), self.outputs.iter().find(|o| o.key == key)) {
            (Some(p), _) => (p.label, p.unit),
            (None, Some(o)) => (o.label, o.unit),
            (None, None) => (key, ""),
        };
        // Drawn on a canvas: Unicode subscripts, and a trailing symbol with
        // none ("Communication per step T_comm") left out of a longer label.
        let label = crate::format::drawn(label);
        let label = match label.rsplit_once(' ') {
            Some((words, symbol)) if symbol.contains('_') => words.to_string(),
            _ => label,
        };
        if unit.is_empty() {
            label
        } else {
            format!("{label} ({unit})")
        }
    }

    pub fn defaults(&self) -> Params {
        Params { values: self.params.iter().map(|p| (p.key, p.default_value())).collect() }
    }

    /// `key` is not a parameter of this model; the message lists those that are.
    pub fn unknown_key(&self, key: &str) -> ParamError {
        let keys: Vec<&str> = self.params.iter().map(|p| p.key).collect();
        ParamError {
            key: key.to_string(),
            valid: format!("a parameter of {}: {}", self.id, keys.join(", ")),
            problem: Problem::UnknownKey,
        }
    }

    /// Validates raw user input: every key must be known, every value valid.
    /// Missing keys take their defaults. Returns every problem at once, so a
    /// form can mark all bad fields together.
    pub fn parse(&self, raw: &RawParams) -> Result<Params, Vec<ParamError>> {
        let mut errors: Vec<ParamError> =
            raw.keys().filter(|k| self.param(k).is_none()).map(|k| self.unknown_key(k)).collect();
        let mut values = Vec::with_capacity(self.params.len());
        for spec in self.params {
            let blank = |r: &RawValue| matches!(r, RawValue::Text(t) if t.trim().is_empty());
            if spec.fallback.is_some() && raw.get(spec.key).is_none_or(blank) {
                continue; // filled in below from the parameter it falls back to
            }
            match raw.get(spec.key) {
                None => values.push((spec.key, spec.default_value())),
                Some(r) => match spec.parse(r) {
                    Ok(v) => values.push((spec.key, v)),
                    // A parameter the current choice does not use cannot
                    // block the result: its default stands in.
                    Err(_) if !self.applies(spec, raw) => values.push((spec.key, spec.default_value())),
                    Err(e) => errors.push(e),
                },
            }
        }
        for spec in self.params {
            if let Some(from) = spec.fallback {
                if !values.iter().any(|(k, _)| *k == spec.key) {
                    let v = values.iter().find(|(k, _)| *k == from).map_or(spec.default_value(), |(_, v)| v.clone());
                    values.push((spec.key, v));
                }
            }
        }
        if errors.is_empty() {
            Ok(Params { values })
        } else {
            Err(errors)
        }
    }
}

/// A value as it arrives from a form, a URL, the CLI or JavaScript.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum RawValue {
    Num(f64),
    Bool(bool),
    Text(String),
    List(Vec<RawValue>),
}

impl fmt::Display for RawValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawValue::Num(x) => write!(f, "{}", num(*x)),
            RawValue::Bool(b) => write!(f, "{b}"),
            RawValue::Text(s) => write!(f, "{s}"),
            RawValue::List(items) => {
                let parts: Vec<String> = items.iter().map(|i| i.to_string()).collect();
                write!(f, "{}", parts.join(", "))
            }
        }
    }
}

pub type RawParams = BTreeMap<String, RawValue>;

/// A valid parameter value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Num(f64),
    Choice(String),
    List(Vec<f64>),
}

/// A complete, validated parameter set: one value per parameter of a model,
/// each inside its range. Only [`ModelSpec::parse`] and
/// [`ModelSpec::defaults`] make one.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    values: Vec<(&'static str, Value)>,
}

impl Params {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// A numeric parameter. `None` only if the model asks for a key it did
    /// not declare, which the registry tests rule out.
    pub fn num(&self, key: &str) -> Option<f64> {
        match self.get(key) {
            Some(Value::Num(x)) => Some(*x),
            _ => None,
        }
    }

    pub fn list(&self, key: &str) -> Option<&[f64]> {
        match self.get(key) {
            Some(Value::List(xs)) => Some(xs),
            _ => None,
        }
    }

    /// A numeric parameter the model declared; an error (not a panic) if it
    /// did not, which the registry tests rule out.
    pub fn require_num(&self, key: &'static str) -> Result<f64, ModelError> {
        self.num(key).ok_or_else(|| undeclared(key))
    }

    pub fn require_list(&self, key: &'static str) -> Result<&[f64], ModelError> {
        self.list(key).ok_or_else(|| undeclared(key))
    }

    pub fn require_choice(&self, key: &'static str) -> Result<&str, ModelError> {
        self.choice(key).ok_or_else(|| undeclared(key))
    }

    pub fn choice(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(Value::Choice(s)) => Some(s),
            _ => None,
        }
    }

    /// The same set with one value replaced (for sweeps and charts). The new
    /// value is the caller's responsibility to keep inside the range.
    pub fn with(&self, key: &str, value: Value) -> Params {
        let mut p = self.clone();
        if let Some(slot) = p.values.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
        }
        p
    }
}

/// A sentence about a result: a reported condition (infeasible, unstable,
/// unreachable), attached to the output or parameter it concerns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Remark {
    /// The output or parameter key it concerns, if any.
    pub key: Option<&'static str>,
    pub level: Level,
    #[serde(serialize_with = "crate::format::rich_text::one")]
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Info,
    Warning,
}

fn undeclared(key: &str) -> ModelError {
    ModelError::Unknown { what: "parameter", name: key.into(), known: vec![] }
}

/// One named output value.
#[derive(Debug, Clone, PartialEq)]
pub enum OutValue {
    Num(f64),
    Bool(bool),
    Array(Vec<f64>),
    /// A categorical output's category (JSON: its id).
    Category(Category),
    /// No value for these parameters (e.g. a target that cannot be reached);
    /// a remark says why. JSON `null`.
    Missing,
}

/// The named outputs of one evaluation, in the order of the spec.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outputs(pub Vec<(&'static str, OutValue)>);

impl Outputs {
    pub fn num(&self, key: &str) -> Option<f64> {
        self.0.iter().find_map(|(k, v)| match v {
            OutValue::Num(x) if *k == key => Some(*x),
            _ => None,
        })
    }
}

impl Serialize for Outputs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            match v {
                OutValue::Num(x) => map.serialize_entry(k, x)?,
                OutValue::Bool(b) => map.serialize_entry(k, b)?,
                OutValue::Array(a) => map.serialize_entry(k, a)?,
                OutValue::Category(c) => map.serialize_entry(k, c.id)?,
                OutValue::Missing => map.serialize_entry(k, &())?,
            }
        }
        map.end()
    }
}
