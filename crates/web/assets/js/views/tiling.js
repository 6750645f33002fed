// Section 7: tilings and the target sudoku. The engine tiles a rectangle with a set of
// polyominoes (each square covered once, and with "each piece once", each piece used once);
// the page draws a tiling in colour, steps to the next one, and counts them. Then the target
// sudoku: a sudoku whose completions are scored, and the best one is wanted.

import * as api from '../api.js';
import { h, s, replace, plural, puzzleNodeNote, uid } from '../dom.js';
import { mountTilingWatch } from './tiling-watch.js';

export const TILINGS = [
  { id: 'pent6x10', name: '6\u00d710, the 12 pentominoes', rows: 6, cols: 10, pieces: 'pentominoes', once: true },
  { id: 'pent5x12', name: '5\u00d712, the 12 pentominoes', rows: 5, cols: 12, pieces: 'pentominoes', once: true },
  { id: 'pent3x20', name: '3\u00d720, the 12 pentominoes', rows: 3, cols: 20, pieces: 'pentominoes', once: true },
  { id: 'dom8x8', name: '8\u00d78 with dominoes', rows: 8, cols: 8, pieces: 'dominoes', once: false },
  { id: 'tro6x6', name: '6\u00d76 with trominoes', rows: 6, cols: 6, pieces: 'trominoes', once: false },
];

const SETS = ['monomino', 'dominoes', 'trominoes', 'tetrominoes', 'pentominoes', 'hexominoes'];

// The strings added in the second edition (one place, for a later translation).
const TEXT = {
  countedAll: (total, n) => `${total} tilings in all (counted); the first ${n} are listed here to browse.`,
  whereOfTotal: (k, n, total) => `tiling ${k} of ${n} listed (${total} in all)`,
  ringsLegend: 'Weight of each ring:',
  ringTitle: (w) => `weight ${w}`,
  memoTitle: 'Memoised counting: the same remaining shape, met again',
  memoLead: 'Counting domino tilings, the plain search meets the same remaining shape of the board again and again, ' +
    'reached by different placements of the dominoes already laid; the memoised search (Knuth\u2019s DLX6) counts each ' +
    'remaining shape once and looks it up every other time: a cache hit.',
  memoBoard: 'Board',
  memoButton: 'Count both ways',
  memoBusy: 'Counting both ways\u2026',
  memoFailed: (m) => `No comparison: ${m}`,
  memoHead: ['', 'Tilings', 'Search nodes', 'Cache hits', 'Shapes stored'],
  memoPlain: 'Plain search',
  memoMemo: 'Memoised search',
  memoNone: '\u2014',
  memoSummary: (plain, memo, hits) => `The memoised search visits ${memo} nodes instead of ${plain}: ${hits} times the remaining shape was one it had already counted.`,
  memoBoardName: (r, c) => `${r}\u00d7${c} with dominoes`,
};

/** The domino boards of the memo comparison: small enough for the plain search. */
const MEMO_BOARDS = [[4, 4], [4, 6], [6, 6]];

/** How many tilings one request fetches for browsing. */
const PAGE = 200;

// Twelve colours that stay apart in light and dark schemes (SVG fill attributes, which the
// Content Security Policy allows, unlike style attributes).
const PALETTE = ['#e6194b', '#3cb44b', '#ffd23f', '#4363d8', '#f58231', '#911eb4',
  '#42d4f4', '#f032e6', '#bfef45', '#fabed4', '#469990', '#dcbeff', '#9a6324', '#fffac8',
  '#800000', '#aaffc3', '#808000', '#ffd8b1', '#000075', '#a9a9a9'];

// The target sudoku of the statement's first sample (testdata/target-sudoku/sample1.in,
// NOIP 2009): its best score is 2829.
const TARGET_SAMPLE = '7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n0 0 7 0 0 2 0 9 0\n2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n';

export function mount(section) {
  const tiling = mountTiling();
  const memo = mountMemo();
  const target = mountTarget();
  section.append(tiling.el, memo, target);
  mountTilingWatch(section, tiling.el);
  return { onKey: tiling.onKey };
}

