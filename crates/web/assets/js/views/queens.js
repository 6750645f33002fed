// Section 6: N queens. The engine lists every placement of N queens on an N x N board with no
// two attacking (the exact cover model, with the diagonals as secondary items), and the
// reader browses them; for larger boards, only the count (on bit sets, with the symmetries).

import * as api from '../api.js';
import { h, replace, plural, puzzleNodeNote, uid } from '../dom.js';
import { mountModel, mountWatch } from './queens-search.js';

/** Boards up to this size are listed in full (724 solutions for 10); larger ones are counted. */
const MAX_LISTED = 10;
/** The largest board the server counts within its budget (see src/api/queens.rs). */
const MAX_COUNTED = 18;

export function mount(section) {
  let n = 8;
  let solutions = [];
  let k = 0;
  let busy = false;
  // The whole DLX search's nodes for each N listed so far (for the watched trace, when cut).
  const wholeNodes = new Map();

  const sizeId = uid('n');
  const size = h('input', { id: sizeId, type: 'number', min: '1', max: String(MAX_COUNTED), value: String(n), inputmode: 'numeric' });
  const listButton = h('button', { type: 'button', class: 'ctl primary', onclick: () => run('all') }, 'List every solution');
  const countButton = h('button', { type: 'button', class: 'ctl', onclick: () => run('count') }, 'Count only');
  const first = h('button', { type: 'button', class: 'ctl', title: 'First solution (Home)', onclick: () => go(0) }, 'First');
  const prev = h('button', { type: 'button', class: 'ctl prev', title: 'Previous solution (\u2190)', onclick: () => go(k - 1) }, '\u25c0 Previous');
  const next = h('button', { type: 'button', class: 'ctl primary next', title: 'Next solution (\u2192)', onclick: () => go(k + 1) }, 'Next \u25b6');
  const last = h('button', { type: 'button', class: 'ctl', title: 'Last solution (End)', onclick: () => go(solutions.length - 1) }, 'Last');
  const where = h('span', { class: 'where', 'aria-live': 'polite' });
  const browser = h('div', { class: 'player queens-browse' }, h('div', { class: 'buttons' }, first, prev, next, last), where);
  const board = h('div', { class: 'queens-wrap' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const facts = h('dl', { class: 'facts queens-facts' });

  section.append(
    h('p', { class: 'lead' },
      'Place N queens on an N\u00d7N chessboard so that no two attack each other: one queen in every row and ',
      'every column, and at most one on every diagonal. As exact cover: the rows and columns are constraints ',
      'to meet exactly once; the diagonals are secondary constraints, to meet at most once. An option is ',
      '\u201ca queen on this square\u201d.'),
    h('div', { class: 'toolbar' },
      h('label', { for: sizeId }, 'N'), size, listButton, countButton),
    h('div', { class: 'split' },
      h('div', null, status, facts, browser, board),
      h('div', { class: 'prose side-prose' },
        h('h3', null, 'How many?'),
        h('p', null,
          'N = 8 has 92 solutions, 12 of them distinct once rotations and reflections are set aside. The count ',
          'grows fast: 724 for 10, 14,200 for 12, 14,772,512 for 16. Boards up to ',
          `${MAX_LISTED} are listed here in full, for browsing; larger ones (up to ${MAX_COUNTED}) are counted only, `,
          'on bit sets: the same minimum-remaining-values search (ranks and files), one board per class of ',
          'rotations and reflections.'),
        puzzleNodeNote(
          'When the solutions are listed, the engine searches the exact cover model, and a node is one point of ',
          'Algorithm X\u2019s search tree as Knuth\u2019s DLX1 counts it: one each time the search goes a level deeper ',
          '(here, roughly: places one more queen), and one for each solution.',
          'When they are only counted, a node is one queen placed by the bitwise search. The two counts measure ',
          'different searches; each is there to compare board sizes.'))));

  // The second edition: the model as a matrix, and the search on the board (queens-search.js).
  const modelPart = h('div', { class: 'queens-part queens-model' });
  const watchPart = h('div', { class: 'queens-part queens-watch-part' });
  section.append(modelPart, watchPart);
  const watch = mountWatch(watchPart, { total: (m) => wholeNodes.get(m) });
  const model = mountModel(modelPart);

  size.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      run(Number(size.value) <= MAX_LISTED ? 'all' : 'count');
    }
  });
  size.addEventListener('input', () => {
    listButton.disabled = !(Number(size.value) <= MAX_LISTED);
  });

  async function run(mode) {
    if (busy) return;
    const asked = Number(size.value);
    if (!Number.isInteger(asked) || asked < 1 || asked > MAX_COUNTED) {
      status.className = 'status error';
      status.textContent = `Choose N between 1 and ${MAX_COUNTED}.`;
      return;
    }
    if (mode === 'all' && asked > MAX_LISTED) mode = 'count';
    busy = true;
    listButton.disabled = true;
    countButton.disabled = true;
    n = asked;
    status.className = 'status';
    status.textContent = mode === 'all' ? `Listing the solutions for N = ${n}\u2026` : `Counting the solutions for N = ${n}\u2026`;
    try {
      const answer = await api.queens(n, { mode });
      solutions = mode === 'all' ? answer.solutions : [];
      k = 0;
      const count = Number(answer.count);
      if (mode === 'all' && answer.complete && answer.method === 'dlx') wholeNodes.set(n, Number(answer.stats.nodes));
      status.className = answer.complete ? 'status success' : 'status warn';
      status.textContent = answer.complete
        ? `N = ${n}: ${plural(count, 'solution')}.`
        : `N = ${n}: the search stopped at the server\u2019s budget (${answer.stop}) after ${plural(count, 'solution')}.`;
      replace(facts,
        h('dt', null, 'Solutions'), h('dd', { class: 'total' }, count.toLocaleString('en')),
        answer.distinct !== undefined && answer.distinct !== null
          ? [h('dt', null, 'Up to symmetry'), h('dd', { class: 'distinct' }, Number(answer.distinct).toLocaleString('en'))]
          : null,
        h('dt', null, 'Search nodes'), h('dd', { class: 'nodes' }, Number(answer.stats.nodes).toLocaleString('en')),
        h('dt', null, 'Search'), h('dd', null, answer.method === 'dlx' ? 'dancing links (exact cover)' : 'bit sets, with the board\u2019s symmetries'));
    } catch (e) {
      solutions = [];
      status.className = 'status error';
      status.textContent = `No answer: ${e.message}`;
      replace(facts);
    } finally {
      busy = false;
      listButton.disabled = !(Number(size.value) <= MAX_LISTED);
      countButton.disabled = false;
    }
    render();
  }

  function go(j) {
    if (!solutions.length) return;
    k = Math.max(0, Math.min(solutions.length - 1, j));
    render();
  }

  function render() {
    browser.hidden = solutions.length === 0;
    first.disabled = prev.disabled = k === 0;
    next.disabled = last.disabled = k >= solutions.length - 1;
    if (!solutions.length) {
      where.textContent = '';
      replace(board);
      return;
    }
    where.textContent = `solution ${k + 1} of ${solutions.length}`;
    const cols = solutions[k];
    const files = 'abcdefghijklmnopqrstuvwxyz';
    const squares = cols.map((c, r) => `${files[c]}${n - r}`);
    const rows = [];
    for (let r = 0; r < n; r += 1) {
      const tds = [];
      for (let c = 0; c < n; c += 1) {
        const queen = cols[r] === c;
        tds.push(h('td', { class: [(r + c) % 2 ? 'dark' : 'light', queen ? 'queen' : null] }, queen ? '\u265b' : ''));
      }
      rows.push(h('tr', null, tds));
    }
    replace(board, h('table', {
      class: 'chess',
      'aria-label': `Solution ${k + 1}: queens on ${squares.join(', ')}`,
    }, h('tbody', null, rows)),
    h('p', { class: 'muted' }, 'Columns of the queens, row by row: ', h('code', null, cols.map((c) => c + 1).join(' '))));
  }

  render();
  run('all');

  return {
    onKey(event) {
      // Keys in the second edition's parts step their players; elsewhere they browse.
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('.queens-model')) return model.onKey(event);
      if (target?.closest('.queens-watch-part')) return watch.onKey(event);
      if (!solutions.length) return false;
      switch (event.key) {
        case 'ArrowRight': go(k + 1); return true;
        case 'ArrowLeft': go(k - 1); return true;
        case 'Home': go(0); return true;
        case 'End': go(solutions.length - 1); return true;
        default: return false;
      }
    },
  };
}
