// The wasm exports check their arguments by type and shape before reading
// them (issue 13, classes 1 and 2): a model id, chart id, dataset id, CSV
// text or axis that is not a string, and params that are not a plain object
// of numbers, strings, booleans, null or flat lists (nested or
// self-referential objects, symbols, BigInts, functions, class instances)
// are refused with a TypeError or RangeError that names the argument —
// never a wasm trap — and the instance keeps working after each one.
// Runs in Node against the built package (pkg/, both modules); no browser.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PKG = fileURLToPath(new URL('../../pkg/', import.meta.url));
const modules = {};

before(async () => {
  for (const [name, stem] of [['full', 'isoperf'], ['core', 'isoperf_core']]) {
    const m = await import(`${PKG}${stem}.js`);
    m.initSync({ module: readFileSync(`${PKG}${stem}_bg.wasm`) });
    modules[name] = m;
  }
});

/** Values that are not strings, as a caller in another page might send them. */
const NOT_STRINGS = [5, 0, NaN, {}, [], ['pmm'], null, undefined, true, Symbol('pmm'), 10n, () => 'pmm', new String('pmm'), new Date(0)];

function nested(depth, make) {
  let v = 1;
  for (let i = 0; i < depth; i++) v = make(v);
  return v;
}

/** Params that are not plain objects of flat values, each with the argument its message must name. */
function badParams() {
  const self = { N: 25 };
  self.self = self;
  const list = [1, 2];
  list.push(list);
  return [
    [{ N: nested(6000, (v) => ({ a: v })) }, /params\.N/],
    [{ N: nested(6000, (v) => [v]) }, /params\.N\[0\]/],
    [self, /params\.self/],
    [{ A_list: list }, /params\.A_list\[2\]/],
    [{ N: Symbol('x') }, /params\.N/],
    [{ N: 25n }, /params\.N/],
    [{ N: () => 25 }, /params\.N/],
    [{ N: new Date(0) }, /params\.N/],
    [{ A_list: [1, { x: 1 }] }, /params\.A_list\[1\]/],
    [{ A_list: [1, [2]] }, /params\.A_list\[1\]/],
    [5, /params/],
    ['N=25', /params/],
    [[25], /params/],
    [new Map([['N', 25]]), /params/],
    [new (class Params { constructor() { this.N = 25; } })(), /params/],
    [Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 1])), /params/],
    [{ ['k'.repeat(5000)]: 1 }, /params/],
  ];
}

/** Asserts `call` throws a TypeError or RangeError whose message matches `names`, and no trap. */
function refuses(call, names, what) {
  let thrown;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown, `${what}: refused`);
  assert.ok(!(thrown instanceof WebAssembly.RuntimeError), `${what}: a wasm trap (${thrown.message})`);
  assert.ok(thrown instanceof TypeError || thrown instanceof RangeError, `${what}: a TypeError or RangeError, not ${thrown.constructor?.name}: ${thrown.message}`);
  assert.match(thrown.message, names, `${what}: the message names the argument`);
}

/** The instance still answers after whatever came before. */
function stillWorks(m, what) {
  assert.equal(m.models().length >= 5, true, `${what}: models() after`);
  assert.ok(Number.isFinite(m.evaluate('pmm', {}).coef_M2), `${what}: evaluate after`);
}

