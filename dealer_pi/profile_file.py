"""Rule profiles from a TOML file: a shipped profile with single options overridden.

The file names its base profile and any options to change::

    base = "house-pig"          # standard | roberts | house-pig | online
    clock_seconds = 45          # BET-CLOCK
    show_order = "last-aggressor"  # POT-SHOW-ORDER

Unknown keys and bad values are refused with the key named (the engine's
:func:`profile_from_mapping` does the checking; this module only reads the file).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .engine.errors import InputError
from .engine.profiles import RuleProfile, get_profile, profile_from_mapping


def profile_from_toml(text: str, source: str = "profile") -> RuleProfile:
    """Read a profile file's text; errors name ``source`` and the key.

    >>> profile_from_toml('base = "online"\\nclock_seconds = 15').clock_seconds
    15
    >>> profile_from_toml('base = "online"\\nrake = 5', "house.toml")
    Traceback (most recent call last):
    ...
    dealer_pi.engine.errors.InputError: house.toml.rake: unknown option (known: ...)
    """
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(source, f"not valid TOML: {exc}") from None
    return profile_from_data(data, source)


def profile_from_data(data: Mapping[str, Any], source: str = "profile") -> RuleProfile:
    base = data.get("base", "standard")
    if not isinstance(base, str):
        raise InputError(f"{source}.base", "must be a profile name like 'standard'")
    get_profile(base)
    overrides = {k: v for k, v in data.items() if k != "base"}
    return profile_from_mapping(base, overrides, where=source)


def load_profile(path: str | Path) -> RuleProfile:
    """Read a profile file from disk; a missing or unreadable file is an :class:`InputError`."""
    base, overrides = read_profile_file(path)
    return profile_from_mapping(base, overrides, where=str(path))


def read_profile_file(path: str | Path) -> tuple[str, dict[str, Any]]:
    """A profile file as a table setup takes it: its base profile and the options it changes (checked)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(str(p), f"cannot read the profile file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(str(p), "the profile file is not UTF-8 text") from None
    profile_from_toml(text, str(p))
    data = tomllib.loads(text)
    return str(data.get("base", "standard")), {k: v for k, v in data.items() if k != "base"}
