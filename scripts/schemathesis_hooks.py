# schemathesis hooks for scripts/schemathesis (loaded through SCHEMATHESIS_HOOKS).
#
# JSON Schema states each field's own rules (openapi.yaml has them all); a few of KeyCat's rules
# tie two fields together, depend on today's date, or need a value only the server can make.
# No schema can say those, so the examples meant to be VALID are brought within them here, as
# the descriptions in openapi.yaml state them. Examples meant to be invalid are left untouched
# and must still get their 400.
#
# - `next`: a cursor the server signed for that very list and its filters; no generator can make
#   one, so a valid example goes without one (the first page).
# - prices: regular_price >= price > coupon_price; discount_ends_at within the next 31 days.
# - images: base64 of real image bytes (a 1×1 PNG stands in for each).
# - dates: a birthday or an opening date between 1900-01-01 and today.
# - business_number: ten digits whose last is the check digit.
# - min_price <= max_price; checkout items name each product once.
# - a checkout without items checks out the cart, whose emptiness no schema sees: a valid
#   example names one item instead (product 1, which may since be gone or sold out: 404 or 409).
# - a parcel's refund of an amount names no lines and does not restock.
# - a tracking number has as many digits as its carrier issues (Carrier.all in the domain).
# - a settlement month is closed once it has ended (Korean time); the current month only in a
#   dry run, a later one never: a valid example names a past month, or dry-runs the current one.
# - a search text `q` has at most 10 words of letters or digits (docs/search.md), and the
#   relevance sort needs one: a valid example with `sort=relevance` and no `q` searches 키보드.
# - an order list's placing window is half-open and not empty: placed_from < placed_before,
#   each an RFC 3339 time the server reads (a valid example gets a canonical spelling of it).
# - a nick search (`GET /users?nick=`) is 1–20 characters once trimmed, without control or
#   format characters, and is not given with `email` (one lookup or the other).
# - a tag (`tag=`, `tags`) is 1–20 letters, digits or _ once a leading # is dropped, and at most
#   60 bytes (ProductTags): openapi.yaml's maxLength of 21 leaves room for the #, and its
#   pattern, written for ECMA-262 without the u flag (where \w is ASCII only), can refuse only
#   white space, ASCII controls and ASCII punctuation, so it admits symbols no tag may hold.
# - a synonym pair (`POST /search/synonyms`, `DELETE /search/synonyms?word=&synonym=`) is two
#   different words, each one word of letters or digits, 1–30 characters (SynonymPair): the
#   pattern cannot tell a letter from a symbol, nor where a Latin word ends and a Hangul one
#   begins, so a valid example keeps one script's letters and digits of each.
import base64
import datetime
import secrets
import unicodedata

import schemathesis
from schemathesis.generation import GenerationMode

PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")).decode()
WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5]
TRACKING_DIGITS = {"kr.cjlogistics": 12, "kr.hanjin": 12, "kr.lotte": 12, "kr.epost": 13, "kr.logen": 11,
                   "kr.kdexp": 12, "kr.daesin": 13, "kr.cupost": 12, "kr.cvsnet": 12}


def check_digit(values):
    total = sum(value * weight for value, weight in zip(values[:9], WEIGHTS)) + values[8] * 5 // 10
    return (10 - total % 10) % 10


def past_date(text):
    try:
        date = datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        return text
    if date.year < 1900 or date > datetime.date.today():
        return "1990-01-01"
    return text


