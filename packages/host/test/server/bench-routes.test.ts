/**
 * Invariant: `cowork serve` lists the workspace's benchmark runs and serves each one's report page,
 * which carries no script; an unknown run is 404 and a run id that is not a plain name is refused.
 */
import { join } from 'node:path';
import { runSuite } from '../../src/evaluation/runner';
import { runtimeSuite } from '../../src/evaluation/runtime-suite';
import { BENCH_RUNS_DIR } from '../../src/server/routes/bench';
import { body, errorCode, startTestServer, type TestServer } from './harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await runSuite({ suite: runtimeSuite, tasks: ['append-line'], trials: 1, model: { kind: 'script', dir: join(runtimeSuite.dir, 'solutions', 'reference') }, modelName: 'replay', host: {}, outDir: join(t.host.workspaceDir, BENCH_RUNS_DIR, 'first') });
}, 60_000);
afterAll(() => t.dispose());

it('lists the runs and serves a report page without scripts', async () => {
  const list = await t.request({ method: 'GET', url: '/api/bench/runs' });
  expect(list.statusCode).toBe(200);
  expect(body<{ runs: { id: string; suite: string; trials: number }[] }>(list).runs).toEqual([expect.objectContaining({ id: 'first', suite: 'runtime', trials: 1 })]);
  const report = await t.request({ method: 'GET', url: '/api/bench/runs/first/report' });
  expect(report.statusCode).toBe(200);
  expect(report.headers['content-type']).toMatch(/^text\/html/);
  expect(report.body).toContain('append-line');
  expect(report.body).not.toMatch(/<script/i);
});

it('answers 404 for an unknown run and 400 for an id that is not a plain name', async () => {
  const missing = await t.request({ method: 'GET', url: '/api/bench/runs/nope/report' });
  expect([missing.statusCode, errorCode(missing)]).toEqual([404, 'not_found']);
  const escape = await t.request({ method: 'GET', url: '/api/bench/runs/..%2F..%2Fetc/report' });
  expect([escape.statusCode, errorCode(escape)]).toEqual([400, 'invalid_input']);
});
