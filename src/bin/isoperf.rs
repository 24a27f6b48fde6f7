//! The command-line front end: the same core as the page.
//!
//! ```text
//! isoperf models
//! isoperf eval <model> key=value ...
//! isoperf tables <model> key=value ...
//! isoperf chart <model> <chart> key=value ... > chart.svg
//! isoperf chart <model> <chart> --calibrated fit.json ... > banded.svg
//! isoperf analyze <model> <dataset> FILE.csv key=value ...
//! isoperf calibrate <model> FILE.csv --fit t_flops,t_comm key=value ...
//! isoperf laws FILE.csv --at 4096
//! ```
//!
//! Nothing here names a model: commands come from the registry's specs.

use std::process::ExitCode;

use isoperf::api;
use isoperf::spec::{RawParams, RawValue};

const USAGE: &str = "usage:
  isoperf models                              the registry as JSON
  isoperf eval <model> [key=value ...]        outputs as one JSON object
  isoperf tables <model> [key=value ...]      comparison and reproduction tables as JSON
  isoperf chart <model> <chart> [--calibrated FIT.json] [key=value ...]  a chart as SVG on stdout
  isoperf map <model> --output K --x KEY:MIN:MAX[:log] --y KEY:MIN:MAX[:log] --levels a,b,c [--grid NxM] [key=value ...]
                                              an iso-map: grid values and isolines in parameter units, as JSON
            [--svg [--width PX]]              the map image as the page draws it, as SVG on stdout
            [--png]                           its colour field, one pixel per grid node, as PNG on stdout
            [--calibrated FIT.json]           chart and map: the model as `calibrate` fitted it (FIT.json, its output):
                                              the fitted values in place, each curve with the band of its 95%
                                              interval, the map with each node's interval (low, high) and pale
                                              where it straddles a level
  isoperf analyze <model> <dataset> FILE.csv [key=value ...]
                                              measured data analysed as the model's data set says, as JSON
                                              (e.g. analyze scaling timings FILE.csv: eq. (1) fitted to (p, time) rows)
  isoperf fit <model> FILE.csv                the same as analyze <model> timings FILE.csv
  isoperf demand FILE.csv [--cti 0.05,0.1] [--base-p P] [--target-p P]
                                              analyze scaling throttling: bandwidth demand from (p, bandwidth %, time) rows
  isoperf calibrate <model> FILE.csv --fit KEY[,KEY...] [--relative] [key=value ...]
                                              the parameters KEY fitted to measurements (a CSV whose header names
                                              parameter keys and one output, units in parentheses: N,M,T (ms)), as JSON:
                                              values with standard errors and 95% intervals, R², RMSE, residuals,
                                              and every output's 95% interval at the key=value point
  isoperf laws FILE.csv [--at P[,P...]]      the scaling laws (p, time) rows follow, best first, as JSON
Unspecified parameters take their defaults; `isoperf models` lists them.
key=@FILE takes the value from FILE (a long list: a_map_list=@rates.txt, one rate per line).";

/// The key=value pairs; key=@FILE takes the value from FILE (a list of
/// thousands of per-mapper rates is more than one argument may hold,
/// 128 KiB on Linux).
fn parse_pairs(args: &[String]) -> Result<RawParams, String> {
    let mut raw = RawParams::new();
    for a in args {
        let (k, v) = a.split_once('=').ok_or_else(|| format!("expected key=value, got '{a}'"))?;
        let v = match v.strip_prefix('@') {
            Some(file) => read(file).map_err(|e| format!("{k}: {e}"))?,
            None => v.to_string(),
        };
        if raw.insert(k.to_string(), RawValue::Text(v)).is_some() {
            return Err(format!("{k} is given twice"));
        }
    }
    Ok(raw)
}

