// A search watched: the trace of the engine's search (`POST /api/trace`) loaded into a player
// and replayed with the stepper's `replay`, a board moment at a time. Shared by the queens
// view's two parts (the model stepped, the board watched) and the tiling watch.

import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { createPlayer } from './player.js';
import { replay } from './views/stepper.js';

/** The events a board shows (the others, enter, cover and uncover, happen in between). */
export const BOARD_EVENTS = new Set(['choose', 'try', 'untry', 'solution', 'backtrack']);

/**
 * Loads traces for `player`, the newest request winning. `load(fetchTrace, loading)` empties
 * the player and shows `loading` in `note` (class `busyClass`) while `fetchTrace()` runs; if
 * it fails, `note` says there is no trace, and why (class `errorClass`). Resolves to the trace,
 * or to null when it failed or a newer load began meanwhile.
 */
export function traceLoader({ player, note, busyClass, errorClass }) {
  let busy = 0;
  return async function load(fetchTrace, loading) {
    const ticket = ++busy;
    note.className = busyClass;
    note.textContent = loading;
    player.setCount(0);
    let answer;
    try {
      answer = await fetchTrace();
    } catch (e) {
      if (ticket !== busy) return null;
      note.className = errorClass;
      note.textContent = t('watch.noTrace', { error: e.message });
      return null;
    }
    return ticket === busy ? answer : null;
  };
}

/**
 * The parts of a board watch: a `status` line (class `status` and `name-status`), the `chosen`
 * column's line (`chosenClass`), the `board` (`boardClass`), the `eventText`, the `facts`
 * (`facts` and `name-facts`) and a `player` stepping `render` at `speed` steps a second at
 * first; with `load` (a [`traceLoader`] writing to the status line), `choose(words, none)`,
 * which names the chosen column (`words`, marked active) or says there is none, and `clear()`,
 * which empties them while there is no trace.
 */
export function createWatch({ name, chosenClass, boardClass, render, speed }) {
  const statusClass = `status ${name}-status`;
  const status = h('p', { class: statusClass, role: 'status', 'aria-live': 'polite' });
  const chosen = h('p', { class: chosenClass });
  const board = h('div', { class: boardClass });
  const eventText = h('p', { class: 'event' });
  const facts = h('dl', { class: `facts ${name}-facts` });
  const player = createPlayer({ render, speeds: { min: 1, max: 60, value: speed } });
  const load = traceLoader({ player, note: status, busyClass: statusClass, errorClass: `status error ${name}-status` });
  const clear = () => {
    replace(board); replace(facts);
    chosen.textContent = '';
    eventText.textContent = '';
  };
  const choose = (words, none) => {
    chosen.textContent = words ?? none;
    chosen.className = words ? `${chosenClass} active` : chosenClass;
  };
  return { status, chosen, board, eventText, facts, player, load, choose, clear };
}

/** The event counts after which a board is drawn: after each event it shows, and at the end. */
export function boardMoments(events) {
  const moments = [];
  events.forEach((e, j) => { if (BOARD_EVENTS.has(e.event)) moments.push(j + 1); });
  // The trace's last event, whatever it is, ends the replay.
  if (moments[moments.length - 1] !== events.length) moments.push(events.length);
  return moments;
}

/** The board at step `k` of the player: {upto (events replayed), state (as `replay` gives)}. */
export function replayMoment(trace, moments, k) {
  const upto = k === 0 ? 0 : moments[k - 1];
  return { upto, state: replay(trace, trace.events, upto) };
}

/**
 * The rows (`tr`) of a board of `rows` x `cols` squares, in reading order: each starts with
 * `head(r)` (nothing by default), then `cell(r, c, key)` makes each square's `td` (`key`,
 * `r,c`, names the square in the views' maps).
 */
export function boardRows(rows, cols, cell, head = () => null) {
  return Array.from({ length: rows }, (_, r) =>
    h('tr', null, head(r), Array.from({ length: cols }, (_, c) => cell(r, c, `${r},${c}`))));
}

/**
 * Shows the last event in `element`: `words`, a success after a solution, and at the end of
 * the replay the `text.doneBanner` of a whole search or the `text.cutBanner(stop)` (a warning)
 * of a cut one.
 */
export function showEvent(element, { trace, state, upto, k, words }, text) {
  let cls = state.last?.event === 'solution' ? 'event success' : 'event';
  let shown = words;
  if (upto === trace.events.length && k > 0) {
    shown += ` ${trace.complete ? text.doneBanner : text.cutBanner(trace.stop)}`;
    if (!trace.complete) cls = 'event warn';
  }
  element.textContent = shown;
  element.className = cls;
}
