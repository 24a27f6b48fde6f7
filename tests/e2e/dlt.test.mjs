// End-to-end tests of the `dlt` model (divisible load on a star) in headless
// Chromium: the tab, the published reproduction values, the charts and their
// notes, presets from the URL and the preset menu, the infeasible m, the
// heterogeneous per-processor table, bad input, and agreement with the CLI.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import {
  CLI, afterFrames, buildStaleness, chartInk, chartNotes, chartStates, evaluateInPage, fieldMessages,
  formatInPage, hasCli, hashParams, listItems, listRows, openPage, outputTexts, pageProblems, parseDisplayed,
  reloadReady, showsValue, snapshot, startEnv, stopEnv, visibleText, waitForCharts, withPage, assertCleanPage,
} from './helpers.mjs';

const run = promisify(execFile);
const NO_CLI = hasCli() ? false : `the native CLI ${CLI} does not exist; build it with \`cargo build\``;

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const LIST = 'form .field.list-field[data-group=processors]';
const cell = (key, row) => `#form input[data-list=${key}][data-row="${row}"]`;
const HETERO = 'input[name=processors][value=heterogeneous]';

/** SPEC: A = 1, C = 1e-6, S = 1e2, V = 1e3. */
const PUBLISHED_T = [1100.001, 650.000775, 533.3340667, 500.00075];

/** What the page shows for an output value (outputs of every kind). */
async function displayedFor(page, values) {
  const numbers = Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'number'));
  const formatted = await formatInPage(page, numbers);
  const items = await formatInPage(page, Object.fromEntries(Object.entries(values)
    .filter(([, v]) => Array.isArray(v)).flatMap(([k, xs]) => xs.map((x, i) => [`${k}.${i}`, x]))));
  return Object.fromEntries(Object.entries(values).map(([k, v]) => {
    if (v === null) return [k, '—'];
    if (typeof v === 'boolean') return [k, v ? 'yes' : 'no'];
    if (Array.isArray(v)) return [k, v.length <= 6 ? v.map((_, i) => items[`${k}.${i}`]).join(', ') : null];
    return [k, formatted[k]];
  }));
}

/** Asserts every output shows what the page's formatter makes of `values`. */
async function assertOutputsShow(page, values, context) {
  const shown = await outputTexts(page);
  assert.deepEqual(Object.keys(shown).sort(), Object.keys(values).sort(), `${context}: one output element per output`);
  const expected = await displayedFor(page, values);
  for (const key of Object.keys(values)) {
    if (expected[key] === null) continue; // a long array, abbreviated
    assert.equal(shown[key], expected[key], `${context}: output ${key} (value ${JSON.stringify(values[key])})`);
  }
}

/** No number anywhere: every output shows "—". */
function assertNoResults(outputs, context) {
  for (const [k, text] of Object.entries(outputs)) assert.equal(text, '—', `${context}: output ${k} shows no number`);
}

/** The rows of the schedule table: [{ processor, alpha, share }]. */
function scheduleRows(page) {
  return page.$$eval('#tables section.table-card[data-table=schedule] tbody tr:not(.remark)', (rows) =>
    rows.map((r) => ({ processor: r.cells[0].textContent, alpha: r.cells[1].textContent, share: r.cells[2].textContent })));
}

async function switchToHeterogeneous(page) {
  await page.check(HETERO);
  await page.waitForFunction(() => document.querySelector('#form .field.list-field[data-group=processors]')?.checkVisibility());
}