/// The model as `isoperf calibrate` fitted it (`fit`, the FIT.json it
/// printed): `raw` with the fitted values in place, and their uncertainty;
/// `raw` as it is without a fit.
fn calibrated(
    model: &str,
    fit: Option<&String>,
    mut raw: RawParams,
) -> Result<(RawParams, Option<isoperf::engine::uncertainty::Uncertainty>), String> {
    let Some(file) = fit else { return Ok((raw, None)) };
    #[derive(serde::Deserialize)]
    struct Fitted {
        value: f64,
    }
    #[derive(serde::Deserialize)]
    struct Fit {
        fitted: std::collections::BTreeMap<String, Fitted>,
        parameters: Vec<String>,
        covariance: Vec<Vec<f64>>,
        t95: f64,
    }
    let fit: Fit = serde_json::from_str(&read(file)?)
        .map_err(|e| format!("{file}: not the JSON `isoperf calibrate` prints ({e})"))?;
    for key in &fit.parameters {
        let f = fit.fitted.get(key).ok_or_else(|| format!("{file}: no fitted value of {key}"))?;
        if raw.insert(key.clone(), RawValue::Num(f.value)).is_some() {
            return Err(format!("{key} is fitted in {file}: leave out {key}=…"));
        }
    }
    let u = api::uncertainty(model, &fit.parameters, &fit.covariance, fit.t95).map_err(|e| format!("{file}: {e}"))?;
    Ok((raw, Some(u)))
}

/// `isoperf chart`: the chart as SVG, with bands where `--calibrated` gives a fit.
fn chart(model: &str, chart: &str, args: &[String]) -> Result<String, String> {
    let (fit, pairs) = match args {
        [flag, file, rest @ ..] if flag == "--calibrated" => (Some(file), rest),
        _ => (None, args),
    };
    if let Some(other) = pairs.iter().find(|a| a.starts_with("--")) {
        return Err(format!("unknown option {other} (--calibrated FIT.json goes first)"));
    }
    let (raw, carried) = calibrated(model, fit, parse_pairs(pairs)?)?;
    let c = api::Session::default().chart_carrying(model, chart, &raw, carried.as_ref()).map_err(|e| e.to_string())?;
    // The sentence the page shows under the chart, apart from the SVG.
    if let Some(note) = &c.note {
        eprintln!("{note}");
    }
    isoperf::chart::to_svg(&c, 800, 500).map_err(|e| e.to_string())
}

