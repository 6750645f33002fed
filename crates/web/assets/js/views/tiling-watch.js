// Section 7, a part: a tiling's search watched on the board. The page asks the server for the
// tiling's exact cover model (`GET /api/tile/dlx`: one item per square, and per piece with
// "each piece once"; one option per placement) and for the trace of the engine's search on it
// (`POST /api/trace`), and replays the trace with the stepper's `replay` and the shared
// `createPlayer`, as the queens and sudoku boards do: pieces are placed and taken back on the
// board, the chosen column (a square or a piece) is named, and the node counter runs.
//
// Every user-visible string of this file is in TEXT, taken from the dictionaries (i18n/*.js).

import * as api from '../api.js';
import { h, replace, showFacts, uid } from '../dom.js';
import { t, num, count } from '../i18n.js';
import { boardMoments, boardRows, createWatch, replayMoment, showEvent } from '../watch.js';

/** The most events the trace records (the server caps it at its own `max_trace_events`). */
const EVENT_LIMIT = 20000;

/**
 * The boards to watch: small enough that the whole search fits the event limit (the engine's
 * traces: 917 events for 4x4 with dominoes, 7,369 for 4x6, 525 for 3x4 with trominoes,
 * 3,337 for 4x4 with tetrominoes, 1,959 for 3x5 with pentominoes), except the last, whose
 * search (16,174 nodes) the limit cuts after 2,011 nodes: the page says so.
 */
export const WATCH_BOARDS = [
  { id: 'dom4x4', rows: 4, cols: 4, pieces: 'dominoes', once: false },
  { id: 'dom4x6', rows: 4, cols: 6, pieces: 'dominoes', once: false },
  { id: 'tro3x4', rows: 3, cols: 4, pieces: 'trominoes', once: false },
  { id: 'tet4x4', rows: 4, cols: 4, pieces: 'tetrominoes', once: false },
  { id: 'pent3x5', rows: 3, cols: 5, pieces: 'pentominoes', once: false },
  { id: 'pent5x5', rows: 5, cols: 5, pieces: 'pentominoes', once: false },
];

/** Colours of the pieces on the board (classes `tw-p0` .. `tw-p9` of style.css). */
const COLOURS = 10;

const fmt = (n) => num(Number(n));

/** Every string this file shows, from the dictionaries (i18n/*.js). */
export const TEXT = {
  title: t('tiling.watch.title'),
  lead: t('tiling.watch.lead'),
  boardLabel: t('tiling.watch.board'),
  boardName: (b) => t('tiling.watch.boardName', { rows: b.rows, cols: b.cols, pieces: TEXT.sets[b.pieces] ?? b.pieces }),
  sets: {
    dominoes: t('tiling.set.dominoes'),
    trominoes: t('tiling.set.trominoes'),
    tetrominoes: t('tiling.set.tetrominoes'),
    pentominoes: t('tiling.set.pentominoes'),
  },
  loading: (name) => t('tiling.watch.loading', { name }),
  status: (tr) => t(tr.complete ? 'tiling.watch.whole' : 'tiling.watch.cut', {
    stop: tr.stop,
    events: tr.events.length,
    nodes: Number(tr.stats.nodes),
    tilings: Number(tr.stats.solutions),
  }),
  square: (r, c) => t('tiling.watch.square', { r, c }),
  piece: (name) => t('tiling.watch.piece', { name }),
  chosen: (what, len) => t('tiling.watch.chosen', { what, placements: count(len, 'tiling.watch.placement') }),
  noChoice: t('tiling.watch.noChoice'),
  start: t('tiling.watch.start'),
  enter: (e) => t('tiling.watch.enter', { level: e.level, node: Number(e.nodes) }),
  choose: (e, what) => {
    if (e.len === 0) return t('tiling.watch.deadEnd', { what });
    if (e.len === 1) return t('tiling.watch.forced', { what });
    return t('tiling.watch.choose', { what, len: e.len });
  },
  cover: (e) => t('tiling.watch.cover', { name: e.name }),
  uncover: (e) => t('tiling.watch.uncover', { name: e.name }),
  place: (e, cells) => t('tiling.watch.place', { level: e.level, cells }),
  placeNamed: (e, name, cells) => t('tiling.watch.placeNamed', { level: e.level, name, cells }),
  takeBack: (e, cells) => t('tiling.watch.takeBack', { level: e.level, cells }),
  solution: (n) => t('tiling.watch.solution', { count: n }),
  backtrack: (e) => (e.level > 0
    ? t('tiling.watch.backtrack', { level: e.level, up: e.level - 1 })
    : t('tiling.watch.backtrackEnd')),
  cutBanner: (stop) => t('tiling.watch.cutBanner', { stop }),
  doneBanner: t('tiling.watch.doneBanner'),
  cells: (cells) => cells.map(([r, c]) => t('tiling.watch.cell', { r, c })).join(t('list.sep')),
  board: (k, pieces) => (pieces === 0
    ? t('tiling.watch.boardEmpty', { k })
    : t('tiling.watch.boardLabel', { k, pieces: count(pieces, 'tiling.watch.pieces') })),
  facts: {
    nodes: t('tiling.watch.fact.nodes'),
    level: t('tiling.watch.fact.level'),
    pieces: t('tiling.watch.fact.pieces'),
    tilings: t('tiling.watch.fact.tilings'),
    event: t('tiling.watch.fact.event'),
  },
  legend: {
    placed: t('tiling.watch.legend.placed'),
    trying: t('tiling.watch.legend.trying'),
    chosen: t('tiling.watch.legend.chosen'),
    open: t('tiling.watch.legend.open'),
  },
};