describe('dlt: loading', () => {
  test('the dlt tab loads with the default prediction, no errors and no foreign requests', async () => {
    const { page, log, close } = await openPage(env);
    try {
      const origin = new URL(env.url).origin;
      await page.click('#model-tabs .tab[data-model=dlt]');
      await page.waitForFunction(() => document.querySelector('#outputs .output[data-output=feasible]'));
      await afterFrames(page);

      assert.equal(await page.$eval('#model-tabs .tab[data-model=dlt]', (t) => t.getAttribute('aria-current')), 'page');
      assert.equal(await page.$eval('#model-tabs .tab[data-model=pmm]', (t) => t.getAttribute('aria-current')), 'false');
      assert.deepEqual(await hashParams(page), { model: 'dlt' });
      assert.equal(await page.isChecked('input[name=processors][value=identical]'), true, 'identical processors by default');
      assert.equal(await page.inputValue('#f-m'), '4');
      assert.equal(await page.inputValue('#f-V'), '1000');

      const out = await outputTexts(page);
      assert.equal(out.T, '500.0', 'T(4) to four significant figures');
      assert.ok(showsValue(out.T, 500.00075));
      assert.equal(out.T1, '1100');
      assert.ok(showsValue(out.T1, 1100.001));
      assert.equal(out.feasible, 'yes');
      assert.equal(out.m_max, '4');
      assert.equal(out.m_used, '4');
      assert.equal(out.alpha, '—', 'α is listed for heterogeneous processors only');
      await assertOutputsShow(page, await evaluateInPage(page, 'dlt', {}), 'defaults');

      const s = await snapshot(page);
      assert.equal(s.status.hidden, true, 'the status banner is hidden');
      assert.deepEqual(s.invalid, [], 'no field is invalid');
      assert.equal(await page.$eval('#remarks', (r) => r.children.length), 0, 'no warning on the defaults');
      assert.equal(await page.locator('#form .field-warning').count(), 0);
      const charts = await chartStates(page);
      assert.deepEqual(Object.keys(charts).sort(), ['efficiency', 'energy', 'gantt', 'speedup']);
      for (const [id, c] of Object.entries(charts)) {
        assert.equal(c.stale, false, `chart ${id} is not stale`);
        assert.equal(c.note, '', `chart ${id} has no error`);
      }
      assert.deepEqual(
        await page.$$eval('#tables section.table-card', (ts) => ts.map((t) => t.dataset.table)),
        ['schedule', 'reproduction'],
      );

      assertCleanPage(log, origin);
    } finally {
      await close();
    }
  });

  test('the published schedule lengths T(1…4) are reproduced and m = 5 is infeasible', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      for (const [i, published] of PUBLISHED_T.entries()) {
        const out = await evaluateInPage(page, 'dlt', { m: String(i + 1) });
        assert.equal(out.feasible, true, `m = ${i + 1} is feasible`);
        assert.ok(Math.abs(out.T - published) <= 5e-10 * published, `T(${i + 1}) = ${out.T}, published ${published}`);
      }
      const five = await evaluateInPage(page, 'dlt', { m: '5' });
      assert.equal(five.feasible, false, 'm = 5 is infeasible');
      assert.equal(five.m_max, 4);

      const card = '#tables section.table-card[data-table=reproduction]';
      const rows = await page.$$eval(`${card} tbody tr:not(.remark)`, (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent)));
      assert.equal(rows.length, 5, 'one row per m = 1 … 5');
      for (const [i, published] of PUBLISHED_T.entries()) {
        assert.equal(rows[i][0], String(i + 1));
        assert.ok(Math.abs(Number(rows[i][1]) - published) < 1e-9 * published, `published T(${i + 1}): ${rows[i][1]}`);
        assert.ok(Math.abs(Number(rows[i][2]) - published) <= 5e-10 * published, `closed form T(${i + 1}): ${rows[i][2]}`);
        assert.ok(Math.abs(Number(rows[i][3]) - published) <= 5e-10 * published, `recursion T(${i + 1}): ${rows[i][3]}`);
      }
      assert.match(rows[4][1], /infeasible/);
      assert.equal(await page.locator(`${card} tr.row-agrees`).count(), 5, 'every row agrees');
      assert.equal(await page.locator(`${card} tr.row-disagrees`).count(), 0);
    });
  });
});

describe('dlt: charts', () => {
  test('the Gantt chart and the E-vs-T chart are drawn (non-blank canvases)', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      await waitForCharts(page);
      const states = await chartStates(page);
      const ink = await chartInk(page);
      for (const id of ['gantt', 'energy']) {
        const s = states[id];
        assert.ok(s, `chart ${id} exists`);
        assert.equal(s.note, '', `chart ${id} reports no error`);
        assert.ok(s.clientWidth > 100, `chart ${id} is laid out (clientWidth ${s.clientWidth})`);
        assert.ok(s.width !== 300 || s.height !== 150, `chart ${id} was sized by the page`);
        const k = ink[id];
        assert.ok(k.ink > 5000 && k.share > 0.02, `chart ${id} has ink: ${k.ink} pixels (${(100 * k.share).toFixed(1)}%)`);
        assert.ok(k.colours >= 3, `chart ${id} has several colours (${k.colours})`);
      }
      // The data, not just axes and grid: the Gantt bars fill much of the plot,
      // the energy curve and its points are a thin line.
      assert.ok(ink.gantt.coloured > 5000, `the Gantt chart has coloured bars (${ink.gantt.coloured} pixels)`);
      assert.ok(ink.energy.coloured > 300, `the energy chart has a coloured curve (${ink.energy.coloured} pixels)`);
      for (const id of ['speedup', 'efficiency']) assert.ok(ink[id].coloured > 300, `chart ${id} has a coloured curve`);

      // They are drawn for the current inputs: a change redraws both.
      await page.fill('#f-m', '3');
      await afterFrames(page);
      const after = await chartInk(page);
      for (const id of ['gantt', 'energy']) {
        assert.notEqual(after[id].sum, ink[id].sum, `chart ${id} changed with m`);
        assert.ok(after[id].coloured > 300, `chart ${id} still has data`);
      }
    });
  });

  test('heterogeneous processors get a Gantt chart too', async () => {
    await withPage(env, { hash: '#model=dlt&processors=heterogeneous&A_list=0.5,1,1,2' }, async ({ page }) => {
      await waitForCharts(page);
      const states = await chartStates(page);
      const ink = await chartInk(page);
      for (const [id, s] of Object.entries(states)) assert.equal(s.note, '', `chart ${id} reports no error`);
      assert.ok(ink.gantt.coloured > 5000, `the Gantt chart has coloured bars (${ink.gantt.coloured} pixels)`);
      assert.ok(ink.energy.coloured > 300, `the energy chart has a curve (${ink.energy.coloured} pixels)`);
    });
  });
});

