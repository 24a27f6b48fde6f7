// Times the work of the page in this browser. Generic: every model, chart,
// preset and map of the registry.
//  1. window.benchResults: each wasm export the page and its workers call,
//     at each model's defaults (evaluate, tables, charts, sweeps, maps).
//  2. window.benchKeystrokes: one keystroke on the main thread, for every
//     model and preset: `report` plus a drawChart per chart, against the
//     calls the page made per keystroke before `report` existed.
//  3. window.benchMaps: the page itself in an iframe, from choosing a map
//     preset to the map painted (the page's isoperf:map-painted mark) and
//     to the next frame.
import {
  start, startFull, loadRegistry, report, check, evaluate, tables, remarks, drawChart, drawSweep, isoMap, isoMapRows, isoLines, mapLayout, sweepPlan, sweepSeries,
} from './wasm.js';
import { defaultsOf, presetText } from './form.js';
import { paint } from './map.js';

// ?quick (the end-to-end test) checks that every case runs, each once.
const QUICK = new URLSearchParams(location.search).has('quick');
const BATCHES = 15;
const BATCH_MS = 20;

/**
 * Median time per call in µs, over batches sized to take ~20 ms each
 * (single calls when one takes longer than 50 ms); ?quick: one call.
 */
function time(fn) {
  const first = performance.now();
  if (QUICK) {
    fn();
    return { us: (performance.now() - first) * 1000, calls: 1 };
  }
  fn();
  if (performance.now() - first > 50) {
    const per = [0, 1, 2].map(() => { const t0 = performance.now(); fn(); return (performance.now() - t0) * 1000; }).sort((a, b) => a - b);
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

function addRow(table, cells) {
  const tr = document.createElement('tr');
  for (const text of cells) tr.append(Object.assign(document.createElement('td'), { textContent: text }));
  document.querySelector(`#${table} tbody`).append(tr);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** 1. Each export at each model's defaults. */
function exportsAtDefaults(results, canvas) {
  const run = (cases) => {
    for (const [name, fn] of cases) {
      const r = time(fn);
      results.push({ name, ...r });
      addRow('bench-results', [name, format(r.us), String(r.calls)]);
    }
  };
  for (const m of loadRegistry().models) {
    run([
      [`${m.id}: evaluate`, () => evaluate(m.id, {})],
      [`${m.id}: tables`, () => tables(m.id, {})],
      ...m.charts.map((c) => [`${m.id}: draw chart ${c.id} (${canvas.width}×${canvas.height} px)`, () => drawChart(canvas, m.id, c.id, {}, 2)]),
      // A sweep as the worker computes it: one curve, then all of them.
      ...m.sweeps.flatMap((s) => [
        [`${m.id}: sweep ${s.id}, one curve of ${sweepPlan(m.id, s.id).xs.length} points`, () => sweepSeries(m.id, s.id, {}, 0)],
        [`${m.id}: sweep ${s.id}, all ${s.values.length} curves`, () => s.values.forEach((_, k) => sweepSeries(m.id, s.id, {}, k))],
      ]),
    ]);
  }
  // The iso-map of benches/isomap_numpy.py: compute, contour and paint timed apart.
  for (const m of loadRegistry().models.filter((x) => x.maps.length)) {
    const preset = m.maps[0];
    const n = preset.grid;
    const request = { output: preset.output, x: preset.x, y: preset.y, levels: [...preset.levels], nx: n, ny: n };
    const values = isoMapRows(m.id, {}, request, 0, n);
    const width = Math.round(canvas.clientWidth || 640);
    const layout = mapLayout(m.id, request, values, width);
    run([
      [`${m.id}: map ${preset.id} ${n}×${n}, compute`, () => isoMapRows(m.id, {}, request, 0, n)],
      [`${m.id}: map ${preset.id} ${n}×${n}, ${request.levels.length} isolines`, () => isoLines(values, request)],
      [`${m.id}: map ${preset.id} ${n}×${n}, compute + isolines (isoMap)`, () => isoMap(m.id, {}, request)],
      [`${m.id}: map ${preset.id}, lay out (isolines, pixels, labels: mapLayout)`, () => mapLayout(m.id, request, values, width)],
      [`${m.id}: map ${preset.id}, paint the layout`, () => paint(canvas, layout, 2)],
    ]);
    // Every preset's grid computed, at its own size and at twice it (128 × 128 for 64).
    run(m.maps.flatMap((p) => [p.grid, 2 * p.grid].map((k) => {
      const r = { output: p.output, x: p.x, y: p.y, levels: [...p.levels], nx: k, ny: k };
      return [`${m.id}: map ${p.id} ${k}×${k}, compute (every preset)`, () => isoMapRows(m.id, {}, r, 0, k)];
    })));
  }
  // A calibration's uncertainty carried (2k + 1 evaluations for k fitted
  // parameters): pmm's example fit of t_flops and t_comm (its values and
  // covariance, from `isoperf calibrate pmm www/data/pmm-runs-synthetic.csv
  // --fit t_flops,t_comm --relative`), and MapReduce's a_map alone.
  const fit = { t_flops: '1.988237094428484e-10', t_comm: '5.115312299477867e-8' };
  const carried = { parameters: ['t_flops', 't_comm'], covariance: [[3.0693926370889934e-24, -1.7380120080512326e-21], [-1.7380120080512326e-21, 2.659755975420352e-18]], t95: 2.0166921992275086 };
  const pmmMap = loadRegistry().models.find((x) => x.id === 'pmm').maps[0];
  const k = pmmMap.grid;
  const pmmRequest = { output: pmmMap.output, x: pmmMap.x, y: pmmMap.y, levels: [...pmmMap.levels], nx: k, ny: k };
  const sweep = loadRegistry().models.find((x) => x.id === 'mapreduce').sweeps[0];
  const aMap = { parameters: ['a_map'], covariance: [[6.3e-13]], t95: 2.2 };
  run([
    ['pmm: draw chart time, carrying a fit of 2 parameters (a band under each curve)', () => drawChart(canvas, 'pmm', 'time', fit, 2, undefined, undefined, carried)],
    [`pmm: map ${pmmMap.id} ${k}×${k}, compute carrying a fit of 2 parameters (each node's interval)`, () => isoMapRows('pmm', fit, pmmRequest, 0, k, carried)],
    [`mapreduce: sweep ${sweep.id}, one curve carrying a fit of a_map (its band)`, () => sweepSeries('mapreduce', sweep.id, {}, 0, undefined, undefined, aMap)],
  ]);
  // MapReduce's m × r map where half the points are a plateau and a descent
  // (the descent point), not the chain in closed form.
  const descentPoint = { m: '594', r: '12', l: '8', V: '1.405e11', S: '9.037', gamma: '4.483e-2' };
  const preset = loadRegistry().models.find((x) => x.id === 'mapreduce').maps[0];
  const n = QUICK ? 8 : 32;
  const request = { output: preset.output, x: preset.x, y: preset.y, levels: [...preset.levels], nx: n, ny: n };
  run([[`mapreduce: map ${preset.id} ${n}×${n}, compute, at m = 594, r = 12, ℓ = 8, V = 1.405e11, S = 9.037, γ = 0.04483`,
    () => isoMapRows('mapreduce', descentPoint, request, 0, n)]]);
}

/** wasm/native: native figures (ms) come in the query, e.g. bench.html?native=compute:0.21,isolines:0.53,map:0.96 (scripts/bench-compare.mjs). */
function nativeRatios(results) {
  const native = Object.fromEntries((new URLSearchParams(location.search).get('native') ?? '')
    .split(',').filter(Boolean).map((kv) => kv.split(':')).map(([k, v]) => [k, Number(v)]));
  const compute = results.find((r) => r.name.startsWith('dlt: map') && r.name.includes(', compute'));
  const lines = results.find((r) => r.name.startsWith('dlt: map') && / \d+ isolines$/.test(r.name));
  // The page's path is the worker's: isoMapRows (compute) then isoLines.
  const both = compute && lines ? { us: compute.us + lines.us } : null;
  window.benchRatios = {};
  for (const [key, r] of [['compute', compute], ['isolines', lines], ['map', both]]) {
    if (!r || !(native[key] > 0)) continue;
    const ratio = r.us / 1000 / native[key];
    window.benchRatios[key] = ratio;
    addRow('bench-results', [`dlt map, ${key}: wasm / native (${native[key]} ms natively)`, `${ratio.toFixed(2)} ×`, '']);
  }
}

/** Chart canvases as the page sizes them on a desktop screen: 400 CSS px wide, at device pixel ratio 2. */
const CHART = { width: 800, height: 496, dpr: 2 };

/** 2. One keystroke on the main thread, for every model at its defaults and at every preset. */
function keystrokes() {
  const canvas = document.createElement('canvas');
  canvas.width = CHART.width;
  canvas.height = CHART.height;
  const rows = [];
  const attempt = (fn) => { try { fn(); } catch { /* a chart the parameters cannot draw */ } };
  for (const m of loadRegistry().models) {
    const presets = [{ id: '(defaults)', values: [] }, ...m.preset_groups.flatMap((g) => g.presets)];
    // Curves for redrawing the sweeps as the page did on every keystroke (computed once, not timed).
    const curves = Object.fromEntries(m.sweeps.map((s) => [s.id, s.values.map((_, k) => sweepSeries(m.id, s.id, {}, k))]));
    const map = m.maps[0] && { output: m.maps[0].output, x: m.maps[0].x, y: m.maps[0].y, levels: [...m.maps[0].levels], nx: 2, ny: 2 };
    for (const preset of presets) {
      const params = defaultsOf(m);
      for (const [key, value] of preset.values) params[key] = presetText(value);
      const charts = () => m.charts.forEach((c) => attempt(() => drawChart(canvas, m.id, c.id, params, CHART.dpr)));
      const r = time(() => report(m.id, params));
      const c = time(charts);
      const old = time(() => {
        if (check(m.id, params).length) attempt(() => tables(m.id, params));
        else attempt(() => { evaluate(m.id, params); tables(m.id, params); remarks(m.id, params); });
        charts();
        m.sweeps.forEach((s) => attempt(() => drawSweep(canvas, m.id, s.id, params, curves[s.id], CHART.dpr)));
        if (map) attempt(() => isoMap(m.id, params, map));
      });
      const row = { model: m.id, preset: preset.id, report_us: r.us, charts_us: c.us, keystroke_us: r.us + c.us, before_us: old.us };
      rows.push(row);
      addRow('bench-keystrokes', [m.id, preset.id, format(r.us), format(c.us), format(row.keystroke_us), format(old.us)]);
    }
  }
  return rows;
}

/** Resolves when `test()` holds, checking after every frame (rejects after `ms`). */
function until(test, ms, what) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const check = () => {
      if (test()) resolve();
      else if (performance.now() - t0 > ms) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(check, 5);
    };
    check();
  });
}

