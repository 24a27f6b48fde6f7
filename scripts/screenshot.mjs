// Screenshots of the page in headless Chromium.
//
//   node scripts/screenshot.mjs [HASH] [OUT.png] [WIDTH] [HEIGHT] [DPR]
//       one view (ELEMENT=<css selector> shoots one element; FULL=0 the viewport only;
//       SCHEME=dark the dark colour scheme)
//   node scripts/screenshot.mjs --all-models docs/screenshot.png
//       the README's picture: every model of the registry at its reference
//       parameters, the top of its page side by side (two columns), plus one
//       model in the dark scheme when the count is odd

import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'];

const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });

function watch(page) {
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('request', (r) => { if (!r.url().startsWith(url) && !/^(data|blob):/.test(r.url())) console.log('EXTERNAL', r.url()); });
}

/** Waits until the page shows results, its map and its sweeps. */
async function settled(page) {
  await page.waitForSelector('#outputs .output output');
  await page.waitForFunction(() => {
    const map = document.querySelector('section#map');
    const mapDone = !map || map.hidden || document.querySelector('section#map canvas.map-canvas[data-labels]');
    const sweeps = [...document.querySelectorAll('#charts figure.sweep')].every((f) => f.dataset.state === 'done');
    return mapDone && sweeps && window.isoperf?.calls;
  }, null, { timeout: 60_000 });
  await page.waitForTimeout(Number(process.env.WAIT ?? 400));
}

async function allModels(out) {
  const W = 1366;
  const H = 900;
  const shots = [];
  const context = (scheme) => browser.newContext({ viewport: { width: W, height: H }, deviceScaleFactor: 1, colorScheme: scheme });
  const light = await context('light');
  const page = await light.newPage();
  watch(page);
  await page.goto(url);
  await settled(page);
  const models = await page.evaluate(() => window.isoperf.models().map((m) => ({ id: m.id, title: m.title })));
  for (const m of models) {
    await page.goto(`${url}#model=${m.id}`);
    await settled(page);
    // The model's results, not the masthead: from the model's title down.
    const top = await page.$eval('#model-title', (e) => e.getBoundingClientRect().top + window.scrollY - 12);
    await page.evaluate((y) => window.scrollTo(0, y), top);
    shots.push({ title: m.title, png: (await page.screenshot()).toString('base64') });
  }
  if (models.length % 2 === 1) {
    const dark = await context('dark');
    const d = await dark.newPage();
    watch(d);
    await d.goto(`${url}#model=${models[1]?.id ?? models[0].id}`);
    await settled(d);
    const top = await d.$eval('#model-title', (e) => e.getBoundingClientRect().top + window.scrollY - 12);
    await d.evaluate((y) => window.scrollTo(0, y), top);
    shots.push({ title: `${models[1]?.title ?? models[0].title} (dark scheme)`, png: (await d.screenshot()).toString('base64') });
    await dark.close();
  }
  await light.close();
  // The tiles, two per row at half size, each under its model's name.
  const sheet = await browser.newPage({ viewport: { width: W + 24, height: 600 }, deviceScaleFactor: 1 });
  const escape = (t) => t.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  await sheet.setContent(`<!doctype html><meta charset="utf-8"><body style="margin:0;background:#e9ecef;font:600 15px system-ui,sans-serif;color:#212529">
    <div style="display:grid;grid-template-columns:repeat(2,${W / 2}px);gap:8px;padding:8px">
    ${shots.map((s) => `<img style="display:block;width:${W / 2}px;border:1px solid #ced4da" alt="${escape(s.title)}" src="data:image/png;base64,${s.png}">`).join('')}
    </div></body>`);
  await sheet.screenshot({ path: out, fullPage: true });
  console.log(`${out}: ${shots.length} views (${models.map((m) => m.id).join(', ')})`);
}

const [,, first = '', ...rest] = process.argv;
if (first === '--all-models') {
  await allModels(rest[0] ?? 'docs/screenshot.png');
} else {
  const [out = '/tmp/shot.png', w = '1400', h = '1800', dpr = '1'] = rest;
  const page = await browser.newPage({ viewport: { width: +w, height: +h }, deviceScaleFactor: +dpr, colorScheme: process.env.SCHEME ?? 'light' });
  watch(page);
  await page.goto(url + first);
  await settled(page);
  if (process.env.ELEMENT) await page.locator(process.env.ELEMENT).first().screenshot({ path: out });
  else await page.screenshot({ path: out, fullPage: process.env.FULL !== '0' });
}
await browser.close();
server.close();
