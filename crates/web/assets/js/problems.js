// The problems the page starts with, and the matrix the reader typed in section 1 (shared
// with the stepper of section 2).

import { t } from './i18n.js';

/**
 * A problem the page offers: its name and its comment line from the dictionaries
 * (`problem.ID.name`, `problem.ID.comment`), then its `lines` (the items, then one option a line).
 */
function preset(id, lines) {
  return { id, name: t(`problem.${id}.name`), text: [`| ${t(`problem.${id}.comment`)}`, ...lines, ''].join('\n') };
}

/** Knuth's example from "Dancing Links" (2000): its only exact cover is rows 1, 4 and 5. */
export const KNUTH = preset('knuth', ['A B C D E F G', 'C E F', 'A D G', 'B C F', 'A D', 'B G', 'D E G']);

/** No row has a 1 in column C, so nothing can cover it. */
export const UNSOLVABLE = preset('unsolvable', ['A B C', 'A', 'B', 'A B']);

/** The small matrix whose links section 4 builds: four rows, three columns. */
export const SMALL = preset('small', ['A B C', 'A C', 'B C', 'A B', 'B']);

export const PRESETS = [KNUTH, UNSOLVABLE];

// The reader's own matrix: {name, text} once loaded in section 1, else null.
let custom = null;
const listeners = new Set();

export function customProblem() {
  return custom;
}

export function setCustomProblem(text) {
  custom = { id: 'custom', name: t('problem.custom.name'), text };
  for (const listener of listeners) listener(custom);
}

export function onCustomProblem(listener) {
  listeners.add(listener);
}
