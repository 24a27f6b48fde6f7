//! The TypeScript declarations of the npm package (`src/web/types.rs`)
//! against what the exports really serialize. The JSON of the registry and
//! of every model's reports, outputs, problems, tables and remarks (at its
//! defaults, at every preset and with problems), of every chart as data, of
//! every map preset's map and layout and of every example data set's
//! analysis is checked against
//! the declared type of the export that returns it: every key it holds must
//! be declared, every required field must be there, every value must have
//! its declared type, and every field of a checked interface must occur at
//! least once (so an optional field that Rust no longer writes is found
//! too). The types each export names (`unchecked_return_type`,
//! `unchecked_param_type`) must be declared.
//!
//! The declarations are read with a parser of the small part of TypeScript
//! they use: `export interface` (with `extends`), `export type`, unions,
//! arrays, tuples, string literals, `Record<string, T>`, index signatures
//! and `readonly`.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::{BTreeMap, BTreeSet};

use isoperf::api::{self, Session};
use isoperf::models::MODELS;
use isoperf::spec::RawParams;
use serde::Serialize;
use serde_json::Value;

mod common;
use common::{defaults_and_presets, preset_params, raw};

const TYPES_RS: &str = include_str!("../src/web/types.rs");

/// Interfaces no export serializes with serde, so no JSON here can be
/// checked against them: each says why. Every other interface must be met.
const NOT_SERIALIZED: &[(&str, &str)] = &[
    ("IsoperfError", "a js_sys::Error built in src/web/"),
    ("MapRequest", "an argument (deserialized by src/web/full.rs)"),
    ("MapLayout", "MapLayoutData (checked) plus typed arrays set in src/web/full.rs"),
    ("FlatIsoline", "built from typed arrays in src/web/full.rs"),
    ("SweepPlan", "built from typed arrays in src/web/full.rs"),
    ("ExportedResults", "an argument (deserialized by src/web/full.rs)"),
    ("Scenario", "an argument (read by src/web/full.rs)"),
    ("SweepScenario", "an argument (read by src/web/full.rs)"),
    ("PinnedChart", "an argument (read by src/web/full.rs)"),
    ("Carried", "an argument (deserialized by src/web/full.rs): three fields of calibrate's result, checked there"),
    ("SweepBands", "an argument (read by src/web/full.rs)"),
];

/// Names the declarations may use without declaring them: JavaScript's own.
const JS_GLOBALS: &[&str] = &["Error", "Float64Array", "Uint8ClampedArray"];

// ---------------------------------------------------------------------------
// The declarations

#[derive(Debug, Clone)]
enum Ty {
    Name(String),
    Literal(String),
    Array(Box<Ty>),
    Tuple(Vec<Ty>),
    Union(Vec<Ty>),
    /// An inline object type: fields and an optional index signature.
    Object(Vec<Field>, Option<Box<Ty>>),
    /// A function type: its parameters and what it returns (a callback the
    /// caller passes; no JSON ever has one).
    Function(Vec<Field>, Box<Ty>),
}

#[derive(Debug, Clone)]
struct Field {
    name: String,
    optional: bool,
    ty: Ty,
}

#[derive(Debug, Default)]
struct Decls {
    /// name → (bases, own fields)
    interfaces: BTreeMap<String, (Vec<String>, Vec<Field>)>,
    aliases: BTreeMap<String, Ty>,
}

/// The TypeScript of `src/web/types.rs`: its raw string literals.
fn typescript() -> String {
    TYPES_RS.split("r#\"").skip(1).map(|s| s.split("\"#").next().unwrap()).collect::<Vec<_>>().join("\n")
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '/' if chars.peek() == Some(&'*') => {
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                let s: String = chars.by_ref().take_while(|c| *c != '"').collect();
                out.push(format!("\"{s}\""));
            }
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let mut s = c.to_string();
                while let Some(&n) = chars.peek() {
                    if !(n.is_alphanumeric() || n == '_' || n == '$') {
                        break;
                    }
                    s.push(n);
                    chars.next();
                }
                out.push(s);
            }
            c => out.push(c.to_string()),
        }
    }
    out
}

