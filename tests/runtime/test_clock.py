"""The table clock (TABLE-LEVELS) and the shot clock (BET-CLOCK)."""

from __future__ import annotations

import pytest

from dealer_pi.engine.errors import InputError
from dealer_pi.runtime.clock import TableClock, check_command

LEVELS = [{"small_blind": 5, "big_blind": 10, "minutes": 10}, {"small_blind": 10, "big_blind": 20, "ante": 2, "minutes": 10},
          {"small_blind": 25, "big_blind": 50, "minutes": 15}]
MIN = 60_000


def clock() -> TableClock:
    c = TableClock()
    c.apply(check_command({"action": "set_levels", "levels": LEVELS}), 0)
    return c


def test_TABLE_LEVELS_levels_roll_over_while_running_and_hold_while_paused() -> None:
    c = clock()
    assert c.view(5 * MIN)["running"] is False and c.view(5 * MIN)["remaining_ms"] == 10 * MIN
    c.apply({"action": "start"}, 0)
    assert c.view(25 * MIN)["level"] == 3 and c.view(25 * MIN)["remaining_ms"] == 10 * MIN
    c.apply({"action": "pause"}, 25 * MIN)
    assert c.view(90 * MIN)["remaining_ms"] == 10 * MIN
    c.apply({"action": "resume"}, 90 * MIN)
    assert c.view(95 * MIN)["remaining_ms"] == 5 * MIN
    # The last level never ends by itself.
    assert c.view(500 * MIN)["level"] == 3 and c.view(500 * MIN)["remaining_ms"] == 0


def test_TABLE_LEVELS_next_previous_and_set_level_restart_the_level() -> None:
    c = clock()
    c.apply({"action": "start"}, 0)
    c.apply({"action": "next"}, 3 * MIN)
    v = c.view(4 * MIN)
    assert v["level"] == 2 and v["remaining_ms"] == 9 * MIN and v["current"]["ante"] == 2 and v["next"]["big_blind"] == 50
    c.apply({"action": "previous"}, 4 * MIN)
    assert c.view(4 * MIN)["level"] == 1
    c.apply(check_command({"action": "set_level", "level": 3}), 4 * MIN)
    assert c.view(4 * MIN)["next"] is None
    c.apply({"action": "next"}, 4 * MIN)  # nothing after the last level
    assert c.view(4 * MIN)["level"] == 3


def test_BET_CLOCK_shot_clock_counts_down_and_stops() -> None:
    c = clock()
    c.apply(check_command({"action": "shot_clock", "seat": 4}), 1000)
    assert c.view(11_000)["shot_clock"] == {"seat": 4, "seconds": 30, "ends_at_ms": 31_000, "remaining_ms": 20_000}
    c.apply({"action": "shot_clock_stop"}, 12_000)
    assert c.view(12_000)["shot_clock"] is None


@pytest.mark.parametrize("body, where", [
    ({}, "body.action"),
    ({"action": "explode"}, "body.action"),
    ({"action": "set_levels"}, "body.levels"),
    ({"action": "set_levels", "levels": [{"small_blind": 5, "minutes": 1}]}, "body.levels[0].big_blind"),
    ({"action": "set_levels", "levels": [{"small_blind": 50, "big_blind": 10, "minutes": 1}]}, "body.levels[0].small_blind"),
    ({"action": "set_levels", "levels": [{"small_blind": 5, "big_blind": 10, "minutes": 0}]}, "body.levels[0].minutes"),
    ({"action": "set_levels", "levels": [{"small_blind": 5, "big_blind": 10, "minutes": 1, "colour": "red"}]}, "body.levels[0].colour"),
    ({"action": "set_level", "level": "two"}, "body.level"),
    ({"action": "shot_clock", "seconds": 0}, "body.seconds"),
    ({"action": "pause", "level": 2}, "body.level"),
])
def test_clock_commands_are_checked_and_name_the_field(body: dict, where: str) -> None:
    with pytest.raises(InputError) as exc:
        check_command(body)
    assert exc.value.where == where


def test_TABLE_LEVELS_an_ante_only_level_is_accepted_and_a_level_with_nothing_to_play_for_is_not() -> None:
    c = TableClock()
    c.apply(check_command({"action": "set_levels", "levels": [
        {"small_blind": 0, "big_blind": 0, "ante": 25, "minutes": 20}, *LEVELS]}), 0)
    assert c.view(0)["current"]["big_blind"] == 0 and c.view(0)["current"]["ante"] == 25
    with pytest.raises(InputError) as err:
        check_command({"action": "set_levels", "levels": [{"small_blind": 0, "big_blind": 0, "minutes": 20}]})
    assert err.value.where == "body.levels[0].big_blind" and "ante-only" in err.value.message
    with pytest.raises(InputError) as err:
        check_command({"action": "set_levels", "levels": [{"small_blind": 5, "big_blind": 0, "ante": 5, "minutes": 20}]})
    assert err.value.where == "body.levels[0].small_blind"
