// The HTTP API, same origin, authenticated by the session cookie (sent because it is same-origin).

/** A failed request: `code` and `details` are the server's `{"error": {...}}`. */
export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || 'http_error';
    this.hint = error.hint || '';
    this.details = error;
  }
}

/** One JSON request; resolves with the parsed body (null for 204), rejects with ApiError. */
export function api(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return send(path, init);
}

/** Sends a file's bytes (an import); resolves with the parsed body, rejects with ApiError. */
export function upload(url, file) {
  return send(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/octet-stream' }, body: file });
}

async function send(url, init) {
  const response = await fetch(url, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** `/api/...` with each path segment encoded. */
export function path(...segments) {
  return '/api/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
}

const OPERATOR = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

/** Who signed in (GET /api/me): a person's writes are always theirs; the owner names whom it acts for. */
let identity = null;

export function setIdentity(me) {
  identity = me;
}

/** The signed-in person's operator; for the owner, `human:<name>` from the name field (default `human:web`). */
export function operator() {
  if (identity && identity.kind === 'person') return identity.operator;
  const name = document.getElementById('operator-name').value.trim();
  return `human:${OPERATOR.test(name) ? name : 'web'}`;
}

/** What a person reads for a failure: the message and the server's hint. */
export function describe(error) {
  if (error instanceof ApiError) return `${error.code}: ${error.message}${error.hint ? ` (${error.hint})` : ''}`;
  return String((error && error.message) || error);
}

/** Commits one op on the revision the person read, as the person named in the page. */
export function commitOp(resourceId, baseRevision, op) {
  return api('POST', path('resources', resourceId, 'commits'), { baseRevision, op, operator: operator() });
}

