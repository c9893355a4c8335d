"""The printed decks' fonts (``models/decks.py``): the SVG designs print their indices as text in
fonts they name, and what a machine draws for those names moved the held-out figures by a fifth.
They are pinned by ``models/fonts.conf``, checked with the real fontconfig, and faces drawn in
other fonts are not used."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision_helpers import models_script


@pytest.fixture()
def decks():
    module = models_script("decks")
    module._fresh.cache_clear()
    yield module
    module._fresh.cache_clear()


def test_the_designs_fonts_resolve_to_the_pinned_fonts(decks):
    assert decks.pinned_fonts() == "Arial as Liberation Sans; Bitstream Vera Sans as DejaVu Sans"
    assert decks.pinned_fonts(decks.BARE) == "Arial as DejaVu Sans; Bitstream Vera Sans as DejaVu Sans"


def test_a_font_the_machine_lacks_is_named_in_the_error(decks, tmp_path):
    lacking = decks.Fonts(decks.FAITHFUL.conf, (("Arial", "No Such Sans"),), tmp_path)
    with pytest.raises(RuntimeError, match=r"Arial resolves to 'Liberation Sans', not 'No Such Sans'.*fonts-liberation"):
        decks.pinned_fonts(lacking)
    with pytest.raises(RuntimeError, match="No Such Sans"):
        decks._fresh(lacking)  # nothing is drawn


def _in(decks, cache: Path):
    return decks.Fonts(decks.FAITHFUL.conf, decks.FAITHFUL.pinned, cache)


def test_faces_drawn_in_other_fonts_are_drawn_again(decks, tmp_path):
    (tmp_path / "svg-7H.png").write_bytes(b"drawn with Arial as DejaVu Sans")
    (tmp_path / decks.FONTS_STAMP).write_text(decks.pinned_fonts(decks.BARE))
    decks._fresh(_in(decks, tmp_path))
    assert not (tmp_path / "svg-7H.png").exists()
    assert (tmp_path / decks.FONTS_STAMP).read_text() == decks.pinned_fonts()


def test_faces_drawn_in_the_pinned_fonts_are_kept(decks, tmp_path):
    (tmp_path / "svg-7H.png").write_bytes(b"a face")
    (tmp_path / decks.FONTS_STAMP).write_text(decks.pinned_fonts())
    decks._fresh(_in(decks, tmp_path))
    assert (tmp_path / "svg-7H.png").read_bytes() == b"a face"


def test_a_cache_drawn_before_the_fonts_were_pinned_is_drawn_again(decks, tmp_path):
    (tmp_path / "svg-7H.png").write_bytes(b"fonts unknown")
    decks._fresh(_in(decks, tmp_path))
    assert not (tmp_path / "svg-7H.png").exists()


def _drawn(decks, tmp_path: Path, family: str, fonts=None):
    """Two glyphs of SVG text in ``family``, drawn as the decks are (in ``fonts``, or the default)."""
    import cv2

    svg = tmp_path / f"{family.replace(' ', '_')}.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="80">'
                   f'<text x="8" y="60" style="font-family:{family};font-size:56px">Q7</text></svg>')
    png = tmp_path / f"{svg.stem}-{fonts.conf.stem if fonts else 'default'}.png"
    decks._svg_to_png(svg, png, 80, *([fonts] if fonts else []))
    return cv2.imread(str(png), cv2.IMREAD_UNCHANGED)


def test_a_designs_arial_index_is_drawn_in_liberation_sans(decks, tmp_path, monkeypatch):
    # The machine's own setup draws Arial as DejaVu Sans, as a bare Debian without fonts-liberation did.
    monkeypatch.setenv("FONTCONFIG_FILE", str(decks.BARE.conf))
    arial = _drawn(decks, tmp_path, "Arial")
    assert (arial[..., 3] > 0).sum() > 200  # something was drawn
    assert (arial == _drawn(decks, tmp_path, "Liberation Sans")).all()
    assert not (arial == _drawn(decks, tmp_path, "DejaVu Sans")).all()


def test_the_bare_rendering_draws_arial_as_dejavu_sans(decks, tmp_path):
    bare = _drawn(decks, tmp_path, "Arial", decks.BARE)
    assert (bare == _drawn(decks, tmp_path, "DejaVu Sans", decks.BARE)).all()
    assert not (bare == _drawn(decks, tmp_path, "Arial", decks.FAITHFUL)).all()
