// The page's entry: starts the wasm module, builds the page for the model in
// the hash, wires the events, and runs the update after every edit: ONE
// `quickReport` call for the form (problems, outputs formatted by Rust,
// tables, remarks, field hints, the keys for the hash), then the charts in
// the next frame; sweeps and maps go to their workers, and so does a report
// whose evaluation is long (quickReport says `deferred`). In another page's iframe
// (`embed=` in the hash) it shows only the parts named (embed-mode.js).
// This file, like every module of the page, knows no model and no
// parameter by name.

import { $, el, notice, rich } from './dom.js';
import { state } from './state.js';
import * as wasm from './wasm.js';
import { readHash, writeHash } from './hash.js';
import { applyPreset, buildForm, buildPresets, defaultsOf, fillForm, onEdit, onListClick, showFieldErrors, showFields } from './form.js';
import { showInternalError, showResults, showResultsTools, showStopped } from './results.js';
import { buildCharts, scheduleCharts } from './charts.js';
import { onScenarioClick, renderScenarios, setScenarios } from './scenarios.js';
import { requestSweeps } from './sweeps.js';
import { buildMap, onMapEvent, onMapHover, paintMap, requestMap, resetMap, setMapRequest } from './map-panel.js';
import { buildDatasets, loadExample, onDatasetEvent, repaintDatasets, scheduleAnalyses, setDatasetText } from './datasets.js';
import { buildCalibration, onCalibrationEvent, paintCalibrationCharts, scheduleCalibration, setCalibration, showCarryNote } from './calibration.js';
import { applyEmbed, watchEmbedHeight, wireEmbedDialog } from './embed-mode.js';
import { registerOffline } from './offline.js';
import { workerClient } from './worker-client.js';
import { carried, carriedKey } from './carried.js';

/** The page's number format (Rust's), for tests and authors. */
export const formatNumber = (x, digits = 4) => wasm.formatNumber(x, digits);
/** A value in base units as Rust's unit hints show it: six figures, without trailing zeros (1.28 × 10⁹, 23720); for tests. */
export const formatBase = (x) => formatNumber(x, 6).replace(/(\.\d*?)0+(?= ×|$)/, '$1').replace(/\.(?= ×|$)/, '');

function buildTabs() {
  $('model-tabs').replaceChildren(...state.registry.models.map((m) =>
    el('a', { href: `#model=${m.id}`, class: 'tab', 'data-model': m.id, title: m.paper },
      // A narrow screen shows the short title (style.css).
      el('span', { class: 'tab-title', text: m.title }),
      el('span', { class: 'tab-short', text: m.short_title || m.title }))));
}

function showModel(model) {
  state.model = model;
  document.title = `isoperf — ${model.title}`;
  $('model-title').textContent = model.title;
  $('model-paper').textContent = model.paper;
  $('model-summary').replaceChildren(...rich(model.summary));
  $('notes').replaceChildren(...model.notes.map((n) => el('li', {}, rich(n))));
  for (const t of document.querySelectorAll('.tab')) t.setAttribute('aria-current', t.dataset.model === model.id ? 'page' : 'false');
  buildPresets(model);
  buildForm(model);
  buildCharts(model);
  buildDatasets(model);
  buildCalibration(model);
}

/**
 * After every change of the form: one quick report, then everything that
 * follows from it. `fromMap`: a map preset changed the form; its map is
 * sent at once (before the page is redrawn) and the charts wait for it. A
 * report whose evaluation is long (`deferred`) is computed in the report
 * worker: the page shows the fields at once and the results when it answers.
 */
function update({ fromMap = false } = {}) {
  let r;
  try {
    r = wasm.quickReport(state.model.id, { ...state.values });
  } catch (e) {
    // No report (an internal error): the hash keeps every text that differs from its default, so the link reproduces it.
    const defaults = defaultsOf(state.model);
    const changed = state.model.params.map((p) => p.key).filter((k) => state.values[k] !== defaults[k]);
    r = { problems: [{ key: '', message: e.message }], outputs: null, display: null, tables: null, remarks: [], fields: {}, changed, deferred: false };
  }
  state.results = r;
  state.long.charts = null;
  writeHash();
  if (state.model.datasets.length) scheduleAnalyses();
  // What the charts, sweeps and map below are drawn with (a fit that changes it redraws them: isoperf:carried).
  state.calibration.carriedKey = carriedKey();
  showCarryNote();
  scheduleCalibration();
  requestMap(fromMap ? 0 : undefined);
  requestSweeps();
  if (r.deferred) requestLongReport(fromMap);
  else state.long.client?.cancel(); // a long report still computing is no longer wanted
  show(r, fromMap);
}

