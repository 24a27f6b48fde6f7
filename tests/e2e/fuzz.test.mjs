// The short fuzz run (scripts/fuzz.mjs) in `npm test`: a fixed seed, 2,000
// adversarial calls per model against the built wasm package in Node. No
// trap, every accepted output finite, no negative time, no efficiency
// outside [0, 1]. Calls over the per-call budget (the page's thread) are
// printed as diagnostics: issue 13 bounds them; the long run
// (`npm run fuzz -- --calls 1000000`) reports them too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzz, loadPackage } from '../../scripts/fuzz.mjs';

/** Calls per model in the short run (about 3 s in all). */
const CALLS = 2000;
/** A call slower than this on a test machine is reported, not failed. */
const BUDGET_MS = 1000;

test('the short fuzz run finds no trap, no non-finite output, no negative time', async (t) => {
  const isoperf = await loadPackage();
  for (const seed of [1, 2]) {
    const { calls, findings, broken } = fuzz(isoperf, { calls: CALLS, seed, budget: BUDGET_MS });
    assert.ok(calls >= CALLS * 5, `${calls} calls`);
    assert.equal(broken, false, 'the instance still answers');
    for (const f of findings.filter((x) => x.problem.startsWith('slow'))) t.diagnostic(`slow: ${f.model} ${f.call} ${f.problem} ${JSON.stringify(f.params)}`);
    const wrong = findings.filter((x) => !x.problem.startsWith('slow'));
    assert.deepEqual(wrong.map((f) => `${f.model} ${f.call}: ${f.problem} with ${JSON.stringify(f.params)}`), [], `seed ${seed}`);
  }
});
