// Draws an iso-map as the package lays it out (mapLayout: the colour field
// as pixels, isolines, labels, axes, titles and colour bar, all placed in
// Rust and tested natively), and reads a value under the pointer. Knows no
// model by name.

const GRIDS = [64, 128, 256, 512];

/** "KEY:MIN:MAX[:log]" ⇄ {key, min, max, log}. */
export function parseAxis(text) {
  const [key, min, max, log] = String(text ?? '').split(':');
  return { key: key ?? '', min: Number(min), max: Number(max), log: log === 'log' };
}
export const axisText = (a) => `${a.key}:${a.min}:${a.max}${a.log ? ':log' : ''}`;

function fromFraction(axis, t) {
  return axis.log ? Math.exp(Math.log(axis.min) + t * (Math.log(axis.max) - Math.log(axis.min))) : axis.min + t * (axis.max - axis.min);
}

/** A stretched image of `pixels` (RGBA, `w` × `h`) drawn into `rect`. */
function blit(ctx, pixels, w, h, rect, smooth) {
  const image = new ImageData(w, h);
  image.data.set(pixels);
  const off = new OffscreenCanvas(w, h);
  off.getContext('2d').putImageData(image, 0, 0);
  ctx.imageSmoothingEnabled = smooth;
  ctx.drawImage(off, 0, 0, w, h, rect.x, rect.y, rect.w, rect.h);
  ctx.imageSmoothingEnabled = true;
}

/** Strokes each isoline's polylines (flat x0, y0, x1, y1, …) in its ink. */
function strokeLines(ctx, isolines, inks) {
  isolines.forEach((iso, k) => {
    ctx.strokeStyle = inks[k] ?? '#111';
    for (const line of iso.lines) {
      ctx.beginPath();
      ctx.moveTo(line[0], line[1]);
      for (let i = 2; i < line.length; i += 2) ctx.lineTo(line[i], line[i + 1]);
      ctx.stroke();
    }
  });
}

/**
 * Draws `layout` (from the package's mapLayout: every position in CSS px)
 * on `canvas` at device-pixel ratio `dpr`; returns the geometry for hover
 * readouts and the texts of the isoline labels placed.
 */
