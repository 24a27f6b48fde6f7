// The iso-map panel: its controls (built from the registry's outputs,
// numeric parameters and map presets), its request (state.map), the map
// worker behind the shared "latest request wins" client, the painting of
// each result (once, by map.js), the hover readout and the PNG / CSV
// exports. The page marks `isoperf:map-painted` (performance.mark) after
// each paint, for the bench page.

import { $, download, dpr, el, plain, rich } from './dom.js';
import { state } from './state.js';
import { exportMap, exportPng, fieldText, formatNumber, fullReady, mapLayout } from './wasm.js';
import { GRIDS, paint, parseAxis, readout } from './map.js';
import { workerClient } from './worker-client.js';
import { writeHash } from './hash.js';
import { applyValues, changedValues } from './form.js';
import { mapAnswered } from './charts.js';
import { carried } from './carried.js';

const box = () => $('map');
/** Milliseconds a map computes before its progress bar shows. */
const PROGRESS_DELAY = 100;

function presetRequest(preset) {
  return { output: preset.output, x: preset.x, y: preset.y, levels: [...preset.levels], nx: preset.grid, ny: preset.grid };
}

/** The map preset that `r` is exactly (grid too when `withGrid`), if any. */
function presetOf(r, withGrid) {
  return state.model.maps.find((m) => m.output === r.output && m.x === r.x && m.y === r.y
    && m.levels.join() === r.levels.join() && (!withGrid || r.nx === m.grid));
}

export function buildMap(model, fromHash) {
  const panel = box();
  panel.hidden = model.maps.length === 0;
  if (panel.hidden) return;
  const params = model.params.filter((p) => p.kind === 'number');
  const axisControls = (name) => el('fieldset', { class: 'map-axis', 'data-axis': name },
    el('legend', { text: `${name.toUpperCase()} axis` }),
    el('select', { class: 'map-key', 'aria-label': `${name} parameter` }, params.map((p) => el('option', { value: p.key, text: plain(p.label) }))),
    el('input', { class: 'map-min', type: 'text', inputmode: 'decimal', 'aria-label': `${name} from` }),
    el('input', { class: 'map-max', type: 'text', inputmode: 'decimal', 'aria-label': `${name} to` }),
    el('label', { class: 'map-log' }, el('input', { type: 'checkbox', class: 'map-log-box' }), ' log'));
  panel.replaceChildren(
    el('h3', { text: 'Iso-map' }),
    el('p', { class: 'caption', text: 'Any output over any two parameters; the others come from the form. Computed off the page in a worker.' }),
    el('div', { class: 'map-controls' },
      el('label', {}, 'Map ', el('select', { class: 'map-preset' },
        el('option', { value: '', text: '— custom —' }),
        model.maps.map((m) => el('option', { value: m.id, text: m.label })))),
      el('label', {}, 'Output ', el('select', { class: 'map-output' },
        model.outputs.map((o) => el('option', { value: o.key, text: plain(o.label) })))),
      axisControls('x'),
      axisControls('y'),
      el('label', {}, 'Levels ', el('input', { class: 'map-levels', type: 'text', spellcheck: 'false' })),
      el('label', {}, 'Grid ', el('select', { class: 'map-grid' }, GRIDS.map((g) => el('option', { value: g, text: `${g} × ${g}` }))))),
    el('p', { class: 'map-note', role: 'status' }),
    el('p', { class: 'field-error map-error', role: 'alert' }),
    el('progress', { class: 'map-progress', max: 1, value: 0, hidden: true }),
    el('canvas', { class: 'map-canvas', role: 'img', 'aria-label': 'iso-map' }),
    el('p', { class: 'map-readout', role: 'status', text: 'Point at the map to read a value.' }),
    el('p', { class: 'map-legend' }, el('span', { class: 'map-gap-swatch' }), ` Blank (grey): ${model.gaps}.`),
    el('p', { class: 'map-scale-note' }),
    el('div', { class: 'map-actions' },
      el('button', { type: 'button', class: 'map-png', text: 'Export PNG' }),
      el('button', { type: 'button', class: 'map-svg', text: 'Export SVG' }),
      el('button', { type: 'button', class: 'map-csv', text: 'Export grid CSV' })));
  state.map.custom = Boolean(fromHash);
  state.map.request = fromHash ?? presetRequest(model.maps[0]);
  state.map.result = null;
  fillMapControls();
}

