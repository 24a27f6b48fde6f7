// The page's side of a worker: "latest request wins". Each request gets a new
// id; answers to any older request are dropped here; progress reports go to
// `onProgress`, final answers ({done} or {error}) to `onAnswer`. The first
// request carries the compiled wasm module (state.wasm.module), so the
// worker instantiates it once and never fetches or compiles the .wasm.
// Shared by the sweep and map workers (see worker-serve.js for the other side).
// An answer about a trap in the worker ({error, internal: true}; the worker
// replaced its instance) is reported as the page's own traps are
// (wasm.reportTrap: the internal-error notice), then answered as any error.

import { startWorker } from './assets.js';
import { state } from './state.js';
import { reportTrap } from './wasm.js';

/**
 * Starts worker `name` ('map', 'sweep'); returns {send(payload) -> id}.
 * Handlers: onProgress(data), onAnswer(data), onError(event). Call once
 * the full module is compiled (wasm.fullReady()).
 */
export function workerClient(name, { onProgress, onAnswer, onError }) {
  const worker = startWorker(name);
  const client = { id: 0, module: state.wasm.module };
  worker.onmessage = ({ data }) => {
    if (data.id !== client.id) return; // an answer to an older request
    if (data.internal) reportTrap(`${name} worker`, data.error);
    if ('progress' in data) onProgress(data);
    else onAnswer(data);
  };
  worker.onerror = (e) => onError(e);
  return {
    send(payload) {
      client.id += 1;
      const message = { id: client.id, ...payload };
      if (client.module) {
        message.module = client.module;
        client.module = null;
      }
      worker.postMessage(message);
      return client.id;
    },
  };
}
