// End-to-end tests of the `pipeline` model (parallel-pipeline reduction with
// an M/M/1 leaf–spine–leaf switch path, Kuntraruk/Pottenger/Ross) in headless
// Chromium: the tab, the published reproduction values, the unit menus and
// their hints, the saturated and near-saturated switch, bad input, T_merge's
// fallback, the fixed communication time, and agreement with the CLI.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import {
  CLI, afterFrames, buildStaleness, chartInk, chartNotes, chartStates, evaluateInPage, fieldMessages,
  formatInPage, hasCli, hashParams, openPage, outputTexts, pageProblems, parseDisplayed, reloadReady,
  showsValue, snapshot, startEnv, stopEnv, visibleText, waitForCharts, withPage, assertCleanPage,
} from './helpers.mjs';

const run = promisify(execFile);
const NO_CLI = hasCli() ? false : `the native CLI ${CLI} does not exist; build it with \`cargo build\``;

let env;
before(async () => { env = await startEnv(); });
after(async () => { await stopEnv(env); });

const MODEL = 'pipeline';
const HOPS = ['leaf (up)', 'spine', 'leaf (down)'];
const CHARTS = ['comm', 'delay', 'speedup', 'time'];
const CHOICES = new Set(['L_unit', 'C_unit', 'drain', 'comm']);

/** Table XVI's sorting run: N = 512, P = 8, T_comp = 1.39 s, L = 8 (M), C = 1.28 (G). */
const SORTING = { N: '512', P: '8', t_comp: '1.39', L: '8' };
/** The saturating example: 20 MiB per step over 1.28 Gibit/s puts ρ_spine ≈ 1.405. */
const SATURATING = { ...SORTING, L: '20', L_unit: 'MiB', C_unit: 'Gibit/s' };
const SATURATING_HASH = '#model=pipeline&N=512&P=8&t_comp=1.39&L=20&L_unit=MiB&C_unit=Gibit/s';

const hashOf = (params) => '#' + new URLSearchParams({ model: MODEL, ...params }).toString();

/** Asserts every output shows what the page's formatter makes of `values` (null shows "—"). */
async function assertOutputsShow(page, values, context) {
  const shown = await outputTexts(page);
  assert.deepEqual(Object.keys(shown).sort(), Object.keys(values).sort(), `${context}: one output element per output`);
  const numbers = Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'number'));
  const formatted = await formatInPage(page, numbers);
  for (const [key, value] of Object.entries(values)) {
    if (value === null) {
      assert.equal(shown[key], '—', `${context}: output ${key} (null) shows "—"`);
    } else {
      assert.equal(shown[key], formatted[key], `${context}: output ${key} (value ${value})`);
      assert.ok(showsValue(shown[key], value), `${context}: output ${key} shows "${shown[key]}" for ${value}`);
    }
  }
}

/** No number anywhere: every output shows "—". */
function assertNoResults(outputs, context) {
  assert.ok(Object.keys(outputs).length > 0, `${context}: the outputs are listed`);
  for (const [k, text] of Object.entries(outputs)) assert.equal(text, '—', `${context}: output ${k} shows no number`);
}

/** The hint under a unit-bearing field as the page writes it: "= <x to 6 figures, no trailing zeros> <unit>". */
function hintFor(page, value, unit) {
  return page.evaluate(async ([v, u]) => {
    const { formatBase } = await import('/www/app.js');
    return `= ${formatBase(v)} ${u}`;
  }, [value, unit]);
}

const hint = (page, key) => page.$eval(`#f-${key}-hint`, (h) => h.textContent);

/** The rows of the breakdown table: [{ cls, cells: [...], remark }]. */
function breakdownRows(page) {
  return page.$$eval('#tables section.table-card[data-table=breakdown] tbody tr:not(.remark)', (rows) =>
    rows.map((r) => ({
      cls: r.className,
      cells: [...r.cells].map((c) => c.textContent),
      remark: r.nextElementSibling?.classList.contains('remark') ? r.nextElementSibling.textContent : null,
    })));
}

function tableTitle(page, id) {
  return page.$eval(`#tables section.table-card[data-table=${id}] h3`, (h) => h.textContent);
}

/** Whether the tables are shown for the current form (not dimmed and hidden from assistive tech). */
function tablesState(page) {
  return page.$eval('#tables', (t) => ({ stale: t.classList.contains('stale'), ariaHidden: t.getAttribute('aria-hidden') }));
}

async function choosePreset(page, id) {
  await page.selectOption('#preset', id);
  await afterFrames(page);
}

/** The preset's values from the registry, as the form's text. */
function presetValues(page, id) {
  return page.evaluate(([m, id]) => {
    const model = window.isoperf.models().find((x) => x.id === m);
    const preset = model.preset_groups.flatMap((g) => g.presets).find((p) => p.id === id);
    return Object.fromEntries(preset.values.map(([k, v]) => [k, String(v)]));
  }, [MODEL, id]);
}

// ---- loading -----------------------------------------------------------------------

