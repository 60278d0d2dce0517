/**
 * The job supervisor: a tiny detached Node process, one per job, started by the host with the job's
 * directory as its only argument. It outlives the host (own session, no stdio tied to the host):
 *
 * 1. spawns the command in its own process group, with the spec's cwd and environment (under
 *    bubblewrap when the spec says `sandbox`: see sandbox.ts);
 * 2. writes `identity.json` (pids and start times) atomically;
 * 3. copies the command's stdout and stderr into size-capped, rotated log files;
 * 4. when the command ended, fsyncs the logs, then writes `exit.json` atomically and exits.
 *
 * So a present `exit.json` means the logs are complete. SIGTERM to the supervisor is a cancel:
 * SIGTERM to the command's group, then SIGKILL once the grace period (cancel.json, else the spec's)
 * has passed; doing it here keeps the escalation going when the host dies in between.
 *
 * It imports only Node built-ins and small modules of this folder, to start fast.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathsIn, type CancelFile, type ExitFile, type IdentityFile, type JobPaths, type JobSpec } from './job-files';
import { readJsonFile, writeJsonAtomic } from '../util/atomic-file';
import { processStartTime, signalGroup } from '../util/process-identity';
import { RotatingLog } from './rotating-log';
import { findBwrap, sandboxedCommand } from './sandbox';

/** After the command exits, how long to wait for its pipes to close (a grandchild may hold them). */
const DRAIN_MS = 2000;

function main(): void {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: supervisor <job directory>');
  const paths = pathsIn(dir);
  process.on('SIGHUP', () => undefined);
  try {
    supervise(paths, readSpec(paths));
  } catch (error) {
    writeExit(paths, { code: null, signal: null, error: `supervisor failed: ${(error as Error).message}` });
    process.exit(1);
  }
}

function supervise(paths: JobPaths, spec: JobSpec): void {
  const run = commandLine(spec);
  if (typeof run === 'string') {
    writeExit(paths, { code: null, signal: null, error: run });
    process.exit(0);
  }
  const logs = { stdout: new RotatingLog(paths.log('stdout'), spec.log), stderr: new RotatingLog(paths.log('stderr'), spec.log) };
  const child = spawn(run.file, run.args, {
    cwd: spec.cwd,
    env: run.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let cancelled = false;
  let ended = false;
  const end = (exit: Omit<ExitFile, 'endedAt'>): void => {
    if (ended) return;
    ended = true;
    // A cancelled job's group goes entirely, even what outlived its leader.
    if (cancelled && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    child.stdout?.destroy();
    child.stderr?.destroy();
    logs.stdout.close();
    logs.stderr.close();
    writeExit(paths, exit);
    process.exit(0);
  };
  child.on('error', (error) => end({ code: null, signal: null, error: `could not start ${run.file}: ${error.message}` }));
  if (child.pid === undefined) return; // the spawn failed; 'error' follows
  const pgid = child.pid;
  const cancel = (): void => {
    if (cancelled) return;
    cancelled = true;
    const graceMs = readJsonFile<CancelFile>(paths.cancel)?.graceMs ?? spec.cancelGraceMs;
    signalGroup(pgid, 'SIGTERM');
    setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs);
  };
  process.on('SIGTERM', cancel);
  writeJsonAtomic(paths.identity, {
    pid: pgid,
    processStartTime: processStartTime(pgid) ?? null,
    supervisorPid: process.pid,
    supervisorStartTime: processStartTime(process.pid) ?? null,
    startedAt: new Date().toISOString(),
  } satisfies IdentityFile);
  // A cancel that came while the host did not know the pids yet could not be signalled.
  if (existsSync(paths.cancel)) cancel();
  child.stdout!.on('data', (chunk: Buffer) => logs.stdout.write(chunk));
  child.stderr!.on('data', (chunk: Buffer) => logs.stderr.write(chunk));
  child.on('exit', (code, signal) => setTimeout(() => end({ code, signal, error: null }), DRAIN_MS));
  child.on('close', (code, signal) => end({ code, signal, error: null }));
}

/**
 * What to spawn: the command with the supervisor's environment plus the spec's, or, for a
 * sandboxed job, bwrap around it with a minimal environment. A string: why it cannot run (bwrap
 * went missing since the host checked); a sandboxed job never falls back to running unsandboxed.
 */
function commandLine(spec: JobSpec): { file: string; args: string[]; env: NodeJS.ProcessEnv } | string {
  if (!spec.sandbox) return { file: spec.command, args: [...spec.args], env: { ...process.env, ...spec.env } };
  const bwrap = findBwrap();
  if (bwrap === undefined) return 'sandbox_unavailable: bubblewrap (bwrap) is not installed; the sandboxed job was not run';
  return sandboxedCommand(bwrap, spec.sandbox, spec);
}

function readSpec(paths: JobPaths): JobSpec {
  const spec = readJsonFile<JobSpec>(paths.spec);
  if (!spec) throw new Error(`no spec.json in ${paths.dir}`);
  return spec;
}

function writeExit(paths: JobPaths, exit: Omit<ExitFile, 'endedAt'>): void {
  writeJsonAtomic(paths.exit, { ...exit, endedAt: new Date().toISOString() } satisfies ExitFile);
}

main();
