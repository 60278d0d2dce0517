import { extname, join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { CoworkError, moduleScript } from '@cowork/host';
import type { ProgramOutcome, RunnerReply, RunnerRequest } from './program-runner';

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
 * Runs a program to completion and resolves with its stdout. The program is started by the
 * program runner (./program-runner.ts), not by this process: starting a program from a large
 * process stalls it for tens of milliseconds. It gets its own process group, so that aborting or
 * timing out kills what it started too (soffice runs oosplash, which runs soffice.bin). A missing
 * program, a timeout or a non-zero exit reject with `previewFailed`; an abort rejects with the
 * signal's reason once the program has exited.
 */
export function runProgram(command: string, args: readonly string[], options: RunOptions): Promise<string> {
  options.signal.throwIfAborted();
  return runner.run(command, args, options);
}

/** The runner is let go after this long with nothing to run (the next program starts it again). */
const IDLE_STOP_MS = 60_000;

/** The host side of the program runner: started on first use, and again if it dies or was idle. */
class ProgramRunner {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (outcome: ProgramOutcome) => void>();
  private idleTimer: NodeJS.Timeout | undefined;

  run(command: string, args: readonly string[], { signal, timeoutMs, packages }: RunOptions): Promise<string> {
    const child = this.child ?? this.start();
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const stop = (): void => this.send(child, { type: 'stop', id });
      signal.addEventListener('abort', stop, { once: true });
      this.waiting.set(id, (outcome) => {
        signal.removeEventListener('abort', stop);
        if (outcome.ok) return resolve(outcome.stdout);
        if (outcome.reason === 'stopped') return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        const message = outcome.reason === 'program_missing' ? `${command} is not installed; install the Debian packages ${packages} (apt-get install ${packages})` : outcome.message;
        reject(previewFailed(outcome.reason, message, { command }));
      });
      // Only a program under way keeps the host process alive, as a program it started itself would.
      if (this.waiting.size === 1) this.ref(child, true);
      this.send(child, { type: 'run', id, command, args, timeoutMs, env: { ...process.env } });
    });
  }

  private start(): ChildProcess {
    const child = spawn(process.execPath, ['-e', moduleScript(join(__dirname, `program-runner${extname(__filename)}`))], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
    child.on('message', (reply: RunnerReply) => {
      const settle = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.idle(child);
      settle?.(reply);
    });
    const lost = (why: string): void => {
      if (this.child !== child) return;
      this.child = undefined;
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      for (const settle of waiting) settle({ ok: false, reason: 'program_failed', message: `the office program runner stopped (${why}); the program's result was lost` });
    };
    child.on('error', (error) => lost(error.message));
    child.on('exit', (code, signal) => lost(signal ?? `exit ${code}`));
    this.child = child;
    return child;
  }

  /** Nothing to run: the runner no longer keeps the host alive, and leaves (on disconnect) if it stays idle. */
  private idle(child: ChildProcess): void {
    this.ref(child, false);
    this.idleTimer = setTimeout(() => {
      if (this.child !== child || this.waiting.size > 0) return;
      this.child = undefined;
      child.disconnect();
    }, IDLE_STOP_MS);
    this.idleTimer.unref();
  }

  private send(child: ChildProcess, request: RunnerRequest): void {
    if (child.connected) child.send(request);
  }

  private ref(child: ChildProcess, on: boolean): void {
    const channel = child.channel as { ref(): void; unref(): void } | undefined;
    if (on) {
      child.ref();
      channel?.ref();
    } else {
      child.unref();
      channel?.unref();
    }
  }
}

// One runner per process, like LibreOffice's queue (./libreoffice.ts).
const runner = new ProgramRunner();
