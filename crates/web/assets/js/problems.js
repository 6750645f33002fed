// The problems the page starts with, and the matrix the reader typed in section 1 (shared
// with the stepper of section 2).

/** Knuth's example from "Dancing Links" (2000): its only exact cover is rows 1, 4 and 5. */
export const KNUTH = {
  id: 'knuth',
  name: 'Knuth\u2019s 6\u00d77 matrix',
  text: [
    '| Knuth\u2019s example from "Dancing Links" (2000): seven columns A-G, six rows',
    'A B C D E F G',
    'C E F',
    'A D G',
    'B C F',
    'A D',
    'B G',
    'D E G',
    '',
  ].join('\n'),
};

/** No row has a 1 in column C, so nothing can cover it. */
export const UNSOLVABLE = {
  id: 'unsolvable',
  name: 'Unsolvable 3\u00d73',
  text: [
    '| Column C is all zeros: no choice of rows covers it',
    'A B C',
    'A',
    'B',
    'A B',
    '',
  ].join('\n'),
};

/** The small matrix whose links section 4 builds: four rows, three columns. */
export const SMALL = {
  id: 'small',
  name: '4\u00d73 matrix',
  text: ['| Four rows over three columns', 'A B C', 'A C', 'B C', 'A B', 'B', ''].join('\n'),
};

export const PRESETS = [KNUTH, UNSOLVABLE];

// The reader's own matrix: {name, text} once loaded in section 1, else null.
let custom = null;
const listeners = new Set();

export function customProblem() {
  return custom;
}

export function setCustomProblem(text) {
  custom = { id: 'custom', name: 'Your matrix (from section 1)', text };
  for (const listener of listeners) listener(custom);
}

export function onCustomProblem(listener) {
  listeners.add(listener);
}
