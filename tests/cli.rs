//! The `isoperf` binary against the library: same numbers, to the bit.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

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
