//! The `isoperf` binary against the library: same numbers, to the bit.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::process::Command;

use isoperf::api;
use isoperf::spec::{OutValue, RawParams, RawValue};

fn isoperf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_isoperf")).args(args).output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn eval_prints_the_library_numbers_bit_for_bit() {
    let cases: &[&[&str]] = &[
        &[],
        &["impl=msmpi", "N=100", "M=20000", "t_comm=6.4e-8"],
        &["impl=fox", "N=1024", "M=65536", "t_flops=1e-10", "t_startup=1e-5"],
        &["impl=dryad", "N=9", "M=3000", "t_io=3.3e-8", "t_scheduling=0.2", "t_startup=0.1163"],
    ];
    for args in cases {
        let mut argv = vec!["eval", "pmm"];
        argv.extend_from_slice(args);
        let (code, stdout, stderr) = isoperf(&argv);
        assert_eq!(code, 0, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
        let raw: RawParams = args
            .iter()
            .map(|a| {
                let (k, v) = a.split_once('=').expect("k=v");
                (k.to_string(), RawValue::Text(v.to_string()))
            })
            .collect();
        let lib = api::evaluate("pmm", &raw).expect("valid");
        assert_eq!(json.as_object().map(|o| o.len()), Some(lib.0.len()));
        for (k, v) in &lib.0 {
            if let OutValue::Num(x) = v {
                let cli = json[k].as_f64().unwrap_or(f64::NAN);
                assert_eq!(cli.to_bits(), x.to_bits(), "{k}: CLI {cli} vs library {x}");
            }
        }
    }
}

