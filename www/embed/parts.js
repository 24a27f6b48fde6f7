// Reading what an embed asks for: the parts to show (`show="outputs,chart:energy"`
// on <isoperf-model>, `embed=outputs,chart:gantt` in the page's hash), the
// parameters (`params="m=100&V=1e9"`, the hash's syntax) and the editable
// fields. All of it is untrusted text from another page's author: every
// problem comes back as a sentence to show as text, never as an exception,
// and nothing here is ever parsed as HTML. Knows no model by name: the
// model's charts, outputs, map presets and parameters come from the registry.

/** Longest `params` text read (a long per-processor list fits; a pasted book does not). */
export const MAX_PARAMS_CHARS = 100_000;
/** Longest `show` / `editable` text read, and most parts or fields taken from it. */
export const MAX_LIST_CHARS = 2_000;
export const MAX_PARTS = 16;
/** How much of an author's text a message quotes. */
const QUOTE_CHARS = 60;

/** `text` quoted for a message, cut to QUOTE_CHARS characters. */
export function quote(text) {
  const s = String(text);
  return `"${s.length > QUOTE_CHARS ? `${s.slice(0, QUOTE_CHARS)}…` : s}"`;
}

/** Items of a comma- (or space-) separated attribute. */
function items(text) {
  return String(text ?? '').slice(0, MAX_LIST_CHARS).split(/[\s,]+/).filter(Boolean);
}

const PART_HELP = {
  outputs: 'outputs',
  output: 'output:<key>',
  tables: 'tables',
  chart: 'chart:<id>',
  map: 'map:<preset id>',
  inputs: 'inputs',
};

/**
 * The parts named by `text` for `model`, in order and without repeats:
 * {kind: 'outputs' | 'tables' | 'inputs'}, {kind: 'output', key},
 * {kind: 'chart', id, chart, sweep}, {kind: 'map', id, preset}. `kinds` are
 * the kinds this embed understands; `sweeps`: whether `chart:` may name one
 * of the model's sweeps (the page computes them in a worker; the element
 * cannot); `hashMap`: whether a bare "map" means the map the hash describes
 * ({kind: 'map', id: '', preset: null}; the page only). Returns {parts,
 * problems}; with no valid part named, the outputs.
 */
export function parseParts(text, model, { kinds = ['outputs', 'output', 'tables', 'chart', 'map'], sweeps = false, hashMap = false, name = 'show' } = {}) {
  const parts = [];
  const problems = [];
  const seen = new Set();
  const list = items(text);
  if (String(text ?? '').length > MAX_LIST_CHARS) problems.push(`${name} is ${String(text).length} characters long; only the first ${MAX_LIST_CHARS} are read.`);
  if (list.length > MAX_PARTS) problems.push(`${name} names ${list.length} parts; only the first ${MAX_PARTS} are shown.`);
  const known = (what, all) => (all.length ? `its ${what}: ${all.join(', ')}` : `it has no ${what}`);
  for (const item of list.slice(0, MAX_PARTS)) {
    const colon = item.indexOf(':');
    const kind = colon < 0 ? item : item.slice(0, colon);
    const id = colon < 0 ? '' : item.slice(colon + 1);
    let part = null;
    if (!kinds.includes(kind)) {
      problems.push(`${name}: ${quote(item)} is not a part to show; use ${kinds.map((k) => PART_HELP[k]).join(', ')}.`);
    } else if (kind === 'outputs' || kind === 'tables' || kind === 'inputs') {
      if (id) problems.push(`${name}: ${quote(item)}: "${kind}" takes no ":…"; showing all the ${kind}.`);
      part = { kind };
    } else if (kind === 'output') {
      const output = model.outputs.find((o) => o.key === id);
      if (output) part = { kind, key: id };
      else problems.push(`${name}: ${model.id} has no output ${quote(id)}; ${known('outputs', model.outputs.map((o) => o.key))}.`);
    } else if (kind === 'chart') {
      const chart = model.charts.find((c) => c.id === id);
      const sweep = model.sweeps.find((s) => s.id === id);
      if (chart || (sweep && sweeps)) part = { kind, id, chart: chart ?? null, sweep: chart ? null : sweep };
      else if (sweep) problems.push(`${name}: ${quote(id)} is a sweep, computed in a worker: embed it with the iframe (index.html#…&embed=chart:${id}).`);
      else problems.push(`${name}: ${model.id} has no chart ${quote(id)}; ${known('charts', [...model.charts.map((c) => c.id), ...(sweeps ? model.sweeps.map((s) => s.id) : [])])}.`);
    } else if (kind === 'map') {
      const preset = model.maps.find((m) => m.id === id);
      if (preset) part = { kind, id, preset };
      else if (!id && hashMap && model.maps.length) part = { kind, id: '', preset: null };
      else if (!id) problems.push(`${name}: "map" needs a preset, map:<id>; ${known('maps', model.maps.map((m) => m.id))}.`);
      else problems.push(`${name}: ${model.id} has no map preset ${quote(id)}; ${known('maps', model.maps.map((m) => m.id))}.`);
    }
    if (!part) continue;
    const key = `${part.kind}:${part.key ?? part.id ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(part);
  }
  if (!parts.length) parts.push({ kind: 'outputs' });
  return { parts, problems };
}

/**
 * The parameters in `text` ("m=100&V=1e9", as in the hash; a leading # or ?
 * is allowed): {given: {key: text}, problems}. A key given twice takes its
 * first value, as the page reads its hash. Whether each key is a parameter
 * of the model and each value valid is the model's own check (report).
 */
export function parseParams(text) {
  const s = String(text ?? '');
  if (s.length > MAX_PARAMS_CHARS) {
    return { given: null, problems: [`params is ${s.length} characters long; at most ${MAX_PARAMS_CHARS} are read.`] };
  }
  const given = new Map();
  for (const [key, value] of new URLSearchParams(s.trim().replace(/^[#?]/, ''))) {
    if (!given.has(key)) given.set(key, value);
  }
  // fromEntries defines every key as its own property ("__proto__" too, which the model then refuses by name).
  return { given: Object.fromEntries(given), problems: [] };
}

/** The editable fields named by `text`: {keys, problems}, each key a parameter of `model`. */
export function parseEditable(text, model) {
  const keys = [];
  const problems = [];
  const list = items(text);
  if (list.length > model.params.length) problems.push(`editable names ${list.length} fields; ${model.id} has ${model.params.length} parameters.`);
  for (const key of list.slice(0, model.params.length)) {
    if (!model.params.some((p) => p.key === key)) {
      problems.push(`editable: ${quote(key)} is not a parameter of ${model.id}; its parameters are ${model.params.map((p) => p.key).join(', ')}.`);
    } else if (!keys.includes(key)) {
      keys.push(key);
    }
  }
  return { keys, problems };
}

/** `parts` as `show` / `embed=` text: the inverse of parseParts. */
export function partsText(parts) {
  return parts.map((p) => (p.kind === 'output' ? `output:${p.key}` : p.kind === 'chart' || (p.kind === 'map' && p.id) ? `${p.kind}:${p.id}` : p.kind)).join(',');
}