describe('dlt: presets', () => {
  test('#model=dlt&V=1e13&m=1000 restores the fields and the energy chart has an interior minimum', async () => {
    await withPage(env, { hash: '#model=dlt&V=1e13&m=1000' }, async ({ page }) => {
      await waitForCharts(page);
      assert.equal(await page.inputValue('#f-V'), '1e13');
      assert.equal(await page.inputValue('#f-m'), '1000');
      assert.equal(await page.isChecked('input[name=processors][value=identical]'), true);
      assert.deepEqual(await hashParams(page), { model: 'dlt', V: '1e13', m: '1000' }, 'the hash is kept');
      await assertOutputsShow(page, await evaluateInPage(page, 'dlt', { V: '1e13', m: '1000' }), 'V=1e13, m=1000');
      const note = (await chartNotes(page)).energy;
      assert.match(note, /^E has an interior minimum/, `energy note: "${note}"`);
    });
  });

  test('#model=dlt (V = 1e3) has no interior minimum', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      await waitForCharts(page);
      const note = (await chartNotes(page)).energy;
      assert.match(note, /^No interior minimum/, `energy note: "${note}"`);
    });
  });

  test('the preset energy-v1e13 gives the interior minimum, energy-v1e3 none', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      const presets = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter(Boolean));
      for (const id of ['energy-v1e13', 'energy-v1e3', 'infeasible-m5', 'heterogeneous-4']) {
        assert.ok(presets.includes(id), `preset ${id} is offered (${presets.join(', ')})`);
      }

      await page.selectOption('#preset', 'energy-v1e13');
      await waitForCharts(page);
      assert.equal(Number(await page.inputValue('#f-V')), 1e13);
      assert.equal(await page.inputValue('#f-m'), '1000');
      for (const [key, value] of [['A', 1], ['C', 1e-6], ['S', 1e2], ['P_N', 50], ['P_C', 200], ['k', 3]]) {
        assert.equal(Number(await page.inputValue(`#f-${key}`)), value, `${key} is the slide's ${value}`);
      }
      const h = await hashParams(page);
      assert.equal(Number(h.V), 1e13, 'the hash holds V');
      assert.equal(h.m, '1000', 'the hash holds m');
      assert.notEqual(await page.$eval('#preset-note', (e) => e.textContent), '', 'the preset says where it comes from');
      assert.match((await chartNotes(page)).energy, /^E has an interior minimum/);
      // The same view as the URL gives.
      await assertOutputsShow(page, await evaluateInPage(page, 'dlt', { V: '1e13', m: '1000' }), 'preset energy-v1e13');

      await page.selectOption('#preset', 'energy-v1e3');
      await waitForCharts(page);
      assert.equal(Number(await page.inputValue('#f-V')), 1e3);
      assert.match((await chartNotes(page)).energy, /^No interior minimum/);
    });
  });

  test('the preset heterogeneous-4 fills the per-processor table', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      await page.selectOption('#preset', 'heterogeneous-4');
      await afterFrames(page);
      assert.equal(await page.isChecked(HETERO), true);
      const rows = await listRows(page, 'processors');
      assert.deepEqual(rows.map((r) => Number(r.A_list)), [0.5, 1, 1, 2]);
      assert.deepEqual(rows.map((r) => Number(r.C_list)), [1e-6, 1e-6, 2e-6, 1e-6]);
      assert.deepEqual(rows.map((r) => Number(r.S_list)), [50, 50, 50, 50]);
      const out = await outputTexts(page);
      assert.notEqual(out.alpha, '—', 'every α_i is listed');
      assert.equal(out.alpha.split(', ').length, 4);
    });
  });
});

