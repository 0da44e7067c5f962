// The day at a glance: today's and this month's sales (Korean time), refunds, orders by
// status, what waits on an operator, and 30 days of sales as an SVG chart with its table.
import { api } from './api.js';
import { h, table } from './dom.js';
import { t, won, status, kstToday } from './i18n.js';

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
  const [report, applications, awaiting] = await Promise.all([
    api('GET', '/statistics/sales?days=31'),
    api('GET', '/seller-applications?status=pending&limit=100'),
    api('GET', '/orders?status=awaiting_payment&limit=100'),
  ]);
  const today = kstToday();
  const month = today.slice(0, 7);
  const days = report.days.slice(-30);
  const todaySales = report.days.find((day) => day.day === today)?.sales ?? 0;
  const monthSales = report.days.filter((day) => day.day.startsWith(month)).reduce((sum, day) => sum + day.sales, 0);
  const refunds = days.reduce((sum, day) => sum + day.refunds, 0);
  const paid = days.reduce((sum, day) => sum + day.orders_paid, 0);
  const count = (page) => page.items.length + (page.next_cursor ? '+' : '');
  return [
    h('h1', {}, t('dashboard')),
    h('div', { class: 'cards' },
      card(t('today'), won(todaySales), today + ' KST'),
      card(t('month'), won(monthSales), month),
      card(t('refunds30'), won(refunds)),
      card(t('paid30'), String(paid)),
      card(t('pendingApplications'), count(applications)),
      card(t('awaitingPayment'), count(awaiting))),
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
