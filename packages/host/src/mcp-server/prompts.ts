/**
 * Prompts the server offers. One: how to work on shared resources without overwriting anyone,
 * which an outside agent needs before its first commit.
 */
export const REVISION_PROTOCOL_PROMPT = {
  name: 'revision_protocol',
  title: 'Working on shared resources',
  description: 'How to read, commit and resolve conflicts on the host\'s shared resources, which people and agents edit at the same time.',
};

export const REVISION_PROTOCOL_TEXT = [
  'You are working on shared resources of a cowork host. People and other agents edit them at the same time.',
  '',
  '1. Read before you write: read_resource gives the resource\'s current revision and content. Remember the revision.',
  '2. Commit one op at a time with commit_resource, passing that revision as baseRevision. Each commit makes exactly one new revision.',
  '3. If someone committed first, the commit fails with revision_conflict. The error names currentRevision and candidateId (your op, kept as a candidate). Nothing of yours was lost and nothing of theirs was overwritten.',
  '4. Then call read_resource with sinceRevision set to the revision you had: it lists the changes others made since. Rebase your change on them and commit again with baseRevision = currentRevision, or, if your op still applies as it is, accept_candidate with baseRevision = currentRevision.',
  '5. Never commit a whole content you read earlier over newer work. Never retry blindly with a newer baseRevision without reading what changed.',
  '',
  'Resources are also readable as MCP resources: cowork://resources/{id} (current) and cowork://resources/{id}/revisions/{n} (any revision). Subscribe to a resource to be told about every new revision, whoever made it.',
].join('\n');
