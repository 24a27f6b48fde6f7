// End-to-end tests of the calibration panel (issue 17) in headless
// Chromium: an example's runs fitted and shown with their intervals, the
// charts painted, the fitted values put into the form, pasted runs fitted
// and kept in the link (which restores them and the fit), the scaling laws
// of runs that vary one input, bad runs named at their line, and the fit's
// uncertainty carried into the model's charts, sweeps and map while the
// form holds the fitted values. Numbers are checked against the native
// CLI's `calibrate` on the same file.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { CLI, MAP_DONE, MODELS, ROOT, assertCleanPage, canvasInk, hasCli, hashParams, openPage, startEnv, stopEnv, waitComplete, withPage } from './helpers.mjs';

const run = promisify(execFile);
const NO_CLI = hasCli() ? false : `the native CLI ${CLI} does not exist; build it with \`cargo build\``;

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const PANEL = '#calibration details.calibration';

/** The panel as the reader sees it: error, status, tables ({title, rows, notes}), charts shown. */
function panel(page) {
  return page.evaluate((sel) => {
    const s = document.querySelector(sel);
    return {
      open: s.open,
      busy: s.getAttribute('aria-busy') === 'true',
      error: s.querySelector('.dataset-error').textContent,
      status: s.querySelector('.dataset-status').textContent,
      text: s.querySelector('.calibration-text').value,
      fit: [...s.querySelectorAll('.calibration-fit input:checked')].map((b) => b.value),
      relative: s.querySelector('.calibration-relative-box').checked,
      chartsHidden: s.querySelector('.dataset-charts').hidden,
      tables: [...s.querySelectorAll('.table-card')].map((t) => ({
        id: t.dataset.table,
        title: t.querySelector('h3').textContent,
        rows: [...t.querySelectorAll('tbody tr:not(.remark)')].map((r) => [...r.children].map((c) => c.textContent)),
        notes: [...t.querySelectorAll('.table-note')].map((n) => n.textContent),
      })),
    };
  }, PANEL);
}

/** Waits until the panel shows a fit or an error for its current runs. */
async function fitted(page) {
  await page.waitForFunction((sel) => {
    const s = document.querySelector(sel);
    return s && !s.classList.contains('stale') && (s.querySelector('.table-card') || s.querySelector('.dataset-error').textContent);
  }, PANEL, { timeout: 30_000 });
  return panel(page);
}

/** The displayed number "1.988 × 10⁻¹⁰" as a JavaScript number. */
function displayed(text) {
  const sup = { '⁻': '-', '⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9' };
  const m = text.trim().match(/^(-?[\d.]+)(?: × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+))?$/);
  assert.ok(m, `a number: ${text}`);
  return Number(m[1]) * 10 ** Number(m[2] ? [...m[2]].map((c) => sup[c]).join('') : 0);
}

/**
 * Waits until the model's time chart and map show (`carrying`) or do not
 * show the fit's uncertainty; then, when they do, {carry (the panel's
 * note), columns (of the time chart's data table), mapNote}, else null.
 */
async function carriedView(page, carrying) {
  await page.waitForFunction((want) => {
    const note = document.querySelector('#charts figure[data-chart="time"] .chart-note')?.textContent ?? '';
    const map = document.querySelector('section#map .map-scale-note')?.textContent ?? '';
    const painted = document.querySelector('section#map canvas.map-canvas[data-labels]');
    return painted && /Shaded: the 95% interval/.test(note) === want && /^Pale: |\. Pale: /.test(map) === want;
  }, carrying, { timeout: 30_000 });
  if (!carrying) return null;
  const fig = '#charts figure[data-chart="time"]';
  if (await page.$eval(`${fig} .chart-data`, (d) => d.hidden)) await page.click(`${fig} .chart-data-toggle`);
  await page.waitForSelector(`${fig} .chart-data th`);
  return {
    carry: await page.textContent(`${PANEL} .calibration-carry`),
    columns: await page.$$eval(`${fig} .chart-data th`, (ths) => ths.map((t) => t.textContent)),
    mapNote: await page.textContent('section#map .map-scale-note'),
  };
}

/**
 * The header and row names of the data table under the chart in `figure`,
 * opened by its toggle (again, if a newer answer redrew the figure).
 */
