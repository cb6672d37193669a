#!/usr/bin/env python3
"""A stand-in CMS for the relay: accepts POSTs on 127.0.0.1:PORT, checks each one's
Copydesk-Signature (v2: HMAC-SHA256 under SECRET of the time, Idempotency-Key, Copydesk-Event,
Copydesk-Cursor and body joined by line feeds, within five minutes; the receiver's function of
docs/integration.md, "How a receiver rejects forgeries and replays"), and
appends one JSON line per request to OUT: key, event, signature valid or not. The first FAIL
requests are answered 500 (the relay must retry them). Runs until killed.

Usage: webhook-receiver.py PORT SECRET OUT [FAIL]
"""
import hashlib
import hmac
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, secret, out = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3]
failures_left = int(sys.argv[4]) if len(sys.argv) > 4 else 0


def verify(secret: bytes, headers, body: bytes, tolerance=300, now=None) -> bool:
    """headers: the request's headers by name; body: the raw bytes."""
    parts = dict(p.strip().split("=", 1) for p in headers.get("Copydesk-Signature", "").split(",") if "=" in p)
    t, v2 = parts.get("t", ""), parts.get("v2", "")
    if not t.isdigit() or abs((time.time() if now is None else now) - int(t)) > tolerance:
        return False
    signed = "\n".join([t, headers.get("Idempotency-Key", ""), headers.get("Copydesk-Event", ""),
                        headers.get("Copydesk-Cursor", "")]).encode() + b"\n" + body
    expected = hmac.new(secret, signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, v2)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        global failures_left
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        valid = verify(secret, self.headers, body)
        status = 500 if failures_left > 0 else 200
        failures_left = max(0, failures_left - 1)
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"key": self.headers.get("Idempotency-Key"), "event": self.headers.get("Copydesk-Event"),
                                "valid": valid, "status": status}) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", port), Receiver).serve_forever()
