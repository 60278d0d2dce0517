import type { StoreTx } from '../store';
import { PgApprovalRepo } from './repos/approval-repo';
import { PgCandidateRepo } from './repos/candidate-repo';
import { PgCompactionRepo } from './repos/compaction-repo';
import { PgConversationRepo } from './repos/conversation-repo';
import { PgDraftRepo } from './repos/draft-repo';
import { PgEventRepo } from './repos/event-repo';
import { PgIdempotencyRepo } from './repos/idempotency-repo';
import { PgInboxRepo } from './repos/inbox-repo';
import { PgJobRepo } from './repos/job-repo';
import { PgLeaseRepo } from './repos/lease-repo';
import { PgLastSeenRepo } from './repos/last-seen-repo';
import { PgModelCallRepo } from './repos/model-call-repo';
import { PgMonitorRepo } from './repos/monitor-repo';
import { PgPublicationRepo } from './repos/publication-repo';
import { PgResourceRepo } from './repos/resource-repo';
import { PgRevisionRepo } from './repos/revision-repo';
import { PgRunRepo } from './repos/run-repo';
import { PgSelectionRepo } from './repos/selection-repo';
import { PgTaskEventRepo } from './repos/task-event-repo';
import { PgUserRepo } from './repos/user-repo';
import type { PgSession } from './session';

const sessions = new WeakMap<StoreTx, PgSession>();

/** The repositories of one transaction, all on its connection. */
export function pgTx(s: PgSession): StoreTx {
  const tx: StoreTx = {
    resources: new PgResourceRepo(s),
    revisions: new PgRevisionRepo(s),
    candidates: new PgCandidateRepo(s),
    drafts: new PgDraftRepo(s),
    selections: new PgSelectionRepo(s),
    events: new PgEventRepo(s),
    idempotency: new PgIdempotencyRepo(s),
    inbox: new PgInboxRepo(s),
    conversation: new PgConversationRepo(s),
    compactions: new PgCompactionRepo(s),
    modelCalls: new PgModelCallRepo(s),
    jobs: new PgJobRepo(s),
    monitors: new PgMonitorRepo(s),
    users: new PgUserRepo(s),
    approvals: new PgApprovalRepo(s),
    lastSeen: new PgLastSeenRepo(s),
    publications: new PgPublicationRepo(s),
    runs: new PgRunRepo(s),
    leases: new PgLeaseRepo(s),
    taskEvents: new PgTaskEventRepo(s),
  };
  sessions.set(tx, s);
  return tx;
}

/** The connection a transaction's repositories use, for the store's own statements (an import). */
export function sessionOf(tx: StoreTx): PgSession {
  const s = sessions.get(tx);
  if (!s) throw new Error('not a PostgreSQL transaction');
  return s;
}
