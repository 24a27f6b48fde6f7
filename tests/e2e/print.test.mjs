// Printing (issue 14): on paper the page is the model, its values and its
// results: no tabs, buttons, presets, map controls or notes; every value
// of the form and every output shows; dlt's reference set fits on three A4
// pages (five before print styles).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { openPage, startEnv, stopEnv, waitComplete } from './helpers.mjs';

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

/** The controls that are not printed. */
const CONTROLS = ['#model-tabs', '.form-actions', '.preset-bar', '.notes', '.map-controls', '.map-actions', '.footer'];

describe('print', () => {
  test('dlt: the controls are not printed, the values and results are, on three A4 pages', async () => {
    const { page, close } = await openPage(env, { hash: '#model=dlt' });
    try {
      await waitComplete(page, 'dlt');
      // Printed as a reader prints the page in front of them (before any emulated media resizes its charts).
      const pdf = (await page.pdf({ format: 'A4' })).toString('latin1');
      const pages = (pdf.match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      assert.ok(pages >= 1 && pages <= 3, `${pages} pages`);
      await page.emulateMedia({ media: 'print' });
      const shown = await page.evaluate((controls) => ({
        hidden: controls.filter((sel) => [...document.querySelectorAll(sel)].every((e) => !e.checkVisibility())),
        outputs: [...document.querySelectorAll('#outputs .output')].filter((e) => e.checkVisibility()).length,
        outputCount: document.querySelectorAll('#outputs .output').length,
        fields: [...document.querySelectorAll('#form .field:not(.inapplicable) input[type=text]')].filter((e) => e.checkVisibility()).map((e) => e.value),
        charts: [...document.querySelectorAll('#charts figure')].filter((e) => e.checkVisibility()).length,
      }), CONTROLS);
      assert.deepEqual(shown.hidden, CONTROLS, 'every control is left out');
      assert.equal(shown.outputs, shown.outputCount, 'every output is printed');
      assert.ok(shown.fields.includes('1000') && shown.fields.includes('1e-6'), `the values are printed: ${shown.fields}`);
      assert.ok(shown.charts >= 4, 'the charts are printed');
    } finally {
      await close();
    }
  });
});
