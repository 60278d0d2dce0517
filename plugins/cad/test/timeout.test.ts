// Invariant: kernel work has a time limit. A request the CAD worker is still on when the limit
// passes fails with plugin_timeout (details.limitMs) saying what it was doing; the stuck worker is
// terminated and replaced, the requests queued behind it run on the new one, and nothing is written
// for a commit that timed out. The stalls are real OpenCascade work: the 1e-30 mm sphere of issue 11
// fused at a box's corner (OCCT loops for ever; the range check is lowered to let it through) and a
// 1 km sphere hollowed to a 1 mm shell (legal sizes, tens of seconds of booleans).
import { isCoworkError } from '@cowork/host';
import { openTempHost, type TempHost } from '@cowork/host/testkit';
import { plugin, sharedKernel, type Part } from '../src';
import { CadKernel, timeoutFromEnvironment } from '../src/geometry/kernel';
import { LIMITS } from '../src/part/limits';
import { part } from './parts';

// The shared kernel reads its limit when the first host starts it.
process.env.COWORK_CAD_TIMEOUT_MS = '2000';

const box = (): Part => part([{ id: 'base', type: 'box', width: 40, depth: 30, height: 20 }]);
const stuck = (): Part =>
  part([
    { id: 'base', type: 'box', width: 40, depth: 30, height: 20 },
    { id: 's2', type: 'sphere', radius: 1e-30 },
  ]);

it('stops a request past its limit, fails it with plugin_timeout, and runs the queued ones on a new worker', async () => {
  const kernel = new CadKernel({ timeoutMs: 2000, limits: { ...LIMITS, minLength: 0 } });
  try {
    await kernel.warm();
    const timedOut = kernel.evaluate(stuck()).catch((error: unknown) => error);
    const queued = [kernel.evaluate(box()), kernel.export(box(), 'step', 'queued')];
    const error = await timedOut;
    expect(isCoworkError(error) && error.code).toBe('plugin_timeout');
    expect(error).toMatchObject({ details: { limitMs: 2000, request: 'evaluate' } });
    expect((error as Error).message).toMatch(/stopped building and measuring a part of 2 features: it took longer than its limit of 2000 ms/);
    const [measured, step] = await Promise.all(queued);
    expect(measured).toMatchObject({ ok: true, volume: 24000 });
    expect(Buffer.from(step as Uint8Array).toString('latin1')).toContain('ISO-10303-21');
    expect(kernel.state()).toBe('ready');
  } finally {
    await kernel.close();
  }
});

it('refuses a commit whose rebuild passes the limit, writes nothing, and builds and exports other parts after', async () => {
  const host: TempHost = await openTempHost({ plugins: [plugin], prefix: 'cowork-cad-timeout-' });
  try {
    expect(sharedKernel().timeoutMs).toBe(2000);
    // A 10 mm sphere hollowed to a 1 mm shell builds at once; at a radius of 1 km the same booleans take many seconds.
    const shell = part(
      [
        { id: 'outer', type: 'sphere', radius: 'r' },
        { id: 'inner', type: 'sphere', radius: 'r - 1' },
        { id: 'hollow', type: 'cut', target: 'outer', tools: ['inner'] },
      ],
      { r: 10 },
    );
    const r = await host.resources.create({ kind: 'cad.part', content: shell, operator: 'human:ann' });
    const error = await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'set_parameter', name: 'r', value: 1e6 }, operator: 'human:ann' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'plugin_timeout', details: { limitMs: 2000 } });
    expect((error as Error).message).toMatch(/building and measuring a part of 3 features/);
    expect((await host.resources.get(r.id)).revision).toBe(0);

    const other = await host.resources.create({ kind: 'cad.part', operator: 'human:ann' });
    const committed = await host.resources.commit(other.id, { baseRevision: 0, op: { type: 'set_parameter', name: 'width', value: 50 }, operator: 'human:ann' });
    expect(committed.revision).toBe(1);
    const step = await host.exports.export(other.id, 'step');
    expect(Buffer.from(step.data).toString('latin1')).toContain('ISO-10303-21');
  } finally {
    await host.dispose();
  }
});

it('reads its limit from COWORK_CAD_TIMEOUT_MS and refuses one that is not a whole number of milliseconds', () => {
  expect(timeoutFromEnvironment({})).toBe(30_000);
  expect(timeoutFromEnvironment({ COWORK_CAD_TIMEOUT_MS: '45000' })).toBe(45_000);
  expect(() => timeoutFromEnvironment({ COWORK_CAD_TIMEOUT_MS: '20s' })).toThrow(/COWORK_CAD_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647, not "20s"/);
  expect(() => new CadKernel({ timeoutMs: 0 })).toThrow(/timeoutMs must be a whole number/);
});
