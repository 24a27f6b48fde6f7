// End-to-end tests of the iso-map panel (section#map) in headless Chromium:
// the default dlt isoefficiency map is painted by the worker (at device pixel
// ratio 2 too), axis edits redraw and live in the hash, bad ranges are clear
// messages, the hover readout explains gaps, the worker drops superseded
// requests, the map agrees bit for bit with the CLI, the pmm map and the map
// presets, and the PNG / CSV exports.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

import {
  CLI, afterFrames, buildStaleness, canvasInk, hasCli, hashParams, openPage, pageProblems, startEnv, stopEnv, waitReadyState, foreignRequests,
} from './helpers.mjs';

const run = promisify(execFile);
const NO_CLI = hasCli() ? false : `the native CLI ${CLI} does not exist; build it with \`cargo build\``;

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const MAP = 'section#map';
const CANVAS = `${MAP} canvas.map-canvas`;
const axisSel = (axis, part) => `${MAP} fieldset.map-axis[data-axis="${axis}"] ${part}`;
/** The plot's margins inside the canvas, in CSS pixels (MARGIN in www/map.js). */
const MARGIN = { left: 74, right: 96, top: 34, bottom: 52 };
const DLT_GAPS = 'cannot all be activated';
const DEFAULT_DLT = { output: 'efficiency', x: 'm:1:1000:log', y: 'V:1e3:1e13:log', levels: [0.5, 0.9, 0.99] };

// ---- helpers -------------------------------------------------------------------------------

/**
 * Counts the paints (each sets the canvas's data-labels, even to the same
 * text) and records every data-progress value the panel shows. The panel
 * (section#map) survives a rebuild, so one observer of its subtree does.
 */
function watchMap(page) {
  return page.evaluate(() => {
    const box = document.getElementById('map');
    window.__map = { paints: 0, progress: [] };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.attributeName === 'data-labels') window.__map.paints += 1;
        if (r.attributeName === 'data-progress' && r.target === box) window.__map.progress.push(box.dataset.progress);
      }
    }).observe(box, { subtree: true, attributes: true, attributeFilter: ['data-labels', 'data-progress'] });
  });
}

const paintCount = (page) => page.evaluate(() => window.__map.paints);

/** Waits until the map was painted more than `n` times, then two frames. */
async function waitForPaint(page, n, what) {
  await page.waitForFunction((k) => window.__map.paints > k, n, { timeout: 10_000 }).catch(async () => {
    const s = await mapState(page);
    throw new Error(`the map was not repainted after ${what}: ${JSON.stringify(s)}${buildStaleness()}`);
  });
  await afterFrames(page);
}

/** Waits for the first paint of the map (a fresh page). */
async function waitForMap(page) {
  await page.waitForSelector(`${CANVAS}[data-labels]`, { state: 'attached', timeout: 10_000 }).catch(async () => {
    const s = await mapState(page);
    throw new Error(`the map was never painted: ${JSON.stringify(s)}${buildStaleness()}`);
  });
  await afterFrames(page);
}

/** Everything the panel shows, in one round trip. */
function mapState(page) {
  return page.evaluate(() => {
    const box = document.getElementById('map');
    const q = (s) => box.querySelector(s);
    const axis = (name) => {
      const f = box.querySelector(`fieldset.map-axis[data-axis="${name}"]`);
      return f && {
        key: f.querySelector('.map-key').value,
        min: f.querySelector('.map-min').value,
        max: f.querySelector('.map-max').value,
        log: f.querySelector('.map-log-box').checked,
      };
    };
    const canvas = q('canvas.map-canvas');
    const progress = q('progress.map-progress');
    return {
      hidden: box.hidden,
      visible: box.checkVisibility(),
      preset: q('select.map-preset')?.value,
      output: q('select.map-output')?.value,
      x: axis('x'),
      y: axis('y'),
      levels: q('input.map-levels')?.value,
      grid: q('select.map-grid')?.value,
      error: q('p.map-error')?.textContent ?? '',
      errorVisible: Boolean(q('p.map-error')?.checkVisibility()),
      progressHidden: progress ? progress.hidden && !progress.checkVisibility() : null,
      dataProgress: box.dataset.progress ?? null,
      labels: canvas?.dataset.labels ?? null,
      stale: Boolean(canvas?.classList.contains('stale')),
      width: canvas?.width,
      height: canvas?.height,
      clientWidth: canvas?.clientWidth,
      clientHeight: canvas?.clientHeight,
      readout: q('p.map-readout')?.textContent ?? '',
      legend: q('p.map-legend')?.textContent ?? '',
      hash: Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, ''))),
    };
  });
}

