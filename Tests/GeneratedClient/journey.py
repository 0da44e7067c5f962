"""A shop's day through clients generated from openapi.yaml by two third-party generators.

`openapi-python-client` generates the client that drives the journey: its typed functions build
every request and parse every answer into its models, so a status, field or type the document
does not promise fails here (the client raises on an undocumented status). Every answer body is
then parsed again by the pydantic models `datamodel-code-generator` generated from the same
document (required fields, types, enums and ranges). Neither generator's code was written for KeyCat.

Run by scripts/generated-client against the example server (KEYCAT_TEST_SERVER_URL, and the
operator and seller accounts scripts/test-server made).
"""
import json
import os
import sys
import time
import uuid

import httpx

from keycat_client import AuthenticatedClient, Client
from keycat_client.api.accounts import get_me, post_sessions, post_sessions_refresh, post_users
from keycat_client.api.bookmarks import get_me_bookmarks, put_products_by_id_bookmark
from keycat_client.api.cart import get_cart, post_cart_items
from keycat_client.api.checkout import post_checkout, post_orders_by_id_confirm
from keycat_client.api.fulfilment import post_shipments_by_id_confirm_receipt
from keycat_client.api.orders import (get_orders, get_orders_by_id, get_orders_by_id_refunds, post_orders_by_id_deliver,
                                      post_orders_by_id_refund, post_orders_by_id_ship)
from keycat_client.api.products import (get_products, get_products_by_id, get_products_facets, get_products_suggestions,
                                         post_products)
from keycat_client.api.reviews import get_products_by_id_reviews, post_products_by_id_reviews
from keycat_client.models import (CartAdd, Checkout, Confirm, Error, LogIn, Order, OrderStatus, ProductCreate,
                                  ProductCreateCategory, ProductCreateDeliverySchedule, ProductCreateKind, RefreshToken,
                                  RefundRequest, ReviewForm, Ship, SignUp, TokenPair)
from keycat_client.models.get_products_facets_category import GetProductsFacetsCategory
from keycat_client.models.get_products_sort import GetProductsSort

import second_models

BASE = os.environ["KEYCAT_TEST_SERVER_URL"]
BODIES = []  # (schema in the second generator's models, raw JSON body)


def record(schema, response):
    BODIES.append((schema, response.content))
    return response.parsed


def expect(condition, what):
    if not condition:
        raise AssertionError(what)
    print(f"  ok: {what}")


class Session:
    """A signed-in user: the generated AuthenticatedClient, renewed on 401 access_token_expired."""

    def __init__(self, email, password):
        pair = record("TokenPair", post_sessions.sync_detailed(client=anonymous(), body=LogIn(email=email, password=password)))
        assert isinstance(pair, TokenPair), pair
        self.user_id = pair.user_id
        self.pair = pair

    @property
    def client(self):
        return AuthenticatedClient(base_url=BASE, token=self.pair.access_token, raise_on_unexpected_status=True)

    def refresh(self):
        used = self.pair.refresh_token
        fresh = record("TokenPair", post_sessions_refresh.sync_detailed(client=anonymous(), body=RefreshToken(refresh_token=used)))
        assert isinstance(fresh, TokenPair), fresh
        self.pair = fresh
        return used

    def call(self, function, schema, **arguments):
        """Calls a generated function; an expired access token is refreshed and the call repeated,
        as an app does (the test server's tokens live three seconds)."""
        for _ in range(4):
            response = function.sync_detailed(client=self.client, **arguments)
            if not (isinstance(response.parsed, Error) and response.parsed.code == "access_token_expired"):
                break
            expect(response.status_code == 401 and response.headers.get("www-authenticate", "").startswith('Bearer error="invalid_token"'),
                   "an expired access token is 401 with RFC 6750's challenge")
            self.refresh()
        return record(schema if not isinstance(response.parsed, Error) else "Error", response), response.status_code


def anonymous():
    return Client(base_url=BASE, raise_on_unexpected_status=True)


