/**
 * The process the crash tests kill. It commits to one text resource in a loop until it is killed,
 * and prints one line per change only after the call that made it resolved, i.e. after its
 * transaction is durable. Whatever line the parent received is therefore an acknowledgement the
 * host must keep through a SIGKILL.
 *
 * Usage: node --import tsx commit-child.ts <workspaceDir> <resourceId> <tag>
 *
 * The child loads its modules, then waits for a line `go` on stdin before it opens the workspace:
 * the parent starts the next child while it is still checking the last one, and the slow part of a
 * start (loading TypeScript through tsx) overlaps that work. It exits when stdin closes (the parent
 * is gone).
 *
 * Lines on stdout:
 * - `ready <head>`: the host is open and the resource is at revision <head>;
 * - `ack <revision> <token>...`: the last N revisions up to <revision> appended these N tokens, in
 *   order (one token for a plain commit, two for an accepted draft, which commits both ops in one
 *   transaction);
 * - `event <seq> <taskId>`: `task.created` for <taskId> is in the event log at <seq>.
 *
 * Each token is `<tag>.<n>[a|b];`, unique across runs as long as each run gets its own tag.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Host } from '../../src/host';
import { emit, goSignal } from './child-io';

const OPERATOR = 'agent:child';
/** Every this many steps, the step is a draft of two ops, proposed and accepted in one go. */
const DRAFT_EVERY = 7;
/** Every this many steps, a coordinator event follows the commit. */
const EVENT_EVERY = 4;

async function main(): Promise<void> {
  const [workspaceDir, resourceId, tag] = process.argv.slice(2);
  if (!workspaceDir || !resourceId || !tag) throw new Error('usage: commit-child.ts <workspaceDir> <resourceId> <tag>');
  // The parent is gone when our stdin ends or a write to stdout fails: stop rather than commit on.
  process.stdin.once('end', () => process.exit(0));
  process.stdout.on('error', () => process.exit(0));
  await goSignal();
  const host = await Host.open({ workspaceDir });
  let head = (await host.resources.get(resourceId)).revision;
  await emit(`ready ${head}`);
  for (let n = 0; ; n += 1) {
    if (n % DRAFT_EVERY === DRAFT_EVERY - 1) {
      const tokens = [`${tag}.${n}a;`, `${tag}.${n}b;`];
      head = await commitThroughDraft(host, resourceId, head, tokens);
      await emit(`ack ${head} ${tokens.join(' ')}`);
    } else {
      const token = `${tag}.${n};`;
      head = (await host.resources.commit(resourceId, { baseRevision: head, op: { type: 'append', text: token }, operator: OPERATOR })).revision;
      await emit(`ack ${head} ${token}`);
    }
    if (n % EVENT_EVERY === EVENT_EVERY - 1) {
      const taskId = `${tag}-task-${n}`;
      const event = await host.coordinator.record({ type: 'task.created', data: { taskId, request: `crash test ${tag} step ${n}` } });
      await emit(`event ${event.seq} ${taskId}`);
    }
    // better-sqlite3 is synchronous, so without this the loop would run on microtasks alone and
    // never see stdin closing or a failed write.
    await yieldToEventLoop();
  }
}

/** Draft, two edits, propose, accept: the accept commits one revision per op in one transaction. */
async function commitThroughDraft(host: Host, resourceId: string, head: number, tokens: readonly string[]): Promise<number> {
  const draft = await host.resources.createDraft(resourceId, OPERATOR);
  if (draft.baseRevision !== head) throw new Error(`draft base ${draft.baseRevision} is not the known head ${head}`);
  for (const text of tokens) await host.resources.editDraft(draft.id, { type: 'append', text }, OPERATOR);
  const candidate = await host.resources.proposeDraft(draft.id, OPERATOR);
  return (await host.resources.acceptCandidate(candidate.id, { operator: 'human:main' })).revision;
}



main().catch((error: unknown) => {
  process.stderr.write(`commit-child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
