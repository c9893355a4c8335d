"""The reader's held-back pairs by source, for any reader: what ``make_index_cnn.py`` held back.

    PYTHONPATH=. python models/heldback.py [--model models/index_cnn.npz ...] [--cache build/models/synth.npz]

The same split as the builder: a tenth of the drawn samples (its seed), and the last tenth of
the printed decks' rows and of the photo rows. For each source: rank and suit right (including
"not an index"), and the index pairs named at the camera's bar (0.9), right and wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from dealer_pi.vision.recogniser import DEFAULT_MODEL, NOT_INDEX, RANKS, SUITS, IndexModel, rank_suit_labels  # noqa: E402
from make_index_model import load_rows  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, action="append", help="a reader (repeat to compare; default the shipped one)")
    ap.add_argument("--cache", type=Path, default=HERE.parent / "build" / "models" / "synth.npz", help="the drawn samples the builder made")
    ap.add_argument("--seed", type=int, default=5, help="the builder's seed")
    ap.add_argument("--bar", type=float, default=0.9)
    args = ap.parse_args()
    sets = {}
    if args.cache.exists():
        with np.load(args.cache) as z:
            sx, sy = z["x"], z["y"]
        held = np.random.default_rng(args.seed + 1).permutation(len(sy))[: len(sy) // 10]
        sets["drawn"] = (sx[held], sy[held])
    for name, path in (("printed decks", HERE / "deck_rows.npz"), ("photos", HERE / "photo_rows.npz")):
        x, y = load_rows(path)
        cut = len(y) - len(y) // 10
        sets[name] = (x[cut:], y[cut:])
    for path in args.model or [DEFAULT_MODEL]:
        model = IndexModel.load(path)
        print(path)
        for name, (x, y) in sets.items():
            pr, ps = model.probs(x)
            yr, ys = rank_suit_labels(y)
            r, s = pr.argmax(1), ps.argmax(1)
            conf = pr[np.arange(len(y)), r] * ps[np.arange(len(y)), s]
            named = (conf >= args.bar) & (r < RANKS) & (s < SUITS)
            right = named & (r == yr) & (s == ys)
            print(f"  {name} ({len(y)} pairs, {int((y != NOT_INDEX).sum())} indices): rank {float((r == yr).mean()):.3f}, "
                  f"suit {float((s == ys).mean()):.3f}; named at {args.bar}: {int(right.sum())} right, {int(named.sum() - right.sum())} wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