export function paint(canvas, layout, dpr) {
  const { width, height, plot, bar } = layout;
  canvas.style.height = `${height}px`;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  // Paper and ink from the page's colour scheme (the canvas's CSS: --paper, --ink).
  const css = getComputedStyle(canvas);
  const paper = css.getPropertyValue('--paper').trim() || '#fff';
  const ink = css.getPropertyValue('--ink').trim() || '#212529';
  ctx.fillStyle = paper;
  ctx.fillRect(0, 0, width, height);
  // Gaps are transparent in the pixels: the scheme's gap colour shows through.
  ctx.fillStyle = css.getPropertyValue('--gap').trim() || '#e8e8e8';
  ctx.fillRect(plot.x, plot.y, plot.w, plot.h);
  blit(ctx, layout.pixels, layout.nx, layout.ny, plot, true);

  // Isolines: single lines, light on the dark part of the scale (isoline_inks),
  // then their labels on white boxes.
  ctx.lineJoin = 'round';
  ctx.lineWidth = 1.5;
  strokeLines(ctx, layout.isolines, layout.isoline_inks);
  // Where a calibration's 95% interval ends cross each level: thin and dashed, in the level's ink.
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 3]);
  strokeLines(ctx, layout.interval_lines, layout.interval_inks);
  ctx.setLineDash([]);
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const l of layout.labels) {
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.fillRect(l.rect.x, l.rect.y, l.rect.w, l.rect.h);
    ctx.fillStyle = '#111';
    ctx.fillText(l.text, l.x, l.y);
  }

  // Axes, ticks and titles.
  ctx.strokeStyle = ink;
  ctx.fillStyle = ink;
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x, plot.y, plot.w, plot.h);
  ctx.font = '11px system-ui, sans-serif';
  const bottom = plot.y + plot.h;
  ctx.textAlign = 'center'; ctx.textBaseline = 'top';
  for (const t of layout.x_ticks) {
    ctx.beginPath(); ctx.moveTo(t.at, bottom); ctx.lineTo(t.at, bottom + 5); ctx.stroke();
    ctx.fillText(t.text, t.at, bottom + 7);
  }
  ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (const t of layout.y_ticks) {
    ctx.beginPath(); ctx.moveTo(plot.x - 5, t.at); ctx.lineTo(plot.x, t.at); ctx.stroke();
    ctx.fillText(t.text, plot.x - 7, t.at);
  }
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'center'; ctx.textBaseline = 'bottom';
  ctx.fillText(layout.x_title, plot.x + plot.w / 2, layout.x_title_at);
  ctx.save();
  ctx.translate(14, plot.y + plot.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'top';
  ctx.fillText(layout.y_title, 0, 0);
  ctx.restore();
  ctx.font = '600 13px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  ctx.fillText(layout.title, plot.x + plot.w / 2, 8);

  // The model's reference lines (a library's switch points): dashed, each labelled on a light box.
  ctx.lineWidth = 1.5;
  for (const g of layout.guides) {
    ctx.strokeStyle = '#111';
    ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.moveTo(g.x1, g.y1); ctx.lineTo(g.x2, g.y2); ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.fillRect(g.rect.x, g.rect.y, g.rect.w, g.rect.h);
    ctx.fillStyle = '#111';
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    ctx.fillText(g.label, g.rect.x + g.rect.w / 2, g.rect.y + g.rect.h / 2);
  }
  ctx.lineWidth = 1;
  ctx.strokeStyle = ink;
  ctx.fillStyle = ink;
  if (layout.categorical) {
    // A categorical map: a legend of its regions' colours (and the dashed lines) instead of a colour bar.
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left'; ctx.textBaseline = 'middle';
    for (const e of layout.legend) {
      if (e.rgb) {
        ctx.fillStyle = `rgb(${e.rgb[0]},${e.rgb[1]},${e.rgb[2]})`;
        ctx.fillRect(e.x, e.y - 5, 10, 10);
        ctx.strokeRect(e.x, e.y - 5, 10, 10);
      } else {
        ctx.setLineDash([4, 3]); ctx.lineWidth = 1.5;
        ctx.beginPath(); ctx.moveTo(e.x, e.y); ctx.lineTo(e.x + 10, e.y); ctx.stroke();
        ctx.setLineDash([]); ctx.lineWidth = 1;
      }
      ctx.fillStyle = ink;
      ctx.fillText(e.text, e.x + 14, e.y);
    }
    return { plot, labels: layout.labels.map((l) => l.text) };
  }
  // The colour bar: one pixel per row, stretched without smoothing; a mark at each level.
  blit(ctx, layout.barPixels, 1, layout.barPixels.length / 4, bar, false);
  ctx.strokeRect(bar.x, bar.y, bar.w, bar.h);
  // A clipped end: a triangle in the end colour (values beyond it share that colour).
  const ends = layout.barPixels;
  for (const [above, clipped] of [[true, layout.scale?.above], [false, layout.scale?.below]]) {
    if (!clipped) continue;
    const o = above ? 0 : ends.length - 4;
    const [tip, base] = above ? [bar.y - 10, bar.y - 2] : [bar.y + bar.h + 10, bar.y + bar.h + 2];
    ctx.beginPath();
    ctx.moveTo(bar.x, base); ctx.lineTo(bar.x + bar.w, base); ctx.lineTo(bar.x + bar.w / 2, tip); ctx.closePath();
    ctx.fillStyle = `rgb(${ends[o]},${ends[o + 1]},${ends[o + 2]})`;
    ctx.fill();
    ctx.stroke();
  }
  ctx.fillStyle = ink;
  for (const y of layout.bar_marks) {
    ctx.beginPath(); ctx.moveTo(bar.x - 3, y); ctx.lineTo(bar.x + bar.w + 3, y); ctx.stroke();
  }
  ctx.font = '10px system-ui, sans-serif';
  ctx.textAlign = 'left'; ctx.textBaseline = 'middle';
  for (const t of layout.bar_ticks) ctx.fillText(t.text, bar.x + bar.w + 4, t.at);
  return { plot, labels: layout.labels.map((l) => l.text) };
}

/** The grid value nearest to CSS point (cx, cy), or null outside the plot. */
export function readout(map, geometry, cx, cy) {
  const { plot } = geometry;
  const fx = (cx - plot.x) / plot.w;
  const fy = 1 - (cy - plot.y) / plot.h;
  if (fx < 0 || fx > 1 || fy < 0 || fy > 1) return null;
  const i = Math.round(fx * (map.nx - 1));
  const j = Math.round(fy * (map.ny - 1));
  const k = j * map.nx + i;
  return { x: fromFraction(map.x, fx), y: fromFraction(map.y, fy), value: map.values[k], low: map.low?.[k], high: map.high?.[k] };
}

export { GRIDS };
