import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const CHILD = join(__dirname, 'run-child.ts');

/** A host process (run-child.ts) with its stdout lines collected; its stderr is printed if it fails. */
export function spawnHost(args: string[], env: Record<string, string> = {}): { proc: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  proc.stdout!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    proc.on('exit', (code) => {
      if (code !== 0 && code !== null) console.error(stderr);
      resolve(code);
    }),
  );
  return { proc, lines, exited };
}

/** Polls `condition` every 10 ms until it holds, or fails naming `what`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
