"""Rule profiles: where the seed documents disagree, the table chooses.

A :class:`RuleProfile` is plain data. Every option names the rule ID it
implements (``RULE_OF`` / the field's ``metadata["rule"]``) so an alert or a
settings page can say which rule a choice belongs to. Four profiles ship
(``RULES.md``): ``standard`` (000, with 001 where 000 is silent), ``roberts``
(001 first), ``house-pig`` (002 first) and ``online`` (004 first).

>>> get_profile("house-pig").show_order
'bettor-or-first'
>>> RULE_OF["show_order"]
'POT-SHOW-ORDER'
>>> profile_from_mapping("standard", {"clock_seconds": 45}).clock_seconds
45
>>> profile_from_mapping("standard", {"clok_seconds": 45})
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: profile.clok_seconds: unknown option (known: ...)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .errors import InputError
from .validate import flag, whole


def _opt(default: Any, rule: str, choices: tuple[str, ...] = (), doc: str = "") -> Any:
    return field(default=default, metadata={"rule": rule, "choices": choices, "doc": doc})


SHOW_ORDERS: Final = ("last-aggressor", "bettor-or-first", "left-of-last-caller")
ODD_CHIPS: Final = ("worst-position", "one-each-from-left", "high-card-by-suit")
# Earlier names of option values, still read from journals and profile files written with them.
OLD_NAMES: Final[dict[tuple[str, str], str]] = {
    ("odd_chip", "left-of-button"): "one-each-from-left",
    ("odd_chip", "all-to-first-left"): "worst-position",
}


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """The options a table can choose; defaults are the ``standard`` profile."""

    name: str = field(default="standard", metadata={"rule": "", "choices": (), "doc": "profile name"})
    odd_chip: str = _opt(
        "worst-position", "POT-ODD-CHIP", ODD_CHIPS,
        "worst-position: every odd chip to the winner in the worst position, first left of the button "
        "(000 §13, 002 §1.2.3, 004); one-each-from-left: one odd chip each to the winners from the left "
        "of the button (a house option); high-card-by-suit: one each from the highest card by suit",
    )
    show_order: str = _opt(
        "left-of-last-caller", "POT-SHOW-ORDER", SHOW_ORDERS,
        "who shows first: 003 last bettor/raiser; 002 the bettor or first to act; 000 left of the last caller",
    )
    limit_cap_raises: int = _opt(3, "BET-LIMIT", doc="raises allowed after the bet in a Limit round (0 = no cap)")
    limit_cap_lifted_heads_up: bool = _opt(True, "BET-LIMIT", doc="000 §10: no cap when only two players are in")
    under_raise: str = _opt(
        "half-rule", "BET-UNDER-RAISE", ("half-rule", "refuse"),
        "half-rule: >= 50 % of a raise must complete it, < 50 % is a call (000 §9a-b); refuse: reject",
    )
    dead_button: bool = _opt(
        True, "TABLE-DEAD-BUTTON",
        doc="000 §21-24 dead button; False: the button moves clockwise to the next active player after every hand (004)",
    )
    away_policy: str = _opt(
        "kill", "TABLE-AWAY", ("kill", "pay-and-fold"),
        "kill: 000 §31 hand killed, blinds/antes forfeited; pay-and-fold: 002 §15.5 pays blinds, not dealt, folded",
    )
    deliberate_show_penalty: str = _opt(
        "none", "DEAL-PLAYER-EXPOSED", ("none", "half-pot"),
        "002 §6.8: a deliberately shown hole card kills the hand, penalty half the pot",
    )
    rake_percent: int = _opt(0, "BET-RAKE", doc="whole percent of each pot taken as rake (tournaments: 0)")
    rake_cap: int = _opt(0, "BET-RAKE", doc="largest rake per hand in chips (0 = no cap)")
    rake_no_flop_no_drop: bool = _opt(
        False, "BET-RAKE", doc="a hand that ends before the flop pays no rake (a house option; 004 rakes every pot)",
    )
    clock_seconds: int = _opt(60, "BET-CLOCK", doc="time to act once a clock is called")
    clock_countdown_seconds: int = _opt(10, "BET-CLOCK", doc="final countdown after clock_seconds")
    exposed_hole_card: str = _opt(
        "misdeal", "DEAL-HOLE-EXPOSED", ("misdeal", "replace-one"),
        "misdeal: any exposed hole card (000 §39, 002); replace-one: one (not the first) is replaced and burned (001)",
    )
    first_card_exposed_misdeal: bool = _opt(True, "DEAL-FIRST-EXPOSED", doc="001: the first card dealt exposed is a misdeal")
    hole_count: str = _opt(
        "burn-first-extra", "DEAL-HOLE-COUNT", ("burn-first-extra", "misdeal"),
        "burn-first-extra: a third card to the first player goes back as the burn (001); misdeal: 002 §14.1.3",
    )
    misdeal_lock_actions: int = _opt(
        0, "DEAL-MISDEAL-LOCK", doc="after this many players past the blinds acted, a misdeal is played out (002: 2; 0 = never)",
    )
    flop_extra: str = _opt(
        "reshuffle-flop", "DEAL-FLOP-EXTRA", ("reshuffle-flop", "new-burn"),
        "a flop with too many cards: reshuffle-flop re-deals it after the same burn (001); new-burn: "
        "a new card is burned first (002 §14.4)",
    )
    board_extra: str = _opt("keep-board", "DEAL-BOARD-EXTRA", ("keep-board",), "002 §14.5")


RULE_OF: Final[dict[str, str]] = {
    f.name: f.metadata["rule"] for f in dataclasses.fields(RuleProfile) if f.metadata.get("rule")
}

PROFILES: Final[dict[str, RuleProfile]] = {
    "standard": RuleProfile(),
    "roberts": RuleProfile(name="roberts", exposed_hole_card="replace-one"),
    "house-pig": RuleProfile(
        name="house-pig",
        show_order="bettor-or-first",
        away_policy="pay-and-fold",
        deliberate_show_penalty="half-pot",
        clock_seconds=30,
        clock_countdown_seconds=0,
        exposed_hole_card="misdeal",
        hole_count="misdeal",
        misdeal_lock_actions=2,
        flop_extra="new-burn",
    ),
    "online": RuleProfile(
        name="online",
        show_order="last-aggressor",
        limit_cap_lifted_heads_up=False,
        dead_button=False,  # 004: "the button moves clockwise to the next active player"
        rake_percent=5,
        rake_cap=3,
        clock_seconds=10,
        clock_countdown_seconds=20,
    ),
}


DEFAULT_PROFILE: Final = PROFILES["standard"]


def get_profile(name: str) -> RuleProfile:
    """The shipped profile ``name``; an unknown name is an :class:`InputError`."""
    try:
        return PROFILES[name]
    except KeyError:
        raise InputError("profile", f"unknown profile {name!r}: use one of {', '.join(PROFILES)}") from None


def check_option(name: str, value: Any, where: str = "profile") -> Any:
    """Check one option's value against its type and choices; returns it."""
    fields = {f.name: f for f in dataclasses.fields(RuleProfile)}
    f = fields.get(name)
    if f is None or name == "name":
        known = ", ".join(n for n in fields if n != "name")
        raise InputError(f"{where}.{name}", f"unknown option (known: {known})")
    default = f.default
    if isinstance(default, bool):
        flag(value, f"{where}.{name}")
    elif isinstance(default, int):
        whole(value, f"{where}.{name}", low=0)
    else:
        value = OLD_NAMES.get((name, value), value) if isinstance(value, str) else value
        choices: tuple[str, ...] = f.metadata["choices"]
        if not isinstance(value, str) or (choices and value not in choices):
            raise InputError(f"{where}.{name}", f"must be one of {', '.join(choices)}, got {value!r}")
    return value