describe('dlt: infeasible m', () => {
  test('typing m = 5 shows m_max = 4, a warning at the top and at m, and a 4-row schedule', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      await page.click('#f-m', { clickCount: 3 });
      await page.keyboard.type('5');
      await afterFrames(page);
      assert.equal(await page.inputValue('#f-m'), '5');
      assert.deepEqual(await hashParams(page), { model: 'dlt', m: '5' });

      const s = await snapshot(page);
      assert.deepEqual(s.invalid, [], 'm = 5 is valid input, just infeasible');
      assert.equal(s.status.hidden, true, 'results are shown');
      assert.equal(s.outputs.feasible, 'no');
      assert.equal(s.outputs.m_max, '4');
      assert.equal(s.outputs.m_used, '4');
      assert.equal(s.outputs.T, '500.0', 'the schedule of m_max = 4 processors');

      const warnings = await page.$$eval('#remarks .remark-warning', (ws) => ws.map((w) => w.textContent));
      assert.equal(warnings.length, 1, `one warning: ${JSON.stringify(warnings)}`);
      assert.match(warnings[0], /cannot all be activated/);
      assert.match(warnings[0], /mmax = 4/, "the warning names m_max (its text content: m<sub>max</sub>)");
      assert.equal(await page.locator('#remarks .remark-warning').first().isVisible(), true);
      const atM = await page.$$eval('#form .field[data-key=m] .field-warning', (ws) => ws.map((w) => w.textContent));
      assert.equal(atM.length, 1, 'one warning at the m field');
      assert.match(atM[0], /cannot all be activated/);
      assert.equal(await page.locator('#form .field-warning').count(), 1, 'and at no other field');

      const remarks = await page.evaluate(() => window.isoperf.remarks('dlt', { m: '5' }));
      assert.ok(remarks.some((r) => r.key === 'm' && r.level === 'warning' && /cannot all be activated/.test(r.text)),
        `window.isoperf.remarks reports it: ${JSON.stringify(remarks)}`);

      const rows = await scheduleRows(page);
      assert.deepEqual(rows.map((r) => r.processor), ['P1', 'P2', 'P3', 'P4'], 'exactly 4 processor rows');
      // No negative (or missing) load part: in the table …
      for (const r of rows) {
        assert.ok(parseDisplayed(r.alpha) > 0, `${r.processor}: α = "${r.alpha}"`);
        assert.match(r.share, /^\d+(\.\d+)?%$/, `${r.processor}: share "${r.share}"`);
      }
      // … nor in the outputs …
      for (const key of ['alpha_1', 'alpha_m']) assert.ok(parseDisplayed(s.outputs[key]) > 0, `${key} = "${s.outputs[key]}"`);
      const out = await evaluateInPage(page, 'dlt', { m: '5' });
      assert.ok(out.alpha_m > 0 && out.alpha_1 > 0, 'the load parts are positive in the API too');
      // … and nothing broken anywhere on the page.
      const text = await visibleText(page);
      assert.doesNotMatch(text, /NaN|Infinity|undefined/, 'no NaN, Infinity or undefined in the visible text');
      assert.doesNotMatch(text, /α\S*\s*=\s*[-−]\d/, 'no negative α shown');

      // Back to 4: the warnings go away.
      await page.fill('#f-m', '4');
      await afterFrames(page);
      assert.equal(await page.locator('#remarks .remark-warning').count(), 0);
      assert.equal(await page.locator('#form .field-warning').count(), 0);
      assert.equal((await outputTexts(page)).feasible, 'yes');
    });
  });

  test('the preset infeasible-m5 shows the same', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      await page.selectOption('#preset', 'infeasible-m5');
      await afterFrames(page);
      assert.equal(await page.inputValue('#f-m'), '5');
      const out = await outputTexts(page);
      assert.equal(out.feasible, 'no');
      assert.equal(out.m_max, '4');
      assert.match(await page.$eval('#remarks', (r) => r.textContent), /cannot all be activated/);
      assert.equal((await scheduleRows(page)).length, 4);
    });
  });
});

