// Computes iso-maps off the main thread, band by band, so the page never
// freezes: it reports progress after each band and drops a request as soon
// as a newer one arrives (the user dragging a value).

import init, { isoAxis, isoMapRows, isoLines } from '../pkg/isoperf.js';

const ready = init();
let latest = 0;

/** Nodes per band: small enough to report progress often, large enough to be cheap. */
const BAND_NODES = 8192;

self.onmessage = async ({ data }) => {
  const { id, model, params, request } = data;
  latest = id;
  await ready;
  const values = new Float64Array(request.nx * request.ny);
  // At least 16 bands, so a slow model (an LP per point) still shows progress.
  const band = Math.max(1, Math.min(Math.floor(BAND_NODES / request.nx), Math.ceil(request.ny / 16)));
  try {
    for (let j = 0; j < request.ny; j += band) {
      if (latest !== id) return; // superseded
      const end = Math.min(request.ny, j + band);
      values.set(isoMapRows(model, params, request, j, end), j * request.nx);
      self.postMessage({ id, progress: end / request.ny });
      // Let a newer request's message in before the next band.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (latest !== id) return;
    const isolines = isoLines(values, request);
    // The node coordinates as the engine computed them (for export).
    const xs = isoAxis(request.x, request.nx);
    const ys = isoAxis(request.y, request.ny);
    self.postMessage({ id, done: true, values, isolines, xs, ys }, [values.buffer]);
  } catch (e) {
    self.postMessage({ id, error: e.message, field: e.field ?? '' });
  }
};