describe('pipeline: loading', () => {
  test('the pipeline tab loads with T_total 76.88, the hop breakdown, drawn charts, no errors and no foreign requests', async () => {
    const { page, log, close } = await openPage(env);
    try {
      const origin = new URL(env.url).origin;
      await page.click('#model-tabs .tab[data-model=pipeline]');
      await page.waitForFunction(() => document.querySelector('#outputs .output[data-output=T_total]'));
      await waitForCharts(page);

      assert.equal(await page.$eval('#model-tabs .tab[data-model=pipeline]', (t) => t.getAttribute('aria-current')), 'page');
      assert.deepEqual(await hashParams(page), { model: 'pipeline' });
      assert.equal(await page.inputValue('#f-N'), '4096');
      assert.equal(await page.inputValue('#f-P'), '16');
      assert.equal(await page.inputValue('#f-L'), '23720');
      assert.equal(await page.inputValue('#f-L_unit'), 'B');
      assert.equal(await page.inputValue('#f-C'), '1.28');
      assert.equal(await page.inputValue('#f-C_unit'), 'Gbit/s');
      assert.equal(await page.isChecked('input[name=comm][value=mm1]'), true, 'the M/M/1 path by default');
      assert.equal(await page.isChecked('input[name=drain][value=false]'), true, 'no drain terms by default');

      const out = await outputTexts(page);
      assert.equal(out.T_total, '76.88', 'feature extraction on one 16-processor pipeline');
      assert.ok(showsValue(out.T_total, 76.87924245210698));
      assert.equal(out.steps, '510');
      assert.equal(out.processors, '16');
      assert.equal(out.L_bytes, '23720');
      assert.equal(out.C_bps, '1.280 × 10⁹');
      await assertOutputsShow(page, await evaluateInPage(page, MODEL, {}), 'defaults');

      const s = await snapshot(page);
      assert.equal(s.status.hidden, true, 'the status banner is hidden');
      assert.deepEqual(s.invalid, [], 'no field is invalid');
      assert.equal(await page.locator('#remarks .remark-warning').count(), 0, 'no warning on the defaults');
      assert.equal(await page.locator('#form .field-warning').count(), 0);

      // The breakdown: three hops and the T_comm total.
      assert.deepEqual(
        await page.$$eval('#tables section.table-card', (ts) => ts.map((t) => t.dataset.table)),
        ['breakdown', 'features', 'sorting'],
      );
      const rows = await breakdownRows(page);
      assert.equal(rows.length, 4, `3 hop rows and a total: ${JSON.stringify(rows.map((r) => r.cells[0]))}`);
      assert.deepEqual(rows.slice(0, 3).map((r) => r.cells[0]), HOPS);
      assert.match(rows[3].cells[0], /^Tcomm/, "T<sub>comm</sub> reads Tcomm as text");
      assert.equal(rows[3].cls, 'row-current');
      for (const r of rows.slice(0, 3)) {
        assert.equal(r.cls, 'row-plain', `${r.cells[0]} is not saturated`);
        assert.equal(r.remark, null);
        for (const c of r.cells.slice(1)) assert.ok(Number.isFinite(parseDisplayed(c)), `${r.cells[0]}: "${c}" is a number`);
      }
      assert.ok(Math.abs(parseDisplayed(rows[3].cells.at(-1)) - 4.494950041313438e-4) < 1e-7, `T_comm total: ${rows[3].cells.at(-1)}`);
      assert.deepEqual(await tablesState(page), { stale: false, ariaHidden: 'false' });

      // Every chart drawn, with data in colour.
      const states = await chartStates(page);
      assert.deepEqual(Object.keys(states).sort(), CHARTS);
      const ink = await chartInk(page);
      for (const id of CHARTS) {
        assert.equal(states[id].stale, false, `chart ${id} is not stale`);
        assert.equal(states[id].note, '', `chart ${id} has no error`);
        assert.ok(states[id].clientWidth > 100, `chart ${id} is laid out`);
        assert.ok(ink[id].ink > 5000 && ink[id].share > 0.02, `chart ${id} has ink: ${ink[id].ink} pixels`);
        assert.ok(ink[id].coloured > 300, `chart ${id} has coloured data (${ink[id].coloured} pixels)`);
      }
      assert.match((await chartNotes(page)).comm, /of the saturating size/);

      assertCleanPage(log, origin);
    } finally {
      await close();
    }
  });

  test('the reproduction tables: 12 feature-extraction rows and 4 sorting rows, all agreeing', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      const features = '#tables section.table-card[data-table=features]';
      const sorting = '#tables section.table-card[data-table=sorting]';
      assert.equal(await page.locator(`${features} tbody tr:not(.remark)`).count(), 12, 'Tables I-IV: 12 rows');
      assert.equal(await page.locator(`${features} tbody tr.row-agrees`).count(), 12, 'every feature row reproduces the paper');
      assert.equal(await page.locator(`${sorting} tbody tr:not(.remark)`).count(), 4, 'Table XVI: 4 rows');
      assert.equal(await page.locator(`${sorting} tbody tr.row-agrees`).count(), 4, 'every sorting row within 0.3%');
      const first = await page.$eval(`${sorting} tbody tr`, (r) => [...r.cells].map((c) => c.textContent));
      assert.deepEqual(first.slice(0, 3), ['512', '181', '208']);
      assert.ok(Math.abs(Number(first[3]) - 207.7) < 0.05, `binary reading of N = 512: ${first[3]}`);
      assert.ok(Math.abs(Number(first[5]) - 209.1) < 0.05, `SI reading of N = 512: ${first[5]}`);
      const row128 = await page.$$eval(`${features} tbody tr`, (rs) => rs.map((r) => [...r.cells].map((c) => c.textContent))
        .find((c) => c[0] === '128' && c[1] === '4096'));
      assert.equal(Number(row128[3]), 9, 'the paper predicts 9 s on 128 processors');
      assert.ok(Math.abs(Number(row128[4]) - 9.478) < 5e-4, `stated L and C: ${row128[4]}`);
      assert.ok(Math.abs(Number(row128[5]) - 9.61) < 5e-4, `printed 0.16 s: ${row128[5]}`);
    });
  });

  test('the feature-extraction presets give Tables I-IV with the stated L and C', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      const offered = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter(Boolean));
      assert.deepEqual(offered, ['features-16', 'features-32', 'features-64', 'features-128', 'eq12-printed', 'sorting-binary', 'sorting-si']);
      for (const [id, groups, t] of [['features-16', 1, '76.88'], ['features-32', 2, '38.36'], ['features-64', 4, '19.11'], ['features-128', 8, '9.478']]) {
        await choosePreset(page, id);
        assert.equal(await page.inputValue('#f-groups'), String(groups), `${id}: groups`);
        const out = await outputTexts(page);
        assert.equal(out.T_total, t, `${id}: T_total`);
        assert.equal(out.processors, String(16 * groups), `${id}: processors`);
        assert.notEqual(await page.$eval('#preset-note', (e) => e.textContent), '', `${id}: the preset says where it comes from`);
        const h = await hashParams(page);
        assert.equal(h.groups, groups === 1 ? undefined : String(groups), `${id}: the hash holds groups`);
      }
    });
  });
});

