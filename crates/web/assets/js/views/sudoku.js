// Section 5: sudoku. The reader picks a preset or types a puzzle; the server solves it by the
// exact cover model on the engine (DLX) and by the dedicated fast solver, and the page shows
// the grid, each method's node count and time. Below: the search played on the board
// (sudoku-board.js), and why the number of givens and the search effort disagree, with a
// table of the engine's own runs on the presets.
//
// Every string of the view is in TEXT below (the board player gets TEXT.watch), so that a
// translation replaces one table.

import * as api from '../api.js';
import { h, replace, micros, uid } from '../dom.js';
import { createBoardWatch } from './sudoku-board.js';

/** A count with thousands separators: 1,472. */
const num = (n) => Number(n).toLocaleString('en');
/** "1 node", "3 nodes". */
const count = (n, one, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`;

export const TEXT = {
  presets: {
    easy: 'Entry (30 givens)',
    seventeen: '17 givens, the fewest possible',
    inkala: 'Hell (21 givens, Inkala 2012)',
    hard: 'Forum \u201chardest\u201d (21 givens)',
    escargot: 'AI Escargot (Inkala, 2006)',
    sixteen: '16\u00d716 (106 givens)',
    custom: 'Your own (type or paste below)',
    seedGroup: 'The seed page\u2019s three, by search effort',
    moreGroup: 'More puzzles',
  },
  methods: {
    dlx: 'Dancing links (exact cover)',
    fast: 'Fast solver (bit sets)',
  },
  toolbar: {
    puzzle: 'Puzzle',
    dlx: 'Solve by dancing links',
    fast: 'Solve by the fast solver',
    both: 'Solve both ways',
    clear: 'Clear',
  },
  editor: {
    summary: 'Type or paste a puzzle',
    label: 'Puzzle, row by row',
    help: 'One line of symbols, row after row: digits (and letters from A on, for 16\u00d716 and larger), '
      + 'with . or 0 for a blank cell. 16 symbols make a 4\u00d74 sudoku, 81 a 9\u00d79, 256 a 16\u00d716, '
      + '625 a 25\u00d725. Spaces and line breaks are ignored.',
    use: 'Use this puzzle',
  },
  lead: 'A sudoku is an exact cover problem with four kinds of constraint, each to be met exactly once: every '
    + 'cell holds a digit; every row, every column and every box holds each digit. A choice (an option) is '
    + '\u201cdigit d in cell (r, c)\u201d: it meets one constraint of each kind. A 9\u00d79 grid makes 324 '
    + 'constraints and 729 options; the givens are options chosen in advance.',
  side: {
    twoWays: 'Two ways to solve',
    twoWaysText: 'Dancing links solves the exact cover problem above with Algorithm X, knowing nothing of sudoku: it '
      + 'picks the constraint with the fewest remaining options, tries each, and backs out of dead ends. '
      + 'The fast solver knows the rules: each row, column and box keeps its used digits as bits, it '
      + 'fills forced cells first and branches on the cell with the fewest candidates.',
    nodeSummary: 'What is a node here?',
    nodeDlx: 'For dancing links, a node is one point of Algorithm X\u2019s search tree, counted as Knuth\u2019s DLX1 '
      + 'counts it: one each time the search goes a level deeper (chooses a constraint to cover), and one '
      + 'for each solution. A puzzle that needs no guessing takes about one node per blank cell.',
    nodeFast: 'For the fast solver, a node is one round of deduction (forced cells filled until none is left): one '
      + 'at the start, and one after each guess, when a cell is set to one of its candidates because deduction '
      + 'alone is stuck. A puzzle solved by deduction alone takes 1 node. The two counts measure different '
      + 'steps: compare puzzles with one method, not the methods with each other.',
  },
  status: {
    ready: (side, givens) => `${side}\u00d7${side} puzzle with ${count(givens, 'given')}. Solve it to fill the ${side * side} cells.`,
    notSquare: 'This puzzle is not square: the server will say what is wrong.',
    solving: 'Solving\u2026',
    solved: (size, givens) => `Solved: ${size}\u00d7${size}, ${count(givens, 'given')}, ${size * size} cells filled.`,
    none: 'This puzzle has no solution: the search tried everything.',
    budget: (stop) => `The search stopped at the server\u2019s budget (${stop}) before finding a solution.`,
    error: (message) => `This puzzle cannot be solved as typed: ${message}`,
    stopped: (stop, time) => `stopped (${stop}) after ${time}`,
  },
  nodes: (n) => count(n, 'node'),
  seedVisits: (n) => `${num(n)} nodeVisits as the seed page counts`,
  conventions: 'Two conventions: the engine counts a node for each level entered and one for the solution, '
    + 'as Knuth does; the seed page counts the branches only, so its nodeVisits is one less.',
  grid: (side, solved) => `${side} by ${side} sudoku${solved ? ', solved' : ''}: givens in bold`,
  watch: {
    heading: 'Watch the search on the board',
    intro: 'The same dancing-links search, one step at a time, on the grid itself: the column (constraint) it '
      + 'chooses, the digits it tries and the ones it takes back, and the node counter. The engine records '
      + 'the search as a trace of events, up to the server\u2019s limit, and stops it at the first solution.',
    button: 'Watch the search',
    idle: 'Press \u201cWatch the search\u201d to trace the puzzle above.',
    loading: 'Tracing the search\u2026',
    notSquare: 'Only puzzles with square boxes (4\u00d74, 9\u00d79, 16\u00d716) can be watched here.',
    traced: (events, steps, nodes) => `Traced to the first solution: ${count(nodes, 'node')}, ${num(events)} events, shown in ${num(steps)} steps.`,
    noSolution: (events, nodes) => `The search ended without a solution: ${count(nodes, 'node')}, ${num(events)} events.`,
    cut: (stop, events, nodes) => `The trace was cut (${stop}) after ${num(events)} events, at node ${num(nodes)}, before the first solution: what is shown is the search up to there.`,
    failed: (message) => `The search cannot be traced: ${message}`,
    stepLabel: 'step',
    counters: 'Search counters',
    nodes: 'Nodes',
    level: 'Level',
    placed: 'Digits placed',
    column: 'Column',
    boardLabel: 'The board during the search: givens in bold, digits placed by the search in colour',
    start: 'Before the search: only the givens are on the board.',
    item: (it) => {
      switch (it.family) {
        case 'p': return `cell r${it.unit + 1} c${it.value + 1} needs a digit`;
        case 'r': return `row ${it.unit + 1} needs a ${it.value}`;
        case 'c': return `column ${it.unit + 1} needs a ${it.value}`;
        default: return `box ${it.unit + 1} needs a ${it.value}`;
      }
    },
    step: (step, item, side) => {
      const at = step.cell === null ? '' : `r${Math.floor(step.cell / side) + 1} c${(step.cell % side) + 1}`;
      switch (step.kind) {
        case 'choose':
          if (step.len === 0) return `Level ${step.level}: ${step.name} (${TEXT.watch.item(item)}) has no option left: a dead end.`;
          return `Level ${step.level}: choose column ${step.name} (${TEXT.watch.item(item)}), the one with the fewest options: ${step.len}.`;
        case 'try': return `Level ${step.level}: try ${step.value} at ${at}.`;
        case 'untry': return `Level ${step.level}: take ${step.value} back from ${at}.`;
        case 'solution': return `Solution, at node ${num(step.nodes)}: every column is covered.`;
        case 'backtrack': return `Level ${step.level}: no option left, back up.`;
        default: return '';
      }
    },
  },
  essay: {
    heading: 'Clues and search effort do not agree',
    minimumHeading: 'Seventeen: a proven minimum',
    minimum: 'A proper sudoku has exactly one solution. How few givens can force that? Seventeen: in 2012 McGuire, '
      + 'Tugemann and Civario searched every completed grid by computer and found none with a 16-given puzzle of '
      + 'one solution, while puzzles with 17 givens are known by the tens of thousands. With fewer givens a '
      + 'puzzle always has several solutions. The minimum is a bound on all puzzles, not a measure of any one: '
      + 'a 17-given puzzle need not be hard.',
    waysHeading: 'Three ways to call a puzzle hard',
    ways: [
      ['Clue count. ', 'The number of givens: the easiest to see, and the weakest guide.'],
      ['Human technique. ', 'The hardest deduction a person needs: singles for easy puzzles, pairs and pointing for '
        + 'medium ones, X-wings and swordfish for hard ones, chains or trial and error beyond. This is how puzzle '
        + 'books grade.'],
      ['Search effort. ', 'The size of the tree a backtracking search explores before the solution: the node '
        + 'count this page shows, and the order of the presets above.'],
    ],
    tableHeading: 'The presets, measured',
    tableIntro: 'The engine\u2019s own runs on the three presets (dancing links, fewest options first), asked of '
      + 'the server when this section opens. Another choice of column would change the counts, not the lesson.',
    columns: ['Puzzle', 'Givens', 'Engine nodes', 'Seed\u2019s nodeVisits'],
    pending: '\u2026',
    failed: 'not measured',
    conclusion: (rows) => {
      const [a, b, c] = rows;
      return `By givens, the order is ${a.givens}, ${c.givens}, ${b.givens} (most first); by search effort it is `
        + `${num(a.nodes)}, ${num(b.nodes)}, ${num(c.nodes)}. The 17-given puzzle, with the fewest givens possible, `
        + `is solved without a single wrong guess, like the entry puzzle; the hell puzzle has more givens and `
        + `takes about ${Math.round(c.nodes / b.nodes)} times the nodes. The number of givens says little about the effort.`;
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
  const editorId = uid('editor');
  const helpId = uid('help');
  const option = (p) => h('option', { value: p.id }, TEXT.presets[p.id]);
  const picker = h('select', { id: pickId },
    h('optgroup', { label: TEXT.presets.seedGroup }, SUDOKUS.filter((p) => p.seed).map(option)),
    h('optgroup', { label: TEXT.presets.moreGroup }, SUDOKUS.filter((p) => !p.seed).map(option),
      h('option', { value: 'custom' }, TEXT.presets.custom)));
  const dlxButton = h('button', { type: 'button', class: 'ctl', 'data-method': 'dlx', onclick: () => solve(['dlx']) }, TEXT.toolbar.dlx);
  const fastButton = h('button', { type: 'button', class: 'ctl', 'data-method': 'fast', onclick: () => solve(['fast']) }, TEXT.toolbar.fast);
  const bothButton = h('button', { type: 'button', class: 'ctl primary', 'data-method': 'both', onclick: () => solve(['dlx', 'fast']) }, TEXT.toolbar.both);
  const clearButton = h('button', { type: 'button', class: 'ctl', onclick: () => { solution = null; render(); replace(results); replace(conventions); status.textContent = ''; } }, TEXT.toolbar.clear);
  const editor = h('textarea', { id: editorId, rows: '4', spellcheck: 'false', 'aria-describedby': helpId }, puzzle);
  const loadButton = h('button', { type: 'button', class: 'ctl primary', onclick: loadCustom }, TEXT.editor.use);
  const editorBox = h('details', { class: 'editor' },
    h('summary', null, TEXT.editor.summary),
    h('label', { for: editorId }, TEXT.editor.label),
    editor,
    h('p', { id: helpId, class: 'muted' }, TEXT.editor.help),
    loadButton);
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
    editorBox,
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

  picker.addEventListener('change', () => {
    if (picker.value === 'custom') {
      editorBox.open = true;
      editor.focus();
      return;
    }
    const preset = SUDOKUS.find((p) => p.id === picker.value);
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
