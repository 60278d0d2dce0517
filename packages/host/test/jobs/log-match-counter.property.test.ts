/**
 * Invariant (property): for random output written through a rotating log (lines cut anywhere by
 * rotation, multi-byte characters, unfinished last lines, keep 0 to 2), the incremental counter
 * gives the same matches and last match as a full read of the retained log (`selectLines`), at
 * every point where it is asked, while reading only what each file gained.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compilePattern, readRetainedLog, selectLines } from '../../src/jobs/job-logs';
import { LogMatchCounter } from '../../src/jobs/log-match-counter';
import { RotatingLog } from '../../src/jobs/rotating-log';
import { seededRandom } from '../../src/util/random';

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

  it('counts like a full read when asked at any step of a write, rotation included (fast-check)', () => {
    let run = 0;
    let asked = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom('READY', '^$', '\\r$', '😀', 'é', '^step \\d+$', '.'),
        fc.array(fc.record({ text: fc.array(fc.constantFrom(...FC_PIECES), { maxLength: 6 }), askAt: fc.array(fc.nat({ max: 12 }), { maxLength: 3 }) }), { maxLength: 25 }),
        (keep, maxBytes, search, writes) => {
          const path = join(dir, `fc-${run++}.log`);
          const log = new RotatingLog(path, { maxBytes, keep });
          const counter = new LogMatchCounter(path, keep, compilePattern(search));
          const check = (): void => expect(counter.count()).toEqual(fullRead(path, keep, search));
          for (const { text, askAt } of writes) {
            // The writer's file operations are numbered; a count lands right after the chosen ones.
            asked += asksDuringWrite(new Set(askAt), check, () => log.write(Buffer.from(text.join(''))));
            check();
          }
          log.close();
          check();
        },
      ),
      { numRuns: 200 },
    );
    expect(asked).toBeGreaterThan(0); // the writer's operations were seen
  });

  it('counts a line longer than the read window, with a character cut at the window edge', () => {
    const path = join(dir, 'long.log');
    const log = new RotatingLog(path, { maxBytes: 4 * 1024 * 1024, keep: 1 });
    const counter = new LogMatchCounter(path, 1, compilePattern('✓ READY\r$'));
    const check = (): void => expect(counter.count()).toEqual(fullRead(path, 1, '✓ READY\r$'));
    const window = 1024 * 1024;
    const mark = Buffer.from('✓');
    log.write(Buffer.concat([Buffer.from('a'.repeat(window - 1)), mark.subarray(0, 2)])); // ✓ is cut at the window's edge
    check();
    log.write(Buffer.concat([mark.subarray(2), Buffer.from(' READY\r\n')]));
    check();
    log.write(Buffer.from('b'.repeat(window + 5) + '✓ READY\r'));
    check();
    log.write(Buffer.from('\n' + 'c'.repeat(3 * window) + '✓ READY\r\n'));
    check();
    log.close();
    expect(counter.count().matches).toBe(3);
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

const FC_PIECES = ['READY', 'READ', 'Y', '\n', '\n', '\r\n', '\r', 'é', '✓', '😀', 'step 7', '', ' ', 'xxxxxxxxx'];

/**
 * Runs `write`, calling `ask` right after the writer's file operations numbered in `at` (writes,
 * renames, removals, opens for appending: a count may land between any two of them, as a monitor's
 * poll does while the supervisor rotates).
 */
function asksDuringWrite(at: Set<number>, ask: () => void, write: () => void): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as Record<string, unknown>;
  const names = ['writeSync', 'renameSync', 'rmSync', 'openSync'] as const;
  const originals = names.map((name) => fs[name] as (...args: unknown[]) => unknown);
  let op = 0;
  let asked = 0;
  names.forEach((name, i) => {
    fs[name] = (...args: unknown[]): unknown => {
      const result = originals[i]!(...args);
      if (name === 'openSync' && args[1] !== 'a') return result; // the readers' own opens
      if (at.has(op++)) {
        asked += 1;
        ask();
      }
      return result;
    };
  });
  try {
    write();
  } finally {
    names.forEach((name, i) => (fs[name] = originals[i]));
  }
  return asked;
}

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
