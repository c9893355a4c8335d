"""Deck registration: which RFID tag is on which card.

An RFID shoe reads a tag id, not a card. Once per deck the dealer passes the 52
cards through the shoe in a known order (new-deck order by default); the map is
checked (every card once, every tag once) and stored as JSON. A deck change
(TABLE-DECK-CHANGE) means a new registration.

>>> r = Registrar(order=("Ah", "Kd"))
>>> r.add("U:04A1"); r.add("U:04A1")
>>> r.finish()
Traceback (most recent call last):
...
dealer_pi.hardware.deck.RegistrationError: Kd: tag U:04A1 was already read for Ah
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from dealer_pi.engine.cards import FULL_DECK, Card
from dealer_pi.engine.errors import InputError

from .dps1 import check_card_token

FORMAT = "dealer-pi deck registration 1"


def _new_deck_order() -> tuple[str, ...]:
    # The order a fresh US-style deck comes out of its box: spades and diamonds A..K,
    # then clubs and hearts K..A.
    up = "A23456789TJQK"
    return (tuple(r + "s" for r in up) + tuple(r + "d" for r in up)
            + tuple(r + "c" for r in reversed(up)) + tuple(r + "h" for r in reversed(up)))


ORDERS: Mapping[str, tuple[str, ...]] = {
    "new-deck": _new_deck_order(),
    "index": tuple(str(c) for c in FULL_DECK),
}


class RegistrationError(ValueError):
    """The registration is refused; ``problems`` names each card or tag at fault."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def _tag(token: str, where: str) -> str:
    try:
        tag = check_card_token(token)
    except ValueError:
        tag = ""
    if not tag.startswith("U:"):
        raise RegistrationError([f"{where}: {token!r} is not a tag id (U: and 2-16 bytes in hex)"])
    return tag


@dataclass(frozen=True)
class DeckRegistration:
    """A checked map from tag id (``U:04A1B2C3``) to card."""

    cards: Mapping[str, Card]
    deck_id: str = ""

    def card_for(self, tag: str) -> Card | None:
        return self.cards.get(tag.upper() if tag[:2].upper() == "U:" else tag)

    @staticmethod
    def from_pairs(pairs: Mapping[str, str] | Iterable[tuple[str, str]], deck_id: str = "") -> "DeckRegistration":
        """Check card -> tag pairs: all 52 cards, no tag twice, every tag well formed."""
        items = list(pairs.items()) if isinstance(pairs, Mapping) else list(pairs)
        problems: list[str] = []
        by_tag: dict[str, Card] = {}
        seen: set[Card] = set()
        for card_text, token in items:
            try:
                card = Card.parse(card_text, where=f"card {card_text!r}")
            except InputError as exc:
                problems.append(str(exc))
                continue
            if card in seen:
                problems.append(f"{card}: listed twice")
                continue
            seen.add(card)
            try:
                tag = _tag(token, str(card)) if isinstance(token, str) else _tag("", str(card))
            except RegistrationError as exc:
                problems.extend(exc.problems)
                continue
            if tag in by_tag:
                problems.append(f"{card}: tag {tag} is also on {by_tag[tag]}")
                continue
            by_tag[tag] = card
        missing = [str(c) for c in FULL_DECK if c not in seen]
        if missing:
            problems.append("no tag for " + ", ".join(missing))
        if problems:
            raise RegistrationError(problems)
        return DeckRegistration(by_tag, deck_id)

    def to_json(self) -> str:
        by_card = {str(card): tag for tag, card in sorted(self.cards.items(), key=lambda kv: kv[1].index)}
        return json.dumps({"format": FORMAT, "deck_id": self.deck_id, "cards": by_card}, indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        """Write atomically so a power cut never leaves half a registration."""
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        os.replace(tmp, p)

    @staticmethod
    def load(path: str | Path) -> "DeckRegistration":
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RegistrationError([f"{p}: cannot read: {exc.strerror or exc}"]) from None
        except json.JSONDecodeError as exc:
            raise RegistrationError([f"{p}: not JSON: {exc}"]) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RegistrationError([f"{p}: not a deck registration (format must be {FORMAT!r})"])
        cards = data.get("cards")
        if not isinstance(cards, dict):
            raise RegistrationError([f"{p}: 'cards' must map each card to its tag"])
        deck_id = data.get("deck_id", "")
        try:
            return DeckRegistration.from_pairs(cards, deck_id if isinstance(deck_id, str) else "")
        except RegistrationError as exc:
            raise RegistrationError([f"{p}: {m}" for m in exc.problems]) from None


class Registrar:
    """Collects the reads of one pass through the shoe, in ``order``."""

    def __init__(self, order: Sequence[str] = ORDERS["new-deck"], deck_id: str = "") -> None:
        self.order = [Card.parse(c) for c in order]
        self.deck_id = deck_id
        self.reads: list[str] = []

    @property
    def expected(self) -> Card | None:
        """The card that should pass next, or None when all have."""
        return self.order[len(self.reads)] if len(self.reads) < len(self.order) else None

    def add(self, token: str) -> None:
        """One DRAW's card field, as the shoe sent it."""
        self.reads.append(token)

    def problems(self) -> list[str]:
        out: list[str] = []
        first: dict[str, Card] = {}
        for card, token in zip(self.order, self.reads):
            if token == "?":
                out.append(f"{card}: no tag was read")
                continue
            try:
                tag = _tag(token, str(card))
            except RegistrationError as exc:
                out.extend(exc.problems)
                continue
            if tag in first:
                out.append(f"{card}: tag {tag} was already read for {first[tag]}")
            else:
                first[tag] = card
        if len(self.reads) < len(self.order):
            left = [str(c) for c in self.order[len(self.reads):]]
            out.append(f"{len(left)} card(s) did not pass: " + ", ".join(left))
        elif len(self.reads) > len(self.order):
            out.append(f"{len(self.reads) - len(self.order)} read(s) more than the {len(self.order)} cards expected")
        return out

    def finish(self) -> DeckRegistration:
        problems = self.problems()
        if problems:
            raise RegistrationError(problems)
        if len(self.order) != len(FULL_DECK):
            raise RegistrationError([f"the order lists {len(self.order)} cards, a deck has 52"])
        return DeckRegistration.from_pairs(zip((str(c) for c in self.order), self.reads), self.deck_id)