/** The map canvas's ink, counted as for charts (see canvasInk in helpers.mjs). */
async function mapInk(page) {
  return (await canvasInk(page, CANVAS)).map;
}

/** Types into an axis's inputs (as a user would) and fires one change event, as leaving the field does. */
async function setAxis(page, axis, { min, max }) {
  if (min !== undefined) await page.fill(axisSel(axis, 'input.map-min'), min);
  if (max !== undefined) await page.fill(axisSel(axis, 'input.map-max'), max);
  await page.dispatchEvent(axisSel(axis, max !== undefined ? 'input.map-max' : 'input.map-min'), 'change');
}

/** Clicks an export button and returns { name, body (Buffer) } of the download. */
async function download(page, button) {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 10_000 }), page.click(`${MAP} button${button}`)]);
  return { name: d.suggestedFilename(), body: await readFile(await d.path()) };
}

/**
 * Opens `hash` in a fresh tab of `context` (the file's own by default), waits
 * for the first map, runs `fn({ page, log })`, then checks the page reported
 * no problem (console errors and warnings of the page and its worker, page
 * errors, failed requests, HTTP errors), made no request to another origin
 * and loaded the map worker from its own.
 */
async function withMap({ hash, context = env.context }, fn) {
  const { page, log, close } = await openPage({ ...env, context }, { hash });
  page.setDefaultTimeout(8_000); // a map takes well under a second: fail fast
  try {
    await waitForMap(page);
    await watchMap(page);
    await fn({ page, log });
    assert.deepEqual(pageProblems(log), [], 'the page reported no problem');
    const origin = new URL(env.url).origin;
    assert.deepEqual(foreignRequests(log, origin), [], `every request goes to ${origin}`);
    assert.ok(log.requests.includes(`${origin}/www/map-worker.js`), `the map worker loads from ${origin}: ${log.requests.join(' ')}`);
  } finally {
    await close();
  }
}

/**
 * Before any script of the page runs: wraps `Worker` so that the test sees
 * every map worker started (created), every request posted to it ({id, nx,
 * x}) and every message it answers ({id, progress, done, error}). Other
 * workers (a report's, a sweep's) are not counted. It only observes.
 */
function observeWorkers() {
  const Native = window.Worker;
  const seen = { created: 0, posted: [], received: [] };
  window.__worker = seen;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.isMapWorker = String(args[0]).includes('map-worker');
      if (!this.isMapWorker) return;
      seen.created += 1;
      this.addEventListener('message', ({ data }) => {
        seen.received.push({ id: data?.id, progress: data?.progress ?? null, done: Boolean(data?.done), error: data?.error ?? null });
      });
    }

    postMessage(message, ...rest) {
      if (this.isMapWorker) seen.posted.push({ id: message?.id, nx: message?.request?.nx, x: message?.request?.x });
      return super.postMessage(message, ...rest);
    }
  };
}

/**
 * In the page: as soon as the worker reports progress (< 1) on a request of
 * grid `nx`, does `act` to the #map element in the same task — the request
 * is then under way in the worker. Resolves with the id of that request and
 * the progress seen. The actions are written here, not sent as source: the
 * page's Content-Security-Policy refuses `new Function`.
 */
function whenComputing(page, nx, act) {
  return page.evaluate(([n, name]) => {
    const box = document.getElementById('map');
    const actions = {
      /** The x range made empty (min 10 > max 1), as leaving the field does. */
      emptyXRange() {
        box.querySelector('fieldset.map-axis[data-axis="x"] .map-min').value = '10';
        const max = box.querySelector('fieldset.map-axis[data-axis="x"] .map-max');
        max.value = '1';
        max.dispatchEvent(new Event('change', { bubbles: true }));
      },
      /** The grid set to 128 × 128. */
      grid128() {
        const grid = box.querySelector('select.map-grid');
        grid.value = '128';
        grid.dispatchEvent(new Event('change', { bubbles: true }));
      },
    };
    window.__computing = new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        const last = window.__worker.posted.at(-1);
        const p = Number(box.dataset.progress);
        if (last?.nx === n && p < 1) {
          obs.disconnect();
          actions[name]();
          resolve({ id: last.id, progress: p });
        }
      });
      obs.observe(box, { attributes: true, attributeFilter: ['data-progress'] });
    });
  }, [nx, act]);
}

// ---- 1. the default dlt map ------------------------------------------------------------------

