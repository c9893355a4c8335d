"""Sub-commands of ``dealer-pi``.

Each module here defines ``NAME``, ``HELP``, ``configure(parser)`` and
``run(args) -> int``; :mod:`dealer_pi.cli` finds them, so adding a command
never touches a shared list.
"""
