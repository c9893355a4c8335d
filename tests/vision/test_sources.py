"""Frame sources and the stage that drops stale frames."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from dealer_pi.engine.errors import InputError
from dealer_pi.vision.sources import (
    FpsCounter,
    ImageFiles,
    LatestFrameStage,
    check_frame,
    open_source,
    pump,
    read_image,
)


def test_stage_never_blocks_and_keeps_the_newest():
    stage = LatestFrameStage(maxsize=2)
    t0 = time.perf_counter()
    for n in range(500):
        stage.put(n, np.zeros((4, 4, 3), np.uint8))
    assert time.perf_counter() - t0 < 1.0  # a slow consumer never holds the camera up
    assert [stage.get(timeout=0)[0], stage.get(timeout=0)[0]] == [498, 499]
    assert stage.get(timeout=0) is None and stage.dropped == 498
    with pytest.raises(ValueError):
        LatestFrameStage(maxsize=5)


def test_fps_counter_uses_its_clock():
    now = [0.0]
    c = FpsCounter(window_s=2.0, clock=lambda: now[0])
    for _ in range(31):
        c.tick()
        now[0] += 1 / 15
    assert c.fps == pytest.approx(15, rel=0.05)


def test_bad_images_named(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_image(tmp_path / "nope.png")
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a picture at all")
    with pytest.raises(InputError, match="not a picture"):
        read_image(junk)
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((10, 10, 3), np.uint8))
    with pytest.raises(InputError, match="at least 64x64"):
        read_image(tiny)
    with pytest.raises(InputError, match="8-bit"):
        check_frame(np.zeros((100, 100, 3), np.float32), "frame")
    assert check_frame(np.zeros((100, 100), np.uint8), "grey").shape == (100, 100, 3)


def test_image_files_and_video_file(tmp_path):
    paths = []
    for n in range(3):
        p = tmp_path / f"f{n}.png"
        cv2.imwrite(str(p), np.full((80, 96, 3), n * 40, np.uint8))
        paths.append(p)
    frames = list(ImageFiles(paths, interval_ms=100).frames())
    assert [t for t, _ in frames] == [0, 100, 200] and int(frames[2][1][0, 0, 0]) == 80
    video = tmp_path / "clip.avi"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (96, 80))
    assert w.isOpened()
    for n in range(5):
        w.write(np.full((80, 96, 3), n * 50, np.uint8))
    w.release()
    src = open_source("file", str(video))
    got = list(src.frames())
    assert len(got) == 5 and got[0][1].shape == (80, 96, 3)
    assert [t for t, _ in got] == sorted(t for t, _ in got)
    with pytest.raises(InputError, match="unknown source"):
        open_source("webcam")


def stills(folder, count):
    """``count`` grey 80x80 pictures f0.png..., picture n filled with the value n."""
    paths = []
    for n in range(count):
        p = folder / f"f{n}.png"
        cv2.imwrite(str(p), np.full((80, 80, 3), n, np.uint8))
        paths.append(p)
    return paths


def test_pump_feeds_the_stage_from_a_thread(tmp_path):
    paths = stills(tmp_path, 4)
    stage = LatestFrameStage(maxsize=1)
    stop = threading.Event()
    t = pump(ImageFiles(paths), stage, stop)
    t.join(timeout=5)
    assert not t.is_alive()
    ts, frame = stage.get(timeout=1)
    assert int(frame[0, 0, 0]) == 3  # only the newest survived


def test_a_recorded_source_is_played_at_its_own_pace_like_a_camera(tmp_path):
    from dealer_pi.vision.sources import Paced

    paths = stills(tmp_path, 3)
    now = [10.0]
    slept = []

    def sleep(s: float) -> None:
        slept.append(round(s, 3))
        now[0] += s

    got = [t for t, _ in Paced(ImageFiles(paths, interval_ms=500), clock=lambda: now[0], sleep=sleep).frames()]
    assert got == [0, 500, 1000] and slept == [0.5, 0.5]
    # Stills named by the config are played `fps` a second.
    src = open_source("file", str(tmp_path), fps=20)
    start = __import__("time").monotonic()
    assert len(list(src.frames())) == 3 and __import__("time").monotonic() - start >= 0.09
