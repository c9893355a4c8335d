"""The one pure facade the live runtime calls: betting engine + dealing monitor.

A :class:`TableSession` is built from a :class:`TableSetup` and fed
observations one at a time (:meth:`TableSession.feed`). Betting actions go to
the betting engine, card observations to the dealing-procedure monitor
(``dealer_pi.engine.monitor``), dealer declarations and alert decisions to
both. Each accepted observation is appended to :attr:`TableSession.observations`
and returns the events it caused; a rejected one raises
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
at once. ``DealerDeclaration(UNDO)`` takes back the last dealer entry
(action, chips, declaration or alert decision).

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError, InputError, RuleViolation
from .events import (
    ActionTaken,
    BetPlaced,
    BoardDealt,
    ChipsPlaced,
    Entry,
    HandEnded,
    HandKilled,
    HandMucked,
    HandShown,
    HandStarted,
    MisdealDeclared,
    Outcome,
    StreetCompleted,
)
from .events import Event as EngineEvent
from .events import event_to_dict as engine_event_to_dict
from .hand import apply_events, start_hand
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
    KILL_RULES,
    MAX_SEATS,
    ActionKind,
    AlertDecision,
    CardLeft,
    CardSeen,
    ChipsPushed,
    DealerDeclaration,
    Decision,
    Declaration,
    KillHand,
    Observation,
    PlayerAction,
    ShoeDraw,
)
from .profiles import RuleProfile, profile_from_mapping
from .setup import Structure
from .state import HandState, Phase
from .table import NextHand, TableState, check_forced_bets, finish_hand, new_table, next_hand
from .validate import is_whole, whole

SessionEvent = EngineEvent | MonitorEvent

SETUP_FIELDS = ("profile", "overrides", "structure", "blinds", "ante", "seats", "names", "button")


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a table starts from: rule profile, betting structure, forced bets, seats, button.

    ``seats`` maps seat number (1..10) to its stack; ``names`` is optional.
    ``overrides`` are single profile options (``profiles.check_option``).

    >>> s = TableSetup.from_dict({"profile": "roberts", "blinds": [5, 10],
    ...                           "seats": {"1": 1000, "3": 800}, "button": 1})
    >>> s.seats, s.blinds, s.rule_profile().exposed_hole_card
    ({1: 1000, 3: 800}, (5, 10), 'replace-one')
    >>> TableSetup.from_dict({"blinds": [5], "seats": {"1": 10, "2": 10}, "button": 1})
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: setup.blinds: must be [small blind, big blind], whole numbers >= 0
    """

    seats: Mapping[int, int]
    button: int
    blinds: tuple[int, int] = (1, 2)
    ante: int = 0
    structure: Structure = Structure.NO_LIMIT
    profile: str = "standard"
    overrides: Mapping[str, Any] = field(default_factory=dict)
    names: Mapping[int, str] = field(default_factory=dict)

    def rule_profile(self) -> RuleProfile:
        """The profile with its overrides applied (each option checked)."""
        return profile_from_mapping(self.profile, self.overrides, "setup.overrides")

    @staticmethod
    def from_dict(data: Mapping[str, Any], where: str = "setup") -> TableSetup:
        """Check and read the JSON form (scenario files, the web API); errors name the field.

        Unknown keys are refused, except that a caller (a scenario file) may
        strip its own keys first.
        """
        if not isinstance(data, Mapping):
            raise InputError(where, "must be an object")

        def w(name: str) -> str:
            return f"{where}.{name}" if where else name

        extra = sorted(set(data) - set(SETUP_FIELDS))
        if extra:
            raise InputError(w(extra[0]), "unknown field (known: " + ", ".join(SETUP_FIELDS) + ")")

        profile = data.get("profile", "standard")
        if not isinstance(profile, str):
            raise InputError(w("profile"), "must be a profile name")
        overrides = data.get("overrides", {})
        if not isinstance(overrides, Mapping):
            raise InputError(w("overrides"), "must be an object of profile options")
        structures = [s.value for s in Structure]
        structure = data.get("structure", "no-limit")
        if structure not in structures:
            raise InputError(w("structure"), "must be one of " + ", ".join(structures))
        blinds = data.get("blinds")
        if (not isinstance(blinds, list) or len(blinds) != 2
                or not all(is_whole(b) for b in blinds)):
            raise InputError(w("blinds"), "must be [small blind, big blind], whole numbers >= 0")
        ante = whole(data.get("ante", 0), w("ante"), low=0)
        seats = _seat_map(data.get("seats"), w("seats"), int)
        names = _seat_map(data.get("names", {}), w("names"), str)
        for seat in names:
            if seat not in seats:
                raise InputError(w(f"names.{seat}"), "names a seat that is not in seats")
        button = whole(data.get("button"), w("button"), low=1, high=MAX_SEATS)
        setup = TableSetup(
            seats=seats, button=button, blinds=(blinds[0], blinds[1]), ante=ante,
            structure=Structure(structure), profile=profile, overrides=dict(overrides), names=names,
        )
        setup.check(where)
        return setup

    def check(self, where: str = "setup") -> None:
        """Refuse a setup that cannot be dealt (profile, seats, blinds); errors name the field."""

        def w(name: str) -> str:
            return f"{where}.{name}" if where else name

        try:
            profile_from_mapping(self.profile, self.overrides, w("overrides"))
        except InputError as exc:
            if exc.where == "profile":  # unknown base profile name
                raise InputError(w("profile"), exc.message) from None
            raise
        if len([s for s, st in self.seats.items() if st > 0]) < 2:
            raise InputError(w("seats"), "a hand needs at least two seats with chips")
        check_forced_bets(self.blinds[0], self.blinds[1], self.ante, 0, w("blinds"))
        for seat, stack in self.seats.items():
            if not 1 <= seat <= MAX_SEATS:
                raise InputError(w(f"seats.{seat}"), f"seat number must be 1..{MAX_SEATS}")
            if stack < 0:
                raise InputError(w(f"seats.{seat}"), "a stack is a whole number >= 0")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form read back by :meth:`from_dict`."""
        return {
            "profile": self.profile, "overrides": dict(self.overrides), "structure": self.structure.value,
            "blinds": list(self.blinds), "ante": self.ante,
            "seats": {str(k): v for k, v in sorted(self.seats.items())},
            "names": {str(k): v for k, v in sorted(self.names.items())}, "button": self.button,
        }


def _seat_map(data: object, where: str, kind: type) -> dict[int, Any]:
    if not isinstance(data, Mapping):
        raise InputError(where, 'must be an object like {"1": 1000, "3": 800}')
    out: dict[int, Any] = {}
    for key, value in data.items():
        k = str(key)
        if not k.isdigit() or not 1 <= int(k) <= MAX_SEATS:
            raise InputError(f"{where}.{k}", f"seat number must be 1..{MAX_SEATS}")
        if kind is int:
            whole(value, f"{where}.{k}", low=0)
        if kind is str and not isinstance(value, str):
            raise InputError(f"{where}.{k}", f"must be a string, got {value!r}")
        out[int(k)] = value
    return dict(sorted(out.items()))


def event_to_json(event: SessionEvent) -> dict[str, Any]:
    """The JSON form of any session event (betting engine or monitor): ``{"type": ..., ...}``."""
    if isinstance(event, (AlertRaised, AlertConfirmed, AlertDismissed, ProcedureCompleted, EntryUndone)):
        return alert_event_to_dict(event)
    return engine_event_to_dict(event)


DEALER_ENTRIES = (PlayerAction, ChipsPushed, KillHand, DealerDeclaration, AlertDecision)
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
        self._table = new_table(
            {s: st for s, st in setup.seats.items() if st > 0}, sb, bb, button=setup.button, ante=setup.ante,
            structure=setup.structure, profile=self._profile, names=setup.names,
        )
        self._next: NextHand
        self._hand_no = 0
        self._monitor = DealMonitor(self._profile)
        self._checkpoints: list[_Checkpoint] = []
        self._board_states: list[HandState] = []
        self._hand: HandState
        self._view_of: HandState | None = None
        self._view = BettingView()
        self._redeal = False
        # Each seat's last betting action on the current street (the overlay's "CALL 30"),
        # rebuilt from the events so an undo or a replay gets it right too.
        self._last_action: dict[int, dict[str, Any]] = {}
        self._events.extend(self._note_actions(self._start_hand(0)))

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
        return self._hand

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
        return self._hand_no

    def open_alerts(self) -> list[AlertRaised]:
        """Alerts raised in this hand and not yet confirmed or dismissed, oldest first."""
        return [oa.alert for oa in self._monitor.open.values()]

    def legal_actions(self) -> LegalActions | None:
        """What the seat to act may do now (None when nobody is to act)."""
        return legal_actions(self._hand)

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

    # ------------------------------------------------------------ internals

    def _note_actions(self, events: list[SessionEvent]) -> list[SessionEvent]:
        for e in events:
            if isinstance(e, (HandStarted, StreetCompleted)):
                self._last_action = {}
            elif isinstance(e, BetPlaced):
                self._last_action[e.seat] = {"action": e.action.value, "to": e.to, "all_in": e.all_in}
        return events

    def _betting_view(self) -> BettingView:
        if self._view_of is not self._hand:
            self._view = betting_view(self._hand)
            self._view_of = self._hand
        return self._view

    def _start_hand(self, at: int) -> list[SessionEvent]:
        """Deal a hand in from the table (button, blinds, antes by the engine's table rules)."""
        self._hand_no += 1
        nh = next_hand(self._table, hand_id=str(self._hand_no))
        out: list[Outcome] = []
        self._next = nh
        self._hand = start_hand(nh.started.setup, nh.started.profile, out)
        events: list[SessionEvent] = [nh.started, *out]
        for killed in nh.killed:  # TABLE-AWAY
            self._hand, more = apply_events(self._hand, killed)
            events += [killed, *more]
        self._board_states = []
        self._monitor.start_hand(tuple(s for s in self._hand.order if s in nh.dealt), self._hand_no)
        self._checkpoints.append(_Checkpoint(at, self._table, nh, self._hand_no, self._hand, self._redeal))
        return events

    def _apply(self, at: int, obs: Observation) -> list[SessionEvent]:
        """One observation; raises before changing anything when it is refused."""
        if isinstance(obs, (PlayerAction, ChipsPushed)):
            entry: Entry
            if isinstance(obs, ChipsPushed):
                entry = ChipsPlaced(obs.seat, obs.amount, obs.single_chip, obs.declared, obs.declared_amount,
                                    obs.second_motion)
            elif obs.action is ActionKind.FOLD and self._hand.phase is Phase.SHOWDOWN:
                entry = HandMucked(obs.seat)
            else:
                entry = ActionTaken(obs.seat, obs.action, obs.amount)
            view = self._betting_view()
            new, outcomes = apply_events(self._hand, entry)  # raises: nothing changed yet
            self._hand = new
            events: list[SessionEvent] = [*outcomes]
            step = self._monitor.observe(at, obs, view)
            return self._take_step(at, step, events)
        if isinstance(obs, (ShoeDraw, CardSeen, CardLeft)):
            step = self._monitor.observe(at, obs, self._betting_view())
            return self._take_step(at, step, [])
        if isinstance(obs, KillHand):  # POT-DEAD-HAND: the betting engine folds it, whoever is to act
            killed = HandKilled(obs.seat, KILL_RULES[obs.reason], obs.reason)
            self._hand, outcomes = apply_events(self._hand, killed)  # raises: nothing changed yet
            return [killed, *outcomes]
        if isinstance(obs, AlertDecision):
            return self._decide(at, obs)
        if isinstance(obs, DealerDeclaration):
            if obs.declare is Declaration.MISDEAL:
                return self._misdeal(at, self._monitor.misdeal_alert)
            if obs.declare is Declaration.NEW_HAND:
                return self._new_hand(at)
            return []  # SHUFFLE_DONE: the dealer's own record; nothing to check
        raise InputError("observation", f"not an observation: {type(obs).__name__}")

    def _take_step(self, at: int, step: Step, events: list[SessionEvent]) -> list[SessionEvent]:
        """Hand the monitor's accepted cards to the betting engine and collect the events."""
        for _ in range(step.retract_board):
            if self._board_states:
                self._hand = self._board_states.pop()
        events.extend(step.events)
        if self._hand.is_complete:
            return events  # cards after the hand (collecting, a rabbit hunt) are not the engine's
        for entry in step.entries:
            before = self._hand
            try:
                self._hand, outcomes = apply_events(before, entry)
            except EngineError as exc:
                rule = getattr(exc, "rule", "DEAL-DECK")
                events.extend(self._monitor.notice(at, rule, f"the betting engine refused the card: {exc}"))
                continue
            if isinstance(entry, BoardDealt):
                self._board_states.append(before)
            if isinstance(entry, PUBLIC_ENTRIES):
                events.append(entry)  # the board and shown hands are public; hole cards never are
            events.extend(outcomes)
        return events

    def _misdeal(self, at: int, alert_id: str | None) -> list[SessionEvent]:
        """Void the hand (DEAL-MISDEAL-REMEDY): stacks and blinds back, same button, redeal."""
        oa = self._monitor.open.get(alert_id or "")
        rule = oa.alert.rule if oa else "DEAL-MISDEAL-REMEDY"
        st = self._hand
        outcomes: tuple[Outcome, ...]
        if oa is not None and not oa.lockable and not st.is_complete:
            # A foul deck (or 001's two extra cards) voids the hand whatever the betting.
            outcomes = (HandEnded(tuple(zip(st.order, st.starting)), True),)
        else:
            _, outcomes = apply_events(st, MisdealDeclared(rule))  # raises on DEAL-MISDEAL-LOCK
        events: list[SessionEvent] = [MisdealDeclared(rule), *outcomes]
        if alert_id is not None and alert_id in self._monitor.open:
            self._monitor.close_alert(alert_id)
            events.append(AlertConfirmed(alert_id, at))
        self._redeal = True
        events.extend(self._start_hand(at + 1))
        return events

    def _decide(self, at: int, obs: AlertDecision) -> list[SessionEvent]:
        oa = self._monitor.open.get(obs.alert_id)
        if oa is None:
            known = ", ".join(self._monitor.open) or "none"
            raise InputError("alert_id", f"no open alert {obs.alert_id!r} (open: {known})")
        if obs.decision is Decision.CONFIRM and oa.would_be is Verdict.MISDEAL:
            return self._misdeal(at, obs.alert_id)
        self._monitor.close_alert(obs.alert_id)
        if obs.decision is Decision.CONFIRM:
            return [AlertConfirmed(obs.alert_id, at)]
        return [AlertDismissed(obs.alert_id, at)]

    def _new_hand(self, at: int) -> list[SessionEvent]:
        st = self._hand
        if not st.is_complete:
            if self._redeal:
                raise RuleViolation("DEAL-MISDEAL-REMEDY", "after a misdeal the hand is redealt with the same button")
            raise RuleViolation("TABLE-BUTTON", "the hand is not over: finish it or declare a misdeal first")
        table = finish_hand(self._table, self._next, st)
        if sum(1 for x in table.seats if x.stack > 0) < 2:
            raise RuleViolation("TABLE-BUTTON", "fewer than two players have chips: the game is over")
        self._table = table
        self._redeal = False
        return self._start_hand(at + 1)

    def _undo(self, at: int) -> list[SessionEvent]:
        target = next((i for i in range(len(self._log) - 1, -1, -1)
                       if i not in self._undone and _is_dealer_entry(self._log[i])), None)
        if target is None:
            raise InputError("undo", "there is no dealer entry to undo")
        cp = next(c for c in reversed(self._checkpoints) if c.at <= target)
        saved = (self._hand, self._table, self._next, self._hand_no, self._monitor, self._checkpoints,
                 self._board_states, self._redeal, self._last_action)
        next_alert = self._monitor.next_alert
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
            (self._hand, self._table, self._next, self._hand_no, self._monitor, self._checkpoints,
             self._board_states, self._redeal, self._last_action) = saved
            raise InputError("undo", f"observation {target} cannot be taken back: a later one depends on it ({exc})") from None
        self._monitor.next_alert = max(self._monitor.next_alert, next_alert)
        return [EntryUndone(target, at)]

    def _restore(self, cp: _Checkpoint) -> None:
        self._checkpoints = [c for c in self._checkpoints if c.at < cp.at] + [cp]
        self._table = cp.table
        self._next = cp.next
        self._hand_no = cp.hand_no
        self._hand = cp.hand
        self._redeal = cp.redeal
        self._board_states = []
        self._last_action = {}
        monitor = DealMonitor(self._profile, self._monitor.next_alert)
        monitor.start_hand(tuple(s for s in cp.hand.order if s in cp.next.dealt), cp.hand_no)
        monitor.next_alert = self._first_alert_of(cp.at)
        self._monitor = monitor

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

        ``table``: profile, structure, blinds, ante, button, hand_number, and ``seats``
        keyed by seat number (as a string) with name, stack, bet, in_hand, folded,
        all_in, ``hole_count`` (how many hole cards lie at the seat: a count, never
        which) and ``last_action`` (``{action, to, all_in}`` on this street, or None).
        ``hand``: street, phase (betting/dealing/showdown/complete), small_blind_seat
        (None when the small blind is dead), big_blind_seat, board, burns (a count), to_act, ``legal`` (the seat to act's options with amounts,
        or None), pots, pot_total, shown hands (public), awards, misdeal.
        ``alerts``: open alerts (JSON form of ``AlertRaised``); ``procedures``:
        corrections being tracked. ``observations``: how many were accepted.
        Only with ``secrets=True``: ``secret`` = ``{"hole_cards": {seat: [card or
        None, ...]}, "burns": [card or None, ...]}``. Undealt cards are in no
        snapshot (DEAL-NO-RABBIT).
        """
        st = self._hand
        m = self._monitor
        hand_seats = set(st.order)
        seats: dict[str, Any] = {}
        table_stacks = {x.seat: x.stack for x in self._table.seats}
        for seat in sorted(set(table_stacks) | set(self._setup.seats)):
            row: dict[str, Any] = {"name": self._setup.names.get(seat, ""), "in_hand": seat in hand_seats}
            if seat in hand_seats:
                i = st.index_of[seat]
                row.update(stack=st.stacks[i], bet=st.bets[i], folded=st.folded[i],
                           all_in=st.stacks[i] == 0 and not st.folded[i], hole_count=len(m.hole.get(seat, ())),
                           last_action=self._last_action.get(seat))
            else:
                row.update(stack=table_stacks.get(seat, 0), bet=0, folded=False, all_in=False, hole_count=0,
                           last_action=None)
            seats[str(seat)] = row
        la = legal_actions(st)
        public = st.to_dict(reveal_hole_cards=False)  # the engine's own pots and awards wording
        out: dict[str, Any] = {
            "table": {
                "profile": self._profile.name, "structure": self._setup.structure.value,
                "blinds": list(self._setup.blinds), "ante": self._setup.ante, "button": st.setup.button,
                "hand_number": self._hand_no, "seats": seats,
            },
            "hand": {
                "street": st.street_name, "phase": st.phase.value,
                "small_blind_seat": self._next.small_blind_seat if self._next.small_blind_posted else None,
                "big_blind_seat": self._next.big_blind_seat,
                "board": [str(c) for c in st.board],
                "burns": len(m.burns), "to_act": st.seat_to_act, "legal": la.to_dict() if la else None,
                "pots": public["pots"], "pot_total": public["pot_total"],
                "shown": {str(st.order[i]): [str(c) for c in sh] for i, sh in enumerate(st.shown) if sh},
                "awards": public["awards"],
                "misdeal": st.misdeal,
            },
            "alerts": [alert_event_to_dict(a) for a in self.open_alerts()],
            "procedures": [{"kind": p.kind, "rule": p.rule, "alert_id": p.alert_id} for p in m.procs],
            "observations": len(self._log),
        }
        if secrets:
            out["secret"] = {
                "hole_cards": {str(s): [None if c is None else str(c) for c in cards] for s, cards in m.hole.items()},
                "burns": [None if c is None else str(c) for c in m.burns],
            }
        return out


def _is_dealer_entry(obs: Observation) -> bool:
    return isinstance(obs, DEALER_ENTRIES) and not (
        isinstance(obs, DealerDeclaration) and obs.declare is Declaration.UNDO)
