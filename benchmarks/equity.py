"""Equity: dealer-pi's NumPy engine against eval7 (C) and treys (pure Python) loops, in one run.

Spots:

* heads-up preflop, exact (1,712,304 boards), timed as whole processes:
  ``dealer-pi equity AhKh QsQd --json`` against a Python script that loops
  eval7 over every board (aim: at least 10x faster);
* 3- and 6-way flop, exact, in process (median of repeats);
* 9-way preflop, Monte Carlo until every equity is known to +/- 0.5 % (95 %),
  in process, the peers drawing the same number of boards; the answer is also
  checked against the exact one;
* every flop spot from 2 to 9 players (aim: each under 50 ms).

treys is pure Python and takes minutes for a full enumeration: where a spot
has more than ``--treys-boards`` boards it is timed on that many and scaled
(said so in the output). Needs the dev extras (eval7, treys).

    python benchmarks/equity.py [--repeats 5] [--treys-boards 20000]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import eval7  # noqa: E402
from treys import Card as TCard  # noqa: E402
from treys import Evaluator as TEvaluator  # noqa: E402

from dealer_pi.broadcast.equity import equity  # noqa: E402
from dealer_pi.engine.cards import FULL_DECK, Card, parse_cards  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DECK = [str(c) for c in FULL_DECK]

EVAL7_SCRIPT = """
import itertools, json, sys, eval7
hands = [[eval7.Card(h[i:i + 2]) for i in (0, 2)] for h in sys.argv[1:]]
used = {str(c) for h in hands for c in h}
rest = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
won = [0.0] * len(hands)
ev = eval7.evaluate
for board in itertools.combinations(rest, 5):
    b = list(board)
    vals = [ev(b + h) for h in hands]
    best = max(vals)
    top = [i for i, v in enumerate(vals) if v == best]
    for i in top:
        won[i] += 1 / len(top)
