// The other work queues: seller applications, returns and disputes, users, settlements and
// listings. Each is a list
// with keyset paging ("더 보기") and its actions; every change asks first when it cannot be undone
// lightly, and the API writes the audit log.
import { api } from './api.js';
import { h, field, errorBox, busy, announce } from './dom.js';
import { t, won, kst, status } from './i18n.js';

/**
 * A paged list: `path(cursor)` is the API path of a page, `row(item, refresh)` its cells.
 * Returns the table, its "more" button, its error box and a `load(reset)`.
 */
function pagedList(caption, headers, path, row) {
  const rows = h('tbody');
  const box = errorBox();
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, t('more'));
  let cursor = null;
  async function load(button, reset) {
    if (reset) cursor = null;
    await busy(button, box, async () => {
      const page = await api('GET', path(cursor));
      if (reset) rows.replaceChildren();
      for (const item of page.items) rows.append(h('tr', {}, row(item).map((cell) => h('td', {}, cell))));
      if (!rows.children.length) rows.append(h('tr', {}, h('td', { colSpan: headers.length }, t('none'))));
      cursor = page.next_cursor;
      more.hidden = !cursor;
    });
  }
  more.addEventListener('click', () => load(more, false));
  const view = h('div', { class: 'table-wrap', tabIndex: 0, role: 'region', 'aria-label': caption },
    h('table', {}, h('caption', {}, caption), h('thead', {}, h('tr', {}, headers.map((name) => h('th', { scope: 'col' }, name)))), rows));
  return { view, more, box, load };
}

/** A button that asks (when `question`), then runs `work`, showing its error beside it. */
function action(label, question, work, { danger = false } = {}) {
  const box = errorBox();
  const button = h('button', { type: 'button', class: danger ? 'danger' : 'secondary', onclick: async () => {
    if (question && !window.confirm(question)) return;
    const done = await busy(button, box, work);
    if (done !== undefined) announce(typeof done === 'string' ? done : t('done'));
  } }, label);
  return h('span', { class: 'action' }, button, box);
}

export async function sellers() {
  const choice = h('select', { name: 'status' }, ['pending', 'approved', 'rejected'].map((value) => h('option', { value }, status(value))));
  const list = pagedList(t('sellers'), [t('id'), t('applicant'), t('business'), t('representative'), t('registry'), t('appliedAt'), t('status'), t('actions')],
    (cursor) => `/seller-applications?status=${choice.value}&limit=20${cursor ? '&next=' + encodeURIComponent(cursor) : ''}`,
    (application) => {
      const state = h('span', { class: 'badge' }, status(application.status));
      const reason = h('input', { name: 'reason', size: 14, maxLength: 500, 'aria-label': `${t('reason')} #${application.id}` });
      const actions = application.status !== 'pending' ? [application.rejection_reason ?? ''] : [
        action(t('approve'), null, async () => {
          const result = await api('POST', `/seller-applications/${application.id}/approve`);
          state.textContent = status(result.status);
          return t('approved');
        }),
        ' ', reason, ' ',
        action(t('reject'), null, async () => {
          const result = await api('POST', `/seller-applications/${application.id}/reject`, { reason: reason.value });
          state.textContent = status(result.status);
          return t('rejected');
        }, { danger: true }),
      ];
      return [String(application.id), String(application.user_id), application.business_number, application.representative_name,
        application.registry_status ?? '—', kst(application.created_at), state, h('div', { class: 'row' }, actions)];
    });
  const submit = h('button', { type: 'submit' }, t('search'));
  const form = h('form', { class: 'row', onsubmit: (event) => { event.preventDefault(); list.load(submit, true); } }, field(t('status'), choice), submit);
  await list.load(submit, true);
  return [h('h1', {}, t('sellers')), form, list.box, list.view, h('p', {}, list.more)];
}