// ---- units ---------------------------------------------------------------------------

describe('pipeline: units', () => {
  test('switching L to KiB multiplies the hint by 1024, changes T_total and goes to the hash', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      assert.equal(await hint(page, 'L'), '= 23720 B');
      assert.equal(await hint(page, 'C'), await hintFor(page, 1.28e9, 'bit/s'));

      await page.fill('#f-L', '20');
      await afterFrames(page);
      assert.equal(await hint(page, 'L'), '= 20 B');
      const inBytes = await outputTexts(page);
      assert.equal(inBytes.L_bytes, '20');

      await page.selectOption('#f-L_unit', 'KiB');
      await afterFrames(page);
      assert.equal(await page.inputValue('#f-L'), '20', 'the number stays, the unit changes');
      assert.equal(await hint(page, 'L'), '= 20480 B', 'the hint is L × 1024 in bytes');
      const inKiB = await outputTexts(page);
      assert.equal(inKiB.L_bytes, '20480');
      assert.notEqual(inKiB.T_total, inBytes.T_total, 'T_total changed');
      assert.notEqual(inKiB.T_comm, inBytes.T_comm, 'T_comm changed');
      await assertOutputsShow(page, await evaluateInPage(page, MODEL, { L: '20', L_unit: 'KiB' }), 'L = 20 KiB');
      assert.deepEqual(await hashParams(page), { model: 'pipeline', L: '20', L_unit: 'KiB' });

      // The default 23720 in KiB: the hint in × 10ⁿ notation, exactly ×1024.
      await page.fill('#f-L', '23720');
      await afterFrames(page);
      const h = await hint(page, 'L');
      assert.equal(h, await hintFor(page, 23720 * 1024, 'B'));
      assert.equal(h, '= 2.42893 × 10⁷ B');
      const shown = parseDisplayed(h.replace(/^= /, '').replace(/ B$/, ''));
      assert.ok(Math.abs(shown - 23720 * 1024) <= 5e-6 * 23720 * 1024, `hint ${h}`);
      assert.deepEqual(await hashParams(page), { model: 'pipeline', L_unit: 'KiB' });
      assert.doesNotMatch(await visibleText(page), /NaN|Infinity|undefined/);
    });
  });

  test('the presets sorting-binary and sorting-si give 207.7 and 209.1 s, and the URL restores the unit menus', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      await choosePreset(page, 'sorting-binary');
      assert.equal(await page.inputValue('#f-L'), '8');
      assert.equal(await page.inputValue('#f-L_unit'), 'MiB');
      assert.equal(await page.inputValue('#f-C'), '1.28');
      assert.equal(await page.inputValue('#f-C_unit'), 'Gibit/s');
      assert.equal(await hint(page, 'L'), await hintFor(page, 8 * 1048576, 'B'));
      assert.equal(await hint(page, 'C'), await hintFor(page, 1.28 * 1073741824, 'bit/s'));
      const binary = await outputTexts(page);
      assert.ok(binary.T_total.startsWith('207.7'), `binary reading: T_total ${binary.T_total}`);
      assert.ok(Math.abs(parseDisplayed(binary.T_total) - 208) / 208 < 3e-3, 'within 0.3% of Table XVI');
      assert.deepEqual(await hashParams(page),
        { model: 'pipeline', N: '512', P: '8', t_comp: '1.39', L: '8', L_unit: 'MiB', C_unit: 'Gibit/s' });
      assert.match(await page.$eval('#preset-note', (e) => e.textContent), /Table XVI/);

      await choosePreset(page, 'sorting-si');
      assert.equal(await page.inputValue('#f-L_unit'), 'MB');
      assert.equal(await page.inputValue('#f-C_unit'), 'Gbit/s');
      assert.equal(await hint(page, 'L'), '= 8000000 B');
      const si = await outputTexts(page);
      assert.ok(si.T_total.startsWith('209.1'), `SI reading: T_total ${si.T_total}`);
      assert.deepEqual(await hashParams(page), { model: 'pipeline', N: '512', P: '8', t_comp: '1.39', L: '8', L_unit: 'MB' });

      // Back to binary, then reload: the menus come back from the URL.
      await choosePreset(page, 'sorting-binary');
      await page.selectOption('#f-C_unit', 'Mibit/s');
      await page.fill('#f-C', '1310.72');
      await afterFrames(page);
      const before = await outputTexts(page);
      assert.equal(before.T_total, binary.T_total, '1310.72 Mibit/s is 1.28 Gibit/s');
      await reloadReady(page);
      assert.equal(await page.inputValue('#f-L_unit'), 'MiB', 'L_unit restored');
      assert.equal(await page.inputValue('#f-C_unit'), 'Mibit/s', 'C_unit restored');
      assert.equal(await page.inputValue('#f-C'), '1310.72');
      assert.equal(await hint(page, 'L'), await hintFor(page, 8 * 1048576, 'B'));
      assert.deepEqual(await outputTexts(page), before);
    });
  });
});

