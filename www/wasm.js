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

function counted(name) {
  const fn = pkg[name];
  if (typeof fn !== 'function') throw new Error(`the wasm package has no export ${name}: rebuild pkg/`);
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
export const mapCsv = counted('mapCsv');
export const mapLayout = counted('mapLayout');
export const sweepPlan = counted('sweepPlan');
export const sweepSeries = counted('sweepSeries');
export const drawSweep = counted('drawSweep');
export const report = counted('report');
export const formatNumber = counted('formatNumber');
export const fieldText = counted('fieldText');
export const splitList = counted('splitList');
