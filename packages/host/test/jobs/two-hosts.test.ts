/**
 * Invariant: with hosts on several machines sharing one PostgreSQL database (here host ids
 * machine-a and machine-b on one real machine), a job belongs to the machine that started it. A
 * host elsewhere never judges it by pids, which mean nothing on its machine: it leaves the job
 * running while any host on the job's machine runs, even when the job's processes are gone, and
 * reports it `uncertain` only once every host there is gone (SIGKILL: their presence leases
 * expire). A host on the job's own machine judges by the pids, at once. A cancel asked for
 * elsewhere is delivered by a host on the job's machine.
 */
import { resolve } from 'node:path';
import { Host } from '../../src/host';
import type { JobRecord } from '../../src/store/job-records';
import { usePostgresServer } from '../support/postgres';
import { tempDir } from '../support/temp-host';
import { spawnTsx, type TsxChild } from '../support/tsx-child';
import { killJobProcesses, pidAlive, waitFor } from './job-harness';

const pgServer = usePostgresServer();
const LEASE_MS = 1500;
const PACKAGE_DIR = resolve(__dirname, '../..');

interface Child extends TsxChild {
  /** The first line it printed: `started <job id>` or `ready`. */
  readonly first: Promise<string>;
}

/** A host on machine `hostId` (owner-child.ts); POLL_MS long unless given, so that it judges nothing itself. */
function spawnOwner(dir: string, databaseUrl: string, hostId: string, mode: 'start' | 'start-exit' | 'idle', pollMs = 3_600_000): Child {
  const child = spawnTsx(resolve(__dirname, 'owner-child.ts'), [dir, mode], {
    cwd: PACKAGE_DIR,
    env: { DATABASE_URL: databaseUrl, HOST_ID: hostId, LEASE_MS: String(LEASE_MS), POLL_MS: String(pollMs) },
  });
  return { ...child, first: child.printed(/^(.*)\n/, 'it was ready').then((m) => m[1]!) };
}

async function startedJob(child: Child): Promise<string> {
  return (await child.first).replace(/^started /, '');
}

/** A host on machine `hostId`, in this process. */
function openHost(dir: string, databaseUrl: string, hostId: string): Promise<Host> {
  return Host.open({ workspaceDir: dir, databaseUrl, pollMonitors: false, leases: { hostId, durationMs: LEASE_MS } });
}

/** SIGKILLs the job's processes (as if they crashed) and waits until they are gone. */
async function killJob(job: JobRecord): Promise<void> {
  killJobProcesses([job]);
  await waitFor(() => pidAlive(job.supervisorPid!) || pidAlive(job.pid!), (alive) => !alive);
}

/** The job's status, read by `host` every 100 ms for `ms`: each one it saw. */
async function statusesFor(host: Host, jobId: string, ms: number): Promise<Set<string>> {
  const seen = new Set<string>();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    seen.add((await host.jobs.get(jobId)).status);
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

async function kill(child: Child): Promise<void> {
  child.proc.kill('SIGKILL');
  await child.exited;
}

/** A test's workspace on a fresh database and what it starts there, closed, killed and removed after `run`. */
interface Machines {
  owner(hostId: string, mode: 'start' | 'start-exit' | 'idle', pollMs?: number): Child;
  host(hostId: string): Promise<Host>;
  /** The job as `host` reads it now; its processes are killed at the end. */
  job(host: Host, jobId: string): Promise<JobRecord>;
}

async function onMachines(run: (m: Machines) => Promise<void>): Promise<void> {
  const dir = tempDir('cowork-job-hosts-');
  const databaseUrl = await pgServer().createDatabase();
  const hosts: Host[] = [];
  const children: Child[] = [];
  const jobs: JobRecord[] = [];
  try {
    await run({
      owner: (hostId, mode, pollMs) => {
        const child = spawnOwner(dir.path, databaseUrl, hostId, mode, pollMs);
        children.push(child);
        return child;
      },
      host: async (hostId) => {
        const host = await openHost(dir.path, databaseUrl, hostId);
        hosts.push(host);
        return host;
      },
      job: async (host, jobId) => {
        const job = await host.jobs.get(jobId);
        jobs.push(job);
        return job;
      },
    });
  } finally {
    for (const host of hosts.reverse()) await host.close();
    for (const child of children) await kill(child);
    killJobProcesses(jobs);
    dir.cleanup();
  }
}

it('a host on another machine leaves a job alone while the host that started it lives, though the job’s processes are gone, and reports it uncertain once that host is SIGKILLed', () =>
  onMachines(async (m) => {
    const a = m.owner('machine-a', 'start');
    const jobId = await startedJob(a);
    const b = await m.host('machine-b');
    const job = await m.job(b, jobId);
    expect(job).toMatchObject({ status: 'running', hostId: 'machine-a' });

    // B cannot see A's processes (here: they are gone), yet A still runs: B leaves the job to A,
    // over several lease durations (A's lease is renewed meanwhile).
    await killJob(job);
    expect(await statusesFor(b, jobId, 3 * LEASE_MS)).toEqual(new Set(['running']));

    await kill(a);
    const ended = await waitFor(() => b.jobs.get(jobId), (j) => j.status !== 'running', LEASE_MS + 10_000);
    expect(ended).toMatchObject({ status: 'uncertain', exitCode: null, signal: null });
    expect(ended.error).toMatch(/^the job ran on machine-a, where no host runs any more/);
  }), 60_000);

it('any host on the job’s machine vouches for it after the one that started it exited, and a host on that machine judges it by its pids at once', () =>
  onMachines(async (m) => {
    const resident = m.owner('machine-a', 'idle');
    expect(await resident.first).toBe('ready');
    // A short-lived command on machine-a starts the job and exits, releasing its own presence.
    const starter = m.owner('machine-a', 'start-exit');
    const jobId = await startedJob(starter);
    expect(await starter.exited).toBe(0);
    const b = await m.host('machine-b');
    await killJob(await m.job(b, jobId));
    expect(await statusesFor(b, jobId, 3 * LEASE_MS)).toEqual(new Set(['running']));

    // A host on machine-a can check the pids: gone, no exit record, so uncertain now.
    const sameMachine = await m.host('machine-a');
    expect(await sameMachine.jobs.get(jobId)).toMatchObject({ status: 'uncertain', error: 'the job process is gone and left no exit record' });
  }), 60_000);

it('a cancel asked for on another machine is delivered by the host on the job’s machine', () =>
  onMachines(async (m) => {
    const jobId = await startedJob(m.owner('machine-a', 'start', 200));
    const b = await m.host('machine-b');
    const job = await m.job(b, jobId);
    const cancelled = await b.jobs.cancel(jobId, { graceMs: 1000 });
    expect(cancelled).toMatchObject({ status: 'cancelled', signal: 'SIGTERM' });
    await waitFor(() => pidAlive(job.supervisorPid!) || pidAlive(job.pid!), (alive) => !alive);
  }), 60_000);
