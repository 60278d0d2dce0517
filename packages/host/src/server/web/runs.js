// A task's runs: each experiment's name, status, parameters and metrics (last and best), newest
// first, read from GET /api/tasks/:id/runs and refreshed on the task's events.
import { api, path } from './api.js';
import { fill, h, when } from './dom.js';

export class RunsView {
  constructor() {
    this.root = h('div', { id: 'runs' });
    this.shown = '';
  }

  async refresh(taskId) {
    const { runs } = await api('GET', path('tasks', taskId, 'runs'));
    const key = JSON.stringify(runs.map((r) => [r.id, r.status, r.metrics, r.problemCount]));
    if (key === this.shown) return;
    this.shown = key;
    fill(this.root, runs.length === 0 ? null : [h('h3', {}, 'Runs'), h('ul', { class: 'list runs' }, runs.map(runItem))]);
  }
}

function runItem(run) {
  const metrics = Object.entries(run.metrics || {}).map(([name, m]) => `${name} ${m.last}${m.lastStep === null ? '' : ` @${m.lastStep}`} (best ${m.best}, ${m.direction})`);
  const params = Object.entries(run.params || {}).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`);
  return h(
    'li',
    { dataset: { runId: run.id } },
    h('strong', {}, run.name),
    ` ${run.status}, started ${when(run.startedAt)}`,
    metrics.length > 0 ? h('div', { class: 'run-metrics' }, metrics.join('; ')) : null,
    params.length > 0 ? h('div', { class: 'run-params muted' }, params.join(', ')) : null,
    run.problemCount > 0 ? h('div', { class: 'warning' }, `${run.problemCount} metrics line(s) skipped: ${run.problems[0] ? run.problems[0].reason : ''}`) : null,
  );
}
