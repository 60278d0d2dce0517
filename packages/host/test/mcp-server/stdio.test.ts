/**
 * Invariant: `cowork mcp serve` (the built bin, as Claude Code or Codex would start it) serves the
 * workspace over stdio: the SDK's client creates, commits and gets a conflict it can act on, is
 * notified of a person's commit made over HTTP by another process on the same workspace, and hands
 * Main a task; the MCP Inspector CLI (Node 22) calls a tool and gets JSON. stdout carries only the
 * protocol, and the process exits when the client closes it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Host } from '../../src/host';
import { createServer } from '../../src/server/create-server';
import { reply, startScriptedModelServer, type ScriptedModelServer } from '../../src/testkit/scripted-model-server';
import { hostDir, requireCurrentBuild } from '../support/built-host';
import { requireMcpPeers } from '../support/mcp-peers';
import { tempDir } from '../support/temp-host';
import { call, eventually } from './mcp-client-helpers';

const BIN = join(hostDir, 'bin', 'cowork.js');
const dir = tempDir('mcp-stdio-');
const workspace = join(dir.path, 'ws');
let model: ScriptedModelServer;

beforeAll(async () => {
  requireCurrentBuild();
  model = await startScriptedModelServer((request) =>
    request.messages.some((m) => m.role === 'tool') ? reply.text('Filed.') : reply.toolCalls([{ name: 'finish', arguments: { summary: 'filed the report' } }]),
  );
});
afterAll(async () => {
  await model?.close();
  dir.cleanup();
});

/** The environment of a spawned `cowork`: no installed plugins (faster), the scripted model. */
function coworkEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('COWORK_')) env[name] = value;
  return { ...env, COWORK_PLUGINS: '', COWORK_MODEL_BASE_URL: model.baseUrl, COWORK_MODEL: 'scripted' };
}

it('serves the workspace to the SDK client over stdio', async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'serve', '--workspace', workspace], env: coworkEnv(), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const id = ((await call(client, 'create_resource', { kind: 'text' })).body.resource as { id: string }).id;
    expect(await call(client, 'commit_resource', { resourceId: id, baseRevision: 0, op: { type: 'append', text: 'a' } })).toEqual({ isError: false, body: { resourceId: id, revision: 1 } });
    const stale = await call(client, 'commit_resource', { resourceId: id, baseRevision: 0, op: { type: 'append', text: 'b' } });
    expect(stale).toMatchObject({ isError: true, body: { error: { code: 'revision_conflict', currentRevision: 1, candidateId: expect.any(String) } } });

    // A person commits over HTTP, on a server another process (here: this one) runs on the same workspace.
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: `cowork://resources/${id}` });
    const other = await Host.open({ workspaceDir: workspace, pollMonitors: false });
    const server = await createServer({ host: other, token: 'test-token-0123456789abcdef', port: 0 });
    try {
      const { url } = await server.listen();
      const response = await fetch(`${url}/api/resources/${id}/commits`, {
        method: 'POST',
        headers: { authorization: 'Bearer test-token-0123456789abcdef', 'content-type': 'application/json' },
        body: JSON.stringify({ baseRevision: 1, op: { type: 'append', text: 'by hand' }, operator: 'human:ann' }),
      });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
      await other.close();
    }
    await eventually(async () => updates, (u) => u.length >= 1, 'the update from the other process');
    expect(updates[0]).toBe(`cowork://resources/${id}`);

    const taskId = (await call(client, 'start_task', { request: 'file the report' })).body.taskId as string;
    const state = await eventually(async () => (await call(client, 'read_task', { taskId })).body, (s) => (s.result as { status: string }).status === 'done', 'the task');
    expect(state.result).toMatchObject({ status: 'done', summary: 'filed the report' });
  } finally {
    await client.close();
  }
  expect(stderr).not.toMatch(/error|Error/);
});

it('answers the MCP Inspector CLI (Node 22) with a tool result as JSON', async () => {
  const peers = requireMcpPeers();
  const home = tempDir('inspector-home-');
  try {
    // `COWORK_PLUGINS=,` names no plugin (the Inspector refuses an empty value).
    const args = [peers.inspector, '--cli', '-e', `COWORK_WORKSPACE=${workspace}`, '-e', 'COWORK_PLUGINS=,', process.execPath, BIN, 'mcp', 'serve'];
    const run = (extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve, reject) => {
        const child = spawn(peers.node, [...args, ...extra], { env: { ...coworkEnv(), HOME: home.path }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const created = await run(['--method', 'tools/call', '--tool-name', 'create_resource', '--tool-arg', 'kind=text']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(created.stdout) as { structuredContent: { resource: { id: string; revision: number } } };
    expect(result.structuredContent.resource).toMatchObject({ revision: 0 });
    const listed = await run(['--method', 'tools/list']);
    expect((JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('commit_resource');
    // A tool error is exit 5 with the error as JSON.
    const failed = await run(['--method', 'tools/call', '--tool-name', 'read_resource', '--tool-arg', 'resourceId=nope']);
    expect(failed.code).toBe(5);
  } finally {
    home.cleanup();
  }
});
