#!/usr/bin/env python3
"""A webhook receiver as a shop's partner would write one: verifies every delivery with the
`standardwebhooks` package from PyPI, unchanged, and appends what it got to a JSON-lines file.

    webhook-receiver.py --port PORT --secret whsec_… --out FILE [--fail-first P]

Each line is {"verified": true|false, "webhook_id": …, "event": {…}|null, "error": …, "status": …}.
A delivery that verifies is answered 204; one that does not, 401 (KeyCat then retries it, as it
should). With --fail-first P, the first delivery of a share P of the events (chosen by their id)
is answered 500, as a receiver having a bad moment would (scripts/webhook-chaos).
"""
import hashlib
import threading
import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--fail-first", type=float, default=0.0)
    arguments = parser.parse_args()
    webhook = Webhook(arguments.secret)
    failed_once = set()
    lock = threading.Lock()

    def fails_first(webhook_id):
        digest = hashlib.sha256((webhook_id or "").encode()).digest()
        return int.from_bytes(digest[:4], "big") / 2**32 < arguments.fail_first

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            line = {"webhook_id": self.headers.get("webhook-id"), "user_agent": self.headers.get("user-agent")}
            try:
                line["event"] = webhook.verify(body, dict(self.headers.items()))
                line["verified"] = True
                line["status"] = 204
                with lock:
                    if fails_first(line["webhook_id"]) and line["webhook_id"] not in failed_once:
                        failed_once.add(line["webhook_id"])
                        line["status"] = 500
            except WebhookVerificationError as error:
                line.update(verified=False, event=None, error=str(error), status=401)
            # Written before the answer, so a line exists for every 2xx KeyCat saw.
            with lock, open(arguments.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")
            self.send_response(line["status"])
            self.end_headers()

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(f"webhook-receiver: listening on 127.0.0.1:{arguments.port}", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
