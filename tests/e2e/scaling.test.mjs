// End-to-end tests of the `scaling` model (eq. (1) of Medya, Cherkasova et
// al., Graph500 scalability) in headless Chromium: the tab as a plain model,
// its two data sets (timings fitted to eq. (1); throttling runs giving the
// bandwidth demand), the examples and the URL that restores them, copying the
// fit into the form, pasted data and its errors, the exports, bad parameters,
// and agreement with the native CLI's `fit` and `demand`.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import {
  CLI, ROOT, afterFrames, buildStaleness, chartInk, evaluateInPage, fieldMessages, formatInPage, hasCli, hashParams, listRows,
  openPage, outputTexts, pageProblems, reloadReady, snapshot, startEnv, stopEnv, visibleText, waitForCharts, withPage, assertCleanPage,
} from './helpers.mjs';

const run = promisify(execFile);
const NO_CLI = hasCli() ? false : `the native CLI ${CLI} does not exist; build it with \`cargo build\``;

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const MODEL = 'scaling';
const FILES = {
  scale27: join(ROOT, 'www', 'data', 'graph500-scale27-synthetic.csv'),
  throttling: join(ROOT, 'www', 'data', 'graph500-throttling-synthetic.csv'),
};
const FIT_CHARTS = ['fit', 'fit-loglog', 'residuals'];
const DEMAND_CHARTS = ['cti', 'demand'];
const NOT_SHOWN = /NaN|Infinity|undefined/;

const section = (id) => `#datasets section.dataset[data-dataset=${id}]`;

// ---- helpers for the data sets ------------------------------------------------------------------

/**
 * Everything a data set shows, in one round trip: the error, the example
 * menu, the text, whether actions and charts show, and every table card as
 * { title, columns, rows: [[cells]], notes }.
 */
function datasetState(page, id) {
  return page.evaluate((id) => {
    const s = document.querySelector(`#datasets section.dataset[data-dataset="${id}"]`);
    const charts = s.querySelector('.dataset-charts');
    const actions = s.querySelector('.dataset-actions');
    return {
      // Analysing, or painting its charts (one per frame).
      busy: s.getAttribute('aria-busy') === 'true',
      error: s.querySelector('.dataset-error').textContent,
      errorVisible: s.querySelector('.dataset-error').checkVisibility(),
      ariaInvalid: s.querySelector('.dataset-text').getAttribute('aria-invalid'),
      example: s.querySelector('.dataset-example').value,
      text: s.querySelector('.dataset-text').value,
      actionsHidden: actions.hidden,
      useFitHidden: actions.querySelector('.use-fit').hidden,
      chartsHidden: charts.hidden || !charts.checkVisibility(),
      chartErrors: Object.fromEntries([...charts.querySelectorAll('figure.chart')].map((f) =>
        [f.dataset.chart, f.querySelector('.chart-error').textContent])),
      tables: Object.fromEntries([...s.querySelectorAll('.dataset-tables section.table-card')].map((t) => [t.dataset.table, {
        title: t.querySelector('h3').textContent,
        columns: [...t.querySelectorAll('thead th')].map((c) => c.textContent),
        rows: [...t.querySelectorAll('tbody tr:not(.remark)')].map((r) => [...r.cells].map((c) => c.textContent)),
        notes: [...t.querySelectorAll('p.table-note')].map((n) => n.textContent),
      }])),
    };
  }, id);
}

/**
 * Waits (up to 5 s) until `ready(state)` holds for the data set's state, as
 * the page re-analyses ~120 ms after an edit; returns the last state either
 * way so that the caller's assertions say what is wrong.
 */
async function waitDataset(page, id, ready, what) {
  const deadline = Date.now() + 5_000;
  let state;
  for (;;) {
    state = await datasetState(page, id);
    if (ready(state) && !state.busy) return state;
    if (Date.now() > deadline) {
      assert.fail(`${id}: timed out waiting for ${what}; the data set shows ${JSON.stringify({ ...state, text: state.text.slice(0, 200) })}${buildStaleness()}`);
    }
    await page.waitForTimeout(25);
  }
}

const hasTables = (ids) => (s) => ids.every((t) => t in s.tables) && s.error === '';
const errorMatches = (re) => (s) => re.test(s.error);

