/**
 * The host's error registry: every error that leaves the host carries one of these codes.
 * A code is stable: it is never renamed and a retired code is never reused. `docs/errors.md`
 * lists the same codes, and a test keeps the two in sync.
 */
export interface ErrorCodeInfo {
  /** HTTP status this error maps to on the wire. */
  readonly status: number;
  /** True when the same request may succeed if simply repeated later. */
  readonly retryable: boolean;
  /** What the caller should do about it. */
  readonly hint: string;
}

export const ERROR_CODES = {
  invalid_input: {
    status: 400,
    retryable: false,
    hint: 'Fix the request so that it matches the documented shape, then send it again.',
  },
  invalid_json: {
    status: 400,
    retryable: false,
    hint: 'Send well-formed JSON.',
  },
  invalid_op: {
    status: 400,
    retryable: false,
    hint: "Rewrite the op so that the resource kind accepts it; the details list the kind's complaints.",
  },
  invalid_content: {
    status: 400,
    retryable: false,
    hint: "Make the content match the kind's content schema.",
  },
  content_too_large: {
    status: 413,
    retryable: false,
    hint: 'Keep the content under the size limit, or raise the limit in the host configuration.',
  },
  unknown_kind: {
    status: 400,
    retryable: false,
    hint: 'Use one of the kinds listed by `cowork plugins`, or load the plugin that provides it.',
  },
  not_found: {
    status: 404,
    retryable: false,
    hint: 'Check the id; list what exists first.',
  },
  revision_conflict: {
    status: 409,
    retryable: false,
    hint: 'Someone committed first. Re-read the resource, rebase your change onto currentRevision and retry; a rejected op is kept as the candidate named in candidateId.',
  },
  candidate_closed: {
    status: 409,
    retryable: false,
    hint: 'The candidate was already accepted, rejected or discarded; list open candidates instead.',
  },
  invalid_transition: {
    status: 409,
    retryable: false,
    hint: 'The task or assignment is not in a state that allows this; read its state first.',
  },
  permission_denied: {
    status: 403,
    retryable: false,
    hint: 'Ask the owner (Main) for the permission, or act only on what was granted.',
  },
  invalid_plugin: {
    status: 500,
    retryable: false,
    hint: "Fix the plugin's manifest; the details name the plugin and the problem.",
  },
  plugin_failed: {
    status: 500,
    retryable: false,
    hint: 'A plugin threw while handling the request; the details name the plugin and what it was doing.',
  },
  store_busy: {
    status: 503,
    retryable: true,
    hint: 'Another process holds the workspace database; retry shortly.',
  },
  store_failed: {
    status: 500,
    retryable: false,
    hint: "The workspace database reported an error; check the disk and the workspace's cowork.db (the details carry SQLite's code), or the PostgreSQL server's log (details.pgCode).",
  },
  store_io_error: {
    status: 507,
    retryable: false,
    hint: "The disk is full or failed while the workspace was being written (details.sqliteCode or details.errno), so this write was not acknowledged. Disk full: free space, then retry. I/O error (a failed fsync): check the disk and restart the host; until then it refuses the workspace's reads and writes, and on restart SQLite recovers the database from its log, which may or may not keep the failed write, so re-read before retrying.",
  },
  store_unavailable: {
    status: 503,
    retryable: true,
    hint: "The workspace's PostgreSQL server could not be reached or dropped the connection (details.pgCode). Check that it is up; the host reconnects by itself. A write answered with this may or may not have committed: re-read, or retry with the same idempotency key.",
  },
  schema_too_new: {
    status: 500,
    retryable: false,
    hint: 'The workspace was written by a newer cowork; upgrade cowork before opening it.',
  },
  internal: {
    status: 500,
    retryable: false,
    hint: 'An unexpected error; report it with the log.',
  },
  model_not_configured: {
    status: 400,
    retryable: false,
    hint: 'Set COWORK_MODEL_BASE_URL (like http://127.0.0.1:8000/v1) and COWORK_MODEL, or COWORK_REPLAY to play a recording.',
  },
  model_unavailable: {
    status: 503,
    retryable: true,
    hint: 'The model server could not be reached or kept failing (network error, 5xx or 429) after the retries; check that it is up, then retry.',
  },
  model_timeout: {
    status: 504,
    retryable: true,
    hint: 'The model server did not answer in time; retry, or raise COWORK_MODEL_TIMEOUT_MS for long generations.',
  },
  model_rejected: {
    status: 502,
    retryable: false,
    hint: 'The model server refused the request; the details carry its status and message (a wrong model name, a bad key, a context that is too long).',
  },
  replay_mismatch: {
    status: 500,
    retryable: false,
    hint: 'The replayed session asked something the recording does not hold (a different request, or more turns); re-record the session.',
  },
  command_not_found: {
    status: 400,
    retryable: false,
    hint: 'Name a program that exists: an executable on PATH, or a path to one (relative to the working directory). Commands are not run through a shell; use ["sh", "-c", "..."] for shell syntax.',
  },
  unauthorized: {
    status: 401,
    retryable: false,
    hint: 'Send `Authorization: Bearer <token>` (the token is COWORK_TOKEN, or the one `cowork serve` stored in <workspace>/server-token), or sign in with POST /api/session; a WebSocket may use a fresh ticket from POST /api/ws-tickets.',
  },
  denied: {
    status: 403,
    retryable: false,
    hint: 'A person denied this high-impact action (details name who and why). Do not retry it as it is: ask the person, or reach the goal another way.',
  },
  forbidden: {
    status: 403,
    retryable: false,
    hint: 'Your credential may not do this: a person acts only as themselves (leave `operator` out, or name your own `human:<name>`), a viewer only reads, and only the owner manages users. Ask the owner for another role.',
  },
  forbidden_origin: {
    status: 403,
    retryable: false,
    hint: "Call the server by the address it listens on (the Host header must name it or localhost) and only from its own pages (the Origin header, when sent, must be the server's own).",
  },
  unknown_format: {
    status: 404,
    retryable: false,
    hint: "Ask for one of the formats the resource's kind exports (`details.formats`).",
  },
  invalid_file: {
    status: 422,
    retryable: false,
    hint: 'The file is not a readable instance of the format (corrupt, truncated or another format); `details.problems` says what is wrong. Nothing was created: bring a file that opens in its own application.',
  },
  external_unavailable: {
    status: 503,
    retryable: true,
    hint: 'The outside application that holds this resource (Blender), or the mounted MCP server that serves this tool, could not be reached or restarted; `details.reason` says why. Nothing was recorded: retry once it runs again (a mounted server is restarted with backoff).',
  },
  idempotency_key_reused: {
    status: 422,
    retryable: false,
    hint: 'This idempotency key was already used for a different request (another resource, op, operator or kind). Use a new key for a new request; repeat a request only with exactly the same body.',
  },
  busy: {
    status: 503,
    retryable: true,
    hint: 'The application that serves this request is working on others and the wait was too long (`details.waitedMs`, `details.queued`). Nothing was done: retry later.',
  },
  plugin_timeout: {
    status: 422,
    retryable: false,
    hint: "The plugin's work on this request did not finish within its time limit (`details.limitMs`) and was stopped; nothing was written. Simplify the request (smaller counts, sizes the application can handle) or raise the plugin's limit.",
  },
  request_timeout: {
    status: 408,
    retryable: true,
    hint: 'The request (headers and body) did not arrive in full within the server\'s time limit, so the connection was closed and nothing was done. Send the whole request without pauses; for a slow link, raise COWORK_REQUEST_TIMEOUT_MS on the server.',
  },
  unknown_tool: {
    status: 400,
    retryable: false,
    hint: 'The model called a tool that does not exist (or is not one of this agent\'s); `message` lists the tools it has. Answered to the model as a tool error, which it can correct.',
  },
  tool_failed: {
    status: 500,
    retryable: false,
    hint: 'A tool failed with an error that is not one of the host\'s coded errors; `message` says what went wrong. Answered to the model as a tool error; the task goes on.',
  },
  invalid_config: {
    status: 400,
    retryable: false,
    hint: 'A configuration file or entry (like `<workspace>/mcp.json`) is not valid; `details.problems` lists why and `details.path` names the file. Nothing was written: fix it and try again.',
  },
  already_exists: {
    status: 409,
    retryable: false,
    hint: 'Something with that name already exists (`details.name`); nothing was written. Pick another name, or remove the existing one first.',
  },
  tool_held: {
    status: 409,
    retryable: false,
    hint: 'The MCP tool changed (description or schema) after a person approved its server, so its calls are held; `details.server` names the server. A person reviews and approves it again (`cowork mcp approve NAME` or POST /api/mcp/servers/NAME/approve).',
  },
  sandbox_unavailable: {
    status: 503,
    retryable: false,
    hint: "Agents' jobs and command monitors run under bubblewrap, which is not installed here; nothing was started (a sandboxed command never runs unsandboxed). Install it (`apt-get install bubblewrap`, or tools/install-system-deps.sh), then retry.",
  },
  task_leased: {
    status: 409,
    retryable: true,
    hint: 'Another host process is running this task (`details.holder`, `<host>:<pid>:<nonce>`) and holds its lease until `details.leaseExpiresAt` unless it renews it. Leave the task to it; if that process has stopped, resume again after the lease has ended.',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}
