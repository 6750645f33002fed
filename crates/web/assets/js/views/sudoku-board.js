// The sudoku view's board player: the exact cover model of a puzzle written as a DLX file (the
// same items and options, in the same order, as dancecard_models::sudoku::SudokuModel, so the
// engine's node counts are the ones /api/sudoku gives), its search traced by /api/trace, and
// the trace played on the grid. Every word shown comes from the `text` the caller passes (the
// strings of sudoku.js), so that a translation swaps one table.

import * as api from '../api.js';
import { h, replace, uid } from '../dom.js';
import { createPlayer } from '../player.js';
import { num } from '../i18n.js';

/** The value of a puzzle symbol: 1-9, then A = 10, B = 11, ...; 0 for a blank. */
export function valueOf(ch) {
  if (ch >= '1' && ch <= '9') return ch.charCodeAt(0) - 48;
  if (ch >= 'A' && ch <= 'Z') return ch.charCodeAt(0) - 55;
  return 0;
}

/** The symbol of a value (the inverse of `valueOf`). */
export function symbolOf(v) {
  return v <= 9 ? String(v) : String.fromCharCode(55 + v);
}

/**
 * The exact cover model of a square-boxed puzzle (`cells`: one symbol a cell) as a DLX file:
 * `{text, options: [[cell, value]]}`, options in the order the file lists them. Givens are
 * fixed by leaving out the items they cover and the options that clash with them, as the
 * engine's model does.
 */
export function sudokuDlx(cells, side) {
  const box = Math.round(Math.sqrt(side));
  const values = [...cells].map(valueOf);
  const boxOf = (r, c) => Math.floor(r / box) * box + Math.floor(c / box);
  const used = { r: new Array(side).fill(0), c: new Array(side).fill(0), b: new Array(side).fill(0) };
  for (let r = 0; r < side; r += 1) {
    for (let c = 0; c < side; c += 1) {
      const v = values[r * side + c];
      if (!v) continue;
      used.r[r] |= 1 << v;
      used.c[c] |= 1 << v;
      used.b[boxOf(r, c)] |= 1 << v;
    }
  }
  const items = [];
  for (let k = 0; k < side * side; k += 1) {
    if (!values[k]) items.push(`p${Math.floor(k / side)}_${k % side}`);
  }
  for (const family of ['r', 'c', 'b']) {
    for (let u = 0; u < side; u += 1) {
      for (let v = 1; v <= side; v += 1) {
        if (!(used[family][u] & (1 << v))) items.push(`${family}${u}_${v}`);
      }
    }
  }
  const options = [];
  const lines = [items.join(' ')];
  for (let k = 0; k < side * side; k += 1) {
    if (values[k]) continue;
    const r = Math.floor(k / side);
    const c = k % side;
    const b = boxOf(r, c);
    const taken = used.r[r] | used.c[c] | used.b[b];
    for (let v = 1; v <= side; v += 1) {
      if (taken & (1 << v)) continue;
      options.push([k, v]);
      lines.push(`p${r}_${c} r${r}_${v} c${c}_${v} b${b}_${v}`);
    }
  }
  return { text: `${lines.join('\n')}\n`, options };
}

/** An item name of the model (`p3_4`, `r3_7`, `c0_2`, `b8_9`) as {family, unit, value}. */
export function parseItem(name) {
  const m = /^([prcb])(\d+)_(\d+)$/.exec(name);
  if (!m) return null;
  return { family: m[1], unit: Number(m[2]), value: Number(m[3]) };
}

/**
 * The steps of a trace on the board: one for each choice of an item, each digit tried and
 * taken back, each solution and each dead end. Cover and uncover events (the links' own work)
 * are folded into them. Each step keeps the board after it, so any step can be drawn at once.
 */
export function boardSteps(events, options, cells) {
  const board = [...cells].map(valueOf);
  const steps = [];
  let placed = 0;
  for (const e of events) {
    const step = { kind: e.event, level: e.level ?? null, nodes: e.nodes, cell: null, value: null, name: null, len: null };
    switch (e.event) {
      case 'choose':
        step.name = e.name;
        step.len = e.len;
        break;
      case 'try': {
        const [cell, v] = options[e.option];
        board[cell] = v;
        placed += 1;
        step.cell = cell;
        step.value = v;
        break;
      }
      case 'untry': {
        const [cell, v] = options[e.option];
        board[cell] = 0;
        placed -= 1;
        step.cell = cell;
        step.value = v;
        break;
      }
      case 'solution':
      case 'backtrack':
        break;
      default:
        continue;
    }
    step.board = Uint8Array.from(board);
    step.placed = placed;
    steps.push(step);
  }
  return steps;
}

/** The cells (indices) of the unit an item names, for the highlight. */
function unitCells(item, side) {
  const box = Math.round(Math.sqrt(side));
  const out = [];
  for (let i = 0; i < side; i += 1) {
    switch (item.family) {
      case 'p': return [item.unit * side + item.value];
      case 'r': out.push(item.unit * side + i); break;
      case 'c': out.push(i * side + item.unit); break;
      default: {
        const r = Math.floor(item.unit / box) * box + Math.floor(i / box);
        const c = (item.unit % box) * box + (i % box);
        out.push(r * side + c);
      }
    }
  }
  return out;
}

/**
 * The "watch the search" part: a button that traces the current puzzle, the step controls,
 * the counters, a line saying what the step did, and the board.
 * `text` is the `watch` table of sudoku.js's strings; `getPuzzle()` gives the puzzle's
 * symbols. Returns {element, onKey, reset}.
 */
