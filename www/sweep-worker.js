// Computes the sweeps of a model (curves of many evaluations) off the main
// thread, a few points at a time (one call each, as many as fit in
// SLICE_MS), reporting progress after each slice and dropping a request as
// soon as a newer one arrives. Each finished sweep goes back with its curves
// as transferred buffers.

import { sweepPlan, sweepSeries } from '../pkg/isoperf.js';
import { failure, serve } from './worker-serve.js';

/** Milliseconds of points computed before the worker lets a newer request in. */
const SLICE_MS = 30;

serve({
  async run({ model, params, sweeps }, job) {
    for (const sweep of sweeps) {
      try {
        const { xs, values } = sweepPlan(model, sweep);
        const total = values.length * xs.length;
        const curves = [];
        for (let k = 0; k < values.length; k++) {
          const curve = new Float64Array(xs.length);
          let slice = performance.now();
          for (let i = 0; i < xs.length; i++) {
            if (!job.current()) return; // superseded
            curve.set(sweepSeries(model, sweep, params, k, i, i + 1), i);
            if (performance.now() - slice > SLICE_MS || i + 1 === xs.length) {
              job.progress((k * xs.length + i + 1) / total, { sweep });
              await job.pause(); // let a newer request in
              slice = performance.now();
            }
          }
          curves.push(curve);
        }
        if (!job.current()) return;
        job.post({ sweep, done: true, curves }, curves.map((c) => c.buffer));
      } catch (e) {
        job.post({ sweep, ...failure(e) }); // (after a trap, on a new instance for the next sweep)
      }
    }
  },
});
