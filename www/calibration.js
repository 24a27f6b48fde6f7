// The calibration panel of every model: measured runs as CSV (pasted, from
// a file or an example, all kept in this page), the parameters to fit, and
// the fit computed by Rust (calibrate) in the data worker after the user
// pauses: the fitted values with their intervals, every output at the
// form's point with its 95% intervals, the scaling laws where the runs vary
// one input, and the charts of the runs over the calibrated model. While
// the form holds the fitted values, the model's own charts, sweeps and map
// carry the fit's uncertainty (carried.js); the panel says so, and tells
// app.js (an isoperf:carried event) when that changes. The panel knows no model: the parameters it
// offers come from the spec. Its state lives in state.calibration and in
// the link (cal.*).

import { $, download, dpr, el, rich, sizeCanvas, theme } from './dom.js';
import { state } from './state.js';
import { exampleText } from './assets.js';
import { fieldText, fullReady, paintChart } from './wasm.js';
import { workerClient } from './worker-client.js';
import { chartFigure } from './charts.js';
import { tableCards } from './results.js';
import { MAX_LINKED_COMPRESSED, MAX_LINKED_DATA, writeHash } from './hash.js';
import { fillForm, fittable } from './form.js';
import { carried, carriedKey } from './carried.js';

const section = () => $('calibration').querySelector('.calibration');

export function buildCalibration(model) {
  state.calibration.client?.cancel();
  Object.assign(state.calibration, { text: '', example: '', fit: [], relative: false, calibrated: null, asked: '' });
  const examples = model.calibration_examples;
  $('calibration').replaceChildren(
    el('details', { class: 'dataset calibration' },
      el('summary', {}, el('h3', { text: 'Calibrate from measurements' })),
      el('p', { class: 'caption', text: 'Paste runs as CSV: a header that names parameters (each run’s inputs) and one measured output, units in parentheses (N,M,T (ms)). The parameters you tick are fitted by least squares within their valid ranges; the others keep the form’s values.' }),
      el('div', { class: 'dataset-input' },
        examples.length ? el('label', {}, el('span', { text: 'Example ' }),
          el('select', { class: 'calibration-example', 'aria-label': 'Calibration: example runs' },
            el('option', { value: '', text: '— paste runs, choose a file, or pick an example —' }),
            examples.map((x) => el('option', { value: x.id, text: x.label })))) : null,
        el('label', { class: 'dataset-file' }, el('span', { text: 'CSV file ' }),
          el('input', { type: 'file', accept: '.csv,.tsv,.txt,text/csv,text/plain', 'aria-label': 'Calibration: CSV file' })),
        el('textarea', { class: 'dataset-text calibration-text', rows: 6, spellcheck: 'false', 'aria-label': 'Calibration: measured runs as CSV',
          placeholder: `${model.params.filter((p) => p.kind === 'number').slice(0, 2).map((p) => p.key).join(',')},${model.outputs[0]?.key ?? 'T'}\n…` }),
        el('fieldset', { class: 'calibration-fit' },
          el('legend', { text: 'Fit' }),
          fittable(model).map((p) => el('label', {},
            el('input', { type: 'checkbox', value: p.key }), ' ', el('span', {}, rich(p.label))))),
        el('label', { class: 'calibration-relative' },
          el('input', { type: 'checkbox', class: 'calibration-relative-box' }),
          ' Relative errors (timings that span decades weigh alike)'),
        el('p', { class: 'field-error dataset-error', role: 'alert' }),
        el('p', { class: 'dataset-status', role: 'status' }),
        el('p', { class: 'dataset-privacy', text: 'Runs stay in this page: nothing is uploaded. The link keeps an example, or pasted runs up to 2 KB.' })),
      el('div', { class: 'dataset-actions', hidden: true },
        el('button', { type: 'button', class: 'use-fit', text: 'Use the fitted values in the model' }),
        el('button', { type: 'button', class: 'save-runs', text: 'Save the runs (CSV)' }),
        el('button', { type: 'button', class: 'export-csv', text: 'Export the fit (CSV)' }),
        el('button', { type: 'button', class: 'export-json', text: 'Export the fit (JSON)' })),
      el('p', { class: 'calibration-carry', role: 'status', hidden: true }),
      el('div', { class: 'dataset-tables tables' }),
      el('div', { class: 'dataset-charts charts', hidden: true })));
}

/** The panel's controls shown as state.calibration holds them. */
function showControls() {
  const s = section();
  const c = state.calibration;
  s.querySelector('.calibration-text').value = c.text;
  const example = s.querySelector('.calibration-example');
  if (example) example.value = c.example;
  for (const box of s.querySelectorAll('.calibration-fit input')) box.checked = c.fit.includes(box.value);
  s.querySelector('.calibration-relative-box').checked = c.relative;
  if (c.text.trim()) s.open = true;
  showLinkNote();
}

