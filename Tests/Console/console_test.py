"""The admin console in a real browser (Debian's chromium driven by Playwright), against the
example server scripts/console-test starts.

An operator signs in with the keyboard alone, sees the dashboard and its chart, approves a
seller application (the keyboard alone), finds a paid order, refunds one of its parcels (the
keyboard alone) and sees the order and the dashboard change; upholds a buyer's dispute of a
seller's rejected return; works through users, settlements and listings; a buyer is refused; a
tampered CSRF token is refused. axe-core checks every page for serious or critical violations,
no page logs a console error, and the pages fit 1280 and 390 pixels. Cold loads of the
dashboard are measured (first paint, dashboard drawn, bytes transferred; the median of three)
and printed; with
KEYCAT_CONSOLE_SCREENSHOTS=DIR the screenshots docs/admin-console.md shows are written there.

Environment: KEYCAT_TEST_SERVER_URL and the operator's credentials (scripts/test-server's
exports), CHROMIUM (default /usr/bin/chromium).
"""

import datetime
import json
import os
import socket
import subprocess
import tempfile
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect, sync_playwright

BASE = os.environ["KEYCAT_TEST_SERVER_URL"]
OPERATOR = (os.environ["KEYCAT_TEST_OPERATOR_EMAIL"], os.environ["KEYCAT_TEST_OPERATOR_PASSWORD"])
SHOTS = os.environ.get("KEYCAT_CONSOLE_SCREENSHOTS")
RUN = uuid.uuid4().hex[:8]
# The page in use, whose text a failure prints.
CURRENT = {}
# Budgets from the issue: over loopback, a cold dashboard paints within 500 ms and moves < 300 KB.
FIRST_PAINT_BUDGET_MS = 500
TRANSFER_BUDGET_BYTES = 300 * 1024


def http(method, path, body=None, token=None, headers=None):
    """One request to the API; returns (status, parsed JSON or None)."""
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"  ok: {what}")


def sign_up(name):
    email = f"{name}-{RUN}@example.com"
    status, _ = http("POST", "/users", {"email": email, "password": "keycat-console-1", "nick": f"{name[:8]}{RUN[:6]}"})
    check(status == 201, f"{name} signs up")
    status, pair = http("POST", "/sessions", {"email": email, "password": "keycat-console-1"})
    return email, pair["access_token"]


def prepare():
    """Over HTTP, what the console will work on: a pending seller application and a paid order."""
    print("the shop's day so far, over the API")
    # The national tax service's answer for the applicant's business, as keycat-admin loads it.
    with tempfile.NamedTemporaryFile("w", suffix=".csv") as registry:
        registry.write("2208162517,01\n")
        registry.flush()
        subprocess.run([os.environ["KEYCAT_TEST_ADMIN"], "sellers", "registry", registry.name], check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "KEYCAT_DB": os.environ["KEYCAT_TEST_SERVER_DB"]})
    _, applicant = sign_up("applicant")
    status, application = http("POST", "/seller-applications", {
        "business_number": "2208162517", "representative_name": "김키캣", "opening_date": "2021-04-01"}, token=applicant)
    check(status == 201 and application["status"] == "pending", "a buyer applies to sell")
    buyer_email, buyer = sign_up("buyer")
    status, page = http("GET", "/products?limit=20&sort=newest")
    products = [p for p in page["items"] if p.get("stock", 0) > 2][:2]
    for product in products:
        status, _ = http("POST", "/cart/items", {"product_id": product["id"], "quantity": 1}, token=buyer)
        check(status in (200, 201), f"the buyer puts product {product['id']} in the cart")
    status, order = http("POST", "/checkout", {}, token=buyer, headers={"Idempotency-Key": f"console-{RUN}"})
    check(status == 201, "checkout makes an order")
    status, paid = http("POST", f"/pg/payments/{order['merchant_uid']}", {"card_number": "4242 4242 4242 4242"})
    check(status == 200, "the buyer pays in the PG's window")
    status, order = http("POST", f"/orders/{order['id']}/confirm", {"imp_uid": paid["imp_uid"]}, token=buyer)
    check(status == 200 and order["status"] == "paid", "the order is paid")
    return {"application": application["id"], "order": order, "buyer_email": buyer_email,
            "buyer_nick": f"buyer{RUN[:6]}", **prepare_dispute()}


