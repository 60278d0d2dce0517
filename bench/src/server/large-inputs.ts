/**
 * What others wait while a server takes in large inputs: `/api/health` latency, polled every 10 ms
 * from a separate process, while the server commits 8 MB texts over HTTP and imports a 4 MB web
 * app zip. Baselines in the same run: the same poll against the idle server, and while the server's
 * thread writes the same bytes with better-sqlite3 alone (WAL, synchronous=FULL, one transaction
 * holding an 8 MB revision row and an 8 MB head: what any store on the event loop pays).
 *
 *   npm run bench:large-inputs -w @cowork/bench       (BENCH_LARGE_ROUNDS, default 5)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createServer, Host } from '@cowork/host/embed';
import { latencyLine } from '../stats';

const ROUNDS = Number(process.env.BENCH_LARGE_ROUNDS ?? 5);
const TEXT_BYTES = 8 * 1024 * 1024 - 200;

/** A child process that GETs /api/health every 10 ms until told to stop, then prints its latencies. */
const PINGER = `
const http = require('node:http');
const [url, token] = process.argv.slice(1);
const samples = [];
let stopped = false;
process.stdin.on('data', () => { stopped = true; });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function ping() {
  if (stopped) { process.stdout.write(JSON.stringify(samples)); process.exit(0); }
  const t0 = performance.now();
  http.get(url + '/api/health', { agent, headers: { authorization: 'Bearer ' + token } }, (res) => {
    res.resume();
    res.on('end', () => { samples.push(performance.now() - t0); setTimeout(ping, 10); });
  }).on('error', () => setTimeout(ping, 10));
}
ping();
`;

async function whilePinging(url: string, token: string, work: () => Promise<void>): Promise<number[]> {
  const child = spawn(process.execPath, ['-e', PINGER, url, token], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 300)); // the pinger is up and polling
  await work();
  child.stdin.end('stop');
  await exited;
  return JSON.parse(out) as number[];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cowork-bench-large-'));
  const host = await Host.open({ workspaceDir: dir, pluginModules: ['@cowork/plugin-web'] });
  const token = randomBytes(24).toString('hex');
  const server = await createServer({ host, token, port: 0 });
  const { url } = await server.listen();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const opTimes = new Map<string, number[]>();
  const timed = async (label: string, fn: () => Promise<void>): Promise<void> => {
    const t0 = performance.now();
    await fn();
    opTimes.set(label, [...(opTimes.get(label) ?? []), performance.now() - t0]);
  };
  try {
    const rows: [string, number[]][] = [];
    rows.push(['idle server', await whilePinging(url, token, () => new Promise((resolve) => setTimeout(resolve, 2000)))]);

    const raw = new BetterSqlite3(join(dir, 'raw.db'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.exec('CREATE TABLE revisions (n INTEGER PRIMARY KEY, op TEXT); CREATE TABLE heads (id INTEGER PRIMARY KEY, content TEXT)');
    const write = raw.transaction((n: number, text: string) => {
      raw.prepare('INSERT INTO revisions (n, op) VALUES (?, ?)').run(n, JSON.stringify({ type: 'set', text }));
      raw.prepare('INSERT OR REPLACE INTO heads (id, content) VALUES (1, ?)').run(JSON.stringify({ text }));
    });
    rows.push([
      `raw better-sqlite3: ${ROUNDS} x 8 MB, FULL`,
      await whilePinging(url, token, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          await timed('raw write', async () => write(i, (i % 2 ? 'x' : 'y').repeat(TEXT_BYTES)));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    ]);
    raw.close();

    const created = (await (await fetch(`${url}/api/resources`, { method: 'POST', headers, body: JSON.stringify({ kind: 'text' }) })).json()) as { id: string };
    rows.push([
      `HTTP commit: ${ROUNDS} x 8 MB text`,
      await whilePinging(url, token, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          const body = JSON.stringify({ baseRevision: i, op: { type: 'set', text: (i % 2 ? 'x' : 'y').repeat(TEXT_BYTES) }, operator: 'human:bench' });
          await timed('HTTP commit', async () => {
            const res = await fetch(`${url}/api/resources/${created.id}/commits`, { method: 'POST', headers, body });
            if (res.status !== 200) throw new Error(`commit answered ${res.status}: ${await res.text()}`);
          });
        }
      }),
    ]);

    // A web app of 4 files of 1 MB of random text (little compression), exported as a zip and imported back.
    const app = await host.resources.create({ kind: 'web.app', operator: 'human:bench' });
    for (let i = 0; i < 4; i++) {
      const text = randomBytes(700 * 1024).toString('base64').slice(0, 1000 * 1024);
      await host.resources.commit(app.id, { baseRevision: i, op: { type: 'put_file', path: `data${i}.txt`, text }, operator: 'human:bench' });
    }
    const zip = Buffer.from((await host.exports.export(app.id, 'zip')).data);
    rows.push([
      `HTTP import: ${ROUNDS} x ${(zip.byteLength / 1024 / 1024).toFixed(1)} MB web zip`,
      await whilePinging(url, token, async () => {
        for (let i = 0; i < ROUNDS; i++) {
          await timed('HTTP import', async () => {
            const res = await fetch(`${url}/api/resources/import?kind=web.app&fileName=app.zip`, { method: 'POST', headers: { ...headers, 'content-type': 'application/octet-stream' }, body: zip });
            if (res.status !== 201) throw new Error(`import answered ${res.status}: ${await res.text()}`);
          });
        }
      }),
    ]);

    console.log(`/api/health latency from another process, polled every 10 ms (${ROUNDS} rounds of each)`);
    for (const [label, samples] of rows) console.log(latencyLine(label, samples));
    console.log('\ntime of each operation');
    for (const [label, samples] of opTimes) console.log(latencyLine(label, samples));
  } finally {
    await server.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
