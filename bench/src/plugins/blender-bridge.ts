/**
 * The Blender bridge's costs: Blender's start (bare, until its bridge answers; and the first commit
 * to a scene, which starts Blender as a host job, builds the scene and saves it), the op round trip
 * (bridge `apply`, which performs the op and answers with the scene snapshot; and a whole host
 * commit: observe, model check, apply, record), a snapshot, and save, GLB export and PNG render;
 * and a burst of concurrent PNG exports of a scene no session shows (after a restart): its time and
 * the most short-lived Blenders alive at once (the plugin's queue shares one result among them);
 * and RESTARTED scenes committed to at once after a host restart with their Blenders stopped: the
 * time until all answered (the plugin starts at most `maxStarting` Blenders at once).
 *
 * BENCH_BLENDER_OPS (default 200) ops per round-trip figure. Prints figures; asserts nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Json } from '@cowork/host';
import { Host } from '@cowork/host/embed';
import { BlenderProcess, childLauncher, closeHostAndStopBlender, plugin, socketPathFor, type Scene } from '@cowork/plugin-blender-bridge';
import { timed } from '../clock';
import { latencyLine } from '../stats';

const OPS = Number(process.env.BENCH_BLENDER_OPS ?? 200);
const STARTS = 5;
const EXPORTS = 3;
const OBJECTS = 20;
const BURST = 20;
const RESTARTED = 10;

const line = (label: string, samples: number[]): void => console.log(latencyLine(label, samples));

const move = (i: number): Json => ({ type: 'set_transform', object: `Box${i % OBJECTS}`, location: [i % 7, (i * 3) % 5, 0.5 + (i % 11) / 10] });

async function bridgeFigures(dir: string): Promise<void> {
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const [blender, ms] = await timed(() => BlenderProcess.start(childLauncher, { socketPath: join(dir, `start${i}.sock`), cwd: dir, name: 'bench' }));
    starts.push(ms);
    await blender.stop();
  }
  line('blender start (bare, until the bridge answers)', starts);

  const blender = await BlenderProcess.start(childLauncher, { socketPath: socketPathFor(dir), cwd: dir, name: 'bench' });
  try {
    for (let i = 0; i < OBJECTS; i++) await blender.apply({ type: 'add_object', name: `Box${i}`, primitive: { shape: 'cube', size: 0.5 }, location: [i, 0, 0.25] });
    const applies: number[] = [];
    for (let i = 0; i < OPS; i++) applies.push((await timed(() => blender.apply(move(i))))[1]);
    line(`bridge apply + snapshot (${OBJECTS} objects)`, applies);
    const snapshots: number[] = [];
    for (let i = 0; i < OPS; i++) snapshots.push((await timed(() => blender.snapshot()))[1]);
    line(`bridge snapshot (${OBJECTS} objects)`, snapshots);
    const saves: number[] = [];
    const glbs: number[] = [];
    const pngs: number[] = [];
    for (let i = 0; i < EXPORTS; i++) {
      saves.push((await timed(() => blender.save(join(dir, 'scene.blend'))))[1]);
      glbs.push((await timed(() => blender.exportGlb(join(dir, 'scene.glb'))))[1]);
      pngs.push((await timed(() => blender.renderPng(join(dir, 'scene.png'))))[1]);
    }
    line('save .blend', saves);
    line('export GLB', glbs);
    line('render PNG (Cycles CPU 320x240, 16 samples)', pngs);
  } finally {
    await blender.stop();
  }
}

async function hostFigures(dir: string): Promise<void> {
  const host = await Host.open({ workspaceDir: dir, plugins: [plugin], externalPollMs: 0 });
  try {
    const resource = await host.resources.create({ kind: 'blender.scene', operator: 'human:bench' });
    let revision = resource.revision;
    const commit = async (op: Json): Promise<void> => {
      revision = (await host.resources.commit(resource.id, { baseRevision: revision, op, operator: 'agent:bench' })).revision;
    };
    const [, firstMs] = await timed(() => commit({ type: 'add_object', name: 'Box0', primitive: { shape: 'cube', size: 0.5 } }));
    console.log(`${'first commit (starts Blender as a job, builds, saves)'.padEnd(44)} ${firstMs.toFixed(1)} ms`);
    for (let i = 1; i < OBJECTS; i++) await commit({ type: 'add_object', name: `Box${i}`, primitive: { shape: 'cube', size: 0.5 }, location: [i, 0, 0.25] });
    const commits: number[] = [];
    for (let i = 0; i < OPS; i++) commits.push((await timed(() => commit(move(i))))[1]);
    line(`host commit (observe, apply, record; ${OBJECTS} objects)`, commits);
    const [exported, exportMs] = await timed(() => host.exports.export(resource.id, 'glb'));
    const objects = ((await host.resources.get(resource.id)).content as Scene).objects.length;
    console.log(`${'host GLB export (live Blender)'.padEnd(44)} ${exportMs.toFixed(1)} ms   (${exported.data.byteLength} bytes, ${objects} objects)`);
    await burstFigure(host);
  } finally {
    await closeHostAndStopBlender(host);
  }
}

/** BURST concurrent PNG exports of a scene with no open session, as after a server restart. */
async function burstFigure(host: Host): Promise<void> {
  const scene = await host.resources.create({ kind: 'blender.scene', operator: 'human:bench' });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, childBlenders())), 20);
  try {
    const [results, ms] = await timed(() => Promise.allSettled(Array.from({ length: BURST }, () => host.exports.export(scene.id, 'png'))));
    const failed = results.filter((r) => r.status === 'rejected').length;
    console.log(`${`${BURST} concurrent PNG exports (no session)`.padEnd(44)} ${ms.toFixed(1)} ms   (at most ${peak} Blenders at once, ${failed} failed)`);
  } finally {
    clearInterval(sampler);
  }
}

/** Blender processes this process started (short-lived ones are its children). */
function childBlenders(): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const stat = (() => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        return ''; // ended meanwhile
      }
    })();
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (stat.includes('(blender)') && Number(after[1]) === process.pid) count += 1;
  }
  return count;
}

/** RESTARTED scenes opened, the host restarted with their Blenders stopped, then one commit to each at once. */
async function restartFigure(dir: string): Promise<void> {
  let host = await Host.open({ workspaceDir: dir, plugins: [plugin], externalPollMs: 0 });
  const ids: string[] = [];
  try {
    for (let i = 0; i < RESTARTED; i++) ids.push((await host.resources.create({ kind: 'blender.scene', operator: 'human:bench' })).id);
    await Promise.all(ids.map((id) => host.resources.syncExternal(id)));
  } finally {
    await closeHostAndStopBlender(host);
  }
  host = await Host.open({ workspaceDir: dir, plugins: [plugin], externalPollMs: 0 });
  try {
    const op = { type: 'set_transform', object: 'Cube', location: [0, 0, 2] };
    const [results, ms] = await timed(() => Promise.allSettled(ids.map((id) => host.resources.commit(id, { baseRevision: 0, op, operator: 'agent:bench' }))));
    const failed = results.filter((r) => r.status === 'rejected').length;
    console.log(`${`${RESTARTED} scenes committed at once after a restart`.padEnd(44)} ${ms.toFixed(1)} ms   (each starts its Blender; ${failed} failed)`);
  } finally {
    await closeHostAndStopBlender(host);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-blender-'));
  try {
    console.log(`Blender bridge: Blender 3.4.1 in background mode, JSON lines over a Unix socket`);
    await bridgeFigures(dir);
    await hostFigures(dir);
    await restartFigure(mkdtempSync(join(dir, 'restart-')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
