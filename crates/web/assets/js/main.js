// The page: navigation between the sections of views/registry.js (one shown at a time, each
// mounted on first visit and kept afterwards), global keys, and an error banner.

import { VIEWS } from './views/registry.js';
import { h } from './dom.js';
import { t, parts, lang, setLang } from './i18n.js';

const nav = document.getElementById('nav');
const main = document.getElementById('view');
const banner = document.getElementById('error');
const mounted = new Map();

// The static text of index.html, in the page's language.
for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
document.title = t('page.title');
const kbd = (text) => h('kbd', null, text);
document.getElementById('footer-keys').replaceChildren(
  ...parts('page.keys', {
    first: kbd('1'), last: kbd(String(VIEWS.length)), right: kbd('\u2192'), left: kbd('\u2190'),
    space: kbd(t('page.space')), home: kbd('Home'),
  }),
  ' ',
  ...parts('page.source', { serve: h('code', null, 'dancecard serve') }));

// The language switch: each language named in itself; a choice is stored and reloads the page.
document.getElementById('lang').replaceChildren(h('div', { role: 'group', class: 'lang-switch', 'aria-label': t('page.language') },
  [['en', 'English', 'en'], ['zh', '\u4e2d\u6587', 'zh-Hans']].map(([value, name, tag]) =>
    h('button', {
      type: 'button', class: 'ctl small', lang: tag, 'data-lang': value,
      'aria-pressed': value === lang ? 'true' : 'false', onclick: () => setLang(value),
    }, name))));
let active = null;

function showError(message) {
  banner.replaceChildren(
    h('strong', null, t('page.error')), message, ' ',
    h('button', { type: 'button', class: 'ctl', onclick: () => { banner.hidden = true; } }, t('page.dismiss')));
  banner.hidden = false;
}

window.addEventListener('error', (event) => showError(event.message));
window.addEventListener('unhandledrejection', (event) => showError(String(event.reason?.message ?? event.reason)));

for (const [n, view] of VIEWS.entries()) {
  nav.append(h('li', null,
    h('a', { href: `#${view.id}`, 'data-view': view.id },
      h('span', { class: 'num', 'aria-hidden': 'true' }, String(n + 1)), ' ', view.title)));
}

async function show(id, moveFocus) {
  const view = VIEWS.find((v) => v.id === id) ?? VIEWS[0];
  for (const link of nav.querySelectorAll('a')) {
    if (link.dataset.view === view.id) {
      link.setAttribute('aria-current', 'page');
      link.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
    else link.removeAttribute('aria-current');
  }
  let entry = mounted.get(view.id);
  if (!entry) {
    const n = VIEWS.indexOf(view) + 1;
    const section = h('section', { class: 'view', id: `view-${view.id}`, 'aria-labelledby': `title-${view.id}` },
      h('h2', { id: `title-${view.id}`, tabindex: '-1' }, h('span', { class: 'num' }, `${n}`), ' ', view.title));
    main.append(section);
    entry = { section, api: {} };
    mounted.set(view.id, entry);
    const module = await view.load();
    entry.api = (await module.mount(section)) ?? {};
  }
  for (const other of mounted.values()) other.section.hidden = other !== entry;
  active = entry;
  document.title = t('page.docTitle', { view: view.title });
  entry.api.shown?.();
  if (moveFocus) entry.section.querySelector('h2').focus();
}

window.addEventListener('hashchange', () => show(location.hash.slice(1), true));

document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"]')) return;
  // Space and Enter on a focused button press that button.
  if ((event.key === ' ' || event.key === 'Enter') && target instanceof Element && target.closest('button, a, summary')) return;
  const n = Number(event.key);
  if (Number.isInteger(n) && n >= 1 && n <= VIEWS.length) {
    location.hash = VIEWS[n - 1].id;
    event.preventDefault();
    return;
  }
  if (active?.api.onKey?.(event)) event.preventDefault();
});

show(location.hash.slice(1), false);
