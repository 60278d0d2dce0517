/**
 * Invariant: for an `external` kind the host records what the application reports. A commit is
 * checked against the kind's model, performed in the application, and the observed content is the
 * revision; a change made in the application by nobody through the host becomes an `external`
 * revision by `app:<plugin>` before any later commit is checked, so an agent working from an older
 * base gets `revision_conflict` and sees it among changes by others; after a restart from a save,
 * the revisions since the save are listed as uncertain. A refused or failing op writes nothing.
 * Only one host drives a resource's application at a time; a crashed holder's lease is taken over,
 * and a host that lost its lease stops driving the application.
 *
 * The "application" here is a plain object in the test (a list of shapes with a version), standing
 * in for Blender; the plugin tests of blender-bridge run the real one.
 */
import { spawn } from 'node:child_process';
import { Host } from '../../src/host';
import { PluginRegistry } from '../../src/plugins/registry';
import type { Json } from '../../src/store/records';
import { definePlugin } from '../../src/plugins/define-plugin';
import { FakeApp, scenePlugin } from '../support/fake-external-app';
import { caught, openTempHost } from '../support/temp-host';

async function setUp() {
  const app = new FakeApp();
  const host = await openTempHost({ plugins: [scenePlugin(app)], externalPollMs: 0 });
  const r = await host.resources.create({ kind: 'scene.ext', operator: 'human:ann' });
  return { app, host, id: r.id };
}

it('records the content the application reports after each op', async () => {
  const { app, host, id } = await setUp();
  try {
    await host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
    app.shapes.push('light'); // a person adds a light in the application between two commits
    // The agent saw the light (revision 2) and builds on it.
    await host.resources.syncExternal(id);
    const { revision } = await host.resources.commit(id, { baseRevision: 2, op: { type: 'add', name: 'wheel' }, operator: 'agent:a1' });
    expect(revision).toBe(3);
    expect((await host.resources.get(id)).content).toEqual({ shapes: ['cube', 'light', 'wheel'] });
    const history = await host.resources.history(id);
    expect(history.map((r) => [r.revision, r.action, r.operator])).toEqual([
      [0, 'create', 'human:ann'],
      [1, 'op', 'agent:a1'],
      [2, 'external', 'app:scene-app'],
      [3, 'op', 'agent:a1'],
    ]);
    expect(await host.resources.contentAt(id, 2)).toEqual({ shapes: ['cube', 'light'] });
  } finally {
    await host.dispose();
  }
});

it('turns a change made in the application into an external revision that an older base conflicts with', async () => {
  const { app, host, id } = await setUp();
  try {
    await host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'car' }, operator: 'agent:a1' });
    app.shapes.push('person-added-wheel');
    await host.resources.syncExternal(id);
    const head = await host.resources.get(id);
    expect(head.revision).toBe(2);

    const conflict = await caught(() => host.resources.commit(id, { baseRevision: 1, op: { type: 'add', name: 'roof' }, operator: 'agent:a1' }));
    expect(conflict.code).toBe('revision_conflict');
    expect(conflict.details).toMatchObject({ currentRevision: 2 });
    expect(app.shapes).toEqual(['car', 'person-added-wheel']); // the refused op never reached the application

    const others = await host.resources.changes(id, { since: 1, excludeOperator: 'agent:a1' });
    expect(others.map((r) => [r.action, r.operator, r.op])).toEqual([['external', 'app:scene-app', { note: 'changed in the application, not through the host', uncertainRevisions: [] }]]);

    await host.resources.acceptCandidate(String(conflict.details?.candidateId), { operator: 'agent:a1', baseRevision: 2 });
    expect((await host.resources.get(id)).content).toEqual({ shapes: ['car', 'person-added-wheel', 'roof'] });
    expect(app.shapes).toEqual(['car', 'person-added-wheel', 'roof']);
  } finally {
    await host.dispose();
  }
});

it('the poll records outside changes without any commit', async () => {
  const app = new FakeApp();
  const host = await openTempHost({ plugins: [scenePlugin(app)], externalPollMs: 20 });
  try {
    const { id } = await host.resources.create({ kind: 'scene.ext', operator: 'human:ann' });
    await host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
    app.shapes = ['cube', 'lamp'];
    const seen = new Promise<Json>((resolve) => host.resources.subscribe((e) => e.action === 'external' && resolve(e.op)));
    expect(await seen).toMatchObject({ uncertainRevisions: [] });
    expect((await host.resources.get(id)).content).toEqual({ shapes: ['cube', 'lamp'] });
  } finally {
    await host.dispose();
  }
});

it('after a restart from the last save, lists the revisions since the save as uncertain', async () => {
  const { app, host, id } = await setUp();
  try {
    let base = 0;
    for (const name of ['body', 'save-1', 'wheel', 'roof']) {
      base = (await host.resources.commit(id, { baseRevision: base, op: { type: 'add', name }, operator: 'agent:a1' })).revision;
    }
    app.crashed = true;
    await host.resources.syncExternal(id);
    const last = (await host.resources.history(id)).at(-1)!;
    expect(last).toMatchObject({ revision: 5, action: 'external', op: { note: 'restarted from the last save', uncertainRevisions: [3, 4] } });
    expect((await host.resources.get(id)).content).toEqual({ shapes: ['body', 'save-1'] });
  } finally {
    await host.dispose();
  }
});

