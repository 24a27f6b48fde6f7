// The page and the native CLI compute with the same Rust core, one compiled to
// wasm and one native: their outputs must agree to the last bit. JSON numbers
// round-trip exactly (shortest representation both ways), so strict equality
// of the parsed numbers is bit equality.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { CLI, buildStaleness, hasCli, startEnv, stopEnv, withPage } from './helpers.mjs';

const run = promisify(execFile);
const SKIP = hasCli() ? false : `the native CLI ${CLI} does not exist; build it with \`cargo build\``;

let env;
before(async () => { if (!SKIP) env = await startEnv(); });
after(async () => { await stopEnv(env); });

/** Parameter sets as text, the way both the form and the CLI take them. */
const CASES = [
  {},
  { impl: 'dryad', N: '64', M: '12345', t_flops: '2.5e-10', t_comm: '1.3e-7', t_io: '4.1e-8', t_startup: '0.0425', t_scheduling: '0.003' },
  { impl: 'dryad', N: '100', M: '16000', t_flops: String(1 / 6.98e9), t_comm: String(1 / 6.17e6) },
  { impl: 'msmpi', N: '100', M: '20000', t_comm: '6.4e-9', t_startup: '1.163e-4', t_scheduling: '0.01' },
  { impl: 'msmpi', N: '121', M: '9999', t_flops: String(1 / 3.35e9), t_comm: String(1 / 16.71e6), t_io: '0.5' },
  { impl: 'fox', N: '49', M: '8000', t_startup: '0.001' },
  { impl: 'fox', N: '1000000', M: '10000000', t_flops: '1e-12', t_comm: '3.3e-9', t_scheduling: '7' },
  { impl: 'fox', N: '1', M: '1' },
];

async function cliEval(params) {
  const args = ['eval', 'pmm', ...Object.entries(params).map(([k, v]) => `${k}=${v}`)];
  const { stdout } = await run(CLI, args, { timeout: 10_000 });
  return JSON.parse(stdout);
}

async function cliTables(params) {
  const args = ['tables', 'pmm', ...Object.entries(params).map(([k, v]) => `${k}=${v}`)];
  const { stdout } = await run(CLI, args, { timeout: 10_000 });
  return JSON.parse(stdout);
}

function assertBitEqual(page, native, label) {
  label += buildStaleness();
  assert.deepEqual(Object.keys(page).sort(), Object.keys(native).sort(), `${label}: same outputs`);
  for (const [key, x] of Object.entries(native)) {
    assert.equal(typeof x, 'number', `${label}: ${key} is numeric in the CLI`);
    assert.ok(Object.is(page[key], x), `${label}: ${key}: page ${page[key]} !== CLI ${x}`);
  }
}

describe('page and native CLI', () => {
  test('evaluate agrees with `isoperf eval` to the last bit', { skip: SKIP }, async () => {
    await withPage(env, {}, async ({ page }) => {
      for (const params of CASES) {
        const label = JSON.stringify(params);
        const native = await cliEval(params);
        // As typed text (the form's path) and as JS numbers (the API's path).
        const asNumbers = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, k === 'impl' ? v : Number(v)]));
        const [fromText, fromNumbers] = await page.evaluate(([a, b]) => [window.isoperf.evaluate('pmm', a), window.isoperf.evaluate('pmm', b)], [params, asNumbers]);
        assertBitEqual(fromText, native, `${label} as text`);
        assertBitEqual(fromNumbers, native, `${label} as numbers`);
      }
    });
  });

  test('tables agree with `isoperf tables`', { skip: SKIP }, async () => {
    await withPage(env, {}, async ({ page }) => {
      for (const params of [CASES[0], CASES[3], CASES[5]]) {
        const native = await cliTables(params);
        const inPage = await page.evaluate((p) => window.isoperf.tables('pmm', p), params);
        assert.deepEqual(inPage, native, JSON.stringify(params) + buildStaleness());
      }
    });
  });
});