/** The same pixel survey as `chartInk`, for the charts of a data set. */
function datasetChartInk(page, id) {
  return page.$$eval(`#datasets section.dataset[data-dataset="${id}"] figure.chart[data-chart] canvas`, (canvases) =>
    Object.fromEntries(canvases.map((c) => {
      const fig = c.closest('figure').dataset.chart;
      if (!c.width || !c.height) return [fig, { ink: 0, coloured: 0, share: 0, sum: 0, clientWidth: c.clientWidth }];
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      let coloured = 0;
      let sum = 0;
      for (let i = 0; i < d.length; i += 4) {
        const [r, g, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
        sum = (sum * 31 + r * 7 + g * 11 + b * 13 + a) >>> 0;
        if (a > 0 && !(r >= 245 && g >= 245 && b >= 245)) {
          ink += 1;
          if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured += 1;
        }
      }
      return [fig, { ink, coloured, share: ink / (d.length / 4), sum, clientWidth: c.clientWidth }];
    })));
}

async function assertChartsInked(page, id, charts, context) {
  const ink = await datasetChartInk(page, id);
  assert.deepEqual(Object.keys(ink).sort(), [...charts].sort(), `${context}: the charts of ${id}`);
  for (const c of charts) {
    assert.ok(ink[c].clientWidth > 100, `${context}: chart ${c} is laid out (${ink[c].clientWidth} px)`);
    assert.ok(ink[c].ink > 3000 && ink[c].share > 0.01, `${context}: chart ${c} has ink: ${ink[c].ink} pixels`);
    assert.ok(ink[c].coloured > 100, `${context}: chart ${c} has coloured data (${ink[c].coloured} pixels)`);
  }
  return ink;
}

async function chooseExample(page, id, example, tables) {
  await page.selectOption(`${section(id)} select.dataset-example`, example);
  return waitDataset(page, id, hasTables(tables), `the ${example} example's tables`);
}

/** "[lo, hi]" -> [lo, hi]. */
function interval(cell) {
  const m = /^\[(-?[\d.e+-]+), (-?[\d.e+-]+)\]$/.exec(cell);
  assert.ok(m, `an interval cell: "${cell}"`);
  return [Number(m[1]), Number(m[2])];
}

/** The fit table's rows by coefficient: { C1: { value, se, ci: [lo, hi], cells } }. */
function fitRows(state) {
  const t = state.tables.fit;
  assert.ok(t, 'the fit table is shown');
  return Object.fromEntries(t.rows.map((r) => [r[0], { value: Number(r[1]), se: r[2], ci: interval(r[3]), cells: r }]));
}

async function cliJson(args) {
  const { stdout } = await run(CLI, args, { timeout: 20_000, maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

/** Compares numbers bit for bit (Object.is), recursively; reports the path of the first difference. */
function assertSameBits(actual, expected, path) {
  if (typeof expected === 'number') {
    assert.ok(Object.is(actual, expected), `${path}: page ${actual} !== CLI ${expected}${buildStaleness()}`);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path} is an array`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((x, i) => assertSameBits(actual[i], x, `${path}[${i}]`));
  } else if (expected && typeof expected === 'object') {
    assert.deepEqual(Object.keys(actual ?? {}).sort(), Object.keys(expected).sort(), `${path}: keys`);
    for (const k of Object.keys(expected)) assertSameBits(actual[k], expected[k], `${path}.${k}`);
  } else {
    assert.equal(actual, expected, path);
  }
}

/** Runs analyze in the page; returns { result, tables } or { error: { message, line, column } }. */
function analyzeInPage(page, dataset, text, params = {}) {
  return page.evaluate(([m, d, t, p]) => {
    try {
      const a = window.isoperf.analyze(m, d, t, p);
      return { result: a.result, tables: a.tables, suggest: a.suggest };
    } catch (e) {
      return { error: { message: e.message, line: e.line, column: e.column, isError: e instanceof Error } };
    }
  }, [MODEL, dataset, text, params]);
}


/** Every output shows what the page's formatter makes of `values` (null shows "—"). */
async function assertOutputsShow(page, values, context) {
  const shown = await outputTexts(page);
  assert.deepEqual(Object.keys(shown).sort(), Object.keys(values).sort(), `${context}: one output element per output`);
  const formatted = await formatInPage(page, Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'number')));
  for (const [k, v] of Object.entries(values)) {
    assert.equal(shown[k], v === null ? '—' : formatted[k], `${context}: output ${k} (value ${v})`);
  }
}

// ---- 1. the tab ------------------------------------------------------------------------------

describe('scaling: loading', () => {
  test('the tab loads with T 0.2585 s, p_crossover 230.3, an inked chart, the data sets, no errors and no foreign requests', async () => {
    const { page, log, close } = await openPage(env);
    try {
      const origin = new URL(env.url).origin;
      await page.click('#model-tabs .tab[data-model=scaling]');
      await page.waitForFunction(() => document.querySelector('#outputs .output[data-output=p_crossover]'));
      await waitForCharts(page);

      assert.equal(await page.$eval('#model-tabs .tab[data-model=scaling]', (t) => t.getAttribute('aria-current')), 'page');
      assert.deepEqual(await hashParams(page), { model: 'scaling' });
      assert.equal(await page.inputValue('#f-C0'), '0');
      assert.equal(await page.inputValue('#f-C1'), '57.67');
      assert.equal(await page.inputValue('#f-C2'), '3.8');
      assert.equal(await page.inputValue('#f-p'), '576');
      assert.deepEqual(await listRows(page, 'CTIs'), [{ cti: '0.05' }, { cti: '0.1' }], 'the CTI list as a one-column table');

      const out = await outputTexts(page);
      assert.equal(out.T, '0.2585', '57.67/576 + 3.8/24');
      assert.equal(out.p_crossover, '230.3', '(57.67/3.8)²');
      assert.equal(out.p_diminishing, '—', 'no diminishing returns with C0 = 0');
      const remark = await page.$eval('#outputs .output[data-output=p_diminishing] .output-remark', (r) => r.textContent);
      assert.match(remark, /no diminishing returns/, `p_diminishing explains its "—": "${remark}"`);
      await assertOutputsShow(page, await evaluateInPage(page, MODEL, {}), 'defaults');

      const s = await snapshot(page);
      assert.equal(s.status.hidden, true);
      assert.deepEqual(s.invalid, []);
      assert.deepEqual(Object.keys(s.charts), ['components']);
      assert.equal(s.charts.components.stale, false);
      const ink = await chartInk(page);
      assert.ok(ink.components.ink > 5000 && ink.components.coloured > 300, `the components chart has ink: ${JSON.stringify(ink.components)}`);

      // Two empty data sets with their examples; nothing fetched yet.
      const sets = await page.$$eval('#datasets section.dataset', (ss) => ss.map((x) => ({
        id: x.dataset.dataset,
        examples: [...x.querySelectorAll('select.dataset-example option')].map((o) => o.value).filter(Boolean),
        file: Boolean(x.querySelector('input[type=file]')),
      })));
      assert.deepEqual(sets, [
        { id: 'timings', examples: ['scale27', 'scale28'], file: true },
        { id: 'throttling', examples: ['throttling'], file: true },
      ]);
      for (const id of ['timings', 'throttling']) {
        const d = await datasetState(page, id);
        assert.equal(d.chartsHidden, true, `${id}: no charts without data`);
        assert.equal(d.actionsHidden, true, `${id}: no actions without data`);
        assert.deepEqual(d.tables, {});
        assert.equal(d.error, '');
      }
      assert.deepEqual(log.requests.filter((u) => u.includes('/www/data/')), [], 'no example fetched before it is chosen');

      // Fetching the examples stays on this origin.
      await chooseExample(page, 'timings', 'scale27', ['fit', 'predictions']);
      await chooseExample(page, 'throttling', 'throttling', ['demand', 'demand-prediction']);
      assert.equal(log.requests.filter((u) => u.includes('/www/data/')).length, 2, 'two example fetches');

      assertCleanPage(log, origin);
    } finally {
      await close();
    }
  });
});

// ---- 2. the scale27 example ---------------------------------------------------------------------

describe('scaling: timings example', () => {
  test('scale27: the fit covers 57.67 and 3.8, three inked charts, in the URL, restored on reload', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page, log }) => {
      const s = await chooseExample(page, 'timings', 'scale27', ['fit', 'predictions']);
      const file = readFileSync(FILES.scale27, 'utf8');
      assert.equal(s.text, file, 'the textarea holds the example file');
      assert.match(s.text.split('\n')[0], /^# SYNTHETIC/, 'the file says it is synthetic');
      assert.equal(s.example, 'scale27');
      assert.equal(s.ariaInvalid, 'false');
      assert.equal(s.actionsHidden, false);
      assert.equal(s.useFitHidden, false, 'the timings offer to use the fit');
      assert.equal(s.chartsHidden, false);
      assert.deepEqual(Object.values(s.chartErrors), ['', '', '']);

      const t = s.tables.fit;
      assert.match(t.title, /^Fit of eq\. \(1\) to 960 runs$/);
      assert.deepEqual(t.columns, ['coefficient', 'value (s)', 'standard error', '95% interval']);
      assert.deepEqual(t.rows.map((r) => r[0]), ['C0', 'C1', 'C2']);
      const rows = fitRows(s);
      const [c1lo, c1hi] = rows.C1.ci;
      const [c2lo, c2hi] = rows.C2.ci;
      assert.ok(c1lo < 57.67 && 57.67 < c1hi, `C1's 95% interval [${c1lo}, ${c1hi}] covers the generating 57.67`);
      assert.ok(c2lo < 3.8 && 3.8 < c2hi, `C2's 95% interval [${c2lo}, ${c2hi}] covers the generating 3.8`);
      for (const r of Object.values(rows)) assert.ok(r.ci[0] < r.value && r.value < r.ci[1], `${r.cells[0]} lies in its interval`);
      assert.ok(s.tables.predictions.rows.length >= 2, 'the prediction table has rows');
      assert.doesNotMatch(JSON.stringify(s.tables), NOT_SHOWN);

      const ink = await assertChartsInked(page, 'timings', FIT_CHARTS, 'scale27');
      assert.deepEqual(await hashParams(page), { model: 'scaling', 'data.timings': 'scale27' });

      // The URL restores the example.
      await reloadReady(page);
      const restored = await waitDataset(page, 'timings', hasTables(['fit', 'predictions']), 'the restored fit');
      assert.equal(restored.example, 'scale27', 'the menu shows the example');
      assert.equal(restored.text, file);
      assert.deepEqual(restored.tables, s.tables, 'the same tables after reload');
      const again = await assertChartsInked(page, 'timings', FIT_CHARTS, 'after reload');
      for (const c of FIT_CHARTS) assert.equal(again[c].sum, ink[c].sum, `chart ${c} is drawn the same after reload`);
      assert.deepEqual(await hashParams(page), { model: 'scaling', 'data.timings': 'scale27' });
      assert.deepEqual(pageProblems(log), []);
    });
  });

  test('the fit in the page equals `isoperf fit scaling` bit for bit', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: '#model=scaling&data.timings=scale27' }, async ({ page }) => {
      const shown = await waitDataset(page, 'timings', hasTables(['fit']), 'the fit');
      const native = await cliJson(['fit', 'scaling', FILES.scale27]);
      const text = readFileSync(FILES.scale27, 'utf8');
      const inPage = await analyzeInPage(page, 'timings', text, {});
      assert.equal(inPage.error, undefined, JSON.stringify(inPage.error));
      for (const c of ['C0', 'C1', 'C2']) {
        for (const k of ['value', 'se']) {
          assert.ok(Object.is(inPage.result[c][k], native[c][k]), `${c}.${k}: page ${inPage.result[c][k]} !== CLI ${native[c][k]}${buildStaleness()}`);
        }
      }
      for (const k of ['r2', 'mse', 'n']) assert.ok(Object.is(inPage.result[k], native[k]), `${k}: page ${inPage.result[k]} !== CLI ${native[k]}`);
      assertSameBits(inPage.result, native, 'fit');
      // What the page shows is that result.
      assert.deepEqual(inPage.suggest, [['C0', native.C0.value], ['C1', native.C1.value], ['C2', native.C2.value]]);
      const rows = fitRows(shown);
      for (const c of ['C0', 'C1', 'C2']) {
        assert.ok(Math.abs(rows[c].value - native[c].value) <= 5e-5 * Math.abs(native[c].value), `${c}: table ${rows[c].value}, CLI ${native[c].value}`);
      }
      assert.equal(shown.tables.fit.title, `Fit of eq. (1) to ${native.n} runs`);
    });
  });
});

