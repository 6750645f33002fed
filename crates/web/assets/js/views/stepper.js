// Section 2: Algorithm X, step by step. The page asks the engine for the trace of its search
// (/api/trace) and replays it event by event, so what it shows is what the engine did.

import * as api from '../api.js';
import { h, replace, words, plural, nodeNote, uid } from '../dom.js';
import { createPlayer, keysHelp } from '../player.js';
import { PRESETS, customProblem, onCustomProblem } from '../problems.js';

// The strings added in the second edition (one place, for a later translation).
const TEXT = {
  showcaseName: 'Where the S heuristic pays: 8\u00d717',
  showcaseComment: '| Every pair of A-F is a row; X and Y have one row each, and those rows force the rest',
  partialStart: 'empty: nothing chosen yet',
  partialEnd: 'empty: the search is over, and every choice has been taken back',
  partialBacktracked: 'empty: every choice has been taken back',
};

/**
 * A matrix where the choice of column matters: columns X and Y have one row each (X with A
 * and B, Y with C and D), every pair of A-F is a row. The S heuristic covers X and Y first
 * and finds the only solution in 4 nodes; the leftmost rule starts from A and tries every
 * way of pairing A-F before X and Y fail: 49 nodes (the engine's counts, checked in the
 * browser tests).
 */
export const SHOWCASE = {
  id: 'mrv-showcase',
  name: TEXT.showcaseName,
  text: [
    TEXT.showcaseComment,
    'A B C D E F X Y',
    'A B', 'A C', 'A D', 'A E', 'A F', 'B C', 'B D', 'B E', 'B F', 'C D', 'C E', 'C F', 'D E', 'D F', 'E F',
    'X A B',
    'Y C D',
    '',
  ].join('\n'),
};

const HEURISTICS = {
  mrv: 'fewest options (Knuth\u2019s S heuristic)',
  leftmost: 'leftmost column',
};

/**
 * The state of the search after the first k events of a trace: covered items, the choice
 * at each level (item, its candidate options, the option being tried), the solutions so far.
 */
export function replay(problem, events, k) {
  const covered = new Set();
  const levels = [];
  const solutions = [];
  let nodes = 0;
  let level = 0;
  const byIndex = new Map(problem.options.map((o, p) => [o.index, p]));
  for (const event of events.slice(0, k)) {
    nodes = event.nodes;
    switch (event.event) {
      case 'enter':
        level = event.level;
        levels.length = level;
        break;
      case 'choose': {
        // The candidates: the item's options that no covered item has removed.
        const candidates = [];
        problem.options.forEach((o, p) => {
          if (o.items.includes(event.item) && o.items.every((i) => !covered.has(i))) candidates.push(p);
        });
        levels[event.level] = { item: event.item, len: event.len, candidates, option: null, tried: -1 };
        break;
      }
      case 'cover': covered.add(event.item); break;
      case 'uncover': covered.delete(event.item); break;
      case 'try':
        level = event.level;
        levels.length = level + 1;
        levels[level].option = byIndex.get(event.option);
        levels[level].tried = levels[level].candidates.indexOf(levels[level].option);
        break;
      case 'untry': {
        const at = levels[event.level];
        // Taking an option back uncovers its other items (the engine does not list them).
        for (const i of problem.options[byIndex.get(event.option)].items) if (i !== at.item) covered.delete(i);
        at.option = null;
        levels.length = event.level + 1;
        level = event.level;
        break;
      }
      case 'solution':
        solutions.push(levels.slice(0, event.level + 1).map((l) => l.option));
        break;
      case 'backtrack':
        levels.length = event.level;
        level = Math.max(0, event.level - 1);
        break;
      default: break;
    }
  }
  return { covered, levels, solutions, nodes, level, last: k > 0 ? events[k - 1] : null };
}

