// High-impact calls of a task waiting for a person (a job with network, publishing, deleting...):
// what the agent asked to do, with its arguments, to approve or deny through
// POST /api/approvals/:id/approve|deny. The decision is recorded as the signed-in person.
import { api, describe, path } from './api.js';
import { fill, h } from './dom.js';

export class ApprovalsView {
  constructor() {
    this.root = h('div', { id: 'approvals', 'aria-live': 'polite' });
    this.shown = '';
  }

  /** Shows the task's pending approvals; one the person is reading stays put while it waits. */
  async refresh(taskId) {
    const { approvals } = await api('GET', `/api/approvals?status=pending&taskId=${encodeURIComponent(taskId)}`);
    const key = approvals.map((a) => a.id).join(',');
    if (key === this.shown) return;
    this.shown = key;
    fill(this.root, approvals.length === 0 ? null : [h('h3', {}, 'Waiting for your approval'), approvals.map((a) => this.card(a))]);
  }

  card(approval) {
    const status = h('p', { class: 'approval-status', role: 'status' });
    const reason = h('input', { id: `approval-reason-${approval.id}`, type: 'text', maxlength: 2000, placeholder: 'optional' });
    const decide = async (action) => {
      try {
        const decided = await api('POST', path('approvals', approval.id, action), reason.value.trim() ? { reason: reason.value.trim() } : {});
        status.textContent = `${decided.status === 'approved' ? 'Approved' : 'Denied'} as ${decided.decidedBy}.`;
        for (const el of card.querySelectorAll('input, button')) el.disabled = true;
      } catch (error) {
        status.textContent = `Not decided: ${describe(error)}`;
      }
    };
    const card = h(
      'div',
      { class: 'approval', role: 'group', 'aria-label': `Approval for ${approval.tool}`, dataset: { approvalId: approval.id } },
      h('p', {}, h('strong', {}, approval.agentId), ' wants to run ', h('code', {}, approval.tool), ` (${impactText(approval.impact)})`),
      h('pre', { class: 'approval-input' }, JSON.stringify(approval.input, null, 2)),
      h('label', { for: reason.id }, 'Reason '),
      reason,
      ' ',
      h('button', { type: 'button', class: 'approve', onclick: () => void decide('approve') }, 'Approve'),
      ' ',
      h('button', { type: 'button', class: 'deny', onclick: () => void decide('deny') }, 'Deny'),
      status,
    );
    return card;
  }
}

const IMPACTS = {
  network: 'a command that reaches the network',
  unsandboxed: 'a command outside the sandbox',
  publish: 'publishing',
  delete: 'deleting',
  destructive: 'an MCP tool its server marks destructive',
  high_impact: 'a tool its plugin marks high-impact',
};

function impactText(impact) {
  return IMPACTS[impact] || impact;
}
