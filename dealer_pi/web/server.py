"""Serving the app with waitress (a production WSGI server, not Flask's development server).

Each server-sent-event stream holds one waitress thread for as long as it is
open, so the thread pool is sized for the expected viewers plus headroom
(``limits.py`` shares the threads out by role).

No client may stall the server, with or without a token:

* a request still incomplete ``request_timeout_s`` after its first byte is
  dropped (idle requests half sent, or sent a byte at a time), and an idle
  kept-alive connection after ``idle_timeout_s``;
* connections are limited to what the machine's file descriptors allow
  (the soft limit is raised to the hard one, up to 4096; ``poll`` rather than
  ``select``, so descriptors past 1024 work), and one client address may hold
  at most ``per_address`` of them: the dealer's tablet always finds room;
* a request body past 1 MiB is refused before it is read (the app itself refuses
  anything past 64 KiB, with a JSON error).
"""

from __future__ import annotations

import errno
import logging
import resource
import threading
import time
import traceback
from typing import Any

from waitress import trigger, wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

DEFAULT_THREADS = 96  # 64 public streams, 8 each for the dealer and the producer, 16 for API calls
REQUEST_TIMEOUT_S = 10.0  # from a request's first byte to its last
IDLE_TIMEOUT_S = 30.0  # a kept-alive connection with no request
PER_ADDRESS = 32  # connections one client address may hold (a browser uses 6, plus its streams)
MAX_FDS = 4096
FD_RESERVE = 64  # journal, serial port, camera, logs, pipes
MAX_BODY = 1024 * 1024  # the app refuses past 64 KiB with a JSON error; nothing past this is even read

log = logging.getLogger("dealer_pi.web.server")


