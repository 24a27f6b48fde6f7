// Scenarios side by side: the current parameters pinned under a name (A,
// B, …, at most four); each output card then shows every pinned scenario's
// value and the difference from it, and the model's charts draw the pinned
// curves faintly behind the current ones (drawChart's scenarios). Scenarios
// belong to a model and are part of the link (hash.js). Knows no model.

import { $, el } from './dom.js';
import { state } from './state.js';
import { formatNumber, quickReport } from './wasm.js';

/** The most scenarios pinned at once (the package draws at most four behind a chart). */
export const MAX_SCENARIOS = 4;

const NAMES = ['A', 'B', 'C', 'D'];

/** A scenario with its report: {name, values, report}. */
function scenario(name, values) {
  let report = null;
  try {
    report = quickReport(state.model.id, values);
  } catch {
    report = null;
  }
  return { name, values, report };
}

/** The scenarios for `model` from a link's [{name, values}] (values complete), replacing any pinned. */
export function setScenarios(list) {
  state.scenarios = list.slice(0, MAX_SCENARIOS).map((s) => scenario(s.name, s.values));
}

/** What drawChart takes: each scenario whose evaluation is quick, with its parameters. */
export function scenariosArg() {
  const drawable = state.scenarios.filter((s) => s.report?.outputs && !s.report.deferred);
  return drawable.length ? drawable.map((s) => ({ name: s.name, params: s.values })) : undefined;
}

/** Pins the current parameters under the next free name. */
function pin() {
  const name = NAMES.find((n) => !state.scenarios.some((s) => s.name === n));
  if (!name || !state.results?.outputs) return;
  state.scenarios.push(scenario(name, { ...state.values }));
}

/** The parameters where `values` differ from the form, as "M = 8000, N = 36" (or "the same parameters"). */
function differences(values) {
  const diff = state.model.params
    .filter((p) => (values[p.key] ?? '') !== (state.values[p.key] ?? ''))
    .map((p) => `${p.key} = ${values[p.key] === '' ? 'default' : String(values[p.key]).slice(0, 24)}`);
  if (!diff.length) return 'the same parameters as the form';
  return diff.length > 4 ? `${diff.slice(0, 4).join(', ')} and ${diff.length - 4} more` : diff.join(', ');
}

/** The difference of `now` from `then` in words: "+12%", "−3.1%", "2.8×", "same", or the absolute change when `then` is 0. */
function change(now, then) {
  if (typeof now !== 'number' || typeof then !== 'number') return '';
  if (now === then) return 'same';
  if (then === 0) return `${now > then ? '+' : '−'}${formatNumber(Math.abs(now - then), 3)}`;
  const pct = ((now - then) / Math.abs(then)) * 100;
  // More than doubled (or flipped sign): a ratio reads better than +180%.
  if (pct > 100 && then > 0) return `${formatNumber(now / then, 3)}×`;
  return `${pct > 0 ? '+' : '−'}${formatNumber(Math.abs(pct), 2)}%`;
}

/** The scenario bar and each output card's comparison lines. */
export function renderScenarios() {
  const box = $('scenarios');
  const full = state.scenarios.length >= MAX_SCENARIOS;
  box.replaceChildren(...[
    el('div', { class: 'scenario-head' },
      el('button', { type: 'button', class: 'scenario-pin', disabled: full || !state.results?.outputs || Boolean(state.blocked) || undefined,
        title: full ? `At most ${MAX_SCENARIOS} scenarios: remove one first.` : 'Keep these parameters to compare with as you change them.',
        text: 'Pin as scenario' }),
      el('span', { class: 'scenario-help', text: state.scenarios.length ? 'Outputs show each pinned scenario; charts draw its curves faintly.' : 'Pin the current parameters, change them, and compare.' })),
    state.scenarios.length ? el('ul', { class: 'scenario-list' }, state.scenarios.map((s, k) =>
      el('li', { class: 'scenario', 'data-index': k },
        el('strong', { class: 'scenario-name', text: s.name }),
        el('span', { class: 'scenario-diff', text: s.report?.outputs ? differences(s.values) : s.report?.deferred ? `${differences(s.values)} (a long evaluation: not compared)` : 'no results for its parameters' }),
        el('button', { type: 'button', class: 'scenario-restore', 'aria-label': `Put scenario ${s.name}'s parameters in the form`, text: 'Restore' }),
        el('button', { type: 'button', class: 'scenario-remove', 'aria-label': `Remove scenario ${s.name}`, text: '×' })))) : null,
  ].filter(Boolean));
  for (const card of document.querySelectorAll('#outputs .output[data-output]')) {
    card.querySelector('.output-compare')?.remove();
    const key = card.dataset.output;
    const lines = state.scenarios.filter((s) => s.report?.outputs).map((s) => {
      const then = s.report.outputs[key];
      const unit = state.model.outputs.find((o) => o.key === key)?.unit;
      const shown = s.report.display?.[key]?.text;
      const now = state.results?.outputs?.[key];
      const delta = change(now, then);
      const text = shown ? `${shown}${unit ? ` ${unit}` : ''}` : '—';
      return el('span', { class: 'output-scenario' }, el('strong', { text: `${s.name}: ` }), text, delta === 'same' ? ' (same)' : delta ? ` (now ${delta})` : '');
    });
    if (lines.length) card.querySelector('.output-value').after(el('span', { class: 'output-compare' }, lines));
  }
}

/**
 * A click in the scenario bar. Returns 'values' when the form changed (the
 * caller updates the page), 'scenarios' when only the scenarios did (the
 * caller redraws and rewrites the link), or '' for nothing.
 */
export function onScenarioClick(event) {
  const button = event.target.closest('button');
  if (!button) return '';
  if (button.classList.contains('scenario-pin')) {
    pin();
    return 'scenarios';
  }
  const k = Number(button.closest('.scenario')?.dataset.index);
  const s = state.scenarios[k];
  if (!s) return '';
  if (button.classList.contains('scenario-remove')) {
    state.scenarios.splice(k, 1);
    return 'scenarios';
  }
  if (button.classList.contains('scenario-restore')) {
    state.values = { ...s.values };
    return 'values';
  }
  return '';
}