describe('iso-map: the default dlt map', () => {
  test('the isoefficiency map V vs m renders at devicePixelRatio 2 with its labels, legend and progress', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 2 });
    try {
      await withMap({ hash: '#model=dlt', context }, async ({ page }) => {
        assert.equal(await page.evaluate(() => window.devicePixelRatio), 2);
        const s = await mapState(page);
        assert.equal(s.hidden, false, 'section#map is not hidden');
        assert.equal(s.visible, true, 'section#map is visible');
        assert.equal(s.preset, 'isoefficiency-v-m', 'the first map preset is chosen');
        assert.equal(s.output, 'efficiency');
        assert.deepEqual(s.x, { key: 'm', min: '1', max: '1000', log: true });
        assert.deepEqual(s.y, { key: 'V', min: '1000', max: '1e13', log: true });
        assert.deepEqual(s.levels.split(/[,\s]+/).map(Number), [0.5, 0.9, 0.99]);
        assert.equal(s.grid, '256');
        assert.deepEqual(
          await page.$$eval(`${MAP} select.map-preset option`, (os) => os.map((o) => o.value)),
          ['', 'isoefficiency-v-m', 'isoefficiency-a-c', 'isoenergy-k-m'],
        );
        assert.deepEqual(await page.$$eval(`${MAP} select.map-grid option`, (os) => os.map((o) => o.value)), ['64', '128', '256', '512']);
        assert.equal(s.error, '', 'no map error');
        assert.equal(s.stale, false, 'the canvas is not stale');

        const labels = s.labels.split('|');
        assert.ok(labels.includes('0.9') && labels.includes('0.99'), `data-labels holds 0.9 and 0.99: ${s.labels}`);
        assert.match(s.legend, new RegExp(DLT_GAPS), 'the legend explains the gaps');
        assert.match(s.legend, /V/);
        assert.equal(await page.locator(`${MAP}[data-progress="1"]`).count(), 1, 'progress reached 1');
        assert.equal(s.progressHidden, true, 'the progress bar is hidden again');
        assert.equal(s.readout, 'Point at the map to read a value.');
        assert.deepEqual(await hashParams(page), { model: 'dlt' }, 'the default map is not written to the hash');

        assert.ok(s.clientWidth > 300, `the canvas is laid out (${s.clientWidth} CSS px)`);
        assert.ok(Math.abs(s.width - 2 * s.clientWidth) <= 2, `canvas width ${s.width} ≈ 2 × ${s.clientWidth}`);
        assert.ok(Math.abs(s.height - 2 * s.clientHeight) <= 2, `canvas height ${s.height} ≈ 2 × ${s.clientHeight}`);

        const ink = await mapInk(page);
        assert.ok(ink.share > 0.4, `the canvas is not blank: ${ink.ink} of ${ink.pixels} pixels have ink`);
        assert.ok(ink.coloured > 0.2 * ink.pixels, `the colour field covers the plot: ${ink.coloured} coloured pixels`);
        assert.ok(ink.colours >= 3, `at least 3 distinct colours (${ink.colours})`);
      });
    } finally {
      await context.close();
    }
  });
});

// ---- 2. axis edits -------------------------------------------------------------------------

describe('iso-map: editing an axis', () => {
  test('x max = 100 redraws, goes to the hash as map.x=m:1:100:log, and a reload restores it', async () => {
    await withMap({ hash: '#model=dlt' }, async ({ page }) => {
      const before = await mapInk(page);
      let s = await mapState(page);
      assert.equal(s.width, s.clientWidth, 'at devicePixelRatio 1 the canvas has one pixel per CSS pixel');

      const n = await paintCount(page);
      await setAxis(page, 'x', { max: '100' });
      await waitForPaint(page, n, 'x max = 100');
      s = await mapState(page);
      assert.equal(s.hash['map.x'], 'm:1:100:log', `the hash: ${JSON.stringify(s.hash)}`);
      assert.equal(s.hash['map.y'], 'V:1000:1e13:log');
      assert.equal(s.hash['map.output'], 'efficiency');
      assert.equal(s.hash['map.levels'], '0.5,0.9,0.99');
      assert.equal(s.hash['map.grid'], '256');
      const presetAfterEdit = s.preset; // checked last: the rest does not depend on it
      assert.equal(s.error, '');
      assert.equal(s.stale, false);
      const after = await mapInk(page);
      assert.notEqual(after.sum, before.sum, 'the pixels changed');
      assert.ok(after.colours >= 3, 'still a coloured map');

      await page.reload();
      await waitReadyState(page);
      await waitForMap(page);
      const r = await mapState(page);
      assert.deepEqual(r.x, { key: 'm', min: '1', max: '100', log: true }, 'the x axis controls are restored');
      assert.deepEqual(r.y, { key: 'V', min: '1000', max: '1e13', log: true });
      assert.equal(r.output, 'efficiency');
      assert.deepEqual(r.levels.split(/[,\s]+/).map(Number), [0.5, 0.9, 0.99]);
      assert.equal(r.grid, '256');
      assert.equal(r.preset, '', 'still a custom map');
      assert.equal(r.hash['map.x'], 'm:1:100:log', 'the hash is kept');
      assert.equal((await mapInk(page)).sum, after.sum, 'the same map is painted after the reload');
      assert.equal(presetAfterEdit, '', 'right after the edit, the preset menu already says custom (as it does after the reload)');
    });
  });
});

