// The URL hash, which holds the page's state: the model, every parameter
// whose text differs from its default (as the last report lists them), the
// example chosen for each data set or its pasted text up to MAX_LINKED_DATA
// characters (`csv.<data set>`), the calibration panel's runs and choices
// (`cal.*`), a map the user changed, and `embed`
// (the page inside another page's iframe, showing only the parts it names:
// embed-mode.js), which the page keeps as it rewrites the hash. What a link
// names that does not exist is left out with a notice (readHash).

import { state } from './state.js';
import { fieldText } from './wasm.js';
import { defaultsOf, fittable } from './form.js';
import { GRIDS } from './map.js';

/** The hash's keys and values. */
export const hashParams = () => new URLSearchParams(location.hash.replace(/^#/, ''));

/** Keys of the hash that are not parameters: the model, the map's, `embed`. */
const PAGE_KEYS = new Set(['model', 'embed', 'scenario', 'map.output', 'map.x', 'map.y', 'map.levels', 'map.grid', 'cal.data', 'cal.csv', 'cal.z', 'cal.fit', 'cal.rel']);

/** The longest pasted data a link holds (characters): longer data stay in the page only, and its panel says so. */
export const MAX_LINKED_DATA = 2048;

/**
 * The longest compressed runs a link holds: 2 KB of deflate output, as
 * base64url (4 characters per 3 bytes). Runs longer than MAX_LINKED_DATA
 * go in the link compressed (`cal.z`) when they compress to this.
 */
export const MAX_LINKED_COMPRESSED = Math.ceil((2048 * 4) / 3);

/** The most scenarios a link pins (as scenarios.js). */
const MAX_SCENARIOS = 4;

/** A scenario in the link: `NAME;key=value;…` (each part percent-encoded), its values those that differ from the defaults. */
function scenarioText(s, defaults) {
  const parts = [s.name, ...Object.keys(s.values).filter((k) => s.values[k] !== defaults[k]).map((k) => `${k}=${s.values[k]}`)];
  return parts.map(encodeURIComponent).join(';');
}

/** Scenarios from the link's `scenario` entries: [{name, values}], and notices for what was left out. */
function readScenarios(h, model, notices) {
  const out = [];
  const texts = h.getAll('scenario');
  for (const text of texts.slice(0, MAX_SCENARIOS)) {
    let parts;
    try {
      parts = text.split(';').map(decodeURIComponent);
    } catch {
      notices.push(`The link's scenario ${quoted(text)} is not readable (broken percent-encoding): left out.`);
      continue;
    }
    const name = (parts[0] ?? '').trim().slice(0, 12) || String.fromCharCode(65 + out.length);
    const values = defaultsOf(model);
    const unknown = [];
    for (const part of parts.slice(1)) {
      const at = part.indexOf('=');
      const key = at < 0 ? part : part.slice(0, at);
      if (at > 0 && model.params.some((p) => p.key === key)) values[key] = part.slice(at + 1);
      else unknown.push(key);
    }
    if (unknown.length) notices.push(`The link's scenario ${quoted(name)} names ${unknown.slice(0, 3).map(quoted).join(', ')}, not ${unknown.length > 1 ? 'parameters' : 'a parameter'} of ${model.title}: left out.`);
    if (out.some((s) => s.name === name)) notices.push(`The link pins scenario ${quoted(name)} twice: the first is kept.`);
    else out.push({ name, values });
  }
  if (texts.length > MAX_SCENARIOS) notices.push(`The link pins ${texts.length} scenarios; at most ${MAX_SCENARIOS} are kept.`);
  return out;
}

/** A text from the link, quoted and cut, for a notice (shown as text, never parsed). */
const quoted = (text) => `'${text.length > 40 ? `${text.slice(0, 39)}…` : text}'`;

/**
 * What the hash asks for: {model, values, examples, texts (pasted data per
 * data set), map (null: the model's first preset), scenarios ([{name, values}]), notices}. What it names that does not exist (a model, a
 * parameter, a data set or example, a map grid the panel does not offer)
 * is left out, and `notices` says so in a sentence each.
 */
export function readHash() {
  const h = hashParams();
  const { models, byId } = state.registry;
  const notices = [];
  const asked = h.get('model');
  const model = byId.get(asked) ?? models.find((m) => m.id.toLowerCase() === asked?.trim().toLowerCase()) ?? models[0];
  if (asked !== null && model.id.toLowerCase() !== asked.trim().toLowerCase()) {
    notices.push(`The link names no model ${quoted(asked)}: showing ${model.title}.`);
  }
  const values = defaultsOf(model);
  for (const p of model.params) if (h.has(p.key)) values[p.key] = h.get(p.key);
  const examples = {};
  for (const d of model.datasets) {
    const example = h.get(`data.${d.id}`);
    if (example === null) continue;
    if (d.examples.some((e) => e.id === example)) examples[d.id] = example;
    else notices.push(`The link's example ${quoted(example)} for ${d.title} is not one of its examples (${d.examples.map((e) => e.id).join(', ')}): left out.`);
  }
  const texts = {};
  for (const d of model.datasets) {
    const text = h.get(`csv.${d.id}`);
    if (text === null || examples[d.id]) continue;
    if (text.length <= MAX_LINKED_DATA) texts[d.id] = text;
    else notices.push(`The link's data for ${d.title} is ${text.length} characters long, more than a link holds (${MAX_LINKED_DATA}): left out.`);
  }
  const dataKey = (k) => model.datasets.some((d) => `data.${d.id}` === k || `csv.${d.id}` === k);
  const unknown = [...new Set([...h.keys()])].filter((k) => !PAGE_KEYS.has(k) && !model.params.some((p) => p.key === k) && !dataKey(k));
  if (unknown.length) {
    const list = unknown.slice(0, 5).map(quoted).join(', ') + (unknown.length > 5 ? ` and ${unknown.length - 5} more` : '');
    notices.push(`The link's ${list} ${unknown.length > 1 ? 'are not parameters' : 'is not a parameter'} of ${model.title}: left out.`);
  }
  let map = null;
  if (h.has('map.x')) {
    const preset = model.maps[0];
    const text = h.get('map.grid');
    let grid = Number(text ?? preset?.grid ?? GRIDS[0]);
    if (!GRIDS.includes(grid)) {
      grid = preset?.grid ?? GRIDS[0];
      notices.push(`The link's map grid ${quoted(text)} is not one the map offers (${GRIDS.join(', ')} points per axis): ${grid} is used.`);
    }
    map = { output: h.get('map.output') ?? preset?.output ?? '', x: h.get('map.x'), y: h.get('map.y') ?? '', levels: (h.get('map.levels') ?? '').split(',').filter(Boolean).map(Number), nx: grid, ny: grid };
  }
  const scenarios = readScenarios(h, model, notices);
  return { model, values, examples, texts, map, scenarios, calibration: readCalibration(h, model, notices), notices };
}

/**
 * The calibration panel's entries: `cal.data` (an example), `cal.csv`
 * (pasted runs) or `cal.z` (longer runs, deflated, base64url: the panel
 * inflates them), `cal.fit`, `cal.rel`.
 */
function readCalibration(h, model, notices) {
  const cal = { example: '', text: '', compressed: '', fit: [], relative: h.get('cal.rel') === '1' };
  const example = h.get('cal.data');
  if (example !== null) {
    if (model.calibration_examples.some((e) => e.id === example)) cal.example = example;
    else notices.push(`The link's calibration example ${quoted(example)} is not one of ${model.title}'s: left out.`);
  }
  const text = h.get('cal.csv');
  if (text !== null && !cal.example) {
    if (text.length <= MAX_LINKED_DATA) cal.text = text;
    else notices.push(`The link's runs to calibrate from are ${text.length} characters long, more than a link holds (${MAX_LINKED_DATA}): left out.`);
  }
  const compressed = h.get('cal.z');
  if (compressed !== null && !cal.example && !cal.text) {
    if (compressed.length <= MAX_LINKED_COMPRESSED && /^[\w-]*$/.test(compressed)) cal.compressed = compressed;
    else notices.push(`The link's compressed runs to calibrate from are not readable (${compressed.length} characters; at most ${MAX_LINKED_COMPRESSED} of base64url): left out.`);
  }
  const movable = new Set(fittable(model).map((p) => p.key));
  const fit = (h.get('cal.fit') ?? '').split(',').filter(Boolean);
  const unknown = fit.filter((k) => !movable.has(k));
  if (unknown.length) notices.push(`The link asks to fit ${unknown.slice(0, 3).map(quoted).join(', ')}, not ${unknown.length > 1 ? 'parameters' : 'a parameter'} of ${model.title} a fit can move: left out.`);
  cal.fit = [...new Set(fit.filter((k) => movable.has(k)))];
  return cal;
}

/** The `embed=` text of the hash (the parts an iframe shows), or null when the page is not embedded. */
export const embedText = () => hashParams().get('embed');

/** Writes the state to the hash (replacing the history entry: editing is not navigating). */
export function writeHash() {
  const h = new URLSearchParams();
  h.set('model', state.model.id);
  for (const key of state.results?.changed ?? []) h.set(key, state.values[key]);
  for (const [id, example] of Object.entries(state.data.example)) if (example) h.set(`data.${id}`, example);
  for (const d of state.model.datasets) {
    const text = state.data.text[d.id] ?? '';
    if (!state.data.example[d.id] && text.trim() && text.length <= MAX_LINKED_DATA) h.set(`csv.${d.id}`, text);
  }
  const c = state.calibration;
  if (c.example) h.set('cal.data', c.example);
  else if (c.text.trim() && c.text.length <= MAX_LINKED_DATA) h.set('cal.csv', c.text);
  else if (c.compressed?.pending || (c.text.trim() && c.compressed?.text === c.text && c.compressed.z.length <= MAX_LINKED_COMPRESSED)) h.set('cal.z', c.compressed.z);
  const runs = c.example || c.text.trim() || c.compressed?.pending;
  if (runs && c.fit.length) h.set('cal.fit', c.fit.join(','));
  if (runs && c.relative) h.set('cal.rel', '1');
  const r = state.map.request;
  if (state.map.custom && r) {
    h.set('map.output', r.output);
    h.set('map.x', r.x);
    h.set('map.y', r.y);
    h.set('map.levels', r.levels.map(fieldText).join(','));
    h.set('map.grid', String(r.nx));
  }
  const defaults = state.scenarios.length ? defaultsOf(state.model) : null;
  for (const s of state.scenarios) h.append('scenario', scenarioText(s, defaults));
  const embed = embedText();
  if (embed !== null) h.set('embed', embed);
  const hash = '#' + h.toString();
  if (hash !== location.hash) history.replaceState(null, '', hash);
}
