// Section 7: tilings and the target sudoku. The engine tiles a rectangle with a set of
// polyominoes (each square covered once, and with "each piece once", each piece used once);
// the page draws a tiling in colour, steps to the next one, and counts them. Then the target
// sudoku: a sudoku whose completions are scored, and the best one is wanted.

import * as api from '../api.js';
import { h, s, replace, puzzleNodeNote, uid, presetPicker } from '../dom.js';
import { t, num, count as amount } from '../i18n.js';
import { mountTilingWatch } from './tiling-watch.js';

export const TILINGS = [
  { id: 'pent6x10', name: t('tiling.preset.pent6x10'), rows: 6, cols: 10, pieces: 'pentominoes', once: true },
  { id: 'pent5x12', name: t('tiling.preset.pent5x12'), rows: 5, cols: 12, pieces: 'pentominoes', once: true },
  { id: 'pent3x20', name: t('tiling.preset.pent3x20'), rows: 3, cols: 20, pieces: 'pentominoes', once: true },
  { id: 'dom8x8', name: t('tiling.preset.dom8x8'), rows: 8, cols: 8, pieces: 'dominoes', once: false },
  { id: 'tro6x6', name: t('tiling.preset.tro6x6'), rows: 6, cols: 6, pieces: 'trominoes', once: false },
];

const SETS = ['monomino', 'dominoes', 'trominoes', 'tetrominoes', 'pentominoes', 'hexominoes'];

