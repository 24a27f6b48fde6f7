// <isoperf-model>: a live isoperf model inside any page.
//
//   <script type="module" src="https://…/www/embed/isoperf-embed.js"></script>
//   <isoperf-model model="dlt" params="m=100&amp;V=1e9" show="outputs,chart:energy" editable="m,V"></isoperf-model>
//
// Attributes (all optional but `model`; changing one from script re-renders):
//   model     a model id of the registry (pmm, dlt, …)
//   params    parameters as in the page's URL hash ("m=100&V=1e9"); the rest take their defaults
//   show      comma list of parts: outputs, output:<key>, tables, chart:<id>, map:<preset id>
//             (default: outputs); a map preset's values apply as when it is chosen in the page
//   editable  comma list of parameter keys shown as inputs (edits recompute live)
//   compact   (boolean) a tighter layout
// It fires `isoperf-update` (detail: {model, values, outputs, problems}) after every computation.
//
// Every element of a page shares one wasm instance: they all import
// ../wasm.js, and an ES module is evaluated once per page. The first-paint
// module answers outputs and tables; the full one is loaded only for charts
// and maps. A report whose evaluation is long (quickReport defers it:
// MapReduce's largest shuffles) is computed here too, in a task after
// "Computing…" is painted. No worker (a page cannot start one from another origin): a map
// preset's grid (at most 64 × 64) is computed here in bands of rows of about
// 12 ms each, yielding to the page between bands. Attributes are untrusted text: each problem is a message
// inside the element (set as textContent, never parsed as HTML), and nothing
// the element does throws into the host page. Styles live in the shadow
// root (style.js), themed by the host through --isoperf-* custom properties
// and following the host's light or dark scheme. After an internal error
// (a trap: wasm.js has replaced the instance and thrown an Error with
// `internal`), the element says so with a link to the full page showing its
// model and values, and goes on computing.

import { el, plain, rich, sizeCanvas } from '../dom.js';
import * as wasm from '../wasm.js';
import { pageAddress } from '../assets.js';
import { defaultsOf, presetText } from '../form.js';
import { tableCards } from '../results.js';
import { chartFigure } from '../charts.js';
import { paint, parseAxis, readout } from '../map.js';
import { parseEditable, parseParams, parseParts, quote } from './parts.js';
import { STYLE } from './style.js';

const TAG = 'isoperf-model';
/** The largest map grid an element computes on the page's own thread. */
const MAP_GRID = 64;
/** Milliseconds of map rows computed before the element yields to the page (a band). */
const MAP_SLICE_MS = 12;
/** Milliseconds a map waits after an edit (typing recomputes it once). */
const MAP_DELAY = 150;
/** Charts and maps are drawn for at most this pixel ratio. */
const MAX_DPR = 3;
/** Longest message shown (a model's message may quote a long value). */
const MAX_MESSAGE = 400;

/**
 * What every element of the page shares: the first-paint module's start
 * (one promise), the connected elements (to follow the host's colour
 * scheme), and a 1 × 1 canvas that reads a CSS colour.
 */
const shared = { core: null, elements: new Set(), watching: false, probe: null, recheck: 0 };

/** The first-paint module and the registry, started once per page. */
function loadCore() {
  shared.core ??= wasm.start().then(() => wasm.loadRegistry());
  return shared.core;
}

/** The full module (charts, maps): after the first-paint one, which would otherwise replace it. */
/**
 * The element's style sheet, built once and adopted by every shadow root:
 * a constructed sheet, which a host page's strict Content-Security-Policy
 * (no 'unsafe-inline' styles) allows where a <style> element would be blocked.
 */
let styleSheet = null;
function sheet() {
  if (!styleSheet) {
    styleSheet = new CSSStyleSheet();
    styleSheet.replaceSync(STYLE);
  }
  return styleSheet;
}

const loadFull = () => loadCore().then(() => wasm.startFull());

