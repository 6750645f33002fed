// Section 1: the exact cover problem on a 0/1 matrix. The reader picks rows; under each
// column, how many chosen rows cover it. The engine lists every solution.

import * as api from '../api.js';
import { h, replace, words, plural, nodeNote, uid } from '../dom.js';
import { PRESETS, setCustomProblem } from '../problems.js';

export function mount(section) {
  let text = PRESETS[0].text;
  let problem = null; // {items, options} from /api/parse
  const chosen = new Set(); // option positions in problem.options

  const pickId = uid('preset');
  const editorId = uid('editor');
  const helpId = uid('help');
  const picker = h('select', { id: pickId },
    PRESETS.map((p) => h('option', { value: p.id }, p.name)),
    h('option', { value: 'custom' }, 'Your own (type or paste below)'));
  const clearButton = h('button', { type: 'button', class: 'ctl', onclick: () => { chosen.clear(); render(); } }, 'Clear selection');
  const listButton = h('button', { type: 'button', class: 'ctl primary', onclick: listSolutions }, 'List every solution');
  const editor = h('textarea', { id: editorId, rows: '8', spellcheck: 'false', 'aria-describedby': helpId }, text);
  const loadButton = h('button', { type: 'button', class: 'ctl primary', onclick: loadCustom }, 'Load this matrix');
  const editorBox = h('details', { class: 'editor' },
    h('summary', null, 'Type or paste a matrix'),
    h('label', { for: editorId }, 'Matrix as DLX text'),
    editor,
    h('p', { id: helpId, class: 'muted' },
      'First line: the column names (items), separated by spaces. Then one row (option) per line: the ',
      'names of the columns where it has a 1. Lines starting with | are comments. Names after a | on ',
      'the first line are secondary columns, to be covered at most once. A 0/1 matrix also works: a ',
      'line \u201cn m\u201d, then n lines of m zeros and ones.'),
    loadButton);
  const table = h('table', { class: 'matrix pick' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const results = h('div', { class: 'results', 'aria-live': 'polite' });

  section.append(
    h('p', { class: 'lead' },
      'An exact cover problem gives a matrix of zeros and ones. Each column is a constraint that must be ',
      'met once; each row is a choice that meets the constraints where it has a 1. The task: choose rows ',
      'so that every column has exactly one 1 among them \u2014 no column missed, none met twice.'),
    h('div', { class: 'toolbar' },
      h('label', { for: pickId }, 'Matrix'), picker, clearButton, listButton),
    editorBox,
    h('p', { class: 'hint' },
      'Click a row (or focus its button and press Enter) to choose it; click again to drop it. Under each ',
      'column, the number of chosen rows with a 1 there: ',
      h('span', { class: 'chip ok' }, 'green'), ' exactly one, ',
      h('span', { class: 'chip zero' }, 'grey'), ' none yet, ',
      h('span', { class: 'chip over' }, 'red'), ' two or more.'),
    h('div', { class: 'split' },
      h('div', null, h('div', { class: 'matrix-wrap' }, table), status, results),
      h('div', { class: 'prose side-prose' },
      h('h3', null, 'Why \u201cexactly once\u201d is so common'),
      h('p', null,
        'Many puzzles are made of rules of the form \u201ceach of these things happens exactly once\u201d. In a ',
        'sudoku every cell gets one digit, and every row, column and box holds each digit once. In a tiling ',
        'every square of the board is covered by one piece, and every piece is used once. Write each rule ',
        'as a column and each possible move as a row, and solving the puzzle becomes finding an exact cover: ',
        'one solver then handles them all.'),
      h('h3', null, 'When there is no answer'),
      h('p', null,
        'In the unsolvable 3\u00d73 matrix, column C has no 1 in any row: whatever you choose, C stays grey. ',
        'A solver has to recognise such dead ends and back out of them; that is what Algorithm X, in the next ',
        'section, does systematically.'))));

  picker.addEventListener('change', () => {
    if (picker.value === 'custom') {
      editorBox.open = true;
      editor.focus();
      return;
    }
    const preset = PRESETS.find((p) => p.id === picker.value);
    text = preset.text;
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
      status.textContent = `This matrix does not parse: ${e.message}`;
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
      h('th', { scope: 'col', class: 'corner' }, 'Row'),
      problem.items.map((item) => h('th', {
        scope: 'col',
        class: item.primary ? null : 'secondary',
        title: item.primary ? `column ${item.name}: cover exactly once` : `column ${item.name}: secondary, cover at most once`,
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
            'aria-label': `Row ${rowName(k)}: ${option.label}`,
          }, `Row ${rowName(k)}`)),
        problem.items.map((_, i) => h('td', { class: ones.has(i) ? 'one' : 'zero' }, ones.has(i) ? '1' : '0')));
      row.addEventListener('click', () => toggle(k));
      return row;
    }));
    const foot = h('tfoot', null, h('tr', null,
      h('th', { scope: 'row', title: 'how many chosen rows cover this column' }, '\u03a3 covered'),
      problem.items.map((item, i) => {
        const state = n[i] === 1 ? 'ok' : n[i] === 0 ? 'zero' : 'over';
        return h('td', {
          class: ['count', state],
          'data-item': item.name,
          'aria-label': `${item.name}: covered ${n[i]} time${n[i] === 1 ? '' : 's'}`,
        }, String(n[i]));
      })));
    replace(table, h('caption', { class: 'sr-only' }, 'The matrix: one row per option, one column per item'), head, body, foot);
    describe(n);
  }

  function describe(n) {
    const rows = [...chosen].map(rowName).sort((a, b) => a - b);
    const missing = problem.items.filter((item, i) => item.primary && n[i] === 0).map((item) => item.name);
    const twice = problem.items.filter((_, i) => n[i] >= 2).map((item) => item.name);
    if (rows.length === 0) {
      status.className = 'status';
      status.textContent = 'No row chosen yet: every column is grey.';
    } else if (missing.length === 0 && twice.length === 0) {
      status.className = 'status success';
      status.textContent = `Exact cover! Rows ${words(rows)} cover every column exactly once.`;
    } else {
      status.className = twice.length ? 'status warn' : 'status';
      const parts = [];
      if (twice.length) parts.push(`${twice.length === 1 ? 'column' : 'columns'} ${words(twice)} covered more than once`);
      if (missing.length) parts.push(`${missing.length === 1 ? 'column' : 'columns'} ${words(missing)} not covered yet`);
      status.textContent = `Rows ${words(rows)}: ${parts.join('; ')}.`;
    }
  }

  async function listSolutions() {
    if (!problem) return;
    replace(results, h('p', { class: 'muted' }, 'Asking the engine\u2026'));
    listButton.disabled = true;
    try {
      const answer = await api.solve(text, { mode: 'all' });
      showSolutions(answer);
    } catch (e) {
      replace(results, h('p', { class: 'status error' }, `The engine could not answer: ${e.message}`));
    } finally {
      listButton.disabled = false;
    }
  }

  function showSolutions(answer) {
    const position = new Map(problem.options.map((o, k) => [o.index, k]));
    const nodes = plural(answer.stats.nodes, 'search node');
    const summary = answer.count === 0
      ? (answer.complete
        ? `No exact cover exists: the engine searched the whole tree (${nodes}) and found none.`
        : `The engine stopped early (${answer.stop}) after ${nodes}, without finding a solution.`)
      : `The engine found ${plural(answer.count, 'solution')} in ${nodes}${answer.complete ? '' : ` (it stopped early: ${answer.stop}; there may be more)`}:`;
    const list = h('ol', { class: 'solutions' }, answer.solutions.map((solution) => {
      const rows = solution.map((index) => index + 1).sort((a, b) => a - b);
      return h('li', null,
        `Rows ${words(rows)} `,
        h('button', {
          type: 'button',
          class: 'ctl small',
          onclick: () => {
            chosen.clear();
            for (const index of solution) chosen.add(position.get(index));
            render();
          },
        }, 'Show'));
    }));
    replace(results, h('p', { class: 'summary' }, summary), answer.solutions.length ? list : null, nodeNote());
  }

  load();
  return {};
}
