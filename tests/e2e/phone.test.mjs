// The page on a phone (issue 14): at 390 × 844 CSS px (DPR 3, touch), on
// every model's tab, nothing is wider than the viewport (the page does not
// scroll sideways; only a wide table scrolls inside its own box), and the
// first result is on the first screen: in one column the outputs come
// before the form.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { assertCleanPage, listen, startEnv, stopEnv, waitComplete, MODELS } from './helpers.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

let env;
let phone;
before(async () => {
  env = await startEnv();
  phone = await env.browser.newContext(PHONE);
});
after(async () => {
  await phone?.close().catch(() => {});
  await stopEnv(env);
});

/** Everything drawn past the viewport's sides (inside a scrolling table box excepted). */
function overflow(page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => !e.closest('.table-scroll, dialog'))
      .map((e) => ({ e, box: e.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.right > vw + 0.5 || box.left < -0.5))
      .map(({ e, box }) => `${e.localName}${e.id ? '#' + e.id : ''}${[...e.classList].map((c) => '.' + c).join('')} (${Math.round(box.left)}..${Math.round(box.right)})`);
    return { vw, scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 10) };
  });
}

describe('a 390 px phone', () => {
  for (const model of MODELS) {
    test(`${model}: nothing wider than the screen, and the first result on the first screen`, async () => {
      const page = await phone.newPage();
      const log = listen(page);
      try {
        await page.goto(`${env.url}#model=${model}`, { waitUntil: 'commit' });
        await waitComplete(page, model);
        const o = await overflow(page);
        assert.equal(o.vw, 390);
        assert.deepEqual(o.wide, [], `${model}: drawn past the screen's sides`);
        assert.equal(o.scrollWidth, 390, `${model}: the page scrolls sideways`);
        const first = await page.$eval('#outputs .output', (e) => {
          const box = e.getBoundingClientRect();
          return { top: box.top + scrollY, bottom: box.bottom + scrollY, text: e.querySelector('output').textContent };
        });
        assert.notEqual(first.text, '—', 'the first output has a value');
        assert.ok(first.bottom <= 844, `${model}: the first result ends at ${Math.round(first.bottom)} px, below the first screen (844 px)`);
        // Every tab is on the screen (the strip wraps), and so is every field of the form.
        const offscreen = await page.$$eval('#model-tabs .tab, #form input, #form select', (els) => els
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map((e) => e.textContent || e.id));
        assert.deepEqual(offscreen, []);
        // The tabs show their short titles in at most two rows (the full titles took five).
        const tabs = await page.$$eval('#model-tabs .tab', (ts) => ts.map((t) => ({ top: Math.round(t.getBoundingClientRect().top), text: t.innerText.trim(), name: t.textContent })));
        assert.ok(new Set(tabs.map((t) => t.top)).size <= 2, `tabs in ${new Set(tabs.map((t) => t.top)).size} rows: ${JSON.stringify(tabs)}`);
        assert.ok(tabs.every((t) => t.text.length > 0 && t.text.length <= 21), `short titles: ${tabs.map((t) => t.text).join(', ')}`);
        assertCleanPage(log, new URL(env.url).origin);
      } finally {
        await page.close();
      }
    });
  }
});