export async function returns() {
  // Disputes first: a seller's rejection the buyer disputed waits on an operator's ruling, and
  // the parcel's sale waits with it.
  const choice = h('select', { name: 'status' }, ['disputed', 'requested', 'approved', 'rejected'].map((value) => h('option', { value }, status(value))));
  const list = pagedList(t('returns'), [t('id'), t('order'), t('sellerID'), t('buyerReason'), t('sellerDecision'), t('dispute'), t('status'), t('actions')],
    (cursor) => `/seller/returns?status=${choice.value}&limit=20${cursor ? '&next=' + encodeURIComponent(cursor) : ''}`,
    (request) => {
      const state = h('span', { class: 'badge' }, status(request.status));
      const open = request.status === 'requested' || request.status === 'disputed';
      const restock = h('input', { type: 'checkbox', name: 'restock' });
      const words = t(request.status === 'disputed' ? 'ruling' : 'reason');
      const reason = h('input', { name: 'reason', size: 14, maxLength: 500, placeholder: words, 'aria-label': `${words} #${request.id}` });
      const decided = (result) => { state.textContent = status(result.status); };
      const actions = !open ? [request.ruling ?? request.decision ?? ''] : [
        h('label', {}, restock, ` ${t('restock')}`), ' ',
        action(t('approve'), t('confirmApproveReturn'), async () => {
          decided(await api('POST', `/returns/${request.id}/approve`, { restock: restock.checked }));
          return t('approved');
        }),
        ' ', reason, ' ',
        action(t('reject'), request.status === 'disputed' ? t('confirmRuling') : null, async () => {
          decided(await api('POST', `/returns/${request.id}/reject`, { reason: reason.value }));
          return t('rejected');
        }, { danger: true }),
      ];
      return [String(request.id), h('a', { href: `#/orders/${request.order_id}` }, `#${request.order_id}`), String(request.seller_id),
        request.reason, request.decision ?? '—', request.dispute ?? '—', state, h('div', { class: 'row' }, actions)];
    });
  const submit = h('button', { type: 'submit' }, t('search'));
  const form = h('form', { class: 'row', onsubmit: (event) => { event.preventDefault(); list.load(submit, true); } }, field(t('status'), choice), submit);
  await list.load(submit, true);
  return [h('h1', {}, t('returns')), form, list.box, list.view, h('p', {}, list.more)];
}

export async function users() {
  const find = h('input', { name: 'q', type: 'search', size: 24, maxLength: 254 });
  const roles = ['buyer', 'seller', 'admin'];
  // What the shown pages were found with: "더 보기" goes on with it even when the field has
  // changed since (a cursor is bound to its search).
  let searched = '';
  // An email (it has an @) is looked up by the API; anything else is a nick search by the API
  // (part of a nick: Latin letters in either case, Hangul syllables exactly), paged.
  const list = pagedList(t('users'), [t('id'), t('email'), t('nick'), t('role'), t('status'), t('created'), t('actions')],
    (cursor) => {
      if (searched.includes('@')) return `/users?email=${encodeURIComponent(searched)}`;
      const search = new URLSearchParams({ limit: '100' });
      if (searched) search.set('nick', searched);
      if (cursor) search.set('next', cursor);
      return '/users?' + search;
    },
    (user) => {
      const state = h('span', { class: 'badge' }, user.suspended_at ? t('suspended') : user.withdrawn_at ? '—' : t('active'));
      const role = h('select', { 'aria-label': `${t('role')} #${user.id}` }, roles.map((value) => h('option', { value, selected: value === user.role }, t('r_' + value))));
      return [String(user.id), user.email, user.nick, h('div', { class: 'row' }, role,
        action(t('setRole'), t('confirmRole'), async () => { await api('PUT', `/users/${user.id}/role`, { role: role.value }); })),
      state, kst(user.created_at), h('div', { class: 'row' },
        action(t('suspend'), t('confirmSuspend'), async () => { await api('POST', `/users/${user.id}/suspend`); state.textContent = t('suspended'); }, { danger: true }),
        action(t('reinstate'), t('confirmReinstate'), async () => { await api('POST', `/users/${user.id}/reinstate`); state.textContent = t('active'); }))];
    });
  const submit = h('button', { type: 'submit' }, t('search'));
  const form = h('form', { class: 'row', role: 'search', onsubmit: (event) => {
    event.preventDefault();
    searched = find.value.trim();
    list.load(submit, true);
  } },
    field(t('findUser'), find), submit);
  await list.load(submit, true);
  return [h('h1', {}, t('users')), form, list.box, list.view, h('p', {}, list.more)];
}

