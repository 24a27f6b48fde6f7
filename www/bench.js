// Times the wasm exports the page calls on every keystroke. Generic: it
// benchmarks every model and chart of the registry at its defaults.
import init, { models, evaluate, tables, drawChart, isoMap, isoMapRows, isoLines, sweepPlan, sweepSeries } from '../pkg/isoperf.js';
import { paint } from './map.js';

// ?quick (the end-to-end test) checks that every case runs, with few, short batches.
const QUICK = new URLSearchParams(location.search).has('quick');
const BATCHES = QUICK ? 3 : 15;
const BATCH_MS = QUICK ? 4 : 20;

/** Median time per call in µs, over batches sized to take ~20 ms each (single calls when one takes longer than 50 ms). */
function time(fn) {
  const first = performance.now();
  fn();
  if (performance.now() - first > (QUICK ? 10 : 50)) {
    const per = (QUICK ? [0] : [0, 1, 2]).map(() => { const t0 = performance.now(); fn(); return (performance.now() - t0) * 1000; }).sort((a, b) => a - b);
    return { us: per[Math.floor(per.length / 2)], calls: per.length + 1 };
  }
  let n = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    if (performance.now() - t0 > BATCH_MS || n > 1e6) break;
    n *= 2;
  }
  const per = [];
  for (let b = 0; b < BATCHES; b++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    per.push(((performance.now() - t0) * 1000) / n);
  }
  per.sort((a, b) => a - b);
  return { us: per[Math.floor(per.length / 2)], calls: n * BATCHES };
}

function format(us) {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toPrecision(3)} µs`;
}

async function main() {
  await init();
  const canvas = document.getElementById('bench-canvas');
  const body = document.querySelector('#bench-results tbody');
  const results = [];
  /** Times each [name, fn] case and adds its row to the table. */
  const run = (cases) => {
    for (const [name, fn] of cases) {
      const r = time(fn);
      results.push({ name, ...r });
      const tr = document.createElement('tr');
      for (const text of [name, format(r.us), String(r.calls)]) tr.append(Object.assign(document.createElement('td'), { textContent: text }));
      body.append(tr);
    }
  };
  for (const m of models()) {
    const cases = [
      [`${m.id}: evaluate`, () => evaluate(m.id, {})],
      [`${m.id}: tables`, () => tables(m.id, {})],
      ...m.charts.map((c) => [`${m.id}: draw chart ${c.id} (${canvas.width}×${canvas.height} px)`, () => drawChart(canvas, m.id, c.id, {}, 2)]),
      // A sweep as the worker computes it: one curve, then all of them.
      ...m.sweeps.flatMap((s) => [
        [`${m.id}: sweep ${s.id}, one curve of ${sweepPlan(m.id, s.id).xs.length} points`, () => sweepSeries(m.id, s.id, {}, 0)],
        [`${m.id}: sweep ${s.id}, all ${s.values.length} curves`, () => s.values.forEach((_, k) => sweepSeries(m.id, s.id, {}, k))],
      ]),
    ];
    run(cases);
  }
  // The iso-map of benches/isomap_numpy.py: compute, contour and paint timed apart.
  for (const m of models().filter((x) => x.maps.length)) {
    const preset = m.maps[0];
    const n = preset.grid;
    const request = { output: preset.output, x: preset.x, y: preset.y, levels: [...preset.levels], nx: n, ny: n };
    const values = isoMapRows(m.id, {}, request, 0, n);
    const lines = isoLines(values, request);
    const parse = (t) => { const [key, min, max, log] = t.split(':'); return { key, min: +min, max: +max, log: log === 'log' }; };
    const map = { ...request, values, isolines: lines, x: parse(request.x), y: parse(request.y) };
    const cases = [
      [`${m.id}: map ${preset.id} ${n}×${n}, compute`, () => isoMapRows(m.id, {}, request, 0, n)],
      [`${m.id}: map ${preset.id} ${n}×${n}, ${request.levels.length} isolines`, () => isoLines(values, request)],
      [`${m.id}: map ${preset.id} ${n}×${n}, compute + isolines (isoMap)`, () => isoMap(m.id, {}, request)],
      [`${m.id}: map ${preset.id}, paint`, () => paint(canvas, map, { x: 'x', y: 'y', title: 't' }, 2)],
    ];
    run(cases);
  }
  // wasm/native: native figures (ms) come in the query, e.g. from scripts/bench-compare.mjs:
  // bench.html?native=compute:0.21,isolines:0.53,map:0.96
  const native = Object.fromEntries((new URLSearchParams(location.search).get('native') ?? '')
    .split(',').filter(Boolean).map((kv) => kv.split(':')).map(([k, v]) => [k, Number(v)]));
  const dlt = (part) => results.find((r) => r.name.startsWith('dlt: map') && r.name.includes(part));
  const compute = dlt(', compute');
  const lines = results.find((r) => r.name.startsWith('dlt: map') && / \d+ isolines$/.test(r.name));
  // The page's path is the worker's: isoMapRows (compute) then isoLines.
  const both = compute && lines ? { us: compute.us + lines.us } : null;
  const pairs = [['compute', compute], ['isolines', lines], ['map', both]];
  window.benchRatios = {};
  for (const [key, r] of pairs) {
    if (!r || !(native[key] > 0)) continue;
    const ratio = r.us / 1000 / native[key];
    window.benchRatios[key] = ratio;
    const tr = document.createElement('tr');
    for (const text of [`dlt map, ${key}: wasm / native (${native[key]} ms natively)`, `${ratio.toFixed(2)} ×`, '']) tr.append(Object.assign(document.createElement('td'), { textContent: text }));
    body.append(tr);
  }
  document.getElementById('bench-status').textContent = 'Done.';
  window.benchResults = results;
}

main().catch((e) => {
  document.getElementById('bench-status').textContent = `Benchmark failed: ${e.message}`;
});