describe('dlt: heterogeneous processors', () => {
  test('the per-processor table: switching, editing, adding and removing rows', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      assert.equal(await page.$eval(LIST, (f) => f.checkVisibility()), false, 'the table is hidden for identical processors');
      const identical = await outputTexts(page);

      await switchToHeterogeneous(page);
      assert.deepEqual(await hashParams(page), { model: 'dlt', processors: 'heterogeneous' });
      let rows = await listRows(page, 'processors');
      assert.equal(rows.length, 4, 'the table has 4 rows');
      for (const r of rows) assert.deepEqual(Object.keys(r).sort(), ['A_list', 'C_list', 'S_list'], 'one column per list');
      assert.deepEqual(rows.map((r) => Number(r.A_list)), [1, 1, 1, 1]);
      assert.equal(await page.locator(`${LIST} button.list-add`).isVisible(), true);
      assert.equal(await page.locator(`${LIST} button.list-remove`).count(), 4);
      assert.equal(await page.$eval(LIST, (f) => f.querySelector('.list-count').textContent), '4 rows');
      // The default lists are the identical defaults: same schedule, α now listed.
      const hetero = await outputTexts(page);
      assert.equal(hetero.T, identical.T);
      assert.equal(hetero.alpha.split(', ').length, 4, `α lists 4 parts: "${hetero.alpha}"`);
      assert.equal(await page.$eval('#form .field[data-key=m]', (f) => f.classList.contains('inapplicable')), true, 'm does not apply');

      // Edit A of row 1.
      await page.fill(cell('A_list', 0), '0.5');
      await afterFrames(page);
      const edited = await outputTexts(page);
      assert.notEqual(edited.T, hetero.T, 'T changed');
      assert.notEqual(edited.alpha, hetero.alpha, 'α changed');
      let h = await hashParams(page);
      assert.match(h.A_list ?? '', /^0\.5\b/, `the hash has A_list=0.5,…: ${JSON.stringify(h)}`);
      assert.deepEqual(listItems(h.A_list).map(Number), [0.5, 1, 1, 1]);
      assert.ok((await page.evaluate(() => decodeURIComponent(location.hash.replace(/\+/g, ' ')))).includes('A_list=0.5'));
      const expected = await evaluateInPage(page, 'dlt', { processors: 'heterogeneous', A_list: '0.5,1,1,1' });
      await assertOutputsShow(page, expected, 'A_1 = 0.5');
      assert.equal(expected.alpha.length, 4);
      assert.ok(expected.alpha[0] > expected.alpha[1], 'the fast processor gets the most load');

      // Add a row: 5 rows, 5 items in every list of the hash.
      await page.click(`${LIST} button.list-add`);
      await afterFrames(page);
      rows = await listRows(page, 'processors');
      assert.equal(rows.length, 5, 'the table has 5 rows');
      assert.deepEqual(rows[4], rows[3], 'the new row repeats the last one');
      h = await hashParams(page);
      for (const key of ['A_list', 'C_list', 'S_list']) {
        assert.equal(listItems(h[key]).length, 5, `the hash has 5 items of ${key}: ${h[key]}`);
      }
      const five = await evaluateInPage(page, 'dlt', { processors: 'heterogeneous', A_list: h.A_list, C_list: h.C_list, S_list: h.S_list });
      await assertOutputsShow(page, five, '5 rows');
      // V = 1e3 cannot activate 5 such processors: the warning sits at the table.
      assert.equal((await outputTexts(page)).feasible, 'no');
      assert.match((await fieldMessages(page)).A_list.warning, /cannot all be activated/);

      // Remove row 1 (the fast one): back to the default lists.
      await page.click(`${LIST} button.list-remove[data-row="0"]`);
      await afterFrames(page);
      rows = await listRows(page, 'processors');
      assert.equal(rows.length, 4, 'the table has 4 rows again');
      assert.deepEqual(rows.map((r) => Number(r.A_list)), [1, 1, 1, 1], 'the removed row is the first');
      assert.deepEqual(await hashParams(page), { model: 'dlt', processors: 'heterogeneous' }, 'the lists are the defaults again');
      assert.deepEqual(await outputTexts(page), hetero, 'the results are those of the default lists');
      assert.equal(await page.locator('#form .field-warning').count(), 0);

      // Remove down to one row: its remove button is disabled.
      for (let n = 4; n > 1; n -= 1) await page.click(`${LIST} button.list-remove[data-row="${n - 1}"]`);
      assert.equal((await listRows(page, 'processors')).length, 1);
      assert.equal(await page.locator(`${LIST} button.list-remove[data-row="0"]`).isDisabled(), true, 'the last row cannot be removed');
      assert.equal((await outputTexts(page)).m_used, '1');

      // The hash reproduces the view.
      const before = await outputTexts(page);
      await reloadReady(page);
      assert.equal(await page.isChecked(HETERO), true);
      assert.equal((await listRows(page, 'processors')).length, 1);
      assert.deepEqual(await outputTexts(page), before);
    });
  });

  for (const { row, value } of [{ row: 0, value: 'x' }, { row: 2, value: 'x' }, { row: 1, value: '-1' }]) {
    test(`A of row ${row + 1} = ${JSON.stringify(value)} is refused at the table, naming the position`, async () => {
      await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
        await switchToHeterogeneous(page);
        const good = await outputTexts(page);
        await page.fill(cell('A_list', row), value);
        await afterFrames(page);

        const m = (await fieldMessages(page)).A_list;
        assert.equal(m.invalid, true, 'the table is marked invalid');
        assert.equal(m.errorVisible, true, 'the message is visible');
        assert.match(m.error, new RegExp(`value ${row + 1}\\b`), `the message names the position: "${m.error}"`);
        assert.match(m.error, /expected/, `the message states what is valid: "${m.error}"`);
        assert.match(m.error, /1e-15 ≤ value ≤ 1e9/, `the message states the valid range: "${m.error}"`);
        const s = await snapshot(page);
        assert.deepEqual(s.invalid, ['A_list'], 'only the table is invalid');
        assert.equal(s.status.hidden, false, 'the status banner shows');
        assert.ok(s.fields.A_list.ariaInvalid.every((a) => a === 'true'), 'its inputs are aria-invalid');
        assertNoResults(s.outputs, `A row ${row + 1} = ${value}`);
        for (const [id, c] of Object.entries(s.charts)) assert.equal(c.stale, true, `chart ${id} is stale`);
        assert.equal(listItems(s.hash.A_list)[row], value, 'the hash keeps what the table shows');
        assert.doesNotMatch(await visibleText(page), /NaN|Infinity/);

        await page.fill(cell('A_list', row), '1');
        await afterFrames(page);
        assert.equal((await fieldMessages(page)).A_list.error, '', 'the message is gone');
        assert.deepEqual(await outputTexts(page), good, 'the results are back');
      });
    });
  }

  test('lists of unequal length from the URL are refused at C_list', async () => {
    await withPage(env, { hash: '#model=dlt&processors=heterogeneous&A_list=1,2,3&C_list=0.1,0.1' }, async ({ page }) => {
      await afterFrames(page);
      assert.equal(await page.isChecked(HETERO), true);
      const msgs = await fieldMessages(page);
      assert.match(msgs.C_list.error, /\b2\b.*\b3\b/, `C_list's message gives both lengths: "${msgs.C_list.error}"`);
      assert.match(msgs.C_list.error, /expected/);
      assert.equal(msgs.C_list.errorVisible, true, 'the message is visible');
      assert.equal(msgs.A_list.error, '', 'A_list itself is fine');
      const s = await snapshot(page);
      assert.equal(s.status.hidden, false);
      assertNoResults(s.outputs, 'unequal lengths');
      // The table shows the longest list, with an empty cell where C_list ends.
      const rows = await listRows(page, 'processors');
      assert.ok(rows.length >= 3);
      assert.equal(rows[2].C_list, '');
      assert.doesNotMatch(await visibleText(page), /NaN|Infinity/);

      const problems = await page.evaluate(() =>
        window.isoperf.check('dlt', { processors: 'heterogeneous', A_list: '1,2,3', C_list: '0.1,0.1' }));
      assert.ok(problems.some((p) => p.key === 'C_list'), `check reports C_list: ${JSON.stringify(problems)}`);
    });
  });
});

