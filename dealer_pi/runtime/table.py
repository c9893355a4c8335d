"""The runtime's hold on the engine's :class:`TableSession`: hand numbering and JSON in, JSON out.

Everything the runtime needs to know about the facade lives here, so the
engine thread, the journal and the web layer deal only in JSON dicts.

Hands are numbered across setups: a setup entry records ``hand_base`` (the
number of hands before it), so hand numbers in the journal never repeat.
Every hand that ends says how (:func:`hand_result`): played to its end, voided
by a misdeal, or voided because the floor set the table up anew.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from dealer_pi.engine.observations import Observation
from dealer_pi.engine.state import HandState
from dealer_pi.engine.table_session import TableSession, TableSetup, event_to_json

SETUP_VOID_RULE = "BET-TABLE-STAKES"  # the rule a hand voided for a new setup names


def hand_result(events: Iterable[Mapping[str, Any]]) -> tuple[str, str]:
    """How a hand ended, from its events: ``("played" | "misdeal" | "voided", why)``.

    >>> hand_result([{"type": "misdeal_declared", "rule": "DEAL-HOLE-COUNT"}, {"type": "hand_ended"}])
    ('misdeal', 'voided by a misdeal (DEAL-HOLE-COUNT): stacks back, the hand dealt again')
    >>> hand_result([{"type": "hand_ended", "misdeal": False}])
    ('played', '')
    """
    rule = next((str(e.get("rule")) for e in events if e.get("type") == "misdeal_declared"), None)
    if rule is None:
        return "played", ""
    if rule == SETUP_VOID_RULE:
        return "voided", f"voided to set the table up anew ({rule}): stacks back as at its start"
    return "misdeal", f"voided by a misdeal ({rule}): stacks back, the hand dealt again"


class Table:
    """One session of the engine plus the hand bookkeeping of the journal."""

    def __init__(self, setup: Mapping[str, Any], hand_base: int = 0) -> None:
        self.setup = TableSetup.from_dict(setup)
        self.hand_base = hand_base
        self.hands_started = 0
        self.running = False
        self.finished: int | None = None
        self.finished_how: tuple[str, str] = ("played", "")
        self.session = TableSession(self.setup)
        # The first hand is dealt in when the session is built: those events belong to the setup entry.
        self.initial_events = self._tag([event_to_json(e) for e in self.session.events])

    @property
    def hand(self) -> int | None:
        """The global number of the current (or last) hand, None before the first."""
        return self.hand_base + self.hands_started if self.hands_started else None

    def _tag(self, events: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int | None]]:
        """Pair each event with its hand; note which hand (if any) these events finished, and how."""
        out: list[tuple[dict[str, Any], int | None]] = []
        self.finished = None
        for ev in events:
            kind = ev.get("type")
            if kind == "hand_started":
                self.hands_started += 1
                self.running = True
            out.append((ev, self.hand))
            if kind == "hand_ended":
                self.running = False
                self.finished = self.hand
                self.finished_how = hand_result(e for e, h in out if h == self.hand)
        return out

    def feed(self, obs: Observation) -> list[tuple[dict[str, Any], int | None]]:
        """Apply one observation; raises RuleViolation/InputError with nothing changed."""
        events = self.session.feed(obs)
        tagged = self._tag([event_to_json(e) for e in events])
        self.hands_started = self.session.hand_number  # an undo may take a "new hand" back
        return tagged

    def hand_state(self) -> HandState:
        """The betting engine's state of the current hand (read only; for the PHH export)."""
        return self.session.hand

    def snapshot(self) -> dict[str, Any]:
        """The visible state without secrets (no hole cards, no burns)."""
        snap = self.session.snapshot(secrets=False)
        snap["table"]["hand_number"] = self.hand  # numbered across setups, as the events are
        return snap

    def hole_cards(self) -> dict[str, Any]:
        secret = self.session.snapshot(secrets=True).get("secret") or {}
        return {str(k): v for k, v in (secret.get("hole_cards") or {}).items()}

    def setup_dict(self) -> dict[str, Any]:
        """The setup this table was started from (what the journal's setup entry holds)."""
        return self.setup.to_dict()

    def live_setup_dict(self) -> dict[str, Any]:
        """The table as it is now, in the setup's form: current stacks, busted seats empty,
        the next hand's button and level (what the setup page starts from)."""
        return self.session.live_setup().to_dict()

    def next_level(self) -> tuple[int, int, int]:
        """Small blind, big blind and ante the next hand is dealt with."""
        t = self.session.table_now()
        return t.small_blind, t.big_blind, t.ante

    def releveled(self, started: Mapping[str, Any], blinds: tuple[int, int], ante: int) -> dict[str, Any]:
        """The setup that deals the hand ``started`` (a ``hand_started`` event's JSON) again with
        new forced bets and seating (the floor's orders): same seats, stacks, names and button."""
        hand = started["setup"]
        out = self.setup.to_dict()
        out.update(
            blinds=list(blinds), ante=ante, button=hand["button"],
            seats={str(s["seat"]): s["stack"] for s in hand["seats"]},
            names={str(s["seat"]): s["name"] for s in hand["seats"] if s.get("name")},
        )
        return out
