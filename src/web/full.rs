//! The exports only the full module has: charts painted on a canvas,
//! measured-data analysis and calibration, iso-maps and sweeps.

use plotters::prelude::IntoDrawingArea;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use super::{decode_params, encode, error, model_error, text_arg, SESSION};
use crate::api;
use crate::api::export::{self, Provenance};
use crate::engine::isomap::{self, MapAxis, MapError, MapRequest};
use crate::engine::uncertainty::{Bands, Uncertainty};
use crate::error::AnalysisError;

/// Draws `chart` on `canvas` (sized in device pixels; `scale` is the
/// devicePixelRatio) in `theme` (`"light"`, the default, or `"dark"`) and
/// returns the chart's note.
fn paint(
    canvas: HtmlCanvasElement,
    chart: &crate::chart::Chart,
    scale: f64,
    theme: JsValue,
) -> Result<Option<String>, JsValue> {
    let theme = theme_arg(theme)?;
    let backend = super::canvas::Canvas::new(canvas).ok_or_else(|| error("the canvas has no 2D context"))?;
    let scale = if scale.is_finite() && scale > 0.0 { scale.min(4.0) } else { 1.0 };
    crate::chart::draw(chart, &backend.into_drawing_area(), scale, theme).map_err(|e| error(&e.to_string()))?;
    Ok(chart.note.as_deref().map(crate::format::rich))
}

/// Draws chart `chart_id` on `canvas` and returns the chart's note (a
/// sentence about what it shows) or `undefined`. The canvas is expected in
/// device pixels; `scale` (devicePixelRatio) enlarges fonts and strokes.
#[wasm_bindgen(js_name = drawChart)]
#[allow(clippy::too_many_arguments)]
pub fn draw_chart(
    canvas: HtmlCanvasElement,
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] chart_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    scale: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartTheme")] theme: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Scenario[]")] scenarios: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Carried")] carried: JsValue,
) -> Result<Option<String>, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let chart_id = &text_arg("chartId", chart_id)?;
    let raw = decode_params(params)?;
    let scenarios = decode_scenarios(scenarios)?;
    let carried = decode_carried(model_id, carried)?;
    let chart =
        SESSION.with(|s| s.chart_carrying(model_id, chart_id, &raw, carried.as_ref())).map_err(|e| model_error(&e))?;
    paint(canvas, &api::with_scenarios(model_id, chart_id, chart, &scenarios), scale, theme)
}

/// A calibration's uncertainty carried into a chart, sweep or map:
/// `{parameters, covariance, t95}` as `calibrate`'s `result` gives them
/// (none when `undefined` or `null`).
fn decode_carried(model_id: &str, value: JsValue) -> Result<Option<Uncertainty>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    #[derive(serde::Deserialize)]
    struct Carried {
        parameters: Vec<String>,
        covariance: Vec<Vec<f64>>,
        t95: f64,
    }
    let c: Carried = serde_wasm_bindgen::from_value(value).map_err(|e| {
        super::type_error(&format!(
            "carried must be {{parameters, covariance, t95}}, as calibrate's result gives them: {e}"
        ))
    })?;
    api::uncertainty(model_id, &c.parameters, &c.covariance, c.t95).map(Some).map_err(|e| super::range_error(&e))
}

/// Bands as one `Float64Array`: the values, then the low ends, then the high ends.
fn bands_array(b: &Bands) -> js_sys::Float64Array {
    let all: Vec<f64> = b.value.iter().chain(&b.low).chain(&b.high).copied().collect();
    js_sys::Float64Array::from(all.as_slice())
}

