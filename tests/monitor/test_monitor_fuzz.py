"""Whatever the sensors say, the session never refuses it, never crashes, and replays exactly."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_pi.engine.cards import FULL_DECK
from dealer_pi.engine.errors import EngineError
from dealer_pi.engine.observations import (
    ActionKind,
    AlertDecision,
    CardLeft,
    CardSeen,
    DealerDeclaration,
    Decision,
    Declaration,
    PlayerAction,
    ShoeDraw,
    Zone,
)
from dealer_pi.engine.table_session import TableSession, TableSetup, event_to_json

SETUP = TableSetup.from_dict({"profile": "standard", "blinds": [1, 2],
                              "seats": {"2": 200, "5": 200, "7": 200}, "button": 5})
ZONES = [Zone.parse(z) for z in ("seat:2", "seat:5", "seat:7", "seat:9", "board", "burn", "muck", "shoe")]
cards = st.one_of(st.none(), st.sampled_from(FULL_DECK))
sensor = st.one_of(
    st.builds(ShoeDraw, cards),
    st.builds(CardSeen, st.sampled_from(ZONES), st.booleans(), cards, st.floats(0, 1)),
    st.builds(CardLeft, st.sampled_from(ZONES), cards),
)
step = st.one_of(sensor, sensor, sensor,
                 st.sampled_from(["act", "act", "confirm", "dismiss", "misdeal", "new", "undo"]))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["standard", "roberts", "house-pig", "online"]), st.lists(step, max_size=80))
def test_DEAL_sensor_observations_are_never_refused(profile: str, steps: list[object]) -> None:
    setup = TableSetup.from_dict({**SETUP.to_dict(), "profile": profile})
    s = TableSession(setup)
    for x in steps:
        if not isinstance(x, str):
            s.feed(x)  # type: ignore[arg-type]  # a sensor observation: must never raise
            continue
        try:
            if x == "act":
                la = s.legal_actions()
                if la is not None:
                    s.feed(PlayerAction(la.seat, ActionKind.CHECK if la.can_check else ActionKind.CALL))
            elif x in ("confirm", "dismiss") and s.open_alerts():
                s.feed(AlertDecision(s.open_alerts()[0].alert_id, Decision(x)))
            elif x == "misdeal":
                s.feed(DealerDeclaration(Declaration.MISDEAL))
            elif x == "new":
                s.feed(DealerDeclaration(Declaration.NEW_HAND))
            elif x == "undo":
                s.undo()
        except EngineError:  # dealer entries may be refused (a rule or a field named); nothing else
            pass
    json.dumps(s.snapshot())
    again = TableSession.replay(setup, s.observations)
    assert again.snapshot() == s.snapshot()
    assert [event_to_json(e) for e in again.events] == [event_to_json(e) for e in s.events]
