// The page's side of a worker: "latest request wins". Each request gets a new
// id; answers to any older request are dropped here; progress reports go to
// `onProgress`, answers ({done} or {error}) to `onAnswer`; {settled} ends a
// request (the worker is idle). The first
// request carries the compiled wasm module (state.wasm.module), so the
// worker instantiates it once and never fetches or compiles the .wasm.
// Shared by the map, sweep, report and data workers (see worker-serve.js for the other side).
// A newer request to a worker stuck in one long call replaces the worker.
// An answer about a trap in the worker ({error, internal: true}; the worker
// replaced its instance) is reported as the page's own traps are
// (wasm.reportTrap: the internal-error notice), then answered as any error.

import { startWorker } from './assets.js';
import { state } from './state.js';
import { reportTrap } from './wasm.js';

/**
 * A request with no word from its worker for this long is inside one long
 * call (a sweep curve, a map band): a worker takes a newer request only
 * between calls, so a newer request stops that worker and starts another
 * (the compiled module makes a new instance in milliseconds) instead of
 * waiting seconds for a superseded answer.
 */
const RESTART_AFTER_MS = 250;

/**
 * Starts worker `name` ('map', 'sweep', 'report', 'data'); returns {send(payload) -> id, cancel()}.
 * Handlers: onProgress(data), onAnswer(data), onError(event). Call once
 * the full module is compiled (wasm.fullReady()). Requests and restarts are
 * counted in state.workers[name] (window.isoperf.workers).
 */
export function workerClient(name, { onProgress, onAnswer, onError }) {
  const client = { id: 0, module: null, worker: null, quietSince: null };
  const counts = (state.workers[name] ??= { requests: 0, restarts: 0 });
  const start = () => {
    const worker = startWorker(name);
    worker.onmessage = ({ data }) => {
      if (data.id !== client.id) return; // an answer to an older request
      if (data.settled) {
        client.quietSince = null; // idle until the next request
        return;
      }
      // Progress from inside one call (the report's) is no sign that the
      // worker will soon take a newer request: it stays quiet in that sense.
      if (!data.insideCall) client.quietSince = performance.now();
      if (data.internal) reportTrap(`${name} worker`, data.error);
      if ('progress' in data) onProgress(data);
      else onAnswer(data);
    };
    worker.onerror = (e) => onError(e);
    client.worker = worker;
    client.module = state.wasm.module;
  };
  /** Stops the worker (inside a call no answer of which is wanted) and starts another. */
  const restart = () => {
    client.worker.terminate();
    counts.restarts += 1;
    start();
  };
  start();
  return {
    /**
     * No answer is wanted any more (the form no longer needs one): answers
     * still coming are dropped, and a worker still computing is replaced.
     */
    cancel() {
      client.id += 1;
      if (client.quietSince === null) return;
      restart();
      client.quietSince = null;
    },
    send(payload) {
      if (client.quietSince !== null && performance.now() - client.quietSince > RESTART_AFTER_MS) restart();
      client.id += 1;
      counts.requests += 1;
      client.quietSince = performance.now();
      const message = { id: client.id, ...payload };
      if (client.module) {
        message.module = client.module;
        client.module = null;
      }
      client.worker.postMessage(message);
      return client.id;
    },
  };
}
