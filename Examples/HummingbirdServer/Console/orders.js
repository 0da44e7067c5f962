// Orders: the queue (status, buyer, seller and placing-date filters, keyset pages) and one order
// with its parcels, payment, refunds and address, refunded whole or a parcel at a time, each
// refund sent with an Idempotency-Key kept until it succeeds, so a retried click never refunds
// twice.
import { api, newKey } from './api.js';
import { h, table, field, errorBox, busy, announce } from './dom.js';
import { t, won, kst, status, kstDayStart } from './i18n.js';

const statuses = ['awaiting_payment', 'paid', 'shipped', 'delivered', 'partially_refunded', 'refunded', 'expired', 'cancelled', 'failed'];
const DAY = 24 * 3600 * 1000;

function hashQuery() {
  return new URLSearchParams(location.hash.split('?')[1] ?? '');
}

export async function orders() {
  const params = hashQuery();
  const statusSelect = h('select', { name: 'status' }, h('option', { value: '' }, t('all')),
    statuses.map((value) => h('option', { value, selected: params.get('status') === value }, status(value))));
  const id = (name) => h('input', { name, inputMode: 'numeric', pattern: '[0-9]*', size: 8, value: params.get(name) ?? '' });
  const buyer = id('buyer_id');
  const seller = id('seller_id');
  // Days in Korean time, whatever the browser's zone: from the first day's 00:00 KST up to the
  // end of the last day (the API's window is half-open: placed_before is the next day's 00:00).
  const from = h('input', { name: 'placed_from', type: 'date', value: params.get('from') ?? '' });
  const to = h('input', { name: 'placed_to', type: 'date', value: params.get('to') ?? '' });
  const box = errorBox();
  const rows = h('tbody');
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, t('more'));
  let cursor = null;
  // The filters of the pages shown: "더 보기" goes on with them (a cursor is bound to its filters).
  let filters = null;

  const read = () => {
    const search = new URLSearchParams({ limit: '20' });
    if (statusSelect.value) search.set('status', statusSelect.value);
    if (buyer.value.trim()) search.set('buyer_id', buyer.value.trim());
    if (seller.value.trim()) search.set('seller_id', seller.value.trim());
    if (from.value) search.set('placed_from', kstDayStart(from.value));
    if (to.value) search.set('placed_before', new Date(Date.parse(kstDayStart(to.value)) + DAY).toISOString());
    return search;
  };
  async function load(button, append) {
    await busy(button, box, async () => {
      const search = new URLSearchParams(filters);
      if (append && cursor) search.set('next', cursor);
      const page = await api('GET', '/orders?' + search);
      if (!append) rows.replaceChildren();
      for (const order of page.items) {
        rows.append(h('tr', {},
          h('td', {}, h('a', { href: `#/orders/${order.id}` }, `#${order.id}`)),
          h('td', {}, h('span', { class: 'badge' }, status(order.status))),
          h('td', { class: 'num' }, won(order.amount)),
          h('td', { class: 'num' }, order.refunded_amount ? won(order.refunded_amount) : '—'),
          h('td', {}, kst(order.created_at)),
          h('td', {}, kst(order.paid_at)),
          h('td', {}, order.merchant_uid)));
      }
      if (!rows.children.length) rows.append(h('tr', {}, h('td', { colSpan: 7 }, t('none'))));
      cursor = page.next_cursor;
      more.hidden = !cursor;
    });
  }
  const submit = h('button', { type: 'submit' }, t('search'));
  const form = h('form', { class: 'row', role: 'search', onsubmit: (event) => {
    event.preventDefault();
    filters = read();
    cursor = null;
    load(submit, false);
  } },
  field(t('status'), statusSelect), field(t('buyer'), buyer), field(t('sellerID'), seller),
  field(t('placedFrom'), from), field(t('placedTo'), to), submit);
  more.addEventListener('click', () => load(more, true));
  const list = h('div', { class: 'table-wrap', tabIndex: 0, role: 'region', 'aria-label': t('orders') },
    h('table', {}, h('caption', {}, t('orders')),
      h('thead', {}, h('tr', {}, [t('order'), t('status'), t('amount'), t('refundsTitle'), t('placedAt'), t('paidAt'), 'merchant_uid']
        .map((name) => h('th', { scope: 'col' }, name)))), rows));
  filters = read();
  await load(submit, false);
  return [h('h1', {}, t('orders')), form, box, list, h('p', {}, more)];
}

/** A refund form: amount (empty: the whole balance), reason, restock; one key per intent. */
function refundForm(label, send) {
  const amount = h('input', { name: 'amount', inputMode: 'numeric', pattern: '[0-9]*', size: 10, 'aria-describedby': 'amount-hint' });
  const reason = h('input', { name: 'reason', required: true, maxLength: 500, size: 24 });
  const restock = h('input', { type: 'checkbox', name: 'restock' });
  const box = errorBox();
  const answer = h('p', { class: 'notice', hidden: true });
  const submit = h('button', { type: 'submit', class: 'danger' }, label);
  let key = newKey();
  let sentWith = '';
  const form = h('form', { class: 'row', onsubmit: async (event) => {
    event.preventDefault();
    const body = { reason: reason.value, restock: restock.checked };
    if (amount.value.trim()) body.amount = Number(amount.value.trim());
    // The same intent (same fields) retried keeps its key; a changed form is a new refund.
    const intent = JSON.stringify(body);
    if (intent !== sentWith) { key = sentWith ? newKey() : key; sentWith = intent; }
    const result = await busy(submit, box, () => send(body, key));
    if (result) {
      // Done: the form stays shut until the page reloads with the new state, so a second click
      // cannot send a second refund under a new key.
      for (const input of form.elements) input.disabled = true;
      key = newKey();
      sentWith = '';
      answer.hidden = false;
      answer.textContent = `${t('refunded')} ${t('pgAnswer')}: ${result.summary}`;
      announce(t('refunded'));
      result.after?.();
    }
  } },
  field(t('amount'), amount), h('span', { id: 'amount-hint', class: 'muted' }, t('amountHint')),
  field(t('reason'), reason), h('label', {}, restock, ' ', t('restock')), submit);
  return h('div', {}, form, box, answer);
}

