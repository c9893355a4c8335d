"""Where the files that ship beside the package live: the web pages, the card reader's model, the
rule catalogue.

In a checkout (``make demo``, ``make test``, an editable install) they are the repository's own
``web/``, ``models/`` and ``docs/``. ``make install`` installs the package into a virtual
environment, where the package's folder has no such neighbours, and copies those folders to
``<venv>/share/dealer-pi/`` (:func:`shipped` looks there).
"""

from __future__ import annotations

import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
INSTALLED = Path(sys.prefix) / "share" / "dealer-pi"


def shipped(name: str) -> Path:
    """The shipped folder ``name`` (``web``, ``models`` or ``docs``): the checkout's when this
    package runs from one, else the installed copy."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / name).is_dir():
        return CHECKOUT / name
    return INSTALLED / name