/** Back to the model's first map preset (Reset to defaults). */
export function resetMap() {
  if (!state.model.maps.length) return;
  state.map.request = presetRequest(state.model.maps[0]);
  state.map.custom = false;
  box().querySelector('.map-note').textContent = '';
  fillMapControls();
}

/** A map request from the hash that differs from the one shown: show it. */
export function setMapRequest(request) {
  if (!request || JSON.stringify(request) === JSON.stringify(state.map.request)) return;
  state.map.request = request;
  state.map.custom = true;
  fillMapControls();
}

function fillMapControls() {
  const panel = box();
  const r = state.map.request;
  panel.querySelector('.map-preset').value = presetOf(r, false)?.id ?? '';
  panel.querySelector('.map-output').value = r.output;
  for (const name of ['x', 'y']) {
    const a = parseAxis(r[name]);
    const f = panel.querySelector(`.map-axis[data-axis="${name}"]`);
    f.querySelector('.map-key').value = a.key;
    f.querySelector('.map-min').value = Number.isFinite(a.min) ? fieldText(a.min) : '';
    f.querySelector('.map-max').value = Number.isFinite(a.max) ? fieldText(a.max) : '';
    f.querySelector('.map-log-box').checked = a.log;
  }
  const levels = panel.querySelector('.map-levels');
  levels.value = r.levels.map(fieldText).join(', ');
  // A categorical output (the fastest algorithm) colours regions: it has no levels.
  const categorical = Boolean(state.model.outputs.find((o) => o.key === r.output)?.categories);
  levels.disabled = categorical;
  levels.title = categorical ? 'A map of categories colours its regions and draws their boundaries: no levels.' : '';
  panel.querySelector('.map-grid').value = String(r.nx);
}

function readMapControls() {
  const panel = box();
  const axis = (name) => {
    const f = panel.querySelector(`.map-axis[data-axis="${name}"]`);
    return `${f.querySelector('.map-key').value}:${f.querySelector('.map-min').value.trim()}:${f.querySelector('.map-max').value.trim()}${f.querySelector('.map-log-box').checked ? ':log' : ''}`;
  };
  const n = Number(panel.querySelector('.map-grid').value);
  const levels = panel.querySelector('.map-levels').value.split(/[,;\s]+/).filter(Boolean).map(Number);
  return { output: panel.querySelector('.map-output').value, x: axis('x'), y: axis('y'), levels, nx: n, ny: n };
}

/** The map as a file ('csv': its grid; 'svg': as drawn; 'png': the canvas), recording the model, its parameters, the version and the link. */
function exportAs(format) {
  const m = state.map.result;
  if (!m) return;
  const name = `isoperf-${state.model.id}-map.${format}`;
  const params = { ...state.values };
  if (format === 'png') {
    box().querySelector('.map-canvas').toBlob(async (blob) => {
      if (blob) download(name, 'image/png', exportPng(new Uint8Array(await blob.arrayBuffer()), state.model.id, params, location.href));
    });
    return;
  }
  const width = box().querySelector('.map-canvas').clientWidth || 640;
  download(name, format === 'svg' ? 'image/svg+xml' : 'text/csv', exportMap(m.request, m.values, width, format, state.model.id, params, location.href, m.low, m.high));
}

/**
 * A change or click in the panel. Returns true when a map preset put values
 * in the form (the caller then updates the page and calls `requestMap(0)`).
 */
export function onMapEvent(event) {
  const t = event.target;
  if (event.type === 'click') {
    for (const format of ['png', 'svg', 'csv']) if (t.classList.contains(`map-${format}`)) exportAs(format);
    return false;
  }
  if (t.classList.contains('map-preset')) {
    const preset = state.model.maps.find((m) => m.id === t.value);
    if (!preset) return false;
    state.map.request = presetRequest(preset);
    state.map.custom = preset !== state.model.maps[0];
    fillMapControls();
    // The map may need form values (e.g. the slide's V): they are applied as a preset would, and the panel says which changed.
    const changed = preset.values.length ? applyValues(preset.values) : '';
    box().querySelector('.map-note').replaceChildren(...(changed ? rich(`The map preset “${preset.label}” set the form: ${changed.replace(/^Changed /, '')} Reset to defaults restores them.`) : []));
    if (changed) return true;
  } else {
    state.map.request = readMapControls();
    state.map.custom = true;
    // The menu names a preset only while the map is exactly that preset.
    box().querySelector('.map-preset').value = presetOf(state.map.request, true)?.id ?? '';
  }
  writeHash();
  requestMap(0);
  return false;
}

