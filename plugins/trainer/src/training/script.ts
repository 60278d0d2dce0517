import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The Python interpreter Debian's python3-torch is installed for. */
export const PYTHON = '/usr/bin/python3';

/**
 * A job's environment for `threads` threads. train.py and serve.py set torch's own; Debian's torch
 * also runs OpenBLAS's and OpenMP's pools, which take every core unless these say otherwise.
 */
export function threadEnv(threads: number): Readonly<Record<string, string>> {
  return { OMP_NUM_THREADS: String(threads), OPENBLAS_NUM_THREADS: String(threads) };
}

/** The training script, found from this module whether it runs from src/ (tests) or dist/. */
export function trainScript(): string {
  return pythonScript('train.py');
}

/** The serving script (python/serve.py), found the same way. */
export function serveScript(): string {
  return pythonScript('serve.py');
}

function pythonScript(name: string): string {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'python', name);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`python/${name} is missing from the trainer plugin`);
}
