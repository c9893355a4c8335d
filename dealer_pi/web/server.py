"""Serving the app with waitress (a production WSGI server, not Flask's development server).

Each server-sent-event stream holds one waitress thread for as long as it is
open, so the thread pool is sized for the expected viewers plus headroom.
"""

from __future__ import annotations

import threading
from typing import Any

from waitress import wasyncore
from waitress.server import create_server

DEFAULT_THREADS = 96  # 50 overlay/tablet streams and their reconnects, plus API calls


class Server:
    """A waitress server on its own thread; ``port=0`` picks a free port (tests)."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 8000, threads: int = DEFAULT_THREADS) -> None:
        self._server = create_server(app, host=host, port=port, threads=threads, channel_timeout=3600, ident="dealer-pi")
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

    def close(self) -> None:
        """Stop accepting, close every connection and end the serving thread.

        The sockets are closed by the serving loop itself (through waitress's trigger): closing
        them from another thread while it waits in select() would pull the floor from under it.
        """
        if self._thread is not None and self._thread.is_alive():
            # A single listener is a wasyncore dispatcher: its socket map is ``_map``.
            sockets = getattr(self._server, "map", None) or getattr(self._server, "_map")
            self._server.trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
            self._thread.join(timeout=5)
            self._server.task_dispatcher.shutdown()
        else:
            self._server.close()
