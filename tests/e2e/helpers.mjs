// Shared helpers for the end-to-end tests: one static server, one headless
// Chromium and one browser context per test file, a fresh page per test,
// and a record of everything the page says (console, page errors, requests).

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { serve, ROOT } from '../../scripts/serve.mjs';

export { ROOT };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Every model of the registry, in tab order: the modules `src/models/mod.rs`
 * registers (a model's module is named by its id), so a new model is tested
 * on every tab without editing the tests.
 */
export const MODELS = [...readFileSync(join(ROOT, 'src', 'models', 'mod.rs'), 'utf8').matchAll(/Registered::<(\w+)::/g)].map((m) => m[1]);

/** The native CLI (built by `cargo build`); tests that need it skip without it. */
export const CLI = process.env.ISOPERF_CLI ?? join(ROOT, 'target', 'debug', 'isoperf');
export const hasCli = () => existsSync(CLI);

function newestUnder(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestUnder(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * A hint for failure messages when the wasm package or the CLI is older than
 * the Rust sources (both are build products the tests do not rebuild).
 */
export function buildStaleness() {
  try {
    const src = newestUnder(join(ROOT, 'src'));
    const notes = [];
    const wasm = join(ROOT, 'pkg', 'isoperf_bg.wasm');
    if (existsSync(wasm) && statSync(wasm).mtimeMs < src) notes.push('pkg/ is older than src/ (run `bash scripts/build.sh`)');
    if (existsSync(CLI) && statSync(CLI).mtimeMs < src) notes.push(`${CLI} is older than src/ (run \`cargo build\`)`);
    return notes.length ? ` [note: ${notes.join('; ')}]` : '';
  } catch {
    return '';
  }
}

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Nothing but the loopback server resolves: a request elsewhere fails fast.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

/**
 * Starts the static server, a browser and one browser context (so one
 * viewport and device scale factor per test file). Call from `before`; pass
 * the result to `stopEnv` in `after`.
 */
export async function startEnv({ viewport = { width: 1280, height: 1000 }, deviceScaleFactor = 1 } = {}) {
  const { server, url } = await serve(ROOT, 0);
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
    const context = await browser.newContext({ viewport, deviceScaleFactor });
    return { server, url, browser, context };
  } catch (e) {
    await browser?.close().catch(() => {});
    server.close();
    throw e;
  }
}

export async function stopEnv(env) {
  if (!env) return;
  await env.browser?.close().catch(() => {});
  await new Promise((ok) => {
    env.server.closeAllConnections?.();
    env.server.close(() => ok());
  });
}

/**
 * A server for host pages on another origin than the site's: it listens on
 * 127.0.0.1 and is addressed as localhost. `pageAt(path)` gives the HTML
 * served at a path (undefined: 404). Resolves to {url, close}.
 */
export async function startHost(pageAt) {
  const server = createServer((req, res) => {
    const html = pageAt(new URL(req.url, 'http://x').pathname);
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html ?? 'not found');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://localhost:${server.address().port}`,
    close() {
      server.closeAllConnections?.();
      server.close();
    },
  };
}

/**
 * Records everything `page` says from now on: console messages, page
 * errors, request URLs, failed requests and HTTP error responses (see
 * `pageProblems`).
 */
export function listen(page) {
  const log = { console: [], pageErrors: [], requests: [], failed: [], badResponses: [] };
  page.on('console', (m) => log.console.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => log.pageErrors.push(e.message));
  page.on('request', (r) => log.requests.push(r.url()));
  page.on('requestfailed', (r) => log.failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) log.badResponses.push(`${r.status()} ${r.url()}`);
  });
  return log;
}

/**
 * Opens the page in a fresh tab and waits until it is ready (`window.isoperf`
 * exposed and the outputs rendered).
 *
 * Returns { page, log, close } where `log` holds every console message, page
 * error, request URL, failed request and HTTP error response.
 */
