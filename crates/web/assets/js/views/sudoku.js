// Section 5: sudoku. The reader picks a preset or types a puzzle; the server solves it by the
// exact cover model on the engine (DLX) and by the dedicated fast solver, and the page shows
// the grid, each method's node count and time. Below: the search played on the board
// (sudoku-board.js), and why the number of givens and the search effort disagree, with a
// table of the engine's own runs on the presets.
//
// Every string of the view is in TEXT below (the board player gets TEXT.watch), taken from
// the dictionaries of ../i18n/.

import * as api from '../api.js';
import { h, replace, micros, uid, editorBox, onPresetPick } from '../dom.js';
import { t, num, count as amountOf } from '../i18n.js';
import { createBoardWatch } from './sudoku-board.js';

/** "1 node", "3 nodes"; "1 given", "3 givens" (in the page's language). */
const count = (n, key) => amountOf(n, key);

// Every string of the view, in the dictionaries (../i18n/, keys sudoku.*), gathered here in
// the shape the view and the board player (TEXT.watch) use.
export const TEXT = {
  presets: Object.fromEntries(['easy', 'seventeen', 'inkala', 'hard', 'escargot', 'sixteen', 'custom', 'seedGroup', 'moreGroup']
    .map((key) => [key, t(`sudoku.presets.${key}`)])),
  methods: {
    dlx: t('sudoku.methods.dlx'),
    fast: t('sudoku.methods.fast'),
  },
  toolbar: {
    puzzle: t('sudoku.toolbar.puzzle'),
    dlx: t('sudoku.toolbar.dlx'),
    fast: t('sudoku.toolbar.fast'),
    both: t('sudoku.toolbar.both'),
    clear: t('sudoku.toolbar.clear'),
  },
  editor: {
    summary: t('sudoku.editor.summary'),
    label: t('sudoku.editor.label'),
    help: t('sudoku.editor.help'),
    use: t('sudoku.editor.use'),
  },
  lead: t('sudoku.lead'),
  side: {
    twoWays: t('sudoku.side.twoWays'),
    twoWaysText: t('sudoku.side.twoWaysText'),
    nodeSummary: t('sudoku.side.nodeSummary'),
    nodeDlx: t('sudoku.side.nodeDlx'),
    nodeFast: t('sudoku.side.nodeFast'),
  },
  status: {
    ready: (side, givens) => t('sudoku.status.ready', { side, givens: count(givens, 'sudoku.unit.given'), cells: side * side }),
    notSquare: t('sudoku.status.notSquare'),
    solving: t('sudoku.status.solving'),
    solved: (size, givens) => t('sudoku.status.solved', { size, givens: count(givens, 'sudoku.unit.given'), cells: size * size }),
    none: t('sudoku.status.none'),
    budget: (stop) => t('sudoku.status.budget', { stop }),
    error: (message) => t('sudoku.status.error', { error: message }),
    stopped: (stop, time) => t('sudoku.status.stopped', { stop, time }),
  },
  nodes: (n) => count(n, 'unit.node'),
  seedVisits: (n) => t('sudoku.seedVisits', { n }),
  conventions: t('sudoku.conventions'),
  grid: (side, solved) => t(solved ? 'sudoku.gridSolved' : 'sudoku.grid', { side }),
  watch: {
    heading: t('sudoku.watch.heading'),
    intro: t('sudoku.watch.intro'),
    button: t('sudoku.watch.button'),
    idle: t('sudoku.watch.idle'),
    loading: t('sudoku.watch.loading'),
    notSquare: t('sudoku.watch.notSquare'),
    traced: (events, steps, nodes) => t('sudoku.watch.traced', { nodes: count(nodes, 'unit.node'), events, steps }),
    noSolution: (events, nodes) => t('sudoku.watch.noSolution', { nodes: count(nodes, 'unit.node'), events }),
    cut: (stop, events, nodes) => t('sudoku.watch.cut', { stop, events, node: nodes }),
    failed: (message) => t('sudoku.watch.failed', { error: message }),
    stepLabel: t('sudoku.watch.stepLabel'),
    counters: t('sudoku.watch.counters'),
    nodes: t('sudoku.watch.nodes'),
    level: t('sudoku.watch.level'),
    placed: t('sudoku.watch.placed'),
    column: t('sudoku.watch.column'),
    boardLabel: t('sudoku.watch.boardLabel'),
    start: t('sudoku.watch.start'),
    item: (it) => {
      const family = ['p', 'r', 'c'].includes(it.family) ? it.family : 'b';
      return t(`sudoku.watch.item.${family}`, { row: it.unit + 1, col: it.value + 1, unit: it.unit + 1, value: it.value });
    },
    step: (step, item, side) => {
      const at = step.cell === null ? '' : t('sudoku.watch.at', { row: Math.floor(step.cell / side) + 1, col: (step.cell % side) + 1 });
      switch (step.kind) {
        case 'choose':
          if (step.len === 0) return t('sudoku.watch.deadEnd', { level: step.level, name: step.name, item: TEXT.watch.item(item) });
          return t('sudoku.watch.choose', { level: step.level, name: step.name, item: TEXT.watch.item(item), len: step.len });
        case 'try': return t('sudoku.watch.try', { level: step.level, value: step.value, at });
        case 'untry': return t('sudoku.watch.untry', { level: step.level, value: step.value, at });
        case 'solution': return t('sudoku.watch.solution', { node: step.nodes });
        case 'backtrack': return t('sudoku.watch.backtrack', { level: step.level });
        default: return '';
      }
    },
  },
  essay: {
    heading: t('sudoku.essay.heading'),
    minimumHeading: t('sudoku.essay.minimumHeading'),
    minimum: t('sudoku.essay.minimum'),
    waysHeading: t('sudoku.essay.waysHeading'),
    ways: ['clues', 'human', 'search'].map((way) => [t(`sudoku.essay.ways.${way}.term`), t(`sudoku.essay.ways.${way}.text`)]),
    tableHeading: t('sudoku.essay.tableHeading'),
    tableIntro: t('sudoku.essay.tableIntro'),
    columns: ['puzzle', 'givens', 'nodes', 'seed'].map((c) => t(`sudoku.essay.col.${c}`)),
    pending: '\u2026',
    failed: t('sudoku.essay.failed'),
    conclusion: (rows) => {
      const [a, b, c] = rows;
      return t('sudoku.essay.conclusion', {
        a: a.givens, b: b.givens, c: c.givens, na: a.nodes, nb: b.nodes, nc: c.nodes, times: Math.round(c.nodes / b.nodes),
      });
    },
  },
};

