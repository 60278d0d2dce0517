// The workspace's benchmark runs (`cowork bench run`), newest first with their headline figures,
// each opening its report page (GET /api/bench/runs/:id/report, self-contained HTML) in a new tab.
import { api, path } from './api.js';
import { fill, h, when } from './dom.js';

export class BenchView {
  constructor() {
    this.list = h('ul', { id: 'bench-runs', class: 'list' });
    this.root = h('section', { id: 'bench', 'aria-labelledby': 'bench-title' }, h('h3', { id: 'bench-title' }, 'Benchmark reports'), this.list);
  }

  async refresh() {
    const { runs } = await api('GET', '/api/bench/runs');
    fill(
      this.list,
      runs.length === 0
        ? h('li', { class: 'muted' }, 'No benchmark runs in this workspace (cowork bench run makes them).')
        : runs.map((run) =>
            h(
              'li',
              { dataset: { benchRun: run.id } },
              h('a', { href: `${path('bench', 'runs', run.id)}/report`, target: '_blank', rel: 'noopener' }, `${run.suite} with ${run.model}`),
              ` · ${run.trials} trials · ${when(run.updatedAt)}`,
            ),
          ),
    );
  }
}
