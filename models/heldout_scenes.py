"""What lies on and around the tables of the held-out evaluation (``eval_heldout.py``):
floors and table tops, card backs of any pattern, chips and chip racks."""

from __future__ import annotations

import math

import cv2
import numpy as np

from dealer_pi.vision.faces import FONTS, render_back


def random_back(rng: np.random.Generator, svg_backs: list[np.ndarray]) -> np.ndarray:
    """A card back: a design's own, or a pattern of any colour (lattice, dots, stripes, checks, swirls)."""
    if svg_backs and rng.random() < 0.3:
        return svg_backs[int(rng.integers(len(svg_backs)))]
    if rng.random() < 0.2:
        return render_back(tuple(int(v) for v in rng.integers(10, 220, 3)))  # type: ignore[arg-type]
    h, w = 352, 252
    base = rng.integers(0, 230, 3)
    other = np.clip(base + rng.choice([-1, 1]) * rng.integers(50, 160, 3), 0, 255)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    kind = int(rng.integers(5))
    step = int(rng.integers(6, 22))
    col = tuple(int(v) for v in other)
    if kind == 0:
        for k in range(-h, w + h, step):
            cv2.line(img, (k, 0), (k + h, h), col, int(rng.integers(1, 4)))
            cv2.line(img, (k + h, 0), (k, h), col, int(rng.integers(1, 4)))
    elif kind == 1:
        for y in range(0, h, step):
            for x in range(0, w, step):
                cv2.circle(img, (x + (step // 2 if (y // step) % 2 else 0), y), max(1, step // 4), col, -1)
    elif kind == 2:
        for k in range(0, w + h, step):
            cv2.line(img, (k, 0), (k - h, h), col, max(1, step // 3))
    elif kind == 3:
        for y in range(0, h, step):
            for x in range(0, w, step):
                if (x // step + y // step) % 2:
                    img[y : y + step, x : x + step] = col
    else:
        for _ in range(int(rng.integers(20, 80))):
            c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.ellipse(img, c, (int(rng.integers(4, 40)), int(rng.integers(4, 40))), float(rng.uniform(0, 180)), 0, 360, col, int(rng.integers(1, 4)))
    if rng.random() < 0.7:
        border = int(rng.integers(8, 24))
        paper = tuple(int(v) for v in rng.integers(215, 256, 3))
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), paper, border)
    return img


def background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Felt, wood, knitted cloth, a white desk or a dark table top."""
    kind = int(rng.integers(6))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind in (0, 1):  # felt: green, blue, red, grey
        colour = [(40, 110, 30), (120, 60, 20), (30, 30, 120), (90, 90, 90)][int(rng.integers(4))]
        colour = np.clip(np.array(colour) + rng.integers(-30, 30, 3), 0, 255)
        img = np.empty((h, w, 3), np.float32)
        img[:] = colour
        img += cv2.resize(rng.normal(0, 6, (h // 2 + 1, w // 2 + 1)).astype(np.float32), (w, h))[..., None]
    elif kind == 2:  # wood: light or dark, grain along one direction
        a = rng.uniform(0, math.pi)
        t = xx * math.cos(a) + yy * math.sin(a)
        grain = np.sin(t / rng.uniform(3, 12) + 3 * np.sin(t / rng.uniform(40, 120))) * rng.uniform(8, 25)
        colour = np.array([rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(150, 230)]) * rng.uniform(0.5, 1.1)
        img = colour[None, None, :] + grain[..., None]
        if rng.random() < 0.5:  # planks
            img *= (1 - 0.25 * ((t % rng.uniform(80, 200)) < 3))[..., None]
    elif kind == 3:  # knitted or woven cloth
        colour = rng.uniform(120, 235, 3)
        p = rng.uniform(4, 10)
        weave = np.sin(xx / p * 2) * np.sin(yy / p * 1.3) * rng.uniform(10, 30)
        img = colour[None, None, :] + weave[..., None]
    elif kind == 4:  # white or grey desk
        v = rng.uniform(170, 240)
        img = np.full((h, w, 3), v, np.float32) + rng.normal(0, 3, (h, w, 1))
    else:  # dark table
        img = np.full((h, w, 3), rng.uniform(10, 60), np.float32) + rng.normal(0, 3, (h, w, 1))
    img = np.clip(img, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(0, 4))):  # clutter: letters and strokes
        p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        cv2.putText(img, chr(int(rng.integers(48, 91))), p, int(FONTS[rng.integers(len(FONTS))]), float(rng.uniform(0.4, 2.0)), tuple(int(v) for v in rng.integers(0, 255, 3)), int(rng.integers(1, 4)))
    return img


def draw_chips(img: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], r: float) -> tuple[np.ndarray, np.ndarray]:
    """A stack or a few chips (circles with edge spots), or a chip rack (a long box of chip edges)."""
    mask = np.zeros(img.shape[:2], np.uint8)
    colour = tuple(int(v) for v in rng.integers(0, 255, 3))
    light = tuple(min(255, c + 120) for c in colour)
    if rng.random() < 0.25:  # a rack: rows of chip edges
        a = rng.uniform(0, 180)
        box = cv2.boxPoints(((centre[0], centre[1]), (r * 8, r * 2.5), a)).astype(np.int32)
        cv2.fillPoly(img, [box], colour)
        cv2.fillPoly(mask, [box], 255)
        for k in range(-30, 31):
            d = k * r * 0.13
            p = (int(centre[0] + d * math.cos(math.radians(a))), int(centre[1] + d * math.sin(math.radians(a))))
            cv2.circle(img, p, max(1, int(r * 0.05)), light, -1)
        return img, mask
    for _ in range(int(rng.integers(1, 4))):
        c = (int(centre[0] + rng.normal(0, r * 0.6)), int(centre[1] + rng.normal(0, r * 0.6)))
        cv2.circle(img, c, int(r), colour, -1, cv2.LINE_AA)
        cv2.circle(mask, c, int(r), 255, -1)
        for k in range(8):
            t = k * math.pi / 4
            cv2.circle(img, (int(c[0] + 0.8 * r * math.cos(t)), int(c[1] + 0.8 * r * math.sin(t))), max(1, int(r * 0.15)), light, -1)
        cv2.circle(img, c, int(r * 0.55), light, max(1, int(r * 0.06)))
    return img, mask