struct Parser {
    toks: Vec<String>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &str {
        self.toks.get(self.at).map_or("", String::as_str)
    }

    fn next(&mut self) -> String {
        let t = self.peek().to_string();
        self.at += 1;
        t
    }

    fn eat(&mut self, t: &str) -> bool {
        let yes = self.peek() == t;
        if yes {
            self.at += 1;
        }
        yes
    }

    fn expect(&mut self, t: &str) {
        let got = self.next();
        assert_eq!(
            got,
            t,
            "TypeScript: expected '{t}' at token {} ({:?})",
            self.at,
            &self.toks[self.at.saturating_sub(8)..]
        );
    }

    fn ident(&mut self) -> String {
        let t = self.next();
        assert!(t.chars().all(|c| c.is_alphanumeric() || c == '_'), "TypeScript: expected a name, got '{t}'");
        t
    }

    fn decls(&mut self) -> Decls {
        let mut d = Decls::default();
        while self.at < self.toks.len() {
            self.expect("export");
            match self.next().as_str() {
                "interface" => {
                    let name = self.ident();
                    let mut bases = Vec::new();
                    if self.eat("extends") {
                        bases.push(self.ident());
                        while self.eat(",") {
                            bases.push(self.ident());
                        }
                    }
                    self.expect("{");
                    let (fields, index) = self.members();
                    assert!(index.is_none(), "interface {name}: no index signatures");
                    assert!(d.interfaces.insert(name.clone(), (bases, fields)).is_none(), "{name} twice");
                }
                "type" => {
                    let name = self.ident();
                    self.expect("=");
                    let ty = self.ty();
                    self.expect(";");
                    assert!(d.aliases.insert(name.clone(), ty).is_none(), "{name} twice");
                }
                other => panic!("TypeScript: unexpected 'export {other}'"),
            }
        }
        d
    }

    /// The members of an object type, after its `{`, through its `}`.
    fn members(&mut self) -> (Vec<Field>, Option<Box<Ty>>) {
        let (mut fields, mut index) = (Vec::new(), None);
        while !self.eat("}") {
            self.eat("readonly");
            if self.eat("[") {
                self.ident();
                self.expect(":");
                assert_eq!(self.next(), "string", "index signatures are by string");
                self.expect("]");
                self.expect(":");
                index = Some(Box::new(self.ty()));
            } else {
                let name = self.ident();
                let optional = self.eat("?");
                self.expect(":");
                fields.push(Field { name, optional, ty: self.ty() });
            }
            if !self.eat(";") {
                self.eat(",");
            }
        }
        (fields, index)
    }

    fn ty(&mut self) -> Ty {
        self.eat("|");
        let mut alts = vec![self.postfix()];
        while self.eat("|") {
            alts.push(self.postfix());
        }
        if alts.len() == 1 {
            alts.pop().unwrap()
        } else {
            Ty::Union(alts)
        }
    }

    fn postfix(&mut self) -> Ty {
        self.eat("readonly");
        let mut t = self.primary();
        while self.peek() == "[" && self.toks.get(self.at + 1).map(String::as_str) == Some("]") {
            self.at += 2;
            t = Ty::Array(Box::new(t));
        }
        t
    }

