// Computes iso-maps off the main thread, band by band, so the page never
// freezes: it reports progress after each band and drops a request as soon
// as a newer one arrives (the user dragging a value). A request the engine
// refuses (an empty range) is answered at once and cancels nothing. The grid
// goes back as a transferred buffer; the page lays out the image from it.

import { isoMapRows } from '../pkg/isoperf.js';
import { serve } from './worker-serve.js';

/** Nodes per band: small enough to report progress often, large enough to be cheap. */
const BAND_NODES = 8192;

serve({
  // No rows: checks the request and the parameters, computes nothing.
  check: ({ model, params, request }) => isoMapRows(model, params, request, 0, 0),
  async run({ model, params, request }, job) {
    const values = new Float64Array(request.nx * request.ny);
    // At least 16 bands, so a slow model (an LP per point) still shows progress.
    const band = Math.max(1, Math.min(Math.floor(BAND_NODES / request.nx), Math.ceil(request.ny / 16)));
    for (let j = 0; j < request.ny; j += band) {
      if (!job.current()) return; // superseded
      const end = Math.min(request.ny, j + band);
      values.set(isoMapRows(model, params, request, j, end), j * request.nx);
      job.progress(end / request.ny);
      await job.pause(); // let a newer request in before the next band
    }
    if (!job.current()) return;
    job.post({ done: true, values }, [values.buffer]);
  },
});
