// The tasks panel: start a task, talk to Main, and watch the task's live state (subagents, pending
// Inbox, jobs, the completion gate) and its progress, refreshed on task events from the socket.
import { api, ApiError, describe, path } from './api.js';
import { debounce, fill, h, when } from './dom.js';
import { ElicitationsView } from './elicitations.js';
import { ApprovalsView } from './approvals.js';
import { PublishedView } from './published.js';
import { RunsView } from './runs.js';
import { BenchView } from './bench.js';
import { JobsView } from './jobs.js';
import { WorkFilesView } from './work-files.js';

const MODEL_HINT =
  'No model is configured, so tasks cannot run (reading works). Point the host at any OpenAI-compatible server: ' +
  'start it with COWORK_MODEL_BASE_URL set to the server (like http://127.0.0.1:8000/v1) and COWORK_MODEL set to the model name ' +
  '(and COWORK_API_KEY if the server needs one), or COWORK_REPLAY to play a recording; then restart `cowork serve`.';

export class TasksPanel {
  constructor(root, live, openResource = () => {}) {
    this.live = live;
    this.openResource = openResource;
    this.taskId = null;
    this.activity = [];
    this.demoStatus = h('span', { id: 'demo-status', role: 'status' });
    this.hint = h(
      'div',
      { id: 'model-hint', class: 'warning', role: 'note', hidden: true },
      h('p', {}, MODEL_HINT),
      h('p', {}, 'Or watch a recorded task (no model needed): Main delegates, a person edits, a conflict is resolved. ', h('button', { id: 'run-demo', type: 'button', onclick: () => void this.runDemo() }, 'Run the recorded demo'), ' ', this.demoStatus),
    );
    this.list = h('ul', { id: 'task-list', class: 'list' });
    this.request = h('textarea', { id: 'task-request', rows: 3 });
    this.startStatus = h('p', { id: 'task-start-status', role: 'status' });
    this.detail = h('div', { id: 'task-detail' }, h('p', { class: 'muted' }, 'Open a task from the list, or start one.'));
    this.bench = new BenchView();
    fill(
      root,
      h('h2', {}, 'Tasks'),
      this.hint,
      h('form', { id: 'new-task', onsubmit: (e) => (e.preventDefault(), void this.start()) }, h('label', { for: 'task-request' }, 'Ask Main for something new'), this.request, h('button', { type: 'submit' }, 'Start task')),
      this.startStatus,
      h('button', { type: 'button', onclick: () => void this.refreshList() }, 'Refresh list'),
      this.list,
      this.detail,
      this.bench.root,
    );
    this.bench.refresh().catch((error) => fill(this.bench.list, h('li', { class: 'error' }, `Benchmark runs unavailable: ${describe(error)}`)));
    const refresh = debounce(() => void this.refreshTask(), 250);
    live.on('task_event', (message) => {
      if (message.taskId !== this.taskId) return;
      if (message.event.type === 'mcp_progress') {
        // One line per call (server tool of an agent), updated in place: progress is not activity.
        const e = message.event;
        this.progress.set(`${e.agentId || 'main'} ${e.tool}`, e);
        this.renderProgress();
        return;
      }
      this.activity.push(message.event);
      this.activity = this.activity.slice(-12);
      this.renderActivity();
      refresh();
    });
  }

  showModelHint(show) {
    this.hint.hidden = !show;
  }

  async refreshList() {
    const { tasks } = await api('GET', '/api/tasks');
    fill(
      this.list,
      tasks.length === 0 ? h('li', { class: 'muted' }, 'No tasks yet.') : null,
      tasks.map((t) => h('li', {}, h('button', { type: 'button', class: 'link', dataset: { taskId: t.id }, onclick: () => void this.open(t.id) }, `${t.status}: ${t.request.slice(0, 80)}`))),
    );
  }

