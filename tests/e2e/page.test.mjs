// End-to-end tests of the page in headless Chromium: loading, editing,
// validation, the URL hash, presets, the reproduction table and the
// JavaScript API the page exposes.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import {
  afterFrames, chartStates, evaluateInPage, formatInPage, hashParams, openPage, outputTexts,
  pageProblems, parseDisplayed, showsValue, snapshot, startEnv, stopEnv, visibleText, withPage, assertCleanPage, MODELS,
} from './helpers.mjs';

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

/** Asserts the outputs show exactly what the page's formatter makes of `values`. */
async function assertOutputsShow(page, values, context) {
  const shown = await outputTexts(page);
  const expected = await formatInPage(page, values);
  assert.deepEqual(Object.keys(shown).sort(), Object.keys(values).sort(), `${context}: one output element per output`);
  for (const [key, value] of Object.entries(values)) {
    assert.equal(shown[key], expected[key], `${context}: output ${key}`);
    assert.ok(showsValue(shown[key], value), `${context}: output ${key} shows "${shown[key]}" for ${value}`);
  }
}

describe('the page', () => {
  test('loads with the default prediction, no errors and no foreign requests', async () => {
    const { page, log, close } = await openPage(env);
    try {
      const origin = new URL(env.url).origin;
      // Let the charts draw too: errors while drawing count.
      await afterFrames(page);
      const out = await outputTexts(page);
      assert.ok(Number.isFinite(parseDisplayed(out.T)) && parseDisplayed(out.T) > 0, `T is a positive number, got "${out.T}"`);
      assert.equal(out.coef_M2, '6.764 × 10⁻⁸');
      assert.equal(out.coef_M3, '9.259 × 10⁻¹²');
      await assertOutputsShow(page, await evaluateInPage(page, 'pmm', {}), 'defaults');

      assert.equal(await page.$eval('#status', (s) => s.hidden), true, 'the status banner is hidden');
      assert.deepEqual(await page.$$eval('#form .field.invalid', (fs) => fs.map((f) => f.dataset.key)), [], 'no field is invalid');
      assert.equal(await page.$eval('#model-tabs .tab[data-model=pmm]', (t) => t.getAttribute('aria-current')), 'page');
      const charts = await chartStates(page);
      assert.ok(Object.keys(charts).length > 0, 'the model has charts');
      for (const [id, c] of Object.entries(charts)) {
        assert.equal(c.stale, false, `chart ${id} is not stale`);
        assert.equal(c.note, '', `chart ${id} has no error note`);
      }

      assert.ok(log.requests.some((u) => u.endsWith('.wasm')), 'the wasm module was fetched from the server');
      assertCleanPage(log, origin);
    } finally {
      await close();
    }
  });

  test('editing N changes T, and the hash follows', async () => {
    await withPage(env, {}, async ({ page }) => {
      const before = await outputTexts(page);
      await page.fill('#f-N', '36');
      const out = await outputTexts(page);
      assert.notEqual(out.T, before.T, 'T changed');
      await assertOutputsShow(page, await evaluateInPage(page, 'pmm', { N: '36' }), 'N=36');
      assert.deepEqual(await hashParams(page), { model: 'pmm', N: '36' }, 'the hash holds the model and the one non-default value');

      // The hash is the state: reloading the URL restores the edit.
      await page.reload();
      await page.waitForFunction(() => window.isoperf && document.querySelector('#outputs .output output'));
      assert.equal(await page.inputValue('#f-N'), '36');
      assert.deepEqual(await outputTexts(page), out);
    });
  });

  const BAD = [
    { key: 'N', value: '30', mentions: [/\b25\b/, /\b36\b/] },
    { key: 't_flops', value: '-1' },
    { key: 't_flops', value: 'abc' },
    { key: 'M', value: '' },
    { key: 'M', value: 'NaN' },
  ];
  for (const { key, value, mentions = [] } of BAD) {
    test(`${key}=${JSON.stringify(value)} is refused at the field, and fixing it restores results`, async () => {
      await withPage(env, {}, async ({ page }) => {
        const good = await page.inputValue(`#f-${key}`);
        const before = await snapshot(page);
        await page.fill(`#f-${key}`, value);
        await afterFrames(page);

        const bad = await snapshot(page);
        const message = bad.fields[key].error;
        assert.match(message, /expected .+/, `the message at ${key} states what is valid: "${message}"`);
        for (const re of mentions) assert.match(message, re, `the message at ${key} mentions ${re}: "${message}"`);
        assert.equal(bad.fields[key].errorVisible, true, 'the message is visible');
        assert.deepEqual(bad.invalid, [key], `only ${key} is marked invalid`);
        assert.deepEqual(bad.fields[key].ariaInvalid, ['true'], `#f-${key} is aria-invalid`);
        assert.equal(bad.status.hidden, false, 'the status banner shows');
        for (const [k, text] of Object.entries(bad.outputs)) {
          assert.equal(text, '—', `output ${k} shows no number while ${key} is invalid`);
        }
        for (const [id, c] of Object.entries(bad.charts)) {
          assert.equal(c.stale, true, `chart ${id} is marked stale`);
          assert.notEqual(c.note, '', `chart ${id} says why it is not drawn`);
        }
        // The page may echo what the user typed ("NaN" is refused in so many
        // words); everything else must be free of NaN and Infinity.
        const field = `#form .field[data-key="${key}"]`;
        const echoes = /nan|inf/i.test(value) ? [`${field} .field-error`] : [];
        const text = await visibleText(page, { exclude: echoes });
        assert.doesNotMatch(text, /NaN|Infinity/, 'no visible NaN or Infinity');

        await page.fill(`#f-${key}`, good);
        await afterFrames(page);
        const fixed = await snapshot(page);
        assert.equal(fixed.fields[key].error, '', 'the message is gone');
        assert.deepEqual(fixed.invalid, [], 'no field is invalid');
        assert.equal(fixed.status.hidden, true, 'the status banner is hidden again');
        assert.deepEqual(fixed.outputs, before.outputs, 'the results are back');
        assert.deepEqual(fixed.charts, before.charts, 'the charts are drawn again');
        assert.deepEqual(fixed.hash, before.hash, 'the hash is back to the defaults');
      });
    });
  }

  test('a URL hash restores the form and its outputs', async () => {
    await withPage(env, { hash: '#model=pmm&impl=msmpi&N=100&M=20000' }, async ({ page }) => {
      assert.equal(await page.isChecked('input[name=impl][value=msmpi]'), true, 'msmpi is checked');
      assert.equal(await page.isChecked('input[name=impl][value=dryad]'), false, 'dryad is not checked');
      assert.equal(await page.isChecked('input[name=impl][value=fox]'), false, 'fox is not checked');
      assert.equal(await page.inputValue('#f-N'), '100');
      assert.equal(await page.inputValue('#f-M'), '20000');
      await assertOutputsShow(page, await evaluateInPage(page, 'pmm', { impl: 'msmpi', N: '100', M: '20000' }), 'from the hash');
      assert.deepEqual(await hashParams(page), { model: 'pmm', impl: 'msmpi', N: '100', M: '20000' }, 'the hash is kept');
      const current = await page.$$eval('#tables [data-table=table2] tr.row-current', (rs) => rs.map((r) => r.cells[0].textContent));
      assert.deepEqual(current, ['MS-MPI'], 'Table 2 marks the current implementation');
    });
  });

  test('changing the hash after load updates the form', async () => {
    await withPage(env, {}, async ({ page }) => {
      await page.evaluate(() => { location.hash = '#model=pmm&impl=fox&N=49&M=8000'; });
      await page.waitForFunction(() => document.querySelector('input[name=impl][value=fox]').checked);
      assert.equal(await page.inputValue('#f-N'), '49');
      assert.equal(await page.inputValue('#f-M'), '8000');
      await assertOutputsShow(page, await evaluateInPage(page, 'pmm', { impl: 'fox', N: '49', M: '8000' }), 'after hashchange');
    });
  });

  test('a bad value in the hash shows at its field on load', async () => {
    await withPage(env, { hash: '#model=pmm&N=30' }, async ({ page }) => {
      assert.equal(await page.inputValue('#f-N'), '30');
      assert.match(await page.$eval('.field[data-key=N] .field-error', (e) => e.textContent), /25.*36.*expected/);
      for (const text of Object.values(await outputTexts(page))) assert.equal(text, '—');
    });
  });

  test('the Table 3 preset "MS.MPI Tempest 20 Gbps" loads its rates', async () => {
    await withPage(env, {}, async ({ page }) => {
      await page.selectOption('#preset', 't3-msmpi-tempest-20gbps');
      assert.equal(await page.isChecked('input[name=impl][value=msmpi]'), true, 'impl is msmpi');
      const out = await outputTexts(page);
      // The paper prints 2.205e-8; the model gives 2.201e-8 from the printed rates.
      assert.ok(out.coef_M2.startsWith('2.201'), `coef_M2 shows "${out.coef_M2}"`);
      assert.match(out.coef_M2, /× 10⁻⁸$/);
      assert.equal(out.coef_M3, '9.259 × 10⁻¹²');
      assert.equal((await hashParams(page)).impl, 'msmpi', 'the hash records the implementation');
      assert.notEqual(await page.$eval('#preset-note', (e) => e.textContent), '', 'the preset says where its values come from');
      // Editing a field afterwards leaves the preset.
      await page.fill('#f-M', '8000');
      assert.equal(await page.inputValue('#preset'), '');
    });
  });

  test('the Table 3 reproduction has 4 agreeing and 3 disagreeing rows', async () => {
    await withPage(env, {}, async ({ page }) => {
      const card = '#tables section.table-card[data-table=table3]';
      assert.equal(await page.locator(`${card} tr.row-agrees`).count(), 4);
      assert.equal(await page.locator(`${card} tr.row-disagrees`).count(), 3);
      // Every disagreeing row is explained by a remark right under it.
      const remarks = await page.$$eval(`${card} tr.row-disagrees`, (rows) =>
        rows.map((r) => (r.nextElementSibling?.classList.contains('remark') ? r.nextElementSibling.textContent : null)));
      for (const r of remarks) assert.ok(r && r.length > 20, `a remark follows each disagreeing row: ${r}`);
      assert.equal(await page.locator('#tables section.table-card[data-table=table2] tr.row-current').count(), 1);
    });
  });

  test('window.isoperf.evaluate throws an Error naming N for N = 30', async () => {
    await withPage(env, {}, async ({ page }) => {
      const r = await page.evaluate(() => {
        try {
          const out = window.isoperf.evaluate('pmm', { N: 30 });
          return { threw: false, out };
        } catch (e) {
          return { threw: true, isError: e instanceof Error, message: String(e?.message), key: e?.key, fields: e?.fields };
        }
      });
      assert.equal(r.threw, true, `evaluate threw (returned ${JSON.stringify(r.out)})`);
      assert.equal(r.isError, true, 'the thrown value is an Error');
      assert.match(r.message, /\bN\b/, `the message mentions N: "${r.message}"`);
      assert.match(r.message, /25.*36/, 'the message names the nearest squares');
      assert.equal(r.key, 'N');
      assert.deepEqual(r.fields?.map((f) => f.key), ['N']);

      const problems = await page.evaluate(() => window.isoperf.check('pmm', { N: 30 }));
      assert.deepEqual(problems.map((p) => p.key), ['N'], 'check reports the same field');
    });
  });
});

