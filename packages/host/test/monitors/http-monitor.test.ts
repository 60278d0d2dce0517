/**
 * Invariant: an HTTP monitor observes status and body (or one JSON value) and emits only on a
 * change. An unreachable URL is an observation, not a crash: polling it stays quiet, and the
 * endpoint coming up is exactly one event.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorMessages, monitorWorkspace, type MonitorWorkspace } from './monitor-harness';

interface Endpoint {
  readonly url: string;
  readonly port: number;
  status: number;
  body: string;
  close(): Promise<void>;
}

/** A local endpoint whose answer the test sets; `port` reuses a given port. */
async function endpoint(port = 0): Promise<Endpoint> {
  const state = { status: 200, body: '{"state":"building","n":1}' };
  const server: Server = createServer((_req, res) => {
    res.writeHead(state.status, { 'content-type': 'application/json' });
    res.end(state.body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${bound}/status`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

let ws: MonitorWorkspace;
const TASK = 'task_http';
beforeEach(async () => {
  ws = await monitorWorkspace();
});
afterEach(() => ws.dispose());

async function checks(id: string, n: number): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < n; i++) results.push((await ws.host.monitors.check(id)).changed);
  return results;
}

describe('http monitor', () => {
  it('emits one event when the status changes', async () => {
    const api = await endpoint();
    try {
      const monitor = await ws.host.monitors.create({ kind: 'http', url: api.url, intervalSeconds: 3600 }, { owner: { taskId: TASK } });
      expect(monitor.observation).toMatchObject({ status: 200, sha256: expect.any(String) });
      expect(await checks(monitor.id, 20)).not.toContain(true);
      api.status = 503;
      expect(await checks(monitor.id, 20)).toEqual([true, ...Array(19).fill(false)]);
      const messages = await monitorMessages(ws.host, TASK, monitor.id);
      expect(messages).toHaveLength(1);
      expect(messages[0]!.body).toMatchObject({ observation: { status: 503 }, previous: { status: 200 } });
    } finally {
      await api.close();
    }
  });

  it('watches one JSON value and ignores the rest of the body', async () => {
    const api = await endpoint();
    try {
      const monitor = await ws.host.monitors.create({ kind: 'http', url: api.url, jsonPath: '$.state', intervalSeconds: 3600 }, { owner: { taskId: TASK } });
      expect(monitor.observation).toEqual({ status: 200, value: 'building' });
      api.body = '{"state":"building","n":2}';
      expect(await checks(monitor.id, 5)).not.toContain(true);
      api.body = '{"state":"done","n":3}';
      expect(await ws.host.monitors.check(monitor.id)).toMatchObject({ changed: true, observation: { status: 200, value: 'done' } });
      expect(await monitorMessages(ws.host, TASK, monitor.id)).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('reports an unreachable URL as an observation, then one event when it comes up', async () => {
    const probe = await endpoint();
    const port = probe.port;
    await probe.close();
    const monitor = await ws.host.monitors.create(
      { kind: 'http', url: `http://127.0.0.1:${port}/status`, intervalSeconds: 3600, timeoutSeconds: 2 },
      { owner: { taskId: TASK } },
    );
    expect(monitor.observation).toMatchObject({ error: 'unreachable', code: 'ECONNREFUSED' });
    expect(await checks(monitor.id, 20)).not.toContain(true);
    expect(await monitorMessages(ws.host, TASK, monitor.id)).toHaveLength(0);

    const api = await endpoint(port);
    try {
      expect(await checks(monitor.id, 5)).toEqual([true, false, false, false, false]);
      const [message] = await monitorMessages(ws.host, TASK, monitor.id);
      expect(message!.body).toMatchObject({ observation: { status: 200 }, previous: { error: 'unreachable' } });
    } finally {
      await api.close();
    }
  });

  it('refuses a URL that is not http(s) and a malformed JSON path', async () => {
    const owner = { owner: { taskId: TASK } };
    await expect(ws.host.monitors.create({ kind: 'http', url: 'ftp://example.com/x' }, owner)).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'url' } });
    await expect(ws.host.monitors.create({ kind: 'http', url: 'http://127.0.0.1:1/', jsonPath: '$.a[' }, owner)).rejects.toMatchObject({
      code: 'invalid_input',
      details: { field: 'jsonPath' },
    });
  });
});
