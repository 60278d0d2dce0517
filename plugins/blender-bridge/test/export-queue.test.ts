// Invariant: Blender work on a scene that no session in this process shows (after a restart, or an
// older revision) goes through one queue: one Blender per scene at a time, identical concurrent
// requests share one result, short-lived Blenders in the process are capped, and a request that
// would wait too long, or join too long a queue, fails with `busy` (503 over HTTP) having started
// nothing. Concurrent commits of a scene whose Blender is not open start one Blender job.
import { rmSync } from 'node:fs';
import { isCoworkError, type Json } from '@cowork/host';
import { createServer, type CoworkServer } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { blenderBridgePlugin, closeHostAndStopBlender, type SceneQueueLimits } from '../src';
import { initialScene, type Scene } from '../src/content';
import { applySceneOp } from '../src/ops';
import { untilABlenderRuns, watchBlenders } from './blenders';
import { gltfNodeNames } from './glb';
import { distinctColours } from './png';

const KIND = 'blender.scene';
const TOKEN = 'blender-queue-test-token-0123456789';

/** A scene of its own: the initial box moved to x = `i`. */
const sceneNo = (i: number): Scene => applySceneOp(initialScene(), { type: 'set_transform', object: 'Cube', location: [i, 0, 1] });

async function openHost(limits: Partial<SceneQueueLimits>): Promise<TempHost> {
  return openTempHost({ plugins: [blenderBridgePlugin(limits)], externalPollMs: 0, prefix: 'cowork-blender-queue-' });
}

async function closeHost(host: TempHost): Promise<void> {
  await closeHostAndStopBlender(host);
  rmSync(host.dir, { recursive: true, force: true, maxRetries: 10 });
}

const createScene = async (host: TempHost, i: number): Promise<string> =>
  (await host.resources.create({ kind: KIND, content: sceneNo(i) as unknown as Json, operator: 'human:ann' })).id;

const settle = <T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> =>
  promise.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

describe('Blender work on scenes with no open session', () => {
  let host: TempHost;
  let server: CoworkServer;
  let url: string;

  beforeAll(async () => {
    host = await openHost({ maxBlenders: 3 });
    server = await createServer({ host, token: TOKEN, port: 0, onError: () => undefined });
    url = (await server.listen()).url;
  });

  afterAll(async () => {
    await server?.close();
    if (host) await closeHost(host);
  });

  const get = (path: string): Promise<Response> => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });

  it('answers ten concurrent PNG exports of one scene over HTTP from one Blender, all with the same picture', async () => {
    const id = await createScene(host, 0);
    const { result, peak, started } = await watchBlenders(() =>
      Promise.all(Array.from({ length: 10 }, async () => {
        const response = await get(`/api/resources/${id}/export/png`);
        return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
      })),
    );
    expect(result.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(distinctColours(result[0]!.body)).toBeGreaterThan(10);
    for (const r of result) expect(r.body.equals(result[0]!.body)).toBe(true);
    expect(peak).toBe(1);
    expect(started).toBe(1);
  });

  it('runs the exports of one scene one at a time: two scenes exported as PNG and GLB each use two Blenders at most', async () => {
    const ids = [await createScene(host, 1), await createScene(host, 2)];
    const { result, peak } = await watchBlenders(() => Promise.all(ids.flatMap((id) => [host.exports.export(id, 'png'), host.exports.export(id, 'glb')])));
    expect(peak).toBeLessThanOrEqual(2); // maxBlenders is 3: the per-scene queue is what holds it to 2
    for (const at of [0, 2]) {
      expect(distinctColours(result[at]!.data)).toBeGreaterThan(10);
      expect(await gltfNodeNames(result[at + 1]!.data)).toContain('Cube');
    }
  });

  it('shares one Blender among concurrent support checks of one scene', async () => {
    const id = await createScene(host, 3);
    const tool = host.registry.tool('blender_check_support')!.tool;
    const check = () =>
      tool.handler({ resourceId: id } as never, { operator: 'agent:checker', signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } });
    const { result, peak, started } = await watchBlenders(() => Promise.all([check(), check(), check(), check()]));
    for (const r of result) expect(r.content).toEqual({ resourceId: id, scene: 'revision 0', findings: [] });
    expect(peak).toBe(1);
    expect(started).toBe(1);
  });

  it('starts one Blender job when commits and syncs of a scene whose Blender is not open arrive at once', async () => {
    const id = await createScene(host, 4);
    const commit = host.resources.commit(id, { baseRevision: 0, op: { type: 'set_transform', object: 'Cube', location: [4, 0, 2] }, operator: 'agent:a' });
    await Promise.all([commit, ...Array.from({ length: 5 }, () => host.resources.syncExternal(id))]);
    const jobs = (await host.jobs.list()).filter((job) => job.command === 'blender');
    expect(jobs).toHaveLength(1);
    expect((await host.resources.get(id)).revision).toBe(1);
  });
});

