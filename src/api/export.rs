//! Exports: a chart's data as a table and as CSV, a chart as SVG, the
//! results (outputs and tables) as CSV and JSON, and a PNG's provenance.
//! Every export records what produced it ([`Provenance`]): isoperf's
//! version, the model, every parameter value and the page's link, so a
//! file found later says how to make it again.
//!
//! Numbers in CSV and JSON are exact (the shortest text that reads back as
//! the same `f64`); the data table shown under a chart rounds them as the
//! page does.

use std::collections::BTreeMap;

use plotters::prelude::{IntoDrawingArea, SVGBackend};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::chart::{self, Chart, Style, Theme};
use crate::format;
use crate::spec::{RawParams, RawValue};
use crate::table::{self, Row, Status, Table};

/// What produced an export.
#[derive(Debug, Clone, Deserialize)]
pub struct Provenance {
    /// The model's id (`pmm`).
    pub model: String,
    /// The parameter values, as the page, the CLI or a caller gave them.
    #[serde(default, deserialize_with = "raw_params")]
    pub params: RawParams,
    /// The page's address with its hash (the permalink), when there is one.
    #[serde(default)]
    pub link: Option<String>,
}

fn raw_params<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RawParams, D::Error> {
    Option::<RawParams>::deserialize(d).map(Option::unwrap_or_default)
}

/// isoperf's version, as every export records it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One line of text for a comment: no line breaks, no control characters.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

fn raw_json(v: &RawValue) -> Value {
    match v {
        RawValue::Num(x) if x.is_finite() => json!(x),
        RawValue::Num(x) => json!(x.to_string()),
        RawValue::Bool(b) => json!(b),
        // A form's text that is a number is recorded as the number.
        RawValue::Text(s) => match s.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => json!(x),
            _ => json!(s),
        },
        RawValue::List(items) => Value::Array(items.iter().map(raw_json).collect()),
    }
}

/// The exact text of a number in a CSV or a parameter echo.
fn exact(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::new()
    }
}

