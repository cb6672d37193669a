#!/usr/bin/env python3
"""A stand-in CMS for the relay: accepts POSTs on 127.0.0.1:PORT, checks each one's
Copydesk-Signature (HMAC-SHA256 of "t.body" under SECRET, as docs/integration.md says), and
appends one JSON line per request to OUT: key, event, signature valid or not. The first FAIL
requests are answered 500 (the relay must retry them). Runs until killed.

Usage: webhook-receiver.py PORT SECRET OUT [FAIL]
"""
import hashlib
import hmac
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, secret, out = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3]
failures_left = int(sys.argv[4]) if len(sys.argv) > 4 else 0


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        global failures_left
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = dict(p.split("=", 1) for p in self.headers.get("Copydesk-Signature", "").split(",") if "=" in p)
        expected = hmac.new(secret, parts.get("t", "").encode() + b"." + body, hashlib.sha256).hexdigest()
        valid = hmac.compare_digest(expected, parts.get("v1", ""))
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
