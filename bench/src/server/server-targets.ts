import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, Host, UserDirectory } from '@cowork/host/embed';
import Fastify from 'fastify';
import { prepareRawDatabase, RawCasTarget } from '../runtime/raw-cas';
import { walRestarts } from '../runtime/store-counters';
import type { ResourceHead } from './server-messages';

export const BENCH_OPERATOR = 'human:bench';
export const LISTEN_HOST = '127.0.0.1';

/** A listening server under load, as the worker thread drives it. */
export interface ServerTarget {
  readonly url: string;
  readonly token: string;
  create(count: number): Promise<ResourceHead[]>;
  /** Appends `text` on top of the newest revision this target has seen; resolves with the new revision. */
  commit(resourceId: string, text: string): Promise<number>;
  /** Revisions committed after `since`, or null where the server keeps none. */
  countSince(since: readonly ResourceHead[]): Promise<number | null>;
  /**
   * Times the store's WAL has started again from its first frame (the cowork store's checkpoint
   * thread counts them); null where SQLite's own checkpoints do it inside a commit (bare-cas) or
   * there is no store.
   */
  walRestarts(): number | null;
  close(): Promise<void>;
}

/**
 * The real server over a fresh temp workspace, as `cowork serve` builds it: token auth, Host
 * checks, schema validation, the resource service, live clients. The store keeps its default
 * `synchronous=FULL`, so every commit waits for an fsync. `asPerson`: the load carries the token of
 * a person the owner added (`human:bench`, the operator it names), not the owner's. `unbatched`:
 * group commit off (`maxBatch: 1`), each commit its own COMMIT and fsync, as before group commit.
 */
export async function startCowork(options: { asPerson?: boolean; unbatched?: boolean } = {}): Promise<ServerTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-server-'));
  const host = await Host.open({ workspaceDir: dir, ...(options.unbatched ? { groupCommit: { maxBatch: 1 } } : {}) });
  const token = randomBytes(24).toString('hex');
  const heads = new Map<string, number>();
  try {
    const server = await createServer({ host, token, listenHost: LISTEN_HOST, port: 0 });
    const { url } = await server.listen();
    const loadToken = options.asPerson ? (await new UserDirectory(host.store).add(BENCH_OPERATOR.slice('human:'.length))).token : token;
    return {
      url,
      token: loadToken,
      async create(count) {
        const created: ResourceHead[] = [];
        for (let i = 0; i < count; i++) {
          const record = await host.resources.create({ kind: 'text', operator: BENCH_OPERATOR });
          heads.set(record.id, record.revision);
          created.push({ id: record.id, revision: record.revision });
        }
        return created;
      },
      async commit(resourceId, text) {
        const baseRevision = heads.get(resourceId);
        if (baseRevision === undefined) throw new Error(`resource ${resourceId} was not created by this target`);
        const { revision } = await host.resources.commit(resourceId, { baseRevision, op: { type: 'append', text }, operator: BENCH_OPERATOR });
        heads.set(resourceId, revision);
        return revision;
      },
      async countSince(since) {
        let commits = 0;
        for (const head of since) commits += (await host.resources.get(head.id)).revision - head.revision;
        return commits;
      },
      walRestarts() {
        return walRestarts(host.store);
      },
      async close() {
        try {
          await server.close();
        } finally {
          await host.close();
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The baseline: fastify with one POST route on the same path that parses the JSON body (fastify
 * does that before any handler) and answers `{revision: n}`. No auth, no validation, no store.
 */
export async function startBare(): Promise<ServerTarget> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  let revision = 0;
  app.post('/api/resources/:id/commits', async () => ({ revision: ++revision }));
  await app.listen({ host: LISTEN_HOST, port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the bare server has no TCP address');
  return {
    url: `http://${LISTEN_HOST}:${address.port}`,
    token: 'unused',
    async create(count) {
      return Array.from({ length: count }, (_, i) => ({ id: `bare-${i}`, revision: 0 }));
    },
    async commit() {
      throw new Error('the bare server takes commits over HTTP only');
    },
    async countSince() {
      return null;
    },
    walRestarts() {
      return null;
    },
    async close() {
      await app.close();
    },
  };
}

/**
 * The baseline a person would write by hand: fastify with the same POST route doing the same
 * compare-and-set in SQLite (WAL, synchronous=FULL, BEGIN IMMEDIATE: runtime/raw-cas.ts), one
 * COMMIT and fsync per request, answering {revision} or 409 {currentRevision}. No auth, no
 * validation beyond the body's shape, no candidates, events or live clients.
 */
export async function startBareCas(): Promise<ServerTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-bare-cas-'));
  prepareRawDatabase(dir, 'FULL', 0);
  const cas = new RawCasTarget(dir, 'FULL');
  const app = Fastify({ logger: false, forceCloseConnections: true });
  let created = 0;
  app.post<{ Params: { id: string }; Body: { baseRevision?: unknown } }>('/api/resources/:id/commits', async (request, reply) => {
    const base = request.body?.baseRevision;
    if (typeof base !== 'number') return reply.code(400).send({ error: 'baseRevision' });
    const attempt = cas.tryCommit(request.params.id, base, BENCH_OPERATOR);
    return attempt.ok ? { revision: attempt.revision } : reply.code(409).send({ error: { code: 'revision_conflict', currentRevision: attempt.currentRevision } });
  });
  await app.listen({ host: LISTEN_HOST, port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the bare CAS server has no TCP address');
  return {
    url: `http://${LISTEN_HOST}:${address.port}`,
    token: 'unused',
    async create(count) {
      const ids = Array.from({ length: count }, () => `doc${++created}`);
      cas.addDocuments(ids);
      return ids.map((id) => ({ id, revision: 0 }));
    },
    async commit() {
      throw new Error('the bare CAS server takes commits over HTTP only');
    },
    async countSince() {
      return null;
    },
    walRestarts() {
      return null;
    },
    async close() {
      try {
        await app.close();
      } finally {
        await cas.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
