// Small DOM helpers: build elements without innerHTML (so no markup is ever parsed from data)
// and without style attributes (the Content Security Policy forbids them; `style` objects are
// set through the CSSOM instead).

import { t, count } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'text') el.textContent = value;
    else if (key === 'style') Object.assign(el.style, value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: `h('button', {class: 'x', onclick}, 'label')`. */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, with the same conventions as `h`. */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replaces the children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  build(el, null, children);
  return el;
}

/** Fills a list of facts (`dl`) with its rows: [term, value, the value's class (if any)]. */
export function showFacts(dl, rows) {
  return replace(dl, rows.map(([term, value, cls]) => [h('dt', null, term), h('dd', cls ? { class: cls } : null, value)]));
}

let ids = 0;
/** A fresh element id with a readable prefix. */
export function uid(prefix) {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** The explanation of a search node, shown wherever node counts are. */
export function nodeNote() {
  return h('details', { class: 'note' },
    h('summary', null, t('note.node.summary')),
    h('p', null, t('note.node.text')));
}

/** The explanation of a node for a puzzle view: `paragraphs` say what one node is there. */
export function puzzleNodeNote(...paragraphs) {
  return h('details', { class: 'note' },
    h('summary', null, t('note.puzzleNode.summary')),
    paragraphs.map((p) => h('p', null, p)));
}

/** "1 node", "3 nodes" (in the page's language): `count` of i18n.js with unit.<unit>. */
export function amount(n, unit) {
  return count(n, `unit.${unit}`);
}

/** A duration in microseconds, in words: "840 µs", "12.3 ms", "1.52 s". */
export function micros(us) {
  if (us < 1000) return `${us} µs`;
  if (us < 1e6) return `${(us / 1000).toFixed(us < 1e4 ? 2 : 1)} ms`;
  return `${(us / 1e6).toFixed(2)} s`;
}

/** A select of `presets` ({id, name}), and last the reader's own (`custom`), named `own`. */
export function presetPicker(id, presets, own) {
  return h('select', { id },
    presets.map((p) => h('option', { value: p.id }, p.name)),
    h('option', { value: 'custom' }, own));
}

/**
 * The reader's own input, folded away: a `details.editor` with a labelled text area (`rows`
 * high, holding `text`), a help line, and a button (`use`) that calls `onUse`.
 * Returns {box, editor}.
 */
export function editorBox({ rows, text, summary, label, help, use, onUse }) {
  const editorId = uid('editor');
  const helpId = uid('help');
  const editor = h('textarea', { id: editorId, rows, spellcheck: 'false', 'aria-describedby': helpId }, text);
  const box = h('details', { class: 'editor' },
    h('summary', null, summary),
    h('label', { for: editorId }, label),
    editor,
    h('p', { id: helpId, class: 'muted' }, help),
    h('button', { type: 'button', class: 'ctl primary', onclick: onUse }, use));
  return { box, editor };
}

/** Picking a preset in `picker` calls `pick(id)`; picking `custom` opens the editor's box. */
export function onPresetPick(picker, { box, editor }, pick) {
  picker.addEventListener('change', () => {
    if (picker.value === 'custom') {
      box.open = true;
      editor.focus();
      return;
    }
    pick(picker.value);
  });
}
