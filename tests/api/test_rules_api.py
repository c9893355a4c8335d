"""The rule catalogue served to the tablet and to anyone: /api/rules, /api/rules/ID, /rules."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import live_helpers as H

from dealer_pi.rule_catalogue import load_catalogue, parse_catalogue

REPO = Path(__file__).resolve().parents[2]
CITED = re.compile(r"\b(?:DEAL|BET|POT|TABLE)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


def test_DEAL_BOARD_EXTRA_is_served_with_its_text_and_sources(live: Any) -> None:
    r = live.get("/api/rules/DEAL-BOARD-EXTRA")
    assert r.status_code == 200
    assert r.json["id"] == "DEAL-BOARD-EXTRA" and r.json["family"].startswith("DEAL")
    assert r.json["text"].startswith("Too many cards or no burn at turn or river")
    assert r.json["sources"] == [{"ref": "002 §14.5", "seed": "002",
                                  "title": '"Whose Pig Is This?" house tournament rules (sections 1-15)'}]


def test_a_bare_section_sign_keeps_the_seed_before_it_and_bold_marks_go(live: Any) -> None:
    burn = live.get("/api/rules/deal-burn").json  # case does not matter
    assert [s["ref"] for s in burn["sources"]] == ["002 §9.1", "002 §10.1", "002 §11.1"]
    clock = live.get("/api/rules/BET-CLOCK", token=H.DEALER).json
    assert "**" not in clock["text"] and "Conflict: 000 §29" in clock["text"]


def test_unknown_and_malformed_rule_ids_are_refused_saying_why(live: Any) -> None:
    r = live.get("/api/rules/DEAL-NO-SUCH-RULE")
    assert r.status_code == 404 and r.json["error"]["message"] == "no rule DEAL-NO-SUCH-RULE in the catalogue (docs/rules.md)"
    r = live.get("/api/rules/<script>")
    assert r.status_code == 400 and r.json["error"]["where"] == "rule"
    assert live.get("/api/rules/DEAL-BURN", token="not-a-token").status_code == 401


def test_every_rule_id_the_code_cites_can_be_looked_up(live: Any) -> None:
    """An alert, a refusal or a remedy may name any of these: the tablet must be able to open each."""
    cited = set()
    for folder in ("dealer_pi", "web"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix in (".py", ".js", ".html"):
                cited |= set(CITED.findall(path.read_text(encoding="utf-8")))
    assert len(cited) > 40
    listed = {r["id"] for r in live.get("/api/rules").json["rules"]}
    assert sorted(cited - listed) == []


def test_the_whole_catalogue_and_its_seeds(live: Any, rules_text: str) -> None:
    body = live.get("/api/rules").json
    assert len(body["rules"]) == rules_text.count("\n| ") - rules_text.count("\n| ID |")
    assert set(body["seeds"]) == {"000", "001", "002", "003", "004"}
    assert body["seeds"]["001"].startswith("Robert's-Rules")


def test_the_rules_page_lists_every_rule_with_an_anchor(live: Any) -> None:
    html = live.get("/rules").get_data(as_text=True)
    for rule in load_catalogue().rules:
        assert f'id="{rule}"' in html
    r = live.get("/rules/deal-board-extra")
    assert r.status_code == 302 and r.headers["Location"].endswith("/rules#DEAL-BOARD-EXTRA")


def test_a_catalogue_listing_an_id_twice_is_refused() -> None:
    text = "## DEAL\n\n| ID | Rule | Sources |\n|---|---|---|\n| DEAL-X | a | 000 |\n| DEAL-X | b | 001 |\n"
    try:
        parse_catalogue(text, where="rules.md")
    except ValueError as exc:
        assert str(exc) == "rules.md:6: DEAL-X is listed twice"
    else:
        raise AssertionError("a repeated ID was accepted")