// Regressions: bugs found while writing the tests above.
describe('regressions', () => {
  test('a refused value stays in the hash, so the link reproduces the view', async () => {
    await withPage(env, {}, async ({ page }) => {
      await page.fill('#f-N', '0x19');
      const s = await snapshot(page);
      assert.deepEqual(s.invalid, ['N'], 'the page refuses 0x19');
      assert.equal(s.hash.N, '0x19', 'the hash keeps what the form shows');
    });
  });

  test('a T_flops so small that results would overflow is refused at the field', async () => {
    await withPage(env, {}, async ({ page }) => {
      await page.fill('#f-t_flops', '1e-320');
      await afterFrames(page);
      const s = await snapshot(page);
      assert.deepEqual(s.invalid, ['t_flops']);
      assert.match(s.fields.t_flops.error, /1e-18 ≤ value ≤ 1/);
      const hint = await page.$eval('#f-t_flops-hint', (h) => h.textContent);
      assert.doesNotMatch(hint, /—|Infinity/, `the rate hint: "${hint}"`);
    });
  });

  test('Table 2 "live" is not shown as current while the form is invalid', async () => {
    await withPage(env, {}, async ({ page }) => {
      await page.fill('#f-N', '30');
      const table2 = await page.$eval('#tables [data-table=table2]', (t) => ({
        visible: t.checkVisibility(),
        stale: Boolean(t.closest('.stale')),
        title: t.querySelector('h3')?.textContent ?? '',
      })).catch(() => ({ visible: false }));
      assert.ok(!table2.visible || table2.stale || !/N = 25\b/.test(table2.title),
        `Table 2 still presents the old parameters as live: "${table2.title}"`);
    });
  });
});

