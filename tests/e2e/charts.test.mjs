// The charts are drawn by wasm on <canvas>: check in a device-pixel-ratio 2
// context that each one is sized for the screen and actually has ink on it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { afterFrames, chartInk, chartStates, startEnv, stopEnv, withPage } from './helpers.mjs';

const DPR = 2;

let env;
before(async () => { env = await startEnv({ deviceScaleFactor: DPR }); });
after(async () => { await stopEnv(env); });

/** Waits until every canvas left its default 300 × 150 size (the page drew it). */
async function waitForCharts(page) {
  await page
    .waitForFunction(() => {
      const cs = [...document.querySelectorAll('#charts canvas')];
      return cs.length > 0 && cs.every((c) => c.width !== 300 || c.height !== 150);
    }, null, { timeout: 5_000 })
    .catch(() => {}); // the assertions below say what is wrong
  await afterFrames(page);
}


describe(`charts at devicePixelRatio ${DPR}`, () => {
  test('every chart canvas is sized in device pixels and not blank', async () => {
    await withPage(env, {}, async ({ page }) => {
      assert.equal(await page.evaluate(() => window.devicePixelRatio), DPR);
      await waitForCharts(page);
      const states = await chartStates(page);
      const ink = await chartInk(page);
      assert.deepEqual(Object.keys(states).sort(), ['efficiency', 'overhead', 'time'], 'the three charts of pmm');
      for (const [id, s] of Object.entries(states)) {
        assert.equal(s.note, '', `chart ${id} reports no error`);
        assert.ok(s.clientWidth > 100, `chart ${id} is laid out (clientWidth ${s.clientWidth})`);
        assert.ok(Math.abs(s.width - DPR * s.clientWidth) <= DPR, `chart ${id}: canvas.width ${s.width} ≈ ${DPR} × clientWidth ${s.clientWidth}`);
        assert.ok(Math.abs(s.height - DPR * s.clientHeight) <= DPR, `chart ${id}: canvas.height ${s.height} ≈ ${DPR} × clientHeight ${s.clientHeight}`);
        const k = ink[id];
        assert.ok(k.ink > 5000 && k.share > 0.02, `chart ${id} has ink: ${k.ink} pixels (${(100 * k.share).toFixed(1)}%)`);
        assert.ok(k.colours >= 3, `chart ${id} has several colours (${k.colours})`);
      }
    });
  });

  test('the charts redraw when an input changes', async () => {
    await withPage(env, {}, async ({ page }) => {
      await waitForCharts(page);
      const before = await chartInk(page);
      await page.fill('#f-M', '4000');
      await afterFrames(page);
      const after = await chartInk(page);
      for (const id of Object.keys(before)) {
        assert.notEqual(after[id].sum, before[id].sum, `chart ${id} changed with M`);
        assert.ok(after[id].share > 0.02, `chart ${id} still has ink`);
      }
    });
  });
});
