"""TABLE-PENALTY: what the tournament may impose, checked (000 §45-46).

A verbal warning is recorded; 10, 20, 30 or 40 minutes away keep the player
away from the table from the next hand (blinds and antes are still taken and
the hand is killed, TABLE-AWAY, 000 §31); a disqualification removes the
player and the chips from play (000 §45).

>>> check_penalty({"kind": "away", "minutes": 20, "reason": "card off the table (000 §46)"})
Penalty(kind='away', minutes=20, reason='card off the table (000 §46)')
>>> check_penalty({"kind": "away", "minutes": 15, "reason": "soft play"})
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: penalty.minutes: 000 §45 allows 10, 20, 30 or 40 minutes away, got 15
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InputError

KINDS = ("warning", "away", "disqualification")
AWAY_MINUTES = (10, 20, 30, 40)
MAX_REASON = 200


@dataclass(frozen=True, slots=True)
class Penalty:
    kind: str
    minutes: int = 0
    reason: str = ""

    def describe(self) -> str:
        what = {"warning": "verbal warning", "away": f"{self.minutes} minutes away",
                "disqualification": "disqualified, chips removed from play"}[self.kind]
        return f"{what} ({self.reason})" if self.reason else what

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "minutes": self.minutes, "reason": self.reason}


def check_penalty(data: Mapping[str, Any], where: str = "penalty") -> Penalty:
    """Read a penalty (kind, minutes for ``away``, reason); errors name the field."""
    kind = data.get("kind")
    if kind not in KINDS:
        raise InputError(f"{where}.kind", "must be one of " + ", ".join(KINDS))
    minutes = data.get("minutes", 0)
    if kind == "away":
        if isinstance(minutes, bool) or minutes not in AWAY_MINUTES:
            raise InputError(f"{where}.minutes", f"000 §45 allows 10, 20, 30 or 40 minutes away, got {minutes!r}")
    elif minutes not in (0, None):
        raise InputError(f"{where}.minutes", f"only an 'away' penalty has minutes (this is a {kind})")
    reason = data.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise InputError(f"{where}.reason", f"must be text of at most {MAX_REASON} characters")
    return Penalty(kind, minutes if kind == "away" else 0, " ".join(reason.split()))