/** Shows report `r`: field states, problems, outputs, remarks, tables, then the charts. */
function show(r, fromMap) {
  showFields(r.fields);
  const general = showFieldErrors(r.problems);
  const atFields = r.problems.length - general.length;
  const reason = !r.problems.length ? '' : atFields ? `fix the highlighted field${atFields > 1 ? 's' : ''}.` : general.join(' ');
  showResults(r, reason);
  showResultsTools();
  renderScenarios();
  scheduleCharts({ afterMap: fromMap });
}

/** Sends a deferred report to the report worker (once the full module is in; app.js updates again then). */
function requestLongReport(fromMap) {
  if (!wasm.fullReady()) return;
  state.long.fromMap = fromMap;
  state.long.stopped = false;
  state.long.client ??= workerClient('report', {
    onProgress({ progress }) {
      const bar = document.querySelector('#status .status-progress');
      if (bar) bar.value = progress;
    },
    onAnswer(data) {
      if (data.error) {
        showLongFailure(data.error);
        return;
      }
      state.results = data.report;
      state.long.charts = Object.fromEntries(data.charts.map((c) => [c.id, c]));
      show(state.results, state.long.fromMap);
    },
    onError: (e) => showLongFailure(`The report worker failed: ${e.message}`),
  });
  state.long.client.send({ model: state.model.id, params: { ...state.values }, charts: state.model.charts.map((c) => c.id), carried: carried() });
}

/**
 * A long report that failed: its message, and no results. The charts say
 * why they are not drawn (drawing them here would run the long evaluation
 * on this thread).
 */
function showLongFailure(message) {
  state.results = { ...state.results, deferred: false, problems: [{ key: '', message }] };
  state.long.charts = Object.fromEntries(state.model.charts.map((c) => [c.id, { id: c.id, error: message }]));
  show(state.results, state.long.fromMap);
}

/** What the link named that does not exist, a sentence each, until the next link is read. */
function showLinkNotices(notices) {
  $('link-note').replaceChildren(...notices.map((text) => el('p', { text })));
}

function loadFromHash() {
  const { model, values, examples, texts, map, scenarios, calibration, notices } = readHash();
  showLinkNotices(notices);
  if (state.model !== model) {
    showModel(model);
    buildMap(model, map);
  } else {
    setMapRequest(map);
  }
  state.values = values;
  setScenarios(scenarios);
  fillForm();
  update();
  for (const d of model.datasets) {
    if (examples[d.id]) {
      if (examples[d.id] !== state.data.example[d.id]) loadExample(d.id, examples[d.id]);
    } else if ((texts[d.id] ?? '') !== (state.data.text[d.id] ?? '') || state.data.example[d.id]) {
      setDatasetText(d.id, texts[d.id] ?? ''); // the link's pasted data, or none
    }
  }
  setCalibration(calibration);
  applyEmbed();
}

/** Repaints the charts and the map in the reader's colour scheme when it changes. */
function watchColourScheme() {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (!state.model) return;
    scheduleCharts({ resized: true });
    repaintDatasets();
    paintCalibrationCharts();
    paintMap();
  });
}

/** Redraws when the window moves to a screen of another pixel ratio. */
function watchPixelRatio() {
  matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
    if (state.model) {
      scheduleCharts({ resized: true });
      repaintDatasets();
      paintCalibrationCharts();
    }
    watchPixelRatio();
  }, { once: true });
}

