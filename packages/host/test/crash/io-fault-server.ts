/**
 * The server the disk-fault tests (io-faults.test.ts) run, under strace or on a small filesystem:
 * the host's HTTP server over one workspace, as `cowork serve` builds it, without the built bin
 * (tests run from src/). The parent commits through HTTP; a 200 is its acknowledgement.
 *
 * Usage: node --import tsx io-fault-server.ts <workspaceDir> <token>
 *
 * Prints `listening <url>` once it answers. On SIGTERM it closes the server and the host and exits
 * 0; a close that fails prints why and exits 1. It also exits when stdin closes (the parent is gone).
 */
import { Host } from '../../src/host';
import { createServer } from '../../src/server/create-server';

async function main(): Promise<void> {
  const [workspaceDir, token] = process.argv.slice(2);
  if (!workspaceDir || !token) throw new Error('usage: io-fault-server.ts <workspaceDir> <token>');
  const host = await Host.open({ workspaceDir, pollMonitors: false });
  const server = await createServer({ host, token, port: 0 });
  const { url } = await server.listen();
  process.stdout.write(`listening ${url}\n`);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    try {
      await server.close();
      await host.close();
      process.stdout.write('closed\n');
      process.exit(0);
    } catch (error) {
      process.stderr.write(`io-fault-server: close failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop());
  process.stdin.resume().once('end', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`io-fault-server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
