import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
const [,, hash = '', out = '/tmp/shot.png', w = '1400', h = '1800', dpr = '1'] = process.argv;
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'] });
const page = await browser.newPage({ viewport: { width: +w, height: +h }, deviceScaleFactor: +dpr });
page.on('console', (m) => console.log('console', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror', e.message));
page.on('request', (r) => { if (!r.url().startsWith(url) && !r.url().startsWith('data:')) console.log('EXTERNAL', r.url()); });
await page.goto(url + hash);
await page.waitForSelector('.output');
await page.waitForTimeout(Number(process.env.WAIT ?? 400));
// ELEMENT=<css selector> shoots one element (a chart, the map) instead of the page.
if (process.env.ELEMENT) await page.locator(process.env.ELEMENT).first().screenshot({ path: out });
else await page.screenshot({ path: out, fullPage: process.env.FULL !== '0' });
await browser.close(); server.close();