export async function settlements() {
  const now = new Date(Date.now() + 9 * 3600 * 1000);
  const period = h('input', { name: 'period', value: `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`,
    pattern: '[0-9]{4}-[0-9]{2}', size: 9, required: true });
  const box = errorBox();
  const result = h('div');
  const headers = [t('id'), t('sellerID'), t('sales'), t('deliveryFees'), t('refundAmount'), t('commission'), t('payout')];
  const cells = (s) => [s.id ? String(s.id) : '—', String(s.seller_id), won(s.sales), won(s.delivery_fees), won(s.refunds), won(s.commission), won(s.payout)];
  const run = async (button, dryRun) => {
    if (!dryRun && !window.confirm(t('confirmClose'))) return;
    const answer = await busy(button, box, () => api('POST', '/settlements/close', { period: period.value, dry_run: dryRun }));
    if (!answer) return;
    const list = h('div', { class: 'table-wrap', tabIndex: 0, role: 'region', 'aria-label': t('preview') },
      h('table', {}, h('caption', {}, `${dryRun ? t('preview') : t('closed')} ${answer.period}`),
        h('thead', {}, h('tr', {}, headers.map((name) => h('th', { scope: 'col' }, name)))),
        h('tbody', {}, answer.items.length ? answer.items.map((s) => h('tr', {}, cells(s).map((c) => h('td', {}, c))))
          : h('tr', {}, h('td', { colSpan: headers.length }, t('none'))))));
    const csv = [headers.join(','), ...answer.items.map((s) => [s.id, s.seller_id, s.sales, s.delivery_fees, s.refunds, s.commission, s.payout].join(','))].join('\n');
    const link = h('a', { href: URL.createObjectURL(new Blob(['\ufeff' + csv], { type: 'text/csv' })), download: `settlements-${answer.period}.csv` }, t('download'));
    result.replaceChildren(list, h('p', {}, link));
    announce(dryRun ? t('preview') : t('closed'));
    if (!dryRun) closedList.load(dryButton, true);
  };
  const dryButton = h('button', { type: 'button', class: 'secondary', onclick: () => run(dryButton, true) }, t('dryRun'));
  const closeButton = h('button', { type: 'button', class: 'danger', onclick: () => run(closeButton, false) }, t('close'));
  const closedList = pagedList(t('settlements'), [t('id'), t('periodShort'), ...headers.slice(1), t('entries')],
    (cursor) => `/seller/settlements?limit=20${cursor ? '&next=' + encodeURIComponent(cursor) : ''}`,
    (s) => [String(s.id), s.period, ...cells(s).slice(1), action(`${t('download')} #${s.id}`, null, async () => {
      // One settlement's entries, as the seller's statement: fetched, then saved as CSV.
      const settlement = await api('GET', `/seller/settlements/${s.id}`);
      const columns = ['id', 'kind', 'order_id', 'shipment_id', 'category', 'amount', 'commission', 'occurred_at'];
      const csv = [columns.join(','), ...(settlement.entries ?? []).map((entry) => columns.map((name) => entry[name] ?? '').join(','))].join('\n');
      const link = h('a', { href: URL.createObjectURL(new Blob(['\ufeff' + csv], { type: 'text/csv' })),
        download: `settlement-${s.id}-${s.period}.csv` });
      document.body.append(link);
      link.click();
      link.remove();
    })]);
  await closedList.load(dryButton, true);
  return [h('h1', {}, t('settlements')), h('div', { class: 'row' }, field(t('period'), period), dryButton, closeButton), box, result,
    h('h2', {}, t('settlements')), closedList.box, closedList.view, h('p', {}, closedList.more)];
}

export async function listings() {
  const q = h('input', { name: 'q', type: 'search', size: 24 });
  const list = pagedList(t('listings'), [t('id'), t('title2'), t('seller'), t('price'), t('stock'), t('actions')],
    (cursor) => {
      const search = new URLSearchParams({ limit: '20' });
      if (q.value.trim()) search.set('q', q.value.trim());
      if (cursor) search.set('next', cursor);
      return '/products?' + search;
    },
    (product) => {
      const row = [String(product.id), product.title, String(product.seller_id ?? product.seller?.id ?? '—'), won(product.price), String(product.stock)];
      const withdraw = action(t('withdraw'), `${t('confirmWithdraw')} #${product.id}`, async () => {
        await api('DELETE', `/products/${product.id}`);
        withdraw.closest('tr').classList.add('muted');
        return t('withdrawn');
      }, { danger: true });
      return [...row, withdraw];
    });
  const submit = h('button', { type: 'submit' }, t('search'));
  const form = h('form', { class: 'row', role: 'search', onsubmit: (event) => { event.preventDefault(); list.load(submit, true); } }, field(t('query'), q), submit);
  await list.load(submit, true);
  return [h('h1', {}, t('listings')), form, list.box, list.view, h('p', {}, list.more)];
}