export async function openPage(env, { hash = '', waitReady = true } = {}) {
  const page = await env.context.newPage();
  const log = listen(page);
  const close = () => page.close().catch(() => {});
  try {
    await page.goto(env.url + (hash ? (hash.startsWith('#') ? hash : `#${hash}`) : ''), { waitUntil: 'commit' });
    if (waitReady) await waitReadyState(page);
  } catch (e) {
    await close();
    const details = [...log.pageErrors, ...log.console.filter((m) => m.type === 'error').map((m) => m.text)];
    throw new Error(`${e.message}${details.length ? `\npage said:\n${details.join('\n')}` : ''}`);
  }
  return { page, log, close };
}

/** The page is ready when it exposes `window.isoperf` and shows its outputs. */
export async function waitReadyState(page) {
  await page.waitForFunction(() => window.isoperf && document.querySelector('#outputs .output output'), null, { timeout: 10_000 });
}

/** Text of every output, keyed by output key: { T: '55.24', coef_M2: '6.764 × 10⁻⁸', ... }. */
export function outputTexts(page) {
  return page.$$eval('#outputs .output[data-output]', (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.output, e.querySelector('output').textContent])),
  );
}

const SUPER = { '⁻': '-', '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9' };

/**
 * Reads a displayed number back: "6.764 × 10⁻⁸" -> 6.764e-8, "55.24" -> 55.24.
 * Returns NaN for anything that is not a displayed number ("—", "yes").
 */
export function parseDisplayed(text) {
  const s = String(text).trim();
  const m = /^(-?\d+(?:\.\d+)?) × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.exec(s);
  if (m) return Number(`${m[1]}e${[...m[2]].map((c) => SUPER[c]).join('')}`);
  if (/^-?\d+(?:\.\d+)?$/.test(s)) return Number(s);
  return NaN;
}

/** True when `text` shows `value` to the page's four significant figures. */
export function showsValue(text, value) {
  const shown = parseDisplayed(text);
  if (!Number.isFinite(shown)) return false;
  if (value === 0) return shown === 0;
  return Math.abs(shown - value) <= 5.0001e-4 * Math.abs(value);
}

/** Evaluates the model in the page through `window.isoperf.evaluate`. */
export function evaluateInPage(page, model, params) {
  return page.evaluate(([m, p]) => window.isoperf.evaluate(m, p), [model, params]);
}

/** The page's own formatter (the module is cached, so importing it does not restart the page). */
export function formatInPage(page, values) {
  return page.evaluate(async (vals) => {
    const { formatNumber } = await import('/www/app.js');
    return Object.fromEntries(Object.entries(vals).map(([k, v]) => [k, formatNumber(v)]));
  }, values);
}

/**
 * The page's visible text (innerText skips hidden elements and input values),
 * minus the text of the elements matching `exclude`.
 */
export function visibleText(page, { exclude = [] } = {}) {
  return page.evaluate((sel) => {
    let text = document.body.innerText;
    for (const s of sel) {
      for (const el of document.querySelectorAll(s)) {
        const t = el.innerText;
        if (t) text = text.split(t).join('');
      }
    }
    return text;
  }, exclude);
}

/**
 * Opens a fresh page, runs `fn({ page, log })`, then checks that the
 * page raised no uncaught error and logged no console error along the way,
 * and closes the page whatever happened.
 */
export async function withPage(env, opts, fn) {
  const p = await openPage(env, opts);
  try {
    await fn(p);
    const problems = [...p.log.pageErrors.map((m) => `pageerror: ${m}`), ...p.log.console.filter((m) => m.type === 'error').map((m) => `console.error: ${m.text}`)];
    if (problems.length) throw new Error(`the page reported problems:\n${problems.join('\n')}`);
  } finally {
    await p.close();
  }
}

/** Every problem the page reported: errors, warnings, failed or refused requests. */
export function pageProblems(log) {
  return [
    ...log.pageErrors.map((m) => `pageerror: ${m}`),
    ...log.console.filter((m) => m.type === 'error' || m.type === 'warning').map((m) => `console.${m.type}: ${m.text}`),
    ...log.failed.map((m) => `request failed: ${m}`),
    ...log.badResponses.map((m) => `HTTP ${m}`),
  ];
}

