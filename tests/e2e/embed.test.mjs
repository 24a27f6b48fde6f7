// End-to-end tests of embedding isoperf in another page (issue 12, item 4):
// the <isoperf-model> element on a host page of another origin (the site on
// 127.0.0.1, the host on localhost), its messages for bad attributes, the
// page's iframe mode (`embed=` in the hash) and the Embed dialog's snippets,
// pasted into a host page as a reader would.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { canvasInk, openPage, outputTexts, showsValue, startEnv, startHost, stopEnv } from './helpers.mjs';

let env;
/** The host pages' server (another origin than the site) and its pages: path -> HTML. */
let host;
const pages = new Map();

before(async () => {
  env = await startEnv();
  host = await startHost((path) => pages.get(path));
});
after(async () => {
  host?.close();
  await stopEnv(env);
});

const script = () => `${env.url}www/embed/isoperf-embed.js`;

/** Serves `body` as a host page at `path` and opens it; records what it says. */
async function openHost(path, body, { route } = {}) {
  pages.set(path, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`);
  const page = await env.context.newPage();
  const log = { pageErrors: [], console: [], requests: [], failed: [] };
  page.on('pageerror', (e) => log.pageErrors.push(e.message));
  page.on('console', (m) => log.console.push({ type: m.type(), text: m.text() }));
  page.on('request', (r) => log.requests.push({ url: r.url(), main: r.frame() === page.mainFrame() }));
  page.on('requestfailed', (r) => log.failed.push(r.url()));
  if (route) await page.route(route.pattern, route.handler);
  await page.goto(host.url + path, { waitUntil: 'commit' });
  return { page, log, close: () => page.close().catch(() => {}) };
}

/** Nothing the elements did reached the host page as an error. */
function assertQuietHost(log, { failed = [] } = {}) {
  assert.deepEqual(log.pageErrors, [], 'no pageerror on the host page');
  assert.deepEqual(log.console.filter((m) => m.type === 'error' && !failed.some((f) => m.text.includes(f))), [], 'no console error');
}

/** Waits until element #id has rendered (a result, a refusal or a message) and every figure is drawn or refused. */
function settled(page, id) {
  return page.waitForFunction((i) => {
    const root = document.getElementById(i)?.shadowRoot?.querySelector('.root');
    if (!root || root.dataset.state === 'loading') return false;
    return [...root.querySelectorAll('figure')].every((f) => f.dataset.state === 'drawn' || f.dataset.state === 'error');
  }, id, { timeout: 10_000 });
}

/** What element #id shows, read through its (open) shadow root. */
function view(page, id) {
  return page.evaluate((i) => {
    const elem = document.getElementById(i);
    const root = elem.shadowRoot.querySelector('.root');
    return {
      state: root.dataset.state,
      scheme: root.dataset.scheme,
      outputs: Object.fromEntries([...root.querySelectorAll('.output[data-output]')].map((o) => [o.dataset.output, o.querySelector('output').textContent])),
      messages: [...root.querySelectorAll('.messages p, .problems p')].map((p) => p.textContent),
      fieldErrors: Object.fromEntries([...root.querySelectorAll('.field[data-key]')].map((f) => [f.dataset.key, f.querySelector('.field-error').textContent])),
      figures: Object.fromEntries([...root.querySelectorAll('figure')].map((f) => [f.dataset.chart ?? f.dataset.map, { state: f.dataset.state, error: f.querySelector('.chart-error').textContent }])),
      tables: [...root.querySelectorAll('.table-card')].map((t) => t.dataset.table),
      elements: [...elem.shadowRoot.querySelectorAll('*')].map((e) => e.localName),
    };
  }, id);
}

/** The outputs as the site's own module computes and formats them (the element's module: one instance per page). */
function expected(page, model, params) {
  return page.evaluate(async ([site, m, p]) => {
    const w = await import(`${site}www/wasm.js`);
    const out = w.evaluate(m, p);
    return Object.fromEntries(Object.entries(out).filter(([, v]) => typeof v === 'number').map(([k, v]) => [k, w.formatNumber(v, 4)]));
  }, [env.url, model, params]);
}

const wasmFetches = (log) => log.requests.filter((r) => r.main && /\.wasm$/.test(r.url)).map((r) => r.url.replace(/^.*\//, '')).sort();

describe('embedding', () => {
  test('two elements on a page of another origin compute, share one module and follow their attributes', async () => {
    const { page, log, close } = await openHost('/two', `
      <style>body { font-family: serif; } output, p { color: rgb(0, 255, 0) !important; }</style>
      <script type="module" src="${script()}"></script>
      <script type="module" src="${script()}?again"></script>
      <isoperf-model id="a" model="dlt" params="m=100&amp;V=1e9" show="outputs,chart:gantt" editable="m"></isoperf-model>
      <isoperf-model id="b" model="dlt" params="m=4" show="output:T,output:feasible,tables,map:isoefficiency-v-m" compact style="color-scheme: dark"></isoperf-model>
      <p>The host ends with an inline box as wide as the page (as an iframe of width 100% would):</p>
      <span style="display: inline-block; width: 100%; height: 1px"></span>`);
    try {
      await settled(page, 'a');
      await settled(page, 'b');
      const a = await view(page, 'a');
      const b = await view(page, 'b');
      assert.equal(a.state, 'ready', JSON.stringify(a.messages));
      assert.deepEqual(a.messages, []);

      // The element's numbers are the page's: every output of the site's page for the same hash.
      const site = await openPage(env, { hash: '#model=dlt&m=100&V=1e9' });
      try {
        assert.deepEqual(a.outputs, await outputTexts(site.page), 'the element shows what the page shows');
      } finally {
        await site.close();
      }
      const want = await expected(page, 'dlt', { m: '100', V: '1e9' });
      for (const key of ['T', 'speedup', 'efficiency', 'E']) assert.equal(a.outputs[key], want[key], `output ${key}`);
      // SPEC: A = 1, C = 1e-6, S = 1e2, V = 1e3 gives the published T(4) = 500.00075 (as tests/e2e/dlt.test.mjs).
      assert.deepEqual(Object.keys(b.outputs), ['T', 'feasible'], 'output:<key> shows just those outputs');
      assert.ok(showsValue(b.outputs.T, 500.00075), `T(4) = ${b.outputs.T}`);
      assert.equal(b.outputs.feasible, 'yes');
      assert.deepEqual(b.tables, ['schedule', 'reproduction'], 'tables');
      // A map preset, computed on the host page's thread (no worker across origins) and painted.
      assert.equal(b.figures['isoefficiency-v-m'].state, 'drawn', b.figures['isoefficiency-v-m'].error);
      const map = (await canvasInk(page, '#b figure[data-map] canvas')).map;
      assert.ok(map.coloured > 10_000, `the map has colour: ${JSON.stringify(map)}`);

      // One fetch of each wasm module for both elements (the full one only for the chart).
      assert.deepEqual(wasmFetches(log), ['isoperf_bg.wasm', 'isoperf_core_bg.wasm']);
      assert.equal(await page.evaluate(() => customElements.get('isoperf-model') !== undefined), true);

      // The chart has ink, laid out at the element's width (the host's inline last line does not squeeze its text).
      assert.equal(a.figures.gantt.state, 'drawn', a.figures.gantt.error);
      const ink = (await canvasInk(page, '#a figure[data-chart=gantt] canvas')).gantt;
      assert.ok(ink.ink > 5000 && ink.coloured > 1000, `the Gantt chart has ink: ${JSON.stringify(ink)}`);
      // The same chart drawn by the test with room for its text measurement (see withTextRoom) is the same picture.
      const same = await page.evaluate(async (site) => {
        const w = await import(`${site}www/wasm.js`);
        const shown = document.getElementById('a').shadowRoot.querySelector('figure[data-chart=gantt] canvas');
        const canvas = Object.assign(document.createElement('canvas'), { width: shown.width, height: shown.height });
        const block = document.body.appendChild(document.createElement('div'));
        w.drawChart(canvas, 'dlt', 'gantt', { m: '100', V: '1e9' }, 1);
        block.remove();
        return canvas.toDataURL() === shown.toDataURL();
      }, env.url);
      assert.ok(same, 'the chart is laid out as on a page that leaves its text measurement room');

      // Shadow DOM: the host's CSS stays out; the host's custom properties and colour scheme come in.
      const style = await page.evaluate(() => {
        const a = document.getElementById('a');
        a.style.setProperty('--isoperf-accent', 'rgb(1, 2, 3)');
        const first = a.shadowRoot.querySelector('.output');
        const b = document.getElementById('b').shadowRoot.querySelector('.root');
        return {
          colour: getComputedStyle(first.querySelector('output')).color,
          font: getComputedStyle(first).fontFamily,
          accent: getComputedStyle(first).borderTopColor,
          darkPaper: getComputedStyle(b).backgroundColor,
        };
      });
      assert.notEqual(style.colour, 'rgb(0, 255, 0)', "the host's output rule does not reach the element");
      assert.doesNotMatch(style.font, /^serif/, "the host's font is not inherited");
      assert.equal(style.accent, 'rgb(1, 2, 3)', '--isoperf-accent colours the first output');
      assert.equal(b.scheme, 'dark', "color-scheme: dark on the host element");
      assert.match(style.darkPaper, /^rgb\((\d|[1-4]\d), /, `a dark background: ${style.darkPaper}`);

      // An attribute set from script recomputes, and so does an edit of an editable field.
      await page.evaluate(() => {
        window.updates = [];
        document.getElementById('a').addEventListener('isoperf-update', (e) => window.updates.push(e.detail.outputs?.T ?? null));
        document.getElementById('a').setAttribute('params', 'm=50&V=1e9');
      });
      await page.waitForFunction(() => window.updates.length > 0);
      await settled(page, 'a');
      const after = await view(page, 'a');
      assert.equal(after.outputs.T, (await expected(page, 'dlt', { m: '50', V: '1e9' })).T, 'T for m = 50');
      assert.notEqual(after.outputs.T, a.outputs.T);
      await page.fill('#a input[data-key=m]', '20');
      const edited = await view(page, 'a');
      assert.equal(edited.outputs.T, (await expected(page, 'dlt', { m: '20', V: '1e9' })).T, 'T for the edited m = 20');
      await page.fill('#a input[data-key=m]', 'x');
      const bad = await view(page, 'a');
      assert.match(bad.fieldErrors.m, /not a number/, 'a bad edit shows at its field');
      assert.equal(bad.outputs.T, '—');

      assert.deepEqual(wasmFetches(log), ['isoperf_bg.wasm', 'isoperf_core_bg.wasm'], 'still one fetch of each');
      assertQuietHost(log);
    } finally {
      await close();
    }
  });

  test('a long evaluation (10⁶ MapReduce intervals) shows "Computing…", then the results and the chart', async () => {
    const { page, log, close } = await openHost('/long', `
      <script type="module" src="${script()}"></script>
      <isoperf-model id="c" model="mapreduce" params="m=10000&amp;r=1000&amp;l=10" show="outputs,chart:gantt" editable="m"></isoperf-model>`);
    try {
      const ready = () => page.waitForFunction(() => {
        const root = document.getElementById('c')?.shadowRoot?.querySelector('.root');
        return root?.dataset.state === 'ready' && root.querySelector('figure')?.dataset.state === 'drawn';
      }, null, { timeout: 20_000 });
      await ready();
      const want = await expected(page, 'mapreduce', { m: '10000', r: '1000', l: '10' });
      const c = await view(page, 'c');
      for (const key of ['T', 'intervals', 'speedup']) assert.equal(c.outputs[key], want[key], `output ${key}`);
      assert.equal(c.outputs.intervals, '1000009');
      // An edit that stays long: at once "Computing…" (the quick report deferred it), then the new results.
      const during = await page.evaluate(() => {
        const root = document.getElementById('c').shadowRoot;
        const input = root.querySelector('input[data-key=m]');
        input.value = '9000';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        return { state: root.querySelector('.root').dataset.state, messages: [...root.querySelectorAll('.problems p')].map((p) => p.textContent) };
      });
      assert.deepEqual(during, { state: 'computing', messages: ['Computing… (a long evaluation)'] });
      await ready();
      const after = await view(page, 'c');
      assert.equal(after.outputs.T, (await expected(page, 'mapreduce', { m: '9000', r: '1000', l: '10' })).T, 'T for m = 9000');
      assert.deepEqual(after.messages, []);
      assertQuietHost(log);
    } finally {
      await close();
    }
  });

  test('bad attributes are messages inside the element, shown as text, and never break the host page', async () => {
    const hostile = '<img src=x onerror="window.pwned=1">';
    const { page, log, close } = await openHost('/bad', `
      <script type="module" src="${script()}"></script>
      <isoperf-model id="none"></isoperf-model>
      <isoperf-model id="unknown" model="nope"></isoperf-model>
      <isoperf-model id="hostile" model='${hostile}'></isoperf-model>
      <isoperf-model id="value" model="dlt" params="m=abc&amp;V=1e300"></isoperf-model>
      <isoperf-model id="key" model="dlt" params="bogus=1"></isoperf-model>
      <isoperf-model id="chart" model="dlt" show='outputs,chart:nope,chart:${hostile},map:nope,frobnicate' editable="m,zzz"></isoperf-model>
      <isoperf-model id="long" model="dlt"></isoperf-model>
      <script>document.getElementById('long').setAttribute('params', 'm=' + '9'.repeat(200000));</script>`);
    try {
      const ids = ['none', 'unknown', 'hostile', 'value', 'key', 'chart', 'long'];
      for (const id of ids) await settled(page, id);
      const v = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await view(page, id)])));

      assert.match(v.none.messages.join(), /Choose an isoperf model with model="…": pmm .*dlt/);
      assert.match(v.unknown.messages.join(), /no model "nope".*dlt \(Divisible load on a star\)/);
      assert.ok(v.hostile.messages.join().includes('"<img src=x onerror="window.pwned=1">"'), `the hostile text is quoted as text: ${v.hostile.messages}`);
      assert.match(v.value.messages.join('\n'), /Processors m \(m\): 'abc' is not a number/);
      assert.match(v.value.messages.join('\n'), /\(V\): 1e300 is out of range/);
      assert.equal(v.value.outputs.T, '—', 'no result from bad values');
      assert.match(v.key.messages.join(), /params: "bogus" is not a parameter of this model; expected a parameter of dlt: processors, m, V/);
      const chart = v.chart.messages.join('\n');
      assert.match(chart, /dlt has no chart "nope"; its charts: gantt, speedup, efficiency, energy/);
      assert.match(chart, /no chart "<img"/);
      assert.match(chart, /no map preset "nope"; its maps: isoefficiency-v-m/);
      assert.match(chart, /"frobnicate" is not a part to show/);
      assert.match(chart, /editable: "zzz" is not a parameter of dlt; its parameters are processors, m, V/);
      assert.equal(v.chart.state, 'ready', 'the valid parts still show');
      assert.ok(v.chart.outputs.T !== '—' && v.chart.fieldErrors.m === '', 'outputs and the editable m');
      assert.match(v.long.messages.join(), /params is 200002 characters long; at most 100000 are read/);

      // Nothing ran: no <img> anywhere, in the host or any element.
      assert.equal(await page.evaluate(() => window.pwned), undefined);
      assert.equal(await page.locator('img').count(), 0, 'no <img> in the host or the shadow roots');
      for (const id of ids) assert.ok(!v[id].elements.includes('img'), `no <img> in #${id}`);

      // Fixing an attribute from script recovers.
      await page.evaluate(() => document.getElementById('unknown').setAttribute('model', 'dlt'));
      await page.waitForFunction(() => document.getElementById('unknown').shadowRoot.querySelector('.root').dataset.state === 'ready');
      assert.equal((await view(page, 'unknown')).outputs.T, '500.0');
      assertQuietHost(log);
    } finally {
      await close();
    }

    // A module that cannot be fetched: a message in the element, nothing thrown at the host.
    const broken = await openHost('/no-wasm', `<script type="module" src="${script()}"></script><isoperf-model id="a" model="dlt"></isoperf-model>`, {
      route: { pattern: /\.wasm$/, handler: (r) => r.fulfill({ status: 404, body: 'not found' }) },
    });
    try {
      await settled(broken.page, 'a');
      const a = await view(broken.page, 'a');
      assert.equal(a.state, 'error');
      assert.match(a.messages.join(), /could not load its WebAssembly module/);
      assert.deepEqual(broken.log.pageErrors, []);
    } finally {
      await broken.close();
    }
  });

  test('iframe mode at 600 × 450: only the named parts, no masthead, and embed stays in the hash', async () => {
    const page = await env.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.setViewportSize({ width: 600, height: 450 });
      await page.goto(`${env.url}#model=dlt&m=100&embed=outputs,chart:gantt,chart:nope`);
      await page.waitForFunction(() => window.isoperf && document.querySelector('#outputs .output output'));
      await page.waitForFunction(() => document.querySelector('#charts figure[data-chart=gantt] canvas')?.width > 300);
      const seen = await page.evaluate(() => Object.fromEntries(
        ['.masthead', '#model-tabs', '.notes', '.footer', '.form-actions', '.inputs', '#outputs', '#tables', '#map',
          '#charts figure[data-chart=gantt]', '#charts figure[data-chart=energy]', '#embed-open-full']
          .map((s) => [s, document.querySelector(s).checkVisibility()])));
      assert.deepEqual(seen, {
        '.masthead': false, '#model-tabs': false, '.notes': false, '.footer': false, '.form-actions': false, '.inputs': false,
        '#outputs': true, '#tables': false, '#map': false,
        '#charts figure[data-chart=gantt]': true, '#charts figure[data-chart=energy]': false, '#embed-open-full': true,
      });
      assert.match(await page.textContent('#embed-note'), /embed: dlt has no chart "nope"/);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 600), 'nothing wider than the frame');
      const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
      assert.equal(hash.get('embed'), 'outputs,chart:gantt,chart:nope', 'the page kept embed= as it rewrote the hash');
      const full = await page.getAttribute('#embed-open-full', 'href');
      assert.ok(full.startsWith(`${env.url}#model=dlt&m=100`) && !full.includes('embed'), `"Open in isoperf" opens the whole page: ${full}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('the Embed button writes both snippets for the view, and pasted in another page they work', async () => {
    const site = await openPage(env, { hash: '#model=dlt&m=100&V=1e9' });
    let snippets;
    try {
      await site.page.click('#embed-open');
      assert.equal(await site.page.evaluate(() => document.getElementById('embed-dialog').open), true);
      const first = await site.page.evaluate(() => [document.getElementById('embed-element').value, document.getElementById('embed-iframe').value]);
      assert.equal(first[0], `<script type="module" src="${script()}"></script>\n<isoperf-model model="dlt" params="m=100&amp;V=1e9" show="outputs,chart:gantt"></isoperf-model>`);
      assert.match(first[1], new RegExp(`^<iframe src="${env.url.replace(/[.]/g, '\\.')}#model=dlt&amp;m=100&amp;V=1e9&amp;embed=outputs,chart:gantt"`));
      assert.match(first[1], /addEventListener\('message'/);
      assert.ok(first[1].includes(`e.origin !== '${new URL(env.url).origin}'`), 'the listener checks the origin');
      // Choices: tables, compact, an editable field.
      await site.page.check('#embed-parts input[value=tables]');
      await site.page.check('#embed-compact');
      await site.page.fill('#embed-editable', 'm, V');
      snippets = await site.page.evaluate(() => [document.getElementById('embed-element').value, document.getElementById('embed-iframe').value]);
      assert.match(snippets[0], /show="outputs,tables,chart:gantt" editable="m,V" compact><\/isoperf-model>$/);
      assert.match(snippets[1], /embed=outputs,tables,chart:gantt,inputs"/);
      await site.page.click('.embed-copy[data-copy=embed-element]');
      // The clipboard write is asynchronous: the status follows it.
      await site.page.waitForFunction(() => /Copied|Selected/.test(document.getElementById('embed-status')?.textContent ?? ''), null, { timeout: 5_000 });
    } finally {
      await site.close();
    }

    // Pasted into a page of another origin, as a reader would.
    const { page, log, close } = await openHost('/pasted', `<p>Schedule length:</p>\n${snippets[0].replace('<isoperf-model ', '<isoperf-model id="pasted" ')}\n${snippets[1]}\n<p>End.</p>`);
    try {
      await settled(page, 'pasted');
      const v = await view(page, 'pasted');
      assert.equal(v.state, 'ready');
      assert.equal(v.outputs.T, (await expected(page, 'dlt', { m: '100', V: '1e9' })).T);
      assert.deepEqual(v.fieldErrors, { m: '', V: '' });
      // The frame reports its height and the snippet's listener sets it. (A browser
      // renders a frame of another origin only near the viewport: scroll to it.)
      await page.locator('iframe').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const f = document.querySelector('iframe');
        return f && parseFloat(f.style.height) > 0 && f.style.height !== '450px';
      }, null, { timeout: 10_000 });
      const frame = page.frames().find((f) => f !== page.mainFrame());
      await frame.waitForFunction(() => document.documentElement.classList.contains('embedded') && document.querySelector('#charts figure[data-chart=gantt] canvas')?.width > 300);
      await page.waitForTimeout(100); // the last height message
      const inside = await frame.evaluate(() => ({
        content: Math.ceil(document.body.getBoundingClientRect().height),
        masthead: document.querySelector('.masthead').checkVisibility(),
        form: document.querySelector('.inputs').checkVisibility(),
      }));
      const height = await page.evaluate(() => parseFloat(document.querySelector('iframe').style.height));
      assert.equal(inside.masthead, false, 'no masthead in the frame');
      assert.equal(inside.form, true, 'editable fields: the iframe shows the form');
      assert.equal(height, inside.content, 'the frame is as tall as its content');
      // A size change inside the frame (fewer parts) is reported again.
      await frame.evaluate(() => { location.hash = location.hash.replace(/embed=[^&]*/, 'embed=output:T'); });
      await page.waitForFunction((h) => parseFloat(document.querySelector('iframe').style.height) < h - 50, height, { timeout: 5_000 });
      assertQuietHost(log);
    } finally {
      await close();
    }
  });
});