describe('dlt: bad input', () => {
  const BAD = [
    { key: 'm', value: '0' },
    { key: 'V', value: '-1' },
    { key: 'k', value: '1' },
    { key: 'A', value: '0' },
    { key: 'm', value: '2.5' },
    { key: 'e_target', value: '1.5' },
  ];
  for (const { key, value } of BAD) {
    test(`${key} = ${value} is refused at the field, and fixing it restores results`, async () => {
      await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
        const good = await page.inputValue(`#f-${key}`);
        const before = await snapshot(page);
        await page.fill(`#f-${key}`, value);
        await afterFrames(page);

        const bad = await snapshot(page);
        const message = bad.fields[key].error;
        assert.match(message, /expected .+/, `the message at ${key} states what is valid: "${message}"`);
        assert.equal(bad.fields[key].errorVisible, true, 'the message is visible');
        assert.deepEqual(bad.invalid, [key], `only ${key} is marked invalid`);
        assert.deepEqual(bad.fields[key].ariaInvalid, ['true']);
        assert.equal(bad.status.hidden, false, 'the status banner shows');
        assertNoResults(bad.outputs, `${key}=${value}`);
        for (const [id, c] of Object.entries(bad.charts)) {
          assert.equal(c.stale, true, `chart ${id} is stale`);
          assert.notEqual(c.note, '', `chart ${id} says why it is not drawn`);
        }
        assert.equal(bad.hash[key], value, 'the hash keeps the refused value');
        assert.doesNotMatch(await visibleText(page), /NaN|Infinity/, 'no visible NaN or Infinity');

        await page.fill(`#f-${key}`, good);
        await afterFrames(page);
        const fixed = await snapshot(page);
        assert.deepEqual(fixed.invalid, []);
        assert.equal(fixed.status.hidden, true);
        assert.deepEqual(fixed.outputs, before.outputs, 'the results are back');
        assert.deepEqual(fixed.hash, before.hash);
      });
    });
  }

  test('V_target out of reach shows "—" with a remark saying why', async () => {
    await withPage(env, { hash: '#model=dlt&m=3&V=5e4&A=0.02&C=0.003&S=1.5&e_target=0.99' }, async ({ page }) => {
      const out = await evaluateInPage(page, 'dlt', { m: '3', V: '5e4', A: '0.02', C: '0.003', S: '1.5', e_target: '0.99' });
      assert.equal(out.V_target, null);
      const card = await page.$eval('#outputs .output[data-output=V_target]', (o) => ({
        value: o.querySelector('output').textContent,
        remark: o.querySelector('.output-remark').textContent,
        remarkVisible: o.querySelector('.output-remark').checkVisibility(),
      }));
      assert.equal(card.value, '—');
      assert.match(card.remark, /out of reach/, `remark: "${card.remark}"`);
      assert.equal(card.remarkVisible, true);
      assert.equal((await snapshot(page)).status.hidden, true, 'the other results are shown');
      assert.doesNotMatch(await visibleText(page), /NaN|Infinity/);
    });
  });
});

