// Exports and data alternatives (issue 14): every chart as PNG (device
// resolution), SVG and CSV with a data table on request; the results as CSV
// and JSON; each table as CSV; the map as SVG too. Every file records the
// model, every parameter, the version and the link. The values in the files
// are checked against evaluations made another way (`evaluate` in the page),
// exactly. Also: the skip link, and what a map preset changed in the form,
// which Reset to defaults restores with the map.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { openPage, pageProblems, startEnv, stopEnv, waitComplete } from './helpers.mjs';

let env;
before(async () => { env = await startEnv({ deviceScaleFactor: 2 }); });
after(async () => { await stopEnv(env); });

/** Clicks `selector` and returns the download: {name, body (Buffer)}. */
async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: d.suggestedFilename(), body: readFileSync(await d.path()) };
}

/** The CSV's provenance lines and its other lines. */
function splitCsv(text) {
  const lines = text.replace(/\n$/, '').split('\n');
  return { comments: lines.filter((l) => l.startsWith('# ')), rows: lines.filter((l) => !l.startsWith('# ') && l !== '') };
}

/** The provenance every export opens with: version, model, parameters and link. */
function assertProvenanceCsv(comments, model, params) {
  assert.match(comments[0], new RegExp(`^# isoperf \\d+\\.\\d+\\.\\d+, model ${model}$`));
  for (const [k, v] of Object.entries(params)) assert.ok(comments[1].split(' ').includes(`${k}=${v}`), `${k}=${v} in "${comments[1]}"`);
  assert.match(comments[2], new RegExp(`^# link: http://\\S+#model=${model}`));
}

/** The JSON text of the first iTXt chunk keyed `isoperf` of a PNG. */
function pngProvenance(png) {
  let at = 8;
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'iTXt') {
      const data = png.subarray(at + 8, at + 8 + len);
      const keyword = data.toString('latin1', 0, data.indexOf(0));
      if (keyword === 'isoperf') return JSON.parse(data.subarray(keyword.length + 5).toString('utf8'));
    }
    at += 12 + len;
  }
  return null;
}

const FIG = '#charts figure.chart[data-chart="time"]';

