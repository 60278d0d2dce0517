import { CoworkError } from '../../errors';
import type { Serving } from '../../server/serve';
import { leaf } from '../command';
import { currentNodePool, poolNotice, type NodePool } from '../node-pool';

/*
 * The server (Fastify, the MCP SDK, the routes) loads when `serve` runs, not when the CLI starts;
 * its defaults are read from it where they are shown (this command's --help) or used.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const serverDefaults = (): typeof import('../../server/create-server') => require('../../server/create-server');
const loadAuth = (): typeof import('../../server/auth') => require('../../server/auth');
const loadServe = (): typeof import('../../server/serve') => require('../../server/serve');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * `cowork serve`: the host as a server (HTTP API, WebSocket, web page) until SIGINT or SIGTERM,
 * then a clean close (clients, running tasks, listener, host) and exit 0. The token is printed
 * only on the start that generated it; later starts say where it is.
 */
export const serveCommand = leaf({
  summary: 'serve the workspace over HTTP and WebSocket (the API, live updates and the web page) until interrupted',
  details: [
    '',
    'Every request needs `Authorization: Bearer <token>`. The token is COWORK_TOKEN, or one generated on',
    'first start and stored in <workspace>/server-token (mode 0600). Listening beyond loopback needs COWORK_TOKEN.',
    'Tasks need a model (COWORK_MODEL_BASE_URL and COWORK_MODEL, or COWORK_REPLAY); without one, resources still work.',
    'With a model, the server also runs the tasks of hosts on the workspace that died (their lease expired): it looks',
    'every COWORK_TAKEOVER_POLL_MS (default a third of COWORK_LEASE_MS; 0 never).',
  ],
  positionals: [],
  options: {
    port: {
      value: 'P',
      get description() {
        return `port to listen on (default ${serverDefaults().DEFAULT_PORT}; 0 picks a free one and prints it)`;
      },
    },
    host: {
      value: 'H',
      get description() {
        return `address to listen on (default ${serverDefaults().DEFAULT_LISTEN_HOST})`;
      },
    },
  },
  async run(args, { io, out, workspaceDir, withHost }) {
    const listenHost = args.option('host') ?? serverDefaults().DEFAULT_LISTEN_HOST;
    const port = parsePort(args.option('port'));
    // Before the host is opened: a refused start writes nothing, not even a token.
    loadAuth().checkBind(listenHost, io.env);
    const nodePool = currentNodePool();
    const notice = poolNotice(nodePool);
    if (notice) out.warn(notice);
    await withHost(async (host) => {
      const serving = await loadServe().serveHost(host, { env: io.env, listenHost, port, onError: (error) => out.warn(describe(error)) });
      // Listening for the stop signals before saying so: a client that stops the server as soon as it has read the start report gets a clean close.
      const stopped = untilStopSignal();
      out.result(startReport(serving, workspaceDir, nodePool), (report) => startLines(report, serving));
      const signal = await stopped;
      io.stderr(`${signal}: closing\n`);
      await serving.server.close();
    }, { pollMonitors: true });
  },
});

interface StartReport {
  readonly url: string;
  readonly port: number;
  readonly workspace: string;
  readonly tokenSource: 'env' | 'file' | 'generated';
  readonly tokenFile: string | null;
  /** Only on the start that generated it. */
  readonly token?: string;
  readonly tasks: boolean;
  /** V8's background threads (`--v8-pool-size`) and the machine's cores: see node-pool.ts. */
  readonly nodePool: NodePool;
}

function startReport(serving: Serving, workspace: string, nodePool: NodePool): StartReport {
  const { token } = serving;
  return {
    url: serving.url,
    port: serving.port,
    workspace,
    tokenSource: token.source,
    tokenFile: token.path,
    ...(token.source === 'generated' ? { token: token.token } : {}),
    tasks: serving.modelProblem === null,
    nodePool,
  };
}

function startLines(report: StartReport, serving: Serving): string[] {
  const tokenLine =
    report.tokenSource === 'generated'
      ? `token: ${report.token} (generated now and stored in ${report.tokenFile}; it is not printed again)`
      : report.tokenSource === 'env'
        ? 'token: from COWORK_TOKEN'
        : `token: in ${report.tokenFile}`;
  return [
    `cowork serving ${report.workspace} at ${report.url}`,
    tokenLine,
    serving.modelProblem ? `tasks: off (${serving.modelProblem.message})` : 'tasks: on',
    'stop with Ctrl-C',
  ];
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return serverDefaults().DEFAULT_PORT;
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw new CoworkError('invalid_input', `--port must be a whole number from 0 to 65535, got ${JSON.stringify(text)}`, { field: 'port', received: text });
  }
  return port;
}

function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
