/**
 * Invariant: a rotated log never holds more than `(keep + 1) * maxBytes` bytes, what it retains is
 * exactly the newest output, and a follower reading between writes sees every byte once, in order,
 * across rotations.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogFollower, readRetainedLog } from '../../src/jobs/job-logs';
import { logFiles, RotatingLog } from '../../src/jobs/rotating-log';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cowork-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('rotating log', () => {
  it('caps the size and keeps the newest bytes', () => {
    const path = join(dir, 'out.log');
    const log = new RotatingLog(path, { maxBytes: 100, keep: 2 });
    const follower = new LogFollower(path, 2);
    let written = '';
    let followed = '';
    for (let i = 0; i < 200; i++) {
      const chunk = `chunk ${i} ${'x'.repeat(i % 37)}\n`;
      log.write(Buffer.from(chunk));
      written += chunk;
      followed += follower.read().toString();
    }
    log.close();
    for (const file of logFiles(path, 2)) expect(statSync(file).size).toBeLessThanOrEqual(100);
    const retained = readRetainedLog(path, 2).toString();
    expect(retained.length).toBeGreaterThan(200);
    expect(retained.length).toBeLessThanOrEqual(300);
    expect(written.endsWith(retained)).toBe(true);
    expect(followed).toBe(written);
  });

  it('keeps nothing but the current file with keep 0', () => {
    const path = join(dir, 'out.log');
    const log = new RotatingLog(path, { maxBytes: 10, keep: 0 });
    log.write(Buffer.from('0123456789abcdefghij-tail'));
    log.close();
    expect(readRetainedLog(path, 0).toString()).toBe('-tail');
  });

  it('follows a new file that took the inode of the one rotation deleted', () => {
    // With keep 0 rotation deletes the file and creates a new one, which usually gets the same
    // inode number: the follower must still read the new file from its start.
    const path = join(dir, 'reuse.log');
    const log = new RotatingLog(path, { maxBytes: 10, keep: 0 });
    const follower = new LogFollower(path, 0);
    log.write(Buffer.from('aaaaaaaaaa'));
    expect(follower.read().toString()).toBe('aaaaaaaaaa');
    log.write(Buffer.from('bbb'));
    expect(follower.read().toString()).toBe('bbb');
    log.write(Buffer.from('ccccccc'));
    log.write(Buffer.from('dddddddddddd'));
    expect(follower.read().toString()).toBe('dd');
    log.close();
  });
});
