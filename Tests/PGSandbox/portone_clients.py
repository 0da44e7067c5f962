"""PortOne's own published v1 clients, installed from PyPI and used unchanged, against the sandbox.

Run by scripts/sandbox-test with KEYCAT_PG_SANDBOX_URL (the sandbox's root), KEYCAT_PG_API_KEY,
KEYCAT_PG_API_SECRET and KEYCAT_PG_SANDBOX_KEY. Each test makes its own merchant UIDs, so the
tests share one sandbox. What a test expects is what a real v1 account answers: HTTP 200 with
`code` 0 for success, HTTP 200 with `code` 1 and v1's message for a business refusal, 401/404
for a token or a lookup.
"""

import json
import os
import time
import unittest
import urllib.error
import urllib.request
import uuid

from iamport import Iamport
from iamporter import Iamporter, errors as iamporter_errors
from iamporter.api import Payments

BASE = os.environ["KEYCAT_PG_SANDBOX_URL"].rstrip("/")
KEY = os.environ["KEYCAT_PG_API_KEY"]
SECRET = os.environ["KEYCAT_PG_API_SECRET"]
SANDBOX_KEY = os.environ["KEYCAT_PG_SANDBOX_KEY"]
APPROVED = "4242-4242-4242-4242"
DECLINED = "4000-0000-0000-0002"

# Fields v1's Payment model requires, with the JSON types it gives them.
REQUIRED = {
    "imp_uid": str, "merchant_uid": str, "pay_method": str, "channel": str, "pg_provider": str,
    "escrow": bool, "card_quota": int, "amount": (int, float), "cancel_amount": (int, float),
    "currency": str, "user_agent": str, "status": str, "started_at": int, "paid_at": int,
    "failed_at": int, "cancelled_at": int, "receipt_url": str, "cash_receipt_issued": bool,
    "cancel_history": list, "cancel_receipt_urls": list, "sandbox": bool, "vbank_date": int,
    "vbank_issued_at": int,
}


