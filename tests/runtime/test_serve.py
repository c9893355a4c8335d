"""``dealer-pi serve`` refuses a bad config by naming the key, before anything starts."""

from __future__ import annotations

from pathlib import Path

from dealer_pi.cli import main


def test_serve_names_the_bad_key_and_exits(tmp_path: Path, capsys) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('[web]\nstream_delay = 30\n')
    assert main(["serve", "--config", str(cfg)]) == 2
    assert "web.stream_delay: unknown key" in capsys.readouterr().err
    assert not (tmp_path / "dealer-pi.sqlite3").exists()  # no journal was created


def test_serve_refuses_the_same_token_for_dealer_and_producer(tmp_path: Path, capsys) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('[web]\ndealer_token = "same"\nproducer_token = "same"\nport = 0\n[journal]\npath = "j.sqlite3"\n')
    assert main(["serve", "--config", str(cfg)]) == 2
    assert "must differ" in capsys.readouterr().err
