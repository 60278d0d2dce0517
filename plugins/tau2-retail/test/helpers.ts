import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_FILES, defaultDataDir } from '../src/data';

/** τ²-bench retail's data, where the suite finds it by default (../shared/benchmarks/tau2-retail). */
export const DATA_DIR = defaultDataDir();

/**
 * `describe` the tests that read τ²-bench retail's data. The data is part of the project's
 * environment (read from ../shared, never copied in), so without it the tests fail, naming the folder
 * and the files missing, rather than pass by not running.
 */
export function describeWithData(name: string, body: () => void): void {
  describe(name, () => {
    beforeAll(() => {
      const missing = DATA_FILES.filter((file) => !existsSync(join(DATA_DIR, file)));
      if (missing.length > 0) throw new Error(`τ²-bench retail data is not in ${DATA_DIR} (missing ${missing.join(', ')}): put τ²-bench's retail domain there`);
    });
    body();
  });
}

/**
 * The Pythons here that can run the reference's tools (Python 3 with pydantic, 2 or Debian 12's
 * 1.10; the same interpreter once), or why there is none.
 */
export function findPythons(): { pythons: { python: string; pydantic: string }[] } | { reason: string } {
  if (!existsSync(join(DATA_DIR, 'reference-python', 'retail_tools.py'))) return { reason: `the reference's Python is not in ${DATA_DIR}/reference-python` };
  const tried: string[] = [];
  const found = new Map<string, { python: string; pydantic: string }>();
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import os, sys, pydantic; print(os.path.realpath(sys.executable)); print(pydantic.VERSION)'], { encoding: 'utf8' });
    if (probe.status === 0) {
      const [executable, pydantic] = probe.stdout.trim().split('\n') as [string, string];
      if (!found.has(executable)) found.set(executable, { python, pydantic });
    } else tried.push(`${python}: ${probe.error ? probe.error.message : (probe.stderr.trim().split('\n').at(-1) ?? `exit ${probe.status}`)}`);
  }
  if (found.size === 0) return { reason: `no Python 3 with pydantic here (${tried.join('; ')}); on Debian: apt-get install python3-pydantic` };
  return { pythons: [...found.values()] };
}
