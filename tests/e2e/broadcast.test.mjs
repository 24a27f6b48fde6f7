// End-to-end tests of the `broadcast` model (issue 15) in headless Chromium:
// the comparison table, the two charts, the timeline and the winner map are
// drawn (nothing blank, no NaN); the outputs equal evaluate() and the CLI;
// bad input is answered at its field; p in the millions keeps the page
// responsive and the timeline says why it is not drawn; pmm's Table 2 links
// its broadcast rows to this model.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import {
  CLI, MAP_DONE, canvasInk, chartStates, evaluateInPage, fieldMessages, hasCli, outputTexts, startEnv, stopEnv,
  visibleText, waitComplete, withPage,
} from './helpers.mjs';

const run = promisify(execFile);
const NO_CLI = hasCli() ? false : `the native CLI ${CLI} does not exist; build it with \`cargo build\``;

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const CHARTS = ['vs-n', 'vs-p', 'timeline'];
const hashOf = (params) => '#' + new URLSearchParams({ model: 'broadcast', ...params }).toString();

describe('broadcast: the laboratory', () => {
  test('the table, both charts, the timeline and the winner map are drawn; no NaN, no blank', async () => {
    await withPage(env, { hash: hashOf({ p: '16', algorithm: 'chain', segments: '4' }) }, async ({ page }) => {
      await waitComplete(page, 'broadcast');
      const charts = await chartStates(page);
      assert.deepEqual(Object.keys(charts).sort(), [...CHARTS].sort());
      for (const [id, c] of Object.entries(charts)) assert.equal(c.note, '', `${id} has no error`);
      const ink = await canvasInk(page, '#charts figure.chart canvas');
      for (const id of CHARTS) assert.ok(ink[id].coloured > 200, `${id} is drawn in colour: ${JSON.stringify(ink[id])}`);
      // The table: seven algorithms, the chosen one highlighted, the fastest ranked first.
      const rows = await page.$$eval('#tables section[data-table=algorithms] tbody tr:not(.remark)', (rs) =>
        rs.map((r) => ({ cls: r.className, cells: [...r.cells].map((c) => c.textContent) })));
      assert.equal(rows.length, 7);
      assert.equal(rows.find((r) => r.cls === 'row-current')?.cells[0], 'pipelined chain');
      assert.equal(rows.filter((r) => r.cells[3] === '1, fastest').length, 1, 'one fastest');
      const fastest = rows.find((r) => r.cells[3] === '1, fastest').cells[0];
      const best = await page.$eval('#outputs .output[data-output=best] output', (o) => o.textContent);
      assert.equal(best, fastest, 'the card and the table name the same fastest algorithm');
      // The timeline: 16 rows, 15 links × 4 segments.
      const chart = await page.evaluate(async () => (await import('/www/wasm.js')).chartData('broadcast', 'timeline', { p: '16', algorithm: 'chain', segments: '4' }));
      assert.equal(chart.y.tick_labels.length, 16);
      assert.equal(chart.series.reduce((n, s) => n + s.spans.length, 0), 60);
      // The winner map: a categorical map, its legend and MPICH's dashed switches.
      await page.waitForSelector(MAP_DONE, { state: 'attached' });
      const map = (await canvasInk(page, 'section#map canvas.map-canvas')).map;
      assert.ok(map.coloured > 0.2 * map.pixels && map.colours >= 3, `the map has regions: ${JSON.stringify(map)}`);
      const text = await visibleText(page);
      assert.doesNotMatch(text, /\bNaN\b|undefined|Infinity/);
      assert.equal(await page.isDisabled('section#map .map-levels'), true, 'a map of categories has no levels');
    });
  });

  test('the outputs are evaluate()\'s, and the CLI gives the same numbers', { skip: NO_CLI }, async () => {
    const params = { p: '64', n: '1', n_unit: 'MiB', cost: 'loggp', L: '2e-6', o: '3e-7', g: '5e-7', G: '2e-10', algorithm: 'scatter_rd' };
    await withPage(env, { hash: hashOf(params) }, async ({ page }) => {
      await waitComplete(page, 'broadcast LogGP', false);
      const values = await evaluateInPage(page, 'broadcast', params);
      const { stdout } = await run(CLI, ['eval', 'broadcast', ...Object.entries(params).map(([k, v]) => `${k}=${v}`)]);
      assert.deepEqual(JSON.parse(stdout), values, 'the CLI and the page agree to the bit');
      assert.equal(typeof values.best, 'string');
      const shown = await outputTexts(page);
      const labels = Object.fromEntries((await page.evaluate(() => window.isoperf.models().find((m) => m.id === 'broadcast').outputs.find((o) => o.key === 'best').categories)).map((c) => [c.id, c.label]));
      assert.equal(shown.best, labels[values.best], 'the fastest algorithm shows as its name');
      assert.ok(values.T > 0 && values.T === values.T_scatter_rd);
    });
  });

  test('bad input: a message at the field with the valid range; p in the millions still answers', async () => {
    const cases = [
      [{ p: '1' }, 'p', /2 ≤ value/],
      [{ p: '3.5' }, 'p', /integer/],
      [{ n: '0' }, 'n', /0 < value/],
      [{ alpha: '-1e-6' }, 'alpha', /0 < value/],
      [{ cost: 'loggp', o: '1e-6', g: '1e-7' }, 'g', /g ≥ o/],
      [{ n: '10', segments: '11' }, 'segments', /1 to 10/],
    ];
    await withPage(env, { hash: hashOf({}) }, async ({ page }) => {
      for (const [params, key, says] of cases) {
        await page.goto(env.url + hashOf(params));
        await page.waitForFunction((k) => document.querySelector(`#form .field[data-key="${k}"]`)?.classList.contains('invalid'), key, { timeout: 10_000 });
        const m = (await fieldMessages(page))[key];
        assert.ok(m.errorVisible, `${JSON.stringify(params)}: the message shows at ${key}`);
        assert.match(m.error, says, `${JSON.stringify(params)}: ${m.error}`);
        assert.doesNotMatch(await visibleText(page), /\bNaN\b/);
      }
      // Five million processes: the formulas answer, the timeline says it is limited to small p.
      await page.goto(env.url + hashOf({ p: '5000000', algorithm: 'scatter_ring' }));
      await page.waitForFunction(() => document.querySelector('#outputs .output[data-output=T] output')?.textContent !== '—', null, { timeout: 10_000 });
      await page.waitForFunction(() => /at most 64/.test(document.querySelector('#charts figure[data-chart=timeline] .chart-error')?.textContent ?? ''), null, { timeout: 10_000 });
      const t0 = Date.now();
      await page.fill('#f-p', '6000000');
      await page.waitForFunction(() => location.hash.includes('p=6000000'), null, { timeout: 5_000 });
      assert.ok(Date.now() - t0 < 3_000, 'an edit at p = 6 × 10⁶ is answered at once');
    });
  });

  test('pmm\'s Table 2: the broadcast model\'s rows open the broadcast model with the matching p and n', async () => {
    await withPage(env, { hash: '#model=pmm' }, async ({ page }) => {
      await waitComplete(page, 'pmm', false);
      const links = await page.$$eval('#tables section[data-table=table2] tbody tr th a', (as) => as.map((a) => a.getAttribute('href')));
      assert.equal(links.length, 7, 'one link per algorithm');
      const chain = links.find((l) => l.includes('algorithm=chain'));
      const params = Object.fromEntries(new URLSearchParams(chain.slice(1)));
      // pmm's reference: N = 25, M = 16000: √N = 5 processes, a 3200 × 3200 block of doubles.
      assert.equal(params.p, '5');
      assert.equal(Number(params.n), 3200 * 3200 * 8);
      await page.click(`#tables section[data-table=table2] a[href="${chain}"]`);
      await page.waitForFunction(() => document.querySelector('#model-title')?.textContent === 'Broadcast algorithms', null, { timeout: 10_000 });
      await page.waitForFunction(() => document.querySelector('#outputs .output[data-output=T] output')?.textContent !== '—');
      assert.equal(await page.inputValue('#f-p'), '5');
      assert.equal(await page.$eval('#f-algorithm', (s) => s.value), 'chain');
    });
  });
});
