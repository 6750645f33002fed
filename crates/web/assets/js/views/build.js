// Section 4: the two-dimensional structure of Dancing Links, built step by step from a small
// matrix (read by the server), then one column covered and uncovered on it: the column the
// engine itself chooses first (from its trace).

import * as api from '../api.js';
import { h, s, replace } from '../dom.js';
import { t, list as words } from '../i18n.js';
import { createPlayer, keysHelp } from '../player.js';
import { SMALL } from '../problems.js';

const CODE = [
  ['root', 'root.left = root.right = root'],
  ['headers', t('build.code.headers')],
  ['headers', '    c.left = root.left;  c.right = root'],
  ['headers', '    root.left.right = c;  root.left = c'],
  ['headers', '    c.up = c.down = c;  c.len = 0'],
  ['nodes', t('build.code.nodes')],
  ['nodes', '    x = new node;  x.column = c;  x.row = r'],
  ['rows', t('build.code.rows')],
  ['rows', '    xi.right = x(i+1);  x(i+1).left = xi;  xk.right = x1;  x1.left = xk'],
  ['columns', t('build.code.columns')],
  ['columns', '    x.up = c.up;  x.down = c;  c.up.down = x;  c.up = x;  c.len += 1'],
  ['cover', 'cover(c):'],
  ['cover-header', '    c.right.left = c.left;  c.left.right = c.right'],
  ['cover', '    for i = c.down, i.down, \u2026 while i \u2260 c:'],
  ['cover', '        for j = i.right, j.right, \u2026 while j \u2260 i:'],
  ['cover-node', '            j.down.up = j.up;  j.up.down = j.down;  j.column.len -= 1'],
  ['uncover', 'uncover(c):'],
  ['uncover', '    for i = c.up, i.up, \u2026 while i \u2260 c:'],
  ['uncover', '        for j = i.left, j.left, \u2026 while j \u2260 i:'],
  ['uncover-node', '            j.column.len += 1;  j.down.up = j;  j.up.down = j'],
  ['uncover-header', '    c.right.left = c;  c.left.right = c'],
];

// The strings added in the second edition, now in the dictionaries (../i18n/, keys build.*).
const TEXT = {
  ghost: (nodes, cols) => t('build.ghost', { nodes, cols }),
  ghostLabel: t('build.ghostLabel'),
};

const PHASES = [
  'root', 'headers', 'nodes', 'rows', 'columns', 'cover', 'uncover',
].map((phase) => [phase, t(`build.phase.${phase}`)]);

const NODE_R = 17;
const COL_W = 112;
const ROW_H = 64;
const X0 = 58;
const Y_HEAD = 52;
const Y_ROW0 = 132;

/** The model: Knuth's arrays of links, one entry per element (root 0, headers, nodes). */
class Links {
  constructor() {
    this.el = [];
  }

  add(el) {
    const k = this.el.length;
    this.el.push({ ...el, L: k, R: k, U: k, D: k, len: 0 });
    return k;
  }
}