def session(email, password):
    """A fresh access token (they live 4 seconds in this run)."""
    status, pair = http("POST", "/sessions", {"email": email, "password": password})
    check(status == 201 or status == 200, f"{email} signs in")
    return pair["access_token"]


def prepare_dispute():
    """A seller's listing bought, delivered, its return rejected by the seller and the rejection
    disputed by the buyer: what waits in the operators' queue of disputes."""
    seller = (os.environ["KEYCAT_TEST_SELLER_EMAIL"], os.environ["KEYCAT_TEST_SELLER_PASSWORD"])
    status, product = http("POST", "/products", {
        "kind": "commercial", "category": "keycap", "title": f"분쟁 키캡 {RUN[:6]}", "content": "PBT 더블샷, 체리 프로파일.",
        "regular_price": 30_000, "price": 25_000, "delivery_fee": 3_000, "delivery_schedule": "next_day", "stock": 5},
        token=session(*seller))
    check(status == 201, "a seller lists keycaps")
    email, buyer = sign_up("disputer")
    http("POST", "/cart/items", {"product_id": product["id"], "quantity": 1}, token=buyer)
    status, order = http("POST", "/checkout", {}, token=buyer, headers={"Idempotency-Key": f"console-dispute-{RUN}"})
    check(status == 201, "another buyer checks them out")
    status, paid = http("POST", f"/pg/payments/{order['merchant_uid']}", {"card_number": "4242 4242 4242 4242"})
    status, order = http("POST", f"/orders/{order['id']}/confirm", {"imp_uid": paid["imp_uid"]}, token=session(email, "keycat-console-1"))
    check(status == 200, "and pays")
    parcel = order["shipments"][0]["id"]
    token = session(*seller)
    http("POST", f"/shipments/{parcel}/ship", {"carrier": "cj", "tracking_number": "553120261125"}, token=token)
    status, _ = http("POST", f"/shipments/{parcel}/deliver", token=token)
    check(status == 200, "the seller ships and marks the parcel delivered")
    status, request = http("POST", f"/shipments/{parcel}/returns", {"reason": "빈 상자가 왔어요"}, token=session(email, "keycat-console-1"))
    check(status == 201, "the buyer asks to return it")
    status, _ = http("POST", f"/returns/{request['id']}/reject", {"reason": "정상 발송했습니다"}, token=session(*seller))
    check(status == 200, "the seller rejects the return")
    status, disputed = http("POST", f"/returns/{request['id']}/dispute", {"reason": "송장 조회가 안 돼요"},
                            token=session(email, "keycat-console-1"))
    check(status == 200 and disputed["status"] == "disputed", "the buyer disputes the rejection")
    return {"dispute": request["id"], "dispute_order": order["id"], "dispute_buyer": email, "dispute_price": 25_000}


class Console:
    """One browser page on the console, collecting console errors and axe's findings."""

    def __init__(self, browser, width=1280, height=860):
        self.context = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR",
                                           timezone_id="America/Los_Angeles")
        self.page = self.context.new_page()
        self.context.set_default_timeout(10_000)
        CURRENT["page"] = self.page
        self.errors = []
        self.expected = []
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.axe = Axe()

    def no_errors(self, where):
        unexpected = [e for e in self.errors if not any(allowed in e for allowed in self.expected)]
        check(not unexpected, f"no console errors on {where} {unexpected if unexpected else ''}")
        self.errors.clear()

    def accessible(self, where):
        results = self.axe.run(self.page)
        bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
        check(not bad, f"axe: no serious or critical violation on {where} "
                       f"{[(v['id'], v['impact'], [n['target'] for n in v['nodes']][:3]) for v in bad]}")

    def fits(self, where):
        overflow = self.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, f"{where} fits {self.page.viewport_size['width']} px (overflow {overflow} px)")

    def tab_to(self, description, test, limit=150):
        """Presses Tab until the focused element passes `test` (JavaScript over `e`, the element)."""
        for _ in range(limit):
            self.page.keyboard.press("Tab")
            if self.page.evaluate(f"(() => {{ const e = document.activeElement; return Boolean({test}); }})()"):
                return
        raise AssertionError(f"Tab never reached {description}")

    def open(self, menu):
        """Follows a menu link and waits for its view's heading (not the last view's table)."""
        self.page.get_by_role("link", name=menu, exact=True).click()
        expect(self.page.get_by_role("heading", name=menu, exact=True, level=1)).to_be_visible()

    def shot(self, name):
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            self.page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=False)

    def sign_in_with_keyboard(self, email, password, before=None):
        page = self.page
        page.goto(BASE + "/admin/")
        expect(page.get_by_role("heading", name="운영자 로그인")).to_be_visible()
        if before:
            before()
        # The email field has focus; Tab to the password and Enter submits.
        page.keyboard.type(email)
        page.keyboard.press("Tab")
        page.keyboard.type(password)
        page.keyboard.press("Enter")