/** Text as deflate-raw bytes in base64url: the runs a link keeps compressed. */
async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The text of `deflate`'s output; throws where it is not one. */
async function inflate(z) {
  const binary = atob(z.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

/** Compresses runs too long for the link as they are, then writes the hash with them (if they fit). */
async function compressForLink() {
  const c = state.calibration;
  const text = c.text;
  if (c.example || text.length <= MAX_LINKED_DATA || c.compressed?.text === text) return;
  try {
    const z = await deflate(text);
    if (c.text !== text) return; // newer runs
    c.compressed = { text, z };
    writeHash();
    showLinkNote();
  } catch {
    c.compressed = null; // no CompressionStream: the link keeps no runs, and the note says so
  }
}

/** Sets the panel from a link's cal.* entries: {example, text, compressed, fit, relative}. */
export function setCalibration({ example = '', text = '', compressed = '', fit = [], relative = false }) {
  const c = state.calibration;
  if (compressed) {
    if (c.compressed?.z === compressed && fit.join() === c.fit.join() && relative === c.relative) return;
    c.compressed = { text: null, z: compressed, pending: true }; // the hash keeps it meanwhile
    inflate(compressed).then((runs) => {
      if (c.compressed?.z !== compressed) return; // a newer link
      c.compressed = { text: runs, z: compressed };
      setCalibration({ text: runs, fit, relative });
      writeHash();
    }, () => {
      c.compressed = null;
      section().querySelector('.dataset-error').textContent = "The link's compressed runs could not be read (not deflate data in base64url): left out.";
    });
    return;
  }
  if (example && example === c.example && fit.join() === c.fit.join() && relative === c.relative) return;
  if (!example && text === c.text && fit.join() === c.fit.join() && relative === c.relative && !c.example) return;
  Object.assign(c, { fit, relative, example, text: example ? c.text : text });
  showControls();
  if (example) loadExample(example, false);
  else scheduleCalibration(0);
}

async function loadExample(id, fromMenu) {
  const x = state.model.calibration_examples.find((e) => e.id === id);
  const c = state.calibration;
  c.example = x ? x.id : '';
  if (x && fromMenu) {
    c.fit = [...x.fit];
    c.relative = x.relative;
  }
  showControls();
  writeHash();
  if (!x) return;
  try {
    const text = await exampleText(x.path);
    if (c.example !== x.id) return; // a newer choice
    c.text = text;
    showControls();
    scheduleCalibration(0);
  } catch (e) {
    section().querySelector('.dataset-error').textContent = `Could not load the example: ${e.message}`;
  }
}

/** Fits again after `delay` ms where the runs, the choice of parameters or the form changed. */
export function scheduleCalibration(delay = 250) {
  if (!fullReady() || !section()) return;
  clearTimeout(state.calibration.timer);
  state.calibration.timer = setTimeout(runCalibration, delay);
}

function runCalibration() {
  const c = state.calibration;
  const s = section();
  const asked = JSON.stringify([c.text, c.fit, c.relative, state.values]);
  if (asked === c.asked) return;
  c.asked = asked;
  const status = s.querySelector('.dataset-status');
  if (!c.text.trim()) {
    c.client?.cancel();
    show(null);
    return;
  }
  if (!c.fit.length) {
    c.client?.cancel();
    show(null);
    status.textContent = 'Tick the parameters to fit.';
    return;
  }
  s.classList.add('stale');
  s.setAttribute('aria-busy', 'true');
  status.textContent = 'Fitting…';
  c.client ??= workerClient('data', {
    onProgress() {},
    onAnswer: (data) => section() && show(data),
    onError: (e) => section() && show({ error: `The fit stopped: ${e.message ?? 'the worker failed'}` }),
  });
  c.client.send({ kind: 'calibrate', model: state.model.id, text: c.text, params: { ...state.values }, fit: c.fit.join(','), relative: c.relative });
}

/** The worker's answer ({calibrated} or {error}), or nothing for null. */
function show(answer) {
  const s = section();
  const c = state.calibration;
  s.classList.remove('stale');
  s.removeAttribute('aria-busy');
  s.querySelector('.dataset-status').textContent = '';
  const a = answer?.calibrated ?? null;
  c.calibrated = a;
  s.dataset.answers = String(Number(s.dataset.answers ?? 0) + 1); // for tests: a new answer is in
  s.querySelector('.dataset-error').textContent = answer?.error ?? '';
  s.querySelector('.calibration-text').setAttribute('aria-invalid', answer?.error ? 'true' : 'false');
  s.querySelector('.dataset-tables').replaceChildren(...(a ? tableCards(a.tables) : []));
  s.querySelector('.dataset-actions').hidden = !a;
  // The model's charts, sweeps and map carry the fit's uncertainty while the form holds its values: app.js redraws them.
  const key = carriedKey();
  if (key !== c.carriedKey) {
    c.carriedKey = key;
    $('calibration').dispatchEvent(new Event('isoperf:carried'));
  }
  showCarryNote();
  const charts = s.querySelector('.dataset-charts');
  charts.hidden = !a;
  // A figure per chart of the answer (the fit, the residuals against each input, the scaling laws).
  charts.replaceChildren(...(a ? a.charts.map((c, i) => chartFigure({ id: `calibration-${i}`, title: c.title, caption: '' })) : []));
  if (a) paintCalibrationCharts();
}

/** Says whether the model's charts, sweeps and map show this fit's uncertainty, and how to make them. */
export function showCarryNote() {
  const s = section();
  if (!s) return;
  const note = s.querySelector('.calibration-carry');
  const a = state.calibration.calibrated;
  note.hidden = !a;
  if (!a) return;
  const keys = a.result.parameters.join(', ');
  note.replaceChildren(...rich(carried()
    ? `The model’s charts, sweeps and map carry this fit’s uncertainty: shaded bands are the 95% interval of the model’s value from ${keys}, and the map is pale where that interval straddles a level. They go when ${keys} change.`
    : 'Use the fitted values in the model to carry their uncertainty into its charts, sweeps and map (bands, and a map that is pale where the answer is uncertain).'));
}

/** Paints the fit's charts (again after a resize or a change of scheme). */
export function paintCalibrationCharts() {
  const s = section();
  const a = state.calibration.calibrated;
  if (!s || !a || s.querySelector('.dataset-charts').hidden) return;
  const figures = [...s.querySelectorAll('.dataset-charts .chart')];
  figures.forEach((fig, i) => {
    const canvas = fig.querySelector('canvas');
    const ratio = dpr();
    sizeCanvas(canvas, ratio);
    try {
      const chart = a.charts[i];
      if (!chart) throw new Error('not computed');
      fig.querySelector('.chart-note').replaceChildren(...rich(paintChart(canvas, chart, ratio, theme()) ?? ''));
      fig.querySelector('.chart-error').textContent = '';
    } catch (e) {
      fig.querySelector('.chart-error').textContent = e.message;
    }
  });
}

/** Says whether the link holds the runs: an example or short pasted runs do. */
function showLinkNote() {
  const c = state.calibration;
  const zipped = c.compressed?.text === c.text ? c.compressed.z.length : null;
  const kept = c.example || !c.text.trim() || c.text.length <= MAX_LINKED_DATA;
  const size = `${(c.text.length / 1024).toFixed(1)} KB`;
  section().querySelector('.dataset-privacy').textContent = kept
    ? 'Runs stay in this page: nothing is uploaded. The link keeps an example, or pasted runs up to 2 KB (more when they compress to 2 KB).'
    : zipped !== null && zipped <= MAX_LINKED_COMPRESSED
      ? `Runs stay in this page: nothing is uploaded. The link keeps these ${size} compressed to ${(zipped * 3 / 4 / 1024).toFixed(1)} KB.`
      : `Runs stay in this page: nothing is uploaded. These ${size} are more than a link keeps (2 KB compressed): save the runs as a file to share them.`;
}

/** Input, change or click in the panel. True when the fitted values went into the form. */
export function onCalibrationEvent(event) {
  const s = section();
  const t = event.target;
  const c = state.calibration;
  if (!s || !s.contains(t)) return false;
  if (t.classList.contains('calibration-text') && event.type === 'input') {
    c.text = t.value;
    if (c.example) {
      c.example = '';
      const example = s.querySelector('.calibration-example');
      if (example) example.value = '';
    }
    writeHash();
    showLinkNote();
    compressForLink();
    scheduleCalibration();
  } else if (t.classList.contains('calibration-example') && event.type === 'change') {
    loadExample(t.value, true);
  } else if (t.type === 'file' && event.type === 'change' && t.files?.[0]) {
    t.files[0].text().then((text) => {
      Object.assign(c, { text, example: '' });
      showControls();
      writeHash();
      compressForLink();
      scheduleCalibration(0);
    });
  } else if (t.type === 'checkbox' && event.type === 'change') {
    if (t.classList.contains('calibration-relative-box')) c.relative = t.checked;
    else c.fit = [...s.querySelectorAll('.calibration-fit input:checked')].map((b) => b.value);
    writeHash();
    scheduleCalibration(0);
  } else if (event.type === 'click' && t.closest('.dataset-actions button') && c.calibrated) {
    const b = t.closest('button');
    const result = c.calibrated.result;
    if (b.classList.contains('use-fit')) {
      for (const [key, f] of Object.entries(result.fitted)) state.values[key] = fieldText(f.value);
      fillForm();
      return true;
    }
    if (b.classList.contains('save-runs')) {
      download(`isoperf-${state.model.id}-runs.csv`, 'text/csv', c.text);
    } else if (b.classList.contains('export-json')) {
      download(`isoperf-${state.model.id}-calibration.json`, 'application/json', JSON.stringify(result, null, 2));
    } else if (b.classList.contains('export-csv')) {
      download(`isoperf-${state.model.id}-calibration.csv`, 'text/csv', c.calibrated.csv);
    }
  }
  return false;
}