/// Pinned scenarios (`[{name, params}]`, at most `MAX_SCENARIOS`; none
/// when `undefined` or `null`).
fn decode_scenarios(value: JsValue) -> Result<Vec<api::Scenario>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let Some(list) = value.dyn_ref::<js_sys::Array>() else {
        return Err(super::type_error("scenarios must be an array of {name, params}"));
    };
    if list.length() as usize > api::MAX_SCENARIOS {
        return Err(super::range_error(&format!(
            "{} scenarios given; at most {} are drawn",
            list.length(),
            api::MAX_SCENARIOS
        )));
    }
    list.iter()
        .map(|item| {
            if !item.is_object() {
                return Err(super::type_error("each scenario must be an object {name, params}"));
            }
            let name = text_arg("scenario name", js_sys::Reflect::get(&item, &"name".into())?)?;
            let params = decode_params(js_sys::Reflect::get(&item, &"params".into())?)?;
            Ok(api::Scenario { name: name.chars().take(40).collect(), params })
        })
        .collect()
}

/// Chart `chart_id` of model `id` as data (`Chart`), for a worker that
/// evaluated a long report: the page paints it with `paintChart`.
#[wasm_bindgen(js_name = chartData, unchecked_return_type = "Chart")]
pub fn chart_data(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] chart_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Scenario[]")] scenarios: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Carried")] carried: JsValue,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let chart_id = &text_arg("chartId", chart_id)?;
    let raw = decode_params(params)?;
    let scenarios = decode_scenarios(scenarios)?;
    let carried = decode_carried(model_id, carried)?;
    let chart =
        SESSION.with(|s| s.chart_carrying(model_id, chart_id, &raw, carried.as_ref())).map_err(|e| model_error(&e))?;
    encode(&api::with_scenarios(model_id, chart_id, chart, &scenarios))
}

/// The most points and bars a chart given to `paintChart` may hold.
const MAX_CHART_ITEMS: usize = 1 << 21;

/// Paints a chart given as data (what `chartData` returns) on `canvas`, as
/// `drawChart` would, and returns its note or `undefined`.
#[wasm_bindgen(js_name = paintChart)]
pub fn paint_chart(
    canvas: HtmlCanvasElement,
    #[wasm_bindgen(unchecked_param_type = "Chart")] chart: JsValue,
    scale: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartTheme")] theme: JsValue,
) -> Result<Option<String>, JsValue> {
    paint(canvas, &chart_within(chart, "drawn")?, scale, theme)
}

fn analysis_error(e: &AnalysisError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &"line".into(), &JsValue::from(e.line as f64));
    let _ = js_sys::Reflect::set(&err, &"column".into(), &JsValue::from(e.column as f64));
    err.into()
}

/// Analyses measured data (CSV text) of a model's data set: `{tables,
/// suggest, result}`. Throws an `Error` with `line` and `column` (1-based,
/// 0 when no single place is at fault).
#[wasm_bindgen(unchecked_return_type = "Analysis")]
pub fn analyze(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] dataset_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Params | null")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let dataset_id = &text_arg("datasetId", dataset_id)?;
    let text = &text_arg("text", text)?;
    let raw = decode_params(params)?;
    let out = api::analyze(model_id, dataset_id, text, &raw).map_err(|e| analysis_error(&e))?;
    encode(&out)
}

/// Model `modelId` calibrated to measured runs (`text`, CSV whose header
/// names parameters and one output): `{result, charts, laws}` (see
/// `isoperf calibrate`). `fit` names the parameters to fit, comma-separated;
/// `relative` fits relative errors. Throws an `Error` with `line` and
/// `column` (1-based, 0 when no single place is at fault).
#[wasm_bindgen(unchecked_return_type = "Calibrated")]
pub fn calibrate(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] fit: JsValue,
    relative: bool,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let text = &text_arg("text", text)?;
    let fit = text_arg("fit", fit)?;
    let raw = decode_params(params)?;
    let request = crate::engine::calibrate::Request {
        fit: fit.split(',').map(str::trim).filter(|k| !k.is_empty()).map(String::from).collect(),
        relative,
    };
    let out = api::calibrate(model_id, &raw, text, &request).map_err(|e| analysis_error(&e))?;
    encode(&out)
}