it('writes nothing when the model or the application refuses an op, or the application fails', async () => {
  const { app, host, id } = await setUp();
  try {
    await host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
    expect((await caught(() => host.resources.commit(id, { baseRevision: 1, op: { type: 'remove', name: 'ghost' }, operator: 'agent:a1' }))).code).toBe('invalid_op');
    app.failNextApply = true;
    const failed = await caught(() => host.resources.commit(id, { baseRevision: 1, op: { type: 'add', name: 'x' }, operator: 'agent:a1' }));
    expect(failed.code).toBe('plugin_failed');
    expect(failed.message).toContain('the application stopped answering');
    expect((await host.resources.get(id)).revision).toBe(1);
    expect((await caught(() => host.resources.restore(id, { revision: 0, baseRevision: 1, operator: 'human:ann' }))).code).toBe('invalid_input');
  } finally {
    await host.dispose();
  }
});

it('refuses an external kind without an adapter, and a host kind with one', () => {
  const bare = scenePlugin(new FakeApp());
  const kind = bare.kinds[0]!;
  const problems = new PluginRegistry().check(
    definePlugin({
      name: 'bad-external',
      version: '1.0.0',
      kinds: [
        { ...kind, name: 'a.ext', external: undefined },
        { ...kind, name: 'b.host', revisionSemantics: 'host' },
      ],
    }),
  );
  expect(problems.join('\n')).toMatch(/"a\.ext": an external kind needs an external adapter/);
  expect(problems.join('\n')).toMatch(/"b\.host": external is only for revisionSemantics "external"/);
});

it('lets one host at a time drive the application, and takes over the lease of a host that died', async () => {
  const { app, host, id } = await setUp();
  const other = await Host.open({ workspaceDir: host.workspaceDir, plugins: [scenePlugin(app)], externalPollMs: 0 });
  try {
    await host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
    const held = await caught(() => other.resources.commit(id, { baseRevision: 1, op: { type: 'add', name: 'x' }, operator: 'agent:a2' }));
    expect([held.code, held.details?.reason]).toEqual(['external_unavailable', 'held_by_another_host']);
    expect(app.shapes).toEqual(['cube']);
    // Once the first host closes, the second drives it.
    await host.close();
    await other.resources.commit(id, { baseRevision: 1, op: { type: 'add', name: 'x' }, operator: 'agent:a2' });
    expect(app.shapes).toEqual(['cube', 'x']);
  } finally {
    await other.close();
    await host.dispose();
  }
});

it('refuses while another live process on this machine holds the lease, and takes it over at once when that process is gone', async () => {
  const { app, host, id } = await setUp();
  const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => holder.once('spawn', resolve));
    // Another host process on this machine holds the resource's lease (for a minute, unless renewed).
    const other = `${host.leases.holder.hostId}:${holder.pid}:other`;
    await host.store.transaction((tx) => tx.leases.acquire(`external:${id}`, other, 60_000));
    const held = await caught(() => host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' }));
    expect([held.code, held.details?.reason, held.details?.holder]).toEqual(['external_unavailable', 'held_by_another_host', other]);
    expect(held.message).toMatch(/make the change through that host, or stop it/);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    await host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
    expect(app.shapes).toEqual(['cube']);
  } finally {
    holder.kill('SIGKILL');
    await host.dispose();
  }
});

it('stops driving the application when its lease was lost: the next commit is refused, not performed', async () => {
  const app = new FakeApp();
  const host = await openTempHost({ plugins: [scenePlugin(app)], externalPollMs: 0, leases: { durationMs: 300 } });
  try {
    const { id } = await host.resources.create({ kind: 'scene.ext', operator: 'human:ann' });
    await host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
    // Another host took the lease (as after this one stalled past its lease): the next renewal finds it gone.
    await host.store.transaction((tx) => tx.leases.acquire(`external:${id}`, 'elsewhere:1:x', 60_000, host.leases.holder.text));
    await new Promise((r) => setTimeout(r, 400));
    const held = await caught(() => host.resources.commit(id, { baseRevision: 1, op: { type: 'add', name: 'x' }, operator: 'agent:a1' }));
    expect([held.code, held.details?.reason, held.details?.holder]).toEqual(['external_unavailable', 'held_by_another_host', 'elsewhere:1:x']);
    expect(app.shapes).toEqual(['cube']);
  } finally {
    await host.dispose();
  }
});

it("does not hold the store while the application performs an op: other resources' reads and commits go on", async () => {
  const { app, host, id } = await setUp();
  try {
    const text = await host.resources.create({ kind: 'text', operator: 'human:ann' });
    let release!: () => void;
    app.holdApply = new Promise((resolve) => (release = resolve));
    const started = new Promise<void>((resolve) => (app.onApply = resolve));
    const slow = host.resources.commit(id, { baseRevision: 0, op: { type: 'add', name: 'cube' }, operator: 'agent:a1' });
    await started; // the application is in the middle of the op
    const order: string[] = [];
    void slow.then(() => order.push('external op'));
    const { revision } = await host.resources.commit(text.id, { baseRevision: 0, op: { type: 'append', text: 'meanwhile' }, operator: 'human:ann' });
    order.push('text commit');
    expect(revision).toBe(1);
    expect((await host.resources.get(text.id)).content).toEqual({ text: 'meanwhile' });
    expect((await host.resources.get(id)).revision).toBe(0); // not recorded until the application answered
    release();
    expect(await slow).toEqual({ resourceId: id, revision: 1 });
    expect(order).toEqual(['text commit', 'external op']);
    expect((await host.resources.get(id)).content).toEqual({ shapes: ['cube'] });
  } finally {
    await host.dispose();
  }
});
