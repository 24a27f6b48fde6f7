// The page embedded in another page, and the Embed dialog.
//
// Iframe mode: `embed=outputs,chart:gantt` in the hash (the parts of
// www/embed/parts.js, plus `inputs` for the form and a bare `map` for the map
// the hash describes) hides the masthead, tabs, notes, footer and every part
// not named, and posts {type: 'isoperf:height', height} to the parent page
// whenever the content's height changes, so a three-line listener there
// sizes the frame. What is hidden is one generated style sheet (it survives
// the page's re-renders); it is built only from the registry's ids.
//
// The Embed dialog writes both snippets for the current view: the
// <isoperf-model> element (script URL from the page's own address) and the
// iframe with its listener. Knows no model by name.

import { $, el, notice } from './dom.js';
import { state } from './state.js';
import { embedText, hashParams } from './hash.js';
import { PUBLISHED, embedScript } from './assets.js';
import { parseEditable, parseParts, partsText } from './embed/parts.js';

/** The tallest frame the iframe snippet's listener allows (px): a runaway height stays bounded. */
const MAX_FRAME_HEIGHT = 5000;

const pageUrl = () => PUBLISHED ?? location.href.split('#')[0];

/** A parameter's text in a hash or `params`: percent-encoded, but commas and colons kept readable. */
const encode = (text) => encodeURIComponent(text).replace(/%2C/gi, ',').replace(/%3A/gi, ':');
/** Text in a double-quoted HTML attribute. */
const attr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A CSS attribute selector value. */
const sel = (text) => `"${CSS.escape(text)}"`;

/**
 * The style sheet that hides what an embed does not name: a constructed
 * sheet, which the page's Content-Security-Policy allows (a generated
 * <style> element would be inline style).
 */
const embedSheet = new CSSStyleSheet();

/** The rules of that sheet for `parts`. */
function embedStyle(parts) {
  const has = (kind) => parts.some((p) => p.kind === kind);
  const rules = [];
  const hide = (selector) => rules.push(`${selector} { display: none !important; }`);
  if (!has('inputs')) {
    hide('.layout > .inputs');
    hide('#datasets');
    hide('#calibration');
    rules.push('.layout { grid-template-columns: minmax(0, 1fr) !important; }');
  }
  const outputs = parts.filter((p) => p.kind === 'output').map((p) => p.key);
  if (!has('outputs') && !outputs.length) hide('#outputs');
  else if (!has('outputs')) hide(`#outputs > .output${outputs.map((k) => `:not([data-output=${sel(k)}])`).join('')}`);
  if (!has('tables')) hide('#tables');
  const charts = parts.filter((p) => p.kind === 'chart').map((p) => p.id);
  if (!charts.length) hide('#charts');
  else hide(`#charts > figure${charts.map((id) => `:not([data-chart=${sel(id)}]):not([data-sweep=${sel(id)}])`).join('')}`);
  if (!has('map')) hide('#map');
  return rules.join('\n');
}

/**
 * Shows the page as the hash's `embed=` asks (or as the whole page without
 * it); call after the model is shown. Unknown parts get a message at the top.
 */
export function applyEmbed() {
  const text = embedText();
  const embedded = text !== null;
  document.documentElement.classList.toggle('embedded', embedded);
  $('embed-open-full').hidden = !embedded;
  if (!embedded) {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== embedSheet);
    $('embed-note').replaceChildren();
    return;
  }
  const { parts, problems } = parseParts(text, state.model, {
    kinds: ['outputs', 'output', 'tables', 'chart', 'map', 'inputs'], sweeps: true, hashMap: true, name: 'embed',
  });
  embedSheet.replaceSync(embedStyle(parts));
  if (!document.adoptedStyleSheets.includes(embedSheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, embedSheet];
  $('embed-note').replaceChildren(...problems.map((t) => el('p', { text: t })));
  // A map preset named by the embed: chosen in the map panel (its values go to the form, as a click would put them).
  const preset = parts.find((p) => p.kind === 'map' && p.preset)?.preset;
  const menu = $('map').querySelector('.map-preset');
  if (preset && menu && menu.value !== preset.id && !hashParams().has('map.x')) {
    menu.value = preset.id;
    menu.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

/** In iframe mode: posts the content's height to the parent page at every change, and keeps the "open" link current. */
export function watchEmbedHeight() {
  const link = $('embed-open-full');
  const current = () => {
    const h = hashParams();
    h.delete('embed');
    link.href = `${pageUrl()}#${h.toString()}`;
  };
  for (const type of ['pointerdown', 'focus', 'click']) link.addEventListener(type, current);
  current();
  if (window.parent === window) return;
  let last = -1;
  new ResizeObserver(() => {
    if (!document.documentElement.classList.contains('embedded')) return;
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'isoperf:height', height }, '*');
  }).observe(document.body);
}

// ---- the Embed dialog ----

