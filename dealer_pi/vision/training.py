"""Training the index networks: from scratch (``models/make_index_model.py``) or
fine-tuning the shipped ones on a venue's enrolled deck (:mod:`.enrol`).

Plain numpy (Adam, softmax cross-entropy), seeded, so the same data gives the
same weights on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .recogniser import RANKS, SUITS, IndexModel, Mlp, rank_part, rank_suit_labels, suit_part


def train(
    x: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    rng: np.random.Generator,
    hidden: int = 96,
    epochs: int = 30,
    start: Mlp | None = None,
    lr: float = 2e-3,
    log: Callable[[str], None] | None = None,
) -> Mlp:
    """Fit a one-hidden-layer network; with ``start``, fine-tune it (its input scaling is kept).

    Fine-tuning pulls the weights back towards ``start`` (weight decay towards
    the start, not towards zero), so a few enrolled cards adapt the network
    without making it forget everything else it learnt.
    """
    if start is None:
        mean = x.mean(axis=0).astype(np.float32)
        scale = (x.std(axis=0) + 0.05).astype(np.float32)
        w1 = rng.normal(0, math.sqrt(2 / x.shape[1]), (x.shape[1], hidden)).astype(np.float32)
        b1 = np.zeros(hidden, np.float32)
        w2 = rng.normal(0, math.sqrt(1 / hidden), (hidden, n_classes)).astype(np.float32)
        b2 = np.zeros(n_classes, np.float32)
        anchor = [np.zeros_like(w1), np.zeros_like(b1), np.zeros_like(w2), np.zeros_like(b2)]
        decays = [1e-4, 0.0, 1e-4, 0.0]  # plain weight decay, biases left free
    else:
        mean, scale = start.mean, start.scale
        w1, b1, w2, b2 = (a.astype(np.float32).copy() for a in (start.w1, start.b1, start.w2, start.b2))
        anchor = [w1.copy(), b1.copy(), w2.copy(), b2.copy()]
        decays = [1e-2] * 4
    xn = ((x - mean) / scale).astype(np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    batch = 256
    for epoch in range(epochs):
        rate = lr * (0.5 * (1 + math.cos(math.pi * epoch / epochs)))
        order = rng.permutation(len(xn))
        loss_sum = 0.0
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            xb = xn[idx] + rng.normal(0, 0.1, (len(idx), xn.shape[1])).astype(np.float32)
            yb = y[idx]
            h = np.maximum(0, xb @ w1 + b1)
            z = h @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            loss_sum += float(-np.log(p[np.arange(len(idx)), yb] + 1e-9).sum())
            g = p
            g[np.arange(len(idx)), yb] -= 1
            g /= len(idx)
            gh = (g @ w2.T) * (h > 0)
            grads = [xb.T @ gh, gh.sum(axis=0), h.T @ g, g.sum(axis=0)]
            step += 1
            for p_, g_, a_, d_, m_, v_ in zip(params, grads, anchor, decays, m, v):
                if d_:
                    g_ = g_ + d_ * (p_ - a_)
                m_ *= 0.9
                m_ += 0.1 * g_
                v_ *= 0.999
                v_ += 0.001 * g_ * g_
                p_ -= rate * (m_ / (1 - 0.9**step)) / (np.sqrt(v_ / (1 - 0.999**step)) + 1e-8)
        if log is not None:
            log(f"epoch {epoch + 1}/{epochs} loss {loss_sum / len(order):.4f}")
    return Mlp(w1, b1, w2, b2, mean, scale)


def fit_index_model(
    x: np.ndarray,
    y: np.ndarray,
    rng: np.random.Generator,
    hidden: int = 96,
    epochs: int = 30,
    start: IndexModel | None = None,
    lr: float = 2e-3,
    log: Callable[[str], None] | None = None,
) -> IndexModel:
    """Both heads from feature rows and card labels (``Card.index`` or ``NOT_INDEX``): rank first, then suit.

    From scratch, the heads look at the glyph cells (the two-layer reader); from
    a ``start`` with convolutional branches, they look at its embeddings, and
    the branches stay as they are.
    """
    yr, ys = rank_suit_labels(y)
    rank_x, suit_x = start.parts(x) if start is not None else (rank_part(x), suit_part(x))
    nets = []
    for name, inputs, labels, n, begin in (
        ("rank", rank_x, yr, RANKS + 1, start.rank if start else None),
        ("suit", suit_x, ys, SUITS + 1, start.suit if start else None),
    ):
        if log is not None:
            log(f"{name} network")
        nets.append(train(inputs, labels, n, rng, hidden=hidden, epochs=epochs, start=begin, lr=lr, log=log))
    return IndexModel(nets[0], nets[1], start.trunk if start is not None else None)
