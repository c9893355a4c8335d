"""A finished hand, step by step, for the hand replayer: board, stacks, bets, pot and the action.

Built from the hand's journaled events *as the asking view may see them*
(already passed through :func:`dealer_pi.runtime.views.redact_event`): a view
that may not see hole cards gets the steps with the cards hidden, except
hands that were shown. Equities are added only where every live hand is known.

>>> evs = [{"type": "hand_started", "setup": {"seats": [{"seat": 1, "stack": 100, "name": "Ana"},
...                                                    {"seat": 2, "stack": 100, "name": "Ivo"}]}},
...        {"type": "blind_posted", "seat": 1, "amount": 5}, {"type": "blind_posted", "seat": 2, "amount": 10},
...        {"type": "bet_placed", "seat": 1, "action": "fold", "to": 5, "added": 0},
...        {"type": "uncalled_bet_returned", "seat": 2, "amount": 5},
...        {"type": "pot_awarded", "pot": 0, "amount": 10, "shares": [[2, 10]]}]
>>> steps = hand_steps(evs, 4)
>>> [s["text"] for s in steps]
['Hand 4', 'Ana posts 5', 'Ivo posts 10', 'Ana folds', '5 returned to Ivo', 'Ivo wins 10']
>>> steps[-1]["pot"], [s["stack"] for s in steps[-1]["seats"]]
(0, [95, 105])
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from .feed import Ticker

Equity = Callable[[tuple[Any, ...]], dict[str, Any] | None]


def _question(seats: list[dict[str, Any]], board: list[str]) -> tuple[Any, ...] | None:
    live, dead = [], []
    for s in seats:
        cards = s["cards"]
        if s["folded"]:
            dead += [c for c in cards if c]
        elif len(cards) == 2 and all(cards):
            live.append((s["seat"], "".join(cards)))
        else:
            return None
    if len(live) < 2 or len(board) not in (0, 3, 4, 5):
        return None
    return tuple(sorted(live)), "".join(board), "".join(sorted(dead))


def hand_steps(events: list[dict[str, Any]], hand: int, equity: Equity | None = None) -> list[dict[str, Any]]:
    """One step per event a viewer would notice, each with the whole table after it."""
    ticker = Ticker(size=1)
    seats: list[dict[str, Any]] = []
    by_seat: dict[int, dict[str, Any]] = {}
    board: list[str] = []
    pot = 0
    steps: list[dict[str, Any]] = []
    for ev in events:
        kind = ev.get("type")
        seat = by_seat.get(ev.get("seat"))  # type: ignore[arg-type]
        text = ""
        if kind == "hand_started":
            seats = [{"seat": s["seat"], "name": s.get("name") or f"Seat {s['seat']}", "stack": s.get("stack", 0),
                      "bet": 0, "folded": False, "all_in": False, "cards": [], "shown": False}
                     for s in ev.get("setup", {}).get("seats", [])]
            by_seat = {s["seat"]: s for s in seats}
        elif kind in ("blind_posted", "ante_posted") and seat is not None:
            amount = int(ev.get("amount", 0))
            seat["stack"] -= amount
            seat["bet"] += amount if kind == "blind_posted" else 0
            pot += amount
            text = f"{seat['name']} posts {amount:,}" + (" ante" if kind == "ante_posted" else "")
        elif kind == "bet_placed" and seat is not None:
            added = int(ev.get("added", 0))
            seat["stack"] -= added
            seat["bet"] = int(ev.get("to", seat["bet"]))
            seat["folded"] = seat["folded"] or ev.get("action") == "fold"
            seat["all_in"] = bool(ev.get("all_in")) and not seat["folded"]
            pot += added
        elif kind == "street_completed":
            for s in seats:
                s["bet"] = 0
        elif kind == "board_dealt":
            board += [c for c in ev.get("cards", []) if c]
        elif kind == "hole_cards_dealt" and seat is not None:
            seat["cards"] += list(ev.get("cards") or [])
        elif kind == "hand_shown" and seat is not None:
            if ev.get("cards"):
                seat["cards"] = list(ev["cards"])
            seat["shown"] = True
        elif kind == "uncalled_bet_returned" and seat is not None:
            seat["stack"] += int(ev.get("amount", 0))
            seat["bet"] -= int(ev.get("amount", 0))
            pot -= int(ev.get("amount", 0))
        elif kind == "pot_awarded":
            for s, amount in ev.get("shares", []):
                if s in by_seat:
                    by_seat[s]["stack"] += int(amount)
            pot -= int(ev.get("amount", 0))
        ticker.feed([ev], hand)
        text = text or (ticker.lines[-1]["text"] if ticker.lines and ticker.lines[-1].get("kind") == kind else "")
        ticker.lines.clear()
        if not text and kind not in ("hole_cards_dealt",):
            continue
        step = {"text": text or "Hole cards dealt", "kind": kind, "seat": ev.get("seat"), "board": list(board),
                "pot": pot, "seats": copy.deepcopy(seats), "equity": None}
        q = _question(seats, board) if equity is not None else None
        if q is not None and equity is not None:
            step["equity"] = equity(q)
        if steps and kind == "hole_cards_dealt" and steps[-1]["kind"] == kind:
            steps[-1] = step  # one step for the whole deal
        else:
            steps.append(step)
    return steps
