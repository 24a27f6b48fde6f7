// What `npm run dist` ships, as its users meet it:
// - dist/isoperf.html opened from file:// with every network request
//   refused: each model's default prediction and charts, a map, the sweeps,
//   an example data set analysed, permalinks, and nothing fetched;
// - dist/site/ served under a sub-path, then the server gone: the service
//   worker serves everything (offline after the first visit), and a new
//   build is announced once.
// Both ship a strict Content-Security-Policy (the file's allows its inline
// script and style by hash); Chromium reports each violation as a console
// error, which pageProblems counts.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM, MAP_DONE, ROOT, canvasInk, chartInk, listen, pageProblems, startHost, waitComplete, MODELS } from './helpers.mjs';

const DIST = join(ROOT, 'dist');
const FILE = join(DIST, 'isoperf.html');
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'];

async function assertComplete(page, what, all = true) {
  const ink = await chartInk(page);
  assert.ok(Object.keys(ink).length > 0, `${what}: charts`);
  for (const [id, i] of Object.entries(ink)) assert.ok(i.coloured > 50, `${what}: chart ${id} has data drawn (${i.coloured} coloured pixels)`);
  if (all && await page.$eval('section#map', (m) => !m.hidden)) {
    const map = await canvasInk(page, MAP_DONE);
    assert.ok(map.map.coloured > 1000, `${what}: the map is painted`);
  }
}

describe('dist/isoperf.html from file://, no network', () => {
  let browser;
  let context;
  before(async () => {
    assert.ok(existsSync(FILE), 'dist/isoperf.html exists (npm run dist)');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    // Every request but the file itself (and the Blob URLs of its workers) is refused.
    await context.route((url) => !/^(file|blob|data):/.test(url.href), (route) => route.abort());
  });
  after(() => browser?.close());

  test('every model: prediction, charts, a map, the sweeps; nothing fetched', async () => {
    const first = await context.newPage();
    await first.goto(pathToFileURL(FILE).href);
    await first.waitForFunction(() => window.isoperf);
    const models = await first.evaluate(() => window.isoperf.models().map((m) => m.id));
    await first.close();
    assert.ok(models.length >= 5);
    for (const model of models) {
      const page = await context.newPage();
      const log = listen(page);
      const url = `${pathToFileURL(FILE).href}#model=${model}`;
      await page.goto(url);
      await waitComplete(page, model);
      await assertComplete(page, model);
      assert.deepEqual(log.requests.filter((u) => !/^(blob|data):/.test(u) && u.split('#')[0] !== url.split('#')[0]), [], `${model}: nothing but the file`);
      assert.deepEqual(pageProblems(log), [], `${model}: a clean page`);
      await page.close();
    }
  });

  test('a permalink, an example data set analysed, a CSV export', async () => {
    const page = await context.newPage();
    const log = listen(page);
    await page.goto(`${pathToFileURL(FILE).href}#model=scaling&data.timings=scale27&C1=50`);
    await page.waitForFunction(() => window.isoperf);
    assert.equal(await page.inputValue('#form input[name=C1]'), '50', 'the hash sets C1');
    await page.waitForFunction(() => [...document.querySelectorAll('.datasets table')].length > 0, null, { timeout: 10_000 });
    const fitted = await page.$$eval('.datasets table', (ts) => ts.map((t) => t.textContent).join(' '));
    assert.match(fitted, /C1/, 'the example data set is analysed');
    // The Embed dialog of a file says where the snippets must point instead of file://.
    await page.click('#embed-open');
    assert.ok(await page.isVisible('#embed-where'), 'the dialog says the file cannot be embedded as it is');
    assert.match(await page.inputValue('#embed-element'), /src="https:\/\/your-site\.example\/isoperf\/isoperf-embed\.js"/);
    assert.doesNotMatch(await page.inputValue('#embed-iframe'), /file:/);
    await page.click('#embed-dialog .embed-close');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('section#map button.map-csv')]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    assert.deepEqual(pageProblems(log), []);
    await page.close();
  });
});

