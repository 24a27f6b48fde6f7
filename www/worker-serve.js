// A worker's side of worker-client.js: one warm wasm instance, made from the
// compiled module the first request carries, and "latest request wins".
// `serve({check, run})`: `check(request)` throws for a request refused at
// once (its error is answered at once, and the request under way, if any,
// goes on); `run(request, job)` computes, calling `job.progress(p, extra)`,
// `await job.pause()` between pieces of work (newer requests get in there),
// and returning early when `job.current()` turns false; errors it throws are
// answered as {id, error}. Messages are posted with `job.post(data, transfer)`.
// A trap (trap.js) replaces the worker's instance with a new one of the same
// module and is answered as {id, error, internal: true}: the next request
// computes afresh, and the page shows its internal-error notice.

import { __wbg_reset_state, initSync } from '../pkg/isoperf.js';
import { internalMessage, isTrap } from './trap.js';

/**
 * A task of its own, without setTimeout's clamping: `pause()` resolves after
 * the messages already queued for this worker (a newer request) were handled.
 */
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();
function pause() {
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

/**
 * The answer to a request that failed with `e`: {error, field}, or, after a
 * trap, {error, internal: true} once a new instance replaced the broken one.
 * For workers that answer some failures themselves (a sweep's).
 */
export function failure(e) {
  if (!isTrap(e)) return { error: e?.message ?? String(e), field: e?.field ?? '' };
  try {
    __wbg_reset_state();
  } catch (reset) {
    // Still broken: the next call traps and tries again.
    console.error(reset);
  }
  return { error: internalMessage(e), internal: true };
}

export function serve({ check = () => {}, run }) {
  const latest = { id: 0 };
  self.onmessage = async ({ data }) => {
    const { id, module, ...request } = data;
    if (module) initSync({ module });
    // {settled: true} ends every request: the page then knows the worker is idle.
    const settled = () => self.postMessage({ id, settled: true });
    try {
      check(request);
    } catch (e) {
      self.postMessage({ id, ...failure(e) });
      settled();
      return;
    }
    latest.id = id;
    const job = {
      current: () => latest.id === id,
      pause,
      post: (message, transfer = []) => self.postMessage({ id, ...message }, transfer),
      progress: (progress, extra = {}) => self.postMessage({ id, ...extra, progress }),
    };
    try {
      await run(request, job);
    } catch (e) {
      const answer = failure(e); // a trap replaces the instance even for a request no longer wanted
      if (job.current()) job.post(answer);
    }
    settled();
  };
}