    fn primary(&mut self) -> Ty {
        let t = self.next();
        match t.as_str() {
            // `(name: T, …) => R`: a function type (a parameter's name then ':').
            "(" if self.peek() == ")" || self.toks.get(self.at + 1).map(String::as_str) == Some(":") => {
                let mut params = Vec::new();
                while !self.eat(")") {
                    let name = self.ident();
                    let optional = self.eat("?");
                    self.expect(":");
                    params.push(Field { name, optional, ty: self.ty() });
                    self.eat(",");
                }
                self.expect("=");
                self.expect(">");
                Ty::Function(params, Box::new(self.ty()))
            }
            "(" => {
                let inner = self.ty();
                self.expect(")");
                inner
            }
            "[" => {
                let mut items = vec![self.ty()];
                while self.eat(",") {
                    items.push(self.ty());
                }
                self.expect("]");
                Ty::Tuple(items)
            }
            "{" => {
                let (fields, index) = self.members();
                Ty::Object(fields, index)
            }
            s if s.starts_with('"') => Ty::Literal(s.trim_matches('"').to_string()),
            "Record" => {
                self.expect("<");
                assert_eq!(self.next(), "string", "Record keys are strings");
                self.expect(",");
                let value = self.ty();
                self.expect(">");
                Ty::Object(Vec::new(), Some(Box::new(value)))
            }
            "Array" => {
                self.expect("<");
                let item = self.ty();
                self.expect(">");
                Ty::Array(Box::new(item))
            }
            name => {
                assert!(name.chars().all(|c| c.is_alphanumeric() || c == '_'), "TypeScript: unexpected '{name}'");
                Ty::Name(name.to_string())
            }
        }
    }
}

fn parse_type(text: &str) -> Ty {
    let mut p = Parser { toks: tokens(text), at: 0 };
    let t = p.ty();
    assert_eq!(p.at, p.toks.len(), "TypeScript: trailing tokens in '{text}'");
    t
}

fn declarations() -> Decls {
    let mut p = Parser { toks: tokens(&typescript()), at: 0 };
    p.decls()
}

impl Decls {
    /// Every field of interface `name` with the interface that declares it, bases first.
    fn fields(&self, name: &str) -> Vec<(String, Field)> {
        let (bases, own) = &self.interfaces[name];
        let mut out: Vec<(String, Field)> =
            bases.iter().filter(|b| self.interfaces.contains_key(b.as_str())).flat_map(|b| self.fields(b)).collect();
        out.extend(own.iter().map(|f| (name.to_string(), f.clone())));
        out
    }

