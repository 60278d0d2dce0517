import { spawn } from 'node:child_process';
import { CoworkError } from '@cowork/host';

/** Why a preview could not be made; carried in `details.reason` of a `plugin_failed` error. */
export type PreviewFailure = 'program_missing' | 'timeout' | 'program_failed' | 'no_output';

/** A preview failure as the host's coded error, so exports and tools report it with its reason. */
export function previewFailed(reason: PreviewFailure, message: string, details: Record<string, unknown> = {}): CoworkError {
  return new CoworkError('plugin_failed', message, { reason, ...details });
}

export interface RunOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Said when the program is not installed: which Debian packages provide it. */
  readonly packages: string;
}

/**
 * Runs a program to completion and resolves with its stdout. The program gets its own process
 * group, so that aborting or timing out kills what it started too (soffice runs oosplash, which
 * runs soffice.bin). A missing program, a timeout or a non-zero exit reject with `previewFailed`;
 * an abort rejects with the signal's reason.
 */
export function runProgram(command: string, args: readonly string[], options: RunOptions): Promise<string> {
  const { signal, timeoutMs, packages } = options;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    let failure: Error | undefined;
    const kill = (why: Error): void => {
      failure ??= why;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // The group is already gone.
        }
      }
    };
    const onAbort = (): void => kill(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(
      () => kill(previewFailed('timeout', `${command} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`, { command })),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish();
      reject(
        error.code === 'ENOENT'
          ? previewFailed('program_missing', `${command} is not installed; install the Debian packages ${packages} (apt-get install ${packages})`, { command })
          : error,
      );
    });
    child.on('close', (code, killedBy) => {
      finish();
      if (failure) reject(failure);
      else if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
      else reject(previewFailed('program_failed', `${command} failed (${killedBy ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`, { command }));
    });
  });
}
