// A fuzz harness for the wasm package (issue 13): a registry-driven
// generator of adversarial calls for every export of every model: values
// inside, at and outside every range, NaN, ±Infinity, huge and tiny numbers,
// hostile strings, lists of every length, wrong types and shapes (a model id
// that is not a string, nested and self-referential params), thrown at
// `evaluate`, `check`, `report`, `quickReport`, `tables`, `remarks`,
// `chartData`, iso-map rows,
// `isoAxis`, `isoLines` (grids holding NaN and ±Infinity), `analyze` (hostile
// CSV) and sweep curves. It checks:
//   - no wasm trap (WebAssembly.RuntimeError), and the instance still answers;
//   - no call over its budget in CPU time: the page's thread's, or (by default ten times
//     that) a worker's for what the page computes in one: map rows, sweep
//     points, chart data, and any evaluation `quickReport` defers;
//   - every accepted output finite, every time (unit s) ≥ 0, every
//     efficiency in [0, 1]; axis values and isoline points finite;
//   - every error names what to change: the argument (TypeError,
//     RangeError), a parameter (`key`), a field of a map request (`field`),
//     a line of the data (`line`), or the unknown name it was given;
// and shrinks each failing case to the fewest parameters that still fail.
// `replay` runs every case ever found (tests/fuzz-found.json, shared with
// the native harness tests/fuzz.rs) with the same checks.
//
//   node scripts/fuzz.mjs [--calls N] [--seed S] [--budget MS] [--worker-budget MS] [models…]
//   npm run fuzz -- --calls 1000000 --budget 100 --worker-budget 10000   (the long run)
//
// Exits 1 when it found anything; `tests/e2e/fuzz.test.mjs` runs a short,
// seeded run and the replay in `npm test`.

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

/** Something that is not what an argument should be. */
function wrongShape(rng) {
  const deep = (n, make) => {
    let v = 1;
    for (let i = 0; i < n; i++) v = make(v);
    return v;
  };
  const selfish = {};
  selfish.self = selfish;
  return rng.pick([
    5, null, undefined, true, {}, [], Symbol('m'), 10n, () => 1, new Float64Array(2),
    deep(rng.pick([10, 1000, 6000]), (v) => ({ a: v })), deep(rng.pick([10, 1000, 6000]), (v) => [v]), selfish,
    { N: {} }, { N: [[1]] }, { A_list: [1, null] }, { m: 'x'.repeat(100_000) },
  ]);
}

/** A map axis over a numeric parameter of `m`, often a bad one. */
function axisFor(rng, m) {
  const p = rng.pick(m.params.filter((q) => q.kind === 'number'));
  return `${p.key}:${numberFor(rng, p)}:${numberFor(rng, p)}${rng.chance(0.5) ? ':log' : ''}`;
}

/** CSV text with `columns` columns: numbers, extremes, hostile cells, BOM, CRLF, quotes, wrong counts. */
function csvFor(rng, columns) {
  const rows = rng.pick([0, 1, 3, 4, 6, 12, 40]);
  const sep = rng.pick([',', ';', '\t']);
  const end = rng.chance(0.2) ? '\r\n' : '\n';
  let text = (rng.chance(0.1) ? '\ufeff' : '') + (rng.chance(0.3) ? '# measured\n' : '');
  for (let r = 0; r < rows; r++) {
    const n = rng.chance(0.05) ? rng.int(5) : columns;
    const cells = Array.from({ length: n }, (_, c) => {
      switch (rng.int(8)) {
        case 0: return String(rng.pick(EXTREMES));
        case 1: return rng.pick(HOSTILE).slice(0, 50);
        case 2: return `"${r + 1}"`;
        default: return c === 0 ? String(2 ** rng.int(12)) : String(1 + rng.next() * 100);
      }
    });
    text += cells.join(sep) + end;
  }
  return text;
}

/** A grid for isoLines: the right size or not, holding NaN and ±Infinity or not. */
function gridFor(rng, nx, ny) {
  const n = rng.chance(0.9) ? nx * ny : rng.pick([0, 1, nx * ny - 1, nx * ny + 1]);
  const values = new Float64Array(Math.max(0, Math.min(n, 1 << 20)));
  for (let i = 0; i < values.length; i++) values[i] = rng.chance(0.05) ? rng.pick([NaN, Infinity, -Infinity, 1e308]) : rng.next() * 10;
  return values;
}

