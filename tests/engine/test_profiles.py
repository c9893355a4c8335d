"""Rule profiles as data: shipped profiles, rule IDs per option, overrides and profile files."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dealer_pi.engine.errors import InputError
from dealer_pi.engine.profiles import (
    PROFILES,
    RULE_OF,
    RuleProfile,
    get_profile,
    profile_from_dict,
    profile_from_mapping,
    profile_to_dict,
)
from dealer_pi.profile_file import load_profile, profile_from_toml


def test_four_profiles_ship() -> None:
    assert set(PROFILES) == {"standard", "roberts", "house-pig", "online"}
    for name, p in PROFILES.items():
        assert p.name == name


def test_every_option_names_a_rule_id_from_the_catalogue(rules_text: str) -> None:
    catalogue = rules_text
    options = [f.name for f in dataclasses.fields(RuleProfile) if f.name != "name"]
    assert set(RULE_OF) == set(options)
    for option, rule in RULE_OF.items():
        assert f"| {rule} |" in catalogue, f"{option} cites {rule}, which docs/rules.md does not list"


@pytest.mark.parametrize(
    ("option", "values"),
    [
        ("show_order", {"standard": "left-of-last-caller", "roberts": "left-of-last-caller",
                        "house-pig": "bettor-or-first", "online": "last-aggressor"}),
        ("exposed_hole_card", {"standard": "misdeal", "roberts": "replace-one", "house-pig": "misdeal", "online": "misdeal"}),
        ("hole_count", {"standard": "burn-first-extra", "roberts": "burn-first-extra", "house-pig": "misdeal",
                        "online": "burn-first-extra"}),
        ("misdeal_lock_actions", {"standard": 0, "roberts": 0, "house-pig": 2, "online": 0}),
        ("limit_cap_lifted_heads_up", {"standard": True, "roberts": True, "house-pig": True, "online": False}),
        ("away_policy", {"standard": "kill", "roberts": "kill", "house-pig": "pay-and-fold", "online": "kill"}),
        ("deliberate_show_penalty", {"standard": "none", "roberts": "none", "house-pig": "half-pot", "online": "none"}),
        ("rake_percent", {"standard": 0, "roberts": 0, "house-pig": 0, "online": 5}),
        ("dead_button", {"standard": True, "roberts": True, "house-pig": True, "online": False}),
        ("odd_chip", {"standard": "worst-position", "roberts": "worst-position", "house-pig": "worst-position",
                      "online": "worst-position"}),
    ],
)
def test_profiles_follow_their_seed(option: str, values: dict[str, object]) -> None:
    assert {name: getattr(p, option) for name, p in PROFILES.items()} == values


def test_profile_from_mapping_overrides_single_options() -> None:
    p = profile_from_mapping("roberts", {"clock_seconds": 45, "show_order": "last-aggressor"})
    assert (p.clock_seconds, p.show_order, p.exposed_hole_card) == (45, "last-aggressor", "replace-one")
    assert p.name == "roberts+custom"
    assert profile_from_mapping("roberts", {}) is get_profile("roberts")


@pytest.mark.parametrize(
    ("overrides", "where"),
    [
        ({"clok_seconds": 45}, "profile.clok_seconds"),
        ({"show_order": "loudest"}, "profile.show_order"),
        ({"clock_seconds": "soon"}, "profile.clock_seconds"),
        ({"dead_button": 1}, "profile.dead_button"),
        ({"rake_percent": -5}, "profile.rake_percent"),
        ({"name": "x"}, "profile.name"),
    ],
)
def test_profile_from_mapping_refuses_bad_keys_naming_them(overrides: dict[str, object], where: str) -> None:
    with pytest.raises(InputError) as err:
        profile_from_mapping("standard", overrides)
    assert err.value.where == where


def test_unknown_profile_name_is_refused() -> None:
    with pytest.raises(InputError) as err:
        get_profile("casino")
    assert "standard" in str(err.value)


def test_profile_json_form_round_trips() -> None:
    p = profile_from_mapping("house-pig", {"clock_seconds": 20})
    assert profile_from_dict(profile_to_dict(p)) == p
    with pytest.raises(InputError):
        profile_from_dict({**profile_to_dict(p), "extra": 1})


def test_profile_file_reads_base_and_overrides(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('base = "house-pig"\nclock_seconds = 40\nshow_order = "last-aggressor"\n')
    p = load_profile(f)
    assert (p.clock_seconds, p.show_order, p.misdeal_lock_actions) == (40, "last-aggressor", 2)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('base = "house-pig"\nclok = 40\n', "clok"),
        ('base = "nowhere"\n', "nowhere"),
        ("base = \n", "not valid TOML"),
        ('base = "standard"\nexposed_hole_card = "maybe"\n', "exposed_hole_card"),
    ],
)
def test_profile_file_errors_name_the_file_and_key(tmp_path: Path, text: str, fragment: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(InputError) as err:
        load_profile(f)
    assert fragment in str(err.value)


def test_profile_file_missing_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        load_profile(tmp_path / "none.toml")
    assert "cannot read" in str(err.value)
    assert profile_from_toml("").name == "standard"
