"""A shadow over the table (an arm, a rack held over it), through the camera's pipeline."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dealer_pi.vision.lit_table import LIT_TABLE, filmed
from dealer_pi.vision.render import render_table_scene, shadow
from dealer_pi.vision.shadow import lift_shadows


def test_a_frame_without_a_shadow_is_read_as_it_is():
    # Light falling off across the table and a glare (the simulator's camera faults) are no shadow.
    for seed in range(4):
        frame = render_table_scene(LIT_TABLE, seed=seed).frame
        assert lift_shadows(frame, np.median(frame[::8, ::8].reshape(-1, 3), axis=0)) is frame


@pytest.mark.parametrize("zone,light", [("board", 0.5), ("board", 0.6), ("seat:1", 0.5)])
def test_DEAL_FLOP_EXTRA_DEAL_HOLE_EXPOSED_a_face_up_card_under_a_shadow_stays_named_and_adds_no_face_down_card(zone, light):
    # A board card under an arm's shadow was read as two face-down cards (a board with cards too
    # many); a face-up hole card under one, as face down (an exposed card missed).
    for seed in (1, 2):
        sc = render_table_scene(LIT_TABLE, seed=seed)
        faces = [p for p in sc.placements if p.card is not None and p.zone == zone]
        target = faces[-1] if zone.startswith("seat") else faces[seed]  # a pair's upper card shows its index
        cx, cy = target.corners.mean(axis=0)
        centre = (float(cx), float(cy))
        (_, before), (seen, under) = filmed([(sc.frame, 12), (shadow(sc.frame, centre, light), 20)], seed)
        downs = [o for o in seen if not o.face_up]
        named = {f.card for f in before if f.card is not None and math.dist(f.centre, centre) < 55}
        assert target.card in named  # the card the shadow falls on, named in full light
        assert downs == [], (zone, light, seed, downs)
        near = [f for f in under if math.dist(f.centre, centre) < 55]
        assert near and all(f.face_up for f in near), (zone, light, seed, near)
        assert named <= {f.card for f in near}, (zone, light, seed, near)


@pytest.mark.parametrize("seed,light", [(5, 0.5), (0, 0.4)])
def test_DEAL_FLOP_EXTRA_DEAL_BURN_felt_a_shadows_soft_edge_encloses_is_no_back(seed, light):
    # The camera takes felt its region encloses for a back's pale print (on blue cloth overexposed);
    # the ring a lifted shadow's soft edge leaves encloses the shaded felt round a board card, and
    # that made the card, or the burn beside it, a face-down card.
    sc = render_table_scene(LIT_TABLE, seed=seed)
    target = [p for p in sc.placements if p.card is not None and p.zone == "board"][seed % 5]
    cx, cy = target.corners.mean(axis=0)
    centre = (float(cx), float(cy))
    _, (seen, under) = filmed([(sc.frame, 12), (shadow(sc.frame, centre, light), 20)], seed)
    assert [o for o in seen if not o.face_up] == []
    near = [f for f in under if math.dist(f.centre, centre) < 55]
    assert all(f.face_up for f in near) and target.card in {f.card for f in near}, near