/** The parts the dialog offers: [{value, label, element (false: iframe only)}]. */
function offeredParts(model) {
  const custom = state.map.custom && !model.maps.some((m) => m.output === state.map.request?.output
    && m.x === state.map.request?.x && m.y === state.map.request?.y && m.levels.join() === state.map.request?.levels.join());
  return [
    { value: 'outputs', label: 'Outputs', element: true },
    { value: 'tables', label: 'Tables', element: true },
    ...model.charts.map((c) => ({ value: `chart:${c.id}`, label: `Chart: ${c.title}`, element: true })),
    ...model.sweeps.map((s) => ({ value: `chart:${s.id}`, label: `Sweep: ${s.title} (iframe only)`, element: false })),
    ...model.maps.map((m) => ({ value: `map:${m.id}`, label: `Map: ${m.label}`, element: true })),
    ...(custom ? [{ value: 'map', label: 'Map: the one shown, as set (iframe only)', element: false }] : []),
  ];
}

function fillDialog() {
  const model = state.model;
  const offered = offeredParts(model);
  const box = $('embed-parts');
  if (box.dataset.offered !== offered.map((p) => p.value).join()) {
    // Outputs and the first chart, until the reader chooses.
    const first = offered.find((p) => p.element && p.value.startsWith('chart:'))?.value;
    box.dataset.offered = offered.map((p) => p.value).join();
    box.replaceChildren(...offered.map((p) => el('label', { class: 'embed-part' },
      el('input', { type: 'checkbox', value: p.value, 'data-element': p.element ? '1' : '0', checked: p.value === 'outputs' || p.value === first }),
      ` ${p.label}`)));
  }
  $('embed-editable').placeholder = `e.g. ${model.params.filter((p) => p.kind === 'number').slice(0, 2).map((p) => p.key).join(', ')}`;
  $('embed-where').hidden = !PUBLISHED;
  $('embed-where').textContent = PUBLISHED ? `This copy of isoperf runs from a file, which other pages cannot load: publish dist/site (npm run dist) and put its address where the snippets say ${new URL(PUBLISHED).origin}.` : '';
  $('embed-editable-help').textContent = `Editable fields: parameter keys shown as inputs in the element (the iframe then shows the form): ${model.params.map((p) => p.key).join(', ')}.`;
  writeSnippets();
}

/** Both snippets for the model, the form's changed values and the dialog's choices. */
export function snippets() {
  const model = state.model;
  const chosen = [...$('embed-parts').querySelectorAll('input:checked')];
  const { keys: editable, problems } = parseEditable($('embed-editable').value, model);
  const compact = $('embed-compact').checked;
  const changed = state.results?.changed ?? [];
  const params = changed.map((k) => `${encode(k)}=${encode(state.values[k] ?? '')}`).join('&');

  const elementParts = chosen.filter((c) => c.dataset.element === '1').map((c) => c.value);
  const show = partsText(parseParts(elementParts.join(','), model).parts);
  const script = embedScript().href;
  const attrs = [`model="${attr(model.id)}"`, params ? `params="${attr(params)}"` : '', `show="${attr(show)}"`,
    editable.length ? `editable="${attr(editable.join(','))}"` : '', compact ? 'compact' : ''].filter(Boolean);
  const element = `<script type="module" src="${attr(script)}"></script>\n<isoperf-model ${attrs.join(' ')}></isoperf-model>`;

  // The iframe: the page's own hash (model, values, a custom map, data sets) and the parts.
  const hash = hashParams();
  hash.delete('embed');
  const frameParts = [...chosen.map((c) => c.value), ...(editable.length ? ['inputs'] : [])];
  const src = `${pageUrl()}#${[...hash].map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}&embed=${encode(frameParts.join(',') || 'outputs')}`;
  const origin = new URL(pageUrl()).origin;
  const iframe = [
    `<iframe src="${attr(src)}" title="${attr(`isoperf: ${model.title}`)}" style="width: 100%; height: 450px; border: 0" loading="lazy"></iframe>`,
    '<script>',
    "addEventListener('message', (e) => {",
    `  if (e.origin !== '${origin}' || e.data?.type !== 'isoperf:height') return;`,
    `  for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.style.height = Math.min(+e.data.height || 0, ${MAX_FRAME_HEIGHT}) + 'px';`,
    '});',
    '</script>',
  ].join('\n');
  return { element, iframe, problems };
}

function writeSnippets() {
  const { element, iframe, problems } = snippets();
  $('embed-element').value = element;
  $('embed-iframe').value = iframe;
  $('embed-editable-help').classList.toggle('bad', problems.length > 0);
  if (problems.length) $('embed-editable-help').textContent = problems.join(' ');
  $('embed-status').textContent = '';
}

async function copy(id) {
  const area = $(id);
  try {
    await navigator.clipboard.writeText(area.value);
    notice($('embed-status'), 'Copied.');
  } catch {
    area.select();
    notice($('embed-status'), 'Selected: press Ctrl+C (⌘C) to copy.', 0);
  }
}

/** Wires the Embed button and its dialog (once). */
export function wireEmbedDialog() {
  const dialog = $('embed-dialog');
  $('embed-open').addEventListener('click', () => {
    fillDialog();
    dialog.showModal();
  });
  dialog.querySelector('.embed-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('input', (e) => e.target.matches('#embed-editable') && fillDialog());
  dialog.addEventListener('change', (e) => e.target.matches('input[type=checkbox]') && writeSnippets());
  dialog.addEventListener('click', (e) => {
    const id = e.target.closest('.embed-copy')?.dataset.copy;
    if (id) copy(id);
  });
}