// ---- 3. using the fit -----------------------------------------------------------------------------

describe('scaling: use the fit', () => {
  test('"Use the fitted coefficients" fills C0, C1, C2 with the fit and T follows', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      const before = await outputTexts(page);
      await chooseExample(page, 'timings', 'scale27', ['fit']);
      const text = await page.inputValue(`${section('timings')} textarea.dataset-text`);
      const { result } = await analyzeInPage(page, 'timings', text, {});
      await page.click(`${section('timings')} button.use-fit`);
      await page.waitForFunction((v) => document.querySelector('#f-C1').value === v, String(result.C1.value));
      for (const c of ['C0', 'C1', 'C2']) {
        const v = await page.inputValue(`#f-${c}`);
        assert.ok(Object.is(Number(v), result[c].value), `${c}: field "${v}", fit ${result[c].value}`);
      }
      const after = await outputTexts(page);
      assert.notEqual(after.T, before.T, 'T changed');
      const expected = await evaluateInPage(page, MODEL, { C0: String(result.C0.value), C1: String(result.C1.value), C2: String(result.C2.value) });
      const t = result.C0.value + result.C1.value / 576 + result.C2.value / 24;
      assert.ok(Math.abs(expected.T - t) < 1e-12, `T = C0 + C1/576 + C2/24 = ${t}`);
      await assertOutputsShow(page, expected, 'the fitted coefficients');
      const hash = await hashParams(page);
      assert.equal(hash['data.timings'], 'scale27', 'the example stays in the URL');
      for (const c of ['C0', 'C1', 'C2']) assert.ok(Object.is(Number(hash[c]), result[c].value), `${c} in the URL: ${hash[c]}`);
      const s = await snapshot(page);
      assert.deepEqual(s.invalid, []);
      assert.equal(s.status.hidden, true);
      // The data set is untouched.
      const d = await datasetState(page, 'timings');
      assert.equal(d.example, 'scale27');
      assert.ok('fit' in d.tables);
    });
  });
});

