"""Build ``models/region_cnn.onnx``: what an unread stretch of card-coloured pixels is.

    .venv/bin/python -m pip install -e '.[train]'        # PyTorch (CPU) and onnx, for building only
    PYTHONPATH=. python models/make_region_cnn.py [--assets ../shared/card-assets] [--scenes 6000] [--cache build/models/regions.npz]

Overhead pictures of a table are made here (960x540, cards 55 to 140 pixels
tall): felt of any colour; a board; seats with one to four cards (half of them
a pair), face up or face down, fanned and overlapping by any amount; a burn
pile; chips, chip racks and hands over everything. The faces are the
printed designs of ``card-assets`` other than the held-out one, or decks drawn
with Hershey fonts; the backs are the designs' own or patterns of any colour.
Most tables have their edge in view: a dark rail and the floor beyond it. The
real detector (the shipped reader, then
:meth:`~dealer_pi.vision.detect.Detector.unread_parts`) runs on each picture,
and every part it would turn into cards is labelled from where each card was
drawn: each card belongs to the part that holds most of what can be seen of it
(at least 30 %), and a part is "not a card" (nothing belongs to it), face up
(only face-up cards), or one, two, or three and more face-down cards.

The network (three small convolutions on the part's square colour patch and
mask, with five numbers on its size and shape against a card's) is trained
with PyTorch on the CPU and exported to ONNX; it runs with onnxruntime. The
last tenth of the scenes is held back and its confusion table printed, with
what the colour-and-shape rules say of the same parts. Same seed, same model
(deterministic kernels; the parts depend on the shipped reader, so a new reader
means new parts). About 14 min for the 6,000 scenes and 6 min of training on
this 2-core machine; the parts are kept with ``--cache``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from dealer_pi.engine.cards import FULL_DECK  # noqa: E402
from dealer_pi.vision.detect import Detector  # noqa: E402
from dealer_pi.vision.faces import render_back, render_face  # noqa: E402
from dealer_pi.vision.recogniser import Recogniser  # noqa: E402
from dealer_pi.vision.regions import KINDS, PATCH, SCALARS, part_inputs  # noqa: E402
from dealer_pi.vision.render import Placement, camera_faults, card_homography, compose, felt  # noqa: E402

import heldout_scenes  # noqa: E402
import deck_rows  # noqa: E402

OUT = HERE / "region_cnn.onnx"
SIZE = (960, 540)
FELTS = ((40, 110, 30), (120, 60, 20), (30, 30, 120), (90, 40, 90), (110, 100, 20))


def _decks(assets: str) -> tuple[list[list[np.ndarray]], list[np.ndarray]]:
    """Each training design's face pictures, and the designs' backs (their Arial text drawn as the
    shipped model's were, in DejaVu Sans: see deck_rows.RENDERINGS)."""
    faces, backs = deck_rows.training_decks(assets, "bare")
    return [[f.image for f in design] for design in faces], backs


def back(rng: np.random.Generator, backs: list[np.ndarray]) -> np.ndarray:
    """A back of any pattern, or the drawn deck's plain back with its border in any colour."""
    if rng.random() < 0.25:
        return render_back(tuple(int(v) for v in rng.integers(10, 220, 3)))  # type: ignore[arg-type]
    return heldout_scenes.random_back(rng, backs)


def table(rng: np.random.Generator, decks: list[list[np.ndarray]], backs: list[np.ndarray]):
    """A picture of a table, who is on top at each pixel (-1 cloth, -2 chips or a hand), the
    placements, and the cards' height in pixels."""
    from make_index_model import random_style

    w, h = SIZE
    card_h = float(rng.uniform(55, 140))
    colour = np.clip(np.array(FELTS[int(rng.integers(len(FELTS)))]) + rng.integers(-25, 25, 3), 0, 255)
    if rng.random() < 0.75:
        faces = decks[int(rng.integers(len(decks)))]
        face_of = lambda i: faces[i]  # noqa: E731
    else:
        style = random_style(rng)
        face_of = lambda i: render_face(FULL_DECK[i], style)[0]  # noqa: E731
    scene_backs = [back(rng, backs) for _ in range(1 if rng.random() < 0.8 else 2)]
    deck = list(rng.permutation(52))
    placements: list[Placement] = []

    def put(up: bool, centre: tuple[float, float], angle: float) -> None:
        image = face_of(int(deck.pop())) if up else scene_backs[int(rng.integers(len(scene_backs)))]
        hm = card_homography(centre, angle, card_h, (image.shape[1], image.shape[0]), tilt=float(rng.normal(0, 0.03)))
        placements.append(Placement(image, hm, None, up))

    cx, cy = w / 2 + rng.normal(0, 20), h / 2 + rng.normal(0, 20)
    ex, ey = float(rng.uniform(0.42, 0.52)), float(rng.uniform(0.4, 0.52))  # the table's half-axes
    n_board = int(rng.integers(0, 6))
    tilt = float(rng.normal(0, 8))
    for k in range(n_board):
        gap = card_h * rng.uniform(0.74, 0.95)
        put(True, (cx + (k - (n_board - 1) / 2) * gap, cy), tilt + float(rng.normal(0, 3)))
    ax, ay = w * (ex - rng.uniform(0.06, 0.1)), h * (ey - rng.uniform(0.08, 0.14))
    for s in range(int(rng.integers(2, 7))):
        a = 2 * math.pi * (s + rng.uniform(0.3, 0.7)) / 6
        sx, sy = cx + ax * math.cos(a), cy + ay * math.sin(a)
        base = math.degrees(math.atan2(cy - sy, cx - sx)) - 90 + float(rng.normal(0, 10))
        down = rng.random() < 0.6
        kind = rng.random()
        # Singles and third cards are rarer than pairs at a table, but they are the faults to catch.
        n = 1 if kind < 0.25 else 3 if kind < 0.4 else 4 if kind < 0.5 else 2
        spread = float(rng.uniform(0.03, 0.45)) * card_h
        turn = float(rng.uniform(0, 25))
        for k in range(n):
            off = (k - (n - 1) / 2) * spread
            r = math.radians(base)
            jitter = rng.normal(0, card_h * (0.15 if n > 2 else 0.02), 2)
            put(not down, (sx + off * math.cos(r) + jitter[0], sy + off * math.sin(r) + jitter[1]), base + 180 + (k - (n - 1) / 2) * turn + float(rng.normal(0, 4 if n < 3 else 40)))
    burns = int(rng.integers(0, 4))
    bx, by = cx - card_h * rng.uniform(2.2, 3.2), cy - card_h * rng.uniform(0.6, 1.2)
    for _ in range(burns):
        put(False, (bx + rng.normal(0, card_h * 0.08), by + rng.normal(0, card_h * 0.08)), float(rng.normal(0, 12)))
    cloth = felt(w, h, rng, tuple(int(v) for v in colour))  # type: ignore[arg-type]
    if rng.random() < 0.6:  # the table's edge in view: a dark rail, and the floor beyond it
        inside = cv2.ellipse(np.zeros((h, w), np.uint8), (int(cx), int(cy)), (int(w * ex), int(h * ey)), 0, 0, 360, 255, -1)
        cloth = np.where(inside[..., None] > 0, cloth, heldout_scenes.background(rng, w, h))
        rail = tuple(int(v) for v in rng.integers(10, 70, 3))
        cv2.ellipse(cloth, (int(cx), int(cy)), (int(w * ex), int(h * ey)), 0, 0, 360, rail, max(3, int(card_h * rng.uniform(0.12, 0.4))))
    scene = compose(cloth, placements)
    frame, top = scene.frame, scene.top
    assert top is not None
    for _ in range(int(rng.integers(0, 5))):
        c = (float(rng.uniform(0.1, 0.9) * w), float(rng.uniform(0.1, 0.9) * h))
        frame, mask = heldout_scenes.draw_chips(frame, rng, c, card_h * rng.uniform(0.12, 0.2))
        top[mask > 0] = -2
    if rng.random() < 0.35:  # a hand reaching in, over whatever is there
        c = (int(rng.uniform(0.1, 0.9) * w), int(rng.uniform(0.1, 0.9) * h))
        axes = (int(card_h * rng.uniform(0.4, 0.9)), int(card_h * rng.uniform(0.25, 0.45)))
        skin = (int(rng.integers(60, 140)), int(rng.integers(90, 170)), int(rng.integers(140, 230)))
        hand = cv2.ellipse(np.zeros((h, w), np.uint8), c, axes, float(rng.uniform(0, 180)), 0, 360, 255, -1)
        frame[hand > 0] = skin
        top[hand > 0] = -2
    return camera_faults(frame, rng, float(rng.uniform(0.2, 0.8))), top, placements, card_h


def label(owner: np.ndarray, placements: list[Placement], index: int) -> int:
    """Part ``index``'s class from the cards that belong to it (see the module's notes)."""
    mine = np.flatnonzero(owner == index)
    down = sum(1 for j in mine if not placements[j].face_up)
    if down >= 3:
        return 4
    if down:
        return 1 + down
    return 1 if len(mine) else 0


def scene_rows(rng: np.random.Generator, decks, backs, recogniser: Recogniser):
    frame, top, placements, card_h = table(rng, decks, backs)
    # As the live camera (a card height from the config, or none) and as a still (the table's colour
    # from the picture's middle) see it.
    det = Detector(recogniser, card_height_px=card_h * float(rng.uniform(0.9, 1.1)) if rng.random() < 0.6 else 0.0,
                   table_in_middle=bool(rng.random() < 0.5), regions=None)
    _, parts = det.survey(frame)
    if not parts:
        return [], [], []
    n = len(placements)
    visible = np.bincount(top[top >= 0].ravel(), minlength=n)
    # Each card belongs to the part holding most of what is seen of it, if that is 30 % or more.
    inside = np.zeros((len(parts), n), np.int64)
    for i, p in enumerate(parts):
        t = top[p.y : p.y + p.mask.shape[0], p.x : p.x + p.mask.shape[1]][p.mask > 0]
        inside[i] = np.bincount(t[t >= 0], minlength=n)
    best = inside.argmax(axis=0)
    owner = np.where(inside.max(axis=0) >= 0.3 * np.maximum(visible, 1), best, -1)
    owner[visible == 0] = -1
    xs, ss, ys = [], [], []
    for i, p in enumerate(parts):
        patch, scalars = part_inputs(frame, p)
        xs.append((patch * 255).round().astype(np.uint8))
        ss.append(scalars)
        ys.append(label(owner, placements, i))
    return xs, ss, ys


def _chunk(args: tuple[int, int, int, str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    seed, chunk, n, assets = args
    cv2.setNumThreads(1)
    decks, backs = _decks(assets)
    rng = np.random.default_rng([seed, chunk])
    recogniser = Recogniser()
    xs, ss, ys, scene = [], [], [], []
    for k in range(n):
        x, s, y = scene_rows(rng, decks, backs, recogniser)
        xs += x
        ss += s
        ys += y
        scene += [chunk * 1000 + k] * len(y)
    if not ys:
        return np.zeros((0, 4, PATCH, PATCH), np.uint8), np.zeros((0, SCALARS), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.stack(xs), np.stack(ss), np.array(ys, np.int64), np.array(scene, np.int64)


def dataset(assets: Path, scenes: int, seed: int, workers: int = 2):
    _decks(str(assets))
    jobs = [(seed, c, min(50, scenes - c * 50), str(assets)) for c in range((scenes + 49) // 50)]
    # Spawned, not forked: a worker forked from a process that has used OpenCV can hang in its thread pool.
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(_chunk, jobs)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


def by_rules(scalars: np.ndarray) -> np.ndarray:
    """The class the colour-and-shape rules give parts (``Detector(regions=None)``): face up on white
    stock, else face-down cards by area; never "not a card"."""
    cards = np.maximum(1, (np.exp(scalars[:, 0]) + 0.75).astype(int))
    return np.where(scalars[:, 2] > 0.4, 1, np.minimum(cards, 3) + 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--assets", type=Path, default=HERE.parent.parent / "shared" / "card-assets")
    ap.add_argument("--scenes", type=int, default=6000)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    t0 = time.time()
    if args.cache and args.cache.exists():
        with np.load(args.cache) as z:
            x, s, y, scene = z["x"], z["s"], z["y"], z["scene"]
    else:
        x, s, y, scene = dataset(args.assets, args.scenes, args.seed)
        if args.cache:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            np.savez(args.cache, x=x, s=s, y=y, scene=scene)
    print(f"{len(y)} parts from {args.scenes} scenes in {time.time() - t0:.0f}s; classes {np.bincount(y, minlength=len(KINDS)).tolist()}", flush=True)
    train(x, s, y, scene, args, t0)
    return 0


def train(x: np.ndarray, s: np.ndarray, y: np.ndarray, scene: np.ndarray, args, t0: float) -> None:  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    cut = np.quantile(scene, 0.9)
    tr, va = scene < cut, scene >= cut  # the last tenth of the scenes, whole, held back
    mean, scale = s[tr].mean(0), s[tr].std(0) + 1e-3

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("mean", torch.from_numpy(mean.astype(np.float32)))
            self.register_buffer("scale", torch.from_numpy(scale.astype(np.float32)))
            self.conv = nn.Sequential(
                nn.Conv2d(4, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # 24
                nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # 12
                nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # 6
                nn.Flatten(),
            )
            self.fc1 = nn.Linear(32 * 6 * 6 + SCALARS, 64)
            self.fc2 = nn.Linear(64, len(KINDS))
            self.drop = nn.Dropout(0.2)

        def forward(self, patches: torch.Tensor, scalars: torch.Tensor) -> torch.Tensor:
            z = torch.cat([self.conv(patches), (scalars - self.mean) / self.scale], 1)
            return self.fc2(self.drop(torch.relu(self.fc1(z))))

    net = Net()
    X = torch.from_numpy(x[tr])
    S, Y = torch.from_numpy(s[tr]), torch.from_numpy(y[tr])
    gen = torch.Generator().manual_seed(args.seed)
    batch = 128
    steps = args.epochs * ((len(Y) + batch - 1) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    # Classes weighted by 1/sqrt(frequency): the rarer counts (one card, three) matter as much.
    freq = np.bincount(y[tr], minlength=len(KINDS)).astype(np.float32) + 1
    loss_fn = nn.CrossEntropyLoss(weight=torch.from_numpy((freq.mean() / freq) ** 0.5), label_smoothing=0.02)
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(Y), generator=gen)
        total = 0.0
        for b in range(0, len(order), batch):
            idx = order[b : b + batch]
            p = X[idx].float() / 255.0
            # A card lies at any angle: quarter turns and mirror images are the same part.
            p = torch.rot90(p, int(torch.randint(0, 4, (1,), generator=gen)), dims=(2, 3))
            if bool(torch.randint(0, 2, (1,), generator=gen)):
                p = torch.flip(p, dims=(3,))
            light = 1 + 0.15 * torch.randn(len(idx), 1, 1, 1, generator=gen)
            p = torch.cat([(p[:, :3] * light).clamp(0, 1), p[:, 3:]], 1)
            loss = loss_fn(net(p, S[idx]), Y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"epoch {epoch + 1}/{args.epochs} loss {total / len(Y):.4f} ({time.time() - t0:.0f}s)", flush=True)
    net.eval()
    with torch.no_grad():
        pred = net(torch.from_numpy(x[va]).float() / 255.0, torch.from_numpy(s[va])).argmax(1).numpy()
    yv = y[va]
    names = ("not a card", "face up", "1 down", "2 down", "3+ down")
    print(f"held-back parts ({int(va.sum())}, {len(np.unique(scene[va]))} scenes): right {float((pred == yv).mean()):.4f}, "
          f"the colour-and-shape rules {float((by_rules(s[va]) == yv).mean()):.4f}")
    print("confusion (rows: truth, columns: said): " + ", ".join(names))
    for k, name in enumerate(names):
        print(f"  {name:>10}: " + " ".join(f"{int(((yv == k) & (pred == j)).sum()):5d}" for j in range(len(names))))
    torch.onnx.export(
        net,
        (torch.zeros(1, 4, PATCH, PATCH), torch.zeros(1, SCALARS)),
        str(args.out),
        input_names=["patches", "scalars"],
        output_names=["logits"],
        dynamic_axes={"patches": {0: "n"}, "scalars": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    raise SystemExit(main())
