/**
 * The store-level suite every Store implementation passes (SQLite, PostgreSQL). Invariants:
 * migrations are versioned and applied once, and a database from a newer host is refused; a failed
 * transaction keeps nothing; the event log is append-only with gap-free sequence numbers; write
 * transactions that arrive together share one COMMIT (group commit), each body in arrival order
 * with its own savepoint, so one that throws fails alone, and each is answered only once the batch
 * is visible to another connection; a `flush: 'later'` write commits without a flush of its own
 * unless its batch holds one that waits; a writer waits for another connection's write lock and then
 * fails with store_busy; every repository reads back what it wrote, in the documented order.
 */
import type { StoreTx } from '../../src/store';
import type { Store, TransactionOptions } from '../../src/store/store';
import type { GroupCommitSettings } from '../../src/store/write-queue';
import type { Json, Operator } from '../../src/store/records';

export interface StoreSettings {
  readonly groupCommit?: GroupCommitSettings;
  readonly busyTimeoutMs?: number;
}

/** A store with group commit's counters, as both implementations have. */
export type BatchingStore = Store & { readonly groupCommitStats: { batches: number; transactions: number; largest: number; durable: number } };

/** One empty database and the ways a test reaches it. */
export interface StorePlace {
  /** Opens a store (migrating the database on first open). */
  open(settings?: StoreSettings): Promise<BatchingStore>;
  /** Runs SQL on the database directly, outside any store (rows of a query, [] otherwise). */
  sql(text: string): Promise<Record<string, unknown>[]>;
  /** Takes the store's write lock from another connection, as another process would; call the result to release it. */
  holdWriteLock(): Promise<() => Promise<void>>;
  /** The schema's latest version and its migrations' count. */
  readonly latestVersion: number;
}

