// The page: forms, outputs, charts and tables generated from the model
// registry that the wasm package exports. This file knows no model and no
// parameter by name; everything it shows comes from `models()`.

import init, { models, evaluate, check, tables, remarks, drawChart, drawSweep, analyze, drawAnalysisChart, isoMap } from '../pkg/isoperf.js';
import { GRIDS, axisText, paint, parseAxis, readout } from './map.js';

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// ---- numbers ---------------------------------------------------------------

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** Four significant figures; × 10ⁿ notation far from 1. Never prints NaN. */
export function formatNumber(x, digits = 4) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  if (Number.isInteger(x) && Math.abs(x) < 1e7) return String(x);
  // The decade after rounding, so 999999.9 becomes 1.000 × 10⁶, not 1000000.
  const decade = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(digits)))));
  if (decade >= -3 && decade < digits) return x.toPrecision(digits);
  const [mant, exp] = x.toExponential(digits - 1).split('e');
  const e = String(Number(exp)).replace(/./g, (c) => SUPERSCRIPT[c] ?? c);
  return `${mant} × 10${e}`;
}

/** The text a number field shows for a value: exact, and the shorter of 1e13 and 10000000000000. */
function fieldText(x) {
  const plain = String(x);
  const a = Math.abs(x);
  if (a === 0 || (a >= 1e-4 && a < 1e6)) return plain;
  const sci = x.toExponential().replace('e+', 'e');
  return sci.length < plain.length ? sci : plain;
}

// ---- state -------------------------------------------------------------------

const registry = { models: [], byId: new Map() };
const state = { model: null, values: {} }; // values: key -> text as typed (or choice value)

/** The items of a list parameter's text ("1, 2 3;4"), as Rust splits them. */
function listItems(text) {
  const t = String(text).trim();
  if (/[,;]/.test(t)) return t.split(/[,;]/).map((x) => x.trim()); // empty items stay in place
  return t.split(/\s+/).filter((x) => x !== '');
}
const listText = (items) => items.join(', ');

function defaultsOf(model) {
  const v = {};
  for (const p of model.params) {
    v[p.key] = p.kind === 'choice' ? p.default
      : p.kind === 'list' ? listText(p.default.map(fieldText))
      : p.fallback ? '' // empty: takes the value of p.fallback
      : fieldText(p.default);
  }
  return v;
}

/** Decimal notation only, as Rust parses it: "0x19" is not 25. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function isDefault(p, text) {
  if (p.kind === 'choice') return text === p.default;
  if (p.fallback) return String(text).trim() === '';
  if (p.kind === 'list') {
    const items = listItems(text);
    return items.length === p.default.length && items.every((t, i) => DECIMAL.test(t) && Number(t) === p.default[i]);
  }
  const t = String(text).trim();
  return DECIMAL.test(t) && Number(t) === p.default;
}

function readHash() {
  const h = new URLSearchParams(location.hash.replace(/^#/, ''));
  const model = registry.byId.get(h.get('model')) ?? registry.models[0];
  const values = defaultsOf(model);
  for (const p of model.params) if (h.has(p.key)) values[p.key] = h.get(p.key);
  const examples = {};
  for (const d of model.datasets) if (h.has(`data.${d.id}`)) examples[d.id] = h.get(`data.${d.id}`);
  const grid = Number(h.get('map.grid') ?? model.maps[0]?.grid ?? 256);
  const map = h.has('map.x')
    ? { output: h.get('map.output') ?? model.maps[0]?.output ?? '', x: h.get('map.x'), y: h.get('map.y') ?? '', levels: (h.get('map.levels') ?? '').split(',').filter(Boolean).map(Number), nx: grid, ny: grid }
    : null;
  return { model, values, examples, map };
}

function writeHash() {
  const h = new URLSearchParams();
  h.set('model', state.model.id);
  for (const p of state.model.params) {
    const v = state.values[p.key];
    if (!isDefault(p, v)) h.set(p.key, v);
  }
  for (const [id, example] of Object.entries(data.example)) if (example) h.set(`data.${id}`, example);
  if (iso.custom && iso.request) {
    h.set('map.output', iso.request.output);
    h.set('map.x', iso.request.x);
    h.set('map.y', iso.request.y);
    h.set('map.levels', iso.request.levels.map(fieldText).join(','));
    h.set('map.grid', String(iso.request.nx));
  }
  const hash = '#' + h.toString();
  if (hash !== location.hash) history.replaceState(null, '', hash);
}

/** Parameters as `evaluate` takes them: the typed text, validated in Rust. */
const params = () => ({ ...state.values });

// ---- building the page from the registry --------------------------------------

function buildTabs() {
  const nav = $('model-tabs');
  nav.replaceChildren(
    ...registry.models.map((m) =>
      el('a', { href: `#model=${m.id}`, class: 'tab', 'data-model': m.id, title: m.paper, text: m.title }),
    ),
  );
}

function buildPresets(model) {
  const select = $('preset');
  select.replaceChildren(el('option', { value: '', text: '— choose values from the paper —' }));
  for (const g of model.preset_groups) {
    select.append(el('optgroup', { label: g.label }, g.presets.map((p) => el('option', { value: p.id, text: p.label }))));
  }
  $('preset-note').textContent = '';
}

function optionLabels(model, when) {
  const p = model.params.find((q) => q.key === when.key);
  return when.values.map((v) => p?.options.find((o) => o.value === v)?.label.split(' (')[0] ?? v).join(', ');
}

/** Lists of one group are edited as the columns of one table, a row per item. */
const LIST_TABLE_ROWS = 64;