# A password change through the console's API path: its answer would hold tokens.
TOKEN_ROUTE_PROBE = """async () => {
    const csrf = document.cookie.match(/keycat_admin_csrf=([^;]+)/)[1];
    const response = await fetch('/admin/api/me/password', { method: 'PUT',
        headers: { 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
        body: JSON.stringify({ current_password: 'wrong-password-1', new_password: 'another-password-2' }) });
    return { status: response.status, body: await response.json() };
}"""


def measure_cold_dashboard(browser):
    """A cold load of the dashboard: signed in, the browser's cache emptied and turned off, then
    the page loaded anew; first paint, the dashboard drawn (its chart in the page), and every
    byte the load moved."""
    console = Console(browser)
    console.sign_in_with_keyboard(*OPERATOR)
    page = console.page
    page.wait_for_selector("svg.chart rect.bar", state="attached")
    cdp = console.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.clearBrowserCache")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    page.goto("about:blank")
    page.goto(BASE + "/admin/#/dashboard")
    page.wait_for_selector("svg.chart rect.bar", state="attached")
    drawn = page.evaluate("performance.now()")
    page.wait_for_load_state("networkidle")
    figures = page.evaluate("""() => {
        const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')
            ?? performance.getEntriesByType('paint')[0];
        const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
        return { firstPaint: paint ? paint.startTime : null, transfer: entries.reduce((sum, e) => sum + (e.transferSize || 0), 0),
                 requests: entries.length };
    }""")
    console.no_errors("the cold dashboard")
    console.context.close()
    figures["drawn"] = drawn
    return figures


def refused_before_the_body():
    """A change that carries a CSRF cookie and header of its own making, and no session, is
    refused on its head: the console neither waits for nor buffers the 2 MB it announces."""
    url = urllib.parse.urlparse(BASE)
    head = b""
    with socket.create_connection((url.hostname, url.port or 80), timeout=15) as connection:
        connection.sendall(b"POST /admin/api/users/1/suspend HTTP/1.1\r\nHost: console\r\n"
                           b"Cookie: keycat_admin_csrf=forged\r\nX-CSRF-Token: forged\r\n"
                           b"Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n")
        try:
            head = connection.recv(4096)
        except socket.timeout:
            pass
    check(head.startswith(b"HTTP/1.1 401"), "a change without a session is 401 before its body is sent")


def main():
    facts = prepare()
    refused_before_the_body()
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-dev-shm-usage"])
        try:
            day(browser, facts)
        except Exception:
            page = CURRENT.get("page")
            if page is not None and not page.is_closed():
                print("console: the page's text:\n" + page.inner_text("body")[:3000], file=sys.stderr)
            raise
        browser.close()
    print("console: every check passed")


