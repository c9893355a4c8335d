"""Glyph finding shortcuts give exactly what the whole-picture way gives: the model is trained on these features."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_pi.engine.cards import Card
from dealer_pi.vision.detect import felt_colour, not_felt
from dealer_pi.vision.glyphs import (
    GRID,
    Blobs,
    GlyphParams,
    PairRows,
    features,
    felt_band,
    find_blobs,
    hypotheses_from_blobs,
    ink_mask,
    label_ink,
    near_card_stock,
    region_boxes,
)
from dealer_pi.vision.render import render_table_frame, render_table_scene, woven_carpet

TABLE = {
    "board": [Card.parse(c) for c in ("Ah", "Kd", "Tc", "7s")],
    "seat:2": [Card.parse("Qs"), Card.parse("Jh")],
    "seat:6": [None, None],
}


def whole_picture_labels(bgr: np.ndarray, params: GlyphParams, region: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ink = ink_mask(bgr, params) & region
    _, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return labels, stats, centroids


def real_photo(photo_subsets: dict[str, list[Path]]) -> np.ndarray:
    path = photo_subsets["glyphs"][0]
    img = cv2.imread(str(path))
    assert img is not None, path
    return img


@pytest.mark.parametrize("params", [GlyphParams(), GlyphParams(min_px=9, max_px=26, block=24), GlyphParams(light_print=True)])
def test_blobs_inside_a_region_are_labelled_as_in_the_whole_picture(photo_subsets, params):
    frame = render_table_frame(TABLE, seed=4)
    felt_region = cv2.dilate(not_felt(frame, felt_colour(frame)), np.ones((5, 5), np.uint8))
    photo = real_photo(photo_subsets)
    # Blobs of region touching each other, the border and an odd row and column.
    odd_region = np.zeros(photo.shape[:2], np.uint8)
    for centre, radius in (((101, 77), 60), ((180, 120), 70), ((5, photo.shape[0] - 3), 40), ((photo.shape[1] - 1, 301), 90)):
        cv2.circle(odd_region, centre, radius, 255, -1)
    # A woven carpet in one box: thousands of components, whose ids the box already gives in the
    # picture's order.
    carpet = woven_carpet(900, 500, np.random.default_rng(2))
    one_box = np.zeros(carpet.shape[:2], np.uint8)
    one_box[40:460, 60:880] = 255
    for bgr, region in ((frame, felt_region), (photo, odd_region), (carpet, one_box)):
        labels, stats, centroids = whole_picture_labels(bgr, params, region)
        got_labels, got_stats, got_centroids = label_ink(bgr, params, region)
        assert len(stats) > 20  # the check means something only with many components
        np.testing.assert_array_equal(got_labels, labels)
        np.testing.assert_array_equal(got_stats, stats)
        np.testing.assert_allclose(got_centroids[1:], centroids[1:])


@pytest.mark.parametrize("params", [GlyphParams(), GlyphParams(light_print=True)])
def test_glyph_pairs_sought_among_near_blobs_are_those_every_pair_of_blobs_gives(monkeypatch, photo_subsets, params):
    # Only blobs within reach of each other are compared (a carpet's thousands of blobs, each
    # against every other, took seconds): the pairs, and their order, must be as before.
    import dealer_pi.vision.glyphs as glyphs_module

    def every_pair(c: np.ndarray, size: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
        return np.nonzero(~np.eye(len(c), dtype=bool))

    carpet = woven_carpet(900, 500, np.random.default_rng(2))
    for bgr in (render_table_frame(TABLE, seed=4), real_photo(photo_subsets), carpet):
        blobs = find_blobs(bgr, params)
        near = hypotheses_from_blobs(blobs, params)
        with monkeypatch.context() as m:
            m.setattr(glyphs_module, "_within_reach", every_pair)
            every = hypotheses_from_blobs(blobs, params)
        assert len(near) > 100
        assert near == every


def test_region_boxes_are_disjoint_start_even_and_cover_the_region_with_margin():
    region = np.zeros((200, 300), np.uint8)
    region[9:20, 9:20] = 255
    region[25:40, 15:30] = 255  # within the margin of the first: one box
    region[150:199, 250:300] = 255
    boxes = region_boxes(region, 10)
    assert len(boxes) == 2
    covered = np.zeros_like(region)
    for x0, y0, x1, y1 in boxes:
        assert x0 % 2 == 0 and y0 % 2 == 0
        assert not covered[y0:y1, x0:x1].any()
        covered[y0:y1, x0:x1] = 255
    assert covered[region > 0].all()
    grown = cv2.dilate(region, np.ones((21, 21), np.uint8))
    assert covered[grown > 0].all()


def test_features_of_a_pair_do_not_depend_on_the_other_pairs_of_the_frame(photo_subsets):
    photo = real_photo(photo_subsets)
    params = GlyphParams()
    blobs = find_blobs(photo, params)
    hyps = hypotheses_from_blobs(blobs, params)
    assert len(hyps) > 50
    together = features(blobs, hyps)
    for n in range(0, len(hyps), max(1, len(hyps) // 25)):
        np.testing.assert_array_equal(features(blobs, [hyps[n]])[0], together[n])
    assert features(blobs, []).shape == (0, together.shape[1])


@pytest.mark.parametrize("card_height,size", [(70.0, (1280, 720)), (130.0, (1280, 720)), (200.0, (2304, 1536))])
def test_the_enlarged_read_of_a_still_keeps_every_index_and_leaves_out_the_backs(card_height: float, size: tuple[int, int]) -> None:
    # A still is read again at double size for small glyphs, only near white card stock: a back's
    # pattern, enlarged, breaks into thousands of glyph-sized blobs. The corners' indices must stay
    # in (all but a percent of their boxes: a court card's coloured picture comes close to its
    # index); most of a back, margin and all, stays out.
    table = dict(TABLE, burn=[None])
    for seed in range(3):
        scene = render_table_scene(table, seed=seed, card_height=card_height, size=size)
        near = near_card_stock(scene.frame)
        assert near is not None
        for i, placed in enumerate(scene.placements):
            shown = scene.top == i
            if not placed.face_up:
                assert (near[shown] > 0).mean() < 0.3, f"seed {seed}: a face-down card is read as card stock"
                continue
            ih, iw = placed.image.shape[:2]
            corners = np.zeros((ih, iw), np.uint8)
            corners[: int(0.3 * ih), : int(0.2 * iw)] = 255  # both corner indices
            corners[int(0.7 * ih) :, int(0.8 * iw) :] = 255
            h, w = scene.frame.shape[:2]
            index = (cv2.warpPerspective(corners, placed.h, (w, h), flags=cv2.INTER_NEAREST) > 0) & shown
            assert (near[index] > 0).mean() >= 0.99, f"seed {seed}: an index of {placed.card} lies outside the card stock"


def test_features_for_the_suit_alone_leave_the_rank_glyph_empty_and_the_rest_as_it_was():
    frame = render_table_frame({"board": [Card.parse(c) for c in ("Ah", "7c", "Td")]}, seed=4)
    blobs = find_blobs(frame, GlyphParams())
    hyps = hypotheses_from_blobs(blobs, GlyphParams())
    assert len(hyps) > 10
    both, suit = features(blobs, hyps), features(blobs, hyps, suit_only=True)
    cells = GRID * GRID
    assert np.array_equal(suit[:, cells:], both[:, cells:])
    assert not suit[:, :cells].any() and both[:, :cells].any()


def test_pair_rows_warp_a_suit_glyph_only_for_the_rows_asked_and_those_rows_are_the_features_rows():
    # The reader warps a pair's suit glyph only where its rank may make a read: the rows it then
    # reads must be exactly the rows the networks were trained on.
    frame = render_table_frame({"board": [Card.parse(c) for c in ("Ah", "7c", "Td")]}, seed=4)
    blobs = find_blobs(frame, GlyphParams())
    hyps = hypotheses_from_blobs(blobs, GlyphParams())
    assert len(hyps) > 10
    full = features(blobs, hyps)
    cells = GRID * GRID
    pairs = PairRows(blobs, hyps)
    assert np.array_equal(pairs.rows[:, :cells], full[:, :cells]) and np.array_equal(pairs.rows[:, -6:], full[:, -6:])
    assert not pairs.rows[:, cells : 2 * cells].any()
    keep = np.zeros(len(hyps), bool)
    keep[::3] = True
    rows = pairs.with_suits(keep)
    assert np.array_equal(rows[keep], full[keep])
    assert not rows[~keep, cells : 2 * cells].any() and full[~keep, cells : 2 * cells].any()
    assert np.array_equal(pairs.every_suit(), full)


def test_DEAL_DECK_a_court_index_printed_against_its_pictures_frame_is_read_on_the_simulated_camera() -> None:
    # The drawn deck's courts frame their picture a few pixels from the index; filmed at 1.5 px/mm
    # the rank glyph and the frame's line join into one large sparse blob, and no court was named.
    from dealer_pi.sim.felt import Felt
    from dealer_pi.sim.overhead import OverheadCamera
    from dealer_pi.vision.recogniser import Recogniser

    reader = Recogniser(stock_only=True)  # the live camera's reader: one scale, dark print
    courts = ["Qd", "Jc", "Kd", "Qc", "Jh"]
    for seed in range(3):
        felt = Felt(seed=seed)
        for code in courts:
            felt.place("board", Card.parse(code), face_up=True)
        named = {str(r.card) for r in reader.read(OverheadCamera(seed=seed).frame(felt, 0)) if r.card is not None}
        assert named <= set(courts)  # nothing named that is not on the felt
        assert len(named) >= 4, (seed, named)  # the glyphs cut from the frame are read (at most two before)


def _picture_frame_with(marks: list[tuple[str, tuple[int, int], float]]) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A white card with a picture frame of a thin line; each mark (text, left-bottom, scale) drawn
    thick and tied to the frame by a thin line, as blur ties a printed index to it. Returns the
    picture and each mark's box."""
    img = np.full((320, 260, 3), 255, np.uint8)
    for d in (0, 1):  # lines two pixels wide, as blur leaves them
        cv2.rectangle(img, (40 + d, 20 + d), (240 + d, 300 + d), (0, 0, 0), 1)
    boxes = []
    for text, (x, y), scale in marks:
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 4)
        cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 4)
        for d in (0, 1):
            cv2.line(img, (x + tw // 2 + d, y - th // 2 + d), (40 + d if x < 40 else x + tw // 2 + d, y - th // 2 + d if x < 40 else 20), (0, 0, 0), 1)
        boxes.append((x, y - th, tw, th))
    return img, boxes


def _glyph_over(blobs: Blobs, box: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    return any(x - 4 <= blobs.stats[i, 0] and blobs.stats[i, 0] + blobs.stats[i, 2] <= x + w + 6
               and y - 6 <= blobs.stats[i, 1] and blobs.stats[i, 1] + blobs.stats[i, 3] <= y + h + 6
               for i in blobs.keep)


def test_DEAL_DECK_a_glyph_tied_to_a_pictures_frame_at_its_corner_is_cut_free_one_in_the_picture_is_not() -> None:
    # The index beside the frame's corner is cut free as a glyph of its own; a mark in the middle of the picture
    # is its art (cut free, one read "4h" on the held-out design's jack of clubs), and so is a mark
    # too large beside the picture to be an index, even at a corner.
    params = GlyphParams()
    img, (index, art, big) = _picture_frame_with([("7", (8, 52), 1.0), ("4", (130, 170), 1.0), ("8", (140, 296), 4.0)])
    blobs = find_blobs(img, params)
    assert _glyph_over(blobs, index)
    assert not _glyph_over(blobs, art)
    assert not _glyph_over(blobs, big)


def _stacked(angle: float, lower: str = "diamond", tail: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """White card stock with a Q-like rank (a ring, its tail swung down into what lies below it,
    ``tail`` pixels thick) over a solid diamond, or over a second ring (``lower="ring"``), turned
    by ``angle`` degrees. Also the affine map from the drawing to the picture."""
    img = np.full((160, 160, 3), 250, np.uint8)
    cv2.ellipse(img, (80, 40), (13, 16), 0, 0, 360, (20, 20, 20), 2)
    cv2.line(img, (82, 50), (92, 75), (20, 20, 20), tail)  # the tail, into the diamond's upper edge
    if lower == "diamond":
        cv2.fillPoly(img, [np.array([(80, 62), (96, 82), (80, 102), (64, 82)], np.int32)], (20, 20, 20))
    else:
        cv2.ellipse(img, (80, 84), (13, 16), 0, 0, 360, (20, 20, 20), 2)
    turn = cv2.getRotationMatrix2D((80, 80), angle, 1.0)
    return cv2.warpAffine(img, turn, (160, 160), borderValue=(250, 250, 250)), turn


def _at(turn: np.ndarray, x: float, y: float) -> tuple[int, int]:
    px, py = turn @ np.array([x, y, 1.0])
    return int(round(px)), int(round(py))


def _side_has(blobs: Blobs, k: int, xy: tuple[int, int]) -> bool:
    x, y, w, h = (int(v) for v in blobs.stats[k, :4])
    px, py = xy
    return bool(x <= px < x + w and y <= py < y + h and blobs.own[k][py - y, px - x])


@pytest.mark.parametrize("tail", [2, 4])
@pytest.mark.parametrize("angle", [0.0, 37.0, 180.0, 250.0])
def test_DEAL_DECK_a_rank_run_into_its_suit_is_cut_into_rank_and_suit_and_the_whole_blob_stays(angle: float, tail: int) -> None:
    # Liberation Sans's Q (the held-out design's Arial) swings its tail into the suit below it: one
    # blob, of which no pair was made (not one held-out queen of 60 was named). A tail as thick as
    # the ring's two strokes together (tail=4; the held-out design's Q read at double size: a waist
    # of 5 pixels, the ring 8 across) is no waist beside the hollow ring, but is beside the suit.
    params = GlyphParams()
    img, turn = _stacked(angle, tail=tail)
    labels, _, _ = label_ink(img, params)
    assert len(np.unique(labels[labels > 0])) == 1  # rank and suit are one blob as inked
    blobs = find_blobs(img, params)
    sides = sorted(blobs.own)
    cuts = list(zip(sides[0::2], sides[1::2]))  # each cut's rank, then its suit
    assert cuts and len(sides) == 2 * len(cuts)
    pairs = {(h.rank_ids, h.suit_id) for h in hypotheses_from_blobs(blobs, params)}
    for rank, suit in cuts:
        whole = blobs.whole_of(rank)
        assert blobs.whole_of(suit) == whole and whole not in blobs.own and whole in blobs.keep  # the whole stays
        assert _side_has(blobs, rank, _at(turn, 80, 24)) and _side_has(blobs, rank, _at(turn, 86, 59))  # ring and tail
        assert _side_has(blobs, suit, _at(turn, 80, 72)) and not _side_has(blobs, suit, _at(turn, 86, 59))
        assert {rank, suit} <= set(blobs.keep.tolist())
        assert ((rank,), suit) in pairs


def test_DEAL_DECK_a_blob_narrow_in_its_middle_with_no_solid_side_is_not_cut() -> None:
    # A ring over a ring, joined by a stroke: strokes both sides of the waist, no suit's body.
    blobs = find_blobs(_stacked(0.0, lower="ring")[0], GlyphParams())
    assert blobs.own == {}


def test_DEAL_DECK_a_pair_with_a_side_of_a_cut_blob_may_read_only_as_a_rank_that_descends() -> None:
    from dealer_pi.vision.recogniser import DESCENDING_RANKS, RANKS, only_descending

    params = GlyphParams()
    apart = np.full((160, 160, 3), 250, np.uint8)  # and an index whose rank stands clear of its suit
    cv2.putText(apart, "7", (66, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 3)
    cv2.circle(apart, (80, 84), 12, (20, 20, 20), -1)
    img = np.hstack([_stacked(37.0)[0], apart])
    blobs = find_blobs(img, params)
    hyps = hypotheses_from_blobs(blobs, params)
    cut = np.array([any(blobs.whole_of(k) != k for k in (*h.rank_ids, h.suit_id)) for h in hyps])
    assert cut.any() and (~cut).any()
    pr = np.random.default_rng(0).dirichlet(np.ones(RANKS + 1), size=len(hyps))
    # Half the cut pairs read surest as a queen, the others as a 9.
    queen, nine = DESCENDING_RANKS[1], 7
    tops = [queen if k % 2 else nine for k in range(int(cut.sum()))]
    assert queen in tops and nine in tops
    for n, top in zip(np.flatnonzero(cut), tops):
        pr[n] = 0.02
        pr[n, top], pr[n, 2], pr[n, RANKS] = 0.5, 0.18, 0.1  # a 4 and "no index" beside it
        pr[n] /= pr[n].sum()
    kept = only_descending(pr, blobs, hyps)
    others = [k for k in range(RANKS) if k not in DESCENDING_RANKS]
    allowed = [*DESCENDING_RANKS, RANKS]  # the jack, the queen, no index
    assert not kept[np.ix_(cut, others)].any()
    as_queen = cut.copy()
    as_queen[np.flatnonzero(cut)] = [t == queen for t in tops]
    as_nine = cut & ~as_queen
    # A cut pair that reads surest as a queen keeps its whole share among the three, in the
    # proportions it gave them; a cut 9 that reads as a 9 gets none of it back: it is no queen.
    assert np.allclose(kept[as_queen].sum(axis=1), 1.0)
    assert np.allclose(kept[np.ix_(as_queen, allowed)] * pr[np.ix_(as_queen, allowed)].sum(axis=1, keepdims=True),
                       pr[np.ix_(as_queen, allowed)])
    assert (kept[as_queen, queen] > 0.8).all() and (pr[as_queen, queen] < 0.6).all()
    assert np.array_equal(kept[np.ix_(as_nine, allowed)], pr[np.ix_(as_nine, allowed)])
    assert np.array_equal(kept[~cut], pr[~cut])


def test_DEAL_DECK_the_felt_band_round_a_card_is_taken_with_the_cards_edge_but_not_felt_coloured_print_on_it() -> None:
    # Beside white stock the felt is darker than its neighbourhood, so the threshold inks a band of
    # it round every card, and an index printed a pixel from the card's edge joins it (with the
    # edge's own dark line). A still only guesses its felt: a king's gold or a red 2 of nearly that
    # colour lies on the card inside its white margin, and stays.
    felt = (120, 170, 205)  # the held-out scenes' light wood, BGR
    img = np.full((200, 200, 3), felt, np.uint8)
    cv2.rectangle(img, (50, 40), (150, 170), (245, 245, 245), -1)
    cv2.rectangle(img, (50, 40), (150, 170), (90, 90, 90), 1)  # the card's edge
    cv2.rectangle(img, (90, 90), (110, 110), (118, 168, 200), -1)  # print of nearly the felt's colour
    region = np.zeros((200, 200), np.uint8)
    cv2.rectangle(region, (44, 34), (156, 176), 255, -1)  # the card's part, with the room round it
    band = felt_band(img, felt, region)
    assert band[100, 46] and band[100, 49] and band[37, 100]  # the felt inside the part, round the card
    assert band[100, 50] and band[40, 100]  # the card's edge beside it
    assert not band[100, 52] and not band[100, 100] and not band[60, 60]  # the card's stock and its print
    assert band[10, 10]  # and the felt beyond the part, which holds no print either


def test_DEAL_DECK_a_cameras_felt_coloured_ink_is_dropped_where_it_runs_on_into_the_felt_not_inside_a_card() -> None:
    # A camera drops ink of its cloth's colour: the band the threshold inks round every card. Red
    # cloth that the camera's exposure lifts is the red print's colour, and every red index went
    # with it; print lies inside white stock, and the band runs on into the felt.
    felt = (53, 45, 232)  # red cloth at 1.5 times the light; the print measured (56, 54, 254)
    img = np.full((200, 200, 3), felt, np.uint8)
    cv2.rectangle(img, (50, 40), (150, 170), (250, 250, 250), -1)
    cv2.rectangle(img, (90, 90), (95, 110), (56, 54, 254), -1)
    plain, dropped = ink_mask(img, GlyphParams()), ink_mask(img, GlyphParams(felt=felt))
    assert plain[100, 48] and plain[100, 92]  # the band and the print, both ink to the threshold
    assert not dropped[100, 48] and not dropped[30, 100]  # the band is the felt's
    assert dropped[100, 92] and np.array_equal(dropped[85:115, 85:100], plain[85:115, 85:100])  # the print stays whole
