// The page's state: ONE object, declared here, holding everything that
// changes after start-up (the URL's model and form values, the last report,
// the sweeps, the iso-map panel, the data panels, pending frames and timers,
// and the wasm module with its call counts). No other module of the page
// keeps a mutable variable of its own.

export const state = {
  /**
   * The exports in use (the first-paint module's, then the full module's),
   * the full module's start (a promise) and, once compiled, the module
   * itself (handed to the workers), calls per export (window.isoperf.calls),
   * the traps so far ({where, message}: an export's name or "map worker")
   * and who hears of the next one (wasm.onTrap).
   */
  wasm: { exports: null, full: null, module: null, calls: {}, traps: [], trapListeners: [] },
  /** Per worker ('map', 'sweep', 'report', 'data'): its requests, and how often a newer request replaced it mid-call (window.isoperf.workers). */
  workers: {},
  /** The registry from `models()`. */
  registry: { models: [], byId: new Map() },
  /** The model shown. */
  model: null,
  /** The form: parameter key -> text as typed (or the chosen option's value). */
  values: {},
  /** The last `report` for the form: {problems, outputs, display, tables, remarks, fields, changed}. */
  results: null,
  /** Why there are no results ('' when there are). */
  blocked: '',
  /**
   * A report whose evaluation is long (quickReport said `deferred`): the
   * report worker's client, whether a map preset asked for it (the charts
   * then wait for the map), and the charts as data from the worker's
   * answer ({id: {chart} or {error}}; null when the charts are drawn here),
   * and whether the reader stopped it.
   */
  long: { client: null, fromMap: false, charts: null, stopped: false },
  /**
   * Charts wait for the next animation frame (`frame`), or for the map (`afterMap`,
   * at most until the `wait` timer); `all` also redraws the sweeps (a new
   * size); `width` is the charts' last width.
   */
  charts: { frame: 0, wait: 0, afterMap: false, all: false, width: 0 },
  /**
   * Sweeps: the worker client, the debounce timer, each sweep's chart data
   * with the parameters it was computed for ({chart, params} by sweep id),
   * and pinned scenarios' charts (by the scenario's parameters, then sweep
   * id; null where they have no curve).
   */
  sweeps: { client: null, timer: 0, charts: {}, sent: null, pinned: {} },
  /**
   * The iso-map panel: its request, whether the user changed it from the
   * model's first preset, the request in the worker, the last result and its
   * geometry (for hover readouts), whether the current request was refused,
   * and the timers that send a request and show its progress bar.
   */
  map: { request: null, custom: false, sent: null, result: null, geometry: null, invalid: false, client: null, timer: 0, progressTimer: 0 },
  /** Pinned scenarios of this model: {name, values (the whole form), report (its quickReport)}. */
  scenarios: [],
  /**
   * The data panels, per data set: its text and chosen example, its last
   * analysis and chart data (from the data worker), what that analysis was
   * asked for (text and the parameters it reads), its worker; the debounce timer.
   */
  data: { text: {}, example: {}, analysis: {}, charts: {}, asked: {}, clients: {}, timer: 0 },
  /**
   * The calibration panel: its runs (text) and chosen example, the runs
   * deflated for the link ({text, z}: z for that text),  the parameters ticked to fit, relative errors or not, the last answer
   * ({result, tables, charts, laws, csv} from calibrate), what that answer
   * was asked for, its worker and the debounce timer; and what the model's
   * charts, sweeps and map were last drawn carrying (carried.js's key).
   */
  calibration: { text: '', example: '', compressed: null, fit: [], relative: false, calibrated: null, asked: '', client: null, timer: 0, carriedKey: '' },
};
