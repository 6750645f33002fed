// The JSON API of `dancecard serve`. Problems and puzzles are posted as text, puzzle
// parameters go in the query string (GET /api/queens, /api/tile); every answer is JSON, and
// errors come back as {"error": "..."} and are thrown as ApiError with that message.

import { t } from './i18n.js';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

async function post(path, params, body) {
  return call('POST', path, params, body);
}

async function get(path, params) {
  return call('GET', path, params);
}

/** A GET whose answer is text (a model in Knuth's DLX format); errors are still JSON. */
async function getText(path, params) {
  return call('GET', path, params, undefined, 'text');
}

async function call(method, path, params, body, as = 'json') {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.set(key, String(value));
  }
  const url = query.size ? `${path}?${query}` : path;
  let response;
  try {
    response = await fetch(url, method === 'POST' ? {
      method,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body,
    } : { method });
  } catch (e) {
    throw new ApiError(0, t('api.unreachable'));
  }
  if (as === 'text') {
    if (response.ok) return response.text();
    let message = t('api.error', { status: response.status });
    try { message = (await response.json()).error ?? message; } catch (e) { /* not JSON */ }
    throw new ApiError(response.status, message);
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new ApiError(response.status, t('api.notJson', { status: response.status }));
  }
  if (!response.ok) throw new ApiError(response.status, data.error ?? t('api.error', { status: response.status }));
  return data;
}

/** The problem as items and options: {items: [{name, primary}], options: [{index, label, items}]}. */
export function parse(text) {
  return post('/api/parse', null, text);
}

/** `dancecard solve --format json` over HTTP: mode is first, all or count (method: search, memo, auto). */
export function solve(text, { mode = 'first', limit, heuristic = 'mrv', method } = {}) {
  return post('/api/solve', { mode, limit, heuristic, method }, text);
}

/** The problem and the events of its search, with the node count at each (at most `limit`
 * events; `solutions`: stop after that many solutions). */
export function trace(text, { heuristic = 'mrv', limit, solutions } = {}) {
  return post('/api/trace', { heuristic, limit, solutions }, text);
}

/** `dancecard sudoku --format json` for one puzzle line: method is dlx or fast. */
export function sudoku(puzzle, { method = 'fast', mode = 'solve' } = {}) {
  return post('/api/sudoku', { method, mode }, puzzle);
}

/** `dancecard queens N --format json`: mode is first, all or count. */
export function queens(n, { mode = 'all', method, limit } = {}) {
  return get('/api/queens', { n, mode, method, limit });
}

/** `dancecard tile --format json`, with each tiling's placements for drawing. */
export function tile({ board, pieces, once = false, flips = true, mode = 'all', limit } = {}) {
  return get('/api/tile', { board, pieces, once, flips, mode, limit });
}

/** `dancecard queens N --emit-dlx`: the board's exact cover model as DLX text. */
export function queensDlx(n) {
  return getText('/api/queens/dlx', { n });
}

/** `dancecard tile --emit-dlx`: the tiling's exact cover model as DLX text. */
export function tileDlx({ board, pieces, once = false }) {
  return getText('/api/tile/dlx', { board, pieces, once });
}

/** `dancecard target-sudoku --format json`: the best score and a grid with it. */
export function targetSudoku(text) {
  return post('/api/target-sudoku', null, text);
}