/// Draws a chart of the analysis of measured data; returns its note.
#[wasm_bindgen(js_name = drawAnalysisChart)]
#[allow(clippy::too_many_arguments)]
pub fn draw_analysis_chart(
    canvas: HtmlCanvasElement,
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] dataset_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] chart_id: JsValue,
    scale: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartTheme")] theme: JsValue,
) -> Result<Option<String>, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let dataset_id = &text_arg("datasetId", dataset_id)?;
    let text = &text_arg("text", text)?;
    let chart_id = &text_arg("chartId", chart_id)?;
    let raw = decode_params(params)?;
    let chart = api::analysis_chart(model_id, dataset_id, text, &raw, chart_id).map_err(|e| analysis_error(&e))?;
    paint(canvas, &chart, scale, theme)
}

/// A chart of the analysis of measured data as data (what `paintChart`
/// paints): the data worker computes it off the page.
#[wasm_bindgen(js_name = analysisChartData, unchecked_return_type = "Chart")]
pub fn analysis_chart_data(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] dataset_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] chart_id: JsValue,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let dataset_id = &text_arg("datasetId", dataset_id)?;
    let text = &text_arg("text", text)?;
    let chart_id = &text_arg("chartId", chart_id)?;
    let raw = decode_params(params)?;
    let chart = api::analysis_chart(model_id, dataset_id, text, &raw, chart_id).map_err(|e| analysis_error(&e))?;
    encode(&chart)
}

/// A map request as JavaScript sends it: axes as `KEY:MIN:MAX[:log]`.
#[derive(serde::Deserialize)]
struct MapRequestJs {
    output: String,
    x: String,
    y: String,
    #[serde(default)]
    levels: Vec<f64>,
    nx: usize,
    ny: usize,
}

fn map_error(e: &MapError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &"field".into(), &e.field.as_str().into());
    err.into()
}

fn map_request(request: JsValue) -> Result<MapRequest, JsValue> {
    let r: MapRequestJs = serde_wasm_bindgen::from_value(request)
        .map_err(|e| error(&format!("a map request is {{output, x: 'KEY:MIN:MAX[:log]', y, levels, nx, ny}}: {e}")))?;
    Ok(MapRequest {
        output: r.output,
        x: MapAxis::parse("x", &r.x).map_err(|e| map_error(&e))?,
        y: MapAxis::parse("y", &r.y).map_err(|e| map_error(&e))?,
        nx: r.nx,
        ny: r.ny,
        levels: r.levels,
    })
}

/// A whole iso-map: `{values (null = gap), isolines: [{level, lines}], min, max, gaps, ...}`.
/// Throws an `Error` whose `field` names the part of the request at fault.
#[wasm_bindgen(js_name = isoMap, unchecked_return_type = "IsoMap")]
pub fn iso_map(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MapRequest")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let raw = decode_params(params)?;
    let r = map_request(request)?;
    let m = api::iso_map(model_id, &raw, &r).map_err(|e| map_error(&e))?;
    encode(&m)
}

/// Rows `j0 … j1 − 1` of a map's grid as a `Float64Array` (NaN = gap), for
/// computing a map band by band in a worker. With `carried` (a
/// calibration's uncertainty), three times as long: the values, then the
/// low ends of their 95% intervals, then the high ends.
#[wasm_bindgen(js_name = isoMapRows)]
pub fn iso_map_rows(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MapRequest")] request: JsValue,
    j0: usize,
    j1: usize,
    #[wasm_bindgen(unchecked_optional_param_type = "Carried")] carried: JsValue,
) -> Result<js_sys::Float64Array, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let raw = decode_params(params)?;
    let r = map_request(request)?;
    if let Some(u) = decode_carried(model_id, carried)? {
        let bands = api::iso_map_rows_carrying(model_id, &raw, &r, j0..j1, &u).map_err(|e| map_error(&e))?;
        return Ok(bands_array(&bands));
    }
    let values = api::iso_map_rows(model_id, &raw, &r, j0..j1).map_err(|e| map_error(&e))?;
    Ok(js_sys::Float64Array::from(values.as_slice()))
}

