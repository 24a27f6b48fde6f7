// The iso-map panel: controls generated from the registry (outputs,
// numeric parameters, map presets), a worker that computes the grid, and a
// canvas painted once from a pixel buffer with isolines, labels, axes and a
// colour bar. Knows no model by name.

const MARGIN = { left: 74, right: 96, top: 34, bottom: 52 };
const GRIDS = [64, 128, 256, 512];

// Viridis, 9 stops, interpolated.
const VIRIDIS = [
  [68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37],
];
function colour(t) {
  const x = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const k = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - k;
  return VIRIDIS[k].map((c, i) => Math.round(c + f * (VIRIDIS[k + 1][i] - c)));
}

/** An opaque pixel as one word of an ImageData's Uint32Array view (bytes R, G, B, A in memory). */
const rgba = ([r, g, b]) => new Uint32Array(new Uint8ClampedArray([r, g, b, 255]).buffer)[0];
/** The colour map at 256 steps, as RGBA words; grey for a blank node. */
const LUT = Uint32Array.from({ length: 256 }, (_, k) => rgba(colour(k / 255)));
const GAP = rgba([232, 232, 232]);

/** "KEY:MIN:MAX[:log]" ⇄ {key, min, max, log}. */
export function parseAxis(text) {
  const [key, min, max, log] = String(text ?? '').split(':');
  return { key: key ?? '', min: Number(min), max: Number(max), log: log === 'log' };
}
export const axisText = (a) => `${a.key}:${a.min}:${a.max}${a.log ? ':log' : ''}`;

function toFraction(axis, v) {
  return axis.log ? (Math.log(v) - Math.log(axis.min)) / (Math.log(axis.max) - Math.log(axis.min)) : (v - axis.min) / (axis.max - axis.min);
}
function fromFraction(axis, t) {
  return axis.log ? Math.exp(Math.log(axis.min) + t * (Math.log(axis.max) - Math.log(axis.min))) : axis.min + t * (axis.max - axis.min);
}