/**
 * One random call on model `m`: {call, args, params} (params is the object
 * in args that shrinking may cut down, when there is one).
 */
function callFor(rng, m) {
  const numeric = m.params.filter((p) => p.kind === 'number');
  const params = paramsFor(rng, m);
  const kinds = ['evaluate', 'evaluate', 'evaluate', 'check', 'report', 'quickReport', 'quickReport', 'tables', 'remarks', 'isoAxis', 'isoLines', 'wrong'];
  if (m.charts.length) kinds.push('chartData');
  if (numeric.length > 1 && m.outputs.length) kinds.push('isoMapRows');
  if (m.datasets.length) kinds.push('analyze');
  if (m.sweeps.length) kinds.push('sweepSeries');
  const call = rng.pick(kinds);
  const request = () => {
    const [nx, ny] = [rng.pick([2, 3, 4, 16]), rng.pick([2, 3, 4, 16])];
    return { output: rng.pick(m.outputs).key, x: axisFor(rng, m), y: axisFor(rng, m), levels: rng.chance(0.5) ? [] : [rng.next(), rng.pick(EXTREMES)], nx, ny };
  };
  switch (call) {
    case 'isoMapRows': {
      // One row, as the page's map worker computes them.
      const r = request();
      const row = rng.int(r.ny);
      return { call, args: [m.id, params, r, row, row + 1], params };
    }
    case 'isoAxis':
      return { call, args: [axisFor(rng, m), rng.pick([0, 1, 2, 16, 4097, 2 ** 31, 2 ** 32 - 1, -1, NaN, 1e300])] };
    case 'isoLines': {
      const r = request();
      if (rng.chance(0.1)) [r.nx, r.ny] = [rng.pick([0, 1, 100_000, 2 ** 31]), rng.pick([0, 1, 100_000])];
      return { call, args: [gridFor(rng, r.nx, r.ny), r] };
    }
    case 'analyze': {
      const d = rng.pick(m.datasets);
      return { call, args: [m.id, d.id, csvFor(rng, d.columns.length), params], params };
    }
    case 'sweepSeries': {
      // A few points, as the page's sweep worker computes them (sometimes past the curve's end).
      const from = rng.int(60);
      return { call, args: [m.id, rng.pick(m.sweeps).id, params, rng.int(4), from, from + rng.pick([1, 3])], params };
    }
    case 'chartData':
      return { call, args: [m.id, rng.chance(0.95) ? rng.pick(m.charts).id : rng.pick(HOSTILE).slice(0, 40), params], params };
    case 'wrong': {
      // A wrong type or shape in one argument of a model call.
      const target = rng.pick(['evaluate', 'report', 'quickReport', 'check', 'analyze', 'isoAxis']);
      const args = target === 'analyze' ? [m.id, m.datasets[0]?.id ?? 'x', 'p,time\n1,2', params] : target === 'isoAxis' ? [axisFor(rng, m), 8] : [m.id, params];
      args[rng.int(args.length)] = wrongShape(rng);
      return { call: target, args };
    }
    default:
      return { call, args: [m.id, params], params };
  }
}

/**
 * Calls the page makes only in a worker (map bands, sweep curves, the charts
 * of a long report), with progress or superseding: their budget is this many
 * times the page's.
 */
const IN_A_WORKER = new Set(['isoMapRows', 'sweepSeries', 'chartData']);
/** The worker budget's default, in page budgets. */
const WORKER_BUDGET_FACTOR = 10;
/** Calls that evaluate the model whole: in a worker where `quickReport` defers the evaluation. */
const EVALUATING = new Set(['evaluate', 'check', 'report', 'tables', 'remarks']);

/** True when the page would evaluate these arguments in its report worker (quickReport says `deferred`). */
function deferred(isoperf, call, args) {
  if (!EVALUATING.has(call)) return false;
  try {
    return isoperf.quickReport(args[0], args[1]).deferred === true;
  } catch {
    return false;
  }
}

/** True when error `e` names what to change (see the header). */
function namesWhatToChange(e, m, args) {
  if (e instanceof TypeError || e instanceof RangeError) return /^[\w.[\]]+ /.test(e.message);
  const sent = args.find((a) => a && typeof a === 'object' && !ArrayBuffer.isView(a) && !Array.isArray(a)) ?? {};
  if (typeof e.key === 'string' && e.key) return m.params.some((p) => p.key === e.key) || Object.hasOwn(sent, e.key);
  if (typeof e.field === 'string' && e.field) return true;
  if (typeof e.line === 'number') return true;
  return /^unknown (model|chart|sweep|data set|dataset|output|parameter)\b/.test(e.message);
}

