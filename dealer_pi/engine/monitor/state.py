"""What the dealing monitor remembers about one hand, in one object it alone changes.

:class:`DealState` is created fresh for every deal (``DealMonitor.start_hand``)
and changed only by the monitor's own methods; the table session reads it
through :class:`DealView`, a frozen copy of what a snapshot may show. A
correction the monitor tracks is a :class:`Procedure` whose ``kind`` is a
:class:`ProcKind`.

>>> v = DealState(order=(3, 4)).view()
>>> v.hole_counts, v.burns, v.dealing_hole_cards
({3: 0, 4: 0}, 0, True)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from .alerts import AlertRaised, Verdict


class ProcKind(enum.Enum):
    """The corrections the monitor follows to their end."""

    REPLACE_EXPOSED = "replace-exposed"  # 001: replace the exposed hole card, burn it before the flop
    EXTRA_TO_BURN = "extra-to-burn"  # 001: a third card to the first player is the burn
    REDEAL_STREET = "redeal-street"  # DEAL-FLOP-EXTRA / DEAL-BOARD-EXTRA: the street is dealt again
    TURN_EARLY = "turn-early"  # DEAL-TURN-EARLY: burn and turn; the river later without a burn
    RIVER_EARLY = "river-early"  # DEAL-RIVER-EARLY: reshuffle; the river without a burn


@dataclass(slots=True)
class Procedure:
    """A correction being tracked, started by alert ``alert_id`` under ``rule``.

    ``replaced``/``burned``: the exposed hole card's seat got its new card / the exposed card
    went to the burn (REPLACE_EXPOSED). ``turn_out``: the real turn is out, so the river comes
    without a burn (TURN_EARLY). ``new_burn``: the street is dealt again after a fresh burn
    (REDEAL_STREET, 002 §14.4-14.5 or a street first dealt with no burn at all).
    ``tentative``: started by an uncertain notice (the camera was not sure the card was face
    up); it follows a replacement that comes and lapses without an alert when none does.
    """

    kind: ProcKind
    alert_id: str
    rule: str
    seat: int = 0
    card: Card | None = None
    street: int = 0
    replaced: bool = False
    burned: bool = False
    turn_out: bool = False
    new_burn: bool = False
    tentative: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "rule": self.rule, "alert_id": self.alert_id}


@dataclass(slots=True)
class OpenAlert:
    alert: AlertRaised
    would_be: Verdict  # what confirming an uncertain notice means
    lockable: bool = True  # False: a misdeal even after DEAL-MISDEAL-LOCK (foul deck, 001 extra cards)


@dataclass(frozen=True, slots=True)
class DealView:
    """What the table may know of the deal: counts, never which card (hole cards are secret)."""

    hole_counts: dict[int, int]
    burns: int
    procedures: tuple[dict[str, Any], ...]
    dealing_hole_cards: bool


@dataclass(slots=True)
class DealState:
    """One deal: ``order`` are the seats dealt in, first left of the button."""

    order: tuple[int, ...] = ()
    hand_no: int = 0
    hole: dict[int, list[Card | None]] = field(default_factory=dict)
    deal_pos: int = 0  # hole cards dealt so far, in dealing order
    deal_done: bool = False
    dealer_exposed: int = 0
    extra_cards: int = 0
    pending: tuple[int, Card | None] | None = None  # a drawn card not yet seen landing: (at, card)
    board: list[Card] = field(default_factory=list)
    street_cards: list[Card] = field(default_factory=list)  # a flop coming in, one card at a time
    streets_done: int = 0
    burns_this_street: int = 0
    street_burns: int = 0  # burns before the street last dealt: back if the engine refuses it
    burns: list[Card | None] = field(default_factory=list)
    actions_since_board: int = 0
    swallow: int = 0  # board cards still to come in the motion a correction sends back
    seen: dict[Card, str] = field(default_factory=dict)  # card -> where it is (DEAL-DECK)
    out_of_deck: int = 0
    procs: list[Procedure] = field(default_factory=list)
    open: dict[str, OpenAlert] = field(default_factory=dict)  # alerts belong to their hand
    misdeal_alert: str | None = None
    shown: dict[int, list[Card]] = field(default_factory=dict)
    # Folded hands' cards not yet seen in the muck: the muck's next cards are those, however many
    # draws later the camera sees them land (a pile's count can lag by several frames).
    fold_to_muck: int = 0
    unseen_hole: dict[int, int] = field(default_factory=dict)  # hole cards taken as dealt to a seat, not seen landing
    shown_done: set[int] = field(default_factory=set)  # seats whose hand is shown (HandShown given)
    shown_unread: dict[int, int] = field(default_factory=dict)  # face-up cards at a seat the camera could not name
    player_exposed: set[tuple[int, Card | None]] = field(default_factory=set)
    early_deal_noticed: bool = False
    last_zone: str | None = None  # where the last drawn card landed
    burn_alert_street: int = 0  # the street whose unwanted burn was flagged (once is enough)
    put_back: Card | None = None  # an unwanted burn the dealer is to put back on top of the deck
    exposed_burn: Card | None = None  # 001: the exposed hole card burned before the flop

    def __post_init__(self) -> None:
        if not self.hole:
            self.hole = {s: [] for s in self.order}

    def view(self) -> DealView:
        return DealView({s: len(c) for s, c in self.hole.items()}, len(self.burns),
                        tuple(p.to_dict() for p in self.procs), bool(self.order) and not self.deal_done)

    def secrets(self) -> dict[str, Any]:
        """Hole cards and burns (the producer's delayed view only; never the dealer's)."""
        return {
            "hole_cards": {str(s): [None if c is None else str(c) for c in cards] for s, cards in self.hole.items()},
            "burns": [None if c is None else str(c) for c in self.burns],
        }

    def procs_of(self, *kinds: ProcKind) -> list[Procedure]:
        return [p for p in self.procs if p.kind in kinds]

    @property
    def nothing_reported(self) -> bool:
        """No card of this deal was reported at all: the table has no card sensor (or it is off)."""
        return self.out_of_deck == 0 and self.deal_pos == 0 and self.pending is None \
            and not any(self.hole.values())
