// Small DOM helpers: build elements from data, never from HTML strings, so content is never markup.

/** An element: h('button', {type: 'button', onclick}, 'Save'). Attributes starting with "on" are listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A short local time for an ISO timestamp. */
export function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

/** Calls `fn` once after calls stop for `ms` (a burst of live events causes one refresh). */
export function debounce(fn, ms) {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

/** Puts a message in a status element, marked as an error (and tied to its control) when it is one. */
export function say(status, text, error = false) {
  status.textContent = text;
  status.classList.toggle('error', error);
  const control = status.dataset.for && document.getElementById(status.dataset.for);
  if (control && error) control.setAttribute('aria-invalid', 'true');
  else if (control) control.removeAttribute('aria-invalid');
}
