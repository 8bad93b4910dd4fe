"""A real webhook receiver for the tests: an ``http.server`` in a thread on 127.0.0.1 (or another
loopback address), checking every POST's signature and timestamp as ``docs/webhooks.md`` tells
integrators to (its own code, not Spinner's), answering a status the test sets (200, or 503
while "down"), and recording what it got: the ``Host`` header and, over TLS, the server name
(SNI) the client asked for."""

from __future__ import annotations

import hashlib
import hmac
import json
import ssl
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.contrib.auth.models import User

from tests.conftest import free_port
from tournaments.errors import SpinnerError
from tournaments.models import Event
from tournaments.services import webhooks

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
    host: str = ""

    @property
    def document(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


class Receiver:
    """Listens on ``address``:``port`` (a free one unless given) once started, over TLS with
    ``tls`` (a certificate file and its key file) if given; ``answer`` is the status it gives to
    a correctly signed request (a badly signed one gets 400)."""

    def __init__(
        self,
        secret: str = "",
        *,
        port: int | None = None,
        address: str = "127.0.0.1",
        tls: tuple[str, str] | None = None,
    ) -> None:
        self.secret = secret
        self.address = address
        self.port = port or free_port()
        self.tls = tls
        self.answer = 200
        self.received: list[Received] = []
        self.server_names: list[str | None] = []  # the SNI of each TLS handshake
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://{self.address}:{self.port}/hook"

    def _wrap(self, server: ThreadingHTTPServer) -> None:
        if self.tls is None:
            return
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*self.tls)

        def named(sock: Any, name: str | None, ctx: Any) -> None:
            with self._lock:
                self.server_names.append(name)

        context.sni_callback = named
        server.socket = context.wrap_socket(server.socket, server_side=True)

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
                            host=self.headers.get("Host", ""),
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

        self._server = ThreadingHTTPServer((self.address, self.port), Handler)
        self._wrap(self._server)
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


def self_signed(directory: Path, name: str) -> tuple[str, str]:
    """A certificate for the DNS name ``name`` only (no IP address in it), signed by its own key,
    and that key: files in ``directory``. A client that trusts the certificate file accepts it
    only when it checks the certificate against ``name``."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / f"{name}.pem", directory / f"{name}.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(cert_file), str(key_file)


def refused(code: str, call: Any, **kwargs: Any) -> SpinnerError:
    """Call ``call(**kwargs)``, which must be refused with ``code``; returns the error."""
    with pytest.raises(SpinnerError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.as_dict()
    return info.value


def registered(event: Event, boss: User, url: str, kinds: tuple[str, ...] = ()) -> Any:
    """An endpoint the director registers (with its secret, shown once)."""
    endpoint, secret = webhooks.register_endpoint(event=event, actor=boss, url=url, kinds=kinds)
    return endpoint, secret
