"""Player statistics from the journal's finished hands, by the usual definitions.

Per player (by name; a nameless seat is "Seat N"), over the hands chosen (a
session = one calendar day of play, local time, or a date range):

* **hands**: hands dealt to the player (a hand voided by a misdeal does not count);
* **VPIP** (voluntarily put money in pot): share of hands in which the player called,
  bet or raised before the flop; posting a blind or checking the big blind is not voluntary;
* **PFR** (pre-flop raise): share of hands in which the player bet or raised before the flop;
* **3-bet**: of the times the player acted before the flop facing exactly one raise
  (the big blind counts as the opening bet), the share in which they raised again;
* **AF** (aggression factor): after the flop, (bets + raises) / calls; ``null`` with no call;
* **WTSD** (went to showdown): of the hands in which the player saw the flop, the share in
  which they were still in at the end with at least one opponent;
* **W$SD** (won money at showdown): of those showdowns, the share in which they won chips.

Shares are fractions (0.25 = 25 %), ``null`` when there was no opportunity. Only public
actions are read: no hole card is used or shown.

>>> hand = [
...   {"type": "hand_started", "setup": {"seats": [{"seat": 1, "name": "Ana"}, {"seat": 2, "name": "Ivo"}]}},
...   {"type": "blind_posted", "seat": 1, "amount": 5}, {"type": "blind_posted", "seat": 2, "amount": 10},
...   {"type": "bet_placed", "seat": 1, "action": "raise", "to": 30, "all_in": False},
...   {"type": "bet_placed", "seat": 2, "action": "fold", "to": 10, "all_in": False},
...   {"type": "hand_ended", "misdeal": False}]
>>> t = Tally(); t.add_hand(hand)
>>> s = {p["player"]: p for p in t.rows()}
>>> s["Ana"]["vpip"], s["Ana"]["pfr"], s["Ivo"]["vpip"], s["Ivo"]["three_bet"]
(1.0, 1.0, 0.0, 0.0)
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

AGGRESSIVE = ("bet", "raise")


@dataclass
class PlayerCounts:
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet: int = 0
    three_bet_chances: int = 0
    bets_raises: int = 0  # after the flop
    calls: int = 0  # after the flop
    saw_flop: int = 0
    showdowns: int = 0
    won_at_showdown: int = 0
    won_chips: int = 0

    def row(self, player: str) -> dict[str, Any]:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None
        return {
            "player": player, "hands": self.hands, "vpip": share(self.vpip, self.hands),
            "pfr": share(self.pfr, self.hands), "three_bet": share(self.three_bet, self.three_bet_chances),
            "af": round(self.bets_raises / self.calls, 2) if self.calls else None,
            "wtsd": share(self.showdowns, self.saw_flop), "wsd": share(self.won_at_showdown, self.showdowns),
            "counts": {"vpip": self.vpip, "pfr": self.pfr, "three_bet": self.three_bet,
                       "three_bet_chances": self.three_bet_chances, "bets_raises": self.bets_raises,
                       "calls": self.calls, "saw_flop": self.saw_flop, "showdowns": self.showdowns,
                       "won_at_showdown": self.won_at_showdown},
        }


@dataclass
class _Hand:
    names: dict[int, str]
    street: int = 0
    bet: int = 0  # the bet to match on this street
    raises: int = 0  # before the flop, the big blind counts as the first
    folded: set[int] = field(default_factory=set)
    vpip: set[int] = field(default_factory=set)
    pfr: set[int] = field(default_factory=set)
    three: set[int] = field(default_factory=set)
    chances: set[int] = field(default_factory=set)
    won: dict[int, int] = field(default_factory=dict)
    agg: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    calls: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    saw_flop: set[int] = field(default_factory=set)


class Tally:
    """Counts over hands given one by one (each a list of journal event bodies, in order)."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerCounts] = defaultdict(PlayerCounts)

    def add_hand(self, events: Iterable[dict[str, Any]]) -> None:
        h: _Hand | None = None
        for ev in events:
            kind = ev.get("type")
            if kind == "hand_started":
                seats = ev.get("setup", {}).get("seats", [])
                h = _Hand({s["seat"]: s.get("name") or f"Seat {s['seat']}" for s in seats})
            elif h is None:
                continue
            elif kind == "blind_posted":
                h.bet = max(h.bet, int(ev.get("amount", 0)))
                h.raises = 1
            elif kind == "bet_placed":
                self._action(h, ev)
            elif kind == "street_completed":
                h.street += 1
                h.bet = 0
                if h.street == 1:
                    h.saw_flop = set(h.names) - h.folded
            elif kind == "pot_awarded":
                for seat, amount in ev.get("shares", []):
                    h.won[seat] = h.won.get(seat, 0) + int(amount)
            elif kind == "hand_ended":
                if not ev.get("misdeal"):
                    self._close(h)
                h = None

    @staticmethod
    def _action(h: _Hand, ev: dict[str, Any]) -> None:
        seat, action, to = ev.get("seat"), str(ev.get("action")), int(ev.get("to") or 0)
        if not isinstance(seat, int):
            return
        if action == "all-in" or (ev.get("all_in") and action not in ("fold", "check")):
            action = ("bet" if h.bet == 0 else "raise") if to > h.bet else "call"
        if h.street == 0:
            # The big blind is the opening bet, so one raise over it makes h.raises == 2.
            facing_one_raise = h.raises == 2
            if facing_one_raise:
                h.chances.add(seat)
            if action in ("call", "bet", "raise"):
                h.vpip.add(seat)
            if action in AGGRESSIVE:
                h.pfr.add(seat)
                if facing_one_raise:
                    h.three.add(seat)
                h.raises += 1
        elif action in AGGRESSIVE:
            h.agg[seat] += 1
        elif action == "call":
            h.calls[seat] += 1
        if action == "fold":
            h.folded.add(seat)
        h.bet = max(h.bet, to)

    def _close(self, h: _Hand) -> None:
        left = set(h.names) - h.folded
        showdown = h.street >= 1 and len(left) >= 2
        for seat, name in h.names.items():
            p = self.players[name]
            p.hands += 1
            p.vpip += seat in h.vpip
            p.pfr += seat in h.pfr
            p.three_bet += seat in h.three
            p.three_bet_chances += seat in h.chances
            p.bets_raises += h.agg.get(seat, 0)
            p.calls += h.calls.get(seat, 0)
            p.saw_flop += seat in h.saw_flop
            if showdown and seat in left and seat in h.saw_flop:
                p.showdowns += 1
                p.won_at_showdown += h.won.get(seat, 0) > 0
            p.won_chips += h.won.get(seat, 0)

    def rows(self) -> list[dict[str, Any]]:
        return [c.row(name) for name, c in sorted(self.players.items(), key=lambda kv: (-kv[1].hands, kv[0]))]


