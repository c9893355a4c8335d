"""What the stream shows beyond the snapshot: the action ticker and each player's equity.

The ticker is public (the table saw every action) and is kept per batch, so the
delayed public view gets the lines of its own moment. Equities are as secret
as the hole cards they come from: a batch carries only the question (whose
cards, which board, which cards are dead), the answer is worked out off the
engine thread by :class:`EquityDesk` and is put only into the views that may
see hole cards (the producer's live view at once, the public one through the
delay), never the dealer's.

>>> t = Ticker()
>>> t.feed([{"type": "hand_started", "setup": {"seats": [{"seat": 1, "name": "Ana"}, {"seat": 2, "name": "Ivo"}]}},
...         {"type": "bet_placed", "seat": 1, "action": "raise", "to": 240, "added": 230, "all_in": False},
...         {"type": "bet_placed", "seat": 2, "action": "call", "to": 240, "added": 230, "all_in": False}], 7)
>>> [x["text"] for x in t.lines]
['Hand 7', 'Ana raises to 240', 'Ivo calls 240']
"""

from __future__ import annotations

import collections
import logging
import threading
from typing import Any, Callable, Deque, Final, Hashable

log = logging.getLogger("dealer_pi.broadcast")

TICKER_LINES: Final = 8
STREETS: Final = {3: "Flop", 1: "Turn"}


def _chips(n: Any) -> str:
    return f"{int(n):,}" if isinstance(n, int) else str(n)


class Ticker:
    """The last few actions of the table in words ("Ana raises to 240"), from journaled events."""

    def __init__(self, size: int = TICKER_LINES) -> None:
        self.lines: Deque[dict[str, Any]] = collections.deque(maxlen=size)
        self.names: dict[int, str] = {}
        self._board = 0

    def name(self, seat: Any) -> str:
        return self.names.get(seat) or f"Seat {seat}"

    def feed(self, events: list[dict[str, Any]], hand: int | None) -> None:
        for ev in events:
            text = self._line(ev, hand)
            if text:
                self.lines.append({"text": text, "kind": ev.get("type"), "seat": ev.get("seat"), "hand": hand})

    def _line(self, ev: dict[str, Any], hand: int | None) -> str:
        kind = ev.get("type")
        seat = ev.get("seat")
        if kind == "hand_started":
            self.names = {s["seat"]: s.get("name") or "" for s in ev.get("setup", {}).get("seats", [])}
            self._board = 0
            return f"Hand {hand}" if hand else "New hand"
        if kind == "bet_placed":
            return self._action(self.name(seat), ev)
        if kind == "board_dealt":
            # Board cards are face up for everyone (a burn is a card_burned event, never named here).
            cards = " ".join(c for c in ev.get("cards", []) if c)
            self._board += len(ev.get("cards", []))
            street = "Flop" if self._board == 3 else "Turn" if self._board == 4 else "River" if self._board == 5 else "Board"
            return f"{street}: {cards}"
        if kind == "pot_awarded":
            winners = [self.name(s) for s, amount in ev.get("shares", []) if amount > 0]
            what = f" with {ev['description'][0].lower()}{ev['description'][1:]}" if ev.get("description") else ""
            verb = "split" if len(winners) > 1 else "wins"
            return f"{' and '.join(winners)} {verb} {_chips(ev.get('amount'))}{what}"
        if kind == "hand_shown":
            return f"{self.name(seat)} shows"
        if kind == "hand_mucked":
            return f"{self.name(seat)} mucks"
        if kind == "uncalled_bet_returned":
            return f"{_chips(ev.get('amount'))} returned to {self.name(seat)}"
        if kind == "misdeal_declared":
            return "Misdeal: the hand is dealt again"
        return ""

    @staticmethod
    def _action(who: str, ev: dict[str, Any]) -> str:
        action, to = ev.get("action"), _chips(ev.get("to"))
        if ev.get("all_in") and action not in ("fold", "check"):
            return f"{who} is all in for {to}"
        return {
            "fold": f"{who} folds", "check": f"{who} checks", "call": f"{who} calls {to}",
            "bet": f"{who} bets {to}", "raise": f"{who} raises to {to}",
        }.get(str(action), f"{who} {action} {to}")


