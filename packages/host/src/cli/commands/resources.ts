import type { RevisionRecord } from '../../store/records';
import { group, leaf } from '../command';
import { compact } from '../output';
import { defaultOperator, operatorOption, parseJsonOption, parseRevisionOption } from '../values';
import { candidatesCommand } from './candidates';
import { exportCommand } from './export';
import { importCommand } from './import';

/**
 * `cowork resources ...`: the resource protocol from the shell. Each command checks its options
 * first and only then opens the host, so bad input writes nothing; the host's own checks (operator,
 * kind, op, content, size) give the same coded errors as every other edge. Reads of stored records
 * (`list`, `show` without --revision, `history`, `changes`) open only the store, through the same
 * resource service; commands on one resource or kind tell the host which kind they need.
 */

/** What `show` prints: the content at one revision, and where the resource is now. */
export interface ShownResource {
  readonly id: string;
  readonly kind: string;
  readonly revision: number;
  readonly currentRevision: number;
  readonly content: unknown;
}

const OPERATOR = 'who acts: "human:<name>" or "agent:<id>"';

const list = leaf({
  summary: 'list resources, oldest first',
  positionals: [],
  options: { kind: { value: 'K', description: 'only resources of this kind' } },
  async run(args, { out, withStoredResources }) {
    const kind = args.option('kind');
    const resources = await withStoredResources((stored) => stored.list(kind === undefined ? {} : { kind }));
    const rows = resources.map(({ id, kind, title, revision, createdAt, updatedAt }) => ({ id, kind, ...(title === undefined ? {} : { title }), revision, createdAt, updatedAt }));
    out.result({ resources: rows }, ({ resources }) =>
      resources.length === 0 ? ['no resources'] : resources.map((r) => `${r.id}  ${r.kind}  revision ${r.revision}  updated ${r.updatedAt}${r.title === undefined ? '' : `  ${JSON.stringify(r.title)}`}`),
    );
  },
});

const create = leaf({
  summary: "create a resource of a kind, with the kind's initial content unless --content is given",
  positionals: [],
  options: {
    kind: { value: 'K', required: true, description: 'the kind (see `cowork plugins`)' },
    content: { value: 'JSON', description: "the initial content, matching the kind's content schema" },
    title: { value: 'TEXT', description: 'what people call it (1 to 200 characters)' },
    operator: { value: 'OP', description: `${OPERATOR} (default human:$USER, or human:cli)` },
  },
  async run(args, { io, out, withHost }) {
    const kind = args.required('kind');
    const title = args.option('title');
    const text = args.option('content');
    const content = text === undefined ? undefined : parseJsonOption('content', text);
    const given = args.option('operator');
    const operator = given === undefined ? defaultOperator(io) : operatorOption(given);
    const resource = await withHost((host) => host.resources.create({ kind, content, title, operator }), { kind });
    out.result(resource, (r) => [`created ${r.id} (${r.kind})${r.title === undefined ? '' : ` ${JSON.stringify(r.title)}`} at revision ${r.revision}`]);
  },
});

const show = leaf({
  summary: 'show a resource: its kind, revision and content (the text itself for text resources)',
  positionals: ['ID'],
  options: { revision: { value: 'N', description: 'show the content at this revision (default: the current one)' } },
  async run(args, { out, withHost, withStoredResources, kindOf }) {
    const id = args.positional('ID');
    const at = args.option('revision');
    const revision = at === undefined ? undefined : parseRevisionOption('revision', at);
    // The current content is the stored record: no host, no plugin. An older revision is rebuilt
    // by the kind (replaying ops onto a snapshot), so it needs the host with that kind's plugin.
    const shown =
      revision === undefined
        ? await withStoredResources(async (resources): Promise<ShownResource> => {
            const resource = await resources.get(id);
            return { id, kind: resource.kind, revision: resource.revision, currentRevision: resource.revision, content: resource.content };
          })
        : await withHost(
            async (host): Promise<ShownResource> => {
              const resource = await host.resources.get(id);
              const content = await host.resources.contentAt(id, revision);
              return { id, kind: resource.kind, revision, currentRevision: resource.revision, content };
            },
            { kind: await kindOf(id) },
          );
    out.result(shown, describeShown);
  },
});

