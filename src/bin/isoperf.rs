//! The command-line front end: the same core as the page.
//!
//! ```text
//! isoperf models
//! isoperf eval <model> key=value ...
//! isoperf tables <model> key=value ...
//! isoperf chart <model> <chart> key=value ... > chart.svg
//! ```

use std::process::ExitCode;

use isoperf::models;
use isoperf::spec::{RawParams, RawValue};

const USAGE: &str = "usage:
  isoperf models                              the registry as JSON
  isoperf eval <model> [key=value ...]        outputs as one JSON object
  isoperf tables <model> [key=value ...]      comparison and reproduction tables as JSON
  isoperf chart <model> <chart> [key=value ...]  a chart as SVG on stdout
Unspecified parameters take their defaults; `isoperf models` lists them.";

fn parse_pairs(args: &[String]) -> Result<RawParams, String> {
    let mut raw = RawParams::new();
    for a in args {
        let (k, v) = a.split_once('=').ok_or_else(|| format!("expected key=value, got '{a}'"))?;
        if raw.insert(k.to_string(), RawValue::Text(v.to_string())).is_some() {
            return Err(format!("{k} is given twice"));
        }
    }
    Ok(raw)
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

fn run(args: &[String]) -> Result<String, String> {
    match args {
        [cmd] if cmd == "models" => json(&models::specs()),
        [cmd, model, rest @ ..] if cmd == "eval" => {
            let out = models::evaluate(model, &parse_pairs(rest)?).map_err(|e| e.to_string())?;
            json(&out)
        }
        [cmd, model, rest @ ..] if cmd == "tables" => {
            let out = models::tables(model, &parse_pairs(rest)?).map_err(|e| e.to_string())?;
            json(&out)
        }
        [cmd, model, chart, rest @ ..] if cmd == "chart" => {
            let c = models::chart(model, chart, &parse_pairs(rest)?).map_err(|e| e.to_string())?;
            isoperf::chart::to_svg(&c, 800, 500).map_err(|e| e.to_string())
        }
        [cmd] if cmd == "--help" || cmd == "-h" || cmd == "help" => Ok(USAGE.to_string()),
        _ => Err(format!("unrecognised arguments\n{USAGE}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("isoperf: {msg}");
            ExitCode::from(2)
        }
    }
}