// The presets, each with where it comes from (files of the repository's testdata/, copied
// from shared/data/sudoku; see testdata/sudoku/README.md for their origins). The first three
// stand for the seed page's three, in its order (by search nodes), and reproduce its counts:
// nodeVisits 51, 64 and 1471 are the engine's 52, 65 and 1,472 (crates/web/tests/sudoku.rs
// checks them; the browser test checks the givens).
export const SUDOKUS = [
  {
    id: 'easy',
    seed: true,
    givens: 30,
    // testdata/sudoku/emerentius_lines/easy_sudokus.txt, line 2.
    puzzle: '2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3',
  },
  {
    id: 'seventeen',
    seed: true,
    givens: 17,
    // testdata/sudoku/puzzles2_17_clue, the second puzzle (file line 6; Gordon Royle's list of
    // 17-clue sudokus): no wrong guess, one node a blank cell and one for the solution.
    puzzle: '.................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....',
  },
  {
    id: 'inkala',
    seed: true,
    givens: 21,
    // testdata/instances/sudoku_inkala.dlx, first line (Arto Inkala's 2012 puzzle, the one
    // most often called the hardest): 1,472 nodes, the seed's 1471.
    puzzle: '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..',
  },
  {
    id: 'hard',
    givens: 21,
    // testdata/sudoku/puzzles6_forum_hardest_1106, line 10 (the forum's "hardest" list).
    puzzle: '........5..6..87..3......9....1.7.4...7...8...4...6....9..8...3..16..4..5...2....',
  },
  {
    id: 'escargot',
    givens: 23,
    // testdata/sudoku/norvig_hardest.txt, line 6: Arto Inkala's "AI Escargot".
    puzzle: '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..',
  },
  {
    id: 'sixteen',
    givens: 106,
    // dancecard_models::sudoku::generate(Shape::square(4), 2026, 150): a unique solution.
    puzzle: '.E18.9..34...5.27..........DA......5...3E.F.........D52.G9.C..EF14E...C.9...B2.DD8B..6A........C...7..1.82D.36.A..3......7.GEF4.81FB.....E4..G.55..G6..A1..F.3C....3.B8.D..2...4.A6E..5..39......F..9.3.....5......1.C.27.3..D..3...8D.F2.G..1.EG25..1..F.B8..73',
  },
];

