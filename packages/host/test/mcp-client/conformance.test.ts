/**
 * The official conformance suite's client scenarios against the host's MCP connection (from the
 * build), one at a time: in parallel on two cores `sse-retry` fails on timing.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hostDir, requireCurrentBuild } from '../support/built-host';
import { requireMcpPeers } from '../support/mcp-peers';
import { tempDir } from '../../src/testkit/temp-host';

const run = promisify(execFile);
const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

beforeAll(() => requireCurrentBuild());

it.each(SCENARIOS)('passes client scenario %s', async (scenario) => {
  const peers = requireMcpPeers();
  const out = tempDir('cowork-conformance-');
  try {
    const client = `${process.execPath} ${join(hostDir, 'test', 'mcp-client', 'conformance-client.js')}`;
    const { stdout, stderr } = await run(peers.node, [peers.conformance, 'client', '--command', client, '--scenario', scenario, '-o', out.path], { timeout: 60_000 });
    expect(`${stdout}${stderr}`).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
  } finally {
    out.cleanup();
  }
}, 90_000);
