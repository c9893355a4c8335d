"""PHH (Poker Hand History, TOML) for Texas Hold'em: read, check, write.

Pure: :func:`parse_phh` takes the text, :func:`to_phh` gives text back, and
``parse_phh(to_phh(h)) == h``. The PHH specification (phh-std, "Required
fields") names Hold'em variants ``NT`` (No-Limit) and ``FT`` (Fixed-Limit);
it has no code for Pot-Limit Hold'em, so dealer-pi writes it ``PT``, after the
standard's own pattern (limit letter, then ``T`` for Texas hold'em, as in
``PO`` for Pot-Limit Omaha). Other variants are refused by name.

Players are numbered as in the file: ``p1`` is the small blind (the first
dealt) and the last player has the button. Amounts are whole chips; a float
field is accepted only when it is whole (``3.0``), except in the results
(``finishing_stacks``, ``winnings``): published data sets write a split odd
chip as a fraction (``10112.5``), and those fractions are kept as read.

>>> h = parse_phh('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ["d dh p1 AcKd", "d dh p2 ????", "p2 cbr 6", "p1 f"]
... ''')
>>> h.actions[2]
BetRaise(player=2, amount=6, comment='')
>>> parse_phh(to_phh(h)) == h
True
>>> parse_phh(to_phh(h).replace('"p1 f"', '"p9 cc"'))
Traceback (most recent call last):
...
dealer_pi.engine.errors.InputError: actions[3]: 'p9 cc': there is no player 9
"""

from __future__ import annotations

import datetime
import json
import math
import re
import tomllib
from dataclasses import dataclass
from typing import Any, Callable, Final, Mapping, Sequence, Union

from .cards import FULL_DECK, Card
from .errors import InputError
from .validate import flag, is_number, is_whole, number, whole

HOLDEM_VARIANTS: Final = {
    "NT": "No-Limit Texas Hold'em",
    "PT": "Pot-Limit Texas Hold'em",
    "FT": "Fixed-Limit Texas Hold'em",
}
# The standard's other codes, so a refusal can say what the file is.
OTHER_VARIANTS: Final = {
    "NS": "No-Limit Short-Deck Hold'em",
    "PO": "Pot-Limit Omaha",
    "FO/8": "Fixed-Limit Omaha Hi/Lo",
    "F7S": "Fixed-Limit Seven Card Stud",
    "F7S/8": "Fixed-Limit Seven Card Stud Hi/Lo",
    "FR": "Fixed-Limit Razz",
    "N2L1D": "No-Limit 2-7 Single Draw",
    "F2L3D": "Fixed-Limit 2-7 Triple Draw",
    "FB": "Fixed-Limit Badugi",
}
MAX_PLAYERS: Final = 10  # the most seats dealer-pi knows (observations.MAX_SEATS)

UNKNOWN: Final = None  # an unknown hole card, written ``??``
HoleCard = Union[Card, None]
Chips = Union[int, float]  # a result: whole chips, or a fraction of a split odd chip


# -- actions ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealHole:
    """``d dh pN cards``: hole cards to one player; ``None`` is an unknown card."""

    player: int
    cards: tuple[HoleCard, ...]
    comment: str = ""


@dataclass(frozen=True, slots=True)
class DealBoard:
    """``d db cards``: the flop (three cards), the turn or the river."""

    cards: tuple[Card, ...]
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Fold:
    player: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class CheckCall:
    player: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class BetRaise:
    """``pN cbr X``: bet or raise *to* X, the player's total for the street."""

    player: int
    amount: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class ShowMuck:
    """``pN sm [cards]``: ``cards`` None is a muck. ``as_dealt`` keeps the ``-`` spelling."""

    player: int
    cards: tuple[HoleCard, ...] | None
    comment: str = ""
    as_dealt: bool = False


@dataclass(frozen=True, slots=True)
class NoOp:
    """An empty action or a bare ``# commentary``."""

    comment: str = ""


Action = Union[DealHole, DealBoard, Fold, CheckCall, BetRaise, ShowMuck, NoOp]


# -- the hand ---------------------------------------------------------------