/** The steps: each one a phase, the code lines it runs, a sentence, and what it does. */
function plan(problem, cover) {
  const steps = [];
  const cols = problem.items.length;
  const header = (c) => 1 + c;
  const node = [];
  let next = 1 + cols;
  problem.options.forEach((o, r) => {
    node[r] = {};
    for (const c of o.items) node[r][c] = next++;
  });
  const line = (...phases) => CODE.map(([p], n) => (phases.includes(p) ? n : -1)).filter((n) => n >= 0);
  const name = (c) => problem.items[c].name;

  steps.push({
    phase: 'root', lines: line('root'),
    text: t('build.root'),
    apply: (m) => { m.add({ kind: 'root', name: 'root' }); },
  });
  for (let c = 0; c < cols; c += 1) {
    steps.push({
      phase: 'headers', lines: line('headers'),
      text: t('build.header', { name: name(c) }),
      apply: (m) => {
        const k = m.add({ kind: 'header', name: name(c), col: c });
        const e = m.el;
        e[k].L = e[0].L; e[k].R = 0; e[e[0].L].R = k; e[0].L = k;
      },
    });
  }
  problem.options.forEach((o, r) => {
    steps.push({
      phase: 'nodes', lines: line('nodes'),
      text: t(`build.nodes.${o.items.length === 1 ? 'one' : 'other'}`, { row: o.index + 1, names: words(o.items.map(name)) }),
      apply: (m) => { for (const c of o.items) m.add({ kind: 'node', name: name(c), col: c, row: r }); },
    });
  });
  problem.options.forEach((o, r) => {
    const xs = [...o.items].sort((a, b) => a - b).map((c) => node[r][c]);
    steps.push({
      phase: 'rows', lines: line('rows'),
      text: xs.length === 1
        ? t('build.rowAlone', { row: o.index + 1 })
        : t('build.row', { row: o.index + 1 }),
      apply: (m) => {
        xs.forEach((k, n) => {
          const right = xs[(n + 1) % xs.length];
          m.el[k].R = right; m.el[right].L = k;
        });
      },
    });
  });
  for (let c = 0; c < cols; c += 1) {
    const rows = problem.options.map((o, r) => r).filter((r) => node[r][c] !== undefined);
    steps.push({
      phase: 'columns', lines: line('columns'),
      text: t('build.column', { name: name(c), rows: words(rows.map((r) => problem.options[r].index + 1)), len: rows.length }),
      apply: (m) => {
        const hd = header(c);
        for (const r of rows) {
          const x = node[r][c];
          const e = m.el;
          e[x].U = e[hd].U; e[x].D = hd; e[e[hd].U].D = x; e[hd].U = x; e[hd].len += 1;
        }
      },
    });
  }

  // Cover and uncover the chosen column, one pointer operation per step. The order of the
  // loops depends only on links that covering does not change, so it is fixed here.
  const scratch = new Links();
  for (const step of steps) step.apply(scratch);
  const e = scratch.el;
  const hc = header(cover);
  const order = [];
  for (let i = e[hc].D; i !== hc; i = e[i].D) {
    const js = [];
    for (let j = e[i].R; j !== i; j = e[j].R) js.push(j);
    order.push({ i, js });
  }
  const rowOf = (k) => problem.options[e[k].row].index + 1;
  steps.push({
    phase: 'cover', lines: [...line('cover'), ...line('cover-header')],
    text: t('build.coverHeader', { name: name(cover) }),
    apply: (m) => { const x = m.el; x[x[hc].R].L = x[hc].L; x[x[hc].L].R = x[hc].R; },
  });
  for (const { i, js } of order) {
    for (const j of js) {
      steps.push({
        phase: 'cover', lines: [...line('cover'), ...line('cover-node')],
        text: t('build.coverNode', { row: rowOf(i), name: name(cover), column: e[j].name }),
        apply: (m) => {
          const x = m.el;
          x[x[j].D].U = x[j].U; x[x[j].U].D = x[j].D; x[1 + x[j].col].len -= 1;
        },
      });
    }
  }
  for (const { i, js } of [...order].reverse()) {
    for (const j of [...js].reverse()) {
      steps.push({
        phase: 'uncover', lines: [...line('uncover'), ...line('uncover-node')],
        text: t('build.uncoverNode', { name: name(cover), row: rowOf(i), column: e[j].name }),
        apply: (m) => {
          const x = m.el;
          x[1 + x[j].col].len += 1; x[x[j].D].U = j; x[x[j].U].D = j;
        },
      });
    }
  }
  steps.push({
    phase: 'uncover', lines: [...line('uncover'), ...line('uncover-header')],
    text: t('build.uncoverHeader', { name: name(cover) }),
    apply: (m) => { const x = m.el; x[x[hc].R].L = hc; x[x[hc].L].R = hc; },
  });
  return steps;
}

function place(el) {
  if (el.kind === 'root') return { x: X0, y: Y_HEAD };
  const x = X0 + COL_W * (el.col + 1);
  return { x, y: el.kind === 'header' ? Y_HEAD : Y_ROW0 + ROW_H * el.row };
}

