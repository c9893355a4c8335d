"""Differential test against PokerKit (dev-only): random No-Limit hands played in lockstep.

Each hand (2-9 players, random stacks including short ones, blinds with or
without antes or a big-blind ante) is dealt from a seeded deck and played with
random legal actions chosen from PokerKit's state. At every decision both
engines must agree on whose turn it is, the amount to call and the raise-to
bounds; at the end the stacks must be identical. Every tenth hand also goes
through PHH text (``to_phh`` -> ``parse_phh`` -> ``replay_history``).

Odd chips (POT-ODD-CHIP, 000 §13): both engines give every odd chip of a split
to the winner in the worst position, first left of the button
(``test_POT_ODD_CHIP_agrees_with_pokerkit``). Where the two engines differ on
purpose, a test below says so and why (BET-SHORT-POST, BET-INCOMPLETE,
BET-UNCALLED).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter, deque

import pytest

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import Automation, ChipsPulling, ChipsPushing, Mode, NoLimitTexasHoldem, StandardHighHand  # noqa: E402

from dealer_pi.engine.cards import Card  # noqa: E402
from dealer_pi.engine.events import ActionTaken, BoardDealt, HandShown, HoleCardsDealt  # noqa: E402
from dealer_pi.engine.hand import apply, start_hand  # noqa: E402
from dealer_pi.engine.legal import legal_actions  # noqa: E402
from dealer_pi.engine.observations import ActionKind as A  # noqa: E402
from dealer_pi.engine.phh import BetRaise, CheckCall, DealBoard, DealHole, Fold, HandHistory, parse_phh, to_phh  # noqa: E402
from dealer_pi.engine.phh_replay import history_setup, replay_history  # noqa: E402
from dealer_pi.engine.pots import split  # noqa: E402
from dealer_pi.engine.showdown import next_to_show  # noqa: E402
from dealer_pi.engine.state import Phase  # noqa: E402

HANDS = 10_000
SEED = 20231122
AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)
BLINDS = [(1, 2), (5, 10), (25, 50), (1, 3), (50, 100), (100, 200)]


def _card(pk_card) -> Card:
    return Card.parse(repr(pk_card))


def random_table(rng: random.Random) -> tuple[int, tuple[int, int], tuple[int, ...], tuple[int, ...]]:
    n = rng.randint(2, 9)
    sb, bb = rng.choice(BLINDS)
    kind = rng.random()
    if kind < 0.5:
        antes = (0,) * n
    elif kind < 0.75:
        antes = (max(1, bb // 10 * rng.randint(1, 3)),) * n
    else:  # big-blind ante, as in the WSOP hands: PHH lists it second (heads-up too, read reversed)
        antes = (0, bb) + (0,) * (n - 2)
    depth = rng.choice([5, 20, 60, 200])
    stacks = []
    for _ in range(n):
        r = rng.random()
        if r < 0.08:
            stacks.append(rng.randint(1, bb))  # cannot even post a full blind
        elif r < 0.25:
            stacks.append(rng.randint(bb, 10 * bb))
        else:
            stacks.append(rng.randint(bb, depth * bb))
    # The big blind covers its blind and ante: a short big blind is BET-SHORT-POST's documented
    # difference (see test_BET_SHORT_POST_differs_from_pokerkit_on_purpose). Sometimes he is
    # all-in within the ante, and the blind is absent (000 §19d): both engines agree on that as
    # long as the small blind, now the biggest blind, is posted in full.
    big = 1 if n > 2 else 0
    bb_ante = antes[1] if n == 2 else antes[big]
    if bb_ante and rng.random() < 0.05:
        stacks[big] = rng.randint(1, bb_ante)
        small = 1 - big
        stacks[small] = max(stacks[small], sb + antes[0] + 1)  # PHH lists his ante first either way
    else:
        stacks[big] = max(stacks[big], bb + bb_ante + 1)
    return n, (sb, bb), antes, tuple(stacks)


def expected_stacks(state, folded: set[int], holes: dict[int, str], board: str) -> list[int]:
    """The final stacks by POT-SIDE and POT-ODD-CHIP, from PokerKit's chips and hand ranking.

    PokerKit builds its pots after the losing hands are killed, so two side pots whose only
    remaining contenders are the same get merged and split once, which can move an odd chip;
    dealer-pi splits each side pot on its own (POT-SIDE), every odd chip to the winner in the
    worst position (POT-ODD-CHIP). Here the pots are rebuilt from the contributions
    (``folded`` are the player indices that folded), each is given to the best hands among its
    contenders by PokerKit's own evaluator (``holes`` by player index, and the ``board``),
    and split the dealer-pi way.
    """
    n = state.player_count
    won = [0] * n
    for op in state.operations:
        if isinstance(op, ChipsPulling):  # what a player takes back: pots won and his own unmatched bet
            won[op.player_index] += op.amount
    paid = [state.starting_stacks[i] - state.stacks[i] + won[i] for i in range(n)]
    live = [i for i in range(n) if i not in folded]
    # Antes are dead money any live player can win, but a player all-in within his ante wins
    # from each player only what he put in (000 §19a/d); the rest is layered at each all-in.
    dead = [min(state.get_effective_ante(i), paid[i]) for i in range(n)]
    rest = [paid[i] - dead[i] for i in range(n)]
    all_in = [state.starting_stacks[i] == paid[i] for i in range(n)]
    pots: list[tuple[int, list[int]]] = []
    carry = 0
    for part, capped in ((dead, [all_in[i] and rest[i] == 0 for i in range(n)]),
                         (rest, [all_in[i] and rest[i] > 0 for i in range(n)])):
        caps = sorted({part[i] for i in live if capped[i] and part[i] > 0} | {max(part)} - {0})
        previous = 0
        for cap in caps:
            amount = carry + sum(min(p, cap) - min(p, previous) for p in part)
            eligible = [i for i in live if part[i] >= cap or (part is dead and not capped[i])]
            carry = 0
            if not eligible and not pots:
                carry = amount  # nobody live at this level yet: the chips go up to the first real pot
            elif pots and (not eligible or pots[-1][1] == eligible):
                pots[-1] = (pots[-1][0] + amount, pots[-1][1])  # the same pot, or dead money above every live player
            elif amount:
                pots.append((amount, eligible))
            previous = cap
    stacks = [state.starting_stacks[i] - paid[i] for i in range(n)]
    hands: dict[int, StandardHighHand] = {}
    for amount, eligible in pots:
        if len(eligible) == 1:
            winners = eligible
        else:
            for i in eligible:
                if i not in hands:
                    hands[i] = StandardHighHand.from_game(holes[i], board)
            best = max(hands[i] for i in eligible)
            winners = [i for i in eligible if hands[i] == best]  # PHH order: first left of the button first
        for i, share in zip(winners, split(amount, winners, odd_to_first=True)):
            stacks[i] += share
    return stacks


def known_difference(st, la, theirs, pk, bb: int) -> str | None:
    """Name the documented difference behind a disagreement at a decision, if it is one.

    ``idle-check``: every other player is all-in and this one owes nothing; dealer-pi closes
    the round, PokerKit still asks for a check (which then changes nothing).
    ``short-first-wager``: the first wager of a round is an all-in short of a full bet or
    raise (a bet under the big blind, or a preflop raise by less than the big blind).
    dealer-pi applies BET-INCOMPLETE: players who already acted may only call or fold.
    PokerKit measures that wager against no previous raise, so it reopens the betting.
    ``short-after-cumulative-raise``: short all-ins add up to a full raise, then one more short
    all-in comes. A player who acted before them faces at least a full raise in all, so
    dealer-pi lets him raise (BET-INCOMPLETE counts everything he faces, as TDA does);
    PokerKit restarts its running sum at the full raise and only counts the last short all-in.
    """
    if la is None:
        return "idle-check" if theirs[1] == 0 and not theirs[2] and st.phase is not Phase.BETTING else None
    if (la.seat, la.to_call) != theirs[:2]:
        return None
    i = st.index_of[la.seat]
    if la.can_raise and not theirs[2] and st.acted_at[i] >= 0 and st.current_bet - st.acted_at[i] >= st.min_increment:
        short = pk.consecutive_short_all_in_amounts
        if short and sum(short) < pk.completion_betting_or_raising_amount:
            return "short-after-cumulative-raise"
    if theirs[2] and not la.can_raise and la.raise_closed_by == "BET-INCOMPLETE":
        if pk.completion_betting_or_raising_amount < bb and st.acted_at[i] >= 0:
            return "short-first-wager"
    return None


def play_one(
    k: int, differences: Counter[str] | None = None, pokerkit_pays: bool = True
) -> tuple[HandHistory, list[int], list[int], list[str]]:
    """Play hand ``k`` in both engines; return the history, both final stacks and any disagreements.

    With ``pokerkit_pays`` False, PokerKit is left once the betting is over (its showdown
    evaluates every hand many times over and would dominate the run time): the rest of the
    board comes off its deck as it would (a burn before each street) and the payout is the
    oracle's, from PokerKit's contributions and PokerKit's hand evaluator.
    """
    rng = random.Random(SEED * 1_000_003 + k)
    n, (sb, bb), antes, stacks = random_table(rng)
    # Uniform antes: a player short of the ante wins only what he matched, as 000 §19a/d says
    # (BET-SHORT-POST); PHH calls that ante trimming. Big-blind antes are always covered here.
    trimming = len(set(antes)) == 1
    pk = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, trimming, antes, (sb, bb), bb, stacks, n, mode=Mode.TOURNAMENT,
    )
    deck = sorted(pk.deck_cards, key=repr)  # PokerKit shuffles with the global random: start from a fixed order
    rng.shuffle(deck)
    pk.deck_cards = deque(deck)
    history = HandHistory("NT", antes, (sb, bb) + (0,) * (n - 2), stacks, (), min_bet=bb)
    st = start_hand(history_setup(history))
    actions: list = []
    holes: dict[int, list[Card]] = {p: [] for p in range(1, n + 1)}
    problems: list[str] = []
    differences = Counter() if differences is None else differences
    style = (rng.random(), rng.random())  # per-hand aggression: (fold share, raise share)

    def engine(entry) -> None:
        nonlocal st
        st = apply(st, entry)

    while pk.status and not problems:
        if pk.can_deal_hole():
            op = pk.deal_hole()
            p = op.player_index + 1
            holes[p].append(_card(op.cards[0]))
            if len(holes[p]) == 2:
                actions.append(DealHole(p, tuple(holes[p])))
                engine(HoleCardsDealt(p, tuple(holes[p])))
        elif pk.can_deal_board():
            op = pk.deal_board()
            cards = tuple(_card(c) for c in op.cards)
            actions.append(DealBoard(cards))
            engine(BoardDealt(cards))
        elif pk.can_show_or_muck_hole_cards() and not pokerkit_pays:
            break
        elif pk.can_show_or_muck_hole_cards():
            # Everyone shows: PokerKit's automatic mucking would merge side pots whose
            # contenders become the same, moving odd chips (dealer-pi splits each pot, POT-SIDE).
            pk.show_or_muck_hole_cards(True)
        elif pk.actor_index is not None:
            p = pk.actor_index + 1
            la = legal_actions(st)
            to_call = pk.checking_or_calling_amount
            can_raise = pk.can_complete_bet_or_raise_to()
            lo = pk.min_completion_betting_or_raising_to_amount if can_raise else 0
            hi = pk.max_completion_betting_or_raising_to_amount if can_raise else 0
            mine = None if la is None else (la.seat, la.to_call, la.can_raise, la.min_to, la.max_to)
            theirs = (p, to_call, can_raise, lo, hi)
            if mine != theirs:
                difference = known_difference(st, la, theirs, pk, bb)
                if difference is None:
                    problems.append(f"decision {len(actions)}: dealer-pi (seat, to_call, can_raise, min, max) = "
                                    f"{mine}, PokerKit {theirs}")
                    break
                differences[difference] += 1
                if difference == "idle-check":
                    pk.check_or_call()
                    actions.append(CheckCall(p))
                    continue
                can_raise = False  # play on with what both allow: fold, check or call
            r = rng.random()
            if to_call and r < style[0] * 0.5:
                pk.fold()
                action, entry = Fold(p), ActionTaken(p, A.FOLD)
            elif can_raise and r > 1 - style[1] * 0.6:
                pick = rng.random()
                amount = lo if pick < 0.4 else hi if pick < 0.6 else rng.randint(lo, hi)
                pk.complete_bet_or_raise_to(amount)
                action, entry = BetRaise(p, amount), ActionTaken(p, A.RAISE, amount)
            else:
                pk.check_or_call()
                action, entry = CheckCall(p), ActionTaken(p, A.CALL)
            actions.append(action)
            try:
                engine(entry)
            except Exception as err:  # the engine refused what PokerKit allowed
                problems.append(f"{type(action).__name__} by p{p}: {err}")
        else:
            problems.append(f"PokerKit waits for something unexpected: {pk.operations[-1]}")
    if pk.status and not problems:  # left PokerKit at its showdown: the board runs out from its deck
        while (on_board := sum(len(a.cards) for a in actions if isinstance(a, DealBoard))) < 5:
            pk.deck_cards.popleft()  # the burn
            cards = tuple(_card(pk.deck_cards.popleft()) for _ in range(3 if on_board == 0 else 1))
            actions.append(DealBoard(cards))
            try:
                engine(BoardDealt(cards))
            except Exception as err:
                problems.append(f"board {cards}: {err}")
                break
    # Cards speak: every live hand is shown in the engine's order.
    while not problems and st.phase is Phase.SHOWDOWN and (seat := next_to_show(st)) is not None:
        engine(HandShown(seat, ()))
    if not problems and st.phase is not Phase.COMPLETE:
        problems.append(f"dealer-pi did not finish the hand (phase {st.phase.value})")
    ours = [st.stacks[st.index_of[p]] for p in range(1, n + 1)]
    if problems:
        return HandHistory("NT", antes, (sb, bb) + (0,) * (n - 2), stacks, tuple(actions), min_bet=bb), ours, [], problems
    board = "".join(str(c) for a in actions if isinstance(a, DealBoard) for c in a.cards)
    expected = expected_stacks(pk, {a.player - 1 for a in actions if isinstance(a, Fold)},
                               {p - 1: "".join(map(str, cards)) for p, cards in holes.items()}, board)
    split_pot = any(sum(1 for a in op.amounts if a) > 1 for op in pk.operations if isinstance(op, ChipsPushing))
    if pokerkit_pays and not split_pot and expected != list(pk.stacks):
        problems.append(f"the test's own pot oracle {expected} disagrees with PokerKit {list(pk.stacks)}")
    history = HandHistory("NT", antes, (sb, bb) + (0,) * (n - 2), stacks, tuple(actions), min_bet=bb,
                          ante_trimming_status=trimming, finishing_stacks=tuple(expected))
    return history, ours, expected, problems


@pytest.mark.timeout(1800)  # 10,000 hands in two engines: minutes, longer on a shared machine
def test_10000_random_no_limit_hands_match_pokerkit():
    failures = []
    differences: Counter[str] = Counter()
    showdowns = side_pots = short_all_ins = splits = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(HANDS):
            # PokerKit pays every tenth hand itself, which also keeps the oracle honest.
            history, ours, theirs, problems = play_one(k, differences, pokerkit_pays=k % 10 == 0)
            if problems or ours != theirs:
                failures.append((k, problems or [f"stacks: dealer-pi {ours}, PokerKit {theirs}"], to_phh(history)))
                if len(failures) >= 3:
                    break
                continue
            if k % 10 == 0:
                r = replay_history(parse_phh(to_phh(history)))
                assert r.matches is True, (k, r.error, r.final_stacks, history.finishing_stacks)
            board = sum(len(a.cards) for a in history.actions if isinstance(a, DealBoard))
            showdowns += board == 5
            side_pots += sum(1 for s in ours if s == 0) >= 2
            short_all_ins += any(s <= history.blinds_or_straddles[1] for s in history.starting_stacks)
            splits += ours != theirs or _split_pot(history)
    assert not failures, "\n\n".join(f"hand {k}: {'; '.join(p)}\n{text}" for k, p, text in failures)
    # The sample really covers the interesting cases.
    assert showdowns > 5000 and side_pots > 2000 and short_all_ins > 2000 and splits > 100, (
        showdowns, side_pots, short_all_ins, splits)
    # Each documented difference was met (and played around) in the sample.
    assert {"idle-check", "short-first-wager"} <= set(differences), differences


def _split_pot(history: HandHistory) -> bool:
    r = replay_history(history)
    return r.state is not None and any(len(a.shares) > 1 for a in r.state.awards)


def test_POT_ODD_CHIP_agrees_with_pokerkit():
    """Antes 4 + folded small blind 1 + three calls of 2 = 11 chips split three ways (a royal
    flush on the board). 000 §13: both odd chips to the winner in the worst position, first
    left of the button (p2): 5/3/3, as PokerKit pays."""
    text = """