/// The isolines of a complete grid, in parameter units:
/// `[{level, lines: [Float64Array x0, y0, x1, y1, …]}]` (flat arrays: one
/// JS object per point would cost more than finding the lines).
#[wasm_bindgen(js_name = isoLines, unchecked_return_type = "FlatIsoline[]")]
pub fn iso_lines(
    values: &[f64],
    #[wasm_bindgen(unchecked_param_type = "MapRequest")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let r = map_request(request)?;
    let lines = api::iso_lines(values, &r).map_err(|e| map_error(&e))?.into_iter().map(|iso| {
        let flat = iso.lines.iter().map(|line| line.iter().flat_map(|(x, y)| [*x, *y]).collect()).collect();
        (iso.level, flat)
    });
    isolines_js(lines)
}

/// Isolines as `[{level, lines: [Float64Array x0, y0, x1, y1, …]}]` (flat
/// arrays: one JS object per point would cost more than finding the lines).
fn isolines_js(isolines: impl IntoIterator<Item = (f64, Vec<Vec<f64>>)>) -> Result<JsValue, JsValue> {
    let out = js_sys::Array::new();
    for (level, lines) in isolines {
        let list = js_sys::Array::new();
        for line in &lines {
            list.push(&js_sys::Float64Array::from(line.as_slice()));
        }
        let o = js_sys::Object::new();
        js_sys::Reflect::set(&o, &"level".into(), &level.into())?;
        js_sys::Reflect::set(&o, &"lines".into(), &list)?;
        out.push(&o);
    }
    Ok(out.into())
}

/// The image of a computed map laid out `width` CSS px wide: `{width,
/// height, plot, nx, ny, scale, labels, x_ticks, y_ticks, title, x_title,
/// y_title, bar, bar_ticks}` plus `pixels` and `barPixels`
/// (`Uint8ClampedArray`, RGBA, top row first) and `isolines` (`[{level,
/// lines: [Float64Array x0, y0, …]}]`, CSS px). The page blits the pixels
/// and draws the rest as laid out. With `low` and `high` (the ends of a
/// calibrated model's 95% interval at each node), the map is pale where the
/// interval straddles a level and `interval_lines` (as `isolines`) show
/// where its ends cross the levels.
#[wasm_bindgen(js_name = mapLayout, unchecked_return_type = "MapLayout")]
pub fn map_layout(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MapRequest")] request: JsValue,
    values: &[f64],
    width: f64,
    #[wasm_bindgen(unchecked_param_type = "Params | undefined")] params: JsValue,
    low: Option<Vec<f64>>,
    high: Option<Vec<f64>>,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let r = map_request(request)?;
    let raw = decode_params(params)?;
    let interval = low.as_deref().zip(high.as_deref());
    let layout = api::map_layout(model_id, &r, values, width, &raw, interval).map_err(|e| map_error(&e))?;
    let out = encode(&layout)?;
    js_sys::Reflect::set(&out, &"pixels".into(), &js_sys::Uint8ClampedArray::from(layout.pixels.as_slice()))?;
    js_sys::Reflect::set(&out, &"barPixels".into(), &js_sys::Uint8ClampedArray::from(layout.bar_pixels.as_slice()))?;
    js_sys::Reflect::set(&out, &"isolines".into(), &isolines_js(layout.isolines)?)?;
    js_sys::Reflect::set(&out, &"interval_lines".into(), &isolines_js(layout.interval_lines)?)?;
    Ok(out)
}

/// A computed map's grid as CSV (`x,y,output`, a line per node, gaps empty).
#[wasm_bindgen(js_name = mapCsv)]
pub fn map_csv(
    #[wasm_bindgen(unchecked_param_type = "MapRequest")] request: JsValue,
    values: &[f64],
) -> Result<String, JsValue> {
    Ok(isomap::grid_csv(&map_request(request)?, values, &[], None))
}

