"""The observation vocabulary: what every input source tells the table.

The shoe, the camera, the GPIO buttons and the dealer's tablet all speak this
one language, so the monitor never needs to know where a fact came from, only
who said it (``source``) and when (``ts_ms``, milliseconds on the runtime's
clock; the engine itself never reads a clock).

JSON form (scenario files, the web API, the journal) uses the ``type`` names
below; :func:`observation_from_dict` checks every field and names the bad one.

>>> o = observation_from_dict({"type": "card_seen", "zone": "seat:3", "face_up": False, "card": None})
>>> o.zone
Zone('seat:3')
>>> observation_to_dict(o)["type"]
'card_seen'
>>> observation_from_dict({"type": "action", "seat": 2, "action": "jump"}, where="observations[4]")
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: observations[4].action: must be one of fold, check, call, bet, raise, all-in, post
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Final, Mapping, Union

from .cards import Card
from .errors import InputError
from .validate import flag, number, whole

MAX_SEATS: Final = 10


@dataclass(frozen=True, slots=True)
class Zone:
    """A place on the felt: ``seat:N``, ``board``, ``burn``, ``muck`` or ``shoe``."""

    kind: str
    seat: int | None = None

    KINDS = ("seat", "board", "burn", "muck", "shoe")

    @staticmethod
    def parse(text: object, where: str = "zone") -> "Zone":
        if not isinstance(text, str):
            raise InputError(where, "must be a string like 'seat:3' or 'board'")
        if text.startswith("seat:"):
            num = text[5:]
            if not num.isdigit() or not 1 <= int(num) <= MAX_SEATS:
                raise InputError(where, f"seat number must be 1..{MAX_SEATS}, got {num!r}")
            return Zone("seat", int(num))
        if text in ("board", "burn", "muck", "shoe"):
            return Zone(text)
        raise InputError(where, f"unknown zone {text!r}: use seat:N, board, burn, muck or shoe")

    def __str__(self) -> str:
        return f"seat:{self.seat}" if self.kind == "seat" else self.kind

    def __repr__(self) -> str:
        return f"Zone({str(self)!r})"


class ActionKind(enum.Enum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all-in"
    POST = "post"


class Declaration(enum.Enum):
    MISDEAL = "misdeal"
    NEW_HAND = "new hand"
    SHUFFLE_DONE = "shuffle done"
    UNDO = "undo"
    CARDS_OUT = "cards out"  # the hole cards are all dealt: the betting opens (no card sensor needed)
    VOID_HAND = "void hand"  # the floor voids the running hand without a redeal (a new setup follows)


class Decision(enum.Enum):
    CONFIRM = "confirm"
    DISMISS = "dismiss"


class KillReason(enum.Enum):
    """Why a hand dies mid-hand (POT-DEAD-HAND); :data:`KILL_RULES` names each one's rule."""

    DEALER = "dealer-kill"  # 000 §33: the dealer killed an unprotected hand; an uncalled raise goes back
    MUCK = "touched-muck"  # 000 §32: a live hand touched the muck
    CLOCK = "clock"  # 000 §29: the clock ran out
    AWAY = "away"  # 000 §30-31: the player left, or was not seated when all hands were dealt
    DISCLOSURE = "verbal-disclosure"  # 000 §35: the player said what the hand holds
    DELIBERATE_SHOW = "deliberate-show"  # 002 §6.8: a hole card shown on purpose (house-pig's penalty)


KILL_RULES: Final[dict[KillReason, str]] = {
    KillReason.DEALER: "POT-DEAD-HAND",
    KillReason.MUCK: "POT-MUCK",
    KillReason.CLOCK: "BET-CLOCK",
    KillReason.AWAY: "TABLE-AWAY",
    KillReason.DISCLOSURE: "POT-DEAD-HAND",
    KillReason.DELIBERATE_SHOW: "DEAL-PLAYER-EXPOSED",
}


@dataclass(frozen=True, slots=True)
class ShoeDraw:
    """A card left the shoe; ``card`` is None when the shoe cannot read it."""

    card: Card | None = None
    source: str = "shoe"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class CardSeen:
    """A card appeared in a zone. ``guess``: for a face-up card the camera could not name
    (``card`` None), the name its reads lean to, too unsure to stand alone; the monitor may take
    it where another sensor agrees (the smart shoe dealt that card there)."""

    zone: Zone
    face_up: bool
    card: Card | None = None
    confidence: float = 1.0
    source: str = "camera"
    ts_ms: int = 0
    guess: Card | None = None


