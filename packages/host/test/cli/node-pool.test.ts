/**
 * Invariant: a host's V8 background pool leaves the event loop a core (at most Node's default of
 * 4 threads, at least 1); the pool a process runs is read from its command line before
 * NODE_OPTIONS, as Node reads them; a size the user gave is kept; and the notice names the size to
 * use only where Node's default shares the event loop's core.
 */
import { currentNodePool, poolNotice, poolSizeFor, serveNodeFlags } from '../../src/cli/node-pool';

it('leaves the event loop one core, with at most 4 and at least 1 background threads', () => {
  expect([1, 2, 3, 4, 5, 8, 64].map(poolSizeFor)).toEqual([1, 1, 2, 3, 4, 4, 4]);
});

it('reads the size from the command line first, then NODE_OPTIONS, in either spelling', () => {
  expect(currentNodePool([], undefined, 2)).toEqual({ threads: 4, cores: 2, setBy: 'node default' });
  expect(currentNodePool(['--v8-pool-size=1'], undefined, 2)).toEqual({ threads: 1, cores: 2, setBy: 'flag' });
  expect(currentNodePool(['--v8-pool-size', '2', '--import', 'tsx'], undefined, 8)).toEqual({ threads: 2, cores: 8, setBy: 'flag' });
  expect(currentNodePool([], '--max-old-space-size=512  --v8-pool-size=3', 2)).toEqual({ threads: 3, cores: 2, setBy: 'flag' });
  expect(currentNodePool(['--v8-pool-size=1'], '--v8-pool-size=3', 2).threads).toBe(1);
  // A value Node itself would refuse is not taken for a size.
  expect(currentNodePool(['--v8-pool-size=many'], undefined, 2).setBy).toBe('node default');
});

it("gives the sized pool to serve unless NODE_OPTIONS already has one", () => {
  expect(serveNodeFlags(undefined, 2)).toEqual(['--v8-pool-size=1']);
  expect(serveNodeFlags('--enable-source-maps', 16)).toEqual(['--v8-pool-size=4']);
  expect(serveNodeFlags('--v8-pool-size=2', 2)).toEqual([]);
});

it("tells only a host on Node's default pool that shares the event loop's core", () => {
  expect(poolNotice({ threads: 4, cores: 2, setBy: 'node default' })).toMatch(/^Node's 4 background threads share this machine's 2 cores .* node --v8-pool-size=1 \(tools\/serve\.sh/);
  expect(poolNotice({ threads: 4, cores: 4, setBy: 'node default' })).toContain('--v8-pool-size=3');
  expect(poolNotice({ threads: 4, cores: 8, setBy: 'node default' })).toBeNull();
  expect(poolNotice({ threads: 4, cores: 2, setBy: 'flag' })).toBeNull();
});