/** 3. The page in the iframe: from a map preset's choice to the painted map, for every map of every model. */
async function mapClicks() {
  const frame = document.getElementById('bench-page');
  frame.scrollIntoView();
  const rows = [];
  const runs = QUICK ? 1 : 7;
  for (const m of loadRegistry().models.filter((x) => x.maps.length)) {
    await new Promise((resolve) => {
      frame.onload = resolve;
      frame.src = `../index.html?bench=${m.id}#model=${m.id}`;
    });
    const win = frame.contentWindow;
    const doc = frame.contentDocument;
    await until(() => win.isoperf && doc.querySelector('#map canvas.map-canvas[data-labels]'), 30_000, `${m.id}: the first map`);
    doc.getElementById('map').scrollIntoView();
    const times = Object.fromEntries(m.maps.map((p) => [p.id, { painted: [], frame: [] }]));
    for (let run = 0; run < runs; run++) {
      for (const preset of m.maps) {
        const select = doc.querySelector('#map select.map-preset');
        const t0 = win.performance.now();
        // Painted: the page's mark (a page without it: the canvas's data-labels, set by every paint).
        const painted = new Promise((resolve) => {
          const observer = new win.MutationObserver(() => {
            const now = win.performance.now();
            const mark = win.performance.getEntriesByName('isoperf:map-painted').find((e) => e.startTime > t0);
            observer.disconnect();
            win.requestAnimationFrame(() => resolve({ painted: (mark?.startTime ?? now) - t0, frame: win.performance.now() - t0 }));
          });
          observer.observe(doc.getElementById('map'), { subtree: true, attributes: true, attributeFilter: ['data-labels'] });
        });
        select.value = preset.id;
        select.dispatchEvent(new win.Event('change', { bubbles: true }));
        const t = await Promise.race([painted, new Promise((_, reject) => setTimeout(() => reject(new Error(`${m.id}: map ${preset.id} was not painted`)), 30_000))]);
        times[preset.id].painted.push(t.painted);
        times[preset.id].frame.push(t.frame);
        await new Promise((resolve) => setTimeout(resolve, 50)); // let the page settle (sweeps, charts) between runs
      }
    }
    for (const preset of m.maps) {
      const t = times[preset.id];
      const row = { model: m.id, map: preset.id, grid: preset.grid, painted_ms: median(t.painted), frame_ms: median(t.frame), runs: t.painted.length };
      rows.push(row);
      addRow('bench-maps', [m.id, preset.id, `${preset.grid} × ${preset.grid}`, `${row.painted_ms.toFixed(1)} ms`, `${row.frame_ms.toFixed(1)} ms`, String(row.runs)]);
    }
  }
  frame.src = 'about:blank';
  return rows;
}

async function main() {
  await start();
  await startFull();
  const canvas = document.getElementById('bench-canvas');
  const results = [];
  exportsAtDefaults(results, canvas);
  nativeRatios(results);
  window.benchKeystrokes = keystrokes();
  window.benchMaps = await mapClicks();
  document.getElementById('bench-status').textContent = 'Done.';
  window.benchResults = results;
}

main().catch((e) => {
  document.getElementById('bench-status').textContent = `Benchmark failed: ${e.message}`;
});
