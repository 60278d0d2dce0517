import { seededRandom, type Json } from '@cowork/host';
import { sha256 } from '../hash';

/**
 * Task families on the host's own tools that a tiny model can learn: one tool call, its result, and
 * `finish` with a summary that must carry values from the result or the request.
 *
 * - `read_value`: a text resource holds a `key = value` setting of a service; the model reads it
 *   (`read_resource`) and answers the value.
 * - `commit_line`: the model appends a given line to a text resource at the revision the request
 *   names (`commit_resource` with `baseRevision`) and answers the new revision from the result.
 * - `create_note`: the model creates a text resource holding a given line (`create_resource`) and
 *   answers the new resource's id from the result. Round 0 never sees it: round 1's first-use data.
 *
 * Each instance is both a benchmark task (`suite.ts`: the request names the resource as
 * `{{resource:data}}`, which a trial fills in) with its reference session script (the teacher the
 * runner replays through the real host, so the training data hold the host's real results), and a
 * synthetic trajectory with results mirrored by hand (`messages`, for `trainer_generate`).
 *
 * Held-out instances draw every value from ranges disjoint from training: numbers, revisions and
 * the words (services, keys, line words). With the same words on both sides, a generator with few
 * phrasings leaks: most held-out requests would have a training twin at >= 0.8 BM25.
 */
export type Family = 'read_value' | 'commit_line' | 'create_note';
export type Split = 'train' | 'heldout';

export const FAMILIES: readonly Family[] = ['read_value', 'commit_line', 'create_note'];

/** The host tool each family's instances call. */
export const FAMILY_TOOL: Readonly<Record<Family, string>> = { read_value: 'read_resource', commit_line: 'commit_resource', create_note: 'create_resource' };

/** The name a family's task resource has in its benchmark task. */
export const DATA_RESOURCE = 'data';

interface Ranges {
  readonly numbers: readonly [number, number];
  readonly revisions: readonly [number, number];
  readonly services: readonly string[];
  readonly keys: readonly string[];
  readonly words: readonly string[];
}

const HELDOUT_SERVICES = ['payroll', 'render', 'backup', 'metrics', 'archive', 'notify'];
const HELDOUT_KEYS = ['replicas', 'quota', 'interval', 'buffer', 'depth'];
const HELDOUT_WORDS = ['juniper', 'krypton', 'lantern', 'meadow', 'nectar', 'orchid'];

/**
 * Pronounceable pseudo-words ("tovari", "kel"): training draws keys and line words from hundreds of
 * them, so a model cannot memorise a short list and must learn to copy; none is a held-out word.
 */
function pseudoWords(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const [consonants, vowels] = ['bdfgklmnprstvz', 'aeiou'];
  const exclude = new Set([...HELDOUT_SERVICES, ...HELDOUT_KEYS, ...HELDOUT_WORDS]);
  const words = new Set<string>();
  while (words.size < count) {
    const syllables = 2 + Math.floor(random() * 2);
    let word = '';
    for (let i = 0; i < syllables; i++) word += consonants[Math.floor(random() * consonants.length)]! + vowels[Math.floor(random() * vowels.length)]!;
    if (!exclude.has(word)) words.add(word);
  }
  return [...words];
}

export const RANGES: Readonly<Record<Split, Ranges>> = {
  train: {
    numbers: [1000, 4999],
    revisions: [0, 4],
    services: ['billing', 'search', 'mailer', 'gateway', 'ledger', 'catalog', 'auth', 'queue'],
    keys: pseudoWords(200, 11),
    words: pseudoWords(300, 12),
  },
  heldout: {
    numbers: [5000, 9999],
    revisions: [5, 9],
    services: HELDOUT_SERVICES,
    keys: HELDOUT_KEYS,
    words: HELDOUT_WORDS,
  },
};

