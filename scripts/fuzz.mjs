// A fuzz harness for the wasm package (issue 13): a registry-driven
// generator of adversarial parameters for every model (values inside, at
// and outside every range, NaN, ±Infinity, huge and tiny numbers, hostile
// strings, lists of every length, wrong types), thrown at `evaluate`,
// `check`, `report`, `tables`, `remarks` and a small iso-map. It checks:
//   - no wasm trap (WebAssembly.RuntimeError), and the instance still answers;
//   - no call over the per-call budget (a hang on the page's thread);
//   - every accepted output finite, every time (unit s) ≥ 0, every
//     efficiency in [0, 1];
// and shrinks each failing case to the fewest parameters that still fail.
//
//   node scripts/fuzz.mjs [--calls N] [--seed S] [--budget MS] [models…]
//   npm run fuzz -- --calls 1000000          (the long run)
//
// Exits 1 when it found anything; `tests/e2e/fuzz.test.mjs` runs a short,
// seeded run in `npm test`.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));

/** A small seeded generator (mulberry32): the same seed, the same run. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

const HOSTILE = ['', ' ', 'abc', '1,5', '1e', '--1', '0x19', '<img src=x onerror=alert(1)>', '\u0000', '1\u00002', 'NaN', 'Infinity', '-Infinity', '١٢', 'x'.repeat(10_000), '1'.repeat(400), '1e309', '-0'];
const EXTREMES = [0, -0, -1, 1, 0.5, 2, NaN, Infinity, -Infinity, 1e308, -1e308, 5e-324, -5e-324, 1e-300, 2 ** 53, 2 ** 53 + 2, 4294967296, 65536, 65537];

/** A number for a numeric parameter: mostly inside its range, often at or past its ends. */
function numberFor(rng, p) {
  const { min, max } = p.range;
  const lo = Number.isFinite(min) ? min : -1e6;
  const hi = Number.isFinite(max) ? max : 1e12;
  switch (rng.int(6)) {
    case 0:
    case 1: {
      // Inside, spread over the decades of a log range.
      const x = p.scale === 'log' && lo > 0 ? Math.exp(Math.log(lo) + rng.next() * (Math.log(hi) - Math.log(lo))) : lo + rng.next() * (hi - lo);
      return p.integer ? Math.round(x) : x;
    }
    case 2: return rng.pick([lo, hi, lo * (1 - 1e-12), hi * (1 + 1e-12), lo - 1, hi + 1]);
    case 3: return rng.pick(EXTREMES);
    case 4: return String(rng.pick([lo, hi, rng.pick(EXTREMES)]));
    default: return rng.pick(HOSTILE);
  }
}

function valueFor(rng, p) {
  if (p.kind === 'choice') return rng.chance(0.85) ? rng.pick(p.options).value : rng.pick(HOSTILE);
  if (p.kind === 'list') {
    const n = rng.pick([0, 1, 2, 3, 4, 8, 20, 100]);
    const item = () => (rng.chance(0.8) ? numberFor(rng, p) : rng.pick([null, true, 'x', '']));
    const items = Array.from({ length: n }, item);
    return rng.chance(0.5) ? items : items.map(String).join(rng.pick([',', ', ', ';', ' ']));
  }
  if (rng.chance(0.02)) return rng.pick([true, false, null, undefined, []]);
  return numberFor(rng, p);
}

/** Random params for model `m`: a few keys changed from the defaults, sometimes many, sometimes unknown ones. */
function paramsFor(rng, m) {
  const params = {};
  const n = rng.pick([1, 1, 2, 3, m.params.length]);
  for (let i = 0; i < n; i++) {
    const p = rng.pick(m.params);
    params[p.key] = valueFor(rng, p);
  }
  if (rng.chance(0.03)) params[rng.pick(['zz', 'n', '__proto__x', 'T'])] = 1;
  return params;
}