function finiteList(xs) {
  return [...xs].every((x) => Number.isFinite(x));
}

/** What is wrong with one call's outcome, or null. */
/**
 * Milliseconds of CPU time this process has used: what a call costs,
 * whatever else the machine runs (a wall clock on a busy machine finds slow
 * calls that are not).
 */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function judge(isoperf, m, { call, args }, budget) {
  const limit = IN_A_WORKER.has(call) || deferred(isoperf, call, args) ? budget.worker : budget.page;
  const t0 = cpuMs();
  let out;
  let error;
  try {
    out = isoperf[call](...args);
  } catch (e) {
    error = e;
  }
  const ms = cpuMs() - t0;
  if (error instanceof WebAssembly.RuntimeError) return `trap: ${error.message}`;
  if (ms > limit) {
    // Once more, so a pause of the engine's own (a garbage collection) is not a finding.
    const t1 = cpuMs();
    try {
      isoperf[call](...args);
    } catch { /* the same outcome as above */ }
    const again = cpuMs() - t1;
    if (again > limit) return `slow: ${ms.toFixed(0)} ms of CPU, then ${again.toFixed(0)} ms`;
  }
  if (error) {
    if (!error.message) return 'an error without a message';
    // What the caller sent comes back quoted (at most 40 characters): only the rest is checked for long numbers.
    if (/\d{25}/.test(error.message.replace(/'[^']*'/g, "''"))) return `a number with dozens of digits: ${error.message.slice(0, 160)}`;
    if (/[\u0000-\u001f\u007f]/.test(error.message)) return `a raw control character: ${JSON.stringify(error.message.slice(0, 160))}`;
    return namesWhatToChange(error, m, args) ? null : `names nothing: ${error.message.slice(0, 160)}`;
  }
  const outputs = call === 'evaluate' ? out : call === 'report' || call === 'quickReport' ? out?.outputs : null;
  if (outputs) {
    for (const o of m.outputs) {
      const v = outputs[o.key];
      const xs = Array.isArray(v) ? v : typeof v === 'number' ? [v] : [];
      if (xs.some((x) => !Number.isFinite(x))) return `non-finite ${o.key}`;
      if (o.unit === 's' && xs.some((x) => x < 0)) return `negative time ${o.key} = ${xs.find((x) => x < 0)}`;
      if (/^efficiency$/i.test(o.key) && xs.some((x) => x < 0 || x > 1 + 1e-9)) return `efficiency ${o.key} = ${xs[0]}`;
    }
  }
  if (call === 'isoAxis' && !finiteList(out)) return 'non-finite axis value';
  if (call === 'isoLines' && !out.every((l) => l.lines.every(finiteList))) return 'non-finite isoline point';
  if (call === 'isoMapRows' && [...out].some((x) => x === Infinity || x === -Infinity)) return 'infinite map value';
  return null;
}

/** The fewest parameters of the case's params that still give the same kind of failure. */
function shrink(isoperf, m, c, budget) {
  if (!c.params) return c;
  const at = c.args.indexOf(c.params);
  const withParams = (p) => ({ ...c, args: c.args.map((a, i) => (i === at ? p : a)), params: p });
  const kind = (p) => judge(isoperf, m, withParams(p), budget)?.split(':')[0];
  const want = kind(c.params);
  let best = { ...c.params };
  for (const key of Object.keys(c.params)) {
    const trial = { ...best };
    delete trial[key];
    if (kind(trial) === want) best = trial;
  }
  return withParams(best);
}

/** Loads the package's full module (Node, from its bytes). */
export async function loadPackage() {
  const isoperf = await import(`${PKG}isoperf.js`);
  isoperf.initSync({ module: readFileSync(`${PKG}isoperf_bg.wasm`) });
  return isoperf;
}

/** A case as text: the call and its arguments (long ones cut). */
function describe(c) {
  const arg = (a) => {
    if (typeof a === 'symbol' || typeof a === 'bigint' || typeof a === 'function') return String(a);
    if (ArrayBuffer.isView(a)) return `Float64Array(${a.length})`;
    try {
      return (JSON.stringify(a) ?? String(a)).slice(0, 300);
    } catch {
      return '(a self-referential object)';
    }
  };
  return `${c.call}(${c.args.map(arg).join(', ')})`;
}

/** Budgets (ms) of a call on the page's thread and in a worker. */
export function budgets(page, worker = page * WORKER_BUDGET_FACTOR) {
  return { page, worker };
}

/**
 * Runs `calls` seeded calls per model; returns {calls, findings: [{model,
 * call, problem, case}], slowest: {model: {ms, case}}, broken} (at most one finding
 * per model, call and kind of problem, each shrunk).
 */
export function fuzz(isoperf, { calls = 1000, seed = 1, budget = budgets(1000), models = null } = {}) {
  const rng = random(seed);
  const registry = isoperf.models().filter((m) => !models?.length || models.includes(m.id));
  const findings = new Map();
  const slowest = {};
  let total = 0;
  for (const m of registry) {
    slowest[m.id] = { ms: 0, case: '' };
    for (let i = 0; i < calls; i++) {
      const c = callFor(rng, m);
      total += 1;
      const t0 = cpuMs();
      const problem = judge(isoperf, m, c, budget);
      const ms = cpuMs() - t0;
      if (ms > slowest[m.id].ms) slowest[m.id] = { ms, case: describe(c) };
      if (!problem) continue;
      const id = `${m.id} ${c.call} ${problem.split(':')[0].split(' ').slice(0, 2).join(' ')}`;
      if (!findings.has(id)) findings.set(id, { model: m.id, call: c.call, problem, case: describe(shrink(isoperf, m, c, budget)) });
      // After a trap the instance may be gone for good: say so and stop.
      try {
        isoperf.models();
      } catch {
        return { calls: total, findings: [...findings.values()], slowest, broken: true };
      }
    }
  }
  return { calls: total, findings: [...findings.values()], slowest, broken: false };
}

/**
 * Every case ever found (tests/fuzz-found.json), with the same checks;
 * returns the problems (empty when all stay fixed). Charts need a canvas:
 * the native replay draws those.
 */
export function replay(isoperf, budget = budgets(1000)) {
  const cases = JSON.parse(readFileSync(fileURLToPath(new URL('../tests/fuzz-found.json', import.meta.url)), 'utf8'));
  const registry = isoperf.models();
  const problems = [];
  for (const c of cases) {
    const m = registry.find((x) => x.id === c.model) ?? registry[0];
    const args = {
      evaluate: () => [c.model, c.params],
      report: () => [c.model, c.params],
      isoAxis: () => [c.axis, c.n],
      analyze: () => [c.model, c.dataset, c.text, c.params],
      isoLines: () => [new Float64Array(c.values.map(Number)), c.request],
    }[c.call];
    if (!args) continue;
    const problem = judge(isoperf, m, { call: c.call, args: args() }, budget);
    if (problem) problems.push(`${c.found}: ${problem}`);
  }
  return { cases: cases.length, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
  };
  const calls = option('--calls', 2000);
  const seed = option('--seed', Date.now() % 1e9);
  const page = option('--budget', 1000);
  const budget = budgets(page, option('--worker-budget', page * WORKER_BUDGET_FACTOR));
  const started = performance.now();
  const isoperf = await loadPackage();
  const result = fuzz(isoperf, { calls, seed, budget, models: args });
  const replayed = replay(isoperf, budget);
  const seconds = (performance.now() - started) / 1000;
  const slow = Object.entries(result.slowest).map(([m, s]) => `\n  ${m} ${s.ms.toFixed(1)} ms: ${s.case.slice(0, 200)}`).join('');
  console.log(`fuzz: ${result.calls} calls (seed ${seed}, ${calls} per model, budget ${budget.page} ms, in a worker ${budget.worker} ms) in ${seconds.toFixed(1)} s: ${result.findings.length} finding(s)${result.broken ? '; the instance broke' : ''}; slowest call per model: ${slow}`);
  for (const f of result.findings) console.log(`- ${f.model} ${f.call}: ${f.problem}\n    ${f.case}`);
  console.log(`replay: ${replayed.cases} cases ever found, ${replayed.problems.length} back`);
  for (const p of replayed.problems) console.log(`- ${p}`);
  process.exitCode = result.findings.length || replayed.problems.length ? 1 : 0;
}