describe('limits on Blender work on scenes', () => {
  it('with one Blender for the process, exports three scenes one after another', async () => {
    const host = await openHost({ maxBlenders: 1 });
    try {
      const ids = [await createScene(host, 0), await createScene(host, 1), await createScene(host, 2)];
      const { result, peak } = await watchBlenders(() => Promise.all(ids.map((id) => host.exports.export(id, 'glb'))));
      expect(peak).toBe(1);
      for (const r of result) expect(await gltfNodeNames(r.data)).toContain('Cube');
    } finally {
      await closeHost(host);
    }
  });

  it('answers busy (503 over HTTP) to a request that waited longer than waitMs, and starts no Blender for it', async () => {
    const waitMs = 200;
    const host = await openHost({ waitMs });
    const server = await createServer({ host, token: TOKEN, port: 0, onError: () => undefined });
    try {
      const { url } = await server.listen();
      const id = await createScene(host, 0);
      const { result, started } = await watchBlenders(async () => {
        const first = settle(host.exports.export(id, 'png'));
        await untilABlenderRuns(); // the first export has the scene's turn; the next one waits behind it
        const second = await fetch(`${url}/api/resources/${id}/export/glb`, { headers: { authorization: `Bearer ${TOKEN}` } });
        return { first: await first, second: { status: second.status, body: (await second.json()) as { error: { code: string; waitedMs: number; queued: number } } } };
      });
      expect(result.first.ok).toBe(true);
      expect(result.second.status).toBe(503);
      expect(result.second.body.error).toMatchObject({ code: 'busy', queued: 1 });
      expect(result.second.body.error.waitedMs).toBeGreaterThanOrEqual(waitMs);
      expect(started).toBe(1);
      // The queue is free again: the same request now succeeds.
      expect(await gltfNodeNames((await host.exports.export(id, 'glb')).data)).toContain('Cube');
    } finally {
      await server.close();
      await closeHost(host);
    }
  });

  it('refuses at once a request beyond maxQueued, while one identical to a waiting request shares it', async () => {
    const host = await openHost({ maxBlenders: 1, maxQueued: 1 });
    try {
      const id = await createScene(host, 0);
      const running = host.exports.export(id, 'png');
      await untilABlenderRuns(); // it runs: nothing waits
      const waiting = [settle(host.exports.export(id, 'glb')), settle(host.exports.export(id, 'blend'))];
      // One of the two waits (the queue holds one); the other is refused without waiting.
      const refused = await Promise.race(waiting.map((p, i) => p.then((r) => (r.ok ? new Promise<never>(() => undefined) : { i, error: r.error }))));
      expect(isCoworkError(refused.error) && refused.error.code).toBe('busy');
      expect((refused.error as { details: Record<string, unknown> }).details).toMatchObject({ waitedMs: 0, queued: 1, maxQueued: 1 });
      const format = refused.i === 0 ? 'blend' : 'glb';
      const shared = settle(host.exports.export(id, format)); // identical to the waiting one: shares it, not refused
      const [queued, again] = [await waiting[1 - refused.i]!, await shared];
      expect(queued.ok && again.ok).toBe(true);
      if (queued.ok && again.ok) expect(Buffer.from(again.value.data).equals(Buffer.from(queued.value.data))).toBe(true);
      await running;
    } finally {
      await closeHost(host);
    }
  });
});
