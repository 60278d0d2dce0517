import { Host } from '../../src/host';
import type { CommitAck, EventAck } from './child-run';

/** Splits the text of a crash-test resource into its `...;` tokens. */
export function tokensOf(text: string): string[] {
  return text.match(/[^;]+;/g) ?? [];
}

/**
 * Checks one resource written only by `append` ops of unique tokens against what was acknowledged:
 * revisions are exactly 0..head, the content is the appended texts in revision order, the tokens
 * are unique, every acknowledged change sits at the revisions it was acknowledged with, and an old
 * revision (`probeRevision`, taken modulo head + 1) rebuilds to the matching prefix.
 * Returns the head revision. Problems are collected first and asserted once: the ledger grows to
 * thousands of entries, and one `expect` per entry would dominate the run.
 */
export async function verifyResource(host: Host, resourceId: string, acks: readonly CommitAck[], probeRevision: number): Promise<number> {
  const resource = await host.resources.get(resourceId);
  const history = await host.resources.history(resourceId);
  const head = resource.revision;
  const problems: string[] = [];

  if (history.length !== head + 1) problems.push(`head is ${head} but history has ${history.length} revisions`);
  history.forEach((r, i) => {
    if (r.revision !== i) problems.push(`history[${i}] is revision ${r.revision}`);
  });
  if (history[0]?.action !== 'create') problems.push(`revision 0 is ${JSON.stringify(history[0])}`);
  // appended[i] is the text revision i + 1 appended.
  const appended = history.slice(1).map((r) => {
    const op = r.op as { type?: unknown; text?: unknown } | null;
    if (r.action !== 'op' || op?.type !== 'append' || typeof op.text !== 'string') {
      problems.push(`revision ${r.revision} is not an append: ${JSON.stringify(r)}`);
      return '';
    }
    return op.text;
  });
  const text = (resource.content as { text: string }).text;
  if (text !== appended.join('')) problems.push('the content is not the appended texts in revision order');
  const tokens = tokensOf(text);
  if (tokens.join('') !== text) problems.push('the content has text outside tokens');
  const seen = new Set<string>();
  for (const token of tokens) {
    if (seen.has(token)) problems.push(`token ${token} appears more than once`);
    seen.add(token);
  }
  for (const ack of acks) {
    const first = ack.revision - ack.tokens.length + 1;
    const stored = appended.slice(first - 1, ack.revision);
    if (first < 1 || stored.join(' ') !== ack.tokens.join(' ')) {
      problems.push(`acknowledged ${JSON.stringify(ack)} but revisions ${first}..${ack.revision} hold ${JSON.stringify(stored)}`);
    }
  }
  expect(problems).toEqual([]);

  const probe = probeRevision % (head + 1);
  expect({ probe, content: await host.resources.contentAt(resourceId, probe) }).toEqual({
    probe,
    content: { text: appended.slice(0, probe).join('') },
  });
  return head;
}

/**
 * Checks the event log: sequence numbers 1..last with no gap, every acknowledged `task.created` at
 * the seq it was acknowledged with, and the coordinator state (replayed from the log when the host
 * opened) holding exactly the tasks the log created. Returns the last seq.
 */
export async function verifyEvents(host: Host, acks: readonly EventAck[]): Promise<number> {
  const log = await host.store.read((tx) => tx.events.list(0));
  const problems: string[] = [];
  log.forEach((e, i) => {
    if (e.seq !== i + 1) problems.push(`log[${i}] has seq ${e.seq}`);
  });
  for (const ack of acks) {
    const stored = log[ack.seq - 1];
    if (stored?.type !== 'task.created' || (stored.data as { taskId?: unknown }).taskId !== ack.taskId) {
      problems.push(`acknowledged ${JSON.stringify(ack)} but seq ${ack.seq} holds ${JSON.stringify(stored)}`);
    }
  }
  const state = host.coordinator.current;
  if (state.lastSeq !== log.length) problems.push(`state.lastSeq is ${state.lastSeq}, the log has ${log.length} events`);
  const created = log.filter((e) => e.type === 'task.created').map((e) => (e.data as { taskId: string }).taskId);
  const tasks = Object.keys(state.tasks);
  if (tasks.length !== created.length) problems.push(`state has ${tasks.length} tasks, the log created ${created.length}`);
  for (const taskId of created) {
    if (state.tasks[taskId]?.status !== 'queued') problems.push(`task ${taskId} is ${JSON.stringify(state.tasks[taskId])} in the state`);
  }
  expect(problems).toEqual([]);
  return log.length;
}

/** `CRASH_SEED` when set, otherwise a fresh one. */
export function crashSeed(): number {
  const fromEnv = process.env.CRASH_SEED;
  if (fromEnv !== undefined && fromEnv !== '') {
    const seed = Number(fromEnv);
    if (!Number.isInteger(seed)) throw new Error(`CRASH_SEED must be an integer, got ${JSON.stringify(fromEnv)}`);
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 31);
}

/** Opens the workspace (its records in `databaseUrl` when given), runs `fn` on it, and closes it again. */
export async function withHost<T>(workspaceDir: string, fn: (host: Host) => Promise<T>, databaseUrl?: string): Promise<T> {
  const host = await Host.open({ workspaceDir, databaseUrl });
  try {
    return await fn(host);
  } finally {
    await host.close();
  }
}
