"""The monitor's events: alerts raised, confirmed or dismissed, procedures tracked.

An alert names the rule (an ID from RULES.md), a :class:`Verdict`, the remedy
in plain words for the active profile and ``at``: the index of the triggering
observation in the table's observation log. Every event has a JSON form that
reads back unchanged:

>>> a = AlertRaised("a1", "DEAL-FIRST-EXPOSED", Verdict.MISDEAL, "Misdeal: reshuffle.", 3, seat=4)
>>> d = alert_event_to_dict(a)
>>> d["verdict"], d["at"]
('misdeal', 3)
>>> alert_event_from_dict(d) == a
True
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..cards import Card
from ..errors import InputError
from ..validate import whole


class Verdict(enum.Enum):
    """What the dealer must make of an alert."""

    MISDEAL = "misdeal"  # the hand is void once the dealer confirms (DEAL-MISDEAL-REMEDY)
    IRREGULARITY = "irregularity"  # correct it as the remedy says; the hand goes on
    INFORMATION = "information"  # announce it; nothing to correct
    UNCERTAIN = "uncertain"  # sources disagree or something was not seen: the dealer confirms


@dataclass(frozen=True, slots=True)
class AlertRaised:
    """A dealing-procedure problem, seen at observation ``at``."""

    alert_id: str
    rule: str
    verdict: Verdict
    remedy: str
    at: int
    seat: int | None = None
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class AlertConfirmed:
    """The dealer agreed with alert ``alert_id`` (observation ``at``)."""

    alert_id: str
    at: int


@dataclass(frozen=True, slots=True)
class AlertDismissed:
    """The dealer overruled alert ``alert_id`` (observation ``at``); nothing it asked for applies."""

    alert_id: str
    at: int


@dataclass(frozen=True, slots=True)
class ProcedureCompleted:
    """The correction that alert ``alert_id`` asked for was carried out to its end."""

    alert_id: str
    rule: str
    at: int


@dataclass(frozen=True, slots=True)
class EntryUndone:
    """The dealer entry at observation ``undone`` was taken back (by the undo at ``at``)."""

    undone: int
    at: int


MonitorEvent = AlertRaised | AlertConfirmed | AlertDismissed | ProcedureCompleted | EntryUndone

TYPE_NAMES: Final[dict[type, str]] = {
    AlertRaised: "alert_raised",
    AlertConfirmed: "alert_confirmed",
    AlertDismissed: "alert_dismissed",
    ProcedureCompleted: "procedure_completed",
    EntryUndone: "entry_undone",
}
_BY_NAME: Final[dict[str, type]] = {v: k for k, v in TYPE_NAMES.items()}


def alert_event_to_dict(event: MonitorEvent) -> dict[str, Any]:
    """``{"type": ..., field: value}``; cards as ``"Ah"``, verdicts by value."""
    out: dict[str, Any] = {"type": TYPE_NAMES[type(event)]}
    for f in dataclasses.fields(event):
        v = getattr(event, f.name)
        out[f.name] = v.value if isinstance(v, Verdict) else str(v) if isinstance(v, Card) else v
    return out


def alert_event_from_dict(data: Mapping[str, Any], where: str = "event") -> MonitorEvent:
    """Read :func:`alert_event_to_dict`'s form back; errors name the field."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be an object with a 'type' field")
    cls = _BY_NAME.get(str(data.get("type")))
    if cls is None:
        raise InputError(f"{where}.type", "must be one of " + ", ".join(_BY_NAME))
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        w = f"{where}.{f.name}"
        if f.name not in data:
            if f.default is dataclasses.MISSING:
                raise InputError(w, "is required")
            continue
        v = data[f.name]
        if f.name == "verdict":
            names = [x.value for x in Verdict]
            if v not in names:
                raise InputError(w, "must be one of " + ", ".join(names))
            v = Verdict(v)
        elif f.name == "card":
            v = None if v is None else Card.parse(v, where=w) if isinstance(v, str) else _bad(w, v)
        elif f.name in ("at", "undone") or (f.name == "seat" and v is not None):
            whole(v, w, low=0)
        elif f.name != "seat" and not isinstance(v, str):
            raise InputError(w, f"must be a string, got {v!r}")
        kwargs[f.name] = v
    extra = sorted(set(data) - {f.name for f in dataclasses.fields(cls)} - {"type"})
    if extra:
        raise InputError(f"{where}.{extra[0]}", "unknown field")
    event: MonitorEvent = cls(**kwargs)
    return event


def _bad(where: str, value: object) -> Card:
    raise InputError(where, f"must be a card like 'Ah' or null, got {value!r}")
