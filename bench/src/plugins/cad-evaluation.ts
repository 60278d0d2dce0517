/**
 * The CAD plugin's kernel costs: starting the worker and loading OpenCascade (WASM), evaluating a
 * 50-feature part (a plate, 24 holes each a cylinder and a cut, a chamfer of every top edge) in a
 * fresh worker and in a warm one, and exporting it to STEP, STL and GLB.
 *
 * It also times a new part's first STEP export on a host just opened for one command (the kernel
 * loads on that request) and on a long-lived host (a server), whose plugin start loaded it.
 *
 * Cold figures start a new worker each sample (BENCH_CAD_COLD, default 3); warm figures change a
 * parameter each sample so that nothing is answered from a cache (BENCH_CAD_SAMPLES, default 10).
 * Prints figures; asserts nothing.
 */
import { openTempHost } from '@cowork/host/testkit';
import { plugin, sharedKernel, type CadKernel, type Feature, type Part } from '@cowork/plugin-cad';
import { timed } from '../clock';
import { latencyLine } from '../stats';

const COLD = Number(process.env.BENCH_CAD_COLD ?? 3);
const SAMPLES = Number(process.env.BENCH_CAD_SAMPLES ?? 10);

/** 1 plate + 24 × (cylinder, cut) + 1 chamfer = 50 features. */
function plate(thickness: number): Part {
  const features: Feature[] = [{ id: 'plate', type: 'box', width: 'w', depth: 'd', height: 't' }];
  let body = 'plate';
  for (let i = 0; i < 24; i++) {
    const [x, y] = [10 + (i % 8) * 25, 20 + Math.floor(i / 8) * 30];
    features.push({ id: `pin${i}`, type: 'cylinder', radius: 'r', height: 't + 2', at: [x, y, -1] });
    features.push({ id: `hole${i}`, type: 'cut', target: body, tools: [`pin${i}`] });
    body = `hole${i}`;
  }
  features.push({ id: 'edge', type: 'chamfer', target: body, distance: 0.5, edges: { inPlane: 'XY', offset: 't' } });
  return { units: 'mm', parameters: { w: 200, d: 100, t: thickness, r: 4 }, features };
}

const figures = (label: string, samples: number[]): void => console.log(latencyLine(label, samples));

async function evaluated(kernel: CadKernel, part: Part): Promise<number> {
  const [evaluation, ms] = await timed(() => kernel.evaluate(part));
  if (!evaluation.ok) throw new Error(`the bench part does not build: ${evaluation.message}`);
  return ms;
}

/**
 * A new part's creation (its build is checked) and first STEP export on a freshly opened host; a
 * long-lived one first waits for its start's load. Each sample's part is new to the kernel's cache.
 */
async function firstExport(longLived: boolean, sample: number): Promise<number> {
  const host = await openTempHost({ plugins: [plugin], pollMonitors: longLived, prefix: 'cowork-bench-cad-' });
  try {
    while (longLived && sharedKernel().state() !== 'ready') await new Promise((done) => setTimeout(done, 10));
    const content = plate(5 + sample / 100 + (longLived ? 0.5 : 0));
    return (await timed(async () => host.exports.export((await host.resources.create({ kind: 'cad.part', content, operator: 'human:bench' })).id, 'step')))[1];
  } finally {
    await host.dispose();
  }
}

async function main(): Promise<void> {
  const kernel = sharedKernel();
  const firstOnCommand: number[] = [];
  const firstOnServer: number[] = [];
  for (let i = 0; i < COLD; i++) {
    firstOnCommand.push(await firstExport(false, i));
    firstOnServer.push(await firstExport(true, i));
  }
  const starts: number[] = [];
  const coldEvaluations: number[] = [];
  for (let i = 0; i < COLD; i++) {
    await kernel.close();
    starts.push((await timed(() => kernel.warm()))[1]);
    coldEvaluations.push(await evaluated(kernel, plate(10 + i / 100)));
  }
  const warm: number[] = [];
  const cached: number[] = [];
  const exports: Record<'step' | 'stl' | 'glb', number[]> = { step: [], stl: [], glb: [] };
  const sizes: Record<string, number> = {};
  for (let i = 0; i < SAMPLES; i++) {
    const part = plate(12 + i / 100);
    warm.push(await evaluated(kernel, part));
    cached.push(await evaluated(kernel, part));
    for (const format of ['step', 'stl', 'glb'] as const) {
      const [data, ms] = await timed(() => kernel.export(part, format, 'bench'));
      exports[format].push(ms);
      sizes[format] = data.length;
    }
  }
  await kernel.close();
  console.log('CAD kernel (replicad-opencascadejs 1.1.0 in one worker thread), 50-feature part');
  figures('cold start: worker + WASM load', starts);
  figures('new part + STEP, host for one command', firstOnCommand);
  figures('new part + STEP, server (loaded at start)', firstOnServer);
  figures('evaluation, first in a fresh worker', coldEvaluations);
  figures('evaluation, warm worker, new content', warm);
  figures('evaluation, same content again (cache)', cached);
  for (const format of ['step', 'stl', 'glb'] as const) {
    figures(`export ${format} of the built shape (${(sizes[format]! / 1024).toFixed(0)} KiB)`, exports[format]);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
