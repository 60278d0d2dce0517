// Invariant: on a real server, a person editing slide 2's title over the WebSocket and an agent
// adding a slide over HTTP from the older base both land. The agent's commit gets 409
// revision_conflict with currentRevision and candidateId; the agent reads the change by others,
// accepts its candidate on the new base, the person's live client receives both revisions in
// order, and the final deck holds both changes.
import { createServer, type CoworkServer } from '@cowork/host/embed';
import { LiveTestClient, openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, type Presentation } from '../src';
import { deck, slide } from './deck';

const TOKEN = 'office-live-test-token-0123456789';

describe('a person and an agent editing one deck live', () => {
  let host: TempHost;
  let server: CoworkServer;
  let base: string;
  let ann: LiveTestClient;

  beforeAll(async () => {
    host = await openTempHost({ plugins: [plugin], prefix: 'cowork-office-live-' });
    server = await createServer({ host, token: TOKEN, port: 0, live: { heartbeatMs: 0 } });
    const { url } = await server.listen();
    base = url;
    ann = await LiveTestClient.connect(`${url.replace(/^http/, 'ws')}/ws`, { authorization: `Bearer ${TOKEN}` });
  });

  afterAll(async () => {
    await ann.close();
    await server.close();
    await host.dispose();
  });

  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  it('keeps both changes: the agent gets revision_conflict, rebases, and the live client sees both revisions', async () => {
    const created = await api('POST', '/api/resources', { kind: 'office.presentation', content: deck(), operator: 'human:ann' });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    // The agent reads the deck at revision 0 and starts working on a new slide.
    const agentBase = ((await api('GET', `/api/resources/${id}`)).json as { revision: number }).revision;
    expect(agentBase).toBe(0);

    ann.send({ type: 'subscribe', resourceId: id, requestId: 'sub' });
    await ann.next('subscribed', 'sub');
    ann.send({ type: 'commit', resourceId: id, baseRevision: 0, op: { type: 'edit_title', slideId: 'numbers', title: 'Figures for Q3' }, operator: 'human:ann', requestId: 'title' });
    expect(await ann.next('committed', 'title')).toMatchObject({ revision: 1 });

    const stale = await api('POST', `/api/resources/${id}/commits`, {
      baseRevision: agentBase,
      op: { type: 'add_slide', slide: slide('risks', 'Risks', { bullets: [{ text: 'Supplier delays', level: 0 }] }) },
      operator: 'agent:a1',
    });
    expect(stale.status).toBe(409);
    const conflict = stale.json.error as { code: string; currentRevision: number; candidateId: string };
    expect(conflict).toMatchObject({ code: 'revision_conflict', currentRevision: 1, candidateId: expect.any(String) });

    // Rebase: read what others changed since the agent's base, then accept the kept op on the new base.
    const changes = await api('GET', `/api/resources/${id}/changes?since=${agentBase}&excludeOperator=agent:a1`);
    expect(changes.json.changes).toEqual([expect.objectContaining({ revision: 1, operator: 'human:ann', op: expect.objectContaining({ type: 'edit_title' }) })]);
    const accepted = await api('POST', `/api/candidates/${conflict.candidateId}/accept`, { operator: 'agent:a1', baseRevision: conflict.currentRevision });
    expect(accepted).toMatchObject({ status: 200, json: { resourceId: id, revision: 2 } });

    await ann.until(() => ann.revisions(id).length >= 2, 'both revisions');
    expect(ann.revisions(id)).toEqual([1, 2]);
    const operators = ann.messages.filter((m) => m.type === 'revision').map((m) => m.operator);
    expect(operators).toEqual(['human:ann', 'agent:a1']);

    const final = (await api('GET', `/api/resources/${id}`)).json as { revision: number; content: Presentation };
    expect(final.revision).toBe(2);
    expect(final.content.slides.map((s) => [s.id, s.title])).toEqual([
      ['intro', 'Welcome'],
      ['numbers', 'Figures for Q3'],
      ['next', 'Next steps'],
      ['risks', 'Risks'],
    ]);
  });
});