def call(method, path, body=None, key=SANDBOX_KEY):
    """A sandbox call outside the v1 API (the buyer's window, the control API)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", "Bearer " + key)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def pay(merchant_uid, card=APPROVED):
    """The buyer opens the window and pays with `card`."""
    urllib.request.urlopen(BASE + "/sandbox/payments/" + merchant_uid, timeout=10).read()
    return call("POST", "/sandbox/payments/" + merchant_uid, {"card_number": card}, key=None)


def new_uid(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:12])


class IamportRestClientTests(unittest.TestCase):
    """iamport-rest-client 0.9.0: JSON bodies, the token sent bare in Authorization."""

    def setUp(self):
        self.iamport = Iamport(imp_key=KEY, imp_secret=SECRET, imp_url=BASE + "/")

    def test_token(self):
        self.assertTrue(self.iamport._get_token())

    def test_wrong_secret_is_an_http_401(self):
        wrong = Iamport(imp_key=KEY, imp_secret="not-the-secret", imp_url=BASE + "/")
        with self.assertRaises(Iamport.HttpError) as raised:
            wrong._get_token()
        self.assertEqual(raised.exception.code, 401)

    def test_prepare_and_prepare_lookup(self):
        merchant_uid = new_uid("prep")
        prepared = self.iamport.prepare(merchant_uid=merchant_uid, amount=12000)
        self.assertEqual(prepared["merchant_uid"], merchant_uid)
        self.assertEqual(prepared["amount"], 12000)
        self.assertTrue(self.iamport.prepare_validate(merchant_uid=merchant_uid, amount=12000))
        self.assertFalse(self.iamport.prepare_validate(merchant_uid=merchant_uid, amount=13000))
        # v1 registers a merchant UID once.
        with self.assertRaises(Iamport.ResponseError) as raised:
            self.iamport.prepare(merchant_uid=merchant_uid, amount=12000)
        self.assertEqual(raised.exception.code, 1)
        # Prepared is not paid: no payment until the buyer opens the window.
        with self.assertRaises(Iamport.HttpError) as missing:
            self.iamport.find(merchant_uid=merchant_uid)
        self.assertEqual(missing.exception.code, 404)

    def test_lookups_by_both_ids(self):
        merchant_uid = new_uid("find")
        self.iamport.prepare(merchant_uid=merchant_uid, amount=30000)
        paid = pay(merchant_uid)
        by_merchant = self.iamport.find(merchant_uid=merchant_uid)
        by_imp = self.iamport.find(imp_uid=paid["imp_uid"])
        self.assertEqual(by_merchant, by_imp)
        self.assertEqual(by_imp["status"], "paid")
        self.assertEqual(by_imp["amount"], 30000)
        self.assertTrue(self.iamport.is_paid(30000, merchant_uid=merchant_uid))
        self.assertFalse(self.iamport.is_paid(29000, merchant_uid=merchant_uid))
        for field, kind in REQUIRED.items():
            self.assertIsInstance(by_imp[field], kind, field)
        self.assertEqual(by_imp["currency"], "KRW")
        self.assertGreater(by_imp["paid_at"], 0)
        self.assertGreater(by_imp["started_at"], 0)
        self.assertTrue(by_imp["pg_tid"])

    def test_unknown_payments_are_http_404(self):
        with self.assertRaises(Iamport.HttpError) as raised:
            self.iamport.find(imp_uid="imp_000000000000")
        self.assertEqual(raised.exception.code, 404)
        with self.assertRaises(Iamport.HttpError):
            self.iamport.find(merchant_uid=new_uid("nothing"))

    def test_declined_card(self):
        merchant_uid = new_uid("declined")
        self.iamport.prepare(merchant_uid=merchant_uid, amount=5000)
        attempt = pay(merchant_uid, DECLINED)
        self.assertEqual(attempt["status"], "failed")
        payment = self.iamport.find(imp_uid=attempt["imp_uid"])
        self.assertEqual(payment["status"], "failed")
        self.assertTrue(payment["fail_reason"])
        self.assertGreater(payment["failed_at"], 0)
        self.assertEqual(payment["paid_at"], 0)

    def test_partial_then_full_cancel_with_checksum(self):
        merchant_uid = new_uid("cancel")
        self.iamport.prepare(merchant_uid=merchant_uid, amount=10000)
        imp_uid = pay(merchant_uid)["imp_uid"]
        partial = self.iamport.cancel("one switch", imp_uid=imp_uid, amount=3000, checksum=10000)
        self.assertEqual(partial["status"], "paid")
        self.assertEqual(partial["cancel_amount"], 3000)
        self.assertEqual(len(partial["cancel_history"]), 1)
        entry = partial["cancel_history"][0]
        self.assertEqual(entry["amount"], 3000)
        self.assertTrue(entry["pg_tid"])
        self.assertTrue(entry["cancellation_id"])
        self.assertEqual(partial["cancel_reason"], "one switch")
        # A checksum that is no longer the balance is refused the v1 way, and changes nothing.
        with self.assertRaises(Iamport.ResponseError) as stale:
            self.iamport.cancel("stale", imp_uid=imp_uid, amount=1000, checksum=10000)
        self.assertEqual(stale.exception.code, 1)
        self.assertIn("checksum", stale.exception.message)
        with self.assertRaises(Iamport.ResponseError) as too_much:
            self.iamport.cancel("too much", imp_uid=imp_uid, amount=8000, checksum=7000)
        self.assertEqual(too_much.exception.code, 1)
        rest = self.iamport.cancel("the rest", merchant_uid=merchant_uid, checksum=7000)
        self.assertEqual(rest["status"], "cancelled")
        self.assertEqual(rest["cancel_amount"], 10000)
        self.assertGreater(rest["cancelled_at"], 0)
        with self.assertRaises(Iamport.ResponseError) as again:
            self.iamport.cancel("again", imp_uid=imp_uid)
        self.assertEqual((again.exception.code, again.exception.message), (1, "이미 전액취소된 주문입니다."))

    def test_cancel_of_an_unknown_payment(self):
        # The very assertion iamport-rest-client's own test suite makes against the real v1 API.
        with self.assertRaises(Iamport.ResponseError) as raised:
            self.iamport.cancel("reason", imp_uid="nothing")
        self.assertEqual(raised.exception.code, 1)
        self.assertEqual(raised.exception.message, "취소할 결제건이 존재하지 않습니다.")


class IamporterTests(unittest.TestCase):
    """iamporter 0.2.4: form bodies, one token kept for the client's life."""

    def setUp(self):
        self.client = Iamporter(imp_key=KEY, imp_secret=SECRET, imp_url=BASE + "/")
        self.iamport = Iamport(imp_key=KEY, imp_secret=SECRET, imp_url=BASE + "/")

    def paid(self, amount):
        merchant_uid = new_uid("iamporter")
        self.iamport.prepare(merchant_uid=merchant_uid, amount=amount)
        return merchant_uid, pay(merchant_uid)["imp_uid"]

    def test_wrong_credentials(self):
        with self.assertRaises(iamporter_errors.ImpUnAuthorized):
            Iamporter(imp_key=KEY, imp_secret="not-the-secret", imp_url=BASE + "/")

    def test_find_by_both_ids(self):
        merchant_uid, imp_uid = self.paid(15000)
        by_imp = self.client.find_payment(imp_uid=imp_uid)
        by_merchant = self.client.find_payment(merchant_uid=merchant_uid)
        self.assertEqual(by_imp, by_merchant)
        self.assertEqual(by_imp["amount"], 15000)
        with self.assertRaises(iamporter_errors.ImpApiError) as raised:
            self.client.find_payment(imp_uid="imp_000000000000")
        self.assertEqual(raised.exception.response.status, 404)
        self.assertEqual(raised.exception.response.message, "존재하지 않는 결제정보입니다.")

    def test_cancel_as_a_form(self):
        merchant_uid, imp_uid = self.paid(9000)
        partial = self.client.cancel_payment(imp_uid=imp_uid, amount=4000, reason="a keycap set")
        self.assertEqual(partial["cancel_amount"], 4000)
        # A checksum sent as a form field, through the lower-level API.
        payments = Payments(self.client.imp_auth, imp_url=BASE + "/")
        stale = payments.post_cancel(imp_uid=imp_uid, amount=1000, checksum=9000, reason="stale")
        self.assertEqual((stale.status, stale.code), (200, 1))
        self.assertIsNone(stale.data)
        full = self.client.cancel_payment(merchant_uid=merchant_uid, reason="the rest")
        self.assertEqual((full["status"], full["cancel_amount"]), ("cancelled", 9000))
        with self.assertRaises(iamporter_errors.ImpApiError) as again:
            self.client.cancel_payment(imp_uid=imp_uid, reason="again")
        self.assertEqual(again.exception.response.code, 1)

    def test_cancel_of_an_unknown_payment(self):
        with self.assertRaises(iamporter_errors.ImpApiError) as raised:
            self.client.cancel_payment(imp_uid="nothing", reason="reason")
        self.assertEqual(raised.exception.response.code, 1)
        self.assertEqual(raised.exception.response.message, "취소할 결제건이 존재하지 않습니다.")

    def test_status_listings_and_find_all(self):
        started = int(time.time()) - 5
        merchant_uid, imp_uid = self.paid(7000)
        payments = Payments(self.client.imp_auth, imp_url=BASE + "/")
        listing = payments.get_status("paid", limit=100, search_from=started)
        self.assertTrue(listing.is_succeed)
        self.assertIn(imp_uid, [payment["imp_uid"] for payment in listing.data["list"]])
        self.assertGreaterEqual(listing.data["total"], 1)
        self.assertEqual(listing.data["previous"], 0)
        everything = payments.get_status("all", limit=1, sorting="-started")
        self.assertTrue(everything.is_succeed)
        self.assertEqual(len(everything.data["list"]), 1)
        wrong = payments.get_status("refunded")
        self.assertFalse(wrong.is_succeed)
        self.assertEqual(wrong.message, "지원되지 않는 상태값입니다.")
        # A declined first attempt, then a paid one: findAll lists both, find the newest.
        retried = new_uid("retried")
        self.iamport.prepare(merchant_uid=retried, amount=3000)
        pay(retried, DECLINED)
        second = pay(retried)
        all_attempts = payments.get_findall(retried)
        self.assertTrue(all_attempts.is_succeed)
        self.assertEqual([p["status"] for p in all_attempts.data["list"]], ["paid", "failed"])
        self.assertEqual(payments.get_find(retried).data["imp_uid"], second["imp_uid"])
        self.assertEqual(payments.get_find(retried, payment_status="failed").data["status"], "failed")
        self.assertEqual(payments.get_find(merchant_uid, payment_status="cancelled").status, 404)

    def test_an_expired_token_is_refused(self):
        call("POST", "/sandbox/tokens/expire")
        with self.assertRaises(iamporter_errors.ImpUnAuthorized):
            self.client.find_payment(imp_uid="imp_000000000000")