# Optional fields of the standard with their TOML types, kept as read and written back.
_INFO_TYPES: Final[dict[str, tuple[type, ...]]] = {
    "author": (str,), "event": (str,), "url": (str,), "venue": (str,), "address": (str,),
    "city": (str,), "region": (str,), "postal_code": (str,), "country": (str,),
    "time": (datetime.time, datetime.datetime, datetime.date), "time_zone": (str,),
    "time_zone_abbreviation": (str,), "day": (int,), "month": (int,), "year": (int,),
    "hand": (str, int), "level": (int,), "table": (str, int), "currency": (str,),
    "currency_symbol": (str,), "time_limit": (int, float), "time_banks": (list,),
}


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One checked PHH hand. Per-player tuples are in PHH order (p1 first)."""

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[Action, ...]
    min_bet: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    ante_trimming_status: bool | None = None
    players: tuple[str, ...] | None = None
    seats: tuple[int, ...] | None = None
    seat_count: int | None = None
    finishing_stacks: tuple[Chips, ...] | None = None  # a split odd chip may be written as fractions
    winnings: tuple[Chips, ...] | None = None
    # Descriptive fields (author, event, year, ...) and user fields (``_name``), in file order.
    info: tuple[tuple[str, Any], ...] = ()

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def betting(self) -> str:
        """``"no-limit"``, ``"pot-limit"`` or ``"limit"``."""
        return {"NT": "no-limit", "PT": "pot-limit", "FT": "limit"}[self.variant]

    def name(self, player: int) -> str:
        """The player's name when the file has one, else ``p3``."""
        if self.players and self.players[player - 1]:
            return self.players[player - 1]
        return f"p{player}"


# -- reading ---------------------------------------------------------------


def _chips(value: object, where: str, *, low: int = 0) -> int:
    return whole(value, where, low=low, floats=True, unit=" of chips")


def _result(value: object, where: str) -> Chips:
    """A result amount: whole chips, or a fraction where a split odd chip was shared out."""
    if is_number(value) and isinstance(value, float) and not value.is_integer():
        return number(value, where, low=0)
    return _chips(value, where)


def _chip_list(data: Mapping[str, Any], key: str, n: int | None, *, low: int = 0) -> tuple[int, ...]:
    value = data[key]
    if type(value) is list and (n is None or len(value) == n) and all(type(v) is int and v >= low for v in value):
        return tuple(value)  # the usual case, checked in one go; below says what is wrong
    return tuple(_chips(v, w, low=low) for v, w in _amounts(data, key, n))


def _result_list(data: Mapping[str, Any], key: str, n: int) -> tuple[Chips, ...]:
    value = data[key]
    if type(value) is list and len(value) == n and all(type(v) is int and v >= 0 for v in value):
        return tuple(value)
    return tuple(_result(v, w) for v, w in _amounts(data, key, n))


def _amounts(data: Mapping[str, Any], key: str, n: int | None) -> list[tuple[object, str]]:
    value = data[key]
    if not isinstance(value, list):
        raise InputError(key, f"must be an array of amounts, got {value!r}")
    if n is not None and len(value) != n:
        raise InputError(key, f"has {len(value)} entries for {n} players")
    return [(v, f"{key}[{i}]") for i, v in enumerate(value)]


_PLAYER: Final = re.compile(r"p([0-9]+)\Z")
_AMOUNT: Final = re.compile(r"[0-9]+(\.0*)?\Z")


# Exact PHH spellings go through a table; anything else (``ah``, ``10h``, a typo) through
# Card.parse, which accepts the variants and words the error.
_CARD_TEXT: Final[dict[str, HoleCard]] = {str(c): c for c in FULL_DECK} | {"??": UNKNOWN}
_PLAYER_TOKEN: Final = {f"p{i}": i for i in range(1, MAX_PLAYERS + 1)}


def _hole_cards(text: str, where: str) -> tuple[HoleCard, ...]:
    if len(text) % 2:
        raise InputError(where, f"cards {text!r} come in pairs of characters, like 'AcKd' or '????'")
    table = _CARD_TEXT
    out: list[HoleCard] = []
    for i in range(0, len(text), 2):
        pair = text[i : i + 2]
        card = table.get(pair, table)
        out.append(Card.parse(pair, where=f"{where}: card {pair!r}") if card is table else card)  # type: ignore[arg-type]
    return tuple(out)


