"""The one pure facade the live runtime calls: betting engine + dealing monitor.

A :class:`TableSession` is built from a :class:`TableSetup` and fed
observations one at a time (:meth:`TableSession.feed`). Betting actions go to
the betting engine, card observations to the dealing-procedure monitor
(``dealer_pi.engine.monitor``), dealer declarations and alert decisions to
both. Each accepted observation is appended to :attr:`TableSession.observations`
and returns the events it caused; a rejected one raises
:class:`~dealer_pi.engine.errors.RuleViolation` (well-formed but against the
rules, e.g. BET-OUT-OF-TURN) or :class:`~dealer_pi.engine.errors.InputError`
(malformed) and leaves the session exactly as it was.

Same setup + same accepted observations = same events and same snapshot
(:meth:`TableSession.replay`): the runtime journals the setup and the
accepted observations and rebuilds the table from them after a restart.

Hands follow each other: the first hand starts when the session is built;
``DealerDeclaration(NEW_HAND)`` after a hand ended starts the next one (the
button moves, TABLE-BUTTON); a confirmed misdeal voids the hand (stacks and
blinds restored, the button stays, DEAL-MISDEAL-REMEDY) and the redeal starts
at once. ``DealerDeclaration(UNDO)`` takes back the last dealer entry
(action, chips, declaration or alert decision).

Alerts are events (:class:`~dealer_pi.engine.monitor.alerts.AlertRaised`,
``AlertConfirmed``, ``AlertDismissed``); the dealer answers one with an
:class:`~dealer_pi.engine.observations.AlertDecision` observation.
:func:`event_to_json` gives every event's JSON form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Union

from .errors import InputError
from .events import Event as EngineEvent
from .events import event_to_dict as engine_event_to_dict
from .monitor.alerts import (
    AlertConfirmed, AlertDismissed, AlertRaised, EntryUndone, MonitorEvent, ProcedureCompleted, alert_event_to_dict,
)
from .observations import MAX_SEATS, Observation
from .profiles import RuleProfile, profile_from_mapping
from .setup import Structure

SessionEvent = Union[EngineEvent, MonitorEvent]

SETUP_FIELDS = ("profile", "overrides", "structure", "blinds", "ante", "seats", "names", "button")


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a table starts from: rule profile, betting structure, forced bets, seats, button.

    ``seats`` maps seat number (1..10) to its stack; ``names`` is optional.
    ``overrides`` are single profile options (``profiles.check_option``).

    >>> s = TableSetup.from_dict({"profile": "roberts", "blinds": [5, 10],
    ...                           "seats": {"1": 1000, "3": 800}, "button": 1})
    >>> s.seats, s.blinds, s.rule_profile().exposed_hole_card
    ({1: 1000, 3: 800}, (5, 10), 'replace-one')
    >>> TableSetup.from_dict({"blinds": [5], "seats": {"1": 10, "2": 10}, "button": 1})
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: setup.blinds: must be [small blind, big blind], whole numbers >= 0
    """

    seats: Mapping[int, int]
    button: int
    blinds: tuple[int, int] = (1, 2)
    ante: int = 0
    structure: Structure = Structure.NO_LIMIT
    profile: str = "standard"
    overrides: Mapping[str, Any] = field(default_factory=dict)
    names: Mapping[int, str] = field(default_factory=dict)

    def rule_profile(self) -> RuleProfile:
        """The profile with its overrides applied (each option checked)."""
        return profile_from_mapping(self.profile, self.overrides, "setup.overrides")

    @staticmethod
    def from_dict(data: Mapping[str, Any], where: str = "setup") -> "TableSetup":
        """Check and read the JSON form (scenario files, the web API); errors name the field.

        Unknown keys are refused, except that a caller (a scenario file) may
        strip its own keys first.
        """
        if not isinstance(data, Mapping):
            raise InputError(where, "must be an object")
        extra = sorted(set(data) - set(SETUP_FIELDS))
        if extra:
            raise InputError(f"{where}.{extra[0]}", "unknown field (known: " + ", ".join(SETUP_FIELDS) + ")")

        def w(name: str) -> str:
            return f"{where}.{name}"

        profile = data.get("profile", "standard")
        if not isinstance(profile, str):
            raise InputError(w("profile"), "must be a profile name")
        overrides = data.get("overrides", {})
        if not isinstance(overrides, Mapping):
            raise InputError(w("overrides"), "must be an object of profile options")
        structures = [s.value for s in Structure]
        structure = data.get("structure", "no-limit")
        if structure not in structures:
            raise InputError(w("structure"), "must be one of " + ", ".join(structures))
        blinds = data.get("blinds")
        if (not isinstance(blinds, list) or len(blinds) != 2
                or not all(_is_count(b) for b in blinds)):
            raise InputError(w("blinds"), "must be [small blind, big blind], whole numbers >= 0")
        ante = data.get("ante", 0)
        if not _is_count(ante):
            raise InputError(w("ante"), f"must be a whole number >= 0, got {ante!r}")
        seats = _seat_map(data.get("seats"), w("seats"), int)
        names = _seat_map(data.get("names", {}), w("names"), str)
        for seat in names:
            if seat not in seats:
                raise InputError(f"{w('names')}.{seat}", "names a seat that is not in seats")
        button = data.get("button")
        if isinstance(button, bool) or not isinstance(button, int) or not 1 <= button <= MAX_SEATS:
            raise InputError(w("button"), f"must be a seat number 1..{MAX_SEATS}, got {button!r}")
        setup = TableSetup(
            seats=seats, button=button, blinds=(blinds[0], blinds[1]), ante=ante,
            structure=Structure(structure), profile=profile, overrides=dict(overrides), names=names,
        )
        setup.check(where)
        return setup

    def check(self, where: str = "setup") -> None:
        """Refuse a setup that cannot be dealt (profile, seats, blinds); errors name the field."""
        try:
            self.rule_profile()
        except InputError as exc:
            if exc.where == "profile":  # unknown base profile name
                raise InputError(f"{where}.profile", exc.message) from None
            raise
        if len([s for s, st in self.seats.items() if st > 0]) < 2:
            raise InputError(f"{where}.seats", "a hand needs at least two seats with chips")
        if self.blinds[1] < 1:
            raise InputError(f"{where}.blinds", "the big blind must be at least 1")
        for seat, stack in self.seats.items():
            if not 1 <= seat <= MAX_SEATS:
                raise InputError(f"{where}.seats.{seat}", f"seat number must be 1..{MAX_SEATS}")
            if stack < 0:
                raise InputError(f"{where}.seats.{seat}", "a stack is a whole number >= 0")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form read back by :meth:`from_dict`."""
        return {
            "profile": self.profile, "overrides": dict(self.overrides), "structure": self.structure.value,
            "blinds": list(self.blinds), "ante": self.ante,
            "seats": {str(k): v for k, v in sorted(self.seats.items())},
            "names": {str(k): v for k, v in sorted(self.names.items())}, "button": self.button,
        }


def _is_count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _seat_map(data: object, where: str, kind: type) -> dict[int, Any]:
    if not isinstance(data, Mapping):
        raise InputError(where, 'must be an object like {"1": 1000, "3": 800}')
    out: dict[int, Any] = {}
    for key, value in data.items():
        k = str(key)
        if not k.isdigit() or not 1 <= int(k) <= MAX_SEATS:
            raise InputError(f"{where}.{k}", f"seat number must be 1..{MAX_SEATS}")
        if kind is int and not _is_count(value):
            raise InputError(f"{where}.{k}", f"must be a whole number >= 0, got {value!r}")
        if kind is str and not isinstance(value, str):
            raise InputError(f"{where}.{k}", f"must be a string, got {value!r}")
        out[int(k)] = value
    return dict(sorted(out.items()))


def event_to_json(event: SessionEvent) -> dict[str, Any]:
    """The JSON form of any session event (betting engine or monitor): ``{"type": ..., ...}``."""
    if isinstance(event, (AlertRaised, AlertConfirmed, AlertDismissed, ProcedureCompleted, EntryUndone)):
        return alert_event_to_dict(event)
    return engine_event_to_dict(event)


class TableSession:
    """A table's live state: the current hand, its betting and its dealing procedure.

    Pure and deterministic: no clock, no I/O; one owner thread calls it.
    """

    def __init__(self, setup: TableSetup) -> None:
        """Start the session and deal the first hand in (antes and blinds posted)."""
        raise NotImplementedError

    @property
    def setup(self) -> TableSetup:
        """The setup the session was built from (for the journal)."""
        raise NotImplementedError

    @property
    def observations(self) -> tuple[Observation, ...]:
        """Every accepted observation in order, undo declarations included: replay input."""
        raise NotImplementedError

    @property
    def events(self) -> tuple[SessionEvent, ...]:
        """Every event emitted so far, in order (what the journal stores beside observations)."""
        raise NotImplementedError

    def feed(self, obs: Observation) -> list[SessionEvent]:
        """Apply one observation; returns the events it caused (possibly none).

        Raises ``RuleViolation`` (rule ID named: BET-OUT-OF-TURN, DEAL-MISDEAL-LOCK, ...)
        or ``InputError`` and leaves the session unchanged when the input is refused.
        Sensor observations (shoe, camera) are never refused for breaking the dealing
        procedure: they raise alerts instead.
        """
        raise NotImplementedError

    def snapshot(self, *, secrets: bool = True) -> dict[str, Any]:
        """The whole visible state, JSON-ready.

        Keys: ``table`` (profile, structure, blinds, ante, button, seats with name,
        stack, bet, state), ``hand`` (number, street, board, burns count, to_act,
        legal actions of the seat to act, status), ``pots``, ``alerts`` (open alerts,
        JSON form), ``procedure`` (the correction being tracked, or None),
        ``observations`` (count) and, only with ``secrets=True``, ``secret``:
        ``{"hole_cards": {seat: [card or None, ...]}, "burns": [...]}``. Undealt
        cards are never in any snapshot (DEAL-NO-RABBIT).
        """
        raise NotImplementedError

    def open_alerts(self) -> list[Any]:
        """Alerts raised and not yet confirmed or dismissed (``AlertRaised``)."""
        raise NotImplementedError

    @classmethod
    def replay(cls, setup: TableSetup, observations: Iterable[Observation]) -> "TableSession":
        """A session rebuilt by feeding ``observations`` in order; raises if one is refused."""
        session = cls(setup)
        for obs in observations:
            session.feed(obs)
        return session
