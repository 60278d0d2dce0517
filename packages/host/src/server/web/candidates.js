// Changes waiting for a person on the open resource: drafts agents proposed, and ops kept after a
// conflict. Each shows what accepting it now would do (the kind's own account, and the content's
// line diff), with Accept (committed on the revision the person looked at, so nothing lands
// unseen) and Reject.
import { api, ApiError, describe, operator, path } from './api.js';
import { contentText, diffLines } from './diff.js';
import { fill, h, say, when } from './dom.js';

export class CandidatesView {
  /** `current()`: the open resource's `{id, revision}`; `changed()` runs after an acceptance. */
  constructor(current, changed) {
    this.current = current;
    this.changed = changed;
    this.section = h('section', { id: 'candidates', 'aria-labelledby': 'candidates-title', hidden: true });
    // What was done last stays said after its card goes.
    this.status = h('p', { id: 'candidates-status', class: 'field-status', role: 'status', 'aria-live': 'polite' });
    this.root = h('div', {}, this.section, this.status);
    this.shown = '';
  }

  /** Lists the open candidates again when they or the revision changed (a card being read stays put otherwise). */
  async refresh() {
    const open = this.current();
    if (!open) return;
    const { candidates } = await api('GET', `${path('resources', open.id, 'candidates')}?status=open`);
    if (this.current()?.id !== open.id) return;
    const key = `${open.id}@${open.revision}:${candidates.map((c) => c.id).join(',')}`;
    if (key === this.shown) return;
    this.shown = key;
    const cards = await Promise.all(candidates.map((c) => this.card(c, open)));
    if (this.current()?.id !== open.id) return;
    this.section.hidden = candidates.length === 0;
    fill(this.section, h('h3', { id: 'candidates-title' }, `Proposed changes (${candidates.length})`), cards);
  }

  reset() {
    this.shown = '';
    this.section.hidden = true;
    fill(this.section);
    say(this.status, '');
  }

  async card(candidate, open) {
    const status = h('p', { class: 'field-status', role: 'status', 'aria-live': 'polite', dataset: { candidateStatus: candidate.id } });
    const what = candidate.source === 'draft' ? `Draft proposed by ${candidate.operator}` : `Change by ${candidate.operator}, kept after a conflict`;
    const titleId = `candidate-${candidate.id}`;
    let preview;
    let body;
    try {
      preview = await api('GET', `${path('candidates', candidate.id, 'preview')}?revision=${open.revision}`);
      const current = await api('GET', path('resources', open.id, 'revisions', open.revision));
      body = [
        h('pre', { class: 'content candidate-diff', dataset: { candidateDiff: candidate.id } }, preview.diff || '(the kind describes no change)'),
        h('details', {}, h('summary', {}, 'Line by line'), h('div', { class: 'diff content' }, diffLines(contentText(current.content), contentText(preview.content), 3))),
      ];
    } catch (error) {
      body = h('p', { class: 'error' }, `It no longer applies to revision ${open.revision}: ${describe(error)}`);
    }
    const decide = async (action) => {
      try {
        const done = await api('POST', path('candidates', candidate.id, action), action === 'accept' ? { operator: operator(), baseRevision: open.revision } : { operator: operator() });
        say(this.status, action === 'accept' ? `Accepted: ${what}, as revision ${done.revision}.` : `Rejected: ${what}.`);
        for (const button of card.querySelectorAll('button')) button.disabled = true;
        if (action === 'accept') await this.changed();
        await this.refresh();
      } catch (error) {
        const moved = error instanceof ApiError && error.code === 'revision_conflict';
        say(status, moved ? `The resource moved to revision ${error.details.currentRevision} while you looked; look at the change again before accepting it.` : `Not done: ${describe(error)}`, true);
        if (moved) await this.changed();
      }
    };
    const card = h(
      'article',
      { class: 'candidate', 'aria-labelledby': titleId, dataset: { candidate: candidate.id } },
      h('h4', { id: titleId }, what),
      h('p', { class: 'muted' }, `Made on revision ${candidate.baseRevision}, ${when(candidate.createdAt)}; shown as it would apply to revision ${open.revision}.`),
      body,
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', disabled: !preview, 'aria-label': `Accept: ${what}`, dataset: { candidateAccept: candidate.id }, onclick: () => void decide('accept') }, 'Accept'),
        h('button', { type: 'button', 'aria-label': `Reject: ${what}`, dataset: { candidateReject: candidate.id }, onclick: () => void decide('reject') }, 'Reject'),
      ),
      status,
    );
    return card;
  }
}