const clip = (text) => {
  const s = String(text);
  return s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}…` : s;
};
const pixelRatio = () => Math.min(MAX_DPR, Math.max(1, window.devicePixelRatio || 1));

/** A CSS colour as [r, g, b, alpha 0…1] (any syntax getComputedStyle returns). */
function colourOf(css) {
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(css);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : Number(m[4])];
  shared.probe ??= Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d', { willReadFrequently: true });
  const ctx = shared.probe;
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = 'transparent';
  ctx.fillStyle = css;
  ctx.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
}

/** Relative luminance of an sRGB colour (0 black … 1 white). */
function luminance([r, g, b]) {
  const lin = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * The host's scheme at `host`: its `color-scheme` when that names only one,
 * else the colour it sits on (the nearest opaque background up the tree,
 * across shadow roots), else the reader's preference if the host allows dark.
 */
function schemeOf(host) {
  const tokens = getComputedStyle(host).colorScheme.split(/\s+/);
  const light = tokens.includes('light');
  const dark = tokens.includes('dark');
  if (light !== dark) return dark ? 'dark' : 'light';
  for (let node = host; node; node = node.parentElement ?? node.getRootNode().host) {
    const rgba = colourOf(getComputedStyle(node).backgroundColor);
    if (rgba[3] > 0.5) return luminance(rgba) < 0.18 ? 'dark' : 'light';
  }
  return dark && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** A problem of a report as a sentence that names what is wrong. */
function problemText(model, p) {
  if (!p.key) return p.message;
  const param = model.params.find((q) => q.key === p.key);
  return param ? `${plain(param.label)} (${p.key}): ${p.message}` : `params: ${quote(p.key)} ${p.message}`;
}

/**
 * A link to the full page showing `model` with `values` (each text that
 * differs from its default), or null where this build has no page address.
 */
function pageLink(model, values) {
  const page = pageAddress();
  if (!page) return null;
  const defaults = defaultsOf(model);
  const hash = new URLSearchParams({ model: model.id });
  for (const p of model.params) if (values[p.key] !== undefined && values[p.key] !== defaults[p.key]) hash.set(p.key, values[p.key]);
  return `${page}#${hash}`;
}

function outputCard(o) {
  return el('div', { class: 'output', 'data-output': o.key, title: plain(o.help) },
    el('span', { class: 'output-label' }, rich(o.label)),
    el('span', { class: 'output-value' }, el('output', { text: '—' }), el('span', { class: 'unit' })),
    el('span', { class: 'output-human' }),
    el('span', { class: 'output-remark' }));
}

function fieldFor(p, value) {
  const id = `f-${p.key}`;
  const control = p.kind === 'choice'
    ? el('select', { id, 'data-key': p.key, 'aria-describedby': `${id}-error` }, p.options.map((o) => el('option', { value: o.value, text: o.label })))
    : el('input', { id, type: 'text', inputmode: 'decimal', spellcheck: 'false', autocomplete: 'off', 'data-key': p.key, 'aria-describedby': `${id}-error` });
  control.value = value;
  return el('div', { class: 'field', 'data-key': p.key, title: plain(p.help) },
    el('label', { for: id }, rich(p.label), p.unit ? el('span', { class: 'unit', text: ` (${p.unit})` }) : null),
    control,
    el('p', { class: 'field-hint' }),
    el('p', { class: 'field-error', id: `${id}-error`, role: 'alert' }));
}

function mapFigure(preset, model) {
  return el('figure', { class: 'map', 'data-map': preset.id },
    el('progress', { max: 1, value: 0, hidden: true, 'aria-label': `Computing ${preset.label}` }),
    el('canvas', { class: 'map-canvas', role: 'img', 'aria-label': preset.label }),
    el('p', { class: 'chart-error', role: 'status' }),
    el('p', { class: 'map-readout', role: 'status', text: 'Point at the map to read a value.' }),
    el('figcaption', {}, el('strong', { text: `${preset.label}. ` }), `Blank: ${model.gaps}.`));
}

class IsoperfModel extends HTMLElement {
  static observedAttributes = ['model', 'params', 'show', 'editable', 'compact'];

  /** The shadow root's container. */
  #root;
  /** What is shown: {model, values, parts, editable, report, maps, mapToken}; null before a model is. */
  #view = null;
  /** Bumped by every render: work of an older one stops at its next step. */
  #gen = 0;
  #queued = false;
  #width = 0;
  #frame = 0;
  #mapTimer = 0;
  /** Bumped by every quick report: a long report waiting for an older one is dropped. */
  #longToken = 0;
  /** The internal-error notice, until dismissed (it stays through re-renders). */
  #notice = null;
  #resize = new ResizeObserver(() => this.#resized());

  constructor() {
    super();
    this.#root = el('div', { class: 'root', part: 'root', 'data-state': 'loading' },
      el('p', { class: 'loading', text: 'Loading the isoperf model…' }));
    // (A shadow root the host's HTML declared is replaced: the element owns what it shows.)
    (this.shadowRoot ?? this.attachShadow({ mode: 'open' })).replaceChildren(this.#root);
    this.shadowRoot.adoptedStyleSheets = [sheet()];
    this.#root.addEventListener('input', (e) => this.#guard(() => this.#edited(e)));
    this.#root.addEventListener('change', (e) => this.#guard(() => this.#edited(e)));
    this.#root.addEventListener('mousemove', (e) => this.#guard(() => this.#hover(e)));
  }

