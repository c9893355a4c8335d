"""Build ``models/index_cnn.onnx`` and ``models/index_cnn.npz``: the convolutional corner-index reader.

    .venv/bin/python -m pip install -e '.[train]'        # PyTorch (CPU) and onnx, for building only
    PYTHONPATH=. python models/make_index_cnn.py [--cache build/models/synth.npz] [--epochs 14] [--seed 5]

It learns from glyph pairs cut by the real index finder from three sources:
pictures of decks drawn with Hershey fonts (made here, as for the two-layer
reader, ``make_index_model.py``), the shipped rows of the printed SVG deck
designs other than the held-out one (``deck_rows.npz``, made by
``deck_rows.py``), and the shipped rows of the even-numbered real photos
(``photo_rows.npz``). Each glyph (rank above, suit below, turned upright,
20x20) goes through its own small convolutional branch; the ONNX file holds
the two branches and gives one embedding per glyph. The heads on top (rank:
13 ranks or "not a rank"; suit: 4 suits or "not a suit") are one hidden layer
each on [embedding, geometry], saved in the npz in the same form as the
two-layer reader's networks, so a venue's enrolment fine-tunes them in numpy
on the Pi. Run time needs only OpenCV's ``cv2.dnn`` and numpy; PyTorch is
used here only.

The last tenth of the photo rows (the last photos in name order) and of the
deck rows (the last scenes), and a tenth of the drawn samples are held back: the heads' temperature is fitted on
them, and the reliability table printed at the end comes from them.
Same seed, same data, same weights (one thread, deterministic kernels).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch
from torch import nn

from dealer_pi.vision.glyphs import FEATURES, GEOM, GRID
from dealer_pi.vision.recogniser import RANKS, SUITS, rank_suit_labels

HERE = Path(__file__).resolve().parent
OUT = HERE / "index_cnn.npz"
ONNX_OUT = HERE / "index_cnn.onnx"
EMBED = 288  # per glyph: 32 channels on a 3x3 grid


class Branch(nn.Module):
    """One glyph (1x20x20) to EMBED numbers."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 12, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 10x10
            nn.Conv2d(12, 24, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 5x5
            nn.Conv2d(24, 32, 3),  # 3x3
            nn.ReLU(),
            nn.Flatten(),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class Trunk(nn.Module):
    """Rank glyphs (Nx1x20x20) and suit glyphs (Mx1x20x20) to one embedding each: what the ONNX file
    holds. Two inputs with their own batch sizes, so the reader can send to the suit branch only the
    pairs whose rank could still make a read (and an empty batch to the other)."""

    def __init__(self) -> None:
        super().__init__()
        self.rank = Branch()
        self.suit = Branch()

    def forward(self, rank_glyphs: torch.Tensor, suit_glyphs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.rank(rank_glyphs), self.suit(suit_glyphs)


class Head(nn.Module):
    """[embedding, geometry], standardised, then one hidden layer: the numpy ``Mlp`` of the reader."""

    def __init__(self, mean: np.ndarray, scale: np.ndarray, hidden: int, classes: int) -> None:
        super().__init__()
        self.register_buffer("mean", torch.from_numpy(mean))
        self.register_buffer("scale", torch.from_numpy(scale))
        self.fc1 = nn.Linear(len(mean), hidden)
        self.fc2 = nn.Linear(hidden, classes)
        self.drop = nn.Dropout(0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.drop(torch.relu(self.fc1((x - self.mean) / self.scale))))


def split(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows to (Nx2x20x20 glyphs, Nx6 geometry)."""
    g = rows[:, : 2 * GRID * GRID].reshape(-1, 2, GRID, GRID)
    return np.ascontiguousarray(g, np.float32), np.ascontiguousarray(rows[:, FEATURES - GEOM :], np.float32)


def jitter(g: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Shift each glyph by up to one cell, thin or thicken its strokes a little, add noise."""
    n = len(g)
    dx = torch.randint(-1, 2, (n,), generator=gen)
    dy = torch.randint(-1, 2, (n,), generator=gen)
    out = torch.empty_like(g)
    for sx in (-1, 0, 1):
        for sy in (-1, 0, 1):
            m = (dx == sx) & (dy == sy)
            if m.any():
                out[m] = torch.roll(g[m], shifts=(sy, sx), dims=(2, 3))
    gamma = torch.exp(torch.randn(n, 1, 1, 1, generator=gen) * 0.3)
    out = out.clamp(0, 1) ** gamma
    return out + torch.randn(out.shape, generator=gen) * 0.05


def main() -> int:
    from make_index_model import PHOTO_REPEAT, load_rows, make_dataset, share

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, help="generated samples (made and kept here when missing)")
    ap.add_argument("--scenes", type=int, default=7000)
    ap.add_argument("--photo-rows", type=Path, default=HERE / "photo_rows.npz")
    ap.add_argument("--deck-rows", type=Path, default=HERE / "deck_rows.npz", help="rows of the printed designs ('none': leave them out)")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--hidden", type=int, default=192)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--tall-suits", type=share, default=0.0,
                    help="share of drawn decks whose index suit is 1.0-1.35 times the rank's height (default 0: none)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--onnx", type=Path, default=ONNX_OUT)
    args = ap.parse_args()
    t0 = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)

    if args.cache and args.cache.exists():
        with np.load(args.cache) as z:
            sx, sy = z["x"], z["y"]
    else:
        sx, sy = make_dataset(args.scenes, args.seed, tall_suits=args.tall_suits)
        if args.cache:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            np.savez(args.cache, x=sx, y=sy)
    px, py = load_rows(args.photo_rows)
    dx, dy = load_rows(args.deck_rows) if str(args.deck_rows) != "none" else (sx[:0], sy[:0])
    rng = np.random.default_rng(args.seed + 1)
    s_order = rng.permutation(len(sy))
    s_val, s_tr = s_order[: len(sy) // 10], s_order[len(sy) // 10 :]
    p_cut = len(py) - len(py) // 10  # the last photos' rows, whole photos held back
    d_cut = len(dy) - len(dy) // 10  # the last scenes' rows
    x_tr = np.vstack([sx[s_tr], dx[:d_cut]] + [px[:p_cut]] * PHOTO_REPEAT)
    y_tr = np.concatenate([sy[s_tr], dy[:d_cut]] + [py[:p_cut]] * PHOTO_REPEAT)
    x_val = np.vstack([sx[s_val], dx[d_cut:], px[p_cut:]])
    y_val = np.concatenate([sy[s_val], dy[d_cut:], py[p_cut:]])
    print(f"{len(y_tr)} training rows, {len(y_val)} held back ({len(dy) - d_cut} from printed decks, {len(py) - p_cut} from photos)", flush=True)

    g_tr, geo_tr = split(x_tr)
    yr_tr, ys_tr = rank_suit_labels(y_tr)
    trunk = Trunk()
    with torch.no_grad():
        e_r, e_s = trunk(torch.from_numpy(g_tr[:2, 0:1]), torch.from_numpy(g_tr[:2, 1:2]))
    geo_mean, geo_scale = geo_tr.mean(0), geo_tr.std(0) + 0.05
    def head_norm(dim: int) -> tuple[np.ndarray, np.ndarray]:
        return np.concatenate([np.zeros(dim, np.float32), geo_mean]).astype(np.float32), np.concatenate([np.ones(dim, np.float32), geo_scale]).astype(np.float32)
    rank_head = Head(*head_norm(e_r.shape[1]), args.hidden, RANKS + 1)
    suit_head = Head(*head_norm(e_s.shape[1]), args.hidden, SUITS + 1)
    params = list(trunk.parameters()) + list(rank_head.parameters()) + list(suit_head.parameters())
    opt = torch.optim.AdamW(params, lr=2e-3, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(args.seed)
    G, GEO = torch.from_numpy(g_tr), torch.from_numpy(geo_tr)
    YR, YS = torch.from_numpy(yr_tr), torch.from_numpy(ys_tr)
    batch = 256
    steps = args.epochs * ((len(y_tr) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.02)
    for epoch in range(args.epochs):
        for m in (trunk, rank_head, suit_head):
            m.train()
        order = torch.randperm(len(y_tr), generator=gen)
        total = 0.0
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            g = jitter(G[idx], gen)
            er, es = trunk(g[:, 0:1], g[:, 1:2])
            geo = GEO[idx]
            loss = loss_fn(rank_head(torch.cat([er, geo], 1)), YR[idx]) + loss_fn(suit_head(torch.cat([es, geo], 1)), YS[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"epoch {epoch + 1}/{args.epochs} loss {total / len(y_tr):.4f} ({time.time() - t0:.0f}s)", flush=True)

    for m in (trunk, rank_head, suit_head):
        m.eval()
    g_val, geo_val = split(x_val)
    yr_val, ys_val = rank_suit_labels(y_val)
    with torch.no_grad():
        gv = torch.from_numpy(g_val)
        er, es = trunk(gv[:, 0:1], gv[:, 1:2])
        zr = rank_head(torch.cat([er, torch.from_numpy(geo_val)], 1))
        zs = suit_head(torch.cat([es, torch.from_numpy(geo_val)], 1))
    tr_, ts_ = temperature(zr, torch.from_numpy(yr_val)), temperature(zs, torch.from_numpy(ys_val))
    print(f"temperature: rank {tr_:.3f}, suit {ts_:.3f}")
    pr = torch.softmax(zr / tr_, 1).numpy()
    ps = torch.softmax(zs / ts_, 1).numpy()
    print(f"held-back pairs: rank {float((pr.argmax(1) == yr_val).mean()):.4f}, suit {float((ps.argmax(1) == ys_val).mean()):.4f}")
    start = 0
    for name, n in (("drawn", len(s_val)), ("printed decks", len(dy) - d_cut), ("photos", len(py) - p_cut)):
        part = slice(start, start + n)
        start += n
        if n:
            print(f"  {name} ({n}): rank {float((pr[part].argmax(1) == yr_val[part]).mean()):.4f}, suit {float((ps[part].argmax(1) == ys_val[part]).mean()):.4f}")
    reliability(pr, ps, y_val)

    # The ONNX file: both branches, fixed 1x20x20 glyphs, any batch on each.
    buf = io.BytesIO()
    torch.onnx.export(
        trunk,
        (torch.zeros(1, 1, GRID, GRID), torch.zeros(1, 1, GRID, GRID)),
        buf,
        input_names=["rank_glyphs", "suit_glyphs"],
        output_names=["rank_embedding", "suit_embedding"],
        dynamic_axes={"rank_glyphs": {0: "n"}, "suit_glyphs": {0: "m"}, "rank_embedding": {0: "n"}, "suit_embedding": {0: "m"}},
        opset_version=17,
        dynamo=False,  # the TorchScript exporter needs no onnxscript
    )
    onnx_bytes = buf.getvalue()
    args.onnx.write_bytes(onnx_bytes)
    arrays: dict[str, np.ndarray] = {
        "trunk_file": np.array(args.onnx.name),
        "trunk_sha256": np.array(hashlib.sha256(onnx_bytes).hexdigest()),
    }
    for prefix, head, t in (("rank_", rank_head, tr_), ("suit_", suit_head, ts_)):
        # The temperature goes into the last layer, so the numpy head gives calibrated probabilities.
        arrays.update(
            {
                f"{prefix}w1": head.fc1.weight.detach().numpy().T.astype(np.float16),
                f"{prefix}b1": head.fc1.bias.detach().numpy().astype(np.float32),
                f"{prefix}w2": (head.fc2.weight.detach().numpy().T / t).astype(np.float16),
                f"{prefix}b2": (head.fc2.bias.detach().numpy() / t).astype(np.float32),
                f"{prefix}mean": head.mean.numpy().astype(np.float32),
                f"{prefix}scale": head.scale.numpy().astype(np.float32),
            }
        )
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.onnx} ({len(onnx_bytes) // 1024} KiB) and {args.out} ({args.out.stat().st_size // 1024} KiB) in {time.time() - t0:.0f}s")
    return 0


def temperature(logits: torch.Tensor, y: torch.Tensor) -> float:
    """The one number that divides the logits to make held-back probabilities honest (least log loss)."""
    best, best_t = float("inf"), 1.0
    for t in np.exp(np.linspace(np.log(0.5), np.log(4.0), 61)):
        loss = float(nn.functional.cross_entropy(logits / float(t), y))
        if loss < best:
            best, best_t = loss, float(t)
    return best_t


def reliability(pr: np.ndarray, ps: np.ndarray, y: np.ndarray) -> None:
    """Held-back index pairs by read confidence (P(rank) x P(suit)): how often the read is right."""
    yr, ys = rank_suit_labels(y)
    idx = y != 52
    r, s = pr[:, :RANKS].argmax(1), ps[:, :SUITS].argmax(1)
    conf = pr[np.arange(len(y)), r] * ps[np.arange(len(y)), s]
    right = idx & (r == yr) & (s == ys)
    print("reliability (read confidence band: pairs, share right; non-index pairs count as wrong)")
    for lo, hi in ((0.3, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01)):
        m = (conf >= lo) & (conf < hi)
        if m.any():
            print(f"  {lo:.2f}-{min(hi, 1.0):.2f}: {int(m.sum()):6d} pairs, mean confidence {float(conf[m].mean()):.3f}, right {float(right[m].mean()):.3f}")


if __name__ == "__main__":
    raise SystemExit(main())
