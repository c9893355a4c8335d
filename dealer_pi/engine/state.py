"""The state of one hand, derived from its entries (see :mod:`.hand`).

A :class:`HandState` is treated as immutable by everyone outside the engine:
:func:`dealer_pi.engine.hand.apply` returns a new one and never touches the
old, which is what makes undo and replay exact. Per-player lists are indexed
in *dealing order* (first left of the button); ``order[i]`` is the seat
number of player ``i`` and ``index_of[seat]`` goes back.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .cards import Card
from .events import PotAwarded
from .pots import Pot, build_pots
from .profiles import RuleProfile
from .setup import HandSetup, Structure

STREET_NAMES = ("preflop", "flop", "turn", "river", "showdown")
_T = TypeVar("_T")


class Phase(enum.Enum):
    BETTING = "betting"  # a seat is to act
    DEALING = "dealing"  # waiting for the next board card(s); no betting possible or round closed
    SHOWDOWN = "showdown"  # board complete, betting over: hands are shown or mucked
    COMPLETE = "complete"  # every pot awarded (or the hand was void)


def _fields_declared_once(cls: type[_T]) -> type[_T]:
    """Make ``cls`` slotted and give it ``copy()``, both from its annotations.

    A field is declared once, as an annotation in the class body. One annotated
    ``list[...]`` or ``dict[...]`` is the state's own and copied shallowly; any other
    is immutable (tuples, frozensets, enums, ints, setup and profile) and shared.
    ``copy()`` is written out as plain assignments because undo and every entry
    applied copy the state: no loop over names on that path.
    """
    fields = {name: str(kind) for name, kind in cls.__annotations__.items()}
    lines = ["def copy(self):", "    c = _new(cls)"]
    for name, kind in fields.items():
        value = f"self.{name}[:]" if kind.startswith("list[") else (
            f"dict(self.{name})" if kind.startswith("dict[") else f"self.{name}")
        lines.append(f"    c.{name} = {value}")
    lines.append("    return c")
    body = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
    body["__slots__"] = tuple(fields)
    slotted = type(cls.__name__, cls.__bases__, body)
    namespace: dict[str, Any] = {"_new": object.__new__, "cls": slotted}
    exec("\n".join(lines), namespace)  # source built above from the annotations alone
    copy = namespace["copy"]
    copy.__qualname__ = f"{cls.__qualname__}.copy"
    copy.__doc__ = "A new state sharing nothing mutable with this one."
    slotted.copy = copy  # type: ignore[attr-defined]
    return slotted


@_fields_declared_once
class HandState:
    """One hand in progress. Read the attributes; change it only through ``apply``.

    Each field is declared here once; ``__slots__`` and ``copy()`` are made from
    these annotations (see :func:`_fields_declared_once`), and :func:`~.hand.start_hand`
    sets every one of them.
    """

    setup: HandSetup
    profile: RuleProfile
    order: tuple[int, ...]
    index_of: Mapping[int, int]
    starting: tuple[int, ...]
    stacks: list[int]
    bets: list[int]
    total: list[int]
    dead: list[int]
    folded: list[bool]
    mucked: list[bool]
    hole: list[tuple[Card | None, ...]]
    shown: list[tuple[Card, ...] | None]
    board: tuple[Card, ...]
    burns: tuple[Card | None, ...]
    street: int
    phase: Phase
    to_act: int
    needs: list[bool]
    acted_at: list[int]
    current_bet: int
    min_increment: int
    raises: int
    aggressor: int
    aggressor_street: int
    last_caller: int
    first_actor: int
    acted_after_blinds: int
    blind_seats: frozenset[int]
    awards: tuple[PotAwarded, ...]
    declared: dict[int, tuple[int, ...]]
    rake: int
    seen: int
    misdeal: bool
    # The betting before the last bet or raise of this street (current bet, min increment, raises,
    # aggressor, aggressor street, last caller), to undo it if that hand dies (POT-DEAD-HAND).
    raised_from: tuple[int, int, int, int, int, int] | None
    # The last "raise" said without an amount (000 §7): (the state before it, the seat, its first
    # motion's chips, ``entries`` after it); while it is the last entry, one more forward motion
    # by that seat may still make the raise.
    open_raise: tuple[HandState, int, int, int] | None
    entries: int

    if TYPE_CHECKING:
        def copy(self) -> HandState: ...
        __slots__: ClassVar[tuple[str, ...]]

    # ------------------------------------------------------------ read-only views

    @property
    def street_name(self) -> str:
        return STREET_NAMES[self.street]

    @property
    def seat_to_act(self) -> int | None:
        """The seat number whose turn it is, or None when nobody is to act."""
        return self.order[self.to_act] if self.phase is Phase.BETTING and self.to_act >= 0 else None

    @property
    def is_complete(self) -> bool:
        return self.phase is Phase.COMPLETE

    def stack_of(self, seat: int) -> int:
        return self.stacks[self.index_of[seat]]

    def final_stacks(self) -> dict[int, int]:
        """Stacks by seat number (after the awards when the hand is complete)."""
        return {s: self.stacks[i] for i, s in enumerate(self.order)}

    def pots(self) -> list[Pot]:
        """Main pot then side pots, from every chip put in so far (current bets included)."""
        return build_pots(self.total, self.dead, self.folded, self.stacks)

    def pot_total(self) -> int:
        return sum(self.total)

    def live(self) -> list[int]:
        """Player indices still in the hand (not folded or mucked)."""
        return [i for i in range(len(self.order)) if not self.folded[i]]

    def able(self) -> list[int]:
        """Live players who still have chips, so could bet."""
        return [i for i in range(len(self.order)) if not self.folded[i] and self.stacks[i] > 0]

    def street_size(self) -> int:
        """Limit: the bet size of this street (small bet preflop/flop, big bet turn/river)."""
        if self.setup.structure is Structure.LIMIT and self.street >= 2:
            return self.setup.limit_big_bet
        return self.setup.small_bet

    def to_dict(self, reveal_hole_cards: bool = False) -> dict[str, Any]:
        """A JSON-able snapshot for the journal and the web.

        ``legal`` is :func:`~.legal.legal_actions` for the seat to act (or null) and
        ``next_to_show`` the seat asked to show at the showdown (POT-SHOW-ORDER).
        Hole cards are under ``seats[].hole`` as ``{"secret": true, "cards": [...]}``;
        with ``reveal_hole_cards=False`` the cards are replaced by ``null`` (a card
        present but hidden) so a view can never leak them by mistake. Shown hands
        (``shown``) are public.
        """
        seats = []
        for i, s in enumerate(self.order):
            cards: list[str | None] = [
                (str(c) if (reveal_hole_cards and c is not None) else None) for c in self.hole[i]
            ]
            shown = self.shown[i]
            seats.append({
                "seat": s,
                "name": next((x.name for x in self.setup.seats if x.seat == s), ""),
                "stack": self.stacks[i],
                "starting_stack": self.starting[i],
                "bet": self.bets[i],
                "total_in": self.total[i],
                "folded": self.folded[i],
                "mucked": self.mucked[i],
                "all_in": self.stacks[i] == 0 and not self.folded[i],
                "hole": {"secret": True, "count": len(self.hole[i]), "cards": cards},
                "shown": None if shown is None else [str(c) for c in shown],
            })
        from .legal import (
            legal_actions,  # both read the state; imported here to keep modules acyclic
        )
        from .showdown import next_to_show

        legal = legal_actions(self)
        collected = [t - b for t, b in zip(self.total, self.bets)]
        pots = build_pots(collected, self.dead, self.folded, self.stacks) if self.phase is not Phase.COMPLETE else []
        return {
            "hand_id": self.setup.hand_id,
            "profile": self.profile.name,
            "structure": self.setup.structure.value,
            "button": self.setup.button,
            "street": self.street_name,
            "phase": self.phase.value,
            "seat_to_act": self.seat_to_act,
            "legal": None if legal is None else legal.to_dict(),
            "next_to_show": next_to_show(self),
            "current_bet": self.current_bet,
            "board": [str(c) for c in self.board],
            "seats": seats,
            "pots": [{"amount": p.amount, "eligible": [self.order[i] for i in p.eligible]} for p in pots],
            "pot_total": self.pot_total(),
            "awards": [
                {"pot": a.pot, "amount": a.amount, "shares": [list(x) for x in a.shares],
                 "rake": a.rake, "description": a.description}
                for a in self.awards
            ],
            "rake": self.rake,
            "misdeal": self.misdeal,
        }
