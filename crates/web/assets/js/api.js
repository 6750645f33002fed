// The JSON API of `dancecard serve`. Every call posts the problem as text and gets JSON back;
// errors come back as {"error": "..."} and are thrown as ApiError with that message.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

async function post(path, params, body) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null) query.set(key, String(value));
  }
  const url = query.size ? `${path}?${query}` : path;
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body,
    });
  } catch (e) {
    throw new ApiError(0, 'the server cannot be reached: is `dancecard serve` still running?');
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new ApiError(response.status, `the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new ApiError(response.status, data.error ?? `error ${response.status}`);
  return data;
}

/** The problem as items and options: {items: [{name, primary}], options: [{index, label, items}]}. */
export function parse(text) {
  return post('/api/parse', null, text);
}

/** `dancecard solve --format json` over HTTP: mode is first, all or count. */
export function solve(text, { mode = 'first', limit, heuristic = 'mrv' } = {}) {
  return post('/api/solve', { mode, limit, heuristic }, text);
}

/** The problem and the events of its search, with the node count at each. */
export function trace(text, { heuristic = 'mrv', limit } = {}) {
  return post('/api/trace', { heuristic, limit }, text);
}
