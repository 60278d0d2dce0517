// Invariant: through a real Host and its WebSocket, a person changing a dimension and an agent
// adding a fillet from the same older base both land: the agent's cad_edit gets revision_conflict,
// its op is kept as a candidate, and accepting it on the new base gives a part with both changes.
// cad_edit refuses ops whose part would not build (fillet too large, a cut leaving nothing, a
// corrupt STEP solid) with the feature at fault and leaves the revision unchanged; a revision
// committed without that check still reports the failing feature on export and in cad_check.
import { type Json, type ToolResult } from '@cowork/host';
import { PluginRegistry, createServer, type CoworkServer } from '@cowork/host/embed';
import { LiveTestClient, openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, sharedKernel, type Part, type PartOp } from '../src';

const TOKEN = 'cad-test-token-0123456789';
let host: TempHost;
let server: CoworkServer;
let url: string;

beforeAll(async () => {
  host = await openTempHost({ plugins: [plugin], prefix: 'cowork-cad-host-' });
  server = await createServer({ host, token: TOKEN, port: 0, live: { heartbeatMs: 0 } });
  url = `${(await server.listen()).url.replace('http', 'ws')}/ws`;
});

afterAll(async () => {
  await server.close();
  await host.dispose(); // also stops the CAD worker (the plugin's close)
});

function tool(name: string, input: Record<string, unknown>, operator: `agent:${string}` = 'agent:a1'): Promise<ToolResult> {
  const registered = host.registry.tool(name);
  if (!registered) throw new Error(`no tool ${name}`);
  return registered.tool.handler(input as Json, { operator, signal: new AbortController().signal, host: { workspaceDir: host.workspaceDir, resources: host.resources } });
}

function errorOf(result: ToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  return (result.content as { error: Record<string, unknown> }).error;
}

const fillet = (radius: number): PartOp => ({ type: 'add_feature', feature: { id: 'round', type: 'fillet', target: 'base', radius, edges: { parallelTo: 'z' } } });

it('passes the loader checks', () => {
  expect(new PluginRegistry().check(plugin)).toEqual([]);
  expect(host.pluginProblems).toEqual([]);
  expect(host.registry.kinds().map((k) => k.kind.name)).toEqual(expect.arrayContaining(['cad.part', 'cad.assembly']));
});

it('keeps a dimension changed over the WebSocket and a fillet an agent added from the older base', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  const person = await LiveTestClient.connect(url, { authorization: `Bearer ${TOKEN}` });
  try {
    person.send({ type: 'subscribe', resourceId: r.id, sinceRevision: 0, requestId: 's' });
    await person.next('subscribed', 's');
    person.send({ type: 'commit', resourceId: r.id, baseRevision: 0, op: { type: 'set_parameter', name: 'width', value: 60 }, operator: 'human:ann', requestId: 'c' });
    expect(await person.next('committed', 'c')).toMatchObject({ revision: 1 });

    const conflict = errorOf(await tool('cad_edit', { resourceId: r.id, baseRevision: 0, op: fillet(3) }));
    expect(conflict).toMatchObject({ code: 'revision_conflict', currentRevision: 1 });
    const accepted = await host.resources.acceptCandidate(conflict.candidateId as string, { operator: 'agent:a1', baseRevision: 1 });
    expect(accepted.revision).toBe(2);
    await person.until((ms) => ms.some((m) => m.type === 'revision' && m.revision === 2), 'revision 2');
    expect(person.revisions(r.id)).toEqual([1, 2]);

    const content = (await host.resources.get(r.id)).content as Part;
    expect(content.parameters.width).toBe(60);
    expect(content.features.map((f) => f.id)).toEqual(['base', 'round']);
    const check = (await tool('cad_check', { resourceId: r.id })).content as Record<string, unknown>;
    expect(check).toMatchObject({ ok: true, valid: true, solids: 1, revision: 2, bbox: { min: [0, 0, 0], max: [60, 30, 20] } });
    // Four vertical edges of 20 mm each lose (1 - π/4)·r² of section to a 3 mm fillet.
    expect(check.volume as number).toBeCloseTo(60 * 30 * 20 - 4 * 20 * (1 - Math.PI / 4) * 9, 3);
    const diff = await host.resources.diff(r.id, 0, 2);
    expect(diff).toContain('parameter width: 40 → 60');
    expect(diff).toContain('added feature 2. [round] fillet base, radius 3, edges parallel to z');
  } finally {
    await person.close();
  }
});