  connectedCallback() {
    shared.elements.add(this);
    IsoperfModel.#watchScheme();
    this.#guard(() => this.#applyScheme());
    this.#resize.observe(this.#root);
    this.#schedule();
  }

  disconnectedCallback() {
    shared.elements.delete(this);
    this.#resize.disconnect();
    this.#gen += 1; // abandons the work under way
    cancelAnimationFrame(this.#frame);
    clearTimeout(this.#mapTimer);
  }

  attributeChangedCallback(name, previous, value) {
    if (previous !== value && this.isConnected) this.#schedule();
  }

  /** Runs `fn`; a failure becomes a message in the element, never an error in the host page. */
  #guard(fn) {
    try {
      fn();
    } catch (e) {
      if (e?.internal) this.#internal();
      else this.#fatal(`isoperf failed: ${e?.message ?? e}`);
    }
  }

  /**
   * After a trap in one of this element's calls (the instance is already
   * replaced): the notice, with a link that reproduces it, at the top.
   */
  #internal() {
    const view = this.#view;
    const link = view ? pageLink(view.model, view.values) : null;
    const text = link
      ? ['Internal error — please report this link: ', el('a', { href: link, target: '_blank', rel: 'noopener', text: clip(link) })]
      : [clip(`Internal error — please report it with this element's model="${view?.model.id ?? this.getAttribute('model') ?? ''}" and params="${this.getAttribute('params') ?? ''}".`)];
    this.#notice ??= el('div', { class: 'internal', role: 'alert' },
      el('p', { class: 'internal-text' }),
      el('button', { type: 'button', class: 'internal-dismiss', text: 'Dismiss', onclick: () => {
        this.#notice?.remove();
        this.#notice = null;
      } }));
    this.#notice.querySelector('.internal-text').replaceChildren(...text);
    if (this.#notice.parentNode !== this.#root) this.#root.prepend(this.#notice);
  }

