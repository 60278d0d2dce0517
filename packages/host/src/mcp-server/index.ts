/** The host served over MCP (issue 14): edges build an `McpHostServer`, then serve it over HTTP sessions or stdio. */
export { McpHostServer, type McpHostOptions } from './host-server';
export { McpHttpSessions, rpcError, type HttpSessionOptions } from './http-sessions';
export { serveStdio } from './stdio';
export type { McpTaskPort } from './task-port';
export { authInfoFor, MCP_OPERATOR } from './operator';
