"""``dealer-pi equity HAND HAND [HAND...]``: each hand's chance to win, tie and its share of the pot.

Every board is dealt out when that fits the time budget (``"exact": true``);
otherwise boards are drawn at random, seeded, until each equity is known to
``--margin`` (``"exact": false`` with the standard error). On the turn each
hand's outs are listed: the river cards with which it wins when it is behind.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

NAME = "equity"
HELP = "win, tie and equity of two or more hold'em hands (exact, or seeded Monte Carlo), outs on the turn"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hands", nargs="+", metavar="HAND", help="two hole cards each, like AhKh or 'Qs Qd'")
    parser.add_argument("--board", default="", metavar="CARDS", help="board cards dealt so far: 0, 3, 4 or 5 (Ts9s2h)")
    parser.add_argument("--dead", default="", metavar="CARDS", help="cards known to be out of the deck (a folded hand shown)")
    parser.add_argument("--json", action="store_true", help="one JSON object on standard output")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="deal out every board, however long it takes")
    how.add_argument("--monte-carlo", action="store_true", help="draw boards at random even when every board would fit")
    parser.add_argument("--margin", type=float, default=0.005,
                        help="Monte Carlo: stop once every equity is known to +/- this (95 %%; default 0.005)")
    parser.add_argument("--seed", type=int, default=0, help="Monte Carlo: the random seed (default 0)")


def _percent(x: float) -> str:
    return f"{100 * x:6.2f} %"


def _text(result: Any, describe: str) -> str:
    lines = [f"{'hand':8} {'equity':>9} {'win':>9} {'tie':>9}  made hand"]
    for h in result.hands:
        cards = "".join(map(str, h.cards))
        lines.append(f"{cards:8} {_percent(h.equity)} {_percent(h.win)} {_percent(h.tie)}  {h.name}")
        if h.outs:
            lines.append(f"{'':8} outs ({len(h.outs)}): {' '.join(map(str, h.outs))}")
    lines.append(describe)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from dealer_pi.engine.cards import parse_cards
    from dealer_pi.engine.errors import InputError

    try:
        hands = [parse_cards(h, f"HAND {i + 1}") for i, h in enumerate(args.hands)]
        board = parse_cards(args.board, "--board")
        dead = parse_cards(args.dead, "--dead")
        if not 0 < args.margin < 0.5:
            raise InputError("--margin", f"must be between 0 and 0.5, got {args.margin}")
        from dealer_pi.broadcast.equity import describe_margin, equity

        exact = True if args.exact else False if args.monte_carlo else None
        result = equity(hands, board, dead, margin=args.margin, seed=args.seed, exact=exact)
    except InputError as exc:
        print(f"dealer-pi equity: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(_text(result, describe_margin(result)))
    return 0


def main(argv: list[str]) -> int:
    """Run the command on its own (``python -c 'from dealer_pi.commands.equity import main'``)."""
    parser = argparse.ArgumentParser(prog="dealer-pi equity", description=HELP)
    configure(parser)
    return run(parser.parse_args(argv))
