import type { Host } from '../host';
import type { CandidateStatus } from '../store/records';
import { CANDIDATE_STATUSES } from '../store/records';
import { OPERATOR_ARG, operatorOf, readerOf } from './operator';
import { jsonOutput, objectSchema, type McpTool } from './tool';
import { resourceUri } from './uris';

const ID = { type: 'string', minLength: 1, maxLength: 200 };
const REVISION = { type: 'integer', minimum: 0 };

/**
 * The resource protocol as tools: each is one call on the resource service, the same call the HTTP
 * routes make, so a commit here is checked, conflicted and published like any other.
 */
export function resourceTools(host: Host): McpTool[] {
  const resources = host.resources;
  return [
    {
      name: 'list_resources',
      description: 'List the workspace\'s shared resources (id, kind, current revision), oldest first.',
      inputSchema: objectSchema({ kind: { type: 'string', maxLength: 200, description: 'Only this kind.' }, limit: { type: 'integer', minimum: 1, maximum: 1000 } }),
      async run(args) {
        const list = await resources.list({ kind: args.kind as string | undefined, limit: args.limit as number | undefined });
        return jsonOutput({ resources: list.map((r) => ({ id: r.id, kind: r.kind, revision: r.revision, uri: resourceUri(r.id), updatedAt: r.updatedAt })) });
      },
    },
    {
      name: 'create_resource',
      description: "Create a shared resource of a kind, with the kind's initial content unless content is given. Revision 0; commit changes with commit_resource.",
      inputSchema: objectSchema({ kind: { type: 'string', minLength: 1, maxLength: 200, description: 'A kind a loaded plugin provides, like "text".' }, content: { description: "Initial content, checked against the kind's schema." }, operator: OPERATOR_ARG }, ['kind']),
      async run(args, call) {
        const created = await resources.create({ kind: args.kind as string, content: args.content, operator: await operatorOf(args, call) });
        return jsonOutput({ resource: created, uri: resourceUri(created.id) });
      },
    },
    {
      name: 'read_resource',
      description:
        'Read a resource: its current revision and content. With sinceRevision (the revision you last read), also the changes others made after it, so you can rebase your work on them.',
      inputSchema: objectSchema({ resourceId: ID, sinceRevision: REVISION, operator: OPERATOR_ARG }, ['resourceId']),
      async run(args, call) {
        const id = args.resourceId as string;
        if (args.sinceRevision === undefined) return jsonOutput({ resource: await resources.get(id) });
        const view = await resources.viewFor(id, { operator: await readerOf(args, call), sinceRevision: args.sinceRevision as number });
        return jsonOutput({ resource: view.resource, changesByOthers: view.changesByOthers, selections: view.selections });
      },
    },
    {
      name: 'commit_resource',
      description:
        "Commit one op on top of baseRevision (the revision you read). If someone committed first the call fails with revision_conflict, naming currentRevision and the candidateId your op was kept as: re-read with read_resource(sinceRevision), rebase and commit again, or accept the candidate on the new base.",
      inputSchema: objectSchema(
        { resourceId: ID, baseRevision: REVISION, op: { description: "One op of the resource's kind (see its schema)." }, operator: OPERATOR_ARG, idempotencyKey: { type: 'string', minLength: 1, maxLength: 200, description: 'A repeated commit with the same key returns the first result.' } },
        ['resourceId', 'baseRevision', 'op'],
      ),
      async run(args, call) {
        const result = await resources.commit(args.resourceId as string, {
          baseRevision: args.baseRevision as number,
          op: args.op,
          operator: await operatorOf(args, call),
          idempotencyKey: args.idempotencyKey as string | undefined,
        });
        return jsonOutput({ ...result });
      },
    },
    {
      name: 'resource_history',
      description: 'Committed revisions of a resource (who, which op, when), oldest first; after skips up to that revision.',
      inputSchema: objectSchema({ resourceId: ID, after: { type: 'integer', minimum: -1 }, limit: { type: 'integer', minimum: 1, maximum: 1000 } }, ['resourceId']),
      async run(args) {
        return jsonOutput({ revisions: await resources.history(args.resourceId as string, { after: args.after as number | undefined, limit: args.limit as number | undefined }) });
      },
    },
    {
      name: 'list_candidates',
      description: 'Candidates of a resource: ops kept after a conflict and drafts proposed for review (status open, accepted, rejected or discarded).',
      inputSchema: objectSchema({ resourceId: ID, status: { enum: [...CANDIDATE_STATUSES] } }, ['resourceId']),
      async run(args) {
        return jsonOutput({ candidates: await resources.listCandidates(args.resourceId as string, args.status as CandidateStatus | undefined) });
      },
    },
    {
      name: 'accept_candidate',
      description: "Accept a candidate: commit its ops as its author. baseRevision retries a conflicted op on a newer revision; a conflict again is revision_conflict.",
      inputSchema: objectSchema({ candidateId: ID, baseRevision: REVISION, operator: OPERATOR_ARG }, ['candidateId']),
      async run(args, call) {
        const result = await resources.acceptCandidate(args.candidateId as string, { operator: await operatorOf(args, call), baseRevision: args.baseRevision as number | undefined });
        return jsonOutput({ ...result });
      },
    },
    {
      name: 'reject_candidate',
      description: 'Reject a candidate: it stays on record, closed, and is never committed.',
      inputSchema: objectSchema({ candidateId: ID, operator: OPERATOR_ARG }, ['candidateId']),
      async run(args, call) {
        return jsonOutput({ candidate: await resources.rejectCandidate(args.candidateId as string, await operatorOf(args, call)) });
      },
    },
  ];
}
