// A worker's side of worker-client.js: one warm wasm instance, made from the
// compiled module the first request carries, and "latest request wins".
// `serve({check, run})`: `check(request)` throws for a request refused at
// once (its error is answered at once, and the request under way, if any,
// goes on); `run(request, job)` computes, calling `job.progress(p, extra)`,
// `await job.pause()` between pieces of work (newer requests get in there),
// and returning early when `job.current()` turns false; errors it throws are
// answered as {id, error}. Messages are posted with `job.post(data, transfer)`.

import { initSync } from '../pkg/isoperf.js';

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

export function serve({ check = () => {}, run }) {
  const latest = { id: 0 };
  self.onmessage = async ({ data }) => {
    const { id, module, ...request } = data;
    if (module) initSync({ module });
    try {
      check(request);
    } catch (e) {
      self.postMessage({ id, error: e.message, field: e.field ?? '' });
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
      if (job.current()) job.post({ error: e.message, field: e.field ?? '' });
    }
  };
}
