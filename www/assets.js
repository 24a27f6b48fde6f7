// Where the page's code comes from: the two wasm modules and the workers.
// `npm start` serves them from the repository as they are; `npm run dist`
// (scripts/dist.mjs) swaps this one module for a generated one: hashed file
// names for dist/site, bytes and Blob URLs inlined for dist/isoperf.html.
// Nothing else in the page names a file.

/** The build, shown in the "updated" note (dist fills in the content hash). */
export const BUILD = 'dev';

/**
 * The module's bytes as a Response (compileStreaming) or BufferSource:
 * `core` is the first-paint module (registry, report), `full` has every export.
 */
export function wasmSource(which) {
  return fetch(new URL(which === 'core' ? '../pkg/isoperf_core_bg.wasm' : '../pkg/isoperf_bg.wasm', import.meta.url));
}

/** The full module's JavaScript glue, loaded after the first paint. */
export const fullGlue = () => import('../pkg/isoperf.js');

/** A new worker running `name` ('map' or 'sweep'). */
export function startWorker(name) {
  return new Worker(new URL(`./${name}-worker.js`, import.meta.url), { type: 'module' });
}