@dataclass(frozen=True, slots=True)
class CardLeft:
    """A card left a zone (picked up, mucked, pulled back)."""

    zone: Zone
    card: Card | None = None
    source: str = "camera"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class PlayerAction:
    """A betting action entered for a seat.

    ``amount`` is the seat's total for the street after the action ("raise to",
    as in PHH), required for bet and raise, optional for post.
    """

    seat: int
    action: ActionKind
    amount: int | None = None
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class ChipsPushed:
    """Chips put forward with an optional verbal declaration (BET-VERBAL, BET-OVERSIZED-CHIP).

    ``single_chip`` marks one oversized chip; the engine decides what it means.
    ``second_motion`` marks chips the same seat pushed in a forward motion after the first
    (BET-STRING, 000 §6): dismissed, unless "raise" was said without an amount (000 §7).
    """

    seat: int
    amount: int
    single_chip: bool = False
    declared: ActionKind | None = None
    declared_amount: int | None = None
    source: str = "dealer"
    ts_ms: int = 0
    second_motion: bool = False


@dataclass(frozen=True, slots=True)
class KillHand:
    """The dealer rules the hand of ``seat`` dead, for ``reason`` (POT-DEAD-HAND)."""

    seat: int
    reason: KillReason
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class DealerDeclaration:
    declare: Declaration
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class AlertDecision:
    """The dealer confirmed or dismissed an alert; the decision is itself an event."""

    alert_id: str
    decision: Decision
    source: str = "dealer"
    ts_ms: int = 0


Observation = Union[ShoeDraw, CardSeen, CardLeft, PlayerAction, ChipsPushed, KillHand, DealerDeclaration, AlertDecision,
                    "TableChange", "Declared"]

_TYPE_NAMES: Final[dict[type, str]] = {
    ShoeDraw: "shoe_draw",
    CardSeen: "card_seen",
    CardLeft: "card_left",
    PlayerAction: "action",
    ChipsPushed: "chips",
    KillHand: "kill",
    DealerDeclaration: "dealer",
    AlertDecision: "decision",
}
_FIELDS: Final[dict[str, set[str]]] = {
    "shoe_draw": {"card"},
    "card_seen": {"zone", "face_up", "card", "confidence", "guess"},
    "card_left": {"zone", "card"},
    "action": {"seat", "action", "amount"},
    "chips": {"seat", "amount", "single_chip", "declared", "declared_amount", "second_motion"},
    "kill": {"seat", "reason"},
    "dealer": {"declare"},
    "decision": {"alert_id", "decision"},
}
_COMMON: Final = {"type", "source", "ts_ms"}
_PARSED_ABOVE: Final = frozenset(_FIELDS)


def _enum(cls: type[enum.Enum], value: object, where: str) -> Any:
    names = [m.value for m in cls]
    if value not in names:
        raise InputError(where, "must be one of " + ", ".join(names))
    return cls(value)


def _opt_card(value: object, where: str) -> Card | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(where, f"must be a card like 'Ah' or null, got {value!r}")
    return Card.parse(value, where=where)


