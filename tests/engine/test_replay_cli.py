"""``dealer-pi replay`` and the PHH <-> engine bridge (issue 2: PHH import/export, the 15 real hands in tests/data/phh)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_pi.cli import main
from dealer_pi.engine.hand import Hand
from dealer_pi.engine.observations import ActionKind as A
from dealer_pi.engine.cards import parse_cards
from dealer_pi.engine.events import BoardDealt, CardBurned, HandKilled, HandShown, HoleCardsDealt, MisdealDeclared
from dealer_pi.engine.errors import InputError
from dealer_pi.engine.phh import parse_phh, to_phh
from dealer_pi.engine.phh_replay import hand_to_phh, replay_history, seat_numbers
from dealer_pi.engine.setup import Structure, blinds_setup

REPO = Path(__file__).resolve().parents[2]
WITH_FINISHING = [f"wsop-2023-43-{n}.phh" for n in (1, 2, 3, 4, 62, 63, 64, 65, 66, 67, 68)]
OTHER_VARIANTS = {"antonius-blom-2009.phh": "PO", "arieh-yockey-2019.phh": "F2L3D", "phua-xuan-2019.phh": "NS"}


def run_cli(capsys, *argv: str) -> tuple[int, str]:
    code = main(["replay", *argv])
    return code, capsys.readouterr().out


def test_the_test_data_holds_the_15_hands(phh_dir):
    names = sorted(p.name for p in phh_dir.glob("*.phh"))
    assert len(names) == 15
    assert set(WITH_FINISHING) | set(OTHER_VARIANTS) | {"dwan-ivey-2009.phh"} == set(names)


@pytest.mark.parametrize("name", WITH_FINISHING)
def test_real_hands_replay_to_their_finishing_stacks(phh_dir, name):
    h = parse_phh((phh_dir / name).read_text())
    r = replay_history(h)
    assert r.error == "" and r.complete
    assert r.final_stacks == h.finishing_stacks
    assert r.matches is True
    assert sum(r.final_stacks) == sum(h.starting_stacks)


def test_dwan_ivey_has_no_finishing_stacks_and_replays_like_pokerkit(phh_dir):
    pokerkit = pytest.importorskip("pokerkit")
    text = (phh_dir / "dwan-ivey-2009.phh").read_text()
    r = replay_history(parse_phh(text))
    assert r.matches is None and r.complete
    *_, last = pokerkit.HandHistory.loads(text)
    assert r.final_stacks == tuple(last.stacks) == (572100, 1997500, 1109500)


def test_cli_replays_every_file_and_reports_other_variants(phh_dir, capsys):
    files = sorted(str(p) for p in phh_dir.glob("*.phh"))
    code, out = run_cli(capsys, *files)
    assert code == 1  # three files are not Texas Hold'em
    for name in WITH_FINISHING:
        assert f"{name}: match [No-Limit Texas Hold'em, 5 players]" in out
    assert "dwan-ivey-2009.phh: not checked (no finishing_stacks)" in out
    for name, code_name in OTHER_VARIANTS.items():
        assert f"{name}: ERROR variant: '{code_name}'" in out
    assert "p2  Kristopher Tong      3575000 ->            0" in out  # hand 68: the bust-out
    assert out.rstrip().endswith("15 hand(s), 3 with a problem")


def test_cli_exit_zero_when_every_hand_matches(phh_dir, capsys):
    code, out = run_cli(capsys, *(str(phh_dir / n) for n in WITH_FINISHING))
    assert code == 0
    assert "MISMATCH" not in out and "ERROR" not in out


def test_cli_json_one_object_per_hand(phh_dir, capsys, tmp_path):
    missing = tmp_path / "missing.phh"
    code, out = run_cli(capsys, "--json", str(phh_dir / "wsop-2023-43-68.phh"), str(missing))
    assert code == 1
    first, second = [json.loads(line) for line in out.splitlines()]
    assert first["ok"] is True and first["match"] is True and first["complete"] is True
    assert first["final_stacks"] == first["finishing_stacks"] == [2200000, 0, 2675000, 3125000, 21700000]
    assert first["players"][4] == "Brian Rast" and first["variant"] == "NT"
    assert second["ok"] is False and second["file"] == str(missing)
    assert second["error"] == "no such file"


def test_cli_a_missing_file_is_named_as_missing_not_counted_as_a_hand(phh_dir, tmp_path, capsys):
    missing = tmp_path / "missing.phh"
    code = main(["replay", str(missing)])
    out, err = capsys.readouterr()
    assert code == 1
    assert out == ""  # no "1 hand(s), 1 with a problem": there was no hand
    assert f"{missing}: no such file" in err
    assert "1 of 1 file(s) could not be read" in err

    code = main(["replay", str(missing), str(phh_dir / "wsop-2023-43-1.phh"), str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.rstrip().endswith("1 hand(s), 0 with a problem")
    assert f"{tmp_path}: is a folder" in err and "2 of 3 file(s) could not be read" in err


def _edited(phh_dir: Path, tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (phh_dir / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return path


def test_cli_mismatch_names_the_player_and_keeps_going(phh_dir, tmp_path, capsys):
    bad = _edited(phh_dir, tmp_path, "wsop-2023-43-1.phh", "finishing_stacks = [7340000, 3775000",
                  "finishing_stacks = [7340000, 3775001")
    good = phh_dir / "wsop-2023-43-2.phh"
    code, out = run_cli(capsys, str(bad), str(good))
    assert code == 1
    assert f"{bad}: MISMATCH" in out
    assert "3775000   expected 3775001" in out
    assert "wsop-2023-43-2.phh: match" in out


def test_cli_engine_refusal_names_the_action_and_the_rule(phh_dir, tmp_path, capsys):
    # BET-NL-MIN: raising 80,000 to 100,000 is short of the 160,000 minimum.
    bad = _edited(phh_dir, tmp_path, "wsop-2023-43-1.phh", "'p4 cbr 170000'", "'p4 cbr 100000'")
    code, out = run_cli(capsys, str(bad))
    assert code == 1
    assert "actions[6]: 'p4 cbr 100000': [BET-NL-MIN] the smallest raise is to 160000" in out


def test_cli_out_of_turn_action_is_refused(phh_dir, tmp_path, capsys):
    bad = _edited(phh_dir, tmp_path, "wsop-2023-43-1.phh", "'p3 f', 'p4 cbr 170000'", "'p4 cbr 170000', 'p3 f'")
    code, out = run_cli(capsys, "--json", str(bad))
    record = json.loads(out)
    assert code == 1 and record["ok"] is False
    assert record["error"].startswith("actions[5]: 'p4 cbr 170000': [BET-OUT-OF-TURN]")


def test_cli_malformed_files_say_where(tmp_path, capsys):
    syntax = tmp_path / "syntax.phh"
    syntax.write_text('variant = "NT"\nantes = [0, 0\n')
    player = tmp_path / "player.phh"
    player.write_text('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
                      'starting_stacks = [10, 10]\nactions = ["d dh p1 AcKd", "p9 cc"]\n')
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"\xff\xfe\x00variant")
    code, out = run_cli(capsys, str(syntax), str(player), str(binary))
    assert code == 1
    assert f"{syntax}: ERROR toml: Unclosed array" in out
    assert f"{player}: ERROR actions[1]: 'p9 cc': there is no player 9" in out
    assert f"{binary}: ERROR cannot read the file" in out
    assert "3 hand(s), 3 with a problem" in out


def test_cli_reads_phhs_files_with_several_hands(phh_dir, tmp_path, capsys):
    hands = [(phh_dir / n).read_text() for n in ("wsop-2023-43-62.phh", "wsop-2023-43-63.phh")]
    text = "".join(f"[{k}]\n{t}\n" for k, t in enumerate(hands, start=1)) + "[3]\nvariant = 'PO'\n"
    path = tmp_path / "day5.phhs"
    path.write_text(text)
    code, out = run_cli(capsys, str(path))
    assert code == 1
    assert f"{path}[1]: match" in out and f"{path}[2]: match" in out
    assert f"{path}[3]: ERROR [3].variant" in out


def test_cli_entry_point_runs_as_a_program(phh_dir):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "dealer_pi", "replay", "--json", str(phh_dir / "wsop-2023-43-3.phh")],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["match"] is True


# -- engine hand -> PHH -> replay ---------------------------------------------


def _played_hand() -> Hand:
    setup = blinds_setup({2: 500, 4: 300, 7: 800, 9: 120}, button=9, small_blind=5, big_blind=10, ante=1)
    h = Hand.start(setup)
    for seat, cards in ((2, "AhKh"), (4, "QcQd"), (7, "7s2d"), (9, "9c9d")):
        h.apply(HoleCardsDealt(seat, tuple(parse_cards(cards))))
    h.act(7, A.FOLD).act(9, A.RAISE, 40).act(2, A.RAISE, 120).act(4, A.ALL_IN).act(9, A.CALL).act(2, A.CALL)
    h.apply(CardBurned()).apply(BoardDealt(tuple(parse_cards("Kd7h2c"))))
    h.apply(BoardDealt(tuple(parse_cards("3s")))).apply(BoardDealt(tuple(parse_cards("Ks"))))
    for seat in (4, 9, 2):
        h.apply(HandShown(seat, ()))
    return h


def test_engine_hand_to_phh_round_trips_through_replay(tmp_path, capsys):
    h = _played_hand()
    assert h.state.is_complete
    history = hand_to_phh(h.entries)
    assert history.seats == (2, 4, 7, 9) and history.antes == (1, 1, 1, 1)
    assert history.blinds_or_straddles == (5, 10, 0, 0)
    assert seat_numbers(history) == (2, 4, 7, 9)
    text = to_phh(history)
    assert parse_phh(text) == history
    final = tuple(h.state.stack_of(s) for s in (2, 4, 7, 9))
    assert history.finishing_stacks == final
    r = replay_history(parse_phh(text))
    assert r.matches is True and r.final_stacks == final
    path = tmp_path / "hand.phh"
    path.write_text(text)
    code, out = run_cli(capsys, str(path))
    assert code == 0 and f"{path}: match" in out


def test_heads_up_and_limit_hands_round_trip():
    # Heads-up the button posts the small blind; PHH lists the forced bets reversed.
    setup = blinds_setup({3: 200, 8: 200}, button=8, small_blind=2, big_blind=4, structure=Structure.LIMIT)
    h = Hand.start(setup)
    h.apply(HoleCardsDealt(3, tuple(parse_cards("AsAd")))).apply(HoleCardsDealt(8, tuple(parse_cards("KsKd"))))
    h.act(8, A.RAISE, 8).act(3, A.RAISE, 12).act(8, A.CALL)
    for cards in ("2c7d9h", "Jc", "3d"):
        h.apply(BoardDealt(tuple(parse_cards(cards))))
        while h.state.seat_to_act is not None:
            h.act(h.state.seat_to_act, A.CALL)
    h.apply(HandShown(8, ())).apply(HandShown(3, ()))
    assert h.state.is_complete
    history = hand_to_phh(h.entries)
    assert history.variant == "FT" and history.small_bet == 4 and history.big_bet == 8
    assert history.blinds_or_straddles == (2, 4)  # p1 = seat 3 posts the big blind
    r = replay_history(parse_phh(to_phh(history)))
    assert r.matches is True and r.final_stacks == (h.state.stack_of(3), h.state.stack_of(8))


def test_killed_hand_is_written_as_a_dead_fold_and_read_back():
    setup = blinds_setup({1: 100, 2: 100, 3: 100}, button=3, small_blind=1, big_blind=2)
    h = Hand.start(setup)
    for seat, cards in ((1, "AcKd"), (2, "7h2c"), (3, "QsQh")):
        h.apply(HoleCardsDealt(seat, tuple(parse_cards(cards))))
    h.apply(HandKilled(1, "TABLE-AWAY")).act(3, A.RAISE, 6).act(2, A.FOLD)
    history = hand_to_phh(h.entries)
    assert "p1 f # killed TABLE-AWAY" in to_phh(history)
    r = replay_history(parse_phh(to_phh(history)))
    assert r.matches is True and r.final_stacks == (99, 98, 103)


def test_a_misdeal_cannot_be_written_as_phh():
    h = Hand.start(blinds_setup({1: 100, 2: 100}, button=2, small_blind=1, big_blind=2))
    h.apply(MisdealDeclared())
    with pytest.raises(InputError, match=r"entries\[1\]: MisdealDeclared"):
        hand_to_phh(h.entries)


POT_LIMIT = """
variant = "PT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ["d dh p1 AcKd", "d dh p2 7h2c", "d dh p3 QsQh", "p3 cbr 7", "p1 cbr {raise_to}", "p2 f", "p3 cc",
           "d db Qd7s2d", "p1 cc", "p3 cbr 20", "p1 f"]
