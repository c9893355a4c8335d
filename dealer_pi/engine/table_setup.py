"""What a table starts from: rule profile, betting structure, forced bets, seats, button.

:class:`TableSetup` is the JSON-checked form the runtime journals and scenario
files carry (``TableSetup.from_dict``); every error names the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import InputError
from .observations import MAX_SEATS
from .profiles import RuleProfile, profile_from_mapping
from .setup import Structure
from .table import check_forced_bets
from .validate import is_whole, whole

SETUP_FIELDS = ("profile", "overrides", "structure", "blinds", "ante", "seats", "names", "button", "away")


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
    away: tuple[int, ...] = ()  # seats whose player is away (TABLE-AWAY; a penalty's minutes away)

    def rule_profile(self) -> RuleProfile:
        """The profile with its overrides applied (each option checked)."""
        return profile_from_mapping(self.profile, self.overrides, "setup.overrides")

    @staticmethod
    def from_dict(data: Mapping[str, Any], where: str = "setup") -> TableSetup:
        """Check and read the JSON form (scenario files, the web API); errors name the field.

        Unknown keys are refused, except that a caller (a scenario file) may
        strip its own keys first.
        """
        if not isinstance(data, Mapping):
            raise InputError(where, "must be an object")

        def w(name: str) -> str:
            return f"{where}.{name}" if where else name

        extra = sorted(set(data) - set(SETUP_FIELDS))
        if extra:
            raise InputError(w(extra[0]), "unknown field (known: " + ", ".join(SETUP_FIELDS) + ")")

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
                or not all(is_whole(b) for b in blinds)):
            raise InputError(w("blinds"), "must be [small blind, big blind], whole numbers >= 0")
        ante = whole(data.get("ante", 0), w("ante"), low=0)
        seats = _seat_map(data.get("seats"), w("seats"), int)
        names = _seat_map(data.get("names", {}), w("names"), str)
        for seat in names:
            if seat not in seats:
                raise InputError(w(f"names.{seat}"), "names a seat that is not in seats")
        button = whole(data.get("button"), w("button"), low=1, high=MAX_SEATS)
        away = data.get("away", [])
        if not isinstance(away, list) or any(s not in seats for s in away):
            raise InputError(w("away"), "must be a list of seat numbers that are in seats")
        setup = TableSetup(
            seats=seats, button=button, blinds=(blinds[0], blinds[1]), ante=ante,
            structure=Structure(structure), profile=profile, overrides=dict(overrides), names=names,
            away=tuple(sorted(set(away))),
        )
        setup.check(where)
        return setup

    def check(self, where: str = "setup") -> None:
        """Refuse a setup that cannot be dealt (profile, seats, blinds); errors name the field."""

        def w(name: str) -> str:
            return f"{where}.{name}" if where else name

        try:
            profile_from_mapping(self.profile, self.overrides, w("overrides"))
        except InputError as exc:
            if exc.where == "profile":  # unknown base profile name
                raise InputError(w("profile"), exc.message) from None
            raise
        if len([s for s, st in self.seats.items() if st > 0]) < 2:
            raise InputError(w("seats"), "a hand needs at least two seats with chips")
        check_forced_bets(self.blinds[0], self.blinds[1], self.ante, 0, w("blinds"))
        for seat, stack in self.seats.items():
            if not 1 <= seat <= MAX_SEATS:
                raise InputError(w(f"seats.{seat}"), f"seat number must be 1..{MAX_SEATS}")
            if stack < 0:
                raise InputError(w(f"seats.{seat}"), "a stack is a whole number >= 0")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form read back by :meth:`from_dict`."""
        return {
            "profile": self.profile, "overrides": dict(self.overrides), "structure": self.structure.value,
            "blinds": list(self.blinds), "ante": self.ante,
            "seats": {str(k): v for k, v in sorted(self.seats.items())},
            "names": {str(k): v for k, v in sorted(self.names.items())}, "button": self.button,
        } | ({"away": list(self.away)} if self.away else {})


def _seat_map(data: object, where: str, kind: type) -> dict[int, Any]:
    if not isinstance(data, Mapping):
        raise InputError(where, 'must be an object like {"1": 1000, "3": 800}')
    out: dict[int, Any] = {}
    for key, value in data.items():
        k = str(key)
        if not k.isdigit() or not 1 <= int(k) <= MAX_SEATS:
            raise InputError(f"{where}.{k}", f"seat number must be 1..{MAX_SEATS}")
        if kind is int:
            whole(value, f"{where}.{k}", low=0)
        if kind is str and not isinstance(value, str):
            raise InputError(f"{where}.{k}", f"must be a string, got {value!r}")
        out[int(k)] = value
    return dict(sorted(out.items()))
