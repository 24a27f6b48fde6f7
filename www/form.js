// The parameter form, built from the registry: presets, number fields (with
// unit menus), choices, list groups edited as the columns of one table, the
// field messages (errors) and each field's applicability and hint as the
// last report gives them. Reads and writes state.values; the caller
// (app.js) runs the update after an edit.

import { $, el, plain, rich } from './dom.js';
import { state } from './state.js';
import { fieldText, splitList } from './wasm.js';

/** Lists of one group are edited as the columns of one table, a row per item. */
const LIST_TABLE_ROWS = 64;

/** The items of a list parameter's text ("1, 2 3;4"), split by the validator's own rule, for the list table. */
const listItems = (text) => splitList(String(text ?? ''));
const listText = (items) => items.join(', ');

/** A registry value as the form holds it: numbers exact, lists comma-separated. */
export function presetText(value) {
  if (typeof value === 'number') return fieldText(value);
  return Array.isArray(value) ? listText(value.map(fieldText)) : value;
}

/**
 * The parameters whose text differs from the default (the last report's
 * `changed`, as in the URL): what the workers need, since a missing key
 * takes its default, and far cheaper to decode per call than the whole form.
 */
export function changedValues() {
  if (!state.results) return { ...state.values };
  return Object.fromEntries(state.results.changed.map((k) => [k, state.values[k]]));
}

/** Parameters a calibration can fit: numbers that take any real value in a range (engine::calibrate's rule). */
export const fittable = (model) => model.params.filter((p) => p.kind === 'number' && !p.integer);

/** The form's text for every parameter at its default (empty where a fallback applies). */
export function defaultsOf(model) {
  const v = {};
  for (const p of model.params) v[p.key] = p.kind !== 'choice' && p.kind !== 'list' && p.fallback ? '' : presetText(p.default);
  return v;
}

export function buildPresets(model) {
  const select = $('preset');
  select.replaceChildren(el('option', { value: '', text: '— choose values from the paper —' }));
  for (const g of model.preset_groups) {
    select.append(el('optgroup', { label: g.label }, g.presets.map((p) => el('option', { value: p.id, text: p.label }))));
  }
  $('preset-note').textContent = '';
}

/**
 * Puts preset `values` ([key, value] pairs) in the form and returns what
 * changed, as a sentence ("Changed V from 1000 to 1e13 and m from 20 to
 * 38."; labels with their subscript marks, for dom.rich), or '' when
 * nothing did.
 */
export function applyValues(values) {
  const changes = [];
  for (const [key, value] of values) {
    const text = presetText(value);
    const before = state.values[key] ?? '';
    if (before === text) continue;
    state.values[key] = text;
    const p = state.model.params.find((q) => q.key === key);
    const shown = (t) => (t === '' ? 'empty' : String(t).length > 40 ? `${String(t).slice(0, 37)}…` : t);
    changes.push(`${p?.label ?? key} from ${shown(before)} to ${shown(text)}`);
  }
  fillForm();
  if (!changes.length) return '';
  const list = changes.length === 1 ? changes[0] : `${changes.slice(0, -1).join('; ')} and ${changes.at(-1)}`;
  return `Changed ${list}.`;
}

/** Puts a registry preset's values in the form; false when there is no such preset. */
export function applyPreset(id) {
  const preset = state.model.preset_groups.flatMap((g) => g.presets).find((p) => p.id === id);
  if (!preset) return false;
  const changed = applyValues(preset.values);
  $('preset-note').replaceChildren(`${preset.source}. `, ...rich(preset.note), ...(changed ? [' ', ...rich(changed)] : []));
  return true;
}

const groupMembers = (group) => state.model.params.filter((p) => p.kind === 'list' && p.group === group);

function buildListGroup(model, group) {
  const members = model.params.filter((p) => p.kind === 'list' && p.group === group);
  return el('div', { class: 'field list-field', 'data-key': members[0].key, 'data-group': group },
    el('div', { class: 'list-head' }, el('span', { class: 'label-text', text: `Per-${group.replace(/s$/, '')} values` }), el('span', { class: 'list-count unit' })),
    el('div', { class: 'list-body' }),
    el('button', { type: 'button', class: 'list-add', 'data-group': group, text: '+ add a row' }),
    ...members.map((p) => el('p', { class: 'help', id: `f-${p.key}-help` }, el('strong', {}, ...rich(p.label), ': '), rich(p.help))),
    ...members.map((p) => el('p', { class: 'field-error', id: `f-${p.key}-error`, 'data-error-for': p.key, role: 'alert' })));
}

