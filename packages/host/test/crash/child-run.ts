import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** A change the child acknowledged: the revisions ending at `revision` appended `tokens`, in order. */
export interface CommitAck {
  readonly revision: number;
  readonly tokens: readonly string[];
}

/** A coordinator event the child acknowledged. */
export interface EventAck {
  readonly seq: number;
  readonly taskId: string;
}

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const CHILD_PATH = resolve(__dirname, 'commit-child.ts');
const PACKAGE_DIR = resolve(__dirname, '../..');

/**
 * One run of `commit-child.ts`, seen from the parent. Only complete (newline-terminated) lines
 * count: a line is an acknowledgement the child gave after the change was durable, so everything
 * collected here must survive the kill.
 */
export class ChildRun {
  readonly commits: CommitAck[] = [];
  readonly events: EventAck[] = [];
  /** The head the child saw when it opened the workspace. */
  readyHead: number | undefined;
  /** The child's last `batches <batches> <transactions>` line (group-commit-child.ts): its store's write batches. */
  batches: { batches: number; transactions: number } | undefined;
  /** The child's last `checkpoints <checkpoints> <restarts>` line (group-commit-child.ts on SQLite): its WAL checkpoints. */
  checkpoints: { checkpoints: number; restarts: number } | undefined;
  /** How many `unavailable <writer>` lines the child wrote: commits answered store_unavailable. */
  unavailable = 0;
  /** Lines that did not parse; a test asserts this stays empty. */
  readonly badLines: string[] = [];
  readonly exited: Promise<ChildExit>;

  private readonly process: ChildProcess;
  private stdoutRest = '';
  private stderr = '';
  private exit: ChildExit | undefined;
  private readonly waiters: { count: number; resolve: () => void; reject: (error: Error) => void }[] = [];

  private constructor(workspaceDir: string, resourceId: string, tag: string, wrapper: readonly string[], script: string, env: NodeJS.ProcessEnv) {
    const argv = [...wrapper, process.execPath, '--import', 'tsx', script, workspaceDir, resourceId, tag];
    this.process = spawn(argv[0]!, argv.slice(1), {
      cwd: PACKAGE_DIR,
      stdio: ['pipe', 'pipe', 'pipe'],
      env,
    });
    // A child that died early closes its stdin: writing `go` then fails, and its exit tells why.
    this.process.stdin!.on('error', () => undefined);
    this.process.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.onStdout(chunk));
    this.process.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    let resolveExit: (exit: ChildExit) => void = () => undefined;
    this.exited = new Promise((resolve) => {
      resolveExit = resolve;
    });
    const onExit = (exit: ChildExit): void => {
      if (this.exit) return;
      this.exit = exit;
      this.settleWaiters();
      resolveExit(exit);
    };
    // 'close' comes after the process exited and its pipes were drained: no line is still in flight.
    this.process.once('close', (code, signal) => onExit({ code, signal }));
    this.process.once('error', (error) => {
      this.stderr += `child process error: ${error.stack ?? error.message}\n`;
      if (this.process.pid === undefined) onExit({ code: null, signal: null }); // it never started
    });
  }

  /**
   * Starts the child; it loads its code, then waits for `go()` before it opens the workspace.
   * `wrapper` runs it under another command (io-faults.test.ts: strace injecting fsync errors).
   */
  static start(workspaceDir: string, resourceId: string, tag: string, wrapper: readonly string[] = [], script = CHILD_PATH, env: NodeJS.ProcessEnv = process.env): ChildRun {
    return new ChildRun(workspaceDir, resourceId, tag, wrapper, script, env);
  }

  /** Whether the child is still running. */
  get running(): boolean {
    return this.exit === undefined;
  }

  /** Lets the child open the workspace and start committing. */
  go(): void {
    this.process.stdin!.write('go\n');
  }

  /** Resolves once the child acknowledged `count` changes; rejects if it exits before that. */
  waitForCommits(count: number): Promise<void> {
    return new Promise((resolveWait, reject) => {
      this.waiters.push({ count, resolve: resolveWait, reject });
      this.settleWaiters();
    });
  }

  /** SIGKILLs the child (no cleanup runs in it) and waits until it is gone and its output read. */
  async kill(): Promise<ChildExit> {
    if (!this.exit) this.process.kill('SIGKILL');
    return this.exited;
  }

  /** What the child wrote on stderr, for failure messages. */
  describe(): string {
    return `child ${this.process.pid} exit=${JSON.stringify(this.exit)} stderr:\n${this.stderr}`;
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdoutRest + chunk).split('\n');
    this.stdoutRest = lines.pop() ?? '';
    for (const line of lines) this.onLine(line);
    this.settleWaiters();
  }

  private onLine(line: string): void {
    const words = line.split(' ');
    const number = Number(words[1]);
    if (words[0] === 'ready' && words.length === 2 && Number.isInteger(number)) {
      this.readyHead = number;
    } else if (words[0] === 'ack' && words.length >= 3 && Number.isInteger(number) && words.slice(2).every(isToken)) {
      this.commits.push({ revision: number, tokens: words.slice(2) });
    } else if (words[0] === 'batches' && words.length === 3 && words.slice(1).every((w) => Number.isInteger(Number(w)))) {
      this.batches = { batches: Number(words[1]), transactions: Number(words[2]) };
    } else if (words[0] === 'checkpoints' && words.length === 3 && words.slice(1).every((w) => Number.isInteger(Number(w)))) {
      this.checkpoints = { checkpoints: Number(words[1]), restarts: Number(words[2]) };
    } else if (words[0] === 'unavailable' && words.length === 2 && Number.isInteger(number)) {
      this.unavailable += 1;
    } else if (words[0] === 'event' && words.length === 3 && Number.isInteger(number) && words[2]) {
      this.events.push({ seq: number, taskId: words[2] });
    } else {
      this.badLines.push(line);
    }
  }

  private settleWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
      const waiter = this.waiters[i]!;
      if (this.commits.length >= waiter.count) {
        waiter.resolve();
      } else if (this.exit || this.badLines.length > 0) {
        waiter.reject(new Error(`child stopped before ${waiter.count} acknowledgements (bad lines: ${JSON.stringify(this.badLines)}); ${this.describe()}`));
      } else {
        continue;
      }
      this.waiters.splice(i, 1);
    }
  }
}

function isToken(word: string): boolean {
  return /^[^;\s]+;$/.test(word);
}
