"""Finished hands out of the journal: JSON (the full event log) and PHH hand histories.

The journal keeps the accepted observations and the events they caused. A PHH
history needs the hand's *entries* (cards dealt, actions taken, hands shown),
so the export replays the journal through the engine, exactly as a restart
does, and reads each hand's entries off the engine as it goes: the betting
decisions from the ``bet_placed`` outcomes, the cards from what the hand state
gained. An entry taken back by the dealer (``entry_undone``) is left out. The
history is then written by the engine's own PHH writer, and kept only if
replaying it gives the final stacks the table really had, so an exported file
is one that ``dealer-pi replay`` accepts.

Every hand that ended is exported with how it ended (``result``: played,
misdeal or voided, and ``why``). A voided hand cannot be written in PHH; it is
in the JSON export.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from dealer_pi.engine.errors import EngineError
from dealer_pi.engine.events import (
    ActionTaken, BoardDealt, Entry, HandKilled, HandMucked, HandShown, HandStarted, HoleCardsDealt, WinnersDeclared,
    event_from_dict,
)
from dealer_pi.engine.observations import ActionKind, observation_from_dict
from dealer_pi.engine.phh import HandHistory, to_phh
from dealer_pi.engine.phh_replay import hand_to_phh, replay_history
from dealer_pi.engine.state import HandState

from .journal import Journal
from .table import Table, hand_result


@dataclass
class ExportedHand:
    hand: int
    events: list[dict[str, Any]] = field(default_factory=list)  # journal form: id, ts_ms, hand, event
    observations: list[dict[str, Any]] = field(default_factory=list)
    history: HandHistory | None = None
    problem: str = ""  # why there is no PHH history
    misdeal: bool = False
    result: str = "played"  # played | misdeal | voided (by a new setup)
    why: str = ""

    def phh(self) -> str:
        assert self.history is not None
        return to_phh(self.history)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "misdeal": self.misdeal,
            "result": self.result,
            "why": self.why,
            "started_ms": self.events[0]["ts_ms"] if self.events else None,
            "ended_ms": self.events[-1]["ts_ms"] if self.events else None,
            "observations": self.observations,
            "events": self.events,
        }


def _card_entries(before: HandState, after: HandState) -> tuple[int, list[Entry]]:
    """What the monitor handed to the betting engine in one step, read off the hand state:
    (board cards taken back, new entries). A board card is taken back when it was turned too
    early or one too many (DEAL-TURN-EARLY, DEAL-FLOP-EXTRA...): it is not part of the hand."""
    out: list[Entry] = []
    for i, seat in enumerate(after.order):
        new = after.hole[i][len(before.hole[i]):]
        if new:
            out.append(HoleCardsDealt(seat, tuple(new)))
    keep = 0
    while keep < min(len(before.board), len(after.board)) and before.board[keep] == after.board[keep]:
        keep += 1
    if len(after.board) > keep:
        out.append(BoardDealt(tuple(after.board[keep:])))
    for i, seat in enumerate(after.order):
        if after.shown[i] is not None and before.shown[i] is None:
            out.append(HandShown(seat, tuple(after.shown[i] or ())))
        elif after.mucked[i] and not before.mucked[i]:
            out.append(HandMucked(seat))
    return len(before.board) - keep, out


class _HandLog:
    def __init__(self, hand: int, started: dict[str, Any]) -> None:
        self.out = ExportedHand(hand)
        first = event_from_dict(started)
        assert isinstance(first, HandStarted)
        self.started = first
        self.by_obs: dict[int, list[Entry]] = {}
        self.stacks: dict[int, int] = {}

    def take_back_board(self, n: int) -> None:
        """Drop the last ``n`` board cards from the log."""
        for at in sorted(self.by_obs, reverse=True):
            entries = self.by_obs[at]
            for k in range(len(entries) - 1, -1, -1):
                e = entries[k]
                if n and isinstance(e, BoardDealt):
                    cut = min(n, len(e.cards))
                    n -= cut
                    if cut == len(e.cards):
                        del entries[k]
                    else:
                        entries[k] = BoardDealt(e.cards[: len(e.cards) - cut])
            if not n:
                return

    def drop_last_action(self, seat: int) -> None:
        """Forget the last betting action of ``seat`` (it is being made again)."""
        for at in sorted(self.by_obs, reverse=True):
            entries = self.by_obs[at]
            for k in range(len(entries) - 1, -1, -1):
                e = entries[k]
                if isinstance(e, ActionTaken) and e.seat == seat:
                    del entries[k]
                    return

    def finish(self) -> ExportedHand:
        out = self.out
        out.result, out.why = hand_result(e["event"] for e in out.events)
        if out.misdeal:
            out.problem = f"{out.why}: PHH cannot record a void hand"
            return out
        entries: list[Entry] = [self.started]
        for at in sorted(self.by_obs):
            entries += self.by_obs[at]
        try:
            history = hand_to_phh(entries)
            replayed = replay_history(history, self.started.profile)
        except EngineError as exc:
            out.problem = f"cannot be written as PHH: {exc}"
            return out
        want = tuple(self.stacks[s] for s in history.seats or ())
        if replayed.error or replayed.final_stacks != want:
            out.problem = f"its PHH replay does not give the table's final stacks ({replayed.error or replayed.final_stacks})"
            return out
        out.history = history
        return out


def export_hands(journal: Journal) -> Iterator[ExportedHand]:
    """Every finished hand of the journal, in order, with its events and (if possible) its PHH."""
    finished = {h["hand"] for h in journal.hands()}
    table: Table | None = None
    log: _HandLog | None = None
    stored = journal.events_for_entries(0)
    for entry in journal.entries_after(0):
        events = [ev.to_dict() for ev in stored.get(entry.seq, [])]
        if entry.kind == "setup":
            table = Table(entry.body["setup"], hand_base=entry.body.get("hand_base", 0))
            log = None
            before, at, tagged = None, -1, [ev for ev in table.initial_events]
        elif entry.kind == "observation" and table is not None:
            before, at = table.hand_state(), len(table.session.observations)
            try:
                tagged = table.feed(observation_from_dict(entry.body, f"journal[{entry.seq}]"))
            except EngineError:
                continue  # refused on replay: the live run refused it too, or the journal is not ours
            if log is not None:
                log.out.observations.append(entry.body)
        else:
            continue
        cards_ok = not any(ev.get("type") == "hand_started" for ev, _ in tagged)
        if log is not None and before is not None and cards_ok:
            taken_back, new = _card_entries(before, table.hand_state())
            log.take_back_board(taken_back)
            log.by_obs.setdefault(at, []).extend(new)
        stored_by_id = iter(events)
        killed: int | None = None  # a dead hand's fold is the kill itself, not an action
        for ev, hand in tagged:
            record = next(stored_by_id, None)
            kind = ev.get("type")
            if kind == "hand_started" and hand is not None:
                log = _HandLog(hand, ev)
            if log is None:
                continue
            if record is not None:
                log.out.events.append(record)
            if kind == "hand_killed":
                dead = event_from_dict(ev)
                if isinstance(dead, HandKilled):
                    log.by_obs.setdefault(at, []).append(dead)
                    killed = dead.seat
            elif kind == "bet_placed" and ev["seat"] == killed and ev["action"] == "fold":
                killed = None
            elif kind == "bet_placed":
                if ev.get("amends"):  # a raise made again by its one additional motion (000 §7)
                    log.drop_last_action(ev["seat"])
                log.by_obs.setdefault(at, []).append(ActionTaken(ev["seat"], ActionKind(ev["action"]), ev["to"]))
            elif kind == "winners_declared":  # the dealer's word on a pot: PHH cannot write it, say so
                declared = event_from_dict(ev)
                if isinstance(declared, WinnersDeclared):
                    log.by_obs.setdefault(at, []).append(declared)
            elif kind == "entry_undone":
                log.by_obs.pop(int(ev["undone"]), None)
            elif kind == "hand_ended":
                log.out.misdeal = bool(ev.get("misdeal"))
                log.stacks = {int(s): int(c) for s, c in ev["stacks"]}
                if log.out.hand in finished:
                    yield log.finish()
                log = None

