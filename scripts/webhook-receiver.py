#!/usr/bin/env python3
"""A webhook receiver as a shop's partner would write one: verifies every delivery with the
`standardwebhooks` package from PyPI, unchanged, and appends what it got to a JSON-lines file.

    webhook-receiver.py --port PORT --secret whsec_… --out FILE

Each line is {"verified": true|false, "webhook_id": …, "event": {…}|null, "error": …}. A delivery
that verifies is answered 204; one that does not, 401 (KeyCat then retries it, as it should).
"""
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
    arguments = parser.parse_args()
    webhook = Webhook(arguments.secret)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            line = {"webhook_id": self.headers.get("webhook-id"), "user_agent": self.headers.get("user-agent")}
            try:
                line["event"] = webhook.verify(body, dict(self.headers.items()))
                line["verified"] = True
                self.send_response(204)
            except WebhookVerificationError as error:
                line.update(verified=False, event=None, error=str(error))
                self.send_response(401)
            self.end_headers()
            with open(arguments.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(f"webhook-receiver: listening on 127.0.0.1:{arguments.port}", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