// ---- 3. bad ranges ---------------------------------------------------------------------------

describe('iso-map: bad ranges', () => {
  test('min > max and a log axis from 0 are clear messages, the canvas is stale until fixed', async () => {
    await withMap({ hash: '#model=dlt' }, async ({ page }) => {
      await setAxis(page, 'x', { min: '10', max: '1' });
      await page.waitForFunction(() => document.querySelector('#map .map-error').textContent !== '');
      let s = await mapState(page);
      assert.match(s.error, /expected min < max/, `the message: ${s.error}`);
      assert.match(s.error, /^x\b/, 'it names the x axis');
      assert.equal(s.errorVisible, true, 'the message is visible');
      assert.equal(s.stale, true, 'the canvas is stale');
      assert.equal(s.progressHidden, true, 'no progress bar for a refused request');
      assert.equal(await page.getAttribute(`${MAP} p.map-error`, 'role'), 'alert');

      await setAxis(page, 'x', { min: '0', max: '100' });
      await page.waitForFunction(() => /log axis/.test(document.querySelector('#map .map-error').textContent));
      s = await mapState(page);
      assert.match(s.error, /log axis/, `the message: ${s.error}`);
      assert.doesNotMatch(s.error, /NaN|undefined|panicked/);
      assert.equal(s.stale, true);

      const n = await paintCount(page);
      await setAxis(page, 'x', { min: '1' });
      await waitForPaint(page, n, 'fixing the range');
      s = await mapState(page);
      assert.equal(s.error, '', 'the message is cleared');
      assert.equal(s.errorVisible, false);
      assert.equal(s.stale, false, 'the canvas is no longer stale');
      assert.equal(s.hash['map.x'], 'm:1:100:log');
      assert.ok(s.labels.split('|').includes('0.99'), `redrawn with its labels: ${s.labels}`);
      assert.ok((await mapInk(page)).colours >= 3);
    });
  });

  test('a range made invalid while a map is computing stays refused when that map arrives', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addInitScript(observeWorkers);
    try {
      await withMap({ hash: '#model=dlt', context }, async ({ page }) => {
        // A 512 × 512 map is under way when the x range becomes empty.
        await whenComputing(page, 512, 'emptyXRange');
        await page.selectOption(`${MAP} select.map-grid`, '512');
        const { id } = await page.evaluate(() => window.__computing);
        await page.waitForFunction(() => /expected min < max/.test(document.querySelector('#map .map-error').textContent));
        // Nothing supersedes the 512 request in the worker: it completes.
        await page.waitForFunction((k) => window.__worker.received.some((m) => m.id === k && m.done), id, { timeout: 10_000 });
        await afterFrames(page);
        const s = await mapState(page);
        assert.match(s.error, /expected min < max/, 'the message stays');
        assert.equal(s.x.min, '10');
        assert.equal(s.x.max, '1');
        assert.equal(s.stale, true, 'the canvas stays stale: the map that arrived is for a request the user has since replaced');
      });
    } finally {
      await context.close();
    }
  });
});

// ---- 4. hover readout -------------------------------------------------------------------------

