// The browser bench page runs to the end and reports a figure for every
// model operation. No timing is asserted: figures are for the closing note.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { startEnv, stopEnv } from './helpers.mjs';

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

test('www/bench.html times every operation of every model', async () => {
  const page = await env.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    await page.goto(`${env.url}www/bench.html?quick`);
    await page.waitForFunction(() => window.benchResults, null, { timeout: 60_000 });
    const { results, models } = await page.evaluate(async () => {
      const pkg = await import('/pkg/isoperf.js');
      return { results: window.benchResults, models: pkg.models() };
    });
    // Per model: evaluate, tables, each chart, each sweep (one curve, all), its first map
    // (five figures) and each map preset at two sizes; a chart, a map and a sweep carrying a
    // calibration's uncertainty; and MapReduce's map at the descent point.
    const expected = models.reduce((n, m) => n + 2 + m.charts.length + 2 * m.sweeps.length + (m.maps.length ? 5 + 2 * m.maps.length : 0), 0) + 3 + 1;
    assert.equal(results.length, expected);
    for (const r of results) assert.ok(Number.isFinite(r.us) && r.us >= 0 && r.calls > 0, JSON.stringify(r));
    assert.equal(await page.textContent('#bench-status'), 'Done.');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
