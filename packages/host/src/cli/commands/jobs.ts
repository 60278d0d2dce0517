import { resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { LogStream } from '../../jobs/job-files';
import { JobService } from '../../jobs/job-service';
import type { JobRecord } from '../../store/job-records';
import { group, leaf, type CliContext } from '../command';
import { parseChoice, parseJsonOption, parseRevisionOption } from '../values';
import { CoworkError } from '../../errors';

/**
 * `cowork jobs ...`: background jobs from the shell. A job outlives the command that started it
 * (and any host); every command here re-attaches by reading the job's record and files, so
 * `show` and `logs` report the true state of a job started by another process.
 */

const STREAMS: readonly LogStream[] = ['stdout', 'stderr'];
const FOLLOW_POLL_MS = 200;

const list = leaf({
  summary: 'list jobs, oldest first, with their status',
  positionals: [],
  options: {},
  async run(_args, context) {
    const jobs = await withJobs(context, (service) => service.list());
    context.out.result({ jobs }, ({ jobs }) => (jobs.length === 0 ? ['no jobs'] : jobs.map(describeJob)));
  },
});

const start = leaf({
  summary: 'start CMD ARGS... as a background job in the workspace, and print its id',
  details: [
    'Put the command after `--` so that its own options are not read as cowork options; it is not run through a shell.',
    "Your job runs unsandboxed, with your permissions and environment (agents' jobs run sandboxed). With --sandbox it runs",
    'as an agent\'s does: writable only in --cwd (a folder inside the workspace), the rest of the workspace hidden, no network unless --network.',
  ],
  positionals: ['CMD'],
  rest: 'ARGS...',
  options: {
    name: { value: 'N', description: 'a label for the job' },
    cwd: { value: 'DIR', description: 'working directory, inside the workspace (default: the workspace)' },
    env: { value: 'JSON', description: 'extra environment variables, as a JSON object of strings' },
    sandbox: { description: 'run under bubblewrap, writable only in --cwd, like an agent\'s job' },
    network: { description: 'with --sandbox: keep the network' },
  },
  async run(args, context) {
    const command = args.positional('CMD');
    const rest = args.rest();
    const name = args.option('name');
    const cwd = args.option('cwd');
    const env = args.option('env');
    const input = {
      command,
      args: [...rest],
      ...(name !== undefined && { name }),
      ...(cwd !== undefined && { cwd: resolve(context.io.cwd, cwd) }),
      ...(env !== undefined && { env: parseEnv(parseJsonOption('env', env)) }),
    };
    const sandboxed = args.flag('sandbox');
    if (args.flag('network') && !sandboxed) throw new CoworkError('invalid_input', '--network applies to --sandbox (an unsandboxed job has the network anyway)', { field: 'network' });
    if (sandboxed && cwd === undefined) throw new CoworkError('invalid_input', '--sandbox needs --cwd DIR: the folder inside the workspace the job may write to', { field: 'cwd' });
    const sandbox = sandboxed ? { workDir: resolve(context.io.cwd, cwd!), network: args.flag('network') } : undefined;
    const job = await withJobs(context, (service) => service.start(input, { sandbox }));
    const how = sandbox
      ? `sandboxed: writable only in ${sandbox.workDir}, ${sandbox.network ? 'with' : 'without'} network`
      : 'not sandboxed: it runs with your permissions and environment (--sandbox confines it)';
    context.out.result({ ...job, sandboxed: sandbox !== undefined }, (j) => [`started ${j.id} (pid ${j.pid ?? 'not yet known'}): ${commandLine(j)}`, how]);
  },
});

const show = leaf({
  summary: 'show a job: status, exit code, pid, command, times',
  positionals: ['ID'],
  options: {},
  async run(args, context) {
    const job = await withJobs(context, (service) => service.get(args.positional('ID')));
    context.out.result(job, describeInDetail);
  },
});

const logs = leaf({
  summary: "print a job's log (stdout unless --stream stderr); --follow keeps printing until the job ends",
  positionals: ['ID'],
  options: {
    stream: { value: 'S', description: 'stdout or stderr (default stdout)' },
    tail: { value: 'N', description: 'only the last N lines (of the matches, with --search)' },
    search: { value: 'RE', description: 'only lines matching this regular expression' },
    follow: { short: 'f', description: 'print new output as it comes, until the job ends' },
  },
  async run(args, context) {
    const id = args.positional('ID');
    const given = args.option('stream');
    const stream = given === undefined ? 'stdout' : parseChoice('stream', given, STREAMS);
    const tail = args.option('tail');
    const search = args.option('search');
    const following = args.flag('follow');
    const selecting = tail !== undefined || search !== undefined;
    if (following && selecting) throw new CoworkError('invalid_input', '--follow prints everything; leave out --tail and --search', { field: 'follow' });
    const query = { stream, search, ...(tail !== undefined && { tail: parseRevisionOption('tail', tail) }) };
    await withJobs(context, async (service) => {
      if (selecting) return context.out.result(await service.logs(id, query), (s) => s.lines.map((line) => line.text));
      if (following && !context.out.json) return follow(service, id, stream, context);
      // `--follow --json`: one document, once the job ended.
      while (following && (await service.get(id)).status === 'running') await delay(FOLLOW_POLL_MS);
      const text = await service.readLog(id, stream);
      const { status } = await service.get(id);
      if (context.out.json) context.out.result({ jobId: id, stream, status, text }, () => []);
      else context.io.stdout(text);
    });
  },
});

const cancel = leaf({
  summary: 'cancel a running job: SIGTERM to its process group, SIGKILL after the grace period',
  positionals: ['ID'],
  options: { grace: { value: 'MS', description: 'milliseconds between SIGTERM and SIGKILL (default 5000)' } },
  async run(args, context) {
    const grace = args.option('grace');
    const graceMs = grace === undefined ? undefined : parseRevisionOption('grace', grace);
    const job = await withJobs(context, (service) => service.cancel(args.positional('ID'), { graceMs }));
    context.out.result(job, (j) => [describeJob(j)]);
  },
});

export const jobsCommand = group({
  summary: 'start, list, inspect, follow and cancel background jobs',
  children: { start, show, logs, cancel },
  fallback: list,
});

/** Runs `fn` with the job service of the command's workspace host. */
function withJobs<T>(context: CliContext, fn: (service: JobService) => Promise<T>): Promise<T> {
  return context.withHost((host) => fn(host.jobs));
}

/** Prints the log as it grows; the job is checked before each read, so its last output is printed. */
async function follow(service: JobService, id: string, stream: LogStream, context: CliContext): Promise<void> {
  const follower = await service.followLog(id, stream);
  const decoder = new StringDecoder('utf8');
  for (;;) {
    const job = await service.get(id);
    const text = decoder.write(follower.read());
    if (text !== '') context.io.stdout(text);
    if (job.status !== 'running') break;
    await delay(FOLLOW_POLL_MS);
  }
  const rest = decoder.end();
  if (rest !== '') context.io.stdout(rest);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms));
}

