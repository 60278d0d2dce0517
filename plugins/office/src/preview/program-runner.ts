import { spawn } from 'node:child_process';

/**
 * The program runner: a small Node process, started once by the host process (./run-program.ts),
 * that starts the preview's programs (soffice, pdftotext, pdftoppm) on its behalf. Starting a
 * program forks the process that asks, and a fork stalls that process for as long as copying its
 * page tables takes: about 5 ms per 100 MB resident, 40 to 100 ms for a host at 1 GB (the CAD
 * kernel alone is 0.4 to 0.7 GB). This process stays small, so the host's event loop never waits.
 *
 * Each program gets its own process group, so that stopping it stops what it started too (soffice
 * runs oosplash, which runs soffice.bin). It is answered once it has exited and its output is read.
 */
export type RunnerRequest =
  | { readonly type: 'run'; readonly id: number; readonly command: string; readonly args: readonly string[]; readonly timeoutMs: number; readonly env: NodeJS.ProcessEnv }
  /** Stop a running program (its caller aborted); it is answered `stopped` once it has exited. */
  | { readonly type: 'stop'; readonly id: number };

export type ProgramOutcome =
  | { readonly ok: true; readonly stdout: string }
  | { readonly ok: false; readonly reason: 'program_missing' | 'timeout' | 'program_failed' | 'stopped'; readonly message: string };

export type RunnerReply = { readonly id: number } & ProgramOutcome;

const stops = new Map<number, () => void>();

function run(request: Extract<RunnerRequest, { type: 'run' }>): void {
  const { id, command, args, timeoutMs, env } = request;
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  const stdout: Buffer[] = [];
  let stderr = '';
  let failure: ProgramOutcome | undefined;
  const kill = (why: ProgramOutcome): void => {
    failure ??= why;
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  };
  const timer = setTimeout(
    () => kill({ ok: false, reason: 'timeout', message: `${command} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped` }),
    timeoutMs,
  );
  stops.set(id, () => kill({ ok: false, reason: 'stopped', message: `${command} was stopped` }));
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  let answered = false;
  // A program that cannot start reports 'error' and may then report 'close' too: the first one answers.
  const answer = (outcome: ProgramOutcome): void => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    stops.delete(id);
    process.send?.({ id, ...outcome } satisfies RunnerReply);
  };
  child.on('error', (error: NodeJS.ErrnoException) =>
    answer({ ok: false, reason: error.code === 'ENOENT' ? 'program_missing' : 'program_failed', message: error.code === 'ENOENT' ? `${command} is not installed` : `${command} could not start: ${error.message}` }),
  );
  child.on('close', (code, signal) => {
    if (failure) answer(failure);
    else if (code === 0) answer({ ok: true, stdout: Buffer.concat(stdout).toString('utf8') });
    else answer({ ok: false, reason: 'program_failed', message: `${command} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}` });
  });
}

process.on('message', (request: RunnerRequest) => {
  if (request.type === 'run') run(request);
  else stops.get(request.id)?.();
});

// The host is gone (or let this process go): stop what is still running and leave.
process.on('disconnect', () => {
  for (const stop of stops.values()) stop();
  process.exit(0);
});
