// The page's sections, in order. The navigation, the hash routes (#matrix, ...) and the
// number keys are built from this list: a new view is one module in this folder, one entry
// here (its title is the key nav.<id> of the dictionaries in ../i18n/), and one line in the
// asset table of the server (src/assets.rs).
//
// A view module exports mount(section) and returns {onKey?(event) -> handled, shown?()}.

import { t } from '../i18n.js';

export const VIEWS = [
  { id: 'matrix', load: () => import('./matrix.js') },
  { id: 'stepper', load: () => import('./stepper.js') },
  { id: 'links', load: () => import('./links.js') },
  { id: 'build', load: () => import('./build.js') },
  { id: 'sudoku', load: () => import('./sudoku.js') },
  { id: 'queens', load: () => import('./queens.js') },
  { id: 'tiling', load: () => import('./tiling.js') },
].map((view) => ({ ...view, title: t(`nav.${view.id}`) }));
