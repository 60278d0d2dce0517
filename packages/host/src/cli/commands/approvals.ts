import type { ApprovalRecord, ApprovalStatus } from '../../store/approval-records';
import { group, leaf, type LeafCommand } from '../command';
import { compact } from '../output';
import { defaultOperator, operatorOption, parseChoice } from '../values';

/**
 * `cowork approvals`, `cowork approve ID`, `cowork deny ID`: high-impact tool calls waiting for a
 * person (a job with network, a destructive MCP tool, publishing, deleting...). The decision is
 * recorded as you (`human:$USER`, or --operator human:NAME); the waiting call then runs, or answers
 * `denied`, in whichever process runs its task.
 */

const STATUSES: readonly ApprovalStatus[] = ['pending', 'approved', 'denied'];

const list = leaf({
  summary: 'list approvals: pending ones by default (--status, --task)',
  positionals: [],
  options: {
    status: { value: 'S', description: `${STATUSES.join(', ')} or all (default pending)` },
    task: { value: 'TASK', description: "only this task's" },
  },
  async run(args, { out, withHost }) {
    const given = args.option('status') ?? 'pending';
    const status = given === 'all' ? undefined : parseChoice('status', given, STATUSES);
    const approvals = await withHost((host) => host.approvals.list({ status, taskId: args.option('task') }));
    out.result({ approvals }, ({ approvals }) => (approvals.length === 0 ? [`no ${given === 'all' ? '' : `${given} `}approvals`] : approvals.map(describe)));
  },
});

export const approvalsCommand = group({ summary: 'high-impact calls waiting for a person, and the decisions', children: {}, fallback: list });

function decision(verb: 'approve' | 'deny'): LeafCommand {
  return leaf({
    summary: verb === 'approve' ? 'approve a waiting call: it runs' : 'deny a waiting call: it answers `denied` and does nothing',
    positionals: ['ID'],
    options: {
      reason: { value: 'TEXT', description: 'why (shown to the agent)' },
      operator: { value: 'OP', description: 'who decides: human:<name> (default human:$USER)' },
    },
    async run(args, context) {
      const given = args.option('operator');
      const operator = given === undefined ? defaultOperator(context.io) : operatorOption(given);
      const approval = await context.withHost((host) => host.approvals.decide(args.positional('ID'), verb === 'approve' ? 'approved' : 'denied', operator, args.option('reason')));
      context.out.result(approval, (a) => [`${a.status} ${a.id} (${a.tool}, ${a.impact}) as ${a.decidedBy}`]);
    },
  });
}

export const approveCommand = decision('approve');
export const denyCommand = decision('deny');

function describe(a: ApprovalRecord): string {
  const decided = a.decidedBy === null ? '' : `  by ${a.decidedBy}${a.reason ? ` (${a.reason})` : ''}`;
  return `${a.id}  ${a.status}${decided}  ${a.impact}  ${a.tool} ${compact(a.input)}  task ${a.taskId} agent ${a.agentId}  ${a.requestedAt}`;
}