def observation_from_dict(data: Mapping[str, Any], where: str = "observation") -> Observation:
    """Check and convert one JSON observation; errors name the field (``where.field``)."""
    if not isinstance(data, Mapping):
        raise InputError(where, "must be an object with a 'type' field")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InputError(f"{where}.type", "must be one of " + ", ".join(_FIELDS))
    unknown = set(data) - _FIELDS[kind] - _COMMON
    if unknown:
        raise InputError(f"{where}.{sorted(unknown)[0]}", f"unknown field for a {kind} observation")
    source = data.get("source", "sensor" if kind in ("shoe_draw", "card_seen", "card_left") else "dealer")
    if not isinstance(source, str) or not source:
        raise InputError(f"{where}.source", "must be a non-empty string")
    ts_ms = whole(data.get("ts_ms", 0), f"{where}.ts_ms", low=0)

    def f(name: str) -> str:
        return f"{where}.{name}"

    def need(name: str) -> Any:
        if name not in data:
            raise InputError(f(name), "is required")
        return data[name]

    if kind == "shoe_draw":
        return ShoeDraw(_opt_card(data.get("card"), f("card")), source, ts_ms)
    if kind in ("card_seen", "card_left"):
        zone = Zone.parse(need("zone"), f("zone"))
        card = _opt_card(data.get("card"), f("card"))
        if kind == "card_left":
            return CardLeft(zone, card, source, ts_ms)
        face_up = flag(need("face_up"), f("face_up"))
        conf = number(data.get("confidence", 1.0), f("confidence"), low=0, high=1)
        guess = _opt_card(data.get("guess"), f("guess"))
        if guess is not None and (card is not None or not face_up):
            raise InputError(f("guess"), "is only for a face-up card seen without a name (card null)")
        return CardSeen(zone, face_up, card, conf, source, ts_ms, guess)
    if kind == "action":
        seat = whole(need("seat"), f("seat"), low=1, high=MAX_SEATS)
        action = _enum(ActionKind, need("action"), f("action"))
        amount = data.get("amount")
        if amount is not None:
            amount = whole(amount, f("amount"), low=0)
        elif action in (ActionKind.BET, ActionKind.RAISE):
            raise InputError(f("amount"), f"is required for {action.value}")
        return PlayerAction(seat, action, amount, source, ts_ms)
    if kind == "chips":
        seat = whole(need("seat"), f("seat"), low=1, high=MAX_SEATS)
        amount = whole(need("amount"), f("amount"), low=1)
        single = flag(data.get("single_chip", False), f("single_chip"))
        declared = data.get("declared")
        if declared is not None:
            declared = _enum(ActionKind, declared, f("declared"))
        d_amount = data.get("declared_amount")
        if d_amount is not None:
            d_amount = whole(d_amount, f("declared_amount"), low=1)
        second = flag(data.get("second_motion", False), f("second_motion"))
        return ChipsPushed(seat, amount, single, declared, d_amount, source, ts_ms, second)
    if kind == "kill":
        seat = whole(need("seat"), f("seat"), low=1, high=MAX_SEATS)
        return KillHand(seat, _enum(KillReason, need("reason"), f("reason")), source, ts_ms)
    if kind == "dealer":
        return DealerDeclaration(_enum(Declaration, need("declare"), f("declare")), source, ts_ms)
    if kind in _MORE_PARSERS:
        return _MORE_PARSERS[kind](data, f, need, source, ts_ms)
    alert_id = need("alert_id")
    if not isinstance(alert_id, str) or not alert_id:
        raise InputError(f("alert_id"), "must be a non-empty string")
    return AlertDecision(alert_id, _enum(Decision, need("decision"), f("decision")), source, ts_ms)


def observation_to_dict(obs: Observation) -> dict[str, Any]:
    """The JSON form read back by :func:`observation_from_dict`."""
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(obs)]}
    for name in obs.__dataclass_fields__:
        value = getattr(obs, name)
        if isinstance(value, (Card, Zone)):
            value = str(value)
        elif isinstance(value, enum.Enum):
            value = value.value
        out[name] = value
    return out


# ---------------------------------------------------------------- between hands and said aloud


@dataclass(frozen=True, slots=True)
class PlayerSeated:
    """A player sits down between hands (TABLE-NEW-PLAYER): posts a big blind at once
    (``post_now``) or waits for it; a player ``moved`` from another table takes the seat's
    position at once (000 §52, TABLE-MOVE)."""

    seat: int
    stack: int
    name: str = ""
    post_now: bool = False
    moved: bool = False
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class PlayerRemoved:
    """A player leaves the table (busted players leave by themselves)."""

    seat: int
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class ChipsAdded:
    """A rebuy or add-on, between hands only (TABLE-REBUY, BET-TABLE-STAKES)."""

    seat: int
    amount: int
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class LevelChanged:
    """New forced bets from the next hand on (TABLE-LEVELS); both blinds 0 with an ante: ante only."""

    small_blind: int
    big_blind: int
    ante: int = 0
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class PlayerAway:
    """A player is away from the seat (``away``) or back (TABLE-AWAY), from the next hand on."""

    seat: int
    away: bool = True
    source: str = "dealer"
    ts_ms: int = 0


HAND_NAMES: Final = ("high-card", "pair", "two-pair", "three-of-a-kind", "straight", "flush", "full-house",
                     "four-of-a-kind", "straight-flush")


@dataclass(frozen=True, slots=True)
class VerbalDeclaration:
    """A player says the action in turn, with no chips pushed yet: binding (BET-VERBAL)."""

    seat: int
    action: ActionKind
    amount: int | None = None
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class BoardPlayed:
    """At the showdown a player says "I play the board" before letting go of the cards (POT-SHOW-BOTH, 001)."""

    seat: int
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class HandAnnounced:
    """What a player calls the hand at the showdown (one of :data:`HAND_NAMES`); not binding:
    cards speak (POT-CARDS-SPEAK, 000 §37)."""

    seat: int
    hand: str
    source: str = "dealer"
    ts_ms: int = 0


