/**
 * A host that drives one scene resource's application (a FakeApp in this process), for the
 * two-hosts external tests: it opens the workspace (DATABASE_URL when set; HOST_ID and LEASE_MS
 * set its leases), commits one op (`add <name>`) to the resource, which opens the resource's session
 * under its lease, prints `holding`, and runs until killed. A coded error is printed as
 * `error <its JSON>` before the exit with 1.
 *
 * Usage: node --import tsx external-child.ts <workspaceDir> <resourceId> <baseRevision> <name>
 */
import { isCoworkError } from '../../src/errors';
import { Host } from '../../src/host';
import { FakeApp, scenePlugin } from '../support/fake-external-app';

async function main(): Promise<void> {
  const [workspaceDir, resourceId, base, name] = process.argv.slice(2) as [string, string, string, string];
  const leases = { ...(process.env.HOST_ID && { hostId: process.env.HOST_ID }), ...(process.env.LEASE_MS && { durationMs: Number(process.env.LEASE_MS) }) };
  const host = await Host.open({ workspaceDir, plugins: [scenePlugin(new FakeApp())], databaseUrl: process.env.DATABASE_URL || undefined, leases, externalPollMs: 0, pollMonitors: false });
  await host.resources.commit(resourceId, { baseRevision: Number(base), op: { type: 'add', name }, operator: 'agent:child' });
  process.stdout.write('holding\n');
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  if (isCoworkError(error)) process.stdout.write(`error ${JSON.stringify(error)}\n`);
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
