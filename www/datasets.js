// The data panels of a model's data sets (measured runs as CSV): pasted,
// loaded from a file or an example, analysed by Rust (analyze) in the data
// worker after the user pauses typing, and again only when the text or a
// parameter the data set reads (DatasetSpec.params) changes; with tables,
// charts painted from the worker's chart data, "use the fitted
// coefficients" and CSV / JSON export (both written by Rust). Text,
// example, analysis and charts live in state.data.

import { $, download, dpr, el, rich, sizeCanvas, theme } from './dom.js';
import { state } from './state.js';
import { exampleText } from './assets.js';
import { fieldText, fullReady, paintChart } from './wasm.js';
import { workerClient } from './worker-client.js';
import { chartFigure } from './charts.js';
import { tableCards } from './results.js';
import { MAX_LINKED_DATA, writeHash } from './hash.js';
import { fillForm } from './form.js';

const sectionOf = (id) => document.querySelector(`#datasets .dataset[data-dataset="${CSS.escape(id)}"]`);

export function buildDatasets(model) {
  for (const client of Object.values(state.data.clients)) client.cancel();
  state.data.text = {};
  state.data.example = {};
  state.data.analysis = {};
  state.data.charts = {};
  state.data.asked = {};
  $('datasets').replaceChildren(...model.datasets.map((d) =>
    el('section', { class: 'dataset', 'data-dataset': d.id },
      el('h3', { text: d.title }),
      el('p', { class: 'caption' }, rich(d.help)),
      el('div', { class: 'dataset-input' },
        el('label', {}, el('span', { text: 'Example ' }),
          el('select', { class: 'dataset-example', 'aria-label': `${d.title}: example data` },
            el('option', { value: '', text: '— paste data, choose a file, or pick an example —' }),
            d.examples.map((x) => el('option', { value: x.id, text: x.label })))),
        el('label', { class: 'dataset-file' }, el('span', { text: 'CSV file ' }),
          el('input', { type: 'file', accept: '.csv,.tsv,.txt,text/csv,text/plain' })),
        el('textarea', { class: 'dataset-text', rows: 6, spellcheck: 'false', 'aria-label': `${d.title}: CSV data`,
          placeholder: `${d.columns.join(',')}\n…` }),
        el('p', { class: 'field-error dataset-error', role: 'alert' }),
        el('p', { class: 'dataset-status', role: 'status' }),
        el('p', { class: 'dataset-privacy', text: 'Data stay in this page: nothing is uploaded. The link keeps an example, or pasted data up to 2 KB.' })),
      el('div', { class: 'dataset-actions', hidden: true },
        el('button', { type: 'button', class: 'use-fit', text: 'Use the fitted coefficients in the model' }),
        el('button', { type: 'button', class: 'export-csv', text: 'Export CSV' }),
        el('button', { type: 'button', class: 'export-json', text: 'Export JSON' })),
      el('div', { class: 'dataset-tables tables' }),
      el('div', { class: 'dataset-charts charts', hidden: true }, d.charts.map(chartFigure)))));
}

/** Analyses the data sets whose text or parameters changed, after `delay` ms (the user typing). */
export function scheduleAnalyses(delay = 120) {
  if (!fullReady()) return; // analysed once the full module is in (app.js)
  clearTimeout(state.data.timer);
  state.data.timer = setTimeout(runAnalyses, delay);
}

/** What an analysis of data set `d` depends on: its text and the parameters it reads. */
const askedOf = (d, text) => JSON.stringify([text, d.params.map((k) => state.values[k])]);

function runAnalyses() {
  for (const d of state.model.datasets) {
    const text = state.data.text[d.id] ?? '';
    const asked = askedOf(d, text);
    if (state.data.asked[d.id] === asked) continue; // nothing it reads changed
    state.data.asked[d.id] = asked;
    const section = sectionOf(d.id);
    if (text.trim() === '') {
      state.data.clients[d.id]?.cancel();
      showAnalysis(d, section, null);
      continue;
    }
    section.classList.add('stale');
    section.setAttribute('aria-busy', 'true');
    section.querySelector('.dataset-status').textContent = 'Analysing…';
    const params = Object.fromEntries(d.params.map((k) => [k, state.values[k]]));
    clientOf(d).send({ model: state.model.id, dataset: d.id, text, params, charts: d.charts.map((c) => c.id) });
  }
}

/** The data set's worker (one per data set: analysing one does not cancel another). */
function clientOf(d) {
  return (state.data.clients[d.id] ??= workerClient('data', {
    onProgress() {},
    onAnswer(data) {
      const section = sectionOf(d.id);
      if (section) showAnalysis(d, section, data);
    },
    onError(e) {
      const section = sectionOf(d.id);
      if (section) showAnalysis(d, section, { error: `The analysis stopped: ${e.message ?? 'the worker failed'}` });
    },
  }));
}

/** Shows the worker's answer ({analysis, charts} or {error}), or nothing for null (no text). */
function showAnalysis(d, section, answer) {
  const error = section.querySelector('.dataset-error');
  const charts = section.querySelector('.dataset-charts');
  const actions = section.querySelector('.dataset-actions');
  const textarea = section.querySelector('.dataset-text');
  const tables = section.querySelector('.dataset-tables');
  section.classList.remove('stale');
  section.querySelector('.dataset-status').textContent = '';
  const a = answer?.analysis ?? null;
  state.data.analysis[d.id] = a;
  state.data.charts[d.id] = a ? answer.charts : null;
  error.textContent = answer?.error ?? '';
  textarea.setAttribute('aria-invalid', answer?.error ? 'true' : 'false');
  tables.replaceChildren(...(a ? tableCards(a.tables) : []));
  actions.hidden = !a;
  charts.hidden = !a;
  if (!a) {
    section.removeAttribute('aria-busy');
    return;
  }
  actions.querySelector('.use-fit').hidden = a.suggest.length === 0;
  paintDatasetCharts(section);
}