"""


def test_BET_PL_MAX_pot_limit_history_replays_and_an_over_pot_raise_is_refused():
    # Pot after p1 calls 7: 7 + 7 + 2 = 16, so p1 may raise to at most 7 + 16 = 23.
    ok = replay_history(parse_phh(POT_LIMIT.format(raise_to=23)))
    assert ok.error == "" and ok.complete
    assert ok.final_stacks == (177, 198, 225)
    over = replay_history(parse_phh(POT_LIMIT.format(raise_to=24)))
    assert over.failed_at == 4
    assert "[BET-PL-MAX] the largest raise is to 23" in over.error


SPLIT_HALVES = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [10000, 10111, 10111]
actions = ["d dh p1 2c3c", "d dh p2 AhKh", "d dh p3 AdKd", "p3 cc", "p1 f", "p2 cc",
           "d db 7s8s9d", "p2 cc", "p3 cc", "d db 2h", "p2 cc", "p3 cc", "d db 4c", "p2 cc", "p3 cc",
           "p2 sm AhKh", "p3 sm AdKd"]
finishing_stacks = [9999, 10111.5, 10111.5]
"""


def test_POT_ODD_CHIP_history_with_a_split_odd_chip_in_halves_replays_and_matches(tmp_path, capsys):
    """Published data sets share a split odd chip out in halves; the table gives it whole to the
    winner in the worst position (000 §13). The file is read, and the match says so."""
    h = parse_phh(SPLIT_HALVES)
    assert h.finishing_stacks == (9999, 10111.5, 10111.5)
    r = replay_history(h)
    assert r.final_stacks == (9999, 10112, 10111)
    assert r.matches is True and r.odd_chip_split and "split odd chip" in r.note
    assert parse_phh(to_phh(h)) == h  # the halves are written back as read
    path = tmp_path / "halves.phh"
    path.write_text(SPLIT_HALVES)
    code, out = run_cli(capsys, str(path))
    assert code == 0 and "match within the split odd chip" in out and "POT-ODD-CHIP" in out
    code, out = run_cli(capsys, "--json", str(path))
    record = json.loads(out)
    assert code == 0 and record["ok"] and record["match"] is True and "split odd chip" in record["match_note"]


@pytest.mark.parametrize(("finishing", "why"), [
    ("[9999, 10113.5, 10109.5]", "fractions off by more than the odd chip"),
    ("[9998, 10112.5, 10111.5]", "a whole stack that differs"),
])
def test_POT_ODD_CHIP_halves_do_not_hide_a_real_mismatch(finishing, why):
    r = replay_history(parse_phh(SPLIT_HALVES.replace("[9999, 10111.5, 10111.5]", finishing)))
    assert r.matches is False and not r.odd_chip_split and r.note == "", why


def test_fractions_are_refused_outside_the_results():
    with pytest.raises(InputError) as err:
        parse_phh(SPLIT_HALVES.replace("[10000, 10111, 10111]", "[10000, 10111.5, 10111]"))
    assert err.value.where == "starting_stacks[1]" and "whole number of chips" in err.value.message
