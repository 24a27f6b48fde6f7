// Computes the sweeps of a model (curves of many evaluations) off the main
// thread, one curve at a time, reporting progress after each and dropping a
// request as soon as a newer one arrives.

import init, { sweepPlan, sweepSeries } from '../pkg/isoperf.js';

const ready = init();
let latest = 0;

self.onmessage = async ({ data }) => {
  const { id, model, params, sweeps } = data;
  latest = id;
  await ready;
  for (const sweep of sweeps) {
    try {
      const { values } = sweepPlan(model, sweep);
      const curves = [];
      for (let k = 0; k < values.length; k++) {
        if (latest !== id) return; // superseded
        curves.push(sweepSeries(model, sweep, params, k));
        self.postMessage({ id, sweep, progress: (k + 1) / values.length });
        // Let a newer request's message in before the next curve.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      if (latest !== id) return;
      self.postMessage({ id, sweep, done: true, curves });
    } catch (e) {
      self.postMessage({ id, sweep, error: e.message });
    }
  }
};
