// The day at a glance: today's and this month's sales (Korean time), refunds, orders by
// status, what waits on an operator (seller applications, disputes, payments, parcels), and 30 days of sales as an SVG chart with its table.
import { api, call } from './api.js';
import { h, table } from './dom.js';
import { t, won, status, kst, kstToday } from './i18n.js';

/** How long a paid order may wait for its parcels to leave before the dashboard calls it late. */
const SHIP_WITHIN_MS = 2 * 24 * 3600 * 1000;
/** How many paid orders the late-parcel count reads (oldest last: the API lists newest first). */
const PAID_ORDERS_READ = 500;

/** Fills `figure` with the paid orders older than SHIP_WITHIN_MS, reading at most PAID_ORDERS_READ. */
async function lateParcels(figure) {
  let late = 0, read = 0, cursor = null;
  try {
    do {
      const page = await api('GET', '/orders?status=paid&limit=100' + (cursor ? '&next=' + encodeURIComponent(cursor) : ''));
      read += page.items.length;
      late += page.items.filter((order) => order.paid_at && Date.now() - Date.parse(order.paid_at) > SHIP_WITHIN_MS).length;
      cursor = page.next_cursor;
    } while (cursor && read < PAID_ORDERS_READ);
    figure.textContent = String(late) + (cursor ? '+' : '');
  } catch (error) {
    figure.textContent = `${t('failed')}: ${error.message}`;
  }
}

function reconciliationCard(state) {
  const run = state?.last_run;
  if (!state?.enabled) return card(t('reconciliation'), t('reconcileOff'));
  if (!run) return card(t('reconciliation'), t('reconcileNotYet'), `${t('every')} ${state.interval_seconds}s`);
  return card(t('reconciliation'), run.ok ? t('reconcileOK') : t('reconcileFailed'),
    run.ok ? `${kst(run.ended_at)} · ${t('paidLate')} ${run.paid} · ${t('expiredCount')} ${run.expired} · ${t('unresolved')} ${run.unresolved}`
      : `${kst(run.ended_at)} · ${run.error}`);
}

function card(label, value, note) {
  return h('div', { class: 'card' }, h('p', { class: 'label' }, label), h('p', { class: 'figure' }, value), note && h('p', { class: 'muted' }, note));
}

/** Bars of sales per day; the numbers are in the table below it. */
export function chart(days) {
  const width = 720, height = 220, left = 8, bottom = 24, top = 12;
  const max = Math.max(1, ...days.map((day) => day.sales));
  const step = (width - left * 2) / days.length;
  const svg = h('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc' },
    h('title', { id: 'chart-title' }, t('chartTitle')),
    h('desc', { id: 'chart-desc' }, `${t('chartDesc')} ${days[0].day} – ${days[days.length - 1].day}, max ${won(max)}`),
    h('line', { class: 'axis', x1: left, x2: width - left, y1: height - bottom, y2: height - bottom }),
    days.map((day, index) => {
      const barHeight = Math.round((day.sales / max) * (height - top - bottom));
      return h('rect', { class: 'bar', x: (left + index * step + 1).toFixed(1), y: height - bottom - barHeight,
        width: Math.max(1, step - 2).toFixed(1), height: barHeight, 'data-day': day.day },
      h('title', {}, `${day.day}: ${won(day.sales)}`));
    }),
    [0, Math.floor(days.length / 2), days.length - 1].map((index) =>
      h('text', { x: (left + index * step + step / 2).toFixed(1), y: height - 6, 'text-anchor': 'middle' }, days[index].day.slice(5))));
  return svg;
}

export async function dashboard() {
  const [report, applications, disputes, awaiting, reconciliation] = await Promise.all([
    api('GET', '/statistics/sales?days=31'),
    api('GET', '/seller-applications?status=pending&limit=100'),
    api('GET', '/seller/returns?status=disputed&limit=100'),
    api('GET', '/orders?status=awaiting_payment&limit=100'),
    call('GET', '/admin/reconciliation'),
  ]);
  const today = kstToday();
  const month = today.slice(0, 7);
  const days = report.days.slice(-30);
  const todaySales = report.days.find((day) => day.day === today)?.sales ?? 0;
  const monthSales = report.days.filter((day) => day.day.startsWith(month)).reduce((sum, day) => sum + day.sales, 0);
  const refunds = days.reduce((sum, day) => sum + day.refunds, 0);
  const paid = days.reduce((sum, day) => sum + day.orders_paid, 0);
  const count = (page) => page.items.length + (page.next_cursor ? '+' : '');
  // Past its reservation and the five minutes' grace a payment in time may take, still awaiting
  // payment: reconciliation has not settled it yet.
  const stuck = awaiting.items.filter((order) => Date.parse(order.expires_at) + 5 * 60 * 1000 < Date.now()).length;
  const late = card(t('lateParcels'), '…', t('lateParcelsNote'));
  lateParcels(late.querySelector('.figure'));
  return [
    h('h1', {}, t('dashboard')),
    h('div', { class: 'cards' },
      card(t('today'), won(todaySales), today + ' KST'),
      card(t('month'), won(monthSales), month),
      card(t('refunds30'), won(refunds)),
      card(t('paid30'), String(paid)),
      card(t('pendingApplications'), count(applications)),
      h('div', { class: 'card' }, h('p', { class: 'label' }, h('a', { href: '#/returns' }, t('openDisputes'))),
        h('p', { class: 'figure' }, count(disputes))),
      card(t('awaitingPayment'), count(awaiting), `${t('stuckPayments')} ${stuck}`),
      late,
      reconciliationCard(reconciliation)),
    h('h2', {}, t('chartTitle')),
    h('div', { class: 'card' }, chart(days)),
    h('details', {}, h('summary', {}, t('chartTable')),
      table(t('chartTable'), [t('day'), t('ordersPaid'), t('sales'), t('refundCount'), t('refundAmount')],
        days.map((day) => [day.day, String(day.orders_paid), won(day.sales), String(day.refund_count), won(day.refunds)]))),
    h('h2', {}, t('ordersByStatus')),
    table(t('ordersByStatus'), [t('status'), t('orders')],
      report.orders_by_status.map((row) => [h('a', { href: `#/orders?status=${row.status}` }, status(row.status)), String(row.count)])),
  ];
}
