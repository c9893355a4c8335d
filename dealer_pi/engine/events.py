"""The hand's events: immutable facts with past-tense names.

*Entries* are what the dealer, the shoe or a hand history tell the engine;
the hand's log is the list of entries and the state is derived from it
(:func:`dealer_pi.engine.hand.replay`). *Outcomes* are what the engine
concludes from an entry (a blind posted, an uncalled bet returned, a pot
awarded); they are returned by :func:`dealer_pi.engine.hand.apply_events`
for the journal and the web, and are never fed back in.

Every event has a JSON form:

>>> from .cards import parse_cards
>>> d = event_to_dict(BoardDealt(tuple(parse_cards("JcTs2d"))))
>>> d
{'type': 'board_dealt', 'cards': ['Jc', 'Ts', '2d']}
>>> event_from_dict(d) == BoardDealt(tuple(parse_cards("JcTs2d")))
True
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import Card
from .errors import InputError
from .observations import ActionKind, KillReason
from .profiles import DEFAULT_PROFILE, RuleProfile, profile_from_dict, profile_to_dict
from .setup import HandSetup, SeatSetup, Structure
from .validate import flag, whole

# ---------------------------------------------------------------- entries


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A new hand: the setup and the rule profile it is played under. Posts antes and blinds."""

    setup: HandSetup
    profile: RuleProfile = DEFAULT_PROFILE


@dataclass(frozen=True, slots=True)
class HoleCardsDealt:
    """Hole cards given to ``seat``; ``None`` is a card dealt face down and never read."""

    seat: int
    cards: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Board cards turned: the flop (3), the turn (1) or the river (1)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A betting decision for ``seat``. ``amount`` is the seat's street total after it
    ("raise to", as in PHH); needed for bet and raise, ignored for fold/check/call/all-in."""

    seat: int
    action: ActionKind
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class ChipsPlaced:
    """Chips pushed forward by ``seat`` (``amount`` = the chips added now), with an optional
    declaration; the engine decides what they mean (BET-OVERSIZED-CHIP, BET-UNDER-RAISE, BET-VERBAL)."""

    seat: int
    amount: int
    single_chip: bool = False
    declared: ActionKind | None = None
    declared_amount: int | None = None
    second_motion: bool = False  # a forward motion after the first (BET-STRING, 000 §6-7)


@dataclass(frozen=True, slots=True)
class HandShown:
    """``seat`` tables its hand. ``cards`` may be empty when the dealt cards are already known."""

    seat: int
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class HandMucked:
    """``seat`` gives up its hand at showdown without showing (POT-MUCK)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandKilled:
    """The hand of ``seat`` is dead (POT-DEAD-HAND); ``rule`` names the rule that killed it and
    ``reason`` what happened (its rule is ``KILL_RULES[reason]``). Without a reason, the one the
    rule implies is taken. Whatever the reason, the part of its bet nobody has called goes back
    (000 §33 says so of a dealer's kill; nobody can be made to call a dead hand's raise)."""

    seat: int
    rule: str
    reason: KillReason | None = None


@dataclass(frozen=True, slots=True)
class WinnersDeclared:
    """The dealer names the winner(s) of pot ``pot`` when the cards cannot be read."""

    pot: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MisdealDeclared:
    """The hand is void: stacks go back to their start (DEAL-MISDEAL-REMEDY)."""

    rule: str = "DEAL-MISDEAL-REMEDY"


# ---------------------------------------------------------------- outcomes


@dataclass(frozen=True, slots=True)
class AntePosted:
    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class BlindPosted:
    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class BetPlaced:
    """The accepted meaning of an action: ``to`` is the street total, ``added`` the chips moved.

    ``amends``: this is the seat's last action made again, bigger, by the one additional
    motion a raise said without its amount may take (000 §7); it replaces that action."""

    seat: int
    action: ActionKind
    to: int
    added: int
    all_in: bool = False
    amends: bool = False


