/**
 * How long a `cowork` command takes from the shell, next to a bare `node -e 0`: each command is
 * spawned as a new process (what a person or a script pays per call) on a temp workspace holding
 * one text resource, from the repository root so that every installed plugin is discovered.
 *
 *   node -e 0                  Node's own start, the floor
 *   cowork --help              the CLI's start: the command tree, nothing opened
 *   cowork resources show ID   a read of one stored resource (the aim: 0.3 s on an idle machine)
 *   cowork resources list      another store-only read
 *   cowork resources create --kind office.presentation
 *                              a command on a plugin's kind: it imports only the plugins whose
 *                              package.json lists the kind (here the office plugin alone)
 *   cowork plugins             a command that opens the host with every installed plugin
 *
 * Wall time is measured around the spawn; peak RSS comes from `/usr/bin/time -f %M` when it is
 * there (otherwise the column is empty). One warm-up run of each, then BENCH_CLI_RUNS (default 10).
 * BENCH_CLI_BIN runs another build's bin/cowork.js (a before/after comparison).
 * Prints p50, p90 and the ratio to `node -e 0`; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { formatTable } from '../server/table';
import { percentile } from '../stats';
import { machineLine } from './report';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 10);
const TIME = '/usr/bin/time';

const hostDir = dirname(require.resolve('@cowork/host/package.json'));
const cowork = process.env.BENCH_CLI_BIN ? resolve(process.env.BENCH_CLI_BIN) : join(hostDir, 'bin', 'cowork.js');
const repoRoot = resolve(hostDir, '..', '..');
/** The caller's environment without the variables that would change what the commands load or open. */
const cliEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'COWORK_PLUGINS' && name !== 'COWORK_WORKSPACE'));

interface Sample {
  readonly ms: number;
  /** Peak resident set in KiB, when /usr/bin/time reported it. */
  readonly rssKiB: number | undefined;
}

/** Runs `argv` once; throws unless it exits 0, so that a failing command cannot pass for a fast one. */
function runOnce(argv: readonly string[], scratch: string): Sample & { stdout: string } {
  const timed = existsSync(TIME);
  const rssFile = join(scratch, 'rss');
  const [command, ...args] = timed ? [TIME, '-f', '%M', '-o', rssFile, ...argv] : argv;
  const started = performance.now();
  const result = spawnSync(command!, args, { cwd: repoRoot, encoding: 'utf8', env: cliEnv });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  const rss = timed ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) : Number.NaN;
  return { ms, rssKiB: Number.isFinite(rss) ? rss : undefined, stdout: result.stdout };
}

function measure(argv: readonly string[], scratch: string): Sample[] {
  runOnce(argv, scratch);
  return Array.from({ length: RUNS }, () => runOnce(argv, scratch));
}

function main(): void {
  const scratch = mkdtempSync(join(tmpdir(), 'cowork-bench-cli-'));
  try {
    const workspace = join(scratch, 'workspace');
    const node = process.execPath;
    const cli = (...args: string[]): string[] => [node, cowork, ...args, '--workspace', workspace];
    const created = JSON.parse(runOnce(cli('resources', 'create', '--kind', 'text', '--content', '{"text":"hello from the bench"}', '--json'), scratch).stdout) as { id: string };
    const shown = runOnce(cli('resources', 'show', created.id), scratch).stdout;
    if (!shown.includes('hello from the bench')) throw new Error(`resources show printed ${JSON.stringify(shown)}`);

    const commands: [string, string[]][] = [
      ['node -e 0', [node, '-e', '0']],
      ['cowork --help', cli('--help')],
      ['cowork resources show ID', cli('resources', 'show', created.id)],
      ['cowork resources list', cli('resources', 'list')],
      ['cowork resources create --kind office.presentation', cli('resources', 'create', '--kind', 'office.presentation')],
      ['cowork plugins', cli('plugins')],
    ];
    console.log(`cowork CLI start: ${cowork}, each command spawned ${RUNS} times after one warm-up, from ${repoRoot} (${machineLine()})`);
    const measured = commands.map(([label, argv]) => ({ label, samples: measure(argv, scratch) }));
    const baseline = p(measured[0]!.samples.map((s) => s.ms), 50);
    const rows = measured.map(({ label, samples }) => {
      const wall = samples.map((s) => s.ms);
      const rss = samples.flatMap((s) => (s.rssKiB === undefined ? [] : [s.rssKiB]));
      return [
        label,
        p(wall, 50).toFixed(0),
        p(wall, 90).toFixed(0),
        Math.min(...wall).toFixed(0),
        rss.length === 0 ? '' : (p(rss, 50) / 1024).toFixed(0),
        `${(p(wall, 50) / baseline).toFixed(1)}x`,
      ];
    });
    console.log(formatTable(['command', 'p50 ms', 'p90 ms', 'min ms', 'peak RSS MiB (p50)', 'p50 / node -e 0'], rows, 1));
    if (!existsSync(TIME)) console.log(`(no ${TIME} here: peak RSS not measured)`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function p(values: readonly number[], rank: number): number {
  return percentile(Float64Array.from(values).sort(), rank);
}

main();
