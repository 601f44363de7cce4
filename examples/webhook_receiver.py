#!/usr/bin/env python3
"""A bizapi webhook receiver in Python 3 with the standard library only (docs/webhooks.md#receivers).

It verifies each delivery's Standard Webhooks signature over the exact body bytes
(docs/webhooks.md#signatures), drops repeats by ``webhook-id`` (delivery is at least once,
docs/webhooks.md#delivery), and prints every new event as one JSON line on standard output.

    WEBHOOK_SECRET=whsec_... PORT=3000 python3 examples/webhook_receiver.py

Answers: 204 for a verified delivery (also for a repeat, so that the server stops retrying it), 400 when
the signature does not verify, 405 for anything but POST, 413 above 5 MiB. ``HOST`` defaults to 127.0.0.1;
``PORT=0`` takes a free port. The first line on standard output is ``listening on http://HOST:PORT/``.
"""

import base64
import binascii
import collections
import hashlib
import hmac
import json
import os
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 300
MAX_BODY_BYTES = 5 * 1024 * 1024
REMEMBERED_IDS = 10_000


def check_signature(secret, headers, body, now=None):
    """Checks one delivery; returns None when it verifies, otherwise why not.

    The three headers must be present, ``webhook-timestamp`` within 5 minutes of now, and one of the
    space-separated ``v1,<base64>`` signatures of ``webhook-signature`` (two during a rotation) must be the
    HMAC-SHA256 of ``"{webhook-id}.{webhook-timestamp}.{body}"``, keyed with the base64-decoded part of the
    secret after ``whsec_`` (docs/webhooks.md#signatures).

    secret: ``whsec_...``; headers: a mapping with case-insensitive ``get`` (``self.headers``);
    body: the exact bytes received.
    """
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        return "missing webhook headers"
    if not re.fullmatch(r"\d{1,12}", timestamp):
        return "webhook-timestamp is not Unix seconds"
    if abs((time.time() if now is None else now) - int(timestamp)) > TOLERANCE_SECONDS:
        return "webhook-timestamp is too old or too new"
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    signed = msg_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + body
    expected = hmac.new(key, signed, hashlib.sha256).digest()
    for versioned in signatures.split(" "):
        version, _, signature = versioned.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(signature, validate=True)
        except (binascii.Error, ValueError):
            continue
        if hmac.compare_digest(given, expected):
            return None
    return "no signature matches"


class Receiver(BaseHTTPRequestHandler):
    """One delivery per request; ``server.secret`` and ``server.on_event`` configure it."""

    seen = collections.OrderedDict()  # ids seen lately (a database table with a unique key in a real service)
    seen_lock = threading.Lock()

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        if length > MAX_BODY_BYTES:
            self.send_response(413)
            self.send_header("connection", "close")
            self.end_headers()
            return
        body = self.rfile.read(length)
        problem = check_signature(self.server.secret, self.headers, body)
        if problem is not None:
            sys.stderr.write("refused a delivery: %s\n" % problem)
            self.answer(400, problem + "\n")
            return
        msg_id = self.headers["webhook-id"]
        with self.seen_lock:
            repeat = msg_id in self.seen
            if not repeat:
                self.seen[msg_id] = True
                if len(self.seen) > REMEMBERED_IDS:
                    self.seen.popitem(last=False)
        if repeat:
            sys.stderr.write("dropped a repeat of %s\n" % msg_id)
            self.answer(204)
            return
        try:
            event = json.loads(body.decode("utf-8"))
        except ValueError:
            self.answer(400, "body is not JSON\n")
            return
        # Answer fast (within the server's 10 s); do slow work after answering, or queue it.
        self.answer(204)
        self.server.on_event(event, msg_id)

    def do_GET(self):
        self.answer(405)

    do_PUT = do_PATCH = do_DELETE = do_GET

    def answer(self, status, text=None):
        self.send_response(status)
        if status == 405:
            self.send_header("allow", "POST")
        if text is None:
            self.send_header("content-length", "0")
            self.end_headers()
        else:
            data = text.encode("utf-8")
            self.send_header("content-type", "text/plain; charset=utf-8")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    def log_message(self, format, *args):  # keep standard output for events; requests go to stderr
        sys.stderr.write("%s %s\n" % (self.address_string(), format % args))


def print_event(event, msg_id):
    """Prints one event as a JSON line (replace with your own handling)."""
    sys.stdout.write(json.dumps({"webhookId": msg_id, "event": event}, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main():
    secret = os.environ.get("WEBHOOK_SECRET", "")
    if not secret.startswith("whsec_"):
        sys.stderr.write("Set WEBHOOK_SECRET to the endpoint secret (whsec_...).\n")
        return 2
    host = os.environ.get("HOST", "127.0.0.1")
    server = ThreadingHTTPServer((host, int(os.environ.get("PORT", "3000"))), Receiver)
    server.secret = secret
    server.on_event = print_event
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    sys.stdout.write("listening on http://%s:%d/\n" % (host, server.server_address[1]))
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