// ---- saturation ------------------------------------------------------------------------

describe('pipeline: saturation', () => {
  test('a saturated spine is an error at L; the breakdown, delay and comm charts still show it; L = 5 recovers', async () => {
    await withPage(env, { hash: SATURATING_HASH }, async ({ page }) => {
      await waitForCharts(page);
      assert.equal(await page.inputValue('#f-L_unit'), 'MiB');
      assert.equal(await page.inputValue('#f-C_unit'), 'Gibit/s');
      assert.equal(await hint(page, 'L'), await hintFor(page, 20 * 1048576, 'B'));

      const s = await snapshot(page);
      const message = s.fields.L.error;
      assert.match(message, /saturates the spine hop/, `the message names the hop: "${message}"`);
      assert.match(message, /ρ = 1\.405/, `the message gives ρ: "${message}"`);
      assert.match(message, /expected L < 14\.23 MiB/, `the message gives the largest L in L's unit: "${message}"`);
      assert.equal(s.fields.L.errorVisible, true, 'the message is visible');
      assert.deepEqual(s.invalid, ['L'], 'only L is invalid');
      assert.deepEqual(s.fields.L.ariaInvalid, ['true']);
      assert.equal(s.status.hidden, false, 'the status banner shows');
      assertNoResults(s.outputs, 'saturated');
      assert.doesNotMatch(await visibleText(page), /NaN|Infinity|undefined/, 'no visible NaN or Infinity');
      const problems = await page.evaluate((p) => window.isoperf.check('pipeline', p), SATURATING);
      assert.deepEqual(problems.map((p) => p.key), ['L'], `check reports L only: ${JSON.stringify(problems)}`);
      assert.equal(problems[0].message, message, 'the field shows what check reports');

      // The breakdown is shown, for these inputs.
      assert.deepEqual(await tablesState(page), { stale: false, ariaHidden: 'false' }, 'the tables are not stale');
      assert.match(await tableTitle(page, 'breakdown'), /L = 2\.09715 × 10⁷ B/, 'the breakdown is for L = 20 MiB');
      const rows = await breakdownRows(page);
      assert.deepEqual(rows.map((r) => r.cells[0]).slice(0, 3), HOPS);
      const spine = rows[1];
      assert.equal(spine.cls, 'row-disagrees', 'the spine row is marked');
      assert.equal(spine.cells[4], '1.405', 'ρ of the spine');
      assert.equal(spine.cells[5], '—', 'no wait');
      assert.equal(spine.cells[6], '—', 'no response time');
      assert.match(spine.remark ?? '', /^Saturated/, `the spine's remark: "${spine.remark}"`);
      for (const leaf of [rows[0], rows[2]]) {
        assert.equal(leaf.cls, 'row-plain', `${leaf.cells[0]} is stable (ρ ≈ 0.70)`);
        assert.ok(Number(leaf.cells[6]) > 0, `${leaf.cells[0]} has a response time: ${leaf.cells[6]}`);
        assert.equal(leaf.remark, null);
      }
      assert.equal(rows[3].cells.at(-1), '—', 'no T_comm total');
      assert.equal(await page.locator('#tables section.table-card[data-table=breakdown] tr.row-disagrees').count(), 1);

      // Charts: delay and comm drawn for these inputs, time not drawn.
      const charts = await chartStates(page);
      const ink = await chartInk(page);
      for (const id of ['delay', 'comm']) {
        assert.equal(charts[id].stale, false, `chart ${id} is not stale`);
        assert.equal(charts[id].note, '', `chart ${id} has no error`);
        assert.ok(ink[id].coloured > 300, `chart ${id} has coloured data (${ink[id].coloured} pixels)`);
      }
      assert.match((await chartNotes(page)).comm, /beyond the saturating size/);
      assert.equal(charts.time.stale, true, 'the time chart is stale');
      assert.match(charts.time.note, /^Not drawn/, `the time chart says why: "${charts.time.note}"`);

      // L = 5 MiB fits: the error goes, the results come back.
      await page.fill('#f-L', '5');
      await waitForCharts(page);
      const fixed = await snapshot(page);
      assert.equal(fixed.fields.L.error, '', 'the error is gone');
      assert.deepEqual(fixed.invalid, []);
      assert.equal(fixed.status.hidden, true);
      await assertOutputsShow(page, await evaluateInPage(page, MODEL, { ...SATURATING, L: '5' }), 'L = 5 MiB');
      for (const [id, c] of Object.entries(fixed.charts)) assert.equal(c.stale, false, `chart ${id} is drawn again`);
      assert.equal((await breakdownRows(page))[1].cls, 'row-plain', 'the spine is stable');
      assert.equal(fixed.hash.L, '5');
    });
  });

  test('typing a saturating L redraws the breakdown and the delay chart (not left stale)', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      await choosePreset(page, 'sorting-binary');
      await waitForCharts(page);
      const before = await chartInk(page);
      const rowsBefore = await breakdownRows(page);
      assert.equal(rowsBefore[1].cls, 'row-plain');

      await page.fill('#f-L', '20');
      await waitForCharts(page);
      assert.match((await fieldMessages(page)).L.error, /saturates the spine hop.*expected L </);
      const rows = await breakdownRows(page);
      assert.notDeepEqual(rows, rowsBefore, 'the breakdown follows L');
      assert.equal(rows[1].cls, 'row-disagrees');
      assert.deepEqual(rows[1].cells.slice(5), ['—', '—']);
      const inPage = await page.evaluate((p) => window.isoperf.tables('pipeline', p), SATURATING);
      // Cells are rich text (T<sub>comm</sub>); the page shows their text content.
      const asText = (cell) => cell.replace(/<[^>]*>/g, '');
      assert.deepEqual(rows.map((r) => r.cells), inPage[0].rows.map((r) => r.cells.map(asText)), 'the breakdown is the current one');
      const after = await chartInk(page);
      assert.notEqual(after.delay.sum, before.delay.sum, 'the delay chart was redrawn');
      assert.ok(after.delay.coloured > 300);
      assert.equal((await chartStates(page)).delay.stale, false);
      assert.deepEqual(await tablesState(page), { stale: false, ariaHidden: 'false' });
    });
  });

  test('near saturation (L = 12.8 MiB) warns at the top and at L, with results', async () => {
    await withPage(env, { hash: hashOf({ ...SATURATING, L: '12.8' }) }, async ({ page }) => {
      const s = await snapshot(page);
      assert.deepEqual(s.invalid, [], 'ρ < 1 is valid');
      assert.equal(s.status.hidden, true);
      assert.equal(s.outputs.rho_spine, '0.8993');
      assert.ok(Number.isFinite(parseDisplayed(s.outputs.T_total)), `T_total ${s.outputs.T_total}`);
      const warnings = await page.$$eval('#remarks .remark-warning', (ws) => ws.map((w) => w.textContent));
      assert.equal(warnings.length, 1, `one warning: ${JSON.stringify(warnings)}`);
      assert.match(warnings[0], /near saturation/);
      assert.match(warnings[0], /spine/);
      assert.equal(await page.locator('#remarks .remark-warning').first().isVisible(), true);
      assert.match((await fieldMessages(page)).L.warning, /near saturation/, 'and at the L field');
      assert.equal(await page.locator('#form .field-warning').count(), 1);

      // 8 MiB (ρ ≈ 0.56) is not near saturation.
      await page.fill('#f-L', '8');
      await afterFrames(page);
      assert.equal(await page.locator('#remarks .remark-warning').count(), 0);
      assert.equal(await page.locator('#form .field-warning').count(), 0);
    });
  });

  test('a saturated hop with a fixed communication time gives results, "—" for that hop, and a warning', async () => {
    await withPage(env, { hash: hashOf({ ...SATURATING, comm: 'fixed' }) }, async ({ page }) => {
      const s = await snapshot(page);
      assert.deepEqual(s.invalid, [], 'the queueing model is not used, so L is fine');
      assert.equal(s.status.hidden, true);
      const native = await evaluateInPage(page, MODEL, { ...SATURATING, comm: 'fixed' });
      assert.equal(native.D_spine, null);
      await assertOutputsShow(page, native, 'saturated, fixed');
      assert.match(await page.$eval('#remarks', (r) => r.textContent), /spine hop is saturated/);
      assert.doesNotMatch(await visibleText(page), /NaN|Infinity|undefined/);
    });
  });
});

