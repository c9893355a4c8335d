"""Putting the assistant together from a config: runtime, journal, web server and devices."""

from __future__ import annotations

import logging
import signal
import threading
import time
from pathlib import Path
from typing import Any, Callable

from dealer_pi.config import Config

from .engine_thread import Runtime

log = logging.getLogger("dealer_pi.wiring")
SLOW_STOP_S = 2.0


def default_setup(config: Config, base_dir: Path = Path(".")) -> dict[str, Any]:
    """What the setup page offers on a brand-new journal, until the dealer enters the real table.

    ``table.profile_file`` (relative to the config's folder) gives the profile and its overrides.
    """
    t = config.table
    seats = max(2, min(t.seats, 10))
    out: dict[str, Any] = {
        "profile": t.profile,
        "structure": t.structure,
        "blinds": [t.small_blind, t.big_blind],
        "ante": t.ante,
        "seats": {str(s): 100 * t.big_blind for s in range(1, seats + 1)},
        "button": 1,
    }
    if t.profile_file:
        from dealer_pi.profile_file import read_profile_file

        out["profile"], out["overrides"] = read_profile_file(resolve(base_dir, t.profile_file))
    return out


def resolve(base: Path, path: str) -> Path:
    p = Path(path).expanduser()
    return p if p.is_absolute() else base / p


class Assistant:
    """Runtime + web server (+ devices), started and stopped together."""

    def __init__(self, config: Config, runtime: Runtime, host: str, port: int, audit_path: Path) -> None:
        from dealer_pi.web.app import create_app
        from dealer_pi.web.auth import AuditLog
        from dealer_pi.web.server import Server

        self.config = config
        self.runtime = runtime
        self.app = create_app(config, runtime, audit=AuditLog(audit_path))
        self.server = Server(self.app, host=host, port=port, threads=config.web.threads)
        self._stoppers: list[Callable[[], None]] = []
        self._stopped = threading.Event()
        self._stopping = False
        self._stop_lock = threading.Lock()

    @classmethod
    def from_config(
        cls, config: Config, base_dir: Path, host: str | None = None, port: int | None = None,
        setup: dict[str, Any] | None = None, attach: bool = True,
    ) -> "Assistant":
        from dealer_pi.floor.settings import table_link_settings

        link_settings = table_link_settings(config, base_dir)  # ConfigError names a bad [floor] key
        # A fresh journal waits for the dealer's setup (no hand before there is a table); the
        # config's table section only fills the setup page in until then.
        runtime = Runtime(
            resolve(base_dir, config.journal.path), setup, stream_delay_s=config.web.stream_delay_s,
            secure_delay=config.web.secure_delay, proposed_setup=default_setup(config, base_dir),
            public_hole_cards_after_hand=config.web.public_hole_cards == "after-hand",
        )
        if link_settings is not None:
            from dealer_pi.floor.table_side import TableFloor

            runtime.floor = TableFloor(link_settings.room, link_settings.table_id)
        runtime.start()
        try:
            assistant = cls(config, runtime, host or config.web.host, port if port is not None else config.web.port,
                            resolve(base_dir, config.web.audit_log))
        except BaseException:
            runtime.stop()  # a bad token pair or a busy port: leave nothing running behind
            raise
        if link_settings is not None:
            from dealer_pi.floor.link import TableLink
            from dealer_pi.floor.table_api import attach_floor_api

            attach_floor_api(assistant.app)
            assistant.on_stop(TableLink(runtime, link_settings, runtime.floor).start().stop)
        if attach:
            from .attach import attach_devices

            for closer in attach_devices(runtime, config, base_dir):
                assistant.on_stop(closer)
        return assistant

    def on_stop(self, fn: Callable[[], None]) -> None:
        """Something to close when the assistant stops (a device, the simulator)."""
        self._stoppers.append(fn)

    def serve_forever(self, ready: Callable[[], None] | None = None) -> None:
        """Serve until SIGINT/SIGTERM, then stop devices, runtime and server in order.

        ``ready`` runs once the stop signals are caught and the server is up: a process told it
        is serving can then always be stopped cleanly.
        """
        def _stop(signum: int, frame: Any) -> None:
            threading.Thread(target=self.stop, daemon=True).start()

        from dealer_pi.hardware import sdnotify

        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        interval = sdnotify.watchdog_interval_s()
        if interval:
            self.runtime.set_heartbeat(sdnotify.watchdog, interval)
        with self._stop_lock:
            # Stopped before it served (a demo's few hands played out first): start nothing.
            stopped_first = self._stopping
            if not stopped_first:
                self.server.start()
        if not stopped_first:
            sdnotify.ready(f"serving {self.config.table.name} on {self.server.url}")
            if ready is not None:
                ready()
        # Woken twice a second: a signal the kernel hands to another of the many threads only
        # runs its Python handler once the main thread runs, and a wait without a timeout may not.
        while not self._stopped.wait(0.5):
            pass
        sdnotify.stopping()

    def stop(self) -> None:
        with self._stop_lock:  # a second signal while stopping changes nothing
            if self._stopping:
                return
            self._stopping = True
        steps = [("the listener", self.server.stop_accepting)]  # no new request; those being served finish
        steps += [(getattr(fn, "__qualname__", "a device"), fn) for fn in reversed(self._stoppers)]
        steps += [("the engine and journal", self.runtime.stop), ("the web server", self.server.close)]
        for name, fn in steps:
            began = time.monotonic()
            try:
                fn()
            except Exception:  # keep stopping the rest
                log.exception("while stopping %s", name)
            took = time.monotonic() - began
            if took > SLOW_STOP_S:  # the log says which part held a stop up (systemd kills at its limit)
                log.warning("stopping %s took %.1f s", name, took)
        self._stopped.set()
