/**
 * `npm run trainer:rounds [-- --workspace DIR] [--smoke]`: round 0, round 1 and the control, end to
 * end (see rounds.ts), then a table of held-out scores and where each round's report is. Run it
 * again on the same workspace after a crash and it goes on from where it stood.
 *
 * Settings (flags): --steps0 N, --steps1 N, --batch N, --lr X, --r0 N, --r1-new N, --r1-old N,
 * --heldout N (instances per family), --new-multiplier N. --smoke: a few dozen steps and a few
 * instances, to check the pipeline (what CI runs), not to learn anything.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runRounds, type RoundsOptions } from './rounds';

const FULL = { steps0: 240, steps1: 150, batch: 16, lr: 3e-3, r0: 150, r1New: 150, r1Old: 50, heldout: 20, newMultiplier: 4, evalMaxTokens: 160 };
// A pipeline check: an untrained model's replies are noise, so each held-out trial is cut short.
const SMOKE = { steps0: 16, steps1: 8, batch: 4, lr: 3e-3, r0: 4, r1New: 4, r1Old: 2, heldout: 1, newMultiplier: 4, evalMaxTokens: 24 };

export function roundsOptionsFrom(argv: readonly string[], log: (line: string) => void): RoundsOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workspace: { type: 'string', default: 'trainer-rounds' },
      smoke: { type: 'boolean', default: false },
      steps0: { type: 'string' }, steps1: { type: 'string' }, batch: { type: 'string' }, lr: { type: 'string' },
      r0: { type: 'string' }, 'r1-new': { type: 'string' }, 'r1-old': { type: 'string' }, heldout: { type: 'string' }, 'new-multiplier': { type: 'string' },
    },
    strict: true,
  });
  const base = values.smoke ? SMOKE : FULL;
  const num = (flag: string, given: string | undefined, fallback: number, integer = true): number => {
    if (given === undefined) return fallback;
    const n = Number(given);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`--${flag} must be a positive ${integer ? 'integer' : 'number'}, not ${JSON.stringify(given)}`);
    return n;
  };
  return {
    // npm runs the script in bench/: a relative folder is the caller's (npm's INIT_CWD).
    workspaceDir: resolve(process.env.INIT_CWD ?? process.cwd(), values.workspace!),
    steps: { r0: num('steps0', values.steps0, base.steps0), r1: num('steps1', values.steps1, base.steps1) },
    batch: num('batch', values.batch, base.batch),
    lr: num('lr', values.lr, base.lr, false),
    instances: { r0: num('r0', values.r0, base.r0), r1New: num('r1-new', values['r1-new'], base.r1New), r1Old: num('r1-old', values['r1-old'], base.r1Old) },
    heldout: num('heldout', values.heldout, base.heldout),
    newMultiplier: num('new-multiplier', values['new-multiplier'], base.newMultiplier, false),
    evalMaxTokens: base.evalMaxTokens,
    log,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const log = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const options = roundsOptionsFrom(process.argv.slice(2), log);
  log(`workspace ${options.workspaceDir}`);
  const outcomes = await runRounds(options);
  const families = [...new Set(outcomes.flatMap((r) => r.evaluation.families.map((f) => f.family)))];
  console.log('\nheld-out: trials passed of trials [95% interval], and in how many the family\'s tool was called at all');
  console.log(`\n${'round'.padEnd(10)} ${'loss first → last'.padEnd(20)} ${families.map((f) => f.padEnd(30)).join(' ')}`);
  for (const r of outcomes) {
    const cells = families.map((f) => {
      const s = r.evaluation.families.find((x) => x.family === f);
      return (s ? `${s.passed}/${s.trials} [${(100 * s.interval.low).toFixed(0)}–${(100 * s.interval.high).toFixed(0)}%] tool ${s.usedTool}` : '—').padEnd(30);
    });
    console.log(`${r.name.padEnd(10)} ${`${r.firstLoss.toFixed(3)} → ${r.lastLoss.toFixed(3)}`.padEnd(20)} ${cells.join(' ')}`);
  }
  for (const r of outcomes) console.log(`${r.name}: checkpoint ${r.checkpoint.hash.slice(0, 16)}${r.parentHash ? ` from ${r.parentHash.slice(0, 16)}` : ' from base'}; report ${resolve(options.workspaceDir, r.report)}`);
  log('done');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
