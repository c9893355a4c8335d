"""Showdown: who shows first, showing and mucking, and paying each pot separately.

Cards speak (POT-CARDS-SPEAK): a shown hand is read from its cards, never
from what the player says. A pot is paid when every player still in it has
shown or mucked, or when the dealer names its winners (for hole cards the
table could not read). Each side pot is split on its own (POT-SIDE).

>>> from .hand import Hand
>>> from .setup import blinds_setup
>>> from .events import HoleCardsDealt, BoardDealt, HandShown, ActionTaken
>>> from .cards import parse_cards as cards
>>> from .observations import ActionKind as A
>>> h = Hand.start(blinds_setup({1: 50, 2: 50}, button=1, small_blind=1, big_blind=2))
>>> _ = h.apply(HoleCardsDealt(1, tuple(cards("AhAd")))).apply(HoleCardsDealt(2, tuple(cards("KhKd"))))
>>> _ = h.act(1, A.ALL_IN).act(2, A.CALL)
>>> for b in ("2c7d9s", "3h", "4s"):
...     _ = h.apply(BoardDealt(tuple(cards(b))))
>>> next_to_show(h.state)  # POT-SHOW-ORDER, standard: left of the last caller
1
>>> _ = h.apply(HandShown(1)).apply(HandShown(2))
>>> h.state.awards[0].shares, h.state.awards[0].description
(((1, 100),), 'Pair of Aces')
"""

from __future__ import annotations

from .betting import Out, finish, rake_of
from .cards import Card
from .errors import InputError, RuleViolation
from .evaluator import evaluate7, hand_description
from .events import PotAwarded
from .pots import Pot, split
from .state import HandState, Phase

# Enum members as module constants: the hot paths read them on every entry.
_DEALING = Phase.DEALING
_SHOWDOWN = Phase.SHOWDOWN


def begin_showdown(st: HandState, out: Out) -> None:
    st.street = 4
    st.phase = _SHOWDOWN
    st.to_act = -1
    try_award(st, out)


def show_order(st: HandState) -> list[int]:
    """Live player indices in the order they are asked to show (POT-SHOW-ORDER, by profile).

    ``last-aggressor`` (003): the last bettor or raiser of the hand, else first left of the
    button; ``bettor-or-first`` (002 §12.2): the bettor of the final round, else its first
    to act; ``left-of-last-caller`` (000 §41): the player left of the last to call, else
    first left of the button. Then clockwise; folded players are skipped.
    """
    n = len(st.order)
    rule = st.profile.show_order
    start = 0
    if rule == "left-of-last-caller":
        start = (st.last_caller + 1) % n if st.last_caller >= 0 else 0
    elif rule == "last-aggressor":
        start = max(st.aggressor, 0)
    elif rule == "bettor-or-first":
        if st.aggressor >= 0 and st.aggressor_street == 3:
            start = st.aggressor
        else:
            start = max(st.first_actor, 0)
    return [j for j in ((start + k) % n for k in range(n)) if not st.folded[j]]


def next_to_show(st: HandState) -> int | None:
    """The seat asked to show next, or None when nobody is waiting to."""
    if st.phase is not _SHOWDOWN:
        return None
    for j in show_order(st):
        if st.shown[j] is None:
            return st.order[j]
    return None


def known_cards(st: HandState, i: int) -> tuple[Card, ...] | None:
    """Player ``i``'s two hole cards when the table knows both, else None."""
    shown = st.shown[i]
    if shown is not None:
        return shown
    hole = st.hole[i]
    if len(hole) == 2 and hole[0] is not None and hole[1] is not None:
        return (hole[0], hole[1])
    return None


def _live_index(st: HandState, seat: int, rule: str) -> int:
    i = st.index_of.get(seat, -1)
    if i < 0:
        raise RuleViolation(rule, f"seat {seat} is not dealt in this hand")
    if st.folded[i]:
        raise RuleViolation("POT-MUCK", f"seat {seat} has folded or mucked and cannot win")
    return i


def can_show_now(st: HandState) -> bool:
    """Showdown, or an all-in run-out where nobody can bet any more (POT-ALL-IN-SHOW)."""
    return st.phase is _SHOWDOWN or (st.phase is _DEALING and len(st.able()) <= 1)


def show(st: HandState, seat: int, cards: tuple[Card, ...], out: Out) -> None:
    """``seat`` tables its hand (POT-SHOW-BOTH); cards must agree with what was dealt."""
    if not can_show_now(st):
        raise RuleViolation(
            "DEAL-PLAYER-EXPOSED", f"seat {seat} showed during the play: the hand stays in play, record it as exposed"
        )
    i = _live_index(st, seat, "POT-SHOW-BOTH")
    hole = st.hole[i]
    if not cards:
        known = known_cards(st, i)
        if known is None:
            raise RuleViolation(
                "POT-SHOW-BOTH", f"seat {seat}'s cards were not read: enter both cards or declare the winner"
            )
        cards = known
    if len(cards) != 2 or cards[0] is cards[1]:
        raise InputError("cards", f"seat {seat} shows two different hole cards, got {len(cards)}")
    for k, c in enumerate(hole):
        if c is not None and c not in cards:
            raise InputError("cards", f"seat {seat} was dealt {c}, not shown in {' '.join(map(str, cards))}")
    for c in cards:
        if st.seen >> c.index & 1 and c not in hole:
            raise RuleViolation("DEAL-DECK", f"{c} is already on the table: a card seen twice is a foul deck")
    for c in cards:
        st.seen |= 1 << c.index
    st.shown[i] = cards
    try_award(st, out)


