/**
 * The process the large-value crash test kills: it sets a text resource to a large text (over the
 * store's large-value threshold, so the op and the head are files beside the database) in a loop,
 * and prints `ack <revision> <tag>.<n>` only after each commit resolved.
 *
 * Usage: node --import tsx large-value-child.ts <workspaceDir> <resourceId> <tag>
 */
import { Host } from '../../src/host';
import { largeText } from './large-text';

async function main(): Promise<void> {
  const [workspaceDir, resourceId, tag] = process.argv.slice(2);
  if (!workspaceDir || !resourceId || !tag) throw new Error('usage: large-value-child.ts <workspaceDir> <resourceId> <tag>');
  process.stdout.on('error', () => process.exit(0));
  const host = await Host.open({ workspaceDir });
  let head = (await host.resources.get(resourceId)).revision;
  for (let n = 0; ; n += 1) {
    const token = `${tag}.${n}`;
    head = (await host.resources.commit(resourceId, { baseRevision: head, op: { type: 'set', text: largeText(token) }, operator: 'agent:child' })).revision;
    await new Promise<void>((resolve) => process.stdout.write(`ack ${head} ${token}\n`, () => resolve()));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
