// The console's words, Korean first, and the formats an operator reads: won with separators,
// dates and times in Korean time (KST, UTC+9) whatever the browser's zone.

const words = {
  ko: {
    title: 'KeyCat 운영 콘솔', skip: '본문으로 건너뛰기', language: 'English', signOut: '로그아웃',
    dashboard: '대시보드', orders: '주문', sellers: '판매자 신청', users: '회원', settlements: '정산', listings: '상품',
    signIn: '로그인', email: '이메일', password: '비밀번호', signInTitle: '운영자 로그인',
    notOperator: '운영자 계정만 콘솔을 쓸 수 있습니다.', working: '처리 중…', loading: '불러오는 중…',
    failed: '요청이 실패했습니다', retry: '다시 시도', more: '더 보기', none: '항목이 없습니다.', search: '검색', reset: '초기화',
    today: '오늘 매출', month: '이번 달 매출', refunds30: '30일 환불', paid30: '30일 결제 주문',
    ordersByStatus: '상태별 주문 (30일)', chartTitle: '최근 30일 일별 매출', chartDesc: '막대 하나가 하루(KST)의 결제 금액입니다.',
    chartTable: '일별 매출 표', day: '날짜', sales: '매출', ordersPaid: '결제 주문', refundCount: '환불 건수', refundAmount: '환불 금액',
    pendingApplications: '대기 중인 판매자 신청', awaitingPayment: '결제 확인 대기',
    status: '상태', buyer: '구매자 ID', seller: '판매자', all: '전체', id: '번호', amount: '금액', created: '생성', paidAt: '결제',
    order: '주문', back: '목록으로', parcels: '배송 묶음', lines: '상품', payment: '결제', refundsTitle: '환불 내역', address: '배송지',
    refundOrder: '주문 환불', refundParcel: '이 묶음 환불', reason: '사유', restock: '재고 복구', amountHint: '비우면 남은 금액 전체',
    refunded: '환불되었습니다.', pgAnswer: 'PG 응답', carrier: '택배사', tracking: '송장번호',
    approve: '승인', reject: '거절', approved: '승인했습니다.', rejected: '거절했습니다.', business: '사업자등록번호',
    representative: '대표자', registry: '국세청 상태', applicant: '신청자', pending: '대기', appliedAt: '신청일',
    nick: '닉네임', role: '역할', suspended: '정지됨', active: '정상', suspend: '정지', reinstate: '정지 해제', setRole: '역할 변경',
    confirmSuspend: '이 회원을 정지할까요?', confirmReinstate: '정지를 해제할까요?', confirmRole: '역할을 바꿀까요?',
    confirmClose: '이 달을 마감할까요? 마감한 정산은 바뀌지 않습니다.', confirmWithdraw: '이 상품을 내릴까요?',
    done: '완료했습니다.', findUser: '이메일 또는 닉네임', period: '정산 월 (YYYY-MM)', dryRun: '미리 보기', close: '마감',
    payout: '지급액', commission: '수수료', deliveryFees: '배송비', download: 'CSV 내려받기', sellerID: '판매자 ID',
    query: '검색어', price: '가격', stock: '재고', withdraw: '판매 중지', withdrawn: '상품을 내렸습니다.', title2: '상품명',
    closed: '마감했습니다.', preview: '미리 보기 결과', actions: '작업', cancel: '취소', confirm: '확인',
    st_awaiting_payment: '결제 대기', st_paid: '결제 완료', st_shipped: '배송 중', st_delivered: '배송 완료',
    st_partially_refunded: '부분 환불', st_refunded: '환불 완료', st_expired: '만료', st_cancelled: '취소', st_failed: '실패',
    st_pending: '대기', st_approved: '승인', st_rejected: '거절', st_preparing: '준비 중',
    r_buyer: '구매자', r_seller: '판매자', r_admin: '운영자',
    reconciliation: '대사(reconciliation) 마지막 실행', reconcileOff: '이 서버에서 꺼져 있음', reconcileNotYet: '아직 실행 전', every: '주기',
    reconcileOK: '정상', reconcileFailed: '실패', paidLate: '늦은 결제 반영', expiredCount: '만료', unresolved: '미해결',
    stuckPayments: '기한 지난 결제 대기:', lateParcels: '발송 지연 (결제 후 2일 넘음)', lateParcelsNote: '결제 완료 주문 최근 500건 기준',
    periodShort: '정산 월', entries: '명세', rf_pending: 'PG 응답 대기', rf_done: 'PG 환불 완료', rf_failed: 'PG 환불 실패',
    placedFrom: '주문일 부터 (KST)', placedTo: '주문일 까지 (KST)', placedAt: '주문 시각',
    auditTrail: '감사 기록', when: '시각 (KST)', actor: '누가', action: '작업', target: '대상', detail: '내용',
    returns: '반품·분쟁', buyerReason: '구매자 사유', sellerDecision: '판매자 답변', dispute: '분쟁 사유', ruling: '운영 판정',
    st_requested: '요청', st_disputed: '분쟁', confirmApproveReturn: '이 반품을 승인하고 남은 상품 금액을 환불할까요?',
    confirmRuling: '분쟁을 거절할까요? 이 판정은 최종입니다.', openDisputes: '판정 기다리는 분쟁',
    nav_search: '검색 관리', synonyms: '동의어', word: '단어', synonym: '같은 말', remove: '삭제', addSynonym: '동의어 추가',
    confirmRemoveSynonym: '이 동의어를 지울까요?', synonymRemoved: '동의어를 지웠습니다.', synonymAdded: '동의어를 추가했습니다:',
    synonymThere: '이미 있는 동의어입니다.', synonymsHint: '글자나 숫자로 된 한 단어씩 (30자까지). 양방향으로, 모든 검색에 바로 쓰입니다.',
    explainTitle: '검색 순위 설명', explainRun: '설명 보기',
    explainHint: '상위 10개 결과가 왜 그 순서인지: 검색어 묶음별 점수, 온전한 단어, 구문 일치, 그다음 재고·판매량·찜·평점 순으로 동점을 가릅니다. = 온전한 단어, * 앞부분 일치, ~ 오타 허용, | 동의어.',
    rank: '순위', textScore: '텍스트 점수', groups: '검색어 묶음별 점수', wholeWords: '온전한 단어', phrase: '구문 일치',
    unitsSold: '판매량', bookmarks: '찜', rating: '평점', soldOut: '품절',
    carrierSays: '택배사 조회', cs_not_found: '조회 안 되는 송장번호', cs_in_transit: '배송 중', cs_delivered: '배송 완료',
    cs_delivered_before_shipping: '발송 전에 배송 완료된 번호 (다른 택배의 송장번호)',
  },
  en: {
    title: 'KeyCat console', skip: 'Skip to content', language: '한국어', signOut: 'Sign out',
    dashboard: 'Dashboard', orders: 'Orders', sellers: 'Seller applications', users: 'Users', settlements: 'Settlements', listings: 'Listings',
    signIn: 'Sign in', email: 'Email', password: 'Password', signInTitle: 'Operator sign-in',
    notOperator: 'Only operator accounts may use the console.', working: 'Working…', loading: 'Loading…',
    failed: 'The request failed', retry: 'Retry', more: 'More', none: 'Nothing here.', search: 'Search', reset: 'Reset',
    today: "Today's sales", month: "This month's sales", refunds30: 'Refunds, 30 days', paid30: 'Orders paid, 30 days',
    ordersByStatus: 'Orders by status (30 days)', chartTitle: 'Sales per day, last 30 days', chartDesc: 'Each bar is one day (KST) of payments.',
    chartTable: 'Sales per day (table)', day: 'Day', sales: 'Sales', ordersPaid: 'Orders paid', refundCount: 'Refunds', refundAmount: 'Refunded',
    pendingApplications: 'Pending seller applications', awaitingPayment: 'Awaiting payment confirmation',
    status: 'Status', buyer: 'Buyer ID', seller: 'Seller', all: 'All', id: 'No.', amount: 'Amount', created: 'Created', paidAt: 'Paid',
    order: 'Order', back: 'Back to list', parcels: 'Parcels', lines: 'Items', payment: 'Payment', refundsTitle: 'Refunds', address: 'Address',
    refundOrder: 'Refund order', refundParcel: 'Refund this parcel', reason: 'Reason', restock: 'Restock', amountHint: 'Empty: the whole balance',
    refunded: 'Refunded.', pgAnswer: "PG's answer", carrier: 'Carrier', tracking: 'Tracking',
    approve: 'Approve', reject: 'Reject', approved: 'Approved.', rejected: 'Rejected.', business: 'Business number',
    representative: 'Representative', registry: 'Registry status', applicant: 'Applicant', pending: 'Pending', appliedAt: 'Applied',
    nick: 'Nick', role: 'Role', suspended: 'Suspended', active: 'Active', suspend: 'Suspend', reinstate: 'Reinstate', setRole: 'Set role',
    confirmSuspend: 'Suspend this account?', confirmReinstate: 'Lift the suspension?', confirmRole: 'Change the role?',
    confirmClose: 'Close this month? A closed settlement never changes.', confirmWithdraw: 'Withdraw this listing?',
    done: 'Done.', findUser: 'Email or nick', period: 'Month (YYYY-MM)', dryRun: 'Dry run', close: 'Close',
    payout: 'Payout', commission: 'Commission', deliveryFees: 'Delivery fees', download: 'Download CSV', sellerID: 'Seller ID',
    query: 'Search', price: 'Price', stock: 'Stock', withdraw: 'Withdraw', withdrawn: 'Listing withdrawn.', title2: 'Title',
    closed: 'Closed.', preview: 'Dry run result', actions: 'Actions', cancel: 'Cancel', confirm: 'Confirm',
    st_awaiting_payment: 'Awaiting payment', st_paid: 'Paid', st_shipped: 'Shipped', st_delivered: 'Delivered',
    st_partially_refunded: 'Partly refunded', st_refunded: 'Refunded', st_expired: 'Expired', st_cancelled: 'Cancelled', st_failed: 'Failed',
    st_pending: 'Pending', st_approved: 'Approved', st_rejected: 'Rejected', st_preparing: 'Preparing',
    r_buyer: 'Buyer', r_seller: 'Seller', r_admin: 'Operator',
    reconciliation: 'Reconciliation, last run', reconcileOff: 'off on this server', reconcileNotYet: 'not run yet', every: 'every',
    reconcileOK: 'OK', reconcileFailed: 'Failed', paidLate: 'late payments settled', expiredCount: 'expired', unresolved: 'unresolved',
    stuckPayments: 'past their reservation:', lateParcels: 'Late parcels (paid over 2 days ago)', lateParcelsNote: 'of the latest 500 paid orders',
    periodShort: 'Month', entries: 'Entries', rf_pending: 'awaiting the PG', rf_done: 'refunded by the PG', rf_failed: 'refused by the PG',
    placedFrom: 'Placed from (KST)', placedTo: 'Placed through (KST)', placedAt: 'Placed',
    auditTrail: 'Audit trail', when: 'When (KST)', actor: 'Who', action: 'Action', target: 'Target', detail: 'Detail',
    returns: 'Returns & disputes', buyerReason: "Buyer's reason", sellerDecision: "Seller's answer", dispute: 'Dispute', ruling: 'Ruling',
    st_requested: 'Requested', st_disputed: 'Disputed', confirmApproveReturn: "Approve this return and refund the parcel's items still held?",
    confirmRuling: 'Reject the dispute? This ruling is final.', openDisputes: 'Disputes awaiting a ruling',
    nav_search: 'Search', synonyms: 'Synonyms', word: 'Word', synonym: 'Synonym', remove: 'Remove', addSynonym: 'Add synonym',
    confirmRemoveSynonym: 'Remove this synonym?', synonymRemoved: 'Synonym removed.', synonymAdded: 'Synonym added:',
    synonymThere: 'That pair is there already.', synonymsHint: 'One word of letters or digits each (up to 30). Both ways, used by every search at once.',
    explainTitle: 'Why results rank where they do', explainRun: 'Explain',
    explainHint: 'The first 10 results and what their places are made of: the score per group of terms, whole words, the phrase, then stock, units sold, bookmarks and rating break ties. = a whole word, * a prefix, ~ a forgiven typo, | a synonym.',
    rank: 'Rank', textScore: 'Text score', groups: 'Score per term group', wholeWords: 'Whole words', phrase: 'Phrase',
    unitsSold: 'Sold', bookmarks: 'Bookmarks', rating: 'Rating', soldOut: 'Sold out',
    carrierSays: 'Carrier says', cs_not_found: 'no parcel of that number', cs_in_transit: 'in transit', cs_delivered: 'delivered',
    cs_delivered_before_shipping: 'delivered before this parcel shipped (another parcel\'s number)',
  },
};

