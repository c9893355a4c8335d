"""Learning from the table: the camera's pictures of cards whose names became certain by other means.

The runtime hands :meth:`TableTeacher.accepted` every observation it has journaled (on
the engine thread). A camera report of a face-up card, whose picture the vision pipeline
kept, becomes a labelled example in the :class:`~dealer_pi.vision.examples.ExampleStore`
when its name is certain:

* it is the landing of a card the smart shoe named, and the camera did not name another
  card (``shoe``);
* it lies at a seat whose hole cards the shoe named, and the camera's read is one of them,
  or the other one is labelled already (``showdown``: a hand turned up, or a card exposed).

Any other face-up read (no naming shoe, the camera and the shoe disagreeing) waits for the
dealer: the tablet lists the recent ones and the dealer confirms or corrects each
(``dealer``). A board card is listed at once; a card read at a seat only once its hand is
over, so the tablet never shows a hole card during a hand.
"""

from __future__ import annotations

import collections
import itertools
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.observations import CardSeen, Observation, ShoeDraw

log = logging.getLogger("dealer_pi.teacher")

KEEP_PENDING = 24


@dataclass
class Pending:
    id: int
    zone: str
    read: Card | None
    crop: np.ndarray
    public: bool  # may be shown on the tablet now

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "zone": self.zone, "read": str(self.read) if self.read else None}


class TableTeacher:
    def __init__(self, store: Any, crops: Mapping[CardSeen, np.ndarray]) -> None:
        self.store = store
        self.crops = crops  # the pipeline's pictures of its recent face-up reports
        self.learned: collections.Counter[str] = collections.Counter()
        self._prev: Observation | None = None
        self._labelled: dict[str, set[Card]] = {}  # seat zone -> hole cards labelled this hand
        self._pending: collections.OrderedDict[int, Pending] = collections.OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    # ------------------------------------------------------------ the engine thread

    def accepted(self, obs: Observation, events: list[dict[str, Any]], hole_cards: Callable[[], Mapping[str, Any]]) -> None:
        """One journaled observation and its events; ``hole_cards()``: seat -> the cards the shoe named."""
        try:
            self._accepted(obs, events, hole_cards)
        except Exception:  # learning must never stop the table
            log.exception("labelling a camera picture failed")

    def _accepted(self, obs: Observation, events: list[dict[str, Any]], hole_cards: Callable[[], Mapping[str, Any]]) -> None:
        prev, self._prev = self._prev, obs
        with self._lock:
            for ev in events:
                if ev.get("type") == "hand_shown":  # shown at showdown: that seat's cards are public now
                    for p in self._pending.values():
                        p.public = p.public or p.zone == f"seat:{ev.get('seat')}"
                elif ev.get("type") == "hand_started":  # a hand never shown stays secret: its reads go
                    self._labelled = {}
                    for k in [k for k, p in self._pending.items() if not p.public]:
                        del self._pending[k]
        if not (isinstance(obs, CardSeen) and obs.face_up and obs.source == "camera"):
            return
        crop = self.crops.get(obs)
        if crop is None:
            return
        if isinstance(prev, ShoeDraw) and prev.card is not None:  # the landing of a card the shoe named
            if obs.card in (None, prev.card):
                self._learn(crop, prev.card, "shoe")
            else:
                self._ask(obs, crop)  # the shoe and the camera disagree: the dealer decides
            return
        if obs.zone.kind == "seat":
            named = [Card.parse(c) for c in hole_cards().get(str(obs.zone.seat)) or [] if c]
            done = self._labelled.setdefault(str(obs.zone), set())
            rest = [c for c in named if c not in done]
            label = obs.card if obs.card in rest else (rest[0] if len(named) == 2 and len(rest) == 1 else None)
            if label is not None:
                done.add(label)
                self._learn(crop, label, "showdown")
                return
        self._ask(obs, crop)

    def _learn(self, crop: np.ndarray, card: Card, how: str) -> None:
        self.store.add(crop, card, how)
        self.learned[how] += 1

    def _ask(self, obs: CardSeen, crop: np.ndarray) -> None:
        with self._lock:
            p = Pending(next(self._ids), str(obs.zone), obs.card, crop, public=obs.zone.kind != "seat")
            self._pending[p.id] = p
            while len(self._pending) > KEEP_PENDING:
                self._pending.popitem(last=False)

    # ------------------------------------------------------------ the dealer's tablet

    def reads(self) -> list[dict[str, Any]]:
        """The reads waiting for the dealer that the tablet may show, newest first."""
        with self._lock:
            return [p.to_dict() for p in reversed(self._pending.values()) if p.public]

    def _public(self, read_id: int) -> Pending:
        p = self._pending.get(read_id)
        if p is None or not p.public:
            raise InputError("read", f"no camera read {read_id} waits for the dealer")
        return p

    def picture(self, read_id: int) -> np.ndarray:
        with self._lock:
            return self._public(read_id).crop

    def answer(self, read_id: int, card: Card) -> None:
        """The dealer says which card it is (the read confirmed, or corrected)."""
        with self._lock:
            p = self._public(read_id)
            del self._pending[read_id]
        self._learn(p.crop, card, "dealer")