class SandboxControlTests(unittest.TestCase):
    def test_the_control_api_needs_the_sandbox_key(self):
        for key in (None, "wrong"):
            with self.assertRaises(urllib.error.HTTPError) as raised:
                call("GET", "/sandbox/test-cards", key=key)
            self.assertEqual(raised.exception.code, 401)
        cards = call("GET", "/sandbox/test-cards")["cards"]
        self.assertIn("4242424242424242", [card["number"] for card in cards])

    def test_bad_control_input_is_refused_and_changes_nothing(self):
        before = call("GET", "/sandbox/faults")
        for body in ({"seed": -1}, {"server_error_rate": True}, {"server_error_rate": 2}, {"latency_ms": "10"}):
            with self.assertRaises(urllib.error.HTTPError) as raised:
                call("PUT", "/sandbox/faults", body)
            self.assertEqual(raised.exception.code, 400, body)
        for body in ({"fault": "503", "times": 2.5}, {"fault": "503", "endpoint": 7}, {"fault": "418"}):
            with self.assertRaises(urllib.error.HTTPError) as raised:
                call("POST", "/sandbox/faults/inject", body)
            self.assertEqual(raised.exception.code, 400, body)
        hooks = call("GET", "/sandbox/webhooks")
        with self.assertRaises(urllib.error.HTTPError) as raised:
            call("PUT", "/sandbox/webhooks", {"style": "signed", "url": "ftp://example.com/"})
        self.assertEqual(raised.exception.code, 400)
        self.assertEqual(call("GET", "/sandbox/webhooks")["style"], hooks["style"])
        self.assertEqual(call("GET", "/sandbox/faults"), before)

    def test_an_injected_fault_reaches_the_client(self):
        iamport = Iamport(imp_key=KEY, imp_secret=SECRET, imp_url=BASE + "/")
        call("POST", "/sandbox/faults/inject", {"fault": "503", "endpoint": "payment"})
        with self.assertRaises(Iamport.HttpError) as raised:
            iamport.find(imp_uid="imp_000000000000")
        self.assertEqual(raised.exception.code, 503)
        with self.assertRaises(Iamport.HttpError) as after:
            iamport.find(imp_uid="imp_000000000000")
        self.assertEqual(after.exception.code, 404)


if __name__ == "__main__":
    unittest.main(verbosity=2)
