//! The TypeScript declarations of what the exports take and return, written
//! out from the serde types they serialize (`spec`, `api`, `table`,
//! `error`, `engine::isomap`, `engine::map_layout`, `model::Analysis`) and
//! named on each export with `unchecked_param_type` and
//! `unchecked_return_type`. wasm-bindgen copies them into `pkg/*.d.ts`;
//! they cost the wasm nothing.
//!
//! `tests/types.rs` reads the two sections below and checks the JSON of
//! every model's registry entry, reports, tables, remarks, problems, maps,
//! map layouts and analyses against them, key by key in both directions,
//! so a field renamed, added or dropped in Rust fails there until it is
//! changed here too. Field names follow Rust's (`snake_case`), as serde
//! writes them.

use wasm_bindgen::prelude::*;

/// What both modules declare: the registry, parameters, outputs, reports,
/// tables, remarks, field problems and errors.
#[wasm_bindgen(typescript_custom_section)]
const CORE: &str = r#"
/**
 * One parameter's value as a form, a link or a caller gives it: a number,
 * text as typed (`"1e9"`, a choice's value, a list as `"1, 2, 3"`), a
 * boolean, or a list of numbers or texts. `null` or `undefined` counts as
 * an empty field.
 */
export type ParamValue = number | string | boolean | readonly (number | string)[] | null | undefined;

/** Parameter values by key (`ParamSpec.key`); keys left out take their defaults. */
export type Params = { readonly [key: string]: ParamValue };

/** How a numeric axis or slider is best explored. */
export type Scale = "linear" | "log";

/** The interval a numeric parameter must lie in: `min ≤ x ≤ max`, or `min < x` when `min_exclusive`. */
export interface Range {
  min: number;
  min_exclusive: boolean;
  max: number;
}

/** One option of a choice parameter. */
export interface ChoiceOption {
  value: string;
  label: string;
  /** For a unit choice: how many base units one of this unit is. */
  factor?: number;
}

/** The parameter matters only when choice parameter `key` has one of `values`. */
export interface AppliesWhen {
  key: string;
  values: string[];
}

/** What every kind of parameter declares. */
export interface ParamSpecBase {
  key: string;
  label: string;
  unit: string;
  help: string;
  /** Where in the paper the parameter comes from, e.g. "eq. (5)". */
  reference: string;
  applies_when?: AppliesWhen;
  /** Left empty or out, the parameter takes this other parameter's value. */
  fallback?: string;
  /** The choice parameter that holds this number's unit (its options carry factors to `unit`). */
  unit_from?: string;
}

export interface NumberParamSpec extends ParamSpecBase {
  kind: "number";
  default: number;
  range: Range;
  scale: Scale;
  integer: boolean;
  /** The page also shows 1/value in this unit (a rate beside a per-item time). */
  reciprocal_unit?: string;
}

export interface ChoiceParamSpec extends ParamSpecBase {
  kind: "choice";
  default: string;
  options: ChoiceOption[];
}

/** A list of numbers, one per item; lists with the same `group` are the columns of one table. */
export interface ListParamSpec extends ParamSpecBase {
  kind: "list";
  default: number[];
  range: Range;
  scale: Scale;
  group: string;
  max_len: number;
}

/** A parameter of a model, told apart by `kind`. */
export type ParamSpec = NumberParamSpec | ChoiceParamSpec | ListParamSpec;

export interface OutputSpec {
  key: string;
  label: string;
  unit: string;
  help: string;
  /** A categorical output's categories (its value is one of their ids); absent for a number. */
  categories?: Category[];
}

/** One value a categorical output can take. */
export interface Category {
  id: string;
  label: string;
}

/** A preset's value for one parameter. */
export type PresetValue = number | string | number[];

/** A named set of parameter values from a paper; keys it leaves out keep what the user has. */
export interface Preset {
  id: string;
  label: string;
  /** The table, figure or section the values come from. */
  source: string;
  note: string;
  values: [string, PresetValue][];
}

export interface PresetGroup {
  label: string;
  presets: Preset[];
}

export interface ChartSpec {
  id: string;
  title: string;
  caption: string;
}

/** One output against parameter `x` for several values of parameter `series`. */
export interface SweepSpec {
  id: string;
  title: string;
  caption: string;
  output: string;
  x: string;
  x_min: number;
  x_max: number;
  points: number;
  x_log: boolean;
  series: string;
  /** How a curve is named: "r = ℓ" for "r = ℓ = 100". */
  label: string;
  values: number[];
  /** Parameters set to the series value too. */
  linked: string[];
  /** Values the sweep fixes whatever the form says. */
  fixed: [string, number][];
}

