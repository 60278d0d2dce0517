import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadData } from '../src/data';
import { callTool } from '../src/domain';
import { goldActions, replayGold } from '../src/gold';
import type { RetailDb } from '../src/model';
import { canonicalJson } from '../src/py';
import { DATA_DIR, describeWithData, findPythons } from './helpers';
import { quirkSequences, toolSequences, type Call } from './sequences';

/**
 * Parity with τ²-bench's own Python: its retail tools (read from the data folder's
 * reference-python/, run with pydantic 2 or Debian's pydantic 1) and this plugin's tools are given
 * the same calls from db.json; each call must give the same output text, and each final database
 * the same canonical JSON (sorted keys, compact separators, floats as Python prints them), bit for
 * bit. The reference reports the canonical JSON of every order and user a run looked up (the only
 * ones its tools can change) and the sha256 of db.json's; ours must have exactly those texts for
 * those, and the very objects of db.json for every other order and user (whose text is db.json's).
 */
interface Reference {
  initial: string;
  restored: boolean;
  tasks: Record<string, { outputs: string[]; orders: Record<string, string>; users: Record<string, string> }>;
}

const found = findPythons();
/** Each Python here with pydantic (pydantic 2, and Debian's 1.10 when installed): the reference must not depend on which. */
const pythons = 'pythons' in found ? found.pythons.map((p) => [`${p.python}, pydantic ${p.pydantic}`, p.python] as const) : [];
// No usable Python is a failure naming why (the set-up installs python3-pydantic), not a skip.
const eachPython = pythons.length > 0 ? test.each(pythons) : test.each([[`none: ${'reason' in found ? found.reason : ''}`, '']] as const);

function runReference(python: string, args: string[]): Reference {
  if (python === '') throw new Error(`no Python can run the reference: ${'reason' in found ? found.reason : 'unknown'}`);
  const run = spawnSync(python, [join(__dirname, 'reference', 'run_reference.py'), DATA_DIR, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`the reference failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout) as Reference;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function compare(reference: Reference, runs: { id: string; calls: readonly Call[] }[], start: RetailDb): { databases: number; outputs: number; mismatches: string[] } {
  const mismatches: string[] = [];
  let databases = 0;
  let outputs = 0;
  for (const { id, calls } of runs) {
    const expected = reference.tasks[id]!;
    const { db, steps } = replayGold(start, calls);
    const wrong: string[] = [];
    for (const table of ['orders', 'users'] as const) {
      for (const [key, value] of Object.entries(db[table])) {
        const theirs = expected[table][key];
        if (theirs !== undefined ? canonicalJson(value) !== theirs : value !== start[table][key]) wrong.push(`${table}.${key}`);
      }
      if (Object.keys(db[table]).length !== Object.keys(start[table]).length) wrong.push(`${table}: entries added or removed`);
    }
    if (db.products !== start.products) wrong.push('products');
    if (wrong.length === 0) databases++;
    else mismatches.push(`${id}: final database differs at ${wrong.join(', ')}`);
    steps.forEach((step, i) => {
      if (step.output === expected.outputs[i]) outputs++;
      else mismatches.push(`${id} call ${i} ${step.action.name}: ours ${step.output.slice(0, 200)} | reference ${expected.outputs[i]?.slice(0, 200)}`);
    });
  }
  return { databases, outputs, mismatches };
}

describeWithData('parity with the reference Python tools', () => {
  eachPython('every task\'s gold actions give the reference\'s final database and outputs (114 of 114): %s', (_name, python) => {
    const data = loadData();
    const reference = runReference(python, []);
    expect(reference.restored).toBe(true);
    expect(sha256(canonicalJson(data.db))).toBe(reference.initial);
    const runs = data.tasks.map((task) => ({ id: task.id, calls: goldActions(task) ?? [] }));
    const result = compare(reference, runs, data.db);
    console.log(`reference parity, gold actions: ${result.databases}/${runs.length} databases, ${result.outputs} outputs equal`);
    expect(result.mismatches).toEqual([]);
    expect(result.databases).toBe(114);
  });

  eachPython('generated calls, wrong ones included, give the reference\'s outputs and databases: %s', (_name, python) => {
    const data = loadData();
    const sequences = [...quirkSequences(data.db), ...toolSequences(data.db, 60)];
    const dir = mkdtempSync(join(tmpdir(), 'tau2-parity-'));
    try {
      writeFileSync(join(dir, 'calls.json'), JSON.stringify({ sequences }));
      const reference = runReference(python, ['--calls', join(dir, 'calls.json')]);
      expect(reference.restored).toBe(true);
      const result = compare(reference, sequences, data.db);
      let writes = 0;
      let failed = 0;
      for (const { calls } of sequences) {
        let db = data.db;
        for (const call of calls) {
          const outcome = callTool(db, call.name, call.arguments);
          if (outcome.op) writes++;
          if (outcome.error) failed++;
          db = outcome.db;
        }
      }
      console.log(`reference parity, generated: ${result.databases}/${sequences.length} databases, ${result.outputs} outputs equal; ${writes} writes made, ${failed} calls failed`);
      expect(result.mismatches).toEqual([]);
      expect(writes).toBeGreaterThan(40);
      expect(failed).toBeGreaterThan(40);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
