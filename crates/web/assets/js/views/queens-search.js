// Section 6, second part: the N-queens model as a matrix, and its search replayed.
//
// Both parts ask the server for the model the engine solves (`GET /api/queens/dlx`: ranks
// and files primary, the diagonals secondary) and for the trace of the engine's search on it
// (`POST /api/trace`), and replay the trace with the stepper's `replay`: what they show is
// what the engine did, event by event, up to the trace's event limit.
//
// Every user-visible string of this file is in TEXT, taken from the dictionaries (i18n/*.js).

import * as api from '../api.js';
import { h, replace, showFacts, uid } from '../dom.js';
import { t, num, count } from '../i18n.js';
import { createPlayer, LABELS } from '../player.js';
import { boardMoments, boardRows, createWatch, replayMoment, showEvent, traceLoader } from '../watch.js';
import { replay, rowStates } from './stepper.js';

/** Boards up to this size are stepped and watched (N = 8: 64 rows, 46 columns). */
export const MAX_STEPPED = 8;

/** The event limits the reader may ask the trace for (the server caps them at its own). */
const EVENT_LIMITS = [2000, 20000];

const fmt = (n) => num(Number(n));

/** Every string this file shows, from the dictionaries (i18n/*.js). */
export const TEXT = {
  // The model as a matrix.
  modelTitle: t('queens.model.title'),
  modelLead: t('queens.model.lead'),
  size: t('queens.size'),
  compact: t('queens.model.compact'),
  hideRemoved: t('queens.model.hideRemoved'),
  loading: (n) => t('queens.model.loading', { n }),
  shape: (n, cols, primary, secondary, rows) => t('queens.model.shape', { n, cols, primary, secondary, rows }),
  ringTitle: t('queens.model.ringTitle'),
  ringRoot: t('queens.model.ringRoot'),
  ringNote: t('queens.model.ringNote'),
  offRingNote: t('queens.model.offRingNote'),
  itemTitle: (name) => t(`queens.model.item.${name[0]}`, { name, k: parseInt(name.slice(1), 36) }),
  legend: {
    chosen: t('queens.model.legend.chosen'),
    candidate: t('queens.model.legend.candidate'),
    trying: t('queens.model.legend.trying'),
    tried: t('queens.model.legend.tried'),
    solution: t('queens.model.legend.solution'),
    removed: t('queens.model.legend.removed'),
    secondary: t('queens.model.legend.secondary'),
  },
  rowHead: t('queens.model.rowHead'),
  scrollHint: t('queens.model.scrollHint'),
  caption: t('queens.model.caption'),
  // Events, in words.
  start: t('queens.model.start'),
  enter: (e) => t('queens.model.enter', { level: e.level, node: Number(e.nodes) }),
  choose: (e, why) => (e.len === 0
    ? t('queens.model.deadEnd', { name: e.name, why })
    : t('queens.model.choose', { name: e.name, why, rows: count(e.len, 'unit.row') })),
  why: (name) => t(name[0] === 'r' ? 'queens.model.why.r' : 'queens.model.why.c', { k: parseInt(name.slice(1), 36) }),
  cover: (e) => t(/^[ab]/.test(e.name) ? 'queens.model.coverSecondary' : 'queens.model.cover', { name: e.name }),
  uncover: (e) => t(/^[ab]/.test(e.name) ? 'queens.model.uncoverSecondary' : 'queens.model.uncover', { name: e.name }),
  tryRow: (e, square) => t('queens.model.try', { level: e.level, square }),
  untry: (e, square) => t('queens.model.untry', { level: e.level, square }),
  solution: (n) => t('queens.model.solution', { count: n }),
  backtrack: (e) => (e.level > 0
    ? t('queens.model.backtrack', { level: e.level, up: e.level - 1 })
    : t('queens.model.backtrackEnd')),
  cut: (stop, events) => t('queens.model.cut', { stop, events }),
  facts: {
    level: t('queens.model.fact.level'),
    nodes: t('queens.model.fact.nodes'),
    solutions: t('queens.model.fact.solutions'),
    ring: t('queens.model.fact.ring'),
  },
  square: (r, c) => t('queens.model.square', { r, c }),
  // The search on the board.
  watchTitle: t('queens.watch.title'),
  watchLead: t('queens.watch.lead'),
  limit: t('queens.watch.limit'),
  limitOption: (n) => t('queens.watch.limitOption', { n }),
  watchStatus: (tr, total) => {
    const events = tr.events.length;
    const { nodes, solutions } = tr.stats;
    if (tr.complete) return t('queens.watch.whole', { events, nodes: Number(nodes), solutions: Number(solutions) });
    return total === undefined
      ? t('queens.watch.cut', { stop: tr.stop, events, nodes: Number(nodes) })
      : t('queens.watch.cutOfTotal', { stop: tr.stop, events, nodes: Number(nodes), total: Number(total) });
  },
  chosen: (name) => t('queens.watch.chosen', { name, why: TEXT.why(name) }),
  noChoice: t('queens.watch.noChoice'),
  board: (k, queens) => (queens.length
    ? t('queens.watch.board', { k, queens: queens.join(t('queens.watch.boardSep')) })
    : t('queens.watch.boardEmpty', { k })),
  watchFacts: {
    nodes: t('queens.watch.fact.nodes'),
    queens: t('queens.watch.fact.queens'),
    solutions: t('queens.watch.fact.solutions'),
    event: t('queens.watch.fact.event'),
  },
  cutBanner: (stop) => t('queens.watch.cutBanner', { stop }),
  doneBanner: t('queens.watch.doneBanner'),
  solutionBanner: (n) => t('queens.watch.solutionBanner', { count: n }),
};