class _Reader:
    """Checks the actions in order, keeping what was dealt so far."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.where = ""
        self.body = ""
        self.dealt: dict[Card, str] = {}
        self.holes: dict[int, tuple[HoleCard, ...]] = {}
        self.board = 0

    def take(self, cards: Sequence[HoleCard], where: str, label: str) -> None:
        for c in cards:
            if c is None:
                continue
            if c in self.dealt:
                raise InputError(where, f"{c} is dealt twice (already {self.dealt[c]})")
            self.dealt[c] = label

    def fail(self, message: str) -> InputError:
        return InputError(self.where, f"{self.body.strip()!r}: {message}")

    def read(self, index: int, raw: object) -> Action:
        self.where = where = f"actions[{index}]"
        if not isinstance(raw, str):
            raise InputError(where, f"must be a string like 'p1 cc', got {raw!r}")
        body, _, comment = raw.partition("#")
        self.body = body
        comment = comment.strip()
        tokens = body.split()
        fail = self.fail
        if not tokens:
            return NoOp(comment)
        if tokens[0] == "d":
            verb = tokens[1] if len(tokens) > 1 else ""
            if verb == "dh" and len(tokens) == 4:
                p = self._player(tokens[2])
                cards = self._cards(tokens[3])
                if len(cards) != 2:
                    raise fail(f"Hold'em hole cards are two cards, got {len(cards)}")
                if p in self.holes:
                    raise fail(f"player {p} was already dealt hole cards")
                self.take(cards, where, f"to p{p}")
                self.holes[p] = cards
                return DealHole(p, cards, comment)
            if verb == "db" and len(tokens) == 3:
                cards = self._cards(tokens[2])
                if any(c is None for c in cards):
                    raise fail("board cards must be known")
                expected = {0: 3, 3: 1, 4: 1}.get(self.board)
                if expected is None:
                    raise fail("the board already has five cards")
                if len(cards) != expected:
                    street = {0: "flop", 3: "turn", 4: "river"}[self.board]
                    raise fail(f"the {street} is {expected} card{'s' if expected > 1 else ''}, got {len(cards)}")
                self.take(cards, where, "on the board")
                self.board += len(cards)
                return DealBoard(tuple(c for c in cards if c is not None), comment)
            raise fail("a dealer action is 'd dh pN CARDS' or 'd db CARDS'")
        p = self._player(tokens[0])
        verb = tokens[1] if len(tokens) > 1 else ""
        args = tokens[2:]
        if verb == "cc" and not args:
            return CheckCall(p, comment)
        if verb == "f" and not args:
            return Fold(p, comment)
        if verb == "cbr" and len(args) == 1:
            text = args[0]
            if text.isdigit() and text.isascii():
                amount = int(text)
            elif _AMOUNT.match(text):
                amount = int(float(text))
            else:
                raise fail(f"the amount {text!r} must be a whole number of chips")
            if amount <= 0:
                raise fail("the amount must be positive")
            return BetRaise(p, amount, comment)
        if verb == "sm" and len(args) <= 1:
            if not args:
                return ShowMuck(p, None, comment)
            dealt = self.holes.get(p)
            if args[0] == "-":
                if dealt is None or any(c is None for c in dealt):
                    raise fail(f"'-' shows the cards dealt, but p{p}'s cards were not dealt face known")
                return ShowMuck(p, dealt, comment, as_dealt=True)
            shown = self._cards(args[0])
            if dealt is not None:
                if len(shown) != len(dealt):
                    raise fail(f"p{p} was dealt {len(dealt)} cards and shows {len(shown)}")
                for d, c in zip(dealt, shown):
                    if d is not None and c is not None and d is not c:
                        raise fail(f"p{p} shows {c} but was dealt {d}")
                    if d is None and c is not None:
                        self.take((c,), where, f"to p{p}")
            return ShowMuck(p, shown, comment)
        if verb in ("sd", "pb"):
            raise fail(f"'{verb}' (draw or bring-in) is not a Hold'em action")
        raise fail("a player action is 'pN f', 'pN cc', 'pN cbr AMOUNT' or 'pN sm [CARDS]'")

    def _player(self, token: str) -> int:
        p = _PLAYER_TOKEN.get(token, 0)
        if 0 < p <= self.n:
            return p
        m = _PLAYER.match(token)
        if not m:
            raise self.fail(f"{token!r} is not a player (p1 to p{self.n})")
        p = int(m.group(1))
        if not 1 <= p <= self.n:
            raise self.fail(f"there is no player {p}")
        return p

    def _cards(self, text: str) -> tuple[HoleCard, ...]:
        try:
            return _hole_cards(text, "cards")
        except InputError as err:
            raise self.fail(err.message) from None


_HOLDEM_KEYS: Final = {
    "variant", "antes", "blinds_or_straddles", "min_bet", "small_bet", "big_bet", "bring_in",
    "starting_stacks", "actions", "ante_trimming_status", "players", "seats", "seat_count",
    "finishing_stacks", "winnings",
}


def parse_phh(text: str) -> HandHistory:
    """Read and check one PHH document; errors name the field or ``actions[i]``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError("toml", str(err)) from None
    return history_from_dict(data)