def muck(st: HandState, seat: int, out: Out) -> None:
    """``seat`` gives up at showdown (POT-MUCK); all-in players must show (POT-ALL-IN-SHOW)."""
    if st.phase is not _SHOWDOWN:
        raise RuleViolation("POT-MUCK", "hands are mucked at the showdown; before it, a player folds")
    i = _live_index(st, seat, "POT-MUCK")
    if st.stacks[i] == 0:
        raise RuleViolation("POT-ALL-IN-SHOW", f"seat {seat} is all-in and must show")
    if st.shown[i] is not None:
        raise RuleViolation("POT-CARDS-SPEAK", f"seat {seat}'s hand is tabled: cards speak, it cannot be mucked")
    for p in pot_list(st):
        contenders = [j for j in p.eligible if not st.folded[j]]
        if contenders == [i]:
            raise RuleViolation("POT-MUCK", f"seat {seat} is the last player in a pot and wins it without showing")
    st.folded[i] = True
    st.mucked[i] = True
    try_award(st, out)


def declare_winners(st: HandState, pot: int, seats: tuple[int, ...], out: Out) -> None:
    """The dealer names the winners of pot ``pot`` (cards not readable); they must be in it."""
    if st.phase is not _SHOWDOWN:
        raise RuleViolation("POT-CARDS-SPEAK", "winners are declared at the showdown")
    pots = pot_list(st)
    if not 0 <= pot < len(pots):
        raise InputError("pot", f"there are {len(pots)} pots (0 = main), got {pot}")
    if not seats or len(set(seats)) != len(seats):
        raise InputError("seats", "name each winning seat once")
    for s in seats:
        i = _live_index(st, s, "POT-SIDE")
        if i not in pots[pot].eligible:
            raise RuleViolation("POT-SIDE", f"seat {s} is not in pot {pot}: it can win only what it matched")
    st.declared[pot] = seats
    try_award(st, out)


def pot_list(st: HandState) -> list[Pot]:
    return st.pots()


def _odd_chip_order(st: HandState, winners: list[int]) -> list[int]:
    if st.profile.odd_chip == "high-card-by-suit":
        hands = [known_cards(st, i) for i in winners]
        if all(h is not None for h in hands):
            best = {i: max(c.index for c in h) for i, h in zip(winners, hands) if h is not None}
            return sorted(winners, key=lambda i: -best[i])
    return sorted(winners)  # dealing order starts left of the button, the worst position (POT-ODD-CHIP)


def try_award(st: HandState, out: Out) -> None:
    """Pay every pot once all of them can be decided; otherwise wait for shows or mucks."""
    if st.phase is not _SHOWDOWN:
        # Hands shown in an all-in run-out wait for the board: with two or more players
        # live (fewer ends the hand at once), the main pot cannot be decided before it.
        return
    live = st.live()
    if len(live) > 1 and 0 not in st.declared and any(st.shown[j] is None for j in live):
        return  # every live player is in the main pot: it waits for this hand
    pots = pot_list(st)
    decided: list[tuple[list[int], str]] = []
    board = st.board
    for k, p in enumerate(pots):
        contenders = [j for j in p.eligible if not st.folded[j]]
        if k in st.declared:
            decided.append(([st.index_of[s] for s in st.declared[k]], "declared by the dealer"))
            continue
        if len(contenders) == 1:
            decided.append((contenders, ""))
            continue
        if len(board) != 5 or not contenders:
            return
        values: dict[int, int] = {}
        for j in contenders:
            if st.shown[j] is None:
                return
            values[j] = evaluate7((*st.shown[j], *board))  # type: ignore[misc]
        best = max(values.values())
        decided.append(([j for j in contenders if values[j] == best], hand_description(best)))
    if not decided:
        return
    awards: list[PotAwarded] = []
    for k, (p, (winners, why)) in enumerate(zip(pots, decided)):
        rake = rake_of(st, p.amount) if st.profile.rake_percent else 0  # BET-RAKE, each pot within the cap
        ordered = _odd_chip_order(st, winners)
        shares = split(p.amount - rake, ordered, odd_to_first=st.profile.odd_chip == "worst-position")
        for j, chips in zip(ordered, shares):
            st.stacks[j] += chips
        st.rake += rake
        awards.append(PotAwarded(k, p.amount, tuple((st.order[j], c) for j, c in zip(ordered, shares)), rake, why))
    st.awards = st.awards + tuple(awards)
    finish(st, out, tuple(awards))