def profile_from_mapping(base_name: str, overrides: Mapping[str, Any], where: str = "profile") -> RuleProfile:
    """Start from a shipped profile and override single options, each checked.

    The result keeps the base name with ``+custom`` when anything changed.
    """
    base = get_profile(base_name)
    if not isinstance(overrides, Mapping):
        raise InputError(where, "overrides must be a table of option = value")
    changes = {str(k): check_option(str(k), v, where) for k, v in overrides.items()}
    if not changes:
        return base
    return dataclasses.replace(base, name=f"{base.name}+custom", **changes)


def profile_to_dict(profile: RuleProfile) -> dict[str, Any]:
    """Every option by name (JSON/TOML ready); ``profile_from_dict`` reads it back."""
    return {f.name: getattr(profile, f.name) for f in dataclasses.fields(RuleProfile)}


def profile_from_dict(data: Mapping[str, Any], where: str = "profile") -> RuleProfile:
    """Read :func:`profile_to_dict`'s form (as in a journal); unknown keys are refused."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be an object of profile options")
    name = data.get("name", "standard")
    if not isinstance(name, str) or not name:
        raise InputError(f"{where}.name", "must be a non-empty string")
    changes = {str(k): check_option(str(k), v, where) for k, v in data.items() if k != "name"}
    return dataclasses.replace(RuleProfile(), name=name, **changes)