function mountTiling() {
  let list = null; // the answer of /api/tile?mode=all
  let total = null; // the count of the board listed, once counted
  let k = 0;
  let busy = false;

  const presetId = uid('tiling');
  const rowsId = uid('rows');
  const colsId = uid('cols');
  const setId = uid('set');
  const onceId = uid('once');
  const preset = h('select', { id: presetId },
    TILINGS.map((t) => h('option', { value: t.id }, t.name)),
    h('option', { value: 'custom' }, 'Your own board and pieces'));
  const rows = h('input', { id: rowsId, type: 'number', min: '1', max: '32', value: '6', inputmode: 'numeric' });
  const cols = h('input', { id: colsId, type: 'number', min: '1', max: '64', value: '10', inputmode: 'numeric' });
  const set = h('select', { id: setId }, SETS.map((name) => h('option', { value: name }, name)));
  const once = h('input', { id: onceId, type: 'checkbox' });
  const showButton = h('button', { type: 'button', class: 'ctl primary show', onclick: show }, 'Show a tiling');
  const countButton = h('button', { type: 'button', class: 'ctl count', onclick: count }, 'Count the tilings');
  const prev = h('button', { type: 'button', class: 'ctl prev', title: 'Previous tiling (\u2190)', onclick: () => go(k - 1) }, '\u25c0 Previous');
  const next = h('button', { type: 'button', class: 'ctl primary next', title: 'Next tiling (\u2192)', onclick: () => go(k + 1) }, 'Next tiling \u25b6');
  const where = h('span', { class: 'where', 'aria-live': 'polite' });
  const browse = h('div', { class: 'player' }, h('div', { class: 'buttons' }, prev, next), where);
  const figure = h('div', { class: 'tiling-wrap' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const counted = h('dl', { class: 'facts tiling-facts', 'aria-live': 'polite' });

  const el = h('div', { class: 'tiling-part' },
    h('p', { class: 'lead' },
      'Tiling a rectangle with polyominoes is exact cover too: every square of the board is a constraint, to ',
      'be covered exactly once, and an option is one piece placed somewhere (turned and flipped as needed), ',
      'covering its squares. With \u201ceach piece once\u201d, every piece is a constraint as well.'),
    h('div', { class: 'toolbar' },
      h('label', { for: presetId }, 'Board'), preset),
    h('div', { class: 'toolbar' },
      h('label', { for: rowsId }, 'Rows'), rows,
      h('label', { for: colsId }, 'Columns'), cols,
      h('label', { for: setId }, 'Pieces'), set,
      h('label', { class: 'radio', for: onceId }, once, ' each piece once'),
      showButton, countButton),
    h('div', { class: 'split' },
      h('div', null, status, counted, browse, figure),
      h('div', { class: 'prose side-prose' },
        h('h3', null, 'Pentominoes'),
        h('p', null,
          'The 12 pentominoes cover 60 squares. They tile a 6\u00d710 box in 2,339 ways up to rotation and ',
          'reflection of the box; the engine, which tells mirror images apart, counts 4 \u00d7 2,339 = 9,356. ',
          'A 3\u00d720 box is much tighter: 8 tilings, 2 up to symmetry.'),
        h('p', null,
          'Dominoes on a chessboard tile it in 12,988,816 ways: too many to list, so pieces used any number of ',
          'times on a narrow board are counted by a profile dynamic program instead, which needs no search.'),
        puzzleNodeNote(
          'A node is one point of Algorithm X\u2019s search tree, counted as Knuth\u2019s DLX1 counts it: one each time ',
          'the search goes a level deeper (here: places one more piece, choosing the square or piece with the ',
          'fewest placements left), and one for each tiling found. A count made by the dynamic program has no ',
          'search and so no nodes.'))));

  function fill(t) {
    rows.value = String(t.rows);
    cols.value = String(t.cols);
    set.value = t.pieces;
    once.checked = t.once;
  }
  preset.addEventListener('change', () => {
    const t = TILINGS.find((x) => x.id === preset.value);
    if (t) {
      fill(t);
      show();
    }
  });
  for (const input of [rows, cols, set, once]) input.addEventListener('change', () => { preset.value = 'custom'; });

  function params() {
    return { board: `${rows.value}x${cols.value}`, pieces: set.value, once: once.checked };
  }

  function setBusy(on) {
    busy = on;
    showButton.disabled = on;
    countButton.disabled = on;
  }

  async function show() {
    if (busy) return;
    setBusy(true);
    replace(counted);
    status.className = 'status';
    status.textContent = 'Searching for tilings\u2026';
    try {
      list = await api.tile({ ...params(), mode: 'all', limit: PAGE });
      total = null;
      k = 0;
      const n = list.placements.length;
      if (n === 0) {
        status.className = 'status warn';
        status.textContent = list.complete
          ? 'No tiling exists: the search tried every placement.'
          : `The search stopped at the server\u2019s budget (${list.stop}) before finding a tiling.`;
      } else {
        status.className = 'status success';
        const more = list.stop === 'solution-limit' ? ` (the first ${n}; \u201cCount the tilings\u201d gives the total)` : '';
        status.textContent = `${plural(n, 'tiling')} found${more}, after ${plural(list.stats.nodes, 'search node')}.`;
      }
    } catch (e) {
      list = null;
      status.className = 'status error';
      status.textContent = `No tiling: ${e.message}`;
    } finally {
      setBusy(false);
    }
    render();
  }

  async function count() {
    if (busy) return;
    setBusy(true);
    replace(counted, h('dt', null, 'Tilings'), h('dd', null, 'counting\u2026'));
    try {
      const answer = await api.tile({ ...params(), mode: 'count' });
      replace(counted,
        h('dt', null, 'Tilings'),
        h('dd', { class: 'total' }, `${Number(answer.count).toLocaleString('en')}${answer.complete ? '' : ' so far'}`),
        h('dt', null, 'Counted by'),
        h('dd', null, countedBy(answer)),
        answer.method === 'dp' ? null : [h('dt', null, 'Search nodes'), h('dd', { class: 'nodes' }, Number(answer.stats.nodes).toLocaleString('en'))],
        answer.complete ? null : [h('dt', null, 'Stopped'), h('dd', null, `at the server\u2019s budget (${answer.stop})`)]);
      // The status spoke of the tilings listed; a complete count of the same board replaces it.
      const same = list && list.board && `${list.board.rows}x${list.board.cols}` === params().board;
      if (answer.complete && same && Number(answer.count) > list.placements.length) {
        total = Number(answer.count);
        status.className = 'status success';
        status.textContent = TEXT.countedAll(total.toLocaleString('en'), list.placements.length.toLocaleString('en'));
        render();
      }
    } catch (e) {
      replace(counted, h('dt', null, 'Tilings'), h('dd', null, `no count: ${e.message}`));
    } finally {
      setBusy(false);
    }
  }

  function go(j) {
    if (!list || !list.placements.length) return;
    k = Math.max(0, Math.min(list.placements.length - 1, j));
    render();
  }

  function render() {
    const n = list ? list.placements.length : 0;
    browse.hidden = n === 0;
    prev.disabled = k === 0;
    next.disabled = k >= n - 1;
    if (!n) {
      replace(figure);
      where.textContent = '';
      return;
    }
    where.textContent = total !== null && total > n
      ? TEXT.whereOfTotal(k + 1, n, total.toLocaleString('en'))
      : `tiling ${k + 1} of ${n}${list.stop === 'solution-limit' ? '+' : ''}`;
    replace(figure, drawTiling(list.board, list.placements[k], list.pieces));
  }

  fill(TILINGS[0]);
  show();

  return {
    el,
    onKey(event) {
      if (!list) return false;
      if (event.key === 'ArrowRight') { go(k + 1); return true; }
      if (event.key === 'ArrowLeft') { go(k - 1); return true; }
      return false;
    },
  };
}

/** An SVG of one tiling: each placed piece in its own colour, with its outline. */
// How a count was made, from the answer of /api/tile?mode=count.
function countedBy(answer) {
  if (answer.method === 'dp') return 'profile dynamic program (no search)';
  if (answer.count_method === 'memo') {
    return 'memoised search on the exact cover (Knuth\u2019s DLX6: each remaining board is counted once)';
  }
  return 'dancing links (exact cover)';
}

function drawTiling(board, placements, pieceNames) {
  // Cells of 48 units, drawn at up to 48 px and scaled down to the width there is (CSS); the
  // piece letters scale with them.
  const size = 48;
  const owner = Array.from({ length: board.rows }, () => new Array(board.cols).fill(-1));
  placements.forEach((p, j) => { for (const [r, c] of p.cells) owner[r][c] = j; });
  const cells = [];
  const edges = [];
  const labels = [];
  placements.forEach((p, j) => {
    const colour = PALETTE[j % PALETTE.length];
    for (const [r, c] of p.cells) {
      cells.push(s('rect', { x: c * size, y: r * size, width: size, height: size, fill: colour, class: 'cell', 'data-piece': String(p.piece) }));
    }
    const [r0, c0] = p.cells[0];
    const name = pieceNames[p.piece] ?? '';
    if (name.length <= 2) {
      labels.push(s('text', { x: c0 * size + size / 2, y: r0 * size + size / 2, class: 'piece-name scaled' }, name));
    }
  });
  // An outline wherever two neighbouring squares belong to different pieces (or the border).
  for (let r = 0; r < board.rows; r += 1) {
    for (let c = 0; c < board.cols; c += 1) {
      const me = owner[r][c];
      if (r === 0 || owner[r - 1][c] !== me) edges.push(`M${c * size} ${r * size}h${size}`);
      if (c === 0 || owner[r][c - 1] !== me) edges.push(`M${c * size} ${r * size}v${size}`);
      if (r === board.rows - 1) edges.push(`M${c * size} ${(r + 1) * size}h${size}`);
      if (c === board.cols - 1) edges.push(`M${(c + 1) * size} ${r * size}v${size}`);
    }
  }
  const w = board.cols * size;
  const hgt = board.rows * size;
  return s('svg', {
    class: 'tiling',
    viewBox: `-2 -2 ${w + 4} ${hgt + 4}`,
    width: w + 4,
    height: hgt + 4,
    role: 'img',
    'aria-label': `A tiling of the ${board.rows} by ${board.cols} board with ${placements.length} pieces`,
  }, cells, s('path', { d: edges.join(''), class: 'outline' }), labels);
}

/** The text of the exact cover of dominoes on an r x c board (squares as r_c). */
function dominoMatrix(r, c) {
  const sq = (i, j) => `${i}_${j}`;
  const lines = [];
  for (let i = 0; i < r; i += 1) lines.push(Array.from({ length: c }, (_, j) => sq(i, j)).join(' '));
  const items = lines.join(' ');
  const options = [];
  for (let i = 0; i < r; i += 1) {
    for (let j = 0; j < c; j += 1) {
      if (j + 1 < c) options.push(`${sq(i, j)} ${sq(i, j + 1)}`);
      if (i + 1 < r) options.push(`${sq(i, j)} ${sq(i + 1, j)}`);
    }
  }
  return `${items}\n${options.join('\n')}\n`;
}

/** The plain search's nodes against the memoised search's nodes and cache hits. */
function mountMemo() {
  const boardId = uid('memo-board');
  const board = h('select', { id: boardId },
    MEMO_BOARDS.map(([r, c]) => h('option', { value: `${r}x${c}`, selected: r === 6 && c === 6 }, TEXT.memoBoardName(r, c))));
  const button = h('button', { type: 'button', class: 'ctl primary', onclick: compare }, TEXT.memoButton);
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const table = h('table', { class: 'memo-compare', 'aria-live': 'polite' });
  const fmt = (n) => Number(n).toLocaleString('en');

  async function compare() {
    const [r, c] = board.value.split('x').map(Number);
    const text = dominoMatrix(r, c);
    button.disabled = true;
    status.className = 'status';
    status.textContent = TEXT.memoBusy;
    replace(table);
    try {
      const [plain, memo] = await Promise.all([
        api.solve(text, { mode: 'count', method: 'search' }),
        api.solve(text, { mode: 'count', method: 'memo' }),
      ]);
      const hits = memo.memo ? memo.memo.hits : null;
      replace(table,
        h('thead', null, h('tr', null, TEXT.memoHead.map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', null,
          h('tr', { class: 'plain' }, h('th', { scope: 'row' }, TEXT.memoPlain),
            h('td', null, fmt(plain.count)), h('td', { class: 'nodes' }, fmt(plain.stats.nodes)),
            h('td', null, TEXT.memoNone), h('td', null, TEXT.memoNone)),
          h('tr', { class: 'memo' }, h('th', { scope: 'row' }, TEXT.memoMemo),
            h('td', null, fmt(memo.count)), h('td', { class: 'nodes' }, fmt(memo.stats.nodes)),
            h('td', { class: 'hits' }, hits === null ? TEXT.memoNone : fmt(hits)),
            h('td', null, memo.memo ? fmt(memo.memo.entries) : TEXT.memoNone))));
      status.className = 'status success';
      status.textContent = TEXT.memoSummary(fmt(plain.stats.nodes), fmt(memo.stats.nodes), hits === null ? TEXT.memoNone : fmt(hits));
    } catch (e) {
      status.className = 'status error';
      status.textContent = TEXT.memoFailed(e.message);
    } finally {
      button.disabled = false;
    }
  }

  return h('div', { class: 'memo-part' },
    h('h3', null, TEXT.memoTitle),
    h('p', { class: 'lead' }, TEXT.memoLead),
    h('div', { class: 'toolbar' }, h('label', { for: boardId }, TEXT.memoBoard), board, button),
    status,
    h('div', { class: 'matrix-wrap' }, table));
}

function mountTarget() {
  const editorId = uid('target');
  const editor = h('textarea', { id: editorId, rows: '9', spellcheck: 'false', class: 'target-input' }, TARGET_SAMPLE);
  const solveButton = h('button', { type: 'button', class: 'ctl primary', onclick: solve }, 'Find the best score');
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const facts = h('dl', { class: 'facts target-facts' });
  const grid = h('div', { class: 'sudoku-wrap' });

  const el = h('div', { class: 'target-part' },
    h('h3', null, 'The target sudoku'),
    h('p', { class: 'lead' },
      'A sudoku whose completions are scored: each digit counts times the weight of its square, 10 in the ',
      'centre, then 9, 8, 7 ring by ring, and 6 on the border. The task (the \u201ctarget-shaped sudoku\u201d of NOIP 2009) ',
      'is the best score among all completions, or \u22121 when there is none.'),
    h('div', { class: 'split' },
      h('div', null,
        h('label', { for: editorId }, 'Puzzle: 9 lines of 9 digits, 0 for a blank'),
        editor,
        h('div', { class: 'toolbar' }, solveButton),
        status, facts, grid),
      h('div', { class: 'prose side-prose' },
        h('h3', null, 'How the best is found here'),
        h('p', null,
          'A branch and bound (the same code as dancecard target-sudoku): it fills the squares that have one ',
          'candidate left, branches on the square with the fewest, largest digit first, and skips a branch whose ',
          'upper bound (the best each digit could still add, looked at digit by digit) cannot beat the best completion found. ',
          'A sparse puzzle can take longer than the server\u2019s budget: the page then shows the best found so far, marked as such.'),
        puzzleNodeNote(
          'A node is one branch of the branch and bound: the root, and one for each digit tried in a square ',
          '(the squares filled because a single candidate was left are not counted).'))));

  async function solve() {
    solveButton.disabled = true;
    status.className = 'status';
    status.textContent = 'Searching for the best completion\u2026';
    try {
      const a = await api.targetSudoku(editor.value);
      status.className = a.complete ? 'status success' : 'status warn';
      status.textContent = a.score === null || a.score < 0
        ? (a.complete ? 'No completion: the score is \u22121.' : `No completion found before the server\u2019s budget (${a.stop}).`)
        : (a.complete ? `The best score is ${a.score}.` : `Best score so far ${a.score}: the search stopped at the server\u2019s budget (${a.stop}).`);
      replace(facts,
        h('dt', null, 'Best score'), h('dd', { class: 'score' }, a.score === null ? 'none yet' : String(a.score)),
        h('dt', null, 'Givens'), h('dd', null, String(a.givens)),
        h('dt', null, 'Search nodes'), h('dd', { class: 'nodes' }, Number(a.stats.nodes).toLocaleString('en')));
      replace(grid, a.grid ? drawTarget(a.puzzle, a.grid) : null);
    } catch (e) {
      status.className = 'status error';
      status.textContent = `This puzzle cannot be read: ${e.message}`;
      replace(facts);
      replace(grid);
    } finally {
      solveButton.disabled = false;
    }
  }

  return el;
}

/** The best grid, shaded by ring weight, the givens in bold. */
function drawTarget(puzzle, grid) {
  const rows = grid.map((row, r) => h('tr', null, row.map((d, c) => {
    const weight = 10 - Math.max(Math.abs(r - 4), Math.abs(c - 4));
    return h('td', {
      class: ['cell', `w${weight}`, puzzle[r][c] ? 'given' : 'solved',
        c % 3 === 2 && c < 8 ? 'box-right' : null, r % 3 === 2 && r < 8 ? 'box-bottom' : null],
      title: `weight ${weight}`,
    }, String(d));
  })));
  const legend = h('p', { class: 'legend rings' }, TEXT.ringsLegend, ' ',
    [6, 7, 8, 9, 10].map((w) => [h('span', { class: ['chip', 'ring', `w${w}`], title: TEXT.ringTitle(w) }, String(w)), ' ']));
  return [h('table', { class: 'sudoku target', 'aria-label': 'A best completion; darker squares weigh more' }, h('tbody', null, rows)), legend];
}
