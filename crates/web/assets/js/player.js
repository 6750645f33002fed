// Step controls shared by the views that replay a sequence: reset, back, play/pause, forward,
// end, and a speed slider. The keys are documented by `keysHelp`.

import { h, uid } from './dom.js';
import { t } from './i18n.js';

/** What a player's position counts, from the dictionaries: `step`s (the default) or `event`s. */
export const LABELS = { step: t('player.label.step'), event: t('player.label.event') };

/**
 * A player over steps 0..count (0 is the start, before any step). `render(k)` draws step k.
 * Returns {element, setCount(n), go(k), position(), onKey(event) -> handled}.
 */
export function createPlayer({ render, label = LABELS.step, speeds = { min: 1, max: 20, value: 4 } }) {
  let count = 0;
  let k = 0;
  let timer = null;

  const speedId = uid('speed');
  const reset = h('button', { type: 'button', class: 'ctl', title: t('player.resetTitle'), onclick: () => go(0) }, t('player.reset'));
  const back = h('button', { type: 'button', class: 'ctl', title: t('player.backTitle'), onclick: () => go(k - 1) }, t('player.back'));
  const play = h('button', { type: 'button', class: 'ctl play', 'aria-pressed': 'false', title: t('player.playTitle'), onclick: () => toggle() }, t('player.play'));
  const forward = h('button', { type: 'button', class: 'ctl primary', title: t('player.stepTitle'), onclick: () => go(k + 1) }, t('player.step'));
  const end = h('button', { type: 'button', class: 'ctl', title: t('player.endTitle'), onclick: () => go(count) }, t('player.end'));
  const speed = h('input', { id: speedId, type: 'range', min: speeds.min, max: speeds.max, value: speeds.value, 'aria-valuetext': t('player.perSecond', { n: speeds.value }) });
  const where = h('span', { class: 'where', 'aria-live': 'off' });
  speed.addEventListener('input', () => {
    speed.setAttribute('aria-valuetext', t('player.perSecond', { n: Number(speed.value) }));
    if (timer) { stop(); start(); }
  });

  const element = h('div', { class: 'player', role: 'group', 'aria-label': t('player.controls') },
    h('div', { class: 'buttons' }, reset, back, play, forward, end),
    h('div', { class: 'speed' }, h('label', { for: speedId }, t('player.speed')), speed, h('span', { class: 'muted' }, t('player.unit'))),
    where);

  function update() {
    reset.disabled = k === 0;
    back.disabled = k === 0;
    forward.disabled = k >= count;
    end.disabled = k >= count;
    play.disabled = count === 0;
    // The positions stay unformatted: they are short, and tests read them back as numbers.
    where.textContent = t('player.where', { label, k: String(k), count: String(count) });
  }

  function go(target) {
    const next = Math.max(0, Math.min(count, target));
    if (next === k && next !== 0) { update(); return; }
    k = next;
    if (k >= count) stop();
    update();
    render(k);
  }

  function start() {
    if (k >= count) go(0);
    play.textContent = t('player.pause');
    play.setAttribute('aria-pressed', 'true');
    timer = setInterval(() => {
      if (k >= count) stop(); else go(k + 1);
    }, 1000 / Number(speed.value));
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    play.textContent = t('player.play');
    play.setAttribute('aria-pressed', 'false');
  }

  function toggle() {
    if (timer) stop(); else start();
  }

  function onKey(event) {
    switch (event.key) {
      case 'ArrowRight': go(k + 1); return true;
      case 'ArrowLeft': go(k - 1); return true;
      case ' ': case 'p': case 'P': toggle(); return true;
      case 'Home': case 'r': case 'R': stop(); go(0); return true;
      case 'End': go(count); return true;
      case '+': speed.value = String(Number(speed.value) + 1); speed.dispatchEvent(new Event('input')); return true;
      case '-': speed.value = String(Number(speed.value) - 1); speed.dispatchEvent(new Event('input')); return true;
      default: return false;
    }
  }

  function setCount(n) {
    stop();
    count = n;
    k = 0;
    update();
    render(0);
  }

  update();
  return { element, setCount, go, stop, position: () => k, onKey };
}

/** The keyboard help of a stepping view. */
export function keysHelp(extra = []) {
  const keys = [
    ['\u2192', t('keys.forward')],
    ['\u2190', t('keys.back')],
    [t('keys.spaceOrP'), t('keys.play')],
    [t('keys.homeOrR'), t('keys.start')],
    [t('keys.endKey'), t('keys.end')],
    ['+ / \u2212', t('keys.speed')],
    ['1\u20137', t('keys.section')],
    ...extra,
  ];
  return h('details', { class: 'note keys' },
    h('summary', null, t('keys.summary')),
    h('dl', null, keys.map(([k, what]) => [h('dt', null, h('kbd', null, k)), h('dd', null, what)])),
    h('p', { class: 'muted' }, t('keys.where')));
}