def as_int(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def search_text(value):
    """A search text the analyzer has words in, at most 10 of them (a rule no pattern states)."""
    words = "".join(c if c.isalnum() else " " for c in value).split()[:10]
    return " ".join(words)[:100].strip() or "키보드"


def tag_text(value):
    """A tag within ProductTags' rules: letters, digits and _, 1–20 of them, at most 60 bytes."""
    if not isinstance(value, str):
        return value
    text = unicodedata.normalize("NFC", value.lstrip("#"))
    tag = "".join(c for c in text if c.isalnum() or c == "_")[:20]
    while len(tag.encode()) > 60:
        tag = tag[:-1]
    return tag or "pbt"


def instant(value):
    """An RFC 3339 time as the server reads it, or a fixed one when Python cannot read it."""
    try:
        moment = datetime.datetime.fromisoformat(str(value).upper().replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=datetime.timezone.utc)
        moment = moment.astimezone(datetime.timezone.utc)
    except (ValueError, OverflowError):
        moment = datetime.datetime(2026, 11, 1, tzinfo=datetime.timezone.utc)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def nick_text(value):
    """A nick search term within the nick's rules: 1–20 characters, no control or format ones."""
    if not isinstance(value, str):
        return value
    text = unicodedata.normalize("NFC", value)
    text = "".join(c for c in text if unicodedata.category(c)[0] not in "CZ" or c == " ").strip()[:20].strip()
    return text or "키캣"


def synonym_words(pair):
    """Two different words within SynonymPair's rules: ASCII letters and digits, or Hangul syllables."""
    words = []
    for value, fallback in zip(pair, ("키크론", "keychron")):
        text = unicodedata.normalize("NFC", value) if isinstance(value, str) else ""
        latin = "".join(c for c in text if c.isascii() and c.isalnum()).lower()
        hangul = "".join(c for c in text if "\uac00" <= c <= "\ud7a3")
        words.append((latin or hangul or fallback)[:30])
    if words[0] == words[1]:
        words[1] = "keychron" if words[0] != "keychron" else "키크론"
    return words


def fix_prices(body):
    regular, price, coupon = (as_int(body.get(field)) for field in ("regular_price", "price", "coupon_price"))
    if regular is None and price is None and coupon is None:
        return
    price = max(1, price if price is not None else regular if regular is not None else 1)
    body["price"] = price
    body["regular_price"] = max(regular if regular is not None else price, price)
    body["coupon_price"] = min(max(coupon if coupon is not None else 0, 0), price - 1)


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return case
    if case.query:
        query = {name: value for name, value in case.query.items() if name != "next"}
        low, high = as_int(query.get("min_price")), as_int(query.get("max_price"))
        if low is not None and high is not None and low > high:
            query["min_price"], query["max_price"] = query["max_price"], query["min_price"]
        if isinstance(query.get("q"), str) and getattr(getattr(case, "operation", None), "path", None) != "/products/suggestions":
            query["q"] = search_text(query["q"])
        if query.get("sort") == "relevance" and "q" not in query:
            query["q"] = "키보드"
        if "tag" in query:
            query["tag"] = tag_text(query["tag"])
        window = [name for name in ("placed_from", "placed_before") if name in query]
        times = {name: instant(query[name]) for name in window}
        if len(times) == 2 and times["placed_from"] >= times["placed_before"]:
            try:
                times["placed_from"] = times["placed_before"] - datetime.timedelta(days=1)
            except OverflowError:
                times = {"placed_from": instant(""), "placed_before": instant("") + datetime.timedelta(days=1)}
        for name, moment in times.items():
            query[name] = moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        if getattr(getattr(case, "operation", None), "path", None) == "/search/synonyms" and "word" in query:
            query["word"], query["synonym"] = synonym_words((query.get("word"), query.get("synonym")))
        if "nick" in query:
            if "email" in query:
                del query["nick"]
            else:
                query["nick"] = nick_text(query["nick"])
        case.query = query
    body = case.body
    if not isinstance(body, dict):
        return case
    fix_prices(body)
    if isinstance(body.get("tags"), list):
        body["tags"] = [tag_text(tag) for tag in body["tags"]]
    if isinstance(body.get("discount_ends_at"), str):
        later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
        body["discount_ends_at"] = later.replace(microsecond=0).isoformat().replace("+00:00", "Z")
    if isinstance(body.get("images"), list):
        body["images"] = [PNG for _ in body["images"]]
    for field in ("birthday", "opening_date"):
        if isinstance(body.get(field), str):
            body[field] = past_date(body[field])
    number = body.get("business_number")
    if isinstance(number, str):
        digits = [int(c) for c in number if c.isdigit()]
        if len(digits) == 10:
            fixed = str(check_digit(digits))
            last = max(i for i, c in enumerate(number) if c.isdigit())
            body["business_number"] = number[:last] + fixed + number[last + 1:]
    operation = getattr(case, "operation", None)
    if getattr(operation, "path", None) in ("/shipments/{id}/ship", "/shipments/{id}/tracking") and body.get("carrier") in TRACKING_DIGITS:
        # A number of the carrier's length, another for each case: a number names one parcel,
        # so a fixed one would make every ship after the first a 409.
        body["tracking_number"] = "".join(secrets.choice("0123456789") for _ in range(TRACKING_DIGITS[body["carrier"]]))
    if getattr(operation, "path", None) == "/shipments/{id}/refund" and body.get("amount") is not None:
        body.pop("lines", None)
        if body.get("restock") is True:
            body["restock"] = False
    if getattr(operation, "path", None) == "/settlements/close" and isinstance(body.get("period"), str):
        now = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=9)))
        current = f"{now.year:04d}-{now.month:02d}"
        if body["period"] > current:
            body["period"] = "2020-01"
        elif body["period"] == current:
            body["dry_run"] = True
    if getattr(operation, "path", None) == "/search/synonyms" and "word" in body:
        body["word"], body["synonym"] = synonym_words((body.get("word"), body.get("synonym")))
    if getattr(operation, "path", None) == "/checkout" and body.get("items") is None:
        body["items"] = [{"product_id": 1, "quantity": 1}]
    items = body.get("items")
    if isinstance(items, list) and all(isinstance(item, dict) for item in items):
        seen, unique = set(), []
        for item in items:
            if item.get("product_id") not in seen:
                seen.add(item.get("product_id"))
                unique.append(item)
        body["items"] = unique
    return case
