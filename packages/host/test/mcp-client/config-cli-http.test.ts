/**
 * Managing mounted servers: `cowork mcp add|list|remove` and /api/mcp/servers write mcp.json only
 * for valid input; a bad entry, a taken name or an unknown server is a clear coded error and
 * leaves the file as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../src/host';
import { jsonOf, runCli, tempDir, type ErrorJson } from '../cli/cli-harness';
import { body, startTestServer, type TestServer } from '../server/harness';

const dirs: { cleanup: () => void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));
function workspace(): string {
  const dir = tempDir('cowork-mcp-cli-');
  dirs.push(dir);
  return dir.path;
}

describe('cowork mcp', () => {
  it('adds stdio and HTTP servers, lists and removes them', async () => {
    const ws = workspace();
    const add = await runCli(['mcp', 'add', 'everything', '--workspace', ws, '--json', '--', 'npx', '-y', '@modelcontextprotocol/server-everything']);
    expect(add.code).toBe(0);
    const http = await runCli(['mcp', 'add', 'remote', '--workspace', ws, '--url', 'http://127.0.0.1:3301/mcp', '--header', 'Authorization: Bearer t0ken', '--json']);
    expect(http.code).toBe(0);
    expect(http.stdout).not.toContain('t0ken');
    const file = JSON.parse(readFileSync(join(ws, 'mcp.json'), 'utf8'));
    expect(file).toEqual({
      mcpServers: {
        everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
        remote: { url: 'http://127.0.0.1:3301/mcp', headers: { Authorization: 'Bearer t0ken' } },
      },
    });
    const list = jsonOf<{ servers: { name: string; transport: string }[] }>(await runCli(['mcp', 'list', '--workspace', ws, '--json']));
    expect(list.servers.map((s) => [s.name, s.transport])).toEqual([['everything', 'stdio'], ['remote', 'http']]);
    expect((await runCli(['mcp', 'remove', 'remote', '--workspace', ws])).code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(ws, 'mcp.json'), 'utf8')).mcpServers)).toEqual(['everything']);
  });

  it('refuses bad input with a coded error and writes nothing', async () => {
    const ws = workspace();
    const cases: [string[], string][] = [
      [['mcp', 'add', 'Bad Name', '--', 'node'], 'invalid_config'],
      [['mcp', 'add', 'nothing'], 'invalid_input'],
      [['mcp', 'add', 'both', '--url', 'http://x/mcp', '--', 'node'], 'invalid_input'],
      [['mcp', 'add', 'ftp', '--url', 'ftp://x/mcp'], 'invalid_config'],
      [['mcp', 'add', 'slow', '--timeout-ms', 'soon', '--', 'node'], 'invalid_config'],
      [['mcp', 'remove', 'ghost'], 'not_found'],
    ];
    for (const [args, code] of cases) {
      const run = await runCli([...args.slice(0, 3), '--workspace', ws, '--json', ...args.slice(3)]);
      expect([args.join(' '), jsonOf<ErrorJson>(run).error.code]).toEqual([args.join(' '), code]);
    }
    expect(existsSync(join(ws, 'mcp.json'))).toBe(false);

    expect((await runCli(['mcp', 'add', 'one', '--workspace', ws, '--', 'node'])).code).toBe(0);
    const before = readFileSync(join(ws, 'mcp.json'), 'utf8');
    const duplicate = await runCli(['mcp', 'add', 'one', '--workspace', ws, '--json', '--', 'other']);
    expect(jsonOf<ErrorJson>(duplicate).error).toMatchObject({ code: 'already_exists', name: 'one' });
    expect(readFileSync(join(ws, 'mcp.json'), 'utf8')).toBe(before);
  });

  it('reports a broken mcp.json clearly, and the host still opens without those servers', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'mcp.json'), '{"mcpServers": {"x": {"command": 3, "extra": true}}}');
    const list = jsonOf<ErrorJson>(await runCli(['mcp', 'list', '--workspace', ws, '--json']));
    expect(list.error.code).toBe('invalid_config');
    expect(list.error.problems).toEqual(['server "x": unknown field "extra" (allowed: command, args, env, cwd, sampling, timeoutMs)', 'server "x": "command" must be a non-empty string']);
    writeFileSync(join(ws, 'mcp.json'), '{not json');
    expect(jsonOf<ErrorJson>(await runCli(['mcp', 'add', 'y', '--workspace', ws, '--json', '--', 'node'])).error.code).toBe('invalid_config');
    expect(readFileSync(join(ws, 'mcp.json'), 'utf8')).toBe('{not json');
    const host = await Host.open({ workspaceDir: ws, pollMonitors: false });
    try {
      expect(host.pluginProblems.map((p) => p.plugin)).toContain('mcp.json');
    } finally {
      await host.close();
    }
  });
});

describe('/api/mcp/servers', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.dispose());

  it('adds, lists and removes; bad input is a coded error and writes nothing', async () => {
    const file = join(t.host.workspaceDir, 'mcp.json');
    const bad = [
      { name: 'ok', server: { command: '' } },
      { name: 'ok', server: { url: 'not a url' } },
      { name: 'UPPER', server: { command: 'node' } },
      { name: 'ok', server: { command: 'node', url: 'http://x/' } },
      { name: 'ok', server: { command: 'node', sampling: 'yes' } },
    ];
    for (const payload of bad) {
      const response = await t.request({ method: 'POST', url: '/api/mcp/servers', payload });
      expect([payload, response.statusCode, body<ErrorJson>(response).error.code]).toEqual([payload, 400, 'invalid_config']);
    }
    expect(existsSync(file)).toBe(false);

    const added = await t.request({ method: 'POST', url: '/api/mcp/servers', payload: { name: 'files', server: { command: 'node', args: ['x.js'], env: { TOKEN: 's3cret' } } } });
    expect(added.statusCode).toBe(201);
    expect(body(added)).toMatchObject({ name: 'files', transport: 'stdio', config: { env: { TOKEN: '***' } } });
    const before = readFileSync(file, 'utf8');
    const duplicate = await t.request({ method: 'POST', url: '/api/mcp/servers', payload: { name: 'files', server: { command: 'other' } } });
    expect([duplicate.statusCode, body<ErrorJson>(duplicate).error.code]).toEqual([409, 'already_exists']);
    expect(readFileSync(file, 'utf8')).toBe(before);

    const list = body<{ servers: { name: string }[] }>(await t.request({ method: 'GET', url: '/api/mcp/servers' }));
    expect(list.servers.map((s) => s.name)).toEqual(['files']);
    const unknown = await t.request({ method: 'DELETE', url: '/api/mcp/servers/ghost' });
    expect([unknown.statusCode, body<ErrorJson>(unknown).error.code]).toEqual([404, 'not_found']);
    const approveUnknown = await t.request({ method: 'POST', url: '/api/mcp/servers/ghost/approve' });
    expect(approveUnknown.statusCode).toBe(404);
    const approveUnloaded = await t.request({ method: 'POST', url: '/api/mcp/servers/files/approve' });
    expect([approveUnloaded.statusCode, body<ErrorJson>(approveUnloaded).error.code]).toEqual([503, 'external_unavailable']);
    const answer = await t.request({ method: 'POST', url: '/api/mcp/elicitations/nope', payload: { action: 'accept', content: {} } });
    expect(answer.statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: '/api/mcp/servers/files' })).statusCode).toBe(200);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ mcpServers: {} });
  });
});