// ---- the page and the native CLI -----------------------------------------------

/** Parameter sets as text, the way both the form and the CLI take them. */
const CASES = [
  {},
  { m: '1' },
  { m: '2' },
  { m: '3' },
  { m: '5' }, // infeasible: the schedule of m_max = 4
  { m: '1000', V: '1e13' },
  { m: '1000', V: '1e13', A: '1', C: '1e-6', S: '1e2', P_N: '50', P_C: '200', k: '3' },
  { m: '1000000', V: '1e18', C: '1e-9', A: '2e-3', S: '0.5' },
  { m: '3', V: '5e4', A: '0.02', C: '0.003', S: '1.5', e_target: '0.99' }, // V_target null
  { m: '7', C: '0', S: '0' },
  { m: '50', V: '1e6', A: '1e-15', C: '1e-12', S: '1e-9', k: '1.0001', P_C: '0', P_N: '1e9' }, // infeasible, tiny rates
  { processors: 'heterogeneous', A_list: '0.5,1,1,2' },
  { processors: 'heterogeneous', A_list: '0.5,1,1,2', C_list: '1e-6,1e-6,2e-6,1e-6', S_list: '50,50,50,50' },
  { processors: 'heterogeneous', V: '1e2', A_list: '0.5,1,1,2' }, // infeasible: only the first processor
  { processors: 'heterogeneous', A_list: '0.5,1,1,2,2', C_list: '1e-6,1e-6,1e-6,1e-6,1e-6', S_list: '100,100,100,100,100' }, // infeasible m = 5
  { processors: 'heterogeneous', A_list: '3', C_list: '0.01', S_list: '0' },
  {
    processors: 'heterogeneous', V: '1e9', e_target: '0.5',
    A_list: '1e-3,2e-3,5e-3,1e-2,2e-2,5e-2,0.1', C_list: '1e-5,1e-5,1e-5,1e-5,1e-5,1e-5,1e-5', S_list: '1,2,3,4,5,6,7',
  },
];

async function cli(command, params) {
  const args = [command, 'dlt', ...Object.entries(params).map(([k, v]) => `${k}=${v}`)];
  const { stdout } = await run(CLI, args, { timeout: 20_000 });
  return JSON.parse(stdout);
}

/** Every output: numbers bit for bit, null as null, booleans, arrays item by item. */
function assertSameOutputs(page, native, label) {
  label += buildStaleness();
  assert.deepEqual(Object.keys(page).sort(), Object.keys(native).sort(), `${label}: same outputs`);
  for (const [key, x] of Object.entries(native)) {
    const y = page[key];
    if (x === null) {
      assert.equal(y, null, `${label}: ${key}: page ${JSON.stringify(y)}, CLI null`);
    } else if (typeof x === 'boolean') {
      assert.equal(y, x, `${label}: ${key}: page ${y}, CLI ${x}`);
    } else if (Array.isArray(x)) {
      assert.ok(Array.isArray(y), `${label}: ${key} is an array in the page too (${JSON.stringify(y)})`);
      assert.equal(y.length, x.length, `${label}: ${key} has ${x.length} items`);
      x.forEach((xi, i) => {
        assert.equal(typeof xi, 'number', `${label}: ${key}[${i}] is numeric in the CLI`);
        assert.ok(Object.is(y[i], xi), `${label}: ${key}[${i}]: page ${y[i]} !== CLI ${xi}`);
      });
    } else {
      assert.equal(typeof x, 'number', `${label}: ${key} is numeric in the CLI (${JSON.stringify(x)})`);
      assert.ok(Object.is(y, x), `${label}: ${key}: page ${y} !== CLI ${x}`);
    }
  }
}

/** The same parameters as JS values: numbers and arrays of numbers. */
const asValues = (params) => Object.fromEntries(Object.entries(params).map(([k, v]) =>
  [k, k === 'processors' ? v : k.endsWith('_list') ? v.split(',').map(Number) : Number(v)]));

