// Invariant: a process starts at most `maxStarting` long-lived Blenders at once, whatever opens
// them (commits, syncs, the poll), so that scenes opened together after a host restart all come
// up; a start that waits longer than `waitMs` for its turn answers `busy` (503) having started
// nothing, and a Blender whose bridge never listens answers `external_unavailable` (503, with the
// reason), never `plugin_failed`.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCoworkError, type Json } from '@cowork/host';
import { Host, createServer, type CoworkServer } from '@cowork/host/embed';
import { blenderBridgePlugin, closeHostAndStopBlender, type SceneQueueLimits } from '../src';
import { socketPathFor } from '../src/bridge/blender-process';
import { initialScene } from '../src/content';
import { applySceneOp } from '../src/ops';
import { watchStarts } from './blenders';

const KIND = 'blender.scene';
const TOKEN = 'blender-starts-test-token-0123456789';
const SCENES = 6;

interface Served {
  readonly host: Host;
  readonly server: CoworkServer;
  readonly url: string;
}

async function serve(dir: string, limits: Partial<SceneQueueLimits>): Promise<Served> {
  const host = await Host.open({ workspaceDir: dir, plugins: [blenderBridgePlugin(limits)], externalPollMs: 0 });
  const server = await createServer({ host, token: TOKEN, port: 0, onError: () => undefined });
  return { host, server, url: (await server.listen()).url };
}

async function stop(served: Served | undefined): Promise<void> {
  if (!served) return;
  await served.server.close();
  await closeHostAndStopBlender(served.host);
}

/** A commit over HTTP, as a client sends it: the status and the body. */
async function commit(served: Served, id: string, baseRevision: number, op: Json): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${served.url}/api/resources/${id}/commits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ baseRevision, op, operator: 'agent:starter' }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const move = (i: number): Json => ({ type: 'set_transform', object: 'Cube', location: [i, 0, 2] });

describe('Blender starts in one process', () => {
  let dir: string;
  let served: Served | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cowork-blender-starts-'));
  });

  afterEach(async () => {
    await stop(served);
    served = undefined;
    rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
  });

  it(`brings up ${SCENES} scenes opened at once, before and after a host restart, starting at most maxStarting Blenders at a time`, async () => {
    served = await serve(dir, { maxStarting: 2 });
    const ids: string[] = [];
    for (let i = 0; i < SCENES; i++) {
      const content = applySceneOp(initialScene(), { type: 'set_transform', object: 'Cube', location: [i, 0, 1] });
      ids.push((await served.host.resources.create({ kind: KIND, content: content as unknown as Json, operator: 'human:ann' })).id);
    }
    // First opens at once (each builds its scene and saves it): syncs, as the poll or a reader does.
    const first = await watchStarts(dir, () => Promise.all(ids.map((id) => served!.host.resources.syncExternal(id))));
    expect(first.started).toBe(SCENES);
    expect(first.peak).toBeLessThanOrEqual(2);

    // The host restarts with every Blender stopped; a client then commits to every scene at once.
    await stop(served);
    served = await serve(dir, { maxStarting: 2 });
    const again = await watchStarts(dir, () => Promise.all(ids.map((id, i) => commit(served!, id, 0, move(i)))));
    expect(again.result.map((r) => r.status)).toEqual(Array(SCENES).fill(200));
    expect(again.result.map((r) => r.body.revision)).toEqual(Array(SCENES).fill(1));
    expect(again.started).toBe(SCENES);
    expect(again.peak).toBeLessThanOrEqual(2);
    for (const [i, id] of ids.entries()) {
      const scene = (await served.host.resources.get(id)).content as { objects: { name: string; location: number[] }[] };
      expect(scene.objects.find((o) => o.name === 'Cube')?.location).toEqual([i, 0, 2]);
    }
  });

  it('answers busy (503) to a commit whose Blender waited longer than waitMs for its turn to start, and starts nothing for it', async () => {
    served = await serve(dir, { maxStarting: 1, waitMs: 1 });
    const ids = [
      (await served.host.resources.create({ kind: KIND, operator: 'human:ann' })).id,
      (await served.host.resources.create({ kind: KIND, operator: 'human:ann' })).id,
    ];
    const { result, started } = await watchStarts(dir, () => Promise.all(ids.map((id, i) => commit(served!, id, 0, move(i)))));
    expect(result.map((r) => r.status).sort()).toEqual([200, 503]);
    const refused = result.findIndex((r) => r.status === 503);
    expect(result[refused]!.body.error).toMatchObject({ code: 'busy', resourceId: ids[refused], waitLimitMs: 1, maxStarting: 1 });
    expect(started).toBe(1);
    expect((await served.host.resources.get(ids[refused]!)).revision).toBe(0);
    // Nothing waits now: the same commit succeeds.
    expect(await commit(served, ids[refused]!, 0, move(refused))).toMatchObject({ status: 200, body: { revision: 1 } });
  });

  it('answers external_unavailable with the reason when the bridge cannot listen, and comes up once it can', async () => {
    served = await serve(dir, {});
    const { id } = await served.host.resources.create({ kind: KIND, operator: 'human:ann' });
    // Something in the way of the bridge's socket: Blender starts, its bridge cannot listen.
    const blocker = `${socketPathFor(join(dir, 'resources', id))}.tmp`;
    mkdirSync(blocker, { recursive: true });
    const failed = await commit(served, id, 0, move(1));
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({ code: 'external_unavailable', reason: 'blender_start_failed', resourceId: id });
    expect(String((failed.body.error as { message: string }).message)).toMatch(/could not listen/);
    const inProcess = await served.host.resources.commit(id, { baseRevision: 0, op: move(1), operator: 'agent:starter' }).catch((e: unknown) => e);
    expect(isCoworkError(inProcess) && inProcess.code === 'external_unavailable' && inProcess.retryable).toBe(true);

    rmSync(blocker, { recursive: true });
    expect(await commit(served, id, 0, move(1))).toMatchObject({ status: 200, body: { revision: 1 } });
  });
});
