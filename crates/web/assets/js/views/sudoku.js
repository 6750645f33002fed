// Section 5: sudoku. The reader picks a preset or types a puzzle; the server solves it by the
// exact cover model on the engine (DLX) and by the dedicated fast solver, and the page shows
// the grid, each method's node count and time.

import * as api from '../api.js';
import { h, replace, plural, puzzleNodeNote, micros, uid } from '../dom.js';

// The presets, each with where it comes from (files of the repository's testdata/, copied
// from shared/data/sudoku; see testdata/sudoku/README.md for their origins). Their given
// counts are checked by the browser test (crates/web/tests/browser.rs).
export const SUDOKUS = [
  {
    id: 'easy',
    name: 'Easy (30 givens)',
    givens: 30,
    // testdata/sudoku/emerentius_lines/easy_sudokus.txt, line 2.
    puzzle: '2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3',
  },
  {
    id: 'seventeen',
    name: '17 givens, the fewest possible',
    givens: 17,
    // testdata/sudoku/puzzles2_17_clue, the first puzzle (Gordon Royle's list of 17-clue sudokus).
    puzzle: '.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...',
  },
  {
    id: 'hard',
    name: 'Hard (21 givens)',
    givens: 21,
    // testdata/sudoku/puzzles6_forum_hardest_1106, line 10 (the forum's "hardest" list).
    puzzle: '........5..6..87..3......9....1.7.4...7...8...4...6....9..8...3..16..4..5...2....',
  },
  {
    id: 'escargot',
    name: 'AI Escargot (Inkala, 2006)',
    givens: 23,
    // testdata/sudoku/norvig_hardest.txt, line 6: Arto Inkala's "AI Escargot".
    puzzle: '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..',
  },
  {
    id: 'inkala',
    name: '\u201cWorld\u2019s hardest\u201d (Inkala, 2012)',
    givens: 21,
    // testdata/instances/sudoku_inkala.dlx, first line (Arto Inkala's 2012 puzzle).
    puzzle: '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..',
  },
  {
    id: 'sixteen',
    name: '16\u00d716 (106 givens)',
    givens: 106,
    // dancecard_models::sudoku::generate(Shape::square(4), 2026, 150): a unique solution.
    puzzle: '.E18.9..34...5.27..........DA......5...3E.F.........D52.G9.C..EF14E...C.9...B2.DD8B..6A........C...7..1.82D.36.A..3......7.GEF4.81FB.....E4..G.55..G6..A1..F.3C....3.B8.D..2...4.A6E..5..39......F..9.3.....5......1.C.27.3..D..3...8D.F2.G..1.EG25..1..F.B8..73',
  },
];

const METHODS = {
  dlx: 'Dancing links (exact cover)',
  fast: 'Fast solver (bit sets)',
};

/** The side of a square grid of `cells` cells, or null. */
function sideOf(cells) {
  const side = Math.round(Math.sqrt(cells));
  return side * side === cells ? side : null;
}

/** The puzzle in a text: its symbols (digits, letters, `.` and `0`), whitespace dropped. */
function symbols(text) {
  return text.replace(/\s+/g, '');
}