export function mount(section) {
  const presets = [...PRESETS, SHOWCASE];
  let text = presets[0].text;
  let heuristic = 'mrv';
  let traces = {}; // heuristic -> trace answer
  let trace = null;

  const pickId = uid('stepper-problem');
  const picker = h('select', { id: pickId }, presets.map((p) => h('option', { value: p.id }, p.name)));
  // Each choice of heuristic shows the engine's node count for it: both side by side.
  const radioName = uid('heuristic');
  const counts = {};
  const radios = Object.entries(HEURISTICS).map(([value, label]) => {
    counts[value] = h('span', { class: 'count-box', 'data-heuristic': value, 'aria-live': 'polite' });
    return h('label', { class: 'radio' },
      h('input', { type: 'radio', name: radioName, value, checked: value === heuristic }), ' ', label, ' ', counts[value]);
  });
  const compare = h('p', { class: 'compare', role: 'status' });
  const table = h('table', { class: 'matrix trace' });
  const eventText = h('p', { class: 'event', role: 'status', 'aria-live': 'polite' });
  const facts = h('dl', { class: 'facts' });
  const partial = h('div', { class: 'partial' });
  const found = h('div', { class: 'found' });
  const log = h('ol', { class: 'log', 'aria-label': 'Recent events' });
  const player = createPlayer({ render, label: 'event' });

  section.append(
    h('p', { class: 'lead' },
      'Algorithm X searches by trial and error: choose a column not yet covered, try each row that covers ',
      'it, remove whatever that row rules out, and carry on with the smaller matrix; at a dead end, undo ',
      'the last choice and try the next row. Step through what the engine did.'),
    h('div', { class: 'toolbar' },
      h('label', { for: pickId }, 'Matrix'), picker,
      h('fieldset', { class: 'switch' }, h('legend', null, 'Choose the column with (search nodes of the whole search)'), radios)),
    compare,
    player.element,
    h('div', { class: 'stepper-grid' },
      h('div', null,
        eventText,
        h('div', { class: 'matrix-wrap' }, table),
        h('p', { class: 'legend' },
          h('span', { class: 'chip chosen-item' }, 'chosen column'), ' ',
          h('span', { class: 'chip candidate' }, 'candidate row'), ' ',
          h('span', { class: 'chip trying' }, 'row being tried'), ' ',
          h('span', { class: 'chip tried' }, 'already tried'), ' ',
          h('span', { class: 'chip in-solution' }, 'chosen at a shallower level'), ' ',
          h('span', { class: 'chip removed' }, 'removed'))),
      h('div', { class: 'side' },
        facts,
        h('h3', null, 'Partial solution'), partial,
        h('h3', null, 'Solutions found'), found,
        h('h3', null, 'Recent events'), log)),
    keysHelp(),
    nodeNote(),
    h('div', { class: 'prose' },
      h('h3', null, 'Which column first?'),
      h('p', null,
        'Any column that is not yet covered will do: every solution must cover it, so trying each of its rows ',
        'misses nothing. Knuth\u2019s S heuristic takes the column with the fewest rows left, so the search ',
        'branches as little as possible, and a column with no row left at all is found at once. The leftmost ',
        'rule finds the same solutions, usually after more nodes: compare the two counts above.'),
      h('h3', null, 'Where the time goes'),
      h('p', null,
        'Choosing and trying are cheap. The work is in removing rows and columns and then putting them back, ',
        'exactly as they were, when the search backs up. Dancing Links, in the next sections, makes both ',
        'directions cost a few pointer assignments each.')));

  for (const radio of radios) {
    radio.querySelector('input').addEventListener('change', (e) => {
      heuristic = e.target.value;
      choose();
    });
  }
  picker.addEventListener('change', () => {
    const preset = picker.value === 'custom' ? customProblem() : presets.find((p) => p.id === picker.value);
    text = preset.text;
    load();
  });
  // The reader's matrix from section 1, once there is one (loaded before or after this view).
  const offerCustom = (custom) => {
    if (custom && !picker.querySelector('option[value="custom"]')) picker.append(h('option', { value: 'custom' }, custom.name));
  };
  offerCustom(customProblem());
  onCustomProblem(offerCustom);

  async function load() {
    for (const box of Object.values(counts)) replace(box);
    replace(compare, h('span', { class: 'muted' }, 'Asking the engine for its trace\u2026'));
    try {
      const [mrv, leftmost] = await Promise.all([
        api.trace(text, { heuristic: 'mrv' }),
        api.trace(text, { heuristic: 'leftmost' }),
      ]);
      traces = { mrv, leftmost };
    } catch (e) {
      traces = {};
      trace = null;
      replace(compare, h('span', { class: 'status error' }, `No trace: ${e.message}`));
      player.setCount(0);
      return;
    }
    for (const [key, box] of Object.entries(counts)) {
      const t = traces[key];
      replace(box, h('span', { class: 'big' }, plural(t.stats.nodes, 'node')), t.complete ? null : ` (stopped early: ${t.stop})`);
    }
    const [m, l] = [traces.mrv.stats.nodes, traces.leftmost.stats.nodes];
    replace(compare, m === l
      ? `Both rules search ${plural(m, 'node')} on this matrix.`
      : `The ${m < l ? 'S heuristic' : 'leftmost rule'} searches ${plural(Math.abs(l - m), 'node')} fewer on this matrix.`);
    choose();
  }

  function choose() {
    trace = traces[heuristic] ?? null;
    player.setCount(trace ? trace.events.length : 0);
  }

  function optionName(p) {
    const o = trace.options[p];
    return `row ${o.index + 1} (${o.label})`;
  }

  function describe(event, state) {
    if (!event) return 'Press Step (or \u2192) to start the search.';
    const name = (i) => trace.items[i].name;
    switch (event.event) {
      case 'enter': return `Level ${event.level}: a new node of the search tree (node ${event.nodes}).`;
      case 'choose': {
        const why = heuristic === 'mrv' ? 'the fewest rows of any column left' : 'the leftmost column left';
        if (event.len === 0) return `Choose column ${event.name}: it has no row left, so this branch is a dead end.`;
        return `Choose column ${event.name}: ${plural(event.len, 'row')} left, ${why}.`;
      }
      case 'cover': {
        const at = state.levels[state.level];
        if (at && at.option !== null && at.item !== event.item) {
          return `Cover column ${event.name}: the tried row covers it too, so the other rows through ${event.name} leave the matrix.`;
        }
        return `Cover column ${event.name}: remove it, and every row through it from the other columns.`;
      }
      case 'uncover': return `Uncover column ${event.name}: it comes back with its rows.`;
      case 'try': return `Level ${event.level}: try ${optionName(state.levels[event.level].option)} for column ${name(state.levels[event.level].item)}.`;
      case 'untry': return `Take back row ${event.option + 1} at level ${event.level}: its other columns come back.`;
      case 'solution': {
        const rows = state.solutions[state.solutions.length - 1].map((p) => trace.options[p].index + 1).sort((a, b) => a - b);
        return `Solution! Rows ${words(rows)} cover every column exactly once.`;
      }
      case 'backtrack': return `Level ${event.level} has no row left to try: back up${event.level > 0 ? ` to level ${event.level - 1}` : ' \u2014 the search is over'}.`;
      default: return event.event;
    }
  }

  function render(k) {
    if (!trace) {
      replace(table);
      eventText.textContent = '';
      replace(facts); replace(partial); replace(found); replace(log);
      return;
    }
    const state = replay(trace, trace.events, k);
    const current = state.levels[state.level] ?? null;
    const inSolution = new Set(state.levels.map((l) => l.option).filter((p) => p !== null && p !== undefined));
    const trying = current && current.option !== null ? current.option : null;
    // The chosen column's rows stay in its own list while the search tries them one by one:
    // they are candidates (or already tried), not removed.
    const candidates = current ? current.candidates : [];
    const chosenItem = current ? current.item : null;
    const rowState = (p) => {
      if (p === trying) return 'trying';
      const c = candidates.indexOf(p);
      if (c >= 0) return c <= current.tried ? 'tried' : 'candidate';
      if (inSolution.has(p)) return 'in-solution';
      return trace.options[p].items.some((i) => state.covered.has(i)) ? 'removed' : null;
    };

    const head = h('thead', null, h('tr', null,
      h('th', { scope: 'col', class: 'corner' }, 'Row'),
      trace.items.map((item, i) => h('th', {
        scope: 'col',
        class: [i === chosenItem && 'chosen-item', state.covered.has(i) && i !== chosenItem && 'removed', !item.primary && 'secondary'],
      }, item.name))));
    const body = h('tbody', null, trace.options.map((option, p) => {
      const cls = rowState(p);
      const ones = new Set(option.items);
      return h('tr', { class: cls, dataset: { row: String(option.index + 1) } },
        h('th', { scope: 'row' }, `Row ${option.index + 1}`),
        trace.items.map((_, i) => h('td', {
          class: [ones.has(i) ? 'one' : 'zero', i === chosenItem && 'chosen-item', state.covered.has(i) && i !== chosenItem && 'removed'],
        }, ones.has(i) ? '1' : '')));
    }));
    replace(table, h('caption', { class: 'sr-only' }, 'The matrix during the search'), head, body);

    eventText.textContent = describe(state.last, state);
    eventText.className = state.last?.event === 'solution' ? 'event success' : 'event';
    replace(facts,
      h('dt', null, 'Level'), h('dd', null, String(state.level)),
      h('dt', null, 'Nodes so far'), h('dd', { class: 'nodes' }, String(state.nodes)),
      h('dt', null, 'Solutions'), h('dd', { class: 'solutions-count' }, String(state.solutions.length)),
      h('dt', null, 'Columns left'), h('dd', null, String(trace.items.filter((it, i) => it.primary && !state.covered.has(i)).length)));
    const chosenRows = state.levels.filter((l) => l.option !== null && l.option !== undefined);
    // An empty partial solution is a sentence, not a numbered list of one "empty" entry.
    replace(partial, chosenRows.length
      ? h('ol', null, chosenRows.map((l, n) =>
        h('li', null, `Level ${n}: ${optionName(l.option)}, for column ${trace.items[l.item].name}`)))
      : h('p', { class: 'muted empty' },
        k === 0 ? TEXT.partialStart : k === trace.events.length ? TEXT.partialEnd : TEXT.partialBacktracked));
    replace(found, state.solutions.length
      ? h('ul', null, state.solutions.map((sol) => h('li', null,
        `Rows ${words(sol.map((p) => trace.options[p].index + 1).sort((a, b) => a - b))}`)))
      : h('p', { class: 'muted' }, k === trace.events.length && trace.complete ? 'none: this matrix has no exact cover' : 'none yet'));
    const first = Math.max(0, k - 6);
    replace(log, trace.events.slice(first, k).map((e, n) =>
      h('li', { class: first + n === k - 1 ? 'now' : null }, `${e.event}${e.name ? ` ${e.name}` : ''}${e.option !== undefined ? ` row ${e.option + 1}` : ''}`)));
    if (k === trace.events.length && !trace.complete) {
      eventText.textContent += ` (The trace stops here: ${trace.stop}.)`;
    }
  }

  load();
  return { onKey: (event) => player.onKey(event) };
}