let language = localStorage.getItem('keycat-console-language') === 'en' ? 'en' : 'ko';

export const lang = () => language;
export function setLanguage(next) {
  language = next;
  localStorage.setItem('keycat-console-language', next);
  document.documentElement.lang = next;
}
export const t = (key) => words[language][key] ?? words.ko[key] ?? key;
export const status = (value) => t('st_' + value) === 'st_' + value ? value : t('st_' + value);

const wonFormat = new Intl.NumberFormat('ko-KR');
/** ₩1,234,000 */
export const won = (amount) => (amount < 0 ? '−₩' : '₩') + wonFormat.format(Math.abs(amount ?? 0));

const KST = 9 * 3600 * 1000;
const pad = (n) => String(n).padStart(2, '0');
/** An instant as `2026-11-28 14:05` in Korean time. */
export function kst(iso) {
  if (!iso) return '—';
  const d = new Date(new Date(iso).getTime() + KST);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}
/** The instant a Korean day (`YYYY-MM-DD`) begins, `2026-11-27T15:00:00.000Z`: 00:00 KST. */
export function kstDayStart(day) {
  return new Date(`${day}T00:00:00+09:00`).toISOString();
}
/** Today in Korea, `YYYY-MM-DD`. */
export function kstToday() {
  const d = new Date(Date.now() + KST);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}