fn raw_text(v: &RawValue) -> String {
    match v {
        RawValue::Num(x) => exact(*x),
        RawValue::List(items) => items.iter().map(raw_text).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

impl Provenance {
    pub fn new(model: impl Into<String>, params: RawParams) -> Self {
        Provenance { model: model.into(), params, link: None }
    }

    /// As JSON: `{"isoperf": version, "model", "params", "link"?}`.
    pub fn to_json(&self) -> Value {
        let params: Map<String, Value> = self.params.iter().map(|(k, v)| (k.clone(), raw_json(v))).collect();
        let mut out = json!({ "isoperf": VERSION, "model": self.model, "params": params });
        if let (Some(link), Some(o)) = (&self.link, out.as_object_mut()) {
            o.insert("link".into(), json!(link));
        }
        out
    }

    /// As the comment lines that open a CSV (`# ` each).
    pub fn csv_comment(&self) -> String {
        let params: Vec<String> = self.params.iter().map(|(k, v)| format!("{k}={}", raw_text(v))).collect();
        let mut lines = vec![
            format!("# isoperf {VERSION}, model {}", one_line(&self.model)),
            format!("# parameters: {}", one_line(&params.join(" "))),
        ];
        if let Some(link) = &self.link {
            lines.push(format!("# link: {}", one_line(link)));
        }
        lines.join("\n") + "\n"
    }
}

/// A cell of a CSV: quoted when it holds a comma, a quote or a line break,
/// and kept from being read as a formula by a spreadsheet (a text cell
/// starting with `=`, `+`, `-` or `@` that is not a number gets a `'`).
fn cell(c: &str) -> String {
    let formula = c.starts_with(['=', '+', '-', '@']) && c.parse::<f64>().is_err();
    let c = if formula { format!("'{c}") } else { c.to_string() };
    if c.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", c.replace('"', "\"\""))
    } else {
        c
    }
}

fn csv_line<S: AsRef<str>>(cells: &[S]) -> String {
    cells.iter().map(|c| cell(c.as_ref())).collect::<Vec<_>>().join(",")
}

/// A chart's data as columns of numbers (`None`: no value there). Curves
/// that share their x values make one wide table (x, then a column per
/// curve); otherwise each point is a row (curve, x, y); Gantt bars are rows
/// (bar, row, from, to).
#[derive(Debug, Clone, PartialEq)]
pub struct ChartData {
    pub columns: Vec<String>,
    /// The first cell of each row is text (a curve's name or the x value).
    pub rows: Vec<(String, Vec<Option<f64>>)>,
    /// Whether the first column is x (a number), not a name.
    pub first_is_x: bool,
    /// Marked points (name, [x, y]) listed apart from a wide table.
    pub markers: Vec<(String, Vec<Option<f64>>)>,
}

fn finite(y: f64) -> Option<f64> {
    y.is_finite().then_some(y)
}

/// The data behind `chart`, as [`ChartData`].
pub fn chart_data(chart: &Chart) -> ChartData {
    // A pinned scenario's faint curves are that scenario's chart, not this one's data.
    let own: Vec<chart::Series> = chart.series.iter().filter(|s| !s.faint).cloned().collect();
    let chart = &Chart { series: own, ..chart.clone() };
    let spans: Vec<_> = chart.series.iter().filter(|s| s.style == Style::Spans).collect();
    if !spans.is_empty() {
        let row_name = |row: f64| {
            let k = row.round();
            (k >= 1.0 && (k as usize) <= chart.y.tick_labels.len())
                .then(|| chart.y.tick_labels.get(k as usize - 1).cloned())
                .flatten()
                .unwrap_or_else(|| exact(row))
        };
        let rows = spans
            .iter()
            .flat_map(|s| s.spans.iter().map(move |b| (s, b)))
            .map(|(s, b)| (format!("{} ({})", s.name, row_name(b.row)), vec![finite(b.from), finite(b.to)]))
            .collect();
        return ChartData {
            columns: vec![
                chart.y.label.clone(),
                format!("from ({})", chart.x.label),
                format!("to ({})", chart.x.label),
            ],
            rows,
            first_is_x: false,
            markers: Vec::new(),
        };
    }
    // Markers (one emphasised point, e.g. the current parameters) lie on the
    // curves; they are listed after them when the curves share their x.
    // A band is two columns (or curves): its low end and its high end.
    let ends: Vec<chart::Series> = chart
        .series
        .iter()
        .flat_map(|s| {
            if s.style == Style::Band {
                vec![
                    chart::Series::new(format!("{} (95% low)", s.name), Style::Line, s.color, s.points.clone()),
                    chart::Series::new(format!("{} (95% high)", s.name), Style::Line, s.color, s.upper.clone()),
                ]
            } else {
                vec![s.clone()]
            }
        })
        .collect();
    let curves: Vec<_> = ends.iter().filter(|s| !s.points.is_empty() && s.style != Style::Marker).collect();
    let markers: Vec<_> = ends.iter().filter(|s| !s.points.is_empty() && s.style == Style::Marker).collect();
    let xs = |s: &chart::Series| s.points.iter().map(|p| p.0.to_bits()).collect::<Vec<_>>();
    let shared = curves.first().is_some_and(|first| curves.iter().all(|s| xs(s) == xs(first)));
    if shared {
        let mut columns = vec![chart.x.label.clone()];
        columns.extend(curves.iter().map(|s| s.name.clone()));
        let rows = curves
            .first()
            .map(|c| {
                (0..c.points.len())
                    .map(|i| {
                        let x = c.points.get(i).map_or(f64::NAN, |p| p.0);
                        (exact(x), curves.iter().map(|s| s.points.get(i).and_then(|p| finite(p.1))).collect())
                    })
                    .collect()
            })
            .unwrap_or_default();
        return ChartData { columns, rows, first_is_x: true, markers: points_of(&markers) };
    }
    let all: Vec<_> = curves.iter().chain(&markers).copied().collect();
    ChartData {
        columns: vec!["curve".into(), chart.x.label.clone(), chart.y.label.clone()],
        rows: points_of(&all),
        first_is_x: false,
        markers: Vec::new(),
    }
}

/// Rows (name, [x, y]) of every point of `series`.
fn points_of(series: &[&chart::Series]) -> Vec<(String, Vec<Option<f64>>)> {
    series.iter().flat_map(|s| s.points.iter().map(move |p| (s.name.clone(), vec![finite(p.0), finite(p.1)]))).collect()
}

/// The data table shown under a chart (numbers rounded as on the page;
/// a missing value is "—").
pub fn chart_table(chart: &Chart) -> Table {
    let data = chart_data(chart);
    let shown = |v: &Option<f64>| v.map_or_else(|| "—".to_string(), |x| format::number(x, 4));
    let rows = data
        .rows
        .iter()
        .map(|(first, values)| {
            let first = match first.parse::<f64>() {
                Ok(x) if data.first_is_x => format::number(x, 6),
                _ => first.clone(),
            };
            Row {
                cells: std::iter::once(first).chain(values.iter().map(shown)).collect(),
                status: Status::Plain,
                remark: None,
                link: None,
            }
        })
        .collect();
    Table {
        id: "chart-data",
        title: format!("{}: data", chart.title),
        caption: String::new(),
        columns: data.columns,
        rows,
        notes: data
            .markers
            .iter()
            .map(|(name, p)| {
                let at = |v: Option<&Option<f64>>| {
                    v.copied().flatten().map_or_else(|| "—".to_string(), |x| format::number(x, 4))
                };
                format!("Marked: {name} at {} = {}: {}", chart.x.label, at(p.first()), at(p.get(1)))
            })
            .chain(chart.note.iter().cloned())
            .collect(),
    }
}

/// A chart's data as CSV (exact numbers), after the provenance.
pub fn chart_csv(chart: &Chart, from: &Provenance) -> String {
    let data = chart_data(chart);
    let mut out = from.csv_comment();
    out += &format!("# {}\n", one_line(&chart.title));
    out += &csv_line(&data.columns);
    out.push('\n');
    for (first, values) in &data.rows {
        let mut cells = vec![first.clone()];
        cells.extend(values.iter().map(|v| v.map(exact).unwrap_or_default()));
        out += &csv_line(&cells);
        out.push('\n');
    }
    if !data.markers.is_empty() {
        out += &format!("\n# marked points\ncurve,{}\n", csv_line(&[&chart.x.label, &chart.y.label]));
        for (name, p) in &data.markers {
            let cells: Vec<String> =
                std::iter::once(name.clone()).chain(p.iter().map(|v| v.map(exact).unwrap_or_default())).collect();
            out += &csv_line(&cells);
            out.push('\n');
        }
    }
    out
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A chart as an SVG document, `width` × `height` px, in `theme`, with its
/// provenance as JSON in a `<metadata>` element.
pub fn chart_svg(
    chart: &Chart,
    width: u32,
    height: u32,
    theme: Theme,
    from: &Provenance,
) -> Result<String, chart::DrawError> {
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        chart::draw(chart, &area, 1.0, theme)?;
    }
    Ok(with_metadata(&out, &from.to_json()))
}

/// `svg` with `<metadata>` (JSON text) as the first child of its root.
pub fn with_metadata(svg: &str, meta: &Value) -> String {
    let metadata = format!("<metadata>{}</metadata>", xml_escape(&meta.to_string()));
    match svg.find("<svg").and_then(|at| svg[at..].find('>').map(|end| at + end + 1)) {
        Some(end) => format!("{}{metadata}{}", &svg[..end], &svg[end..]),
        None => svg.to_string(),
    }
}

/// The results as the page shows them: the outputs by key and the tables
/// (cells as text).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Results {
    /// A number, a flag, a list of numbers or null (no value), by key.
    #[serde(default)]
    pub outputs: Option<BTreeMap<String, Value>>,
    #[serde(default)]
    pub tables: Option<Vec<TableText>>,
}