export type RuntimeMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly toolCalls?: readonly { id: string; name: string; arguments: string }[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A turn of a reference session script (the runner's `cowork-bench-script/1`). */
export interface ScriptTurn {
  readonly toolCalls: readonly { readonly name: string; readonly arguments: Json }[];
}

/** One generated task instance with its reference solution. */
export interface FamilyTask {
  /** Unique per family, split, seed and index; also the benchmark task's id. */
  readonly id: string;
  readonly family: Family;
  readonly split: Split;
  /** The request with the synthetic resource id (what `messages` holds). */
  readonly request: string;
  /** The request as a benchmark task gives it: the resource named `{{resource:data}}`. */
  readonly taskRequest: string;
  /** The synthetic id of the task's resource (`messages` only; a trial makes its own). */
  readonly resourceId: string;
  /** The task's text resource, none for `create_note`: its text at revision 0 and the ops that bring it to `revision`. */
  readonly resource: { readonly text: string; readonly ops: readonly Json[] } | null;
  readonly revision: number;
  /** What the summary must contain (for `create_note`, the created id is found at check time). */
  readonly answer: string;
  /** The line appended or created (`commit_line`, `create_note`). */
  readonly line: string | null;
  /** The reference solution as a session script, with the runner's placeholders. */
  readonly script: readonly ScriptTurn[];
  /** The reference trajectory in the runtime's message form, results mirrored by hand. */
  readonly messages: readonly RuntimeMessage[];
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function between(random: () => number, [lo, hi]: readonly [number, number]): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}

const FAMILY_SALT: Readonly<Record<Family, number>> = { read_value: 1, commit_line: 2, create_note: 3 };

/** `count` instances of a family in a split; ids and resource ids are derived from the seed. */
export function generate(family: Family, split: Split, count: number, seed: number): FamilyTask[] {
  const random = seededRandom(seed * 7919 + FAMILY_SALT[family] + (split === 'train' ? 0 : 1000));
  const ranges = RANGES[split];
  const tasks: FamilyTask[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${family.replace(/_/g, '-')}-${split === 'train' ? 'dev' : 'heldout'}-${seed}-${i}`;
    const resourceId = `res_${sha256(id).slice(0, 10)}`;
    const make = family === 'read_value' ? readValue : family === 'commit_line' ? commitLine : createNote;
    tasks.push(make(id, split, resourceId, random, ranges));
  }
  return tasks;
}

const DATA = `{{resource:${DATA_RESOURCE}}}`;

function call(name: string, args: Json): ScriptTurn {
  return { toolCalls: [{ name, arguments: args }] };
}

/** The synthetic conversation of a script: one call, its (mirrored) result, and `finish`. */
function conversation(request: string, first: ScriptTurn, result: Json, summary: string, resourceId: string): RuntimeMessage[] {
  const fill = (value: Json): string => JSON.stringify(value).split(DATA).join(resourceId);
  const [tool] = first.toolCalls;
  return [
    { role: 'user', content: request },
    { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: tool!.name, arguments: fill(tool!.arguments) }] },
    { role: 'tool', toolCallId: 'call_0', content: JSON.stringify(result) },
    { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'finish', arguments: JSON.stringify({ summary }) }] },
  ];
}

function readValue(id: string, split: Split, resourceId: string, random: () => number, ranges: Ranges): FamilyTask {
  const service = pick(random, ranges.services);
  const key = pick(random, ranges.keys);
  const value = String(between(random, ranges.numbers));
  // One setting per resource, so the value to answer is the one the result holds. (Chosen when the
  // model read 256 bytes, which held the result but not the request; its 256 pieces now hold both.)
  const text = `${key} = ${value}\n`;
  const taskRequest = `Read the ${service} settings in ${DATA} and tell me its ${key}.`;
  const summary = `The ${key} is ${value}.`;
  const first = call('read_resource', { resourceId: DATA });
  const result = { id: resourceId, kind: 'text', revision: 0, summary: `text, ${text.length} characters`, content: { text }, changesByOthers: [], selections: [] };
  const request = taskRequest.replace(DATA, resourceId);
  return {
    id, family: 'read_value', split, request, taskRequest, resourceId, resource: { text, ops: [] }, revision: 0, answer: value, line: null,
    script: [first, call('finish', { summary })],
    messages: conversation(request, first, result, summary, resourceId),
  };
}

function commitLine(id: string, split: Split, resourceId: string, random: () => number, ranges: Ranges): FamilyTask {
  const word = pick(random, ranges.words);
  const n = between(random, ranges.numbers);
  const revision = between(random, ranges.revisions);
  const line = `${word} ${n}`;
  // The resource reaches the named revision by lines appended before the task.
  const ops: Json[] = Array.from({ length: revision }, () => ({ type: 'append', text: `${pick(random, ranges.words)} ${between(random, ranges.numbers)}\n` }));
  const taskRequest = `Append the line "${line}" to ${DATA}; you read it at revision ${revision}.`;
  const summary = `Committed "${line}" as revision ${revision + 1}.`;
  const first = call('commit_resource', { resourceId: DATA, baseRevision: revision, op: { type: 'append', text: `${line}\n` } });
  const request = taskRequest.replace(DATA, resourceId);
  return {
    id, family: 'commit_line', split, request, taskRequest, resourceId, resource: { text: '', ops }, revision, answer: `revision ${revision + 1}`, line,
    script: [first, call('finish', { summary })],
    messages: conversation(request, first, { revision: revision + 1 }, summary, resourceId),
  };
}

function createNote(id: string, split: Split, resourceId: string, random: () => number, ranges: Ranges): FamilyTask {
  const line = `${pick(random, ranges.words)} ${between(random, ranges.numbers)}`;
  const taskRequest = `Create a text resource holding the line "${line}" and tell me its id.`;
  const first = call('create_resource', { kind: 'text', content: { text: `${line}\n` } });
  // The synthetic trajectory's new resource takes the instance's id; a trial's comes from the host.
  const summary = (newId: string) => `Created ${newId} holding "${line}".`;
  return {
    id, family: 'create_note', split, request: taskRequest, taskRequest, resourceId, resource: null, revision: 0, answer: line, line,
    script: [first, call('finish', { summary: summary('{{result:id}}') })],
    messages: conversation(taskRequest, first, { id: resourceId, kind: 'text', revision: 0 }, summary(resourceId), resourceId),
  };
}