/** What is wrong with one call's outcome, or null. */
function judge(isoperf, m, call, args, budget) {
  const t0 = performance.now();
  let out;
  let error;
  try {
    out = isoperf[call](...args);
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - t0;
  if (error instanceof WebAssembly.RuntimeError) return `trap: ${error.message}`;
  if (ms > budget) return `slow: ${ms.toFixed(0)} ms`;
  if (error) return error.message ? null : 'an error without a message';
  if (call === 'evaluate') {
    for (const o of m.outputs) {
      const v = out[o.key];
      const xs = Array.isArray(v) ? v : typeof v === 'number' ? [v] : [];
      if (xs.some((x) => !Number.isFinite(x))) return `non-finite ${o.key}`;
      if (o.unit === 's' && xs.some((x) => x < 0)) return `negative time ${o.key} = ${xs.find((x) => x < 0)}`;
      if (/^efficiency$/i.test(o.key) && xs.some((x) => x < 0 || x > 1 + 1e-9)) return `efficiency ${o.key} = ${xs[0]}`;
    }
  }
  return null;
}

/** The fewest parameters of `params` that still give the same kind of failure. */
function shrink(isoperf, m, call, params, extra, budget) {
  const kind = (p) => judge(isoperf, m, call, [m.id, p, ...extra], budget)?.split(':')[0];
  const want = kind(params);
  let best = { ...params };
  for (const key of Object.keys(params)) {
    const trial = { ...best };
    delete trial[key];
    if (kind(trial) === want) best = trial;
  }
  return best;
}

/** Loads the package's full module (Node, from its bytes). */
export async function loadPackage() {
  const isoperf = await import(`${PKG}isoperf.js`);
  isoperf.initSync({ module: readFileSync(`${PKG}isoperf_bg.wasm`) });
  return isoperf;
}

/**
 * Runs `calls` seeded calls per model; returns {calls, findings: [{model,
 * call, problem, params}]} (at most one finding per model, call and kind of
 * problem, each shrunk).
 */
export function fuzz(isoperf, { calls = 1000, seed = 1, budget = 1000, models = null } = {}) {
  const rng = random(seed);
  const registry = isoperf.models().filter((m) => !models?.length || models.includes(m.id));
  const findings = new Map();
  let total = 0;
  for (const m of registry) {
    const numeric = m.params.filter((p) => p.kind === 'number');
    for (let i = 0; i < calls; i++) {
      const params = paramsFor(rng, m);
      const call = rng.pick(['evaluate', 'evaluate', 'evaluate', 'check', 'report', 'tables', 'remarks', ...(numeric.length > 1 && m.outputs.length ? ['isoMapRows'] : [])]);
      let extra = [];
      if (call === 'isoMapRows') {
        const [x, y] = [rng.pick(numeric), rng.pick(numeric)];
        const axis = (p) => `${p.key}:${numberFor(rng, p)}:${numberFor(rng, p)}${rng.chance(0.5) ? ':log' : ''}`;
        extra = [{ output: rng.pick(m.outputs).key, x: axis(x), y: axis(y), levels: [], nx: 4, ny: 4 }, 0, 4];
      }
      total += 1;
      const problem = judge(isoperf, m, call, [m.id, params, ...extra], budget);
      if (!problem) continue;
      const id = `${m.id} ${call} ${problem.split(':')[0].split(' ').slice(0, 2).join(' ')}`;
      if (!findings.has(id)) findings.set(id, { model: m.id, call, problem, params: shrink(isoperf, m, call, params, extra, budget), extra });
      // After a trap the instance may be gone for good: say so and stop.
      try {
        isoperf.models();
      } catch {
        return { calls: total, findings: [...findings.values()], broken: true };
      }
    }
  }
  return { calls: total, findings: [...findings.values()], broken: false };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
  };
  const calls = option('--calls', 2000);
  const seed = option('--seed', Date.now() % 1e9);
  const budget = option('--budget', 1000);
  const started = performance.now();
  const result = fuzz(await loadPackage(), { calls, seed, budget, models: args });
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz: ${result.calls} calls (seed ${seed}, ${calls} per model, budget ${budget} ms) in ${seconds.toFixed(1)} s: ${result.findings.length} finding(s)${result.broken ? '; the instance broke' : ''}`);
  for (const f of result.findings) {
    console.log(`- ${f.model} ${f.call}: ${f.problem}\n    params: ${JSON.stringify(f.params).slice(0, 400)}${f.extra.length ? `\n    request: ${JSON.stringify(f.extra[0])}` : ''}`);
  }
  process.exitCode = result.findings.length ? 1 : 0;
}