function buildListGroup(model, group) {
  const members = model.params.filter((p) => p.kind === 'list' && p.group === group);
  const field = el('div', { class: 'field list-field', 'data-key': members[0].key, 'data-group': group });
  field.append(
    el('div', { class: 'list-head' }, el('span', { class: 'label-text', text: `Per-${group.replace(/s$/, '')} values` }), el('span', { class: 'list-count unit' })),
    el('div', { class: 'list-body' }),
    el('button', { type: 'button', class: 'list-add', 'data-group': group, text: '+ add a row' }),
    ...members.map((p) => el('p', { class: 'help', id: `f-${p.key}-help` }, el('strong', { text: `${p.label}: ` }), p.help)),
    ...members.map((p) => el('p', { class: 'field-error', id: `f-${p.key}-error`, 'data-error-for': p.key, role: 'alert' })),
  );
  return field;
}

/** Fills a list group from state: a table of inputs, or text areas when long. */
function fillListGroup(field) {
  const members = state.model.params.filter((p) => p.kind === 'list' && p.group === field.dataset.group);
  const columns = members.map((p) => listItems(state.values[p.key]));
  const rows = Math.max(...columns.map((c) => c.length));
  field.querySelector('.list-count').textContent = `${rows} ${rows === 1 ? 'row' : 'rows'}`;
  const body = field.querySelector('.list-body');
  field.querySelector('.list-add').hidden = rows > LIST_TABLE_ROWS;
  if (rows > LIST_TABLE_ROWS) {
    body.replaceChildren(...members.map((p) => el('label', { class: 'list-text' }, el('span', { text: `${p.label} (${p.unit})` }),
      el('textarea', { id: `f-${p.key}`, 'data-key': p.key, rows: 3, spellcheck: 'false' }))));
    for (const p of members) body.querySelector(`#f-${CSS.escape(p.key)}`).value = state.values[p.key];
    return;
  }
  body.replaceChildren(el('table', { class: 'list-table' },
    el('thead', {}, el('tr', {}, el('th', { text: '#' }), members.map((p) => el('th', {}, p.label, el('span', { class: 'unit', text: ` ${p.unit}` }))), el('th'))),
    el('tbody', {}, Array.from({ length: rows }, (_, i) => el('tr', {},
      el('th', { scope: 'row', text: String(i + 1) }),
      members.map((p, c) => el('td', {}, el('input', {
        type: 'text', inputmode: 'decimal', spellcheck: 'false', 'aria-label': `${p.label} of row ${i + 1}`,
        'data-list': p.key, 'data-row': i, value: columns[c][i] ?? '',
      }))),
      el('td', {}, el('button', { type: 'button', class: 'list-remove', 'data-group': field.dataset.group, 'data-row': i, 'aria-label': `remove row ${i + 1}`, text: '×', disabled: rows <= 1 })))))));
}

/** Applies `change(columns)` to every list of a group, then refreshes. */
function editListGroup(group, change) {
  const members = state.model.params.filter((p) => p.kind === 'list' && p.group === group);
  const columns = members.map((p) => listItems(state.values[p.key]));
  change(columns);
  members.forEach((p, c) => { state.values[p.key] = listText(columns[c]); });
  fillListGroup(document.querySelector(`.list-field[data-group="${CSS.escape(group)}"]`));
  $('preset').value = '';
  update();
}

function onListClick(event) {
  const button = event.target.closest('button');
  if (!button) return;
  if (button.classList.contains('list-add')) {
    editListGroup(button.dataset.group, (cols) => cols.forEach((c) => c.push(c.at(-1) ?? '1')));
  } else if (button.classList.contains('list-remove')) {
    const row = Number(button.dataset.row);
    editListGroup(button.dataset.group, (cols) => cols.forEach((c) => c.splice(row, 1)));
  }
}

function buildForm(model) {
  const form = $('form');
  form.replaceChildren();
  const groups = new Set();
  const unitChoices = new Set(model.params.map((p) => p.unit_from).filter(Boolean));
  for (const p of model.params) {
    if (unitChoices.has(p.key)) continue; // drawn inside the number it qualifies
    if (p.kind === 'list') {
      if (!groups.has(p.group)) form.append(buildListGroup(model, p.group));
      groups.add(p.group);
      continue;
    }
    const id = `f-${p.key}`;
    const errorId = `${id}-error`;
    const helpId = `${id}-help`;
    const field = el('div', { class: 'field', 'data-key': p.key });
    const unit = p.unit ? el('span', { class: 'unit', text: p.unit }) : null;
    if (p.kind === 'choice' && p.options.length > 4) {
      field.append(
        el('label', { for: id }, el('span', { class: 'label-text', text: p.label })),
        el('select', { id, name: p.key, 'data-key': p.key, 'aria-describedby': `${helpId} ${errorId}` },
          p.options.map((o) => el('option', { value: o.value, text: o.label }))),
      );
    } else if (p.kind === 'choice') {
      const group = el('fieldset', { class: 'choice', 'aria-describedby': `${helpId} ${errorId}` },
        el('legend', {}, p.label),
        p.options.map((o) =>
          el('label', { class: 'choice-option' },
            el('input', { type: 'radio', name: p.key, value: o.value, 'data-key': p.key }),
            el('span', { text: o.label }))));
      field.append(group);
    } else {
      const fallback = p.fallback && model.params.find((q) => q.key === p.fallback);
      const input = el('input', {
        id, name: p.key, 'data-key': p.key, type: 'text', inputmode: 'decimal', spellcheck: 'false',
        autocomplete: 'off', 'aria-describedby': `${helpId} ${errorId}`,
        placeholder: fallback ? `= ${fallback.label}` : null,
      });
      const unitChoice = p.unit_from && model.params.find((q) => q.key === p.unit_from);
      const control = unitChoice
        ? el('div', { class: 'with-unit' }, input,
          el('select', { id: `f-${unitChoice.key}`, name: unitChoice.key, 'data-key': unitChoice.key, 'aria-label': unitChoice.label, title: unitChoice.help },
            unitChoice.options.map((o) => el('option', { value: o.value, text: o.label }))))
        : input;
      field.append(
        el('label', { for: id }, el('span', { class: 'label-text', text: p.label }), unitChoice ? null : unit),
        control,
        el('div', { class: 'hint', id: `${id}-hint` }),
      );
    }
    field.append(
      el('p', { class: 'help', id: helpId }, p.help, p.reference ? el('span', { class: 'ref', text: ` (${p.reference})` }) : null),
      el('p', { class: 'field-error', id: errorId, role: 'alert' }),
    );
    // A unit menu's own errors (a bad unit in a link) show in the field it sits in.
    const unitChoice = p.unit_from && model.params.find((q) => q.key === p.unit_from);
    if (unitChoice) field.append(el('p', { class: 'field-error', id: `f-${unitChoice.key}-error`, 'data-error-for': unitChoice.key, role: 'alert' }));
    form.append(field);
  }
}