// ---- 4. pasted data and its errors -------------------------------------------------------------

const PS = [18, 36, 72, 144, 288, 576];
const lines = (rows) => rows.map((r) => r.join(',')).join('\n');
/** Noiseless: time = 1 + 50/p + 4/√p. */
const NOISELESS = `p,time\n${lines(PS.map((p) => [p, 1 + 50 / p + 4 / Math.sqrt(p)]))}\n`;
const BAD = [
  {
    what: 'a non-number in line 3',
    text: 'p,time\n18,4.72\n36,abc\n72,2.17\n144,1.68\n',
    message: /^line 3, column 2: time 'abc' is not a number$/,
    at: [3, 2],
  },
  {
    what: 'a decimal comma with ; separators',
    text: 'p;time\n18;4.72\n36;2,5\n72;2.17\n144;1.68\n',
    message: /^line 3, column 2: .*decimal comma/,
    at: [3, 2],
  },
  {
    what: 'a decimal comma with , separators',
    text: 'p,time\n18,4.72\n36,2,5\n72,2.17\n144,1.68\n',
    message: /^line 3: .*decimal comma/,
    at: [3, 0],
  },
  {
    what: 'three points',
    text: 'p,time\n18,4.72\n36,2.5\n72,2.17\n',
    message: /3 data points cannot determine C0, C1, C2.*at least 4/,
    at: [0, 0],
  },
  {
    what: 'every point at one p',
    text: 'p,time\n36,2.5\n36,2.6\n36,2.4\n36,2.55\n36,2.45\n',
    message: /1 distinct p value.*at least 3/,
    at: [0, 0],
  },
  {
    what: 'a fractional process count (issue 14: accepted)',
    text: 'time,p\n4.72,18\n2.5,1.5\n2.17,72\n1.68,144\n',
    message: /^line 3, column 2: p = 1\.5 is not a measurement: expected a whole number ≥ 1$/,
    at: [3, 2],
  },
  {
    what: 'all-zero times (issue 14: accepted)',
    text: 'p,time\n18,0\n36,0\n72,0\n144,0\n',
    message: /^line 2, column 2: time = 0 is not a measurement: expected a number > 0$/,
    at: [2, 2],
  },
];

