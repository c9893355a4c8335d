"""Adapters that turn the physical table into observations.

Every adapter here reports through the same two callbacks: ``on_observation``
receives :mod:`dealer_pi.engine.observations` objects (the runtime passes its
queue's ``put``), ``on_problem`` receives :class:`~dealer_pi.hardware.problems.Problem`
(bad input, a lost frame, a sensor fault) so that nothing goes wrong silently.
GPIO devices take an injected gpiozero pin factory; the serial shoe takes a
port path (or finds one) and runs its own reader thread.
"""
