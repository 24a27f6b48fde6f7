// End-to-end tests of what happens after a WebAssembly trap (issue 13, belt
// and braces): the page, the map and sweep workers and the <isoperf-model>
// element replace the trapped instance (the glue's __wbg_reset_state, built
// with --experimental-reset-state-function), show "Internal error — please
// report this link: …" with a link that reproduces it, and the next edit
// computes normally.
//
// No valid call traps any more, so the tests make one: the browser context
// serves pkg/isoperf.js and pkg/isoperf_core.js (the page's, the workers' and
// the element's imports of them) with one export wrapped, textually, so that
// a magic parameter text first fills the instance's linear memory with 0xff
// and then calls the real export, which then traps for real inside the
// module (`unreachable` in its allocator). The instance stays broken: without
// a new one, every later call would trap too, so "the next edit computes and
// no second trap is logged" shows the instance was replaced. No product code
// knows of the magic texts.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MAP_DONE, ROOT, evaluateInPage, listen, openPage, outputTexts, showsValue, startEnv, startHost, stopEnv, waitComplete } from './helpers.mjs';

/** Parameter texts that make an export trap (each only in the export named). */
const MAGIC = { report: '4242.4242', reportWorker: '0.42424242', isoMapRows: '0.43434343', sweepSeries: '4444.4444' };
const NOTICE = 'Internal error — please report this link: ';

/**
 * `source` (a wasm-bindgen glue) with export `name` wrapped: when any
 * object argument holds the text `magic`, the instance's memory is filled
 * with 0xff before the real export runs (and traps).
 */
function wrapExport(source, name, magic) {
  const declaration = `export function ${name}(`;
  assert.ok(source.includes(declaration), `the glue exports ${name}`);
  const inner = `__trapTest_${name}_${magic.replace('.', '_')}`; // an export may be wrapped twice
  return `${source.replace(declaration, `function ${inner}(`)}
export function ${name}(...args) {
  if (args.some((a) => a !== null && typeof a === 'object' && Object.values(a).includes(${JSON.stringify(magic)}))) {
    new Uint8Array(wasm.memory.buffer).fill(0xff);
  }
  return ${inner}(...args);
}
`;
}

const glue = (file) => readFileSync(join(ROOT, 'pkg', file), 'utf8');
const PATCHED = {
  'isoperf_core.js': ['report', 'quickReport'].reduce((src, name) => wrapExport(src, name, MAGIC.report), glue('isoperf_core.js')),
  // MAGIC.reportWorker: only the full `report`, which the page calls only in its report worker (a deferred report).
  'isoperf.js': [['report', MAGIC.report], ['quickReport', MAGIC.report], ['report', MAGIC.reportWorker], ['isoMapRows', MAGIC.isoMapRows], ['sweepSeries', MAGIC.sweepSeries]]
    .reduce((src, [name, magic]) => wrapExport(src, name, magic), glue('isoperf.js')),
};

let env;
/** A host page for the element, on another origin (localhost; the site is on 127.0.0.1). */
let host;
let hostHtml = '';

before(async () => {
  for (const file of Object.keys(PATCHED)) {
    assert.match(glue(file), /export function __wbg_reset_state\b/, `pkg/${file} has __wbg_reset_state (scripts/build.sh passes --experimental-reset-state-function)`);
  }
  env = await startEnv();
  // On the context, so that the workers' imports of ../pkg/isoperf.js are served the same way.
  for (const [file, body] of Object.entries(PATCHED)) {
    await env.context.route(`**/pkg/${file}`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body }));
  }
  host = await startHost(() => hostHtml);
});
after(async () => {
  host?.close();
  await stopEnv(env);
});

/** Types `text` into the page's field `key` as a reader would (an input event). */
async function edit(page, key, text) {
  await page.fill(`#form .field[data-key="${key}"] input[type="text"]`, text);
}

/** The page's notice: {visible, text, href}, or null. */
function notice(page) {
  return page.evaluate(() => {
    const n = document.getElementById('internal-error');
    if (!n) return null;
    const a = n.querySelector('a');
    return { visible: n.checkVisibility(), text: n.querySelector('.internal-error-text').textContent, href: a.href, linkText: a.textContent, role: n.getAttribute('role') };
  });
}