/// The `n` sample values of a map axis `KEY:MIN:MAX[:log]`, exactly as the
/// map engine uses them.
#[wasm_bindgen(js_name = isoAxis)]
pub fn iso_axis(
    #[wasm_bindgen(unchecked_param_type = "string")] axis: JsValue,
    n: usize,
) -> Result<js_sys::Float64Array, JsValue> {
    let axis = &text_arg("axis", axis)?;
    let values = api::iso_axis(axis, n).map_err(|e| map_error(&e))?;
    Ok(js_sys::Float64Array::from(values.as_slice()))
}

/// A sweep's x values and series values: `{xs: Float64Array, values: Float64Array}`.
#[wasm_bindgen(js_name = sweepPlan, unchecked_return_type = "SweepPlan")]
pub fn sweep_plan(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] sweep_id: JsValue,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let sweep_id = &text_arg("sweepId", sweep_id)?;
    let (xs, values) = api::sweep_plan(model_id, sweep_id).map_err(|e| model_error(&e))?;
    let o = js_sys::Object::new();
    js_sys::Reflect::set(&o, &"xs".into(), &js_sys::Float64Array::from(xs.as_slice()))?;
    js_sys::Reflect::set(&o, &"values".into(), &js_sys::Float64Array::from(values.as_slice()))?;
    Ok(o.into())
}

/// Curve `index` of a sweep: the output at every x as a `Float64Array`
/// (NaN where the model has no value), for computing sweeps in a worker;
/// with `from` and `to`, only the points from..to (cut to the curve), so a
/// curve of slow points is computed a few at a time. With `carried` (a
/// calibration's uncertainty), three times as long: the values, then the
/// low ends of their 95% intervals, then the high ends.
#[wasm_bindgen(js_name = sweepSeries)]
pub fn sweep_series(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] sweep_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    index: usize,
    from: Option<usize>,
    to: Option<usize>,
    #[wasm_bindgen(unchecked_optional_param_type = "Carried")] carried: JsValue,
) -> Result<js_sys::Float64Array, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let sweep_id = &text_arg("sweepId", sweep_id)?;
    let raw = decode_params(params)?;
    let points = from.unwrap_or(0)..to.unwrap_or(usize::MAX);
    if let Some(u) = decode_carried(model_id, carried)? {
        let bands =
            api::sweep_points_carrying(model_id, sweep_id, &raw, index, points, &u).map_err(|e| model_error(&e))?;
        return Ok(bands_array(&bands));
    }
    let ys = api::sweep_points(model_id, sweep_id, &raw, index, points).map_err(|e| model_error(&e))?;
    Ok(js_sys::Float64Array::from(ys.as_slice()))
}

/// Draws a sweep from its computed curves (an array of `Float64Array`, one
/// per series value) and returns the note that reads them.
#[wasm_bindgen(js_name = drawSweep)]
#[allow(clippy::too_many_arguments)]
pub fn draw_sweep(
    canvas: HtmlCanvasElement,
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] sweep_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array[]")] curves: js_sys::Array,
    scale: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartTheme")] theme: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SweepScenario[]")] scenarios: JsValue,
) -> Result<Option<String>, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let sweep_id = &text_arg("sweepId", sweep_id)?;
    let raw = decode_params(params)?;
    let ys: Vec<Vec<f64>> = curves.iter().map(|c| js_sys::Float64Array::new(&c).to_vec()).collect();
    let chart = SESSION.with(|s| s.sweep_chart(model_id, sweep_id, &raw, Some(ys))).map_err(|e| model_error(&e))?;
    let chart = with_sweep_scenarios(model_id, sweep_id, chart, scenarios)?;
    paint(canvas, &chart, scale, theme)
}

