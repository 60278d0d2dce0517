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
import { DATA_DIR, describeWithData, findPython } from './helpers';
import { quirkSequences, toolSequences, type Call } from './sequences';

/**
 * Parity with τ²-bench's own Python: its retail tools (read from the data folder's
 * reference-python/, run with pydantic 2) and this plugin's tools are given the same calls from
 * db.json; each final database must have the same canonical JSON (sha256 over sorted keys, compact
 * separators, floats as Python prints them) and each call the same output text, bit for bit.
 */
interface Reference {
  initial: string;
  tasks: Record<string, { sha256: string; outputs: string[] }>;
}

const python = findPython();
if ('reason' in python) console.log(`skipped the comparison with the reference Python: ${python.reason}`);
const withPython = 'python' in python ? test : test.skip;

function runReference(args: string[]): Reference {
  const run = spawnSync((python as { python: string }).python, [join(__dirname, 'reference', 'run_reference.py'), DATA_DIR, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
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
    if (sha256(canonicalJson(db)) === expected.sha256) databases++;
    else mismatches.push(`${id}: final database differs`);
    steps.forEach((step, i) => {
      if (step.output === expected.outputs[i]) outputs++;
      else mismatches.push(`${id} call ${i} ${step.action.name}: ours ${step.output.slice(0, 200)} | reference ${expected.outputs[i]?.slice(0, 200)}`);
    });
  }
  return { databases, outputs, mismatches };
}

describeWithData('parity with the reference Python tools', () => {
  withPython('every task\'s gold actions give the reference\'s final database and outputs (114 of 114)', () => {
    const data = loadData();
    const reference = runReference([]);
    expect(sha256(canonicalJson(data.db))).toBe(reference.initial);
    const runs = data.tasks.map((task) => ({ id: task.id, calls: goldActions(task) ?? [] }));
    const result = compare(reference, runs, data.db);
    console.log(`reference parity, gold actions: ${result.databases}/${runs.length} databases, ${result.outputs} outputs equal`);
    expect(result.mismatches).toEqual([]);
    expect(result.databases).toBe(114);
  });

  withPython('generated calls, wrong ones included, give the reference\'s outputs and databases', () => {
    const data = loadData();
    const sequences = [...quirkSequences(data.db), ...toolSequences(data.db, 60)];
    const dir = mkdtempSync(join(tmpdir(), 'tau2-parity-'));
    try {
      writeFileSync(join(dir, 'calls.json'), JSON.stringify({ sequences }));
      const reference = runReference(['--calls', join(dir, 'calls.json')]);
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
