// Section 6: N queens. The engine lists every placement of N queens on an N x N board with no
// two attacking (the exact cover model, with the diagonals as secondary items), and the
// reader browses them; for larger boards, only the count (on bit sets, with the symmetries).

import * as api from '../api.js';
import { h, replace, puzzleNodeNote, uid } from '../dom.js';
import { t, num, parts, count as amountOf } from '../i18n.js';
import { mountModel, mountWatch } from './queens-search.js';

/** Boards up to this size are listed in full (724 solutions for 10); larger ones are counted. */
const MAX_LISTED = 10;
/** The largest board the server counts within its budget (see src/api/queens.rs). */
const MAX_COUNTED = 18;

export function mount(section) {
  let n = 8;
  let solutions = [];
  let k = 0;
  let busy = false;
  // The whole DLX search's nodes for each N listed so far (for the watched trace, when cut).
  const wholeNodes = new Map();

  const sizeId = uid('n');
  const size = h('input', { id: sizeId, type: 'number', min: '1', max: String(MAX_COUNTED), value: String(n), inputmode: 'numeric' });
  const listButton = h('button', { type: 'button', class: 'ctl primary', onclick: () => run('all') }, t('queens.list'));
  const countButton = h('button', { type: 'button', class: 'ctl', onclick: () => run('count') }, t('queens.countOnly'));
  const first = h('button', { type: 'button', class: 'ctl', title: t('queens.firstTitle'), onclick: () => go(0) }, t('queens.first'));
  const prev = h('button', { type: 'button', class: 'ctl prev', title: t('queens.prevTitle'), onclick: () => go(k - 1) }, t('queens.prev'));
  const next = h('button', { type: 'button', class: 'ctl primary next', title: t('queens.nextTitle'), onclick: () => go(k + 1) }, t('queens.next'));
  const last = h('button', { type: 'button', class: 'ctl', title: t('queens.lastTitle'), onclick: () => go(solutions.length - 1) }, t('queens.last'));
  const where = h('span', { class: 'where', 'aria-live': 'polite' });
  const browser = h('div', { class: 'player queens-browse' }, h('div', { class: 'buttons' }, first, prev, next, last), where);
  const board = h('div', { class: 'queens-wrap' });
  const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const facts = h('dl', { class: 'facts queens-facts' });

  section.append(
    h('p', { class: 'lead' }, t('queens.lead')),
    h('div', { class: 'toolbar' },
      h('label', { for: sizeId }, t('queens.size')), size, listButton, countButton),
    h('div', { class: 'split' },
      h('div', null, status, facts, browser, board),
      h('div', { class: 'prose side-prose' },
        h('h3', null, t('queens.howTitle')),
        h('p', null, t('queens.how', { listed: MAX_LISTED, counted: MAX_COUNTED })),
        puzzleNodeNote(t('queens.nodeDlx'), t('queens.nodeBits')))));

  // The second edition: the model as a matrix, and the search on the board (queens-search.js).
  const modelPart = h('div', { class: 'queens-part queens-model' });
  const watchPart = h('div', { class: 'queens-part queens-watch-part' });
  section.append(modelPart, watchPart);
  const watch = mountWatch(watchPart, { total: (m) => wholeNodes.get(m) });
  const model = mountModel(modelPart);

  size.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      run(Number(size.value) <= MAX_LISTED ? 'all' : 'count');
    }
  });
  size.addEventListener('input', () => {
    listButton.disabled = !(Number(size.value) <= MAX_LISTED);
  });

  async function run(mode) {
    if (busy) return;
    const asked = Number(size.value);
    if (!Number.isInteger(asked) || asked < 1 || asked > MAX_COUNTED) {
      status.className = 'status error';
      status.textContent = t('queens.badN', { max: MAX_COUNTED });
      return;
    }
    if (mode === 'all' && asked > MAX_LISTED) mode = 'count';
    busy = true;
    listButton.disabled = true;
    countButton.disabled = true;
    n = asked;
    status.className = 'status';
    status.textContent = t(mode === 'all' ? 'queens.listing' : 'queens.counting', { n });
    try {
      const answer = await api.queens(n, { mode });
      solutions = mode === 'all' ? answer.solutions : [];
      k = 0;
      const count = Number(answer.count);
      if (mode === 'all' && answer.complete && answer.method === 'dlx') wholeNodes.set(n, Number(answer.stats.nodes));
      status.className = answer.complete ? 'status success' : 'status warn';
      status.textContent = answer.complete
        ? t('queens.done', { n, solutions: amountOf(count, 'unit.solution') })
        : t('queens.stopped', { n, stop: answer.stop, solutions: amountOf(count, 'unit.solution') });
      replace(facts,
        h('dt', null, t('queens.fact.solutions')), h('dd', { class: 'total' }, num(count)),
        answer.distinct !== undefined && answer.distinct !== null
          ? [h('dt', null, t('queens.fact.distinct')), h('dd', { class: 'distinct' }, num(Number(answer.distinct)))]
          : null,
        h('dt', null, t('queens.fact.nodes')), h('dd', { class: 'nodes' }, num(Number(answer.stats.nodes))),
        h('dt', null, t('queens.fact.search')), h('dd', null, t(answer.method === 'dlx' ? 'queens.method.dlx' : 'queens.method.bits')));
    } catch (e) {
      solutions = [];
      status.className = 'status error';
      status.textContent = t('queens.noAnswer', { error: e.message });
      replace(facts);
    } finally {
      busy = false;
      listButton.disabled = !(Number(size.value) <= MAX_LISTED);
      countButton.disabled = false;
    }
    render();
  }

  function go(j) {
    if (!solutions.length) return;
    k = Math.max(0, Math.min(solutions.length - 1, j));
    render();
  }

  function render() {
    browser.hidden = solutions.length === 0;
    first.disabled = prev.disabled = k === 0;
    next.disabled = last.disabled = k >= solutions.length - 1;
    if (!solutions.length) {
      where.textContent = '';
      replace(board);
      return;
    }
    where.textContent = t('queens.where', { k: k + 1, n: solutions.length });
    const cols = solutions[k];
    const files = 'abcdefghijklmnopqrstuvwxyz';
    const squares = cols.map((c, r) => `${files[c]}${n - r}`);
    const rows = [];
    for (let r = 0; r < n; r += 1) {
      const tds = [];
      for (let c = 0; c < n; c += 1) {
        const queen = cols[r] === c;
        tds.push(h('td', { class: [(r + c) % 2 ? 'dark' : 'light', queen ? 'queen' : null] }, queen ? '\u265b' : ''));
      }
      rows.push(h('tr', null, tds));
    }
    replace(board, h('table', {
      class: 'chess',
      'aria-label': t('queens.boardLabel', { k: k + 1, squares: squares.join(t('list.sep')) }),
    }, h('tbody', null, rows)),
    h('p', { class: 'muted' }, parts('queens.columns', { cols: h('code', null, cols.map((c) => c + 1).join(' ')) })));
  }

  render();
  run('all');

  return {
    onKey(event) {
      // Keys in the second edition's parts step their players; elsewhere they browse.
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('.queens-model')) return model.onKey(event);
      if (target?.closest('.queens-watch-part')) return watch.onKey(event);
      if (!solutions.length) return false;
      switch (event.key) {
        case 'ArrowRight': go(k + 1); return true;
        case 'ArrowLeft': go(k - 1); return true;
        case 'Home': go(0); return true;
        case 'End': go(solutions.length - 1); return true;
        default: return false;
      }
    },
  };
}
