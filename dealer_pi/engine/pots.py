"""Main and side pots from what each player put in (POT-SIDE), and splitting them.

Pots are derived from the per-player contributions, never kept by hand, so
they are always right: each all-in caps a pot at its amount, later money goes
to the next pot, and a player is eligible only for the pots he paid into to
the full cap. Folded players' chips stay in the pots they reached.

>>> [(p.amount, p.eligible) for p in build_pots([100, 50, 100, 30], [0] * 4, [False, False, False, True], [0] * 4)]
[(180, (0, 1, 2)), (100, (0, 2))]
>>> split(101, [2, 0])  # POT-ODD-CHIP: the odd chip to the first winner listed
[51, 50]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """``amount`` in chips; ``eligible`` are player indices (dealing order) who can win it."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    total: Sequence[int], dead: Sequence[int], folded: Sequence[bool], stacks: Sequence[int]
) -> list[Pot]:
    """Pots from each player's contribution; ``stacks[i] == 0`` marks an all-in player.

    ``dead`` is each player's share of ``total`` paid as an ante: dead money that every
    live player can win (a big-blind ante included), except that a player all-in
    within the ante wins from each player only what he put in (000 §19a, §19d).
    The live part (``total - dead``) is layered at each live all-in (000 §15-17).
    Adjacent pots with the same players are one pot.
    """
    n = len(total)
    live = [i for i in range(n) if not folded[i]]
    if all(stacks[i] for i in live):  # nobody all-in: one pot for everyone still in
        amount = sum(total)
        return [Pot(amount, tuple(live))] if amount else []
    live_part = [total[i] - dead[i] for i in range(n)]
    ante_all_in = [not folded[i] and stacks[i] == 0 and live_part[i] == 0 for i in range(n)]
    pots = _layers(dead, folded, ante_all_in, lambda j, cap: not ante_all_in[j] or dead[j] >= cap)
    all_in = [not folded[i] and stacks[i] == 0 and live_part[i] > 0 for i in range(n)]
    pots += _layers(live_part, folded, all_in, lambda j, cap: live_part[j] >= cap)
    merged: list[Pot] = []
    for p in pots:
        if merged and (merged[-1].eligible == p.eligible or not p.eligible):
            merged[-1] = Pot(merged[-1].amount + p.amount, merged[-1].eligible)
        else:
            merged.append(p)
    return merged


def _layers(
    amounts: Sequence[int], folded: Sequence[bool], capped: Sequence[bool], eligible: Callable[[int, int], bool]
) -> list[Pot]:
    live = [i for i in range(len(amounts)) if not folded[i]]
    caps = sorted({amounts[i] for i in live if capped[i] and amounts[i] > 0})
    top = max(amounts, default=0)
    if top and (not caps or caps[-1] < top):
        caps.append(top)
    pots: list[Pot] = []
    prev = 0
    for cap in caps:
        amount = 0
        for a in amounts:
            if a > prev:
                amount += (min(a, cap)) - prev
        if amount:
            pots.append(Pot(amount, tuple(j for j in live if eligible(j, cap))))
        prev = cap
    return pots


def split(amount: int, winners: Sequence[int], *, odd_to_first: bool = False) -> list[int]:
    """Shares of ``amount`` for ``winners`` (already in odd-chip order).

    The split is as even as possible. With ``odd_to_first`` every odd chip goes to the
    first winner, the one in the worst position (000 §13, 002 §1.2.3, 004: POT-ODD-CHIP);
    without it, one odd chip each from the first winner on (a house option).

    >>> split(11, [1, 2, 3]), split(11, [1, 2, 3], odd_to_first=True)
    ([4, 4, 3], [5, 3, 3])
    """
    n = len(winners)
    base, odd = divmod(amount, n)
    if odd_to_first:
        return [base + odd] + [base] * (n - 1)
    return [base + (1 if k < odd else 0) for k in range(n)]
