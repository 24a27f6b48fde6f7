// Crafted links (issue 14): a hash that names what does not exist (a model,
// a parameter, a data set or an example, a map grid the map does not offer,
// too many levels, broken percent-encoding) gives a visible notice or a
// message at the map, and a working page: outputs shown, no uncaught error,
// nothing from the link run as markup.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { assertCleanPage, openPage, startEnv, stopEnv, waitComplete } from './helpers.mjs';

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const MAP = 'map.x=N:4:100&map.y=M:1000:20000';
const LEVELS = Array.from({ length: 2000 }, (_, i) => i / 2000).join(',');

/** [hash, the model shown, what the notice says (or null: no notice), what the map says (or null)]. */
const CASES = [
  [`model=pmm&${MAP}&map.grid=1000000000`, 'pmm', /map grid '1000000000' is not one the map offers \(64, 128, 256, 512 points per axis\): 256 is used/, null],
  [`model=pmm&${MAP}&map.grid=-1`, 'pmm', /map grid '-1' is not one/, null],
  [`model=pmm&${MAP}&map.grid=0`, 'pmm', /map grid '0' is not one/, null],
  [`model=pmm&${MAP}&map.levels=${LEVELS}`, 'pmm', null, /^levels: 2000 levels: at most 100 isolines are drawn/],
  ['model=PMM', 'pmm', null, null],
  ['model=xyz', 'pmm', /^The link names no model 'xyz': showing Parallel matrix multiplication\.$/, null],
  ['model=pmm&foo=1&bar=2', 'pmm', /^The link's 'foo', 'bar' are not parameters of Parallel matrix multiplication: left out\.$/, null],
  ['model=scaling&data.timings=junk', 'scaling', /example 'junk' for .* is not one of its examples \(scale27, scale28\): left out/, null],
  ['model=scaling&data.nope=1', 'scaling', /'data\.nope' is not a parameter of Scalability/, null],
  ['model=pmm&%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E=1', 'pmm', /'<img src=x onerror=alert\(1\)>' is not a parameter/, null],
  ['model=pmm&N=%E0%A4%A&M=%', 'pmm', null, null],
];

describe('crafted links', () => {
  for (const [hash, model, notice, mapMessage] of CASES) {
    test(`#${hash.slice(0, 70)}`, async () => {
      const { page, log, close } = await openPage(env, { hash, waitReady: false });
      try {
        await page.waitForFunction(() => window.isoperf && document.getElementById('app').getAttribute('aria-busy') === 'false', null, { timeout: 15_000 });
        assert.equal(await page.$eval('.tab[aria-current=page]', (t) => t.dataset.model), model);
        const notes = await page.$$eval('#link-note p', (ps) => ps.map((p) => ({ text: p.textContent, visible: p.checkVisibility() })));
        if (notice) {
          assert.equal(notes.length, 1, JSON.stringify(notes));
          assert.match(notes[0].text, notice);
          assert.equal(notes[0].visible, true);
        } else {
          assert.deepEqual(notes, [], 'no notice');
        }
        if (mapMessage) {
          await page.waitForFunction(() => document.querySelector('#map .map-error')?.textContent, null, { timeout: 10_000 });
          assert.match(await page.$eval('#map .map-error', (e) => e.textContent), mapMessage);
        }
        // The page works: the outputs are there, or a field says what is wrong with the link's value.
        await page.waitForFunction(() => document.querySelector('#outputs .output output')?.textContent !== '—'
          || document.querySelector('#form [aria-invalid="true"]'), null, { timeout: 15_000 });
        const invalid = await page.$$eval('#form [aria-invalid="true"]', (els) => els.map((e) => e.dataset.key ?? e.id));
        if (!invalid.length && !mapMessage) await waitComplete(page, hash);
        if (hash.includes('N=%E0')) assert.deepEqual(invalid.sort(), ['M', 'N'], 'the broken values are refused at their fields');
        assert.equal(await page.$$eval('img', (imgs) => imgs.length), 0, 'no markup from the link');
        assertCleanPage(log, new URL(env.url).origin);
      } finally {
        await close();
      }
    });
  }
});
