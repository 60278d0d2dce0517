// Invariant: numbers OpenCascade cannot build with never reach it. Through the host's HTTP API (where
// issue 11 found a 1e-30 mm sphere freezing the CAD worker for good) and its resource service, a
// length below 1e-6 mm or above 1e6 mm, a position beyond 1e6 mm, an angle past a full turn, and
// any number that is not finite (an expression overflowing or dividing by zero) are refused as
// invalid_op or invalid_content naming the feature, the field and the allowed range, and nothing is
// written; the server then goes on building parts. Parameter names are the person's own keys:
// `__proto__` is refused, and `constructor` or `toString` are parameters like any other.
import { type Json } from '@cowork/host';
import { createServer, type CoworkServer } from '@cowork/host/embed';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, type Assembly, type Part, type PartOp } from '../src';
import { part } from './parts';

const TOKEN = 'cad-limits-token-0123456789';
let host: TempHost;
let server: CoworkServer;
let url: string;

beforeAll(async () => {
  host = await openTempHost({ plugins: [plugin], prefix: 'cowork-cad-limits-' });
  server = await createServer({ host, token: TOKEN, port: 0, live: { heartbeatMs: 0 } });
  url = (await server.listen()).url;
});

afterAll(async () => {
  await server.close();
  await host.dispose();
});

/** POSTs a commit as JSON text (so that `1e999` is what a client sent) and answers status and body. */
async function commitText(id: string, body: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/resources/${id}/commits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function refusal(id: string, op: PartOp | Record<string, unknown>): Promise<{ code: string; message: string }> {
  const error = await host.resources.commit(id, { baseRevision: 0, op: op as PartOp, operator: 'human:ann' }).then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string },
  );
  if (!error) throw new Error(`expected ${JSON.stringify(op)} to be refused`);
  return error;
}

const sphere = (radius: number | string): PartOp => ({ type: 'add_feature', feature: { id: 's2', type: 'sphere', radius } });

it('refuses the 1e-30 mm sphere of issue 11 over HTTP, naming the range, writes nothing, and goes on building', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  const refused = await commitText(r.id, '{"baseRevision":0,"operator":"human:ann","op":{"type":"add_feature","feature":{"type":"sphere","id":"s2","radius":1e-30}}}');
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ error: { code: 'invalid_op', featureId: 's2' } });
  expect(JSON.stringify(refused.body)).toMatch(/feature s2 \(sphere\): radius must be from 0\.000001 to 1000000 mm but is 1e-30/);
  expect((await host.resources.get(r.id)).revision).toBe(0);

  // The same size reached through an expression; JSON's 1e999 (Infinity once parsed) is no JSON value to the host.
  expect((await refusal(r.id, sphere('0.5e-30 * 2'))).message).toMatch(/radius must be from 0\.000001 to 1000000 mm but is 1e-30/);
  const infinite = await commitText(r.id, '{"baseRevision":0,"operator":"human:ann","op":{"type":"set_parameter","name":"width","value":1e999}}');
  expect(infinite.status).toBe(400);
  expect((await host.resources.get(r.id)).revision).toBe(0);

  // A sphere of 1e-6 mm, the smallest length, still builds, and so does the next commit.
  const smallest = await host.resources.commit(r.id, { baseRevision: 0, op: sphere(1e-6), operator: 'human:ann' });
  expect(smallest.revision).toBe(1);
  const step = await host.exports.export(r.id, 'step');
  expect(Buffer.from(step.data).toString('latin1')).toContain('ISO-10303-21');
});

it('refuses sizes, positions and angles out of range and numbers that are not finite, naming each field', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  const feature = (f: Record<string, unknown>): PartOp => ({ type: 'add_feature', feature: { id: 'f', ...f } as never });
  const cases: [PartOp, RegExp][] = [
    [{ type: 'set_parameter', name: 'width', value: 2e6 }, /feature base \(box\): width must be from 0\.000001 to 1000000 mm but is 2000000/],
    [{ type: 'edit_feature', id: 'base', set: { height: 'width * 1e307' } }, /feature base \(box\): height: "width \* 1e307" is not a finite number/],
    [feature({ type: 'box', width: 1, depth: 1, height: 1, at: [0, 0, -1e7] }), /feature f \(box\): at\[2\] must be from -1000000 to 1000000 mm but is -10000000/],
    [feature({ type: 'cylinder', radius: '0 / 0', height: 1 }), /feature f \(cylinder\): radius: "0 \/ 0" is not a finite number/],
    [feature({ type: 'fillet', target: 'base', radius: 1e-9 }), /feature f \(fillet\): radius must be from 0\.000001/],
    [feature({ type: 'chamfer', target: 'base', distance: 1e-12 }), /feature f \(chamfer\): distance must be from 0\.000001/],
    [feature({ type: 'extrude', sketch: { plane: 'XY', profile: { shape: 'circle', radius: 1 } }, distance: 1e-8 }), /feature f \(extrude\): distance must be from 0\.000001/],
    [feature({ type: 'extrude', sketch: { plane: 'XY', offset: 1e300, profile: { shape: 'circle', radius: 1 } }, distance: 1 }), /sketch\.offset must be from -1000000 to 1000000 mm/],
    [feature({ type: 'revolve', sketch: { plane: 'XZ', profile: { shape: 'rectangle', width: 1, height: 1, center: [5, 0] } }, angle: 720 }), /feature f \(revolve\): angle must be from 0\.001 to 360 degrees but is 720/],
    [feature({ type: 'rotate', target: 'base', axis: 'z', angle: 1e20 }), /feature f \(rotate\): angle must be from -360 to 360 degrees but is 100000000000000000000/],
    [
      feature({ type: 'extrude', sketch: { plane: 'XY', profile: { shape: 'polygon', points: [[0, 0], [10, 0], [10, 1e-9], [0, 10]] } }, distance: 1 }),
      /feature f \(extrude\): sketch\.profile\.points\[1\] and the next point are closer than 0\.000001 mm/,
    ],
  ];
  for (const [op, message] of cases) {
    const error = await refusal(r.id, op);
    expect(error.code).toBe('invalid_op');
    expect(error.message).toMatch(message);
  }
  expect((await host.resources.get(r.id)).revision).toBe(0);
});