def day(browser, facts):
    """The operator's day in the browser, checked step by step."""
    order = facts["order"]
    if True:

        print("an operator signs in with the keyboard alone")
        console = Console(browser)
        page = console.page
        csrf_before = {}

        def before_sign_in():
            console.accessible("the sign-in page")
            csrf_before.update({c["name"]: c["value"] for c in console.context.cookies()})
        console.sign_in_with_keyboard(*OPERATOR, before=before_sign_in)
        expect(page.get_by_role("heading", name="대시보드")).to_be_visible()
        expect(page.locator("svg.chart")).to_be_visible()
        check(page.locator("svg.chart rect.bar").count() == 30, "the chart has a bar for each of 30 days")
        expect(page.locator(".card", has_text="발송 지연").locator(".figure")).to_have_text("0")
        expect(page.locator(".card", has_text="판정 기다리는 분쟁").locator(".figure")).to_have_text("1")
        expect(page.locator(".card", has_text="대사(reconciliation)")).to_contain_text("정상", timeout=15_000)
        check(page.locator("details table tbody tr").count() == 30, "the chart's data table has 30 days")
        cookies = {c["name"]: c for c in console.context.cookies()}
        check(cookies["keycat_admin_access"]["httpOnly"] and cookies["keycat_admin_refresh"]["httpOnly"],
              "the tokens live in HttpOnly cookies")
        check(cookies["keycat_admin_access"]["sameSite"] == "Strict", "SameSite=Strict")
        check(csrf_before.get("keycat_admin_csrf") not in (None, cookies["keycat_admin_csrf"]["value"]),
              "signing in renews the CSRF token")
        device = cookies.get("keycat_admin_device")
        check(device is not None and device["httpOnly"] and device["path"] == "/admin/session",
              "the log-in's device token is kept, HttpOnly, for later sign-ins only")
        check(page.evaluate("Object.keys(localStorage).every((k) => !/token/i.test(localStorage.getItem(k)))")
              and "eyJ" not in page.evaluate("document.cookie"), "no token is readable by the page")
        console.accessible("the dashboard")
        console.fits("the dashboard")
        console.no_errors("the dashboard")
        console.shot("dashboard")

        print("seller applications: approve one, with the keyboard alone")
        page.locator("body").focus()
        console.tab_to("the menu's 판매자 신청", "e.matches('nav a') && e.textContent === '판매자 신청'")
        page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="판매자 신청", level=1)).to_be_visible()
        row = page.locator("tr", has=page.get_by_role("cell", name=str(facts["application"]), exact=True))
        console.tab_to("승인 on the application's row",
                       f"e.textContent === '승인' && e.closest('tr')?.cells[0].textContent === '{facts['application']}'")
        page.keyboard.press("Enter")
        expect(row.locator(".badge")).to_have_text("승인")
        check(http("GET", f"/seller-applications/{facts['application']}",
                   token=http("POST", "/sessions", {"email": OPERATOR[0], "password": OPERATOR[1]})[1]["access_token"])[1]["status"]
              == "approved", "the API has it approved")
        console.accessible("seller applications")
        console.no_errors("seller applications")

        print("orders: find the paid order, refund one parcel")
        console.open("주문")
        page.get_by_label("상태").select_option("paid")
        page.get_by_role("button", name="검색").click()
        link = page.get_by_role("link", name=f"#{order['id']}", exact=True)
        expect(link).to_be_visible()
        print("  by seller and by the day it was placed (KST), filtered by the API")
        seller = str(order["shipments"][-1]["seller_id"])
        today = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=9))).date()
        page.get_by_label("판매자 ID").fill(seller)
        page.get_by_label("주문일 부터 (KST)").fill(today.isoformat())
        page.get_by_label("주문일 까지 (KST)").fill(today.isoformat())
        page.get_by_role("button", name="검색").click()
        expect(link).to_be_visible()
        check(True, f"the paid order is among seller {seller}'s orders placed today (KST)")
        page.get_by_label("주문일 부터 (KST)").fill((today + datetime.timedelta(days=1)).isoformat())
        page.get_by_label("주문일 까지 (KST)").fill((today + datetime.timedelta(days=1)).isoformat())
        page.get_by_role("button", name="검색").click()
        expect(page.locator("table tbody")).to_have_text("항목이 없습니다.")
        check(True, "none placed tomorrow")
        page.get_by_label("주문일 부터 (KST)").fill("")
        page.get_by_label("주문일 까지 (KST)").fill("")
        page.get_by_label("판매자 ID").fill("999999")
        page.get_by_role("button", name="검색").click()
        expect(page.locator("table tbody")).to_have_text("항목이 없습니다.")
        check(True, "an unknown seller has none")
        page.get_by_label("판매자 ID").fill(seller)
        page.get_by_role("button", name="검색").click()
        expect(link).to_be_visible()
        console.accessible("the orders queue")
        link.click()
        expect(page.locator("#order-status")).to_have_text("결제 완료")
        console.accessible("an order")
        console.fits("an order")
        console.shot("order")
        section = page.locator("section.parcel").first
        print("  a refund the API refuses: its message shown, the form kept")
        section.get_by_label("금액").fill("0")
        section.get_by_label("사유").fill("콘솔 테스트: 부분 환불")
        console.expected.append("status of 400")  # the browser logs the refused request itself
        section.get_by_role("button", name="이 묶음 환불").click()
        expect(section.get_by_role("alert")).to_contain_text("a refund amount is positive (validation)")
        expect(section.get_by_label("사유")).to_have_value("콘솔 테스트: 부분 환불")
        console.no_errors("the refused refund")
        console.expected.remove("status of 400")
        refund = 1000
        print("  the refund itself with the keyboard alone")
        section.get_by_label("금액").fill("")
        section.get_by_label("사유").fill("")
        page.locator("#order-status").click()  # focus back at the top of the order
        console.tab_to("the first parcel's amount", "e.name === 'amount' && e.closest('section.parcel') === document.querySelector('section.parcel')")
        page.keyboard.type(str(refund))
        console.tab_to("its reason", "e.name === 'reason'")
        page.keyboard.type("콘솔 테스트: 부분 환불")
        console.tab_to("its refund button", "e.textContent === '이 묶음 환불'")
        page.keyboard.press("Enter")
        expect(section.locator(".notice")).to_contain_text(f"환불되었습니다. PG 응답: ₩{refund:,} PG 환불 완료")
        expect(page.locator("#order-status")).to_have_text("부분 환불", timeout=10_000)
        expect(page.locator("#refunded-amount")).to_have_text(f"₩{refund:,}")
        expect(page.get_by_role("region", name="감사 기록").get_by_role("cell", name="shipment.refund")).to_be_visible()
        console.no_errors("the order")

        print("the dashboard shows the refund")
        console.open("대시보드")
        expect(page.locator(".card", has_text="30일 환불").locator(".figure")).to_have_text(f"₩{refund:,}")
        console.no_errors("the dashboard after the refund")

        print("the disputed parcel's page shows what its carrier says (the server tracks with simulated carriers)")
        buyer = session(facts["dispute_buyer"], "keycat-console-1")
        deadline = time.monotonic() + 20
        while True:
            _, seen = http("GET", f"/orders/{facts['dispute_order']}", token=buyer)
            if seen["shipments"][0].get("carrier_status") or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        check(seen["shipments"][0].get("carrier_status") == "not_found", "reconciliation asked the carrier, who knows no such number")
        page.goto(BASE + f"/admin/#/orders/{facts['dispute_order']}")
        expect(page.locator(".carrier-says")).to_have_text("택배사 조회: 조회 안 되는 송장번호")
        console.no_errors("the disputed parcel's order")

        print("returns and disputes: uphold a buyer's dispute of a seller's rejection")
        console.open("반품·분쟁")
        row = page.locator("tr", has=page.get_by_role("cell", name=str(facts["dispute"]), exact=True))
        expect(row.locator(".badge")).to_have_text("분쟁")
        expect(row).to_contain_text("정상 발송했습니다")
        expect(row).to_contain_text("송장 조회가 안 돼요")
        console.accessible("returns and disputes")
        console.shot("returns")
        row.get_by_label("재고 복구").check()
        page.once("dialog", lambda dialog: dialog.accept())
        row.get_by_role("button", name="승인").click()
        expect(row.locator(".badge")).to_have_text("승인")
        buyer = session(facts["dispute_buyer"], "keycat-console-1")
        _, requests = http("GET", f"/orders/{facts['dispute_order']}/returns", token=buyer)
        ruled = requests["items"][0]
        check(ruled["status"] == "approved" and ruled["ruled_at"] and ruled["refunded_at"], "the API has the dispute upheld and refunded")
        _, disputed_order = http("GET", f"/orders/{facts['dispute_order']}", token=buyer)
        check(disputed_order["refunded_amount"] == facts["dispute_price"], "the buyer has the keycaps' price back")
        console.no_errors("returns and disputes")
        console.open("대시보드")
        expect(page.locator(".card", has_text="판정 기다리는 분쟁").locator(".figure")).to_have_text("0")

        print("search: a synonym added in the browser finds listings at once, explained, then removed")
        query = urllib.parse.quote("노리")
        check(http("GET", f"/products?q={query}")[1]["items"] == [], "no listing says 노리 before the synonym")
        console.open("검색 관리")
        page.get_by_label("단어").fill("노리")
        page.get_by_label("같은 말").fill("Nori")
        page.get_by_role("button", name="동의어 추가").click()
        pair = page.get_by_role("region", name="동의어").locator("tr", has=page.get_by_role("cell", name="노리", exact=True))
        expect(pair.get_by_role("cell", name="nori", exact=True)).to_be_visible()
        found = http("GET", f"/products?q={query}")[1]["items"]
        check(found and all("Nori" in item["title"] for item in found), f"노리 finds the {len(found)} Nori listings over the API at once")
        page.get_by_label("검색어").fill("노리 키보드")
        page.get_by_role("button", name="설명 보기").click()
        explained = page.get_by_role("region", name="검색 순위 설명: 노리 키보드")
        expect(explained.locator("tbody tr").first).to_contain_text("Nori")
        expect(explained.locator("code", has_text="nori*")).not_to_have_count(0)
        console.accessible("search")
        console.shot("search")
        page.once("dialog", lambda dialog: dialog.accept())
        pair.get_by_role("button", name="삭제").click()
        expect(page.locator("#live")).to_contain_text("동의어를 지웠습니다")
        expect(pair).to_have_count(0)
        check(http("GET", f"/products?q={query}")[1]["items"] == [], "removed, 노리 finds nothing again")
        console.no_errors("search")

        print("users, settlements, listings")
        console.open("회원")
        expect(page.locator("table tbody tr").first).to_be_visible()
        page.get_by_label("이메일 또는 닉네임").fill(facts["buyer_email"].upper())
        page.get_by_label("이메일 또는 닉네임").press("Enter")
        visible = page.locator("table tbody tr:not([hidden])")
        expect(visible).to_have_count(1)
        expect(visible.get_by_role("cell", name=facts["buyer_email"])).to_be_visible()
        check(True, "an operator finds a user by email")
        page.get_by_label("이메일 또는 닉네임").fill(facts["buyer_nick"][2:].upper())
        page.get_by_label("이메일 또는 닉네임").press("Enter")
        expect(visible).to_have_count(1)
        expect(visible.get_by_role("cell", name=facts["buyer_nick"], exact=True)).to_be_visible()
        check(True, "and by part of a nick, in another case, searched by the API")
        page.once("dialog", lambda dialog: dialog.accept())
        visible.get_by_role("button", name="정지", exact=True).click()
        expect(visible.locator(".badge")).to_have_text("정지됨")
        page.once("dialog", lambda dialog: dialog.accept())
        visible.get_by_role("button", name="정지 해제").click()
        expect(visible.locator(".badge")).to_have_text("정상")
        console.accessible("users")
        console.open("정산")
        page.get_by_role("button", name="미리 보기").click()
        expect(page.get_by_role("link", name="CSV 내려받기")).to_be_visible()
        page.get_by_label("정산 월 (YYYY-MM)").fill("2020-01")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="마감").click()
        expect(page.get_by_role("region", name="미리 보기 결과")).to_contain_text("마감했습니다. 2020-01")
        console.accessible("settlements")
        console.open("상품")
        listing = page.locator("table tbody tr").first
        expect(listing).to_be_visible()
        listing_id = listing.locator("td").first.inner_text()
        page.once("dialog", lambda dialog: dialog.accept())
        listing.get_by_role("button", name="판매 중지").click()
        expect(page.locator("#live")).to_contain_text("상품을 내렸습니다")
        check(http("GET", f"/products/{listing_id}")[0] == 404, f"listing {listing_id} is withdrawn")
        console.accessible("listings")
        console.no_errors("users, settlements and listings")

        print("a tampered CSRF token is refused")
        console.expected.append("403")
        answer = page.evaluate("""async () => {
            const response = await fetch('/admin/api/users/1/suspend', { method: 'POST', headers: { 'X-CSRF-Token': 'tampered' } });
            return { status: response.status, body: await response.json() };
        }""")
        check(answer["status"] == 403 and answer["body"]["code"] == "csrf", "a change with a tampered CSRF token is 403 csrf")
        answer = page.evaluate("""async () => {
            const response = await fetch('/admin/api/users/1/suspend', { method: 'POST' });
            return { status: response.status, body: await response.json() };
        }""")
        check(answer["status"] == 403 and answer["body"]["code"] == "csrf", "a change without a CSRF token is 403 csrf")
        console.expected.append("404")
        answer = page.evaluate(TOKEN_ROUTE_PROBE)
        check(answer["status"] == 404 and answer["body"]["code"] == "route_not_found",
              "routes that answer with tokens are not forwarded to the page")

        print("English, and 390 px wide")
        page.get_by_role("button", name="English").click()
        expect(page.get_by_role("link", name="Dashboard")).to_be_visible()
        page.get_by_role("button", name="한국어").click()
        storage = console.context.storage_state()  # the session's cookies as they are now
        console.context.close()
        narrow = Console(browser, width=390, height=844)
        narrow.context.add_cookies(storage["cookies"])
        narrow.page.goto(BASE + "/admin/#/dashboard")
        expect(narrow.page.locator("svg.chart")).to_be_visible()
        narrow.fits("the dashboard")
        narrow.accessible("the dashboard at 390 px")
        narrow.shot("dashboard-390")
        narrow.page.goto(BASE + f"/admin/#/orders/{order['id']}")
        expect(narrow.page.locator("#order-status")).to_be_visible()
        narrow.fits("an order")
        narrow.no_errors("390 px")
        narrow.context.close()

        print("a buyer is refused")
        refused = Console(browser)
        refused.expected.append("403")
        refused.sign_in_with_keyboard(facts["buyer_email"], "keycat-console-1")
        expect(refused.page.get_by_role("alert")).to_contain_text("운영자 계정만")
        expect(refused.page.locator("#nav")).to_be_hidden()
        check(not any(c["name"] == "keycat_admin_access" for c in refused.context.cookies()), "the buyer gets no session")
        # A buyer who puts an API token of theirs in the console's cookie reaches no operator data.
        _, pair = http("POST", "/sessions", {"email": facts["buyer_email"], "password": "keycat-console-1"})
        refused.context.add_cookies([{"name": "keycat_admin_access", "value": pair["access_token"], "url": BASE + "/admin/"}])
        status = refused.page.evaluate("fetch('/admin/reconciliation').then((r) => r.status)")
        check(status == 403, f"a buyer's token is refused the reconciliation status ({status})")
        refused.accessible("the refused sign-in")
        refused.shot("refused")
        refused.no_errors("the refused sign-in")
        refused.context.close()

        print("a cold load of the dashboard")
        measure_cold_dashboard(browser)  # the server's own first answers warm up
        # The median of three cold loads: the machine is shared, and one load can meet another's build.
        loads = sorted((measure_cold_dashboard(browser) for _ in range(3)), key=lambda load: load["firstPaint"] or 1e9)
        for load in loads:
            print(f"  first paint {load['firstPaint']:.0f} ms, dashboard drawn {load['drawn']:.0f} ms, "
                  f"{load['transfer']} bytes in {load['requests']} requests")
        figures = loads[1]
        check(figures["firstPaint"] is not None and figures["firstPaint"] <= FIRST_PAINT_BUDGET_MS,
              f"first paint within {FIRST_PAINT_BUDGET_MS} ms")
        check(figures["drawn"] <= FIRST_PAINT_BUDGET_MS * 2, "the dashboard drawn within a second")
        check(figures["transfer"] < TRANSFER_BUDGET_BYTES, "under 300 KB transferred")
        with open(os.environ.get("KEYCAT_CONSOLE_FIGURES", "/dev/null"), "w") as out:
            json.dump(figures, out)


if __name__ == "__main__":
    started = time.time()
    try:
        main()
    except Exception as failure:  # an assertion, or Playwright's timeout waiting for something
        print(f"console: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print(f"console: {time.time() - started:.1f} s")
