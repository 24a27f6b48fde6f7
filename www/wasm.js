// The one module that imports the wasm package. The main thread compiles the
// .wasm once (`start`) and keeps the compiled WebAssembly.Module in
// state.wasm.module, to hand to each worker (`startWorker` there: no worker
// fetches or compiles it again). Every export is wrapped so that calls on
// this thread are counted per export in state.wasm.calls (exposed as
// window.isoperf.calls for the end-to-end tests).

import init, * as pkg from '../pkg/isoperf.js';
import { state } from './state.js';

/** Compiles and instantiates the module on the main thread; resolves to the compiled module. */
export async function start() {
  const url = new URL('../pkg/isoperf_bg.wasm', import.meta.url);
  let module;
  try {
    module = await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // A server without the application/wasm type: compile from the bytes.
    module = await WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
  await init({ module_or_path: module });
  state.wasm.module = module;
  return module;
}

/** In a worker: instantiates the module the page compiled (synchronously, once). */
export function startWorker(module) {
  pkg.initSync({ module });
}

/** Loads the registry into state.registry (once). */
export function loadRegistry() {
  if (!state.registry.models.length) {
    state.registry.models = models();
    state.registry.byId = new Map(state.registry.models.map((m) => [m.id, m]));
  }
  return state.registry;
}

function counted(name, fn = pkg[name]) {
  return (...args) => {
    state.wasm.calls[name] = (state.wasm.calls[name] ?? 0) + 1;
    return fn(...args);
  };
}

export const models = counted('models');
export const evaluate = counted('evaluate');
export const check = counted('check');
export const tables = counted('tables');
export const remarks = counted('remarks');
export const drawChart = counted('drawChart');
export const analyze = counted('analyze');
export const drawAnalysisChart = counted('drawAnalysisChart');
export const isoMap = counted('isoMap');
export const isoMapRows = counted('isoMapRows');
export const isoLines = counted('isoLines');
export const isoAxis = counted('isoAxis');
export const sweepPlan = counted('sweepPlan');
export const sweepSeries = counted('sweepSeries');
export const drawSweep = counted('drawSweep');

// ---- TEMPORARY until pkg has report ------------------------------------------------
// `report`, `formatNumber` and `fieldText` composed from the old exports and
// the page's old JavaScript helpers, so the page can call one export per
// edit now. Delete this block (and use the package's exports) once
// pkg/isoperf.js has `export function report`.

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

function shimFormatNumber(x, digits = 4) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  if (Number.isInteger(x) && Math.abs(x) < 1e7) return String(x);
  const decade = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(digits)))));
  if (decade >= -3 && decade < digits) return x.toPrecision(digits);
  const [mant, exp] = x.toExponential(digits - 1).split('e');
  const e = String(Number(exp)).replace(/./g, (c) => SUPERSCRIPT[c] ?? c);
  return `${mant} × 10${e}`;
}

function shimFieldText(x) {
  const plain = String(x);
  const a = Math.abs(x);
  if (a === 0 || (a >= 1e-4 && a < 1e6)) return plain;
  const sci = x.toExponential().replace('e+', 'e');
  return sci.length < plain.length ? sci : plain;
}

const shimFormatBase = (x) => shimFormatNumber(x, 6).replace(/(\.\d*?)0+(?= ×|$)/, '$1').replace(/\.(?= ×|$)/, '');

const DURATIONS = [[365.25 * 86400, 'years'], [86400, 'days'], [3600, 'h'], [60, 'min']];
function humanDuration(seconds) {
  if (typeof seconds !== 'number' || !(seconds >= 120)) return '';
  const [size, unit] = DURATIONS.find(([s]) => seconds >= 2 * s) ?? DURATIONS[DURATIONS.length - 1];
  return `≈ ${shimFormatNumber(seconds / size, 3)} ${unit}`;
}

function formatArray(xs) {
  const f = (x) => shimFormatNumber(x);
  const items = xs.length <= 6 ? xs.map(f) : [...xs.slice(0, 3).map(f), '…', f(xs.at(-1))];
  return `${items.join(', ')}${xs.length > 6 ? ` (${xs.length} values)` : ''}`;
}

function listItems(text) {
  const t = String(text).trim();
  if (/[,;]/.test(t)) return t.split(/[,;]/).map((x) => x.trim());
  return t.split(/\s+/).filter((x) => x !== '');
}

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

function optionLabels(model, when) {
  const p = model.params.find((q) => q.key === when.key);
  return when.values.map((v) => p?.options.find((o) => o.value === v)?.label.split(' (')[0] ?? v).join(', ');
}

function shimFields(model, values) {
  const fields = {};
  for (const p of model.params) {
    const when = p.applies_when;
    const active = !when || when.values.includes(values[when.key]);
    let text = '';
    if (p.kind === 'number') {
      const x = Number(String(values[p.key]).trim());
      if (p.reciprocal_unit && x > 0 && Number.isFinite(1 / x)) text = `= ${shimFormatNumber(1 / x)} ${p.reciprocal_unit}`;
      const unitChoice = p.unit_from && model.params.find((q) => q.key === p.unit_from);
      const factor = unitChoice?.options.find((o) => o.value === values[unitChoice.key])?.factor;
      if (factor && Number.isFinite(x * factor) && String(values[p.key]).trim() !== '') text = `= ${shimFormatBase(x * factor)} ${p.unit}`;
    }
    const applies = when && !active ? `not used: applies to ${optionLabels(model, when)} only` : '';
    fields[p.key] = { active, hint: [text, applies].filter(Boolean).join(' · ') };
  }
  return fields;
}

function shimReport(modelId, params) {
  const model = loadRegistry().byId.get(modelId);
  const fields = model ? shimFields(model, params) : {};
  const changed = model ? model.params.filter((p) => !isDefault(p, params[p.key])).map((p) => p.key) : [];
  const blocked = (problems, partial) => ({ problems, outputs: null, display: null, tables: partial, remarks: [], fields, changed });
  let problems;
  try {
    problems = pkg.check(modelId, params);
  } catch (e) {
    problems = [{ key: '', message: e.message }];
  }
  if (problems.length) {
    let partial = null;
    try {
      partial = pkg.tables(modelId, params);
    } catch {
      partial = null;
    }
    return blocked(problems, partial);
  }
  try {
    const outputs = pkg.evaluate(modelId, params);
    const display = Object.fromEntries(model.outputs.map((o) => {
      const v = outputs[o.key];
      const text = Array.isArray(v) ? formatArray(v) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : shimFormatNumber(v);
      return [o.key, { text, human: o.unit === 's' ? humanDuration(v) : '' }];
    }));
    return { problems: [], outputs, display, tables: pkg.tables(modelId, params), remarks: pkg.remarks(modelId, params), fields, changed };
  } catch (e) {
    return blocked([{ key: '', message: e.message }], null);
  }
}

export const report = counted('report', pkg.report ?? shimReport);
export const formatNumber = counted('formatNumber', pkg.formatNumber ?? shimFormatNumber);
export const fieldText = counted('fieldText', pkg.fieldText ?? shimFieldText);
// ---- end of TEMPORARY -----------------------------------------------------------------
