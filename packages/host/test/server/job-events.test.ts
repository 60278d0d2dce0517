/**
 * Invariant: a task's jobs stream to its live clients as they start and end, with their status and
 * true exit code, like the task's other events.
 */
import { startTestServer, TestClient, type Message, type TestServer } from './harness';

let t: TestServer;
afterEach(() => t.dispose());

it('streams a task job starting and ending', async () => {
  t = await startTestServer({ port: 0 });
  const url = await t.listen();
  await t.host.coordinator.record({ type: 'task.created', data: { taskId: 'task_jobs', request: 'run a job' } });
  const client = await TestClient.connect(url);
  client.send({ type: 'subscribe_task', taskId: 'task_jobs', requestId: 'j1' });
  await client.next('task_subscribed', 'j1');

  const job = await t.host.jobs.start({ command: 'sh', args: ['-c', 'sleep 0.3; exit 3'], name: 'short' }, { taskId: 'task_jobs' });
  const jobEvents = (ms: Message[]): Message[] =>
    ms.filter((m) => m.type === 'task_event' && (m.event as Message).type === 'job').map((m) => m.event as Message);
  await client.until((ms) => jobEvents(ms).some((e) => e.status === 'failed'), 'the job to end');
  expect(jobEvents(client.messages)).toEqual([
    expect.objectContaining({ jobId: job.id, name: 'short', status: 'running', exitCode: null }),
    expect.objectContaining({ jobId: job.id, status: 'failed', exitCode: 3 }),
  ]);
  await client.close();
});