describe('numbers and words', () => {

  test('notation is set with subscripts on every tab, never typed out, and plain where markup cannot go', async () => {
    for (const model of MODELS) {
      await withPage(env, { hash: `#model=${model}` }, async ({ page }) => {
        await afterFrames(page);
        const text = await visibleText(page);
        assert.doesNotMatch(text, /_\{/, `${model}: no typed-out t_{N+1} on the page`);
        assert.doesNotMatch(text, /<\/?sub>/, `${model}: no subscript mark shown as text`);
        assert.doesNotMatch(text, /(^|[^\d.,])1 (processors|tasks|mappers|reducers|intervals|groups|pipelines|values|points)\b/, `${model}: no "1 <plural>"`);
        // Attributes and menu options cannot hold elements: plain text there.
        const plain = await page.evaluate(() => [
          ...[...document.querySelectorAll('[title], [aria-label], [placeholder]')].flatMap((e) => ['title', 'aria-label', 'placeholder'].map((a) => e.getAttribute(a) ?? '')),
          ...[...document.querySelectorAll('option')].map((o) => o.textContent),
        ]);
        for (const t of plain) assert.doesNotMatch(t, /<\/?sub>|_\{/, `${model}: plain text "${t}"`);
        // Subscripts are <sub> elements holding text only.
        const subs = await page.$$eval('main sub, #form sub, #outputs sub, #tables sub, #charts sub', (ss) => ss.map((x) => [x.children.length, x.textContent]));
        // A model whose notation has subscripts (its registry marks them) shows them set.
        const marked = await page.evaluate((id) => JSON.stringify(window.isoperf.models().find((m) => m.id === id)).includes('<sub>'), model);
        if (marked) assert.ok(subs.length > 0, `${model}: the page sets some subscripts`);
        for (const [children, t] of subs) assert.ok(children === 0 && t.length > 0, `${model}: <sub> holds text only: "${t}"`);
      });
    }
    // The audit's examples: t_{N+1} on the mapreduce card, BW_{CTI,p} in scaling's help.
    await withPage(env, { hash: '#model=mapreduce' }, async ({ page }) => {
      const label = await page.$eval('#outputs .output[data-output=t_shuffle] .output-label', (l) => l.innerHTML);
      assert.equal(label, 'End of shuffle t<sub>N+1</sub>');
      const help = await page.$eval('#outputs .output[data-output=t_shuffle]', (o) => o.title);
      assert.doesNotMatch(help, /<sub>/, `the card's tooltip is plain: "${help}"`);
    });
  });

  test('numbers read the same on cards, tables and chart ticks: 10⁻⁴, not e-4', async () => {
    await withPage(env, {}, async ({ page }) => {
      const tables = await page.$eval('#tables', (t) => t.innerText);
      assert.match(tables, /× 10⁻⁸/, 'tables use the cards\' × 10ⁿ');
      assert.doesNotMatch(tables, /\d\.?\d*e[-+]?\d/, 'no 1.5e-4 in tables');
      const remarks = await page.$eval('#outputs', (o) => o.innerText);
      assert.doesNotMatch(remarks, /\d\.?\d*e[-+]?\d/, 'no 1.5e-4 on the cards');
    });
  });

  test('"Link copied." is announced politely and clears after a few seconds', async () => {
    await withPage(env, {}, async ({ page }) => {
      await page.evaluate(() => { Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => {} }, configurable: true }); });
      const status = page.locator('#copy-status');
      assert.equal(await status.getAttribute('aria-live'), 'polite');
      await page.click('#copy-link');
      await page.waitForFunction(() => document.getElementById('copy-status').textContent === 'Link copied.');
      await page.waitForFunction(() => document.getElementById('copy-status').textContent === '', null, { timeout: 8_000 });
    });
  });
});