describe('dist/site under a sub-path, then offline', () => {
  let browser;
  let context;
  let server;
  let url;
  before(async () => {
    assert.ok(existsSync(join(DIST, 'site', 'sw.js')), 'dist/site exists (npm run dist)');
    ({ server, url } = await serve(DIST, 0));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections?.();
    server?.close();
  });

  test('relative URLs only, hashed names', () => {
    const html = readFileSync(join(DIST, 'site', 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(refs.length >= 4);
    for (const r of refs) assert.ok(!/^(\/|https?:)/.test(r), `${r} is relative`);
    assert.ok(refs.some((r) => /^app-[A-Z0-9]+\.js$/.test(r)), 'the app has a hashed name');
    assert.ok(refs.some((r) => /^isoperf_core_bg\.[0-9a-f]+\.wasm$/.test(r)), 'the first-paint module has a hashed name');
  });

  test('<isoperf-model> from the site, on a page of another origin', async () => {
    // The host page is on localhost, the site on 127.0.0.1: two origins.
    const host = await startHost(() => `<!doctype html><meta charset="utf-8"><script type="module" src="${url}site/isoperf-embed.js"></script>
<isoperf-model id="a" model="dlt" params="m=4&V=1000&A=1&C=1e-6&S=100" show="outputs,chart:gantt"></isoperf-model>
<isoperf-model id="b" model="pmm" show="output:coef_M2"></isoperf-model>`);
    try {
      const page = await context.newPage();
      const log = listen(page);
      await page.goto(`${host.url}/`);
      await page.waitForFunction(() => ['a', 'b'].every((id) => document.getElementById(id).shadowRoot?.querySelector('[data-state=ready]')), null, { timeout: 15_000 });
      const shown = await page.evaluate(() => ['a', 'b'].map((id) => [...document.getElementById(id).shadowRoot.querySelectorAll('.output[data-output] output')].map((o) => o.textContent)));
      // SPEC, dlt: A = 1, C = 1e-6, S = 100, V = 1000 give T(4) = 500.00075 s, shown to four figures.
      assert.equal(shown[0][0], '500.0');
      // Li, Fox, Qiu Table 3, "Dryad Tempest 25x1": the M² coefficient as printed.
      assert.deepEqual(shown[1], ['6.764 × 10⁻⁸']);
      const wasm = log.requests.filter((u) => u.endsWith('.wasm'));
      assert.equal(new Set(wasm).size, wasm.length, `each module fetched once: ${wasm.join(', ')}`);
      assert.deepEqual(pageProblems(log), []);
      await page.close();
    } finally {
      host.close();
    }
  });

  test('first visit, then every model offline, then a new build is announced', async () => {
    const page = await context.newPage();
    const log = listen(page);
    await page.goto(`${url}site/#model=dlt`);
    await waitComplete(page, 'online');
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 15_000 });
    assert.equal(await page.$('.update-note'), null, 'no note on a first visit');
    // Installable: Chromium finds nothing missing (a test browser context is always incognito).
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'), [], 'installable as an app');
    await cdp.detach();
    // Offline for real: the server is gone (not only the browser's emulation).
    server.closeAllConnections?.();
    await new Promise((ok) => server.close(ok));
    await context.setOffline(true);
    // Every model's prediction and charts; the map and the sweeps (workers, the full module) once.
    for (const model of MODELS) {
      await page.goto(`${url}site/#model=${model}`);
      await page.reload();
      await waitComplete(page, `offline ${model}`, model === 'mapreduce');
      await assertComplete(page, `offline ${model}`, model === 'mapreduce');
    }
    // The page remembers the build it ran; a different one is announced, once.
    await page.evaluate(() => localStorage.setItem('isoperf.build', 'an-older-build'));
    await page.reload();
    await page.waitForSelector('.update-note', { timeout: 10_000 });
    assert.match(await page.textContent('.update-note'), /updated/);
    await page.reload();
    await page.waitForFunction(() => window.isoperf);
    assert.equal(await page.$('.update-note'), null, 'announced once');
    // A worker or module still loading when the test moves on to the next
    // model is cut short by that navigation (ERR_ABORTED); offline failures
    // would read ERR_FAILED or ERR_INTERNET_DISCONNECTED.
    assert.deepEqual(pageProblems(log).filter((p) => !/net::ERR_ABORTED$/.test(p)), []);
    await page.close();
  });
});