const commit = leaf({
  summary: 'commit one op made against revision N; if the resource moved on, exit 3 and keep the op as a candidate',
  positionals: ['ID'],
  options: {
    base: { value: 'N', required: true, description: 'the revision the op was made against' },
    op: { value: 'JSON', required: true, description: "the op, matching the kind's op schema" },
    operator: { value: 'OP', required: true, description: OPERATOR },
  },
  async run(args, { out, withHost, kindOf }) {
    const id = args.positional('ID');
    const baseRevision = parseRevisionOption('base', args.required('base'));
    const op = parseJsonOption('op', args.required('op'));
    const operator = operatorOption(args.required('operator'));
    const result = await withHost((host) => host.resources.commit(id, { baseRevision, op, operator }), { kind: await kindOf(id) });
    out.result(result, (r) => [`committed ${r.resourceId} at revision ${r.revision}`]);
  },
});

const history = leaf({
  summary: 'list every revision of a resource: what changed it, who, and when',
  positionals: ['ID'],
  options: {},
  async run(args, { out, withStoredResources }) {
    const id = args.positional('ID');
    const revisions = await withStoredResources((stored) => stored.history(id));
    out.result({ revisions }, ({ revisions }) => revisions.map(describeRevision));
  },
});

const restore = leaf({
  summary: 'commit the content of an old revision as a new revision (checked against --base like any commit)',
  positionals: ['ID'],
  options: {
    revision: { value: 'N', required: true, description: 'the old revision whose content comes back' },
    base: { value: 'N', required: true, description: 'the current revision as you last read it' },
    operator: { value: 'OP', required: true, description: OPERATOR },
  },
  async run(args, { out, withHost, kindOf }) {
    const id = args.positional('ID');
    const revision = parseRevisionOption('revision', args.required('revision'));
    const baseRevision = parseRevisionOption('base', args.required('base'));
    const operator = operatorOption(args.required('operator'));
    const result = await withHost((host) => host.resources.restore(id, { revision, baseRevision, operator }), { kind: await kindOf(id) });
    out.result(result, (r) => [`restored ${r.resourceId} to the content of revision ${revision}, now at revision ${r.revision}`]);
  },
});

const changes = leaf({
  summary: 'list the revisions after revision N, optionally leaving out one operator\'s own ("what did others do?")',
  positionals: ['ID'],
  options: {
    since: { value: 'N', required: true, description: 'list revisions strictly after this one' },
    'exclude-operator': { value: 'OP', description: "leave out this operator's revisions" },
  },
  async run(args, { out, withStoredResources }) {
    const id = args.positional('ID');
    const since = parseRevisionOption('since', args.required('since'));
    const excluded = args.option('exclude-operator');
    const excludeOperator = excluded === undefined ? undefined : operatorOption(excluded);
    const revisions = await withStoredResources((stored) => stored.changes(id, { since, excludeOperator }));
    out.result({ revisions }, ({ revisions }) =>
      revisions.length === 0 ? [`no changes after revision ${since}`] : revisions.map(describeRevision),
    );
  },
});

export const resourcesCommand = group({
  summary: 'create, read and change shared resources, and handle candidates',
  children: { list, create, show, commit, history, restore, changes, export: exportCommand, import: importCommand, candidates: candidatesCommand },
});

export function describeRevision(r: RevisionRecord): string {
  const what = r.action === 'create' ? 'create' : `${r.action} ${compact(r.op)}`;
  return `${r.revision}  ${r.createdAt}  ${r.operator}  ${what}`;
}

function describeShown(shown: ShownResource): string[] {
  const current = shown.revision === shown.currentRevision ? '' : ` (current revision ${shown.currentRevision})`;
  const header = `${shown.id}  kind ${shown.kind}  revision ${shown.revision}${current}`;
  const body = isText(shown) ? shown.content.text : JSON.stringify(shown.content, null, 2);
  return [header, '', body];
}

function isText(shown: ShownResource): shown is ShownResource & { content: { text: string } } {
  const content = shown.content as Partial<Record<string, unknown>> | null;
  return shown.kind === 'text' && typeof content === 'object' && content !== null && typeof content.text === 'string';
}
