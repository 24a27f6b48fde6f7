// What one visit costs before its first prediction is painted: every file
// the page fetched until then, as stored, gzip- and brotli-compressed (what
// a static host with compression sends), and the milliseconds from
// navigation to that prediction (the page's `isoperf:first-prediction`
// mark) and to the full module in use (charts drawn, maps and sweeps
// started). A benchmark, not a test: `npm run size` prints the table and
// the totals against the 200 KB gzip budget.
//
//   node scripts/size-report.mjs [models…]            the page as `npm start` serves it
//   node scripts/size-report.mjs --site [models…]     dist/site (after `npm run dist`)
//   node scripts/size-report.mjs --file [models…]     dist/isoperf.html from file:// (timing only)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve, ROOT } from './serve.mjs';

const BUDGET_GZIP = 200 * 1024;
const RUNS = 5;
const args = process.argv.slice(2);
const mode = args[0] === '--site' ? 'site' : args[0] === '--file' ? 'file' : 'dev';
const models = args.filter((a) => !a.startsWith('--'));
const root = mode === 'dev' ? ROOT : join(ROOT, 'dist', 'site');
const { server, url } = await serve(root);
const base = mode === 'file' ? pathToFileURL(join(ROOT, 'dist', 'isoperf.html')).href : url;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'] });
const rows = [];
const timings = [];
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const ids = models.length ? models : await (async () => {
    const page = await browser.newPage();
    await page.goto(base);
    await page.waitForFunction(() => window.isoperf);
    const list = await page.evaluate(() => window.isoperf.models().map((m) => m.id));
    await page.close();
    return list;
  })();
  for (const model of ids) {
    const first = [], full = [];
    let files = [];
    for (let run = 0; run < RUNS; run++) {
      // A fresh context: nothing cached, no service worker yet.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}#model=${model}`);
      await page.waitForFunction(() => window.isoperf);
      const t = await page.evaluate(() => {
        const mark = performance.getEntriesByName('isoperf:first-prediction')[0].startTime;
        const files = performance.getEntriesByType('resource').filter((r) => r.startTime <= mark).map((r) => new URL(r.name).pathname);
        return { mark, ready: performance.now(), files: [location.pathname, ...files] };
      });
      first.push(t.mark);
      full.push(t.ready);
      files = t.files;
      await context.close();
    }
    timings.push({ model, first: median(first), full: median(full) });
    if (mode === 'file') continue;
    let raw = 0, gz = 0, br = 0;
    for (const path of [...new Set(files)]) {
      const file = path.endsWith('/') ? `${path}index.html` : path;
      const body = await readFile(join(root, decodeURIComponent(file)));
      const g = gzipSync(body, { level: 9 }).length;
      const b = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
      rows.push({ model, file, raw: body.length, gzip: g, brotli: b });
      raw += body.length; gz += g; br += b;
    }
    rows.push({ model, file: '= before the first prediction', raw, gzip: gz, brotli: br });
  }
} finally {
  await browser.close();
  server.close();
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const r of rows) console.log(`${r.model.padEnd(10)} ${r.file.padEnd(44)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gzip ${kb(r.brotli).padStart(10)} br`);
console.log(`\n${mode === 'dev' ? 'npm start' : mode === 'site' ? 'dist/site' : 'dist/isoperf.html (file://)'}: median of ${RUNS} cold loads on localhost`);
for (const t of timings) {
  const r = rows.find((x) => x.model === t.model && x.file.startsWith('='));
  const size = r ? `; ${kb(r.gzip)} gzip before it (budget ${kb(BUDGET_GZIP)}: ${r.gzip <= BUDGET_GZIP ? 'within' : `over by ${kb(r.gzip - BUDGET_GZIP)}`})` : '';
  console.log(`${t.model.padEnd(10)} first prediction ${t.first.toFixed(0).padStart(4)} ms, full module in use ${t.full.toFixed(0).padStart(4)} ms${size}`);
}
