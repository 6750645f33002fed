// Section 3: the dance of the links on one circular doubly linked list. Removing a node
// leaves its own links alone, which is what makes restoring it free; but only in reverse
// order of removal.

import { h, s, replace } from '../dom.js';
import { t, parts, list as words } from '../i18n.js';

const N = 5; // nodes 1..N, and the root 0
const W = 760;
const H = 300;
const Y_IN = 120;
const Y_OUT = 236;
const R = 26;

function x(node) {
  return 70 + node * 124;
}

/** The list: next/prev links of the root 0 and the nodes 1..N, and the removal stack. */
function fresh() {
  const next = [];
  const prev = [];
  for (let k = 0; k <= N; k += 1) {
    next[k] = (k + 1) % (N + 1);
    prev[k] = (k + N) % (N + 1);
  }
  return { next, prev, removed: [] };
}

export function mount(section) {
  let list = fresh();
  let lastOp = null; // 'remove' | 'restore'

  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'dance-links', 'aria-hidden': 'true', focusable: 'false' });
  const buttons = [];
  for (let k = 0; k <= N; k += 1) {
    const button = h('button', {
      type: 'button',
      class: k === 0 ? 'node root' : 'node',
      dataset: { node: String(k) },
      onclick: () => click(k),
    }, k === 0 ? t('links.root') : String(k));
    buttons.push(button);
  }
  const stage = h('div', { class: 'dance' }, svg, buttons);
  const message = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const stack = h('p', { class: 'stack' });
  const table = h('table', { class: 'pointers' });
  const code = h('pre', { class: 'code' });
  const restoreButton = h('button', { type: 'button', class: 'ctl primary', onclick: () => restoreLast() }, t('links.restoreLast'));
  const resetButton = h('button', { type: 'button', class: 'ctl', onclick: () => { list = fresh(); lastOp = null; say(t('links.resetSaid')); render(); } }, t('links.reset'));

  section.append(
    h('p', { class: 'lead' }, t('links.lead')),
    stage,
    h('p', { class: 'legend' },
      h('span', { class: 'chip link-next' }, t('links.chip.next')), ' ',
      h('span', { class: 'chip link-prev' }, t('links.chip.prev')), ' ',
      h('span', { class: 'chip link-kept' }, t('links.chip.kept'))),
    h('div', { class: 'toolbar' }, restoreButton, resetButton,
      h('span', { class: 'muted' }, parts('links.keys', { u: h('kbd', null, 'U'), r: h('kbd', null, 'R') }))),
    message,
    stack,
    h('div', { class: 'two-col' },
      h('div', null, h('h3', null, t('links.assignments')), code),
      h('div', null, h('h3', null, t('links.everyLink')), h('div', { class: 'table-wrap' }, table))),
    h('div', { class: 'prose' },
      h('h3', null, t('links.orderTitle')),
      h('p', null, t('links.order'))));

  function say(text, cls = '') {
    message.className = `status ${cls}`.trim();
    message.textContent = text;
  }

  function isRemoved(k) {
    return list.removed.includes(k);
  }

  function click(k) {
    if (k === 0) {
      say(t('links.rootStays'), 'warn');
      return;
    }
    if (!isRemoved(k)) {
      remove(k);
      return;
    }
    const top = list.removed[list.removed.length - 1];
    if (k === top) {
      restoreLast();
      return;
    }
    const later = list.removed.slice(list.removed.indexOf(k) + 1);
    const stale = [list.prev[k], list.next[k]].filter((j) => isRemoved(j));
    say(t(`links.notYet.${later.length === 1 ? 'one' : 'other'}`, { node: k, later: words(later), top }) +
      (stale.length ? t('links.stale', { node: k, stale: words(stale) }) : t('links.general')) +
      t('links.lifo'), 'warn');
  }

  function remove(k) {
    const { next, prev } = list;
    next[prev[k]] = next[k];
    prev[next[k]] = prev[k];
    list.removed.push(k);
    lastOp = 'remove';
    say(t('links.out', { node: k, prev: name(prev[k]), next: name(next[k]) }));
    render();
  }

  function restoreLast() {
    const k = list.removed.pop();
    if (k === undefined) {
      say(t('links.nothing'));
      return;
    }
    const { next, prev } = list;
    next[prev[k]] = k;
    prev[next[k]] = k;
    lastOp = 'restore';
    say(t('links.back', { node: k }), 'success');
    render();
  }

  function name(k) {
    return k === 0 ? t('links.root') : String(k);
  }

  function position(k) {
    return { x: x(k), y: isRemoved(k) ? Y_OUT : Y_IN };
  }

  /** A pointer from node a to node b: next links bulge up, previous links bulge down. */
  function arrow(a, b, kind, kept) {
    const p = position(a);
    const q = position(b);
    const up = kind === 'next' ? -1 : 1;
    if (a === b) {
      // A node alone with itself (the root of an empty list): a small loop.
      const y0 = p.y + up * R;
      const d = `M ${p.x - 10} ${y0} C ${p.x - 40} ${y0 + up * 50} ${p.x + 40} ${y0 + up * 50} ${p.x + 12} ${y0 + up * 4}`;
      return s('path', { d, class: ['link', kind, kept && 'kept'], 'marker-end': `url(#${kept ? 'head-kept' : `head-${kind}`})` });
    }
    const dx = q.x - p.x;
    const dy = q.y - p.y;
    const len = Math.hypot(dx, dy) || 1;
    // Start and end on the circles, a little off the line so the two directions separate.
    const off = 9 * up;
    const sx = p.x + (dx / len) * R;
    const sy = p.y + (dy / len) * R + off;
    const ex = q.x - (dx / len) * (R + 4);
    const ey = q.y - (dy / len) * (R + 4) + off;
    const slots = Math.abs(b - a);
    // Neighbours in order, and the links of a removed node (which climb back to the list),
    // are straight; links that skip over nodes or wrap around the ring arc away.
    const straight = p.y !== q.y || (slots === 1 && Math.sign(dx) === (kind === 'next' ? 1 : -1));
    const bulge = straight ? 0 : 22 + 16 * slots;
    const d = bulge === 0
      ? `M ${sx} ${sy} L ${ex} ${ey}`
      : `M ${sx} ${sy} C ${sx + dx * 0.2} ${sy + up * bulge} ${ex - dx * 0.2} ${ey + up * bulge} ${ex} ${ey}`;
    return s('path', { d, class: ['link', kind, kept && 'kept'], 'marker-end': `url(#${kept ? 'head-kept' : `head-${kind}`})` });
  }

  function render() {
    const defs = s('defs', null, ['next', 'prev', 'kept'].map((kind) =>
      s('marker', { id: `head-${kind}`, viewBox: '0 0 10 10', refX: '8', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' },
        s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `head ${kind}` }))));
    const links = [];
    for (let k = 0; k <= N; k += 1) {
      const kept = isRemoved(k);
      links.push(arrow(k, list.next[k], 'next', kept));
      links.push(arrow(k, list.prev[k], 'prev', kept));
    }
    replace(svg, defs, s('g', null, links));

    const top = list.removed[list.removed.length - 1];
    for (const [k, button] of buttons.entries()) {
      const removed = isRemoved(k);
      const p = position(k);
      button.style.left = `${(p.x / W) * 100}%`;
      button.style.top = `${(p.y / H) * 100}%`;
      button.classList.toggle('removed', removed);
      button.classList.toggle('restorable', k === top);
      button.dataset.state = removed ? 'removed' : 'in';
      button.setAttribute('aria-label', k === 0
        ? t('links.label.root')
        : removed
          ? (k === top ? t('links.label.restorable', { node: k }) : t('links.label.waiting', { node: k, top }))
          : t('links.label.in', { node: k }));
    }
    restoreButton.disabled = list.removed.length === 0;
    restoreButton.textContent = top === undefined ? t('links.restoreLast') : t('links.restoreNode', { node: top });
    stack.textContent = list.removed.length
      ? t('links.removed', { nodes: words(list.removed), top })
      : t('links.noneRemoved');

    replace(code,
      h('span', { class: ['line', lastOp === 'remove' && 'current'] }, 'remove(x):  x.next.prev = x.prev;  x.prev.next = x.next'), '\n',
      h('span', { class: ['line', lastOp === 'restore' && 'current'] }, 'restore(x): x.next.prev = x;       x.prev.next = x'));
    replace(table,
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('links.col.node')), h('th', { scope: 'col' }, 'prev'), h('th', { scope: 'col' }, 'next'))),
      h('tbody', null, list.next.map((_, k) => h('tr', { class: isRemoved(k) ? 'kept' : null },
        h('th', { scope: 'row' }, name(k)), h('td', null, name(list.prev[k])), h('td', null, name(list.next[k]))))));
  }

  say(t('links.start'));
  render();
  return {
    onKey(event) {
      if (event.key === 'u' || event.key === 'U') { restoreLast(); return true; }
      if (event.key === 'r' || event.key === 'R') { resetButton.click(); return true; }
      return false;
    },
  };
}
