"""Hand replay speed: dealer-pi's rules engine against PokerKit, on the same real hands.

The Texas Hold'em hands of ``../shared/datasets/phh/`` (the WSOP 2023 final-table
hands and Dwan-Ivey; the Omaha, short-deck and triple-draw files are not
Hold'em) are repeated to at least ``--hands`` hands and replayed to their end:

* replay: from an already-read hand history to the final stacks
  (dealer-pi: ``replay_history``; PokerKit: iterating ``HandHistory`` states);
* from text: reading the PHH text as well (dealer-pi: ``parse_phh``;
  PokerKit: ``HandHistory.loads``).

Both engines' final stacks are checked against each other before timing.
Prints hands per second for each (best round), the ratio (dealer-pi / PokerKit)
and the median of the per-round ratios; the two alternate within each round.
Time is this process's CPU time (``time.process_time``; ``--wall`` for elapsed
time): both engines are single-threaded, so on an idle machine the two agree,
and on a shared one CPU time does not charge other programs' turns to
whichever engine happened to be running.
Run: ``python benchmarks/engine_replay.py [--hands N] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import warnings
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pokerkit import HandHistory as PokerKitHistory  # noqa: E402

from dealer_pi.engine.errors import InputError  # noqa: E402
from dealer_pi.engine.phh import HandHistory, parse_phh  # noqa: E402
from dealer_pi.engine.phh_replay import replay_history  # noqa: E402


def holdem_texts(folder: Path) -> list[str]:
    texts = []
    for path in sorted(folder.glob("*.phh")):
        text = path.read_text(encoding="utf-8")
        try:
            parse_phh(text)
        except InputError:
            continue  # not Texas Hold'em
        texts.append(text)
    return texts


def pokerkit_final(history: PokerKitHistory) -> list[int]:
    state = None
    for state in history:
        pass
    assert state is not None
    return [int(s) for s in state.stacks]


def dealer_pi_final(history: HandHistory) -> list[int]:
    r = replay_history(history)
    assert not r.error and r.final_stacks is not None, r.error
    return list(r.final_stacks)


def paired_rates(
    mine: Callable[[], None], peer: Callable[[], None], hands: int, rounds: int,
    clock: Callable[[], float] = time.process_time,
) -> tuple[float, float, float]:
    """Best hands/s of each, and the median of the per-round ratios.

    The two runs alternate within each round, so a busy machine slows both alike;
    the fastest round of each is the least disturbed one.
    """
    times: list[tuple[float, float]] = []
    for _ in range(rounds):
        pair = []
        for run in (mine, peer):
            gc.collect()
            start = clock()
            run()
            pair.append(clock() - start)
        times.append((pair[0], pair[1]))
    ratios = sorted(b / a for a, b in times)
    return hands / min(a for a, _ in times), hands / min(b for _, b in times), ratios[len(ratios) // 2]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="replay at least this many hands (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per measurement (default 5)")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="the shared data folder")
    parser.add_argument("--wall", action="store_true", help="time elapsed (wall-clock) time, not CPU time")
    args = parser.parse_args(argv)

    texts = holdem_texts(args.shared / "datasets" / "phh")
    if not texts:
        print("no Texas Hold'em PHH hands found", file=sys.stderr)
        return 1
    repeat = -(-args.hands // len(texts))
    batch = texts * repeat
    n = len(batch)

    warnings.simplefilter("ignore")  # PokerKit warns about unusual but legal situations
    ours = [parse_phh(t) for t in batch]
    theirs = [PokerKitHistory.loads(t) for t in batch]
    for t, a, b in zip(texts, ours, theirs):
        if dealer_pi_final(a) != pokerkit_final(b):
            print(f"the engines disagree on a hand:\n{t}", file=sys.stderr)
            return 1

    def ours_replay() -> None:
        for h in ours:
            replay_history(h)

    def theirs_replay() -> None:
        for h in theirs:
            for _ in h:
                pass

    def ours_text() -> None:
        for t in batch:
            replay_history(parse_phh(t))

    def theirs_text() -> None:
        for t in batch:
            for _ in PokerKitHistory.loads(t):
                pass

    clock = time.perf_counter if args.wall else time.process_time
    print(f"{n} hands ({len(texts)} Texas Hold'em hands x {repeat}), {args.rounds} alternating rounds, "
          f"{'wall-clock' if args.wall else 'CPU'} time, Python {sys.version.split()[0]}")
    print(f"{'measure':<12} {'dealer-pi hands/s':>18} {'PokerKit hands/s':>17} {'ratio':>8} {'median ratio':>13}")
    for label, mine, peer in (("replay", ours_replay, theirs_replay), ("from text", ours_text, theirs_text)):
        a, b, median = paired_rates(mine, peer, n, args.rounds, clock)
        print(f"{label:<12} {a:>18,.0f} {b:>17,.0f} {a / b:>7.1f}x {median:>12.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
