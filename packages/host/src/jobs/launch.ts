import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { JobPaths } from './job-files';

/** Running from the TypeScript sources (tests, tsx): the supervisor runs through tsx too. */
const FROM_SOURCE = __filename.endsWith('.ts');
const SUPERVISOR = join(__dirname, FROM_SOURCE ? 'supervisor.ts' : 'supervisor.js');
/** Where `--require tsx/cjs` resolves from when running from source (it starts faster than `--import tsx`). */
const PACKAGE_DIR = resolve(__dirname, '../..');

/**
 * Starts the supervisor of a job whose spec.json is written, detached so that it survives the host
 * (a SIGKILL of the host included), and waits until it reports: identity.json (the command runs),
 * exit.json (it ended, or could not start), the supervisor died, or `timeoutMs` passed. Resolves
 * to why the supervisor died, or undefined (it reported, or is slow: reconciliation judges it later).
 */
export async function launchSupervisor(paths: JobPaths, timeoutMs: number): Promise<string | undefined> {
  const args = FROM_SOURCE ? ['--require', 'tsx/cjs', SUPERVISOR, paths.dir] : [SUPERVISOR, paths.dir];
  // The supervisor's own stderr (a crash before it could write exit.json) goes to supervisor.log.
  const stderr = openSync(paths.supervisorLog, 'a');
  const supervisor = spawn(process.execPath, args, {
    cwd: FROM_SOURCE ? PACKAGE_DIR : paths.dir,
    // The host's environment, which an unsandboxed job inherits (named: a test's process.env is its own copy).
    env: process.env,
    detached: true,
    stdio: ['ignore', 'ignore', stderr],
  });
  closeSync(stderr);
  supervisor.unref();
  let died: string | undefined;
  supervisor.once('error', (error) => (died = `the supervisor could not be started: ${error.message}`));
  supervisor.once('exit', (code, signal) => (died = `the supervisor exited (${signal ?? `code ${code}`}) before the command started`));
  const deadline = Date.now() + timeoutMs;
  for (let delayMs = 2; ; delayMs = Math.min(delayMs * 2, 20)) {
    if (reported(paths)) return undefined;
    // Checked after the files: a supervisor that wrote exit.json and exited is not lost.
    if (died !== undefined) return reported(paths) ? undefined : died;
    if (Date.now() >= deadline) return undefined;
    await delay(delayMs);
  }
}

function reported(paths: JobPaths): boolean {
  return existsSync(paths.identity) || existsSync(paths.exit);
}
