"""What the hardware adapters report when something is not a clean observation.

A :class:`Problem` never stops an adapter: it is told to the runtime (and the
dashboard) and the adapter carries on with the next input.

A problem has two texts. ``detail`` says what happened and where (a frame
number, a byte count) and is shown to the dealer; it never holds anything the
shoe or the camera sent, since a damaged frame may still name a hole card.
``secret`` holds that material (the bytes, the card field, a tag id) for the
producer's view and the log only.

>>> p = Problem(Reason.BAD_CHECKSUM, "frame 1 (15 bytes): checksum does not match", "shoe:serial", 1200, seq=1,
...             secret="b'1,DRAW,5,Ah*00': checksum 00, computed 7A")
>>> p.to_dict()["reason"], "Ah" in p.detail
('bad checksum', False)
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
    STRAY = "stray frame"  # did not fit the shoe's numbering and was not confirmed by the next frame
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
    secret: str = ""  # what the device sent (may name a card): producer view and log only

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "problem", "reason": self.reason.value, "detail": self.detail,
                               "source": self.source, "ts_ms": self.ts_ms}
        if self.seq is not None:
            out["seq"] = self.seq
        if self.secret:
            out["secret"] = self.secret
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
