"""Calibration from ArUco markers rendered on a generated table and warped by a known homography."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from dealer_pi.config import ConfigError
from dealer_pi.engine.errors import InputError
from dealer_pi.vision.calibration import (
    CameraWatch,
    calibrate,
    default_layout,
    layout_from_dict,
    marker_image,
)
from dealer_pi.vision.render import felt

MM_PX = 1.0  # table picture: one pixel per millimetre
W_MM, H_MM = 1900, 1100


def table_picture(layout, seed: int = 0) -> np.ndarray:
    """The felt seen from straight above, markers printed on white squares."""
    img = felt(W_MM, H_MM, np.random.default_rng(seed))
    s = int(layout.marker_mm)
    for i, (x, y) in layout.markers.items():
        cx, cy = int(x + W_MM / 2), int(y + H_MM / 2)
        pad = s // 4
        img[cy - s // 2 - pad : cy + s // 2 + pad, cx - s // 2 - pad : cx + s // 2 + pad] = 255
        m = marker_image(i, s, layout.dictionary)
        img[cy - s // 2 : cy - s // 2 + s, cx - s // 2 : cx - s // 2 + s] = m[..., None]
    return img


def camera_homography(shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Table picture -> a 1280x720 camera frame seen a little from the side."""
    src = np.float32([[0, 0], [W_MM, 0], [W_MM, H_MM], [0, H_MM]])
    dst = np.float32([[90, 40], [1200, 70], [1240, 690], [40, 650]]) + np.float32(shift)
    return cv2.getPerspectiveTransform(src, dst)


def frame(layout, shift=(0.0, 0.0)) -> np.ndarray:
    return cv2.warpPerspective(table_picture(layout), camera_homography(shift), (1280, 720))


def test_homography_recovered_from_markers():
    layout = default_layout()
    cal = calibrate(frame(layout), layout)
    assert sorted(cal.markers_px) == [0, 1, 2, 3]
    # Any table point seen by the camera maps back to within a few millimetres.
    truth = camera_homography()
    pts_mm = np.float32([[x, y] for x in range(-800, 801, 200) for y in range(-400, 401, 200)])
    pts_px = cv2.perspectiveTransform((pts_mm + np.float32([W_MM / 2, H_MM / 2])).reshape(-1, 1, 2), truth).reshape(-1, 2)
    back = np.array([cal.to_table(tuple(p)) for p in pts_px])
    assert np.abs(back - pts_mm).max() < 4.0
    assert cal.error_mm < 3.0


def test_zones_found_and_drawn():
    layout = default_layout()
    f = frame(layout)
    cal = calibrate(f, layout)
    truth = camera_homography()
    board_px = cv2.perspectiveTransform(np.float32([[[W_MM / 2, H_MM / 2 - 60]]]), truth)[0, 0]
    assert cal.zone_of(tuple(board_px)) == "board"
    seat = layout.zones["seat:1"].mean(axis=0) + np.float32([W_MM / 2, H_MM / 2])
    seat_px = cv2.perspectiveTransform(seat.reshape(1, 1, 2), truth)[0, 0]
    assert cal.zone_of(tuple(seat_px)) == "seat:1"
    drawn = cal.draw(f)
    assert drawn.shape == f.shape and np.count_nonzero(np.abs(drawn.astype(int) - f).sum(axis=2)) > 5000


def test_moved_camera_is_noticed():
    layout = default_layout()
    cal = calibrate(frame(layout), layout)
    watch = CameraWatch(cal)
    assert watch.check(frame(layout)).state == "steady"
    moved = watch.check(frame(layout, shift=(25.0, -12.0)))
    assert moved.state == "moved" and moved.shift_px > 15
    assert watch.check(felt(1280, 720, np.random.default_rng(1))).state == "unseen"