export function mount(section) {
  let puzzle = SUDOKUS[0].puzzle;
  let solution = null;
  let busy = false;

  const pickId = uid('preset');
  const editorId = uid('editor');
  const helpId = uid('help');
  const picker = h('select', { id: pickId },
    SUDOKUS.map((p) => h('option', { value: p.id }, p.name)),
    h('option', { value: 'custom' }, 'Your own (type or paste below)'));
  const dlxButton = h('button', { type: 'button', class: 'ctl', 'data-method': 'dlx', onclick: () => solve(['dlx']) }, 'Solve by dancing links');
  const fastButton = h('button', { type: 'button', class: 'ctl', 'data-method': 'fast', onclick: () => solve(['fast']) }, 'Solve by the fast solver');
  const bothButton = h('button', { type: 'button', class: 'ctl primary', 'data-method': 'both', onclick: () => solve(['dlx', 'fast']) }, 'Solve both ways');
  const clearButton = h('button', { type: 'button', class: 'ctl', onclick: () => { solution = null; render(); replace(results); status.textContent = ''; } }, 'Clear');
  const editor = h('textarea', { id: editorId, rows: '4', spellcheck: 'false', 'aria-describedby': helpId }, puzzle);
  const loadButton = h('button', { type: 'button', class: 'ctl primary', onclick: loadCustom }, 'Use this puzzle');
  const editorBox = h('details', { class: 'editor' },
    h('summary', null, 'Type or paste a puzzle'),
    h('label', { for: editorId }, 'Puzzle, row by row'),
    editor,
    h('p', { id: helpId, class: 'muted' },
      'One line of symbols, row after row: digits (and letters from A on, for 16\u00d716 and larger), ',
      'with . or 0 for a blank cell. 16 symbols make a 4\u00d74 sudoku, 81 a 9\u00d79, 256 a 16\u00d716, ',
      '625 a 25\u00d725. Spaces and line breaks are ignored.'),
    loadButton);
  const grid = h('div', { class: 'sudoku-wrap' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const results = h('div', { class: 'compare sudoku-results', 'aria-live': 'polite' });

  section.append(
    h('p', { class: 'lead' },
      'A sudoku is an exact cover problem with four kinds of constraint, each to be met exactly once: every ',
      'cell holds a digit; every row, every column and every box holds each digit. A choice (an option) is ',
      '\u201cdigit d in cell (r, c)\u201d: it meets one constraint of each kind. A 9\u00d79 grid makes 324 ',
      'constraints and 729 options; the givens are options chosen in advance.'),
    h('div', { class: 'toolbar' },
      h('label', { for: pickId }, 'Puzzle'), picker, dlxButton, fastButton, bothButton, clearButton),
    editorBox,
    h('div', { class: 'split' },
      h('div', null, status, results, grid),
      h('div', { class: 'prose side-prose' },
        h('h3', null, 'Two ways to solve'),
        h('p', null,
          'Dancing links solves the exact cover problem above with Algorithm X, knowing nothing of sudoku: it ',
          'picks the constraint with the fewest remaining options, tries each, and backs out of dead ends. ',
          'The fast solver knows the rules: each row, column and box keeps its used digits as bits, it ',
          'fills forced cells first and branches on the cell with the fewest candidates.'),
        h('h3', null, 'Hard for whom?'),
        h('p', null,
          'Puzzles called hard are hard for people, who solve by deduction. A search counts its guesses ',
          'instead: compare the node counts of the presets to see which ones make the solvers guess.'),
        puzzleNodeNote(
          'For dancing links, a node is one point of Algorithm X\u2019s search tree, counted as Knuth\u2019s DLX1 ',
          'counts it: one each time the search goes a level deeper (chooses a constraint to cover), and one ',
          'for each solution. A puzzle that needs no guessing takes about one node per blank cell.',
          'For the fast solver, a node is one round of deduction (forced cells filled until none is left): one ',
          'at the start, and one after each guess, when a cell is set to one of its candidates because deduction ',
          'alone is stuck. A puzzle solved by deduction alone takes 1 node. The two counts measure different ',
          'steps: compare puzzles with one method, not the methods with each other.'))));

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
    render();
    const cells = symbols(puzzle);
    const givens = [...cells].filter((c) => c !== '.' && c !== '0').length;
    const side = sideOf(cells.length);
    status.className = 'status';
    status.textContent = side
      ? `${side}\u00d7${side} puzzle with ${plural(givens, 'given')}. Solve it to fill the ${side * side} cells.`
      : 'This puzzle is not square: the server will say what is wrong.';
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
    status.className = 'status';
    status.textContent = 'Solving\u2026';
    try {
      const answers = [];
      for (const method of methods) answers.push(await api.sudoku(symbols(puzzle), { method }));
      const done = answers.find((a) => a.solution);
      solution = done ? done.solution : null;
      render();
      replace(results, answers.map((a) => h('div', { class: 'count-box', 'data-method': a.method },
        h('span', null, METHODS[a.method]),
        h('span', { class: 'big nodes' }, plural(a.nodes, 'node')),
        h('span', { class: 'muted time' }, a.complete ? micros(a.micros) : `stopped (${a.stop}) after ${micros(a.micros)}`))));
      const a = answers[0];
      status.dataset.givens = String(a.givens);
      if (solution) {
        status.className = 'status success';
        status.textContent = `Solved: ${a.size}\u00d7${a.size}, ${plural(a.givens, 'given')}, ${a.size * a.size} cells filled.`;
      } else if (answers.every((x) => x.complete)) {
        status.className = 'status warn';
        status.textContent = 'This puzzle has no solution: the search tried everything.';
      } else {
        status.className = 'status warn';
        status.textContent = `The search stopped at the server\u2019s budget (${a.stop}) before finding a solution.`;
      }
    } catch (e) {
      solution = null;
      render();
      status.className = 'status error';
      status.textContent = `This puzzle cannot be solved as typed: ${e.message}`;
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
      'aria-label': `${side} by ${side} sudoku${solution ? ', solved' : ''}: givens in bold`,
    }, h('tbody', null, rows)));
  }

  setPuzzle(puzzle);
}