/** Requests that left `origin` (data: and blob: URLs stay on the page). */
export function foreignRequests(log, origin) {
  return log.requests.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== origin);
}

/**
 * The checks every page must pass: no page error, no console error or
 * warning, no failed request or HTTP error, nothing fetched from another
 * origin than `origin`.
 */
export function assertCleanPage(log, origin) {
  assert.deepEqual(log.pageErrors, [], 'no pageerror');
  assert.deepEqual(log.console.filter((m) => m.type === 'error' || m.type === 'warning'), [], 'no console error or warning');
  assert.deepEqual(pageProblems(log), [], 'no failed request or HTTP error');
  assert.deepEqual(foreignRequests(log, origin), [], `every request goes to ${origin}`);
}

/**
 * Resolves after two animation frames: the page draws its charts in the frame
 * after an update, so by then every chart reflects the current form.
 */
export function afterFrames(page) {
  return page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok()))));
}

/** The URL hash as a plain object. */
export async function hashParams(page) {
  const hash = await page.evaluate(() => location.hash);
  return Object.fromEntries(new URLSearchParams(hash.replace(/^#/, '')));
}

/** State of every chart: { id: { stale, note, width, height, clientWidth, clientHeight } }. */
export function chartStates(page) {
  return page.$$eval('#charts figure.chart[data-chart]', (figs) =>
    Object.fromEntries(
      figs.map((f) => {
        const c = f.querySelector('canvas');
        return [f.dataset.chart, {
          stale: f.classList.contains('stale'),
          note: f.querySelector('.chart-error')?.textContent ?? '',
          width: c.width, height: c.height, clientWidth: c.clientWidth, clientHeight: c.clientHeight,
        }];
      }),
    ),
  );
}

/**
 * Everything a test looks at, read in one round trip: outputs, field errors,
 * invalid fields, the status banner, charts and the hash.
 */
export function snapshot(page) {
  return page.evaluate(() => {
    const outputs = Object.fromEntries(
      [...document.querySelectorAll('#outputs .output[data-output]')].map((e) => [e.dataset.output, e.querySelector('output').textContent]),
    );
    const fields = Object.fromEntries(
      [...document.querySelectorAll('#form .field[data-key]')].map((f) => {
        const err = f.querySelector('.field-error');
        return [f.dataset.key, {
          invalid: f.classList.contains('invalid'),
          error: err.textContent,
          errorVisible: err.checkVisibility(),
          ariaInvalid: [...f.querySelectorAll('input')].map((i) => i.getAttribute('aria-invalid')),
        }];
      }),
    );
    const status = document.getElementById('status');
    const charts = Object.fromEntries(
      [...document.querySelectorAll('#charts figure.chart[data-chart]')].map((f) => [f.dataset.chart, {
        stale: f.classList.contains('stale'),
        note: f.querySelector('.chart-error')?.textContent ?? '',
      }]),
    );
    return {
      outputs,
      fields,
      invalid: Object.keys(fields).filter((k) => fields[k].invalid),
      status: { hidden: status.hidden, text: status.textContent },
      charts,
      hash: Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, ''))),
    };
  });
}

// ---- helpers added for the models with list parameters and chart notes ----

/**
 * Every field message, keyed by the parameter it is about (a list group holds
 * one message per list): { key: { error, errorVisible, warning } }.
 */
export function fieldMessages(page) {
  return page.evaluate(() => {
    const out = {};
    for (const err of document.querySelectorAll('#form .field-error')) {
      const field = err.closest('.field');
      const key = err.dataset.errorFor ?? field?.dataset.key;
      out[key] = {
        error: err.textContent,
        errorVisible: err.checkVisibility(),
        invalid: Boolean(field?.classList.contains('invalid')),
        warning: [...(field?.querySelectorAll('.field-warning') ?? [])].map((w) => w.textContent).join(' '),
      };
    }
    return out;
  });
}

