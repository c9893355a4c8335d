"""Playing a hand from its entries: :func:`apply`, :func:`replay` and the :class:`Hand` log.

The state is a pure function of the entries: ``replay(entries)`` rebuilds it,
``apply`` never changes the state it is given, and a rejected entry raises
(:class:`RuleViolation` naming the rule, or :class:`InputError`) with nothing
changed. Undo is a replay of all entries but the last, so it is exact.

>>> from .setup import blinds_setup
>>> from .observations import ActionKind as A
>>> h = Hand.start(blinds_setup({1: 100, 2: 100, 3: 100}, button=3, small_blind=1, big_blind=2))
>>> h.state.seat_to_act  # BET-ORDER: left of the big blind
3
>>> h.act(3, A.RAISE, 6).act(1, A.FOLD).act(2, A.CALL).state.street_name
'preflop'
>>> h.state.phase.value, h.state.pot_total()
('dealing', 13)
>>> h.act(1, A.CHECK)
Traceback (most recent call last):
...
dealer_pi.engine.errors.RuleViolation: [BET-ORDER] no betting now (the hand is at dealing)
>>> h.undo().state.seat_to_act
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NoReturn

from . import betting, showdown
from .cards import Card
from .chips import interpret_chips
from .errors import InputError, RuleViolation
from .events import (
    ActionTaken,
    BetPlaced,
    BoardDealt,
    CardBurned,
    ChipsOwed,
    ChipsPlaced,
    Entry,
    ExcessReturned,
    HandEnded,
    HandKilled,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    MisdealDeclared,
    Outcome,
    PenaltyCharged,
    WinnersDeclared,
)
from .observations import KILL_RULES, ActionKind, KillReason
from .profiles import DEFAULT_PROFILE, RuleProfile
from .setup import HandSetup, Structure
from .state import HandState, Phase

# Enum members as module constants: the hot paths read them on every entry.
_FOLD = ActionKind.FOLD
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE
_BETTING = Phase.BETTING
_DEALING = Phase.DEALING
_SHOWDOWN = Phase.SHOWDOWN
_COMPLETE = Phase.COMPLETE
_LIMIT = Structure.LIMIT

__all__ = [
    "Hand", "act_in_place", "apply", "apply_events", "apply_in_place", "deal_board_in_place", "deal_hole_in_place",
    "replay", "start_hand",
]


def start_hand(setup: HandSetup, profile: RuleProfile = DEFAULT_PROFILE, out: list[Outcome] | None = None) -> HandState:
    """The state right after ``HandStarted``: antes and blinds posted, first seat to act set."""
    st = HandState.__new__(HandState)
    layout = setup._layout
    order = layout.order
    n = len(order)
    st.setup = setup
    st.profile = profile
    st.order = order
    st.index_of = layout.index_of
    st.starting = layout.stacks
    st.stacks = list(st.starting)
    st.bets = [0] * n
    st.total = [0] * n
    st.dead = [0] * n
    st.folded = [False] * n
    st.mucked = [False] * n
    st.hole = [()] * n
    st.shown = [None] * n
    st.board = ()
    st.burns = ()
    st.street = 0
    st.phase = _BETTING
    st.to_act = -1
    st.needs = [False] * n
    st.acted_at = [-1] * n
    st.current_bet = 0
    st.min_increment = setup.small_bet
    st.raises = 0
    st.aggressor = -1
    st.aggressor_street = 0
    st.last_caller = -1
    st.first_actor = -1
    st.acted_after_blinds = 0
    st.blind_seats = layout.blind_seats
    st.awards = ()
    st.declared = {}
    st.rake = 0
    st.seen = 0
    st.misdeal = False
    st.raised_from = None
    st.open_raise = None
    st.entries = 1
    betting.post_forced_bets(st, out)
    return st


def apply(state: HandState, entry: Entry) -> HandState:
    """The state after ``entry``; ``state`` itself is never changed.

    Raises :class:`RuleViolation` (with ``.rule``) or :class:`InputError` when the entry is refused.
    """
    return _apply(state, entry, None)


def apply_in_place(state: HandState, entry: Entry) -> None:
    """Apply ``entry`` to a state the caller owns, without copying it (hand-history replay).

    Every check runs before anything changes, so a refused entry still leaves
    ``state`` as it was. Do not use it on a state anyone else holds.
    """
    if isinstance(entry, HandStarted):
        raise InputError("entry", "hand_started begins a new hand: use start_hand or Hand.start")
    _mutate(state, entry, None)


def apply_events(state: HandState, entry: Entry) -> tuple[HandState, tuple[Outcome, ...]]:
    """Like :func:`apply`, also returning what the engine concluded (blinds, bets, pots, awards)."""
    out: list[Outcome] = []
    new = _apply(state, entry, out)
    return new, tuple(out)


def replay(entries: Iterable[Entry]) -> HandState:
    """The state after a whole log, which must start with :class:`HandStarted`."""
    it = iter(entries)
    first = next(it, None)
    if not isinstance(first, HandStarted):
        raise InputError("entries[0]", "a hand's log starts with hand_started")
    st = start_hand(first.setup, first.profile)
    for e in it:
        if isinstance(e, HandStarted):
            raise InputError("entries", "a second hand_started inside one hand's log")
        _mutate(st, e, None)  # the state has not escaped yet: no copy needed
    return st


def _check_new_cards(st: HandState, cards: Sequence[Card | None]) -> None:
    """DEAL-DECK: a card already on the table (or twice in ``cards``) is a foul deck."""
    seen = st.seen
    for c in cards:
        if c is None:
            continue
        bit = 1 << c.index
        if seen & bit:
            raise RuleViolation("DEAL-DECK", f"{c} is already on the table: a card seen twice is a foul deck")
        seen |= bit
    st.seen = seen


def _apply(state: HandState, e: Entry, out: list[Outcome] | None) -> HandState:
    if isinstance(e, HandStarted):
        raise InputError("entry", "hand_started begins a new hand: use start_hand or Hand.start")
    st = state.copy()
    _mutate(st, e, out)
    return st




def act_in_place(state: HandState, seat: int, action: ActionKind, amount: int | None = None) -> None:
    """``apply_in_place(state, ActionTaken(seat, action, amount))`` without building the entry.

    Hand-history replay applies thousands of actions a second and keeps no log, so
    it skips the entry object; the checks and the effect are those of the entry.
    """
    if state.phase is _COMPLETE:
        _refuse_over(state, ActionTaken)
    betting.act(state, seat, action, amount, None)
    state.entries += 1


def deal_hole_in_place(state: HandState, seat: int, cards: tuple[Card | None, ...]) -> None:
    """``apply_in_place(state, HoleCardsDealt(seat, cards))`` without building the entry (see above)."""
    if state.phase is _COMPLETE:
        _refuse_over(state, HoleCardsDealt)
    _deal_hole(state, seat, cards)
    state.entries += 1


def deal_board_in_place(state: HandState, cards: tuple[Card, ...]) -> None:
    """``apply_in_place(state, BoardDealt(cards))`` without building the entry (see above)."""
    if state.phase is _COMPLETE:
        _refuse_over(state, BoardDealt)
    _deal_board(state, cards, None)
    state.entries += 1


def _refuse_over(st: HandState, kind: type) -> NoReturn:
    rule = "DEAL-NO-RABBIT" if kind is BoardDealt else "DEAL-MISDEAL-REMEDY" if st.misdeal else "POT-RIGHT"
    raise RuleViolation(rule, "the hand is over")


def _mutate(st: HandState, e: Entry, out: list[Outcome] | None) -> None:
    if st.phase is _COMPLETE:
        _refuse_over(st, type(e))
    if type(e) is ActionTaken:  # entries are final dataclasses: an identity test is cheapest
        betting.act(st, e.seat, e.action, e.amount, out)
    elif type(e) is HoleCardsDealt:
        _deal_hole(st, e.seat, e.cards)
    elif type(e) is BoardDealt:
        _deal_board(st, e.cards, out)
    elif type(e) is ChipsPlaced:
        if e.second_motion:
            _second_motion(st, e, out)
        else:
            _place_chips(st, e, out)
    elif type(e) is CardBurned:
        _check_new_cards(st, (e.card,))
        st.burns = st.burns + (e.card,)
    elif type(e) is HandShown:
        showdown.show(st, e.seat, tuple(e.cards), out)
    elif type(e) is HandMucked:
        showdown.muck(st, e.seat, out)
    elif type(e) is WinnersDeclared:
        showdown.declare_winners(st, e.pot, tuple(e.seats), out)
    elif type(e) is HandKilled:
        _kill(st, e.seat, e.rule, e.reason, out)
    elif type(e) is MisdealDeclared:
        _misdeal(st, e.rule, out)
    else:
        raise InputError("entry", f"not an entry the hand accepts: {type(e).__name__}")
    st.entries += 1


def _place_chips(st: HandState, e: ChipsPlaced, out: list[Outcome] | None) -> None:
    """Chips pushed in turn: the action they mean (:func:`~.chips.interpret_chips`), then that action.

    "Raise" said without an amount in No-Limit or Pot-Limit opens the raise to one
    additional motion (000 §7): the state before it is kept for :func:`_second_motion`.
    """
    i = betting.turn_index(st, e.seat)
    if e.amount < 1:
        raise InputError("amount", "chips pushed must be at least 1")
    meaning = interpret_chips(st, i, e)
    opens = (e.declared in (_BET, _RAISE) and e.declared_amount is None and not e.single_chip
             and meaning.action in (_BET, _RAISE) and st.setup.structure is not _LIMIT)
    before = st.copy() if opens else None
    tail: list[Outcome] | None = [] if out is not None else None
    amount = meaning.to if meaning.action in (_BET, _RAISE) else None
    betting.act(st, e.seat, meaning.action, amount, tail)
    if out is not None and tail is not None:
        if meaning.returned:
            out.append(ExcessReturned(e.seat, meaning.returned, meaning.rule))
        if meaning.owed:
            out.append(ChipsOwed(e.seat, meaning.owed, meaning.rule))
        out.extend(tail)
    if before is not None:
        before.open_raise = None
        st.open_raise = (before, e.seat, e.amount, st.entries + 1)


def _second_motion(st: HandState, e: ChipsPlaced, out: list[Outcome] | None) -> None:
    """BET-STRING (000 §6): a forward motion after the first is dismissed, its chips go back;
    only a raise declared without its amount may be made in one additional motion (000 §7),
    which makes it the raise of both motions' chips."""
    if e.amount < 1:
        raise InputError("amount", "chips pushed must be at least 1")
    opened = st.open_raise
    if opened is None or opened[1] != e.seat or opened[3] != st.entries:  # it must be the last entry
        raise RuleViolation(
            "BET-STRING", f"seat {e.seat}: a second forward motion is dismissed and its {e.amount} chips go back; "
            "only the first motion counts unless 'raise' was said before it (000 §6-7)")
    before, seat, first, _ = opened
    redo = before.copy()
    tail: list[Outcome] | None = [] if out is not None else None
    _place_chips(redo, ChipsPlaced(seat, first + e.amount, declared=_RAISE), tail)
    redo.open_raise = None  # one additional motion, no more
    redo.entries += 1  # the first motion's entry
    for name in HandState.__slots__:
        setattr(st, name, getattr(redo, name))
    if out is not None and tail is not None:
        out.extend(replace(o, amends=True) if type(o) is BetPlaced and o.seat == seat else o for o in tail)