/** Tick values: decades (and 2, 5) on log axes, round steps on linear ones. */
function ticks(axis) {
  const out = [];
  if (axis.log) {
    const lo = Math.floor(Math.log10(axis.min));
    const hi = Math.ceil(Math.log10(axis.max));
    const steps = hi - lo <= 3 ? [1, 2, 5] : [1];
    const stride = Math.max(1, Math.ceil((hi - lo) / 8));
    for (let e = lo; e <= hi; e += stride) for (const s of steps) {
      const v = s * 10 ** e;
      if (v >= axis.min * 0.999999 && v <= axis.max * 1.000001) out.push(v);
    }
  } else {
    const span = axis.max - axis.min;
    const raw = span / 6;
    const mag = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((s) => s * mag).find((s) => span / s <= 7) ?? mag * 10;
    for (let v = Math.ceil(axis.min / step) * step; v <= axis.max + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return out;
}

// A line is either [[x, y], …] (isoMap) or a flat Float64Array x0, y0, … (isoLines).
const pointCount = (line) => (!line ? 0 : line instanceof Float64Array ? line.length / 2 : line.length);
const pointAt = (line, k) => (line instanceof Float64Array ? [line[2 * k], line[2 * k + 1]] : line[k]);
function forPoints(line, fn) {
  for (let k = 0; k < pointCount(line); k++) {
    const [x, y] = pointAt(line, k);
    fn(x, y, k);
  }
}

function short(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e5) return String(Number(v.toPrecision(3)));
  return v.toExponential(1).replace('.0e', 'e').replace('e+', 'e');
}

/**
 * Paints `map` ({values, nx, ny, x, y, isolines, min, max}) on `canvas` at
 * device-pixel ratio `dpr`; returns the geometry for hover readouts.
 */
export function paint(canvas, map, labels, dpr) {
  const cssW = Math.max(320, Math.round(canvas.clientWidth || 640));
  const cssH = Math.round(cssW * 0.66);
  canvas.style.height = `${cssH}px`;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, cssW, cssH);
  const plot = { x: MARGIN.left, y: MARGIN.top, w: cssW - MARGIN.left - MARGIN.right, h: cssH - MARGIN.top - MARGIN.bottom };
  const { nx, ny, values } = map;
  let min = Infinity;
  let max = -Infinity;
  let count = 0;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (Number.isFinite(v)) { count++; if (v < min) min = v; if (v > max) max = v; }
  }
  const finite = { length: count };
  if (!count) { min = 0; max = 1; }
  const logColour = min > 0 && max / min > 1e3;
  // Colour position in [0, 1]: log(v) or v, from min to max (the same arithmetic per pixel and for the bar).
  const lo = logColour ? Math.log(min) : min;
  const span = (logColour ? Math.log(max) - Math.log(min) : max - min) || 1;
  const scale = (v) => ((logColour ? Math.log(v) : v) - lo) / span;

  // The colour field: one pixel per grid node, written as one 32-bit RGBA
  // word from a 256-entry table, painted once and scaled up.
  const image = new ImageData(nx, ny);
  const words = new Uint32Array(image.data.buffer);
  for (let j = 0; j < ny; j++) {
    const row = j * nx;
    const out = (ny - 1 - j) * nx;
    for (let i = 0; i < nx; i++) {
      const v = values[row + i];
      if (v - v === 0) { // finite
        const t = Math.round(255 * (((logColour ? Math.log(v) : v) - lo) / span));
        words[out + i] = LUT[t < 0 ? 0 : t > 255 ? 255 : t];
      } else {
        words[out + i] = GAP;
      }
    }
  }
  const off = new OffscreenCanvas(nx, ny);
  off.getContext('2d').putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(off, 0, 0, nx, ny, plot.x, plot.y, plot.w, plot.h);

  const px = (v) => plot.x + toFraction(map.x, v) * plot.w;
  const py = (v) => plot.y + plot.h - toFraction(map.y, v) * plot.h;

  // Isolines: a white halo under a dark line, then a label on each level's longest line.
  for (const [width, style] of [[3, 'rgba(255,255,255,0.85)'], [1.3, '#111']]) {
    ctx.lineWidth = width;
    ctx.strokeStyle = style;
    ctx.lineJoin = 'round';
    for (const iso of map.isolines) for (const line of iso.lines) {
      ctx.beginPath();
      forPoints(line, (x, y, k) => (k ? ctx.lineTo(px(x), py(y)) : ctx.moveTo(px(x), py(y))));
      ctx.stroke();
    }
  }
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const placed = [];
  for (const iso of map.isolines) {
    const line = iso.lines.reduce((a, b) => (pointCount(b) > pointCount(a) ? b : a), null);
    if (pointCount(line) < 2) continue;
    const [x, y] = pointAt(line, Math.floor(pointCount(line) / 2));
    const text = short(iso.level);
    const w = ctx.measureText(text).width + 8;
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.fillRect(px(x) - w / 2, py(y) - 8, w, 16);
    ctx.fillStyle = '#111';
    ctx.fillText(text, px(x), py(y));
    placed.push(text);
  }

  // Axes, ticks and titles.
  ctx.strokeStyle = '#212529';
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x, plot.y, plot.w, plot.h);
  ctx.fillStyle = '#212529';
  ctx.font = '11px system-ui, sans-serif';
  for (const v of ticks(map.x)) {
    const X = px(v);
    ctx.beginPath(); ctx.moveTo(X, plot.y + plot.h); ctx.lineTo(X, plot.y + plot.h + 5); ctx.stroke();
    ctx.textAlign = 'center'; ctx.textBaseline = 'top';
    ctx.fillText(short(v), X, plot.y + plot.h + 7);
  }
  for (const v of ticks(map.y)) {
    const Y = py(v);
    ctx.beginPath(); ctx.moveTo(plot.x - 5, Y); ctx.lineTo(plot.x, Y); ctx.stroke();
    ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
    ctx.fillText(short(v), plot.x - 7, Y);
  }
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'center'; ctx.textBaseline = 'bottom';
  ctx.fillText(labels.x, plot.x + plot.w / 2, cssH - 6);
  ctx.save();
  ctx.translate(14, plot.y + plot.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'top';
  ctx.fillText(labels.y, 0, 0);
  ctx.restore();
  ctx.font = '600 13px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  ctx.fillText(labels.title, plot.x + plot.w / 2, 8);

  // Colour bar with the levels marked.
  const bar = { x: plot.x + plot.w + 22, y: plot.y, w: 14, h: plot.h };
  // One pixel per CSS row, drawn once, stretched to the bar without smoothing.
  const strip = new ImageData(1, bar.h);
  const stripWords = new Uint32Array(strip.data.buffer);
  for (let k = 0; k < bar.h; k++) stripWords[k] = rgba(colour(1 - k / bar.h));
  const stripCanvas = new OffscreenCanvas(1, bar.h);
  stripCanvas.getContext('2d').putImageData(strip, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(stripCanvas, bar.x, bar.y, bar.w, bar.h);
  ctx.imageSmoothingEnabled = true;
  ctx.strokeRect(bar.x, bar.y, bar.w, bar.h);
  ctx.font = '10px system-ui, sans-serif';
  ctx.textAlign = 'left'; ctx.textBaseline = 'middle';
  ctx.fillStyle = '#212529';
  const barY = (v) => bar.y + bar.h - scale(v) * bar.h;
  if (finite.length) {
    ctx.fillText(short(max), bar.x + bar.w + 4, bar.y + 4);
    ctx.fillText(short(min), bar.x + bar.w + 4, bar.y + bar.h - 4);
    for (const iso of map.isolines) {
      if (iso.level <= min || iso.level >= max) continue;
      ctx.beginPath(); ctx.moveTo(bar.x - 3, barY(iso.level)); ctx.lineTo(bar.x + bar.w + 3, barY(iso.level)); ctx.stroke();
      ctx.fillText(short(iso.level), bar.x + bar.w + 4, barY(iso.level));
    }
  }
  return { plot, cssW, cssH, labels: placed, min, max };
}

/** The grid value nearest to CSS point (cx, cy), or null outside the plot. */
export function readout(map, geometry, cx, cy) {
  const { plot } = geometry;
  const fx = (cx - plot.x) / plot.w;
  const fy = 1 - (cy - plot.y) / plot.h;
  if (fx < 0 || fx > 1 || fy < 0 || fy > 1) return null;
  const i = Math.round(fx * (map.nx - 1));
  const j = Math.round(fy * (map.ny - 1));
  return { x: fromFraction(map.x, fx), y: fromFraction(map.y, fy), value: map.values[j * map.nx + i] };
}

export { GRIDS };
