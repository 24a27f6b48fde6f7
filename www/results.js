// The results of the last report: the status line, the output cards (text
// formatted by Rust), the remarks (on top, at their output or at their
// field) and the tables; and the notice after an internal error (a trap).
// Renders only; knows no model.

import { $, el, plain, rich } from './dom.js';
import { state } from './state.js';

/**
 * Table cards for `list`, as rendered in #tables, under each data set and
 * as a chart's data table; `exportable` adds a CSV button to each.
 */
export function tableCards(list, { exportable = false } = {}) {
  return list.map((t) =>
    el('section', { class: 'table-card', 'data-table': t.id },
      el('div', { class: 'table-head' },
        el('h3', { text: t.title }),
        exportable ? el('button', { type: 'button', class: 'table-export', 'aria-label': `${t.title} as CSV`, text: 'CSV' }) : null),
      el('p', { class: 'caption' }, rich(t.caption)),
      // Focusable, so a wide table scrolls from the keyboard too.
      el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t.title },
        el('table', {},
          el('thead', {}, el('tr', {}, t.columns.map((c) => el('th', { scope: 'col' }, rich(c))))),
          el('tbody', {}, t.rows.flatMap((r) => [
            el('tr', { class: `row-${r.status}` }, r.cells.map((c, i) => el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : {},
              // A row may link its first cell to another view of this page (a '#model=' hash, nothing else).
              i === 0 && /^#model=[\w-]+(&|$)/.test(r.link ?? '') ? el('a', { href: r.link, title: 'Open in its model' }, rich(c)) : rich(c)))),
            r.remark ? el('tr', { class: 'remark' }, el('td', { colspan: t.columns.length }, rich(r.remark))) : null,
          ])))),
      t.notes.map((n) => el('p', { class: 'table-note' }, rich(n)))));
}

function renderOutputs(outputs, display) {
  $('outputs').replaceChildren(...state.model.outputs.map((o) => {
    const v = outputs?.[o.key];
    const shown = display?.[o.key];
    return el('div', { class: 'output', 'data-output': o.key, title: plain(o.help) },
      el('span', { class: 'output-label' }, rich(o.label)),
      el('span', { class: 'output-value' }, el('output', { text: shown?.text ?? '—' }), o.unit && v !== null && v !== undefined ? el('span', { class: 'unit', text: ' ' + o.unit }) : null),
      o.unit === 's' && display ? el('span', { class: 'output-human', text: shown?.human ?? '' }) : null,
      el('span', { class: 'output-remark' }),
      el('span', { class: 'output-help' }, rich(o.help)));
  }));
}

/** Sentences about the result: warnings on top and at their field, the rest at their output. */
function renderRemarks(list) {
  $('remarks').replaceChildren(...list.filter((r) => r.level === 'warning').map((r) => el('p', { class: 'remark-warning' }, rich(r.text))));
  for (const w of document.querySelectorAll('#form .field-warning, #form .field-note')) w.remove();
  for (const r of list) {
    const card = r.key && document.querySelector(`#outputs .output[data-output="${CSS.escape(r.key)}"] .output-remark`);
    if (card) card.replaceChildren(...rich(r.text));
    // A remark about an input shows at its field (an info remark in the muted style).
    const field = r.key && !card && document.querySelector(`#form .field[data-key="${CSS.escape(r.key)}"]`);
    if (field) field.append(el('p', { class: r.level === 'warning' ? 'field-warning' : 'field-note', role: 'status' }, rich(r.text)));
  }
}

/**
 * Shows a report, or the reason there are no results (`reason`; outputs
 * blank, tables dimmed unless the report still has them). A deferred report
 * (its evaluation runs in the report worker) keeps the last results, dimmed,
 * under a "Computing…" status.
 */
export function showResults(report, reason) {
  state.blocked = reason;
  const status = $('status');
  if (report?.deferred && !reason) {
    status.hidden = false;
    // No value until the evaluation reports one: an indeterminate bar.
    status.replaceChildren('Computing… (a long evaluation, in the background) ',
      el('progress', { class: 'status-progress', max: 1, 'aria-label': 'Progress of the long evaluation' }),
      el('button', { type: 'button', class: 'status-stop', text: 'Stop' }));
    status.dataset.state = 'computing';
    for (const part of ['outputs', 'tables']) $(part).classList.add('stale');
    return;
  }
  delete status.dataset.state;
  status.hidden = !reason;
  status.textContent = reason ? `No results: ${reason}` : '';
  renderOutputs(report?.outputs ?? null, report?.display ?? null);
  renderRemarks(report?.remarks ?? []);
  if (report?.tables) $('tables').replaceChildren(...tableCards(report.tables, { exportable: true }));
  $('outputs').classList.toggle('stale', Boolean(reason));
  const staleTables = !report?.tables;
  $('tables').classList.toggle('stale', staleTables);
  $('tables').setAttribute('aria-hidden', staleTables ? 'true' : 'false');
}

/** After Stop: the long evaluation is dropped; the last results stay dimmed until an edit. */
export function showStopped() {
  const status = $('status');
  status.textContent = 'Stopped: the long evaluation was dropped. Change a value to compute again.';
  status.dataset.state = 'stopped';
}

/**
 * The notice after a trap (wasm.onTrap): the link that reproduces it (the
 * page's address, hash included), shown until dismissed; a later trap
 * updates the link. Text only, styled by classes (the page's CSP).
 */
export function showInternalError(href) {
  let note = $('internal-error');
  if (!note) {
    note = el('div', { id: 'internal-error', class: 'internal-error', role: 'alert' },
      el('p', { class: 'internal-error-text' }, 'Internal error — please report this link: ', el('a', { class: 'internal-error-link' })),
      el('p', { class: 'internal-error-more', text: 'A computation failed inside isoperf (a bug, not your input). The calculator restarted its module: edits compute again.' }),
      el('button', { type: 'button', class: 'internal-error-dismiss', text: 'Dismiss' }));
    note.querySelector('.internal-error-dismiss').addEventListener('click', () => note.remove());
    document.body.append(note);
  }
  const a = note.querySelector('.internal-error-link');
  a.href = href;
  a.textContent = href;
}

/** Shows the results' export buttons only with results to export. */
export function showResultsTools() {
  $('results-tools').hidden = !state.results?.outputs || Boolean(state.blocked) || Boolean(state.results?.deferred);
}
