/**
 * The PostgreSQL store: the shared store suite (store-suite.ts) on a throwaway server, one database
 * per test, and what only this store has. Invariants: its migrations carry SQLite's versions and
 * names; a bad URL or setting is refused with invalid_input; a server that is not there answers
 * store_unavailable, and the same store works again once the server is back; a read is one
 * snapshot even while writes commit; a body that swallows a database error fails alone (its
 * transaction was aborted) while the rest of its batch commits; openWorkspaceStore picks this store
 * for a database URL and writes no database file into the workspace.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/store/sqlite/migrations';
import { PG_MIGRATIONS } from '../../src/store/postgres/migrations';
import { PostgresStore } from '../../src/store/postgres/postgres-store';
import { WRITE_LOCK } from '../../src/store/postgres/write-lock';
import { DATABASE_FILE, openWorkspaceStore } from '../../src/store/open-store';
import { freePort } from '../../src/testkit/free-port';
import { startPostgresServer } from '../../src/testkit/postgres-server';
import { usePostgresServer } from '../support/postgres';
import { startSplitProxy } from '../support/pg-split-proxy';
import { tempDir } from '../support/temp-host';
import { storeSuite, type StorePlace } from './store-suite';

const pgServer = usePostgresServer();

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function pgPlace(url: string): StorePlace {
  return {
    latestVersion: LATEST_SCHEMA_VERSION,
    open: (settings = {}) => PostgresStore.open({ url, ...settings }),
    sql: (text) => withClient(url, async (client) => (await client.query(text)).rows),
    async holdWriteLock() {
      const holder = new Client({ connectionString: url });
      await holder.connect();
      await holder.query(`BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK})`);
      return async () => {
        await holder.query('COMMIT');
        await holder.end();
      };
    },
  };
}

storeSuite('PostgreSQL', async () => pgPlace(await pgServer().createDatabase()));

describe('PostgreSQL store (PostgreSQL only)', () => {
  it('numbers its migrations as SQLite does', () => {
    expect(PG_MIGRATIONS.map((m) => [m.version, m.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
  });

  it('refuses a bad URL or setting with invalid_input, and a URL with a SQLite mode', async () => {
    const url = await pgServer().createDatabase();
    for (const bad of ['mysql://x/y', 'not a url', '']) {
      await expect(PostgresStore.open({ url: bad })).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'databaseUrl' } });
    }
    await expect(PostgresStore.open({ url, poolSize: 1 })).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'poolSize' } });
    await expect(PostgresStore.open({ url, busyTimeoutMs: -5 })).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'busyTimeoutMs' } });
    const workspace = tempDir();
    try {
      await expect(openWorkspaceStore(workspace.path, { databaseUrl: url, synchronous: 'NORMAL' })).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'synchronous' } });
      await expect(openWorkspaceStore(workspace.path, { databaseUrl: 'sqlite:///x' })).rejects.toMatchObject({ code: 'invalid_input' });
    } finally {
      workspace.cleanup();
    }
  });

  it('is chosen by openWorkspaceStore for a database URL, with nothing written to the workspace but its folder', async () => {
    const url = await pgServer().createDatabase();
    const workspace = tempDir();
    try {
      const store = await openWorkspaceStore(join(workspace.path, 'ws'), { databaseUrl: url.replace('cowork@', 'cowork:secret@') });
      expect(store).toBeInstanceOf(PostgresStore);
      expect(store.description).toMatch(/^postgres:postgres:\/\/cowork:\*\*\*@127\.0\.0\.1:\d+\//);
      await store.transaction((tx) => tx.events.append({ type: 'x', at: 't', data: null }));
      await store.close();
      expect(existsSync(join(workspace.path, 'ws'))).toBe(true);
      expect(existsSync(join(workspace.path, 'ws', DATABASE_FILE))).toBe(false);
      expect(await withClient(url, async (client) => (await client.query('SELECT type FROM events')).rows)).toEqual([{ type: 'x' }]);
    } finally {
      workspace.cleanup();
    }
  });

  it('answers store_unavailable when no server listens', async () => {
    const url = `postgres://cowork@127.0.0.1:${await freePort()}/none`;
    await expect(PostgresStore.open({ url, connectTimeoutMs: 2000 })).rejects.toMatchObject({ code: 'store_unavailable' });
  });

  it('reads one snapshot while writes commit beside it', async () => {
    const store = await PostgresStore.open({ url: await pgServer().createDatabase() });
    try {
      await store.transaction((tx) => tx.events.append({ type: 'a', at: 't', data: null }));
      const seen = await store.read(async (tx) => {
        const before = await tx.events.lastSeq();
        await store.transaction((write) => write.events.append({ type: 'b', at: 't', data: null }));
        return [before, await tx.events.lastSeq(), (await tx.events.list(0)).length];
      });
      expect(seen).toEqual([1, 1, 1]);
      expect(await store.read((tx) => tx.events.lastSeq())).toBe(2);
    } finally {
      await store.close();
    }
  });

  // node-postgres rejects a failed query on the ErrorResponse; the ReadyForQuery that tells the
  // transaction is aborted can come in a later packet (CI met it), so the proxy holds it back.
  it.each([
    ['straight to the server', false],
    ['when the server tells the transaction is aborted a packet later', true],
  ])('fails a body that caught a database error and went on, alone in its batch (%s)', async (_, late) => {
    const url = await pgServer().createDatabase();
    const proxy = late ? await startSplitProxy(url) : undefined;
    const store = await PostgresStore.open({ url: proxy?.url ?? url });
    try {
      const results = await Promise.allSettled([
        store.transaction((tx) => tx.events.append({ type: 'before', at: 't', data: null })),
        store.transaction(async (tx) => {
          await tx.idempotency.put({ scope: 's', key: 'k', fingerprint: 'f', result: 1, at: 't' });
          await tx.idempotency.put({ scope: 's', key: 'k', fingerprint: 'f', result: 1, at: 't' }).catch(() => undefined);
          return 'went on';
        }),
        store.transaction((tx) => tx.events.append({ type: 'after', at: 't', data: null })),
      ]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as { code: string }).code))).toEqual([1, 'store_failed', 2]);
      expect(store.groupCommitStats).toMatchObject({ batches: 1, transactions: 3 });
      expect(await store.read((tx) => tx.idempotency.get('s', 'k'))).toBeUndefined();
      expect(await store.read(async (tx) => (await tx.events.list(0)).map((e) => e.type))).toEqual(['before', 'after']);
    } finally {
      await store.close();
      await proxy?.close();
    }
  });

  it('answers store_unavailable while the server is down, and works again once it is back', async () => {
    const own = await startPostgresServer();
    const store = await PostgresStore.open({ url: await own.createDatabase(), connectTimeoutMs: 2000 });
    try {
      await store.transaction((tx) => tx.events.append({ type: 'a', at: 't', data: null }));
      await own.crash();
      await expect(store.transaction((tx) => tx.events.append({ type: 'lost', at: 't', data: null }))).rejects.toMatchObject({ code: 'store_unavailable' });
      await expect(store.read((tx) => tx.events.lastSeq())).rejects.toMatchObject({ code: 'store_unavailable' });
      await own.restart();
      await store.transaction((tx) => tx.events.append({ type: 'b', at: 't', data: null }));
      expect((await store.read((tx) => tx.events.list(0))).map((e) => e.type)).toEqual(['a', 'b']);
    } finally {
      await store.close();
      await own.dispose();
    }
  }, 60_000);
});