// ---- bad input -----------------------------------------------------------------------

describe('pipeline: bad input', () => {
  const BAD = [
    { key: 'P', value: '12', mentions: [/power of two/, /\b8\b/, /\b16\b/] },
    { key: 'N', value: '8', mentions: [/fewer than/, /P = 16/] },
    { key: 'groups', value: '3', mentions: [/divisors? of N/, /\b2 and 4\b/] },
    { key: 't_comp', value: '0', mentions: [/1e-9/] },
    { key: 'C', value: '-1', mentions: [/out of range/] },
  ];
  for (const { key, value, mentions } of BAD) {
    test(`${key} = ${value} is refused at the field, and fixing it restores results`, async () => {
      await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
        const good = await page.inputValue(`#f-${key}`);
        const before = await snapshot(page);
        await page.fill(`#f-${key}`, value);
        await afterFrames(page);

        const bad = await snapshot(page);
        const message = bad.fields[key].error;
        assert.match(message, /expected .+/, `the message at ${key} states what is valid: "${message}"`);
        for (const m of mentions) assert.match(message, m, `the message at ${key}: "${message}"`);
        assert.equal(bad.fields[key].errorVisible, true, 'the message is visible');
        assert.deepEqual(bad.invalid, [key], `only ${key} is marked invalid`);
        assert.deepEqual(bad.fields[key].ariaInvalid, ['true']);
        assert.equal(bad.status.hidden, false, 'the status banner shows');
        assertNoResults(bad.outputs, `${key}=${value}`);
        for (const [id, c] of Object.entries(bad.charts)) {
          assert.equal(c.stale, true, `chart ${id} is stale`);
          assert.notEqual(c.note, '', `chart ${id} says why it is not drawn`);
        }
        assert.equal((await tablesState(page)).stale, true, 'the tables are dimmed');
        assert.equal(bad.hash[key], value, 'the hash keeps the refused value');
        assert.doesNotMatch(await visibleText(page), /NaN|Infinity|undefined/, 'no visible NaN or Infinity');

        await page.fill(`#f-${key}`, good);
        await afterFrames(page);
        const fixed = await snapshot(page);
        assert.deepEqual(fixed.invalid, []);
        assert.equal(fixed.status.hidden, true);
        assert.deepEqual(fixed.outputs, before.outputs, 'the results are back');
        assert.deepEqual(fixed.hash, before.hash);
        assert.equal((await tablesState(page)).stale, false);
      });
    });
  }
});

