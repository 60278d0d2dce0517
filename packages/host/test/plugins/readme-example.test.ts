/**
 * Invariant: the plugin example in the README is real: it passes the loader's checks, and its kind
 * and tool work through the resource protocol (including `rejectOp`).
 */
import { plugin } from './fixtures/readme-counter';
import { openTempHost } from '../support/temp-host';

describe('README plugin example', () => {
  it('loads and behaves as the README says', async () => {
    const host = await openTempHost({ plugins: [plugin] });
    try {
      expect(host.pluginProblems).toEqual([]);
      const r = await host.resources.create({ kind: 'demo.counter', operator: 'human:ann' });
      await host.resources.commit(r.id, { baseRevision: 0, op: { type: 'add', by: 2 }, operator: 'agent:a' });
      await expect(host.resources.commit(r.id, { baseRevision: 1, op: { type: 'add', by: -5 }, operator: 'agent:a' })).rejects.toMatchObject({
        code: 'invalid_op',
        message: 'a counter cannot go below zero',
      });
      await expect(host.resources.commit(r.id, { baseRevision: 1, op: { type: 'add', by: 0 }, operator: 'agent:a' })).rejects.toMatchObject({
        code: 'invalid_op',
      });
      expect(await host.resources.diff(r.id, 0, 1)).toBe('0 → 2');
      const tool = host.registry.tool('read_counter')!;
      const result = await tool.tool.handler({ id: r.id } as never, {
        operator: 'agent:a',
        signal: new AbortController().signal,
        host: { workspaceDir: host.workspaceDir, resources: host.resources },
      });
      expect(result).toEqual({ content: { value: 2 } });
    } finally {
      await host.dispose();
    }
  });
});