function wire() {
  $('preset').addEventListener('change', (e) => applyPreset(e.target.value) && update());
  const edited = (e) => onEdit(e) && update();
  $('form').addEventListener('input', edited);
  $('form').addEventListener('change', edited);
  $('form').addEventListener('click', (e) => onListClick(e) && update());
  for (const type of ['input', 'change', 'click']) $('datasets').addEventListener(type, (e) => onDatasetEvent(e) && update());
  for (const type of ['input', 'change', 'click']) $('calibration').addEventListener(type, (e) => onCalibrationEvent(e) && update());
  // A fit that starts or stops carrying its uncertainty (calibration.js): the charts (a long report's from its worker), sweeps and map again.
  $('calibration').addEventListener('isoperf:carried', () => {
    if (state.results?.deferred) requestLongReport(false);
    scheduleCharts();
    requestSweeps();
    requestMap(0);
  });
  for (const type of ['change', 'click']) {
    $('map').addEventListener(type, (e) => {
      if (onMapEvent(e)) update({ fromMap: true }); // a map preset put values in the form
    });
  }
  // Exports and data tables: exports.js is loaded on the first click that needs it.
  const exports = () => import('./exports.js');
  // The charts' tools, and those of the data and calibration panels' charts.
  for (const id of ['charts', 'datasets', 'calibration']) {
    $(id).addEventListener('click', (e) => {
      if (e.target.closest('.chart-tools button')) exports().then((m) => m.onChartsClick(e));
    });
  }
  $('tables').addEventListener('click', (e) => {
    const b = e.target.closest('.table-export');
    if (b) exports().then((m) => m.exportTable(b.closest('.table-card').dataset.table));
  });
  $('scenarios').addEventListener('click', (e) => {
    const what = onScenarioClick(e);
    if (what === 'values') {
      fillForm();
      update();
    } else if (what === 'scenarios') {
      renderScenarios();
      writeHash();
      scheduleCharts({ resized: true }); // the sweeps too
      requestSweeps(); // the sweeps of a new scenario
    }
  });
  $('results-tools').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-format]');
    if (b) exports().then((m) => m.exportResultsAs(b.dataset.format));
  });
  $('map').addEventListener('mousemove', (e) => e.target.classList.contains('map-canvas') && onMapHover(e));
  // Reset restores everything a link would not carry: the form, the preset menu and the map.
  $('reset').addEventListener('click', () => {
    state.values = defaultsOf(state.model);
    $('preset').value = '';
    $('preset-note').textContent = '';
    fillForm();
    resetMap();
    update();
  });
  $('status').addEventListener('click', (e) => {
    if (!e.target.classList.contains('status-stop')) return;
    state.long.client?.cancel(); // the worker stops; its answer, if any, is dropped
    state.long.stopped = true;
    showStopped();
    scheduleCharts();
  });
  $('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      notice($('copy-status'), 'Link copied.');
    } catch {
      notice($('copy-status'), 'Copy the address bar: it holds this view.', 0);
    }
  });
  wireEmbedDialog();
  window.addEventListener('hashchange', loadFromHash);
  new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (w === state.charts.width) return;
    state.charts.width = w;
    if (state.model) {
      scheduleCharts({ resized: true });
      repaintDatasets();
      paintCalibrationCharts();
      paintMap();
    }
  }).observe($('charts'));
  watchPixelRatio();
  watchColourScheme();
}

async function main() {
  // After a trap (here or in a worker; wasm.js has replaced the instance): the
  // notice with the link, read once the update under way has written the hash.
  wasm.onTrap(() => queueMicrotask(() => showInternalError(location.href)));
  // The first prediction comes from the small first-paint module; the full
  // one (charts, maps, sweeps, data analysis) is fetched after it.
  await wasm.start();
  performance.mark('isoperf:module');
  wasm.loadRegistry();
  performance.mark('isoperf:registry');
  buildTabs();
  wire();
  watchEmbedHeight();
  $('loading').remove();
  $('model').hidden = false;
  loadFromHash();
  performance.mark('isoperf:first-prediction');
  await wasm.startFull();
  update();
  $('app').setAttribute('aria-busy', 'false');
  // For authors and tests: the exports the page uses, how often this thread called each, and the traps so far.
  const { models, evaluate, check, tables, remarks, report, quickReport, analyze, isoMap, fieldText } = wasm;
  window.isoperf = { models, evaluate, check, tables, remarks, report, quickReport, analyze, isoMap, formatNumber, fieldText, calls: state.wasm.calls, traps: state.wasm.traps, workers: state.workers };
  registerOffline();
}

main().catch((e) => {
  $('app').setAttribute('aria-busy', 'false');
  const msg = $('loading') ?? $('app').appendChild(el('p'));
  msg.className = 'fatal';
  msg.textContent = `isoperf could not start: ${e.message}`;
});
