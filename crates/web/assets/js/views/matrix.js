// Section 1: the exact cover problem on a 0/1 matrix. The reader picks rows; under each
// column, how many chosen rows cover it. The engine lists every solution.

import * as api from '../api.js';
import { h, replace, amount, nodeNote, uid, presetPicker, editorBox, onPresetPick } from '../dom.js';
import { t, parts, list as words } from '../i18n.js';
import { PRESETS, setCustomProblem } from '../problems.js';

export function mount(section) {
  let text = PRESETS[0].text;
  let problem = null; // {items, options} from /api/parse
  const chosen = new Set(); // option positions in problem.options

  const pickId = uid('preset');
  const picker = presetPicker(pickId, PRESETS, t('matrix.own'));
  const own = editorBox({
    rows: '8', text, summary: t('matrix.editor'), label: t('matrix.editorLabel'), help: t('matrix.editorHelp'), use: t('matrix.load'), onUse: loadCustom,
  });
  const { editor } = own;
  const clearButton = h('button', { type: 'button', class: 'ctl', onclick: () => { chosen.clear(); render(); } }, t('matrix.clear'));
  const listButton = h('button', { type: 'button', class: 'ctl primary', onclick: listSolutions }, t('matrix.listAll'));
  const table = h('table', { class: 'matrix pick' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const results = h('div', { class: 'results', 'aria-live': 'polite' });

  section.append(
    h('p', { class: 'lead' }, t('matrix.lead')),
    h('div', { class: 'toolbar' },
      h('label', { for: pickId }, t('matrix.picker')), picker, clearButton, listButton),
    own.box,
    h('p', { class: 'hint' }, parts('matrix.hint', {
      ok: h('span', { class: 'chip ok' }, t('matrix.green')),
      zero: h('span', { class: 'chip zero' }, t('matrix.grey')),
      over: h('span', { class: 'chip over' }, t('matrix.red')),
    })),
    h('div', { class: 'split' },
      h('div', null, h('div', { class: 'matrix-wrap' }, table), status, results),
      h('div', { class: 'prose side-prose' },
      h('h3', null, t('matrix.whyTitle')),
      h('p', null, t('matrix.why')),
      h('h3', null, t('matrix.noAnswerTitle')),
      h('p', null, t('matrix.noAnswer')))));

  onPresetPick(picker, own, (id) => {
    text = PRESETS.find((p) => p.id === id).text;
    editor.value = text;
    load();
  });

  async function loadCustom() {
    picker.value = 'custom';
    text = editor.value;
    if (await load()) setCustomProblem(text);
  }

  async function load() {
    replace(results);
    try {
      problem = await api.parse(text);
    } catch (e) {
      problem = null;
      chosen.clear();
      replace(table);
      status.className = 'status error';
      status.textContent = t('matrix.parseError', { error: e.message });
      return false;
    }
    chosen.clear();
    render();
    return true;
  }

  function counts() {
    const n = problem.items.map(() => 0);
    for (const k of chosen) for (const item of problem.options[k].items) n[item] += 1;
    return n;
  }

  function toggle(k) {
    if (chosen.has(k)) chosen.delete(k); else chosen.add(k);
    render();
  }

  function rowName(k) {
    return problem.options[k].index + 1;
  }

  function render() {
    if (!problem) return;
    const n = counts();
    const head = h('thead', null, h('tr', null,
      h('th', { scope: 'col', class: 'corner' }, t('matrix.rowHeader')),
      problem.items.map((item) => h('th', {
        scope: 'col',
        class: item.primary ? null : 'secondary',
        title: t(item.primary ? 'matrix.primaryTitle' : 'matrix.secondaryTitle', { name: item.name }),
      }, item.name))));
    const body = h('tbody', null, problem.options.map((option, k) => {
      const ones = new Set(option.items);
      const on = chosen.has(k);
      const row = h('tr', { class: on ? 'chosen' : null, dataset: { row: String(rowName(k)) } },
        h('th', { scope: 'row' },
          h('button', {
            type: 'button',
            class: 'row-toggle',
            'aria-pressed': on ? 'true' : 'false',
            'aria-label': t('matrix.rowLabel', { row: rowName(k), label: option.label }),
          }, t('matrix.row', { row: rowName(k) }))),
        problem.items.map((_, i) => h('td', { class: ones.has(i) ? 'one' : 'zero' }, ones.has(i) ? '1' : '0')));
      row.addEventListener('click', () => toggle(k));
      return row;
    }));
    const foot = h('tfoot', null, h('tr', null,
      h('th', { scope: 'row', title: t('matrix.sumTitle') }, t('matrix.sum')),
      problem.items.map((item, i) => {
        const state = n[i] === 1 ? 'ok' : n[i] === 0 ? 'zero' : 'over';
        return h('td', {
          class: ['count', state],
          'data-item': item.name,
          'aria-label': t(`matrix.countLabel.${n[i] === 1 ? 'one' : 'other'}`, { name: item.name, n: n[i] }),
        }, String(n[i]));
      })));
    replace(table, h('caption', { class: 'sr-only' }, t('matrix.caption')), head, body, foot);
    describe(n);
  }

  function describe(n) {
    const rows = [...chosen].map(rowName).sort((a, b) => a - b);
    const missing = problem.items.filter((item, i) => item.primary && n[i] === 0).map((item) => item.name);
    const twice = problem.items.filter((_, i) => n[i] >= 2).map((item) => item.name);
    if (rows.length === 0) {
      status.className = 'status';
      status.textContent = t('matrix.none');
    } else if (missing.length === 0 && twice.length === 0) {
      status.className = 'status success';
      status.textContent = t('matrix.exact', { rows: words(rows) });
    } else {
      status.className = twice.length ? 'status warn' : 'status';
      const problems = [];
      if (twice.length) problems.push(t(`matrix.twice.${twice.length === 1 ? 'one' : 'other'}`, { names: words(twice) }));
      if (missing.length) problems.push(t(`matrix.missing.${missing.length === 1 ? 'one' : 'other'}`, { names: words(missing) }));
      status.textContent = t('matrix.state', { rows: words(rows), parts: problems.join(t('matrix.partsSep')) });
    }
  }

  async function listSolutions() {
    if (!problem) return;
    replace(results, h('p', { class: 'muted' }, t('matrix.asking')));
    listButton.disabled = true;
    try {
      const answer = await api.solve(text, { mode: 'all' });
      showSolutions(answer);
    } catch (e) {
      replace(results, h('p', { class: 'status error' }, t('matrix.engineError', { error: e.message })));
    } finally {
      listButton.disabled = false;
    }
  }

  function showSolutions(answer) {
    const position = new Map(problem.options.map((o, k) => [o.index, k]));
    const nodes = amount(answer.stats.nodes, 'searchNode');
    const summary = answer.count === 0
      ? (answer.complete
        ? t('matrix.noCover', { nodes })
        : t('matrix.stoppedNone', { stop: answer.stop, nodes }))
      : t(answer.complete ? 'matrix.found' : 'matrix.foundPartial', { solutions: amount(answer.count, 'solution'), nodes, stop: answer.stop });
    const list = h('ol', { class: 'solutions' }, answer.solutions.map((solution) => {
      const rows = solution.map((index) => index + 1).sort((a, b) => a - b);
      return h('li', null,
        t('matrix.rows', { rows: words(rows) }),
        h('button', {
          type: 'button',
          class: 'ctl small',
          onclick: () => {
            chosen.clear();
            for (const index of solution) chosen.add(position.get(index));
            render();
          },
        }, t('matrix.show')));
    }));
    replace(results, h('p', { class: 'summary' }, summary), answer.solutions.length ? list : null, nodeNote());
  }

  load();
  return {};
}