// ---- T_merge's fallback ------------------------------------------------------------------

describe('pipeline: T_merge', () => {
  test('T_merge is empty (= T_comp) by default; 0.3 changes T_seq and the hash; clearing it restores both', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      assert.equal(await page.inputValue('#f-t_merge'), '');
      assert.equal(await page.$eval('#f-t_merge', (i) => i.placeholder), '= T_comp');
      assert.equal('t_merge' in (await hashParams(page)), false, 'the empty T_merge is not in the hash');
      const before = await outputTexts(page);
      assert.equal(before.T_seq, '1229', 'N T_comp + (N − 1) T_comp');

      await page.fill('#f-t_merge', '0.3');
      await afterFrames(page);
      const after = await outputTexts(page);
      assert.notEqual(after.T_seq, before.T_seq, 'T_seq changed');
      assert.equal(after.T_seq, '1843', '4096 × 0.15 + 4095 × 0.3');
      assert.equal(after.T_total, before.T_total, 'without the drain terms T_total has no merge');
      assert.notEqual(after.speedup, before.speedup);
      await assertOutputsShow(page, await evaluateInPage(page, MODEL, { t_merge: '0.3' }), 't_merge = 0.3');
      assert.deepEqual(await hashParams(page), { model: 'pipeline', t_merge: '0.3' });

      // With the drain terms, T_merge enters T_total too.
      await page.check('input[name=drain][value=true]');
      await afterFrames(page);
      const drained = await outputTexts(page);
      assert.notEqual(drained.T_total, before.T_total);
      await assertOutputsShow(page, await evaluateInPage(page, MODEL, { t_merge: '0.3', drain: 'true' }), 'drain, t_merge = 0.3');
      await page.check('input[name=drain][value=false]');

      await page.fill('#f-t_merge', '');
      await afterFrames(page);
      assert.deepEqual(await outputTexts(page), before, 'the results of T_merge = T_comp');
      assert.deepEqual(await hashParams(page), { model: 'pipeline' }, 't_merge left the hash');
      assert.equal(await page.$eval('#f-t_merge', (i) => i.placeholder), '= T_comp');
    });
  });
});

// ---- the fixed communication time ----------------------------------------------------------

describe('pipeline: fixed communication', () => {
  test('eq12-printed gives 9.610 s with T_comm fixed enabled; M/M/1 gives 9.478 s and greys it', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      const inapplicable = () => page.$eval('#form .field[data-key=t_comm_fixed]', (f) => f.classList.contains('inapplicable'));
      assert.equal(await inapplicable(), true, 'T_comm fixed does not apply to the M/M/1 path');
      assert.match(await hint(page, 't_comm_fixed'), /not used/);

      await choosePreset(page, 'eq12-printed');
      assert.equal(await page.isChecked('input[name=comm][value=fixed]'), true, 'the preset picks the fixed time');
      assert.equal(await page.isChecked('input[name=comm][value=mm1]'), false);
      assert.equal(await page.inputValue('#f-groups'), '8');
      assert.equal(Number(await page.inputValue('#f-t_comm_fixed')), 0.16 / 62);
      let out = await outputTexts(page);
      assert.equal(out.T_total, '9.610', 'eq. (12) as printed');
      assert.ok(showsValue(out.T_comm, 0.16 / 62));
      assert.equal(await inapplicable(), false, 'T_comm fixed applies');
      assert.doesNotMatch(await hint(page, 't_comm_fixed'), /not used/);
      assert.deepEqual(await hashParams(page), { model: 'pipeline', groups: '8', comm: 'fixed' });
      const total = (await breakdownRows(page))[3];
      assert.match(total.remark ?? '', /fixed per-step time/, `the T_comm row says the fixed time is used: "${total.remark}"`);

      await page.check('input[name=comm][value=mm1]');
      await afterFrames(page);
      out = await outputTexts(page);
      assert.equal(out.T_total, '9.478', 'the stated L and C');
      assert.equal(await inapplicable(), true, 'T_comm fixed is greyed again');
      assert.match(await hint(page, 't_comm_fixed'), /not used/);
      assert.deepEqual(await hashParams(page), { model: 'pipeline', groups: '8' });

      // The radio alone, from features-128.
      await choosePreset(page, 'features-128');
      assert.equal((await outputTexts(page)).T_total, '9.478');
      await page.check('input[name=comm][value=fixed]');
      await afterFrames(page);
      assert.equal((await outputTexts(page)).T_total, '9.610');
      assert.equal(await inapplicable(), false);
    });
  });
});