def equity_question(table: dict[str, Any] | None, hole_cards: dict[str, Any]) -> tuple[Any, ...] | None:
    """What the equities of this moment depend on, as a hashable key, or None when there are none
    to give: fewer than two players left, or a live hand the sensors could not read.

    ``((seat, "AhKh"), ...), "Ts9s2h", "folded cards"``: folded hands the table dealt are dead cards.
    """
    if not table:
        return None
    hand = table.get("hand") or {}
    if hand.get("misdeal") or hand.get("phase") not in ("betting", "dealing", "showdown", "complete"):
        return None
    seats = (table.get("table") or {}).get("seats") or {}
    live: list[tuple[int, str]] = []
    dead: list[str] = []
    for key, row in seats.items():
        if not row.get("in_hand"):
            continue
        cards = hole_cards.get(str(key)) or []
        known = len(cards) == 2 and all(cards)
        if row.get("folded"):
            dead += [c for c in cards if c]
            continue
        if not known:
            return None
        live.append((int(key), "".join(cards)))
    board = hand.get("board") or []
    if len(live) < 2 or len(board) not in (0, 3, 4, 5):
        return None
    return tuple(sorted(live)), "".join(board), "".join(sorted(dead))


def answer(question: tuple[Any, ...], max_evals: int) -> dict[str, Any]:
    """The equity block of a question (what the views get)."""
    from dealer_pi.engine.cards import parse_cards

    from .equity import equity

    live, board, dead = question
    result = equity([parse_cards(cards) for _, cards in live], parse_cards(board), parse_cards(dead),
                    max_evals=max_evals)
    seats = {}
    for (seat, _), h in zip(live, result.hands):
        seats[str(seat)] = {"win": round(h.win, 4), "tie": round(h.tie, 4), "equity": round(h.equity, 4),
                            "name": h.name, "outs": [str(c) for c in h.outs]}
    return {"seats": seats, "exact": result.exact, "boards": result.boards,
            "stderr": round(result.stderr, 5), "board": board}


class EquityDesk:
    """Works out equities on its own thread, each question once (the last few are remembered).

    ``ready(question)`` is called (from the desk's thread) when a new answer is in, so the
    views showing that moment can be sent again. ``get`` never blocks; ``wait`` does.
    """

    def __init__(self, ready: Callable[[Hashable], None] | None = None, max_evals: int = 1_000_000,
                 keep: int = 64) -> None:
        self.ready = ready
        self.max_evals = max_evals
        self._answers: collections.OrderedDict[Hashable, dict[str, Any]] = collections.OrderedDict()
        self._keep = keep
        self._queue: Deque[Hashable] = collections.deque()
        self._cond = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None

    def start(self) -> "EquityDesk":
        self._thread = threading.Thread(target=self._loop, name="equity", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def ask(self, question: Hashable | None) -> None:
        if question is None:
            return
        with self._cond:
            if question in self._answers or question in self._queue:
                return
            self._queue.append(question)
            self._cond.notify_all()

    def get(self, question: Hashable | None) -> dict[str, Any] | None:
        if question is None:
            return None
        with self._cond:
            return self._answers.get(question)

    def wait(self, question: Hashable | None, timeout: float = 10.0) -> dict[str, Any] | None:
        if question is None:
            return None
        self.ask(question)
        with self._cond:
            self._cond.wait_for(lambda: question in self._answers or self._stop, timeout)
            return self._answers.get(question)

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._stop)
                if self._stop:
                    return
                question = self._queue.popleft()
            try:
                result = answer(question, self.max_evals)  # type: ignore[arg-type]
            except Exception:  # a bad question must not stop the desk (the cards were checked upstream)
                log.exception("equity for %r failed", question)
                result = {"seats": {}, "error": "equity could not be worked out"}
            with self._cond:
                self._answers[question] = result
                while len(self._answers) > self._keep:
                    self._answers.popitem(last=False)
                self._cond.notify_all()
            if self.ready is not None:
                try:
                    self.ready(question)
                except Exception:
                    log.exception("equity ready callback")


def broadcast_view(extras: dict[str, Any], view: str, desk: EquityDesk | None) -> dict[str, Any]:
    """The ``broadcast`` part of a view's state: the ticker for everyone; equities only where
    hole cards may be seen. An answer still being worked out is ``pending`` (the view is sent
    again when it is in); asked for here, so whatever a view shows gets worked out."""
    out: dict[str, Any] = {"ticker": list(extras.get("ticker") or [])}
    if view == "dealer" or desk is None:
        return out
    question = extras.get("equity_question")
    if question is None:
        out["equity"] = None
        return out
    desk.ask(question)
    got = desk.get(question)
    out["equity"] = got if got is not None else {"pending": True, "seats": {}}
    return out