export function mount(section) {
  let problem = null;
  let steps = [];
  let coverItem = 0;
  let model = new Links();

  const svg = s('svg', { class: 'torus', role: 'img', 'aria-label': t('build.svgLabel') });
  const stepText = h('p', { class: 'event', role: 'status', 'aria-live': 'polite' });
  const phases = h('ol', { class: 'phases' });
  const code = h('pre', { class: 'code' });
  const matrix = h('table', { class: 'matrix mini' });
  const player = createPlayer({ render });

  section.append(
    h('p', { class: 'lead' }, t('build.lead')),
    player.element,
    h('div', { class: 'build-grid' },
      stepText,
      h('div', { class: 'torus-wrap' }, svg,
        h('p', { class: 'legend' },
          h('span', { class: 'chip link-next' }, t('build.chip.horiz')), ' ',
          h('span', { class: 'chip link-vert' }, t('build.chip.vert')), ' ',
          h('span', { class: 'chip link-kept' }, t('build.chip.kept')), ' ',
          h('span', { class: 'muted' }, t('build.selfLink')))),
      h('div', { class: 'side' },
        h('h3', null, t('build.phase')), phases,
        h('h3', null, t('build.code')), code,
        h('h3', null, t('build.matrix')), matrix)),
    keysHelp(),
    h('div', { class: 'prose' },
      h('h3', null, t('build.coverTitle')),
      h('p', null, t('build.cover'))));

  async function load() {
    try {
      problem = await api.parse(SMALL.text);
      // The engine's first choice of column (Knuth's S heuristic) is the one covered here.
      const trace = await api.trace(SMALL.text, { limit: 4 });
      const choose = trace.events.find((e) => e.event === 'choose');
      coverItem = choose ? choose.item : 0;
    } catch (e) {
      stepText.className = 'event error';
      stepText.textContent = t('build.parseError', { error: e.message });
      return;
    }
    steps = plan(problem, coverItem);
    replace(matrix,
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('build.rowHeader')), problem.items.map((it) => h('th', { scope: 'col' }, it.name)))),
      h('tbody', null, problem.options.map((o) => h('tr', null, h('th', { scope: 'row' }, String(o.index + 1)),
        problem.items.map((_, c) => h('td', { class: o.items.includes(c) ? 'one' : 'zero' }, o.items.includes(c) ? '1' : '0'))))));
    const cols = problem.items.length;
    const rows = problem.options.length;
    svg.setAttribute('viewBox', `0 0 ${X0 + COL_W * cols + 74} ${Y_ROW0 + ROW_H * (rows - 1) + 56}`);
    player.setCount(steps.length);
  }

  /**
   * The links, drawn the way the structure works: a pair of links that agree (a.right = b and
   * b.left = a) is one line with two heads; a pair that wraps around its ring leaves through
   * the margin and comes back on the other side, as on a torus. A link whose partner no
   * longer agrees (cover unlinked an element) is drawn alone: red and dashed if it belongs
   * to the unlinked element.
   */
  function drawLinks(out) {
    const e = model.el;
    const bounds = { left: 10, right: X0 + COL_W * problem.items.length + 64, top: 8, bottom: Y_ROW0 + ROW_H * (problem.options.length - 1) + 48 };
    const paths = [];
    const path = (d, cls, heads) => paths.push(s('path', {
      d,
      class: ['link', ...cls],
      'marker-end': heads >= 1 ? `url(#b-head-${cls[0]})` : null,
      'marker-start': heads === 2 ? `url(#b-head-${cls[0]})` : null,
    }));
    const axes = [
      { fwd: 'R', back: 'L', kind: 'horiz', outKind: 'header' },
      { fwd: 'D', back: 'U', kind: 'vert', outKind: 'node' },
    ];
    e.forEach((el, a) => {
      for (const { fwd, back, kind, outKind } of axes) {
        if (kind === 'vert' && el.kind === 'root') continue;
        const keptA = out(a) && el.kind === outKind;
        const b = el[fwd];
        if (b !== a) {
          const pair = e[b][back] === a && !keptA && !(out(b) && e[b].kind === outKind);
          const cls = keptA ? ['kept'] : [kind];
          segment(a, b, fwd, cls, pair ? 2 : 1, path, bounds);
        }
        // The backward link, unless the pair above already drew it.
        const c = el[back];
        if (c !== a && !(e[c][fwd] === a && !keptA && !(out(c) && e[c].kind === outKind))) {
          segment(a, c, back, keptA ? ['kept'] : [kind], 1, path, bounds);
        }
      }
    });
    return paths;
  }

  /** One link (or agreeing pair) from element a to element b in direction dir. */
  function segment(a, b, dir, cls, heads, path, bounds) {
    const p = place(model.el[a]);
    const q = place(model.el[b]);
    const r = NODE_R + (model.el[a].kind === 'node' ? 0 : 4);
    const rq = NODE_R + (model.el[b].kind === 'node' ? 0 : 4);
    // Single links sit off the centre line, so that both directions show.
    const off = heads === 2 ? 0 : 6 * (dir === 'R' || dir === 'D' ? -1 : 1);
    if (dir === 'R' || dir === 'L') {
      const sign = dir === 'R' ? 1 : -1;
      const y0 = p.y + off;
      const y1 = q.y + off;
      if (p.y === q.y && Math.sign(q.x - p.x) === sign) {
        // Links that skip an element (one that cover unlinked) arc around it: rightwards
        // above, leftwards below.
        const skips = model.el.some((o) => { const t = place(o); return t.y === p.y && (t.x - p.x) * (t.x - q.x) < 0; });
        const bulge = skips ? Math.max(0, Math.abs(q.x - p.x) - COL_W) * 0.4 * (dir === 'R' ? -1 : 1) : 0;
        const x0 = p.x + sign * r;
        const x1 = q.x - sign * (rq + 2);
        path(bulge === 0
          ? `M ${x0} ${y0} L ${x1} ${y1}`
          : `M ${x0} ${y0} C ${x0 + sign * 30} ${y0 + bulge} ${x1 - sign * 30} ${y1 + bulge} ${x1} ${y1}`, cls, heads);
      } else {
        // Around the torus: out through one margin, back in through the other.
        const edgeOut = sign > 0 ? bounds.right : bounds.left;
        const edgeIn = sign > 0 ? bounds.left : bounds.right;
        path(`M ${edgeOut} ${y0} L ${p.x + sign * (r + 2)} ${y0}`, [...cls, 'wrap'], heads === 2 ? 1 : 0);
        path(`M ${edgeIn} ${y1} L ${q.x - sign * (rq + 2)} ${y1}`, [...cls, 'wrap'], 1);
      }
    } else {
      const sign = dir === 'D' ? 1 : -1;
      const x0 = p.x - off;
      const x1 = q.x - off;
      if (p.x === q.x && Math.sign(q.y - p.y) === sign) {
        const gap = p.y === Y_HEAD || q.y === Y_HEAD ? Y_ROW0 - Y_HEAD : ROW_H;
        const skips = model.el.some((o) => { const t = place(o); return t.x === p.x && (t.y - p.y) * (t.y - q.y) < 0; });
        const bulge = skips ? Math.max(0, Math.abs(q.y - p.y) - gap) * 0.4 * (dir === 'D' ? 1 : -1) : 0;
        const y0 = p.y + sign * NODE_R;
        const y1 = q.y - sign * (NODE_R + 2);
        path(bulge === 0
          ? `M ${x0} ${y0} L ${x1} ${y1}`
          : `M ${x0} ${y0} C ${x0 + bulge} ${y0 + sign * 24} ${x1 + bulge} ${y1 - sign * 24} ${x1} ${y1}`, cls, heads);
      } else {
        const edgeOut = sign > 0 ? bounds.bottom : bounds.top;
        const edgeIn = sign > 0 ? bounds.top : bounds.bottom;
        path(`M ${x0} ${edgeOut} L ${x0} ${p.y + sign * (NODE_R + 2)}`, [...cls, 'wrap'], heads === 2 ? 1 : 0);
        path(`M ${x1} ${edgeIn} L ${x1} ${q.y - sign * (NODE_R + 2)}`, [...cls, 'wrap'], 1);
      }
    }
  }

  function render(k) {
    if (!problem) return;
    model = new Links();
    for (const step of steps.slice(0, k)) step.apply(model);
    const step = k > 0 ? steps[k - 1] : null;
    const e = model.el;
    // An element is out when its neighbours no longer point at it (cover unlinked it).
    const out = (x) => e[x].kind === 'header' ? e[e[x].L].R !== x : e[x].kind === 'node' && e[e[x].D].U !== x;

    const defs = s('defs', null, ['horiz', 'vert', 'kept'].map((kind) =>
      s('marker', { id: `b-head-${kind}`, viewBox: '0 0 10 10', refX: '8', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto-start-reverse' },
        s('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `head ${kind}` }))));
    const links = [];
    const shapes = [];
    const labels = problem.options.map((o, r) => s('text', { x: X0 - 8, y: Y_ROW0 + ROW_H * r - 9, class: 'row-label' }, t('build.rowLabel', { row: o.index + 1 })));
    links.push(...drawLinks(out));
    e.forEach((el, x) => {
      const gone = out(x);
      const p = place(el);
      const shape = el.kind === 'node'
        ? s('circle', { cx: p.x, cy: p.y, r: NODE_R })
        : s('rect', { x: p.x - NODE_R - 4, y: p.y - NODE_R, width: 2 * NODE_R + 8, height: 2 * NODE_R, rx: 6 });
      shapes.push(s('g', { class: ['el', el.kind, gone && 'out'], 'data-name': el.name, 'data-kind': el.kind },
        shape,
        s('text', { x: p.x, y: p.y + 5, class: 'name' }, el.kind === 'root' ? t('build.rootLabel') : el.name),
        el.kind === 'header' ? s('text', { x: p.x + NODE_R + 8, y: p.y - NODE_R + 2, class: 'len' }, `len ${el.len}`) : null));
    });
    let ghostNote = '';
    if (k === 0) {
      // Before the first step there is nothing to draw: show where everything will go.
      const all = new Links();
      for (const st of steps) if (st.phase !== 'cover' && st.phase !== 'uncover') st.apply(all);
      const nodes = all.el.filter((el) => el.kind === 'node').length;
      const ghosts = all.el.map((el) => {
        const p = place(el);
        return s('g', { class: ['ghost', el.kind] },
          el.kind === 'node'
            ? s('circle', { cx: p.x, cy: p.y, r: NODE_R })
            : s('rect', { x: p.x - NODE_R - 4, y: p.y - NODE_R, width: 2 * NODE_R + 8, height: 2 * NODE_R, rx: 6 }),
          s('text', { x: p.x, y: p.y + 5, class: 'name' }, el.kind === 'root' ? t('build.rootLabel') : el.name));
      });
      ghostNote = TEXT.ghost(nodes, problem.items.length);
      replace(svg, s('title', null, TEXT.ghostLabel), labels, ghosts);
    } else {
      replace(svg, defs, labels, s('g', null, links), shapes);
    }

    stepText.className = 'event';
    stepText.textContent = step ? step.text : t('build.start', { rows: problem.options.length, cols: problem.items.length });
    if (ghostNote) stepText.textContent += ` ${ghostNote}`;
    const phase = step ? step.phase : null;
    const reached = PHASES.findIndex(([p]) => p === phase);
    replace(phases, PHASES.map(([p, label], n) => h('li', {
      class: [n < reached && 'done', n === reached && 'now'],
      'aria-current': n === reached ? 'step' : null,
    }, p === 'cover' || p === 'uncover' ? `${label}(${problem.items[coverItem].name})` : label)));
    const lit = new Set(step ? step.lines : []);
    // Each line wraps on a narrow panel, its continuation indented under its own text.
    replace(code, CODE.map(([, text], n) => {
      const indent = Math.min(3, Math.floor((text.length - text.trimStart().length) / 4));
      return [h('span', { class: ['line', `indent-${indent}`, lit.has(n) && 'current'] }, text.trimStart()), '\n'];
    }));
  }

  load();
  return { onKey: (event) => player.onKey(event) };
}