function fillForm() {
  const form = $('form');
  for (const f of form.querySelectorAll('.list-field')) fillListGroup(f);
  for (const p of state.model.params) {
    const v = state.values[p.key];
    if (p.kind === 'list') continue;
    const select = form.querySelector(`select#f-${CSS.escape(p.key)}`);
    if (select) {
      select.value = v;
    } else if (p.kind === 'choice') {
      for (const r of form.querySelectorAll(`input[name="${CSS.escape(p.key)}"]`)) r.checked = r.value === v;
    } else {
      const input = form.querySelector(`#f-${CSS.escape(p.key)}`);
      if (input.value !== v) input.value = v;
    }
  }
}

function buildCharts(model) {
  const box = $('charts');
  box.replaceChildren(
    ...model.charts.map((c) =>
      el('figure', { class: 'chart', 'data-chart': c.id },
        el('canvas', { role: 'img', 'aria-label': c.title }),
        el('p', { class: 'chart-error', role: 'status' }),
        el('p', { class: 'chart-note' }),
        el('figcaption', {}, el('strong', { text: c.title + '. ' }), c.caption))),
    ...model.sweeps.map((s) =>
      el('figure', { class: 'chart sweep', 'data-sweep': s.id },
        el('canvas', { role: 'img', 'aria-label': s.title }),
        el('progress', { class: 'sweep-progress', max: 1, value: 0, hidden: true, 'aria-label': `Computing ${s.title}` }),
        el('p', { class: 'chart-error', role: 'status' }),
        el('p', { class: 'chart-note' }),
        el('figcaption', {}, el('strong', { text: s.title + '. ' }),
          `${s.values.length} curves of ${s.points} points each, computed off the page in a worker. ${s.caption}`))),
  );
  sweeps.curves = {};
}

// ---- sweeps: curves of many evaluations, computed in a worker ----------------------

const sweeps = { worker: null, id: 0, timer: 0, curves: {}, sent: null };

function requestSweeps() {
  if (!state.model.sweeps.length) return;
  clearTimeout(sweeps.timer);
  sweeps.timer = setTimeout(sendSweeps, 60);
}

function sendSweeps() {
  sweeps.worker ??= startSweepWorker();
  sweeps.id += 1;
  sweeps.sent = params();
  for (const fig of document.querySelectorAll('#charts .sweep')) {
    const progress = fig.querySelector('.sweep-progress');
    progress.value = 0;
    progress.hidden = false;
    fig.dataset.state = 'computing';
  }
  sweeps.worker.postMessage({ id: sweeps.id, model: state.model.id, params: sweeps.sent, sweeps: state.model.sweeps.map((s) => s.id) });
}

