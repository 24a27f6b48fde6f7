// The page in the reader's dark colour scheme (issue 14): on every tab the
// page's paper is dark and its ink light, every chart and the iso-map paint
// on the same dark paper (Rust's Theme::DARK, the page's --paper), and when
// the scheme changes while the page is open, the charts and the map repaint
// in the new one.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MAP_DONE, ROOT, assertCleanPage, listen, startEnv, stopEnv, waitComplete, MODELS } from './helpers.mjs';

/** The page's dark --paper (www/style.css), which Theme::DARK paints too. */
const DARK_PAPER = [22, 25, 29];

let env;
let dark;
before(async () => {
  env = await startEnv();
  dark = await env.browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme: 'dark' });
});
after(async () => {
  await dark?.close().catch(() => {});
  await stopEnv(env);
});

/** The colour of each chart's and the map's top-left pixel, and the page's paper and ink. */
function colours(page) {
  return page.evaluate(() => {
    const pixel = (canvas) => [...canvas.getContext('2d').getImageData(1, 1, 1, 1).data.slice(0, 3)];
    const rgb = (text) => text.match(/\d+/g).slice(0, 3).map(Number);
    return {
      paper: rgb(getComputedStyle(document.body).backgroundColor === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.documentElement).backgroundColor : getComputedStyle(document.body).backgroundColor),
      ink: rgb(getComputedStyle(document.body).color),
      charts: [...document.querySelectorAll('#charts figure canvas')].filter((c) => c.width > 300).map(pixel),
      map: document.querySelector('#map:not([hidden]) canvas.map-canvas') ? pixel(document.querySelector('#map canvas.map-canvas')) : null,
    };
  });
}

const luminance = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;

describe('the dark colour scheme', () => {
  for (const model of MODELS) {
    test(`${model}: dark paper, light ink, charts and map on the same paper`, async () => {
      const page = await dark.newPage();
      const log = listen(page);
      try {
        await page.goto(`${env.url}#model=${model}`, { waitUntil: 'commit' });
        await waitComplete(page, model);
        const c = await colours(page);
        assert.deepEqual(c.paper, DARK_PAPER, 'the page paper');
        assert.ok(luminance(c.ink) > 0.8, `light ink: ${c.ink}`);
        assert.ok(c.charts.length >= 1, 'charts drawn');
        for (const px of c.charts) assert.deepEqual(px, DARK_PAPER, 'a chart on the dark paper');
        if (c.map) assert.deepEqual(c.map, DARK_PAPER, 'the map on the dark paper');
        assertCleanPage(log, new URL(env.url).origin);
      } finally {
        await page.close();
      }
    });
  }

  test('every colour property of the page has a value in both schemes (none refers to itself or to nothing)', async () => {
    const css = readFileSync(join(ROOT, 'www', 'style.css'), 'utf8');
    const names = [...new Set([...css.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]))];
    assert.ok(names.length >= 15, `${names.length} custom properties`);
    const page = await dark.newPage();
    try {
      // After the style sheet is in (a busy machine may not have it right after the commit).
      await page.goto(`${env.url}#model=pmm`, { waitUntil: 'load' });
      for (const colorScheme of ['dark', 'light']) {
        await page.emulateMedia({ colorScheme });
        const empty = await page.evaluate((list) => list.filter((n) => !getComputedStyle(document.documentElement).getPropertyValue(n).trim()), names);
        assert.deepEqual(empty, [], `${colorScheme}: properties without a value`);
      }
      // A form field's border is drawn (an invalid property would leave none).
      await page.waitForSelector('#form input[type=text]');
      const border = await page.$eval('#form input[type=text]', (i) => [getComputedStyle(i).borderTopStyle, getComputedStyle(i).borderTopWidth]);
      assert.deepEqual(border, ['solid', '1px']);
    } finally {
      await page.close();
    }
  });

  test('a change of scheme while the page is open repaints the charts and the map', async () => {
    const page = await dark.newPage();
    try {
      await page.goto(`${env.url}#model=dlt`, { waitUntil: 'commit' });
      await waitComplete(page, 'dlt');
      await page.$eval(MAP_DONE, (c) => delete c.dataset.labels);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.waitForSelector(MAP_DONE, { state: 'attached', timeout: 20_000 });
      await page.waitForFunction(() => [...document.querySelectorAll('#charts figure canvas')].filter((c) => c.width > 300)
        .every((c) => c.getContext('2d').getImageData(1, 1, 1, 1).data[0] === 255), null, { timeout: 10_000 });
      const c = await colours(page);
      assert.deepEqual(c.paper, [255, 255, 255]);
      for (const px of c.charts) assert.deepEqual(px, [255, 255, 255], 'a chart on white');
      assert.deepEqual(c.map, [255, 255, 255], 'the map on white');
    } finally {
      await page.close();
    }
  });
});