/** An example file served with the page (all synthetic). */
export interface Example {
  id: string;
  label: string;
  /** Relative to the page. */
  path: string;
}

/** Example runs to calibrate a model from, and what they are for. */
export interface CalibrationExample {
  id: string;
  label: string;
  /** Relative to the page. */
  path: string;
  /** The parameters the runs are meant to fit. */
  fit: string[];
  relative: boolean;
}

/** A kind of measured data a model analyses (`analyze`). */
export interface DatasetSpec {
  id: string;
  title: string;
  /** In the order of rows without a header that names them. */
  columns: string[];
  /** The parameters its analysis reads (a change of another leaves it as it is). */
  params: string[];
  help: string;
  examples: Example[];
  charts: ChartSpec[];
}

/** A ready-made iso-map: an output over two parameters, with levels. */
export interface MapPreset {
  id: string;
  label: string;
  output: string;
  /** `KEY:MIN:MAX[:log]`. */
  x: string;
  y: string;
  levels: number[];
  /** Grid nodes per axis. */
  grid: number;
  /** Form values the map needs, applied with it. */
  values: [string, PresetValue][];
}

/** A model of the registry (`models()`). */
export interface ModelSpec {
  id: string;
  title: string;
  /** The title in a word or two, for the tabs of a narrow screen (empty: the title). */
  short_title: string;
  paper: string;
  summary: string;
  params: ParamSpec[];
  outputs: OutputSpec[];
  preset_groups: PresetGroup[];
  charts: ChartSpec[];
  sweeps: SweepSpec[];
  datasets: DatasetSpec[];
  maps: MapPreset[];
  /** Example runs to calibrate the model from (`calibrate`). */
  calibration_examples: CalibrationExample[];
  /** What a blank point of an iso-map means for this model. */
  gaps: string;
  /** How ambiguities of the paper were resolved. */
  notes: string[];
}

/** An output's value: a category's id for a categorical output; `null` where there is none (a target that cannot be reached), never NaN. */
export type OutputValue = number | boolean | number[] | string | null;

/** Output values by key (`OutputSpec.key`), in the order of the spec. */
export type Outputs = { [key: string]: OutputValue };

/** A problem at one field of the form; `key` is empty for one that concerns no single field. */
export interface FieldError {
  key: string;
  message: string;
}

/** Whether a table row agrees with its reference. */
export type Status = "plain" | "current" | "agrees" | "disagrees";

export interface Row {
  cells: string[];
  status: Status;
  /** A plain-language remark shown under the row. */
  remark?: string;
  /** A link from the row's first cell to another view of the page: a hash such as `#model=broadcast&p=5&…`. */
  link?: string;
}

/** A comparison or reproduction table; cells are text, formatted by the core. */
export interface Table {
  id: string;
  title: string;
  caption: string;
  columns: string[];
  rows: Row[];
  notes: string[];
}

export type Level = "info" | "warning";

/** A sentence about a result, attached to the output or parameter `key` it concerns. */
export interface Remark {
  key: string | null;
  level: Level;
  text: string;
}

/** An output as the page shows it. */
export interface Display {
  /** `6.764 × 10⁻⁸`, `yes`, `—` for no value. */
  text: string;
  /** `≈ 1.6 h` for a long time in seconds, else empty. */
  human: string;
}

/** The state of one field of the form. */
export interface FieldState {
  /** Whether the current choices use the parameter. */
  active: boolean;
  /** The line under the field: a conversion, or why it is not used. */
  hint: string;
}

/** What `report` calls with the fraction (0 to 1) of a long evaluation done, from inside the call. */
export type ProgressHook = (fraction: number) => void;

/** Everything the page shows for one parameter set (`report`). */
export interface Report {
  /** Every field problem; empty when there are outputs. */
  problems: FieldError[];
  outputs: Outputs | null;
  display: Record<string, Display> | null;
  /** Also with problems, when every field is valid on its own. */
  tables: Table[] | null;
  remarks: Remark[];
  fields: Record<string, FieldState>;
  /** The parameters whose value differs from the default (what a link must carry). */
  changed: string[];
  /**
   * True when `quickReport` left out a long evaluation: every field is
   * valid on its own, and outputs, tables and remarks come from `report`
   * (run it in a worker).
   */
  deferred: boolean;
}