    /// The names `ty` uses that are declared nowhere.
    fn undeclared(&self, ty: &Ty, out: &mut BTreeSet<String>) {
        match ty {
            Ty::Name(n) => {
                let known = ["number", "string", "boolean", "null", "undefined", "unknown", "void"]
                    .contains(&n.as_str())
                    || JS_GLOBALS.contains(&n.as_str())
                    || self.interfaces.contains_key(n)
                    || self.aliases.contains_key(n);
                if !known {
                    out.insert(n.clone());
                }
            }
            Ty::Literal(_) => {}
            Ty::Array(t) => self.undeclared(t, out),
            Ty::Tuple(ts) | Ty::Union(ts) => ts.iter().for_each(|t| self.undeclared(t, out)),
            Ty::Function(params, ret) => {
                params.iter().for_each(|f| self.undeclared(&f.ty, out));
                self.undeclared(ret, out);
            }
            Ty::Object(fields, index) => {
                fields.iter().for_each(|f| self.undeclared(&f.ty, out));
                if let Some(t) = index {
                    self.undeclared(t, out);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Checking JSON against them

/// (interface, field) pairs met, and the interfaces met.
#[derive(Default)]
struct Seen {
    fields: BTreeSet<(String, String)>,
    interfaces: BTreeSet<String>,
}

impl Seen {
    fn extend(&mut self, other: Seen) {
        self.fields.extend(other.fields);
        self.interfaces.extend(other.interfaces);
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn check(d: &Decls, v: &Value, ty: &Ty, path: &str, seen: &mut Seen) -> Result<(), String> {
    let mismatch = |want: &str| Err(format!("{path}: {} where the declaration says {want}", kind(v)));
    match ty {
        Ty::Name(n) => match n.as_str() {
            "number" | "string" | "boolean" | "null" | "unknown" => {
                let fits = match n.as_str() {
                    "number" => v.is_number(),
                    "string" => v.is_string(),
                    "boolean" => v.is_boolean(),
                    "null" => v.is_null(),
                    _ => true,
                };
                if fits {
                    Ok(())
                } else {
                    mismatch(n)
                }
            }
            name if d.aliases.contains_key(name) => check(d, v, &d.aliases[name], path, seen),
            name if d.interfaces.contains_key(name) => {
                let Value::Object(map) = v else { return mismatch(name) };
                let fields = d.fields(name);
                // The interface and those it extends are met.
                seen.interfaces.insert(name.to_string());
                seen.interfaces.extend(fields.iter().map(|(owner, _)| owner.clone()));
                for key in map.keys() {
                    if !fields.iter().any(|(_, f)| f.name == *key) {
                        return Err(format!("{path}.{key}: not declared in interface {name}"));
                    }
                }
                for (owner, f) in &fields {
                    match map.get(&f.name) {
                        Some(value) => {
                            check(d, value, &f.ty, &format!("{path}.{}", f.name), seen)?;
                            seen.fields.insert((owner.clone(), f.name.clone()));
                        }
                        None if f.optional => {}
                        None => return Err(format!("{path}: no '{}', which {name} requires", f.name)),
                    }
                }
                Ok(())
            }
            other => Err(format!("{path}: type {other} cannot be checked against JSON")),
        },
        Ty::Literal(s) => {
            if v.as_str() == Some(s) {
                Ok(())
            } else {
                mismatch(&format!("\"{s}\""))
            }
        }
        Ty::Array(item) => {
            let Value::Array(items) = v else { return mismatch("an array") };
            items.iter().enumerate().try_for_each(|(i, x)| check(d, x, item, &format!("{path}[{i}]"), seen))
        }
        Ty::Tuple(items) => match v {
            Value::Array(xs) if xs.len() == items.len() => xs
                .iter()
                .zip(items)
                .enumerate()
                .try_for_each(|(i, (x, t))| check(d, x, t, &format!("{path}[{i}]"), seen)),
            _ => mismatch(&format!("a tuple of {}", items.len())),
        },
        Ty::Union(alts) => {
            let mut why = Vec::new();
            for alt in alts {
                let mut mine = Seen::default();
                match check(d, v, alt, path, &mut mine) {
                    Ok(()) => {
                        seen.extend(mine);
                        return Ok(());
                    }
                    Err(e) => why.push(e),
                }
            }
            Err(format!("{path}: no alternative of the union fits: {}", why.join(" | ")))
        }
        Ty::Function(..) => mismatch("a function"),
        Ty::Object(fields, index) => {
            let Value::Object(map) = v else { return mismatch("an object") };
            for (key, value) in map {
                let p = format!("{path}.{key}");
                match (fields.iter().find(|f| f.name == *key), index) {
                    (Some(f), _) => check(d, value, &f.ty, &p, seen)?,
                    (None, Some(t)) => check(d, value, t, &p, seen)?,
                    (None, None) => return Err(format!("{p}: not declared")),
                }
            }
            match fields.iter().find(|f| !f.optional && !map.contains_key(&f.name)) {
                Some(f) => Err(format!("{path}: no '{}'", f.name)),
                None => Ok(()),
            }
        }
    }
}

/// Collects JSON values with the declared type of the export that returns them.
struct Samples {
    decls: Decls,
    seen: Seen,
    checked: usize,
}

impl Samples {
    fn new() -> Self {
        Samples { decls: declarations(), seen: Seen::default(), checked: 0 }
    }

    fn check<T: Serialize>(&mut self, value: &T, ty: &str, what: &str) {
        let json = serde_json::to_value(value).unwrap();
        if let Err(e) = check(&self.decls, &json, &parse_type(ty), ty, &mut self.seen) {
            panic!("{what}: the JSON does not match the TypeScript declaration in src/web/types.rs: {e}");
        }
        self.checked += 1;
    }
}

/// Every model at its defaults and presets, and sets with problems of each kind.
fn cases() -> Vec<(&'static str, RawParams)> {
    let mut out = defaults_and_presets();
    for m in MODELS {
        let s = m.spec();
        out.push((s.id, raw(&[("no_such_parameter", "1")])));
        if let Some(p) = s.params.first() {
            out.push((s.id, raw(&[(p.key, "abc")])));
        }
    }
    out.push(("pmm", raw(&[("N", "24")]))); // a rule of the model: N a perfect square
    out.push(("pipeline", raw(&[("L", "1e9")]))); // saturated: outputs withheld, tables shown
    out.push(("scaling", raw(&[("C0", "-1000")]))); // no positive time
    out.push(("dlt", raw(&[("m", "5")]))); // infeasible m: a remark
    out
}

fn check_core(s: &mut Samples) {
    s.check(&api::specs(), "ModelSpec[]", "models()");
    for (id, raw) in cases() {
        let what = format!("{id} {raw:?}");
        s.check(&Session::default().report(id, &raw).unwrap(), "Report", &format!("report {what}"));
        s.check(&api::check(id, &raw).unwrap(), "FieldError[]", &format!("check {what}"));
        if let Ok(out) = api::evaluate(id, &raw) {
            s.check(&out, "Outputs", &format!("evaluate {what}"));
        }
        if let Ok(t) = api::tables(id, &raw) {
            s.check(&t, "Table[]", &format!("tables {what}"));
        }
        if let Ok(r) = api::remarks(id, &raw) {
            s.check(&r, "Remark[]", &format!("remarks {what}"));
        }
    }
}

#[cfg(feature = "full")]
fn check_full(s: &mut Samples) {
    use isoperf::engine::isomap::{MapAxis, MapRequest};
    /// Enough nodes for isolines and labels; the values do not matter here.
    const GRID: usize = 16;
    for m in MODELS {
        let spec = m.spec();
        for preset in spec.maps {
            let what = format!("{}/{}", spec.id, preset.id);
            let request = MapRequest {
                output: preset.output.into(),
                x: MapAxis::parse("x", preset.x).unwrap(),
                y: MapAxis::parse("y", preset.y).unwrap(),
                nx: GRID,
                ny: GRID,
                levels: preset.levels.to_vec(),
            };
            let raw = preset_params(preset.values);
            let map = api::iso_map(spec.id, &raw, &request).unwrap_or_else(|e| panic!("{what}: {e}"));
            s.check(&map, "IsoMap", &format!("isoMap {what}"));
            let layout = api::map_layout(spec.id, &request, &map.values, 640.0, &RawParams::new(), None).unwrap();
            s.check(&layout, "MapLayoutData", &format!("mapLayout {what}"));
        }
        // Every chart as data (chartData), at the defaults, and with a
        // scenario pinned at the defaults (faint curves behind).
        let pinned = [api::Scenario { name: "A".into(), params: RawParams::new() }];
        for chart in spec.charts {
            let what = format!("{}/{}", spec.id, chart.id);
            match api::chart(spec.id, chart.id, &RawParams::new()) {
                Ok(c) => {
                    s.check(&c, "Chart", &format!("chartData {what}"));
                    let with = api::with_scenarios(spec.id, chart.id, c, &pinned);
                    s.check(&with, "Chart", &format!("chartData {what} with a scenario"));
                }
                Err(e) => panic!("{what}: {e}"),
            }
        }
        for dataset in spec.datasets {
            for example in dataset.examples {
                let what = format!("{}/{}/{}", spec.id, dataset.id, example.id);
                let path = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), example.path); // relative to index.html
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{what}: {path}: {e}"));
                let analysis = api::analyze(spec.id, dataset.id, &text, &RawParams::new())
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                s.check(&analysis, "Analysis", &format!("analyze {what}"));
            }
        }
        for example in spec.calibration_examples {
            let what = format!("{}/{}", spec.id, example.id);
            let path = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), example.path);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{what}: {path}: {e}"));
            let request = isoperf::engine::calibrate::Request {
                fit: example.fit.iter().map(|k| k.to_string()).collect(),
                relative: example.relative,
            };
            let calibrated =
                api::calibrate(spec.id, &RawParams::new(), &text, &request).unwrap_or_else(|e| panic!("{what}: {e}"));
            s.check(&calibrated, "Calibrated", &format!("calibrate {what}"));
        }
    }
}

#[test]
fn the_declarations_parse_and_name_only_declared_types() {
    let d = declarations();
    assert!(d.interfaces.contains_key("ModelSpec") && d.aliases.contains_key("Params"), "{d:?}");
    let mut missing = BTreeSet::new();
    for (bases, fields) in d.interfaces.values() {
        for b in bases {
            d.undeclared(&Ty::Name(b.clone()), &mut missing);
        }
        fields.iter().for_each(|f| d.undeclared(&f.ty, &mut missing));
    }
    d.aliases.values().for_each(|t| d.undeclared(t, &mut missing));
    assert!(missing.is_empty(), "used but not declared in src/web/types.rs: {missing:?}");
}

#[test]
fn every_export_names_declared_types() {
    let d = declarations();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/web");
    let mut named = 0;
    for file in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        for attr in ["unchecked_return_type", "unchecked_param_type", "unchecked_optional_param_type"] {
            for rest in text.split(&format!("{attr} = \"")).skip(1) {
                let ty = rest.split('"').next().unwrap();
                let mut missing = BTreeSet::new();
                d.undeclared(&parse_type(ty), &mut missing);
                assert!(missing.is_empty(), "{attr} = \"{ty}\": not declared in src/web/types.rs: {missing:?}");
                named += 1;
            }
        }
    }
    assert!(named >= 10, "only {named} typed parameters and returns found in src/web/");
}

#[test]
fn the_json_of_every_model_matches_the_declarations() {
    let mut s = Samples::new();
    check_core(&mut s);
    #[cfg(feature = "full")]
    check_full(&mut s);
    assert!(s.checked > 100, "only {} values checked", s.checked);

    // Every interface is met (or says why it cannot be), and every field of
    // each one met occurs at least once: a field Rust stopped writing shows.
    let mut unmet = Vec::new();
    for name in s.decls.interfaces.keys() {
        let excused = NOT_SERIALIZED.iter().any(|(n, _)| n == name);
        #[cfg(not(feature = "full"))]
        let excused = excused || !TYPES_RS.split("const FULL").next().unwrap().contains(&format!("interface {name} "));
        if !excused && !s.seen.interfaces.contains(name) {
            unmet.push(format!("interface {name}"));
        }
    }
    for name in &s.seen.interfaces {
        for (owner, f) in s.decls.fields(name) {
            if !s.seen.fields.contains(&(owner.clone(), f.name.clone())) {
                unmet.push(format!("{owner}.{}", f.name));
            }
        }
    }
    assert!(unmet.is_empty(), "declared in src/web/types.rs but never in the JSON: {unmet:?}");
}

#[test]
fn the_checker_finds_drift() {
    // The checks above are only worth as much as the checker: it must fail
    // on an undeclared key, a missing field and a wrong type.
    let d = declarations();
    let remark = parse_type("Remark");
    let mut seen = Seen::default();
    let ok = serde_json::json!({"key": null, "level": "info", "text": "t"});
    assert!(check(&d, &ok, &remark, "r", &mut seen).is_ok());
    for bad in [
        serde_json::json!({"key": null, "level": "info", "text": "t", "extra": 1}),
        serde_json::json!({"key": null, "level": "info"}),
        serde_json::json!({"key": 3, "level": "info", "text": "t"}),
        serde_json::json!({"key": null, "level": "severe", "text": "t"}),
    ] {
        assert!(check(&d, &bad, &remark, "r", &mut seen).is_err(), "{bad}");
    }
}