def card_length(homography: np.ndarray, at_mm: tuple[float, float] = (0.0, -60.0)) -> float:
    """A card's length in the frame at ``at_mm`` (table mm; the board's middle), from its area (as
    a card at any angle)."""
    x, y = W_MM / 2 + at_mm[0], H_MM / 2 + at_mm[1]
    card = np.float32([[x - 31.5, y - 44], [x + 31.5, y - 44], [x + 31.5, y + 44], [x - 31.5, y + 44]])
    pts = cv2.perspectiveTransform(card.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return math.sqrt(cv2.contourArea(pts) * 88 / 63)


def test_card_length_comes_from_the_markers_only_where_the_camera_looks_down_on_the_table():
    layout = default_layout()
    # A little from the side, as a camera is mounted: the zones' lengths differ by 8 %, and the
    # middle one is taken.
    assert calibrate(frame(layout), layout).card_height_px() == pytest.approx(card_length(camera_homography()), rel=0.03)
    # At a slant the far side's cards are a quarter shorter than the near side's: no one length
    # serves the frame, and the detector measures it from the cards as it would with no markers.
    src = np.float32([[0, 0], [W_MM, 0], [W_MM, H_MM], [0, H_MM]])
    slant = cv2.getPerspectiveTransform(src, np.float32([[200, 40], [1080, 40], [1240, 690], [40, 650]]))
    cal = calibrate(cv2.warpPerspective(table_picture(layout), slant, (1280, 720)), layout)
    assert sorted(cal.markers_px) == [0, 1, 2, 3] and cal.card_height_px() == 0.0
    # The longest a card lies in that frame: at the near rail's markers, where the scale is largest.
    near = max(card_length(slant, layout.markers[i]) for i in layout.markers)
    assert cal.longest_card_px() == pytest.approx(near, rel=0.03)


def test_too_few_markers_is_a_clear_error():
    layout = default_layout()
    f = frame(layout)
    f[:, :] = f[360, 640]  # everything covered
    with pytest.raises(InputError, match="missing ids"):
        calibrate(f, layout)


def test_layout_file_checked_strictly():
    with pytest.raises(ConfigError) as err:
        layout_from_dict({"markers": {"0": [0, 0], "x": [1, 2]}, "zones": {"seat:11": [[0, 0], [1, 0], [1, 1]], "board": [[0, 0]]}, "colour": 1})
    keys = [k for k, _ in err.value.problems]
    assert "colour" in keys and "markers.x" in keys and "zones.seat:11" in keys and "zones.board" in keys
    ok = layout_from_dict({"markers": {"0": [0, 0], "1": [100, 0]}, "zones": {"pot": [[0, 0], [10, 0], [10, 10]]}})
    assert ok.zone_at((5, 2)) == "pot"


def test_pipeline_calibrates_itself_and_reports_a_face_down_card_in_its_zone():
    from dealer_pi.config import CameraSection
    from dealer_pi.engine.observations import CardSeen, Zone
    from dealer_pi.vision.faces import render_back
    from dealer_pi.vision.pipeline import pipeline_from_config

    layout = default_layout()
    table = table_picture(layout)
    back = cv2.resize(render_back(), (63, 88))  # a card's size at 1 px/mm
    cx, cy = int(W_MM / 2), int(H_MM / 2 - 60)  # the board zone's centre
    table[cy - 44 : cy + 44, cx - 31 : cx + 32] = back
    frame_ = cv2.warpPerspective(table, camera_homography(), (1280, 720))
    pipe, stage = pipeline_from_config(CameraSection())
    events = []
    for n in range(4):
        events += pipe.process(n * 66, frame_)
    assert pipe.stats()["calibrated"] == "yes"
    # No card length in the config: the markers gave it.
    assert pipe.stats()["card_height_px"] == pytest.approx(card_length(camera_homography()), rel=0.03)
    assert [(e.zone, e.face_up, e.card) for e in events if isinstance(e, CardSeen)] == [(Zone.parse("board"), False, None)]
    # The camera is knocked: noticed at the next check, zones re-fitted from the markers, and the
    # size of print it followed is looked for again (the camera may be nearer the table now).
    pipe.detector.glyph_px = 15.0
    moved = cv2.warpPerspective(table, camera_homography((30.0, 10.0)), (1280, 720))
    for n in range(4, 4 + pipe.watch_every + 1):
        pipe.process(n * 66, moved)
    assert pipe.stats()["camera_moves"] >= 1 and pipe.last_watch is not None and pipe.last_watch.state == "moved"
    assert pipe.detector.glyph_px == 0.0