/** The side of a square grid of `cells` cells, or null. */
function sideOf(cells) {
  const side = Math.round(Math.sqrt(cells));
  return side * side === cells ? side : null;
}

/** The puzzle in a text: its symbols (digits, letters, `.` and `0`), whitespace dropped. */
function symbols(text) {
  return text.replace(/\s+/g, '');
}

/** A node count with the seed page's count under it (engine nodes less the solution's). */
function countBox(method, nodes, time) {
  return h('div', { class: 'count-box', 'data-method': method },
    h('span', null, TEXT.methods[method]),
    h('span', { class: 'big nodes' }, TEXT.nodes(nodes)),
    method === 'dlx' ? h('span', { class: 'muted seed-visits' }, TEXT.seedVisits(Math.max(0, nodes - 1))) : null,
    h('span', { class: 'muted time' }, time));
}

export function mount(section) {
  let puzzle = SUDOKUS[0].puzzle;
  let solution = null;
  let busy = false;

  const pickId = uid('preset');
  const option = (p) => h('option', { value: p.id }, TEXT.presets[p.id]);
  const picker = h('select', { id: pickId },
    h('optgroup', { label: TEXT.presets.seedGroup }, SUDOKUS.filter((p) => p.seed).map(option)),
    h('optgroup', { label: TEXT.presets.moreGroup }, SUDOKUS.filter((p) => !p.seed).map(option),
      h('option', { value: 'custom' }, TEXT.presets.custom)));
  const dlxButton = h('button', { type: 'button', class: 'ctl', 'data-method': 'dlx', onclick: () => solve(['dlx']) }, TEXT.toolbar.dlx);
  const fastButton = h('button', { type: 'button', class: 'ctl', 'data-method': 'fast', onclick: () => solve(['fast']) }, TEXT.toolbar.fast);
  const bothButton = h('button', { type: 'button', class: 'ctl primary', 'data-method': 'both', onclick: () => solve(['dlx', 'fast']) }, TEXT.toolbar.both);
  const clearButton = h('button', { type: 'button', class: 'ctl', onclick: () => { solution = null; render(); replace(results); replace(conventions); status.textContent = ''; } }, TEXT.toolbar.clear);
  const own = editorBox({ rows: '4', text: puzzle, ...TEXT.editor, onUse: loadCustom });
  const { editor } = own;
  const grid = h('div', { class: 'sudoku-wrap' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const results = h('div', { class: 'compare sudoku-results', 'aria-live': 'polite' });
  const conventions = h('p', { class: 'muted conventions' });
  const watch = createBoardWatch({ text: TEXT.watch, getPuzzle: () => symbols(puzzle) });
  const essay = difficulty();

  section.append(
    h('p', { class: 'lead' }, TEXT.lead),
    h('div', { class: 'toolbar' },
      h('label', { for: pickId }, TEXT.toolbar.puzzle), picker, dlxButton, fastButton, bothButton, clearButton),
    own.box,
    h('div', { class: 'split' },
      h('div', null, status, results, conventions, grid),
      h('div', { class: 'prose side-prose' },
        h('h3', null, TEXT.side.twoWays),
        h('p', null, TEXT.side.twoWaysText),
        h('details', { class: 'note' },
          h('summary', null, TEXT.side.nodeSummary),
          h('p', null, TEXT.side.nodeDlx),
          h('p', null, TEXT.side.nodeFast)))),
    h('div', { class: 'prose sudoku-watch' },
      h('h3', null, TEXT.watch.heading),
      h('p', null, TEXT.watch.intro),
      watch.element),
    essay.element);

  onPresetPick(picker, own, (id) => {
    const preset = SUDOKUS.find((p) => p.id === id);
    setPuzzle(preset.puzzle);
    editor.value = preset.puzzle;
  });

  function setPuzzle(text) {
    puzzle = text;
    solution = null;
    replace(results);
    replace(conventions);
    watch.reset();
    render();
    const cells = symbols(puzzle);
    const givens = [...cells].filter((c) => c !== '.' && c !== '0').length;
    const side = sideOf(cells.length);
    status.className = 'status';
    status.textContent = side ? TEXT.status.ready(side, givens) : TEXT.status.notSquare;
    status.dataset.givens = String(givens);
  }

  function loadCustom() {
    picker.value = 'custom';
    setPuzzle(symbols(editor.value));
  }

  async function solve(methods) {
    if (busy) return;
    busy = true;
    for (const b of [dlxButton, fastButton, bothButton]) b.disabled = true;
    replace(results);
    replace(conventions);
    status.className = 'status';
    status.textContent = TEXT.status.solving;
    try {
      const answers = [];
      for (const method of methods) answers.push(await api.sudoku(symbols(puzzle), { method }));
      const done = answers.find((a) => a.solution);
      solution = done ? done.solution : null;
      render();
      replace(results, answers.map((a) => countBox(a.method, a.nodes,
        a.complete ? micros(a.micros) : TEXT.status.stopped(a.stop, micros(a.micros)))));
      if (answers.some((a) => a.method === 'dlx')) conventions.textContent = TEXT.conventions;
      const a = answers[0];
      status.dataset.givens = String(a.givens);
      if (solution) {
        status.className = 'status success';
        status.textContent = TEXT.status.solved(a.size, a.givens);
      } else if (answers.every((x) => x.complete)) {
        status.className = 'status warn';
        status.textContent = TEXT.status.none;
      } else {
        status.className = 'status warn';
        status.textContent = TEXT.status.budget(a.stop);
      }
    } catch (e) {
      solution = null;
      render();
      status.className = 'status error';
      status.textContent = TEXT.status.error(e.message);
    } finally {
      busy = false;
      for (const b of [dlxButton, fastButton, bothButton]) b.disabled = false;
    }
  }

  function render() {
    const cells = symbols(puzzle);
    const side = sideOf(cells.length);
    if (!side) {
      replace(grid);
      return;
    }
    const box = Math.round(Math.sqrt(side));
    const squareBoxes = box * box === side;
    const rows = [];
    for (let r = 0; r < side; r += 1) {
      const tds = [];
      for (let c = 0; c < side; c += 1) {
        const k = r * side + c;
        const given = cells[k] !== '.' && cells[k] !== '0';
        const value = given ? cells[k] : (solution ? solution[k] : '');
        tds.push(h('td', {
          class: [
            'cell',
            given ? 'given' : (value ? 'solved' : 'blank'),
            squareBoxes && c % box === box - 1 && c < side - 1 ? 'box-right' : null,
            squareBoxes && r % box === box - 1 && r < side - 1 ? 'box-bottom' : null,
          ],
        }, value));
      }
      rows.push(h('tr', null, tds));
    }
    replace(grid, h('table', {
      class: ['sudoku', side > 9 ? 'large' : null],
      'aria-label': TEXT.grid(side, Boolean(solution)),
    }, h('tbody', null, rows)));
  }

  setPuzzle(puzzle);
  essay.measure();
  return { onKey: (event) => watch.onKey(event) };
}

/** The essay on difficulty, with its table of the engine's runs on the seed's presets. */
function difficulty() {
  const E = TEXT.essay;
  const presets = SUDOKUS.filter((p) => p.seed);
  const cells = presets.map((p) => ({
    nodes: h('td', { class: 'number nodes' }, E.pending),
    seed: h('td', { class: 'number seed' }, E.pending),
  }));
  const conclusion = h('p', { class: 'conclusion' });
  const table = h('table', { class: 'difficulty' },
    h('thead', null, h('tr', null, E.columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, presets.map((p, i) => h('tr', { 'data-preset': p.id },
      h('th', { scope: 'row' }, TEXT.presets[p.id]),
      h('td', { class: 'number givens' }, String(p.givens)),
      cells[i].nodes,
      cells[i].seed))));
  const element = h('div', { class: 'prose difficulty-essay' },
    h('h3', null, E.heading),
    h('h4', null, E.minimumHeading),
    h('p', null, E.minimum),
    h('h4', null, E.waysHeading),
    h('ul', null, E.ways.map(([term, text]) => h('li', null, h('strong', null, term), text))),
    h('h4', null, E.tableHeading),
    h('p', null, E.tableIntro),
    h('div', { class: 'table-wrap' }, table),
    h('p', { class: 'muted' }, TEXT.conventions),
    conclusion);

  async function measure() {
    const rows = [];
    for (const [i, p] of presets.entries()) {
      try {
        const a = await api.sudoku(p.puzzle, { method: 'dlx' });
        cells[i].nodes.textContent = num(a.nodes);
        cells[i].seed.textContent = num(a.nodes - 1);
        rows.push({ givens: a.givens, nodes: a.nodes });
      } catch (e) {
        cells[i].nodes.textContent = E.failed;
        cells[i].seed.textContent = E.failed;
      }
    }
    if (rows.length === presets.length) conclusion.textContent = E.conclusion(rows);
    table.dataset.measured = 'true';
  }

  return { element, measure };
}
