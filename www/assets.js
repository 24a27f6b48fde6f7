// Where the page's code comes from: the two wasm modules and the workers.
// `npm start` serves them from the repository as they are; `npm run dist`
// (scripts/dist.mjs) swaps this one module for a generated one: hashed file
// names for dist/site, bytes and Blob URLs inlined for dist/isoperf.html.
// Nothing else in the page names a file.

/** The build, shown in the "updated" note (dist fills in the content hash). */
export const BUILD = 'dev';

/**
 * Whether the page paints its first prediction with the small first-paint
 * module before the full one (false where both are local anyway: the
 * single file).
 */
export const FIRST_PAINT_MODULE = true;

/**
 * The module's bytes as a Response (compileStreaming) or BufferSource:
 * `core` is the first-paint module (registry, report), `full` has every export.
 */
export function wasmSource(which) {
  return fetch(new URL(which === 'core' ? '../pkg/isoperf_core_bg.wasm' : '../pkg/isoperf_bg.wasm', import.meta.url));
}

/** The full module's JavaScript glue, loaded after the first paint. */
export const fullGlue = () => import('../pkg/isoperf.js');

/** The text of an example data file (`www/data/…`, as the registry names it). */
export async function exampleText(path) {
  const response = await fetch(new URL(`../${path}`, import.meta.url));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.text();
}

/** The service worker that keeps the site usable offline (only dist/site has one). */
export const SERVICE_WORKER = null;

/**
 * Where this build is published, for the Embed dialog's snippets: null when
 * it is the page's own address (only the single file, which has none of its
 * own, names a placeholder).
 */
export const PUBLISHED = null;

/** The script that defines <isoperf-model>, for the Embed dialog's snippet. */
export const embedScript = () => new URL('./embed/isoperf-embed.js', import.meta.url);

/**
 * The page's address (its index.html), for links to it from an
 * <isoperf-model> element on another page; null where there is none.
 */
export const pageAddress = () => new URL('../', import.meta.url).href;

/** A new worker running `name` ('map', 'sweep' or 'report'). */
export function startWorker(name) {
  return new Worker(new URL(`./${name}-worker.js`, import.meta.url), { type: 'module' });
}