fn map(model: &str, args: &[String]) -> Result<Output, String> {
    use isoperf::engine::isomap::{MapAxis, MapRequest, DEFAULT_GRID};
    let (mut output, mut x, mut y, mut levels, mut grid) = (None, None, None, Vec::new(), (DEFAULT_GRID, DEFAULT_GRID));
    let (mut image, mut width, mut fit) = (None, 800.0, None);
    let mut pairs = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--output" => output = Some(value()?.clone()),
            "--x" => x = Some(MapAxis::parse("x", value()?).map_err(|e| e.to_string())?),
            "--y" => y = Some(MapAxis::parse("y", value()?).map_err(|e| e.to_string())?),
            "--levels" => {
                levels = value()?
                    .split(',')
                    .map(|l| l.trim().parse::<f64>().map_err(|_| format!("levels: '{l}' is not a number")))
                    .collect::<Result<_, _>>()?
            }
            "--grid" => {
                let g = value()?;
                let (a, b) = g.split_once(['x', 'X']).ok_or_else(|| format!("grid: '{g}' is not NxM"))?;
                let n = |s: &str| s.trim().parse::<usize>().map_err(|_| format!("grid: '{g}' is not NxM"));
                grid = (n(a)?, n(b)?);
            }
            "--svg" | "--png" => image = Some(a.clone()),
            "--calibrated" => fit = Some(value()?.clone()),
            "--width" => {
                let w = value()?;
                width = w
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|w| (320.0..=8000.0).contains(w))
                    .ok_or_else(|| format!("width: '{w}' is not a number of pixels from 320 to 8000"))?;
            }
            other if other.starts_with("--") => return Err(format!("unknown option {other}")),
            _ => pairs.push(a.clone()),
        }
    }
    let request = MapRequest {
        output: output.ok_or("--output is required")?,
        x: x.ok_or("--x KEY:MIN:MAX[:log] is required")?,
        y: y.ok_or("--y KEY:MIN:MAX[:log] is required")?,
        nx: grid.0,
        ny: grid.1,
        levels,
    };
    let (raw, carried) = calibrated(model, fit.as_ref(), parse_pairs(&pairs)?)?;
    let m = api::iso_map(model, &raw, &request).map_err(|e| e.to_string())?;
    let bands = match &carried {
        Some(u) => {
            Some(api::iso_map_rows_carrying(model, &raw, &request, 0..request.ny, u).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let interval = bands.as_ref().map(|b| (b.low.as_slice(), b.high.as_slice()));
    let Some(image) = image else {
        let mut out = serde_json::to_value(&m).map_err(|e| e.to_string())?;
        if let (Some((low, high)), Some(o)) = (interval, out.as_object_mut()) {
            // Each node's 95% interval, as `values` (null where none).
            let ends = |e: &[f64]| e.iter().map(|v| v.is_finite().then_some(*v)).collect::<Vec<_>>();
            o.insert("low".into(), serde_json::json!(ends(low)));
            o.insert("high".into(), serde_json::json!(ends(high)));
        }
        return json(&out).map(Output::Text);
    };
    let layout = api::map_layout(model, &request, &m.values, width, &raw, interval).map_err(|e| e.to_string())?;
    Ok(if image == "--svg" {
        Output::Text(layout.to_svg())
    } else {
        Output::Bytes(isoperf::engine::map_layout::png(layout.nx, layout.ny, &layout.opaque_pixels()))
    })
}

/// What a command prints: text with a newline, or bytes as they are.
enum Output {
    Text(String),
    Bytes(Vec<u8>),
}

/// What the analysis of a data set computed, as JSON. `name` says how the
/// user gave each parameter (key=value, or an option of `demand`).
fn analyze(model: &str, dataset: &str, file: &str, raw: RawParams, name: fn(&str) -> String) -> Result<String, String> {
    validate(model, &raw, name)?;
    let text = read(file)?;
    let analysis = api::analyze(model, dataset, &text, &raw).map_err(|e| format!("{file}: {e}"))?;
    json(&analysis.result)
}

/// Refuses what the model's own validation rejects, each problem named as
/// the user gave it. (An analysis puts a parameter's default in place of an
/// invalid value, because the page already shows that field's error; on the
/// command line nothing else would tell.)
fn validate(model: &str, raw: &RawParams, name: fn(&str) -> String) -> Result<(), String> {
    // An unknown model is api::analyze's to name.
    let Some(spec) = api::specs().into_iter().find(|s| s.id == model) else { return Ok(()) };
    spec.parse(raw).map(drop).map_err(|errors| {
        errors.iter().map(|e| format!("{}: {}", name(&e.key), e.message())).collect::<Vec<_>>().join("; ")
    })
}

/// A parameter given as key=value is named by its key.
fn key_name(key: &str) -> String {
    isoperf::format::echo(key)
}

/// The options of `demand` and the parameters of the scaling model they set.
const DEMAND_OPTIONS: &[(&str, &str)] = &[("--cti", "cti"), ("--base-p", "p_base"), ("--target-p", "p_target")];

fn demand_option_name(key: &str) -> String {
    DEMAND_OPTIONS.iter().find(|(_, k)| *k == key).map_or_else(|| key_name(key), |(option, _)| option.to_string())
}

/// `demand FILE.csv [--cti LIST] [--base-p P] [--target-p P]`, the options
/// before or after the file.
fn demand(args: &[String]) -> Result<String, String> {
    let options = || DEMAND_OPTIONS.iter().map(|(o, _)| *o).collect::<Vec<_>>().join(", ");
    let (mut file, mut raw) = (None, RawParams::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if !a.starts_with("--") {
            if let Some(first) = file.replace(a) {
                return Err(format!("demand reads one file; got '{first}' and '{a}'"));
            }
            continue;
        }
        let &(option, key) = DEMAND_OPTIONS
            .iter()
            .find(|(o, _)| o == a)
            .ok_or_else(|| format!("unknown option {a}; expected {}", options()))?;
        let value = it.next().filter(|v| !v.starts_with("--")).ok_or_else(|| format!("{option} needs a value"))?;
        if raw.insert(key.to_string(), RawValue::Text(value.clone())).is_some() {
            return Err(format!("{option} is given twice"));
        }
    }
    let file = file.ok_or("demand needs a CSV file of (p, bandwidth %, time) rows")?;
    analyze("scaling", "throttling", file, raw, demand_option_name)
}

/// `calibrate <model> FILE.csv --fit KEYS [--relative] [key=value ...]`,
/// options and pairs in any order after the model.
fn calibrate(model: &str, args: &[String]) -> Result<String, String> {
    let (mut file, mut fit, mut relative, mut pairs) = (None, None, false, Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--fit" => {
                let keys = it
                    .next()
                    .filter(|v| !v.starts_with("--"))
                    .ok_or("--fit needs the parameters to fit, e.g. --fit t_flops,t_comm")?;
                if fit
                    .replace(
                        keys.split(',').map(|k| k.trim().to_string()).filter(|k| !k.is_empty()).collect::<Vec<_>>(),
                    )
                    .is_some()
                {
                    return Err("--fit is given twice".into());
                }
            }
            "--relative" => relative = true,
            other if other.starts_with("--") => {
                return Err(format!("unknown option {other}; expected --fit or --relative"))
            }
            other if other.contains('=') => pairs.push(a.clone()),
            _ => {
                if let Some(first) = file.replace(a) {
                    return Err(format!("calibrate reads one file; got '{first}' and '{a}'"));
                }
            }
        }
    }
    let file = file.ok_or("calibrate needs a CSV file of measurements")?;
    let fit = fit.ok_or("calibrate needs --fit KEY[,KEY...]: the parameters to fit")?;
    let raw = parse_pairs(&pairs)?;
    validate(model, &raw, key_name)?;
    let text = read(file)?;
    let request = isoperf::engine::calibrate::Request { fit, relative };
    let calibrated = api::calibrate(model, &raw, &text, &request).map_err(|e| format!("{file}: {e}"))?;
    json(&calibrated.result)
}

