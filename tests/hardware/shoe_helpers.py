"""Shared by the hardware tests (imported by name: pytest puts this folder on the path)."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from dealer_pi.engine.observations import ShoeDraw
from dealer_pi.hardware.problems import Problem, Reason
from dealer_pi.hardware.serial_shoe import LinkState


class Collector:
    """Everything a shoe reported, in arrival order, with a bounded wait."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.cond = threading.Condition()

    def __call__(self, *item: Any) -> None:
        with self.cond:
            self.items.append(item[0] if len(item) == 1 else item)
            self.cond.notify_all()

    def wait_for(self, pred: Callable[[list[Any]], bool], timeout: float = 5.0) -> list[Any]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not pred(self.items):
                left = deadline - time.monotonic()
                assert left > 0, f"timed out; got {self.items!r}"
                self.cond.wait(left)
            return list(self.items)

    def draws(self) -> list[ShoeDraw]:
        return [i for i in self.items if isinstance(i, ShoeDraw)]

    def problems(self, reason: Reason | None = None) -> list[Problem]:
        return [i for i in self.items if isinstance(i, Problem) and (reason is None or i.reason is reason)]

    def states(self) -> list[LinkState]:
        return [i[0] for i in self.items if isinstance(i, tuple) and isinstance(i[0], LinkState)]
