//! Integration tests of the web explorer, all in one test binary (as ripgrep does): the JSON
//! API over real HTTP, its bounds, a load test, and end-to-end tests in a headless Chromium.

mod util;

mod api;
mod browser;
mod docs_api;
mod fuzzed;
mod i18n;
mod limits;
mod load;
mod params;
mod puzzles;
mod sudoku_seed;
mod visual;
