/**
 * Invariant: a task's runs are served over HTTP as the Runs service records them. After sandboxed
 * jobs wrote metrics.jsonl (the real Runs service), GET /api/tasks/:id/runs lists them newest first
 * in the shape agents see (runView), GET /runs/:runId answers one, and GET
 * /runs/:runId/metrics/:name?limit=N a metric's series oldest first (the last N points). An unknown
 * task, an unknown run or another task's run is 404 not_found; a bad limit, metric name or extra
 * query field is 400 invalid_input. A viewer reads them too.
 */
import type { RunRecord } from '../../src/store/run-records';
import { runView } from '../../src/agents/runs';
import { finishedRun, recordTask } from '../support/task-work';
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
const taskId = 'task_runs_http';
const otherTask = 'task_runs_other';
let baseline: RunRecord;
let tuned: RunRecord;
let elsewhere: RunRecord;

beforeAll(async () => {
  t = await startTestServer();
  await recordTask(t.host, taskId);
  await recordTask(t.host, otherTask);
  baseline = await finishedRun(t.host, taskId, {
    name: 'baseline',
    cwd: 'baseline',
    params: { lr: 0.1 },
    script: [
      'printf \'{"step":1,"loss":0.5,"acc":0.7}\\n\' >> metrics.jsonl',
      'printf \'{"step":2,"loss":0.25}\\n\' >> metrics.jsonl',
      'printf \'{"step":3,"loss":0.3}\\n\' >> metrics.jsonl',
      'printf \'not json\\n\' >> metrics.jsonl',
      'echo "METRIC acc=0.9 step=2"',
    ].join('; '),
  });
  tuned = await finishedRun(t.host, taskId, { name: 'tuned', cwd: 'tuned', params: { lr: 0.01 }, goal: { metric: 'acc', direction: 'max' }, script: 'echo \'{"step": 5, "loss": 0.2, "acc": 0.95, "train/loss": 0.1}\' > metrics.jsonl' });
  elsewhere = await finishedRun(t.host, otherTask, { name: 'other', cwd: 'other', script: 'echo \'{"loss": 1}\' > metrics.jsonl' });
}, 60_000);
afterAll(() => t?.dispose());

const get = (url: string, headers?: Record<string, string>): ReturnType<TestServer['request']> => t.request({ method: 'GET', url, headers });
type Point = { step: number | null; value: number; at: string };

it('the jobs wrote their metrics: the runs finished with them, the bad line a problem', () => {
  expect(baseline).toMatchObject({ status: 'succeeded', problemCount: 1, metrics: { loss: { last: 0.3, lastStep: 3, best: 0.25, bestStep: 2, count: 3 }, acc: { last: 0.9, best: 0.9, count: 2 } } });
  expect(tuned).toMatchObject({ status: 'succeeded', goal: { metric: 'acc', direction: 'max' }, metrics: { loss: { last: 0.2 }, acc: { last: 0.95 } } });
});

it("GET /api/tasks/:id/runs lists the task's runs newest first, as agents see them", async () => {
  const res = await get(`/api/tasks/${taskId}/runs`);
  expect(res.statusCode).toBe(200);
  const { runs } = body<{ runs: Record<string, unknown>[] }>(res);
  expect(runs.map((r) => r.id)).toEqual([tuned.id, baseline.id]);
  expect(runs).toEqual([runView(await t.host.runs.get(taskId, tuned.id)), runView(await t.host.runs.get(taskId, baseline.id))]);
  expect(runs[1]).toMatchObject({
    name: 'baseline',
    status: 'succeeded',
    params: { lr: 0.1 },
    goal: null,
    jobIds: [baseline.sources[0]!.jobId],
    problems: [{ jobId: baseline.sources[0]!.jobId, file: 'metrics.jsonl', line: 4, reason: expect.stringContaining('not JSON') }],
  });
  // No sources, offsets or creator: only the view.
  expect(Object.keys(runs[0]!).sort()).toEqual(['artifacts', 'endedAt', 'goal', 'id', 'jobIds', 'metrics', 'name', 'params', 'problemCount', 'problems', 'startedAt', 'status', 'taskId']);
  // Another task's runs are its own.
  expect(body<{ runs: { id: string }[] }>(await get(`/api/tasks/${otherTask}/runs`)).runs.map((r) => r.id)).toEqual([elsewhere.id]);
});

it('GET /api/tasks/:id/runs/:runId answers one run with its metrics', async () => {
  const res = await get(`/api/tasks/${taskId}/runs/${baseline.id}`);
  expect(res.statusCode).toBe(200);
  expect(body(res)).toEqual(runView(baseline));
  expect(body(res)).toMatchObject({ metrics: { loss: { last: 0.3, best: 0.25, bestStep: 2, direction: 'min', count: 3 } } });
});

