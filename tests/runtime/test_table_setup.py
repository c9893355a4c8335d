"""A fresh table waits for its setup; setup between hands starts from the live table; the floor's
changes are journal entries of their own; every hand ever started is accounted for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import live_helpers as H
from dealer_pi.cli import main
from dealer_pi.engine.errors import InputError, RuleViolation
from dealer_pi.engine.observations import observation_from_dict
from dealer_pi.runtime.clock import check_command
from dealer_pi.runtime.engine_thread import Runtime
from dealer_pi.runtime.export import export_hands

PROPOSED = {"profile": "standard", "blinds": [25, 50], "seats": {"1": 5000, "2": 5000}, "button": 1}


def post(rt: Runtime, obs: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = rt.submit("observation", observation_from_dict(obs))
    return result


def fold_to_big_blind(rt: Runtime) -> None:
    post(rt, {"type": "dealer", "declare": "cards out"})
    while (la := rt.table.session.legal_actions()) is not None:
        post(rt, {"type": "action", "seat": la.seat, "action": "fold"})


def test_a_fresh_journal_waits_for_its_setup_no_hand_before_there_is_a_table(tmp_path: Path) -> None:
    rt = Runtime(tmp_path / "j.sqlite3", None, stream_delay_s=300, proposed_setup=PROPOSED).start()
    try:
        state = rt.state("dealer")
        assert state["table"] is None and state["awaiting_setup"] is True
        assert rt.journal.last_seq() == 0 and rt.hands_view() == []  # nothing journaled, no hand 1
        assert rt.setup_view() == {"setup": PROPOSED, "hand_running": False, "table": False}
        with pytest.raises(InputError) as exc:
            post(rt, {"type": "action", "seat": 1, "action": "call"})
        assert "no table yet" in exc.value.message
        # The clock may be set before the table exists.
        rt.submit("clock", check_command({"action": "set_levels",
                                          "levels": [{"small_blind": 5, "big_blind": 10, "minutes": 20}]}))
        rt.submit("setup", {"setup": H.SETUP, "void_hand": False})
        state = rt.state("dealer")
        assert state["awaiting_setup"] is False and state["table"]["table"]["hand_number"] == 1
    finally:
        rt.stop()
    again = Runtime(tmp_path / "j.sqlite3", None, stream_delay_s=300).start()  # a restart keeps it
    assert again.table.hand == 1 and again.replay_mismatches == 0
    again.stop()


def test_BET_TABLE_STAKES_setup_refused_while_a_hand_runs_says_void_hand_is_a_query_parameter(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    try:
        with pytest.raises(RuleViolation) as exc:
            rt.submit("setup", {"setup": H.SETUP, "void_hand": False})
        assert exc.value.rule == "BET-TABLE-STAKES"
        assert "query parameter void_hand=1" in exc.value.message and "POST /api/setup?void_hand=1" in exc.value.message
        with pytest.raises(InputError):  # a bad setup voids nothing
            rt.submit("setup", {"setup": {**H.SETUP, "blinds": [5]}, "void_hand": True})
        assert rt.table.running
        rt.submit("setup", {"setup": H.SETUP, "void_hand": True})
        hands = rt.hands_view()
        assert [(h["hand"], h["result"]) for h in hands] == [(1, "voided"), (2, "running")]
        assert "set the table up anew (BET-TABLE-STAKES)" in hands[0]["why"]
    finally:
        rt.stop()


def test_setup_starts_from_the_live_table_current_stacks_and_busted_seats_empty(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)  # seats 1-3, 1000 each, button 1
    try:
        fold_to_big_blind(rt)  # seat 3 (big blind) wins 5 from seat 2
        view = rt.setup_view()
        assert view["table"] is True and view["hand_running"] is False
        setup = view["setup"]
        assert setup["seats"] == {"1": 1000, "2": 995, "3": 1005}
        assert setup["names"] == {"1": "Ann", "2": "Bob", "3": "Cy"} and setup["button"] == 2  # the next hand's
        assert rt.state("dealer")["setup"] == setup
    finally:
        rt.stop()


def test_TABLE_REBUY_and_TABLE_NEW_PLAYER_are_entries_not_a_new_table(tmp_path: Path) -> None:
    rt = H.runtime(tmp_path)
    try:
        fold_to_big_blind(rt)
        post(rt, {"type": "rebuy", "seat": 2, "amount": 500})
        post(rt, {"type": "seat_player", "seat": 5, "stack": 2000, "name": "Dee"})
        post(rt, {"type": "remove_player", "seat": 1})
        entries = list(rt.journal.entries_after(0))
        assert [e.kind for e in entries].count("setup") == 1
        assert [e.body["type"] for e in entries[-3:]] == ["rebuy", "seat_player", "remove_player"]
        assert rt.setup_view()["setup"]["seats"] == {"2": 1495, "3": 1005, "5": 2000}
        with pytest.raises(InputError) as bad:
            post(rt, {"type": "rebuy", "seat": 9, "amount": 5})
        assert "nobody sits in seat 9" in bad.value.message
        post(rt, {"type": "dealer", "declare": "new hand"})
        with pytest.raises(RuleViolation) as exc:
            post(rt, {"type": "rebuy", "seat": 2, "amount": 500})
        assert exc.value.rule == "BET-TABLE-STAKES"
    finally:
        rt.stop()


def test_every_hand_number_is_accounted_for_in_hands_and_export(tmp_path: Path, capsys: Any) -> None:
    rt = H.runtime(tmp_path)
    try:
        fold_to_big_blind(rt)  # hand 1: played
        post(rt, {"type": "dealer", "declare": "new hand"})  # hand 2: voided by a misdeal, hand 3 redealt
        post(rt, {"type": "dealer", "declare": "misdeal"})
        rt.submit("setup", {"setup": H.SETUP, "void_hand": True})  # hand 3 voided by the setup, hand 4 runs
        hands = rt.hands_view()
        assert [(h["hand"], h["result"]) for h in hands] == [(1, "played"), (2, "misdeal"), (3, "voided"),
                                                               (4, "running")]
        assert "DEAL-MISDEAL-REMEDY" in hands[1]["why"] and "BET-TABLE-STAKES" in hands[2]["why"]
    finally:
        rt.stop()
    journal = tmp_path / "journal.sqlite3"
    assert main(["export", "--journal", str(journal), "--json", str(tmp_path / "hands.json")]) == 0
    exported = json.loads((tmp_path / "hands.json").read_text(encoding="utf-8"))["hands"]
    assert [(h["hand"], h["result"]) for h in exported] == [(1, "played"), (2, "misdeal"), (3, "voided")]
    assert exported[2]["why"].startswith("voided to set the table up anew")
    from dealer_pi.runtime.journal import Journal
    j = Journal(journal)
    try:
        assert [h.hand for h in export_hands(j)] == [1, 2, 3]
    finally:
        j.close()


def test_serve_on_an_empty_journal_waits_for_the_setup(tmp_path: Path) -> None:
    from dealer_pi.config import config_from_dict
    from dealer_pi.runtime.wiring import Assistant

    config = config_from_dict({"table": {"name": "T", "seats": 4, "small_blind": 50, "big_blind": 100},
                               "web": {"dealer_token": H.DEALER, "producer_token": H.PRODUCER, "port": 0,
                                       "audit_log": "audit.log"},
                               "journal": {"path": "j.sqlite3"}})
    assistant = Assistant.from_config(config, tmp_path, attach=False)
    try:
        client = assistant.app.test_client()
        auth = {"Authorization": f"Bearer {H.DEALER}"}
        state = client.get("/api/state", headers=auth).json
        assert state["table"] is None and state["awaiting_setup"] is True
        setup = client.get("/api/setup", headers=auth).json
        assert setup["table"] is False and setup["setup"]["blinds"] == [50, 100]
        assert setup["setup"]["seats"] == {"1": 10000, "2": 10000, "3": 10000, "4": 10000}
        r = client.post("/api/observations", json={"type": "action", "seat": 1, "action": "call"}, headers=auth)
        assert r.status_code == 400 and "no table yet" in r.json["error"]["message"]
        assert client.get("/api/hands", headers=auth).json == {"hands": []}
        r = client.post("/api/setup", json=setup["setup"], headers=auth)
        assert r.status_code == 200 and r.json["table"] is True and r.json["hand_running"] is True
    finally:
        assistant.runtime.stop()
