// The model's charts: a figure per chart of the registry, drawn by Rust
// (drawChart) in the animation frame after an edit, one call per figure;
// after a long report, painted from the report worker's chart data
// (paintChart), and kept (dimmed) while that report is computing.
// A new size or pixel ratio also repaints the sweeps (sweeps.js) from the
// chart data they already have.

import { $, dpr, el, rich, sizeCanvas, theme } from './dom.js';
import { state } from './state.js';
import { drawChart, fullReady, paintChart } from './wasm.js';
import { drawSweepFigure, sweepFigure } from './sweeps.js';
import { scenariosArg } from './scenarios.js';
import { carried } from './carried.js';

/** The buttons under a chart (exports.js does what they ask) and the place for its data table. */
function chartTools(title) {
  return [
    el('div', { class: 'chart-tools', role: 'group', 'aria-label': `${title}: export and data` },
      el('button', { type: 'button', class: 'chart-data-toggle', 'aria-expanded': 'false', text: 'Data table' }),
      el('span', { class: 'chart-tools-label', text: 'Export' }),
      el('button', { type: 'button', class: 'chart-export', 'data-format': 'png', text: 'PNG', 'aria-label': `${title} as PNG` }),
      el('button', { type: 'button', class: 'chart-export', 'data-format': 'svg', text: 'SVG', 'aria-label': `${title} as SVG` }),
      el('button', { type: 'button', class: 'chart-export', 'data-format': 'csv', text: 'CSV', 'aria-label': `${title} data as CSV` })),
    el('div', { class: 'chart-data', hidden: true }),
  ];
}

/** After a figure is drawn: its data table again, when open (exports.js is in by then: the toggle loaded it). */
function refreshChartData(fig) {
  if (fig.querySelector('.chart-data')?.hidden === false) import('./exports.js').then((m) => m.refreshChartData(fig));
}

/** A chart's figure: canvas, error, note and caption. */
export function chartFigure(c) {
  return el('figure', { class: 'chart', 'data-chart': c.id },
    el('canvas', { role: 'img', 'aria-label': c.title }),
    el('p', { class: 'chart-error', role: 'status' }),
    el('p', { class: 'chart-note' }),
    el('figcaption', {}, el('strong', { text: c.title + '. ' }), rich(c.caption)),
    ...chartTools(c.title));
}

export function buildCharts(model) {
  $('charts').replaceChildren(...model.charts.map(chartFigure), ...model.sweeps.map((s) => {
    const fig = sweepFigure(s);
    fig.append(...chartTools(s.title));
    return fig;
  }));
  state.sweeps.charts = {};
  state.sweeps.pinned = {};
}

/**
 * Draws the charts in the next frame; `resized` redraws the sweeps too.
 * `afterMap` (a map preset that changed the form) waits for the map first:
 * the charts are drawn in the frame after the map is painted (or after
 * MAP_WAIT ms, whichever comes first), so they do not hold the map back.
 */
export function scheduleCharts({ resized = false, afterMap = false } = {}) {
  if (!fullReady()) return; // drawn once the full module is in (app.js)
  const c = state.charts;
  c.all ||= resized;
  cancelAnimationFrame(c.frame);
  clearTimeout(c.wait);
  c.afterMap = afterMap;
  if (afterMap) c.wait = setTimeout(scheduleCharts, MAP_WAIT);
  else c.frame = requestAnimationFrame(drawCharts);
}

/** The map worker answered: charts waiting for it are drawn in the frame after the next. */
export function mapAnswered() {
  if (!state.charts.afterMap) return;
  clearTimeout(state.charts.wait);
  state.charts.afterMap = false;
  state.charts.frame = requestAnimationFrame(() => { state.charts.frame = requestAnimationFrame(drawCharts); });
}

/** Milliseconds the charts wait for a map (a slow map does not hold them longer). */
const MAP_WAIT = 250;

function drawCharts() {
  const ratio = dpr();
  if (state.charts.all) for (const fig of document.querySelectorAll('#charts .sweep')) drawSweepFigure(fig, ratio);
  state.charts.all = false;
  const params = { ...state.values };
  const computing = state.results?.deferred && !state.blocked;
  for (const fig of document.querySelectorAll('#charts .chart[data-chart]')) {
    const canvas = fig.querySelector('canvas');
    const error = fig.querySelector('.chart-error');
    if (computing) {
      // The last drawing, dimmed, until the report worker answers.
      fig.classList.add('stale');
      error.textContent = '';
      fig.querySelector('.chart-note').textContent = state.long.stopped ? 'Stopped.' : 'Computing…';
      continue;
    }
    sizeCanvas(canvas, ratio);
    const data = state.long.charts?.[fig.dataset.chart];
    // Charts that need only valid fields still draw while a result is blocked.
    try {
      if (data?.error) throw new Error(data.error);
      const note = data ? paintChart(canvas, data.chart, ratio, theme()) : drawChart(canvas, state.model.id, fig.dataset.chart, params, ratio, theme(), scenariosArg(), carried());
      fig.querySelector('.chart-note').replaceChildren(...rich(note ?? ''));
      error.textContent = '';
      fig.classList.remove('stale');
      refreshChartData(fig);
    } catch (e) {
      error.textContent = state.blocked ? `Not drawn: ${state.blocked}` : e.message;
      fig.querySelector('.chart-note').textContent = '';
      fig.classList.add('stale');
    }
  }
}