def main():
    run = uuid.uuid4().hex[:8]
    print("browse, cheapest first, two at a time, following next_cursor")
    seen, cursor = [], None
    for _ in range(3):
        arguments = {"limit": 2, "sort": GetProductsSort.PRICE_ASC}
        if cursor:
            arguments["next_"] = cursor
        page = record("ProductPage", get_products.sync_detailed(client=anonymous(), **arguments))
        seen += [product.id for product in page.items]
        cursor = page.next_cursor
        if not cursor:
            break
    expect(len(seen) == len(set(seen)) == 6, "three pages of two, no product twice")

    print("sign up and log in")
    email = f"generated.{run}@example.com"
    user = record("User", post_users.sync_detailed(client=anonymous(), body=SignUp(email=email, password="keycat123", nick="generated")))
    expect(user.role.value == "buyer", "a new account is a buyer")
    buyer = Session(email, "keycat123")
    me, _ = buyer.call(get_me, "User")
    expect(me.email == email, "GET /me is the new account")

    print("a seller lists a keyboard")
    seller = Session(os.environ["KEYCAT_TEST_SELLER_EMAIL"], os.environ["KEYCAT_TEST_SELLER_PASSWORD"])
    product, status = seller.call(post_products, "Product", body=ProductCreate(
        kind=ProductCreateKind.COMMERCIAL, category=ProductCreateCategory.KEYBOARD, title=f"Generated 65% {run}",
        content="가스켓 마운트, 핫스왑 PCB.", regular_price=189_000, price=159_000, delivery_fee=3_000,
        delivery_schedule=ProductCreateDeliverySchedule.NEXT_DAY, stock=5, tags=[f"Gen{run}", "핫스왑"]))
    expect(status == 201 and product.price == 159_000, "the listing is created")
    detail = record("Product", get_products_by_id.sync_detailed(client=anonymous(), id=product.id))
    expect(detail.stock == 5, "anyone reads it")

    print("search finds it the moment it is written: by its Korean compound without the space, its code, its tag")
    found = record("ProductPage", get_products.sync_detailed(client=anonymous(), q=f"가스켓마운트 {run}"))
    expect([item.id for item in found.items] == [product.id], "a compound typed without its space, and a word of the title")
    found = record("ProductPage", get_products.sync_detailed(client=anonymous(), q=run.upper(), tag=f"gen{run}"))
    expect([item.id for item in found.items] == [product.id] and found.items[0].tags == [f"Gen{run}", "핫스왑"],
           "a word of the title, any case, narrowed by an exact tag")
    found = record("ProductPage", get_products.sync_detailed(client=anonymous(), q=f"핫스왑 {run}", sort=GetProductsSort.PRICE_ASC))
    expect([item.id for item in found.items] == [product.id], "another sort with a text")
    refused = get_products.sync_detailed(client=anonymous(), q=" ")
    expect(refused.status_code == 400 and b'"q"' in refused.content, "an empty q is a 400 naming q, not a list of everything")
    facets = record("ProductFacets", get_products_facets.sync_detailed(client=anonymous(), q=run, category=GetProductsFacetsCategory.KEYBOARD))
    counts = {entry.value: entry.count for entry in facets.category}
    expect(facets.total == 1 and counts["keyboard"] == 1 and not facets.approximate,
           "facet counts follow the text, and a facet's own filter leaves its own counts whole")
    suggestions = record("Suggestions", get_products_suggestions.sync_detailed(client=anonymous(), q="가스ㅋ"))
    expect("가스켓" in [item.text for item in suggestions.items], "가스ㅋ, typed half-way, completes to 가스켓")

    print("bookmark, cart, checkout with an idempotent replay")
    state, _ = buyer.call(put_products_by_id_bookmark, "BookmarkState", id=product.id)
    expect(state.bookmarked, "bookmarked")
    bookmarks, _ = buyer.call(get_me_bookmarks, "BookmarkPage")
    expect([entry.product.id for entry in bookmarks.items] == [product.id], "the bookmark list holds it")
    cart, _ = buyer.call(post_cart_items, "Cart", body=CartAdd(product_id=product.id, quantity=1))
    expect(cart.total == 159_000 + 3_000, "the cart prices the line and its delivery")
    cart, _ = buyer.call(get_cart, "Cart")
    key = f"checkout-{run}"
    order, status = buyer.call(post_checkout, "Order", body=Checkout(), idempotency_key=key)
    expect(status == 201 and order.status == OrderStatus.AWAITING_PAYMENT, "checkout makes an order awaiting payment")
    replay, _ = buyer.call(post_checkout, "Order", body=Checkout(), idempotency_key=key)
    expect(replay.id == order.id, "the same Idempotency-Key answers the same order")

    print("pay in the PG's window, confirm")
    paid = httpx.post(f"{BASE}/pg/payments/{order.merchant_uid}", json={"card_number": "4242 4242 4242 4242"}).json()
    expect(paid["status"] == "paid", "the test card pays")
    order, _ = buyer.call(post_orders_by_id_confirm, "Order", id=order.id, body=Confirm(imp_uid=paid["imp_uid"]))
    expect(order.status == OrderStatus.PAID, "confirmed: paid")

    print("an operator ships and delivers; the buyer confirms receipt (구매확정) and reviews")
    admin = Session(os.environ["KEYCAT_TEST_OPERATOR_EMAIL"], os.environ["KEYCAT_TEST_OPERATOR_PASSWORD"])
    shipped, _ = admin.call(post_orders_by_id_ship, "Order", id=order.id, body=Ship(carrier="CJ대한통운", tracking_number=f"5532{order.id:08d}"))
    expect(shipped.status == OrderStatus.SHIPPED, "shipped")
    delivered, _ = admin.call(post_orders_by_id_deliver, "Order", id=order.id)
    expect(delivered.status == OrderStatus.DELIVERED, "delivered")
    refused, status = buyer.call(post_products_by_id_reviews, "Review", id=product.id,
                                 body=ReviewForm(rating=5, content="타건감이 정말 좋아요. 추천합니다!"))
    expect(status == 403, "no review before the buyer confirms receipt")
    for parcel in delivered.shipments:
        received, status = buyer.call(post_shipments_by_id_confirm_receipt, "Shipment", id=parcel.id)
        expect(status == 200 and received.confirmed_at is not None, "the buyer confirms receipt of the parcel")
    review, status = buyer.call(post_products_by_id_reviews, "Review", id=product.id,
                                body=ReviewForm(rating=5, content="타건감이 정말 좋아요. 추천합니다!"))
    expect(status == 201 and review.rating == 5, "the buyer reviews what was received")
    reviews = record("ReviewPage", get_products_by_id_reviews.sync_detailed(client=anonymous(), id=product.id))
    expect([entry.id for entry in reviews.items] == [review.id], "the product lists the review")

    print("a partial refund")
    refunded, _ = admin.call(post_orders_by_id_refund, "Order", id=order.id,
                             body=RefundRequest(amount=10_000, reason="a stabilizer rattles"), idempotency_key=f"refund-{run}")
    expect(refunded.status == OrderStatus.PARTIALLY_REFUNDED, "partially refunded")
    refunds, _ = buyer.call(get_orders_by_id_refunds, "RefundList", id=order.id)
    expect([refund.amount for refund in refunds.items] == [10_000], "the buyer sees the refund")
    orders, _ = buyer.call(get_orders, "OrderPage")
    expect([entry.id for entry in orders.items] == [order.id], "the buyer's orders")

    print("refusals a generated client can represent")
    other_email = f"other.{run}@example.com"
    record("User", post_users.sync_detailed(client=anonymous(), body=SignUp(email=other_email, password="keycat123", nick="other")))
    other = Session(other_email, "keycat123")
    theirs, status = other.call(get_orders_by_id, "Order", id=order.id)
    expect(status == 404 and isinstance(theirs, Error) and theirs.code == "not_found", "another buyer's order is 404 not_found, as a missing one")
    missing, status = buyer.call(get_orders_by_id, "Order", id=9_000_000_000)
    expect(status == 404 and missing.code == "not_found", "a missing order is 404 not_found")

    print("token rotation and reuse")
    used = buyer.refresh()
    reused = post_sessions_refresh.sync_detailed(client=anonymous(), body=RefreshToken(refresh_token=used))
    record("Error", reused)
    expect(reused.status_code == 400 and reused.parsed.code == "refresh_token_expired"
           and reused.parsed.error == "invalid_grant",
           "a rotated refresh token presented again is 400 invalid_grant (RFC 6749 §5.2)")
    time.sleep(max(0.0, buyer.pair.access_token_expires_at.timestamp() - time.time()) + 1.1)
    expired = get_me.sync_detailed(client=buyer.client)
    record("Error", expired)
    expect(expired.status_code == 401 and expired.parsed.code == "access_token_expired",
           "the family was revoked by the reuse; its access token then expires: 401 access_token_expired")

    print(f"the second generator's models parse all {len(BODIES)} answers")
    for schema, body in BODIES:
        getattr(second_models, schema).model_validate_json(body)
    print(f"generated client journey: {len(BODIES)} answers, 0 failed")


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 - the run's verdict
        print(f"generated client journey FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        raise
