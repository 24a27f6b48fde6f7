//! The crate's layers point one way (docs/architecture.md): every
//! `crate::…` path in a file names a module of its own layer's vocabulary
//! or of a layer below it, and models never reach into each other.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::fs;
use std::path::{Path, PathBuf};

/// Top-level modules by layer, lowest first.
const LAYERS: &[&[&str]] = &[
    &["format", "progress"],
    &["series", "table", "collective", "fit"],
    &["error"],
    &["csv"],
    &["spec"],
    &["chart"],
    &["model"],
    &["models"],
    &["engine"],
    &["api"],
    &["web"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file belongs to, and for a model its name.
fn home(file: &Path, src: &Path) -> (String, Option<String>) {
    let rel: Vec<String> = file
        .strip_prefix(src)
        .unwrap()
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let top = rel[0].clone();
    let model = (top == "models" && rel.len() > 2).then(|| rel[1].clone());
    (top, model)
}

/// Every `crate::a::b` in `text`, as (a, b).
fn crate_paths(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let mut parts = item.trim().split("::");
                out.push((parts.next().unwrap_or_default().to_string(), parts.next().unwrap_or_default().to_string()));
            }
            continue;
        }
        let mut parts =
            rest.split("::").map(|p| p.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>());
        let a = parts.next().unwrap_or_default();
        let b = parts.next().unwrap_or_default();
        out.push((a, b));
    }
    out
}

#[test]
fn every_crate_path_points_down_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut problems = Vec::new();
    for file in files {
        let (top, model) = home(&file, &src);
        if top == "lib" || top == "bin" {
            continue;
        }
        let own =
            layer(&top).unwrap_or_else(|| panic!("{top} is in no layer: add it to LAYERS and docs/architecture.md"));
        let text = fs::read_to_string(&file).unwrap();
        for (a, b) in crate_paths(&text) {
            let Some(target) = layer(&a) else { continue };
            if target > own || (target == own && a != top) {
                problems.push(format!("{}: crate::{a} is not below {top}", file.display()));
            }
            if let (Some(m), "models") = (&model, a.as_str()) {
                if !b.is_empty() && &b != m {
                    problems.push(format!("{}: model {m} reaches into model {b}", file.display()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn grouped_and_nested_paths_are_read() {
    let found = crate_paths("use crate::{api, spec::Params};\nlet x = crate::models::dlt::Star::new();");
    let expect = [("api", ""), ("spec", "Params"), ("models", "dlt")];
    assert_eq!(found, expect.map(|(a, b)| (a.to_string(), b.to_string())));
}
