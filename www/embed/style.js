// The shadow-DOM style of <isoperf-model>: nothing of the host page's CSS
// gets in and none of this gets out. The host sets fonts and colours through
// CSS custom properties, which do cross the shadow boundary:
//
//   --isoperf-font         font family (default: system-ui)
//   --isoperf-font-size    base size (default: 1rem)
//   --isoperf-ink          text colour
//   --isoperf-muted        secondary text (labels, captions)
//   --isoperf-paper        background
//   --isoperf-line         borders and rules
//   --isoperf-accent       the first output, links, focus rings
//   --isoperf-bad          messages about bad input
//   --isoperf-radius       corner radius (default: 8px)
//
// Each has a light and a dark default; the element picks the host's scheme
// (isoperf-embed.js sets data-scheme on .root). Charts and maps are drawn on
// white in both schemes, as in the page.

export const STYLE = `
:host {
  display: block;
  font-family: var(--isoperf-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  font-size: var(--isoperf-font-size, 1rem);
  line-height: 1.4;
  text-align: start;
  margin: 1em 0;
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.root {
  --ink: var(--isoperf-ink, #1d2125);
  --muted: var(--isoperf-muted, #5b636b);
  --paper: var(--isoperf-paper, #fff);
  --line: var(--isoperf-line, #d9dde2);
  --accent: var(--isoperf-accent, #0072b2);
  --bad: var(--isoperf-bad, #b3261e);
  --warn: #7a4b00;
  --warn-line: #e69f00;
  --radius: var(--isoperf-radius, 8px);
  color-scheme: light;
  color: var(--ink);
  background: var(--paper);
  border: 1px solid var(--line);
  border-radius: var(--radius);
  padding: 0.8em 0.9em;
  overflow-wrap: anywhere;
}
.root[data-scheme="dark"] {
  --ink: var(--isoperf-ink, #e3e6ea);
  --muted: var(--isoperf-muted, #a2aab3);
  --paper: var(--isoperf-paper, #1a1d21);
  --line: var(--isoperf-line, #3b424a);
  --accent: var(--isoperf-accent, #56b4e9);
  --bad: var(--isoperf-bad, #ff8a80);
  --warn: #f3c46b;
  color-scheme: dark;
}
.root > :first-child { margin-top: 0; }
.root > :last-child { margin-bottom: 0; }
.loading { color: var(--muted); margin: 0; }
.messages:empty, .problems:empty, .warnings:empty { display: none; }
.messages, .problems { margin: 0 0 0.7em; display: grid; gap: 0.3em; }
.messages p, .problems p {
  margin: 0; color: var(--bad); font-size: 0.88em; font-weight: 500;
  border-left: 3px solid var(--bad); padding: 0.3em 0.6em;
  background: color-mix(in srgb, var(--bad) 9%, var(--paper));
  border-radius: 4px;
}
.internal {
  display: flex; flex-wrap: wrap; gap: 0.4em 0.8em; align-items: flex-start; justify-content: space-between;
  margin: 0 0 0.7em; padding: 0.45em 0.6em; border: 1px solid var(--bad); border-left-width: 4px; border-radius: 4px;
  background: color-mix(in srgb, var(--bad) 9%, var(--paper));
}
.internal-text { margin: 0; flex: 1 1 16em; min-width: 0; color: var(--bad); font-size: 0.88em; font-weight: 600; }
.internal-text a { color: inherit; font-weight: 500; }
.internal-dismiss {
  font: inherit; font-size: 0.8em; padding: 0.2em 0.6em; cursor: pointer;
  color: var(--ink); background: var(--paper); border: 1px solid var(--line); border-radius: 5px;
}
.warnings { margin: 0 0 0.7em; }
.warnings p {
  margin: 0 0 0.3em; color: var(--warn); font-size: 0.88em;
  border-left: 3px solid var(--warn-line); padding: 0.3em 0.6em; border-radius: 4px;
  background: color-mix(in srgb, var(--warn-line) 12%, var(--paper));
}

.fields { display: flex; flex-wrap: wrap; gap: 0.5em 0.9em; margin: 0 0 0.8em; align-items: flex-start; }
.field { display: grid; gap: 0.15em; min-width: 8em; flex: 1 1 9em; max-width: 16em; }
.field label { font-size: 0.82em; font-weight: 600; }
.field .unit { color: var(--muted); font-weight: 400; }
.field input, .field select {
  font: inherit; font-size: 0.95em; padding: 0.3em 0.45em; width: 100%;
  color: var(--ink); background: var(--paper);
  border: 1px solid color-mix(in srgb, var(--muted) 60%, var(--paper)); border-radius: 5px;
  font-variant-numeric: tabular-nums;
}
.field input:focus-visible, .field select:focus-visible { outline: 2px solid var(--accent); outline-offset: 0; border-color: var(--accent); }
.field.invalid input { border-color: var(--bad); background: color-mix(in srgb, var(--bad) 9%, var(--paper)); }
.field.inapplicable { opacity: 0.55; }
.field-error, .field-hint { font-size: 0.78em; margin: 0; }
.field-error { color: var(--bad); font-weight: 500; }
.field-hint { color: var(--accent); }
.field-error:empty, .field-hint:empty { display: none; }

.outputs { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5em, 1fr)); gap: 0.5em; margin: 0 0 0.8em; }
.output { border: 1px solid var(--line); border-radius: var(--radius); padding: 0.45em 0.65em; display: flex; flex-direction: column; min-width: 0; }
.output:first-child { border-color: var(--accent); background: color-mix(in srgb, var(--accent) 9%, var(--paper)); }
.output-label { font-size: 0.78em; color: var(--muted); }
.output-value { font-size: 1.15em; font-weight: 600; font-variant-numeric: tabular-nums; }
.output-value .unit { color: var(--muted); font-weight: 400; font-size: 0.75em; }
.output-human, .output-remark { font-size: 0.75em; }
.output-human { color: var(--accent); }
.output-remark { color: var(--warn); }
.output-human:empty, .output-remark:empty { display: none; }
.outputs.stale .output-value { color: var(--muted); }

figure { margin: 0 0 0.8em; }
figure canvas {
  display: block; width: 100%; max-width: 1200px; background: #fff;
  outline: 1px solid var(--line); border-radius: 2px;
}
figure.stale canvas { opacity: 0.2; }
figcaption { font-size: 0.8em; color: var(--muted); margin-top: 0.3em; }
.chart-error { font-size: 0.85em; color: var(--bad); margin: 0.3em 0 0; }
.chart-note, .map-readout { font-size: 0.85em; margin: 0.3em 0 0; font-variant-numeric: tabular-nums; }
.chart-error:empty, .chart-note:empty { display: none; }
progress { width: 100%; height: 4px; display: block; }
progress[hidden] { display: none; }
.map-canvas { cursor: crosshair; }

.table-card { border: 1px solid var(--line); border-radius: var(--radius); padding: 0.6em 0.75em; margin: 0 0 0.8em; }
.table-card h3 { margin: 0; font-size: 1em; }
.caption { font-size: 0.8em; color: var(--muted); margin: 0.2em 0 0.5em; }
.table-scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.82em; font-variant-numeric: tabular-nums; width: 100%; }
th, td { padding: 0.3em 0.5em; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
thead th { font-weight: 600; color: var(--muted); border-bottom-width: 2px; }
tr.row-current { background: color-mix(in srgb, var(--accent) 9%, var(--paper)); }
tr.row-agrees td:last-child { color: #0b7a54; font-weight: 600; }
.root[data-scheme="dark"] tr.row-agrees td:last-child { color: #5fd3a0; }
tr.row-disagrees td:last-child, tr.remark td { color: var(--bad); }
tr.remark td { white-space: normal; font-size: 0.9em; padding-top: 0; }
.table-note { font-size: 0.78em; color: var(--muted); margin: 0.3em 0 0; }

.credit { font-size: 0.75em; color: var(--muted); margin: 0.2em 0 0; }

/* compact: a tighter layout for a sidebar or a paragraph's width */
.root.compact { padding: 0.5em 0.6em; font-size: 0.9em; }
.compact .outputs { grid-template-columns: repeat(auto-fill, minmax(12em, 1fr)); gap: 0 1em; }
.compact .output { border: none; background: none; padding: 0.15em 0; flex-direction: row; flex-wrap: wrap; align-items: baseline; gap: 0 0.5em; border-bottom: 1px solid var(--line); border-radius: 0; }
.compact .output:first-child { background: none; }
.compact .output-label { flex: 1 1 auto; }
.compact .output-value { font-size: 1em; }
.compact .output-human, .compact .output-remark { flex-basis: 100%; }
.compact .fields { gap: 0.3em 0.6em; margin-bottom: 0.5em; }
.compact .field { min-width: 6em; }
.compact figcaption, .compact .caption, .compact .table-note { display: none; }
.compact figure, .compact .outputs, .compact .table-card { margin-bottom: 0.5em; }
`;