/** Fills a list group from state: a table of inputs, or text areas when long. */
function fillListGroup(field) {
  const members = groupMembers(field.dataset.group);
  const columns = members.map((p) => listItems(state.values[p.key]));
  const rows = Math.max(...columns.map((c) => c.length));
  field.querySelector('.list-count').textContent = `${rows} ${rows === 1 ? 'row' : 'rows'}`;
  const body = field.querySelector('.list-body');
  field.querySelector('.list-add').hidden = rows > LIST_TABLE_ROWS;
  if (rows > LIST_TABLE_ROWS) {
    body.replaceChildren(...members.map((p) => el('label', { class: 'list-text' }, el('span', {}, ...rich(p.label), ` (${p.unit})`),
      el('textarea', { id: `f-${p.key}`, 'data-key': p.key, rows: 3, spellcheck: 'false' }))));
    for (const p of members) body.querySelector(`#f-${CSS.escape(p.key)}`).value = state.values[p.key];
    return;
  }
  body.replaceChildren(el('table', { class: 'list-table' },
    el('thead', {}, el('tr', {}, el('th', { text: '#' }), members.map((p) => el('th', {}, rich(p.label), el('span', { class: 'unit', text: ` ${p.unit}` }))), el('th', {}, el('span', { class: 'visually-hidden', text: 'Remove' })))),
    el('tbody', {}, Array.from({ length: rows }, (_, i) => el('tr', {},
      el('th', { scope: 'row', text: String(i + 1) }),
      members.map((p, c) => el('td', {}, el('input', {
        type: 'text', inputmode: 'decimal', spellcheck: 'false', 'aria-label': `${plain(p.label)} of row ${i + 1}`,
        'data-list': p.key, 'data-row': i, value: columns[c][i] ?? '',
      }))),
      el('td', {}, el('button', { type: 'button', class: 'list-remove', 'data-group': field.dataset.group, 'data-row': i, 'aria-label': `remove row ${i + 1}`, text: '×', disabled: rows <= 1 })))))));
}

/** Applies `change(columns)` to every list of a group and redraws the group's table. */
function editListGroup(group, change) {
  const members = groupMembers(group);
  const columns = members.map((p) => listItems(state.values[p.key]));
  change(columns);
  members.forEach((p, c) => { state.values[p.key] = listText(columns[c]); });
  fillListGroup(document.querySelector(`.list-field[data-group="${CSS.escape(group)}"]`));
  $('preset').value = '';
}

/** A click in the form: adds or removes a row of a list group. True when the values changed. */
export function onListClick(event) {
  const button = event.target.closest('button');
  if (!button) return false;
  if (button.classList.contains('list-add')) {
    editListGroup(button.dataset.group, (cols) => cols.forEach((c) => c.push(c.at(-1) ?? '1')));
  } else if (button.classList.contains('list-remove')) {
    const row = Number(button.dataset.row);
    editListGroup(button.dataset.group, (cols) => cols.forEach((c) => c.splice(row, 1)));
  } else {
    return false;
  }
  return true;
}

/** An input or change in the form: stores the field's text. True when there is something new to show. */
export function onEdit(event) {
  const list = event.target?.dataset?.list;
  const key = list ?? event.target?.dataset?.key;
  if (!key) return false;
  const value = list
    ? [...document.querySelectorAll(`#form input[data-list="${CSS.escape(list)}"]`)].map((c) => c.value.trim()).join(', ')
    : event.target.value;
  // A change event after the input event that already stored the value (a radio, leaving a field): nothing new.
  if (event.type === 'change' && state.values[key] === value) return false;
  state.values[key] = value;
  $('preset').value = '';
  $('preset-note').textContent = '';
  return true;
}

