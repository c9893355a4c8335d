"""What the hardware adapters report when something is not a clean observation.

A :class:`Problem` never stops an adapter: it is told to the runtime (and the
dashboard) and the adapter carries on with the next input.

>>> p = Problem(Reason.BAD_CHECKSUM, "frame '$1,HB,5*00': checksum 00, computed 7A", "shoe:serial", 1200, seq=1)
>>> p.to_dict()["reason"]
'bad checksum'
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from dealer_pi.engine.observations import Observation


class Reason(enum.Enum):
    """Why a problem was raised; the values are what ``shoe listen`` prints."""

    BAD_CHECKSUM = "bad checksum"
    GARBAGE = "garbage"
    BAD_FRAME = "bad frame"
    UNKNOWN_TYPE = "unknown frame type"
    GAP = "gap"
    MISSED = "draws possibly missed"
    DISCONNECT = "disconnect"
    SHOE_FAULT = "shoe fault"
    SHOE_RESTARTED = "shoe restarted"
    UNREGISTERED_TAG = "unregistered tag"
    DOUBLE_DRAW = "possible double draw"
    SENSOR_FAULT = "sensor fault"
    SENSOR_RECOVERED = "sensor recovered"
    NOTHING_TO_CONFIRM = "nothing to confirm"


@dataclass(frozen=True, slots=True)
class Problem:
    reason: Reason
    detail: str
    source: str
    ts_ms: int
    seq: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "problem", "reason": self.reason.value, "detail": self.detail,
                               "source": self.source, "ts_ms": self.ts_ms}
        if self.seq is not None:
            out["seq"] = self.seq
        return out


ObservationSink = Callable[[Observation], None]
ProblemSink = Callable[[Problem], None]


def ignore(_: object) -> None:
    """Default sink for callbacks the caller does not need."""


T = TypeVar("T")
log = logging.getLogger("dealer_pi.hardware")


def deliver(sink: Callable[[T], None], item: T, where: str) -> bool:
    """Hand ``item`` to a caller's sink; a sink that raises is logged and the adapter carries on.

    A bug (or a full queue) on the receiving side must not kill a reader thread or
    gpiozero's callback thread: the next card would then go unseen.
    """
    try:
        sink(item)
        return True
    except Exception:
        log.exception("%s: the receiver of %r failed", where, item)
        return False