@dataclass(frozen=True, slots=True)
class ExcessReturned:
    """Chips pushed beyond what the action means go back (BET-UNDER-RAISE, BET-OVERSIZED-CHIP)."""

    seat: int
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class ChipsOwed:
    """The pushed chips fall short of what the action means, and the player must add ``amount``:
    a declaration binds to the limit the chips allow (BET-VERBAL, 000 §3), an under-raise of
    50 % or more is completed (BET-UNDER-RAISE, 000 §9a). The engine counts the action in full."""

    seat: int
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class PenaltyCharged:
    """Chips a player must add to the pot as a penalty (002 §6.8: half the pot for a
    deliberately shown hole card, DEAL-PLAYER-EXPOSED under the ``half-pot`` option)."""

    seat: int
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class UncalledBetReturned:
    seat: int
    amount: int
    rule: str = "BET-UNCALLED"


@dataclass(frozen=True, slots=True)
class StreetCompleted:
    """A betting round closed: the pot is right (POT-RIGHT); ``pots`` are (amount, eligible seats)."""

    street: str
    pots: tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class PotAwarded:
    """Pot ``pot`` (0 = main) paid out: ``shares`` are (seat, chips); ``rake`` taken first."""

    pot: int
    amount: int
    shares: tuple[tuple[int, int], ...]
    rake: int = 0
    description: str = ""


@dataclass(frozen=True, slots=True)
class HandEnded:
    """Final stacks, in setup seat order, as (seat, stack)."""

    stacks: tuple[tuple[int, int], ...]
    misdeal: bool = False


Entry = (
    HandStarted | HoleCardsDealt | CardBurned | BoardDealt | ActionTaken | ChipsPlaced
    | HandShown | HandMucked | HandKilled | WinnersDeclared | MisdealDeclared
)
Outcome = (
    AntePosted | BlindPosted | BetPlaced | ExcessReturned | UncalledBetReturned | StreetCompleted
    | PotAwarded | HandEnded | PenaltyCharged | ChipsOwed
)
Event = Entry | Outcome

TYPE_NAMES: Final[dict[type, str]] = {
    HandStarted: "hand_started",
    HoleCardsDealt: "hole_cards_dealt",
    CardBurned: "card_burned",
    BoardDealt: "board_dealt",
    ActionTaken: "action_taken",
    ChipsPlaced: "chips_placed",
    HandShown: "hand_shown",
    HandMucked: "hand_mucked",
    HandKilled: "hand_killed",
    WinnersDeclared: "winners_declared",
    MisdealDeclared: "misdeal_declared",
    AntePosted: "ante_posted",
    BlindPosted: "blind_posted",
    BetPlaced: "bet_placed",
    ExcessReturned: "excess_returned",
    UncalledBetReturned: "uncalled_bet_returned",
    StreetCompleted: "street_completed",
    PotAwarded: "pot_awarded",
    HandEnded: "hand_ended",
    PenaltyCharged: "penalty_charged",
    ChipsOwed: "chips_owed",
}
_BY_NAME: Final[dict[str, type]] = {v: k for k, v in TYPE_NAMES.items()}


