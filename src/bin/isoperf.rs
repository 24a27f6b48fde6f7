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
  isoperf fit scaling FILE.csv                eq. (1) fitted to (p, time) rows, as JSON
  isoperf demand FILE.csv [--cti 0.05,0.1] [--base-p P] [--target-p P]
                                              bandwidth demand from (p, bandwidth %, time) rows
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

fn read(file: &str) -> Result<String, String> {
    std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))
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
        [cmd, model, file] if cmd == "fit" => {
            if model != "scaling" {
                return Err(format!("no fit for model '{model}'; fit scaling FILE fits eq. (1) of the Graph500 paper"));
            }
            let text = read(file)?;
            json(&isoperf::models::scaling::fit_text(&text).map_err(|e| format!("{file}: {e}"))?)
        }
        [cmd, file, options @ ..] if cmd == "demand" => {
            let (mut ctis, mut base, mut target) = (vec![0.05, 0.1], 288.0, 450.0);
            let mut it = options.iter();
            while let Some(flag) = it.next() {
                let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
                let number = |v: &str| v.trim().parse::<f64>().map_err(|_| format!("{flag}: '{v}' is not a number"));
                match flag.as_str() {
                    "--cti" => ctis = value.split(',').map(number).collect::<Result<_, _>>()?,
                    "--base-p" => base = number(value)?,
                    "--target-p" => target = number(value)?,
                    other => return Err(format!("unknown option {other}; expected --cti, --base-p, --target-p")),
                }
            }
            let text = read(file)?;
            json(
                &isoperf::models::scaling::demand_text(&text, &ctis, base, target)
                    .map_err(|e| format!("{file}: {e}"))?,
            )
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