/// A sweep chart with pinned scenarios' curves (`[{name, params, curves}]`,
/// computed by the sweep worker for their parameters) drawn faintly behind.
fn with_sweep_scenarios(
    model_id: &str,
    sweep_id: &str,
    chart: crate::chart::Chart,
    scenarios: JsValue,
) -> Result<crate::chart::Chart, JsValue> {
    let list = decode_scenarios(scenarios.clone())?;
    if list.is_empty() {
        return Ok(chart);
    }
    let items = scenarios.dyn_into::<js_sys::Array>().map_err(|_| super::type_error("scenarios must be an array"))?;
    let mut pinned = Vec::new();
    for (s, item) in list.iter().zip(items.iter()) {
        let curves = js_sys::Reflect::get(&item, &"curves".into())?;
        let Some(curves) = curves.dyn_ref::<js_sys::Array>() else {
            return Err(super::type_error(&format!("scenario {}: curves must be an array of Float64Array", s.name)));
        };
        let ys: Vec<Vec<f64>> = curves.iter().map(|c| js_sys::Float64Array::new(&c).to_vec()).collect();
        pinned.push((s.name.as_str(), api::sweep_chart(model_id, sweep_id, &s.params, Some(ys)).ok()));
    }
    Ok(api::overlay(chart, pinned))
}

/// What produced an export: model `model_id`, its `params` and the page's
/// `link` (the permalink; `null` for none).
fn provenance(model_id: JsValue, params: JsValue, link: JsValue) -> Result<Provenance, JsValue> {
    let model = text_arg("modelId", model_id)?;
    let params = decode_params(params)?;
    let link = if link.is_undefined() || link.is_null() { None } else { Some(text_arg("link", link)?) };
    Ok(Provenance { model, params, link })
}

fn chart_arg(chart: JsValue) -> Result<crate::chart::Chart, JsValue> {
    chart_within(chart, "read")
}

/// A chart given as data (what `chartData` returns), refused where it holds
/// more than [`MAX_CHART_ITEMS`] points, bars and band ends (what is then
/// not `done` with it: drawn, read).
fn chart_within(chart: JsValue, done: &str) -> Result<crate::chart::Chart, JsValue> {
    let chart: crate::chart::Chart = serde_wasm_bindgen::from_value(chart)
        .map_err(|e| super::type_error(&format!("chart must be a Chart, as chartData returns it: {e}")))?;
    let items: usize = chart.series.iter().map(|s| s.points.len() + s.spans.len() + s.upper.len()).sum();
    if items > MAX_CHART_ITEMS {
        return Err(super::range_error(&format!(
            "chart has {items} points and bars; at most {MAX_CHART_ITEMS} are {done}"
        )));
    }
    Ok(chart)
}

fn theme_arg(theme: JsValue) -> Result<crate::chart::Theme, JsValue> {
    let theme = if theme.is_undefined() || theme.is_null() { None } else { Some(text_arg("theme", theme)?) };
    match theme.as_deref() {
        None | Some("light") => Ok(crate::chart::Theme::LIGHT),
        Some("dark") => Ok(crate::chart::Theme::DARK),
        Some(other) => Err(super::range_error(&format!(
            "theme must be 'light' or 'dark', not '{}'",
            other.chars().take(40).collect::<String>()
        ))),
    }
}

/// A sweep as chart data (`Chart`), from its computed curves (as `drawSweep`
/// takes them): for its data table and its exports. With `bands`
/// (`{carried, low, high}`: a calibration's uncertainty and the ends of
/// each curve's 95% intervals, as `sweepSeries` gives them), each curve
/// gets its band.
#[wasm_bindgen(js_name = sweepChartData, unchecked_return_type = "Chart")]
pub fn sweep_chart_data(
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] sweep_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Float64Array[]")] curves: js_sys::Array,
    #[wasm_bindgen(unchecked_optional_param_type = "SweepScenario[]")] scenarios: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SweepBands")] bands: JsValue,
) -> Result<JsValue, JsValue> {
    let model_id = &text_arg("modelId", model_id)?;
    let sweep_id = &text_arg("sweepId", sweep_id)?;
    let raw = decode_params(params)?;
    let arrays =
        |a: &js_sys::Array| -> Vec<Vec<f64>> { a.iter().map(|c| js_sys::Float64Array::new(&c).to_vec()).collect() };
    let ys = arrays(&curves);
    let chart = if bands.is_undefined() || bands.is_null() {
        SESSION.with(|s| s.sweep_chart(model_id, sweep_id, &raw, Some(ys))).map_err(|e| model_error(&e))?
    } else {
        let get = |k: &str| js_sys::Reflect::get(&bands, &k.into());
        let carried = decode_carried(model_id, get("carried")?)?
            .ok_or_else(|| super::type_error("bands must be {carried, low, high}"))?;
        let ends = |k: &str| -> Result<Vec<Vec<f64>>, JsValue> {
            let list = get(k)?.dyn_into::<js_sys::Array>().map_err(|_| {
                super::type_error(&format!("bands.{k} must be an array of Float64Array, one per curve"))
            })?;
            Ok(arrays(&list))
        };
        let (low, high) = (ends("low")?, ends("high")?);
        SESSION
            .with(|s| s.sweep_chart_carrying(model_id, sweep_id, &raw, ys, (&low, &high), &carried))
            .map_err(|e| model_error(&e))?
    };
    encode(&with_sweep_scenarios(model_id, sweep_id, chart, scenarios)?)
}