/**
 * Paints the charts of a data panel from the worker's chart data (again
 * after a resize or a scheme change), one per animation frame: a chart of
 * 10⁵ runs takes a few hundred milliseconds, and the page answers between them.
 */
function paintDatasetCharts(section) {
  const id = section.dataset.dataset;
  const drawn = state.data.charts[id];
  if (!drawn || section.querySelector('.dataset-charts').hidden) return;
  const figures = [...section.querySelectorAll('.dataset-charts .chart')];
  section.setAttribute('aria-busy', 'true'); // until the last chart is painted
  const paintNext = () => {
    if (state.data.charts[id] !== drawn) return; // a newer analysis paints its own
    const fig = figures.shift();
    if (!fig) {
      section.removeAttribute('aria-busy');
      return;
    }
    const canvas = fig.querySelector('canvas');
    const ratio = dpr();
    sizeCanvas(canvas, ratio);
    try {
      const data = drawn[fig.dataset.chart];
      if (!data || data.error) throw new Error(data?.error ?? 'not computed');
      fig.querySelector('.chart-note').replaceChildren(...rich(paintChart(canvas, data.chart, ratio, theme()) ?? ''));
      fig.querySelector('.chart-error').textContent = '';
    } catch (e) {
      fig.querySelector('.chart-error').textContent = e.message;
    }
    requestAnimationFrame(paintNext);
  };
  paintNext();
}

/** Repaints every data panel's charts (a new size, pixel ratio or colour scheme). */
export function repaintDatasets() {
  for (const section of document.querySelectorAll('#datasets .dataset')) paintDatasetCharts(section);
}

/** Loads example `exampleId` of a data set ('' clears the choice); a newer choice wins over a late fetch. */
export async function loadExample(datasetId, exampleId) {
  const d = state.model.datasets.find((x) => x.id === datasetId);
  const x = d?.examples.find((e) => e.id === exampleId);
  const section = sectionOf(datasetId);
  state.data.example[datasetId] = x ? x.id : '';
  section.querySelector('.dataset-example').value = x ? x.id : '';
  writeHash();
  showLinkNote(datasetId);
  if (!x) return;
  try {
    const text = await exampleText(x.path);
    if (state.data.example[datasetId] !== x.id) return;
    setDatasetText(datasetId, text, true);
  } catch (e) {
    section.querySelector('.dataset-error').textContent = `Could not load the example: ${e.message}`;
  }
}

/** Sets a data set's text (a file, an example, a link's pasted data) and analyses it at once. */
export function setDatasetText(datasetId, text, fromExample = false) {
  const section = sectionOf(datasetId);
  state.data.text[datasetId] = text;
  section.querySelector('.dataset-text').value = text;
  if (!fromExample) {
    state.data.example[datasetId] = '';
    section.querySelector('.dataset-example').value = '';
  }
  writeHash();
  showLinkNote(datasetId);
  scheduleAnalyses(0);
}

/** Says whether the link holds the panel's data: an example or short pasted data do; longer pasted data do not. */
function showLinkNote(datasetId) {
  const text = state.data.text[datasetId] ?? '';
  const kept = state.data.example[datasetId] || !text.trim() || text.length <= MAX_LINKED_DATA;
  sectionOf(datasetId).querySelector('.dataset-privacy').textContent = kept
    ? 'Data stay in this page: nothing is uploaded. The link keeps an example, or pasted data up to 2 KB.'
    : `Data stay in this page: nothing is uploaded. These ${(text.length / 1024).toFixed(1)} KB are more than a link keeps (2 KB): a link restores the parameters without them, so share the file too.`;
}

/** Input, change or click in a data panel. True when the fitted coefficients went into the form. */
export function onDatasetEvent(event) {
  const section = event.target.closest('.dataset');
  if (!section) return false;
  const id = section.dataset.dataset;
  const t = event.target;
  if (t.classList.contains('dataset-text') && event.type === 'input') {
    state.data.text[id] = t.value;
    if (state.data.example[id]) {
      state.data.example[id] = '';
      section.querySelector('.dataset-example').value = '';
    }
    writeHash(); // short pasted data live in the link
    showLinkNote(id);
    scheduleAnalyses();
  } else if (t.classList.contains('dataset-example') && event.type === 'change') {
    loadExample(id, t.value);
  } else if (t.type === 'file' && event.type === 'change' && t.files?.[0]) {
    t.files[0].text().then((text) => setDatasetText(id, text));
  } else if (event.type === 'click' && t.closest('button')) {
    const a = state.data.analysis[id];
    if (!a) return false;
    const b = t.closest('button');
    if (b.classList.contains('use-fit')) {
      for (const [key, value] of a.suggest) state.values[key] = fieldText(value);
      fillForm();
      return true;
    }
    if (b.classList.contains('export-json')) {
      download(`isoperf-${state.model.id}-${id}.json`, 'application/json', JSON.stringify(a.result, null, 2));
    } else if (b.classList.contains('export-csv')) {
      download(`isoperf-${state.model.id}-${id}.csv`, 'text/csv', a.csv);
    }
  }
  return false;
}
