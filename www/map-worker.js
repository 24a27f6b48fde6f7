// Computes iso-maps off the main thread in bands of rows, each band one call
// sized to take about SLICE_MS (one row first, then as many as the rows so
// far say fit: a model with a fast path over the grid gets large bands, one
// with an LP per point single rows), so the page never freezes: it reports
// progress after each band and drops a request as soon as a newer one
// arrives (the user dragging a value). A request the engine refuses (an
// empty range) is answered at once and cancels nothing. The grid goes back
// as a transferred buffer; the page lays out the image from it. With
// `carried` (a calibration's uncertainty, carried.js), each band also gives
// the ends of every node's 95% interval, and those go back beside it.

import { isoMapRows } from '../pkg/isoperf.js';
import { serve } from './worker-serve.js';

/** Milliseconds a band should take before the worker lets a newer request in. */
const SLICE_MS = 30;

serve({
  // No rows: checks the request and the parameters, computes nothing.
  check: ({ model, params, request }) => isoMapRows(model, params, request, 0, 0),
  async run({ model, params, request, carried }, job) {
    const n = request.nx * request.ny;
    const values = new Float64Array(n);
    const low = carried ? new Float64Array(n) : null;
    const high = carried ? new Float64Array(n) : null;
    const started = performance.now();
    for (let j = 0; j < request.ny;) {
      if (!job.current()) return; // superseded
      const perRow = j ? (performance.now() - started) / j : Infinity;
      const end = Math.min(request.ny, j + Math.max(1, Math.floor(SLICE_MS / perRow)));
      const rows = isoMapRows(model, params, request, j, end, carried);
      const size = (end - j) * request.nx;
      values.set(rows.subarray(0, size), j * request.nx);
      // With carried: the values, then the low ends, then the high ends.
      low?.set(rows.subarray(size, 2 * size), j * request.nx);
      high?.set(rows.subarray(2 * size, 3 * size), j * request.nx);
      j = end;
      job.progress(j / request.ny);
      await job.pause(); // let a newer request in before the next band
    }
    if (!job.current()) return;
    const buffers = [values.buffer, ...(carried ? [low.buffer, high.buffer] : [])];
    job.post({ done: true, values, low, high }, buffers);
  },
});