/// Text from the page back in the papers' notation: the subscript marks
/// of rich text (`t<sub>N+1</sub>`, `T<sub>comm</sub>`, see
/// [`format::rich`]) become `t_{N+1}` and `T_comm`, as the core writes them.
pub fn unmark(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after)) = rest.split_once("<sub>") {
        out.push_str(before);
        let Some((sub, tail)) = after.split_once("</sub>") else {
            out.push_str("<sub>");
            rest = after;
            continue;
        };
        if !sub.is_empty() && sub.chars().all(|c| c.is_ascii_alphanumeric()) {
            out.push('_');
            out.push_str(sub);
        } else {
            out.push_str(&format!("_{{{sub}}}"));
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// A table as the page has it (a [`Table`] read back).
#[derive(Debug, Clone, Deserialize)]
pub struct TableText {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<RowText>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RowText {
    pub cells: Vec<String>,
}

/// An output's value in a CSV cell: a number exactly, a flag as
/// `true`/`false`, a list as its numbers between spaces, nothing for null.
fn value_text(v: &Value) -> String {
    match v {
        Value::Number(n) => n.as_f64().map(exact).unwrap_or_default(),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(" "),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// Label and unit of each output of `model` (from the registry).
fn output_specs(model: &str) -> BTreeMap<&'static str, (&'static str, &'static str)> {
    crate::models::find(model)
        .map(|m| m.spec().outputs.iter().map(|o| (o.key, (o.label, o.unit))).collect())
        .unwrap_or_default()
}

/// The results as CSV: the provenance, then `output,label,value,unit`
/// rows (when there are outputs), then each table (its title as a comment, its columns, its rows).
pub fn results_csv(results: &Results, from: &Provenance) -> String {
    let specs = output_specs(&from.model);
    let mut out = from.csv_comment();
    if results.outputs.is_some() {
        out += "output,label,value,unit\n";
    }
    for (key, value) in results.outputs.iter().flatten() {
        let (label, unit) = specs.get(key.as_str()).copied().unwrap_or(("", ""));
        out += &csv_line(&[key.as_str(), label, &value_text(value), unit]);
        out.push('\n');
    }
    let plain = |cells: &[String]| cells.iter().map(|c| unmark(c)).collect::<Vec<_>>();
    for t in results.tables.iter().flatten() {
        out += &format!("\n# {}\n", one_line(&unmark(&t.title)));
        out += &csv_line(&plain(&t.columns));
        out.push('\n');
        for r in &t.rows {
            out += &csv_line(&plain(&r.cells));
            out.push('\n');
        }
    }
    out
}

/// The results as JSON: the provenance's fields, then `outputs` (each
/// `{value, unit, label}`, `value` null where the model gives none) and
/// `tables` (`{title, columns, rows}`).
pub fn results_json(results: &Results, from: &Provenance) -> Value {
    let specs = output_specs(&from.model);
    let outputs: Map<String, Value> = results
        .outputs
        .iter()
        .flatten()
        .map(|(key, value)| {
            let (label, unit) = specs.get(key.as_str()).copied().unwrap_or(("", ""));
            (key.clone(), json!({ "value": value, "unit": unit, "label": label }))
        })
        .collect();
    let tables: Vec<Value> = results
        .tables
        .iter()
        .flatten()
        .map(|t| {
            let plain = |cells: &[String]| cells.iter().map(|c| unmark(c)).collect::<Vec<_>>();
            json!({
                "title": unmark(&t.title),
                "columns": plain(&t.columns),
                "rows": t.rows.iter().map(|r| plain(&r.cells)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut out = from.to_json();
    if let Some(o) = out.as_object_mut() {
        o.insert("outputs".into(), Value::Object(outputs));
        o.insert("tables".into(), Value::Array(tables));
    }
    out
}

/// Tables as CSV after the provenance (the page's "CSV" on a table).
pub fn tables_csv(tables: &[Table], from: &Provenance) -> String {
    from.csv_comment() + &table::to_csv(tables)
}

/// `png` with an `iTXt` chunk (keyword `isoperf`, UTF-8 text: the
/// provenance as JSON) after its header chunk; `None` when `png` is not a
/// PNG. Image viewers show it as the file's description.
pub fn png_with_provenance(png: &[u8], from: &Provenance) -> Option<Vec<u8>> {
    const SIGNATURE: [u8; 8] = [137, 80, 78, 71, 13, 10, 26, 10];
    // The header chunk: length (4) + "IHDR" (4) + 13 bytes + CRC (4).
    let header_end = SIGNATURE.len() + 25;
    if png.get(..SIGNATURE.len())? != SIGNATURE || png.get(12..16)? != b"IHDR" || png.len() < header_end {
        return None;
    }
    let mut data = b"isoperf\0\0\0\0\0".to_vec();
    data.extend_from_slice(from.to_json().to_string().as_bytes());
    let mut chunk = Vec::with_capacity(data.len() + 12);
    chunk.extend_from_slice(&u32::try_from(data.len()).ok()?.to_be_bytes());
    let body_start = chunk.len();
    chunk.extend_from_slice(b"iTXt");
    chunk.extend_from_slice(&data);
    let crc = crc32(chunk.get(body_start..)?);
    chunk.extend_from_slice(&crc.to_be_bytes());
    let mut out = Vec::with_capacity(png.len() + chunk.len());
    out.extend_from_slice(png.get(..header_end)?);
    out.extend_from_slice(&chunk);
    out.extend_from_slice(png.get(header_end..)?);
    Some(out)
}

/// CRC-32 (ISO 3309, as PNG uses it).
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{Axis, Corner, Series, Span};
    use crate::spec::Scale;

    fn from() -> Provenance {
        let mut params = RawParams::new();
        params.insert("N".into(), RawValue::Num(1e-7));
        params.insert("list".into(), RawValue::Text("1,2\n=cmd".into()));
        Provenance { model: "pmm".into(), params, link: Some("http://x/#model=pmm\n".into()) }
    }

    fn chart(series: Vec<Series>) -> Chart {
        Chart {
            title: "T".into(),
            x: Axis::new("p", Scale::Linear),
            y: Axis::new("time (s)", Scale::Linear),
            series,
            legend: Corner::default(),
            note: None,
        }
    }

    #[test]
    fn provenance_comment_is_three_single_lines() {
        let c = from().csv_comment();
        assert_eq!(c.lines().count(), 3, "{c}");
        assert!(c.lines().all(|l| l.starts_with("# ")));
        assert!(c.contains(&format!("isoperf {VERSION}, model pmm")));
        assert!(c.contains("N=0.0000001"));
    }

    #[test]
    fn shared_x_makes_a_wide_table_with_exact_numbers() {
        let third = 1.0 / 3.0;
        let c = chart(vec![
            Series::new("a", Style::Line, 0, vec![(1.0, third), (2.0, f64::NAN)]),
            Series::new("b", Style::Dashed, 1, vec![(1.0, 2.0), (2.0, 4.0)]),
        ]);
        let data = chart_data(&c);
        assert_eq!(data.columns, ["p", "a", "b"]);
        assert_eq!(data.rows, vec![("1".into(), vec![Some(third), Some(2.0)]), ("2".into(), vec![None, Some(4.0)])]);
        assert!(data.markers.is_empty());
        let csv = chart_csv(&c, &from());
        let body: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(body, ["p,a,b", &format!("1,{third},2"), "2,,4"]);
        // The exact text reads back as the same number.
        assert_eq!(format!("{third}").parse::<f64>(), Ok(third));
        let table = chart_table(&c);
        assert_eq!(table.rows[1].cells, ["2", "—", "4"]);
    }

    #[test]
    fn different_x_makes_a_long_table_and_bars_are_rows() {
        let c = chart(vec![
            Series::new("a", Style::Line, 0, vec![(1.0, 1.0)]),
            Series::new("b", Style::Points, 1, vec![(3.0, 9.0), (4.0, 16.0)]),
        ]);
        assert_eq!(chart_data(&c).columns, ["curve", "p", "time (s)"]);
        assert_eq!(chart_data(&c).rows.len(), 3);
        // A marker on curves that share x is listed apart, in the table's notes.
        let m = chart(vec![
            Series::new("a", Style::Line, 0, vec![(1.0, 1.0), (2.0, 4.0)]),
            Series::new("now", Style::Marker, 0, vec![(2.0, 4.0)]),
        ]);
        assert_eq!(chart_data(&m).columns, ["p", "a"]);
        assert_eq!(chart_table(&m).notes, ["Marked: now at p = 2: 4"]);
        assert!(chart_csv(&m, &from()).ends_with("# marked points\ncurve,p,time (s)\nnow,2,4\n"));
        let mut g = chart(vec![Series::spans("compute", 2, vec![Span { row: 2.0, from: 0.5, to: 1.5 }])]);
        g.y = g.y.labelled(vec!["P1".into(), "P2".into()]);
        let data = chart_data(&g);
        assert_eq!(data.rows, vec![("compute (P2)".into(), vec![Some(0.5), Some(1.5)])]);
    }

    #[test]
    fn csv_cells_are_quoted_and_never_formulas() {
        assert_eq!(cell("=1+2"), "'=1+2");
        assert_eq!(cell("-5"), "-5");
        assert_eq!(cell("a,\"b\""), "\"a,\"\"b\"\"\"");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
    }

    #[test]
    fn results_carry_units_labels_and_null_for_no_value() {
        let mut outputs = BTreeMap::new();
        outputs.insert("T".to_string(), json!(2.5));
        outputs.insert("E".to_string(), Value::Null);
        outputs.insert("ok".to_string(), json!(true));
        let r = Results { outputs: Some(outputs), tables: None };
        let v = results_json(&r, &from());
        assert_eq!(v["model"], "pmm");
        assert_eq!(v["isoperf"], VERSION);
        assert_eq!(v["outputs"]["T"]["value"], 2.5);
        assert_eq!(v["outputs"]["T"]["unit"], "s");
        assert!(v["outputs"]["E"]["value"].is_null());
        let csv = results_csv(&r, &from());
        assert!(csv.contains("\nT,"), "{csv}");
        assert!(csv.contains("\nok,,true,\n"), "{csv}");
    }

    #[test]
    fn page_marks_become_the_papers_notation_again() {
        for text in ["T = t_{N+1} + t_red", "BW_{CTI,p′} = BW_{CTI,p*} · DC", "Σ(S_i + C_iα_i)", "leaf_fanin", "a < b"]
        {
            assert_eq!(unmark(&format::rich(text)), text);
        }
        assert_eq!(unmark("x<sub>1"), "x<sub>1", "an unclosed mark stays as it is");
    }

    #[test]
    fn svg_metadata_is_the_first_child_and_escaped() {
        let svg = with_metadata("<?xml?><svg a=\"1\"><g/></svg>", &json!({"x": "<&>"}));
        assert_eq!(svg, "<?xml?><svg a=\"1\"><metadata>{\"x\":\"&lt;&amp;&gt;\"}</metadata><g/></svg>");
    }

    #[test]
    fn png_chunk_is_inserted_after_the_header_with_its_crc() {
        let png = crate::engine::map_layout::png(2, 1, &[0, 0, 0, 255, 255, 255, 255, 255]);
        let out = png_with_provenance(&png, &from()).expect("a PNG");
        assert_eq!(out.get(33..41).map(|s| &s[4..]), Some(&b"iTXt"[..]));
        let len = u32::from_be_bytes([out[33], out[34], out[35], out[36]]) as usize;
        let body = &out[37..37 + 4 + len];
        let crc = u32::from_be_bytes([out[41 + len], out[42 + len], out[43 + len], out[44 + len]]);
        assert_eq!(crc32(body), crc);
        assert_eq!(&out[41 + len + 4..], &png[33..]);
        assert!(png_with_provenance(b"GIF89a", &from()).is_none());
        // CRC-32 of "123456789" (the standard check value).
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }
}