def parse_phh_file(text: str) -> list[tuple[str, HandHistory | InputError]]:
    """Every hand of a ``.phh`` (one hand) or ``.phhs`` (tables ``[1]``, ``[2]``...) text.

    Each hand is checked on its own: a bad one gives its :class:`InputError`
    in place and the others are still read. A ``.phh`` hand is named ``""``.
    A TOML syntax error spoils the whole text and is raised.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError("toml", str(err)) from None
    if data and all(isinstance(v, dict) for v in data.values()):
        out: list[tuple[str, HandHistory | InputError]] = []
        for name, table in data.items():
            try:
                out.append((name, history_from_dict(table)))
            except InputError as err:
                out.append((name, InputError(f"[{name}].{err.where}" if err.where else f"[{name}]", err.message)))
        return out
    try:
        return [("", history_from_dict(data))]
    except InputError as err:
        return [("", err)]

def history_from_dict(data: Mapping[str, Any]) -> HandHistory:
    """Check a PHH document already read from TOML (a ``.phhs`` section, say)."""
    for key in data:
        if key not in _HOLDEM_KEYS and key not in _INFO_TYPES and not key.startswith("_"):
            raise InputError(key, "unknown PHH field (user fields start with '_')")
    if "variant" not in data:
        raise InputError("variant", "is required")
    variant = data["variant"]
    if not isinstance(variant, str) or variant not in HOLDEM_VARIANTS:
        what = OTHER_VARIANTS.get(variant) if isinstance(variant, str) else None
        known = ", ".join(f"{k} ({v})" for k, v in HOLDEM_VARIANTS.items())
        head = f"{variant!r} ({what}) is not Texas Hold'em" if what else f"unknown variant {variant!r}"
        raise InputError("variant", f"{head}; dealer-pi reads {known}")
    for key in ("antes", "blinds_or_straddles", "starting_stacks", "actions"):
        if key not in data:
            raise InputError(key, "is required")
    if "bring_in" in data:
        raise InputError("bring_in", "Hold'em has blinds, not a bring-in")
    fixed = variant == "FT"
    for key in ("small_bet", "big_bet") if fixed else ("min_bet",):
        if key not in data:
            raise InputError(key, f"is required for {variant}")
    for key in ("min_bet",) if fixed else ("small_bet", "big_bet"):
        if key in data:
            raise InputError(key, f"is not a field of {variant} ({'no' if fixed else 'fixed'}-limit betting)")

    stacks = _chip_list(data, "starting_stacks", None, low=1)
    n = len(stacks)
    if not 2 <= n <= MAX_PLAYERS:
        raise InputError("starting_stacks", f"a hand has 2 to {MAX_PLAYERS} players, got {n}")
    antes = _chip_list(data, "antes", n)
    blinds = _chip_list(data, "blinds_or_straddles", n)

    def bet(key: str) -> int | None:
        return _chips(data[key], key, low=1) if key in data else None

    trimming = data.get("ante_trimming_status")
    if trimming is not None:
        flag(trimming, "ante_trimming_status")

    players = data.get("players")
    if players is not None:
        if not isinstance(players, list) or len(players) != n or not all(isinstance(p, str) for p in players):
            raise InputError("players", f"must be an array of {n} names")
        players = tuple(players)
    seat_count = data.get("seat_count")
    if seat_count is not None:
        whole(seat_count, "seat_count", low=n)
    seats = data.get("seats")
    if seats is not None:
        if not isinstance(seats, list) or len(seats) != n:
            raise InputError("seats", f"must be an array of {n} seat numbers")
        for i, s in enumerate(seats):
            if not is_whole(s, 1) or (seat_count and s > seat_count):
                top = f" to {seat_count}" if seat_count else " or more"
                raise InputError(f"seats[{i}]", f"must be a seat number 1{top}, got {s!r}")
        if len(set(seats)) != n:
            raise InputError("seats", "two players share a seat")
        seats = tuple(seats)

    raw_actions = data["actions"]
    if not isinstance(raw_actions, list):
        raise InputError("actions", "must be an array of strings")
    reader = _Reader(n)
    actions = tuple(reader.read(i, a) for i, a in enumerate(raw_actions))

    finishing = _result_list(data, "finishing_stacks", n) if "finishing_stacks" in data else None
    winnings = _result_list(data, "winnings", n) if "winnings" in data else None
    info: list[tuple[str, Any]] = []
    for key, value in data.items():
        if key in _HOLDEM_KEYS:
            continue
        types = _INFO_TYPES.get(key)
        if types is not None and (isinstance(value, bool) or not isinstance(value, types)):
            names = " or ".join(t.__name__ for t in types)
            raise InputError(key, f"must be of type {names}, got {value!r}")
        info.append((key, value))
    return HandHistory(
        variant=variant, antes=antes, blinds_or_straddles=blinds, starting_stacks=stacks,
        actions=actions, min_bet=bet("min_bet"), small_bet=bet("small_bet"), big_bet=bet("big_bet"),
        ante_trimming_status=trimming, players=players, seats=seats, seat_count=seat_count,
        finishing_stacks=finishing, winnings=winnings, info=tuple(info),
    )


# -- writing ---------------------------------------------------------------


def _cards_text(cards: Sequence[HoleCard]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def action_text(action: Action) -> str:
    """The PHH notation of one action (``'p2 cbr 600'``), commentary included."""
    if isinstance(action, DealHole):
        body = f"d dh p{action.player} {_cards_text(action.cards)}"
    elif isinstance(action, DealBoard):
        body = f"d db {_cards_text(action.cards)}"
    elif isinstance(action, Fold):
        body = f"p{action.player} f"
    elif isinstance(action, CheckCall):
        body = f"p{action.player} cc"
    elif isinstance(action, BetRaise):
        body = f"p{action.player} cbr {action.amount}"
    elif isinstance(action, ShowMuck):
        shown = "" if action.cards is None else " -" if action.as_dealt else f" {_cards_text(action.cards)}"
        body = f"p{action.player} sm{shown}"
    else:
        body = ""
    if action.comment:
        return f"{body} # {action.comment}" if body else f"# {action.comment}"
    return body


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} as TOML")


def _toml_string(text: str) -> str:
    # A JSON string is a TOML basic string (the same escapes), except that TOML also
    # forbids a raw DEL character.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def to_phh(history: HandHistory) -> str:
    """The PHH text of a hand, one action per line."""
    h = history
    lines = [f"variant = {_toml_value(h.variant)}"]

    def put(key: str, value: Any) -> None:
        if value is not None:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")

    put("ante_trimming_status", h.ante_trimming_status)
    put("antes", h.antes)
    put("blinds_or_straddles", h.blinds_or_straddles)
    put("min_bet", h.min_bet)
    put("small_bet", h.small_bet)
    put("big_bet", h.big_bet)
    put("starting_stacks", h.starting_stacks)
    lines.append("actions = [")
    lines.extend(f"  {_toml_value(action_text(a))}," for a in h.actions)
    lines.append("]")
    put("players", h.players)
    put("seats", h.seats)
    put("seat_count", h.seat_count)
    put("finishing_stacks", h.finishing_stacks)
    put("winnings", h.winnings)
    for key, value in h.info:
        put(key, value)
    return "\n".join(lines) + "\n"