const at = (n: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const human: Operator = 'human:ann';
const agent: Operator = 'agent:bo';

export function storeSuite(name: string, newPlace: () => Promise<StorePlace>): void {
  describe(`${name} store (the shared store suite)`, () => {
    const opened: Store[] = [];
    const open = async (place: StorePlace, settings?: StoreSettings): Promise<BatchingStore> => {
      const store = await place.open(settings);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('applies each migration once, records its version, and refuses a database from a newer host', async () => {
      const place = await newPlace();
      const first = await open(place);
      expect(await first.schemaVersion()).toBe(place.latestVersion);
      await first.close();
      const again = await open(place);
      expect(await again.schemaVersion()).toBe(place.latestVersion);
      expect(await place.sql('SELECT version FROM schema_migrations ORDER BY version')).toHaveLength(place.latestVersion);
      await again.close();
      await place.sql(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${place.latestVersion + 1}, 'future', 'x')`);
      await expect(place.open()).rejects.toMatchObject({ code: 'schema_too_new', details: { schemaVersion: place.latestVersion + 1 } });
    });

    it('keeps nothing from a transaction that throws, numbers events without gaps, and refuses work once closed', async () => {
      const store = await open(await newPlace());
      await store.transaction((tx) => tx.events.append({ type: 'a', at: 't', data: 1 }));
      await expect(
        store.transaction(async (tx) => {
          await tx.events.append({ type: 'b', at: 't', data: 2 });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await store.transaction((tx) => tx.events.append({ type: 'c', at: 't', data: { deep: [3] } }));
      const events = await store.read((tx) => tx.events.list(0));
      expect(events).toEqual([
        { seq: 1, type: 'a', at: 't', data: 1 },
        { seq: 2, type: 'c', at: 't', data: { deep: [3] } },
      ]);
      expect(await store.read((tx) => tx.events.list(1, 1))).toEqual([events[1]]);
      expect(await store.read((tx) => tx.events.lastSeq())).toBe(2);
      expect(await store.integrityCheck()).toEqual([]);
      await store.close();
      await expect(store.read((tx) => tx.events.lastSeq())).rejects.toMatchObject({ code: 'store_failed' });
      await expect(store.transaction((tx) => tx.events.lastSeq())).rejects.toMatchObject({ code: 'store_failed' });
    });

    it('runs write transactions that arrive together in one batch: in order, one that throws undone alone, each answered after the commit', async () => {
      const place = await newPlace();
      const store = await open(place);
      // Another connection on the same database sees only what is committed.
      const other = await open(place);
      const seen: string[] = [];
      const write = (type: string, fail = false): Promise<number> =>
        store.transaction(async (tx) => {
          // Each body sees the ones before it in the batch, as if they had committed.
          seen.push(`${type}:${await tx.events.lastSeq()}`);
          const seq = await tx.events.append({ type, at: 't', data: null });
          if (fail) throw new Error(`${type} changed its mind`);
          return seq;
        });
      const visibleWhenAnswered = write('a').then(() => other.read((tx) => tx.events.list(0)));
      const results = await Promise.allSettled([write('a'), write('b', true), write('c'), write('d')]);
      // When the first caller is answered, the whole batch is committed (the others' events too).
      expect((await visibleWhenAnswered).map((e) => e.type)).toEqual(['a', 'a', 'c', 'd']);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 'b changed its mind', 3, 4]);
      expect(seen).toEqual(['a:0', 'a:1', 'b:2', 'c:2', 'd:3']);
      expect(store.groupCommitStats).toEqual({ batches: 1, transactions: 5, largest: 5, durable: 1 });
      expect((await store.read((tx) => tx.events.list(0))).map((e) => [e.seq, e.type])).toEqual([[1, 'a'], [2, 'a'], [3, 'c'], [4, 'd']]);

      // maxBatch 1: each its own transaction, as without group commit; a window gathers later writers.
      const single = await open(await newPlace(), { groupCommit: { maxBatch: 1 } });
      await Promise.all(['a', 'b', 'c'].map((type) => single.transaction((tx) => tx.events.append({ type, at: 't', data: null }))));
      expect((await single.read((tx) => tx.events.list(0))).map((e) => e.type)).toEqual(['a', 'b', 'c']);
      const windowed = await open(await newPlace(), { groupCommit: { windowMs: 30 } });
      const first = windowed.transaction((tx) => tx.events.append({ type: 'early', at: 't', data: null }));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await Promise.all([first, windowed.transaction((tx) => tx.events.append({ type: 'late', at: 't', data: null }))]);
      expect(windowed.groupCommitStats).toMatchObject({ batches: 1, transactions: 2 });
      for (const bad of [{ maxBatch: 0 }, { maxBatch: 1.5 }, { windowMs: -1 }, { windowMs: Number.NaN }]) {
        await expect(place.open({ groupCommit: bad })).rejects.toMatchObject({ code: 'invalid_input', details: { field: expect.stringMatching(/^groupCommit\./) } });
      }
    });

    it("commits a flush: 'later' write without waiting for its flush, unless it shares its batch with one that waits", async () => {
      const place = await newPlace();
      const store = await open(place);
      const other = await open(place);
      const append = (type: string, options?: TransactionOptions): Promise<number> => store.transaction((tx) => tx.events.append({ type, at: 't', data: null }), options);
      // Alone: committed, and visible to another connection when answered, but not a flushed batch.
      await append('later', { flush: 'later' });
      expect((await other.read((tx) => tx.events.list(0))).map((e) => e.type)).toEqual(['later']);
      expect(store.groupCommitStats).toMatchObject({ batches: 1, durable: 0 });
      // In one batch with a write that waits, both wait for the one flush.
      await Promise.all([append('later again', { flush: 'later' }), append('now')]);
      expect(store.groupCommitStats).toMatchObject({ batches: 2, transactions: 3, durable: 1 });
      await append('now again', { flush: 'now' });
      expect(store.groupCommitStats).toMatchObject({ batches: 3, durable: 2 });
      // A write that fails keeps nothing, flushed or not.
      await expect(
        store.transaction(
          async (tx) => {
            await tx.events.append({ type: 'undone', at: 't', data: null });
            throw new Error('changed my mind');
          },
          { flush: 'later' },
        ),
      ).rejects.toThrow('changed my mind');
      expect((await other.read((tx) => tx.events.list(0))).map((e) => e.type)).toEqual(['later', 'later again', 'now', 'now again']);
      await expect(append('bad', { flush: 'soon' as never })).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'flush' } });
      expect(await store.read((tx) => tx.events.lastSeq())).toBe(4);
    });

    it('waits for another connection holding the write lock, then fails with store_busy past the timeout', async () => {
      const place = await newPlace();
      const patient = await open(place, { busyTimeoutMs: 3000 });
      const impatient = await open(place, { busyTimeoutMs: 50 });
      const release = await place.holdWriteLock();
      const waiting = patient.transaction((tx) => tx.events.append({ type: 'x', at: 't', data: null }));
      await expect(impatient.transaction((tx) => tx.events.append({ type: 'y', at: 't', data: null }))).rejects.toMatchObject({ code: 'store_busy' });
      // The event loop stayed free while both waited: release the lock and the patient one commits.
      await release();
      await expect(waiting).resolves.toBe(1);
    });

    it('resources: insert, get, head, list by kind in creation order, and compare-and-set of the head', async () => {
      const store = await open(await newPlace());
      await store.transaction(async (tx) => {
        await tx.resources.insert({ id: 'r2', kind: 'text', revision: 0, content: { text: 'b' }, createdAt: at(2), updatedAt: at(2) });
        await tx.resources.insert({ id: 'r1', kind: 'text', revision: 0, content: { text: 'a' }, createdAt: at(1), updatedAt: at(1) });
        await tx.resources.insert({ id: 'r3', kind: 'deck', revision: 0, content: [], title: 'Q3 deck', createdAt: at(1), updatedAt: at(1) }, '{"slides":[]}');
      });
      const ids = (list: { id: string }[]): string[] => list.map((r) => r.id);
      expect(ids(await store.read((tx) => tx.resources.list()))).toEqual(['r1', 'r3', 'r2']);
      expect(ids(await store.read((tx) => tx.resources.list({ kind: 'text' })))).toEqual(['r1', 'r2']);
      expect(ids(await store.read((tx) => tx.resources.list({ limit: 1 })))).toEqual(['r1']);
      expect(await store.read((tx) => tx.resources.get('r3'))).toEqual({ id: 'r3', kind: 'deck', revision: 0, content: { slides: [] }, title: 'Q3 deck', createdAt: at(1), updatedAt: at(1) });
      expect(await store.read((tx) => tx.resources.get('r1'))).not.toHaveProperty('title');
      expect(await store.read((tx) => tx.resources.get('nope'))).toBeUndefined();
      const advanced = await store.transaction(async (tx) => [
        await tx.resources.advanceHead('r1', 0, { revision: 1, content: { text: 'a!' }, updatedAt: at(5) }),
        await tx.resources.advanceHead('r1', 0, { revision: 1, content: { text: 'lost' }, updatedAt: at(6) }),
      ]);
      expect(advanced).toEqual([true, false]);
      expect(await store.read(async (tx) => [await tx.resources.headRevision('r1'), (await tx.resources.get('r1'))?.content, await tx.resources.headRevision('nope')])).toEqual([1, { text: 'a!' }, undefined]);
    });

    it('revisions: filters, limit, operators left out, and the newest snapshot at or before a revision', async () => {
      const store = await open(await newPlace());
      await store.transaction(async (tx) => {
        await tx.resources.insert({ id: 'r', kind: 'text', revision: 3, content: 'x', createdAt: at(0), updatedAt: at(0) });
        await tx.revisions.insert({ resourceId: 'r', revision: 0, action: 'create', op: null, operator: human, createdAt: at(0) }, { snapshot: '"v0"' });
        await tx.revisions.insert({ resourceId: 'r', revision: 1, action: 'op', op: { n: 1 }, operator: agent, createdAt: at(1) });
        await tx.revisions.insert({ resourceId: 'r', revision: 2, action: 'op', op: { n: 2 }, operator: human, createdAt: at(2) }, { op: '{"n":2}', snapshot: '"v2"' });
        await tx.revisions.insert({ resourceId: 'r', revision: 3, action: 'restore', op: { toRevision: 0 }, operator: agent, createdAt: at(3) });
      });
      const revisions = (query: Parameters<StoreTx['revisions']['list']>[1]): Promise<number[]> => store.read(async (tx) => (await tx.revisions.list('r', query)).map((r) => r.revision));
      expect(await revisions({})).toEqual([0, 1, 2, 3]);
      expect(await revisions({ after: 0, upTo: 2 })).toEqual([1, 2]);
      expect(await revisions({ excludeOperator: agent })).toEqual([0, 2]);
      expect(await revisions({ after: 1, limit: 1 })).toEqual([2]);
      expect((await store.read((tx) => tx.revisions.list('r', { after: 2 })))[0]).toEqual({ resourceId: 'r', revision: 3, action: 'restore', op: { toRevision: 0 }, operator: agent, createdAt: at(3) });
      expect(await store.read((tx) => tx.revisions.snapshotAtOrBefore('r', 1))).toEqual({ revision: 0, content: 'v0' });
      expect(await store.read((tx) => tx.revisions.snapshotAtOrBefore('r', 3))).toEqual({ revision: 2, content: 'v2' });
      expect(await store.integrityCheck()).toEqual([]);
    });

    it('keeps a large text (kept by keepText) and reads it back to the character', async () => {
      const store = await open(await newPlace());
      const big = { text: 'é'.repeat(300 * 1024) + '\u{1F600}' };
      const kept = await store.keepText(JSON.stringify(big));
      await store.transaction((tx) => tx.resources.insert({ id: 'big', kind: 'text', revision: 0, content: big, createdAt: at(0), updatedAt: at(0) }, kept));
      expect((await store.read((tx) => tx.resources.get('big')))?.content).toEqual(big);
    });

    it('candidates and drafts: listed in insertion order, filtered by status, resolved once', async () => {
      const store = await open(await newPlace());
      const candidate = (id: string, status: 'open' | 'rejected' = 'open') => ({
        id, resourceId: 'r', baseRevision: 0, ops: [{ id }] as Json[], operator: agent, source: 'conflict' as const, draftId: null, status, createdAt: at(0), resolvedAt: null, resolvedBy: null, acceptedRevision: null,
      });
      await store.transaction(async (tx) => {
        await tx.resources.insert({ id: 'r', kind: 'text', revision: 0, content: '', createdAt: at(0), updatedAt: at(0) });
        for (const id of ['c9', 'c1', 'c5']) await tx.candidates.insert(candidate(id));
        await tx.candidates.insert(candidate('c0', 'rejected'));
        await tx.drafts.insert({ id: 'd', resourceId: 'r', owner: agent, baseRevision: 0, content: { a: 1 }, ops: [], status: 'open', createdAt: at(0), updatedAt: at(0) });
      });
      expect((await store.read((tx) => tx.candidates.list('r'))).map((c) => c.id)).toEqual(['c9', 'c1', 'c5', 'c0']);
      expect((await store.read((tx) => tx.candidates.list('r', 'open'))).map((c) => c.id)).toEqual(['c9', 'c1', 'c5']);
      const resolution = { status: 'accepted' as const, resolvedAt: at(9), resolvedBy: human, acceptedRevision: 1 };
      expect(await store.transaction(async (tx) => [await tx.candidates.resolve('c1', resolution), await tx.candidates.resolve('c1', resolution)])).toEqual([true, false]);
      expect(await store.read((tx) => tx.candidates.get('c1'))).toEqual({ ...candidate('c1'), status: 'accepted', resolvedAt: at(9), resolvedBy: human, acceptedRevision: 1 });
      await store.transaction((tx) => tx.drafts.update('d', { content: { a: 2 }, ops: [{ set: 2 }], status: 'proposed', updatedAt: at(3) }));
      expect(await store.read((tx) => tx.drafts.get('d'))).toEqual({ id: 'd', resourceId: 'r', owner: agent, baseRevision: 0, content: { a: 2 }, ops: [{ set: 2 }], status: 'proposed', createdAt: at(0), updatedAt: at(3) });
    });

    it('selections, idempotency keys and last-seen records: replaced in place, listed in order', async () => {
      const store = await open(await newPlace());
      await store.transaction(async (tx) => {
        await tx.resources.insert({ id: 'r', kind: 'text', revision: 0, content: '', createdAt: at(0), updatedAt: at(0) });
        await tx.selections.put({ resourceId: 'r', person: 'human:zed', selection: { from: 1 }, updatedAt: at(1) });
        await tx.selections.put({ resourceId: 'r', person: 'human:Amy', selection: null, updatedAt: at(1) });
        await tx.selections.put({ resourceId: 'r', person: 'human:zed', selection: { from: 2 }, updatedAt: at(2) });
        await tx.idempotency.put({ scope: 'commit r', key: 'k', fingerprint: 'f', result: { revision: 1 }, at: at(1) });
        await tx.lastSeen.put({ taskId: 't', agentId: 'main', resourceId: 'r', revision: 0, callKey: null, previousRevision: null, seenAt: at(1) });
        await tx.lastSeen.put({ taskId: 't', agentId: 'main', resourceId: 'r', revision: 2, callKey: 'call', previousRevision: 0, seenAt: at(2) });
      });
      // Byte order, as SQLite compares: upper case before lower case.
      expect(await store.read((tx) => tx.selections.list('r'))).toEqual([
        { resourceId: 'r', person: 'human:Amy', selection: null, updatedAt: at(1) },
        { resourceId: 'r', person: 'human:zed', selection: { from: 2 }, updatedAt: at(2) },
      ]);
      expect(await store.read((tx) => tx.selections.get('r', 'human:nobody'))).toBeUndefined();
      expect(await store.read((tx) => tx.idempotency.get('commit r', 'k'))).toEqual({ scope: 'commit r', key: 'k', fingerprint: 'f', result: { revision: 1 } });
      expect(await store.read((tx) => tx.idempotency.get('commit s', 'k'))).toBeUndefined();
      // A key is recorded once: a second put of it fails and keeps nothing of its transaction.
      await expect(store.transaction((tx) => tx.idempotency.put({ scope: 'commit r', key: 'k', fingerprint: 'g', result: 2, at: at(3) }))).rejects.toMatchObject({ code: 'store_failed' });
      expect(await store.read((tx) => tx.lastSeen.list('t', 'main'))).toEqual([{ taskId: 't', agentId: 'main', resourceId: 'r', revision: 2, callKey: 'call', previousRevision: 0, seenAt: at(2) }]);
    });

    it('leases: taken when free, renewed by their holder, refused to another while live, taken over when expired or from a gone holder, released once', async () => {
      const store = await open(await newPlace());
      const acquire = (holder: string, durationMs: number, replacing?: string) => store.transaction((tx) => tx.leases.acquire('task:t', holder, durationMs, replacing));
      const first = await acquire('a:1:x', 60_000);
      expect(first).toMatchObject({ key: 'task:t', holder: 'a:1:x' });
      expect(first.expiresAt - first.acquiredAt).toBe(60_000);
      const renewed = await acquire('a:1:x', 60_000);
      expect(renewed).toMatchObject({ holder: 'a:1:x', acquiredAt: first.acquiredAt });
      expect(renewed.expiresAt).toBeGreaterThanOrEqual(first.expiresAt);
      // Another holder gets the lease as it stands, unchanged.
      expect(await acquire('b:2:y', 60_000)).toEqual({ ...renewed, now: expect.any(Number) });
      // ... unless it names the holder it replaces (known to be gone).
      expect(await acquire('b:2:y', 60_000, 'a:1:x')).toMatchObject({ holder: 'b:2:y' });
      expect(await store.transaction((tx) => tx.leases.release('task:t', 'a:1:x'))).toBe(false);
      // An expired lease goes to whoever asks next.
      await acquire('b:2:y', 1);
      const expiredAt = (await store.read((tx) => tx.leases.get('task:t')))!.expiresAt;
      for (;;) {
        const lease = await store.read((tx) => tx.leases.get('task:t'));
        if (lease!.now > expiredAt) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(await acquire('c:3:z', 60_000)).toMatchObject({ holder: 'c:3:z' });
      expect(await store.transaction((tx) => tx.leases.release('task:t', 'c:3:z'))).toBe(true);
      expect(await store.read((tx) => tx.leases.get('task:t'))).toBeUndefined();
      expect(await acquire('a:1:x', 60_000)).toMatchObject({ holder: 'a:1:x' });
    });

    it('leases: the live ones by key prefix, expired ones left out', async () => {
      const store = await open(await newPlace());
      const acquire = (key: string, durationMs: number) => store.transaction((tx) => tx.leases.acquire(key, key.slice(5), durationMs));
      await acquire('host:m1:10:a', 60_000);
      await acquire('host:m1:11:b', 60_000);
      await acquire('host:m10:12:c', 60_000);
      const gone = await acquire('host:m1:13:d', 1);
      while ((await store.read((tx) => tx.leases.get(gone.key)))!.now <= gone.expiresAt) await new Promise((r) => setTimeout(r, 5));
      const live = await store.read((tx) => tx.leases.live('host:m1:'));
      expect(live.map((l) => [l.key, l.holder])).toEqual([['host:m1:10:a', 'm1:10:a'], ['host:m1:11:b', 'm1:11:b']]);
      expect(await store.read((tx) => tx.leases.live('host:m2:'))).toEqual([]);
    });

    it('the Inbox: deduplicated by message id, leased oldest first until the lease expires, consumed once', async () => {
      const store = await open(await newPlace());
      const message = (messageId: string, recipient = 'main') => ({ messageId, taskId: 't', recipient, sender: 'user', kind: 'user' as const, body: { text: messageId }, createdAt: at(0) });
      expect(await store.transaction(async (tx) => [await tx.inbox.insert(message('m1')), await tx.inbox.insert(message('m2')), await tx.inbox.insert(message('m1')), await tx.inbox.insert(message('m3', 'sub'))])).toEqual([true, true, false, true]);
      const lease = (owner: string, nowMs: number) => store.transaction((tx) => tx.inbox.lease({ taskId: 't', recipient: 'main', owner, nowMs, leaseUntilMs: nowMs + 1000, limit: 5 }));
      const leased = await lease('a', 1000);
      expect(leased.map((m) => [m.messageId, m.leaseOwner, m.leaseUntil, m.body])).toEqual([['m1', 'a', 2000, { text: 'm1' }], ['m2', 'a', 2000, { text: 'm2' }]]);
      expect(await lease('b', 1500)).toEqual([]);
      expect(await store.transaction(async (tx) => [await tx.inbox.consume('m1', at(1)), await tx.inbox.consume('m1', at(2))])).toEqual([true, false]);
      expect((await lease('b', 2000)).map((m) => [m.messageId, m.leaseOwner])).toEqual([['m2', 'b']]);
      expect((await store.read((tx) => tx.inbox.pending('t'))).map((m) => m.messageId)).toEqual(['m2', 'm3']);
      expect((await store.read((tx) => tx.inbox.pending('t', 'sub'))).map((m) => m.messageId)).toEqual(['m3']);
      expect(await store.read((tx) => tx.inbox.get('m1'))).toMatchObject({ messageId: 'm1', consumedAt: at(1), leaseOwner: 'a' });
    });

    it('what other hosts follow: Inbox posts and relayed task events read after a seq, and (PostgreSQL) each append announced with its seq once committed', async () => {
      const place = await newPlace();
      const writer = await open(place);
      const other = await open(place);
      const heard: [string, number | undefined][] = [];
      const stops = (['inbox', 'events', 'task_events'] as const).map((table) => other.watchAppends(table, (seq) => heard.push([table, seq])));
      // Listening once the connection announced itself (no seq: "read what you may have missed").
      if (other.announcesAppends) while (heard.filter(([, seq]) => seq === undefined).length < 3) await new Promise((r) => setTimeout(r, 5));
      const message = (messageId: string) => ({ messageId, taskId: 't', recipient: 'main', sender: 'user', kind: 'user' as const, body: { text: messageId }, createdAt: at(0) });
      await writer.transaction(async (tx) => {
        await tx.inbox.insert(message('m1'));
        await tx.inbox.insert(message('m2'));
        await tx.inbox.insert(message('m1'));
        await tx.events.append({ type: 'task.created', at: at(0), data: { taskId: 't' } });
        expect(await tx.taskEvents.append([])).toBe(0);
        expect(await tx.taskEvents.append([{ origin: 'h1', taskId: 't', event: { type: 'turn', n: 1 }, at: 1000 }, { origin: 'h1', taskId: 't', event: { type: 'tool', n: 2 }, at: 2000 }])).toBe(2);
      });
      // Rolled back: nothing kept, nothing announced.
      await expect(writer.transaction(async (tx) => {
        await tx.inbox.insert(message('m9'));
        await tx.taskEvents.append([{ origin: 'h1', taskId: 't', event: {}, at: 3000 }]);
        throw new Error('undone');
      })).rejects.toThrow('undone');
      await writer.transaction((tx) => tx.inbox.consume('m1', at(1)));
      await writer.transaction((tx) => tx.inbox.insert(message('m3')));

      const posts = await other.read((tx) => tx.inbox.after(0, 10));
      expect(posts.map((p) => [p.messageId, p.taskId, p.recipient, p.kind, p.consumedAt])).toEqual([['m1', 't', 'main', 'user', at(1)], ['m2', 't', 'main', 'user', null], ['m3', 't', 'main', 'user', null]]);
      expect(posts[0]!.seq).toBeLessThan(posts[1]!.seq);
      expect((await other.read((tx) => tx.inbox.after(posts[0]!.seq, 1))).map((p) => p.messageId)).toEqual(['m2']);
      expect(await other.read((tx) => tx.inbox.lastSeq())).toBe(posts[2]!.seq);
      const relayed = await other.read((tx) => tx.taskEvents.after(0, 10));
      expect(relayed).toEqual([{ seq: 1, origin: 'h1', taskId: 't', event: { type: 'turn', n: 1 }, at: 1000 }, { seq: 2, origin: 'h1', taskId: 't', event: { type: 'tool', n: 2 }, at: 2000 }]);
      expect(await other.read((tx) => tx.taskEvents.lastSeq())).toBe(2);
      expect(await writer.transaction((tx) => tx.taskEvents.prune(2000))).toBe(1);
      expect((await other.read((tx) => tx.taskEvents.after(0, 10))).map((e) => e.seq)).toEqual([2]);

      if (other.announcesAppends) {
        const announced = (): [string, number | undefined][] => heard.filter(([, seq]) => seq !== undefined);
        while (announced().length < 5) await new Promise((r) => setTimeout(r, 5));
        await new Promise((r) => setTimeout(r, 50));
        expect(announced()).toEqual([['inbox', posts[0]!.seq], ['inbox', posts[1]!.seq], ['events', 1], ['task_events', 2], ['inbox', posts[2]!.seq]]);
      } else {
        expect(heard).toEqual([]);
      }
      for (const stop of stops) stop();
    });

    it('conversation, compactions and model calls: numbered per agent, read from either end, totalled', async () => {
      const store = await open(await newPlace());
      const entry = (agentId: string, n: number, sourceMessageId: string | null = null) => ({ taskId: 't', agentId, turn: n, message: { role: 'user', content: `m${n}` }, sourceMessageId, createdAt: at(n) });
      const seqs = await store.transaction(async (tx) => [
        await tx.conversation.append(entry('main', 1)),
        await tx.conversation.append(entry('main', 2, 'msg')),
        await tx.conversation.append(entry('sub', 1)),
        await tx.conversation.append(entry('main', 3)),
      ]);
      expect(seqs).toEqual([1, 2, 1, 3]);
      await expect(store.transaction((tx) => tx.conversation.append(entry('main', 4, 'msg')))).rejects.toMatchObject({ code: 'store_failed' });
      expect((await store.read((tx) => tx.conversation.list('t', 'main', 1))).map((c) => c.seq)).toEqual([2, 3]);
      expect((await store.read((tx) => tx.conversation.recent('t', 'main', { afterSeq: 0, limit: 2 }))).map((c) => c.seq)).toEqual([3, 2]);
      expect((await store.read((tx) => tx.conversation.recent('t', 'main', { afterSeq: 0, beforeSeq: 3, limit: 5 }))).map((c) => c.seq)).toEqual([2, 1]);
      expect(await store.read(async (tx) => [await tx.conversation.hasSource('t', 'main', 'msg'), await tx.conversation.hasSource('t', 'sub', 'msg')])).toEqual([true, false]);
      expect(await store.read((tx) => tx.conversation.last('t', 'main'))).toEqual({ ...entry('main', 3), seq: 3 });
      const compaction = (to: number) => ({ taskId: 't', agentId: 'main', summarisedToSeq: to, summary: `up to ${to}`, dropped: { n: to }, createdAt: at(to) });
      expect(await store.transaction(async (tx) => [await tx.compactions.insert(compaction(1)), await tx.compactions.insert(compaction(2))])).toEqual([1, 2]);
      expect(await store.read((tx) => tx.compactions.latest('t', 'main'))).toEqual({ ...compaction(2), seq: 2 });
      expect((await store.read((tx) => tx.compactions.list('t', 'main'))).map((c) => c.seq)).toEqual([1, 2]);
      const call = (agentId: string, inputTokens: number) => ({ taskId: 't', agentId, turn: 1, model: 'm', inputTokens, outputTokens: 10, finishReason: 'stop', latencyMs: 12.6, attempts: 1, createdAt: at(0) });
      await store.transaction(async (tx) => {
        await tx.modelCalls.insert(call('main', 100));
        await tx.modelCalls.insert(call('sub', 5_000_000_000));
      });
      const all = await store.read((tx) => tx.modelCalls.totals('t'));
      expect(all).toEqual({ calls: 2, inputTokens: 5_000_000_100, outputTokens: 20, lastId: expect.any(Number) });
      expect(await store.read((tx) => tx.modelCalls.totals('t', 'main'))).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: 10 });
      expect(await store.read((tx) => tx.modelCalls.totals('none'))).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, lastId: 0 });
      // After the newest call: nothing more until another is recorded, then only that one.
      expect(await store.read((tx) => tx.modelCalls.totals('t', undefined, all.lastId))).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, lastId: all.lastId });
      await store.transaction((tx) => tx.modelCalls.insert(call('main', 7)));
      const added = await store.read((tx) => tx.modelCalls.totals('t', undefined, all.lastId));
      expect(added).toEqual({ calls: 1, inputTokens: 7, outputTokens: 10, lastId: expect.any(Number) });
      expect(added.lastId).toBeGreaterThan(all.lastId);
      expect(await store.read((tx) => tx.modelCalls.totals('t', 'sub', all.lastId))).toMatchObject({ calls: 0, inputTokens: 0 });
    });

    it('jobs and monitors: compare-and-set of their state, listed oldest first', async () => {
      const store = await open(await newPlace());
      const job = (id: string, taskId: string | null) => ({
        id, name: null, command: 'sh', args: ['-c', 'true'], cwd: '/w', env: { A: '1' }, status: 'running' as const, pid: null, pgid: null, processStartTime: null, supervisorPid: null,
        supervisorStartTime: null, exitCode: null, signal: null, error: null, createdBy: agent, taskId, hostId: taskId && 'machine-a', createdAt: at(0), startedAt: null, endedAt: null, cancelRequestedAt: null,
      });
      await store.transaction(async (tx) => {
        await tx.jobs.insert(job('j2', 't'));
        await tx.jobs.insert(job('j1', null));
      });
      const identity = { pid: 40, pgid: 40, processStartTime: 9_000_000_000, supervisorPid: 39, supervisorStartTime: 8, startedAt: at(1) };
      const end = { status: 'succeeded' as const, exitCode: 0, signal: null, error: null, endedAt: at(2) };
      expect(await store.transaction(async (tx) => [await tx.jobs.setProcess('j2', identity), await tx.jobs.requestCancel('j2', at(1)), await tx.jobs.requestCancel('j2', at(1)), await tx.jobs.finish('j2', end), await tx.jobs.finish('j2', end), await tx.jobs.setProcess('j2', identity)])).toEqual([true, true, false, true, false, false]);
      expect(await store.read((tx) => tx.jobs.get('j2'))).toEqual({ ...job('j2', 't'), pid: 40, pgid: 40, processStartTime: 9_000_000_000, supervisorPid: 39, supervisorStartTime: 8, startedAt: at(1), cancelRequestedAt: at(1), status: 'succeeded', exitCode: 0, endedAt: at(2) });
      expect((await store.read((tx) => tx.jobs.list())).map((j) => j.id)).toEqual(['j2', 'j1']);
      expect((await store.read((tx) => tx.jobs.list({ status: 'running' }))).map((j) => j.id)).toEqual(['j1']);
      expect((await store.read((tx) => tx.jobs.list({ taskId: 't', limit: 1 }))).map((j) => j.id)).toEqual(['j2']);

      const monitor = (id: string) => ({
        id, name: 'watch', kind: 'interval' as const, target: { kind: 'interval' as const }, intervalMs: 1000, taskId: 't', agentId: 'main', status: 'active' as const, observation: null, seq: 0,
        createdBy: agent, createdAt: at(0), lastCheckedAt: null, lastChangedAt: null, nextDueAt: at(1), cancelledAt: null,
      });
      await store.transaction(async (tx) => {
        await tx.monitors.insert(monitor('mb'));
        await tx.monitors.insert(monitor('ma'));
      });
      const change = { expectedSeq: 0, observation: { v: 1 }, checkedAt: at(2), nextDueAt: at(3) };
      expect(await store.transaction(async (tx) => [await tx.monitors.recordChange('mb', change), await tx.monitors.recordChange('mb', change)])).toEqual([true, false]);
      await store.transaction((tx) => tx.monitors.recordChecks([{ id: 'ma', checkedAt: at(4), nextDueAt: at(5) }, { id: 'ma', checkedAt: at(6), nextDueAt: at(7) }, { id: 'mb', checkedAt: at(4), nextDueAt: at(5) }]));
      expect(await store.transaction(async (tx) => [await tx.monitors.cancel('mb', at(8)), await tx.monitors.cancel('mb', at(9))])).toEqual([true, false]);
      await store.transaction((tx) => tx.monitors.recordChecks([{ id: 'mb', checkedAt: at(10), nextDueAt: at(11) }]));
      expect(await store.read((tx) => tx.monitors.get('mb'))).toEqual({ ...monitor('mb'), observation: { v: 1 }, seq: 1, lastCheckedAt: at(4), lastChangedAt: at(2), nextDueAt: at(5), status: 'cancelled', cancelledAt: at(8) });
      expect(await store.read((tx) => tx.monitors.get('ma'))).toMatchObject({ lastCheckedAt: at(6), nextDueAt: at(7) });
      expect((await store.read((tx) => tx.monitors.list({ taskId: 't' }))).map((m) => m.id)).toEqual(['mb', 'ma']);
      expect((await store.read((tx) => tx.monitors.list({ status: 'active' }))).map((m) => m.id)).toEqual(['ma']);
    });

    it('users, approvals and publications: found by their keys, decided once, listed in order', async () => {
      const store = await open(await newPlace());
      await store.transaction(async (tx) => {
        await tx.users.insert({ name: 'zoe', role: 'viewer', tokenHash: 'h2', createdAt: at(0), revokedAt: null });
        await tx.users.insert({ name: 'al', role: 'editor', tokenHash: 'h1', createdAt: at(0), revokedAt: null });
      });
      await expect(store.transaction((tx) => tx.users.insert({ name: 'x', role: 'owner' as never, tokenHash: 'h3', createdAt: at(0), revokedAt: null }))).rejects.toMatchObject({ code: 'store_failed' });
      expect((await store.read((tx) => tx.users.list())).map((u) => u.name)).toEqual(['al', 'zoe']);
      expect(await store.transaction(async (tx) => [await tx.users.revoke('al', at(1)), await tx.users.revoke('al', at(2)), await tx.users.revoke('nobody', at(2))])).toEqual([true, false, false]);
      expect(await store.read((tx) => tx.users.byTokenHash('h1'))).toEqual({ name: 'al', role: 'editor', tokenHash: 'h1', createdAt: at(0), revokedAt: at(1) });
      expect(await store.read((tx) => tx.users.get('zoe'))).toMatchObject({ role: 'viewer' });

      const approval = (id: string, taskId: string, n: number) => ({ id, taskId, agentId: 'main', callKey: `call-${id}`, tool: 'publish', impact: 'publish', input: { n }, status: 'pending' as const, requestedAt: at(n), decidedBy: null, decidedAt: null, reason: null });
      await store.transaction(async (tx) => {
        await tx.approvals.insert(approval('ap2', 't1', 2));
        await tx.approvals.insert(approval('ap1', 't2', 1));
      });
      expect(await store.transaction(async (tx) => [await tx.approvals.decide('ap2', { status: 'denied', by: human, at: at(3), reason: 'no' }), await tx.approvals.decide('ap2', { status: 'approved', by: human, at: at(4), reason: null })])).toEqual([true, false]);
      expect((await store.read((tx) => tx.approvals.list())).map((a) => a.id)).toEqual(['ap1', 'ap2']);
      expect((await store.read((tx) => tx.approvals.list({ status: 'pending' }))).map((a) => a.id)).toEqual(['ap1']);
      expect((await store.read((tx) => tx.approvals.list({ taskId: 't1', status: 'denied' }))).map((a) => a.id)).toEqual(['ap2']);
      expect(await store.read((tx) => tx.approvals.byCallKey('call-ap2'))).toEqual({ ...approval('ap2', 't1', 2), status: 'denied', decidedBy: human, decidedAt: at(3), reason: 'no' });

      const publication = (id: string, n: number, idempotencyKey: string | null) => ({ id, taskId: 't', source: { type: 'file', path: 'a.txt' }, revision: null, commit: null, fileName: 'a.txt', mediaType: 'text/plain', sha256: 'ab', bytes: 3_000_000_000, publishedAt: at(n), operator: agent, idempotencyKey });
      await store.transaction(async (tx) => {
        await tx.publications.insert(publication('p2', 2, 'key'));
        await tx.publications.insert(publication('p1', 1, null));
      });
      expect((await store.read((tx) => tx.publications.list('t'))).map((p) => p.id)).toEqual(['p1', 'p2']);
      expect(await store.read((tx) => tx.publications.byIdempotencyKey('key'))).toEqual(publication('p2', 2, 'key'));
      expect(await store.read((tx) => tx.publications.get('p1'))).toEqual(publication('p1', 1, null));
    });

    it('runs: replaced whole, newest first, with series numbered on across appends and deleted with the run', async () => {
      const store = await open(await newPlace());
      const run = (id: string, startedAt: string) => ({
        id, taskId: 't', name: id, params: { lr: 0.1 }, status: 'running' as const, startedAt, endedAt: null, goal: null, artifacts: [], metrics: {}, problems: [], problemCount: 0, sources: [], createdBy: agent, updatedAt: startedAt,
      });
      await store.transaction(async (tx) => {
        await tx.runs.insert(run('a', at(1)));
        await tx.runs.insert(run('b', at(2)));
        await tx.runs.appendPoints('a', [{ name: 'loss', step: 1, value: 0.5, at: at(1) }, { name: 'acc', step: 1, value: 0.25, at: at(1) }]);
        await tx.runs.appendPoints('a', [{ name: 'loss', step: 2, value: 0.125, at: at(2) }, { name: 'loss', step: null, value: -1e-3, at: at(3) }]);
        await tx.runs.appendPoints('a', []);
      });
      const updated = { ...run('a', at(1)), status: 'succeeded' as const, endedAt: at(5), goal: { metric: 'loss', direction: 'min' as const }, metrics: { loss: { last: 0.125, lastStep: 2, best: 0.125, bestStep: 2, direction: 'min' as const, count: 2 } }, problemCount: 3, updatedAt: at(5) };
      await store.transaction((tx) => tx.runs.update({ ...updated, taskId: 'ignored', createdBy: null }));
      expect(await store.read((tx) => tx.runs.get('a'))).toEqual(updated);
      expect((await store.read((tx) => tx.runs.list('t'))).map((r) => r.id)).toEqual(['b', 'a']);
      expect(await store.read((tx) => tx.runs.series('a', 'loss'))).toEqual([
        { name: 'loss', step: 1, value: 0.5, at: at(1) },
        { name: 'loss', step: 2, value: 0.125, at: at(2) },
        { name: 'loss', step: null, value: -1e-3, at: at(3) },
      ]);
      expect((await store.read((tx) => tx.runs.series('a', 'loss', 2))).map((p) => p.step)).toEqual([2, null]);
      await store.transaction((tx) => tx.runs.delete('a'));
      expect(await store.read(async (tx) => [await tx.runs.get('a'), await tx.runs.series('a', 'loss')])).toEqual([undefined, []]);
    });
  });
}