/** A square item's (row, column): `rc` on boards up to 10x10, `rRcC` on larger; else null. */
function squareOf(name) {
  const m = /^(\d)(\d)$/.exec(name) ?? /^r(\d+)c(\d+)$/.exec(name);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The trace of the engine's search on the tiling, with each option's squares and piece. */
async function tilingTrace(b) {
  const model = await api.tileDlx({ board: `${b.rows}x${b.cols}`, pieces: b.pieces, once: b.once });
  const trace = await api.trace(model, { heuristic: 'mrv', limit: EVENT_LIMIT });
  trace.board = b;
  trace.placements = trace.options.map((o) => {
    const names = o.items.map((i) => trace.items[i].name);
    return { cells: names.map(squareOf).filter(Boolean), piece: names.find((x) => !squareOf(x)) ?? null };
  });
  trace.byIndex = new Map(trace.options.map((o, p) => [o.index, p]));
  trace.pieceNames = trace.items.map((i) => i.name).filter((x) => !squareOf(x));
  return trace;
}

/**
 * Mounts the watch into a new part placed right after `after` (an element of `section`).
 * Returns {onKey(event) -> handled, load}; the part handles its own keys while focus is in it.
 */
export function mountTilingWatch(section, after = null) {
  let trace = null;
  let moments = []; // event counts after which the board is drawn
  const boardId = uid('tiling-watch-board');
  const picker = h('select', { id: boardId },
    WATCH_BOARDS.map((b) => h('option', { value: b.id }, TEXT.boardName(b))));
  const watch = createWatch({
    name: 'tiling-watch', chosenClass: 'tiling-watch-chosen', boardClass: 'tiling-watch-board', render, speed: 8,
  });
  const { status, chosen, board, eventText, facts, player } = watch;

  const part = h('div', { class: 'tiling-watch' },
    h('h3', null, TEXT.title),
    h('p', null, TEXT.lead),
    h('div', { class: 'toolbar' }, h('label', { for: boardId }, TEXT.boardLabel), picker),
    status,
    player.element,
    h('div', { class: 'tiling-watch-grid' },
      h('div', null, chosen, board,
        h('p', { class: 'legend' },
          h('span', { class: 'chip tw-legend-placed' }, TEXT.legend.placed), ' ',
          h('span', { class: 'chip tw-legend-trying' }, TEXT.legend.trying), ' ',
          h('span', { class: 'chip tw-legend-chosen' }, TEXT.legend.chosen), ' ',
          h('span', { class: 'chip tw-legend-open' }, TEXT.legend.open))),
      h('div', null, facts, eventText)));
  if (after) after.after(part); else section.append(part);

  // The keys of the player while focus is in this part (the view's own keys elsewhere).
  part.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"]')) return;
    if ((event.key === ' ' || event.key === 'Enter') && target instanceof Element && target.closest('button, a, summary')) return;
    if (player.onKey(event)) event.preventDefault();
  });
  picker.addEventListener('change', load);

  async function load() {
    const b = WATCH_BOARDS.find((x) => x.id === picker.value) ?? WATCH_BOARDS[0];
    trace = null;
    moments = [];
    const answer = await watch.load(() => tilingTrace(b), TEXT.loading(TEXT.boardName(b)));
    if (!answer) return;
    trace = answer;
    moments = boardMoments(answer.events);
    status.className = `status tiling-watch-status ${trace.complete ? 'success' : 'warn'}`;
    status.textContent = TEXT.status(trace);
    player.setCount(moments.length);
  }

  function what(name) {
    const sq = squareOf(name);
    return sq ? TEXT.square(sq[0], sq[1]) : TEXT.piece(name);
  }

  function cellsOf(option) {
    return TEXT.cells(trace.placements[trace.byIndex.get(option)].cells);
  }

  function describe(event, state) {
    switch (event.event) {
      case 'enter': return TEXT.enter(event);
      case 'choose': return TEXT.choose(event, what(event.name));
      case 'cover': return TEXT.cover(event);
      case 'uncover': return TEXT.uncover(event);
      case 'try': {
        const piece = trace.placements[trace.byIndex.get(event.option)].piece;
        return piece ? TEXT.placeNamed(event, TEXT.piece(piece), cellsOf(event.option)) : TEXT.place(event, cellsOf(event.option));
      }
      case 'untry': return TEXT.takeBack(event, cellsOf(event.option));
      case 'solution': return TEXT.solution(state.solutions.length);
      case 'backtrack': return TEXT.backtrack(event);
      default: return event.event;
    }
  }

  function render(k) {
    if (!trace) {
      watch.clear();
      return;
    }
    const { rows, cols } = trace.board;
    const { upto, state } = replayMoment(trace, moments, k);
    const current = state.levels[state.level] ?? null;
    // Each square's piece: the level that placed it, the piece's colour and its label.
    const at = new Map();
    let placed = 0;
    state.levels.forEach((l, level) => {
      if (!l || l.option === null || l.option === undefined) return;
      placed += 1;
      const { cells, piece } = trace.placements[l.option];
      const colour = piece ? trace.pieceNames.indexOf(piece) : level;
      for (const [r, c] of cells) {
        at.set(`${r},${c}`, { level, colour: colour % COLOURS, label: piece ?? String(level + 1), trying: level === state.level });
      }
    });
    const chosenName = current ? trace.items[current.item].name : null;
    const chosenSquare = chosenName ? squareOf(chosenName) : null;

    const trs = boardRows(rows, cols, (r, c, key) => {
      const here = at.get(key);
      // A piece's edges: where the neighbour is another piece or no piece.
      const same = (r2, c2) => here && at.get(`${r2},${c2}`)?.level === here.level;
      return h('td', {
        class: [
          here ? 'placed' : 'open', here && `tw-p${here.colour}`, here?.trying && 'trying',
          chosenSquare && chosenSquare[0] === r && chosenSquare[1] === c && 'chosen',
          here && !same(r - 1, c) && 'edge-top', here && !same(r + 1, c) && 'edge-bottom',
          here && !same(r, c - 1) && 'edge-left', here && !same(r, c + 1) && 'edge-right',
        ],
        dataset: { cell: key },
      }, here ? here.label : '');
    });
    replace(board, h('table', { class: 'tiling-watch-table', 'aria-label': TEXT.board(k, placed) }, h('tbody', null, trs)));
    watch.choose(chosenName ? TEXT.chosen(what(chosenName), current.len) : null, TEXT.noChoice);

    const words = state.last ? describe(state.last, state) : TEXT.start;
    showEvent(eventText, { trace, state, upto, k, words }, TEXT);
    showFacts(facts, [
      [TEXT.facts.nodes, fmt(state.nodes), 'nodes'],
      [TEXT.facts.level, String(state.level), 'level'],
      [TEXT.facts.pieces, String(placed), 'pieces-count'],
      [TEXT.facts.tilings, String(state.solutions.length), 'solutions-count'],
      [TEXT.facts.event, `${fmt(upto)} / ${fmt(trace.events.length)}`, 'event-count'],
    ]);
  }

  load();
  return { onKey: (event) => player.onKey(event), load };
}
