/**
 * Invariants of the durable Inbox: a repeated messageId is dropped; a message is leased while it is
 * being delivered, and a lease that expires (its holder died) makes it deliverable again; a message
 * is consumed only together with its entry in the recipient's conversation, so it enters the saved
 * context exactly once whatever happens around it.
 */
import { Inbox } from '../../src/agents/inbox';
import { openTempHost } from '../support/temp-host';

describe('Inbox', () => {
  it('drops duplicates, honours leases, redelivers after expiry, and saves each message once', async () => {
    const host = await openTempHost();
    let nowMs = Date.UTC(2026, 0, 1);
    const now = (): Date => new Date(nowMs);
    const inbox = new Inbox(host.store, now, 1000);
    try {
      expect(await inbox.post({ messageId: 'm1', taskId: 't', recipient: 'main', sender: 'sub', kind: 'result', body: 'R1' })).toEqual({ messageId: 'm1', duplicate: false });
      expect(await inbox.post({ messageId: 'm1', taskId: 't', recipient: 'main', sender: 'sub', kind: 'result', body: 'again' })).toEqual({ messageId: 'm1', duplicate: true });

      // A deliverer takes the lease and dies before saving.
      const leased = await host.store.transaction((tx) =>
        tx.inbox.lease({ taskId: 't', recipient: 'main', owner: 'dead-host', nowMs, leaseUntilMs: nowMs + 1000, limit: 10 }),
      );
      expect(leased.map((m) => m.messageId)).toEqual(['m1']);
      // While the lease holds, nobody else delivers it.
      expect(await inbox.deliver('t', 'main', 'live-host', 1, (m) => ({ role: 'user', content: String(m.body) }))).toEqual([]);
      // After it expires, it is delivered, once.
      nowMs += 1001;
      const delivered = await inbox.deliver('t', 'main', 'live-host', 1, (m) => ({ role: 'user', content: String(m.body) }));
      expect(delivered.map((m) => m.messageId)).toEqual(['m1']);
      expect(await inbox.deliver('t', 'main', 'live-host', 2, (m) => ({ role: 'user', content: String(m.body) }))).toEqual([]);
      const log = await host.store.read((tx) => tx.conversation.list('t', 'main'));
      expect(log.map((r) => [r.sourceMessageId, r.message])).toEqual([['m1', { role: 'user', content: 'R1' }]]);
      expect(await inbox.pending('t')).toEqual([]);
    } finally {
      await host.dispose();
    }
  });

  it('never saves a message twice even if it was saved but not marked consumed', async () => {
    const host = await openTempHost();
    const inbox = new Inbox(host.store, () => new Date(), 1000);
    try {
      await inbox.post({ messageId: 'm2', taskId: 't', recipient: 'main', sender: 'user', kind: 'user', body: 'hello' });
      // The conversation already holds it (e.g. a store that committed the entry but not the consume).
      await host.store.transaction((tx) =>
        tx.conversation.append({ taskId: 't', agentId: 'main', turn: 1, message: { role: 'user', content: 'hello' }, sourceMessageId: 'm2', createdAt: 'x' }),
      );
      await expect(
        host.store.transaction((tx) =>
          tx.conversation.append({ taskId: 't', agentId: 'main', turn: 1, message: { role: 'user', content: 'hello' }, sourceMessageId: 'm2', createdAt: 'x' }),
        ),
      ).rejects.toMatchObject({ code: 'store_failed' });
      await inbox.deliver('t', 'main', 'h', 2, () => ({ role: 'user', content: 'hello' }));
      const log = await host.store.read((tx) => tx.conversation.list('t', 'main'));
      expect(log).toHaveLength(1);
      expect(await inbox.pending('t', 'main')).toEqual([]);
    } finally {
      await host.dispose();
    }
  });
});