/** The trace of the engine's search on the N-queens model, with each option's square. */
async function queensTrace(n, limit) {
  const trace = await api.trace(await api.queensDlx(n), { heuristic: 'mrv', limit });
  const number = (name) => parseInt(name.slice(1), 36);
  trace.n = n;
  trace.squares = trace.options.map((o) => {
    const names = o.items.map((i) => trace.items[i].name);
    return { r: number(names.find((x) => x[0] === 'r')), c: number(names.find((x) => x[0] === 'c')) };
  });
  trace.byIndex = new Map(trace.options.map((o, p) => [o.index, p]));
  return trace;
}

function sizePicker(id, value) {
  const sizes = [];
  for (let n = 1; n <= MAX_STEPPED; n += 1) sizes.push(h('option', { value: String(n), selected: n === value }, String(n)));
  return h('select', { id }, sizes);
}

function squareName(trace, p) {
  const { r, c } = trace.squares[p];
  return TEXT.square(r, c);
}

/** The stepped matrix: mounts into `part` and returns {onKey(event) -> handled}. */
export function mountModel(part) {
  let trace = null;
  const sizeId = uid('queens-model-n');
  const size = sizePicker(sizeId, 4);
  const compactBox = h('input', { type: 'checkbox' });
  const hideBox = h('input', { type: 'checkbox' });
  const shape = h('p', { class: 'queens-shape', role: 'status', 'aria-live': 'polite' });
  const ring = h('div', { class: 'queens-ring' });
  const table = h('table', { class: 'matrix trace queens-matrix' });
  const wrap = h('div', { class: 'queens-matrix-wrap', tabindex: '0' }, table);
  const eventText = h('p', { class: 'event', role: 'status', 'aria-live': 'polite' });
  const facts = h('dl', { class: 'facts queens-model-facts' });
  const player = createPlayer({ render, label: LABELS.event, speeds: { min: 1, max: 30, value: 6 } });
  const loadTrace = traceLoader({ player, note: shape, busyClass: 'queens-shape muted', errorClass: 'queens-shape status error' });

  replace(part,
    h('h3', null, TEXT.modelTitle),
    h('p', null, TEXT.modelLead),
    h('div', { class: 'toolbar' },
      h('label', { for: sizeId }, TEXT.size), size,
      h('label', { class: 'check' }, compactBox, ' ', TEXT.compact),
      h('label', { class: 'check' }, hideBox, ' ', TEXT.hideRemoved)),
    shape,
    h('h4', null, TEXT.ringTitle), ring,
    player.element,
    eventText, facts,
    h('p', { class: 'muted queens-hint' }, TEXT.scrollHint),
    wrap,
    h('p', { class: 'legend' },
      h('span', { class: 'chip chosen-item' }, TEXT.legend.chosen), ' ',
      h('span', { class: 'chip candidate' }, TEXT.legend.candidate), ' ',
      h('span', { class: 'chip trying' }, TEXT.legend.trying), ' ',
      h('span', { class: 'chip tried' }, TEXT.legend.tried), ' ',
      h('span', { class: 'chip in-solution' }, TEXT.legend.solution), ' ',
      h('span', { class: 'chip removed' }, TEXT.legend.removed), ' ',
      h('span', { class: 'chip secondary-chip' }, TEXT.legend.secondary)));

  size.addEventListener('change', load);
  compactBox.addEventListener('change', () => render(player.position()));
  hideBox.addEventListener('change', () => render(player.position()));

  async function load() {
    const n = Number(size.value);
    trace = null;
    const answer = await loadTrace(() => queensTrace(n), TEXT.loading(n));
    if (!answer) return;
    trace = answer;
    const primary = trace.items.filter((i) => i.primary).length;
    shape.className = 'queens-shape';
    shape.textContent = TEXT.shape(n, trace.items.length, primary, trace.items.length - primary, trace.options.length);
    compactBox.checked = n >= 6;
    player.setCount(trace.events.length);
  }

  function describe(event, state) {
    if (!event) return TEXT.start;
    switch (event.event) {
      case 'enter': return TEXT.enter(event);
      case 'choose': return TEXT.choose(event, TEXT.why(event.name));
      case 'cover': return TEXT.cover(event);
      case 'uncover': return TEXT.uncover(event);
      case 'try': return TEXT.tryRow(event, squareName(trace, trace.byIndex.get(event.option)));
      case 'untry': return TEXT.untry(event, squareName(trace, trace.byIndex.get(event.option)));
      case 'solution': return TEXT.solution(state.solutions.length);
      case 'backtrack': return TEXT.backtrack(event);
      default: return event.event;
    }
  }

  function render(k) {
    if (!trace) {
      replace(table); replace(ring); replace(facts);
      eventText.textContent = '';
      return;
    }
    const state = replay(trace, trace.events, k);
    const { chosenItem, rowState } = rowStates(trace, state);
    const firstSecondary = trace.items.findIndex((item) => !item.primary);
    const itemClass = (i) => [
      i === chosenItem && 'chosen-item',
      i === firstSecondary && 'first-secondary',
      state.covered.has(i) && i !== chosenItem && 'removed',
      !trace.items[i].primary && 'secondary',
    ];

    // The headers: the root's ring (primary items still uncovered), and the secondary ones.
    const onRing = [];
    const offRing = [];
    trace.items.forEach((item, i) => {
      const chip = h('span', {
        class: ['chip', 'header', ...itemClass(i)],
        title: TEXT.itemTitle(item.name),
        dataset: { item: item.name },
      }, item.name);
      (item.primary ? onRing : offRing).push(chip);
    });
    replace(ring,
      h('p', { class: 'ring-note' }, TEXT.ringNote),
      h('div', { class: 'ring-list on-ring' },
        h('span', { class: 'chip root' }, TEXT.ringRoot),
        onRing.map((chip) => (chip.classList.contains('removed') ? chip : [h('span', { class: 'arrow', 'aria-hidden': 'true' }, '\u21c4'), chip])),
        h('span', { class: 'arrow', 'aria-hidden': 'true' }, '\u21c4'), h('span', { class: 'chip root' }, TEXT.ringRoot)),
      h('p', { class: 'ring-note' }, TEXT.offRingNote),
      h('div', { class: 'ring-list off-ring' }, offRing));

    const hide = hideBox.checked;
    table.classList.toggle('compact', compactBox.checked);
    const head = h('thead', null, h('tr', null,
      h('th', { scope: 'col', class: 'corner' }, TEXT.rowHead),
      trace.items.map((item, i) => h('th', { scope: 'col', class: itemClass(i), title: TEXT.itemTitle(item.name) }, item.name))));
    const rows = [];
    trace.options.forEach((option, p) => {
      const cls = rowState(p);
      if (hide && cls === 'removed') return;
      const ones = new Set(option.items);
      const { r, c } = trace.squares[p];
      rows.push(h('tr', { class: cls, dataset: { row: String(option.index + 1), square: `${r},${c}` } },
        h('th', { scope: 'row', title: TEXT.square(r, c) }, `${r},${c}`),
        trace.items.map((_, i) => h('td', { class: [ones.has(i) ? 'one' : 'zero', ...itemClass(i)] }, ones.has(i) ? '1' : ''))));
    });
    replace(table, h('caption', { class: 'sr-only' }, TEXT.caption), head, h('tbody', null, rows));
    followRow();

    eventText.textContent = describe(state.last, state);
    eventText.className = state.last?.event === 'solution' ? 'event success' : 'event';
    if (k === trace.events.length && !trace.complete) eventText.textContent += TEXT.cut(trace.stop, trace.events.length);
    showFacts(facts, [
      [TEXT.facts.level, String(state.level)],
      [TEXT.facts.nodes, fmt(state.nodes), 'nodes'],
      [TEXT.facts.solutions, String(state.solutions.length), 'solutions-count'],
      [TEXT.facts.ring, String(trace.items.filter((it, i) => it.primary && !state.covered.has(i)).length), 'ring-count'],
    ]);
  }

  // Keeps the row being tried (else the first candidate) in sight: scrolls the matrix's box
  // only, never the page.
  function followRow() {
    const row = table.querySelector('tbody tr.trying') ?? table.querySelector('tbody tr.candidate');
    if (!row) return;
    const box = wrap.getBoundingClientRect();
    const at = row.getBoundingClientRect();
    const header = table.tHead ? table.tHead.getBoundingClientRect().height : 0;
    if (at.top < box.top + header || at.bottom > box.bottom) {
      wrap.scrollTop += at.top - box.top - header - wrap.clientHeight / 3;
    }
  }

  load();
  return { onKey: (event) => player.onKey(event), load };
}

