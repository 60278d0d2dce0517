/**
 * Invariant: two hosts on one PostgreSQL database, 8 writers each on shared documents: a live
 * subscriber on each host sees every revision, in order, with no gaps, and both see the same
 * sequence, though neither hub polls (`pollMs: 0`): another host's commits arrive by NOTIFY.
 * Every acknowledged commit is in the history exactly once; every rejected op is a candidate.
 */
import { isCoworkError } from '../../src/errors';
import { usePostgresServer } from '../support/postgres';
import { range, startTestServer, TestClient, type TestServer } from './harness';

const pgServer = usePostgresServer();

it('a subscriber on each host sees the same contiguous revisions of commits made on both', async () => {
  const databaseUrl = await pgServer().createDatabase();
  const servers: TestServer[] = [];
  const clients: TestClient[] = [];
  try {
    for (let i = 0; i < 2; i++) servers.push(await startTestServer({ port: 0, live: { pollMs: 0 } }, { databaseUrl }));
    const urls = await Promise.all(servers.map((s) => s.listen()));
    const docs = [await servers[0]!.host.resources.create({ kind: 'text', operator: 'human:ann' }), await servers[1]!.host.resources.create({ kind: 'text', operator: 'human:ann' })].map((r) => r.id);
    for (const url of urls) {
      const client = await TestClient.connect(url);
      clients.push(client);
      for (const id of docs) {
        client.send({ type: 'subscribe', resourceId: id, sinceRevision: 0, requestId: `s-${id}` });
        await client.next('subscribed', `s-${id}`);
      }
    }

    const acknowledged: { id: string; revision: number; text: string }[] = [];
    const rejected: { id: string; candidateId: string }[] = [];
    const writer = async (server: TestServer, w: string): Promise<void> => {
      for (let n = 0; n < 6; n++) {
        const id = docs[n % docs.length]!;
        const text = `<${w}.${n}>`;
        const base = (await server.host.resources.get(id)).revision;
        try {
          const { revision } = await server.host.resources.commit(id, { baseRevision: base, op: { type: 'append', text }, operator: 'agent:writer' });
          acknowledged.push({ id, revision, text });
        } catch (error) {
          if (!isCoworkError(error) || error.code !== 'revision_conflict') throw error;
          rejected.push({ id, candidateId: String(error.details.candidateId) });
        }
      }
    };
    await Promise.all(servers.flatMap((server, h) => range(8).map((w) => writer(server, `h${h}w${w}`))));
    expect(acknowledged.length).toBeGreaterThan(0);

    for (const id of docs) {
      const history = await servers[0]!.host.resources.history(id, { after: 0, limit: 10_000 });
      const head = history.length;
      expect(history.map((r) => r.revision)).toEqual(range(head, 1));
      for (const client of clients) {
        await client.until((ms) => ms.some((m) => m.type === 'revision' && m.resourceId === id && m.revision === head), `revision ${head} of ${id}`);
        const seen = client.messages.filter((m) => m.type === 'revision' && m.resourceId === id).map((m) => m.revision);
        expect(seen).toEqual(range(head, 1));
      }
      // Each acknowledged commit once, at the revision it was answered with.
      const ops = history.map((r) => JSON.stringify(r.op));
      for (const commit of acknowledged.filter((c) => c.id === id)) {
        expect(ops.filter((op) => op.includes(commit.text))).toHaveLength(1);
        expect(JSON.stringify(history[commit.revision - 1]!.op)).toContain(commit.text);
      }
      expect(acknowledged.filter((c) => c.id === id)).toHaveLength(head);
      const candidates = new Set((await servers[1]!.host.resources.listCandidates(id)).map((c) => c.id));
      for (const r of rejected.filter((c) => c.id === id)) expect(candidates.has(r.candidateId)).toBe(true);
    }
  } finally {
    for (const client of clients) client.close();
    for (const server of servers) await server.dispose();
  }
}, 120_000);
