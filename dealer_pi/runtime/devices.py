"""Device status for the dashboard: shoe connected, camera frames per second, calibration.

Adapters report through :meth:`DeviceBoard.update`; the runtime re-sends the
state when something changed. Reading and writing are thread-safe.

>>> b = DeviceBoard()
>>> b.update("shoe", kind="virtual", connected=True, state="connected")
>>> b.view()["shoe"]["connected"]
True
"""

from __future__ import annotations

import threading
from typing import Any, Callable


class DeviceBoard:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._status: dict[str, dict[str, Any]] = {}
        self.on_change: Callable[[], None] | None = None

    def update(self, device: str, **fields: Any) -> None:
        with self._lock:
            current = self._status.setdefault(device, {})
            changed = any(current.get(k) != v for k, v in fields.items())
            current.update(fields)
        if changed and self.on_change is not None:
            self.on_change()

    def view(self) -> dict[str, Any]:
        with self._lock:
            return {k: dict(v) for k, v in self._status.items()}
