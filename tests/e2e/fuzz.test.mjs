// The short fuzz run (scripts/fuzz.mjs) in `npm test`: fixed seeds, 2,000
// adversarial calls per model against the built wasm package in Node. No
// trap, every accepted output finite, no negative time, no efficiency
// outside [0, 1], every error naming what to change; and every case ever
// found (tests/fuzz-found.json) replayed. Calls over the per-call budget
// are printed as diagnostics, not failed: a test does not time things (the
// long run, `npm run fuzz -- --calls 1000000 --budget 100 --worker-budget
// 10000`, reports them).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { budgets, fuzz, loadPackage, replay } from '../../scripts/fuzz.mjs';

/** Calls per model in the short run (about 3 s in all). */
const CALLS = 2000;
/** A call slower than this on a test machine is reported, not failed. */
const BUDGET_MS = 1000;

test('the short fuzz run finds no trap, no non-finite output, no negative time, no error that names nothing', async (t) => {
  const isoperf = await loadPackage();
  for (const seed of [1, 2]) {
    const { calls, findings, broken } = fuzz(isoperf, { calls: CALLS, seed, budget: budgets(BUDGET_MS) });
    assert.ok(calls >= CALLS * 5, `${calls} calls`);
    assert.equal(broken, false, 'the instance still answers');
    for (const f of findings.filter((x) => x.problem.startsWith('slow'))) t.diagnostic(`slow: ${f.model} ${f.problem}: ${f.case}`);
    const wrong = findings.filter((x) => !x.problem.startsWith('slow'));
    assert.deepEqual(wrong.map((f) => `${f.model}: ${f.problem}: ${f.case}`), [], `seed ${seed}`);
  }
});

test('every case ever found stays fixed', async () => {
  const { cases, problems } = replay(await loadPackage(), budgets(60_000, 60_000));
  assert.ok(cases >= 20, `${cases} cases`);
  assert.deepEqual(problems, []);
});