/** The explanatory note under each chart (not its error): { id: text }. */
export function chartNotes(page) {
  return page.$$eval('#charts figure.chart[data-chart]', (figs) =>
    Object.fromEntries(figs.map((f) => [f.dataset.chart, f.querySelector('p.chart-note')?.textContent ?? ''])));
}

/**
 * The rows of the list table of `group`: one object per row, list key ->
 * cell text, e.g. [{ A_list: '1', C_list: '0.000001', S_list: '100' }, ...].
 */
export function listRows(page, group) {
  return page.$$eval(`#form .field.list-field[data-group="${group}"] table.list-table tbody tr`, (rows) =>
    rows.map((r) => Object.fromEntries([...r.querySelectorAll('input[data-list]')].map((i) => [i.dataset.list, i.value]))));
}

/** The items of a list parameter's text, split as the page and Rust split them. */
export const listItems = (text) => String(text ?? '').split(/[,;\s]+/).filter((t) => t !== '');

/** Waits until every chart canvas left its default 300 × 150 size, then two frames. */
export async function waitForCharts(page) {
  await page
    .waitForFunction(() => {
      const cs = [...document.querySelectorAll('#charts canvas')];
      return cs.length > 0 && cs.every((c) => c.width !== 300 || c.height !== 150);
    }, null, { timeout: 5_000 })
    .catch(() => {}); // the caller's assertions say what is wrong
  await afterFrames(page);
}

/** The map canvas once a map is painted and labelled. */
export const MAP_DONE = 'section#map canvas.map-canvas[data-labels]';

/** Waits for the outputs and charts and (`all`) the map and every sweep of the model shown. */
export async function waitComplete(page, what, all = true) {
  await page.waitForFunction(() => window.isoperf && document.querySelector('#outputs .output output')?.textContent !== '—', null, { timeout: 15_000 });
  if (all && await page.$eval('section#map', (m) => !m.hidden)) {
    await page.waitForSelector(MAP_DONE, { state: 'attached', timeout: 20_000 }).catch((e) => { throw new Error(`${what}: no map: ${e.message}`); });
  }
  if (all) {
    await page.waitForFunction(() => [...document.querySelectorAll('#charts figure.sweep')].every((f) => f.dataset.state === 'done'), null, { timeout: 30_000 })
      .catch((e) => { throw new Error(`${what}: the sweeps did not finish: ${e.message}`); });
  }
  await waitForCharts(page);
}

/**
 * Ink on each canvas matching `selector`, keyed by its figure's data-chart or
 * data-sweep (or "map"): pixels with ink (opaque, not near-white), those in a
 * saturated colour (the data, not grey axes and text), distinct ink colours
 * (quantised), the share of ink and a checksum. Read from a copy: reading the
 * page's own canvas twice makes Chromium warn about willReadFrequently.
 */
export function canvasInk(page, selector) {
  return page.$$eval(selector, (canvases) => Object.fromEntries(canvases.map((c) => {
    const fig = c.closest('figure');
    const id = fig?.dataset.chart ?? fig?.dataset.sweep ?? 'map';
    if (!c.width || !c.height) return [id, { ink: 0, coloured: 0, colours: 0, share: 0, sum: 0, pixels: 0 }];
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(c, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    let coloured = 0;
    let sum = 0;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4) {
      const [r, g, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
      sum = (sum * 31 + r * 7 + g * 11 + b * 13 + a) >>> 0;
      if (a > 0 && !(r >= 245 && g >= 245 && b >= 245)) {
        ink += 1;
        colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
        if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured += 1;
      }
    }
    const pixels = d.length / 4;
    return [id, { ink, coloured, colours: colours.size, share: ink / pixels, sum, pixels }];
  })));
}

/** Ink of every chart of the charts area (see `canvasInk`). */
export function chartInk(page) {
  return canvasInk(page, '#charts figure.chart[data-chart] canvas');
}

/** Waits for the page to be ready again after `page.reload()` or a new hash. */
export async function reloadReady(page) {
  await page.reload();
  await waitReadyState(page);
}