it('GET /runs/:runId/metrics/:name answers the series oldest first, the last `limit` points', async () => {
  const all = await get(`/api/tasks/${taskId}/runs/${baseline.id}/metrics/loss`);
  expect(all.statusCode).toBe(200);
  const series = body<{ name: string; points: Point[] }>(all);
  expect(series.name).toBe('loss');
  expect(series.points.map((p) => [p.step, p.value])).toEqual([
    [1, 0.5],
    [2, 0.25],
    [3, 0.3],
  ]);
  expect(series.points.every((p) => typeof p.at === 'string')).toBe(true);
  const last = body<{ points: Point[] }>(await get(`/api/tasks/${taskId}/runs/${baseline.id}/metrics/loss?limit=2`)).points;
  expect(last.map((p) => p.value)).toEqual([0.25, 0.3]);
  // From both sources: metrics.jsonl and the METRIC stdout line.
  expect(body<{ points: Point[] }>(await get(`/api/tasks/${taskId}/runs/${baseline.id}/metrics/acc`)).points.map((p) => [p.step, p.value])).toEqual([
    [1, 0.7],
    [2, 0.9],
  ]);
  // A name with a slash is sent encoded.
  expect(body<{ name: string; points: Point[] }>(await get(`/api/tasks/${taskId}/runs/${tuned.id}/metrics/train%2Floss`))).toMatchObject({ name: 'train/loss', points: [{ step: 5, value: 0.1 }] });
  // A metric the run never reported has no points.
  expect(body(await get(`/api/tasks/${taskId}/runs/${baseline.id}/metrics/val_loss`))).toEqual({ name: 'val_loss', points: [] });
});

it('answers 404 not_found for an unknown task, an unknown run and another task\'s run', async () => {
  for (const url of [
    '/api/tasks/task_nope/runs',
    `/api/tasks/task_nope/runs/${baseline.id}`,
    `/api/tasks/task_nope/runs/${baseline.id}/metrics/loss`,
    `/api/tasks/${taskId}/runs/run_nope`,
    `/api/tasks/${taskId}/runs/run_nope/metrics/loss`,
    `/api/tasks/${taskId}/runs/${elsewhere.id}`,
    `/api/tasks/${taskId}/runs/${elsewhere.id}/metrics/loss`,
    `/api/tasks/${otherTask}/runs/${baseline.id}`,
  ]) {
    const res = await get(url);
    expect({ url, status: res.statusCode, code: errorCode(res) }).toEqual({ url, status: 404, code: 'not_found' });
  }
});

it('answers 400 invalid_input for a bad limit, a bad metric name or an unknown query field', async () => {
  const base = `/api/tasks/${taskId}/runs/${baseline.id}/metrics`;
  for (const url of [`${base}/loss?limit=0`, `${base}/loss?limit=-1`, `${base}/loss?limit=x`, `${base}/loss?limit=1.5`, `${base}/loss?limit=1001`, `${base}/loss?step=1`, `${base}/1loss`, `${base}/${'a'.repeat(65)}`]) {
    const res = await get(url);
    expect({ url, status: res.statusCode, code: errorCode(res) }).toEqual({ url, status: 400, code: 'invalid_input' });
  }
});

it('a viewer reads the runs and their series', async () => {
  const added = await t.request({ method: 'POST', url: '/api/users', payload: { name: 'vic', role: 'viewer' } });
  expect(added.statusCode).toBe(201);
  const as = { authorization: `Bearer ${body<{ token: string }>(added).token}` };
  expect((await get(`/api/tasks/${taskId}/runs`, as)).statusCode).toBe(200);
  expect((await get(`/api/tasks/${taskId}/runs/${tuned.id}`, as)).statusCode).toBe(200);
  expect((await get(`/api/tasks/${taskId}/runs/${tuned.id}/metrics/acc?limit=1`, as)).statusCode).toBe(200);
  expect(t.errors).toEqual([]);
});

it('documents the three routes in the OpenAPI document', async () => {
  const doc = body<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(await get('/api/openapi.json'));
  expect(Object.keys(doc.paths['/api/tasks/{id}/runs']!.get!.responses)).toEqual(['200', '400', '401', '403', '404']);
  expect(Object.keys(doc.paths['/api/tasks/{id}/runs/{runId}']!.get!.responses)).toEqual(['200', '400', '401', '403', '404']);
  expect(Object.keys(doc.paths['/api/tasks/{id}/runs/{runId}/metrics/{name}']!.get!.responses)).toEqual(['200', '400', '401', '403', '404']);
});