it('refuses a whole content out of range on create, for a part and for an assembly, before any kernel sees it', async () => {
  const tiny = part([
    { id: 'base', type: 'box', width: 40, depth: 30, height: 20 },
    { id: 's2', type: 'sphere', radius: 1e-30 },
  ]);
  const created = await host.resources.create({ kind: 'cad.part', content: tiny, operator: 'human:ann' }).catch((e: unknown) => e);
  expect(created).toMatchObject({ code: 'invalid_content', message: expect.stringMatching(/feature s2 \(sphere\): radius must be from 0\.000001/) });

  const assembly: Assembly = { units: 'mm', parts: [{ id: 'p', part: tiny, placement: { translate: [0, 0, 0] } }] };
  const refused = await host.resources.create({ kind: 'cad.assembly', content: assembly, operator: 'human:ann' }).catch((e: unknown) => e);
  expect(refused).toMatchObject({ code: 'invalid_content', message: expect.stringMatching(/part \[p\]: feature s2 \(sphere\): radius must be from 0\.000001/) });

  const a = await host.resources.create({ kind: 'cad.assembly', operator: 'human:ann' });
  const far = await host.resources.commit(a.id, { baseRevision: 0, op: { type: 'place_part', id: 'part1', placement: { translate: [1e9, 0, 0] } }, operator: 'human:ann' }).catch((e: unknown) => e);
  expect(far).toMatchObject({ code: 'invalid_op', message: expect.stringMatching(/part \[part1\]: placement\.translate\[0\] must be from -1000000 to 1000000 mm/) });
  const spun = await host.resources.commit(a.id, { baseRevision: 0, op: { type: 'place_part', id: 'part1', placement: { translate: [0, 0, 0], rotate: { axis: 'x', angle: 1e300 } } }, operator: 'human:ann' }).catch((e: unknown) => e);
  expect(spun).toMatchObject({ code: 'invalid_op', message: expect.stringMatching(/placement\.rotate\.angle must be from -360 to 360 degrees/) });
  expect((await host.resources.get(a.id)).revision).toBe(0);
});

it('refuses a parameter named __proto__ and keeps constructor and toString as plain parameters', async () => {
  const r = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
  const proto = await commitText(r.id, '{"baseRevision":0,"operator":"human:ann","op":{"type":"set_parameter","name":"__proto__","value":5}}');
  expect(proto.body).toMatchObject({ error: { code: 'invalid_op', message: expect.stringMatching(/parameter name "__proto__" is reserved/) } });
  // HTTP refuses `__proto__` keys as invalid JSON; JSON.parse elsewhere (the WebSocket) makes them own keys.
  const set = JSON.parse('{"__proto__": {"width": 1}}') as Record<string, Json>;
  const edit = await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'edit_feature', id: 'base', set }, operator: 'human:ann' }).catch((e: unknown) => e);
  expect(edit).toMatchObject({ code: 'invalid_op' });
  expect((await host.resources.get(r.id)).revision).toBe(0);

  let revision = 0;
  const commit = async (op: PartOp): Promise<void> => void (revision = (await host.resources.commit(r.id, { baseRevision: revision, op, operator: 'human:ann' })).revision);
  await commit({ type: 'set_parameter', name: 'constructor', value: 50 });
  await commit({ type: 'set_parameter', name: 'toString', value: 10 });
  await commit({ type: 'edit_feature', id: 'base', set: { width: 'constructor + toString' } });
  const content = (await host.resources.get(r.id)).content as Part;
  expect(Object.entries(content.parameters)).toEqual([['width', 40], ['depth', 30], ['height', 20], ['constructor', 50], ['toString', 10]]);
  const diff = await host.resources.diff(r.id, 0, revision);
  expect(diff).toContain('added parameter constructor = 50');
  expect(diff).toContain('added parameter toString = 10');
  expect(await host.resources.diff(r.id, revision - 1, revision)).not.toContain('parameter');

  // A part without them: its diff says they were removed (not "changed" into Object's own functions).
  await commit({ type: 'edit_feature', id: 'base', set: { width: 'width' } });
  await commit({ type: 'delete_parameter', name: 'constructor' });
  expect(await host.resources.diff(r.id, revision - 1, revision)).toBe('removed parameter constructor (was 50)');
  const inherited = await host.resources.commit(r.id, { baseRevision: revision, op: { type: 'delete_parameter', name: 'hasOwnProperty' }, operator: 'human:ann' }).catch((e: unknown) => e);
  expect(inherited).toMatchObject({ code: 'invalid_op', message: expect.stringMatching(/no parameter "hasOwnProperty"/) });
});