describe('iso-map: hover readout', () => {
  test('the centre reads m, V and the efficiency; the lower right (large m, small V) reads the gap meaning', async () => {
    await withMap({ hash: '#model=dlt' }, async ({ page }) => {
      await page.locator(CANVAS).scrollIntoViewIfNeeded();
      const box = await page.locator(CANVAS).boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction(() => /efficiency =/.test(document.querySelector('#map .map-readout').textContent), null, { timeout: 5_000 });
      let text = (await mapState(page)).readout;
      assert.match(text, /^m = /, `the readout: ${text}`);
      assert.match(text, /, V = /);
      assert.match(text, /: efficiency = /);
      const value = text.split('efficiency = ')[1];
      assert.doesNotMatch(value, /—/, `the centre of the map is no gap: ${text}`);
      assert.ok(Number(value) > 0 && Number(value) <= 1, `an efficiency in (0, 1]: ${value}`);
      assert.doesNotMatch(text, /NaN|undefined/);

      // Near the lower-right corner of the plot: m ≈ 750, V ≈ 4e3, far past m_max(V).
      const plot = { x: MARGIN.left, y: MARGIN.top, w: box.width - MARGIN.left - MARGIN.right, h: box.height - MARGIN.top - MARGIN.bottom };
      await page.mouse.move(box.x + plot.x + 0.96 * plot.w, box.y + plot.y + 0.94 * plot.h);
      await page.waitForFunction((g) => document.querySelector('#map .map-readout').textContent.includes(g), DLT_GAPS, { timeout: 5_000 })
        .catch(async () => assert.fail(`no gap readout near the lower right: ${(await mapState(page)).readout}`));
      text = (await mapState(page)).readout;
      assert.match(text, /^m = /, `the readout: ${text}`);
      assert.match(text, /efficiency = — \(/, 'a gap reads — and its meaning');
      assert.match(text, new RegExp(DLT_GAPS));
    });
  });
});

// ---- 5. the worker ------------------------------------------------------------------------------

describe('iso-map: the worker', () => {
  test('grid 512 then at once 128: the 512 map is dropped and the painted map is the 128 one', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 } });
    await context.addInitScript(observeWorkers);
    try {
      // MapReduce's speedup over m up to 10⁵ mappers solves an LP at every
      // point: the 512 map takes seconds (a row tens of ms), so it is still
      // under way however loaded the machine is when the 128 one is asked
      // for. (Closed forms such as scaling's finish 512² in tens of ms,
      // sooner than a loaded page may hear of the first row.) The first map
      // is 64² to keep the test short.
      const hash = new URLSearchParams({ model: 'mapreduce', 'map.output': 'speedup', 'map.x': 'm:10:100000:log', 'map.y': 'r:10:1000:log', 'map.levels': '100,1000', 'map.grid': '64' });
      await withMap({ hash: `#${hash}`, context }, async ({ page }) => {
        const first = await page.evaluate(() => window.__worker.posted.map((p) => p.nx));
        assert.deepEqual(first, [64], 'the first map was computed in the worker');

        await whenComputing(page, 512, 'grid128');
        await page.selectOption(`${MAP} select.map-grid`, '512');
        const { id: big, progress } = await page.evaluate(() => window.__computing);
        assert.ok(progress < 1, `the 512 map was under way (${progress})`);
        await page.waitForFunction(() => window.__worker.received.some((m) => m.done && m.id === window.__worker.posted.at(-1).id), null, { timeout: 20_000 });
        await afterFrames(page);

        const w = await page.evaluate(() => window.__worker);
        // The worker drops the 512 map between two rows when it reads the
        // newer request; a worker silent for longer than the client waits
        // (RESTART_AFTER_MS in worker-client.js: a machine loaded enough to
        // stall a row) is replaced instead. Either way the 512 map never ends.
        const restarts = await page.evaluate(() => window.isoperf.workers.map.restarts);
        assert.ok(restarts <= 1, `at most one replacement (${restarts})`);
        assert.equal(w.created, 1 + restarts, 'one worker serves every map unless it was replaced');
        assert.deepEqual(w.posted.map((p) => p.nx), [64, 512, 128], 'requests posted');
        const small = w.posted.at(-1).id;
        assert.ok(w.received.some((m) => m.id === big && m.progress !== null && m.progress < 1), 'the 512 map reported progress');
        assert.equal(w.received.some((m) => m.id === big && m.done), false, 'the 512 map was dropped, never finished');
        assert.ok(w.received.some((m) => m.id === small && m.done), 'the 128 map finished');
        assert.deepEqual(w.received.filter((m) => m.error), [], 'no worker error');

        const s = await mapState(page);
        assert.equal(s.hash['map.grid'], '128', 'the hash says 128');
        assert.equal(s.grid, '128');
        assert.ok(s.labels, 'data-labels is set');
        assert.equal(s.dataProgress, '1');
        assert.equal(s.progressHidden, true);
        assert.equal(s.stale, false);
        const progressSeen = await page.evaluate(() => window.__map.progress.map(Number));
        assert.ok(progressSeen.some((p) => p > 0 && p < 1), `progress went through a value < 1: ${progressSeen.join(' ')}`);
        assert.equal(progressSeen.at(-1), 1);

        // The painted map is the 128 × 128 one: its grid exports 128² rows.
        const csv = await download(page, '.map-csv');
        assert.equal(csv.body.toString('utf8').split('\n').filter((l) => !l.startsWith('# ')).length, 128 * 128 + 1, 'the CSV of a 128 × 128 map');
      });
    } finally {
      await context.close();
    }
  });
});

// ---- 6. agreement with the CLI ------------------------------------------------------------

