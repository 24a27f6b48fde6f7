// Computes the sweeps of a model (curves of many evaluations) off the main
// thread, a few points at a time (one call each, as many as fit in
// SLICE_MS), reporting progress after each slice and dropping a request as
// soon as a newer one arrives. Each finished sweep goes back as chart data
// (sweepChartData: its curves, marks, note and the current parameters'
// point), so that the page only paints it: those extras evaluate the model,
// which at m in the thousands takes seconds.

import { sweepChartData, sweepPlan, sweepSeries } from '../pkg/isoperf.js';
import { failure, serve } from './worker-serve.js';

/** Milliseconds of points computed before the worker lets a newer request in. */
const SLICE_MS = 30;

/**
 * The curves of `sweep` for `params`, a few points per slice; `onSlice(done
 * fraction)` after each. Resolves to {curves, low, high} (with `carried`, a
 * calibration's uncertainty, the ends of each point's 95% interval; else
 * null), or null when superseded.
 */
async function curvesOf(model, sweep, params, job, onSlice, carried) {
  const { xs, values } = sweepPlan(model, sweep);
  const total = values.length * xs.length;
  const curves = [];
  const low = [];
  const high = [];
  for (let k = 0; k < values.length; k++) {
    const curve = new Float64Array(xs.length);
    const lo = new Float64Array(xs.length);
    const hi = new Float64Array(xs.length);
    let slice = performance.now();
    for (let i = 0; i < xs.length; i++) {
      if (!job.current()) return null; // superseded
      const point = sweepSeries(model, sweep, params, k, i, i + 1, carried);
      // With carried: the value, then the low end, then the high end.
      curve[i] = point[0];
      lo[i] = point[1] ?? NaN;
      hi[i] = point[2] ?? NaN;
      if (performance.now() - slice > SLICE_MS || i + 1 === xs.length) {
        onSlice((k * xs.length + i + 1) / total);
        await job.pause(); // let a newer request in
        slice = performance.now();
      }
    }
    curves.push(curve);
    low.push(lo);
    high.push(hi);
  }
  return { curves, low: carried ? low : null, high: carried ? high : null };
}

serve({
  /**
   * The sweeps for `params`, then for each pinned scenario ({key, params})
   * the sweeps the page does not have yet (answered with its `scenario` key;
   * `chart: null` where its parameters have no curve).
   */
  async run({ model, params, sweeps, scenarios = [], carried }, job) {
    const jobs = [
      ...sweeps.map((sweep) => ({ sweep, params, scenario: undefined })),
      ...scenarios.flatMap((s) => s.sweeps.map((sweep) => ({ sweep, params: s.params, scenario: s.key }))),
    ];
    for (const { sweep, params: p, scenario } of jobs) {
      try {
        const report = scenario === undefined ? (f) => job.progress(f, { sweep }) : () => {};
        // A pinned scenario's curves are drawn faintly, without bands.
        const withBands = scenario === undefined ? carried : undefined;
        const done = await curvesOf(model, sweep, p, job, report, withBands);
        if (!done || !job.current()) return;
        const bands = withBands ? { carried: withBands, low: done.low, high: done.high } : undefined;
        job.post({ sweep, scenario, done: true, chart: sweepChartData(model, sweep, p, done.curves, undefined, bands) });
      } catch (e) {
        const failed = failure(e); // (after a trap, on a new instance for the next sweep)
        job.post(scenario === undefined ? { sweep, ...failed } : { sweep, scenario, done: true, chart: null });
      }
    }
  },
});
