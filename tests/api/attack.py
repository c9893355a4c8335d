"""The load a hostile client can put on the server, for the attack tests and benchmarks/load.py.

Everything stays on the loopback interface: clients take source addresses from
127.0.0.0/8 (all of it is loopback on Linux) to look like many machines.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
from contextlib import ExitStack
from typing import Any

HALF_OPEN = b"GET / HTTP/1.1\r\nHost: x\r\n"  # no blank line: the request never ends


def loopback(block: int, i: int) -> str:
    """The ``i``-th source address of a block: 127.<block>.<i // 250>.<i % 250 + 1>."""
    return f"127.{block}.{i // 250}.{i % 250 + 1}"


def half_open(port: int, n: int, addresses: int, stack: ExitStack) -> list[socket.socket]:
    """``n`` connections from ``addresses`` source addresses, each with a request never finished."""
    socks = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(loopback(1, i % addresses), 0))
        stack.callback(s.close)
        s.sendall(HALF_OPEN)
        socks.append(s)
    return socks


def open_streams(port: int, n: int, per_address: int, stack: ExitStack, token: str | None = None,
                 block: int = 2) -> list[int]:
    """``n`` event streams, ``per_address`` from each source address; the status of each (kept open)."""
    statuses = []
    for i in range(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                          source_address=(loopback(block, i // per_address), 0))
        stack.callback(conn.close)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        conn.request("GET", "/api/events", headers=headers)
        resp = conn.getresponse()
        stack.callback(resp.close)  # the response holds the socket: kept, the stream stays open
        statuses.append(resp.status)
        if resp.status != 200:
            resp.read()
    return statuses


def still_open(sock: socket.socket) -> bool:
    """True while the server has not closed ``sock`` (nothing to read, no end of file)."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def post(port: int, token: str, body: dict[str, Any], timeout: float) -> tuple[int, float]:
    """One dealer POST of an observation from 127.0.0.1: (status, seconds it took)."""
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", "/api/observations", body=json.dumps(body),
                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        return resp.status, time.perf_counter() - t0
    finally:
        conn.close()
