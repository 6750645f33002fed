// Section 2: Algorithm X, step by step. The page asks the engine for the trace of its search
// (/api/trace) and replays it event by event, so what it shows is what the engine did.

import * as api from '../api.js';
import { h, replace, amount, nodeNote, showFacts, uid } from '../dom.js';
import { t, list as words } from '../i18n.js';
import { createPlayer, keysHelp, LABELS } from '../player.js';
import { PRESETS, customProblem, onCustomProblem } from '../problems.js';

// The strings added in the second edition, now in the dictionaries (../i18n/, keys stepper.*).
const TEXT = {
  showcaseName: t('stepper.showcaseName'),
  showcaseComment: `| ${t('stepper.showcaseComment')}`,
  partialStart: t('stepper.partialStart'),
  partialEnd: t('stepper.partialEnd'),
  partialBacktracked: t('stepper.partialBacktracked'),
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
  mrv: t('stepper.heuristic.mrv'),
  leftmost: t('stepper.heuristic.leftmost'),
};

/**
 * How the rows stand in a replayed `state`: `rowState(p)` is 'trying', 'tried', 'candidate',
 * 'in-solution', 'removed' or null for option p; `chosenItem` is the item the current level
 * chose (null at none).
 */
export function rowStates(trace, state) {
  const current = state.levels[state.level] ?? null;
  const inSolution = new Set(state.levels.map((l) => l.option).filter((p) => p !== null && p !== undefined));
  const trying = current && current.option !== null ? current.option : null;
  // The chosen column's rows stay in its own list while the search tries them one by one:
  // they are candidates (or already tried), not removed.
  const candidates = current ? current.candidates : [];
  const rowState = (p) => {
    if (p === trying) return 'trying';
    const c = candidates.indexOf(p);
    if (c >= 0) return c <= current.tried ? 'tried' : 'candidate';
    if (inSolution.has(p)) return 'in-solution';
    return trace.options[p].items.some((i) => state.covered.has(i)) ? 'removed' : null;
  };
  return { chosenItem: current ? current.item : null, rowState };
}

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
  const log = h('ol', { class: 'log', 'aria-label': t('stepper.recent') });
  const player = createPlayer({ render, label: LABELS.event });

  section.append(
    h('p', { class: 'lead' }, t('stepper.lead')),
    h('div', { class: 'toolbar' },
      h('label', { for: pickId }, t('stepper.picker')), picker,
      h('fieldset', { class: 'switch' }, h('legend', null, t('stepper.chooseWith')), radios)),
    compare,
    player.element,
    h('div', { class: 'stepper-grid' },
      h('div', null,
        eventText,
        h('div', { class: 'matrix-wrap' }, table),
        h('p', { class: 'legend' },
          h('span', { class: 'chip chosen-item' }, t('stepper.chip.chosenItem')), ' ',
          h('span', { class: 'chip candidate' }, t('stepper.chip.candidate')), ' ',
          h('span', { class: 'chip trying' }, t('stepper.chip.trying')), ' ',
          h('span', { class: 'chip tried' }, t('stepper.chip.tried')), ' ',
          h('span', { class: 'chip in-solution' }, t('stepper.chip.inSolution')), ' ',
          h('span', { class: 'chip removed' }, t('stepper.chip.removed')))),
      h('div', { class: 'side' },
        facts,
        h('h3', null, t('stepper.partial')), partial,
        h('h3', null, t('stepper.found')), found,
        h('h3', null, t('stepper.recent')), log)),
    keysHelp(),
    nodeNote(),
    h('div', { class: 'prose' },
      h('h3', null, t('stepper.whichTitle')),
      h('p', null, t('stepper.which')),
      h('h3', null, t('stepper.timeTitle')),
      h('p', null, t('stepper.time'))));

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
    replace(compare, h('span', { class: 'muted' }, t('stepper.asking')));
    try {
      const [mrv, leftmost] = await Promise.all([
        api.trace(text, { heuristic: 'mrv' }),
        api.trace(text, { heuristic: 'leftmost' }),
      ]);
      traces = { mrv, leftmost };
    } catch (e) {
      traces = {};
      trace = null;
      replace(compare, h('span', { class: 'status error' }, t('stepper.noTrace', { error: e.message })));
      player.setCount(0);
      return;
    }
    for (const [key, box] of Object.entries(counts)) {
      const tr = traces[key];
      replace(box, h('span', { class: 'big' }, amount(tr.stats.nodes, 'node')), tr.complete ? null : t('stepper.stoppedEarly', { stop: tr.stop }));
    }
    const [m, l] = [traces.mrv.stats.nodes, traces.leftmost.stats.nodes];
    replace(compare, m === l
      ? t('stepper.same', { nodes: amount(m, 'node') })
      : t(m < l ? 'stepper.fewer.mrv' : 'stepper.fewer.leftmost', { nodes: amount(Math.abs(l - m), 'node') }));
    choose();
  }

  function choose() {
    trace = traces[heuristic] ?? null;
    player.setCount(trace ? trace.events.length : 0);
  }

  function optionName(p) {
    const o = trace.options[p];
    return t('stepper.option', { row: o.index + 1, label: o.label });
  }

  function describe(event, state) {
    if (!event) return t('stepper.start');
    const name = (i) => trace.items[i].name;
    switch (event.event) {
      case 'enter': return t('stepper.enter', { level: event.level, node: event.nodes });
      case 'choose': {
        const why = t(heuristic === 'mrv' ? 'stepper.why.mrv' : 'stepper.why.leftmost');
        if (event.len === 0) return t('stepper.deadEnd', { name: event.name });
        return t('stepper.choose', { name: event.name, rows: amount(event.len, 'row'), why });
      }
      case 'cover': {
        const at = state.levels[state.level];
        if (at && at.option !== null && at.item !== event.item) {
          return t('stepper.coverToo', { name: event.name });
        }
        return t('stepper.cover', { name: event.name });
      }
      case 'uncover': return t('stepper.uncover', { name: event.name });
      case 'try': return t('stepper.try', { level: event.level, option: optionName(state.levels[event.level].option), name: name(state.levels[event.level].item) });
      case 'untry': return t('stepper.untry', { row: event.option + 1, level: event.level });
      case 'solution': {
        const rows = state.solutions[state.solutions.length - 1].map((p) => trace.options[p].index + 1).sort((a, b) => a - b);
        return t('stepper.solution', { rows: words(rows) });
      }
      case 'backtrack': return event.level > 0
        ? t('stepper.backtrack', { level: event.level, up: event.level - 1 })
        : t('stepper.backtrackEnd', { level: event.level });
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
    const { chosenItem, rowState } = rowStates(trace, state);

    const head = h('thead', null, h('tr', null,
      h('th', { scope: 'col', class: 'corner' }, t('stepper.rowHeader')),
      trace.items.map((item, i) => h('th', {
        scope: 'col',
        class: [i === chosenItem && 'chosen-item', state.covered.has(i) && i !== chosenItem && 'removed', !item.primary && 'secondary'],
      }, item.name))));
    const body = h('tbody', null, trace.options.map((option, p) => {
      const cls = rowState(p);
      const ones = new Set(option.items);
      return h('tr', { class: cls, dataset: { row: String(option.index + 1) } },
        h('th', { scope: 'row' }, t('stepper.row', { row: option.index + 1 })),
        trace.items.map((_, i) => h('td', {
          class: [ones.has(i) ? 'one' : 'zero', i === chosenItem && 'chosen-item', state.covered.has(i) && i !== chosenItem && 'removed'],
        }, ones.has(i) ? '1' : '')));
    }));
    replace(table, h('caption', { class: 'sr-only' }, t('stepper.caption')), head, body);

    eventText.textContent = describe(state.last, state);
    eventText.className = state.last?.event === 'solution' ? 'event success' : 'event';
    showFacts(facts, [
      [t('stepper.fact.level'), String(state.level)],
      [t('stepper.fact.nodes'), String(state.nodes), 'nodes'],
      [t('stepper.fact.solutions'), String(state.solutions.length), 'solutions-count'],
      [t('stepper.fact.left'), String(trace.items.filter((it, i) => it.primary && !state.covered.has(i)).length)],
    ]);
    const chosenRows = state.levels.filter((l) => l.option !== null && l.option !== undefined);
    // An empty partial solution is a sentence, not a numbered list of one "empty" entry.
    replace(partial, chosenRows.length
      ? h('ol', null, chosenRows.map((l, n) =>
        h('li', null, t('stepper.levelChoice', { level: n, option: optionName(l.option), name: trace.items[l.item].name }))))
      : h('p', { class: 'muted empty' },
        k === 0 ? TEXT.partialStart : k === trace.events.length ? TEXT.partialEnd : TEXT.partialBacktracked));
    replace(found, state.solutions.length
      ? h('ul', null, state.solutions.map((sol) => h('li', null,
        t('stepper.rows', { rows: words(sol.map((p) => trace.options[p].index + 1).sort((a, b) => a - b)) }))))
      : h('p', { class: 'muted' }, k === trace.events.length && trace.complete ? t('stepper.noneAtAll') : t('stepper.noneYet')));
    const first = Math.max(0, k - 6);
    replace(log, trace.events.slice(first, k).map((e, n) =>
      h('li', { class: first + n === k - 1 ? 'now' : null }, `${e.event}${e.name ? ` ${e.name}` : ''}${e.option !== undefined ? ` ${t('stepper.logRow', { row: e.option + 1 })}` : ''}`)));
    if (k === trace.events.length && !trace.complete) {
      eventText.textContent += t('stepper.traceStops', { stop: trace.stop });
    }
  }

  load();
  return { onKey: (event) => player.onKey(event) };
}
