// The console's shell: sign-in, the menu, the language toggle and a view per hash
// (#/dashboard, #/orders, #/orders/42, #/sellers, #/returns, #/users, #/settlements, #/listings,
// #/search).
import { api, call, whenSignedOut } from './api.js';
import { h, errorBox, field, busy, showError, announce } from './dom.js';
import { t, lang, setLanguage } from './i18n.js';
import { dashboard } from './dashboard.js';
import { orders, orderDetail } from './orders.js';
import { sellers, returns, users, settlements, listings } from './queues.js';
import { search } from './search.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const signOutButton = document.getElementById('sign-out');
const languageButton = document.getElementById('language');
let signedIn = false;

const views = { dashboard, orders, sellers, returns, users, settlements, listings, search };
// A view's menu label: `nav_{name}` where the view's name is also a word used elsewhere.
const label = (name) => (t('nav_' + name) === 'nav_' + name ? t(name) : t('nav_' + name));

function chrome() {
  document.documentElement.lang = lang();
  document.title = t('title');
  document.querySelector('.skip').textContent = t('skip');
  languageButton.textContent = t('language');
  languageButton.lang = lang() === 'ko' ? 'en' : 'ko';
  signOutButton.textContent = t('signOut');
  nav.setAttribute('aria-label', t('title'));
  nav.replaceChildren(...Object.keys(views).map((name) => h('a', { href: '#/' + name }, label(name))));
  nav.hidden = !signedIn;
  signOutButton.hidden = !signedIn;
}

function route() {
  const [name = 'dashboard', id] = location.hash.replace(/^#\/?/, '').split('?')[0].split('/');
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === '#/' + name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  return { name: views[name] ? name : 'dashboard', id };
}

async function render({ focus = true } = {}) {
  chrome();
  if (!signedIn) return signInView();
  const { name, id } = route();
  const view = name === 'orders' && id ? () => orderDetail(id) : views[name];
  main.replaceChildren(h('p', { class: 'loading' }, t('loading')));
  main.setAttribute('aria-busy', 'true');
  try {
    main.replaceChildren(...[await view()].flat(Infinity));
  } catch (error) {
    const box = errorBox();
    showError(box, error);
    main.replaceChildren(h('h1', {}, label(name)), box, h('button', { type: 'button', onclick: () => render() }, t('retry')));
  } finally {
    main.removeAttribute('aria-busy');
  }
  if (focus) main.focus({ preventScroll: true });
}

function signInView() {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const box = errorBox();
  const submit = h('button', { type: 'submit' }, t('signIn'));
  const form = h('form', { class: 'signin card', onsubmit: async (event) => {
    event.preventDefault();
    await busy(submit, box, async () => {
      try {
        await call('POST', '/admin/session', { email: email.value, password: password.value });
      } catch (error) {
        if (error.code === 'not_an_operator') error.message = `${t('notOperator')} ${error.message}`;
        throw error;
      }
      signedIn = true;
      password.value = '';
      if (!location.hash) location.hash = '#/dashboard';
      await render();
    });
  } }, h('h1', {}, t('signInTitle')), field(t('email'), email), field(t('password'), password), box, submit);
  main.replaceChildren(form);
  email.focus();
}

languageButton.addEventListener('click', () => { setLanguage(lang() === 'ko' ? 'en' : 'ko'); render({ focus: false }); });
signOutButton.addEventListener('click', async () => {
  // On a failure the session stays, and so does the page: the error is announced.
  const done = await busy(signOutButton, null, async () => {
    try {
      return await call('POST', '/admin/session/logout') ?? true;
    } catch (error) {
      announce(`${t('failed')}: ${error.message}`);
      throw error;
    }
  });
  if (done === undefined) return;
  signedIn = false;
  render();
});
window.addEventListener('hashchange', () => render());
whenSignedOut(() => { if (signedIn) { signedIn = false; render(); } });

// Who is signed in decides the first view; a page reload keeps the session (its cookies).
try {
  const me = await call('GET', '/admin/session');
  signedIn = me?.role === 'admin';
} catch {
  signedIn = false;
}
render({ focus: false });
export { api };
