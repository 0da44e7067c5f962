"""A shop's payment day over real HTTP, with KeyCat's example server talking to the PG sandbox as
it would to PortOne v1 (KEYCAT_PG_URL): checkout, the buyer pays in the sandbox's window, the
sandbox's unsigned v1 webhook settles the order, confirm, a partial refund, and reconciliation
settling an order whose webhook never came and whose buyer never confirmed.

Run by scripts/sandbox-test with the server's exports (KEYCAT_TEST_SERVER_URL, the accounts) and
the sandbox's (KEYCAT_PG_SANDBOX_URL, KEYCAT_PG_API_KEY, KEYCAT_PG_API_SECRET,
KEYCAT_PG_SANDBOX_KEY).
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

from iamport import Iamport

SERVER = os.environ["KEYCAT_TEST_SERVER_URL"].rstrip("/")
SANDBOX = os.environ["KEYCAT_PG_SANDBOX_URL"].rstrip("/")
SANDBOX_KEY = os.environ["KEYCAT_PG_SANDBOX_KEY"]
PORTONE = Iamport(imp_key=os.environ["KEYCAT_PG_API_KEY"], imp_secret=os.environ["KEYCAT_PG_API_SECRET"], imp_url=SANDBOX + "/")


def request(method, url, body=None, token=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(url, data=data, method=method)
    call.add_header("Content-Type", "application/json")
    if token:
        call.add_header("Authorization", "Bearer " + token)
    for name, value in (headers or {}).items():
        call.add_header(name, value)
    try:
        with urllib.request.urlopen(call, timeout=15) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


def expect(condition, what):
    if not condition:
        print("FAILED:", what, file=sys.stderr)
        sys.exit(1)
    print("  ok:", what)


def log_in(email, password):
    status, body = request("POST", SERVER + "/sessions", {"email": email, "password": password})
    expect(status == 200, "log in " + email)
    return body["access_token"]


def eventually(read, done, what, seconds=20):
    deadline = time.time() + seconds
    value = read()
    while not done(value) and time.time() < deadline:
        time.sleep(0.2)
        value = read()
    expect(done(value), what)
    return value


def checkout(buyer, product_id, quantity):
    status, _ = request("POST", SERVER + "/cart/items", {"product_id": product_id, "quantity": quantity}, buyer)
    expect(status in (200, 201), "the cart takes %d" % quantity)
    status, order = request("POST", SERVER + "/checkout", {}, buyer, {"Idempotency-Key": uuid.uuid4().hex})
    expect(status == 201 and order["status"] == "awaiting_payment", "checkout makes an order awaiting payment")
    return order


def pay_in_window(order):
    with urllib.request.urlopen(SANDBOX + "/sandbox/payments/" + order["merchant_uid"], timeout=10) as page:
        expect(page.status == 200, "the buyer opens the sandbox's payment window")
    status, paid = request("POST", SANDBOX + "/sandbox/payments/" + order["merchant_uid"], {"card_number": "4242 4242 4242 4242"})
    expect(status == 200 and paid["status"] == "paid", "the test card pays")
    return paid


def main():
    run = uuid.uuid4().hex[:8]
    # The sandbox notifies the server the v1 way: unsigned, to /webhooks/pg.
    status, hooks = request("PUT", SANDBOX + "/sandbox/webhooks", {"url": SERVER + "/webhooks/pg", "style": "v1"}, SANDBOX_KEY)
    expect(status == 200 and hooks["style"] == "v1", "webhooks go to the server, unsigned")

    seller = log_in(os.environ["KEYCAT_TEST_SELLER_EMAIL"], os.environ["KEYCAT_TEST_SELLER_PASSWORD"])
    status, product = request("POST", SERVER + "/products", {
        "kind": "commercial", "category": "keyboard", "title": "Sandbox 75%% %s" % run, "content": "알루미늄 하우징.",
        "regular_price": 60000, "price": 50000, "delivery_fee": 3000, "delivery_schedule": "next_day", "stock": 5}, seller)
    expect(status == 201, "a seller lists a keyboard")
    email = "sandbox.%s@example.com" % run
    status, _ = request("POST", SERVER + "/users", {"email": email, "password": "keycat123", "nick": "sandbox"})
    expect(status == 201, "a buyer signs up")
    buyer = log_in(email, "keycat123")

    print("checkout: KeyCat prepares the amount at the PG")
    order = checkout(buyer, product["id"], 2)
    expect(PORTONE.prepare_validate(merchant_uid=order["merchant_uid"], amount=order["amount"]),
           "the sandbox holds the prepared amount (read with PortOne's own client)")

    print("pay in the window; the v1 webhook settles the order before any confirm")
    # Reconciliation's listing of paid payments fails meanwhile, so only the webhook can pay it.
    status, _ = request("POST", SANDBOX + "/sandbox/faults/inject", {"fault": "503", "endpoint": "paymentsByStatus", "times": 1000},
                        SANDBOX_KEY)
    expect(status == 200, "the PG's listing is down for a while")
    paid = pay_in_window(order)
    eventually(lambda: request("GET", SERVER + "/orders/%d" % order["id"], token=buyer)[1],
               lambda body: body["status"] == "paid", "the unsigned notification, re-read from the PG, pays the order")
    request("DELETE", SANDBOX + "/sandbox/faults/inject", token=SANDBOX_KEY)
    status, confirmed = request("POST", SERVER + "/orders/%d/confirm" % order["id"], {"imp_uid": paid["imp_uid"]}, buyer)
    expect(status == 200 and confirmed["status"] == "paid", "the buyer's confirm after the webhook answers the paid order")

    print("a partial refund reaches the PG")
    operator = log_in(os.environ["KEYCAT_TEST_OPERATOR_EMAIL"], os.environ["KEYCAT_TEST_OPERATOR_PASSWORD"])
    status, refunded = request("POST", SERVER + "/orders/%d/refund" % order["id"], {"amount": 20000, "reason": "a stabilizer rattles"},
                               operator, {"Idempotency-Key": "refund-" + run})
    expect(status == 200 and refunded["status"] == "partially_refunded", "the order is partially refunded")
    at_pg = PORTONE.find(imp_uid=paid["imp_uid"])
    expect(at_pg["cancel_amount"] == 20000 and at_pg["status"] == "paid", "the PG shows the partial cancel")
    expect(at_pg["cancel_history"][0]["reason"] == "a stabilizer rattles", "with its reason")

    print("an order paid while webhooks are lost, never confirmed: reconciliation settles it")
    request("PUT", SANDBOX + "/sandbox/webhooks", {"url": None, "style": "v1"}, SANDBOX_KEY)
    second = checkout(buyer, product["id"], 1)
    pay_in_window(second)
    eventually(lambda: request("GET", SERVER + "/orders/%d" % second["id"], token=buyer)[1],
               lambda body: body["status"] == "paid", "reconciliation finds the payment in the PG's listing and settles the order",
               seconds=30)
    print("the sandbox journey passed")


if __name__ == "__main__":
    main()
