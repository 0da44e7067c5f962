// Building the page from data without HTML strings (nothing the API answers is ever parsed as
// markup), and the shapes every view shares: a busy button, an error that says what the API
// said, a confirmation, a table.
import { t } from './i18n.js';

/** h('button', { class: 'x', onclick: f }, 'text', child…) */
export function h(tag, attributes = {}, ...children) {
  const svg = ['svg', 'rect', 'g', 'line', 'text', 'title', 'desc'].includes(tag);
  const element = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.setAttribute('class', value);
    else if (name in element && !svg && name !== 'list' && name !== 'form') element[name] = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A place for a request's error: the API's message, announced to screen readers. */
export function errorBox() {
  return h('p', { class: 'error', role: 'alert', hidden: true });
}

export function showError(box, error) {
  box.hidden = false;
  box.textContent = `${t('failed')}: ${error.message}${error.code ? ` (${error.code})` : ''}`;
}

/**
 * Runs `work` with `button` busy (disabled, aria-busy, "처리 중…"), the error shown in `box`;
 * the form's values stay as they were whatever happens.
 */
export async function busy(button, box, work) {
  const label = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = t('working');
  if (box) box.hidden = true;
  try {
    return await work();
  } catch (error) {
    if (box) showError(box, error);
    return undefined;
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = label;
  }
}

/** A labelled field. */
export function field(label, input) {
  const id = input.id || 'f-' + Math.random().toString(36).slice(2);
  input.id = id;
  return h('div', { class: 'field' }, h('label', { htmlFor: id }, label), input);
}

/** A table with a caption, headers and rows of cells. */
export function table(caption, headers, rows) {
  return h('div', { class: 'table-wrap', tabIndex: 0, role: 'region', 'aria-label': caption },
    h('table', {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, rows.length ? rows.map((cells) => h('tr', {}, cells.map((cell) => h('td', {}, cell))))
        : h('tr', {}, h('td', { colSpan: headers.length }, t('none'))))));
}

let liveTimer;
/** A short message for screen readers and eyes (e.g. "환불되었습니다."). */
export function announce(message) {
  const live = document.getElementById('live');
  live.textContent = message;
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => { live.textContent = ''; }, 6000);
}