/**
 * What the exports throw: a real `Error` whose `message` says what is
 * wrong and what would be valid. `key` names the parameter at fault and
 * `fields` lists every field problem (evaluate, report, ...); `line` and
 * `column` (1-based, 0 when no single place is at fault) point into the
 * data given to `analyze`; `field` names the part of a map request at
 * fault ("x", "y", "output", "levels", "grid", or a parameter key).
 */
export interface IsoperfError extends Error {
  key?: string;
  fields?: FieldError[];
  line?: number;
  column?: number;
  field?: string;
}
"#;

/// What only the full module declares: iso-maps, sweeps and analyses.
#[cfg(feature = "full")]
#[wasm_bindgen(typescript_custom_section)]
const FULL: &str = r#"
/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What to map: an output over two parameters, each axis `KEY:MIN:MAX[:log]`. */
export interface MapRequest {
  output: string;
  x: string;
  y: string;
  levels?: number[];
  /** Grid nodes along x and y (2 to 1024). */
  nx: number;
  ny: number;
}

export interface MapAxis {
  key: string;
  min: number;
  max: number;
  log: boolean;
}

/** An isoline in parameter units: polylines of (x, y) points. */
export interface Isoline {
  level: number;
  lines: [number, number][][];
}

/** A whole iso-map (`isoMap`). */
export interface IsoMap {
  model: string;
  output: string;
  x: MapAxis;
  y: MapAxis;
  nx: number;
  ny: number;
  /** Row-major, `values[j * nx + i]`; `null` is a gap. */
  values: (number | null)[];
  gaps: number;
  min: number | null;
  max: number | null;
  /** A categorical output's categories, which `values` index; its isolines are then the regions' boundaries. */
  categories?: Category[];
  isolines: Isoline[];
}

/** An isoline as flat arrays `x0, y0, x1, y1, …`, one per polyline. */
export interface FlatIsoline {
  level: number;
  lines: Float64Array[];
}

/** A rectangle in CSS px. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A tick: where (CSS px along its axis) and its text. */
export interface Tick {
  at: number;
  text: string;
}

/** A label on an isoline, centred at (x, y), with the box under its text. */
export interface Label {
  text: string;
  x: number;
  y: number;
  rect: Rect;
}

/** How values map to colours. */
export interface ColourScale {
  min: number;
  max: number;
  log: boolean;
  /** Some values lie below `min`: they take the lowest colour (a triangle under the bar). */
  below: boolean;
  /** Some values lie above `max`: they take the highest colour (a triangle over the bar). */
  above: boolean;
  /** What a clipped scale leaves out, in a sentence. */
  note?: string;
}

/** The laid-out parts of a map image that are plain data. */
export interface MapLayoutData {
  width: number;
  height: number;
  plot: Rect;
  nx: number;
  ny: number;
  /** `null` when the map has no finite value. */
  scale: ColourScale | null;
  labels: Label[];
  x_ticks: Tick[];
  y_ticks: Tick[];
  title: string;
  x_title: string;
  y_title: string;
  bar: Rect;
  bar_ticks: Tick[];
  /** Where each level inside the scale crosses the bar (CSS px). */
  bar_marks: number[];
  /** The colour of each isoline (in the order of `isolines`): light on the dark part of the scale. */
  isoline_inks: string[];
  /** A categorical map (regions coloured by category, boundaries as isolines): a legend, no colour bar. */
  categorical: boolean;
  legend: LegendEntry[];
  /** The model's reference lines where their parameter is an axis (a library's switch points). */
  guides: GuideLine[];
  /** The baseline of the x axis' title. */
  x_title_at: number;
  /** The colour of each line of `interval_lines`. */
  interval_inks: string[];
  /** Nodes whose 95% interval straddles a level (drawn pale); 0 without an interval. */
  uncertain: number;
  /** What the pale regions and dashed lines are, when a calibration's interval is drawn. */
  interval_note: string | null;
}

/** An entry of a categorical map's legend: a 10 px swatch at (x, y − 5), a dashed line when `rgb` is null, and its text after it. */
export interface LegendEntry {
  text: string;
  rgb: [number, number, number] | null;
  x: number;
  y: number;
}

/** A dashed reference line across the plot and its label on a light box. */
export interface GuideLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  label: string;
  rect: Rect;
}

