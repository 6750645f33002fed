// Step controls shared by the views that replay a sequence: reset, back, play/pause, forward,
// end, and a speed slider. The keys are documented by `keysHelp`.

import { h, uid } from './dom.js';

/**
 * A player over steps 0..count (0 is the start, before any step). `render(k)` draws step k.
 * Returns {element, setCount(n), go(k), position(), onKey(event) -> handled}.
 */
export function createPlayer({ render, label = 'step', speeds = { min: 1, max: 20, value: 4 } }) {
  let count = 0;
  let k = 0;
  let timer = null;

  const speedId = uid('speed');
  const reset = h('button', { type: 'button', class: 'ctl', title: 'Back to the start (Home)', onclick: () => go(0) }, 'Reset');
  const back = h('button', { type: 'button', class: 'ctl', title: 'One step back (\u2190)', onclick: () => go(k - 1) }, '\u25c0 Back');
  const play = h('button', { type: 'button', class: 'ctl play', 'aria-pressed': 'false', title: 'Play or pause (Space or P)', onclick: () => toggle() }, '\u25b6 Play');
  const forward = h('button', { type: 'button', class: 'ctl primary', title: 'One step forward (\u2192)', onclick: () => go(k + 1) }, 'Step \u25b6');
  const end = h('button', { type: 'button', class: 'ctl', title: 'Jump to the end (End)', onclick: () => go(count) }, 'End');
  const speed = h('input', { id: speedId, type: 'range', min: speeds.min, max: speeds.max, value: speeds.value, 'aria-valuetext': `${speeds.value} steps a second` });
  const where = h('span', { class: 'where', 'aria-live': 'off' });
  speed.addEventListener('input', () => {
    speed.setAttribute('aria-valuetext', `${speed.value} steps a second`);
    if (timer) { stop(); start(); }
  });

  const element = h('div', { class: 'player', role: 'group', 'aria-label': 'Step controls' },
    h('div', { class: 'buttons' }, reset, back, play, forward, end),
    h('div', { class: 'speed' }, h('label', { for: speedId }, 'Speed'), speed, h('span', { class: 'muted' }, 'steps/s')),
    where);

  function update() {
    reset.disabled = k === 0;
    back.disabled = k === 0;
    forward.disabled = k >= count;
    end.disabled = k >= count;
    play.disabled = count === 0;
    where.textContent = `${label} ${k} of ${count}`;
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
    play.textContent = '\u2016 Pause';
    play.setAttribute('aria-pressed', 'true');
    timer = setInterval(() => {
      if (k >= count) stop(); else go(k + 1);
    }, 1000 / Number(speed.value));
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    play.textContent = '\u25b6 Play';
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
    ['\u2192', 'one step forward'],
    ['\u2190', 'one step back'],
    ['Space or P', 'play or pause'],
    ['Home or R', 'back to the start'],
    ['End', 'jump to the end'],
    ['+ / \u2212', 'faster / slower'],
    ['1\u20137', 'open another section'],
    ...extra,
  ];
  return h('details', { class: 'note keys' },
    h('summary', null, 'Keyboard'),
    h('dl', null, keys.map(([k, what]) => [h('dt', null, h('kbd', null, k)), h('dd', null, what)])),
    h('p', { class: 'muted' }, 'The keys work anywhere in this section except in text fields; Tab reaches every control.'));
}