function startSweepWorker() {
  const worker = new Worker(new URL('./sweep-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.id !== sweeps.id) return; // an older request
    const fig = document.querySelector(`#charts .sweep[data-sweep="${CSS.escape(data.sweep)}"]`);
    if (!fig) return;
    const progress = fig.querySelector('.sweep-progress');
    if ('progress' in data) {
      progress.value = data.progress;
    } else if (data.error) {
      progress.hidden = true;
      delete sweeps.curves[data.sweep];
      fig.dataset.state = 'error';
      fig.querySelector('.chart-error').textContent = `Not drawn: ${data.error}`;
      fig.querySelector('.chart-note').textContent = '';
      fig.classList.add('stale');
    } else if (data.done) {
      progress.hidden = true;
      sweeps.curves[data.sweep] = { params: sweeps.sent, curves: data.curves };
      drawSweepFigure(fig, window.devicePixelRatio || 1);
    }
  };
  worker.onerror = (e) => {
    for (const fig of document.querySelectorAll('#charts .sweep')) fig.querySelector('.chart-error').textContent = `The sweep worker failed: ${e.message}`;
  };
  return worker;
}

function drawSweepFigure(fig, dpr) {
  const done = sweeps.curves[fig.dataset.sweep];
  if (!done) return;
  const canvas = fig.querySelector('canvas');
  sizeCanvas(canvas, dpr);
  try {
    fig.querySelector('.chart-note').textContent = drawSweep(canvas, state.model.id, fig.dataset.sweep, done.params, done.curves, dpr) ?? '';
    fig.querySelector('.chart-error').textContent = '';
    fig.classList.remove('stale');
    fig.dataset.state = 'done';
  } catch (e) {
    fig.querySelector('.chart-error').textContent = e.message;
    fig.classList.add('stale');
    fig.dataset.state = 'error';
  }
}

function showModel(model) {
  state.model = model;
  document.title = `isoperf — ${model.title}`;
  $('model-title').textContent = model.title;
  $('model-paper').textContent = model.paper;
  $('model-summary').textContent = model.summary;
  $('notes').replaceChildren(...model.notes.map((n) => el('li', { text: n })));
  for (const t of document.querySelectorAll('.tab')) t.setAttribute('aria-current', t.dataset.model === model.id ? 'page' : 'false');
  buildPresets(model);
  buildForm(model);
  buildCharts(model);
  buildDatasets(model);
}

// ---- updating ------------------------------------------------------------------

function onEdit(event) {
  const list = event.target?.dataset?.list;
  if (list) {
    const cells = [...document.querySelectorAll(`#form input[data-list="${CSS.escape(list)}"]`)];
    state.values[list] = cells.map((c) => c.value.trim()).join(', ');
  } else {
    const key = event.target?.dataset?.key;
    if (!key) return;
    state.values[key] = event.target.value;
  }
  $('preset').value = '';
  $('preset-note').textContent = '';
  update();
}

/** A preset's value as the form holds it: numbers exact, lists comma-separated. */
function presetText(value) {
  if (typeof value === 'number') return fieldText(value);
  return Array.isArray(value) ? listText(value.map(fieldText)) : value;
}

function applyPreset(id) {
  const preset = state.model.preset_groups.flatMap((g) => g.presets).find((p) => p.id === id);
  if (!preset) return;
  for (const [key, value] of preset.values) {
    state.values[key] = presetText(value);
  }
  $('preset-note').textContent = `${preset.source}. ${preset.note}`;
  fillForm();
  update();
}

function showFieldErrors(problems) {
  const byKey = new Map(problems.map((p) => [p.key, p.message]));
  for (const field of document.querySelectorAll('#form .field')) {
    let bad = false;
    for (const err of field.querySelectorAll('.field-error')) {
      const key = err.dataset.errorFor ?? field.dataset.key;
      err.textContent = byKey.get(key) ?? '';
      bad ||= err.textContent !== '';
    }
    field.classList.toggle('invalid', bad);
    for (const input of field.querySelectorAll('input, textarea')) input.setAttribute('aria-invalid', bad ? 'true' : 'false');
  }
  const unplaced = problems.filter((p) => !state.model.params.some((q) => q.key === p.key));
  return unplaced.map((p) => p.message);
}

function updateApplicability() {
  for (const p of state.model.params) {
    const field = document.querySelector(`#form .field[data-key="${CSS.escape(p.key)}"]`);
    if (!field) continue; // a list of a group whose first list stands for it
    const when = p.applies_when;
    const applies = !when || when.values.includes(state.values[when.key]);
    field.classList.toggle('inapplicable', !applies);
    const hint = field.querySelector('.hint');
    if (hint && when) hint.dataset.applies = applies ? '' : `not used: applies to ${optionLabels(state.model, when)} only`;
  }
}

function updateHints() {
  for (const p of state.model.params) {
    if (p.kind !== 'number') continue;
    const hint = document.querySelector(`#f-${CSS.escape(p.key)}-hint`);
    const x = Number(String(state.values[p.key]).trim());
    let text = '';
    if (p.reciprocal_unit && x > 0 && Number.isFinite(1 / x)) text = `= ${formatNumber(1 / x)} ${p.reciprocal_unit}`;
    const unitChoice = p.unit_from && state.model.params.find((q) => q.key === p.unit_from);
    const factor = unitChoice?.options.find((o) => o.value === state.values[unitChoice.key])?.factor;
    if (factor && Number.isFinite(x * factor) && String(state.values[p.key]).trim() !== '') {
      text = `= ${formatBase(x * factor)} ${p.unit}`;
    }
    const applies = hint.dataset.applies;
    hint.textContent = [text, applies].filter(Boolean).join(' · ');
  }
}

const DURATIONS = [[365.25 * 86400, 'years'], [86400, 'days'], [3600, 'h'], [60, 'min']];

/** "≈ 1.6 h" for a time in seconds long enough to be hard to read in s. */
function humanDuration(seconds) {
  if (typeof seconds !== 'number' || !(seconds >= 120)) return '';
  const [size, unit] = DURATIONS.find(([size]) => seconds >= 2 * size) ?? DURATIONS[DURATIONS.length - 1];
  return `≈ ${formatNumber(seconds / size, 3)} ${unit}`;
}

/** A value in base units: six figures, without trailing zeros (1.28 × 10⁹, 23720). */
export function formatBase(x) {
  return formatNumber(x, 6).replace(/(\.\d*?)0+(?= ×|$)/, '$1').replace(/\.(?= ×|$)/, '');
}

/** A few items of a long vector and its length. */
function formatArray(xs) {
  const items = xs.length <= 6 ? xs.map((x) => formatNumber(x)) : [...xs.slice(0, 3).map((x) => formatNumber(x)), '…', formatNumber(xs.at(-1))];
  return `${items.join(', ')}${xs.length > 6 ? ` (${xs.length} values)` : ''}`;
}

/** Sentences about the result: warnings on top and at their field, the rest at their output. */
function renderRemarks(list) {
  $('remarks').replaceChildren(...list.filter((r) => r.level === 'warning').map((r) => el('p', { class: 'remark-warning', text: r.text })));
  for (const w of document.querySelectorAll('#form .field-warning, #form .field-note')) w.remove();
  for (const r of list) {
    const card = r.key && document.querySelector(`#outputs .output[data-output="${CSS.escape(r.key)}"] .output-remark`);
    if (card) card.textContent = r.text;
    // A remark about an input shows at its field (an info remark in the muted style).
    const field = r.key && !card && document.querySelector(`#form .field[data-key="${CSS.escape(r.key)}"]`);
    if (field) field.append(el('p', { class: r.level === 'warning' ? 'field-warning' : 'field-note', role: 'status', text: r.text }));
  }
}

function renderOutputs(out) {
  const box = $('outputs');
  box.replaceChildren(
    ...state.model.outputs.map((o) => {
      const v = out?.[o.key];
      const shown = Array.isArray(v) ? formatArray(v) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : formatNumber(v);
      return el('div', { class: 'output', 'data-output': o.key, title: o.help },
        el('span', { class: 'output-label', text: o.label }),
        el('span', { class: 'output-value' }, el('output', { text: shown }), o.unit && v !== null && v !== undefined ? el('span', { class: 'unit', text: ' ' + o.unit }) : null),
        o.unit === 's' && out ? el('span', { class: 'output-human', text: humanDuration(v) }) : null,
        el('span', { class: 'output-remark' }),
        el('span', { class: 'output-help', text: o.help }));
    }),
  );
}

/** Table cards for `list`, as rendered in #tables and under each data set. */
function tableCards(list) {
  return list.map((t) =>
      el('section', { class: 'table-card', 'data-table': t.id },
        el('h3', { text: t.title }),
        el('p', { class: 'caption', text: t.caption }),
        el('div', { class: 'table-scroll' },
          el('table', {},
            el('thead', {}, el('tr', {}, t.columns.map((c) => el('th', { scope: 'col', text: c })))),
            el('tbody', {}, t.rows.flatMap((r) => [
              el('tr', { class: `row-${r.status}` }, r.cells.map((c, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row', text: c } : { text: c }))),
              r.remark ? el('tr', { class: 'remark' }, el('td', { colspan: t.columns.length, text: r.remark })) : null,
            ])))),
        t.notes.map((n) => el('p', { class: 'table-note', text: n }))));
}

function renderTables(list) {
  $('tables').replaceChildren(...tableCards(list));
}

// ---- iso-maps -------------------------------------------------------------------

/** The map shown: its request, whether the user changed it from the model's first preset, and the last result. */
const iso = { request: null, custom: false, result: null, geometry: null, id: 0, worker: null };

function numericParams(model) {
  return model.params.filter((p) => p.kind === 'number');
}

function presetRequest(model, preset) {
  return { output: preset.output, x: preset.x, y: preset.y, levels: [...preset.levels], nx: preset.grid, ny: preset.grid };
}

function buildMap(model, fromHash) {
  const box = $('map');
  box.hidden = model.maps.length === 0;
  if (box.hidden) return;
  const params = numericParams(model);
  const axisControls = (name) => el('fieldset', { class: 'map-axis', 'data-axis': name },
    el('legend', { text: `${name.toUpperCase()} axis` }),
    el('select', { class: 'map-key', 'aria-label': `${name} parameter` }, params.map((p) => el('option', { value: p.key, text: p.label }))),
    el('input', { class: 'map-min', type: 'text', inputmode: 'decimal', 'aria-label': `${name} from` }),
    el('input', { class: 'map-max', type: 'text', inputmode: 'decimal', 'aria-label': `${name} to` }),
    el('label', { class: 'map-log' }, el('input', { type: 'checkbox', class: 'map-log-box' }), ' log'));
  box.replaceChildren(
    el('h3', { text: 'Iso-map' }),
    el('p', { class: 'caption', text: 'Any output over any two parameters; the others come from the form. Computed off the page in a worker.' }),
    el('div', { class: 'map-controls' },
      el('label', {}, 'Map ', el('select', { class: 'map-preset' },
        el('option', { value: '', text: '— custom —' }),
        model.maps.map((m) => el('option', { value: m.id, text: m.label })))),
      el('label', {}, 'Output ', el('select', { class: 'map-output' },
        model.outputs.map((o) => el('option', { value: o.key, text: o.label })))),
      axisControls('x'),
      axisControls('y'),
      el('label', {}, 'Levels ', el('input', { class: 'map-levels', type: 'text', spellcheck: 'false' })),
      el('label', {}, 'Grid ', el('select', { class: 'map-grid' }, GRIDS.map((g) => el('option', { value: g, text: `${g} × ${g}` }))))),
    el('p', { class: 'field-error map-error', role: 'alert' }),
    el('progress', { class: 'map-progress', max: 1, value: 0, hidden: true }),
    el('canvas', { class: 'map-canvas', role: 'img', 'aria-label': 'iso-map' }),
    el('p', { class: 'map-readout', role: 'status', text: 'Point at the map to read a value.' }),
    el('p', { class: 'map-legend' }, el('span', { class: 'map-gap-swatch' }), ` Blank (grey): ${model.gaps}.`),
    el('div', { class: 'map-actions' },
      el('button', { type: 'button', class: 'map-png', text: 'Export PNG' }),
      el('button', { type: 'button', class: 'map-csv', text: 'Export grid CSV' })));
  iso.custom = Boolean(fromHash);
  iso.request = fromHash ?? presetRequest(model, model.maps[0]);
  iso.result = null;
  fillMapControls();
}

function fillMapControls() {
  const box = $('map');
  const r = iso.request;
  const preset = state.model.maps.find((m) => m.output === r.output && m.x === r.x && m.y === r.y && m.levels.join() === r.levels.join());
  box.querySelector('.map-preset').value = preset?.id ?? '';
  box.querySelector('.map-output').value = r.output;
  for (const name of ['x', 'y']) {
    const a = parseAxis(r[name]);
    const f = box.querySelector(`.map-axis[data-axis="${name}"]`);
    f.querySelector('.map-key').value = a.key;
    f.querySelector('.map-min').value = Number.isFinite(a.min) ? fieldText(a.min) : '';
    f.querySelector('.map-max').value = Number.isFinite(a.max) ? fieldText(a.max) : '';
    f.querySelector('.map-log-box').checked = a.log;
  }
  box.querySelector('.map-levels').value = r.levels.map(fieldText).join(', ');
  box.querySelector('.map-grid').value = String(r.nx);
}

function readMapControls() {
  const box = $('map');
  const axis = (name) => {
    const f = box.querySelector(`.map-axis[data-axis="${name}"]`);
    return `${f.querySelector('.map-key').value}:${f.querySelector('.map-min').value.trim()}:${f.querySelector('.map-max').value.trim()}${f.querySelector('.map-log-box').checked ? ':log' : ''}`;
  };
  const n = Number(box.querySelector('.map-grid').value);
  const levels = box.querySelector('.map-levels').value.split(/[,;\s]+/).filter(Boolean).map(Number);
  return { output: box.querySelector('.map-output').value, x: axis('x'), y: axis('y'), levels, nx: n, ny: n };
}

function onMapEvent(event) {
  const t = event.target;
  if (t.classList.contains('map-png') && event.type === 'click') {
    $('map').querySelector('.map-canvas').toBlob((blob) => blob && download(`isoperf-${state.model.id}-map.png`, 'image/png', blob));
    return;
  }
  if (t.classList.contains('map-csv') && event.type === 'click') {
    const m = iso.result;
    if (!m) return;
    const xs = Array.from({ length: m.nx }, (_, i) => m.xAt(i));
    const ys = Array.from({ length: m.ny }, (_, j) => m.yAt(j));
    const lines = [`${m.x.key},${m.y.key},${m.output}`];
    for (let j = 0; j < m.ny; j++) for (let i = 0; i < m.nx; i++) {
      const v = m.values[j * m.nx + i];
      lines.push(`${xs[i]},${ys[j]},${Number.isFinite(v) ? v : ''}`);
    }
    download(`isoperf-${state.model.id}-map.csv`, 'text/csv', lines.join('\n'));
    return;
  }
  if (event.type === 'click') return;
  if (t.classList.contains('map-preset')) {
    const preset = state.model.maps.find((m) => m.id === t.value);
    if (!preset) return;
    iso.request = presetRequest(state.model, preset);
    iso.custom = preset !== state.model.maps[0];
    fillMapControls();
    if (preset.values.length) {
      // The map needs these form values (e.g. the slide's V): apply them as a preset would.
      for (const [key, value] of preset.values) {
        state.values[key] = presetText(value);
      }
      fillForm();
      update();
      return;
    }
  } else {
    iso.request = readMapControls();
    iso.custom = true;
    // The menu names a preset only while the map is exactly that preset.
    const r = iso.request;
    const same = state.model.maps.find((m) => m.output === r.output && m.x === r.x && m.y === r.y && m.levels.join() === r.levels.join() && r.nx === m.grid);
    $('map').querySelector('.map-preset').value = same?.id ?? '';
  }
  writeHash();
  requestMap();
}

let mapTimer = 0;
function requestMap() {
  if (!state.model.maps.length || !iso.request) return;
  clearTimeout(mapTimer);
  mapTimer = setTimeout(sendMap, 40);
}

function sendMap() {
  const box = $('map');
  const error = box.querySelector('.map-error');
  // Check the request on this thread first (fast): a bad range gets its message at once.
  try {
    isoMap(state.model.id, params(), { ...iso.request, nx: 2, ny: 2 });
  } catch (e) {
    iso.id += 1; // results still on their way belong to an older request
    iso.invalid = true;
    error.textContent = e.message;
    box.querySelector('.map-progress').hidden = true;
    box.querySelector('.map-canvas').classList.add('stale');
    return;
  }
  iso.invalid = false;
  error.textContent = '';
  iso.worker ??= startWorker();
  iso.id += 1;
  iso.sent = { ...iso.request };
  box.querySelector('.map-progress').hidden = false;
  box.querySelector('.map-progress').value = 0;
  iso.worker.postMessage({ id: iso.id, model: state.model.id, params: params(), request: iso.sent });
}

function startWorker() {
  const worker = new Worker(new URL('./map-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.id !== iso.id) return; // an older request
    const box = $('map');
    const progress = box.querySelector('.map-progress');
    if ('progress' in data) {
      progress.value = data.progress;
      box.dataset.progress = String(data.progress);
    } else if (data.error) {
      progress.hidden = true;
      box.querySelector('.map-error').textContent = data.error;
      box.querySelector('.map-canvas').classList.add('stale');
    } else if (data.done) {
      progress.hidden = true;
      // Paint with the request that produced these values, not a newer one.
      const r = iso.sent;
      iso.result = {
        ...r, values: data.values, isolines: data.isolines, x: parseAxis(r.x), y: parseAxis(r.y),
        xAt: (i) => data.xs[i], yAt: (j) => data.ys[j],
      };
      paintMap();
    }
  };
  worker.onerror = (e) => {
    $('map').querySelector('.map-error').textContent = `The map worker failed: ${e.message}`;
  };
  return worker;
}

function paintMap() {
  const m = iso.result;
  if (!m || iso.invalid) return;
  const canvas = $('map').querySelector('.map-canvas');
  canvas.classList.remove('stale');
  const label = (key) => {
    const p = state.model.params.find((q) => q.key === key);
    return p ? `${p.label}${p.unit ? ` (${p.unit})` : ''}${key === m.x.key ? (m.x.log ? ', log' : '') : m.y.log ? ', log' : ''}` : key;
  };
  const out = state.model.outputs.find((o) => o.key === m.output);
  iso.geometry = paint(canvas, m, { x: label(m.x.key), y: label(m.y.key), title: `${out?.label ?? m.output}${out?.unit ? ` (${out.unit})` : ''}` }, window.devicePixelRatio || 1);
  canvas.dataset.labels = iso.geometry.labels.join('|');
}

function onMapHover(event) {
  const m = iso.result;
  if (!m || !iso.geometry) return;
  const rect = event.target.getBoundingClientRect();
  const r = readout(m, iso.geometry, event.clientX - rect.left, event.clientY - rect.top);
  const box = $('map').querySelector('.map-readout');
  if (!r) return;
  const value = Number.isFinite(r.value) ? formatNumber(r.value) : `— (${state.model.gaps})`;
  box.textContent = `${m.x.key} = ${formatNumber(r.x)}, ${m.y.key} = ${formatNumber(r.y)}: ${m.output} = ${value}`;
}

// ---- measured data (data sets of a model) ----------------------------------------

/** Text of each data set of the current model, and its last analysis. */
const data = { text: {}, example: {}, analysis: {} };

function chartFigure(c) {
  return el('figure', { class: 'chart', 'data-chart': c.id },
    el('canvas', { role: 'img', 'aria-label': c.title }),
    el('p', { class: 'chart-error', role: 'status' }),
    el('p', { class: 'chart-note' }),
    el('figcaption', {}, el('strong', { text: c.title + '. ' }), c.caption));
}

function buildDatasets(model) {
  data.text = {};
  data.example = {};
  data.analysis = {};
  $('datasets').replaceChildren(...model.datasets.map((d) =>
    el('section', { class: 'dataset', 'data-dataset': d.id },
      el('h3', { text: d.title }),
      el('p', { class: 'caption', text: d.help }),
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

function datasetSection(id) {
  return document.querySelector(`#datasets .dataset[data-dataset="${CSS.escape(id)}"]`);
}

let analysisTimer = 0;
/** Re-analyses every data set that has text (after the user stops typing). */
function scheduleAnalyses(delay = 120) {
  clearTimeout(analysisTimer);
  analysisTimer = setTimeout(runAnalyses, delay);
}

function runAnalyses() {
  for (const d of state.model.datasets) {
    const section = datasetSection(d.id);
    const text = data.text[d.id] ?? '';
    const error = section.querySelector('.dataset-error');
    const charts = section.querySelector('.dataset-charts');
    const actions = section.querySelector('.dataset-actions');
    if (text.trim() === '') {
      error.textContent = '';
      section.querySelector('.dataset-tables').replaceChildren();
      charts.hidden = true;
      actions.hidden = true;
      data.analysis[d.id] = null;
      continue;
    }
    try {
      const a = analyze(state.model.id, d.id, text, params());
      data.analysis[d.id] = a;
      error.textContent = '';
      section.querySelector('.dataset-text').setAttribute('aria-invalid', 'false');
      section.querySelector('.dataset-tables').replaceChildren(...tableCards(a.tables));
      actions.hidden = false;
      actions.querySelector('.use-fit').hidden = a.suggest.length === 0;
      charts.hidden = false;
      drawDatasetCharts(d, section, text);
    } catch (e) {
      data.analysis[d.id] = null;
      error.textContent = e.message;
      section.querySelector('.dataset-text').setAttribute('aria-invalid', 'true');
      section.querySelector('.dataset-tables').replaceChildren();
      charts.hidden = true;
      actions.hidden = true;
    }
  }
}

function drawDatasetCharts(d, section, text) {
  const dpr = window.devicePixelRatio || 1;
  for (const fig of section.querySelectorAll('.dataset-charts .chart')) {
    const canvas = fig.querySelector('canvas');
    sizeCanvas(canvas, dpr);
    try {
      fig.querySelector('.chart-note').textContent = drawAnalysisChart(canvas, state.model.id, d.id, text, params(), fig.dataset.chart, dpr) ?? '';
      fig.querySelector('.chart-error').textContent = '';
    } catch (e) {
      fig.querySelector('.chart-error').textContent = e.message;
    }
  }
}

async function loadExample(datasetId, exampleId) {
  const d = state.model.datasets.find((x) => x.id === datasetId);
  const x = d?.examples.find((e) => e.id === exampleId);
  const section = datasetSection(datasetId);
  data.example[datasetId] = x ? x.id : '';
  section.querySelector('.dataset-example').value = x ? x.id : '';
  writeHash();
  if (!x) return;
  try {
    const response = await fetch(x.path);
    if (!response.ok) throw new Error(`${x.path}: HTTP ${response.status}`);
    const text = await response.text();
    // A newer choice (another example, typed or loaded text) wins over a late fetch.
    if (data.example[datasetId] !== x.id) return;
    setDatasetText(datasetId, text, true);
  } catch (e) {
    section.querySelector('.dataset-error').textContent = `Could not load the example: ${e.message}`;
  }
}

function setDatasetText(datasetId, text, fromExample = false) {
  data.text[datasetId] = text;
  datasetSection(datasetId).querySelector('.dataset-text').value = text;
  if (!fromExample) {
    data.example[datasetId] = '';
    datasetSection(datasetId).querySelector('.dataset-example').value = '';
    writeHash();
  }
  scheduleAnalyses(0);
}

function download(name, type, body) {
  const a = el('a', { href: URL.createObjectURL(new Blob([body], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

const csvCell = (c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);

function onDatasetEvent(event) {
  const section = event.target.closest('.dataset');
  if (!section) return;
  const id = section.dataset.dataset;
  const t = event.target;
  if (t.classList.contains('dataset-text') && event.type === 'input') {
    data.text[id] = t.value;
    if (data.example[id]) {
      data.example[id] = '';
      section.querySelector('.dataset-example').value = '';
      writeHash();
    }
    scheduleAnalyses();
  } else if (t.classList.contains('dataset-example') && event.type === 'change') {
    loadExample(id, t.value);
  } else if (t.type === 'file' && event.type === 'change' && t.files?.[0]) {
    t.files[0].text().then((text) => setDatasetText(id, text));
  } else if (event.type === 'click' && t.closest('button')) {
    const a = data.analysis[id];
    if (!a) return;
    const b = t.closest('button');
    if (b.classList.contains('use-fit')) {
      for (const [key, value] of a.suggest) state.values[key] = fieldText(value);
      fillForm();
      update();
    } else if (b.classList.contains('export-json')) {
      download(`isoperf-${state.model.id}-${id}.json`, 'application/json', JSON.stringify(a.result, null, 2));
    } else if (b.classList.contains('export-csv')) {
      const lines = a.tables.flatMap((tb) => [csvCell(tb.title), tb.columns.map(csvCell).join(','), ...tb.rows.map((r) => r.cells.map(csvCell).join(',')), '']);
      download(`isoperf-${state.model.id}-${id}.csv`, 'text/csv', lines.join('\n'));
    }
  }
}

/** Sizes a chart canvas in device pixels for its CSS width (HiDPI-sharp), at a 0.62 aspect. */
function sizeCanvas(canvas, dpr) {
  const w = Math.max(240, Math.round(canvas.clientWidth || 480));
  const h = Math.round(w * 0.62);
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
}

let chartFrame = 0;
function scheduleCharts() {
  cancelAnimationFrame(chartFrame);
  chartFrame = requestAnimationFrame(drawCharts);
}

/** Why there are no results, or '' when there are. */
let blocked = '';

function drawCharts() {
  const dpr = window.devicePixelRatio || 1;
  for (const fig of document.querySelectorAll('#charts .sweep')) drawSweepFigure(fig, dpr);
  for (const fig of document.querySelectorAll('#charts .chart[data-chart]')) {
    const canvas = fig.querySelector('canvas');
    const note = fig.querySelector('.chart-error');
    sizeCanvas(canvas, dpr);
    // Charts that need only valid fields still draw while a result is blocked.
    try {
      fig.querySelector('.chart-note').textContent = drawChart(canvas, state.model.id, fig.dataset.chart, params(), dpr) ?? '';
      note.textContent = '';
      fig.classList.remove('stale');
    } catch (e) {
      note.textContent = blocked ? `Not drawn: ${blocked}` : e.message;
      fig.querySelector('.chart-note').textContent = '';
      fig.classList.add('stale');
    }
  }
}

function setStatus(lines) {
  const s = $('status');
  s.hidden = lines.length === 0;
  s.textContent = lines.join(' ');
}

function update() {
  writeHash();
  if (state.model.datasets.length) scheduleAnalyses();
  requestMap();
  requestSweeps();
  updateApplicability();
  updateHints();
  const p = params();
  let problems;
  try {
    problems = check(state.model.id, p);
  } catch (e) {
    problems = [{ key: '', message: e.message }];
  }
  const general = showFieldErrors(problems);
  const atFields = problems.length - general.length;
  if (problems.length) {
    // Tables that need only valid fields (e.g. a delay breakdown) still show.
    let partial = null;
    try {
      partial = tables(state.model.id, p);
    } catch {
      partial = null;
    }
    showResults(partial && { tables: partial }, atFields ? `fix the highlighted field${atFields > 1 ? 's' : ''}.` : general.join(' '));
    return;
  }
  try {
    showResults({ outputs: evaluate(state.model.id, p), tables: tables(state.model.id, p), remarks: remarks(state.model.id, p) }, '');
  } catch (e) {
    showResults(null, e.message);
  }
}

/** Shows results, or the reason there are none (outputs blank, tables and charts dimmed). */
function showResults(results, reason) {
  blocked = reason;
  setStatus(reason ? [`No results: ${reason}`] : []);
  renderOutputs(results?.outputs ?? null);
  renderRemarks(results?.remarks ?? []);
  if (results?.tables) renderTables(results.tables);
  $('outputs').classList.toggle('stale', Boolean(reason));
  const staleTables = !results?.tables;
  $('tables').classList.toggle('stale', staleTables);
  $('tables').setAttribute('aria-hidden', staleTables ? 'true' : 'false');
  scheduleCharts();
}

function loadFromHash() {
  const { model, values, examples, map } = readHash();
  if (state.model !== model) {
    showModel(model);
    buildMap(model, map);
  } else if (map && JSON.stringify(map) !== JSON.stringify(iso.request)) {
    iso.request = map;
    iso.custom = true;
    fillMapControls();
  }
  state.values = values;
  fillForm();
  update();
  for (const d of model.datasets) {
    if ((examples[d.id] ?? '') !== (data.example[d.id] ?? '')) loadExample(d.id, examples[d.id] ?? '');
  }
}

// ---- start -------------------------------------------------------------------

/** Redraws when the window moves to a screen of another pixel ratio. */
function watchPixelRatio() {
  matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
    if (state.model) scheduleCharts();
    watchPixelRatio();
  }, { once: true });
}

async function main() {
  await init();
  registry.models = models();
  registry.byId = new Map(registry.models.map((m) => [m.id, m]));
  buildTabs();
  $('preset').addEventListener('change', (e) => applyPreset(e.target.value));
  $('form').addEventListener('input', onEdit);
  $('form').addEventListener('change', onEdit);
  $('form').addEventListener('click', onListClick);
  for (const type of ['input', 'change', 'click']) $('datasets').addEventListener(type, onDatasetEvent);
  for (const type of ['change', 'click']) $('map').addEventListener(type, onMapEvent);
  $('map').addEventListener('mousemove', (e) => e.target.classList.contains('map-canvas') && onMapHover(e));
  $('reset').addEventListener('click', () => {
    state.values = defaultsOf(state.model);
    fillForm();
    update();
  });
  $('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $('copy-status').textContent = 'Link copied.';
    } catch {
      $('copy-status').textContent = 'Copy the address bar: it holds this view.';
    }
  });
  window.addEventListener('hashchange', loadFromHash);
  let width = 0;
  new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (w !== width) {
      width = w;
      if (state.model) {
        scheduleCharts();
        paintMap();
      }
    }
  }).observe($('charts'));
  watchPixelRatio();
  $('loading').remove();
  $('model').hidden = false;
  loadFromHash();
  $('app').setAttribute('aria-busy', 'false');
  // For authors and tests: the same exports the page uses.
  window.isoperf = { models, evaluate, check, tables, remarks, analyze, isoMap };
}

main().catch((e) => {
  $('app').setAttribute('aria-busy', 'false');
  const msg = $('loading') ?? $('app').appendChild(el('p'));
  msg.className = 'fatal';
  msg.textContent = `isoperf could not start: ${e.message}`;
});