@dataclass(frozen=True, slots=True)
class WinnersNamed:
    """At the showdown the dealer names who wins pot ``pot`` (0 is the main pot) where the cards
    cannot be read into the hand: a tabled card the camera could not name, with a shoe that only
    counts (POT-SHOW-BOTH, POT-CARDS-SPEAK: the dealer reads the hands and pushes the pot)."""

    pot: int
    seats: tuple[int, ...]
    source: str = "dealer"
    ts_ms: int = 0


TableChange = Union[PlayerSeated, PlayerRemoved, ChipsAdded, LevelChanged, PlayerAway]
Declared = Union[VerbalDeclaration, BoardPlayed, HandAnnounced, WinnersNamed]

_TYPE_NAMES.update({
    PlayerSeated: "seat_player", PlayerRemoved: "remove_player", ChipsAdded: "rebuy", LevelChanged: "level",
    PlayerAway: "away", VerbalDeclaration: "verbal", BoardPlayed: "play_board", HandAnnounced: "announce",
    WinnersNamed: "winners",
})
_FIELDS.update({
    "seat_player": {"seat", "stack", "name", "post_now", "moved"},
    "remove_player": {"seat"},
    "rebuy": {"seat", "amount"},
    "level": {"small_blind", "big_blind", "ante"},
    "away": {"seat", "away"},
    "verbal": {"seat", "action", "amount"},
    "play_board": {"seat"},
    "announce": {"seat", "hand"},
    "winners": {"pot", "seats"},
})


def _flag(data: Mapping[str, Any], name: str, where: str, default: bool) -> bool:
    v = data.get(name, default)
    if not isinstance(v, bool):
        raise InputError(where, "must be true or false")
    return v


def _parse_more(data: Mapping[str, Any], f: Any, need: Any, source: str, ts_ms: int) -> Observation:
    kind = data["type"]
    if kind == "level":
        return LevelChanged(whole(need("small_blind"), f("small_blind"), low=0),
                            whole(need("big_blind"), f("big_blind"), low=0),
                            whole(data.get("ante", 0), f("ante"), low=0), source, ts_ms)
    if kind == "winners":
        seats = need("seats")
        if not isinstance(seats, (list, tuple)) or not seats:
            raise InputError(f("seats"), "must be a list of the winning seats, at least one")
        named = tuple(whole(v, f(f"seats[{k}]"), low=1, high=MAX_SEATS) for k, v in enumerate(seats))
        if len(set(named)) != len(named):
            raise InputError(f("seats"), "names a seat twice")
        return WinnersNamed(whole(need("pot"), f("pot"), low=0, high=MAX_SEATS), named, source, ts_ms)
    seat = whole(need("seat"), f("seat"), low=1, high=MAX_SEATS)
    if kind == "seat_player":
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 40:
            raise InputError(f("name"), "must be a string of at most 40 characters")
        return PlayerSeated(seat, whole(need("stack"), f("stack"), low=1), name,
                            _flag(data, "post_now", f("post_now"), False), _flag(data, "moved", f("moved"), False),
                            source, ts_ms)
    if kind == "remove_player":
        return PlayerRemoved(seat, source, ts_ms)
    if kind == "rebuy":
        return ChipsAdded(seat, whole(need("amount"), f("amount"), low=1), source, ts_ms)
    if kind == "away":
        return PlayerAway(seat, _flag(data, "away", f("away"), True), source, ts_ms)
    if kind == "verbal":
        action = _enum(ActionKind, need("action"), f("action"))
        amount = data.get("amount")
        if amount is not None:
            amount = whole(amount, f("amount"), low=1)
        elif action in (ActionKind.BET, ActionKind.RAISE):
            raise InputError(f("amount"), f"is required for {action.value}")
        return VerbalDeclaration(seat, action, amount, source, ts_ms)
    if kind == "play_board":
        return BoardPlayed(seat, source, ts_ms)
    hand = need("hand")
    if hand not in HAND_NAMES:
        raise InputError(f("hand"), "must be one of " + ", ".join(HAND_NAMES))
    return HandAnnounced(seat, hand, source, ts_ms)


_MORE_PARSERS: Final = {kind: _parse_more for kind in _FIELDS if kind not in _PARSED_ABOVE}