/// `chart` with each pinned scenario's chart (`[{name, chart}]`, chart data
/// as `sweepChartData` gives it, `null` for none) drawn faintly behind it,
/// as `drawSweep` draws them: the page's sweep worker computes every chart,
/// and this joins them without evaluating anything.
#[wasm_bindgen(js_name = overlayScenarios, unchecked_return_type = "Chart")]
pub fn overlay_scenarios(
    #[wasm_bindgen(unchecked_param_type = "Chart")] chart: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PinnedChart[]")] pinned: JsValue,
) -> Result<JsValue, JsValue> {
    let chart = chart_arg(chart)?;
    let pinned = pinned
        .dyn_into::<js_sys::Array>()
        .map_err(|_| super::type_error("pinned must be an array of {name, chart}"))?;
    if pinned.length() as usize > api::MAX_SCENARIOS {
        return Err(super::range_error(&format!(
            "at most {} pinned charts are drawn, not {}",
            api::MAX_SCENARIOS,
            pinned.length()
        )));
    }
    let (mut names, mut charts) = (Vec::new(), Vec::new());
    for (k, item) in pinned.iter().enumerate() {
        let name = text_arg(&format!("pinned[{k}].name"), js_sys::Reflect::get(&item, &"name".into())?)?;
        let chart = js_sys::Reflect::get(&item, &"chart".into())?;
        let chart = if chart.is_null() || chart.is_undefined() { None } else { Some(chart_arg(chart)?) };
        names.push(name);
        charts.push(chart);
    }
    encode(&api::overlay(chart, names.iter().map(String::as_str).zip(charts)))
}

/// A chart's data as a table (`Table`, numbers rounded as the page shows
/// them): the data alternative under each chart.
#[wasm_bindgen(js_name = chartTable, unchecked_return_type = "Table")]
pub fn chart_table(#[wasm_bindgen(unchecked_param_type = "Chart")] chart: JsValue) -> Result<JsValue, JsValue> {
    encode(&export::chart_table(&chart_arg(chart)?))
}

/// A chart's data as CSV (exact numbers), recording the model, its
/// parameters, isoperf's version and `link`.
#[wasm_bindgen(js_name = chartCsv)]
pub fn chart_csv(
    #[wasm_bindgen(unchecked_param_type = "Chart")] chart: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] link: JsValue,
) -> Result<String, JsValue> {
    Ok(export::chart_csv(&chart_arg(chart)?, &provenance(model_id, params, link)?))
}