#[test]
fn bad_input_is_one_line_on_stderr_and_a_nonzero_exit() {
    for args in [
        vec!["eval", "pmm", "N=30"],
        vec!["eval", "pmm", "t_flops=-1"],
        vec!["eval", "pmm", "impl=mpich"],
        vec!["eval", "pmm", "M"],
        vec!["eval", "nope"],
        vec!["frobnicate"],
    ] {
        let (code, stdout, stderr) = isoperf(&args);
        assert_ne!(code, 0, "{args:?}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.starts_with("isoperf: "), "{args:?}: {stderr}");
        if args.len() > 2 {
            assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        }
    }
    let (_, _, stderr) = isoperf(&["eval", "pmm", "N=30"]);
    assert!(stderr.contains("N: 30 is not a perfect square") && stderr.contains("25 and 36"), "{stderr}");
}

#[test]
fn models_prints_the_registry() {
    let (code, stdout, _) = isoperf(&["models"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let ids: Vec<&str> = json.as_array().expect("array").iter().filter_map(|m| m["id"].as_str()).collect();
    let lib: Vec<&str> = api::specs().iter().map(|s| s.id).collect();
    assert_eq!(ids, lib);
}

#[test]
fn tables_and_charts_from_the_command_line() {
    let (code, stdout, _) = isoperf(&["tables", "pmm", "N=36"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(json[0]["id"], "table2");
    assert_eq!(json[1]["id"], "table3");
    let (code, stdout, _) = isoperf(&["chart", "pmm", "time"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("<svg"));
}

#[test]
fn mapreduce_eval_sweep_chart_and_bad_input() {
    let (code, stdout, stderr) =
        isoperf(&["eval", "mapreduce", "m=4", "r=4", "l=2", "V=100", "C=1", "gamma=1", "a_map=1", "s_map=0"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let raw: RawParams =
        [("m", "4"), ("r", "4"), ("l", "2"), ("V", "100"), ("C", "1"), ("gamma", "1"), ("a_map", "1"), ("s_map", "0")]
            .iter()
            .map(|(k, v)| (k.to_string(), RawValue::Text(v.to_string())))
            .collect();
    let lib = api::evaluate("mapreduce", &raw).unwrap();
    assert_eq!(json["t_shuffle"].as_f64(), lib.num("t_shuffle"));
    assert_eq!(json["alpha"].as_array().map(Vec::len), Some(4));
    // A sweep as SVG on stdout, its observations on stderr.
    let (code, stdout, stderr) = isoperf(&["chart", "mapreduce", "speedup-m-gamma"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("<svg") && !stdout.contains("NaN"));
    assert!(stderr.contains("The smaller γ"), "{stderr}");
    // One clear line naming the field, non-zero exit.
    let (code, stdout, stderr) = isoperf(&["eval", "mapreduce", "l=0"]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty());
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("l:") && stderr.contains("1 ≤ value"), "{stderr}");
}

/// A long evaluation shows its progress on a terminal, one line rewritten
/// in place and cleared at the end; piped, stderr stays empty. (The
/// general LP reports after each iteration: 100 mappers of random rates,
/// which only it proves, the page's e2e case.) The terminal is
/// util-linux's `script`.
#[test]
fn progress_shows_on_a_terminal_only() {
    let list_arg = format!("a_map_list={}", common::RANDOM_RATES);
    let args = ["eval", "mapreduce", "mappers=heterogeneous", &list_arg, "r=40", "l=20", "V=1e10", "S=5", "gamma=0.5"];
    let (code, stdout, stderr) = isoperf(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "piped stderr: {stderr}");
    let piped: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let dir = std::env::temp_dir().join(format!("isoperf-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("out.json");
    let command = format!("{} {} > {}", env!("CARGO_BIN_EXE_isoperf"), args.join(" "), json.display());
    let Ok(out) = Command::new("script").args(["-qec", &command, "/dev/null"]).output() else {
        panic!("util-linux's script is needed to give the CLI a terminal");
    };
    let transcript = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{transcript}");
    assert!(transcript.contains("\risoperf: computing… "), "{transcript:?}");
    assert!(transcript.ends_with("\r\x1b[2K"), "the line is cleared at the end: {transcript:?}");
    let shown: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(shown["T"], piped["T"], "the same answer on a terminal");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// key=@FILE takes the value from a file: a per-mapper list one rate a
/// line gives the same answer as the list in the argument; a file that
/// cannot be read is one line naming the key and the file, exit 2.
#[test]
fn a_value_from_a_file() {
    let rates: Vec<String> = (0..40).map(|i| format!("{}e-6", 5 + i % 7)).collect();
    let dir = std::env::temp_dir().join(format!("isoperf-at-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rates.txt");
    std::fs::write(&file, rates.join("\n") + "\n").unwrap();
    let inline = format!("a_map_list={}", rates.join(","));
    let from_file = format!("a_map_list=@{}", file.display());
    let rest = ["r=8", "l=4", "V=1e9"];
    let (code, by_argument, stderr) =
        isoperf(&[&["eval", "mapreduce", "mappers=heterogeneous", &inline][..], &rest].concat());
    assert_eq!(code, 0, "{stderr}");
    let (code, by_file, stderr) =
        isoperf(&[&["eval", "mapreduce", "mappers=heterogeneous", &from_file][..], &rest].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(by_file, by_argument);
    let missing = format!("a_map_list=@{}", dir.join("missing.txt").display());
    let (code, stdout, stderr) = isoperf(&["eval", "mapreduce", "mappers=heterogeneous", &missing]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.starts_with("isoperf: a_map_list: cannot read ") && stderr.contains("missing.txt"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    // A file that never ends stops at the size guard; a bad item is the
    // field's message, as in the argument.
    let (code, _, stderr) = isoperf(&["eval", "mapreduce", "mappers=heterogeneous", "a_map_list=@/dev/zero"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("a_map_list: /dev/zero is larger than 64 MiB"), "{stderr}");
    std::fs::write(&file, "1e-5\n<script>alert(1)</script>\n").unwrap();
    let (code, _, stderr) = isoperf(&["eval", "mapreduce", "mappers=heterogeneous", &from_file]);
    assert_ne!(code, 0);
    assert!(stderr.contains("a_map_list: value 2: ") && stderr.contains("is not a number"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 13, classes 5 and 8: arguments and files the CLI cannot use are a
/// message and exit code 2, never a panic (exit 101); a failed write is an
/// error, not a silent success.
#[test]
#[cfg(unix)]
fn arguments_files_and_writes_it_cannot_use() {
    use std::os::unix::ffi::OsStrExt;
    let bin = env!("CARGO_BIN_EXE_isoperf");
    let out = Command::new(bin).args(["eval", "pmm"]).arg(std::ffi::OsStr::from_bytes(b"N=\xff")).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("argument 3") && stderr.contains("not valid UTF-8"), "{stderr}");

    let dir = std::env::temp_dir().join(format!("isoperf-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let latin1 = dir.join("latin1.csv");
    std::fs::write(&latin1, b"p,time\n18,4.4\n36,3.1\xe9\n").unwrap();
    let (code, _, stderr) = isoperf(&["analyze", "scaling", "timings", latin1.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not UTF-8"), "{stderr}");
    let big = dir.join("big.csv");
    std::fs::File::create(&big).unwrap().set_len((64 << 20) + 1).unwrap();
    let (code, _, stderr) = isoperf(&["analyze", "scaling", "timings", big.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("larger than 64 MiB"), "{stderr}");
    // /dev/zero never ends: the size guard stops it.
    let (code, _, stderr) = isoperf(&["analyze", "scaling", "timings", "/dev/zero"]);
    assert_eq!(code, 2, "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();

    if std::path::Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = Command::new(bin).arg("models").stdout(full).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "a full disk is an error");
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the output"));
    }
}

/// A directory of one test's own files, removed when the test ends.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("isoperf-cli-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `bytes` to `name` in the directory; its path as an argument.
    fn file(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const TIMINGS: &str = "www/data/graph500-scale27-synthetic.csv";
const THROTTLING: &str = "www/data/graph500-throttling-synthetic.csv";

/// A refusal: exit code 2, nothing on stdout, one line on stderr.
fn refused(args: &[&str]) -> String {
    let (code, stdout, stderr) = isoperf(args);
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert!(stdout.is_empty(), "{args:?}: {stdout}");
    assert!(stderr.starts_with("isoperf: "), "{args:?}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    stderr.trim_end().to_string()
}

/// Issue 13: `demand` put the default in place of a value outside the
/// model's range (`--target-p -1`, `--base-p 0`, `--cti -0.1`) and exited 0.
/// Now the model's own validation refuses it, named by the option, with the
/// range the registry gives.
#[test]
fn demand_options_outside_their_range_are_refused_by_name() {
    let spec = api::specs().into_iter().find(|s| s.id == "scaling").unwrap();
    let valid = |key: &str| spec.params.iter().find(|p| p.key == key).unwrap().valid();
    for (option, key, value, problem) in [
        ("--target-p", "p_target", "-1", "-1 is out of range"),
        ("--target-p", "p_target", "1e10", "1e10 is out of range"),
        ("--target-p", "p_target", "inf", "NaN and infinity are not allowed"),
        ("--base-p", "p_base", "-1", "-1 is out of range"),
        ("--base-p", "p_base", "0", "0 is out of range"),
        ("--base-p", "p_base", "NaN", "NaN and infinity are not allowed"),
        ("--base-p", "p_base", "288 nodes", "'288 nodes' is not a number"),
        ("--cti", "cti", "-0.1", "value 1: -0.1 is out of range"),
        ("--cti", "cti", "", "no value given"),
        ("--cti", "cti", "0.05,,0.1", "value 2: no value given"),
        ("--cti", "cti", "0.05,abc", "value 2: 'abc' is not a number"),
        ("--cti", "cti", "0.05,nan", "value 2: NaN and infinity are not allowed"),
    ] {
        let stderr = refused(&["demand", THROTTLING, option, value]);
        assert_eq!(stderr, format!("isoperf: {option}: {problem}; expected {}", valid(key)));
    }
    // What the user reads: the range, not a Rust type.
    assert!(refused(&["demand", THROTTLING, "--base-p", "0"]).ends_with("a number with 1 ≤ value ≤ 1e9"));
    // Every bad option at once, in the registry's order.
    assert_eq!(
        refused(&["demand", THROTTLING, "--target-p", "0", "--base-p", "0"]),
        format!(
            "isoperf: --base-p: 0 is out of range; expected {}; --target-p: 0 is out of range; expected {}",
            valid("p_base"),
            valid("p_target")
        )
    );
    // The same parameters as key=value name their keys.
    assert_eq!(
        refused(&["analyze", "scaling", "throttling", THROTTLING, "p_target=-1"]),
        format!("isoperf: p_target: -1 is out of range; expected {}", valid("p_target"))
    );
    assert!(refused(&["analyze", "scaling", "timings", TIMINGS, "ctis=0.1"]).contains("ctis: is not a parameter"));

    // Options that are not options, and files that are not one.
    for (args, message) in [
        (vec!["demand", THROTTLING, "--cti"], "--cti needs a value"),
        (vec!["demand", THROTTLING, "--cti", "--base-p", "288"], "--cti needs a value"),
        (vec!["demand", THROTTLING, "--cti", "0.1", "--cti", "0.2"], "--cti is given twice"),
        (
            vec!["demand", THROTTLING, "--target", "450"],
            "unknown option --target; expected --cti, --base-p, --target-p",
        ),
        (vec!["demand", THROTTLING, "450"], "demand reads one file; got"),
        (vec!["demand"], "demand needs a CSV file"),
        (vec!["demand", "--cti", "0.1"], "demand needs a CSV file"),
    ] {
        assert!(refused(&args).contains(message), "{args:?}");
    }

    // Valid options are used, before or after the file.
    let (code, stdout, stderr) = isoperf(&["demand", "--target-p", "576", THROTTLING, "--cti", "0.05"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!((json["target_p"].as_f64(), json["base_p"].as_f64()), (Some(576.0), Some(288.0)));
    assert_eq!(json["ctis"], serde_json::json!([0.05]));
}

/// What editors and spreadsheets write: a byte-order mark, Windows or old
/// Mac line ends, quoted fields. Each reads as the plain file does.
#[test]
fn csv_as_editors_and_spreadsheets_write_it() {
    let dir = Scratch::new("spreadsheets");
    let plain = std::fs::read_to_string(TIMINGS).unwrap();
    let (code, want, stderr) = isoperf(&["analyze", "scaling", "timings", TIMINGS]);
    assert_eq!(code, 0, "{stderr}");
    assert!(plain.starts_with('#'), "the example's first line is a comment");
    let header_first: String = plain.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    assert!(header_first.starts_with("p,time\n"));
    let data_first = header_first.trim_start_matches("p,time\n").to_string();
    let quoted: String = plain
        .lines()
        .map(|l| if l.starts_with('#') { format!("{l}\n") } else { format!("\"{}\"\n", l.replace(',', "\";\"")) })
        .collect();
    for (name, text) in [
        ("bom-comment", format!("\u{feff}{plain}")),
        ("bom-header", format!("\u{feff}{header_first}")),
        ("bom-data", format!("\u{feff}{data_first}")),
        ("crlf", plain.replace('\n', "\r\n")),
        ("bom-crlf", format!("\u{feff}{}", plain.replace('\n', "\r\n"))),
        ("cr", plain.replace('\n', "\r")),
        ("quoted", quoted.clone()),
        ("quoted-comma", quoted.replace("\";\"", "\",\"")),
    ] {
        let (code, stdout, stderr) =
            isoperf(&["analyze", "scaling", "timings", &dir.file(&format!("{name}.csv"), text)]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert_eq!(stdout, want, "{name}");
    }
}

/// Files the reader cannot use: one line naming the file, and the line and
/// column where one is at fault; exit code 2.
#[test]
fn csv_files_it_cannot_use_are_named_with_line_and_column() {
    let dir = Scratch::new("unusable");
    let mut utf16 = vec![0xff, 0xfe];
    utf16.extend("p,time\n18,4.4\n".encode_utf16().flat_map(u16::to_le_bytes));
    let utf16_no_bom: Vec<u8> = "p,time\n18,4.4\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
    for (name, bytes, message) in [
        ("nul.csv", b"p,time\n18,4.4\n36,3\x001\n".to_vec(), "line 3, column 2: time contains a NUL byte"),
        ("utf16-no-bom.csv", utf16_no_bom, "line 1, column 1: p contains a NUL byte"),
        ("decimal-comma.csv", b"p,time\n\"18\",\"4,4\"\n".to_vec(), "line 2, column 2: time '4,4' has a decimal comma"),
        (
            "unclosed.csv",
            b"p,time\n18,\"4.4\n".to_vec(),
            "line 2, column 2: time has an opening quote that is not closed",
        ),
        ("empty-field.csv", b"p,time\n18,4.4\n36,\n".to_vec(), "line 3, column 2: time is empty"),
        ("empty.csv", Vec::new(), "no data: expected rows of p, time"),
        ("blank.csv", b"\n \r\n\t\n".to_vec(), "no data: expected rows of p, time"),
        ("comments.csv", b"\xef\xbb\xbf# nothing measured yet\n".to_vec(), "no data: expected rows of p, time"),
        ("header.csv", b"# runs\np,time\r\n".to_vec(), "no data below the header on line 2: expected rows of p, time"),
        (
            "latin1.csv",
            b"p,time\n18,4.4\n36,3.1\xe9\n".to_vec(),
            "line 3 is not UTF-8 text (byte 21 of the file, 0xE9)",
        ),
        ("utf16.csv", utf16, "is UTF-16 text: save it as UTF-8 CSV"),
    ] {
        let path = dir.file(name, bytes);
        let stderr = refused(&["analyze", "scaling", "timings", &path]);
        assert!(stderr.starts_with(&format!("isoperf: {path}")), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
        assert!(!stderr.contains('\0'), "{name}: a NUL is not echoed");
    }
    // A directory or a missing file is named too.
    assert!(refused(&["analyze", "scaling", "timings", dir.0.to_str().unwrap()]).contains("cannot read"));
    assert!(refused(&["fit", "scaling", "no-such-file.csv"]).contains("cannot read no-such-file.csv"));
}

/// A large file is analysed in seconds, not minutes (files over 64 MiB are
/// refused unread: `arguments_files_and_writes_it_cannot_use`). 50 MB under
/// `cargo test --release`; the debug build reads about 1 MB a second, so
/// 2 MB there.
#[test]
fn a_large_file_is_analysed() {
    let dir = Scratch::new("large");
    let size = if cfg!(debug_assertions) { 2 << 20 } else { 50_000_000 };
    let mut text = String::with_capacity(size + 64);
    text.push_str("p,time\n");
    let mut rows = 0;
    for p in [18.0_f64, 36.0, 72.0, 144.0, 288.0, 576.0].into_iter().cycle() {
        if text.len() >= size {
            break;
        }
        text.push_str(&format!("{p},{}\n", 1.0 + 50.0 / p + 4.0 / p.sqrt()));
        rows += 1;
    }
    let path = dir.file("large.csv", &text);
    let start = std::time::Instant::now();
    let (code, stdout, stderr) = isoperf(&["analyze", "scaling", "timings", &path]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["n"], rows);
    let c1 = json["C1"]["value"].as_f64().unwrap();
    assert!((c1 - 50.0).abs() < 1e-6, "C1 = {c1}");
    eprintln!("{} bytes, {rows} rows: {:?}", text.len(), start.elapsed());
}

/// Issue 17: `calibrate` prints the library's calibration as JSON, with
/// each fitted parameter's value, standard error and 95% interval.
#[test]
fn calibrate_prints_the_fit_as_json() {
    let dir = Scratch::new("calibrate");
    let mut csv = String::from("N,M,T (ms)\n");
    for (n, m) in [(1, 4000), (4, 4000), (16, 8000), (64, 8000), (64, 16000), (256, 16000)] {
        let raw: RawParams =
            [("N", n.to_string()), ("M", m.to_string()), ("t_flops", "2e-10".into()), ("t_comm", "5e-8".into())]
                .into_iter()
                .map(|(k, v)| (k.to_string(), RawValue::Text(v)))
                .collect();
        let t = match api::evaluate("pmm", &raw).unwrap().0.iter().find(|(k, _)| *k == "T") {
            Some((_, OutValue::Num(t))) => *t,
            other => panic!("{other:?}"),
        };
        // Within 1% of the model, alternating.
        csv += &format!("{n},{m},{}\n", t * 1e3 * if n % 2 == 0 { 1.01 } else { 0.99 });
    }
    let file = dir.file("pmm.csv", &csv);
    let (code, stdout, stderr) =
        isoperf(&["calibrate", "pmm", &file, "--fit", "t_flops,t_comm", "--relative", "impl=dryad"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for key in ["t_flops", "t_comm"] {
        let f = &json["fitted"][key];
        let (v, se) = (f["value"].as_f64().unwrap(), f["stderr"].as_f64().unwrap());
        let ci: Vec<f64> = f["ci95"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert!(se > 0.0 && ci[0] < v && v < ci[1], "{key}: {f}");
    }
    assert!(json["r2"].as_f64().unwrap() > 0.99 && json["rmse"].as_f64().unwrap() > 0.0);
    // The library's numbers, to the bit.
    let raw: RawParams = [("impl".to_string(), RawValue::Text("dryad".into()))].into_iter().collect();
    let request = isoperf::engine::calibrate::Request { fit: vec!["t_flops".into(), "t_comm".into()], relative: true };
    let lib = api::calibrate("pmm", &raw, &csv, &request).unwrap();
    assert_eq!(json, lib.result);
    for (args, want) in [
        (vec!["calibrate", "pmm", file.as_str()], "calibrate needs --fit"),
        (vec!["calibrate", "pmm", file.as_str(), "--fit", "t_flops", "--fast"], "unknown option --fast"),
        (vec!["calibrate", "pmm", file.as_str(), "--fit", "t_nope"], "'t_nope' is not a parameter of pmm"),
        (vec!["calibrate", "pmm", file.as_str(), "--fit", "t_flops", "t_comm=-1"], "t_comm: "),
    ] {
        let err = refused(&args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Issue 17: `chart` and `map` take `--calibrated FIT.json` (what
/// `calibrate` printed): the fitted values in place, bands under the
/// curves, each map node's 95% interval, as the library computes them.
#[test]
fn chart_and_map_carry_a_calibrations_uncertainty() {
    let dir = Scratch::new("carried");
    let runs =
        std::fs::read_to_string(format!("{}/www/data/pmm-runs-synthetic.csv", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let csv = dir.file("runs.csv", &runs);
    let (code, fit, stderr) = isoperf(&["calibrate", "pmm", &csv, "--fit", "t_flops,t_comm", "--relative"]);
    assert_eq!(code, 0, "{stderr}");
    let fit_file = dir.file("fit.json", &fit);
    let (code, svg, note) = isoperf(&["chart", "pmm", "time", "--calibrated", &fit_file]);
    assert_eq!(code, 0, "{note}");
    assert_eq!(svg.matches(r#"<polygon opacity="0.22""#).count(), 3, "a band under each implementation's curve");
    assert!(note.contains("95% interval of the model's value from the calibration of t_flops, t_comm"), "{note}");
    let map_args = [
        "--output",
        "efficiency",
        "--x",
        "t_io:0:2e-7",
        "--y",
        "M:1000:24000",
        "--levels",
        "0.8,0.9",
        "--grid",
        "16x16",
    ];
    let (code, out, stderr) = isoperf(&[&["map", "pmm"][..], &map_args, &["--calibrated", &fit_file]].concat());
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    // The library's numbers at the fitted values, to the bit.
    let parsed: serde_json::Value = serde_json::from_str(&fit).unwrap();
    let keys: Vec<String> =
        parsed["parameters"].as_array().unwrap().iter().map(|k| k.as_str().unwrap().to_string()).collect();
    let cov: Vec<Vec<f64>> = serde_json::from_value(parsed["covariance"].clone()).unwrap();
    let u = api::uncertainty("pmm", &keys, &cov, parsed["t95"].as_f64().unwrap()).unwrap();
    let raw: RawParams =
        keys.iter().map(|k| (k.clone(), RawValue::Num(parsed["fitted"][k]["value"].as_f64().unwrap()))).collect();
    let request = isoperf::engine::isomap::MapRequest {
        output: "efficiency".into(),
        x: isoperf::engine::isomap::MapAxis::parse("x", "t_io:0:2e-7").unwrap(),
        y: isoperf::engine::isomap::MapAxis::parse("y", "M:1000:24000").unwrap(),
        nx: 16,
        ny: 16,
        levels: vec![0.8, 0.9],
    };
    let b = api::iso_map_rows_carrying("pmm", &raw, &request, 0..16, &u).unwrap();
    let ends = |key: &str| -> Vec<f64> { json[key].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect() };
    assert_eq!(ends("low"), b.low);
    assert_eq!(ends("high"), b.high);
    assert!(b.low.iter().zip(&b.high).all(|(l, h)| l < h));
    let (code, svg, stderr) =
        isoperf(&[&["map", "pmm"][..], &map_args, &["--calibrated", &fit_file, "--svg"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(svg.contains("stroke-dasharray"), "the interval's ends crossing the levels, dashed");
    let bad = dir.file("bad.json", r#"{"fitted": {}, "parameters": ["t_flops"], "covariance": [[1]], "t95": 2}"#);
    for (args, want) in [
        (vec!["chart", "pmm", "time", "--calibrated", fit_file.as_str(), "t_flops=1e-10"], "t_flops is fitted in"),
        (vec!["chart", "pmm", "time", "--calibrated", csv.as_str()], "not the JSON `isoperf calibrate` prints"),
        (vec!["chart", "pmm", "time", "--calibrated", bad.as_str()], "no fitted value of t_flops"),
        (vec!["chart", "pmm", "time", "t_io=0", "--calibrated", fit_file.as_str()], "--calibrated FIT.json goes first"),
    ] {
        let err = refused(&args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Issue 17: `laws` prints the ranked hypotheses as JSON, each with its
/// formula, constant, terms (coefficient, i, j), cross-validation error
/// and AIC, and flags predictions far past the data.
#[test]
fn laws_prints_the_ranked_hypotheses() {
    let dir = Scratch::new("laws");
    let rows: String = (0..=10).flat_map(|e| [0.99, 1.01, 1.0].map(move |f| (1u32 << e, f))).fold(
        String::from("p,time\n"),
        |csv, (p, f)| {
            let p = f64::from(p);
            csv + &format!("{p},{}\n", (3.0 + 0.5 * p * p.log2()) * f)
        },
    );
    let file = dir.file("laws.csv", rows);
    let (code, stdout, stderr) = isoperf(&["laws", &file, "--at", "2048,1e6"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let best = &json["hypotheses"][0];
    assert_eq!(best["terms"].as_array().unwrap().len(), 1, "{best}");
    assert_eq!((best["terms"][0]["i"].as_f64(), best["terms"][0]["j"].as_u64()), (Some(1.0), Some(1)));
    assert!(best["formula"].as_str().unwrap().contains("p·log2(p)"));
    for key in ["constant", "cv_error", "aic"] {
        assert!(best[key].is_number(), "{key}: {best}");
    }
    assert!(json["hypotheses"].as_array().unwrap().len() == 5);
    assert!(json["predictions"][0]["warning"].is_null());
    assert!(json["predictions"][1]["warning"].as_str().unwrap().contains("extrapolated far past the data"));
    assert!(refused(&["laws", &file, "--at", "0"]).contains("--at: '0' is not a process count ≥ 1"));
    let bad = dir.file("bad.csv", "p,time\n1,2\n2,x\n");
    assert!(refused(&["laws", &bad]).contains("line 3, column 2"));
}
