"""The one pure facade the live runtime calls: betting engine + dealing monitor + the table.

A :class:`TableSession` is built from a :class:`TableSetup` and fed
observations one at a time (:meth:`TableSession.feed`). Betting actions go to
the betting engine, card observations to the dealing-procedure monitor
(``dealer_pi.engine.monitor``), dealer declarations and alert decisions to
both, and the floor's changes between hands (a player seated or removed, a
rebuy, a new level, a player away) to the table (``engine.table``). Each
accepted observation is appended to :attr:`TableSession.observations` and
returns the events it caused; a rejected one raises
:class:`~dealer_pi.engine.errors.RuleViolation` (well-formed but against the
rules, e.g. BET-OUT-OF-TURN) or :class:`~dealer_pi.engine.errors.InputError`
(malformed) and leaves the session exactly as it was.

Same setup + same accepted observations = same events and same snapshot
(:meth:`TableSession.replay`): the runtime journals the setup and the
accepted observations and rebuilds the table from them after a restart.

Hands follow each other: the first hand starts when the session is built;
``DealerDeclaration(NEW_HAND)`` after a hand ended starts the next one (the
button moves, TABLE-BUTTON); a confirmed misdeal voids the hand (stacks and
blinds restored, the button stays, DEAL-MISDEAL-REMEDY) and the redeal starts
at once; ``VOID_HAND`` voids it without a redeal (the floor is about to set
the table up anew). ``DealerDeclaration(UNDO)`` takes back the last dealer
entry (action, chips, declaration, alert decision or table change).

While the hole cards are being dealt nobody is asked to act (phase
``dealing``): the deal ends when every seat has two cards, when the dealer
says ``CARDS_OUT`` (a table with no card sensor), or with the first action.

Events are the betting engine's (``HandStarted``, blinds and bets placed,
``StreetCompleted``, ``PotAwarded``, ``HandEnded``, ``MisdealDeclared``, and
the public entries ``BoardDealt`` and ``HandShown``; never hole cards) and the
monitor's: :class:`~dealer_pi.engine.monitor.alerts.AlertRaised` (id, rule,
verdict, remedy, ``at`` = index of the triggering observation),
``AlertConfirmed``, ``AlertDismissed``, ``ProcedureCompleted`` (a correction
carried out to its end) and ``EntryUndone``. The dealer answers an alert with
an :class:`~dealer_pi.engine.observations.AlertDecision` observation; confirming
a misdeal (or an uncertain notice that would be one) voids the hand.
:func:`event_to_json` gives every event's JSON form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import table as tables
from .errors import EngineError, InputError, RuleViolation
from .evaluator import HandCategory, evaluate7, hand_category, hand_description
from .events import (
    ActionTaken,
    BetPlaced,
    BoardDealt,
    ChipsPlaced,
    Entry,
    HandKilled,
    HandMucked,
    HandShown,
    HandStarted,
    MisdealDeclared,
    Outcome,
    StreetCompleted,
    WinnersDeclared,
)
from .events import Event as EngineEvent
from .events import event_to_dict as engine_event_to_dict
from .hand import apply_events, kill_reasons, start_hand
from .legal import LegalActions, legal_actions
from .monitor.alerts import (
    AlertConfirmed,
    AlertDismissed,
    AlertRaised,
    EntryUndone,
    MonitorEvent,
    ProcedureCompleted,
    Verdict,
    alert_event_to_dict,
)
from .monitor.monitor import BettingView, DealMonitor, Step
from .observations import (
    HAND_NAMES,
    KILL_RULES,
    ActionKind,
    AlertDecision,
    BoardPlayed,
    CardLeft,
    CardSeen,
    ChipsAdded,
    ChipsPushed,
    DealerDeclaration,
    Decision,
    Declaration,
    HandAnnounced,
    KillHand,
    LevelChanged,
    Observation,
    PlayerAction,
    PlayerAway,
    PlayerRemoved,
    PlayerSeated,
    ShoeDraw,
    VerbalDeclaration,
    WinnersNamed,
)
from .profiles import RuleProfile
from .showdown import next_to_show, show_order
from .state import HandState, Phase
from .table import NextHand, TableState, finish_hand, new_table, next_hand, positions
from .table_setup import SETUP_FIELDS, TableSetup

__all__ = ["SETUP_FIELDS", "SessionEvent", "TableSession", "TableSetup", "betting_view", "event_to_json"]

SessionEvent = EngineEvent | MonitorEvent


def event_to_json(event: SessionEvent) -> dict[str, Any]:
    """The JSON form of any session event (betting engine or monitor): ``{"type": ..., ...}``."""
    if isinstance(event, (AlertRaised, AlertConfirmed, AlertDismissed, ProcedureCompleted, EntryUndone)):
        return alert_event_to_dict(event)
    return engine_event_to_dict(event)


TABLE_CHANGES = (PlayerSeated, PlayerRemoved, ChipsAdded, LevelChanged, PlayerAway)
DEALER_ENTRIES = (PlayerAction, ChipsPushed, KillHand, DealerDeclaration, AlertDecision, VerbalDeclaration,
                  BoardPlayed, HandAnnounced, WinnersNamed, *TABLE_CHANGES)
SHOWDOWN_CALLS = (BoardPlayed, WinnersNamed)  # the dealer's word at the showdown: nothing for the monitor
PUBLIC_ENTRIES = (BoardDealt, HandShown)


@dataclass(frozen=True, slots=True)
class _Checkpoint:
    """The session right after a hand started: enough to rebuild from there (undo)."""

    at: int  # first observation index played on this hand
    table: TableState
    next: NextHand
    hand_no: int
    hand: HandState
    redeal: bool  # this hand is the redeal of a misdeal (DEAL-MISDEAL-REMEDY)


@dataclass(slots=True)
class _SessionState:
    """Everything that changes as observations come in: the session changes only this object,
    and an undo that cannot be carried out puts a copy of it back whole."""

    table: TableState  # the table this hand was dealt from; once it ended, the one the next is dealt from
    settled: bool  # ``table`` already holds the finished hand's result (floor changes go on top)
    next: NextHand
    hand_no: int
    hand: HandState
    monitor: DealMonitor
    level: tuple[int, int, int]  # this hand's small blind, big blind and ante
    checkpoints: list[_Checkpoint]
    board_states: list[HandState]  # the hand before each board street (a street taken back)
    redeal: bool
    # Each seat's last betting action on the current street (the overlay's "CALL 30"),
    # rebuilt from the events so an undo or a replay gets it right too.
    last_action: dict[int, dict[str, Any]]
    announced: dict[int, str]  # what a seat called its hand at the showdown, until it is read


def betting_view(st: HandState) -> BettingView:
    """What the betting engine tells the monitor (see :class:`BettingView`)."""
    if st.phase is Phase.BETTING:
        closed = st.street
    elif st.phase is Phase.DEALING:
        closed = st.street + 1
    else:
        closed = 4
    live = st.live()
    cards_up = st.phase is not Phase.BETTING and (closed >= 4 or len(st.able()) < 2)
    return BettingView(closed, len(live) == 1, st.acted_after_blinds, frozenset(st.order[i] for i in live), cards_up,
                       st.is_complete)


def voided(st: HandState, rule: str) -> tuple[HandState, tuple[Outcome, ...]]:
    """The hand declared void whatever the betting (a foul deck, the floor setting the table up
    anew): stacks back as at its start (DEAL-MISDEAL-REMEDY), DEAL-MISDEAL-LOCK not applied."""
    unlocked = st.copy()
    unlocked.profile = dataclasses.replace(st.profile, misdeal_lock_actions=0)
    new, outcomes = apply_events(unlocked, MisdealDeclared(rule))
    new.profile = st.profile
    return new, outcomes


class TableSession:
    """A table's live state: the current hand, its betting and its dealing procedure.

    Pure and deterministic: no clock, no I/O; one owner thread calls it.
    """

    def __init__(self, setup: TableSetup) -> None:
        """Start the session and deal the first hand in (antes and blinds posted)."""
        setup.check()
        self._setup = setup
        self._profile = setup.rule_profile()
        self._log: list[Observation] = []
        self._events: list[SessionEvent] = []
        self._undone: set[int] = set()
        sb, bb = setup.blinds
        table = new_table(
            {s: st for s, st in setup.seats.items() if st > 0}, sb, bb, button=setup.button, ante=setup.ante,
            structure=setup.structure, profile=self._profile, names=setup.names,
        )
        for seat in setup.away:  # TABLE-AWAY: a floor's order (a penalty's minutes away)
            if table.seat(seat) is not None:
                table = tables.set_away(table, seat, True)
        self._s, events = self._dealt(table, 1, 1, redeal=False, checkpoints=[], at=0)
        self._events.extend(events)

    # ------------------------------------------------------------ reading

    @property
    def setup(self) -> TableSetup:
        """The setup the session was built from (for the journal)."""
        return self._setup

    @property
    def profile(self) -> RuleProfile:
        """The active rule profile, overrides applied."""
        return self._profile

    @property
    def hand(self) -> HandState:
        """The betting engine's state of the current hand (read only)."""
        return self._s.hand

    @property
    def observations(self) -> tuple[Observation, ...]:
        """Every accepted observation in order, undo declarations included: replay input."""
        return tuple(self._log)

    @property
    def events(self) -> tuple[SessionEvent, ...]:
        """Every event emitted so far, in order, the first hand's start included."""
        return tuple(self._events)

    @property
    def hand_number(self) -> int:
        """How many hands this session has dealt in, the current one included (1 = the first)."""
        return self._s.hand_no

    def open_alerts(self) -> list[AlertRaised]:
        """Alerts raised in this hand and not yet confirmed or dismissed, oldest first."""
        return self._s.monitor.open_alerts()

    def dealing_hole_cards(self) -> bool:
        """The hole cards are still being dealt: nobody is to act yet."""
        st = self._s.hand
        return st.phase is Phase.BETTING and st.street == 0 and self._s.monitor.dealing_hole_cards()

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do now (None when nobody is to act, the hole-card deal included)."""
        return None if self.dealing_hole_cards() else legal_actions(self._s.hand)

    def table_now(self) -> TableState:
        """The table the next hand is dealt from, as far as it is known now: while a hand runs,
        its seats and stacks as it started (BET-TABLE-STAKES); after it, the result and every
        change the floor made since."""
        s = self._s
        if s.hand.is_complete and not s.settled:
            return finish_hand(s.table, s.next, s.hand)
        return s.table

    def live_setup(self) -> TableSetup:
        """The table now as a setup (current stacks, busted seats empty, the next hand's button):
        what a setup page starts from."""
        t = self.table_now()
        seated = {x.seat: x.stack for x in t.seats if x.stack > 0}
        try:
            button = positions(t)[0]
        except InputError:  # fewer than two players left: the game is over
            button = t.button
        return dataclasses.replace(
            self._setup, seats=seated, names={x.seat: x.name for x in t.seats if x.name and x.seat in seated},
            blinds=(t.small_blind, t.big_blind), ante=t.ante, button=button,
        )

    def check_new_table(self) -> None:
        """A table is set up anew only between hands (BET-TABLE-STAKES: the chips of a running
        hand are fixed); void the running hand first (``VOID_HAND``)."""
        if not self._s.hand.is_complete:
            raise RuleViolation("BET-TABLE-STAKES", f"hand {self._s.hand_no} is running: the table is set up anew "
                                "only between hands; finish the hand, or void it first")

    # ------------------------------------------------------------ feeding

    def feed(self, obs: Observation) -> list[SessionEvent]:
        """Apply one observation; returns the events it caused (possibly none).

        Raises ``RuleViolation`` (rule ID named: BET-OUT-OF-TURN, DEAL-MISDEAL-LOCK, ...)
        or ``InputError`` and leaves the session unchanged when the input is refused.
        Sensor observations (shoe, camera) are never refused for breaking the dealing
        procedure: they raise alerts instead.
        """
        at = len(self._log)
        if isinstance(obs, DealerDeclaration) and obs.declare is Declaration.UNDO:
            events = self._undo(at)
        else:
            events = self._note_actions(self._apply(at, obs))
        self._log.append(obs)
        self._events.extend(events)
        return events

    def undo(self) -> list[SessionEvent]:
        """Take back the last dealer entry: the same as feeding ``DealerDeclaration(UNDO)``."""
        return self.feed(DealerDeclaration(Declaration.UNDO))

    @classmethod
    def replay(cls, setup: TableSetup, observations: Iterable[Observation]) -> TableSession:
        """A session rebuilt by feeding ``observations`` in order; raises if one is refused."""
        session = cls(setup)
        for obs in observations:
            session.feed(obs)
        return session

    # ------------------------------------------------------------ hands

    def _dealt(self, table: TableState, hand_no: int, first_alert: int, *, redeal: bool,
               checkpoints: list[_Checkpoint], at: int) -> tuple[_SessionState, list[SessionEvent]]:
        """A new state with hand ``hand_no`` dealt in from ``table`` (button, blinds, antes by the
        engine's table rules), and the events of that."""
        nh = next_hand(table, hand_id=str(hand_no))
        out: list[Outcome] = []
        hand = start_hand(nh.started.setup, nh.started.profile, out)
        events: list[SessionEvent] = [nh.started, *out]
        for killed in nh.killed:  # TABLE-AWAY
            hand, more = apply_events(hand, killed)
            events += [killed, *more]
        monitor = DealMonitor(self._profile, first_alert)
        monitor.start_hand(tuple(s for s in hand.order if s in nh.dealt), hand_no)
        checkpoints.append(_Checkpoint(at, table, nh, hand_no, hand, redeal))
        state = _SessionState(table, False, nh, hand_no, hand, monitor,
                              (table.small_blind, table.big_blind, table.ante), checkpoints, [], redeal, {}, {})
        return state, events

    def _start_hand(self, at: int, table: TableState, redeal: bool) -> list[SessionEvent]:
        s = self._s
        self._s, events = self._dealt(table, s.hand_no + 1, s.monitor.next_alert, redeal=redeal,
                                      checkpoints=s.checkpoints, at=at)
        return events

    def _new_hand(self, at: int) -> list[SessionEvent]:
        s = self._s
        if not s.hand.is_complete:
            if s.redeal:
                raise RuleViolation("DEAL-MISDEAL-REMEDY", "after a misdeal the hand is redealt with the same button")
            raise RuleViolation("TABLE-BUTTON", "the hand is not over: finish it or declare a misdeal first")
        table = self.table_now()
        if sum(1 for x in table.seats if x.stack > 0) < 2:
            raise RuleViolation("TABLE-BUTTON", "fewer than two players with chips are at the table: the game is over")
        return self._start_hand(at + 1, table, False)

    def _misdeal(self, at: int, alert_id: str | None) -> list[SessionEvent]:
        """Void the hand (DEAL-MISDEAL-REMEDY): stacks and blinds back, same button, redeal."""
        s = self._s
        oa = s.monitor.open_alert(alert_id or "")
        rule = oa.alert.rule if oa else "DEAL-MISDEAL-REMEDY"
        st = s.hand
        if oa is not None and not oa.lockable and not st.is_complete:
            _, outcomes = voided(st, rule)  # a foul deck (or 001's two extra cards) whatever the betting
        else:
            _, outcomes = apply_events(st, MisdealDeclared(rule))  # raises on DEAL-MISDEAL-LOCK
        events: list[SessionEvent] = [MisdealDeclared(rule), *outcomes]
        if alert_id is not None and s.monitor.open_alert(alert_id) is not None:
            s.monitor.close_alert(alert_id)
            events.append(AlertConfirmed(alert_id, at))
        return events + self._start_hand(at + 1, s.table, True)

    def _void(self, at: int) -> list[SessionEvent]:
        """The floor voids the running hand without a redeal (the table is about to be set up anew)."""
        st = self._s.hand
        if st.is_complete:
            raise InputError("declare", "no hand is running: there is nothing to void")
        self._s.hand, outcomes = voided(st, "BET-TABLE-STAKES")
        return [MisdealDeclared("BET-TABLE-STAKES"), *outcomes]

    # ------------------------------------------------------------ observations

    def _note_actions(self, events: list[SessionEvent]) -> list[SessionEvent]:
        last = self._s.last_action
        for e in events:
            if isinstance(e, (HandStarted, StreetCompleted)):
                last.clear()
            elif isinstance(e, BetPlaced):
                last[e.seat] = {"action": e.action.value, "to": e.to, "all_in": e.all_in}
        return events

    def _apply(self, at: int, obs: Observation) -> list[SessionEvent]:
        """One observation; raises before changing anything when it is refused."""
        s = self._s
        if isinstance(obs, (PlayerAction, ChipsPushed, VerbalDeclaration, *SHOWDOWN_CALLS)):
            return self._bet_or_show(at, obs)
        if isinstance(obs, (ShoeDraw, CardSeen, CardLeft)):
            return self._card_step(at, s.monitor.observe(at, obs, betting_view(s.hand)), [])
        if isinstance(obs, KillHand):  # POT-DEAD-HAND: the betting engine folds it, whoever is to act
            killed = HandKilled(obs.seat, KILL_RULES[obs.reason], obs.reason)
            s.hand, outcomes = apply_events(s.hand, killed)  # raises: nothing changed yet
            return [killed, *outcomes]
        if isinstance(obs, AlertDecision):
            return self._decide(at, obs)
        if isinstance(obs, TABLE_CHANGES):
            return self._table_change(obs)
        if isinstance(obs, HandAnnounced):
            if obs.seat not in s.hand.index_of:
                raise InputError("seat", f"seat {obs.seat} is not in this hand")
            s.announced[obs.seat] = obs.hand
            return self._read_announcements(at)
        if isinstance(obs, DealerDeclaration):
            return self._declare(at, obs)
        raise InputError("observation", f"not an observation: {type(obs).__name__}")

    def _declare(self, at: int, obs: DealerDeclaration) -> list[SessionEvent]:
        s = self._s
        if obs.declare is Declaration.MISDEAL:
            return self._misdeal(at, s.monitor.misdeal_alert)
        if obs.declare is Declaration.NEW_HAND:
            return self._new_hand(at)
        if obs.declare is Declaration.VOID_HAND:
            return self._void(at)
        if obs.declare is Declaration.CARDS_OUT and (s.hand.is_complete or not s.monitor.dealing_hole_cards()):
            raise InputError("declare", "the hole cards are already out")
        # CARDS_OUT ends the hole-card deal; SHUFFLE_DONE ends a correction's reshuffle.
        return self._card_step(at, s.monitor.observe(at, obs, betting_view(s.hand)), [])

    def _bet_or_show(self, at: int, obs: PlayerAction | ChipsPushed | VerbalDeclaration | BoardPlayed | WinnersNamed
                     ) -> list[SessionEvent]:
        s = self._s
        st = s.hand
        entry: Entry
        if isinstance(obs, ChipsPushed):
            entry = ChipsPlaced(obs.seat, obs.amount, obs.single_chip, obs.declared, obs.declared_amount,
                                obs.second_motion)
        elif isinstance(obs, BoardPlayed):
            entry = HandShown(obs.seat)  # the dealer reads both cards against the board (POT-SHOW-BOTH, 001)
        elif isinstance(obs, WinnersNamed):
            entry = WinnersDeclared(obs.pot, obs.seats)  # cards the sensors could not read (POT-CARDS-SPEAK)
        elif obs.action is ActionKind.FOLD and st.phase is Phase.SHOWDOWN:
            entry = HandMucked(obs.seat)
        else:
            entry = ActionTaken(obs.seat, obs.action, obs.amount)  # a verbal declaration binds (BET-VERBAL)
        after, outcomes = apply_events(st, entry)  # raises: nothing changed yet
        events: list[SessionEvent] = []
        if not isinstance(obs, SHOWDOWN_CALLS) and s.monitor.dealing_hole_cards():
            # A bet ends a deal nothing else closed: the hole cards go into the hand before the bet,
            # as the table played it (a raise's one additional motion must follow its first, BET-STRING).
            events = self._card_step(at, s.monitor.observe(at, DealerDeclaration(Declaration.CARDS_OUT), betting_view(s.hand)), [])
            if s.hand.is_complete:  # the deal was a misdeal: no bet on a dead deal
                return events
            try:
                after, outcomes = apply_events(s.hand, entry)
            except EngineError as exc:
                return events + s.monitor.notice(at, getattr(exc, "rule", "BET-OUT-OF-TURN"), str(exc))
        view = betting_view(s.hand)
        s.hand = after
        if isinstance(obs, BoardPlayed):
            events.append(HandShown(obs.seat, s.hand.shown[s.hand.index_of[obs.seat]] or ()))
        elif isinstance(obs, WinnersNamed):
            events.append(entry)
        events += outcomes
        if not isinstance(obs, SHOWDOWN_CALLS):
            events = self._card_step(at, s.monitor.observe(at, obs, view), events)
        return events + self._read_announcements(at)

    def _card_step(self, at: int, step: Step, events: list[SessionEvent]) -> list[SessionEvent]:
        """Hand the monitor's accepted cards to the betting engine and collect the events."""
        s = self._s
        for _ in range(step.retract_board):
            if s.board_states:
                s.hand = s.board_states.pop()
        events.extend(step.events)
        if s.hand.is_complete:
            return events  # cards after the hand (collecting, a rabbit hunt) are not the engine's
        for entry in step.entries:
            before = s.hand
            try:
                s.hand, outcomes = apply_events(before, entry)
            except EngineError as exc:
                rule = getattr(exc, "rule", "DEAL-DECK")
                if isinstance(entry, BoardDealt):
                    s.monitor.board_refused(entry.cards)
                events.extend(s.monitor.notice(at, rule, f"the betting engine refused the card: {exc}"))
                continue
            if isinstance(entry, BoardDealt):
                s.board_states.append(before)
            if isinstance(entry, PUBLIC_ENTRIES):
                events.append(entry)  # the board and shown hands are public; hole cards never are
            events.extend(outcomes)
        return events + self._read_announcements(at)

    def _read_announcements(self, at: int) -> list[SessionEvent]:
        """A called hand is compared with the cards once they are read: cards speak (POT-CARDS-SPEAK)."""
        s = self._s
        st = s.hand
        out: list[SessionEvent] = []
        for seat, said in list(s.announced.items()):
            i = st.index_of.get(seat)
            shown = st.shown[i] if i is not None else None
            if shown is None or len(st.board) != 5:
                continue
            del s.announced[seat]
            value = evaluate7((*shown, *st.board))
            if HAND_NAMES[hand_category(value)] != said:
                out.extend(s.monitor.inform(at, "POT-CARDS-SPEAK", _wrong_call(seat, said, hand_description(value)),
                                            seat))
        return out

    def _decide(self, at: int, obs: AlertDecision) -> list[SessionEvent]:
        monitor = self._s.monitor
        oa = monitor.open_alert(obs.alert_id)
        if oa is None:
            known = ", ".join(a.alert_id for a in monitor.open_alerts()) or "none"
            raise InputError("alert_id", f"no open alert {obs.alert_id!r} (open: {known})")
        if obs.decision is Decision.CONFIRM and oa.would_be is Verdict.MISDEAL:
            return self._misdeal(at, obs.alert_id)
        monitor.close_alert(obs.alert_id, confirmed=obs.decision is Decision.CONFIRM)
        if obs.decision is Decision.CONFIRM:
            return [AlertConfirmed(obs.alert_id, at)]
        return [AlertDismissed(obs.alert_id, at)]

    def _table_change(self, obs: PlayerSeated | PlayerRemoved | ChipsAdded | LevelChanged | PlayerAway) -> list[SessionEvent]:
        """The floor changes the table for the next hand; the running hand is never touched
        (BET-TABLE-STAKES): chips come only between hands, a player in the hand leaves after it."""
        s = self._s
        if not s.hand.is_complete:
            # A new level or a player away counts from the next hand (TABLE-LEVELS, TABLE-AWAY);
            # seats and chips change only between hands.
            if isinstance(obs, ChipsAdded):
                raise RuleViolation("BET-TABLE-STAKES", "only the chips on the table when the hand began play: "
                                    "add the rebuy when this hand is over (TABLE-REBUY)")
            if isinstance(obs, PlayerSeated):
                raise RuleViolation("TABLE-NEW-PLAYER", "a new player sits down between hands: when this one is over")
            if isinstance(obs, PlayerRemoved):
                raise RuleViolation("BET-TABLE-STAKES", "players leave between hands: remove the player when this one "
                                    "is over")
        table = self.table_now()  # nothing changes before the change itself is accepted
        if isinstance(obs, PlayerSeated):
            table = tables.seat_player(table, obs.seat, obs.stack, obs.name, post_now=obs.post_now, moved=obs.moved)
        elif isinstance(obs, PlayerRemoved):
            table = tables.remove_player(table, obs.seat)
        elif isinstance(obs, ChipsAdded):
            table = tables.add_chips(table, obs.seat, obs.amount)
        elif isinstance(obs, PlayerAway):
            table = tables.set_away(table, obs.seat, obs.away)
        else:
            table = tables.set_level(table, obs.small_blind, obs.big_blind, obs.ante, big_bet=table.big_bet)
        s.table, s.settled = table, s.hand.is_complete
        return []

    # ------------------------------------------------------------ undo

    def _undo(self, at: int) -> list[SessionEvent]:
        target = next((i for i in range(len(self._log) - 1, -1, -1)
                       if i not in self._undone and _is_dealer_entry(self._log[i])), None)
        if target is None:
            raise InputError("undo", "there is no dealer entry to undo")
        cp = next(c for c in reversed(self._s.checkpoints) if c.at <= target)
        saved = dataclasses.replace(self._s)
        next_alert = self._s.monitor.next_alert
        self._undone.add(target)
        try:
            self._restore(cp)
            for i in range(cp.at, len(self._log)):
                o = self._log[i]
                if i in self._undone or (isinstance(o, DealerDeclaration) and o.declare is Declaration.UNDO):
                    continue
                self._note_actions(self._apply(i, o))
        except EngineError as exc:
            self._undone.discard(target)
            self._s = saved
            raise InputError("undo", f"observation {target} cannot be taken back: a later one depends on it ({exc})") from None
        self._s.monitor.reserve_alerts(next_alert)  # IDs given out before stay theirs
        return [EntryUndone(target, at)]

    def _restore(self, cp: _Checkpoint) -> None:
        monitor = DealMonitor(self._profile, self._first_alert_of(cp.at))
        monitor.start_hand(tuple(s for s in cp.hand.order if s in cp.next.dealt), cp.hand_no)
        t = cp.table
        self._s = _SessionState(
            t, False, cp.next, cp.hand_no, cp.hand, monitor, (t.small_blind, t.big_blind, t.ante),
            [c for c in self._s.checkpoints if c.at < cp.at] + [cp], [], cp.redeal, {}, {},
        )

    def _first_alert_of(self, at: int) -> int:
        """The alert number the monitor had when observation ``at`` came (IDs stay stable)."""
        n = 1
        for e in self._events:
            if isinstance(e, AlertRaised):
                if e.at >= at:
                    break
                n = int(e.alert_id[1:]) + 1
        return n

    # ------------------------------------------------------------ snapshot

    def snapshot(self, *, secrets: bool = True) -> dict[str, Any]:
        """The whole visible state, JSON-ready.

        ``table``: profile, structure, blinds and ante (this hand's), button, hand_number, and
        ``seats`` keyed by seat number (as a string) with name, stack, bet, in_hand, folded,
        all_in, away, ``hole_count`` (how many hole cards lie at the seat: a count, never
        which) and ``last_action`` (``{action, to, all_in}`` on this street, or None). Between
        hands the seats are the table the next hand is dealt from (rebuys, new players).
        ``hand``: street, phase (dealing while the hole cards are dealt, then betting/dealing/
        showdown/complete), small_blind_seat (None when the small blind is dead or the game has
        no blinds), big_blind_seat, board, burns (a count), to_act, ``legal`` (the seat to act's
        options with amounts, or None), pots, pot_total, ``show_order`` (seats in the order they
        are asked to show, POT-SHOW-ORDER) and ``next_to_show``, shown hands (public), awards,
        rake, misdeal. ``alerts``: open alerts (JSON form of ``AlertRaised``); ``procedures``:
        corrections being tracked. ``observations``: how many were accepted.
        Only with ``secrets=True``: ``secret`` = ``{"hole_cards": {seat: [card or
        None, ...]}, "burns": [card or None, ...]}``. Undealt cards are in no
        snapshot (DEAL-NO-RABBIT).
        """
        s = self._s
        st = s.hand
        deal = s.monitor.view()
        dealing = self.dealing_hole_cards()
        table = self.table_now()
        la = None if dealing else legal_actions(st)
        public = st.to_dict(reveal_hole_cards=False)  # the engine's own pots and awards wording
        level = (table.small_blind, table.big_blind, table.ante) if st.is_complete else s.level
        blinds_on = s.level[1] > 0
        out: dict[str, Any] = {
            "table": {
                "profile": self._profile.name, "structure": self._setup.structure.value,
                "kill_reasons": [r.value for r in kill_reasons(self._profile)],
                "blinds": [level[0], level[1]], "ante": level[2], "button": st.setup.button,
                "hand_number": s.hand_no, "seats": self._seats(table, deal.hole_counts),
            },
            "hand": {
                "street": st.street_name, "phase": "dealing" if dealing else st.phase.value,
                "small_blind_seat": s.next.small_blind_seat if s.next.small_blind_posted and blinds_on else None,
                "big_blind_seat": s.next.big_blind_seat if blinds_on else None,
                "board": [str(c) for c in st.board],
                "burns": deal.burns, "to_act": None if dealing else st.seat_to_act,
                "legal": la.to_dict() if la else None,
                "pots": public["pots"], "pot_total": public["pot_total"],
                "show_order": [st.order[i] for i in show_order(st)] if st.phase is Phase.SHOWDOWN else [],
                "next_to_show": next_to_show(st),
                "shown": {str(st.order[i]): [str(c) for c in sh] for i, sh in enumerate(st.shown) if sh},
                "awards": public["awards"], "rake": st.rake,
                "misdeal": st.misdeal,
            },
            "alerts": [alert_event_to_dict(a) for a in self.open_alerts()],
            "procedures": list(deal.procedures),
            "observations": len(self._log),
        }
        if secrets:
            out["secret"] = s.monitor.secrets()
        return out

    def _seats(self, table: TableState, hole_counts: dict[int, int]) -> dict[str, Any]:
        st = self._s.hand
        by_seat = {x.seat: x for x in table.seats}
        hand_seats = set(st.order)
        seats: dict[str, Any] = {}
        for seat in sorted(set(by_seat) | hand_seats):
            x = by_seat.get(seat)
            row: dict[str, Any] = {"name": x.name if x else _name_in(st, seat), "in_hand": seat in hand_seats,
                                   "away": bool(x and x.away)}
            if seat in hand_seats:
                i = st.index_of[seat]
                stack = x.stack if x is not None and self._s.hand.is_complete else st.stacks[i]
                row.update(stack=stack, bet=st.bets[i], folded=st.folded[i],
                           all_in=st.stacks[i] == 0 and not st.folded[i], hole_count=hole_counts.get(seat, 0),
                           last_action=self._s.last_action.get(seat))
            else:
                row.update(stack=x.stack if x else 0, bet=0, folded=False, all_in=False, hole_count=0,
                           last_action=None)
            seats[str(seat)] = row
        return seats


def _name_in(st: HandState, seat: int) -> str:
    return next((x.name for x in st.setup.seats if x.seat == seat), "")


def _wrong_call(seat: int, said: str, actual: str) -> str:
    return (f"Seat {seat} called the hand {said.replace('-', ' ')}, but the cards read {actual}: cards speak "
            "(000 §37, 001); the pot goes by the cards. A deliberate miscall may be penalized (the floor's call).")


def _is_dealer_entry(obs: Observation) -> bool:
    return isinstance(obs, DEALER_ENTRIES) and not (
        isinstance(obs, DealerDeclaration) and obs.declare is Declaration.UNDO)


assert len(HandCategory) == len(HAND_NAMES)  # the observation vocabulary names every category
