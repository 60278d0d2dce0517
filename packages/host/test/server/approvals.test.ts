/**
 * Invariant: a person decides a waiting high-impact call over HTTP or WebSocket, recorded as
 * themselves; a viewer cannot decide, an agent operator never can; deciding twice is refused; the
 * task's live clients see the approval asked for and decided; the policy is readable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRecord } from '../../src/store/approval-records';
import { body, errorCode, startTestServer, TestClient, type TestServer } from './harness';

let t: TestServer;
let wsUrl: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({ port: 0 });
  wsUrl = await t.listen();
  for (const [name, role] of [['ann', 'editor'], ['vic', 'viewer']] as const) {
    tokens[name] = body<{ token: string }>(await t.request({ method: 'POST', url: '/api/users', payload: { name, role } })).token;
  }
});
afterAll(() => t.dispose());

const as = (name: string): { authorization: string } => ({ authorization: `Bearer ${tokens[name]}` });
let calls = 0;

/** A call waiting for a person, as the runtime asks for one. */
function waiting(taskId = 'task_1'): Promise<ApprovalRecord> {
  calls++;
  return t.host.approvals.request({ taskId, agentId: 'main', callKey: `${taskId}/main/1/c${calls}`, tool: 'deploy_site', impact: 'publish', input: { site: 'docs' } });
}

it('lists waiting calls and records an approval as the person who gave it', async () => {
  const approval = await waiting();
  const listed = body<{ approvals: ApprovalRecord[] }>(await t.request({ method: 'GET', url: '/api/approvals?status=pending', headers: as('vic') }));
  expect(listed.approvals.map((a) => a.id)).toContain(approval.id);
  expect(listed.approvals.find((a) => a.id === approval.id)).toMatchObject({ tool: 'deploy_site', impact: 'publish', input: { site: 'docs' }, status: 'pending' });

  const byViewer = await t.request({ method: 'POST', url: `/api/approvals/${approval.id}/approve`, payload: {}, headers: as('vic') });
  expect([byViewer.statusCode, errorCode(byViewer)]).toEqual([403, 'forbidden']);
  const asSomeoneElse = await t.request({ method: 'POST', url: `/api/approvals/${approval.id}/approve`, payload: { operator: 'human:owner' }, headers: as('ann') });
  expect(errorCode(asSomeoneElse)).toBe('forbidden');
  const byOwnerAsAgent = await t.request({ method: 'POST', url: `/api/approvals/${approval.id}/approve`, payload: { operator: 'agent:main' } });
  expect(errorCode(byOwnerAsAgent)).toBe('forbidden');
  expect((await t.host.approvals.get(approval.id)).status).toBe('pending');

  const approved = await t.request({ method: 'POST', url: `/api/approvals/${approval.id}/approve`, payload: { reason: 'ship it' }, headers: as('ann') });
  expect(body(approved)).toMatchObject({ id: approval.id, status: 'approved', decidedBy: 'human:ann', reason: 'ship it' });
  const again = await t.request({ method: 'POST', url: `/api/approvals/${approval.id}/deny`, payload: {}, headers: as('ann') });
  expect([again.statusCode, errorCode(again)]).toEqual([409, 'invalid_transition']);
  expect(errorCode(await t.request({ method: 'POST', url: '/api/approvals/apr_nope/approve', payload: {} }))).toBe('not_found');
});

it("denies over WebSocket, and the task's subscribers see the approval asked for and decided", async () => {
  const ann = await TestClient.connect(wsUrl, as('ann'));
  const vic = await TestClient.connect(wsUrl, as('vic'));
  try {
    const taskId = 'task_ws';
    await t.host.coordinator.record({ type: 'task.created', data: { taskId, request: 'publish the docs' } });
    vic.send({ type: 'subscribe_task', taskId, requestId: 's' });
    await vic.next('task_subscribed', 's');
    const approval = await waiting(taskId);
    await vic.until((ms) => ms.some((m) => m.type === 'task_event' && (m.event as { type: string }).type === 'approval'), 'approval asked');

    vic.send({ type: 'decide_approval', approvalId: approval.id, decision: 'approve', requestId: 'v' });
    expect((await vic.next('error', 'v')).error).toMatchObject({ code: 'forbidden' });
    ann.send({ type: 'decide_approval', approvalId: approval.id, decision: 'deny', reason: 'not today', requestId: 'a' });
    expect((await ann.next('approval_decided', 'a')).approval).toMatchObject({ status: 'denied', decidedBy: 'human:ann', reason: 'not today' });
    await vic.until(
      (ms) => ms.some((m) => m.type === 'task_event' && (m.event as { approval?: { status?: string } }).approval?.status === 'denied'),
      'approval decided',
    );
  } finally {
    ann.socket.close();
    vic.socket.close();
  }
});

it('shows the policy in force, and refuses a broken one with its problems', async () => {
  expect(body(await t.request({ method: 'GET', url: '/api/policy' }))).toEqual({
    approvals: { network: 'ask', unsandboxed: 'ask', publish: 'ask', delete: 'ask', destructive: 'ask', high_impact: 'ask' },
  });
  writeFileSync(join(t.host.workspaceDir, 'policy.json'), JSON.stringify({ approvals: { network: 'allow' } }));
  expect(body<{ approvals: Record<string, string> }>(await t.request({ method: 'GET', url: '/api/policy' })).approvals.network).toBe('allow');
  writeFileSync(join(t.host.workspaceDir, 'policy.json'), JSON.stringify({ approvals: { everything: 'allow' } }));
  const broken = await t.request({ method: 'GET', url: '/api/policy' });
  expect(errorCode(broken)).toBe('invalid_config');
  expect(broken.body).toContain('unknown impact');
});