def session_of(ts_ms: int) -> str:
    """The session (the local calendar day) a hand started in: ``"2026-05-04"``."""
    return dt.datetime.fromtimestamp(ts_ms / 1000).date().isoformat()


def parse_day(text: str, where: str) -> dt.date:
    from dealer_pi.engine.errors import InputError

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(where, f"must be a date like 2026-05-04, got {text!r}") from None


def journal_stats(journal: Any, *, session: str | None = None, since: str | None = None,
                  until: str | None = None, hands_before_ms: int | None = None) -> dict[str, Any]:
    """Stats over the journal's finished hands: one session (a day), or ``since``..``until``
    (inclusive days), or all. ``hands_before_ms``: only hands finished before then (the delay)."""
    first = parse_day(since, "from") if since else None
    last = parse_day(until, "to") if until else None
    day = parse_day(session, "session").isoformat() if session else None
    tally = Tally()
    sessions: dict[str, int] = defaultdict(int)
    counted = 0
    for h in journal.hands():
        if hands_before_ms is not None and h["ended_ms"] > hands_before_ms:
            continue
        d = session_of(h["started_ms"])
        sessions[d] += 1
        when = dt.date.fromisoformat(d)
        if (day and d != day) or (first and when < first) or (last and when > last):
            continue
        events = journal.hand_events(h["hand"]) or []
        tally.add_hand(ev.body for ev in events)
        counted += 1
    return {
        "session": day, "from": since, "to": until, "hands": counted,
        "sessions": [{"session": d, "hands": n} for d, n in sorted(sessions.items())],
        "players": tally.rows(),
    }