describe('dlt: page and native CLI', () => {
  test('window.isoperf.evaluate agrees with `isoperf eval dlt` to the last bit', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      const covered = { infeasible: 0, hetero: 0, nullTarget: 0 };
      for (const params of CASES) {
        const label = JSON.stringify(params);
        const native = await cli('eval', params);
        const [fromText, fromValues] = await page.evaluate(([a, b]) =>
          [window.isoperf.evaluate('dlt', a), window.isoperf.evaluate('dlt', b)], [params, asValues(params)]);
        assertSameOutputs(fromText, native, `${label} as text`);
        assertSameOutputs(fromValues, native, `${label} as values`);
        covered.infeasible += native.feasible === false;
        covered.hetero += Array.isArray(native.alpha);
        covered.nullTarget += native.V_target === null;
      }
      // The cases cover what they are meant to.
      assert.ok(covered.infeasible >= 3, `infeasible cases: ${covered.infeasible}`);
      assert.ok(covered.hetero >= 4, `heterogeneous cases: ${covered.hetero}`);
      assert.ok(covered.nullTarget >= 2, `null V_target cases: ${covered.nullTarget}`);
    });
  });

  test('the form, loaded from the URL, shows what the CLI computes', { skip: NO_CLI }, async () => {
    for (const params of [CASES[4], CASES[5], CASES[8], CASES[12], CASES[13], CASES[16]]) {
      const hash = '#' + new URLSearchParams({ model: 'dlt', ...params }).toString();
      await withPage(env, { hash }, async ({ page }) => {
        const native = await cli('eval', params);
        await assertOutputsShow(page, native, `${hash}${buildStaleness()}`);
      });
    }
  });

  test('tables agree with `isoperf tables dlt`', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      for (const params of [CASES[0], CASES[4], CASES[7], CASES[12], CASES[13]]) {
        const native = await cli('tables', params);
        const inPage = await page.evaluate((p) => window.isoperf.tables('dlt', p), params);
        assert.deepEqual(inPage, native, JSON.stringify(params) + buildStaleness());
      }
    });
  });
});

// ---- regressions: bugs seen while writing the tests above ------------------------

describe('dlt: regressions', () => {
  test('the interior-minimum note gives the T of the least energy (not "—")', async () => {
    await withPage(env, { hash: '#model=dlt&V=1e13&m=1000' }, async ({ page }) => {
      await waitForCharts(page);
      const note = (await chartNotes(page)).energy;
      assert.match(note, /^E has an interior minimum: \d+ processors use the least energy/);
      // The least-energy m (1557 here) is not on the sweep grid of the chart,
      // so the note lost the T where E is least.
      assert.doesNotMatch(note, /T = — s/, `energy note: "${note}"`);
    });
  });

  test('a bad list value while the lists are hidden does not block results invisibly', async () => {
    await withPage(env, { hash: '#model=dlt' }, async ({ page }) => {
      // A typo in the table, then back to identical processors (the table hides).
      await switchToHeterogeneous(page);
      await page.fill(cell('A_list', 0), 'x');
      await page.check('input[name=processors][value=identical]');
      await afterFrames(page);
      assert.equal(await page.$eval(LIST, (f) => f.checkVisibility()), false, 'the table is hidden');
      const s = await snapshot(page);
      const visibleErrors = Object.entries(await fieldMessages(page)).filter(([, m]) => m.error && m.errorVisible);
      // Either the unused list does not block the identical model, or the
      // user can see what to fix.
      assert.ok(s.status.hidden || visibleErrors.length > 0,
        `"${s.status.text}" while no field message is visible (A_list's is in the hidden table); outputs: ${s.outputs.T}`);
    });
    // The same from a link.
    await withPage(env, { hash: '#model=dlt&A_list=x' }, async ({ page }) => {
      const s = await snapshot(page);
      const visibleErrors = Object.entries(await fieldMessages(page)).filter(([, m]) => m.error && m.errorVisible);
      assert.ok(s.status.hidden || visibleErrors.length > 0, `from #model=dlt&A_list=x: "${s.status.text}" with no visible field message`);
    });
  });

  test('emptying a cell then adding a row keeps the other cells in their rows', async () => {
    await withPage(env, { hash: '#model=dlt&processors=heterogeneous&C_list=1e-6,2e-6,3e-6,4e-6' }, async ({ page }) => {
      await page.fill(cell('C_list', 1), '');
      await page.click(`${LIST} button.list-add`);
      const rows = await listRows(page, 'processors');
      assert.equal(rows.length, 5);
      assert.deepEqual(rows.slice(2, 4).map((r) => r.C_list), ['3e-6', '4e-6'],
        `C of rows 3 and 4 moved: ${JSON.stringify(rows.map((r) => r.C_list))}`);
    });
  });
});
