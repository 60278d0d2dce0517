/**
 * Invariant: a commit of a large value (its op and content kept as files beside the database, see
 * store/large-values.ts) is acknowledged only once both the files and the transaction referring to
 * them are durable. A child committing 600 KB texts is SIGKILLed at random moments; after each kill
 * every acknowledged revision reads back as the text it was acknowledged with, the head is whole,
 * the database holds references (not the texts), and SQLite's integrity check passes.
 */
import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { seededRandom } from '../../src/util/random';
import { tempDir } from '../support/temp-host';
import { largeText } from './large-text';
import { crashSeed, withHost } from './verify-workspace';

const ROUNDS = 12;
const CHILD = resolve(__dirname, 'large-value-child.ts');

it(`keeps every acknowledged large commit through ${ROUNDS} SIGKILLs`, async () => {
  const workspace = tempDir('cowork-large-crash-');
  try {
    const random = seededRandom(crashSeed());
    const created = await withHost(workspace.path, (host) => host.resources.create({ kind: 'text', operator: 'human:tester' }));
    const acked = new Map<number, string>();
    for (let round = 0; round < ROUNDS; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, workspace.path, created.id, `r${round}`], { cwd: resolve(__dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const firstAck = new Promise<void>((done) =>
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) done();
        }),
      );
      const exited = new Promise<{ code: number | null; signal: string | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
      await Promise.race([firstAck, exited]);
      await delay(Math.floor(random() * 150));
      child.kill('SIGKILL');
      expect([await exited, err]).toEqual([{ code: null, signal: 'SIGKILL' }, '']);
      for (const line of out.split('\n').slice(0, -1)) {
        const [word, revision, token] = line.split(' ');
        expect(word).toBe('ack');
        acked.set(Number(revision), token!);
      }
      await withHost(workspace.path, async (host) => {
        expect(await host.store.integrityCheck()).toEqual([]);
        const head = await host.resources.get(created.id);
        expect(typeof (head.content as { text: string }).text).toBe('string');
        for (const [revision, token] of acked) {
          if (revision > head.revision) throw new Error(`revision ${revision} was acknowledged but the head is ${head.revision}`);
          expect((await host.resources.contentAt(created.id, revision)) as { text: string }).toEqual({ text: largeText(token) });
        }
      });
    }
    expect(acked.size).toBeGreaterThanOrEqual(ROUNDS);
    // The database holds references to the texts, not the texts.
    const db = new BetterSqlite3(resolve(workspace.path, 'cowork.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT length(content) AS length, substr(content, 1, 7) AS start FROM resources WHERE id = ?').get(created.id) as { length: number; start: string };
      expect(row).toEqual({ length: expect.any(Number), start: '@value:' });
      expect(row.length).toBeLessThan(100);
    } finally {
      db.close();
    }
  } finally {
    workspace.cleanup();
  }
}, 300_000);