/** The PG's answer to the newest refund of an order: its amount and whether the PG did it.
 * The refund was made before this read: a read that fails says so, not that the refund did. */
async function pgAnswer(orderID) {
  try {
    const refunds = await api('GET', `/orders/${orderID}/refunds`);
    const newest = refunds.items.reduce((last, refund) => (!last || refund.id > last.id ? refund : last), null);
    return newest ? `${won(newest.amount)} ${t('rf_' + newest.status)}` : '—';
  } catch {
    return '—';
  }
}

export async function orderDetail(id) {
  const [order, refunds, orderTrail] = await Promise.all([api('GET', `/orders/${id}`), api('GET', `/orders/${id}/refunds`),
    api('GET', `/audit?target=order:${encodeURIComponent(id)}&limit=100`)]);
  // The order's audit trail: its own entries and its parcels', newest first.
  const parcelTrails = await Promise.all(order.shipments.map((parcel) => api('GET', `/audit?target=shipment:${parcel.id}&limit=100`)));
  const trail = [orderTrail, ...parcelTrails].flatMap((page) => page.items).sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id));
  const reload = () => window.dispatchEvent(new HashChangeEvent('hashchange'));
  const parcels = order.shipments.map((parcel) => h('section', { class: 'parcel', 'aria-label': `${t('parcels')} #${parcel.id}` },
    h('h3', {}, `${t('parcels')} #${parcel.id} `, h('span', { class: 'badge' }, status(parcel.status))),
    h('p', { class: 'muted' }, `${t('seller')} ${parcel.seller_id} · ${t('carrier')} ${parcel.carrier ?? '—'} · ${t('tracking')} ${parcel.tracking_number ?? '—'}`),
    // What the carrier said, when the shop tracks parcels: what a dispute's ruling weighs.
    parcel.carrier_status ? h('p', { class: 'carrier-says' }, `${t('carrierSays')}: ${t('cs_' + parcel.carrier_status)}`
      + (parcel.carrier_delivered_at ? ` (${kst(parcel.carrier_delivered_at)})` : '')) : null,
    h('ul', {}, order.lines.filter((line, position) => parcel.lines.includes(position)).map((line) =>
      h('li', {}, `${line.title} × ${line.quantity} — ${won(line.unit_price * line.quantity)}${line.refunded_at ? ` (${status('refunded')})` : ''}`))),
    refundForm(t('refundParcel'), async (body, key) => {
      await api('POST', `/shipments/${parcel.id}/refund`, body, { idempotencyKey: key });
      return { summary: await pgAnswer(order.id), after: () => setTimeout(reload, 1200) };
    })));
  const address = order.shipping_address;
  return [
    h('p', {}, h('a', { href: '#/orders' }, '← ' + t('back'))),
    h('h1', {}, `${t('order')} #${order.id} `, h('span', { class: 'badge', id: 'order-status' }, status(order.status))),
    h('div', { class: 'grid2' },
      h('section', { class: 'card', 'aria-label': t('payment') }, h('h2', {}, t('payment')),
        h('dl', {},
          h('dt', {}, t('amount')), h('dd', {}, won(order.amount)),
          h('dt', {}, t('refundsTitle')), h('dd', { id: 'refunded-amount' }, won(order.refunded_amount)),
          h('dt', {}, t('paidAt')), h('dd', {}, kst(order.paid_at)),
          h('dt', {}, 'merchant_uid / imp_uid'), h('dd', {}, `${order.merchant_uid} / ${order.imp_uid ?? '—'}`))),
      h('section', { class: 'card', 'aria-label': t('address') }, h('h2', {}, t('address')),
        address ? h('p', {}, [address.recipient, address.phone, `${address.postcode ?? ''} ${address.road_address ?? ''} ${address.detail ?? ''}`]
          .filter(Boolean).map((text, index) => [index ? h('br') : null, text])) : h('p', { class: 'muted' }, '—'))),
    h('h2', {}, t('parcels')), parcels,
    h('h2', {}, t('refundOrder')),
    refundForm(t('refundOrder'), async (body, key) => {
      const changed = await api('POST', `/orders/${order.id}/refund`, body, { idempotencyKey: key });
      return { summary: `${await pgAnswer(order.id)} · ${status(changed.status)}, ${won(changed.refunded_amount)}`,
        after: () => setTimeout(reload, 1200) };
    }),
    h('h2', {}, t('refundsTitle')),
    table(t('refundsTitle'), [t('id'), t('amount'), t('reason'), t('status'), t('created')],
      refunds.items.map((refund) => [String(refund.id), won(refund.amount), refund.reason, t('rf_' + refund.status), kst(refund.created_at)])),
    h('h2', {}, t('auditTrail')),
    table(t('auditTrail'), [t('when'), t('actor'), t('action'), t('target'), t('detail')],
      trail.map((entry) => [kst(entry.at), entry.actor, entry.action, entry.target, entry.detail])),
  ];
}
