// The page's sections, in order. The navigation, the hash routes (#matrix, ...) and the
// number keys are built from this list: a new view is one module in this folder, one entry
// here, and one line in the asset table of the server (src/assets.rs).
//
// A view module exports mount(section) and returns {onKey?(event) -> handled, shown?()}.

export const VIEWS = [
  { id: 'matrix', title: 'Exact cover', load: () => import('./matrix.js') },
  { id: 'stepper', title: 'Algorithm X', load: () => import('./stepper.js') },
  { id: 'links', title: 'Link dance', load: () => import('./links.js') },
  { id: 'build', title: '2D links', load: () => import('./build.js') },
  { id: 'sudoku', title: 'Sudoku', load: () => import('./sudoku.js') },
  { id: 'queens', title: 'N queens', load: () => import('./queens.js') },
  { id: 'tiling', title: 'Tilings', load: () => import('./tiling.js') },
];
