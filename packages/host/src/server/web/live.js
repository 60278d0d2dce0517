// The live connection: one WebSocket on /ws, opened with a single-use ticket (browsers cannot set
// headers on an upgrade), reconnected with backoff; subscriptions are re-sent on reconnect, each
// resource from the last revision this page has seen, so nothing is missed or repeated.
import { api } from './api.js';

export class Live {
  constructor(onStatus) {
    this.onStatus = onStatus;
    this.socket = null;
    this.handlers = new Map();
    this.resources = new Map(); // resourceId -> last revision seen
    this.tasks = new Set();
    this.retryMs = 500;
    this.stopped = false;
  }

  /** Calls `fn(message)` for every message of `type`. */
  on(type, fn) {
    if (!this.handlers.has(type)) this.handlers.set(type, []);
    this.handlers.get(type).push(fn);
  }

  async connect() {
    this.stopped = false;
    this.onStatus('connecting');
    let socket;
    try {
      const { ticket } = await api('POST', '/api/ws-tickets');
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${scheme}://${location.host}/ws?ticket=${encodeURIComponent(ticket)}`);
    } catch {
      return this.retry();
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.retryMs = 500;
      this.onStatus('live');
      for (const [resourceId, since] of this.resources) this.send({ type: 'subscribe', resourceId, sinceRevision: since });
      for (const taskId of this.tasks) this.send({ type: 'subscribe_task', taskId });
    });
    socket.addEventListener('message', (event) => this.dispatch(event.data));
    socket.addEventListener('close', () => {
      if (this.socket === socket) this.socket = null;
      this.retry();
    });
  }

  close() {
    this.stopped = true;
    if (this.socket) this.socket.close();
    this.socket = null;
    this.onStatus('offline');
  }

  /** Every revision of `resourceId` after `sinceRevision`, then each new one. */
  subscribe(resourceId, sinceRevision) {
    this.resources.set(resourceId, sinceRevision);
    this.send({ type: 'subscribe', resourceId, sinceRevision });
  }

  unsubscribe(resourceId) {
    if (this.resources.delete(resourceId)) this.send({ type: 'unsubscribe', resourceId });
  }

  subscribeTask(taskId) {
    this.tasks.add(taskId);
    this.send({ type: 'subscribe_task', taskId });
  }

  unsubscribeTask(taskId) {
    if (this.tasks.delete(taskId)) this.send({ type: 'unsubscribe_task', taskId });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  dispatch(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === 'revision' && this.resources.has(message.resourceId)) {
      this.resources.set(message.resourceId, Math.max(this.resources.get(message.resourceId), message.revision));
    }
    for (const fn of this.handlers.get(message.type) || []) fn(message);
  }

  retry() {
    if (this.stopped) return;
    this.onStatus('reconnecting');
    setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
  }
}