n = sum(won)
print(json.dumps([w / n for w in won]))
"""


def whole_process(cmd: list[str]) -> tuple[float, str]:
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=REPO).stdout
    return time.perf_counter() - t, out


def loop_equity(evaluate: Callable[[list[Any]], int], better_is_lower: bool, hands: list[list[Any]],
                boards: Sequence[Sequence[Any]], board: list[Any]) -> list[float]:
    won = [0.0] * len(hands)
    for extra in boards:
        full = board + list(extra)
        vals = [evaluate(full + h) for h in hands]
        best = min(vals) if better_is_lower else max(vals)
        top = [i for i, v in enumerate(vals) if v == best]
        for i in top:
            won[i] += 1 / len(top)
    return [w / max(len(boards), 1) for w in won]


class Peers:
    """eval7 and treys, each over the same boards (card names in, equities out)."""

    def __init__(self) -> None:
        self.treys = TEvaluator()

    def eval7(self, hands: list[str], board: str, boards: Sequence[Sequence[str]]) -> list[float]:
        def conv(text: str) -> list[Any]:
            return [eval7.Card(text[i:i + 2]) for i in range(0, len(text), 2)]
        cache = {c: eval7.Card(c) for c in DECK}
        return loop_equity(eval7.evaluate, False, [conv(h) for h in hands], [[cache[c] for c in b] for b in boards], conv(board))

    def treys_eval(self, hands: list[str], board: str, boards: Sequence[Sequence[str]]) -> list[float]:
        cache = {c: TCard.new(c) for c in DECK}
        ev = self.treys.evaluate

        def evaluate(cards: list[int]) -> int:
            return ev(cards[-2:], cards[:-2])
        hs = [[cache[h[:2]], cache[h[2:]]] for h in hands]
        b = [cache[board[i:i + 2]] for i in range(0, len(board), 2)]
        return loop_equity(evaluate, True, hs, [[cache[c] for c in x] for x in boards], b)


def every_board(hands: list[str], board: str) -> list[tuple[str, ...]]:
    used = {h[i:i + 2] for h in hands for i in (0, 2)} | {board[i:i + 2] for i in range(0, len(board), 2)}
    rest = [c for c in DECK if c not in used]
    return list(itertools.combinations(rest, 5 - len(board) // 2))


def timed(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def ours(hands: list[str], board: str, **kw: Any) -> list[float]:
    r = equity([parse_cards(h) for h in hands], parse_cards(board), **kw)
    return [h.equity for h in r.hands]


def row(label: str, mine: float, peer: float, note: str = "") -> None:
    print(f"  {label:34} {1000 * peer:10.1f} ms   ratio {peer / mine:7.1f}x{note}")


def spot(peers: Peers, title: str, hands: list[str], board: str, repeats: int, treys_boards: int) -> None:
    boards = every_board(hands, board)
    t_ours, e_ours = timed(lambda: ours(hands, board, exact=True), repeats)
    t_e7, e_e7 = timed(lambda: peers.eval7(hands, board, boards), max(1, repeats // 2))
    scale = 1.0
    tb = boards
    if len(boards) > treys_boards:
        tb = random.Random(1).sample(boards, treys_boards)
        scale = len(boards) / treys_boards
    t_tr, _ = timed(lambda: peers.treys_eval(hands, board, tb), 1)
    diff = max(abs(a - b) for a, b in zip(e_ours, e_e7))
    print(f"{title}: {' '.join(hands)} board '{board}', {len(boards):,} boards, exact")
    print(f"  {'dealer-pi (NumPy)':34} {1000 * t_ours:10.1f} ms   (largest difference from eval7: {diff:.1e})")
    row("eval7 loop", t_ours, t_e7)
    row("treys loop", t_ours, t_tr * scale, "" if scale == 1 else f"   (timed on {len(tb):,} boards, scaled)")


def heads_up_preflop(peers: Peers, treys_boards: int) -> None:
    hands = ["AhKh", "QsQd"]
    t_ours, out = whole_process([sys.executable, "-m", "dealer_pi", "equity", *hands, "--json"])
    mine = [h["equity"] for h in json.loads(out)["hands"]]
    alone, _ = whole_process([sys.executable, "-c", "import sys; from dealer_pi.commands.equity import main; "
                              "sys.exit(main(sys.argv[1:]))", *hands, "--json"])
    t_e7, out7 = whole_process([sys.executable, "-c", EVAL7_SCRIPT, *hands])
    t_py, _ = whole_process([sys.executable, "-c", "pass"])
    boards = every_board(hands, "")
    sample = random.Random(2).sample(boards, treys_boards)
    t_tr, _ = timed(lambda: peers.treys_eval(hands, "", sample), 1)
    diff = max(abs(a - b) for a, b in zip(mine, json.loads(out7)))
    print(f"heads-up preflop: {' '.join(hands)}, {len(boards):,} boards, exact, whole process "
          f"(python -c pass: {1000 * t_py:.0f} ms)")
    print(f"  {'dealer-pi equity (command)':34} {1000 * t_ours:10.1f} ms   (largest difference from eval7: {diff:.1e})")
    print(f"  {'the equity command module alone':34} {1000 * alone:10.1f} ms   (without the CLI's other imports)")
    row("eval7 loop (script)", t_ours, t_e7, "   aim: >= 10x")
    row("eval7 loop (script), to the module", alone, t_e7)
    row("treys loop (in process)", t_ours, t_tr * len(boards) / treys_boards,
        f"   (timed on {treys_boards:,} boards, scaled)")


def nine_way_monte_carlo(peers: Peers, treys_boards: int) -> None:
    rng = random.Random(9)
    cards = rng.sample(DECK, 18)
    hands = [cards[i] + cards[i + 1] for i in range(0, 18, 2)]
    t_ours, r = timed(lambda: equity([parse_cards(h) for h in hands], exact=False, margin=0.005, seed=1), 3)
    exact = ours(hands, "", exact=True)
    worst = max(abs(h.equity - e) for h, e in zip(r.hands, exact))
    used = set(cards)
    rest = [c for c in DECK if c not in used]
    draw = random.Random(3)
    boards = [tuple(draw.sample(rest, 5)) for _ in range(r.boards)]
    t_e7, _ = timed(lambda: peers.eval7(hands, "", boards), 1)
    t_tr, _ = timed(lambda: peers.treys_eval(hands, "", boards[:treys_boards]), 1)
    print(f"9-way preflop: {' '.join(hands)}, Monte Carlo to +/- 0.5 % (95 %): {r.boards:,} boards, "
          f"standard error {100 * r.stderr:.3f} points, largest error against the exact answer {100 * worst:.3f} points")
    print(f"  {'dealer-pi (NumPy)':34} {1000 * t_ours:10.1f} ms")
    row("eval7 loop, same number of boards", t_ours, t_e7)
    row("treys loop, same number of boards", t_ours, t_tr * r.boards / min(treys_boards, r.boards),
        "" if r.boards <= treys_boards else f"   (timed on {treys_boards:,} boards, scaled)")


def every_flop(repeats: int) -> None:
    rng = random.Random(50)
    worst = (0.0, "")
    lines = []
    for players in range(2, 10):
        times = []
        for _ in range(10):
            cards = rng.sample(FULL_DECK, 2 * players + 3)
            hands = [list(cards[2 * i: 2 * i + 2]) for i in range(players)]
            board: list[Card] = list(cards[2 * players:])
            t, _ = timed(lambda: equity(hands, board), repeats)
            times.append(t)
        lines.append(f"{players}: {1000 * max(times):.1f}")
        if max(times) > worst[0]:
            worst = (max(times), f"{players} players")
    print("every flop spot, 2 to 9 players, exact (slowest of 10 random flops each, ms): " + ", ".join(lines))
    print(f"  slowest: {1000 * worst[0]:.1f} ms ({worst[1]})   aim: under 50 ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5, help="runs per in-process timing (the median is shown)")
    ap.add_argument("--treys-boards", type=int, default=20_000, help="boards treys is timed on before scaling")
    args = ap.parse_args()
    peers = Peers()
    equity([parse_cards("AhKh"), parse_cards("QsQd")], parse_cards("2c3d4h"))  # tables built once per process
    heads_up_preflop(peers, args.treys_boards)
    spot(peers, "3-way flop", ["AhKh", "QsQd", "Jc9c"], "Ts9s2h", args.repeats, args.treys_boards)
    spot(peers, "6-way flop", ["AhKh", "QsQd", "Jc9c", "8d8c", "As5s", "KdQc"], "Ts9s2h", args.repeats, args.treys_boards)
    nine_way_monte_carlo(peers, args.treys_boards)
    every_flop(args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
