"""The ``dealer-pi`` command line.

Each module of :mod:`dealer_pi.commands` is one sub-command. Only the command
being run is imported: the list shown by ``dealer-pi --help`` is read from the
``NAME = "..."`` and ``HELP = "..."`` lines of the modules' source, so listing
the commands loads neither OpenCV, NumPy nor gpiozero, and a new command never
slows the others' start.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence

from dealer_pi.threads import one_blas_thread

one_blas_thread()  # before any command imports NumPy

from dealer_pi import __version__, commands  # noqa: E402

ALL = "*"  # build_parser(ALL): every command configured (the tests walk the whole tree)
# A plain string constant, no escapes: its text is what is between the quotes.
_CONSTANT = re.compile(r"^(NAME|HELP)\s*=\s*(?:\"([^\"\\\n]*)\"|'([^'\\\n]*)')\s*$", re.M)
Command = tuple[str, str, str]  # name, help, module (a plain tuple: typing alone costs ~5 ms at start)


def available() -> list[Command]:
    """Every sub-command, sorted by name, without importing any of them."""
    folder = commands.__path__[0]
    out: list[Command] = []
    for entry in sorted(os.listdir(folder)):
        if not entry.endswith(".py") or entry.startswith("_"):
            continue
        module = f"{commands.__name__}.{entry[:-3]}"
        with open(os.path.join(folder, entry), encoding="utf-8") as f:
            found = {k: a or b for k, a, b in _CONSTANT.findall(f.read())}
        if "NAME" not in found or "HELP" not in found:
            mod = importlib.import_module(module)  # written another way: ask the module itself
            found = {"NAME": mod.NAME, "HELP": mod.HELP}
        out.append((found["NAME"], found["HELP"], module))
    return sorted(out)


def _chosen(argv: Sequence[str]) -> str | None:
    """The sub-command named on the line: the first word that is not an option
    (the top-level options, --help and --version, take no value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(only: str | None = ALL) -> argparse.ArgumentParser:
    """The parser; sub-commands other than ``only`` are listed but not configured (nor imported)."""
    parser = argparse.ArgumentParser(prog="dealer-pi", description="Dealer assistant for live Texas Hold'em tables.")
    parser.add_argument("--version", action="version", version=f"dealer-pi {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, text, path in available():
        cmd = sub.add_parser(name, help=text, description=text)
        if only == ALL or only == name:
            module = importlib.import_module(path)
            module.configure(cmd)
            cmd.set_defaults(_run=module.run)
    return parser


def _utf8_stdout() -> None:
    """JSON and text go out as UTF-8 whatever the locale says (a remedy cites ``000 §39``)."""
    if (sys.stdout.encoding or "").lower().replace("-", "") != "utf8" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(only=_chosen(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return 2
    _utf8_stdout()
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        return 130
