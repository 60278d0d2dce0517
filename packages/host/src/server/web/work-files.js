// A task's work/ folder under git: its files with the turn and author that last changed each, the
// snapshots (one per agent turn that changed files, others' changes, restores) with each turn's
// patch on demand, and restoring a file as it was after a turn (a new commit by the signed-in person).
import { api, describe, path } from './api.js';
import { fill, h } from './dom.js';

export class WorkFilesView {
  constructor() {
    this.root = h('div', { id: 'work-files' });
    this.taskId = null;
    this.shown = '';
    this.patch = h('pre', { id: 'work-diff', class: 'diff', hidden: true, tabindex: '0', 'aria-label': 'The selected turn\'s changes' });
    this.status = h('p', { id: 'work-restore-status', role: 'status' });
    this.restorePath = h('select', { id: 'work-restore-path' });
    this.restoreTurn = h('input', { id: 'work-restore-turn', type: 'number', min: '1', step: '1', required: true, inputmode: 'numeric' });
  }

  async refresh(taskId) {
    this.taskId = taskId;
    const [{ files }, { snapshots }] = await Promise.all([api('GET', path('tasks', taskId, 'files')), api('GET', path('tasks', taskId, 'files', 'log'))]);
    const key = JSON.stringify([files.map((f) => [f.path, f.commit]), snapshots.map((s) => s.commit)]);
    if (key === this.shown || taskId !== this.taskId) return;
    this.shown = key;
    if (files.length === 0 && snapshots.length === 0) return void fill(this.root);
    const chosen = this.restorePath.value;
    fill(this.restorePath, files.filter((f) => !f.large).map((f) => h('option', { value: f.path, selected: f.path === chosen }, f.path)));
    const kinds = new Map(snapshots.map((snapshot) => [snapshot.commit, snapshot.kind]));
    fill(
      this.root,
      h('h3', {}, 'Work files'),
      h('ul', { class: 'list work-files' }, files.map((f) => fileItem(f, kinds.get(f.commit)))),
      h('h4', {}, 'Snapshots'),
      h('ol', { class: 'list snapshots' }, snapshots.map((s) => this.snapshotItem(s))),
      this.patch,
      h(
        'form',
        { id: 'work-restore', onsubmit: (e) => (e.preventDefault(), void this.restore()) },
        h('label', { for: 'work-restore-path' }, 'Restore file'),
        this.restorePath,
        h('label', { for: 'work-restore-turn' }, 'as after turn'),
        this.restoreTurn,
        h('button', { type: 'submit' }, 'Restore'),
      ),
      this.status,
    );
  }

  snapshotItem(s) {
    // Only an agent's turn has a patch to show by turn; restores and others' changes name their author.
    const byTurn = s.kind === 'turn' && s.turn !== null;
    const who = byTurn ? `turn ${s.turn} of ${s.agentId}` : s.author;
    const show = !byTurn ? null : h('button', { type: 'button', class: 'link', dataset: { turn: String(s.turn), agent: s.agentId }, onclick: () => void this.showDiff(s) }, 'Show changes');
    return h('li', { dataset: { commit: s.commit } }, `${who}: ${s.message} (${s.files.join(', ') || 'no files'}) `, show);
  }

  async showDiff(s) {
    try {
      const query = new URLSearchParams({ turn: String(s.turn), agent: s.agentId });
      const diff = await api('GET', `${path('tasks', this.taskId, 'files', 'diff')}?${query}`);
      this.patch.textContent = diff.patch || '(no changes)';
    } catch (error) {
      this.patch.textContent = `Cannot show the changes: ${describe(error)}`;
    }
    this.patch.hidden = false;
  }

  async restore() {
    const file = this.restorePath.value;
    const turn = Number(this.restoreTurn.value);
    if (!file || !Number.isInteger(turn) || turn < 1) return;
    try {
      const restored = await api('POST', path('tasks', this.taskId, 'files', 'restore'), { path: file, turn });
      this.status.textContent = `Restored ${restored.path} as after turn ${restored.turn} (commit ${restored.commit.slice(0, 8)}).`;
      await this.refresh(this.taskId);
    } catch (error) {
      this.status.textContent = `Not restored: ${describe(error)}`;
    }
  }
}

function fileItem(f, kind) {
  const last = !f.commit ? 'not committed yet' : kind === 'turn' && f.turn !== null ? `turn ${f.turn} by ${f.author}` : kind === 'restore' ? `restored by ${f.author}` : `by ${f.author}`;
  const large = f.large ? `, kept out of git: ${f.large.size} bytes, SHA-256 ${f.large.sha256.slice(0, 12)}` : '';
  return h('li', { dataset: { path: f.path } }, h('code', {}, f.path), ` (${last}${large})`);
}
