import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CoworkError } from '../../errors';
import { summarize } from '../../evaluation/metrics';
import { reportHtml } from '../../evaluation/report-html';
import { RESULTS_FORMAT, type ResultsFile } from '../../evaluation/results-format';
import type { ServerContext } from '../context';

/** Where `cowork bench run` keeps a workspace's runs (unless told `--out` elsewhere). */
export const BENCH_RUNS_DIR = 'bench-runs';

const RunParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$' }) });
type RunParams = Static<typeof RunParams>;

/**
 * The workspace's benchmark runs: a list with their headline figures, and each run's report page
 * (the same self-contained HTML `cowork bench report --html` writes: no scripts, no outside URLs).
 */
export function registerBenchRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const root = join(ctx.host.workspaceDir, BENCH_RUNS_DIR);
  const tags = ['bench'];
  const read = (id: string): ResultsFile => {
    const path = join(root, id, 'results.json');
    if (!existsSync(path)) throw new CoworkError('not_found', `no benchmark run ${JSON.stringify(id)} in this workspace`, { runId: id });
    const results = JSON.parse(readFileSync(path, 'utf8')) as ResultsFile;
    if (results.format !== RESULTS_FORMAT) throw new CoworkError('not_found', `benchmark run ${id} has no results in the ${RESULTS_FORMAT} format`, { runId: id });
    return results;
  };

  app.get('/api/bench/runs', { schema: { summary: "The workspace's benchmark runs, newest first, with their headline figures", tags } }, async () => {
    const ids = existsSync(root) ? readdirSync(root).filter((id) => existsSync(join(root, id, 'results.json'))) : [];
    const runs = ids.flatMap((id) => {
      try {
        const results = read(id);
        const { totals } = summarize(results);
        return [{ id, suite: results.suite, model: results.model, updatedAt: results.updatedAt, trials: results.trials.length, totals }];
      } catch {
        return []; // a run still writing its first trial, or a damaged file: left out of the list
      }
    });
    return { runs: runs.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) };
  });

  app.get<{ Params: RunParams }>('/api/bench/runs/:id/report', { schema: { summary: "A benchmark run's report page (HTML)", tags, params: RunParams } }, async (request, reply) => {
    void reply.type('text/html; charset=utf-8');
    return reportHtml(read(request.params.id));
  });
}