/**
 * A map the user has not changed (the model's first preset) follows the
 * form's choices: the first preset whose two axes the choices use (a choice
 * that leaves a preset's axis unused would paint a flat map). Where none
 * does, the map says which parameters are in use.
 */
function followChoices() {
  if (state.map.custom) return;
  const inUse = (axis) => state.results?.fields?.[parseAxis(axis).key]?.active !== false;
  const fit = state.model.maps.find((p) => inUse(p.x) && inUse(p.y));
  if (!fit || presetOf(state.map.request, true) === fit) return;
  state.map.request = presetRequest(fit);
  fillMapControls();
}

/** Recomputes the map after `delay` ms (the user typing in the form), or at once (0). */
export function requestMap(delay = 40) {
  if (!fullReady() || !state.model.maps.length || !state.map.request) return;
  followChoices();
  clearTimeout(state.map.timer);
  if (delay) state.map.timer = setTimeout(sendMap, delay);
  else sendMap();
}

function sendMap() {
  const m = state.map;
  m.client ??= workerClient('map', { onProgress, onAnswer, onError });
  m.sent = { ...m.request };
  const progress = box().querySelector('.map-progress');
  progress.value = 0;
  // The bar shows only for a map that takes a while: a quick one moves nothing on the page.
  clearTimeout(m.progressTimer);
  m.progressTimer = setTimeout(() => { progress.hidden = false; }, PROGRESS_DELAY);
  m.client.send({ model: state.model.id, params: changedValues(), request: m.sent, carried: carried() });
}

function onProgress(data) {
  const panel = box();
  // Progress means the worker took the request: any message of a refused one is gone.
  state.map.invalid = false;
  panel.querySelector('.map-error').textContent = '';
  panel.querySelector('.map-progress').value = data.progress;
  panel.dataset.progress = String(data.progress);
}

function onAnswer(data) {
  const panel = box();
  clearTimeout(state.map.progressTimer);
  panel.querySelector('.map-progress').hidden = true;
  if (data.error) {
    // A refused request (an empty range): its message, and the map stale until fixed.
    state.map.invalid = true;
    panel.querySelector('.map-error').textContent = data.error;
    panel.querySelector('.map-canvas').classList.add('stale');
    mapAnswered();
    return;
  }
  state.map.invalid = false;
  panel.querySelector('.map-error').textContent = '';
  // Paint with the request that produced these values, not a newer one.
  const r = state.map.sent;
  state.map.result = { ...r, request: r, values: data.values, low: data.low ?? undefined, high: data.high ?? undefined, x: parseAxis(r.x), y: parseAxis(r.y) };
  paintMap();
  mapAnswered();
}

function onError(e) {
  box().querySelector('.map-error').textContent = `The map worker failed: ${e.message}`;
}

/** Paints the last result (again after a resize); nothing while the request is refused. */
export function paintMap() {
  const m = state.map.result;
  if (!m || state.map.invalid) return;
  const canvas = box().querySelector('.map-canvas');
  canvas.classList.remove('stale');
  const width = Math.round(canvas.clientWidth || 640);
  const layout = mapLayout(state.model.id, m.request, m.values, width, { ...state.values }, m.low, m.high);
  state.map.geometry = paint(canvas, layout, dpr());
  canvas.dataset.labels = state.map.geometry.labels.join('|');
  box().querySelector('.map-scale-note').textContent = [layout.scale?.note, layout.interval_note].filter(Boolean).join(' ');
  performance.clearMarks('isoperf:map-painted');
  performance.mark('isoperf:map-painted');
}

export function onMapHover(event) {
  const m = state.map.result;
  if (!m || !state.map.geometry) return;
  const rect = event.target.getBoundingClientRect();
  const r = readout(m, state.map.geometry, event.clientX - rect.left, event.clientY - rect.top);
  if (!r) return;
  const categories = state.model.outputs.find((o) => o.key === m.output)?.categories;
  const value = !Number.isFinite(r.value) ? `— (${state.model.gaps})` : categories ? plain(categories[r.value]?.label ?? '') : formatNumber(r.value, 4);
  // A calibrated model's map: the 95% interval of the value beside it.
  const interval = !categories && Number.isFinite(r.low) && Number.isFinite(r.high) ? ` (95%: ${formatNumber(r.low, 4)} … ${formatNumber(r.high, 4)})` : '';
  box().querySelector('.map-readout').textContent = `${m.x.key} = ${formatNumber(r.x, 4)}, ${m.y.key} = ${formatNumber(r.y, 4)}: ${m.output} = ${value}${interval}`;
}
