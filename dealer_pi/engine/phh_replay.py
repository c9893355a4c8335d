"""PHH hands played through the engine, and engine hands written as PHH.

:func:`replay_history` turns a checked :class:`~.phh.HandHistory` into engine
entries and applies them one by one, so a hand history is judged by the same
rules as a live table: the result has the final stacks, whether they match
``finishing_stacks``, and, when the engine refuses an action, which action and
which rule. :func:`hand_to_phh` goes the other way, from a hand's entry log
(``Hand.entries``, or a journal) to a :class:`~.phh.HandHistory`.

Seats: PHH lists players clockwise from the small blind, the last on the
button. Without a usable ``seats`` field, player ``pN`` sits in seat N and the
button is the last seat. Heads-up, PHH writes the forced bets reversed (the
button posts the small blind), and so do both directions here.

Antes follow the table's rules whatever ``ante_trimming_status`` says: they are
dead money any live player can win, except that a player all-in within his
ante wins from each player only what he put in (000 §19, BET-SHORT-POST).

>>> from .phh import parse_phh
>>> r = replay_history(parse_phh('''
... variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ["d dh p1 AcKd", "d dh p2 7h2c", "d dh p3 QsQh", "p3 cbr 6", "p1 cc", "p2 f",
...            "d db Qd7s2d", "p1 cbr 10", "p3 cbr 94", "p1 cc", "d db 3c", "d db 9h",
...            "p1 sm AcKd", "p3 sm QsQh"]
... finishing_stacks = [0, 98, 202]
... '''))
>>> r.final_stacks, r.matches
((0, 98, 202), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Sequence

from .cards import Card
from .errors import EngineError, InputError
from .events import (
    ActionTaken,
    BetPlaced,
    BoardDealt,
    CardBurned,
    ChipsPlaced,
    Entry,
    HandKilled,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    MisdealDeclared,
    WinnersDeclared,
)
from .hand import (
    act_in_place,
    apply_events,
    apply_in_place,
    deal_board_in_place,
    deal_hole_in_place,
    start_hand,
)
from .observations import KILL_RULES, ActionKind, KillReason
from .phh import (
    Action,
    Chips,
    BetRaise,
    CheckCall,
    DealBoard,
    DealHole,
    Fold,
    HandHistory,
    ShowMuck,
    action_text,
)
from .profiles import RuleProfile
from .setup import MAX_SEATS, HandSetup, SeatSetup, Structure, clockwise_from
from .showdown import known_cards, next_to_show
from .state import HandState, Phase

_SEAT = attrgetter("seat")
_STRUCTURE = {"NT": Structure.NO_LIMIT, "PT": Structure.POT_LIMIT, "FT": Structure.LIMIT}
_VARIANT = {v: k for k, v in _STRUCTURE.items()}


def seat_numbers(history: HandHistory) -> tuple[int, ...]:
    """The seat of each PHH player: the file's ``seats`` when they fit a table of
    ``MAX_SEATS`` in clockwise order from the small blind, else 1..N."""
    seats = history.seats
    if seats and max(seats) <= MAX_SEATS and tuple(clockwise_from(sorted(seats), seats[-1])) == seats:
        return seats
    return tuple(range(1, history.player_count + 1))


def history_setup(history: HandHistory, seats: Sequence[int] | None = None) -> HandSetup:
    """The engine's :class:`HandSetup` for a PHH hand (``seats``: :func:`seat_numbers`, if known)."""
    h = history
    n = h.player_count
    if seats is None:
        seats = seat_numbers(h)
    antes, blinds = h.antes, h.blinds_or_straddles
    if n == 2:  # PHH: heads-up forced bets are listed reversed
        antes, blinds = antes[::-1], blinds[::-1]
    structure = _STRUCTURE[h.variant]
    small = h.small_bet if structure is Structure.LIMIT else h.min_bet
    names = h.players or ("",) * n
    by_seat = [SeatSetup(*seat) for seat in zip(seats, h.starting_stacks, antes, blinds, names)]
    by_seat.sort(key=_SEAT)
    hand = next((value for key, value in h.info if key == "hand"), "")
    return HandSetup(
        seats=tuple(by_seat), button=seats[-1], structure=structure, small_bet=small or 1,
        big_bet=h.big_bet or 0, hand_id=str(hand),
    )


