// A task's jobs, each with its status and command, and its log: opening "Log" shows the last lines
// of its output, read again every few seconds while the job runs and the log is open. Each job keeps
// its element across the task's refreshes, so an open log stays open.
import { api, describe, path } from './api.js';
import { fill, h } from './dom.js';

const FOLLOW_MS = 2000;

export class JobsView {
  constructor() {
    this.list = h('ul', { id: 'jobs', class: 'list jobs' });
    this.root = h('div', { class: 'state-section' }, h('h4', {}, 'Jobs'), this.list);
    this.items = new Map(); // jobId -> {li, status, refreshLog}
  }

  refresh(taskId, jobs) {
    if (taskId !== this.taskId) {
      for (const item of this.items.values()) item.stop();
      this.items.clear();
      this.taskId = taskId;
    }
    const items = jobs.map((job) => {
      const item = this.items.get(job.id) ?? this.item(taskId, job);
      this.items.set(job.id, item);
      item.update(job);
      return item.li;
    });
    fill(this.list, items.length === 0 ? h('li', { class: 'muted' }, 'None.') : items);
  }

  item(taskId, job) {
    const status = h('span', { class: 'job-status' });
    const log = h('pre', { class: 'content job-log', tabindex: '0', 'aria-label': `Log of ${job.name || job.id}` });
    const details = h('details', {}, h('summary', {}, 'Log'), log);
    let running = false;
    let timer;
    const load = async () => {
      try {
        const { lines, totalLines } = await api('GET', `${path('tasks', taskId, 'jobs', job.id, 'log')}?tail=200`);
        log.textContent = lines.length === 0 ? '(nothing written yet)' : `${totalLines > lines.length ? `… ${totalLines - lines.length} earlier lines\n` : ''}${lines.map((l) => l.text).join('\n')}`;
        log.scrollTop = log.scrollHeight;
      } catch (error) {
        log.textContent = `The log could not be read: ${describe(error)}`;
      }
    };
    const follow = () => {
      clearTimeout(timer);
      if (!details.open) return;
      void load().then(() => {
        if (running && details.open) timer = setTimeout(follow, FOLLOW_MS);
      });
    };
    details.addEventListener('toggle', follow);
    const li = h('li', { dataset: { jobId: job.id } }, h('strong', {}, job.name || job.id), ' ', status, h('div', { class: 'muted' }, [job.command, ...(job.args || [])].join(' ')), details);
    return {
      li,
      update(next) {
        const wasRunning = running;
        running = next.status === 'running';
        status.textContent = next.status;
        if (details.open && (running !== wasRunning || !running)) follow();
      },
      stop: () => clearTimeout(timer),
    };
  }
}