/// `laws FILE.csv [--at P[,P...]]`.
fn laws(args: &[String]) -> Result<String, String> {
    let (mut file, mut at) = (None, Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--at" {
            let list = it.next().ok_or("--at needs process counts, e.g. --at 2048,4096")?;
            for p in list.split(',') {
                let v = p.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 1.0);
                at.push(v.ok_or_else(|| format!("--at: '{}' is not a process count ≥ 1", isoperf::format::echo(p)))?);
            }
        } else if a.starts_with("--") {
            return Err(format!("unknown option {a}; expected --at"));
        } else if let Some(first) = file.replace(a) {
            return Err(format!("laws reads one file; got '{first}' and '{a}'"));
        }
    }
    let file = file.ok_or("laws needs a CSV file of (p, time) rows")?;
    let text = read(file)?;
    json(&api::laws(&text, &at).map_err(|e| format!("{file}: {e}"))?)
}

/// The largest file read (measurements are kilobytes, and the longest
/// per-mapper list some megabytes; this is a guard against /dev/zero or a
/// wrong file, not a limit anyone meets).
const MAX_FILE: u64 = 64 << 20;

fn read(file: &str) -> Result<String, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read {file}: {e}");
    let mut bytes = Vec::new();
    std::fs::File::open(file).map_err(cannot)?.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!("{file} is larger than {} MiB, more than any input isoperf reads", MAX_FILE >> 20));
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
            return format!("{file} is UTF-16 text: save it as UTF-8 CSV");
        }
        let at = e.utf8_error().valid_up_to();
        let line = bytes.iter().take(at).filter(|&&b| b == b'\n').count() + 1;
        let byte = bytes.get(at).copied().unwrap_or_default();
        format!(
            "{file}: line {line} is not UTF-8 text (byte {} of the file, 0x{byte:02X}): save it as UTF-8 CSV",
            at + 1
        )
    })
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