variant = "NT"
antes = [1, 1, 1, 1]
blinds_or_straddles = [1, 2, 0, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = ["d dh p1 2c3c", "d dh p2 2d3d", "d dh p3 2h3h", "d dh p4 4c4d", "p3 cc", "p4 cc", "p1 f", "p2 cc",
           "d db AsKsQs", "p2 cc", "p3 cc", "p4 cc", "d db Js", "p2 cc", "p3 cc", "p4 cc",
           "d db Ts", "p2 cc", "p3 cc", "p4 cc"]
"""
    r = replay_history(parse_phh(text))
    assert r.complete and r.final_stacks == (98, 102, 100, 100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pk = NoLimitTexasHoldem.create_state(AUTOMATIONS, False, 1, (1, 2), 2, (100,) * 4, 4, mode=Mode.TOURNAMENT)
        for c in ("2c", "2d", "2h", "4c", "3c", "3d", "3h", "4d"):
            pk.deal_hole(c)
        pk.check_or_call(), pk.check_or_call(), pk.fold(), pk.check_or_call()
        for board in ("AsKsQs", "Js", "Ts"):
            pk.deal_board(board)
            for _ in range(3):
                pk.check_or_call()
        while pk.can_show_or_muck_hole_cards():
            pk.show_or_muck_hole_cards(True)
    assert not pk.status
    assert pk.stacks == [98, 102, 100, 100]
    holes = {0: "2c3c", 1: "2d3d", 2: "2h3h", 3: "4c4d"}
    assert expected_stacks(pk, {0}, holes, "AsKsQsJsTs") == [98, 102, 100, 100]  # the oracle agrees


def _pokerkit(stacks, blinds=(100, 200)):
    pk = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, blinds, blinds[1], stacks, len(stacks),
                                         mode=Mode.TOURNAMENT)
    for _ in range(2 * len(stacks)):
        pk.deal_hole()
    return pk


def _dealer_pi(stacks, blinds=(100, 200)):
    n = len(stacks)
    history = HandHistory("NT", (0,) * n, blinds + (0,) * (n - 2), stacks, (), min_bet=blinds[1])
    return start_hand(history_setup(history))


def test_BET_SHORT_POST_differs_from_pokerkit_on_purpose():
    """A big blind all-in for 12 of 200: 000 §19b makes the others call the full blind
    (the short blind's side pot is formed before the deal); PokerKit asks only for the
    biggest amount actually posted (the small blind's 100)."""
    stacks = (1000, 12, 1000, 1000)
    st = _dealer_pi(stacks)
    la = legal_actions(st)
    assert (la.seat, la.to_call, la.min_to) == (3, 200, 400)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pk = _pokerkit(stacks)
    assert (pk.actor_index, pk.checking_or_calling_amount, pk.min_completion_betting_or_raising_to_amount) == (2, 100, 300)


def test_BET_SHORT_POST_phantom_big_blind_agrees_with_pokerkit():
    """000 §19d: the big blind all-in within his ante posts no blind; the next player faces the
    small blind (1), and the smallest raise is to 3, as in PokerKit."""
    st = start_hand(history_setup(HandHistory("NT", (5, 5, 5), (1, 2, 0), (100, 3, 100), (), min_bet=2)))
    la = legal_actions(st)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pk = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 5, (1, 2), 2, (100, 3, 100), 3, mode=Mode.TOURNAMENT)
        for _ in range(6):
            pk.deal_hole()
    assert (la.seat - 1, la.to_call, la.min_to, la.max_to) == (
        pk.actor_index, pk.checking_or_calling_amount, pk.min_completion_betting_or_raising_to_amount,
        pk.max_completion_betting_or_raising_to_amount)


def test_BET_INCOMPLETE_short_all_in_first_raise_differs_from_pokerkit_on_purpose():
    """p3 limps for 200; p4 goes all-in to 300, 100 short of a full raise; p1 and p2 call.
    Back to p3, who already acted and faces 100 more: dealer-pi offers call or fold only
    (BET-INCOMPLETE); PokerKit measures p4's raise against no earlier raise and reopens."""
    stacks = (5000, 5000, 5000, 300)
    st = _dealer_pi(stacks)
    for entry in (ActionTaken(3, A.CALL), ActionTaken(4, A.ALL_IN), ActionTaken(1, A.CALL), ActionTaken(2, A.CALL)):
        st = apply(st, entry)
    la = legal_actions(st)
    assert (la.seat, la.to_call, la.can_raise, la.raise_closed_by) == (3, 100, False, "BET-INCOMPLETE")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pk = _pokerkit(stacks)
        pk.check_or_call(), pk.complete_bet_or_raise_to(300), pk.check_or_call(), pk.check_or_call()
    assert (pk.actor_index, pk.checking_or_calling_amount, pk.can_complete_bet_or_raise_to()) == (2, 100, True)


def test_BET_UNCALLED_no_raise_that_nobody_could_call_agrees_with_pokerkit():
    """p3 limps for 200 with 100 behind, p4 is all-in to 500, p1 folds. Nobody else could put
    in more than 500, so a raise by the big blind would come straight back (BET-UNCALLED):
    he may call or fold, as in PokerKit; his all-in is a call."""
    stacks = (5000, 5000, 300, 500)
    st = _dealer_pi(stacks)
    for entry in (ActionTaken(3, A.CALL), ActionTaken(4, A.ALL_IN), ActionTaken(1, A.FOLD)):
        st = apply(st, entry)
    la = legal_actions(st)
    assert (la.seat, la.to_call, la.can_raise, la.raise_closed_by) == (2, 300, False, "BET-UNCALLED")
    shoved = apply(apply(st, ActionTaken(2, A.ALL_IN)), ActionTaken(3, A.CALL))
    called = apply(apply(st, ActionTaken(2, A.CALL)), ActionTaken(3, A.CALL))
    assert shoved.stacks == called.stacks and shoved.total == called.total
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pk = _pokerkit(stacks)
        pk.check_or_call(), pk.complete_bet_or_raise_to(500), pk.fold()
    assert (pk.actor_index, pk.checking_or_calling_amount, pk.can_complete_bet_or_raise_to()) == (1, 300, False)