/** The distance in units in the last place between two doubles of the same sign. */
function ulps(a, b) {
  const v = new DataView(new ArrayBuffer(16));
  v.setFloat64(0, a);
  v.setFloat64(8, b);
  return Number(v.getBigInt64(0) - v.getBigInt64(8));
}

/** Where two isoMap results differ in shape: gaps, null positions, levels, lines and points per level; '' if nowhere. */
function shapeDifference(page, cli) {
  if (page.gaps !== cli.gaps) return `gaps: page ${page.gaps}, CLI ${cli.gaps}`;
  if (page.values.length !== cli.values.length) return `values: ${page.values.length} vs ${cli.values.length}`;
  const nullAt = cli.values.findIndex((v, k) => (v === null) !== (page.values[k] === null));
  if (nullAt >= 0) return `values[${nullAt}]: page ${page.values[nullAt]}, CLI ${cli.values[nullAt]}`;
  if (page.isolines.length !== cli.isolines.length) return `isolines: ${page.isolines.length} vs ${cli.isolines.length} levels`;
  for (const [l, a] of cli.isolines.entries()) {
    const b = page.isolines[l];
    if (!Object.is(b.level, a.level)) return `level ${l}: ${b.level} vs ${a.level}`;
    if (b.lines.flat().length !== a.lines.flat().length) return `level ${a.level}: page ${b.lines.flat().length} points, CLI ${a.lines.flat().length}`;
    if (b.lines.length !== a.lines.length) return `level ${a.level}: page ${b.lines.length} lines, CLI ${a.lines.length}`;
    const len = b.lines.findIndex((line, k) => line.length !== a.lines[k].length);
    if (len >= 0) return `level ${a.level}, line ${len}: page ${b.lines[len].length} points, CLI ${a.lines[len].length}`;
  }
  return '';
}

/** The grid values that differ in any bit: { count, first: [up to 5 descriptions] }. */
function valueBitDifferences(page, cli) {
  const out = [];
  cli.values.forEach((v, k) => {
    if (!Object.is(page.values[k], v)) out.push(`values[${k}] (i = ${k % cli.nx}, j = ${Math.floor(k / cli.nx)}): page ${page.values[k]}, CLI ${v} (${ulps(page.values[k], v)} ulp)`);
  });
  return { count: out.length, first: out.slice(0, 5) };
}

/** The isoline points that differ in any bit, per level. */
function pointBitDifferences(page, cli) {
  const out = [];
  let count = 0;
  for (const [l, a] of cli.isolines.entries()) {
    const pa = a.lines.flat();
    const pb = page.isolines[l].lines.flat();
    pa.forEach((p, k) => {
      if (!Object.is(pb[k][0], p[0]) || !Object.is(pb[k][1], p[1])) {
        count += 1;
        if (out.length < 5) out.push(`level ${a.level}, point ${k}: page (${pb[k]}), CLI (${p})`);
      }
    });
  }
  return { count, first: out };
}

describe('iso-map: agreement with the CLI', () => {
  test('isoMap in the page and `isoperf map dlt` give the same grid and isolines to the bit', { skip: NO_CLI }, async () => {
    const { stdout } = await run(CLI, [
      'map', 'dlt', '--output', DEFAULT_DLT.output, '--x', DEFAULT_DLT.x, '--y', DEFAULT_DLT.y,
      '--levels', DEFAULT_DLT.levels.join(','), '--grid', '64x64',
    ]);
    const cli = JSON.parse(stdout);
    assert.equal(cli.values.length, 64 * 64);
    assert.ok(cli.gaps > 0 && cli.gaps < 64 * 64, `the CLI map has some gaps (${cli.gaps})`);
    assert.equal(cli.values.filter((v) => v === null).length, cli.gaps, 'the CLI writes gaps as null');

    await withMap({ hash: '#model=dlt' }, async ({ page }) => {
      const inPage = await page.evaluate((r) => window.isoperf.isoMap('dlt', {}, { ...r, nx: 64, ny: 64 }), DEFAULT_DLT);
      assert.equal(inPage.values.filter((v) => v === null).length, inPage.gaps, 'the page writes gaps as null');
      assert.deepEqual(inPage.isolines.map((i) => i.level), DEFAULT_DLT.levels);
      assert.ok(inPage.isolines.every((i) => i.lines.length > 0), 'every level has a line');
      const shape = shapeDifference(inPage, cli);
      assert.equal(shape, '', `same gaps, same levels, same number of lines and points: ${shape}`);
      assert.ok(Object.is(inPage.min, cli.min) && Object.is(inPage.max, cli.max), `min/max: page ${inPage.min}/${inPage.max}, CLI ${cli.min}/${cli.max}`);

      // The request is refused the same way on both sides.
      const error = await page.evaluate(() => {
        try {
          window.isoperf.isoMap('dlt', {}, { output: 'efficiency', x: 'm:10:1:log', y: 'V:1e3:1e13:log', levels: [0.5], nx: 8, ny: 8 });
          return null;
        } catch (e) {
          return { message: e.message, field: e.field, isError: e instanceof Error };
        }
      });
      assert.ok(error?.isError, 'isoMap throws an Error');
      assert.equal(error.field, 'x');
      assert.match(error.message, /expected min < max/);
      const refused = await run(CLI, ['map', 'dlt', '--output', 'efficiency', '--x', 'm:10:1:log', '--y', 'V:1e3:1e13:log', '--levels', '0.5', '--grid', '8x8'])
        .then(() => null, (e) => e);
      assert.ok(refused, 'the CLI refuses the empty range');
      assert.match(refused.stderr, /expected min < max/);

      // The README promises the same numbers to the last bit.
      const values = valueBitDifferences(inPage, cli);
      const points = pointBitDifferences(inPage, cli);
      assert.deepEqual(
        { values: values.count, points: points.count }, { values: 0, points: 0 },
        `the page and the CLI differ in the last bits:\n${[...values.first, ...points.first].join('\n')}${buildStaleness()}`,
      );

    });
  });
});

