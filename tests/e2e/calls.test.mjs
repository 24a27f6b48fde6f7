// The page makes one wasm call per keystroke: on each model's tab, an edit
// of a field runs exactly one `quickReport` and one `drawChart` per chart figure
// on the main thread (counted by www/wasm.js in window.isoperf.calls), and
// no `check`, `evaluate`, `tables` or `remarks`; sweeps and maps are
// computed in their workers (a sweep's chart with its marks and note too),
// and the sweeps' finished charts are only painted here, once each.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { afterFrames, startEnv, stopEnv, withPage, MODELS } from './helpers.mjs';

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

/** Waits until the sweeps are drawn and the map painted (whatever the model has), then two frames. */
async function settled(page) {
  await page.waitForFunction(() => {
    const sweeps = [...document.querySelectorAll('#charts figure.sweep')];
    const map = document.getElementById('map');
    const mapDone = map.hidden || (map.querySelector('canvas.map-canvas[data-labels]') && map.querySelector('.map-progress').hidden);
    return mapDone && sweeps.every((f) => f.dataset.state === 'done' || f.dataset.state === 'error');
  }, null, { timeout: 30_000 });
  await afterFrames(page);
}

/** The calls made since `before` ({name: count}), without the exports not called. */
function callsSince(page, before) {
  return page.evaluate((b) => Object.fromEntries(Object.entries(window.isoperf.calls)
    .map(([k, n]) => [k, n - (b[k] ?? 0)]).filter(([, n]) => n > 0)), before);
}

describe('one wasm call per keystroke', () => {
    test('the page lists these models', async () => {
    await withPage(env, {}, async ({ page }) => {
      assert.deepEqual(await page.evaluate(() => window.isoperf.models().map((m) => m.id)), MODELS);
    });
  });

  for (const model of MODELS) {
    test(`${model}: an edit runs one quickReport and one drawChart per chart figure, nothing else on this thread`, async () => {
      await withPage(env, { hash: `#model=${model}` }, async ({ page }) => {
        await settled(page);
        // The first number field of the form, typed into as a user would: its text plus a space.
        const input = page.locator('#form .field[data-key] > input[type="text"]').first();
        const key = await input.getAttribute('data-key');
        const text = await input.inputValue();
        const charts = await page.$$eval('#charts figure.chart[data-chart]', (fs) => fs.length);
        const sweeps = await page.$$eval('#charts figure.sweep', (fs) => fs.length);
        const before = await page.evaluate(() => ({ ...window.isoperf.calls }));
        assert.ok(before.quickReport >= 1, `the page calls quickReport (${JSON.stringify(before)})`);

        const hasMap = await page.$eval('#map', (m) => !m.hidden);
        const edited = await page.evaluate(() => performance.now());
        await input.press('End');
        await input.press('Space');
        await afterFrames(page);
        const atKeystroke = await callsSince(page, before);
        // A quick map or sweep may already be back from its worker and
        // painted (mapLayout, paintChart): counted with the workers below.
        delete atKeystroke.mapLayout;
        delete atKeystroke.paintChart;
        assert.deepEqual(atKeystroke, { quickReport: 1, ...(charts ? { drawChart: charts } : {}) },
          `${model}: typing in ${key} ("${text}" + " ") calls quickReport once and drawChart for each of ${charts} charts`);

        // Then the workers answer: a sweep's chart (computed in its worker) is painted once each, the map laid out once (mapLayout) and drawn.
        await page.waitForFunction(([b, n, edited, hasMap]) => (window.isoperf.calls.paintChart ?? 0) - (b.paintChart ?? 0) >= n
          && (!hasMap || performance.getEntriesByName('isoperf:map-painted').some((e) => e.startTime > edited)), [before, sweeps, edited, hasMap], { timeout: 30_000 });
        await page.waitForTimeout(200);
        await settled(page);
        const all = await callsSince(page, before);
        assert.deepEqual(all, { quickReport: 1, ...(charts ? { drawChart: charts } : {}), ...(sweeps ? { paintChart: sweeps } : {}), ...(hasMap ? { mapLayout: 1 } : {}) },
          `${model}: after the workers answered`);
        for (const name of ['check', 'evaluate', 'tables', 'remarks', 'isoMap', 'isoMapRows', 'drawSweep', 'sweepChartData']) assert.equal(all[name], undefined, `no ${name} call`);
      });
    });
  }
});
