"""TABLE-PAYOUT: payout structures, the prize pool and its split by finishing place (002 §3).

Shares are given in percent of the pool (at most two decimals) and kept in
hundredths of a percent, so that checking they sum to 100 % is exact.
002 §3.2 lists 60 % / 30 % / 20 %, which is 110 %: refused.

>>> PayoutStructure.parse([50, 30, 20]).basis_points
(5000, 3000, 2000)
>>> PayoutStructure.parse([60, 30, 20])
Traceback (most recent call last):
...
dealer_pi.engine.errors.RuleViolation: [TABLE-PAYOUT] payouts: the shares sum to 110 %, not 100 % (1st 60 %, 2nd 30 %, 3rd 20 %)
>>> split(1001, PayoutStructure.parse([50, 30, 20]))
(501, 300, 200)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InputError, RuleViolation

WHOLE = 10_000  # 100 % in hundredths of a percent


def ordinal(n: int) -> str:
    """The place's name.

    >>> [ordinal(i) for i in (1, 2, 3, 4, 11, 12, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _percent_text(bp: int) -> str:
    whole, part = divmod(bp, 100)
    return f"{whole} %" if not part else f"{whole}.{part:02d}".rstrip("0") + " %"


def _basis_points(share: object, where: str) -> int:
    if isinstance(share, bool) or not isinstance(share, (int, float)):
        raise InputError(where, f"must be a percentage (a number), got {share!r}")
    bp = round(share * 100)
    if abs(share * 100 - bp) > 1e-6:
        raise InputError(where, f"at most two decimals, got {share!r}")
    if not 0 < bp <= WHOLE:
        raise InputError(where, f"must be above 0 and at most 100, got {share!r}")
    return bp


@dataclass(frozen=True, slots=True)
class PayoutStructure:
    """What each paid place gets, 1st first, in hundredths of a percent of the pool."""

    basis_points: tuple[int, ...]

    @staticmethod
    def parse(shares: Sequence[object], where: str = "payouts") -> PayoutStructure:
        """Check a structure: every share a percentage, a lower place never above a higher
        one, and the shares summing to exactly 100 % (TABLE-PAYOUT)."""
        if isinstance(shares, (str, bytes)) or not isinstance(shares, Sequence) or not shares:
            raise InputError(where, "must be a non-empty list of percentages, 1st place first")
        bps = tuple(_basis_points(s, f"{where}[{i}]") for i, s in enumerate(shares))
        for i in range(1, len(bps)):
            if bps[i] > bps[i - 1]:
                raise RuleViolation("TABLE-PAYOUT", f"{where}: {ordinal(i + 1)} place ({_percent_text(bps[i])}) "
                                    f"may not be paid more than {ordinal(i)} ({_percent_text(bps[i - 1])})")
        total = sum(bps)
        if total != WHOLE:
            listing = ", ".join(f"{ordinal(i + 1)} {_percent_text(b)}" for i, b in enumerate(bps))
            raise RuleViolation("TABLE-PAYOUT", f"{where}: the shares sum to {_percent_text(total)}, not 100 % ({listing})")
        return PayoutStructure(bps)

    @property
    def places(self) -> int:
        return len(self.basis_points)

    def percents(self) -> list[float]:
        return [b / 100 for b in self.basis_points]


@dataclass(frozen=True, slots=True)
class Entries:
    """What the players paid in: buy-ins, rebuys (buy-backs count as rebuys) and add-ons."""

    buy_ins: int = 0
    rebuys: int = 0
    add_ons: int = 0


@dataclass(frozen=True, slots=True)
class Fees:
    """Prices in the smallest money unit (cents). ``rake_percent`` of every payment is kept
    by the house (002 §3.1: none, the whole pot is paid out)."""

    buy_in: int
    rebuy: int = 0
    add_on: int = 0
    buy_back: int = 0
    rake_percent: int = 0


def prize_pool(entries: Entries, fees: Fees, buy_backs: int = 0) -> int:
    """Every buy-in, rebuy, buy-back and add-on, less the rake (002 §3.1).

    >>> prize_pool(Entries(buy_ins=10, rebuys=3, add_ons=4), Fees(buy_in=2000, rebuy=1000, add_on=500))
    25000
    """
    paid = (entries.buy_ins * fees.buy_in + entries.rebuys * fees.rebuy + entries.add_ons * fees.add_on
            + buy_backs * fees.buy_back)
    return paid - paid * fees.rake_percent // 100


def split(pool: int, structure: PayoutStructure, unit: int = 1) -> tuple[int, ...]:
    """Each place's prize in whole ``unit``s (cents, or 100 for whole dollars). Every share is
    rounded down; what that leaves goes back a unit at a time to 1st, 2nd, ... place, so the
    rounding favours the higher places (002 §3.3) and the whole pool is paid.

    >>> split(10_000, PayoutStructure.parse([50, 30, 20]), unit=300)
    (5200, 3000, 1800)
    >>> split(100, PayoutStructure.parse([33.34, 33.33, 33.33]))
    (34, 33, 33)
    """
    if pool < 0:
        raise InputError("pool", f"must be 0 or more, got {pool}")
    if unit < 1:
        raise InputError("unit", f"must be at least 1, got {unit}")
    prizes = [pool * bp // WHOLE // unit * unit for bp in structure.basis_points]
    left = pool - sum(prizes)
    place = 0
    while left >= unit:
        prizes[place] += unit
        left -= unit
        place = (place + 1) % len(prizes)
    prizes[0] += left  # less than a unit: the winner keeps it
    return tuple(prizes)
