// Exports and data tables: every chart as PNG (at the device's resolution),
// SVG and CSV, with a data table under it on request; the results (outputs
// and tables) as CSV and JSON; each table as CSV. Rust writes every file
// (chartCsv, chartSvg, exportResults, exportPng) and records in it the
// model, its parameters, isoperf's version and the page's link. Loaded on
// the first click that needs it (the buttons are the page's own, in
// charts.js and results.js). Knows no model.

import { download, el, theme } from './dom.js';
import { state } from './state.js';
import { tableCards } from './results.js';
import { scenariosArg } from './scenarios.js';
import { sweepChart } from './sweeps.js';
import { carried } from './carried.js';
import { chartCsv, chartData, chartSvg, chartTable, exportPng, exportResults } from './wasm.js';

const link = () => location.href;
const slug = (text) => String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'chart';

/**
 * The chart in figure `fig` as data: a sweep's from its worker, a chart of a
 * long report from the worker's answer, otherwise computed from the form.
 * Returns {chart, params} or null when the figure shows nothing.
 */
function figureChart(fig) {
  if (fig.classList.contains('sweep')) return sweepChart(fig.dataset.sweep);
  const id = fig.dataset.chart;
  if (fig.closest('.calibration')) {
    // The calibration panel's charts: the data worker's answer, in the panel's order.
    const at = [...fig.parentElement.children].indexOf(fig);
    const chart = state.calibration.calibrated?.charts[at];
    return chart ? { chart, params: { ...state.values } } : null;
  }
  const dataset = fig.closest('.dataset')?.dataset.dataset;
  if (dataset) {
    // A data panel's chart: the data worker's answer.
    const drawn = state.data.charts[dataset]?.[id];
    return drawn?.chart ? { chart: drawn.chart, params: { ...state.values } } : null;
  }
  const long = state.long.charts?.[id];
  // A long report's charts come from its worker (computing them here would block the page).
  if (long?.error || (state.results?.deferred && !long)) return null;
  const params = { ...state.values };
  return { chart: long?.chart ?? chartData(state.model.id, id, params, scenariosArg(), carried()), params };
}

/** The figure's data table, rebuilt (when open) after the chart is drawn. */
export function refreshChartData(fig) {
  const box = fig.querySelector('.chart-data');
  if (!box || box.hidden) return;
  try {
    const found = figureChart(fig);
    box.replaceChildren(...(found ? tableCards([chartTable(found.chart)], { exportable: false }) : [el('p', { class: 'chart-error', text: 'No data: the chart is not drawn.' })]));
  } catch (e) {
    box.replaceChildren(el('p', { class: 'chart-error', text: `No data: ${e.message}` }));
  }
}

function exportFigure(fig, format) {
  const title = fig.querySelector('figcaption strong')?.textContent.replace(/\.\s*$/, '') ?? 'chart';
  const name = `isoperf-${state.model.id}-${slug(title)}`;
  const found = figureChart(fig);
  if (!found) return;
  const params = found.params;
  if (format === 'png') {
    fig.querySelector('canvas').toBlob(async (blob) => {
      if (!blob) return;
      const bytes = new Uint8Array(await blob.arrayBuffer());
      download(`${name}.png`, 'image/png', exportPng(bytes, state.model.id, params, link()));
    }, 'image/png');
    return;
  }
  if (format === 'csv') {
    download(`${name}.csv`, 'text/csv', chartCsv(found.chart, state.model.id, params, link()));
    return;
  }
  // SVG as the page shows it (its size, its colour scheme), text measured on the figure's canvas.
  const canvas = fig.querySelector('canvas');
  const w = Math.round(canvas.clientWidth || 800);
  download(`${name}.svg`, 'image/svg+xml', chartSvg(canvas, found.chart, state.model.id, params, link(), w, Math.round(w * 0.62), theme()));
}

/** A click in the charts: an export or the data table's toggle. */
export function onChartsClick(event) {
  const button = event.target.closest('button');
  const fig = button?.closest('figure.chart');
  if (!fig) return;
  try {
    if (button.classList.contains('chart-export')) exportFigure(fig, button.dataset.format);
    else if (button.classList.contains('chart-data-toggle')) {
      const box = fig.querySelector('.chart-data');
      box.hidden = !box.hidden;
      button.setAttribute('aria-expanded', String(!box.hidden));
      button.textContent = box.hidden ? 'Data table' : 'Hide data';
      refreshChartData(fig);
    }
  } catch (e) {
    fig.querySelector('.chart-error').textContent = `Not exported: ${e.message}`;
  }
}

/** The results as CSV or JSON (the outputs and tables the page shows). */
export function exportResultsAs(format) {
  const r = state.results;
  if (!r?.outputs) return;
  const text = exportResults({ outputs: r.outputs, tables: r.tables ?? [] }, format, state.model.id, { ...state.values }, link());
  download(`isoperf-${state.model.id}-results.${format}`, format === 'json' ? 'application/json' : 'text/csv', text);
}

/** One table (`data-table` id `id`) of the results as CSV. */
export function exportTable(id) {
  const t = state.results?.tables?.find((x) => x.id === id);
  if (!t) return;
  const text = exportResults({ outputs: null, tables: [t] }, 'csv', state.model.id, { ...state.values }, link());
  download(`isoperf-${state.model.id}-${slug(t.title)}.csv`, 'text/csv', text);
}