describe('exports', () => {
  test('a chart: CSV values equal evaluate() exactly; SVG parses, carries its provenance and its curves; PNG at the device resolution', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=pmm&N=25&M=16000' });
    try {
      await waitComplete(page, 'pmm', false);
      const csv = await download(page, `${FIG} button[data-format="csv"]`);
      assert.match(csv.name, /^isoperf-pmm-.+\.csv$/);
      const csvText = csv.body.toString('utf8');
      const { comments, rows } = splitCsv(csvText.split('\n# marked points')[0]);
      assertProvenanceCsv(comments, 'pmm', { N: 25, M: 16000 });
      // The curves share their N: one row per N, a column per implementation (the ring at the current N is listed apart).
      const header = rows[0].split(',');
      assert.deepEqual(header.slice(1), ['Dryad', 'MS-MPI', 'Fox']);
      const at9 = rows.find((r) => r.startsWith('9,'))?.split(',');
      assert.ok(at9, `a row at N = 9: ${rows.slice(0, 4).join(' | ')}`);
      // Each curve's point at N = 9 is that implementation's T at N = 9, to the last bit.
      for (const [k, impl] of ['dryad', 'msmpi', 'fox'].entries()) {
        const T = await page.evaluate((i) => window.isoperf.evaluate('pmm', { N: 9, M: 16000, impl: i }).T, impl);
        assert.ok(Object.is(Number(at9[k + 1]), T), `${impl} at N = 9: CSV ${at9[k + 1]}, evaluate ${T}`);
      }
      const marked = csvText.split('# marked points\n')[1]?.split('\n')[1]?.split(',');
      const T25 = await page.evaluate(() => window.isoperf.evaluate('pmm', { N: 25, M: 16000 }).T);
      assert.ok(marked && Number(marked[1]) === 25 && Object.is(Number(marked[2]), T25), `the marked point is the current T: ${marked}`);

      const svg = await download(page, `${FIG} button[data-format="svg"]`);
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          meta: doc.querySelector('metadata')?.textContent ?? '',
          lines: doc.querySelectorAll('polyline').length,
          texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
          width: Number(doc.documentElement.getAttribute('width')),
        };
      }, svg.body.toString('utf8'));
      assert.equal(parsed.error, null, 'the SVG is well-formed');
      const meta = JSON.parse(parsed.meta);
      assert.equal(meta.model, 'pmm');
      assert.equal(meta.params.N, 25);
      assert.match(meta.isoperf, /^\d+\.\d+\.\d+$/);
      assert.ok(parsed.lines >= 3, `the three curves are drawn: ${parsed.lines} polylines`);
      assert.ok(parsed.texts.some((t) => /Dryad/.test(t)), 'the legend names the curves');
      const cssWidth = await page.$eval(`${FIG} canvas`, (c) => c.clientWidth);
      assert.equal(parsed.width, cssWidth, 'the SVG is as wide as the chart on the page');

      const png = await download(page, `${FIG} button[data-format="png"]`);
      assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const deviceWidth = await page.$eval(`${FIG} canvas`, (c) => c.width);
      assert.equal(png.body.readUInt32BE(16), deviceWidth, 'the PNG has the canvas\'s device pixels');
      assert.equal(deviceWidth, 2 * cssWidth, 'at DPR 2');
      const fromPng = pngProvenance(png.body);
      assert.equal(fromPng?.model, 'pmm');
      assert.equal(fromPng?.params.M, 16000);
      assert.deepEqual(pageProblems(log), [], 'no CSP violation or error while exporting');
    } finally {
      await close();
    }
  });

  test('the results as JSON and CSV, and a table as CSV, hold what the page shows, exactly', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=dlt' });
    try {
      await waitComplete(page, 'dlt', false);
      const expected = await page.evaluate(() => window.isoperf.evaluate('dlt', {}));
      const json = JSON.parse((await download(page, '#results-tools button[data-format="json"]')).body.toString('utf8'));
      assert.equal(json.model, 'dlt');
      for (const [key, value] of Object.entries(expected)) {
        assert.ok(Object.is(json.outputs[key].value, value), `${key}: JSON ${json.outputs[key].value}, evaluate ${value}`);
      }
      assert.equal(json.outputs.T.unit, 's');
      const tablesShown = await page.$$eval('#tables .table-card h3', (hs) => hs.map((h) => h.textContent));
      assert.deepEqual(json.tables.map((t) => t.title), tablesShown);

      const csv = splitCsv((await download(page, '#results-tools button[data-format="csv"]')).body.toString('utf8'));
      assertProvenanceCsv(csv.comments, 'dlt', {});
      assert.equal(csv.rows[0], 'output,label,value,unit');
      const T = csv.rows.find((r) => r.startsWith('T,'));
      assert.ok(Object.is(Number(T.split(',').at(-2)), expected.T), `CSV ${T}`);

      const first = await page.$eval('#tables .table-card', (c) => ({
        title: c.querySelector('h3').textContent,
        cells: [...c.querySelectorAll('tbody tr:not(.remark)')].map((r) => [...r.children].map((x) => x.textContent)),
      }));
      const table = splitCsv((await download(page, '#tables .table-card .table-export')).body.toString('utf8'));
      assert.equal(table.comments.at(-1), `# ${first.title}`);
      const parse = (line) => [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1);
      assert.deepEqual(table.rows.slice(1).map(parse), first.cells, 'the table\'s rows, cell for cell');
      assert.deepEqual(pageProblems(log), []);
    } finally {
      await close();
    }
  });

  test('a chart\'s data table: shown on request, follows an edit, one row per point; the map exports SVG with provenance', async () => {
    const { page, log, close } = await openPage(env, { hash: '#model=pmm' });
    try {
      await waitComplete(page, 'pmm');
      const toggle = `${FIG} .chart-data-toggle`;
      assert.equal(await page.getAttribute(toggle, 'aria-expanded'), 'false');
      await page.click(toggle);
      // (The first click loads the exports module.)
      await page.waitForSelector(`${toggle}[aria-expanded="true"]`, { timeout: 5000 });
      const read = () => page.$$eval(`${FIG} .chart-data tbody tr`, (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
      const before = await read();
      assert.ok(before.length >= 3, `rows: ${before.length}`);
      assert.ok(before.every((r) => r.length === 4), 'N and T of each implementation in each row');
      await page.fill('#f-M', '8000');
      await page.waitForFunction((sel) => document.querySelector(sel)?.textContent !== undefined, `${FIG} .chart-data tbody tr`);
      await page.waitForFunction(([sel, old]) => [...document.querySelectorAll(sel)].map((r) => r.textContent).join('|') !== old,
        [`${FIG} .chart-data tbody tr`, before.map((r) => r.join('')).join('|')], { timeout: 5000 });
      await page.click(toggle);
      await page.waitForSelector(`${toggle}[aria-expanded="false"]`, { timeout: 5000 });
      assert.equal(await page.isVisible(`${FIG} .chart-data`), false, 'hidden again');

      const svg = (await download(page, 'section#map .map-svg')).body.toString('utf8');
      const meta = await page.evaluate((text) => new DOMParser().parseFromString(text, 'image/svg+xml').querySelector('metadata')?.textContent, svg);
      assert.equal(JSON.parse(meta).params.M, 8000);
      assert.deepEqual(pageProblems(log), []);
    } finally {
      await close();
    }
  });
});

describe('the skip link, map presets and reset', () => {
  test('Tab reaches the skip link first; it moves focus to the calculator', async () => {
    const { page, close } = await openPage(env, { hash: '#model=pmm' });
    try {
      await page.keyboard.press('Tab');
      const link = await page.evaluate(() => ({ cls: document.activeElement.className, top: document.activeElement.getBoundingClientRect().top }));
      assert.equal(link.cls, 'skip-link');
      assert.ok(link.top >= 0, 'visible while focused');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'app');
    } finally {
      await close();
    }
  });

  test('a map preset says what it changed in the form; Reset to defaults restores the form and the map', async () => {
    const { page, close } = await openPage(env, { hash: '#model=dlt' });
    try {
      await waitComplete(page, 'dlt', false);
      const V = await page.inputValue('#f-V');
      await page.selectOption('section#map .map-preset', 'isoenergy-k-m');
      await page.waitForFunction(() => document.querySelector('section#map .map-note')?.textContent !== '');
      const note = await page.textContent('section#map .map-note');
      assert.match(note, new RegExp(`from ${V.replace(/[.+]/g, '\\$&')} to 1e13`), note);
      assert.equal(await page.inputValue('#f-V'), '1e13');
      await page.click('#reset');
      await page.waitForFunction((v) => document.querySelector('#f-V').value === v, V);
      assert.equal(await page.inputValue('section#map .map-preset'), 'isoefficiency-v-m', 'the map is back on its first preset');
      assert.equal(await page.textContent('section#map .map-note'), '');
      assert.doesNotMatch(await page.evaluate(() => location.hash), /map/, 'the link carries no map');
    } finally {
      await close();
    }
  });
});