  async start() {
    const request = this.request.value.trim();
    if (!request) return;
    try {
      const { taskId } = await api('POST', '/api/tasks', { request });
      this.request.value = '';
      this.startStatus.textContent = `Started ${taskId}`;
      await this.refreshList();
      await this.open(taskId);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'model_not_configured') this.showModelHint(true);
      this.startStatus.textContent = `Not started: ${describe(error)}`;
    }
  }

  async runDemo() {
    try {
      const { taskId, resourceId } = await api('POST', '/api/demo');
      this.demoStatus.textContent = `Started ${taskId}`;
      await this.open(taskId);
      await this.openResource(resourceId);
    } catch (error) {
      this.demoStatus.textContent = `Not started: ${describe(error)}`;
    }
  }

  async open(taskId) {
    if (this.taskId) this.live.unsubscribeTask(this.taskId);
    this.taskId = taskId;
    this.activity = [];
    this.progress = new Map();
    this.elicitations = new ElicitationsView();
    this.approvals = new ApprovalsView();
    this.published = new PublishedView();
    this.runs = new RunsView();
    this.workFiles = new WorkFilesView();
    this.jobs = new JobsView();
    this.progressList = h('ul', { id: 'mcp-progress', class: 'list' });
    this.state = h('div', { id: 'task-state' });
    this.conversation = h('ol', { id: 'conversation', class: 'conversation', 'aria-live': 'polite' });
    this.activityList = h('ol', { id: 'task-activity', class: 'activity' });
    this.message = h('textarea', { id: 'message-text', rows: 3 });
    this.sendStatus = h('p', { id: 'message-status', role: 'status' });
    fill(
      this.detail,
      this.state,
      this.jobs.root,
      this.approvals.root,
      this.elicitations.root,
      this.published.root,
      this.runs.root,
      this.workFiles.root,
      h('h3', {}, 'Progress'),
      this.progressList,
      this.activityList,
      h('h3', {}, 'Conversation with Main'),
      this.conversation,
      h('form', { id: 'composer', onsubmit: (e) => (e.preventDefault(), void this.send()) }, h('label', { for: 'message-text' }, 'Message to Main'), this.message, h('button', { type: 'submit' }, 'Send')),
      this.sendStatus,
    );
    this.live.subscribeTask(taskId);
    await this.refreshTask();
  }

  async send() {
    const text = this.message.value.trim();
    if (!text || !this.taskId) return;
    try {
      await api('POST', path('tasks', this.taskId, 'messages'), { text });
      this.message.value = '';
      this.sendStatus.textContent = 'Sent; Main reads it at its next turn.';
    } catch (error) {
      if (error instanceof ApiError && error.code === 'model_not_configured') this.showModelHint(true);
      this.sendStatus.textContent = `Not sent: ${describe(error)}`;
    }
  }

  async refreshTask() {
    const id = this.taskId;
    if (!id) return;
    const [view, log] = await Promise.all([api('GET', path('tasks', id)), api('GET', path('tasks', id, 'log')), this.refreshList()]);
    if (id !== this.taskId) return;
    await Promise.all([this.elicitations.refresh(id), this.approvals.refresh(id), this.published.refresh(id), this.runs.refresh(id), this.workFiles.refresh(id)]);
    this.renderState(view);
    this.jobs.refresh(id, view.jobs);
    fill(this.conversation, log.entries.length === 0 ? h('li', { class: 'muted' }, 'Nothing said yet.') : log.entries.map(entry));
  }

  renderState(view) {
    const { task } = view;
    fill(
      this.state,
      h('h3', {}, `Task ${task.id}`),
      h('p', {}, h('strong', {}, task.status), task.waitingReason ? ` (${task.waitingReason})` : '', view.running ? ', running here now' : ''),
      h('p', { class: 'request' }, task.request),
      task.summary ? h('p', {}, 'Summary: ', task.summary) : null,
      agentTree(task, view.assignments),
      section('inbox', 'Inbox (pending)', view.inbox, (m) => `to ${m.recipient} from ${m.sender}, ${m.kind}, ${when(m.createdAt)}: “${preview(m.body)}”`),
      section('monitors', 'Monitors', view.monitors, (m) => `${m.name || m.id} (${m.kind}): ${m.status}${m.lastCheckedAt ? `, last checked ${when(m.lastCheckedAt)}` : ''}`),
      section('gate', 'Completion gate', view.gate, (g) => `${g.kind} ${g.id}: ${g.detail}`, 'Nothing holds the task open.'),
    );
  }

  renderProgress() {
    fill(
      this.progressList,
      [...this.progress.values()].map((e) => {
        const share = e.total ? ` of ${e.total} (${Math.round((100 * e.progress) / e.total)}%)` : '';
        return h('li', { class: 'mcp-progress', dataset: { tool: e.tool } }, `${e.tool}${e.agentId ? ` (${e.agentId})` : ''}: ${e.progress}${share}${e.message ? `, ${e.message}` : ''}`);
      }),
    );
  }

  renderActivity() {
    fill(this.activityList, this.activity.map((e) => h('li', {}, summarizeEvent(e))));
  }
}

/** Main and the subagents it delegated to, each with its status (subagents do not delegate further). */
function agentTree(task, assignments) {
  const agent = (a) =>
    h('li', { dataset: { agent: a.agentId } }, `${a.agentId} (${a.mode}): ${a.status}${a.waitingReason ? ` (${a.waitingReason})` : ''}`, h('div', { class: 'muted' }, `${a.assignment.slice(0, 120)}${a.lastUpdate ? ` (last update: ${a.lastUpdate})` : ''}`));
  return h(
    'div',
    { class: 'state-section' },
    h('h4', {}, 'Agents'),
    h('ul', { class: 'agent-tree' }, h('li', { dataset: { agent: 'main' } }, `Main: ${task.status}`, assignments.length === 0 ? h('div', { class: 'muted' }, 'No subagents.') : h('ul', {}, assignments.map(agent)))),
  );
}

function section(name, title, items, line, empty = 'None.') {
  return h('div', { class: 'state-section', dataset: { section: name } }, h('h4', {}, title), items.length === 0 ? h('p', { class: 'muted' }, empty) : h('ul', {}, items.map((item) => h('li', {}, line(item)))));
}

/** What an Inbox message says, shortened: its text, or a result's or message's own words. */
function preview(body) {
  const text = typeof body === 'string' ? body : (body && (body.text || body.result || body.message)) || JSON.stringify(body);
  const line = String(text).replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** One conversation log entry: who spoke, and what (text, or the tools called). */
function entry(record) {
  const message = record.message || {};
  const role = message.role || 'message';
  const parts = [];
  if (typeof message.content === 'string') parts.push(message.content);
  else if (Array.isArray(message.content)) for (const c of message.content) parts.push(typeof c === 'string' ? c : c.text || JSON.stringify(c));
  for (const call of message.tool_calls || message.toolCalls || []) {
    const fn = call.function || call;
    parts.push(`→ ${fn.name}(${typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments || fn.input || {})})`);
  }
  return h('li', { class: `entry ${role}` }, h('span', { class: 'role' }, role), h('pre', { class: 'content' }, parts.join('\n') || JSON.stringify(message)));
}

function summarizeEvent(event) {
  if (event.type === 'record') return `${event.recordType} at ${when(event.at)}`;
  const detail = event.agentId || event.name || event.status || event.kind || '';
  return `${event.type}${detail ? `: ${detail}` : ''}`;
}