export function buildForm(model) {
  const form = $('form');
  form.replaceChildren();
  const groups = new Set();
  const unitChoices = new Set(model.params.map((p) => p.unit_from).filter(Boolean));
  for (const p of model.params) {
    if (unitChoices.has(p.key)) continue; // drawn inside the number it qualifies
    if (p.kind === 'list') {
      if (!groups.has(p.group)) form.append(buildListGroup(model, p.group));
      groups.add(p.group);
      continue;
    }
    const id = `f-${p.key}`;
    const errorId = `${id}-error`;
    const helpId = `${id}-help`;
    const field = el('div', { class: 'field', 'data-key': p.key });
    const unit = p.unit ? el('span', { class: 'unit', text: p.unit }) : null;
    const unitChoice = p.unit_from && model.params.find((q) => q.key === p.unit_from);
    if (p.kind === 'choice' && p.options.length > 4) {
      field.append(
        el('label', { for: id }, el('span', { class: 'label-text' }, rich(p.label))),
        el('select', { id, name: p.key, 'data-key': p.key, 'aria-describedby': `${helpId} ${errorId}` },
          p.options.map((o) => el('option', { value: o.value, text: o.label }))),
      );
    } else if (p.kind === 'choice') {
      field.append(el('fieldset', { class: 'choice', 'aria-describedby': `${helpId} ${errorId}` },
        el('legend', {}, rich(p.label)),
        p.options.map((o) =>
          el('label', { class: 'choice-option' },
            el('input', { type: 'radio', name: p.key, value: o.value, 'data-key': p.key }),
            el('span', { text: o.label })))));
    } else {
      const fallback = p.fallback && model.params.find((q) => q.key === p.fallback);
      const input = el('input', {
        id, name: p.key, 'data-key': p.key, type: 'text', inputmode: 'decimal', spellcheck: 'false',
        autocomplete: 'off', 'aria-describedby': `${helpId} ${errorId}`,
        placeholder: fallback ? `= ${plain(fallback.label)}` : null,
      });
      const control = unitChoice
        ? el('div', { class: 'with-unit' }, input,
          el('select', { id: `f-${unitChoice.key}`, name: unitChoice.key, 'data-key': unitChoice.key, 'aria-label': unitChoice.label, title: plain(unitChoice.help) },
            unitChoice.options.map((o) => el('option', { value: o.value, text: o.label }))))
        : input;
      field.append(
        el('label', { for: id }, el('span', { class: 'label-text' }, rich(p.label)), unitChoice ? null : unit),
        control,
        el('div', { class: 'hint', id: `${id}-hint` }),
      );
    }
    field.append(
      el('p', { class: 'help', id: helpId }, rich(p.help), p.reference ? el('span', { class: 'ref', text: ` (${p.reference})` }) : null),
      el('p', { class: 'field-error', id: errorId, role: 'alert' }),
    );
    // A unit menu's own errors (a bad unit in a link) show in the field it sits in.
    if (unitChoice) field.append(el('p', { class: 'field-error', id: `f-${unitChoice.key}-error`, 'data-error-for': unitChoice.key, role: 'alert' }));
    form.append(field);
  }
}

/** Shows state.values in the form's controls. */
export function fillForm() {
  const form = $('form');
  for (const f of form.querySelectorAll('.list-field')) fillListGroup(f);
  for (const p of state.model.params) {
    const v = state.values[p.key];
    if (p.kind === 'list') continue;
    const select = form.querySelector(`select#f-${CSS.escape(p.key)}`);
    if (select) {
      select.value = v;
    } else if (p.kind === 'choice') {
      for (const r of form.querySelectorAll(`input[name="${CSS.escape(p.key)}"]`)) r.checked = r.value === v;
    } else {
      const input = form.querySelector(`#f-${CSS.escape(p.key)}`);
      if (input.value !== v) input.value = v;
    }
  }
}

/** Marks fields with problems; returns the messages no field shows. */
export function showFieldErrors(problems) {
  const byKey = new Map(problems.map((p) => [p.key, p.message]));
  for (const field of document.querySelectorAll('#form .field')) {
    let bad = false;
    for (const err of field.querySelectorAll('.field-error')) {
      const key = err.dataset.errorFor ?? field.dataset.key;
      err.textContent = byKey.get(key) ?? '';
      bad ||= err.textContent !== '';
    }
    field.classList.toggle('invalid', bad);
    for (const input of field.querySelectorAll('input, textarea')) input.setAttribute('aria-invalid', bad ? 'true' : 'false');
  }
  return problems.filter((p) => !state.model.params.some((q) => q.key === p.key)).map((p) => p.message);
}

/** Dims the fields the current choices leave unused and writes each field's hint, as the report says. */
export function showFields(fields) {
  for (const field of document.querySelectorAll('#form .field[data-key]')) {
    const f = fields[field.dataset.key];
    if (!f) continue;
    field.classList.toggle('inapplicable', !f.active);
    const hint = field.querySelector('.hint');
    if (hint && hint.textContent !== f.hint) hint.textContent = f.hint;
  }
}