def _json(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, RuleProfile):
        return profile_to_dict(value)
    if isinstance(value, (HandSetup, SeatSetup)):
        return {f.name: _json(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON form: ``{"type": ..., field: value}``; cards as ``"Ah"``, ``None`` as null."""
    out: dict[str, Any] = {"type": TYPE_NAMES[type(event)]}
    for f in dataclasses.fields(event):
        out[f.name] = _json(getattr(event, f.name))
    return out


# ---------------------------------------------------------------- reading JSON back


def _str(v: object, where: str) -> str:
    if not isinstance(v, str):
        raise InputError(where, f"must be a string, got {v!r}")
    return v


def _list(v: object, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise InputError(where, f"must be a list, got {v!r}")
    return v


def _card(v: object, where: str) -> Card:
    return Card.parse(_str(v, where), where=where)


def _opt_card(v: object, where: str) -> Card | None:
    return None if v is None else _card(v, where)


def _action(v: object, where: str) -> ActionKind:
    names = [a.value for a in ActionKind]
    if v not in names:
        raise InputError(where, "must be one of " + ", ".join(names))
    return ActionKind(v)


def _reason(v: object, where: str) -> KillReason:
    names = [r.value for r in KillReason]
    if v not in names:
        raise InputError(where, "must be one of " + ", ".join(names))
    return KillReason(v)


def _setup(v: object, where: str) -> HandSetup:
    if not isinstance(v, Mapping):
        raise InputError(where, "must be an object")
    known = {"seats", "button", "structure", "small_bet", "big_bet", "hand_id"}
    _no_extra(v, known, where)
    seats = []
    for i, s in enumerate(_list(v.get("seats"), f"{where}.seats")):
        w = f"{where}.seats[{i}]"
        if not isinstance(s, Mapping):
            raise InputError(w, "must be an object")
        _no_extra(s, {"seat", "stack", "ante", "blind", "name"}, w)
        seats.append(SeatSetup(
            seat=whole(s.get("seat"), f"{w}.seat", low=1), stack=whole(s.get("stack"), f"{w}.stack", low=1),
            ante=whole(s.get("ante", 0), f"{w}.ante", low=0), blind=whole(s.get("blind", 0), f"{w}.blind", low=0),
            name=_str(s.get("name", ""), f"{w}.name"),
        ))
    structures = [x.value for x in Structure]
    st = v.get("structure", "no-limit")
    if st not in structures:
        raise InputError(f"{where}.structure", "must be one of " + ", ".join(structures))
    return HandSetup(
        seats=tuple(seats), button=whole(v.get("button"), f"{where}.button", low=1), structure=Structure(st),
        small_bet=whole(v.get("small_bet", 2), f"{where}.small_bet", low=1),
        big_bet=whole(v.get("big_bet", 0), f"{where}.big_bet", low=0), hand_id=_str(v.get("hand_id", ""), f"{where}.hand_id"),
    )


def _no_extra(d: Mapping[str, Any], known: set[str], where: str) -> None:
    extra = sorted(set(d) - known)
    if extra:
        raise InputError(f"{where}.{extra[0]}", "unknown field")


def event_from_dict(data: Mapping[str, Any], where: str = "event") -> Event:
    """Read :func:`event_to_dict`'s form back; every error names the field."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be an object with a 'type' field")
    cls = _BY_NAME.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise InputError(f"{where}.type", "must be one of " + ", ".join(_BY_NAME))
    names = {f.name for f in dataclasses.fields(cls)}
    _no_extra(data, names | {"type"}, where)
    kwargs: dict[str, Any] = {}
    for name in names:
        w = f"{where}.{name}"
        if name not in data:
            continue  # dataclass defaults apply; a missing required field fails below
        v = data[name]
        if name == "setup":
            kwargs[name] = _setup(v, w)
        elif name == "profile":
            kwargs[name] = profile_from_dict(v, w)
        elif name == "cards":
            conv = _opt_card if cls is HoleCardsDealt else _card
            kwargs[name] = tuple(conv(c, f"{w}[{i}]") for i, c in enumerate(_list(v, w)))
        elif name == "card":
            kwargs[name] = _opt_card(v, w)
        elif name in ("action", "declared"):
            kwargs[name] = None if v is None and name == "declared" else _action(v, w)
        elif name == "reason":
            kwargs[name] = None if v is None else _reason(v, w)
        elif name in ("seats",):
            kwargs[name] = tuple(whole(s, f"{w}[{i}]", low=1) for i, s in enumerate(_list(v, w)))
        elif name in ("shares", "stacks"):
            kwargs[name] = tuple((whole(p[0], w, low=0), whole(p[1], w, low=0)) for p in _list(v, w))
        elif name == "pots":
            kwargs[name] = tuple((whole(p[0], w, low=0), tuple(whole(s, w, low=0) for s in p[1])) for p in _list(v, w))
        elif name in ("amount", "declared_amount") and v is None:
            kwargs[name] = None
        elif name in ("single_chip", "all_in", "misdeal", "second_motion", "amends"):
            kwargs[name] = flag(v, w)
        elif name in ("rule", "street", "description"):
            kwargs[name] = _str(v, w)
        else:
            kwargs[name] = whole(v, w, low=0)
    try:
        event: Event = cls(**kwargs)
    except TypeError as exc:
        raise InputError(where, f"missing field ({exc})") from None
    return event