describe('scaling: pasted data', () => {
  test('pasted data up to 2 KB live in the link and come back with it; longer data say they do not', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      const textarea = `${section('timings')} textarea.dataset-text`;
      const privacy = `${section('timings')} .dataset-privacy`;
      // Named columns in any order (issue 14: a header time,p was ignored and the columns swapped).
      const swapped = ['time,p', ...NOISELESS.trim().split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split(',').reverse().join(','))].join('\n');
      await page.fill(textarea, swapped);
      const s = await waitDataset(page, 'timings', (x) => x.tables.fit?.rows[1]?.[1] === '50.000', 'C1 = 50.000 from time,p');
      assert.equal(s.error, '');
      const link = page.url();
      assert.equal((await hashParams(page))['csv.timings'], swapped);
      assert.match(await page.textContent(privacy), /The link keeps an example, or pasted data up to 2 KB/);

      const again = await page.context().newPage();
      try {
        await again.goto(link);
        await again.waitForSelector(`${section('timings')} .dataset-tables`, { state: 'attached' });
        const back = await waitDataset(again, 'timings', (x) => x.tables.fit?.rows[1]?.[1] === '50.000', 'the link restores the data');
        assert.equal(back.text, swapped, 'the text area holds the linked data');
        assert.deepEqual(await again.$$eval('#link-note p', (ps) => ps.map((p) => p.textContent)), [], 'no notice');
      } finally {
        await again.close();
      }

      // Over 2 KB: the link leaves the data out, and the panel says so.
      const long = `p,time\n${Array.from({ length: 300 }, (_, i) => `${i + 1},${(50 / (i + 1) + 4 / Math.sqrt(i + 1) + 1).toFixed(9)}`).join('\n')}\n`;
      await page.fill(textarea, long);
      await waitDataset(page, 'timings', (x) => x.tables.fit?.rows[1]?.[1] === '50.000', 'the long data fit');
      assert.equal('csv.timings' in (await hashParams(page)), false, 'no data in the link');
      assert.match(await page.textContent(privacy), /KB are more than a link keeps \(2 KB\)/);
    });
  });

  test('pasting noiseless data fits C1 = 50.000 and redraws; malformed data names the line and column; no NaN', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      const textarea = `${section('timings')} textarea.dataset-text`;
      await chooseExample(page, 'timings', 'scale27', ['fit']);
      const exampleInk = await datasetChartInk(page, 'timings');

      await page.fill(textarea, NOISELESS);
      let s = await waitDataset(page, 'timings', (x) => x.tables.fit?.rows[1]?.[1] === '50.000', 'C1 = 50.000');
      let rows = fitRows(s);
      assert.equal(rows.C1.cells[1], '50.000');
      assert.ok(Math.abs(rows.C1.value - 50) <= 1e-6 * 50, `C1 ${rows.C1.value}`);
      assert.equal(rows.C0.cells[1], '1.0000');
      assert.equal(rows.C2.cells[1], '4.0000');
      assert.equal(s.tables.fit.title, 'Fit of eq. (1) to 6 runs');
      assert.equal(s.example, '', 'the example menu no longer claims the data');
      assert.deepEqual(await hashParams(page), { model: 'scaling', 'csv.timings': NOISELESS }, 'the URL holds the pasted data, not the example');
      assert.equal(s.chartsHidden, false);
      const ink = await assertChartsInked(page, 'timings', FIT_CHARTS, 'pasted data');
      for (const c of FIT_CHARTS) assert.notEqual(ink[c].sum, exampleInk[c].sum, `chart ${c} redrawn for the pasted data`);
      assert.doesNotMatch(await visibleText(page), NOT_SHOWN, 'no NaN for a perfect fit');
      const exact = await analyzeInPage(page, 'timings', NOISELESS);
      assert.ok(Math.abs(exact.result.C1.value - 50) < 1e-9, `C1 = ${exact.result.C1.value}`);

      for (const bad of BAD) {
        await page.fill(textarea, NOISELESS);
        await waitDataset(page, 'timings', (x) => x.tables.fit?.rows[1]?.[1] === '50.000' && !x.chartsHidden, 'the valid fit again');

        await page.fill(textarea, bad.text);
        s = await waitDataset(page, 'timings', (x) => x.error !== '', `an error for ${bad.what}`);
        assert.match(s.error, bad.message, `${bad.what}: "${s.error}"`);
        assert.equal(s.errorVisible, true, `${bad.what}: the error is visible`);
        assert.equal(s.ariaInvalid, 'true', `${bad.what}: the text area is marked invalid`);
        assert.deepEqual(s.tables, {}, `${bad.what}: no tables`);
        assert.equal(s.chartsHidden, true, `${bad.what}: the charts hide`);
        assert.equal(s.actionsHidden, true, `${bad.what}: no actions`);
        const text = await visibleText(page);
        assert.doesNotMatch(text, NOT_SHOWN, `${bad.what}: no NaN on the page`);
        assert.ok(text.includes(s.error), `${bad.what}: the error is in the visible text`);
        assert.equal((await outputTexts(page)).T, '0.2585', `${bad.what}: the model's outputs are untouched`);

        const e = (await analyzeInPage(page, 'timings', bad.text)).error;
        assert.ok(e?.isError, `${bad.what}: analyze throws an Error`);
        assert.equal(e.message, s.error, `${bad.what}: the page shows analyze's message`);
        assert.deepEqual([e.line, e.column], bad.at, `${bad.what}: .line and .column`);
      }

      // Emptying the text clears the error, the tables and the charts.
      await page.fill(textarea, '');
      s = await waitDataset(page, 'timings', (x) => x.error === '', 'no error for empty text');
      assert.deepEqual(s.tables, {});
      assert.equal(s.chartsHidden, true);
      assert.equal(s.actionsHidden, true);
    });
  });

  test('a chosen file is read like pasted text', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      await page.setInputFiles(`${section('timings')} input[type=file]`, { name: 'runs.csv', mimeType: 'text/csv', buffer: Buffer.from(NOISELESS) });
      const s = await waitDataset(page, 'timings', (x) => x.tables.fit?.rows[1]?.[1] === '50.000', 'the fit of the file');
      assert.equal(s.text, NOISELESS);
      assert.equal(s.example, '');
      await assertChartsInked(page, 'timings', FIT_CHARTS, 'file');
    });
  });
});

