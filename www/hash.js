// The URL hash, which holds the page's state: the model, every parameter
// whose text differs from its default (as the last report lists them), the
// example chosen for each data set, a map the user changed, and `embed`
// (the page inside another page's iframe, showing only the parts it names:
// embed-mode.js), which the page keeps as it rewrites the hash.

import { state } from './state.js';
import { fieldText } from './wasm.js';
import { defaultsOf } from './form.js';

/** The hash's keys and values. */
export const hashParams = () => new URLSearchParams(location.hash.replace(/^#/, ''));

/** What the hash asks for: {model, values, examples, map (null: the model's first preset)}. */
export function readHash() {
  const h = hashParams();
  const { models, byId } = state.registry;
  const model = byId.get(h.get('model')) ?? models[0];
  const values = defaultsOf(model);
  for (const p of model.params) if (h.has(p.key)) values[p.key] = h.get(p.key);
  const examples = {};
  for (const d of model.datasets) if (h.has(`data.${d.id}`)) examples[d.id] = h.get(`data.${d.id}`);
  const grid = Number(h.get('map.grid') ?? model.maps[0]?.grid ?? 256);
  const map = h.has('map.x')
    ? { output: h.get('map.output') ?? model.maps[0]?.output ?? '', x: h.get('map.x'), y: h.get('map.y') ?? '', levels: (h.get('map.levels') ?? '').split(',').filter(Boolean).map(Number), nx: grid, ny: grid }
    : null;
  return { model, values, examples, map };
}

/** The `embed=` text of the hash (the parts an iframe shows), or null when the page is not embedded. */
export const embedText = () => hashParams().get('embed');

/** Writes the state to the hash (replacing the history entry: editing is not navigating). */
export function writeHash() {
  const h = new URLSearchParams();
  h.set('model', state.model.id);
  for (const key of state.results?.changed ?? []) h.set(key, state.values[key]);
  for (const [id, example] of Object.entries(state.data.example)) if (example) h.set(`data.${id}`, example);
  const r = state.map.request;
  if (state.map.custom && r) {
    h.set('map.output', r.output);
    h.set('map.x', r.x);
    h.set('map.y', r.y);
    h.set('map.levels', r.levels.map(fieldText).join(','));
    h.set('map.grid', String(r.nx));
  }
  const embed = embedText();
  if (embed !== null) h.set('embed', embed);
  const hash = '#' + h.toString();
  if (hash !== location.hash) history.replaceState(null, '', hash);
}
