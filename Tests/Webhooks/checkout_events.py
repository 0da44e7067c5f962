#!/usr/bin/env python3
"""scripts/webhook-e2e's checkout: a buyer signs up, buys a seeded listing, pays in the PG
simulator's window and confirms, over the example server's HTTP API. Prints the order's id."""
import json
import os
import sys
import urllib.request
import uuid

BASE = os.environ["KEYCAT_TEST_SERVER_URL"]


def call(method, path, body=None, token=None, headers=None):
    request = urllib.request.Request(BASE + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return json.loads(text) if text else None


def main():
    run = uuid.uuid4().hex[:8]
    email = f"webhooks.{run}@example.com"
    call("POST", "/users", {"email": email, "password": "keycat123", "nick": "hooks"})
    token = call("POST", "/sessions", {"email": email, "password": "keycat123"})["access_token"]
    products = call("GET", "/products?limit=20")["items"]
    product = next(item for item in products if item["stock"] > 0)
    call("POST", "/cart/items", {"product_id": product["id"], "quantity": 1}, token)
    order = call("POST", "/checkout", {}, token, {"idempotency-key": f"webhooks-{run}"})
    paid = call("POST", f"/pg/payments/{order['merchant_uid']}", {"card_number": "4242 4242 4242 4242"})
    order = call("POST", f"/orders/{order['id']}/confirm", {"imp_uid": paid["imp_uid"]}, token)
    if order["status"] != "paid":
        sys.exit(f"checkout-events: the order is {order['status']}, not paid")
    print(order["id"])


if __name__ == "__main__":
    main()
