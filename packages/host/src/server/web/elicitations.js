// Questions a mounted MCP server asks the person while it serves a task's tool call (elicitation),
// as forms built from the requested schema's simple fields (string, number, integer, boolean, enum),
// answered through POST /api/mcp/elicitations/:id. Only the schema's data is used: no server code runs here.
import { api, describe, path } from './api.js';
import { fill, h } from './dom.js';

export class ElicitationsView {
  constructor() {
    this.root = h('div', { id: 'elicitations' });
    this.shown = '';
  }

  /** Shows the task's waiting questions; a form the person is filling in is kept while its question waits. */
  async refresh(taskId) {
    const { elicitations } = await api('GET', `/api/mcp/elicitations?taskId=${encodeURIComponent(taskId)}`);
    const key = elicitations.map((e) => e.id).join(',');
    if (key === this.shown) return;
    this.shown = key;
    fill(this.root, elicitations.length === 0 ? null : [h('h3', {}, 'Questions from MCP servers'), elicitations.map((e) => this.form(e))]);
  }

  form(elicitation) {
    const schema = elicitation.requestedSchema || {};
    const properties = schema.properties && typeof schema.properties === 'object' ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const fields = Object.entries(properties)
      .map(([name, prop]) => field(elicitation.id, name, prop || {}, required.has(name)))
      .filter(Boolean);
    const status = h('p', { class: 'elicitation-status', role: 'status' });
    const send = async (action) => {
      const body = { action };
      if (action === 'accept') {
        body.content = {};
        for (const f of fields) {
          const value = f.read();
          if (value !== undefined) body.content[f.name] = value;
        }
      }
      try {
        await api('POST', path('mcp', 'elicitations', elicitation.id), body);
        status.textContent = action === 'accept' ? 'Answered.' : `Answered: ${action}.`;
        for (const el of form.querySelectorAll('input, select, button')) el.disabled = true;
      } catch (error) {
        status.textContent = `Not answered: ${describe(error)}`;
      }
    };
    const form = h(
      'form',
      { class: 'elicitation', dataset: { elicitationId: elicitation.id }, onsubmit: (e) => (e.preventDefault(), void send('accept')) },
      h('p', {}, h('strong', {}, elicitation.server), ' asks: ', h('span', { class: 'elicitation-message' }, elicitation.message)),
      fields.map((f) => f.el),
      h('button', { type: 'submit' }, 'Answer'),
      ' ',
      h('button', { type: 'button', class: 'decline', onclick: () => void send('decline') }, 'Decline'),
      status,
    );
    return form;
  }
}

/** One input for one simple field; fields of other shapes (arrays, objects) are left out (the server's defaults apply). */
function field(elicitationId, name, prop, required) {
  const id = `elicit-${elicitationId}-${name}`;
  const label = h('label', { for: id }, prop.title || name, required ? ' *' : '', prop.description ? h('small', { class: 'muted' }, ` ${prop.description}`) : null);
  const options = Array.isArray(prop.enum)
    ? prop.enum.map((v, i) => ({ value: v, title: (Array.isArray(prop.enumNames) && prop.enumNames[i]) || String(v) }))
    : Array.isArray(prop.oneOf) && prop.oneOf.every((o) => o && 'const' in o)
      ? prop.oneOf.map((o) => ({ value: o.const, title: o.title || String(o.const) }))
      : null;
  let input;
  let read;
  if (options && prop.type === 'string') {
    input = h('select', { id, name }, required ? null : h('option', { value: '' }, '(none)'), options.map((o) => h('option', { value: String(o.value), selected: o.value === prop.default }, o.title)));
    read = () => (input.value === '' ? undefined : input.value);
  } else if (prop.type === 'boolean') {
    input = h('input', { id, name, type: 'checkbox', checked: prop.default === true });
    read = () => input.checked;
  } else if (prop.type === 'number' || prop.type === 'integer') {
    input = h('input', { id, name, type: 'number', step: prop.type === 'integer' ? '1' : 'any', min: prop.minimum, max: prop.maximum, value: prop.default, required });
    read = () => (input.value === '' ? undefined : Number(input.value));
  } else if (prop.type === 'string') {
    const type = prop.format === 'email' ? 'email' : prop.format === 'uri' ? 'url' : prop.format === 'date' ? 'date' : 'text';
    input = h('input', { id, name, type, value: prop.default, required, minlength: prop.minLength, maxlength: prop.maxLength });
    read = () => (input.value === '' ? undefined : input.value);
  } else {
    return null;
  }
  return { name, read, el: h('div', { class: 'field' }, label, ' ', input) };
}
