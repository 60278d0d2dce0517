// The page's entry point: sign in (token in a POST body, exchanged for an HttpOnly cookie), then
// the resources and tasks panels over the same-origin API and one live WebSocket.
import { api, ApiError, describe, setIdentity } from './api.js';
import { h } from './dom.js';
import { Live } from './live.js';
import { ResourcesPanel } from './resources.js';
import { TasksPanel } from './tasks.js';

const $ = (id) => document.getElementById(id);

async function main() {
  $('sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void signIn();
  });
  $('sign-out').addEventListener('click', () => void signOut());
  const name = localStorage.getItem('cowork.operator');
  if (name) $('operator-name').value = name;
  $('operator-name').addEventListener('change', () => localStorage.setItem('cowork.operator', $('operator-name').value.trim()));
  try {
    await start(await api('GET', '/api/health'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) showSignIn();
    else $('sign-in-error').textContent = describe(error);
  }
}

async function signIn() {
  const token = $('token');
  $('sign-in-error').textContent = '';
  try {
    await api('POST', '/api/session', { token: token.value.trim() });
    token.value = '';
    await start(await api('GET', '/api/health'));
  } catch (error) {
    $('sign-in-error').textContent = error instanceof ApiError && error.status === 401 ? 'That token is not the server’s.' : describe(error);
  }
}

async function signOut() {
  await api('DELETE', '/api/session');
  location.reload();
}

function showSignIn() {
  $('sign-in').hidden = false;
  $('workspace').hidden = true;
  $('token').focus();
}

let started = false;

/** Builds the panels once signed in; `health.tasks` is false when the host has no model. */
async function start(health) {
  if (started) return;
  started = true;
  // A person signed in with their own token acts as themselves: the name field shows who, fixed.
  const me = await api('GET', '/api/me');
  setIdentity(me);
  if (me.kind === 'person') {
    const field = $('operator-name');
    field.value = me.operator.slice('human:'.length);
    field.readOnly = true;
    field.title = `Signed in as ${me.operator} (${me.role})`;
  }
  $('sign-in').hidden = true;
  $('sign-out').hidden = false;
  const workspace = $('workspace');
  const resourcesRoot = h('section', { id: 'resources', class: 'panel', 'aria-labelledby': 'resources-title' });
  const tasksRoot = h('section', { id: 'tasks', class: 'panel' });
  workspace.replaceChildren(resourcesRoot, tasksRoot);
  workspace.hidden = false;
  const badge = $('live-status');
  const live = new Live((status) => {
    badge.textContent = status;
    badge.dataset.status = status;
  });
  const resources = new ResourcesPanel(resourcesRoot, live);
  const tasks = new TasksPanel(tasksRoot, live, (id) => resources.open(id));
  tasks.showModelHint(!health.tasks);
  await live.connect();
  await Promise.all([resources.refreshList(), tasks.refreshList()]);
  document.body.dataset.ready = 'true';
}

void main();