/** A map image laid out (`mapLayout`), with its pixels and isolines in CSS px. */
export interface MapLayout extends MapLayoutData {
  /** RGBA, one pixel per grid node, top row first. */
  pixels: Uint8ClampedArray;
  /** RGBA, one pixel per row of the colour bar, top (max) first. */
  barPixels: Uint8ClampedArray;
  isolines: FlatIsoline[];
  /** Where the ends of a calibration's 95% interval cross each level (CSS px), drawn dashed; empty without one. */
  interval_lines: FlatIsoline[];
}

/** A sweep's x values and series values (`sweepPlan`). */
export interface SweepPlan {
  xs: Float64Array;
  values: Float64Array;
}

/** A pinned scenario whose curves a chart draws faintly (`drawChart`, `chartData`). */
export interface Scenario {
  name: string;
  params: Params;
}

/** A pinned scenario on a sweep: its curves, computed by the sweep worker for its parameters (`drawSweep`, `sweepChartData`). */
export interface SweepScenario extends Scenario {
  curves: Float64Array[];
}

/** A calibration's uncertainty carried into charts, sweeps and maps: as `calibrate`'s `result` gives it. */
export interface Carried {
  /** The fitted parameters' keys. */
  parameters: string[];
  /** Their covariance, k × k, in the form's units. */
  covariance: number[][];
  /** Student's t for 95% at the fit's degrees of freedom. */
  t95: number;
}

/** The bands of a sweep's curves (`sweepChartData`): the uncertainty and each curve's 95% ends, as `sweepSeries` gives them with `carried`. */
export interface SweepBands {
  carried: Carried;
  low: Float64Array[];
  high: Float64Array[];
}

/** A pinned scenario's sweep chart (`overlayScenarios`): as `sweepChartData` gives it, `null` when its parameters have no result. */
export interface PinnedChart {
  name: string;
  chart: Chart | null;
}

/** A file format an export writes: `"csv"` or `"json"` (results), `"csv"` or `"svg"` (maps). */
export type ExportFormat = "csv" | "json" | "svg";

/** What `exportResults` writes from: a report's outputs and tables, as the page shows them. */
export interface ExportedResults {
  outputs?: { [key: string]: Json } | null;
  tables?: Table[] | null;
}

/** The colours a chart is painted in: the reader's colour scheme (`"light"` by default). */
export type ChartTheme = "light" | "dark";

/** A chart's axis: `bounds` fixed or from the data (`lo > hi` runs downwards); `tick_labels[v - 1]` labels the tick at whole number v. */
export interface ChartAxis {
  label: string;
  scale: Scale;
  bounds: [number, number] | null;
  tick_labels?: string[];
}

/** A bar on row `row` from `from` to `to` (a Gantt chart's). */
export interface ChartSpan {
  row: number;
  from: number;
  to: number;
}

/** One series of a chart: points, or bars (`style: "spans"`); `color` indexes the palette. */
export interface ChartSeries {
  name: string;
  points: [number, number][];
  style: "line" | "dashed" | "points" | "marker" | "spans" | "band";
  color: number;
  spans?: ChartSpan[];
  /** A band's high end, point for point with `points` (its low end). */
  upper?: [number, number][];
  /** Drawn faintly: a pinned scenario's curve. */
  faint?: boolean;
}

/** A chart as data (`chartData`), for `paintChart`. */
export interface Chart {
  title: string;
  x: ChartAxis;
  y: ChartAxis;
  series: ChartSeries[];
  legend: "auto" | "upper-right" | "upper-left" | "lower-left" | "lower-right";
  /** A sentence about what the chart shows. */
  note?: string;
}

/** A model calibrated to measured runs (`calibrate`). */
export interface Calibrated {
  /** Everything computed, as `isoperf calibrate` prints it. */
  result: { [key: string]: Json };
  /** The fit, the outputs with their intervals, the scaling laws. */
  tables: Table[];
  /** The tables as CSV. */
  csv: string;
  /** The measured runs over the calibrated model, and the residuals. */
  charts: Chart[];
  /** Where the runs vary one input: the scaling laws they follow in it. */
  laws: { [key: string]: Json } | null;
}

/** The analysis of measured data (`analyze`). */
export interface Analysis {
  tables: Table[];
  /** Parameter values the analysis suggests (fitted coefficients). */
  suggest: [string, number][];
  /** Everything computed, for export as JSON. */
  result: { [key: string]: Json };
  /** The tables as CSV. */
  csv: string;
}
"#;
