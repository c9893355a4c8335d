"""Betting: forced bets, whose turn it is, what a bet or raise may be, closing a round.

Functions here change a *fresh copy* of the state in place (``hand.apply``
makes the copy) and append outcomes to ``out`` when it is a list; a
:class:`RuleViolation` leaves the caller's original state untouched.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import InputError, RuleViolation
from .events import (
    AntePosted,
    BetPlaced,
    BlindPosted,
    HandEnded,
    Outcome,
    PotAwarded,
    StreetCompleted,
    UncalledBetReturned,
)
from .observations import ActionKind
from .setup import Structure
from .state import STREET_NAMES, HandState, Phase

# Enum members as module constants: the hot paths read them on every entry.
_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE
_ALL_IN = ActionKind.ALL_IN
_BETTING = Phase.BETTING
_DEALING = Phase.DEALING
_COMPLETE = Phase.COMPLETE
_POT_LIMIT = Structure.POT_LIMIT
_LIMIT = Structure.LIMIT

Out = list[Outcome] | None


class RaiseBounds(NamedTuple):
    """Raise-to limits for one player; ``rule``/``why`` say why raising is closed when ``allowed`` is False."""

    allowed: bool
    min_to: int
    max_to: int
    rule: str = ""
    why: str = ""


def post_forced_bets(st: HandState, out: Out) -> None:
    """Antes then blinds and straddles (BET-ANTES, BET-BLINDS, BET-SHORT-POST).

    A blind posted short is still the full blind for everyone else to call (000 §19b-c);
    a blind nobody posted, because its player went all-in within the ante, is absent
    (000 §19d): the next player faces the biggest blind really posted.
    """
    setup = st.setup
    stacks, total = st.stacks, st.total
    for i, ante in enumerate(setup.antes):
        if ante:
            a = min(ante, stacks[i])
            stacks[i] -= a
            total[i] += a
            st.dead[i] += a
            if out is not None:
                out.append(AntePosted(st.order[i], a, stacks[i] == 0))
    top = 0
    top_i = -1
    full = set()
    for i, blind in enumerate(setup.blinds):
        if not blind:
            continue
        b = min(blind, stacks[i])
        if not b:
            continue  # all-in within the ante: this blind is absent
        stacks[i] -= b
        st.bets[i] += b
        total[i] += b
        if out is not None:
            out.append(BlindPosted(st.order[i], b, stacks[i] == 0))
        if blind > top:
            top, top_i = blind, i
        if blind >= setup.small_bet:
            full.add(blind)
    st.current_bet = top
    st.min_increment = max(st.setup.small_bet, top)
    st.raises = len(full)
    st.aggressor = top_i
    st.needs = [x > 0 for x in stacks]
    # BET-ORDER: preflop the first to act is left of the big blind (or of the last straddle).
    start = (top_i + 1) % len(st.order) if top_i >= 0 else 0
    st.first_actor = -1
    advance(st, start, out)
    if st.phase is _BETTING:
        st.first_actor = st.to_act


def others_able(st: HandState, i: int) -> bool:
    """Is any other live player still holding chips (so could answer a raise)?"""
    stacks, folded = st.stacks, st.folded
    for j in range(len(stacks)):
        if j != i and not folded[j] and stacks[j] > 0:
            return True
    return False


def others_could_call_more(st: HandState, i: int) -> bool:
    """Could any other live player put in more than the current bet (so answer a raise by ``i``)?"""
    bets, stacks, folded, cur = st.bets, st.stacks, st.folded, st.current_bet
    for j in range(len(bets)):
        if j != i and not folded[j] and bets[j] + stacks[j] > cur:
            return True
    return False


def outbet(st: HandState, i: int) -> bool:
    """Has another live player put more chips in this round than player ``i``?"""
    bets, folded = st.bets, st.folded
    mine = bets[i]
    for j in range(len(bets)):
        if j != i and not folded[j] and bets[j] > mine:
            return True
    return False


def advance(st: HandState, start: int, out: Out) -> None:
    """Give the turn to the next player who has a decision, or close the round (BET-ORDER).

    A decision is left when a bet could still be answered, or when chips are owed that
    someone could win. Owing only the rest of a full blind that its all-in poster did not
    cover (BET-SHORT-POST), with nobody else able to bet, is no decision: a call would come
    straight back (BET-UNCALLED, BET-ALL-IN).
    """
    folded, needs, stacks, bets = st.folded, st.needs, st.stacks, st.bets
    if folded.count(False) > 1:
        n = len(folded)
        cur = st.current_bet
        for k in range(start, start + n):
            j = k % n
            if needs[j] and not folded[j] and stacks[j] > 0:
                if bets[j] < cur:
                    top = st.aggressor  # the last bettor, raiser or biggest blind: did he put ``cur`` in?
                    if (top >= 0 and bets[top] >= cur) or outbet(st, j) or others_able(st, j):
                        st.to_act = j
                        st.phase = _BETTING
                        return
                elif others_able(st, j):
                    st.to_act = j
                    st.phase = _BETTING
                    return
                needs[j] = False
    close_round(st, out)


def raise_bounds(st: HandState, i: int) -> RaiseBounds:
    """The smallest and largest "raise to" for player ``i`` now (BET-NL-MIN, BET-PL-MAX, BET-LIMIT,
    BET-INCOMPLETE); an all-in for less than the minimum is always within bounds (BET-ALL-IN)."""
    cur = st.current_bet
    stack_to = st.bets[i] + st.stacks[i]
    if stack_to <= cur:
        return RaiseBounds(False, 0, 0, "BET-ALL-IN", "not enough chips to raise: call all-in or fold")
    if st.acted_at[i] >= 0 and cur - st.acted_at[i] < st.min_increment:
        return RaiseBounds(False, 0, 0, "BET-INCOMPLETE",
                           "an all-in short of a full raise does not reopen the betting: call or fold")
    if not others_could_call_more(st, i):
        return RaiseBounds(False, 0, 0, "BET-UNCALLED",
                           "nobody else could put in more than the current bet: a raise would come straight back")
    structure = st.setup.structure
    if structure is _LIMIT:
        cap = st.profile.limit_cap_raises
        heads_up = len(st.live()) == 2 and st.profile.limit_cap_lifted_heads_up
        if cap and not heads_up and st.raises >= 1 + cap:
            return RaiseBounds(False, 0, 0, "BET-LIMIT", f"the betting is capped (one bet and {cap} raises)")
        to = min(cur + st.street_size(), stack_to)
        return RaiseBounds(True, to, to)
    low = min(cur + st.min_increment, stack_to)
    if structure is _POT_LIMIT:
        # BET-PL-MAX: the largest raise is the size of the pot after the call.
        high = min(cur + sum(st.total) + (cur - st.bets[i]), stack_to)
        return RaiseBounds(True, min(low, high), high)
    return RaiseBounds(True, low, stack_to)


def _bad_seat(st: HandState, seat: int) -> int:
    i = st.index_of.get(seat, -1)
    if i < 0:
        raise RuleViolation("BET-ORDER", f"seat {seat} is not dealt in this hand")
    if st.folded[i]:
        raise RuleViolation("BET-ORDER", f"seat {seat} has folded")
    return i


def turn_index(st: HandState, seat: int) -> int:
    """The index of ``seat`` if it is its turn; else BET-OUT-OF-TURN (flagged, not applied)."""
    if st.phase is not _BETTING:
        raise RuleViolation("BET-ORDER", f"no betting now (the hand is at {st.phase.value})")
    i = _bad_seat(st, seat)
    if i != st.to_act:
        raise RuleViolation(
            "BET-OUT-OF-TURN", f"seat {seat} acted out of turn: seat {st.order[st.to_act]} is to act; not applied"
        )
    return i


def act(st: HandState, seat: int, action: ActionKind, amount: int | None, out: Out) -> None:
    """Apply one betting decision for ``seat`` (``amount`` = street total after it, for bet/raise)."""
    i = st.index_of.get(seat, -1)
    if i != st.to_act or i < 0 or st.phase is not _BETTING:
        i = turn_index(st, seat)  # raises BET-OUT-OF-TURN or BET-ORDER
    cur = st.current_bet
    to_call = cur - st.bets[i]
    if action is _ALL_IN:
        # As much as the rules allow: the whole stack in NL, up to the pot in PL, one raise in
        # Limit; a call when raising is closed (BET-INCOMPLETE, BET-LIMIT cap, nobody to call).
        b = raise_bounds(st, i)
        if b.allowed:
            action, amount = _RAISE, b.max_to
        else:
            action = _CALL
    if action is _FOLD:
        st.folded[i] = True
        if out is not None:
            out.append(BetPlaced(seat, action, st.bets[i], 0, False))
    elif action is _CHECK or (action is _CALL and to_call <= 0):
        if to_call > 0:
            raise RuleViolation("BET-ORDER", f"seat {seat} cannot check: {to_call} to call")
        if out is not None:
            out.append(BetPlaced(seat, _CHECK, st.bets[i], 0, False))
    elif action is _CALL:
        add = min(to_call, st.stacks[i])
        st.stacks[i] -= add
        st.bets[i] += add
        st.total[i] += add
        st.last_caller = i
        if out is not None:
            out.append(BetPlaced(seat, action, st.bets[i], add, st.stacks[i] == 0))
    elif action is _BET or action is _RAISE:
        if amount is None:
            raise InputError("amount", f"a {action.value} needs the amount it makes the seat's total")
        _raise_to(st, i, amount, out)
    else:
        raise InputError("action", "blinds and antes are posted from the hand's setup, not entered")
    if st.street == 0 and st.acted_at[i] < 0 and st.order[i] not in st.blind_seats:
        st.acted_after_blinds += 1
    st.needs[i] = False
    st.acted_at[i] = st.current_bet
    advance(st, i + 1, out)


def _raise_to(st: HandState, i: int, to: int, out: Out) -> None:
    cur = st.current_bet
    seat = st.order[i]
    if to <= cur:
        raise RuleViolation("BET-NL-MIN", f"a bet or raise must make more than the current {cur}; to match it, call")
    if to - st.bets[i] > st.stacks[i]:
        raise RuleViolation(
            "BET-TABLE-STAKES", f"seat {seat} has only {st.stacks[i]} behind (at most {st.bets[i] + st.stacks[i]})"
        )
    b = raise_bounds(st, i)
    if not b.allowed:
        raise RuleViolation(b.rule, f"seat {seat}: {b.why}")
    if to < b.min_to:
        rule = "BET-LIMIT" if st.setup.structure is _LIMIT else "BET-NL-MIN"
        raise RuleViolation(rule, f"the smallest {'raise' if cur else 'bet'} is to {b.min_to}")
    if to > b.max_to:
        rule = {_LIMIT: "BET-LIMIT", _POT_LIMIT: "BET-PL-MAX"}.get(st.setup.structure, "BET-TABLE-STAKES")
        raise RuleViolation(rule, f"the largest {'raise' if cur else 'bet'} is to {b.max_to}")
    st.raised_from = (cur, st.min_increment, st.raises, st.aggressor, st.aggressor_street, st.last_caller)
    add = to - st.bets[i]
    st.stacks[i] -= add
    st.bets[i] = to
    st.total[i] += add
    inc = to - cur
    if inc >= st.min_increment:  # a full raise reopens the betting (BET-INCOMPLETE otherwise)
        if st.setup.structure is not _LIMIT:
            st.min_increment = inc
        st.raises += 1
    st.current_bet = to
    st.aggressor = i
    st.aggressor_street = st.street
    st.last_caller = -1
    for j in range(len(st.order)):
        if j != i and not st.folded[j] and st.stacks[j] > 0:
            st.needs[j] = True
    if out is not None:
        kind = _RAISE if cur else _BET
        out.append(BetPlaced(seat, kind, to, add, st.stacks[i] == 0))


def take_back_dead_raise(st: HandState, i: int, out: Out) -> None:
    """POT-DEAD-HAND: the part of a dead hand's bet or raise that nobody has called goes back to
    its owner (000 §33; BET-UNCALLED), and the betting is again as it stood before that raise
    (or at the most another player has put in since): nobody calls a dead hand."""
    before = st.raised_from
    if before is None or st.aggressor != i or st.aggressor_street != st.street:
        return
    bets = st.bets
    level = max([before[0]] + [bets[j] for j in range(len(bets)) if j != i])
    excess = bets[i] - level
    if excess <= 0:
        return
    bets[i] = level
    st.stacks[i] += excess
    st.total[i] -= excess
    st.current_bet = level
    _, st.min_increment, st.raises, st.aggressor, st.aggressor_street, st.last_caller = before
    st.raised_from = None
    for j in range(len(bets)):  # whoever acted at this level before the raise has nothing more to do
        if j != i and not st.folded[j] and st.stacks[j] > 0:
            st.needs[j] = st.acted_at[j] < level or bets[j] < level
    if out is not None:
        out.append(UncalledBetReturned(st.order[i], excess, "POT-DEAD-HAND"))


def return_uncalled(st: HandState, out: Out) -> None:
    """BET-UNCALLED: the part of the biggest bet nobody matched goes back.

    Earlier rounds closed level, so comparing this round's bets is enough (antes,
    being dead money, never count).
    """
    bets = st.bets
    top = max(bets)
    if not top:
        return
    top_i = bets.index(top)
    extra = top - sorted(bets)[-2]  # the next biggest bet (the same when two players matched)
    if extra > 0:
        st.total[top_i] -= extra
        st.stacks[top_i] += extra
        bets[top_i] -= extra
        if out is not None:
            out.append(UncalledBetReturned(st.order[top_i], extra))


def close_round(st: HandState, out: Out) -> None:
    """The round is over: uncalled bets back, bets gathered (POT-RIGHT), then the next phase."""
    return_uncalled(st, out)
    if out is not None:
        out.append(StreetCompleted(
            STREET_NAMES[st.street],
            tuple((p.amount, tuple(st.order[i] for i in p.eligible)) for p in st.pots()),
        ))
    n = len(st.order)
    st.bets = [0] * n
    st.needs = [False] * n
    st.acted_at = [-1] * n
    st.current_bet = 0
    st.to_act = -1
    folded = st.folded
    if folded.count(False) == 1:
        win_everything(st, folded.index(False), out)
    elif st.street >= 3:
        from .showdown import (
            begin_showdown,  # showdown needs betting's helpers; imported late
        )

        begin_showdown(st, out)
    else:
        st.phase = _DEALING


def rake_of(st: HandState, amount: int) -> int:
    """BET-RAKE: the profile's whole percent of a pot of ``amount``, within what the hand's
    cap leaves. 004 rakes every pot, won at a showdown or not; ``rake_no_flop_no_drop``
    (a house option) spares a hand that ends before the flop."""
    profile = st.profile
    if not profile.rake_percent or (profile.rake_no_flop_no_drop and not st.board):
        return 0
    rake = amount * profile.rake_percent // 100
    return min(rake, profile.rake_cap - st.rake) if profile.rake_cap else rake


def win_everything(st: HandState, i: int, out: Out) -> None:
    """Everyone else folded: the last live player takes every chip in, unshown (POT-MUCK), less the rake."""
    amount = sum(st.total)
    rake = rake_of(st, amount) if st.profile.rake_percent else 0
    st.stacks[i] += amount - rake
    st.rake += rake
    award = PotAwarded(0, amount, ((st.order[i], amount - rake),), rake)
    st.awards = st.awards + (award,)
    finish(st, out, (award,))


def finish(st: HandState, out: Out, awards: tuple[PotAwarded, ...]) -> None:
    st.phase = _COMPLETE
    st.to_act = -1
    if out is not None:
        out.extend(awards)
        out.append(HandEnded(tuple((s, st.stacks[i]) for i, s in enumerate(st.order)), st.misdeal))


def start_street(st: HandState, out: Out) -> None:
    """After the board cards: a new betting round if two players can bet, else keep dealing."""
    st.current_bet = 0
    st.min_increment = st.street_size()
    st.raises = 0
    st.raised_from = None
    st.first_actor = -1  # the last aggressor and caller are kept: show order looks back (POT-SHOW-ORDER)
    able = [not f and s > 0 for f, s in zip(st.folded, st.stacks)]
    if able.count(True) >= 2:
        st.needs = able  # every player who can bet has a decision on the new street
        advance(st, 0, out)
        if st.phase is _BETTING:
            st.first_actor = st.to_act
    elif st.street >= 3:
        from .showdown import begin_showdown

        begin_showdown(st, out)
    else:
        st.phase = _DEALING
