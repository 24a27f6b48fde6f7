// Runs www/bench.html in headless Chromium and prints its figures as JSON:
// the exports at each model's defaults (results), one keystroke for every
// model and preset (keystrokes), and the page's map presets from choice to
// painted map (maps). `node scripts/bench-browser.mjs [--quick]`.
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
const quick = process.argv.includes('--quick');
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
page.on('console', (m) => console.log('console', m.type(), m.text()));
await page.goto(url + 'www/bench.html' + (quick ? '?quick' : ''));
await page.waitForFunction(() => window.benchResults || /failed/.test(document.getElementById('bench-status').textContent), null, { timeout: 600000 });
const out = await page.evaluate(() => ({
  status: document.getElementById('bench-status').textContent,
  results: window.benchResults, keystrokes: window.benchKeystrokes, maps: window.benchMaps,
}));
console.log(JSON.stringify(out, null, 1));
await browser.close(); server.close();
