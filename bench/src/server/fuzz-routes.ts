/**
 * The route fuzzer (`fuzzRoutes` from the host's testkit) against a server with every plugin
 * loaded, as `npm start` runs it: 300 schema-driven cases per route of the OpenAPI document, with
 * resources of every kind to aim at. Prints each route's answers by status and every failure (a
 * 5xx, an error outside the documented shape, no answer); exits 1 when there is one.
 *
 *   npm run bench:fuzz -w @cowork/bench        (BENCH_FUZZ_CASES per route, default 300; BENCH_FUZZ_SEED)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Json } from '@cowork/host';
import { createServer, Host } from '@cowork/host/embed';
import { fuzzRoutes } from '@cowork/host/testkit';
import { closeHostAndStopBlender } from '@cowork/plugin-blender-bridge';

const CASES = Number(process.env.BENCH_FUZZ_CASES ?? 300);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 7);
/** One op of each kind that fits it, for the fuzzer to send as it is or with one field made wrong. */
const SAMPLE_OPS: Json[] = [
  { type: 'append', text: 'x' },
  { type: 'set_deck_title', title: 'Deck' },
  { type: 'put_file', path: 'app.js', text: 'console.log(1)' },
  { type: 'set_parameter', name: 'width', value: 10 },
  { type: 'add_feature', feature: { type: 'sphere', id: 's2', radius: 1 } },
  { type: 'add_object', name: 'cube', primitive: { type: 'cube', size: 1 } },
];
const PLUGINS = ['@cowork/plugin-office', '@cowork/plugin-web', '@cowork/plugin-cad', '@cowork/plugin-blender-bridge'];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-fuzz-'));
  const host = await Host.open({ workspaceDir: dir, pluginModules: PLUGINS });
  const token = randomBytes(24).toString('hex');
  const server = await createServer({ host, token, port: 0, onError: () => undefined });
  let failed = false;
  try {
    const { url } = await server.listen();
    const kinds = host.registry.kinds().map((k) => k.kind.name);
    const ids: string[] = [];
    for (const kind of kinds) ids.push((await host.resources.create({ kind, operator: 'human:fuzz' })).id);
    const formats = [...new Set(host.registry.kinds().flatMap((k) => [...Object.keys(k.kind.exports ?? {}), ...Object.keys(k.kind.imports ?? {})]))];
    const started = performance.now();
    const report = await fuzzRoutes({
      url,
      token,
      seed: SEED,
      casesPerRoute: CASES,
      casesFor: { 'POST /api/demo': 10 },
      known: { id: ids, kind: kinds, format: formats, operator: ['human:fuzz', 'agent:fuzz'], baseRevision: [0, 1], op: SAMPLE_OPS },
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`${report.cases} cases over ${report.routes.length} routes in ${seconds.toFixed(0)} s (seed ${SEED}), kinds: ${kinds.join(', ')}`);
    for (const route of report.routes) {
      const statuses = Object.entries(route.statuses)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, n]) => `${status}x${n}`)
        .join(' ');
      console.log(`${route.route.padEnd(48)} ${statuses}`);
    }
    console.log(`\nfailures (5xx, no answer, or an error outside the shape): ${report.failures.length}`);
    for (const failure of report.failures.slice(0, 20)) console.log(JSON.stringify(failure));
    failed = report.failures.length > 0;
  } finally {
    await server.close();
    await closeHostAndStopBlender(host);
    rmSync(dir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

void main();
