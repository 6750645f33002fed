// Section 3: the dance of the links on one circular doubly linked list. Removing a node
// leaves its own links alone, which is what makes restoring it free; but only in reverse
// order of removal.

import { h, s, replace, words } from '../dom.js';

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
    }, k === 0 ? 'root' : String(k));
    buttons.push(button);
  }
  const stage = h('div', { class: 'dance' }, svg, buttons);
  const message = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const stack = h('p', { class: 'stack' });
  const table = h('table', { class: 'pointers' });
  const code = h('pre', { class: 'code' });
  const restoreButton = h('button', { type: 'button', class: 'ctl primary', onclick: () => restoreLast() }, 'Restore the last removed');
  const resetButton = h('button', { type: 'button', class: 'ctl', onclick: () => { list = fresh(); lastOp = null; say('Back to the full list.'); render(); } }, 'Reset');

  section.append(
    h('p', { class: 'lead' },
      'Algorithm X spends its time removing rows and columns and putting them back. Dancing Links stores ',
      'the matrix as linked lists, where both directions cost two pointer assignments. Here is one circular ',
      'doubly linked list, with a root that is always there. Click a node to take it out of the list; click ',
      'the highlighted node to put it back.'),
    stage,
    h('p', { class: 'legend' },
      h('span', { class: 'chip link-next' }, 'next link (above)'), ' ',
      h('span', { class: 'chip link-prev' }, 'previous link (below)'), ' ',
      h('span', { class: 'chip link-kept' }, 'links kept by a removed node')),
    h('div', { class: 'toolbar' }, restoreButton, resetButton,
      h('span', { class: 'muted' }, 'Keys: ', h('kbd', null, 'U'), ' restores the last removed node, ', h('kbd', null, 'R'), ' resets; Tab reaches every node.')),
    message,
    stack,
    h('div', { class: 'two-col' },
      h('div', null, h('h3', null, 'The two assignments'), code),
      h('div', null, h('h3', null, 'Every link, now'), h('div', { class: 'table-wrap' }, table))),
    h('div', { class: 'prose' },
      h('h3', null, 'Why the order matters'),
      h('p', null,
        'A removed node keeps its own two links: they still point at the neighbours it had when it left. ',
        'Putting it back only makes those neighbours point at it again. That is correct only if the ',
        'neighbours are the same as when it left, that is, if every node removed after it is back already. ',
        'So restoring must run in the reverse order of removing: last out, first back. Algorithm X undoes ',
        'its work in exactly that order when it backs up, which is why it can use this trick everywhere.')));

  function say(text, cls = '') {
    message.className = `status ${cls}`.trim();
    message.textContent = text;
  }

  function isRemoved(k) {
    return list.removed.includes(k);
  }

  function click(k) {
    if (k === 0) {
      say('The root stays in the list: it is how the list is found, even when every node is out.', 'warn');
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
    say(`Node ${k} cannot come back yet: ${later.length === 1 ? 'node' : 'nodes'} ${words(later)} ` +
      `${later.length === 1 ? 'was' : 'were'} removed after it, so restore node ${top} first. ` +
      (stale.length
        ? `Node ${k}'s saved links point at node ${words(stale)}, which is out of the list itself: relinking now would run the list through a removed node. `
        : `Its own neighbours happen to be in place here, but the rule must hold in general: a node removed later may have been its neighbour, and then relinking early corrupts the list. `) +
      'Undo must be last in, first out.', 'warn');
  }

  function remove(k) {
    const { next, prev } = list;
    next[prev[k]] = next[k];
    prev[next[k]] = prev[k];
    list.removed.push(k);
    lastOp = 'remove';
    say(`Node ${k} is out: node ${name(prev[k])} and node ${name(next[k])} now point past it. ` +
      `Node ${k} still points at them (dashed red): that is all it needs to come back.`);
    render();
  }

  function restoreLast() {
    const k = list.removed.pop();
    if (k === undefined) {
      say('Nothing to restore: every node is in the list.');
      return;
    }
    const { next, prev } = list;
    next[prev[k]] = k;
    prev[next[k]] = k;
    lastOp = 'restore';
    say(`Node ${k} is back: its neighbours point at it again, found through the links it kept.`, 'success');
    render();
  }

  function name(k) {
    return k === 0 ? 'root' : String(k);
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
        ? 'The root: always in the list'
        : removed
          ? (k === top ? `Node ${k}, removed: press to restore it` : `Node ${k}, removed: it can come back only after node ${top}`)
          : `Node ${k}, in the list: press to remove it`);
    }
    restoreButton.disabled = list.removed.length === 0;
    restoreButton.textContent = top === undefined ? 'Restore the last removed' : `Restore node ${top}`;
    stack.textContent = list.removed.length
      ? `Removed, in order: ${words(list.removed)}. Only node ${top} can come back now.`
      : 'No node removed.';

    replace(code,
      h('span', { class: ['line', lastOp === 'remove' && 'current'] }, 'remove(x):  x.next.prev = x.prev;  x.prev.next = x.next'), '\n',
      h('span', { class: ['line', lastOp === 'restore' && 'current'] }, 'restore(x): x.next.prev = x;       x.prev.next = x'));
    replace(table,
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'node'), h('th', { scope: 'col' }, 'prev'), h('th', { scope: 'col' }, 'next'))),
      h('tbody', null, list.next.map((_, k) => h('tr', { class: isRemoved(k) ? 'kept' : null },
        h('th', { scope: 'row' }, name(k)), h('td', null, name(list.prev[k])), h('td', null, name(list.next[k]))))));
  }

  say('Every node is in the list. Click one to remove it.');
  render();
  return {
    onKey(event) {
      if (event.key === 'u' || event.key === 'U') { restoreLast(); return true; }
      if (event.key === 'r' || event.key === 'R') { resetButton.click(); return true; }
      return false;
    },
  };
}