// The strings added in the second edition, now in the dictionaries (../i18n/, keys tiling.*).
const TEXT = {
  countedAll: (total, n) => t('tiling.countedAll', { total, n }),
  whereOfTotal: (k, n, total) => t('tiling.whereOfTotal', { k, n, total }),
  ringsLegend: t('tiling.ringsLegend'),
  ringTitle: (w) => t('tiling.ringTitle', { w }),
  memoTitle: t('tiling.memoTitle'),
  memoLead: t('tiling.memoLead'),
  memoBoard: t('tiling.memoBoard'),
  memoButton: t('tiling.memoButton'),
  memoBusy: t('tiling.memoBusy'),
  memoFailed: (m) => t('tiling.memoFailed', { error: m }),
  memoHead: ['', ...['tilings', 'nodes', 'hits', 'stored'].map((c) => t(`tiling.memoHead.${c}`))],
  memoPlain: t('tiling.memoPlain'),
  memoMemo: t('tiling.memoMemo'),
  memoNone: '\u2014',
  memoSummary: (plain, memo, hits) => t('tiling.memoSummary', { plain, memo, hits }),
  memoBoardName: (r, c) => t('tiling.memoBoardName', { r, c }),
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
  const preset = presetPicker(presetId, TILINGS, t('tiling.own'));
  const rows = h('input', { id: rowsId, type: 'number', min: '1', max: '32', value: '6', inputmode: 'numeric' });
  const cols = h('input', { id: colsId, type: 'number', min: '1', max: '64', value: '10', inputmode: 'numeric' });
  const set = h('select', { id: setId }, SETS.map((name) => h('option', { value: name }, t(`tiling.set.${name}`))));
  const once = h('input', { id: onceId, type: 'checkbox' });
  const showButton = h('button', { type: 'button', class: 'ctl primary show', onclick: show }, t('tiling.show'));
  const countButton = h('button', { type: 'button', class: 'ctl count', onclick: count }, t('tiling.count'));
  const prev = h('button', { type: 'button', class: 'ctl prev', title: t('tiling.prevTitle'), onclick: () => go(k - 1) }, t('tiling.prev'));
  const next = h('button', { type: 'button', class: 'ctl primary next', title: t('tiling.nextTitle'), onclick: () => go(k + 1) }, t('tiling.next'));
  const where = h('span', { class: 'where', 'aria-live': 'polite' });
  const browse = h('div', { class: 'player' }, h('div', { class: 'buttons' }, prev, next), where);
  const figure = h('div', { class: 'tiling-wrap' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const counted = h('dl', { class: 'facts tiling-facts', 'aria-live': 'polite' });

  const el = h('div', { class: 'tiling-part' },
    h('p', { class: 'lead' }, t('tiling.lead')),
    h('div', { class: 'toolbar' },
      h('label', { for: presetId }, t('tiling.board')), preset),
    h('div', { class: 'toolbar' },
      h('label', { for: rowsId }, t('tiling.rows')), rows,
      h('label', { for: colsId }, t('tiling.cols')), cols,
      h('label', { for: setId }, t('tiling.pieces')), set,
      h('label', { class: 'radio', for: onceId }, once, ' ', t('tiling.once')),
      showButton, countButton),
    h('div', { class: 'split' },
      h('div', null, status, counted, browse, figure),
      h('div', { class: 'prose side-prose' },
        h('h3', null, t('tiling.pentTitle')),
        h('p', null, t('tiling.pent')),
        h('p', null, t('tiling.dominoes')),
        puzzleNodeNote(t('tiling.node')))));

  function fill(b) {
    rows.value = String(b.rows);
    cols.value = String(b.cols);
    set.value = b.pieces;
    once.checked = b.once;
  }
  preset.addEventListener('change', () => {
    const b = TILINGS.find((x) => x.id === preset.value);
    if (b) {
      fill(b);
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
    status.textContent = t('tiling.searching');
    try {
      list = await api.tile({ ...params(), mode: 'all', limit: PAGE });
      total = null;
      k = 0;
      const n = list.placements.length;
      if (n === 0) {
        status.className = 'status warn';
        status.textContent = list.complete
          ? t('tiling.none')
          : t('tiling.budget', { stop: list.stop });
      } else {
        status.className = 'status success';
        const more = list.stop === 'solution-limit' ? t('tiling.more', { n }) : '';
        status.textContent = t('tiling.found', { tilings: amount(n, 'tiling.unit.tiling'), more, nodes: amount(list.stats.nodes, 'unit.searchNode') });
      }
    } catch (e) {
      list = null;
      status.className = 'status error';
      status.textContent = t('tiling.error', { error: e.message });
    } finally {
      setBusy(false);
    }
    render();
  }

  async function count() {
    if (busy) return;
    setBusy(true);
    replace(counted, h('dt', null, t('tiling.fact.tilings')), h('dd', null, t('tiling.counting')));
    try {
      const answer = await api.tile({ ...params(), mode: 'count' });
      replace(counted,
        h('dt', null, t('tiling.fact.tilings')),
        h('dd', { class: 'total' }, answer.complete ? num(Number(answer.count)) : t('tiling.soFar', { n: Number(answer.count) })),
        h('dt', null, t('tiling.fact.by')),
        h('dd', null, countedBy(answer)),
        answer.method === 'dp' ? null : [h('dt', null, t('tiling.fact.nodes')), h('dd', { class: 'nodes' }, num(Number(answer.stats.nodes)))],
        answer.complete ? null : [h('dt', null, t('tiling.fact.stopped')), h('dd', null, t('tiling.atBudget', { stop: answer.stop }))]);
      // The status spoke of the tilings listed; a complete count of the same board replaces it.
      const same = list && list.board && `${list.board.rows}x${list.board.cols}` === params().board;
      if (answer.complete && same && Number(answer.count) > list.placements.length) {
        total = Number(answer.count);
        status.className = 'status success';
        status.textContent = TEXT.countedAll(total, list.placements.length);
        render();
      }
    } catch (e) {
      replace(counted, h('dt', null, t('tiling.fact.tilings')), h('dd', null, t('tiling.noCount', { error: e.message })));
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
      ? TEXT.whereOfTotal(k + 1, n, total)
      : t(list.stop === 'solution-limit' ? 'tiling.whereMore' : 'tiling.where', { k: k + 1, n });
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
  if (answer.method === 'dp') return t('tiling.by.dp');
  if (answer.count_method === 'memo') {
    return t('tiling.by.memo');
  }
  return t('tiling.by.dlx');
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
    'aria-label': t('tiling.svgLabel', { rows: board.rows, cols: board.cols, n: placements.length }),
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
  const fmt = (n) => num(Number(n));

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
  const solveButton = h('button', { type: 'button', class: 'ctl primary', onclick: solve }, t('tiling.target.solve'));
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const facts = h('dl', { class: 'facts target-facts' });
  const grid = h('div', { class: 'sudoku-wrap' });

  const el = h('div', { class: 'target-part' },
    h('h3', null, t('tiling.target.title')),
    h('p', { class: 'lead' }, t('tiling.target.lead')),
    h('div', { class: 'split' },
      h('div', null,
        h('label', { for: editorId }, t('tiling.target.label')),
        editor,
        h('div', { class: 'toolbar' }, solveButton),
        status, facts, grid),
      h('div', { class: 'prose side-prose' },
        h('h3', null, t('tiling.target.howTitle')),
        h('p', null, t('tiling.target.how')),
        puzzleNodeNote(t('tiling.target.node')))));

  async function solve() {
    solveButton.disabled = true;
    status.className = 'status';
    status.textContent = t('tiling.target.searching');
    try {
      const a = await api.targetSudoku(editor.value);
      status.className = a.complete ? 'status success' : 'status warn';
      status.textContent = a.score === null || a.score < 0
        ? (a.complete ? t('tiling.target.none') : t('tiling.target.noneBudget', { stop: a.stop }))
        : t(a.complete ? 'tiling.target.best' : 'tiling.target.bestSoFar', { score: String(a.score), stop: a.stop });
      replace(facts,
        h('dt', null, t('tiling.target.fact.best')), h('dd', { class: 'score' }, a.score === null ? t('tiling.target.noneYet') : String(a.score)),
        h('dt', null, t('tiling.target.fact.givens')), h('dd', null, String(a.givens)),
        h('dt', null, t('tiling.target.fact.nodes')), h('dd', { class: 'nodes' }, num(Number(a.stats.nodes))));
      replace(grid, a.grid ? drawTarget(a.puzzle, a.grid) : null);
    } catch (e) {
      status.className = 'status error';
      status.textContent = t('tiling.target.error', { error: e.message });
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
      title: TEXT.ringTitle(weight),
    }, String(d));
  })));
  const legend = h('p', { class: 'legend rings' }, TEXT.ringsLegend, ' ',
    [6, 7, 8, 9, 10].map((w) => [h('span', { class: ['chip', 'ring', `w${w}`], title: TEXT.ringTitle(w) }, String(w)), ' ']));
  return [h('table', { class: 'sudoku target', 'aria-label': t('tiling.target.gridLabel') }, h('tbody', null, rows)), legend];
}
