import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { findBwrap, sandboxedCommand, type SandboxSpec } from '../jobs/sandbox';
import type { Json } from '../store/records';
import type { Observer } from './observer';

/** Bytes of output kept for the tail shown in events; the hash covers everything. */
const TAIL_BYTES = 300;

/**
 * A command's result: `{exitCode, signal, outputSha256, tail}` over its stdout (stderr is not
 * observed: use `sh -c "cmd 2>&1"` to include it). Not run through a shell. A command that runs
 * past its timeout is killed with its whole process group and observed as
 * `{error: 'timeout', timeoutMs}`; one that cannot be started is `{error: 'spawn_failed', code}`.
 */
export function commandObserver(target: CommandTarget): Observer {
  return { observe: (signal) => runOnce(target, signal) };
}

/**
 * A sandboxed target (an agent's monitor) runs under bubblewrap with a minimal environment (see
 * jobs/sandbox.ts); with bwrap gone it is observed as `{error: 'sandbox_unavailable'}` and never
 * run unsandboxed. An unsandboxed one runs with the host's environment.
 */
type CommandTarget = { command: string; args: readonly string[]; cwd: string; timeoutMs: number; sandbox?: SandboxSpec };

function commandLine(target: CommandTarget): { file: string; args: string[]; env: NodeJS.ProcessEnv } | undefined {
  if (!target.sandbox) return { file: target.command, args: [...target.args], env: process.env };
  const bwrap = findBwrap();
  return bwrap === undefined ? undefined : sandboxedCommand(bwrap, target.sandbox, { ...target, env: {} });
}

function runOnce(target: CommandTarget, signal: AbortSignal): Promise<Json> {
  if (signal.aborted) return Promise.resolve({ error: 'aborted' });
  const run = commandLine(target);
  if (run === undefined) return Promise.resolve({ error: 'sandbox_unavailable' });
  return new Promise<Json>((resolveRun) => {
    const hash = createHash('sha256');
    let tail = Buffer.alloc(0);
    let timedOut = false;
    // Its own process group, so that a timeout also ends whatever the command started.
    const child = spawn(run.file, run.args, { cwd: target.cwd, env: run.env, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, target.timeoutMs);
    signal.addEventListener('abort', killGroup, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      // Bytes, not text: a chunk may end inside a character, and chunking is not deterministic.
      tail = Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES);
    });
    let settled = false;
    const settle = (result: Json): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', killGroup);
      resolveRun(result);
    };
    child.once('error', (error: NodeJS.ErrnoException) => settle({ error: 'spawn_failed', code: error.code ?? 'unknown' }));
    child.once('close', (exitCode, exitSignal) => {
      if (timedOut) return settle({ error: 'timeout', timeoutMs: target.timeoutMs });
      settle({ exitCode, signal: exitSignal, outputSha256: hash.digest('hex'), tail: tail.toString('utf8') });
    });
  });
}