@dataclass(frozen=True, slots=True)
class Replay:
    """What a PHH hand came to in the engine. Per-player tuples are in PHH order.

    ``error`` says why the replay stopped early (``failed_at`` is the action
    index, or None for the setup); ``matches`` is None without ``finishing_stacks``.

    A file may share a split odd chip out in fractions (``finishing_stacks =
    [10112.5, 10112.5]``) where the table gives it whole to the winner in the
    worst position (POT-ODD-CHIP, 000 §13). Such stacks match "within the split
    odd chip": ``odd_chip_split`` is True and ``note`` says so.
    (``tests/engine/test_replay_cli.py`` shows one.)
    """

    history: HandHistory
    state: HandState | None
    final_stacks: tuple[int, ...] | None
    complete: bool
    error: str = ""
    failed_at: int | None = None

    @property
    def matches(self) -> bool | None:
        expected = self.history.finishing_stacks
        if expected is None or self.error:
            return None if not self.error else False
        return self.final_stacks == expected or self.odd_chip_split

    @property
    def odd_chip_split(self) -> bool:
        """Do the stacks agree but for odd chips the file shares out in fractions? Every whole
        expected stack is equal, every fractional one within a chip, and the totals agree."""
        expected, got = self.history.finishing_stacks, self.final_stacks
        if expected is None or got is None or self.error or got == expected:
            return False
        if not any(isinstance(e, float) for e in expected) or abs(sum(got) - sum(expected)) > 1e-6:
            return False
        return all(abs(g - e) < 1 if isinstance(e, float) else g == e for g, e in zip(got, expected))

    @property
    def note(self) -> str:
        """Why a match is not exact, or ''."""
        if not self.odd_chip_split:
            return ""
        return ("match within the split odd chip: the file shares it out in fractions; the table gives "
                "each odd chip whole to the winner in the worst position (POT-ODD-CHIP, 000 §13)")

    def mismatches(self) -> list[tuple[int, int, Chips]]:
        """(player, got, expected) for every player whose stack differs."""
        expected = self.history.finishing_stacks
        if expected is None or self.final_stacks is None:
            return []
        return [(p + 1, g, e) for p, (g, e) in enumerate(zip(self.final_stacks, expected)) if g != e]


_CALL, _RAISE, _FOLD = ActionKind.CALL, ActionKind.RAISE, ActionKind.FOLD
_BETTING, _COMPLETE = Phase.BETTING, Phase.COMPLETE


def _idle_check(st: HandState, seat: int) -> bool:
    """A check between betting rounds by a player still in with chips: some writers
    (PokerKit) still ask for one when everyone else is all-in. The engine has closed
    that round already, and the check changes nothing."""
    i = st.index_of.get(seat, -1)
    return st.phase is not _COMPLETE and i >= 0 and not st.folded[i] and st.stacks[i] > 0


def _killed(seat: int, a: Fold) -> HandKilled:
    """A fold out of turn is a dead hand: hand_to_phh writes one as ``# killed RULE [REASON]``."""
    words = a.comment.split() if a.comment.startswith("killed ") else []
    rule = words[1] if len(words) > 1 else "POT-MUCK"
    reason = next((r for r in KillReason if len(words) > 2 and r.value == words[2]), None)
    if reason is not None and KILL_RULES[reason] != rule:
        reason = None
    return HandKilled(seat, rule, reason)


def _show_or_muck(seat: int, cards: tuple[Card | None, ...] | None) -> Entry:
    if cards is None:
        return HandMucked(seat)
    shown = tuple(c for c in cards if c is not None)
    if len(shown) != len(cards):
        raise InputError("cards", "a show with unknown cards ('??') cannot be read at the showdown")
    return HandShown(seat, shown)


def _settle_showdown(st: HandState) -> HandState:
    """Cards speak (POT-CARDS-SPEAK): when the history stops at the showdown, the
    players whose cards were dealt face known show them, in the profile's order."""
    while st.phase is Phase.SHOWDOWN:
        seat = next_to_show(st)
        if seat is None or known_cards(st, st.index_of[seat]) is None:
            break
        apply_in_place(st, HandShown(seat, ()))
    return st


def replay_history(history: HandHistory, profile: RuleProfile = RuleProfile()) -> Replay:
    """Play ``history`` through the engine; never raises for a refused action."""
    h = history
    seats = seat_numbers(h)
    seat_of = (0,) + seats  # PHH players are 1-based
    try:
        st = start_hand(history_setup(h, seats), profile)
    except EngineError as err:
        return Replay(h, None, None, False, str(err), None)
    for k, a in enumerate(h.actions):
        try:
            # Most frequent first. The state is ours alone, so actions go in without a copy,
            # and the commonest without an entry object; a refused one changes nothing.
            if isinstance(a, DealHole):
                deal_hole_in_place(st, seat_of[a.player], a.cards)
            elif isinstance(a, Fold):
                seat = seat_of[a.player]
                if st.seat_to_act == seat and not (a.comment and a.comment.startswith("killed ")):
                    act_in_place(st, seat, _FOLD)
                else:
                    apply_in_place(st, _killed(seat, a))
            elif isinstance(a, BetRaise):
                act_in_place(st, seat_of[a.player], _RAISE, a.amount)
            elif isinstance(a, CheckCall):
                seat = seat_of[a.player]
                if st.phase is _BETTING or not _idle_check(st, seat):
                    act_in_place(st, seat, _CALL)  # a call with nothing to call is a check, as "cc" means
            elif isinstance(a, DealBoard):
                deal_board_in_place(st, a.cards)
            elif isinstance(a, ShowMuck):
                apply_in_place(st, _show_or_muck(seat_of[a.player], a.cards))
            # NoOp: commentary only
        except EngineError as err:
            return Replay(h, st, _stacks(st, seats), False, f"actions[{k}]: {action_text(a)!r}: {err}", k)
    try:
        st = _settle_showdown(st)
    except EngineError as err:
        return Replay(h, st, _stacks(st, seats), False, f"showdown: {err}", len(h.actions))
    return Replay(h, st, _stacks(st, seats), st.phase is Phase.COMPLETE)


