// Scenarios side by side (issue 14): pin the parameters, change them, and
// every output shows the pinned value and the change; the charts draw the
// pinned curves faintly; scenarios are part of the link; a crafted link's
// scenarios are read as text and checked like any parameter.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { chartInk, openPage, pageProblems, startEnv, stopEnv, visibleText, waitForCharts, MODELS } from './helpers.mjs';

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const compareOf = (page, key) => page.$eval(`#outputs .output[data-output="${key}"]`, (c) => [...c.querySelectorAll('.output-scenario')].map((s) => s.textContent));

describe('scenarios', () => {
  test('pin, change, compare: outputs show the pinned value and the change; charts draw it faintly; the link keeps it', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=pmm' });
    try {
      await waitForCharts(page);
      const pinnedT = await page.evaluate(() => window.isoperf.evaluate('pmm', {}).T);
      const pinnedText = await page.$eval('#outputs .output[data-output="T"] output', (o) => o.textContent);
      const inkBefore = (await chartInk(page)).time;
      await page.click('.scenario-pin');
      assert.deepEqual(await compareOf(page, 'T'), [`A: ${pinnedText} s (same)`]);
      await page.fill('#f-M', '8000');
      await page.waitForFunction(() => document.querySelector('#outputs .output[data-output="T"] .output-scenario')?.textContent.includes('now'));
      const nowT = await page.evaluate(() => window.isoperf.evaluate('pmm', { M: 8000 }).T);
      const pct = ((nowT - pinnedT) / pinnedT) * 100;
      const [line] = await compareOf(page, 'T');
      assert.match(line, new RegExp(`^A: ${pinnedText} s \\(now −\\d`), line);
      const shownPct = Number(line.match(/−([\d.]+)%/)?.[1]);
      assert.ok(Math.abs(shownPct - Math.abs(pct)) <= 0.05 * Math.abs(pct), `the change: shown ${shownPct}%, computed ${pct}%`);

      await waitForCharts(page);
      const note = await page.$eval('#charts figure[data-chart="time"] .chart-note', (n) => n.textContent);
      assert.match(note, /Faint: the pinned scenario A\./);
      const inkAfter = (await chartInk(page)).time;
      assert.notEqual(inkAfter.sum, inkBefore.sum, 'the chart is drawn differently with the pinned curves');
      assert.match(await page.evaluate(() => location.hash), /(^|&)scenario=A(&|$)/, 'A (at the defaults) is in the link');

      // The link restores the scenario.
      await page.reload();
      await page.waitForFunction(() => document.querySelector('#outputs .output[data-output="T"] .output-scenario'));
      assert.deepEqual(await compareOf(page, 'T'), [line]);

      // Restore puts A's parameters back; remove drops it from the page and the link.
      await page.click('.scenario[data-index="0"] .scenario-restore');
      await page.waitForFunction(() => document.querySelector('#f-M').value === '16000');
      await page.click('.scenario[data-index="0"] .scenario-remove');
      assert.equal(await page.$$eval('.scenario', (l) => l.length), 0);
      assert.doesNotMatch(await page.evaluate(() => location.hash), /scenario/);
      assert.deepEqual(await compareOf(page, 'T'), []);
      assert.deepEqual(pageProblems(log), []);
    } finally {
      await close();
    }
  });

  test('sweeps draw a pinned scenario too: its curves computed once in the sweep worker', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=mapreduce' });
    try {
      const sweepsDone = () => page.waitForFunction(() => [...document.querySelectorAll('#charts figure.sweep')].every((f) => f.dataset.state === 'done'), null, { timeout: 60_000 });
      await sweepsDone();
      await page.click('.scenario-pin');
      await page.fill('#f-r', '20');
      await sweepsDone();
      await page.waitForFunction(() => [...document.querySelectorAll('#charts figure.sweep .chart-note')].every((n) => n.textContent.startsWith('Faint: the pinned scenario A.')), null, { timeout: 60_000 });
      // The data table is the current sweep's own data (not the scenario's).
      await page.click('#charts figure.sweep .chart-data-toggle');
      await page.waitForSelector('#charts figure.sweep .chart-data thead th');
      const header = await page.$$eval('#charts figure.sweep .chart-data thead th', (h) => h.map((x) => x.textContent));
      assert.ok(header.length >= 2 && header.every((h) => h !== ''), `columns: ${header}`);
      assert.deepEqual(pageProblems(log), []);
    } finally {
      await close();
    }
  });

  test('no model\'s page shows null, undefined or NaN (a missing value written as text), with and without a scenario', async () => {
    for (const model of MODELS) {
      const { page, close } = await openPage(env, { hash: `#model=${model}` });
      try {
        await waitForCharts(page);
        assert.doesNotMatch(await visibleText(page), /\bnull\b|\bundefined\b|NaN/, `${model}: a missing value shown as text`);
        await page.click('.scenario-pin');
        assert.doesNotMatch(await visibleText(page), /\bnull\b|\bundefined\b|NaN/, `${model} with a scenario`);
      } finally {
        await close();
      }
    }
  });

  test('at most four; a crafted link\'s scenarios are text, checked, and what is left out is said', async () => {
    const hostile = encodeURIComponent('<img src=x onerror=alert(1)>');
    const hash = `#model=pmm&scenario=${hostile}%3BM%3D-5&scenario=B%3Bbogus%3D1&scenario=C&scenario=D&scenario=E&scenario=F%3B%E0%A4%A`;
    const { page, log, close } = await openPage(env, { hash });
    try {
      await page.waitForFunction(() => document.querySelectorAll('.scenario').length > 0);
      const shown = await page.evaluate(() => ({
        names: [...document.querySelectorAll('.scenario-name')].map((n) => n.textContent),
        images: document.querySelectorAll('#scenarios img, #link-note img').length,
        notes: document.querySelector('#link-note').textContent,
        first: document.querySelector('.scenario .scenario-diff').textContent,
      }));
      assert.equal(shown.names.length, 4, `four kept: ${shown.names}`);
      assert.equal(shown.images, 0, 'no markup from the link');
      assert.equal(shown.names[0], '<img src=x o', 'the name is text, cut to 12 characters');
      assert.match(shown.first, /no results/, 'M = -5 gives no results, and says so');
      assert.match(shown.notes, /'bogus'/);
      assert.match(shown.notes, /at most 4 are kept/);
      assert.ok(!pageProblems(log).some((p) => /pageerror|Uncaught/.test(p)), pageProblems(log).join('\n'));
      assert.equal(await page.isDisabled('.scenario-pin'), true, 'a fifth cannot be pinned');
    } finally {
      await close();
    }
  });
});