// ---- 7, 8. pmm, and the map presets ---------------------------------------------------------------

describe('iso-map: presets', () => {
  test('pmm: the default isoefficiency map renders; the speedup preset changes the labels', async () => {
    await withMap({ hash: '#model=pmm' }, async ({ page }) => {
      let s = await mapState(page);
      assert.equal(s.preset, 'isoefficiency-n-m');
      assert.equal(s.output, 'efficiency');
      assert.deepEqual(s.x, { key: 'N', min: '4', max: '10000', log: true });
      assert.deepEqual(s.y, { key: 'M', min: '100', max: '1e6', log: true });
      assert.ok(s.labels, 'data-labels is set');
      assert.match(s.legend, /M < √N/, 'the legend explains the pmm gaps');
      const ink = await mapInk(page);
      assert.ok(ink.share > 0.4 && ink.coloured > 0.2 * ink.pixels && ink.colours >= 3, `the canvas has ink: ${JSON.stringify(ink)}`);

      const options = await page.$$eval(`${MAP} select.map-preset option`, (os) => os.map((o) => [o.value, o.textContent]));
      assert.deepEqual(options.map(([v]) => v), ['', 'isoefficiency-n-m', 'speedup-n-m']);
      assert.match(options[2][1], /Speedup/);

      const before = s.labels;
      const n = await paintCount(page);
      await page.selectOption(`${MAP} select.map-preset`, 'speedup-n-m');
      await waitForPaint(page, n, 'choosing the speedup map');
      s = await mapState(page);
      assert.notEqual(s.labels, before, `data-labels changed: ${before} -> ${s.labels}`);
      assert.ok(s.labels.split('|').every((l) => ['10', '100', '1000'].includes(l)), `speedup labels: ${s.labels}`);
      assert.equal(s.output, 'speedup');
      assert.equal(s.preset, 'speedup-n-m');
      assert.deepEqual(s.levels.split(/[,\s]+/).map(Number), [10, 100, 1000]);
      assert.equal(s.hash['map.output'], 'speedup');
      assert.equal(s.error, '');
      assert.equal(s.stale, false);
    });
  });

  test('dlt: the iso-energy preset sets V = 1e13 in the form and renders E over k and m', async () => {
    await withMap({ hash: '#model=dlt' }, async ({ page }) => {
      const n = await paintCount(page);
      await page.selectOption(`${MAP} select.map-preset`, 'isoenergy-k-m');
      await waitForPaint(page, n, 'choosing the iso-energy map');
      assert.equal(await page.inputValue('#f-V'), '1e13', '#f-V reads 1e13');
      const s = await mapState(page);
      assert.equal(s.preset, 'isoenergy-k-m');
      assert.equal(s.output, 'E');
      assert.deepEqual(s.x, { key: 'm', min: '1', max: '1000', log: true });
      assert.deepEqual(s.y, { key: 'k', min: '1.1', max: '20', log: true });
      assert.equal(s.error, '');
      assert.equal(s.stale, false);
      assert.ok(s.labels && / × 10¹⁵/.test(s.labels), `iso-energy labels read × 10¹⁵, as the page writes numbers: ${s.labels}`);
      assert.equal(s.hash.V, '1e13', 'V goes to the hash');
      assert.equal(s.hash['map.output'], 'E');
      assert.equal(await page.isHidden('#status'), true, 'the form stays valid');
      const ink = await mapInk(page);
      assert.ok(ink.coloured > 0.2 * ink.pixels && ink.colours >= 3, `the canvas has ink: ${JSON.stringify(ink)}`);
    });
  });
});

