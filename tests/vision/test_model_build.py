"""The model builder runs from generated pictures and the shipped photo rows, reproducibly; bad model files are refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dealer_pi.vision.recogniser import DEFAULT_MODEL, Enrolment, IndexModel, ModelError

REPO = Path(__file__).resolve().parents[2]


def build(out: Path) -> None:
    subprocess.run(
        [sys.executable, str(REPO / "models" / "make_index_model.py"), "--scenes", "25", "--epochs", "2", "--photo-limit", "1500", "--out", str(out)],
        check=True,
        capture_output=True,
        timeout=120,
        cwd=REPO,
    )


def test_builder_is_reproducible(tmp_path):
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    build(a)
    build(b)
    ma, mb = IndexModel.load(a), IndexModel.load(b)
    assert np.array_equal(ma.rank.w1, mb.rank.w1) and np.array_equal(ma.suit.w2, mb.suit.w2)


def test_shipped_model_is_small_and_loads():
    assert DEFAULT_MODEL.stat().st_size < 1_000_000
    IndexModel.load()


def test_bad_model_and_enrolment_files_refused(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"nope")
    with pytest.raises(ModelError, match="cannot load"):
        IndexModel.load(junk)
    np.savez(tmp_path / "e.npz", rows=np.zeros((2, 5)), labels=np.array([0, 99]))
    with pytest.raises(ModelError, match="do not match"):
        Enrolment.load(tmp_path / "e.npz")