def connection_limit() -> int:
    """As many connections as the process may have files, less what the rest of it needs."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = MAX_FDS if hard == resource.RLIM_INFINITY else min(hard, MAX_FDS)
    if soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return max(soft - FD_RESERVE, 32)


class _Channel(HTTPChannel):  # type: ignore[misc]
    """A waitress connection that remembers when its current, still incomplete, request began."""

    request_began: float | None = None

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.request_began = time.monotonic()
        done: bool = super().received(data)
        if self.request is None:
            self.request_began = None  # every request so far is complete
        return done


class _Wake(trigger.trigger):  # type: ignore[misc]
    """The serving loop's wake-up pipe, remembering where it was closed from: closed under a
    running loop, it is a fault whose cause the log must be able to name."""

    closed_from = "nowhere known"

    def close(self) -> None:
        if not self._closed:
            self.closed_from = " < ".join(f"{f.name} ({f.filename.rsplit('/', 1)[-1]}:{f.lineno})"
                                          for f in reversed(traceback.extract_stack(limit=9)[:-1]))
        super().close()

    def _physical_pull(self) -> None:
        # Closed, its number may already be another file's (a journal, a client's socket): a
        # wake-up written there would corrupt it.
        if self._closed:
            raise OSError(errno.EBADF, "the wake-up pipe is closed")
        super()._physical_pull()


class _Listener(TcpWSGIServer):  # type: ignore[misc]
    channel_class = _Channel
    trigger: _Wake

    def __init__(self, app: Any, adj: Adjustments, request_timeout_s: float, per_address: int) -> None:
        self.request_timeout_s = request_timeout_s
        self.per_address = per_address
        self.refused: dict[str, int] = {}  # connections turned away, by address (for the log)
        self._refused_logged = 0.0
        self._wake_lock = threading.Lock()
        super().__init__(app, map={}, adj=adj)
        self.trigger.close()
        self.trigger = _Wake(self._map)

    def handle_accept(self) -> None:
        try:
            pair = self.accept()
        except OSError:
            return
        if pair is None:
            return
        conn, addr = pair
        host = addr[0] if isinstance(addr, tuple) else str(addr)
        held = sum(1 for ch in self.active_channels.values() if isinstance(ch.addr, tuple) and ch.addr[0] == host)
        if held >= self.per_address:
            conn.close()
            self.refused[host] = self.refused.get(host, 0) + 1
            if self.refused[host] == 1:
                log.warning("%s holds %d connections: further ones are closed at once", host, held)
            return
        try:
            self.set_socket_options(conn)
            for level, optname, value in self.adj.socket_options:
                conn.setsockopt(level, optname, value)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)

    finished = False  # every socket closed: the loop has ended or is ending

    def pull_trigger(self, thunk: Any = None) -> None:
        """Wake the serving loop, to run ``thunk`` there if one is given.

        A wake-up pipe found closed while the loop still serves is replaced by a new one: the
        loop polls it from its next round (within ``asyncore_loop_timeout``), so requests still
        finish promptly and a stop still closes every socket from the loop itself."""
        with self._wake_lock:
            try:
                self.trigger.pull_trigger(thunk)
            except OSError as exc:
                if self.finished:
                    return  # a request finishing after the server closed: nothing to wake
                log.warning("the server's wake-up pipe was closed under its loop (%s, closed from %s): a new one wakes it",
                            exc.strerror, self.trigger.closed_from)
                self.trigger = _Wake(self._map)
                self.trigger.pull_trigger(thunk)

    def close_all(self) -> None:
        """Close every socket and the wake-up pipe (in the serving loop, which then ends)."""
        self.finished = True
        wasyncore.close_all(self._map)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle kept-alive connections (adj.channel_timeout)
        cutoff = time.monotonic() - self.request_timeout_s
        for channel in list(self.active_channels.values()):
            began = getattr(channel, "request_began", None)
            if began is not None and began < cutoff and not channel.requests:
                channel.will_close = True  # a request half sent for too long: drop it
        if self.refused and now - self._refused_logged > 60:
            self.refused.clear()  # say it again in a minute if it goes on
            self._refused_logged = now


class Server:
    """A waitress server on its own thread; ``port=0`` picks a free port (tests)."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 8000, threads: int = DEFAULT_THREADS, *,
                 request_timeout_s: float = REQUEST_TIMEOUT_S, idle_timeout_s: float = IDLE_TIMEOUT_S,
                 per_address: int = PER_ADDRESS) -> None:
        adj = Adjustments(
            host=host, port=port, threads=threads, ident="dealer-pi",
            channel_timeout=idle_timeout_s, cleanup_interval=1, connection_limit=connection_limit(),
            asyncore_use_poll=True, max_request_body_size=MAX_BODY, max_request_header_size=16 * 1024,
            outbuf_high_watermark=1024 * 1024,  # a viewer that stops reading holds its own stream, not memory
            channel_request_lookahead=1,  # keeps reading while a stream runs: a viewer gone is noticed at once
        )
        self._server = _Listener(app, adj, request_timeout_s, per_address)
        self.host = host
        self.port = int(self._server.effective_port)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def run(self) -> None:
        """Serve in the calling thread until :meth:`close`."""
        self._server.run()

    def start(self) -> "Server":
        self._thread = threading.Thread(target=self.run, name="waitress", daemon=True)
        self._thread.start()
        return self

    def stop_accepting(self) -> None:
        """Close the listening socket (in the serving loop); connections already open go on."""
        done = threading.Event()

        def close_listener() -> None:
            wasyncore.dispatcher.close(self._server)  # the base close: the trigger stays open
            done.set()

        if self._thread is not None and self._thread.is_alive():
            self._server.pull_trigger(close_listener)
            done.wait(5)

    def close(self) -> None:
        """Stop accepting, let the requests being served finish (5 s at most), then close every
        connection and end the serving thread.

        The sockets are closed by the serving loop itself (through waitress's trigger): closing
        them from another thread while it waits in poll() would pull the floor from under it.
        """
        if self._thread is None or not self._thread.is_alive():
            self._server.close_all()
            return
        self.stop_accepting()
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        self._server.pull_trigger(self._server.close_all)
        self._thread.join(timeout=5)
        if self._thread.is_alive():  # the loop took no wake-up: close from here, its poll will see it
            log.warning("the server's loop did not close its sockets within 5 s: closing them from %s",
                        threading.current_thread().name)
            self._server.close_all()
