/**
 * A host process for the crash tests: opens the workspace, talks to the parent's scripted model
 * server, and runs (or resumes) one task. The parent kills it with SIGKILL at chosen moments.
 * argv: workspaceDir baseUrl [taskId]; env HOLD_MS makes the `hold` tool last that long, PEEK_MS
 * the read-only `peek`; the high-impact `launch` tool appends a line to LAUNCH_FILE each time it
 * runs. DATABASE_URL puts the records in PostgreSQL; HOST_ID and LEASE_MS set its leases. A coded
 * error is printed as `error <its JSON>` on stdout before the exit with 1.
 */
import { AgentRuntime } from '../../../src/agents/runtime';
import { Host } from '../../../src/host';
import { OpenAiCompatibleProvider } from '../../../src/models/openai-provider';
import { appendFileSync } from 'node:fs';
import { isCoworkError } from '../../../src/errors';
import { definePlugin, defineTool } from '../../../src/plugins/define-plugin';

const holdPlugin = definePlugin({
  name: 'hold',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'hold',
      description: 'A long tool call.',
      inputSchema: { type: 'object' },
      permissions: [],
      handler: async () => {
        await new Promise((resolve) => setTimeout(resolve, Number(process.env.HOLD_MS ?? 0)));
        return { content: 'held' };
      },
    }),
    defineTool({
      name: 'peek',
      description: 'A long read-only call: says "peeking" on stdout, then waits PEEK_MS.',
      inputSchema: { type: 'object' },
      permissions: [],
      readOnly: true,
      handler: async () => {
        process.stdout.write('peeking\n');
        await new Promise((resolve) => setTimeout(resolve, Number(process.env.PEEK_MS ?? 0)));
        return { content: 'seen' };
      },
    }),
    defineTool({
      name: 'launch',
      description: 'A high-impact call: waits for a person.',
      inputSchema: { type: 'object' },
      permissions: [],
      impact: 'high_impact',
      handler: async () => {
        appendFileSync(process.env.LAUNCH_FILE!, `launched by ${process.pid}\n`);
        return { content: 'launched' };
      },
    }),
  ],
});

async function main(): Promise<void> {
  const [workspaceDir, baseUrl, existingTask] = process.argv.slice(2) as [string, string, string | undefined];
  const leases = { ...(process.env.HOST_ID && { hostId: process.env.HOST_ID }), ...(process.env.LEASE_MS && { durationMs: Number(process.env.LEASE_MS) }) };
  const host = await Host.open({ workspaceDir, plugins: [holdPlugin], databaseUrl: process.env.DATABASE_URL || undefined, leases });
  const provider = new OpenAiCompatibleProvider({ baseUrl, model: 'scripted', maxRetries: 1, retryBaseDelayMs: 5 });
  const runtime = new AgentRuntime({ host, provider, maxOutputTokens: 500 });
  const taskId = existingTask ?? (await runtime.startTask('two parts, in parallel'));
  process.stdout.write(`task ${taskId}\n`);
  const result = await runtime.runTask(taskId);
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
  await runtime.close();
  await host.close();
}

main().catch((error) => {
  if (isCoworkError(error)) process.stdout.write(`error ${JSON.stringify(error)}\n`);
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
