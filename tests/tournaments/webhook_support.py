"""A real webhook receiver for the tests: an ``http.server`` in a thread on 127.0.0.1, checking
every POST's signature and timestamp as ``docs/webhooks.md`` tells integrators to (its own code,
not Spinner's), answering a status the test sets (200, or 503 while "down"), and recording what
it got."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.conftest import free_port

TOLERANCE_SECONDS = 300


def verify_signature(secret: str, body: bytes, header: str, *, now: float | None = None) -> bool:
    """The receiver's check, as docs/webhooks.md gives it: ``t`` within five minutes, and ``v1``
    the HMAC-SHA256 of ``"<t>." + body`` keyed by the secret."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
        given = parts["v1"]
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > TOLERANCE_SECONDS:
        return False
    signed = str(timestamp).encode() + b"." + body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, given)


@dataclass(frozen=True)
class Received:
    """One request as the receiver saw it, and what it answered."""

    delivery_id: str
    kind: str
    body: bytes
    signature: str
    verified: bool
    answered: int

    @property
    def document(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


class Receiver:
    """Listens on ``port`` (a free one unless given) once started; ``answer`` is the status it
    gives to a correctly signed request (a badly signed one gets 400)."""

    def __init__(self, secret: str = "", *, port: int | None = None) -> None:
        self.secret = secret
        self.port = port or free_port()
        self.answer = 200
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                signature = self.headers.get("X-Spinner-Signature", "")
                verified = verify_signature(receiver.secret, body, signature)
                status = receiver.answer if verified else 400
                with receiver._lock:
                    receiver.received.append(
                        Received(
                            delivery_id=self.headers.get("X-Spinner-Delivery", ""),
                            kind=self.headers.get("X-Spinner-Event", ""),
                            body=body,
                            signature=signature,
                            verified=verified,
                            answered=status,
                        )
                    )
                self.send_response(status)
                self.send_header("Content-Length", "2")
                if 300 <= status < 400:
                    self.send_header("Location", receiver.url + "?followed")
                self.end_headers()
                self.wfile.write(b"ok" if status < 300 else b"no")

            def do_GET(self) -> None:  # a followed redirect would come back as a GET
                with receiver._lock:
                    receiver.received.append(
                        Received("", "", b"", "", verified=False, answered=405)
                    )
                self.send_response(405)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass  # quiet

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def requests(self) -> list[Received]:
        with self._lock:
            return list(self.received)

    def accepted(self) -> list[Received]:
        """The requests it answered with a 2xx."""
        return [r for r in self.requests() if 200 <= r.answered < 300]
