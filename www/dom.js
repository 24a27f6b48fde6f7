// DOM helpers shared by the page's modules: element lookup and creation
// (text always through textContent, never innerHTML), canvas sizing and
// downloads. Holds no state.

export const $ = (id) => document.getElementById(id);

/** `el('p', {class: 'x', text: 'y', onclick: f}, ...children)`. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

const SUB = /<sub>([^<]*)<\/sub>/g;

/**
 * Rich text from Rust (help, captions, notes, remarks, table cells) as DOM
 * nodes: each `<sub>…</sub>` mark becomes a `<sub>` element, everything
 * else a text node. Built node by node, never parsed as HTML.
 */
export function rich(text) {
  const nodes = [];
  let at = 0;
  for (const m of String(text ?? '').matchAll(SUB)) {
    if (m.index > at) nodes.push(document.createTextNode(text.slice(at, m.index)));
    nodes.push(el('sub', { text: m[1] }));
    at = m.index + m[0].length;
  }
  if (at < String(text ?? '').length) nodes.push(document.createTextNode(String(text).slice(at)));
  return nodes;
}

const SUBSCRIPT = { 0: '₀', 1: '₁', 2: '₂', 3: '₃', 4: '₄', 5: '₅', 6: '₆', 7: '₇', 8: '₈', 9: '₉', '+': '₊', '-': '₋', '−': '₋', '=': '₌', '(': '₍', ')': '₎', a: 'ₐ', e: 'ₑ', h: 'ₕ', i: 'ᵢ', j: 'ⱼ', k: 'ₖ', l: 'ₗ', m: 'ₘ', n: 'ₙ', o: 'ₒ', p: 'ₚ', r: 'ᵣ', s: 'ₛ', t: 'ₜ', u: 'ᵤ', v: 'ᵥ', x: 'ₓ' };

/**
 * Rich text where only plain text fits (an attribute, an option): a
 * subscript in Unicode subscript characters where they all exist (α_i →
 * αᵢ), otherwise after an underscore (T_comm).
 */
export function plain(text) {
  return String(text ?? '').replace(SUB, (_, sub) => {
    const chars = [...sub];
    return chars.every((c) => c in SUBSCRIPT) ? chars.map((c) => SUBSCRIPT[c]).join('') : `_${/^\w+$/.test(sub) ? sub : `(${sub})`}`;
  });
}

/** Sizes a chart canvas in device pixels for its CSS width (HiDPI-sharp), at a 0.62 aspect. */
export function sizeCanvas(canvas, dpr) {
  const w = Math.max(240, Math.round(canvas.clientWidth || 480));
  // On a phone (style.css's breakpoint) a chart is narrow: taller than wide-screen proportions, so its plot keeps room under the title and legend.
  const h = Math.round(w * (matchMedia('(max-width: 600px)').matches ? 0.85 : 0.62));
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
}

/** Offers `body` (a string or Blob) as a file named `name`. */
export function download(name, type, body) {
  const a = el('a', { href: URL.createObjectURL(new Blob([body], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** How long a passing notice ("Link copied.") stays, in ms. */
export const NOTICE_MS = 4000;

const noticeTimers = new WeakMap();

/**
 * Shows `text` in a status element (role="status": read out politely by
 * screen readers), and clears it after `ms` unless a newer notice replaced
 * it; `ms` = 0 keeps it (an instruction the reader still has to follow).
 */
export function notice(node, text, ms = NOTICE_MS) {
  clearTimeout(noticeTimers.get(node));
  node.textContent = text;
  if (ms > 0) noticeTimers.set(node, setTimeout(() => { node.textContent = ''; }, ms));
}

export const dpr = () => window.devicePixelRatio || 1;

/** The reader's colour scheme, as the chart and map painters take it: 'light' or 'dark'. */
export const theme = () => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