/// A chart as an SVG document, `width` × `height` CSS px, in `theme`, with
/// its text measured on `canvas` (not drawn on) as the page draws it, and
/// the model, its parameters, isoperf's version and `link` in its
/// `<metadata>`.
#[wasm_bindgen(js_name = chartSvg)]
#[allow(clippy::too_many_arguments)]
pub fn chart_svg(
    canvas: HtmlCanvasElement,
    #[wasm_bindgen(unchecked_param_type = "Chart")] chart: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] link: JsValue,
    width: u32,
    height: u32,
    #[wasm_bindgen(unchecked_optional_param_type = "ChartTheme")] theme: JsValue,
) -> Result<String, JsValue> {
    let chart = chart_arg(chart)?;
    let from = provenance(model_id, params, link)?;
    let (w, h) = (width.clamp(200, 4000), height.clamp(150, 4000));
    let out = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
    let backend =
        super::canvas::Canvas::svg(&canvas, w, h, out.clone()).ok_or_else(|| error("the canvas has no 2D context"))?;
    crate::chart::draw(&chart, &backend.into_drawing_area(), 1.0, theme_arg(theme)?)
        .map_err(|e| error(&e.to_string()))?;
    let body = out.borrow();
    Ok(export::with_metadata(&super::canvas::svg_document(w, h, &body), &from.to_json()))
}

/// The results as a file: `"csv"` or `"json"`, from what the page shows
/// (`{outputs, tables}` of a report), recording the model, its parameters,
/// isoperf's version and `link`.
#[wasm_bindgen(js_name = exportResults)]
pub fn export_results(
    #[wasm_bindgen(unchecked_param_type = "ExportedResults")] results: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ExportFormat")] format: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] link: JsValue,
) -> Result<String, JsValue> {
    let results: export::Results = serde_wasm_bindgen::from_value(results)
        .map_err(|e| super::type_error(&format!("results must be a report's {{outputs, tables}}: {e}")))?;
    let format = text_arg("format", format)?;
    let from = provenance(model_id, params, link)?;
    match format.as_str() {
        "csv" => Ok(export::results_csv(&results, &from)),
        "json" => {
            serde_json::to_string_pretty(&export::results_json(&results, &from)).map_err(|e| error(&e.to_string()))
        }
        other => Err(super::range_error(&format!(
            "results export as 'csv' or 'json', not '{}'",
            other.chars().take(40).collect::<String>()
        ))),
    }
}

/// `png` (a canvas's PNG bytes) with the provenance in an `iTXt` chunk.
#[wasm_bindgen(js_name = exportPng)]
pub fn export_png(
    png: &[u8],
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] link: JsValue,
) -> Result<Vec<u8>, JsValue> {
    let from = provenance(model_id, params, link)?;
    export::png_with_provenance(png, &from).ok_or_else(|| super::type_error("png must be the bytes of a PNG image"))
}

/// A computed map as a file: `"svg"` (laid out `width` CSS px wide) or
/// `"csv"` (the grid), recording the model, its parameters, isoperf's
/// version and `link`; with `low` and `high`, as `mapLayout` draws them
/// and with their columns in the CSV.
#[wasm_bindgen(js_name = exportMap)]
#[allow(clippy::too_many_arguments)]
pub fn export_map(
    #[wasm_bindgen(unchecked_param_type = "MapRequest")] request: JsValue,
    values: &[f64],
    width: f64,
    #[wasm_bindgen(unchecked_param_type = "ExportFormat")] format: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] model_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Params | null | undefined")] params: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] link: JsValue,
    low: Option<Vec<f64>>,
    high: Option<Vec<f64>>,
) -> Result<String, JsValue> {
    let r = map_request(request)?;
    let format = text_arg("format", format)?;
    let from = provenance(model_id, params, link)?;
    let interval = low.as_deref().zip(high.as_deref());
    match format.as_str() {
        "csv" => Ok(from.csv_comment() + &api::map_csv(&from.model, &r, values, interval).map_err(|e| map_error(&e))?),
        "svg" => {
            let layout =
                api::map_layout(&from.model, &r, values, width, &from.params, interval).map_err(|e| map_error(&e))?;
            Ok(export::with_metadata(&layout.to_svg(), &from.to_json()))
        }
        other => Err(super::range_error(&format!(
            "a map exports as 'csv' or 'svg', not '{}'",
            other.chars().take(40).collect::<String>()
        ))),
    }
}