function parseEnv(value: unknown): Record<string, string> {
  const ok = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
  if (!ok) throw new CoworkError('invalid_input', '--env must be a JSON object of strings, like {"PORT":"8080"}', { field: 'env' });
  return value as Record<string, string>;
}

function commandLine(job: JobRecord): string {
  return [job.command, ...job.args].map((word) => (/^[\w./:=@%+-]+$/.test(word) ? word : JSON.stringify(word))).join(' ');
}

function describeJob(job: JobRecord): string {
  const exit = job.status === 'running' ? `pid ${job.pid ?? '?'}` : job.signal ? `signal ${job.signal}` : `exit ${job.exitCode ?? '?'}`;
  return `${job.id}  ${job.status}  ${exit}  ${job.name ? `[${job.name}]  ` : ''}${commandLine(job)}`;
}

function describeInDetail(job: JobRecord): string[] {
  const rows: [string, string | number | null][] = [
    ['status', job.status],
    ['command', commandLine(job)],
    ['name', job.name],
    ['cwd', job.cwd],
    ['pid', job.pid],
    ['exit code', job.exitCode],
    ['signal', job.signal],
    ['error', job.error],
    ['created', job.createdAt],
    ['started', job.startedAt],
    ['ended', job.endedAt],
    ['cancel requested', job.cancelRequestedAt],
  ];
  return [job.id, ...rows.filter(([, value]) => value !== null).map(([label, value]) => `  ${label}: ${value}`)];
}