def _stacks(st: HandState, seats: Sequence[int]) -> tuple[int, ...]:
    index_of, stacks = st.index_of, st.stacks
    return tuple(stacks[index_of[s]] for s in seats)


# -- engine hand -> PHH -------------------------------------------------------


def hand_to_phh(entries: Sequence[Entry], profile_note: bool = True) -> HandHistory:
    """A hand's entry log (starting with ``HandStarted``) as a PHH hand history.

    Burned cards are not part of PHH and are left out; a killed hand is written
    as a fold out of turn with the rule as commentary (``killed TABLE-AWAY``),
    which :func:`replay_history` reads back as a dead hand. A misdeal or a pot
    given by the dealer's declaration cannot be written in PHH and is refused.
    """
    if not entries or not isinstance(entries[0], HandStarted):
        raise InputError("entries[0]", "a hand's log starts with hand_started")
    started = entries[0]
    setup = started.setup
    st = start_hand(setup, started.profile)
    order = st.order  # dealing order: small blind first, button last = PHH order
    player_of = {seat: i + 1 for i, seat in enumerate(order)}
    by_seat = {s.seat: s for s in setup.seats}
    holes: dict[int, list[Card | None]] = {p: [] for p in range(1, len(order) + 1)}
    played: list[Action] = []
    for k, e in enumerate(entries[1:], start=1):
        where = f"entries[{k}]"
        if isinstance(e, (MisdealDeclared, WinnersDeclared)):
            raise InputError(where, f"{type(e).__name__}: PHH has no way to write it")
        st, outcomes = apply_events(st, e)
        if isinstance(e, HoleCardsDealt):
            holes[player_of[e.seat]].extend(e.cards)
        elif isinstance(e, BoardDealt):
            played.append(DealBoard(e.cards))
        elif isinstance(e, (ActionTaken, ChipsPlaced)):
            for o in outcomes:
                if isinstance(o, BetPlaced) and o.seat == e.seat:
                    if o.amends:  # the raise made again by its one additional motion (000 §7)
                        player = player_of[o.seat]
                        del played[max(k for k, a in enumerate(played) if isinstance(a, BetRaise) and a.player == player)]
                    played.append(_bet_action(player_of[o.seat], o))
                    break
        elif isinstance(e, HandShown):
            i = st.index_of[e.seat]
            played.append(ShowMuck(player_of[e.seat], st.shown[i]))
        elif isinstance(e, HandMucked):
            played.append(ShowMuck(player_of[e.seat], None))
        elif isinstance(e, HandKilled):
            reason = f" {e.reason.value}" if e.reason is not None else ""
            played.append(Fold(player_of[e.seat], f"killed {e.rule}{reason}"))
        elif isinstance(e, CardBurned):
            continue
    dealt: list[Action] = [DealHole(p, tuple(cards)) for p, cards in holes.items() if cards]
    n = len(order)
    antes = tuple(by_seat[s].ante for s in order)
    blinds = tuple(by_seat[s].blind for s in order)
    if n == 2:
        antes, blinds = antes[::-1], blinds[::-1]
    limit = setup.structure is Structure.LIMIT
    names = tuple(by_seat[s].name for s in order)
    info: tuple[tuple[str, object], ...] = (("hand", setup.hand_id),) if setup.hand_id else ()
    if profile_note:
        info += (("_dealer_pi_profile", started.profile.name),)
    return HandHistory(
        variant=_VARIANT[setup.structure],
        antes=antes,
        blinds_or_straddles=blinds,
        starting_stacks=tuple(by_seat[s].stack for s in order),
        actions=tuple(dealt + played),
        min_bet=None if limit else setup.small_bet,
        small_bet=setup.small_bet if limit else None,
        big_bet=setup.limit_big_bet if limit else None,
        players=names if any(names) else None,
        seats=tuple(order),
        finishing_stacks=tuple(st.stacks) if st.phase is Phase.COMPLETE else None,
        info=info,
    )


def _bet_action(player: int, o: BetPlaced) -> Action:
    if o.action is ActionKind.FOLD:
        return Fold(player)
    if o.action in (ActionKind.CHECK, ActionKind.CALL):
        return CheckCall(player)
    return BetRaise(player, o.to)