export function createBoardWatch({ text, getPuzzle }) {
  let steps = [];
  let cells = '';
  let side = 0;
  let model = null;

  const watchButton = h('button', { type: 'button', class: 'ctl primary', 'data-action': 'watch', onclick: load }, text.button);
  const status = h('p', { class: 'status watch-status', role: 'status', 'aria-live': 'polite' }, text.idle);
  const event = h('p', { class: 'event watch-event', 'aria-live': 'off' });
  const nodes = h('dd', { class: 'watch-nodes' }, '0');
  const level = h('dd', { class: 'watch-level' }, '\u2013');
  const placed = h('dd', { class: 'watch-placed' }, '0');
  const column = h('dd', { class: 'watch-column' }, '\u2013');
  const board = h('div', { class: 'sudoku-wrap watch-board' });
  const player = createPlayer({ render, label: text.stepLabel, speeds: { min: 1, max: 200, value: 25 } });
  const countersId = uid('counters');

  const element = h('div', { class: 'watch' },
    h('div', { class: 'toolbar' }, watchButton),
    status,
    player.element,
    h('div', { class: 'watch-grid' },
      board,
      h('div', { class: 'watch-side' },
        h('dl', { class: 'facts watch-counters', id: countersId, 'aria-label': text.counters },
          h('dt', null, text.nodes), nodes,
          h('dt', null, text.level), level,
          h('dt', null, text.placed), placed,
          h('dt', null, text.column), column),
        event)));

  function reset() {
    player.stop();
    steps = [];
    model = null;
    player.setCount(0);
    status.className = 'status watch-status';
    status.textContent = text.idle;
    delete status.dataset.stop;
    replace(board);
    replace(event);
    nodes.textContent = '0';
    level.textContent = '\u2013';
    placed.textContent = '0';
    column.textContent = '\u2013';
  }

  async function load() {
    const puzzle = getPuzzle();
    const n = Math.round(Math.sqrt(puzzle.length));
    const box = Math.round(Math.sqrt(n));
    if (n * n !== puzzle.length || box * box !== n) {
      status.className = 'status warn watch-status';
      status.textContent = text.notSquare;
      return;
    }
    watchButton.disabled = true;
    status.className = 'status watch-status';
    status.textContent = text.loading;
    try {
      cells = puzzle;
      side = n;
      model = sudokuDlx(cells, side);
      const trace = await api.trace(model.text, { heuristic: 'mrv', solutions: 1 });
      steps = boardSteps(trace.events, model.options, cells);
      const last = trace.events.length ? trace.events[trace.events.length - 1].nodes : 0;
      status.dataset.stop = trace.stop;
      status.dataset.events = String(trace.events.length);
      status.dataset.nodes = String(trace.stats.nodes);
      if (trace.stop === 'solution-limit') {
        status.className = 'status success watch-status';
        status.textContent = text.traced(trace.events.length, steps.length, trace.stats.nodes);
      } else if (trace.stop === 'exhausted') {
        status.className = 'status warn watch-status';
        status.textContent = text.noSolution(trace.events.length, trace.stats.nodes);
      } else {
        status.className = 'status warn watch-status';
        status.textContent = text.cut(trace.stop, trace.events.length, last);
      }
      player.setCount(steps.length);
    } catch (e) {
      status.className = 'status error watch-status';
      status.textContent = text.failed(e.message);
      steps = [];
      player.setCount(0);
    } finally {
      watchButton.disabled = false;
    }
  }

  function render(k) {
    if (!model) return;
    const step = k > 0 ? steps[k - 1] : null;
    const values = step ? step.board : Uint8Array.from([...cells].map(valueOf));
    nodes.textContent = num(step ? step.nodes : 0);
    level.textContent = step && step.level !== null ? String(step.level) : '\u2013';
    placed.textContent = String(step ? step.placed : 0);
    // The item most recently chosen at or before this step.
    let chosen = null;
    for (let j = k - 1; j >= 0; j -= 1) {
      if (steps[j].kind === 'choose') { chosen = steps[j]; break; }
    }
    const item = chosen ? parseItem(chosen.name) : null;
    column.textContent = item ? `${chosen.name} \u00b7 ${text.item(item)}` : '\u2013';
    const focus = new Set(item ? unitCells(item, side) : []);
    replace(event, step ? text.step(step, parseItem(step.name ?? ''), side) : text.start);
    event.className = ['event', 'watch-event', step?.kind === 'solution' ? 'success' : null].filter(Boolean).join(' ');
    drawBoard(values, step, focus);
  }

  function drawBoard(values, step, focus) {
    const box = Math.round(Math.sqrt(side));
    const rows = [];
    for (let r = 0; r < side; r += 1) {
      const tds = [];
      for (let c = 0; c < side; c += 1) {
        const k = r * side + c;
        const given = valueOf(cells[k]) !== 0;
        const here = step && step.cell === k;
        const v = here && step.kind === 'untry' ? step.value : values[k];
        tds.push(h('td', {
          class: [
            'cell',
            given ? 'given' : (v ? 'placed' : 'blank'),
            here && step.kind === 'try' ? 'now' : null,
            here && step.kind === 'untry' ? 'undone' : null,
            focus.has(k) ? 'focus' : null,
            c % box === box - 1 && c < side - 1 ? 'box-right' : null,
            r % box === box - 1 && r < side - 1 ? 'box-bottom' : null,
          ],
          'data-cell': String(k),
        }, v ? symbolOf(v) : ''));
      }
      rows.push(h('tr', null, tds));
    }
    replace(board, h('table', { class: ['sudoku', 'watching', side > 9 ? 'large' : null], 'aria-label': text.boardLabel },
      h('tbody', null, rows)));
  }

  return { element, onKey: (e) => (steps.length ? player.onKey(e) : false), reset };
}