const traps = (page) => page.evaluate(() => window.isoperf.traps.map((t) => ({ ...t })));

/** Every numeric output the page shows is what `evaluate` gives for `params`. */
async function assertOutputs(page, model, params) {
  const want = await evaluateInPage(page, model, params);
  const shown = await outputTexts(page);
  let compared = 0;
  for (const [key, value] of Object.entries(want)) {
    if (typeof value !== 'number' || !(key in shown)) continue;
    assert.ok(showsValue(shown[key], value), `${key}: shows ${shown[key]}, evaluate gives ${value}`);
    compared += 1;
  }
  assert.ok(compared >= 3, `compared ${compared} outputs`);
}

function assertNoErrors(log) {
  assert.deepEqual(log.pageErrors, [], 'no uncaught error');
  assert.deepEqual(log.console.filter((m) => m.type === 'error'), [], 'no console error');
}

describe('a trap', () => {
  test('in quickReport: the notice with the link, the instance replaced, the next edit computes', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=pmm' });
    try {
      await waitComplete(page, 'pmm');
      assert.equal(await notice(page), null, 'no notice before a trap');
      await edit(page, 'N', MAGIC.report);
      await page.waitForSelector('#internal-error', { state: 'visible', timeout: 5_000 });
      const n = await notice(page);
      const url = await page.evaluate(() => location.href);
      assert.match(url, /#model=pmm&N=4242\.4242$/, 'the hash holds the value that trapped');
      assert.equal(n.text, `${NOTICE}${url}`);
      assert.equal(n.href, url);
      assert.equal(n.role, 'alert');
      assert.deepEqual((await traps(page)).map((t) => t.where), ['quickReport']);
      assert.match((await traps(page))[0].message, /^Internal error \(unreachable\)/);
      const status = await page.$eval('#status', (s) => ({ hidden: s.hidden, text: s.textContent }));
      assert.equal(status.hidden, false);
      assert.match(status.text, /^No results: Internal error \(unreachable\); isoperf restarted its WebAssembly module/);

      // The next edit computes on a new instance (the old one, its memory all 0xff, would trap again).
      await edit(page, 'N', '36');
      await page.waitForFunction(() => !document.getElementById('status').textContent, null, { timeout: 5_000 });
      await assertOutputs(page, 'pmm', { N: '36' });
      await waitComplete(page, 'pmm after the trap');
      assert.equal((await traps(page)).length, 1, 'no second trap');
      const charts = await page.$$eval('#charts figure.chart[data-chart]', (fs) => fs.map((f) => f.dataset.chart + ':' + f.querySelector('.chart-error').textContent));
      assert.ok(charts.every((c) => c.endsWith(':')), `charts drawn: ${charts}`);

      // The notice stays until dismissed.
      assert.equal((await notice(page)).visible, true);
      await page.click('#internal-error .internal-error-dismiss');
      assert.equal(await notice(page), null);
      assertNoErrors(log);
    } finally {
      await close();
    }
  });

  test('the link reproduces it: the first-paint module traps, is replaced, and the page goes on', async () => {
    const { page, log, close } = await openPage(env, { hash: `#model=pmm&N=${MAGIC.report}`, waitReady: false });
    try {
      await page.waitForFunction(() => window.isoperf, null, { timeout: 10_000 });
      await page.waitForSelector('#internal-error', { state: 'visible', timeout: 5_000 });
      const url = await page.evaluate(() => location.href);
      assert.equal((await notice(page)).text, `${NOTICE}${url}`);
      // The first paint (first-paint module) and the update after the full module loaded: both trapped, both replaced.
      assert.deepEqual((await traps(page)).map((t) => t.where), ['quickReport', 'quickReport']);
      await edit(page, 'N', '100');
      await page.waitForFunction(() => !document.getElementById('status').textContent, null, { timeout: 5_000 });
      await assertOutputs(page, 'pmm', { N: '100' });
      assert.equal((await traps(page)).length, 2, 'no further trap');
      assertNoErrors(log);
    } finally {
      await close();
    }
  });

  test('in the map worker: the notice, the worker replaces its instance, the next map is painted', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=pmm' });
    try {
      await waitComplete(page, 'pmm');
      await edit(page, 't_io', MAGIC.isoMapRows);
      await page.waitForSelector('#internal-error', { state: 'visible', timeout: 10_000 });
      const url = await page.evaluate(() => location.href);
      assert.match(url, /t_io=0\.43434343/);
      assert.equal((await notice(page)).text, `${NOTICE}${url}`);
      assert.deepEqual((await traps(page)).map((t) => t.where), ['map worker']);
      assert.match(await page.$eval('#map .map-error', (e) => e.textContent), /^Internal error \(unreachable\)/);
      // The page's own instance never trapped: the outputs are there.
      await assertOutputs(page, 'pmm', { t_io: MAGIC.isoMapRows });

      await page.$eval(MAP_DONE, (c) => delete c.dataset.labels);
      await edit(page, 't_io', '0.001');
      await page.waitForSelector(MAP_DONE, { state: 'attached', timeout: 20_000 });
      assert.equal(await page.$eval('#map .map-error', (e) => e.textContent), '');
      assert.equal(await page.$eval('#map .map-canvas', (c) => c.classList.contains('stale')), false);
      assert.equal((await traps(page)).length, 1, 'no second trap: the worker computed on a new instance');
      await assertOutputs(page, 'pmm', { t_io: '0.001' });
      assertNoErrors(log);
    } finally {
      await close();
    }
  });

  test('in the report worker (a long evaluation): the notice, the status says so, the next edit computes', async () => {
    // 10⁶ intervals: quickReport defers the report to the report worker, whose `report` traps on the magic s_red.
    const long = 'm=10000&r=1000&l=10';
    const { page, log, close } = await openPage(env, { hash: `#model=mapreduce&${long}&s_red=${MAGIC.reportWorker}`, waitReady: false });
    try {
      await page.waitForSelector('#internal-error', { state: 'visible', timeout: 20_000 });
      const url = await page.evaluate(() => location.href);
      assert.equal((await notice(page)).text, `${NOTICE}${url}`);
      assert.deepEqual((await traps(page)).map((t) => t.where), ['report worker']);
      await page.waitForFunction(() => /^No results: Internal error \(unreachable\)/.test(document.getElementById('status').textContent), null, { timeout: 5_000 });
      // The charts say why they are not drawn; none was drawn on the page's thread (that would run the long evaluation here).
      await page.waitForFunction(() => /^Not drawn: /.test(document.querySelector('#charts figure[data-chart=gantt] .chart-error').textContent), null, { timeout: 5_000 });
      assert.equal(await page.evaluate(() => window.isoperf.calls.drawChart ?? 0), 0, 'no drawChart on the page for a long report');

      await edit(page, 's_red', '0.02');
      await page.waitForFunction(() => !document.getElementById('status').textContent && document.querySelector('#outputs output').textContent !== '—', null, { timeout: 20_000 });
      await assertOutputs(page, 'mapreduce', { m: '10000', r: '1000', l: '10', s_red: '0.02' });
      assert.equal((await traps(page)).length, 1, 'no second trap: the worker computed on a new instance');
      assertNoErrors(log);
    } finally {
      await close();
    }
  });

  test('in the sweep worker: each sweep says so, and the next edit draws them all', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=mapreduce' });
    try {
      await waitComplete(page, 'mapreduce');
      const sweeps = await page.$$eval('#charts figure.sweep', (fs) => fs.map((f) => f.dataset.sweep));
      assert.ok(sweeps.length >= 1);
      await edit(page, 'a_red', MAGIC.sweepSeries);
      await page.waitForFunction(() => [...document.querySelectorAll('#charts figure.sweep')].every((f) => f.dataset.state === 'error'), null, { timeout: 20_000 });
      await page.waitForSelector('#internal-error', { state: 'visible' });
      const url = await page.evaluate(() => location.href);
      assert.equal((await notice(page)).text, `${NOTICE}${url}`);
      // One trap per sweep: after each, the worker went on with a new instance (and the magic text trapped it again).
      assert.deepEqual((await traps(page)).map((t) => t.where), sweeps.map(() => 'sweep worker'));
      for (const e of await page.$$eval('#charts figure.sweep .chart-error', (es) => es.map((x) => x.textContent))) {
        assert.match(e, /^Not drawn: Internal error \(unreachable\)/);
      }

      await edit(page, 'a_red', '0.00002');
      await waitComplete(page, 'mapreduce after the trap');
      assert.equal((await traps(page)).length, sweeps.length, 'no further trap');
      await assertOutputs(page, 'mapreduce', { a_red: '0.00002' });
      assertNoErrors(log);
    } finally {
      await close();
    }
  });

  test('in an <isoperf-model> element: the notice inside it, with a link to the full page, and it goes on', async () => {
    hostHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"></head><body>
      <script type="module" src="${env.url}www/embed/isoperf-embed.js"></script>
      <isoperf-model id="e" model="pmm" params="N=${MAGIC.report}&amp;M=8000" editable="N"></isoperf-model>
      <isoperf-model id="other" model="dlt" params="m=8"></isoperf-model></body></html>`;
    const page = await env.context.newPage();
    const log = listen(page);
    try {
      await page.goto(`${host.url}/`, { waitUntil: 'commit' });
      const read = (id) => page.evaluate((i) => {
        const root = document.getElementById(i).shadowRoot.querySelector('.root');
        const n = root.querySelector('.internal');
        return {
          state: root.dataset.state,
          notice: n && { text: n.querySelector('.internal-text').textContent, href: n.querySelector('a')?.href ?? null, visible: n.checkVisibility(), role: n.getAttribute('role') },
          problems: [...root.querySelectorAll('.problems p')].map((p) => p.textContent),
          outputs: Object.fromEntries([...root.querySelectorAll('.output[data-output]')].map((o) => [o.dataset.output, o.querySelector('output').textContent])),
        };
      }, id);
      await page.waitForFunction(() => document.getElementById('e')?.shadowRoot?.querySelector('.root .internal'), null, { timeout: 10_000 });
      const link = `${env.url}#model=pmm&N=${MAGIC.report}&M=8000`;
      const e = await read('e');
      assert.deepEqual(e.notice, { text: `${NOTICE}${link}`, href: link, visible: true, role: 'alert' });
      assert.match(e.problems.join(' '), /Internal error \(unreachable\)/);
      // The other element on the page (same instance, replaced under it) computes.
      await page.waitForFunction(() => document.getElementById('other').shadowRoot.querySelector('.root').dataset.state === 'ready', null, { timeout: 10_000 });
      assert.equal((await read('other')).notice, null, 'only the element whose call trapped says so');

      // An edit in the element computes on the new instance.
      await page.fill('#e >> input[data-key="N"]', '64');
      await page.waitForFunction(() => document.getElementById('e').shadowRoot.querySelector('.root').dataset.state === 'ready', null, { timeout: 5_000 });
      const after = await read('e');
      const want = await page.evaluate(async ([site]) => {
        const w = await import(`${site}www/wasm.js`);
        const out = w.evaluate('pmm', { N: '64', M: '8000' });
        return { T: out.T, speedup: out.speedup };
      }, [env.url]);
      assert.ok(showsValue(after.outputs.T, want.T), `T: ${after.outputs.T} vs ${want.T}`);
      assert.ok(showsValue(after.outputs.speedup, want.speedup), `speedup: ${after.outputs.speedup} vs ${want.speedup}`);
      assert.deepEqual(after.problems, []);
      assert.equal(after.notice?.visible, true, 'the notice stays until dismissed');
      await page.click('#e >> .internal-dismiss');
      assert.equal((await read('e')).notice, null);

      // The link opens the full page on that view, which traps the same way.
      const full = await openPage(env, { hash: link.slice(link.indexOf('#')), waitReady: false });
      try {
        await full.page.waitForSelector('#internal-error', { state: 'visible', timeout: 10_000 });
        assert.equal(await full.page.$eval('#form .field[data-key="M"] input', (i) => i.value), '8000');
      } finally {
        await full.close();
      }
      assertNoErrors(log);
    } finally {
      await page.close();
    }
  });
});
