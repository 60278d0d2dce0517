/**
 * Invariant (property): for random output written through a rotating log (lines cut anywhere by
 * rotation, multi-byte characters, unfinished last lines, keep 0 to 2), the incremental counter
 * gives the same matches and last match as a full read of the retained log (`selectLines`), at
 * every point where it is asked, while reading only what each file gained.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compilePattern, readRetainedLog, selectLines } from '../../src/jobs/job-logs';
import { LogMatchCounter } from '../../src/jobs/log-match-counter';
import { RotatingLog } from '../../src/jobs/rotating-log';
import { seededRandom } from '../crash/verify-workspace';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cowork-count-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const PIECES = ['loss=0.5', 'READY', 'épοch ✓', '\n', '\n', 'x', 'READY\n', '', '  ', 'step 12\n', 'READ', 'Y\n'];

function fullRead(path: string, keep: number, search: string): { matches: number; lastMatch: string | null } {
  const selection = selectLines(readRetainedLog(path, keep).toString('utf8'), { search, tail: 1 });
  return { matches: selection.matches ?? 0, lastMatch: selection.lines[0]?.text ?? null };
}

describe('LogMatchCounter', () => {
  const seed = Number(process.env.COUNT_SEED ?? Date.now() % 1_000_000);
  it.each([
    [0, 40],
    [1, 25],
    [2, 7],
    [2, 64],
  ])(`counts like a full read with keep %i and files of %i bytes (seed ${seed})`, (keep, maxBytes) => {
    const random = seededRandom(seed + keep * 1000 + maxBytes);
    for (const search of ['READY', '^$', 'ο', '^step \\d+$']) {
      const path = join(dir, `${keep}-${maxBytes}-${search.length}.log`);
      const log = new RotatingLog(path, { maxBytes, keep });
      const counter = new LogMatchCounter(path, keep, compilePattern(search));
      expect(counter.count()).toEqual({ matches: 0, lastMatch: null });
      for (let step = 0; step < 300; step++) {
        const pieces = Array.from({ length: 1 + Math.floor(random() * 4) }, () => PIECES[Math.floor(random() * PIECES.length)]!);
        log.write(Buffer.from(pieces.join('')));
        if (random() < 0.3) expect({ step, ...counter.count() }).toEqual({ step, ...fullRead(path, keep, search) });
      }
      log.close();
      expect(counter.count()).toEqual(fullRead(path, keep, search));
    }
  });

  it('reads only what was appended since the last count', () => {
    const path = join(dir, 'big.log');
    const log = new RotatingLog(path, { maxBytes: 10 * 1024 * 1024, keep: 2 });
    log.write(Buffer.from('noise line\n'.repeat(200_000)));
    const counter = new LogMatchCounter(path, 2, compilePattern('^READY'));
    expect(counter.count()).toEqual({ matches: 0, lastMatch: null });
    log.write(Buffer.from('READY on 8080\n'));
    const reads = countReads(() => expect(counter.count()).toEqual({ matches: 1, lastMatch: 'READY on 8080' }));
    expect(reads.bytes).toBeLessThan(1024);
    log.close();
  });
});

/** Bytes that fs.readSync returned while `fn` ran. */
function countReads(fn: () => void): { bytes: number } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const original = fs.readSync;
  const seen = { bytes: 0 };
  fs.readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const bytes = (original as (...a: unknown[]) => number)(...args);
    seen.bytes += bytes;
    return bytes;
  }) as typeof fs.readSync;
  try {
    fn();
  } finally {
    fs.readSync = original;
  }
  return seen;
}