describe('the wasm exports check their arguments before reading them', () => {
  test('ids and texts that are not strings: a TypeError naming the argument', () => {
    for (const [name, m] of Object.entries(modules)) {
      for (const bad of NOT_STRINGS) {
        const what = `${name}: ${typeof bad} ${String(bad?.toString?.() ?? bad).slice(0, 20)}`;
        for (const fn of ['evaluate', 'check', 'tables', 'remarks', 'report']) refuses(() => m[fn](bad, {}), /modelId/, `${what} ${fn}`);
        refuses(() => m.splitList(bad), /text/, `${what} splitList`);
        if (name === 'full') {
          refuses(() => m.analyze('scaling', 'timings', bad, {}), /text/, `${what} analyze text`);
          refuses(() => m.analyze(bad, 'timings', '1,1', {}), /modelId/, `${what} analyze`);
          refuses(() => m.analyze('scaling', bad, '1,1', {}), /datasetId/, `${what} analyze dataset`);
          refuses(() => m.isoAxis(bad, 2), /axis/, `${what} isoAxis`);
          refuses(() => m.sweepPlan(bad, 'x'), /modelId/, `${what} sweepPlan`);
          refuses(() => m.sweepPlan('mapreduce', bad), /sweepId/, `${what} sweepPlan sweep`);
          refuses(() => m.sweepSeries(bad, 'x', {}, 0), /modelId/, `${what} sweepSeries`);
        }
        stillWorks(m, what);
      }
    }
  });

  test('params that are not flat plain objects: refused, never followed', () => {
    for (const [name, m] of Object.entries(modules)) {
      for (const [params, names] of badParams()) {
        for (const fn of ['evaluate', 'check', 'tables', 'remarks', 'report']) refuses(() => m[fn]('pmm', params), names, `${name} ${fn}`);
        if (name === 'full') refuses(() => m.analyze('scaling', 'timings', '1,1', params), names, `${name} analyze`);
        stillWorks(m, `${name} after bad params`);
      }
    }
  });

  test('map geometry a caller can send: an Error naming the part at fault, never a trap (class 3)', () => {
    const m = modules.full;
    const request = (nx, ny, levels = [1]) => ({ output: 'T', x: 'm:1:10', y: 'V:1:10', levels, nx, ny });
    for (const [call, field, what] of [
      [() => m.isoAxis('m:2:1', 100000), 'axis', 'a reversed range'],
      [() => m.isoAxis('t_comm:0:0', 2147483648), 'axis', 'an empty range of 2³¹ points'],
      [() => m.isoAxis('L:-1:1:log', 4294967295), 'axis', 'a log axis through 0'],
      [() => m.isoAxis('V:-1:1:log', 1024), 'axis', 'a log axis from −1'],
      [() => m.isoAxis('m:1:10', 2147483648), 'grid', '2³¹ points'],
      [() => m.isoLines(new Float64Array(0), request(100000, 100000)), 'grid', 'a grid of 10¹⁰ nodes and no values'],
      [() => m.isoLines(new Float64Array(3), request(2, 2)), 'values', '3 values for a 2 × 2 grid'],
      [() => m.isoLines(new Float64Array(4), request(2, 2, Array(2000).fill(0.5))), 'levels', '2000 levels'],
    ]) {
      let thrown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown && !(thrown instanceof WebAssembly.RuntimeError), `${what}: an error, not a trap (${thrown?.message})`);
      assert.equal(thrown.field, field, `${what}: ${thrown.message}`);
      stillWorks(m, what);
    }
    // Non-finite grid values are gaps: every isoline point is finite.
    const lines = m.isoLines(new Float64Array([NaN, Infinity, -Infinity, 1]), request(2, 2, [0.5]));
    assert.ok(lines.every((l) => l.lines.every((xy) => xy.every(Number.isFinite))));
  });

  test('what is accepted still reads as before', () => {
    for (const m of Object.values(modules)) {
      // null and undefined are empty fields; numbers, strings and flat lists are values.
      assert.equal(m.check('pmm', { N: null })[0]?.key, 'N');
      assert.equal(m.evaluate('pmm', { N: 36 }).coef_M2, m.evaluate('pmm', { N: '36' }).coef_M2);
      const list = m.evaluate('dlt', { processors: 'heterogeneous', A_list: [1, '1'], C_list: '1e-6, 1e-6', S_list: [100, 100] });
      assert.ok(Number.isFinite(list.T));
      assert.equal(m.check('dlt', { processors: 'heterogeneous', A_list: [1, null] })[0]?.key, 'A_list');
      assert.deepEqual(m.splitList('1, 2;3'), ['1', '2', '3']);
    }
  });
});