// ---- 9. export ------------------------------------------------------------------------------------

describe('iso-map: export', () => {
  test('PNG and CSV downloads: names, the PNG is the canvas, the CSV is the whole 256 × 256 grid', async () => {
    await withMap({ hash: '#model=dlt' }, async ({ page }) => {
      const png = await download(page, '.map-png');
      assert.equal(png.name, 'isoperf-dlt-map.png');
      assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
      const s = await mapState(page);
      assert.equal(png.body.readUInt32BE(16), s.width, 'the PNG is as wide as the canvas');
      assert.equal(png.body.readUInt32BE(20), s.height, 'and as high');

      const csv = await download(page, '.map-csv');
      assert.equal(csv.name, 'isoperf-dlt-map.csv');
      const text = csv.body.toString('utf8');
      // It opens with what made it: the version, the model, every parameter and the link.
      assert.match(text, /^# isoperf \d+\.\d+\.\d+, model dlt\n# parameters: .*\bm=\S+.*\n# link: http:\/\/\S+#model=dlt/);
      const lines = text.split('\n').filter((l) => !l.startsWith('# '));
      assert.equal(lines[0], 'm,V,efficiency');
      assert.equal(lines.length, 256 * 256 + 1, 'a header and one line per grid node');

      // The grid computed in the worker is the one isoMap computes on the main thread.
      const ref = await page.evaluate((r) => window.isoperf.isoMap('dlt', {}, { ...r, y: 'V:1000:1e13:log', nx: 256, ny: 256 }), DEFAULT_DLT);
      const cells = lines.slice(1).map((l) => l.split(','));
      assert.ok(cells.every((c) => c.length === 3), 'three columns on every line');
      assert.equal(cells.filter((c) => c[2] === '').length, ref.gaps, 'the gaps are empty cells');
      const bad = cells.findIndex((c, k) => (c[2] === '' ? ref.values[k] !== null : !Object.is(Number(c[2]), ref.values[k])));
      assert.equal(bad, -1, bad < 0 ? '' : `CSV line ${bad + 2} "${lines[bad + 1]}" vs isoMap ${ref.values[bad]}`);

      // The coordinates are the grid nodes, inside the axes' ranges: the
      // first node is the corner m = 1, V = 1000 (the Rust grid clamps its
      // nodes into [min, max]).
      const outside = cells.findIndex(([m, v]) => !(Number(m) >= 1 && Number(m) <= 1000 && Number(v) >= 1000 && Number(v) <= 1e13));
      assert.match(lines[1], /^1,1000,/, `the first node is m = 1, V = 1000: "${lines[1]}"`);
      assert.equal(outside, -1, outside < 0 ? '' : `CSV line ${outside + 2} "${lines[outside + 1]}" lies outside m 1…1000, V 1000…1e13`);
    });
  });
});

describe('iso-map: the form\'s choices', () => {
  test('dlt with heterogeneous processors: no preset\'s axes are in use, and the map names the parameters that are; identical again paints the first preset', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=dlt' });
    try {
      await page.waitForSelector(`${CANVAS}[data-labels]`, { state: 'attached', timeout: 20_000 });
      await page.click('input[name=processors][value=heterogeneous]');
      await page.waitForFunction((sel) => document.querySelector(sel)?.textContent, `${MAP} .map-error`, { timeout: 10_000 });
      const message = await page.textContent(`${MAP} .map-error`);
      assert.match(message, /^x: m is not used with these choices: it applies when processors = identical; map over a parameter in use \(([\w, ]+)\) instead$/);
      const inUse = message.match(/in use \(([\w, ]+)\)/)[1].split(', ');
      assert.ok(inUse.includes('V') && !inUse.includes('m'), `parameters in use: ${inUse}`);
      assert.equal(await page.$eval(CANVAS, (c) => c.classList.contains('stale')), true);

      await page.$eval(CANVAS, (c) => delete c.dataset.labels);
      await page.click('input[name=processors][value=identical]');
      await page.waitForSelector(`${CANVAS}[data-labels]`, { state: 'attached', timeout: 20_000 });
      assert.equal(await page.textContent(`${MAP} .map-error`), '');
      assert.equal(await page.$eval(`${MAP} .map-preset`, (s) => s.value), 'isoefficiency-v-m');
      assert.deepEqual(pageProblems(log), []);
    } finally {
      await close();
    }
  });
});