fn run(args: &[String]) -> Result<Output, String> {
    match args {
        [cmd, model, rest @ ..] if cmd == "map" => map(model, rest),
        _ => text_command(args).map(Output::Text),
    }
}

fn text_command(args: &[String]) -> Result<String, String> {
    match args {
        [cmd] if cmd == "models" => json(&api::specs()),
        [cmd, model, rest @ ..] if cmd == "eval" => {
            let out = api::evaluate(model, &parse_pairs(rest)?).map_err(|e| e.to_string())?;
            json(&out)
        }
        [cmd, model, rest @ ..] if cmd == "tables" => {
            let out = api::tables(model, &parse_pairs(rest)?).map_err(|e| e.to_string())?;
            json(&out)
        }
        [cmd, model, chart_id, rest @ ..] if cmd == "chart" => chart(model, chart_id, rest),
        [cmd, model, dataset, file, rest @ ..] if cmd == "analyze" => {
            analyze(model, dataset, file, parse_pairs(rest)?, key_name)
        }
        // The names of the first release, kept as aliases.
        [cmd, model, file] if cmd == "fit" => analyze(model, "timings", file, RawParams::new(), key_name),
        [cmd, args @ ..] if cmd == "demand" => demand(args),
        [cmd, model, args @ ..] if cmd == "calibrate" => calibrate(model, args),
        [cmd, args @ ..] if cmd == "laws" => laws(args),
        [cmd] if cmd == "--help" || cmd == "-h" || cmd == "help" => Ok(USAGE.to_string()),
        _ => Err(format!("unrecognised arguments\n{USAGE}")),
    }
}

/// The arguments as text; one that is not UTF-8 is named, not a panic.
fn arguments() -> Result<Vec<String>, String> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|a| format!("argument {} ({}) is not valid UTF-8", i + 1, a.to_string_lossy()))
        })
        .collect()
}

/// Writes the output; a closed pipe (isoperf … | head) is not an error,
/// any other failure (a full disk) is.
fn write(output: Output) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = match output {
        Output::Text(text) => writeln!(out, "{text}"),
        Output::Bytes(bytes) => out.write_all(&bytes),
    };
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Runs `f`, showing on a terminal's stderr how far a long computation
/// has come (the general LP's progress, the same the page's bar shows),
/// a line rewritten in place and cleared at the end. Nothing is written
/// where stderr is not a terminal.
fn with_progress<R>(f: impl FnOnce() -> R) -> R {
    use std::io::{IsTerminal, Write};
    if !std::io::stderr().is_terminal() {
        return f();
    }
    let shown = std::rc::Rc::new(std::cell::Cell::new(-1i32));
    let hook_shown = std::rc::Rc::clone(&shown);
    let result = isoperf::progress::with(
        move |fraction| {
            let percent = (fraction * 100.0).floor() as i32;
            if percent != hook_shown.get() {
                hook_shown.set(percent);
                let _ = write!(std::io::stderr(), "\risoperf: computing… {percent}%");
            }
        },
        f,
    );
    if shown.get() >= 0 {
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
    result
}

fn main() -> ExitCode {
    match arguments().and_then(|args| with_progress(|| run(&args))) {
        Ok(output) => match write(output) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("isoperf: cannot write the output: {e}");
                ExitCode::FAILURE
            }
        },
        Err(msg) => {
            eprintln!("isoperf: {msg}");
            ExitCode::from(2)
        }
    }
}