  /** One render for all the attributes a script sets in one go. */
  #schedule() {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      if (this.isConnected) this.#render().catch((e) => this.#fatal(`isoperf failed: ${e?.message ?? e}`));
    });
  }

  #fatal(message) {
    this.#gen += 1;
    this.#view = null;
    clearTimeout(this.#mapTimer);
    this.#root.replaceChildren(el('div', { class: 'messages', role: 'alert' }, el('p', { text: clip(message) })));
    this.#root.dataset.state = 'error';
  }

  #applyScheme() {
    const scheme = schemeOf(this);
    if (this.#root.dataset.scheme === scheme) return;
    this.#root.dataset.scheme = scheme;
    this.#scheduleCharts({ maps: true }); // charts and maps paint in the scheme's colours
  }

  /** Follows the host's scheme: the reader's preference, and class or style changes on <html> and <body>. */
  static #watchScheme() {
    if (shared.watching) return;
    shared.watching = true;
    const recheck = () => {
      for (const e of shared.elements) {
        try {
          e.#applyScheme();
        } catch { /* an element being torn down */ }
      }
    };
    // Now, and once the host's colour transitions are over.
    const soon = () => {
      cancelAnimationFrame(shared.recheck);
      shared.recheck = requestAnimationFrame(recheck);
      setTimeout(recheck, 400);
    };
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', soon);
    const observer = new MutationObserver(soon);
    for (const node of [document.documentElement, document.body]) if (node) observer.observe(node, { attributes: true });
    if (document.head) observer.observe(document.head, { childList: true });
  }

  async #render() {
    const gen = ++this.#gen;
    const current = () => gen === this.#gen;
    clearTimeout(this.#mapTimer);
    this.#root.classList.toggle('compact', this.hasAttribute('compact'));
    this.#root.dataset.state = 'loading';
    try {
      await loadCore();
    } catch (e) {
      if (current()) {
        this.#fatal(`isoperf could not load its WebAssembly module (${e?.message ?? e}). The server of isoperf-embed.js must also serve the pkg/ folder beside www/, and allow other origins (access-control-allow-origin).`);
      }
      return;
    }
    if (!current()) return;
    this.#applyScheme();
    const { models, byId } = wasm.loadRegistry();
    const id = (this.getAttribute('model') ?? '').trim();
    const model = byId.get(id);
    if (!model) {
      const known = models.map((m) => `${m.id} (${m.title})`).join(', ');
      this.#fatal(id ? `isoperf has no model ${quote(id)}; model="…" takes one of: ${known}.` : `Choose an isoperf model with model="…": ${known}.`);
      return;
    }
    const shown = parseParts(this.getAttribute('show') ?? 'outputs', model);
    const editable = parseEditable(this.getAttribute('editable'), model);
    const params = parseParams(this.getAttribute('params'));
    // A map preset's values apply as when the preset is chosen in the page; the author's params win.
    let values = defaultsOf(model);
    for (const part of shown.parts) if (part.kind === 'map') for (const [key, value] of part.preset.values) values[key] = presetText(value);
    values = { ...values, ...params.given };
    const view = {
      model, values, parts: shown.parts, editable: editable.keys, blocked: !params.given,
      report: null, maps: new Map(), mapToken: 0,
    };
    this.#view = view;
    this.#root.dataset.model = model.id;
    this.#root.replaceChildren(...this.#skeleton(view, [...params.problems, ...shown.problems, ...editable.problems]));
    if (this.#notice) this.#root.prepend(this.#notice);
    this.#compute();
    if (!view.parts.some((p) => p.kind === 'chart' || p.kind === 'map')) return;
    try {
      await loadFull();
    } catch (e) {
      if (!current()) return;
      for (const fig of this.#root.querySelectorAll('figure')) {
        fig.querySelector('.chart-error').textContent = clip(`Not drawn: the full WebAssembly module did not load (${e?.message ?? e}).`);
        fig.classList.add('stale');
        fig.dataset.state = 'error';
      }
      return;
    }
    if (!current()) return;
    this.#drawCharts();
    this.#computeMaps();
  }

  #skeleton(view, notes) {
    const { model } = view;
    const nodes = [
      el('div', { class: 'messages', role: 'alert' }, notes.map((t) => el('p', { text: clip(t) }))),
      el('div', { class: 'problems', role: 'alert' }),
      el('div', { class: 'warnings', role: 'status' }),
    ];
    if (view.editable.length) {
      nodes.push(el('div', { class: 'fields' }, view.editable.map((key) => fieldFor(model.params.find((p) => p.key === key), view.values[key]))));
    }
    const all = view.parts.some((p) => p.kind === 'outputs');
    const outputs = all ? model.outputs : view.parts.filter((p) => p.kind === 'output').map((p) => model.outputs.find((o) => o.key === p.key));
    let outputsPlaced = false;
    for (const part of view.parts) {
      if (part.kind === 'outputs' || part.kind === 'output') {
        if (!outputsPlaced) nodes.push(el('div', { class: 'outputs', 'aria-live': 'polite' }, outputs.map(outputCard)));
        outputsPlaced = true;
      } else if (part.kind === 'tables') {
        nodes.push(el('div', { class: 'tables' }));
      } else if (part.kind === 'chart') {
        nodes.push(chartFigure(part.chart));
      } else if (part.kind === 'map') {
        nodes.push(mapFigure(part.preset, model));
      }
    }
    nodes.push(el('p', { class: 'credit', title: model.paper, text: `isoperf · ${model.title}` }));
    return nodes;
  }

  /**
   * One quick report for the values: problems, outputs, remarks, tables,
   * field states; a deferred one (a long evaluation) shows "Computing…" and
   * is computed whole after that is painted (#computeLong).
   */
  #compute() {
    const view = this.#view;
    const r = this.#reportOf(() => {
      if (view.blocked) throw new Error('No results: params is too long.');
      return wasm.quickReport(view.model.id, { ...view.values });
    });
    this.#longToken += 1; // a long report still waiting is no longer wanted
    if (r.deferred) this.#computeLong();
    this.#show(r);
  }

  /**
   * The whole report for a deferred one, on this thread (an element has no
   * worker): in a task after the next paint, so "Computing…" shows first;
   * an edit before then supersedes it.
   */
  #computeLong() {
    const view = this.#view;
    const token = this.#longToken;
    const wanted = () => view === this.#view && token === this.#longToken && this.isConnected;
    requestAnimationFrame(() => setTimeout(() => this.#guard(() => {
      if (!wanted()) return;
      this.#show(this.#reportOf(() => wasm.report(view.model.id, { ...view.values })));
      this.#scheduleCharts();
    }), 0));
  }

  /** The report `call` gives, or one whose only problem is its error (after a trap, with the notice). */
  #reportOf(call) {
    try {
      return call();
    } catch (e) {
      if (e?.internal) this.#internal();
      return { problems: [{ key: '', message: e?.message ?? String(e) }], outputs: null, display: null, tables: null, remarks: [], fields: {} };
    }
  }

  /** Shows report `r` (and tells the host, unless it is still computing). */
  #show(r) {
    const view = this.#view;
    const root = this.#root;
    view.report = r;

    const atField = new Map();
    const general = [];
    for (const p of r.problems) {
      if (view.editable.includes(p.key)) {
        if (!atField.has(p.key)) atField.set(p.key, p.message);
      } else {
        general.push(problemText(view.model, p));
      }
    }
    if (atField.size && !general.length) general.push(`No results: fix the highlighted field${atField.size > 1 ? 's' : ''}.`);
    if (r.deferred && !general.length) general.push('Computing… (a long evaluation)');
    root.querySelector('.problems').replaceChildren(...general.map((t) => el('p', { text: clip(t) })));
    for (const field of root.querySelectorAll('.field[data-key]')) {
      const key = field.dataset.key;
      const message = atField.get(key) ?? '';
      field.querySelector('.field-error').textContent = clip(message);
      field.classList.toggle('invalid', Boolean(message));
      field.querySelector('[data-key]').setAttribute('aria-invalid', message ? 'true' : 'false');
      const state = r.fields?.[key];
      field.classList.toggle('inapplicable', state ? !state.active : false);
      field.querySelector('.field-hint').textContent = state?.hint ?? '';
    }

    const remarks = r.remarks ?? [];
    root.querySelector('.warnings').replaceChildren(...remarks.filter((x) => x.level === 'warning').map((x) => el('p', {}, rich(clip(x.text)))));
    for (const card of root.querySelectorAll('.output[data-output]')) {
      const o = view.model.outputs.find((x) => x.key === card.dataset.output);
      const value = r.outputs?.[o.key];
      const shown = r.display?.[o.key];
      card.querySelector('output').textContent = shown?.text ?? '—';
      card.querySelector('.unit').textContent = o.unit && value !== null && value !== undefined ? ` ${o.unit}` : '';
      card.querySelector('.output-human').textContent = o.unit === 's' ? shown?.human ?? '' : '';
      card.querySelector('.output-remark').replaceChildren(...rich(remarks.filter((x) => x.key === o.key).map((x) => x.text).join(' ')));
    }
    root.querySelector('.outputs')?.classList.toggle('stale', r.problems.length > 0 || r.deferred);
    const tables = root.querySelector('.tables');
    if (tables) {
      if (r.tables) tables.replaceChildren(...tableCards(r.tables));
      tables.classList.toggle('stale', !r.tables);
    }
    root.dataset.state = r.problems.length ? 'invalid' : r.deferred ? 'computing' : 'ready';
    if (r.deferred) return;
    this.dispatchEvent(new CustomEvent('isoperf-update', {
      detail: { model: view.model.id, values: { ...view.values }, outputs: r.outputs, problems: r.problems },
    }));
  }

  #edited(event) {
    const view = this.#view;
    const key = event.target?.dataset?.key;
    if (!view || !key || !view.editable.includes(key) || view.values[key] === event.target.value) return;
    view.values[key] = event.target.value;
    this.#compute();
    this.#scheduleCharts();
    clearTimeout(this.#mapTimer);
    if (wasm.fullReady()) this.#mapTimer = setTimeout(() => this.#computeMaps(), MAP_DELAY);
  }

  #resized() {
    const width = Math.round(this.#root.clientWidth);
    if (width === this.#width) return;
    this.#width = width;
    this.#scheduleCharts({ maps: true });
  }

  /** Draws the charts (and repaints the maps, after a new width) in the next frame. */
  #scheduleCharts({ maps = false } = {}) {
    if (!this.#view || !wasm.fullReady()) return;
    cancelAnimationFrame(this.#frame);
    this.#frame = requestAnimationFrame(() => this.#guard(() => {
      this.#drawCharts();
      if (maps) for (const fig of this.#root.querySelectorAll('figure[data-map]')) this.#paintMap(fig);
    }));
  }

  #drawCharts() {
    const view = this.#view;
    if (!view || view.report?.deferred) return; // drawn once the long report is in (#computeLong)
    const ratio = pixelRatio();
    const blocked = view.report?.problems.length ? view.report.problems.map((p) => problemText(view.model, p)).join(' ') : '';
    for (const fig of this.#root.querySelectorAll('figure[data-chart]')) {
      const canvas = fig.querySelector('canvas');
      const note = fig.querySelector('.chart-note');
      const error = fig.querySelector('.chart-error');
      sizeCanvas(canvas, ratio);
      try {
        note.textContent = wasm.drawChart(canvas, view.model.id, fig.dataset.chart, { ...view.values }, ratio, this.#root.dataset.scheme === 'dark' ? 'dark' : 'light') ?? '';
        error.textContent = '';
        fig.classList.remove('stale');
        fig.dataset.state = 'drawn';
      } catch (e) {
        if (e?.internal) this.#internal();
        error.textContent = clip(`Not drawn: ${blocked || e?.message}`);
        note.textContent = '';
        fig.classList.add('stale');
        fig.dataset.state = 'error';
      }
    }
  }

  /**
   * Computes every map preset shown for the current values, band by band on
   * this thread (no worker), yielding to the page between bands; a newer
   * edit or render abandons it.
   */
  async #computeMaps() {
    const view = this.#view;
    if (!view) return;
    const token = ++view.mapToken;
    const current = () => view === this.#view && token === view.mapToken;
    for (const fig of this.#root.querySelectorAll('figure[data-map]')) {
      const preset = view.model.maps.find((m) => m.id === fig.dataset.map);
      const grid = Math.min(preset.grid, MAP_GRID);
      const request = { output: preset.output, x: preset.x, y: preset.y, levels: [...preset.levels], nx: grid, ny: grid };
      const params = { ...view.values };
      const error = fig.querySelector('.chart-error');
      const progress = fig.querySelector('progress');
      try {
        wasm.isoMapRows(view.model.id, params, request, 0, 0); // checks the request and the values, computes nothing
        fig.dataset.state = 'computing';
        progress.value = 0;
        progress.hidden = false;
        const values = new Float64Array(grid * grid);
        // Bands of rows as many as fit in MAP_SLICE_MS (an LP per point is slow), then a yield to the page.
        let slice = performance.now();
        for (let j = 0; j < grid; j += 1) {
          values.set(wasm.isoMapRows(view.model.id, params, request, j, j + 1), j * grid);
          if (performance.now() - slice < MAP_SLICE_MS) continue;
          progress.value = (j + 1) / grid;
          await new Promise((resolve) => setTimeout(resolve));
          if (!current()) return;
          slice = performance.now();
        }
        progress.hidden = true;
        error.textContent = '';
        view.maps.set(preset.id, { ...request, request, values, x: parseAxis(request.x), y: parseAxis(request.y), geometry: null });
        this.#paintMap(fig);
      } catch (e) {
        if (e?.internal) this.#internal();
        if (!current()) return;
        progress.hidden = true;
        view.maps.delete(preset.id);
        error.textContent = clip(`Not drawn: ${e?.message ?? e}`);
        fig.classList.add('stale');
        fig.dataset.state = 'error';
      }
    }
  }

  #paintMap(fig) {
    const view = this.#view;
    const m = view?.maps.get(fig.dataset.map);
    if (!m) return;
    const canvas = fig.querySelector('canvas');
    const width = Math.min(1200, Math.max(280, Math.round(canvas.clientWidth || 640)));
    m.geometry = paint(canvas, wasm.mapLayout(view.model.id, m.request, m.values, width), pixelRatio());
    fig.classList.remove('stale');
    fig.dataset.state = 'drawn';
  }

  #hover(event) {
    const canvas = event.target;
    if (!canvas.classList?.contains('map-canvas')) return;
    const fig = canvas.closest('figure');
    const view = this.#view;
    const m = view?.maps.get(fig.dataset.map);
    if (!m?.geometry) return;
    const rect = canvas.getBoundingClientRect();
    const r = readout(m, m.geometry, event.clientX - rect.left, event.clientY - rect.top);
    if (!r) return;
    const value = Number.isFinite(r.value) ? wasm.formatNumber(r.value, 4) : `— (${view.model.gaps})`;
    fig.querySelector('.map-readout').textContent = `${m.x.key} = ${wasm.formatNumber(r.x, 4)}, ${m.y.key} = ${wasm.formatNumber(r.y, 4)}: ${m.output} = ${value}`;
  }
}

// Defined once, even when a page includes the script twice (or two copies of it).
if (!customElements.get(TAG)) customElements.define(TAG, IsoperfModel);