// ---- the page and the native CLI -------------------------------------------------------------

/** Parameter sets as text, the way both the form and the CLI take them. */
const CASES = [
  {},
  { groups: '2' },
  { groups: '8' },
  { groups: '8', comm: 'fixed' },
  { groups: '8', comm: 'fixed', t_comm_fixed: '0.0025806451612903226' },
  { ...SORTING, L_unit: 'MiB', C_unit: 'Gibit/s' },
  { ...SORTING, L_unit: 'MB', C_unit: 'Gbit/s' },
  { ...SORTING, L_unit: 'MiB', C_unit: 'Gbit/s' },
  { ...SORTING, L: '12.8', L_unit: 'MiB', C_unit: 'Gibit/s' }, // near saturation
  { ...SATURATING, comm: 'fixed' }, // saturated spine, fixed time: null delays
  { L: '23.72', L_unit: 'kB' },
  { L: '20', L_unit: 'KiB' },
  { L: '0.02372', L_unit: 'MB', C: '1280', C_unit: 'Mbit/s' },
  { L: '0.001', L_unit: 'GB', C: '1.28e10', C_unit: 'bit/s' },
  { L: '0.001', L_unit: 'GiB', C: '12500000', C_unit: 'kbit/s' },
  { C: '1220.703125', C_unit: 'Mibit/s' },
  { C: '1250000', C_unit: 'Kibit/s' },
  { drain: 'true' },
  { drain: 'true', t_merge: '0.3' },
  { drain: 'true', groups: '8', comm: 'fixed' },
  { t_merge: '0.3' },
  { t_merge: '' },
  { tau: '1e-4', leaf_fanin: '4', spine_fanin: '8' },
  { N: '1e9', P: '4096', groups: '1000' },
  { N: '16', P: '16' }, // no steady-state step
  { N: '4096', P: '2', t_comp: '0.01', drain: 'true', groups: '64' },
];

/** Out-of-range L: both the page and the CLI refuse it, at L. */
const BAD_L = [
  SATURATING,
  { L_unit: 'KiB' }, // 23720 KiB saturates every hop
  { L: '0' },
  { L: '1e16' },
  { L: '-5' },
  { L: 'abc' },
];

async function cli(command, params) {
  const args = [command, MODEL, ...Object.entries(params).map(([k, v]) => `${k}=${v}`)];
  const { stdout } = await run(CLI, args, { timeout: 20_000 });
  return JSON.parse(stdout);
}

/** Every output: numbers bit for bit, null as null. */
function assertSameOutputs(page, native, label) {
  label += buildStaleness();
  assert.deepEqual(Object.keys(page).sort(), Object.keys(native).sort(), `${label}: same outputs`);
  for (const [key, x] of Object.entries(native)) {
    const y = page[key];
    if (x === null) {
      assert.equal(y, null, `${label}: ${key}: page ${JSON.stringify(y)}, CLI null`);
    } else {
      assert.equal(typeof x, 'number', `${label}: ${key} is numeric in the CLI (${JSON.stringify(x)})`);
      assert.ok(Object.is(y, x), `${label}: ${key}: page ${y} !== CLI ${x}`);
    }
  }
}

/** The same parameters as JS values: numbers, choices as text, an empty T_merge left out. */
const asValues = (params) => Object.fromEntries(Object.entries(params)
  .filter(([, v]) => v !== '')
  .map(([k, v]) => [k, CHOICES.has(k) ? v : Number(v)]));

