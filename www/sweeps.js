// Sweeps: curves of many evaluations, computed in sweep-worker.js through
// the shared "latest request wins" client, with a progress bar per figure.
// The worker answers with each sweep's chart as data; the page only paints
// it (paintChart), with pinned scenarios' charts joined behind it
// (overlayScenarios), when it arrives and when its canvas changes size.

import { dpr, el, rich, sizeCanvas, theme } from './dom.js';
import { state } from './state.js';
import { fullReady, overlayScenarios, paintChart } from './wasm.js';
import { workerClient } from './worker-client.js';
import { changedValues } from './form.js';
import { carried } from './carried.js';

const figureOf = (id) => document.querySelector(`#charts .sweep[data-sweep="${CSS.escape(id)}"]`);

export function sweepFigure(s) {
  return el('figure', { class: 'chart sweep', 'data-sweep': s.id },
    el('canvas', { role: 'img', 'aria-label': s.title }),
    el('progress', { class: 'sweep-progress', max: 1, value: 0, hidden: true, 'aria-label': `Computing ${s.title}` }),
    el('p', { class: 'chart-error', role: 'status' }),
    el('p', { class: 'chart-note' }),
    el('figcaption', {}, el('strong', { text: s.title + '. ' }),
      `${s.values.length} curves of ${s.points} points each, computed off the page in a worker. `, ...rich(s.caption)));
}

/** Recomputes the sweeps for the form, once the user pauses typing. */
export function requestSweeps() {
  if (!fullReady() || !state.model.sweeps.length) return;
  clearTimeout(state.sweeps.timer);
  state.sweeps.timer = setTimeout(sendSweeps, 60);
}

/** A pinned scenario's key for its cached sweep curves: its parameters. */
const keyOf = (scenario) => JSON.stringify(scenario.values);

/** Pinned scenarios whose sweeps are drawn (quick to evaluate), with the sweeps not computed for them yet. */
function missingScenarioSweeps() {
  return state.scenarios.filter((x) => x.report?.outputs && !x.report.deferred).map((x) => {
    const have = state.sweeps.pinned[keyOf(x)] ?? {};
    return { key: keyOf(x), params: x.values, sweeps: state.model.sweeps.map((w) => w.id).filter((id) => !have[id]) };
  }).filter((x) => x.sweeps.length);
}

/**
 * Sweep `id` as chart data, with each pinned scenario whose chart is in
 * drawn behind it: {chart, params}, or null before its first answer.
 */
export function sweepChart(id) {
  const done = state.sweeps.charts[id];
  if (!done) return null;
  const pinned = state.scenarios.flatMap((x) => {
    const have = state.sweeps.pinned[keyOf(x)];
    return have && id in have ? [{ name: x.name, chart: have[id] }] : [];
  });
  return { chart: pinned.length ? overlayScenarios(done.chart, pinned) : done.chart, params: done.params };
}

function sendSweeps() {
  const s = state.sweeps;
  s.client ??= workerClient('sweep', { onProgress, onAnswer, onError });
  s.sent = changedValues();
  for (const fig of document.querySelectorAll('#charts .sweep')) {
    const progress = fig.querySelector('.sweep-progress');
    progress.value = 0;
    progress.hidden = false;
    fig.dataset.state = 'computing';
  }
  s.client.send({ model: state.model.id, params: s.sent, sweeps: state.model.sweeps.map((x) => x.id), scenarios: missingScenarioSweeps(), carried: carried() });
}

function onProgress(data) {
  const fig = figureOf(data.sweep);
  if (fig) fig.querySelector('.sweep-progress').value = data.progress;
}

function onAnswer(data) {
  const fig = figureOf(data.sweep);
  if (!fig) return;
  if (data.scenario !== undefined) {
    // A pinned scenario's chart: kept (its parameters do not change) and drawn behind.
    if (data.done) {
      (state.sweeps.pinned[data.scenario] ??= {})[data.sweep] = data.chart;
      drawSweepFigure(fig, dpr());
    }
    return;
  }
  fig.querySelector('.sweep-progress').hidden = true;
  if (data.error) {
    delete state.sweeps.charts[data.sweep];
    fig.dataset.state = 'error';
    fig.querySelector('.chart-error').textContent = `Not drawn: ${data.error}`;
    fig.querySelector('.chart-note').textContent = '';
    fig.classList.add('stale');
  } else if (data.done) {
    state.sweeps.charts[data.sweep] = { params: state.sweeps.sent, chart: data.chart };
    drawSweepFigure(fig, dpr());
  }
}

function onError(e) {
  for (const fig of document.querySelectorAll('#charts .sweep')) fig.querySelector('.chart-error').textContent = `The sweep worker failed: ${e.message}`;
}

/** Paints a sweep from the chart it has (none yet: nothing to paint). */
export function drawSweepFigure(fig, ratio) {
  if (!state.sweeps.charts[fig.dataset.sweep]) return;
  const canvas = fig.querySelector('canvas');
  sizeCanvas(canvas, ratio);
  try {
    fig.querySelector('.chart-note').replaceChildren(...rich(paintChart(canvas, sweepChart(fig.dataset.sweep).chart, ratio, theme()) ?? ''));
    fig.querySelector('.chart-error').textContent = '';
    fig.classList.remove('stale');
    fig.dataset.state = 'done';
    if (fig.querySelector('.chart-data')?.hidden === false) import('./exports.js').then((m) => m.refreshChartData(fig));
  } catch (e) {
    fig.querySelector('.chart-error').textContent = e.message;
    fig.classList.add('stale');
    fig.dataset.state = 'error';
  }
}
