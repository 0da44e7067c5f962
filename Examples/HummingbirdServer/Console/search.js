// Search's care: the synonym table an operator keeps (키크론 ↔ Keychron, both ways, used by every
// search at once), and why a query's first results rank where they do — what
// `keycat-admin search synonyms` and `search explain` show, over the same API.
import { api } from './api.js';
import { h, field, errorBox, busy, announce, table, showError } from './dom.js';
import { t } from './i18n.js';

export async function search() {
  return [h('h1', {}, t('nav_search')), await synonyms(), explain()];
}

// The synonym table: a failed read is shown in its own box, and the explain form below still works.
async function synonyms() {
  const box = errorBox();
  const listed = h('div');
  const show = async () => {
    const answer = await api('GET', '/search/synonyms');
    listed.replaceChildren(table(t('synonyms'), [t('word'), t('synonym'), t('actions')], answer.items.map((pair) => {
      const removeBox = errorBox();
      const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `${t('remove')}: ${pair.word} ↔ ${pair.synonym}`,
        onclick: async () => {
          if (!window.confirm(`${t('confirmRemoveSynonym')} ${pair.word} ↔ ${pair.synonym}`)) return;
          const params = new URLSearchParams({ word: pair.word, synonym: pair.synonym });
          const done = await busy(remove, removeBox, async () => {
            await api('DELETE', '/search/synonyms?' + params);
            return true;
          });
          if (done === undefined) return;
          announce(t('synonymRemoved'));
          await refresh();
          // The row and its button are gone: focus goes to the table, not the page's top.
          listed.querySelector('.table-wrap')?.focus();
        } }, t('remove'));
      return [pair.word, pair.synonym, h('span', { class: 'action' }, remove, removeBox)];
    })));
  };
  const refresh = async () => {
    try {
      box.hidden = true;
      await show();
    } catch (error) {
      showError(box, error);
    }
  };
  const word = h('input', { name: 'word', size: 14, maxLength: 30, required: true });
  const synonym = h('input', { name: 'synonym', size: 14, maxLength: 30, required: true });
  const add = h('button', { type: 'submit' }, t('addSynonym'));
  const form = h('form', { class: 'row', onsubmit: async (event) => {
    event.preventDefault();
    const answer = await busy(add, box, () => api('POST', '/search/synonyms', { word: word.value, synonym: synonym.value }));
    if (!answer) return;
    announce(answer.added ? `${t('synonymAdded')} ${answer.word} ↔ ${answer.synonym}` : t('synonymThere'));
    word.value = '';
    synonym.value = '';
    await refresh();
  } }, field(t('word'), word), field(t('synonym'), synonym), add);
  await refresh();
  return h('section', {}, h('h2', {}, t('synonyms')), h('p', { class: 'hint' }, t('synonymsHint')), form, box, listed);
}

function explain() {
  const q = h('input', { name: 'q', type: 'search', size: 24, maxLength: 100, required: true });
  const box = errorBox();
  const result = h('div');
  const submit = h('button', { type: 'submit' }, t('explainRun'));
  const form = h('form', { class: 'row', role: 'search', onsubmit: async (event) => {
    event.preventDefault();
    const answer = await busy(submit, box, () => api('GET', '/search/explain?' + new URLSearchParams({ q: q.value, limit: '10' })));
    if (!answer) return;
    const rows = answer.items.map((item) => [
      String(item.rank), String(item.id), item.title, String(item.text_score),
      h('ul', { class: 'terms' }, item.groups.map((group) => h('li', {}, h('code', {}, group.terms), ` ${group.score}`))),
      item.bonuses.map((bonus) => `${bonus.term} ${bonus.weight}`).join(', ') || '—',
      item.phrase_matched ? `+${item.phrase_bonus}` : '—',
      item.in_stock ? String(item.stock) : t('soldOut'), item.units_ranked === item.units_sold ? String(item.units_sold) : `${item.units_sold} → ${item.units_ranked}`, String(item.bookmark_count),
      item.rating_average === undefined ? '—' : `${item.rating_average.toFixed(1)} (${item.review_count})`,
    ]);
    result.replaceChildren(table(`${t('explainTitle')}: ${answer.query}`, [t('rank'), t('id'), t('title2'), t('textScore'), t('groups'),
      t('wholeWords'), t('phrase'), t('stock'), t('unitsSold'), t('bookmarks'), t('rating')], rows));
    announce(`${t('explainTitle')}: ${answer.items.length}`);
  } }, field(t('query'), q), submit);
  return h('section', {},
    h('h2', {}, t('explainTitle')), h('p', { class: 'hint' }, t('explainHint')), form, box, result);
}
