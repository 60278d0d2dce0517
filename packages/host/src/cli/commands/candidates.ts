import type { CandidateRecord, CandidateStatus } from '../../store/records';
import { group, leaf } from '../command';
import { compact } from '../output';
import { operatorOption, parseChoice, parseRevisionOption } from '../values';

/**
 * `cowork resources candidates ...`: changes that are not (yet) revisions, such as an op that lost a
 * revision conflict. Accepting one commits its ops as its author, with the usual revision check.
 */

const STATUSES: readonly CandidateStatus[] = ['open', 'accepted', 'rejected', 'discarded'];

const list = leaf({
  summary: 'list the candidates of a resource',
  positionals: ['ID'],
  options: { status: { value: 'S', description: `only candidates with this status: ${STATUSES.join(', ')}` } },
  async run(args, { out, withHost }) {
    const id = args.positional('ID');
    const given = args.option('status');
    const status = given === undefined ? undefined : parseChoice('status', given, STATUSES);
    const candidates = await withHost((host) => host.resources.listCandidates(id, status));
    out.result({ candidates }, ({ candidates }) => (candidates.length === 0 ? ['no candidates'] : candidates.map(describeCandidate)));
  },
});

const accept = leaf({
  summary: "commit a candidate's ops as its author; --base N retries it on top of revision N",
  positionals: ['CID'],
  options: {
    operator: { value: 'OP', required: true, description: 'who accepts: "human:<name>" or "agent:<id>"' },
    base: { value: 'N', description: "the revision to apply it to (default: the candidate's own base)" },
  },
  async run(args, { out, withHost }) {
    const candidateId = args.positional('CID');
    const operator = operatorOption(args.required('operator'));
    const base = args.option('base');
    const baseRevision = base === undefined ? undefined : parseRevisionOption('base', base);
    const result = await withHost((host) => host.resources.acceptCandidate(candidateId, { operator, baseRevision }));
    out.result({ candidateId, ...result }, (r) => [`accepted ${r.candidateId}: ${r.resourceId} is at revision ${r.revision}`]);
  },
});

const discard = leaf({
  summary: 'close a candidate without applying it',
  positionals: ['CID'],
  options: { operator: { value: 'OP', required: true, description: 'who discards: "human:<name>" or "agent:<id>"' } },
  async run(args, { out, withHost }) {
    const candidateId = args.positional('CID');
    const operator = operatorOption(args.required('operator'));
    const candidate = await withHost((host) => host.resources.discardCandidate(candidateId, operator));
    out.result(candidate, (c) => [`discarded ${c.id}`]);
  },
});

export const candidatesCommand = group({
  summary: 'list, accept and discard candidates',
  children: { accept, discard },
  fallback: list,
});

function describeCandidate(c: CandidateRecord): string {
  const resolved = c.resolvedBy ? `  by ${c.resolvedBy}${c.acceptedRevision === null ? '' : ` as revision ${c.acceptedRevision}`}` : '';
  return `${c.id}  ${c.status}${resolved}  ${c.source} on revision ${c.baseRevision}  ${c.operator}  ${c.createdAt}  ops ${compact(c.ops)}`;
}
