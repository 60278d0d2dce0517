import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { trainerError } from '../errors';
import type { HeldoutTask } from '../filters/similarity';
import { loadRuns } from '../run-record';

/**
 * The held-out tasks to keep out of training, from paths: a suite folder (its `*.task.json` whose
 * split is heldout), or a run folder (its records of held-out trials).
 */
export function loadHeldout(paths: readonly string[], baseDir: string): HeldoutTask[] {
  const tasks: HeldoutTask[] = [];
  for (const path of paths) {
    let names: string[];
    try {
      names = statSync(path).isDirectory() ? readdirSync(path) : [];
    } catch {
      throw trainerError('unreadable_input', `${path} does not exist`, { path });
    }
    const taskFiles = names.filter((n) => n.endsWith('.task.json')).sort();
    if (taskFiles.length > 0) {
      for (const name of taskFiles) {
        const task = JSON.parse(readFileSync(join(path, name), 'utf8')) as { id?: string; split?: string; request?: string };
        if (task.split === 'heldout' && typeof task.request === 'string') tasks.push({ id: task.id ?? name, request: task.request });
      }
      continue;
    }
    for (const run of loadRuns([path], baseDir)) if (run.split === 'heldout') tasks.push({ id: run.record.task, request: run.record.request });
  }
  return tasks;
}
