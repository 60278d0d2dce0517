/**
 * Invariant: ids drawn from the shared random pool stay unique and well formed across pool refills,
 * and different processes draw different ids (the pool is filled by each process from the OS).
 */
import { spawnSync } from 'node:child_process';
import { newId } from '../../src/util/ids';

const SHAPE = /^cand_[0-9a-z]{9}[0-9a-f]{12}$/;

describe('newId', () => {
  it('gives distinct, well-formed ids across many refills of the random pool', () => {
    const at = Date.now();
    const ids = Array.from({ length: 5_000 }, () => newId('cand', at)); // 30,000 random bytes: several pools
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(SHAPE);
  });

  it('sorts by creation time through its time part', () => {
    expect(newId('res', 1_000) < newId('res', 2_000)).toBe(true);
  });

  it('draws different random parts in another process at the same moment', () => {
    const here = new Set(Array.from({ length: 100 }, () => newId('x', 0).slice(-12)));
    const script = "const { newId } = require('./src/util/ids.ts'); console.log(JSON.stringify(Array.from({ length: 100 }, () => newId('x', 0).slice(-12))));";
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: `${__dirname}/../..`, encoding: 'utf8' });
    expect(child.status).toBe(0);
    const there = JSON.parse(child.stdout) as string[];
    expect(there).toHaveLength(100);
    expect(there.filter((r) => here.has(r))).toEqual([]);
  });
});