def _deal_hole(st: HandState, seat: int, cards: tuple[Card | None, ...]) -> None:
    """Hole cards to ``seat``: only before the flop, two at most, none seen before (DEAL-DECK)."""
    i = st.index_of.get(seat, -1)
    if i < 0:
        raise RuleViolation("DEAL-EMPTY-SEAT", f"seat {seat} is not dealt in this hand")
    if st.street > 0:
        raise RuleViolation("DEAL-ORDER", "hole cards are dealt before the flop")
    if len(st.hole[i]) + len(cards) > 2:
        raise RuleViolation("DEAL-HOLE-COUNT", f"seat {seat} would hold more than two hole cards")
    _check_new_cards(st, cards)
    st.hole[i] = st.hole[i] + cards


def _deal_board(st: HandState, cards: tuple[Card, ...], out: list[Outcome] | None) -> None:
    if st.phase is _BETTING:
        rule = ("DEAL-ORDER", "DEAL-TURN-EARLY", "DEAL-RIVER-EARLY", "DEAL-NO-RABBIT")[min(st.street, 3)]
        raise RuleViolation(rule, f"the {st.street_name} betting round is not over")
    if st.phase is _SHOWDOWN or st.street >= 3:
        raise RuleViolation("DEAL-NO-RABBIT", "the board is complete: undealt cards are never shown")
    want = 3 if st.street == 0 else 1
    if len(cards) != want:
        rule = "DEAL-FLOP-EXTRA" if st.street == 0 else "DEAL-BOARD-EXTRA"
        raise RuleViolation(rule, f"the {('flop', 'turn', 'river')[st.street]} is {want} card(s), got {len(cards)}")
    _check_new_cards(st, cards)
    st.board = st.board + tuple(cards)
    st.street += 1
    betting.start_street(st, out)


