"""Tell systemd we are ready and alive (``Type=notify``, ``WatchdogSec=``), with no dependency.

The protocol is one datagram of ``KEY=VALUE`` lines to the unix socket named
in ``$NOTIFY_SOCKET``; a name starting with ``@`` is in the abstract namespace
(a NUL byte first). Outside systemd the variable is unset and every call is a
harmless no-op returning False.

The runtime calls :func:`ready` once the engine, the journal and the web
server are up, then :func:`watchdog` from the engine thread at least every
:func:`watchdog_interval_s` seconds, so a hung engine (not just a dead
process) gets restarted.

>>> notify("READY=1", env={})
False
>>> watchdog_interval_s(env={"WATCHDOG_USEC": "20000000"})
10.0
"""

from __future__ import annotations

import os
import socket
from typing import Mapping


def _address(env: Mapping[str, str]) -> str | bytes | None:
    path = env.get("NOTIFY_SOCKET", "")
    if not path:
        return None
    if path.startswith("@"):
        return b"\0" + path[1:].encode()
    if path.startswith("/"):
        return path
    return None  # vsock and other forms are not used on a Pi


def notify(state: str, env: Mapping[str, str] | None = None) -> bool:
    """Send ``state`` (``"READY=1"``, ``"WATCHDOG=1"``, ``"STATUS=..."``, lines joined by newlines).

    True when the datagram went out; never raises (a lost notification must not stop the table).
    """
    addr = _address(os.environ if env is None else env)
    if addr is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(addr)
            sock.sendall(state.encode("utf-8"))
        return True
    except OSError:
        return False


def ready(status: str = "", env: Mapping[str, str] | None = None) -> bool:
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""), env)


def watchdog(env: Mapping[str, str] | None = None) -> bool:
    return notify("WATCHDOG=1", env)


def status(text: str, env: Mapping[str, str] | None = None) -> bool:
    return notify(f"STATUS={text}", env)


def stopping(env: Mapping[str, str] | None = None) -> bool:
    return notify("STOPPING=1", env)


def watchdog_interval_s(env: Mapping[str, str] | None = None) -> float | None:
    """How often to call :func:`watchdog`: half of ``WatchdogSec``, or None when no watchdog is set.

    ``WATCHDOG_PID``, when present, must be our pid (the variable may have been inherited).
    """
    e = os.environ if env is None else env
    usec = e.get("WATCHDOG_USEC", "")
    pid = e.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and (not pid.isdigit() or int(pid) != os.getpid()):
        return None
    return int(usec) / 2_000_000
