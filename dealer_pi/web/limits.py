"""How many event streams may be open, by role and by client address.

Each open stream holds one of waitress's threads for as long as it lasts. The
threads are shared out so that no viewer can lock the table out: some are
always left for API calls and page loads, some are kept for the dealer's and
the producer's own streams, and the rest are shared: the public may use them,
at most a few per client address so one machine cannot take them all, and the
dealer and the producer may too once their own are in use.

>>> plan = StreamPlan.for_threads(96)
>>> plan.api, plan.per_role, plan.public
(16, 8, 64)
>>> slots = StreamSlots(plan)
>>> [slots.take("public", "10.0.0.7") is None for _ in range(5)]
[True, True, True, True, False]
>>> slots.take("public", "10.0.0.7")
Refusal(status=429, message='too many open public streams from 10.0.0.7 (at most 4 per address)')
>>> slots.take("dealer", "10.0.0.7") is None  # the dealer's own slots are not the public's
True
>>> full = StreamSlots(StreamPlan(api=16, per_role=1, public=1))
>>> full.take("public", "a"), full.take("public", "b")[0]  # the shared slot is taken...
(None, 503)
>>> full.take("dealer", "a") is None, full.take("dealer", "a")[0]  # ...the dealer still has its own
(True, 503)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Final, NamedTuple

API_THREADS: Final = 16  # always free for API calls and page loads
ROLE_STREAMS: Final = 8  # kept for the dealer's streams, and as many for the producer's
PUBLIC_PER_ADDRESS: Final = 4  # an overlay, a clock page and their reconnects
MIN_THREADS: Final = API_THREADS + 2 * ROLE_STREAMS + 2 * PUBLIC_PER_ADDRESS
MAX_THREADS: Final = 1000


@dataclass(frozen=True)
class StreamPlan:
    api: int
    per_role: int
    public: int
    per_address: int = PUBLIC_PER_ADDRESS

    @classmethod
    def for_threads(cls, threads: int) -> "StreamPlan":
        """The share-out for ``threads`` waitress threads (fewer than ``MIN_THREADS`` gets smaller
        shares, still with at least one stream each for the dealer and the producer)."""
        streams = max(threads - API_THREADS, 2)
        per_role = max(1, min(ROLE_STREAMS, streams // 3))
        return cls(api=threads - streams if threads > streams else 0, per_role=per_role,
                   public=max(streams - 2 * per_role, 0))


class Refusal(NamedTuple):
    status: int  # 429: this address has its share; 503: every slot of the role is taken
    message: str


class StreamSlots:
    """Counts open streams; :meth:`take` gives a slot or says why not, :meth:`give` returns it."""

    def __init__(self, plan: StreamPlan) -> None:
        self.plan = plan
        self._lock = threading.Lock()
        self._open = {"dealer": 0, "producer": 0, "public": 0}
        self._borrowed = {"dealer": 0, "producer": 0}  # role streams in shared slots
        self._by_address: dict[str, int] = {}

    def _shared_free(self) -> bool:
        return self._open["public"] + sum(self._borrowed.values()) < self.plan.public

    def take(self, role: str, address: str | None) -> Refusal | None:
        """A slot for a stream of ``role`` from ``address``: None when taken, else why it is refused."""
        addr = address or "?"
        with self._lock:
            if role != "public":
                if self._open[role] - self._borrowed[role] >= self.plan.per_role:
                    if not self._shared_free():
                        return Refusal(503, f"the {role}'s {self.plan.per_role} event streams and every shared one "
                                            "are open; close one (another tab?)")
                    self._borrowed[role] += 1
                self._open[role] += 1
                return None
            if self._by_address.get(addr, 0) >= self.plan.per_address:
                return Refusal(429, f"too many open public streams from {addr} "
                                    f"(at most {self.plan.per_address} per address)")
            if not self._shared_free():
                return Refusal(503, f"all {self.plan.public} public event streams are open; try again shortly")
            self._open["public"] += 1
            self._by_address[addr] = self._by_address.get(addr, 0) + 1
            return None

    def give(self, role: str, address: str | None) -> None:
        addr = address or "?"
        with self._lock:
            self._open[role] -= 1
            if role != "public":
                if self._borrowed[role]:
                    self._borrowed[role] -= 1
                return
            left = self._by_address.get(addr, 1) - 1
            if left:
                self._by_address[addr] = left
            else:
                self._by_address.pop(addr, None)

    def counts(self) -> dict[str, int]:
        with self._lock:
            return dict(self._open)