// ---- 5. throttling --------------------------------------------------------------------------------

/** Parameter sets of the demand analysis, as the form's text and as CLI options. */
const DEMAND_CASES = [
  { cti: '0.05, 0.1', p_base: '288', p_target: '450' },
  { cti: '0.02, 0.08, 0.15', p_base: '162', p_target: '1000' },
  { cti: '0.1', p_base: '72', p_target: '576' },
];

/** ['p', 'BW at CTI 0.0500', ...] -> [0.05, ...] (the CTIs to 3 significant figures). */
function ctiColumns(columns) {
  assert.equal(columns[0], 'p');
  return columns.slice(1).map((c) => Number(/^BW at CTI ([\d.]+)$/.exec(c)?.[1]));
}

describe('scaling: throttling', () => {
  test('the throttling example: DC in (0.7, 0.9), inked charts; a CTI of 9 is never reached', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      const s = await chooseExample(page, 'throttling', 'throttling', ['demand', 'demand-prediction']);
      assert.match(s.text.split('\n')[0], /^# SYNTHETIC/);
      assert.equal(s.useFitHidden, true, 'nothing to copy into the form from a demand analysis');
      assert.equal(s.actionsHidden, false);
      assert.deepEqual(ctiColumns(s.tables.demand.columns), [0.05, 0.1], `the columns: ${JSON.stringify(s.tables.demand.columns)}`);
      assert.deepEqual(s.tables.demand.rows.map((r) => r[0]), ['72', '162', '288']);
      const note = s.tables.demand.notes.find((n) => n.startsWith('DC = ')) ?? '';
      const dc = Number(/^DC = ([\d.]+)/.exec(note)?.[1]);
      assert.ok(dc > 0.7 && dc < 0.9, `DC = ${dc} (note: "${note}")`);
      assert.match(s.tables['demand-prediction'].title, /p′ = 450 from p\* = 288/);
      assert.equal(s.tables['demand-prediction'].rows.length, 2, 'a prediction per CTI');
      assert.doesNotMatch(JSON.stringify(s.tables), NOT_SHOWN);
      await assertChartsInked(page, 'throttling', DEMAND_CHARTS, 'throttling');
      assert.deepEqual(await hashParams(page), { model: 'scaling', 'data.throttling': 'throttling' });

      // A third CTI of 9: no configuration slows down by 900%.
      await page.click('#form .field.list-field[data-group=CTIs] button.list-add');
      await page.fill('#form input[data-list=cti][data-row="2"]', '9');
      let bad = await waitDataset(page, 'throttling', errorMatches(/never reaches 9/), 'the CTI-9 error');
      assert.match(bad.error, /CTI never reaches 9/);
      assert.deepEqual(bad.tables, {});
      assert.equal(bad.chartsHidden, true);
      assert.equal(bad.ariaInvalid, 'true');
      assert.doesNotMatch(await visibleText(page), NOT_SHOWN);
      assert.equal((await hashParams(page)).cti, '0.05, 0.1, 9');
      assert.deepEqual((await snapshot(page)).invalid, [], 'CTI 9 is a valid parameter; only the data cannot meet it');

      // A CTI the data meet brings the analysis back, with a third column.
      await page.fill('#form input[data-list=cti][data-row="2"]', '0.15');
      const back = await waitDataset(page, 'throttling', hasTables(['demand']), 'the demand with CTI 0.15');
      assert.deepEqual(ctiColumns(back.tables.demand.columns), [0.05, 0.1, 0.15], `the columns: ${JSON.stringify(back.tables.demand.columns)}`);
      assert.equal(back.chartsHidden, false);
      await assertChartsInked(page, 'throttling', DEMAND_CHARTS, 'CTI 0.15');

      // p_base moves the prediction.
      await page.fill('#f-p_base', '162');
      bad = await waitDataset(page, 'throttling', (x) => /p\* = 162/.test(x.tables['demand-prediction']?.title ?? ''), 'p* = 162');
      await page.fill('#f-p_base', '100');
      bad = await waitDataset(page, 'throttling', errorMatches(/base p = 100 is not in the data/), 'an unknown base p');
      assert.match(bad.error, /measured: 72, 162, 288/);
    });
  });

  test('the demand in the page equals `isoperf demand` (dc, pairs, predictions)', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: '#model=scaling&data.throttling=throttling' }, async ({ page }) => {
      const shown = await waitDataset(page, 'throttling', hasTables(['demand']), 'the demand');
      const text = readFileSync(FILES.throttling, 'utf8');
      for (const params of DEMAND_CASES) {
        const label = JSON.stringify(params);
        const native = await cliJson(['demand', FILES.throttling, '--cti', params.cti.replace(/\s/g, ''), '--base-p', params.p_base, '--target-p', params.p_target]);
        const inPage = await analyzeInPage(page, 'throttling', text, params);
        assert.equal(inPage.error, undefined, `${label}: ${JSON.stringify(inPage.error)}`);
        assert.ok(Object.is(inPage.result.dc, native.dc), `${label}: dc page ${inPage.result.dc} !== CLI ${native.dc}`);
        assert.equal(inPage.result.pairs.length, native.pairs.length, `${label}: pairs`);
        assertSameBits(inPage.result.predictions, native.predictions, `${label} predictions`);
        assertSameBits(inPage.result, native, `${label} demand`);
      }
      // The shown note is that DC.
      const native = await cliJson(['demand', FILES.throttling, '--cti', '0.05,0.1', '--base-p', '288', '--target-p', '450']);
      const note = shown.tables.demand.notes.find((n) => n.startsWith('DC = '));
      assert.equal(Number(/^DC = ([\d.]+)/.exec(note)[1]), Number(native.dc.toPrecision(4)), note);
      assert.ok(note.includes(`over ${native.pairs.length} ratios`), note);
    });
  });
});