it('refuses edits whose part would not build, naming the feature, and writes nothing', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  const tooLarge = errorOf(await tool('cad_edit', { resourceId: r.id, baseRevision: 0, op: fillet(40) }));
  expect(tooLarge).toMatchObject({ code: 'invalid_op', featureId: 'round' });
  expect(tooLarge.message).toMatch(/nothing was committed: feature round \(fillet\): a fillet of 40 mm does not fit/);

  const swallow: PartOp = { type: 'add_feature', feature: { id: 'all', type: 'box', width: 100, depth: 100, height: 100, at: [-10, -10, -10] } };
  const cut: PartOp = { type: 'add_feature', feature: { id: 'gone', type: 'cut', target: 'base', tools: ['all'] } };
  const added = (await tool('cad_edit', { resourceId: r.id, baseRevision: 0, op: swallow })).content as { revision: number };
  expect(added.revision).toBe(1);
  expect(errorOf(await tool('cad_edit', { resourceId: r.id, baseRevision: 1, op: cut }))).toMatchObject({ code: 'invalid_op', featureId: 'gone', message: expect.stringMatching(/cutting base with all leaves nothing/) });

  const corrupt: PartOp = { type: 'add_feature', feature: { id: 'bad', type: 'step', data: Buffer.from('not a step file').toString('base64') } };
  expect(errorOf(await tool('cad_edit', { resourceId: r.id, baseRevision: 1, op: corrupt }))).toMatchObject({ code: 'invalid_op', featureId: 'bad' });
  expect(errorOf(await tool('cad_edit', { resourceId: r.id, baseRevision: 1, op: { type: 'remove_feature', id: 'ghost' } }))).toMatchObject({ code: 'invalid_op' });
  expect((await host.resources.get(r.id)).revision).toBe(1);
});

it('refuses a plain commit (any edge) whose part would not build, naming the feature, and writes nothing', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  const refused = await host.resources.commit(r.id, { baseRevision: 0, op: fillet(40), operator: 'human:ann' }).catch((error: unknown) => error);
  expect(refused).toMatchObject({ code: 'invalid_op' });
  expect((refused as Error).message).toMatch(/would not build: feature round \(fillet\): a fillet of 40 mm does not fit.*fix or remove feature round/);
  expect((await host.resources.get(r.id)).revision).toBe(0);
  expect((await tool('cad_check', { resourceId: r.id })).content).toMatchObject({ ok: true, volume: 24000, revision: 0 });
});

it('summarizes and views a part with its parameters, features and measures', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  await sharedKernel().evaluate(r.content as Part);
  const summary = await host.resources.summarize(r.id);
  expect(summary).toContain('parameters: width = 40, depth = 30, height = 20');
  expect(summary).toContain('1. [base] box width (=40) × depth (=30) × height (=20) at (0, 0, 0)');
  expect(summary).toContain('volume 24000 mm³, bounding box 40 × 30 × 20 mm');
  const view = await host.views.view(r.id);
  expect(view.blocks).toContainEqual({ type: 'model', url: `/api/resources/${r.id}/export/glb?revision=0`, alt: 'the part at revision 0' });
  expect(view.blocks).toContainEqual({ type: 'table', header: ['Measure', 'Value'], rows: expect.arrayContaining([['Volume', '24000 mm³'], ['Bounding box', '40 × 30 × 20 mm']]) });
  expect(view.blocks).toContainEqual(expect.objectContaining({ type: 'group', title: 'Feature 1: base (box)', selection: { featureId: 'base' } }));
});