describe('pipeline: page and native CLI', () => {
  test('window.isoperf.evaluate agrees with `isoperf eval pipeline` to the last bit', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      const covered = { nulls: 0, fixed: 0, drain: 0, units: 0, groups: 0 };
      for (const params of CASES) {
        const label = JSON.stringify(params);
        const native = await cli('eval', params);
        const [fromText, fromValues] = await page.evaluate(([m, a, b]) =>
          [window.isoperf.evaluate(m, a), window.isoperf.evaluate(m, b)], [MODEL, params, asValues(params)]);
        assertSameOutputs(fromText, native, `${label} as text`);
        assertSameOutputs(fromValues, native, `${label} as values`);
        covered.nulls += Object.values(native).some((v) => v === null);
        covered.fixed += params.comm === 'fixed';
        covered.drain += params.drain === 'true';
        covered.units += Boolean(params.L_unit || params.C_unit);
        covered.groups += Number(params.groups ?? 1) > 1;
      }
      for (const [what, n] of Object.entries(covered)) assert.ok(n >= 1, `cases with ${what}: ${n}`);
      assert.ok(covered.units >= 8, `unit cases: ${covered.units}`);
    });
  });

  test('an out-of-range L is refused by both, at L, with the same message', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      for (const params of BAD_L) {
        const label = JSON.stringify(params) + buildStaleness();
        const args = ['eval', MODEL, ...Object.entries(params).map(([k, v]) => `${k}=${v}`)];
        const failure = await run(CLI, args, { timeout: 20_000 }).then(
          ({ stdout }) => assert.fail(`${label}: the CLI accepted it: ${stdout}`),
          (e) => e,
        );
        assert.ok(typeof failure.code === 'number' && failure.code !== 0, `${label}: CLI exit code ${failure.code}`);
        const inPage = await page.evaluate(([m, p]) => {
          try {
            return { ok: window.isoperf.evaluate(m, p) };
          } catch (e) {
            return { key: e.key, message: e.message };
          }
        }, [MODEL, params]);
        assert.equal(inPage.ok, undefined, `${label}: the page accepted it: ${JSON.stringify(inPage.ok)}`);
        assert.equal(inPage.key, 'L', `${label}: the page refuses it at L: ${JSON.stringify(inPage)}`);
        assert.equal(failure.stderr.trim(), `isoperf: ${inPage.message}`, `${label}: the same message`);
        assert.match(inPage.message, /expected/);
      }
    });
  });

  test('the form, loaded from the URL, shows what the CLI computes', { skip: NO_CLI }, async () => {
    for (const params of [CASES[2], CASES[4], CASES[5], CASES[9], CASES[12], CASES[18], CASES[22]]) {
      const hash = hashOf(params);
      await withPage(env, { hash }, async ({ page }) => {
        const native = await cli('eval', params);
        await assertOutputsShow(page, native, `${hash}${buildStaleness()}`);
      });
    }
  });

  test('tables agree with `isoperf tables pipeline`, saturated included', { skip: NO_CLI }, async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      for (const params of [CASES[0], CASES[3], CASES[6], CASES[9], CASES[22], SATURATING]) {
        const native = await cli('tables', params);
        const inPage = await page.evaluate(([m, p]) => window.isoperf.tables(m, p), [MODEL, params]);
        assert.deepEqual(inPage, native, JSON.stringify(params) + buildStaleness());
      }
    });
  });
});

// ---- regressions: bugs seen while writing the tests above --------------------------------------

describe('pipeline: regressions', () => {
  test('a preset gives its paper value whatever was edited before', async () => {
    await withPage(env, { hash: '#model=pipeline&drain=true&tau=0.001&leaf_fanin=4&spine_fanin=8&L=8&L_unit=MiB&C_unit=Gibit/s' }, async ({ page }) => {
      const ids = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter(Boolean));
      const wrong = [];
      for (const id of ids) {
        // Start from the same edited form each time.
        await page.evaluate(() => { location.hash = '#model=pipeline&drain=true&tau=0.001&leaf_fanin=4&spine_fanin=8&L=8&L_unit=MiB&C_unit=Gibit/s'; });
        await afterFrames(page);
        await choosePreset(page, id);
        const expected = await evaluateInPage(page, MODEL, await presetValues(page, id)); // the preset on the defaults
        const shown = await outputTexts(page);
        const want = await formatInPage(page, { T_total: expected.T_total });
        if (shown.T_total !== want.T_total) {
          wrong.push(`${id}: T_total ${shown.T_total}, the preset alone gives ${want.T_total} (kept from before: ${JSON.stringify(await hashParams(page))})`);
        }
      }
      assert.deepEqual(wrong, [], 'presets leave earlier edits of drain, τ, the fan-ins (and L, C for eq12-printed) in place');
    });
  });

  test('an unknown unit in the URL is shown at a field, not only as "fix the highlighted field"', async () => {
    for (const hash of ['#model=pipeline&L_unit=furlong', '#model=pipeline&C_unit=baud']) {
      await withPage(env, { hash }, async ({ page }) => {
        const s = await snapshot(page);
        const visible = Object.entries(await fieldMessages(page)).filter(([, m]) => m.error && m.errorVisible);
        assert.ok(s.status.hidden || visible.length > 0,
          `${hash}: "${s.status.text}" with no visible field message and no highlighted field (${JSON.stringify(s.invalid)})`);
      });
    }
  });

  test('groups that do not divide a large prime N are refused promptly', async () => {
    await withPage(env, { hash: '#model=pipeline' }, async ({ page }) => {
      const { ms, problems } = await page.evaluate(() => {
        const t0 = performance.now();
        const problems = window.isoperf.check('pipeline', { N: '999999937', groups: '2' });
        return { ms: performance.now() - t0, problems };
      });
      assert.ok(problems.some((p) => p.key === 'groups'), `refused at groups: ${JSON.stringify(problems)}`);
      // The page calls the model several times per edit (check, tables, four
      // charts), so a slow refusal freezes the tab for several times this long.
      assert.ok(ms < 500, `check took ${Math.round(ms)} ms for N = 999999937 (a linear search for the next divisor of N)`);
    });
  });
});
