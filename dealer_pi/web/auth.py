"""Roles by bearer token, and the audit log of every undelayed hole-card read.

A request carries its token as ``Authorization: Bearer TOKEN`` or, for clients
that cannot set headers (EventSource, an OBS browser source), ``?token=TOKEN``.
No token: the public role. An unknown token is refused (401) rather than
quietly downgraded, so a mistyped producer URL is noticed before the show.
"""

from __future__ import annotations

import hmac
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Mapping


class AuthError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Roles:
    """Token -> role, from ``web.dealer_token`` and ``web.producer_token`` (empty = role disabled)."""

    def __init__(self, dealer_token: str, producer_token: str) -> None:
        if dealer_token and dealer_token == producer_token:
            raise ValueError("web.dealer_token and web.producer_token must differ")
        self._tokens = [(t, r) for t, r in ((dealer_token, "dealer"), (producer_token, "producer")) if t]

    def role_of(self, headers: Any, args: Mapping[str, str]) -> str:
        """``headers``: anything with ``get`` (werkzeug's Headers, a dict)."""
        header = headers.get("Authorization", "")
        token = ""
        if header:
            scheme, _, value = header.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise AuthError(401, "Authorization must be 'Bearer TOKEN'")
            token = value.strip()
        elif "token" in args:
            token = args.get("token", "")
            if not token:
                raise AuthError(401, "empty token")
        if not token:
            return "public"
        for known, role in self._tokens:
            if hmac.compare_digest(known.encode(), token.encode()):
                return role
        raise AuthError(401, "unknown token")

    @staticmethod
    def require(role: str, *allowed: str) -> None:
        if role in allowed:
            return
        if role == "public":
            raise AuthError(401, "this needs a token: " + " or ".join(allowed))
        raise AuthError(403, f"the {role} token may not do this (needs {' or '.join(allowed)})")


class AuditLog:
    """Append-only JSON lines: who read undelayed hole cards, when, and what."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def write(self, what: str, role: str, remote: str | None, **detail: Any) -> None:
        line = json.dumps({"ts_ms": int(time.time() * 1000), "what": what, "role": role, "remote": remote, **detail})
        with self._lock, open(self.path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def read(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        with self._lock:
            return [json.loads(x) for x in self.path.read_text(encoding="utf-8").splitlines() if x.strip()]
