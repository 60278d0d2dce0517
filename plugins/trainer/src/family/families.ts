import { seededRandom } from '@cowork/host';
import { sha256 } from '../hash';

/**
 * Task families on the host's own tools that a tiny model can learn: one tool call, its result,
 * and a final answer that must carry values from the result or the request.
 *
 * - `read_value`: a text resource holds `key = value` settings of a service; the model reads it
 *   (`read_resource`) and answers the value of one key.
 * - `commit_line`: the model appends a given line to a text resource at a given revision
 *   (`commit_resource` with `baseRevision`) and answers the new revision.
 *
 * Held-out instances draw every value from ranges disjoint from training: numbers, revisions and
 * the words (services, keys, line words). With the same words on both sides, a generator with few
 * phrasings leaks: most held-out requests would have a training twin at >= 0.8 BM25.
 */
export type Family = 'read_value' | 'commit_line';
export type Split = 'train' | 'heldout';

export const FAMILIES: readonly Family[] = ['read_value', 'commit_line'];

interface Ranges {
  readonly numbers: readonly [number, number];
  readonly revisions: readonly [number, number];
  readonly services: readonly string[];
  readonly keys: readonly string[];
  readonly words: readonly string[];
}

export const RANGES: Readonly<Record<Split, Ranges>> = {
  train: {
    numbers: [1000, 4999],
    revisions: [0, 4],
    services: ['billing', 'search', 'mailer', 'gateway', 'ledger', 'catalog', 'auth', 'queue'],
    keys: ['port', 'timeout', 'retries', 'workers', 'limit', 'shards'],
    words: ['alpha', 'bravo', 'cedar', 'delta', 'ember', 'falcon', 'garnet', 'harbor'],
  },
  heldout: {
    numbers: [5000, 9999],
    revisions: [5, 9],
    services: ['payroll', 'render', 'backup', 'metrics', 'archive', 'notify'],
    keys: ['replicas', 'quota', 'interval', 'buffer', 'depth'],
    words: ['juniper', 'krypton', 'lantern', 'meadow', 'nectar', 'orchid'],
  },
};

/** One generated task instance with its reference trajectory. */
export interface FamilyTask {
  readonly id: string;
  readonly family: Family;
  readonly split: Split;
  readonly request: string;
  readonly resourceId: string;
  /** The resource's text before the task, and its revision. */
  readonly text: string;
  readonly revision: number;
  /** What the final answer must contain. */
  readonly answer: string;
  /** The reference trajectory in the runtime's message form (role, content, toolCalls, toolCallId). */
  readonly messages: readonly RuntimeMessage[];
}

export type RuntimeMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly toolCalls?: readonly { id: string; name: string; arguments: string }[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function between(random: () => number, [lo, hi]: readonly [number, number]): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}

/** `count` instances of a family in a split; ids and resource ids are derived from the seed. */
export function generate(family: Family, split: Split, count: number, seed: number): FamilyTask[] {
  const random = seededRandom(seed * 7919 + (family === 'read_value' ? 1 : 2) + (split === 'train' ? 0 : 1000));
  const ranges = RANGES[split];
  const tasks: FamilyTask[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${family}-${split}-${seed}-${i}`;
    const resourceId = `res_${sha256(id).slice(0, 10)}`;
    tasks.push(family === 'read_value' ? readValue(id, split, resourceId, random, ranges) : commitLine(id, split, resourceId, random, ranges));
  }
  return tasks;
}

function readValue(id: string, split: Split, resourceId: string, random: () => number, ranges: Ranges): FamilyTask {
  const service = pick(random, ranges.services);
  const keys = [...ranges.keys].sort(() => random() - 0.5).slice(0, 3);
  const values = keys.map(() => between(random, ranges.numbers));
  const asked = Math.floor(random() * keys.length);
  const key = keys[asked]!;
  const value = String(values[asked]);
  const text = keys.map((k, j) => `${k} = ${values[j]}`).join('\n') + '\n';
  const revision = between(random, ranges.revisions);
  const request = `Read the ${service} settings in ${resourceId} and tell me its ${key}.`;
  const callId = 'call_0';
  const result = { id: resourceId, kind: 'text', revision, summary: `text, ${text.length} characters`, content: { text }, changesByOthers: [], selections: [] };
  return {
    id, family: 'read_value', split, request, resourceId, text, revision, answer: value,
    messages: [
      { role: 'user', content: request },
      { role: 'assistant', content: null, toolCalls: [{ id: callId, name: 'read_resource', arguments: JSON.stringify({ resourceId }) }] },
      { role: 'tool', toolCallId: callId, content: JSON.stringify(result) },
      { role: 'assistant', content: `The ${key} of ${service} is ${value}.` },
    ],
  };
}

function commitLine(id: string, split: Split, resourceId: string, random: () => number, ranges: Ranges): FamilyTask {
  const word = pick(random, ranges.words);
  const n = between(random, ranges.numbers);
  const revision = between(random, ranges.revisions);
  const line = `${word} ${n}`;
  const request = `Append the line "${line}" to ${resourceId}; you read it at revision ${revision}.`;
  const callId = 'call_0';
  const op = { type: 'append', text: `${line}\n` };
  return {
    id, family: 'commit_line', split, request, resourceId, text: '', revision, answer: String(revision + 1),
    messages: [
      { role: 'user', content: request },
      { role: 'assistant', content: null, toolCalls: [{ id: callId, name: 'commit_resource', arguments: JSON.stringify({ resourceId, baseRevision: revision, op }) }] },
      { role: 'tool', toolCallId: callId, content: JSON.stringify({ revision: revision + 1 }) },
      { role: 'assistant', content: `Committed "${line}" as revision ${revision + 1}.` },
    ],
  };
}
