// What one visit transfers before its first prediction is painted: every
// file the page fetches until the default model's outputs show, as stored,
// gzip- and brotli-compressed (what a static host with compression sends).
// A benchmark, not a test: `npm run size` prints the table and the totals
// against the 200 KB gzip budget of the first paint.
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serve, ROOT } from './serve.mjs';

const BUDGET_GZIP = 200 * 1024;
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'] });
const rows = [];
try {
  for (const model of process.argv.slice(2).length ? process.argv.slice(2) : ['pmm', 'mapreduce']) {
    const page = await browser.newPage();
    const paths = [];
    page.on('request', (r) => { if (r.url().startsWith(url)) paths.push(new URL(r.url()).pathname); });
    await page.goto(`${url}#model=${model}`);
    await page.waitForSelector('#outputs .output output');
    await page.waitForFunction(() => [...document.querySelectorAll('#outputs .output output')].some((o) => o.textContent !== '—'));
    await page.close();
    let raw = 0, gz = 0, br = 0;
    for (const path of [...new Set(paths)]) {
      const file = path.endsWith('/') ? `${path}index.html` : path;
      const body = await readFile(ROOT + decodeURIComponent(file));
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
for (const r of rows) console.log(`${r.model.padEnd(10)} ${r.file.padEnd(36)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gzip ${kb(r.brotli).padStart(10)} br`);
for (const r of rows.filter((x) => x.file.startsWith('='))) {
  console.log(`${r.model}: ${kb(r.gzip)} gzip before the first prediction; budget ${kb(BUDGET_GZIP)}: ${r.gzip <= BUDGET_GZIP ? 'within' : `over by ${kb(r.gzip - BUDGET_GZIP)}`}`);
}