def kill_reasons(profile: RuleProfile) -> tuple[KillReason, ...]:
    """The reasons a hand may be killed for under ``profile``: a hole card shown on purpose kills
    it only where the profile follows 002 §6.8 (elsewhere the hand stays in play, 000 §40).

    >>> from dealer_pi.engine.profiles import PROFILES
    >>> KillReason.DELIBERATE_SHOW in kill_reasons(PROFILES["standard"])
    False
    >>> KillReason.DELIBERATE_SHOW in kill_reasons(PROFILES["house-pig"])
    True
    """
    half_pot = profile.deliberate_show_penalty == "half-pot"
    return tuple(r for r in KillReason if r is not KillReason.DELIBERATE_SHOW or half_pot)


def _kill(st: HandState, seat: int, rule: str, reason: KillReason | None, out: list[Outcome] | None) -> None:
    """A dead hand folds whatever the turn (POT-DEAD-HAND: BET-CLOCK, TABLE-AWAY, POT-MUCK...).

    Its chips already in stay in the pot, but the part of its bet nobody has called goes back
    (000 §33) and nobody has to call it. A hand tabled at the showdown cannot be killed (000 §34,
    cards speak); a hole card shown on purpose kills the hand only where the profile follows
    002 §6.8 (elsewhere the hand stays in play, 000 §40).
    """
    if not isinstance(rule, str) or not rule:
        raise InputError("rule", "name the rule that killed the hand")
    if reason is not None and KILL_RULES.get(reason) != rule:
        raise InputError("rule", f"a hand killed for {getattr(reason, 'value', reason)!r} cites "
                                 f"{KILL_RULES.get(reason, 'a known reason')}, not {rule}")
    i = st.index_of.get(seat, -1)
    if i < 0 or st.folded[i]:
        raise RuleViolation(rule, f"seat {seat} has no live hand to kill")
    if st.phase is _SHOWDOWN and st.shown[i] is not None:
        raise RuleViolation("POT-DEAD-HAND", f"seat {seat}'s hand is tabled at the showdown: cards speak, "
                                             "it cannot be killed (000 §34)")
    if rule == "DEAL-PLAYER-EXPOSED" and KillReason.DELIBERATE_SHOW not in kill_reasons(st.profile):
        raise RuleViolation(rule, f"under the {st.profile.name} rules an exposed card stays in play and the "
                                  "hand is not killed (000 §40); announce the card")
    if st.phase is _BETTING:
        betting.take_back_dead_raise(st, i, out)
    st.folded[i] = True
    st.needs[i] = False
    if out is not None:
        out.append(BetPlaced(seat, _FOLD, st.bets[i], 0, False))
    if rule == "DEAL-PLAYER-EXPOSED":
        # 002 §6.8: a deliberately shown hole card kills the hand; the penalty is half the pot.
        penalty = min(st.stacks[i], sum(st.total) // 2)
        st.stacks[i] -= penalty
        st.total[i] += penalty
        st.dead[i] += penalty
        if out is not None and penalty:
            out.append(PenaltyCharged(seat, penalty, rule))
    if st.phase is _BETTING:
        # The turn stays where it was unless it was the dead hand's, or nobody has a decision left.
        betting.advance(st, i + 1 if st.to_act == i else st.to_act, out)
    elif st.phase is _DEALING:
        if len(st.live()) == 1:
            betting.close_round(st, out)
    else:
        showdown.try_award(st, out)


def _misdeal(st: HandState, rule: str, out: list[Outcome] | None) -> None:
    """DEAL-MISDEAL-REMEDY: stacks back as they were; the table keeps the button."""
    lock = st.profile.misdeal_lock_actions
    regardless = rule == "DEAL-HOLE-COUNT" and st.profile.hole_count == "burn-first-extra"
    if lock and st.acted_after_blinds >= lock and not regardless:
        raise RuleViolation(
            "DEAL-MISDEAL-LOCK", f"{st.acted_after_blinds} players after the blinds have acted: the hand is played out"
        )
    st.stacks = list(st.starting)
    n = len(st.order)
    st.bets = [0] * n
    st.total = [0] * n
    st.dead = [0] * n
    st.misdeal = True
    st.phase = _COMPLETE
    st.to_act = -1
    if out is not None:
        out.append(HandEnded(tuple((s, st.stacks[i]) for i, s in enumerate(st.order)), True))


class Hand:
    """A hand's entry log with its current state: the dealer tablet's model.

    Every method returns ``self`` so calls chain; a refused entry raises and
    changes nothing. ``outcomes`` holds what the last entry caused.
    """

    __slots__ = ("entries", "outcomes", "state")

    def __init__(self, started: HandStarted) -> None:
        out: list[Outcome] = []
        self.entries: list[Entry] = [started]
        self.state = start_hand(started.setup, started.profile, out)
        self.outcomes: tuple[Outcome, ...] = tuple(out)

    @classmethod
    def start(cls, setup: HandSetup, profile: RuleProfile = DEFAULT_PROFILE) -> Hand:
        return cls(HandStarted(setup, profile))

    def apply(self, entry: Entry) -> Hand:
        self.state, self.outcomes = apply_events(self.state, entry)
        self.entries.append(entry)
        return self

    def act(self, seat: int, action: ActionKind, amount: int | None = None) -> Hand:
        return self.apply(ActionTaken(seat, action, amount))

    def undo(self) -> Hand:
        """Drop the last entry (not the start) and rebuild the state from the rest."""
        if len(self.entries) < 2:
            raise InputError("undo", "nothing to undo: the hand has only started")
        self.entries.pop()
        self.state = replay(self.entries)
        self.outcomes = ()
        return self