// ---- 6. exports --------------------------------------------------------------------------------

describe('scaling: export', () => {
  test('Export JSON and Export CSV download isoperf-scaling-timings.json/.csv', async () => {
    await withPage(env, { hash: '#model=scaling&data.timings=scale27' }, async ({ page }) => {
      const s = await waitDataset(page, 'timings', hasTables(['fit', 'predictions']), 'the fit');
      const text = await page.inputValue(`${section('timings')} textarea.dataset-text`);
      const { result } = await analyzeInPage(page, 'timings', text);

      const [json] = await Promise.all([page.waitForEvent('download'), page.click(`${section('timings')} button.export-json`)]);
      assert.equal(json.suggestedFilename(), 'isoperf-scaling-timings.json');
      const parsed = JSON.parse(await readFile(await json.path(), 'utf8'));
      assert.equal(typeof parsed.C1?.value, 'number', 'C1.value');
      assertSameBits(parsed, result, 'the exported JSON');

      const [csv] = await Promise.all([page.waitForEvent('download'), page.click(`${section('timings')} button.export-csv`)]);
      assert.equal(csv.suggestedFilename(), 'isoperf-scaling-timings.csv');
      const body = await readFile(await csv.path(), 'utf8');
      const csvLines = body.split('\n');
      assert.equal(csvLines[0], s.tables.fit.title, 'the first line is the fit table title');
      assert.equal(csvLines[1], 'coefficient,value (s),standard error,95% interval');
      const c1 = s.tables.fit.rows[1];
      assert.equal(csvLines[3], `${c1[0]},${c1[1]},${c1[2]},"${c1[3]}"`, 'the C1 row, the interval quoted');
      assert.ok(csvLines.includes(s.tables.predictions.title), 'the predictions table follows');
      assert.doesNotMatch(body, NOT_SHOWN);

      // The throttling data set exports under its own name.
      await chooseExample(page, 'throttling', 'throttling', ['demand']);
      const [demand] = await Promise.all([page.waitForEvent('download'), page.click(`${section('throttling')} button.export-json`)]);
      assert.equal(demand.suggestedFilename(), 'isoperf-scaling-throttling.json');
      assert.equal(typeof JSON.parse(await readFile(await demand.path(), 'utf8')).dc, 'number');
    });
  });
});

// ---- 7. bad model parameters ----------------------------------------------------------------------

describe('scaling: bad parameters', () => {
  test('C1=abc and p=0 are refused at their fields with "expected"; no NaN anywhere', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      for (const [key, value, good] of [['C1', 'abc', '57.67'], ['p', '0', '576']]) {
        await page.fill(`#f-${key}`, value);
        await page.waitForFunction((k) => document.querySelector(`#form .field[data-key="${k}"]`).classList.contains('invalid'), key);
        const s = await snapshot(page);
        const msg = (await fieldMessages(page))[key];
        assert.match(msg.error, /expected/, `the message at ${key}: "${msg.error}"`);
        assert.equal(msg.errorVisible, true, `${key}: the message is visible`);
        assert.deepEqual(s.invalid, [key]);
        assert.equal(s.status.hidden, false, `${key}: the status banner shows`);
        for (const [k, t] of Object.entries(s.outputs)) assert.equal(t, '—', `${key}=${value}: output ${k} shows no number`);
        assert.equal(s.hash[key], value, 'the hash keeps the refused value');
        assert.doesNotMatch(await visibleText(page), NOT_SHOWN, `${key}=${value}: no visible NaN`);

        await page.fill(`#f-${key}`, good);
        await page.waitForFunction(() => document.querySelector('#outputs .output[data-output=T] output').textContent === '0.2585');
        assert.deepEqual((await snapshot(page)).invalid, []);
      }
    });
  });
});

// ---- regressions: bugs seen while writing the tests above -----------------------------------------

/**
 * Marks the data set's table cards; the returned function waits until the
 * data set was analysed again (the cards re-rendered, or an error shown) and
 * returns its state.
 */
async function markTables(page, id) {
  await page.$eval(section(id), (s) => { for (const t of s.querySelectorAll('.dataset-tables section.table-card')) t.dataset.probe = 'old'; });
  return async () => {
    await page.waitForFunction((sel) => {
      const s = document.querySelector(sel);
      return s.querySelector('.dataset-error').textContent !== '' || !s.querySelector('.dataset-tables section.table-card[data-probe=old]');
    }, section(id), { timeout: 5_000 });
    return datasetState(page, id);
  };
}

/**
 * Counts, in the page, the fetches the page has settled: `window.__fetched`
 * goes up two timer turns after a fetched body is read (so after the page's
 * own continuation and the analysis it schedules with a 0 ms timer), or after
 * a fetch fails, or two timer turns after a response the page does not read.
 */
function countBodies(page) {
  return page.evaluate(() => {
    window.__fetched = 0;
    const later = (f) => setTimeout(() => setTimeout(f, 0), 0);
    const done = () => later(() => { window.__fetched += 1; });
    const fetch = window.fetch;
    window.fetch = (...args) => fetch(...args).then((r) => {
      let reading = false;
      const text = r.text.bind(r);
      r.text = () => { reading = true; return text().finally(done); };
      later(() => { if (!reading) done(); });
      return r;
    }, (e) => { done(); throw e; });
  });
}

