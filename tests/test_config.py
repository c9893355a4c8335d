import pytest

from dealer_pi.config import Config, ConfigError, config_from_dict, load_config


def test_defaults_load_from_an_empty_file(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("")
    assert load_config(p) == Config()


def test_values_are_read(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[table]\nname = "Main"\nbig_blind = 20\n[web]\nport = 9000\n')
    cfg = load_config(p)
    assert cfg.table.name == "Main" and cfg.table.big_blind == 20 and cfg.web.port == 9000


def test_every_bad_key_is_named():
    with pytest.raises(ConfigError) as err:
        config_from_dict({"table": {"big_blind": "ten", "colour": "green"}, "cooler": {}, "web": {"port": True}})
    keys = [k for k, _ in err.value.problems]
    assert keys == ["table.big_blind", "table.colour", "cooler", "web.port"]
    assert "unknown key" in str(err.value)


def test_syntax_error_names_the_file(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("[table\n")
    with pytest.raises(ConfigError) as err:
        load_config(p)
    assert "broken.toml" in str(err.value)
