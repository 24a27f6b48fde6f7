// The data panels of a model's data sets (measured runs as CSV): pasted,
// loaded from a file or an example, analysed by Rust (analyze) after the
// user pauses typing, with tables, charts, "use the fitted coefficients"
// and CSV / JSON export (both written by Rust). Text, example and analysis
// live in state.data.

import { $, download, dpr, el, rich, sizeCanvas, theme } from './dom.js';
import { state } from './state.js';
import { exampleText } from './assets.js';
import { analyze, drawAnalysisChart, fieldText, fullReady } from './wasm.js';
import { chartFigure } from './charts.js';
import { tableCards } from './results.js';
import { writeHash } from './hash.js';
import { fillForm } from './form.js';

const sectionOf = (id) => document.querySelector(`#datasets .dataset[data-dataset="${CSS.escape(id)}"]`);

export function buildDatasets(model) {
  state.data.text = {};
  state.data.example = {};
  state.data.analysis = {};
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
        el('p', { class: 'dataset-privacy', text: 'Data stay in this page: nothing is uploaded.' })),
      el('div', { class: 'dataset-actions', hidden: true },
        el('button', { type: 'button', class: 'use-fit', text: 'Use the fitted coefficients in the model' }),
        el('button', { type: 'button', class: 'export-csv', text: 'Export CSV' }),
        el('button', { type: 'button', class: 'export-json', text: 'Export JSON' })),
      el('div', { class: 'dataset-tables tables' }),
      el('div', { class: 'dataset-charts charts', hidden: true }, d.charts.map(chartFigure)))));
}

/** Re-analyses every data set that has text, after `delay` ms (the user typing). */
export function scheduleAnalyses(delay = 120) {
  if (!fullReady()) return; // analysed once the full module is in (app.js)
  clearTimeout(state.data.timer);
  state.data.timer = setTimeout(runAnalyses, delay);
}

function runAnalyses() {
  const params = { ...state.values };
  for (const d of state.model.datasets) {
    const section = sectionOf(d.id);
    const text = state.data.text[d.id] ?? '';
    const error = section.querySelector('.dataset-error');
    const charts = section.querySelector('.dataset-charts');
    const actions = section.querySelector('.dataset-actions');
    const textarea = section.querySelector('.dataset-text');
    if (text.trim() === '') {
      error.textContent = '';
      section.querySelector('.dataset-tables').replaceChildren();
      charts.hidden = true;
      actions.hidden = true;
      state.data.analysis[d.id] = null;
      continue;
    }
    try {
      const a = analyze(state.model.id, d.id, text, params);
      state.data.analysis[d.id] = a;
      error.textContent = '';
      textarea.setAttribute('aria-invalid', 'false');
      section.querySelector('.dataset-tables').replaceChildren(...tableCards(a.tables));
      actions.hidden = false;
      actions.querySelector('.use-fit').hidden = a.suggest.length === 0;
      charts.hidden = false;
      drawDatasetCharts(d, section, text, params);
    } catch (e) {
      state.data.analysis[d.id] = null;
      error.textContent = e.message;
      textarea.setAttribute('aria-invalid', 'true');
      section.querySelector('.dataset-tables').replaceChildren();
      charts.hidden = true;
      actions.hidden = true;
    }
  }
}

function drawDatasetCharts(d, section, text, params) {
  const ratio = dpr();
  for (const fig of section.querySelectorAll('.dataset-charts .chart')) {
    const canvas = fig.querySelector('canvas');
    sizeCanvas(canvas, ratio);
    try {
      fig.querySelector('.chart-note').replaceChildren(...rich(drawAnalysisChart(canvas, state.model.id, d.id, text, params, fig.dataset.chart, ratio, theme()) ?? ''));
      fig.querySelector('.chart-error').textContent = '';
    } catch (e) {
      fig.querySelector('.chart-error').textContent = e.message;
    }
  }
}

/** Loads example `exampleId` of a data set ('' clears the choice); a newer choice wins over a late fetch. */
export async function loadExample(datasetId, exampleId) {
  const d = state.model.datasets.find((x) => x.id === datasetId);
  const x = d?.examples.find((e) => e.id === exampleId);
  const section = sectionOf(datasetId);
  state.data.example[datasetId] = x ? x.id : '';
  section.querySelector('.dataset-example').value = x ? x.id : '';
  writeHash();
  if (!x) return;
  try {
    const text = await exampleText(x.path);
    if (state.data.example[datasetId] !== x.id) return;
    setDatasetText(datasetId, text, true);
  } catch (e) {
    section.querySelector('.dataset-error').textContent = `Could not load the example: ${e.message}`;
  }
}

function setDatasetText(datasetId, text, fromExample = false) {
  const section = sectionOf(datasetId);
  state.data.text[datasetId] = text;
  section.querySelector('.dataset-text').value = text;
  if (!fromExample) {
    state.data.example[datasetId] = '';
    section.querySelector('.dataset-example').value = '';
    writeHash();
  }
  scheduleAnalyses(0);
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
      writeHash();
    }
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