const bodiesRead = (page, n) => page.waitForFunction((n) => window.__fetched >= n, n, { timeout: 5_000 });

/** Delays the responses for one example file until `release()` is called. */
async function holdExample(page, file) {
  let release;
  const held = new Promise((ok) => { release = ok; });
  let arrived;
  const requested = new Promise((ok) => { arrived = ok; });
  await page.route(`**/www/data/${file}`, async (route) => {
    arrived();
    await held;
    await route.continue();
  });
  return { requested, release: () => release() };
}

describe('scaling: regressions', () => {
  test('an example whose fetch finishes late does not replace the example chosen after it', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      await countBodies(page);
      const slow = await holdExample(page, 'graph500-scale27-synthetic.csv');
      const menu = `${section('timings')} select.dataset-example`;
      await page.selectOption(menu, 'scale27');
      await slow.requested;
      await page.selectOption(menu, 'scale28');
      await bodiesRead(page, 1);
      assert.match((await datasetState(page, 'timings')).text, /102\.1/, 'scale28 arrives first');
      slow.release();
      await bodiesRead(page, 2); // the late scale27 body
      const s = await waitDataset(page, 'timings', hasTables(['fit']), 'a fit');
      assert.equal(s.example, 'scale28', 'the menu says scale28');
      assert.equal((await hashParams(page))['data.timings'], 'scale28', 'the URL says scale28');
      assert.ok(s.text === readFileSync(join(ROOT, 'www', 'data', 'graph500-scale28-synthetic.csv'), 'utf8'),
        `the text is scale28's, not the late scale27 file's (it begins "${s.text.split('\n')[0]}")`);
    });
  });

  test('text typed while an example is loading is not overwritten by the example', async () => {
    await withPage(env, { hash: '#model=scaling' }, async ({ page }) => {
      await countBodies(page);
      const slow = await holdExample(page, 'graph500-scale27-synthetic.csv');
      await page.selectOption(`${section('timings')} select.dataset-example`, 'scale27');
      await slow.requested;
      await page.fill(`${section('timings')} textarea.dataset-text`, NOISELESS);
      await waitDataset(page, 'timings', (x) => x.tables.fit?.rows[1]?.[1] === '50.000', 'the typed fit');
      slow.release();
      await bodiesRead(page, 1); // the late scale27 body
      const s = await datasetState(page, 'timings');
      assert.equal(s.example, '', 'the menu no longer names an example');
      assert.equal('data.timings' in (await hashParams(page)), false, 'the URL names no example');
      assert.ok(s.text === NOISELESS, `the typed text stays (the text area now begins "${s.text.split('\n')[0]}")`);
      assert.equal(s.tables.fit?.rows[1]?.[1], '50.000', 'the fit is of the typed data');
    });
  });

  test('an invalid model parameter does not block the analyses that do not use it, nor redo them', async () => {
    await withPage(env, { hash: '#model=scaling&data.timings=scale27&data.throttling=throttling' }, async ({ page }) => {
      const fit = await waitDataset(page, 'timings', hasTables(['fit']), 'the fit');
      const demand = await waitDataset(page, 'throttling', hasTables(['demand']), 'the demand');
      const requests = () => page.evaluate(() => window.isoperf.workers.data?.requests ?? 0);
      const before = await requests();
      // Tables that stay the same DOM nodes were not analysed again.
      const mark = (id) => page.$eval(section(id), (s) => { for (const t of s.querySelectorAll('.dataset-tables section.table-card')) t.dataset.probe = 'old'; });
      const kept = (id) => page.$eval(section(id), (s) => s.querySelectorAll('.dataset-tables section.table-card[data-probe=old]').length);
      await mark('timings');
      await mark('throttling');
      await page.fill('#f-C1', 'abc');
      await afterFrames(page);
      await page.waitForTimeout(400); // past the analyses' debounce
      assert.match((await fieldMessages(page)).C1.error, /expected/, 'C1 is refused at its field');
      // The fit uses no parameter and the demand only cti, p_base and p_target (DatasetSpec.params):
      // a typo in C1 neither hides them nor sends them to the data worker again.
      const t = await datasetState(page, 'timings');
      const d = await datasetState(page, 'throttling');
      assert.equal(t.error, '', `the timings data set is blocked by C1: "${t.error}"`);
      assert.deepEqual(t.tables.fit, fit.tables.fit, 'the fit still shows');
      assert.equal(t.useFitHidden || t.actionsHidden, false, '"Use the fitted coefficients" is still offered');
      assert.equal(d.error, '', `the throttling data set is blocked by C1: "${d.error}"`);
      assert.deepEqual(d.tables.demand, demand.tables.demand);
      assert.equal(await requests(), before, 'no analysis was asked for');
      assert.ok(await kept('timings') > 0 && await kept('throttling') > 0, 'the tables are the same elements');

      // p_target is read by the demand only: that one is analysed again.
      await page.fill('#f-p_target', '500');
      await page.waitForFunction((sel) => !document.querySelector(`${sel} .dataset-tables section.table-card[data-probe=old]`), section('throttling'), { timeout: 10_000 });
      assert.equal(await requests(), before + 1, 'one analysis, of the throttling runs');
      assert.ok(await kept('timings') > 0, 'the fit was not redone');
      await page.fill('#f-p_target', '450');

      await page.click(`${section('timings')} button.use-fit`);
      await page.waitForFunction(() => !document.querySelector('#form .field.invalid'), null, { timeout: 2_000 });
    });
  });
});
