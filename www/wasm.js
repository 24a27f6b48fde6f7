// The page's wasm, in two steps. `start` compiles the first-paint module
// (registry, report, evaluate: a fraction of the size) so the first
// prediction is painted early; `startFull` then compiles the full module
// (charts, maps, sweeps, data analysis, the general LP), switches every
// export to it and keeps the compiled WebAssembly.Module in
// state.wasm.module, to hand to each worker (no worker fetches or compiles
// it again). Every export is wrapped so that calls on this thread are
// counted per export in state.wasm.calls (window.isoperf.calls in tests),
// and so that a trap (trap.js) replaces the broken instance with a new one
// of the same module, is logged in state.wasm.traps, is told to the
// listeners of `onTrap` (the page's notice) and reaches the caller as a
// plain Error (`internal: true`) its usual error path shows.

import initCore, * as core from '../pkg/isoperf_core.js';
import { FIRST_PAINT_MODULE, fullGlue, wasmSource } from './assets.js';
import { state } from './state.js';
import { internalMessage, isTrap } from './trap.js';

async function compile(source) {
  const bytes = await source;
  if (!(bytes instanceof Response)) return WebAssembly.compile(bytes);
  try {
    return await WebAssembly.compileStreaming(bytes.clone());
  } catch {
    // A server without the application/wasm type: compile from the bytes.
    return WebAssembly.compile(await bytes.arrayBuffer());
  }
}

/** Compiles and instantiates the first-paint module (or the full one, where there is no first-paint module). */
export async function start() {
  if (!FIRST_PAINT_MODULE) {
    await startFull();
    return;
  }
  await initCore({ module_or_path: await compile(wasmSource('core')) });
  state.wasm.exports = core;
}

/**
 * Compiles and instantiates the full module (once; later calls share the
 * promise) and makes every export use it. Resolves to the compiled module.
 */
export function startFull() {
  state.wasm.full ??= (async () => {
    const [glue, module] = await Promise.all([fullGlue(), compile(wasmSource('full'))]);
    glue.initSync({ module });
    state.wasm.exports = glue;
    state.wasm.module = module;
    return module;
  })();
  return state.wasm.full;
}

/** True once the full module answers every export. */
export const fullReady = () => state.wasm.module !== null;

/** Loads the registry into state.registry (once). */
export function loadRegistry() {
  if (!state.registry.models.length) {
    state.registry.models = models();
    state.registry.byId = new Map(state.registry.models.map((m) => [m.id, m]));
  }
  return state.registry;
}

/**
 * Calls `listener({where, message})` after every trap: of an export on this
 * thread (`where` is its name) or in a worker (reported by worker-client.js).
 */
export function onTrap(listener) {
  state.wasm.trapListeners.push(listener);
}

/** Logs a trap in state.wasm.traps and tells the listeners (none of whose failures reaches the caller). */
export function reportTrap(where, message) {
  state.wasm.traps.push({ where, message });
  for (const listener of state.wasm.trapListeners) {
    try {
      listener({ where, message });
    } catch (e) {
      console.error(e);
    }
  }
}

/**
 * After a trap in export `name` of `glue` (the first-paint or the full
 * module, whichever answered): a new instance in place of the broken one,
 * and the Error the caller gets.
 */
function trapped(glue, name, trap) {
  try {
    glue.__wbg_reset_state();
  } catch (e) {
    // Still broken (a glue built without the flag, or no memory left): the next call traps and tries again.
    console.error(e);
  }
  const error = new Error(internalMessage(trap), { cause: trap });
  error.internal = true;
  reportTrap(name, error.message);
  return error;
}

function counted(name) {
  return (...args) => {
    const glue = state.wasm.exports;
    const fn = glue?.[name];
    if (typeof fn !== 'function') {
      throw new Error(fullReady() ? `the wasm package has no export ${name}: rebuild pkg/` : `${name} needs the full module, which is still loading`);
    }
    state.wasm.calls[name] = (state.wasm.calls[name] ?? 0) + 1;
    try {
      return fn(...args);
    } catch (e) {
      throw isTrap(e) ? trapped(glue, name, e) : e;
    }
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
export const mapCsv = counted('mapCsv');
export const mapLayout = counted('mapLayout');
export const sweepPlan = counted('sweepPlan');
export const sweepSeries = counted('sweepSeries');
export const drawSweep = counted('drawSweep');
export const chartData = counted('chartData');
export const chartTable = counted('chartTable');
export const overlayScenarios = counted('overlayScenarios');
export const chartCsv = counted('chartCsv');
export const chartSvg = counted('chartSvg');
export const exportResults = counted('exportResults');
export const exportPng = counted('exportPng');
export const exportMap = counted('exportMap');
export const report = counted('report');
export const quickReport = counted('quickReport');
export const paintChart = counted('paintChart');
export const formatNumber = counted('formatNumber');
export const fieldText = counted('fieldText');
export const splitList = counted('splitList');