/** The search on the board: mounts into `part`; `total(n)` gives the whole search's nodes
 * when the view knows them. Returns {onKey(event) -> handled}. */
export function mountWatch(part, { total = () => undefined } = {}) {
  let trace = null;
  let moments = []; // event counts after which the board is drawn
  const sizeId = uid('queens-watch-n');
  const limitId = uid('queens-watch-limit');
  const size = sizePicker(sizeId, 6);
  const limit = h('select', { id: limitId },
    EVENT_LIMITS.map((n, j) => h('option', { value: String(n), selected: j === EVENT_LIMITS.length - 1 }, TEXT.limitOption(n))));
  const watch = createWatch({
    name: 'queens-watch', chosenClass: 'queens-chosen', boardClass: 'queens-wrap queens-watch-board', render, speed: 10,
  });
  const { status, chosen, board, eventText, facts, player } = watch;

  replace(part,
    h('h3', null, TEXT.watchTitle),
    h('p', null, TEXT.watchLead),
    h('div', { class: 'toolbar' },
      h('label', { for: sizeId }, TEXT.size), size,
      h('label', { for: limitId }, TEXT.limit), limit),
    status,
    player.element,
    h('div', { class: 'queens-watch-grid' },
      h('div', null, chosen, board),
      h('div', null, facts, eventText)));

  size.addEventListener('change', load);
  limit.addEventListener('change', load);

  async function load() {
    const n = Number(size.value);
    trace = null;
    moments = [];
    const answer = await watch.load(() => queensTrace(n, Number(limit.value)), TEXT.loading(n));
    if (!answer) return;
    trace = answer;
    moments = boardMoments(answer.events);
    player.setCount(moments.length);
  }

  function render(k) {
    if (!trace) {
      watch.clear();
      return;
    }
    // The whole search's nodes may arrive after the trace: the status is redrawn each step.
    status.className = `status queens-watch-status ${trace.complete ? 'success' : 'warn'}`;
    status.textContent = TEXT.watchStatus(trace, trace.complete ? undefined : total(trace.n));
    const { upto, state } = replayMoment(trace, moments, k);
    const n = trace.n;
    const current = state.levels[state.level] ?? null;
    const queenAt = new Map();
    state.levels.forEach((l, level) => {
      if (l && l.option !== null && l.option !== undefined) {
        const { r, c } = trace.squares[l.option];
        queenAt.set(`${r},${c}`, level === state.level ? 'trying' : 'placed');
      }
    });
    const open = new Set();
    trace.options.forEach((o, p) => {
      if (o.items.every((i) => !state.covered.has(i))) open.add(`${trace.squares[p].r},${trace.squares[p].c}`);
    });
    const chosenName = current ? trace.items[current.item].name : null;
    const chosenLine = chosenName ? { kind: chosenName[0], at: parseInt(chosenName.slice(1), 36) } : null;
    const candidates = new Set(current ? current.candidates.map((p) => `${trace.squares[p].r},${trace.squares[p].c}`) : []);

    const files = h('tr', null, h('th', { scope: 'col' }), Array.from({ length: n }, (_, c) => h('th', { scope: 'col', class: chosenLine?.kind === 'c' && chosenLine.at === c ? 'chosen-line' : null }, `c${c.toString(36)}`)));
    // The queens' squares in reading order, for the board's label.
    const queens = [];
    const ranks = boardRows(n, n, (r, c, key) => {
      const queen = queenAt.get(key);
      if (queen) queens.push(TEXT.square(r, c));
      const inLine = chosenLine && ((chosenLine.kind === 'r' && chosenLine.at === r) || (chosenLine.kind === 'c' && chosenLine.at === c));
      return h('td', {
        class: [(r + c) % 2 ? 'dark' : 'light', queen && 'queen-on', queen, !queen && !open.has(key) && 'attacked',
          inLine && 'chosen-line', !queen && candidates.has(key) && 'candidate'],
        dataset: { square: key },
      }, queen ? '\u265b' : '');
    }, (r) => h('th', { scope: 'row', class: chosenLine?.kind === 'r' && chosenLine.at === r ? 'chosen-line' : null }, `r${r.toString(36)}`));
    replace(board, h('table', { class: 'chess queens-watch', 'aria-label': TEXT.board(k, queens) }, h('tbody', null, files, ranks)));
    watch.choose(chosenName ? TEXT.chosen(chosenName) : null, TEXT.noChoice);

    const words = state.last ? describeBoard(state.last, state) : TEXT.start;
    showEvent(eventText, { trace, state, upto, k, words }, TEXT);
    showFacts(facts, [
      [TEXT.watchFacts.nodes, fmt(state.nodes), 'nodes'],
      [TEXT.watchFacts.queens, String(queens.length), 'queens-count'],
      [TEXT.watchFacts.solutions, String(state.solutions.length), 'solutions-count'],
      [TEXT.watchFacts.event, `${fmt(upto)} / ${fmt(trace.events.length)}`],
    ]);
  }

  function describeBoard(event, state) {
    switch (event.event) {
      case 'choose': return TEXT.choose(event, TEXT.why(event.name));
      case 'try': return TEXT.tryRow(event, squareName(trace, trace.byIndex.get(event.option)));
      case 'untry': return TEXT.untry(event, squareName(trace, trace.byIndex.get(event.option)));
      case 'solution': return TEXT.solutionBanner(state.solutions.length);
      case 'backtrack': return TEXT.backtrack(event);
      case 'enter': return TEXT.enter(event);
      case 'cover': return TEXT.cover(event);
      case 'uncover': return TEXT.uncover(event);
      default: return event.event;
    }
  }

  load();
  return { onKey: (event) => player.onKey(event), load };
}
