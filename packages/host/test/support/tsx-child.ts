import { spawn, type ChildProcess } from 'node:child_process';

/** A TypeScript script run in a child process (node --import tsx), its output kept. */
export interface TsxChild {
  readonly proc: ChildProcess;
  readonly exited: Promise<number | null>;
  /** Everything it printed so far (stdout, and stderr after it). */
  output(): string;
  /** The first match of `pattern` in its stdout; rejects, with its output, if it exits first. */
  printed(pattern: RegExp, what: string): Promise<RegExpExecArray>;
}

/** `env` is added to this process's environment; `wholeEnv`, when given, is the child's whole environment instead. */
export function spawnTsx(script: string, args: readonly string[], options: { env?: Record<string, string>; wholeEnv?: NodeJS.ProcessEnv; cwd?: string } = {}): TsxChild {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: options.cwd,
    env: options.wholeEnv ?? { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting = new Set<() => void>();
  proc.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const check of waiting) check();
  });
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
  return {
    proc,
    exited,
    output: () => stdout + stderr,
    printed: (pattern, what) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(stdout);
          if (!match) return;
          waiting.delete(check);
          resolve(match);
        };
        waiting.add(check);
        check();
        void exited.then((code) => {
          if (!waiting.delete(check)) return;
          reject(new Error(`${script} exited (${code}) before ${what}: ${stdout}${stderr}`));
        });
      }),
  };
}