async function chartDataNames(page, figure, what) {
  for (let attempt = 0; attempt < 5; attempt++) {
    // A click as the page gets it (no waiting for the figure to stop moving: its charts are still being painted).
    await page.$eval(figure, (f) => { if (f.querySelector('.chart-data').hidden) f.querySelector('.chart-data-toggle').click(); });
    const shown = await page.waitForSelector(`${figure} .chart-data th`, { timeout: 3_000 }).catch(() => null);
    if (shown) return page.$$eval(`${figure} .chart-data th`, (ths) => ths.map((t) => t.textContent));
  }
  throw new Error(`${what}: the chart's data table did not open`);
}

/** Four significant figures, as the page prints them. */
const DISPLAY_RTOL = 5e-4;

describe('calibration', () => {
  test('an example is fitted: values with intervals as the CLI computes them, outputs with intervals, charts painted', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: 'model=pmm&cal.data=runs&cal.fit=t_flops,t_comm&cal.rel=1' }, async ({ page, log }) => {
      const p = await fitted(page);
      assert.equal(p.error, '');
      assert.ok(p.open, 'the panel opens for a link that holds runs');
      assert.deepEqual(p.fit, ['t_flops', 't_comm']);
      assert.ok(p.relative);
      const fit = p.tables.find((t) => t.id === 'calibration-fit');
      assert.equal(fit.title, 'Fitted to 45 measured T');
      const { stdout } = await run(CLI, ['calibrate', 'pmm', join(ROOT, 'www', 'data', 'pmm-runs-synthetic.csv'), '--fit', 't_flops,t_comm', '--relative']);
      const cli = JSON.parse(stdout);
      for (const [key, row] of [['t_flops', fit.rows[0]], ['t_comm', fit.rows[1]]]) {
        const want = cli.fitted[key];
        for (const [shown, value] of [[row[1], want.value], [row[2], want.stderr], ...row[3].split(' … ').map((s, i) => [s, want.ci95[i]])]) {
          assert.ok(Math.abs(displayed(shown) / value - 1) < DISPLAY_RTOL, `${key}: ${shown} vs ${value}`);
        }
      }
      // Generated from T_flops = 2e-10 and T_comm = 5e-8: both inside their intervals.
      const inside = (row, truth) => { const [lo, hi] = row[3].split(' … ').map(displayed); return lo <= truth && truth <= hi; };
      assert.ok(inside(fit.rows[0], 2e-10) && inside(fit.rows[1], 5e-8), JSON.stringify(fit.rows));
      assert.match(fit.notes[0], /^45 runs, 43 degrees of freedom: R² = 0\.99\d+/);
      // Every output at the form's point, with its interval; a new run's only for T.
      const outputs = p.tables.find((t) => t.id === 'calibration-outputs');
      const t = outputs.rows.find((r) => r[0].startsWith('Job turnaround time'));
      const [lo, hi] = t[2].split(' … ').map(displayed);
      const [plo, phi] = t[3].split(' … ').map(displayed);
      assert.ok(plo < lo && lo < displayed(t[1]) && displayed(t[1]) < hi && hi < phi, JSON.stringify(t));
      assert.ok(outputs.rows.filter((r) => r !== t).every((r) => r[3] === '—'));
      assert.ok(!p.chartsHidden);
      const ink = await canvasInk(page, `${PANEL} .dataset-charts canvas`);
      // The fit, the residuals against N and against M.
      assert.deepEqual(Object.keys(ink), ['calibration-0', 'calibration-1', 'calibration-2']);
      for (const [id, c] of Object.entries(ink)) assert.ok(c.coloured > 200, `${id} painted: ${JSON.stringify(c)}`);
      assertCleanPage(log, env.url.replace(/\/$/, ''));
    });
  });

  test('the fitted values go into the form, and the link keeps them', async () => {
    await withPage(env, { hash: 'model=broadcast&cal.data=pingpong&cal.fit=alpha,beta&cal.rel=1' }, async ({ page }) => {
      const p = await fitted(page);
      const fit = p.tables.find((t) => t.id === 'calibration-fit');
      await page.click(`${PANEL} .use-fit`);
      await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).has('alpha'));
      const h = await hashParams(page);
      assert.ok(Math.abs(Number(h.alpha) / displayed(fit.rows[0][1]) - 1) < DISPLAY_RTOL, `${h.alpha} vs ${fit.rows[0][1]}`);
      assert.ok(Math.abs(Number(h.beta) / displayed(fit.rows[1][1]) - 1) < DISPLAY_RTOL, `${h.beta} vs ${fit.rows[1][1]}`);
      assert.equal(await page.inputValue('#form input[name="alpha"]'), h.alpha);
      assert.equal(h['cal.data'], 'pingpong');
      assert.equal(h['cal.fit'], 'alpha,beta');
    });
  });

  test('pasted runs are fitted, kept in the link, restored by it; runs that vary one input get their scaling laws', async () => {
    // Eq. (1) with C0 = 1, C1 = 100, C2 = 5 at p = 2 … 512, three runs each, ±1%.
    const rows = [];
    for (let e = 1; e <= 9; e++) {
      const p = 2 ** e;
      for (const f of [0.99, 1, 1.01]) rows.push(`${p},${((1 + 100 / p + 5 / Math.sqrt(p)) * f).toPrecision(6)}`);
    }
    const csv = `p,time\n${rows.join('\n')}\n`;
    const { page, log, close } = await openPage(env, { hash: 'model=scaling' });
    try {
      await page.$eval(PANEL, (d) => { d.open = true; }); // opened as a click would, without waiting for the charts to settle
      await page.fill(`${PANEL} .calibration-text`, csv);
      for (const key of ['C0', 'C1', 'C2']) await page.check(`${PANEL} .calibration-fit input[value="${key}"]`);
      const p = await fitted(page);
      assert.equal(p.error, '');
      const fit = p.tables.find((t) => t.id === 'calibration-fit');
      for (const [row, truth] of [[fit.rows[0], 1], [fit.rows[1], 100], [fit.rows[2], 5]]) {
        const [lo, hi] = row[3].split(' … ').map(displayed);
        assert.ok(lo <= truth && truth <= hi, `${row[0]}: ${row[3]} holds ${truth}`);
      }
      const laws = p.tables.find((t) => t.id === 'calibration-laws');
      assert.ok(laws, 'the scaling laws of runs that vary one input');
      assert.equal(laws.rows.length, 5);
      const titles = await page.$$eval(`${PANEL} .dataset-charts figure canvas`, (cs) => cs.map((c) => c.getAttribute('aria-label')));
      assert.deepEqual(titles, ['Measured T and the calibrated model', 'Residuals against p', 'Scaling laws of T in p']);
      const h = await hashParams(page);
      assert.equal(h['cal.csv'], csv);
      assert.equal(h['cal.fit'], 'C0,C1,C2');
      // The link restores the runs and the fit in a new page.
      const again = await openPage(env, { hash: new URLSearchParams(h).toString() });
      try {
        const q = await fitted(again.page);
        assert.equal(q.text, csv);
        assert.deepEqual(q.fit, ['C0', 'C1', 'C2']);
        assert.deepEqual(q.tables.map((t) => t.rows), p.tables.map((t) => t.rows));
        assertCleanPage(again.log, env.url.replace(/\/$/, ''));
      } finally {
        await again.close();
      }
      assertCleanPage(log, env.url.replace(/\/$/, ''));
    } finally {
      await close();
    }
  });

  test('runs longer than 2 KB go in the link compressed, and the link restores them', async () => {
    // 400 runs of eq. (1) at p = 1 … 1024 (about 5 KB): too long for the link as text.
    const rows = [];
    for (let i = 0; i < 400; i++) {
      const p = 2 ** (i % 11);
      rows.push(`${p},${((1 + 100 / p + 5 / Math.sqrt(p)) * (1 + 0.01 * Math.sin(7 * i))).toPrecision(6)}`);
    }
    const csv = `p,time\n${rows.join('\n')}\n`;
    assert.ok(csv.length > 4000);
    const { page, close } = await openPage(env, { hash: 'model=scaling&cal.fit=C0,C1,C2' });
    try {
      await page.$eval(PANEL, (d) => { d.open = true; }); // opened as a click would, without waiting for the charts to settle
      await page.fill(`${PANEL} .calibration-text`, csv);
      await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).has('cal.z'));
      const p = await fitted(page);
      const h = await hashParams(page);
      assert.ok(!('cal.csv' in h) && h['cal.z'].length <= 2731, `${h['cal.z'].length} characters`);
      assert.match(await page.textContent(`${PANEL} .dataset-privacy`), /The link keeps these \d\.\d KB compressed to \d\.\d KB\./);
      const again = await openPage(env, { hash: new URLSearchParams(h).toString() });
      try {
        const q = await fitted(again.page);
        assert.equal(q.text, csv);
        assert.deepEqual(q.tables.map((t) => t.rows), p.tables.map((t) => t.rows));
        assert.equal((await hashParams(again.page))['cal.z'], h['cal.z'], 'the link keeps its runs');
      } finally {
        await again.close();
      }
    } finally {
      await close();
    }
  });

  test('the fitted values carry their uncertainty into the charts and the map; the link keeps it; a changed value drops it', async () => {
    await withPage(env, { hash: 'model=pmm&cal.data=runs&cal.fit=t_flops,t_comm&cal.rel=1' }, async ({ page, log }) => {
      await fitted(page);
      await waitComplete(page, 'pmm');
      assert.match(await page.textContent(`${PANEL} .calibration-carry`), /^Use the fitted values in the model to carry/);
      assert.equal(await carriedView(page, false), null, 'no bands before the fitted values are used');
      await page.click(`${PANEL} .use-fit`);
      const view = await carriedView(page, true);
      assert.match(view.carry, /carry this fit’s uncertainty: shaded bands are the 95% interval of the model’s value from t_flops, t_comm/);
      // A band under each implementation's curve, in the chart's data as two columns.
      for (const impl of ['Dryad', 'MS-MPI', 'Fox']) {
        for (const end of ['95% low', '95% high']) assert.ok(view.columns.includes(`${impl} (${end})`), `${impl} (${end}) in ${view.columns}`);
      }
      // The map: pale where the interval of the efficiency straddles a level, and says how much.
      const [, pale, all] = view.mapNote.match(/\((\d+) of (\d+) points\)/).map(Number);
      assert.ok(pale > 0 && pale < all / 4, view.mapNote);
      const box = await page.$eval(MAP_DONE, (c) => { const r = c.getBoundingClientRect(); return { x: r.width / 2, y: r.height / 2 }; });
      await page.hover(MAP_DONE, { position: box });
      const readout = await page.textContent('section#map .map-readout');
      const [, v, lo, hi] = readout.match(/= ([^ ]+) \(95%: ([^ ]+) … ([^ ]+)\)$/).map((t, i) => (i ? displayed(t) : t));
      assert.ok(lo < v && v < hi, readout);
      // The link keeps the fitted values and the runs: a new page carries the same.
      const h = await hashParams(page);
      const again = await openPage(env, { hash: new URLSearchParams(h).toString() });
      try {
        await fitted(again.page);
        const restored = await carriedView(again.page, true);
        assert.deepEqual(restored.columns, view.columns);
        assert.equal(restored.mapNote, view.mapNote);
        assertCleanPage(again.log, env.url.replace(/\/$/, ''));
      } finally {
        await again.close();
      }
      // Another t_flops is no longer the fit's: the bands go, and the panel says how to bring them back.
      await page.fill('#form input[name="t_flops"]', '3e-10');
      assert.equal(await carriedView(page, false), null);
      assert.match(await page.textContent(`${PANEL} .calibration-carry`), /^Use the fitted values in the model to carry/);
      assertCleanPage(log, env.url.replace(/\/$/, ''));
    });
  });

  test("a sweep's curves carry the fit's bands", { skip: NO_CLI }, async () => {
    // MapReduce runs at m = 10 … 50, V = 10¹² and 10¹³ from the model (±3%, alternating); a_map fitted.
    const rows = [];
    for (const m of [10, 20, 50]) {
      for (const V of [1e12, 1e13]) {
        const { stdout } = await run(CLI, ['eval', 'mapreduce', `m=${m}`, `V=${V}`]);
        rows.push(`${m},${V},${(JSON.parse(stdout).T * (rows.length % 2 ? 1.03 : 0.97)).toPrecision(6)}`);
      }
    }
    const csv = `m,V,T\n${rows.join('\n')}\n`;
    await withPage(env, { hash: `model=mapreduce&cal.csv=${encodeURIComponent(csv)}&cal.fit=a_map` }, async ({ page, log }) => {
      await fitted(page);
      await page.click(`${PANEL} .use-fit`);
      await page.waitForFunction(() => /carry this fit/.test(document.querySelector('#calibration .calibration-carry').textContent));
      await page.waitForFunction(() => [...document.querySelectorAll('#charts figure.sweep')].every((f) => f.dataset.state === 'done' && /Shaded: the 95% interval/.test(f.querySelector('.chart-note').textContent)), null, { timeout: 60_000 });
      const fig = '#charts figure.sweep[data-sweep="speedup-m-r"]';
      await page.click(`${fig} .chart-data-toggle`);
      await page.waitForSelector(`${fig} .chart-data th`);
      const columns = await page.$$eval(`${fig} .chart-data th`, (ths) => ths.map((t) => t.textContent));
      for (const name of ['r = ℓ = 10', 'r = ℓ = 200']) {
        assert.ok(columns.includes(`${name} (95% low)`) && columns.includes(`${name} (95% high)`), `${name} in ${columns}`);
      }
      // The note's parameter is rich text (a subscript), not markup shown as text.
      assert.equal(await page.$$eval(`${fig} .chart-note sub`, (subs) => subs.map((s) => s.textContent).join()), 'map');
      assertCleanPage(log, env.url.replace(/\/$/, ''));
    });
  });

  test("every model's panel takes pasted runs, fits them, draws the model's band over them, and a link restores the runs and the fit", async () => {
    // For each model: one input varied (one curve, so its band is drawn), runs from the model's T (±2%, alternating), parameters to fit.
    const plans = {
      pmm: { input: 'N', values: [1, 4, 16, 64, 256], fit: ['t_flops', 't_comm'], fixed: ['M=8000'] },
      dlt: { input: 'm', values: [1, 2, 3, 4], fit: ['A'], fixed: [] },
      mapreduce: { input: 'm', values: [10, 20, 50, 100], fit: ['a_map'], fixed: ['V=1e12'] },
      pipeline: { input: 'P', values: [2, 4, 8, 16, 32], fit: ['t_comp'], fixed: [] },
      scaling: { input: 'p', values: [18, 36, 72, 144, 288], fit: ['C0', 'C1'], fixed: [] },
      broadcast: { input: 'n', values: [1e3, 1e5, 1e7, 1e9], fit: ['alpha', 'beta'], fixed: ['p=8'] },
    };
    assert.deepEqual(Object.keys(plans).sort(), [...MODELS].sort(), 'a plan for every model');
    const { page, log, close } = await openPage(env, { hash: 'model=pmm' });
    const other = await openPage(env, { hash: 'model=pmm' });
    try {
      for (const [model, plan] of Object.entries(plans)) {
        const rows = [];
        for (const v of plan.values) {
          const at = Object.fromEntries([[plan.input, v], ...plan.fixed.map((kv) => kv.split('='))]);
          const out = await page.evaluate(([m, p]) => window.isoperf.evaluate(m, p), [model, at]);
          const first = Object.values(out).find((x) => typeof x === 'number');
          rows.push(`${v},${(first * (rows.length % 2 ? 1.02 : 0.98)).toPrecision(6)}`);
        }
        const fixed = plan.fixed.map((kv) => kv.split('='));
        const csv = `${[plan.input, ...fixed.map(([k]) => k)].join(',')},time\n${rows.map((r) => {
          const [x, t] = r.split(',');
          return [x, ...fixed.map(([, v]) => v), t].join(',');
        }).join('\n')}\n`;
        await page.evaluate((m) => { location.hash = `model=${m}`; }, model);
        await page.waitForFunction((m) => document.querySelector(`.tab[data-model="${m}"]`)?.getAttribute('aria-current') === 'page', model);
        // As the page gets them, without waiting for its charts to stop moving: the panel
        // opened, the parameters ticked (first: the runs then start one fit of all of them), the runs.
        await page.$eval(PANEL, (d, keys) => {
          d.open = true;
          for (const box of d.querySelectorAll('.calibration-fit input')) if (keys.includes(box.value)) box.click();
        }, plan.fit);
        await page.fill(`${PANEL} .calibration-text`, csv);
        const p = await fitted(page);
        assert.equal(p.error, '', `${model}: ${p.error}`);
        const fit = p.tables.find((t) => t.id === 'calibration-fit');
        assert.equal(fit.rows.length, plan.fit.length, `${model}: ${JSON.stringify(fit.rows)}`);
        // The runs over the calibrated model, with the model's band: two columns of its data.
        const names = await chartDataNames(page, `${PANEL} .dataset-charts figure:first-child`, model);
        for (const end of ['95% low', '95% high']) {
          assert.ok(names.some((n) => n.startsWith('model') && n.endsWith(`(${end})`)), `${model}: ${end} in ${names}`);
        }
        // The link restores the runs and the fit in another page.
        const h = await hashParams(page);
        assert.equal(h['cal.csv'], csv, `${model}: the link keeps the runs`);
        await other.page.evaluate((hash) => { location.hash = hash; }, new URLSearchParams(h).toString());
        await other.page.waitForFunction(([sel, text]) => document.querySelector(sel)?.querySelector('.calibration-text').value === text, [PANEL, csv]);
        const q = await fitted(other.page);
        assert.deepEqual(q.fit, plan.fit, model);
        assert.deepEqual(q.tables.map((t) => t.rows), p.tables.map((t) => t.rows), `${model}: the same fit`);
      }
      assertCleanPage(log, env.url.replace(/\/$/, ''));
      assertCleanPage(other.log, env.url.replace(/\/$/, ''));
    } finally {
      await other.close();
      await close();
    }
  });

  test('bad runs and choices are named at their line, column or parameter; never script from text', async () => {
    await withPage(env, { hash: 'model=pmm' }, async ({ page }) => {
      await page.$eval(PANEL, (d) => { d.open = true; }); // opened as a click would, without waiting for the charts to settle
      const answers = () => page.$eval(PANEL, (s) => Number(s.dataset.answers ?? 0));
      const paste = async (text) => {
        // A fit still computing (a ticked box's) answers first: wait for it, so that the next answer is this text's.
        await page.waitForFunction((sel) => !document.querySelector(sel).classList.contains('stale'), PANEL);
        const before = await answers();
        await page.fill(`${PANEL} .calibration-text`, text);
        await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel).dataset.answers ?? 0) > n, [PANEL, before]);
        return panel(page);
      };
      await page.fill(`${PANEL} .calibration-text`, 'N,M,T\n4,4000,10\n16,8000,20\n64,8000,30\n');
      await page.waitForFunction((sel) => document.querySelector(sel).querySelector('.dataset-status').textContent === 'Tick the parameters to fit.', PANEL);
      const ticked = await answers();
      await page.check(`${PANEL} .calibration-fit input[value="t_flops"]`);
      await page.check(`${PANEL} .calibration-fit input[value="t_comm"]`);
      // The ticks' own fit answers first (the panel fits 250 ms after the
      // last change): otherwise, on a busy machine, it could land after the
      // first paste below and be read as that text's answer.
      await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel).dataset.answers ?? 0) > n, [PANEL, ticked]);
      await page.waitForTimeout(400);
      await page.waitForFunction((sel) => !document.querySelector(sel).classList.contains('stale'), PANEL);
      const cases = [
        ['N,M,T\n4,4000,10\n16,8000,-20\n64,8000,3\n', 'line 3, column 3: T = -20 is not a measurement: expected a time > 0'],
        ['N,M,<img src=x onerror=alert(1)>\n4,4000,10\n', "line 1, column 3: '<img src=x onerror=alert(1)>' is not a parameter or an output of pmm"],
        ['N,M,T\n4,4000,10\n', '1 run(s) cannot determine 2 parameter(s) with an error estimate: at least 3 are needed'],
        ['N,M,T\n4,4000,10\n4,4000,11\n4,4000,12\n', 'every run has the same inputs (N, M)'],
        ['N,M,T\n4,4000,abc\n', "line 2, column 3: T 'abc' is not a number"],
      ];
      for (const [text, want] of cases) {
        const p = await paste(text);
        assert.ok(p.error.startsWith(want), `${JSON.stringify(text)}: ${p.error}`);
        assert.equal(p.tables.length, 0);
        assert.ok(p.chartsHidden);
      }
      assert.equal(await page.$$eval(`${PANEL} img`, (imgs) => imgs.length), 0, 'text is never markup');
      assert.equal(await page.getAttribute(`${PANEL} .calibration-text`, 'aria-invalid'), 'true');
    });
  });
});
