// The calibration's uncertainty carried into the model's own charts,
// sweeps and map: while the form holds the fitted values of the last fit
// (after "Use the fitted values in the model", or a link that has them),
// each curve gets the band of its 95% interval and the map turns pale
// where that interval straddles a level. Reads the state only.

import { state } from './state.js';

/**
 * `{parameters, covariance, t95}` of the last calibration while every
 * fitted parameter of the form holds its fitted value (to within a
 * thousandth of its standard error: a refit from there moves it by less),
 * else `undefined` (what the wasm exports take for none).
 */
export function carried() {
  const r = state.calibration.calibrated?.result;
  if (!r?.parameters?.length) return undefined;
  if (!r.covariance.flat().every(Number.isFinite) || !Number.isFinite(r.t95)) return undefined;
  for (const key of r.parameters) {
    const f = r.fitted[key];
    const v = Number(state.values[key]);
    if (!f || !Number.isFinite(v) || Math.abs(v - f.value) > Math.max(1e-9 * Math.abs(f.value), 1e-3 * (f.stderr ?? 0))) return undefined;
  }
  return { parameters: r.parameters, covariance: r.covariance, t95: r.t95 };
}

/** What changes the bands: which parameters, and their covariance to six figures (a refit from the fitted values moves it less). */
export function carriedKey(c = carried()) {
  return c ? JSON.stringify([c.parameters, c.covariance.flat().map((v) => v.toPrecision(6)), c.t95.toPrecision(6)]) : '';
}
