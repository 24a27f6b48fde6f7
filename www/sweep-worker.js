// Computes the sweeps of a model (curves of many evaluations) off the main
// thread, one curve at a time, reporting progress after each and dropping a
// request as soon as a newer one arrives. Each finished sweep goes back
// with its curves as transferred buffers.

import { sweepPlan, sweepSeries } from '../pkg/isoperf.js';
import { failure, serve } from './worker-serve.js';

serve({
  async run({ model, params, sweeps }, job) {
    for (const sweep of sweeps) {
      try {
        const { values } = sweepPlan(model, sweep);
        const curves = [];
        for (let k = 0; k < values.length; k++) {
          if (!job.current()) return; // superseded
          curves.push(sweepSeries(model, sweep, params, k));
          job.progress((k + 1) / values.length, { sweep });
          await job.pause(); // let a newer request in before the next curve
        }
        if (!job.current()) return;
        job.post({ sweep, done: true, curves }, curves.map((c) => c.buffer));
      } catch (e) {
        job.post({ sweep, ...failure(e) }); // (after a trap, on a new instance for the next sweep)
      }
    }
  },
});
