"""Wiring the hardware adapters to the runtime, as the config says.

Every device only *puts* observations on the runtime's queue (the shoe and the
buttons with :meth:`Runtime.put`, which waits rather than drop), reports its
problems as notices and its link state on the device board. A device that
cannot be opened is shown as failed on the dashboard; the table keeps running
on the dealer's tablet.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

from dealer_pi.config import Config
from dealer_pi.hardware.problems import Problem

from .engine_thread import Runtime

log = logging.getLogger("dealer_pi.attach")

Closer = Callable[[], None]

# The light shows the most serious open alert.
_SEVERITY = ("misdeal", "irregularity", "uncertain")


def pattern_for(alerts: list[dict[str, Any]]) -> str:
    """The alert-light pattern for the open alerts.

    >>> pattern_for([{"verdict": "uncertain"}, {"verdict": "irregularity"}])
    'irregularity'
    >>> pattern_for([{"verdict": "information"}]), pattern_for([])
    ('ok', 'ok')
    """
    verdicts = {a.get("verdict") for a in alerts}
    for v in _SEVERITY:
        if v in verdicts:
            return v
    return "ok"


def _problem_sink(runtime: Runtime) -> Callable[[Problem], None]:
    def sink(p: Problem) -> None:
        runtime.report(p.source, f"{p.reason.value}: {p.detail}", secret=p.secret)
    return sink


def attach_serial_shoe(runtime: Runtime, config: Config, base_dir: Path, port: str = "") -> Closer:
    from dealer_pi.hardware.deck import DeckRegistration
    from dealer_pi.hardware.serial_shoe import LinkState, SerialShoe

    sc = config.shoe
    registration = None
    if sc.deck_registration:
        path = Path(sc.deck_registration)
        registration = DeckRegistration.load(path if path.is_absolute() else base_dir / path)
    board = runtime.devices
    board.update("shoe", kind=sc.kind, connected=False, state="starting", detail="")

    def on_state(state: LinkState, why: str) -> None:
        board.update("shoe", state=state.value, connected=state is LinkState.CONNECTED, detail=why)

    shoe = SerialShoe(
        port or sc.port, usb_vid=sc.usb_vid, usb_pid=sc.usb_pid, baud=sc.baud, registration=registration,
        on_observation=runtime.put, on_problem=_problem_sink(runtime), on_state=on_state,
        heartbeat_timeout_ms=sc.heartbeat_timeout_ms, resend_timeout_ms=sc.resend_timeout_ms,
        backoff_s=(0.2, sc.reconnect_max_s),
    ).start()
    return shoe.stop


def attach_gpio_shoe(runtime: Runtime, config: Config, pin_factory: Any = None) -> Closer:
    from dealer_pi.hardware.gpio_shoe import BeamTiming, GpioShoe

    g = config.gpio
    shoe = GpioShoe(
        g.beam_pin, pin_factory=pin_factory,
        timing=BeamTiming(g.min_card_ms, g.max_card_ms, g.min_gap_ms, g.stuck_ms),
        blocked_low=g.beam_blocked_low, on_observation=runtime.put, on_problem=_problem_sink(runtime),
    )
    runtime.devices.update("shoe", kind="gpio", connected=True, state="connected", detail=f"beam on GPIO{g.beam_pin}")
    return shoe.close


def attach_controls(runtime: Runtime, config: Config, pin_factory: Any = None) -> list[Closer]:
    """Dealer buttons and the alert light/buzzer, when the config says they are fitted."""
    from dealer_pi.hardware.controls import AlertSignals, DealerButtons

    g = config.gpio
    closers: list[Closer] = []
    if g.buttons:
        buttons = DealerButtons(
            new_hand=g.button_new_hand, misdeal=g.button_misdeal, confirm=g.button_confirm, pin_factory=pin_factory,
            on_observation=runtime.put, on_problem=_problem_sink(runtime), open_alert=runtime.newest_open_alert,
            debounce_ms=g.button_debounce_ms, misdeal_hold_ms=g.misdeal_hold_ms,
        )
        runtime.devices.update("buttons", present=True, pins=[g.button_new_hand, g.button_misdeal, g.button_confirm])
        closers.append(buttons.close)
    if g.led_kind != "none" or g.buzzer_kind != "none":
        signals = AlertSignals(
            red=g.led_red, green=g.led_green, blue=g.led_blue, buzzer=g.buzzer,
            led_kind=g.led_kind, buzzer_kind=g.buzzer_kind, pin_factory=pin_factory,
        )

        def mirror(alerts: list[dict[str, Any]]) -> None:
            pattern = pattern_for(alerts)
            signals.show(pattern)
            runtime.devices.update("light", present=True, pattern=pattern)

        runtime.on_alerts = mirror
        mirror(runtime.open_alerts())
        closers.append(signals.close)
    return closers


def attach_devices(runtime: Runtime, config: Config, base_dir: Path, pin_factory: Any = None) -> list[Closer]:
    """Everything the config names; a device that fails to open is reported, not fatal."""
    closers: list[Closer] = []
    kind = config.shoe.kind
    try:
        if kind in ("serial",):
            closers.append(attach_serial_shoe(runtime, config, base_dir))
        elif kind == "gpio":
            closers.append(attach_gpio_shoe(runtime, config, pin_factory))
        elif kind == "none":
            runtime.devices.update("shoe", kind="none", connected=False, state="none", detail="no shoe fitted")
    except Exception as exc:  # gpiozero/pyserial raise many kinds; the dashboard must say which device
        log.error("shoe: %s", exc)
        runtime.devices.update("shoe", kind=kind, connected=False, state="failed", detail=str(exc))
    try:
        closers += attach_controls(runtime, config, pin_factory)
    except Exception as exc:
        log.error("buttons/light: %s", exc)
        runtime.devices.update("buttons", present=False, state="failed", detail=str(exc))
    if config.camera.source != "none":
        try:
            closers.append(attach_camera(runtime, config, base_dir))
        except Exception as exc:
            log.error("camera: %s", exc)
            runtime.devices.update("camera", source=config.camera.source, fps=0.0, calibration="none",
                                   state="failed", detail=str(exc))
    else:
        runtime.devices.update("camera", source="none", fps=0.0, calibration="none")
    return closers


def attach_camera(
    runtime: Runtime, config: Config, base_dir: Path | None = None, *, source: Any = None, zones: Any = None,
    emit: bool = True, label: str = "", on_observation: Callable[[Any], None] | None = None,
) -> Closer:
    """Camera -> vision pipeline -> the engine queue, frames dropped rather than ever blocking.

    The pipeline is the one ``[camera]`` describes (:func:`~dealer_pi.vision.pipeline.pipeline_from_config`,
    its files found from ``base_dir``). ``source`` replaces the configured camera (the demo's
    rendered table). Until the table's markers are seen cards are found but no observation is
    made, and the dashboard says why; a camera that moves later is reported. ``emit=False``
    runs the pipeline for its status only; ``on_observation`` also gets every observation made.
    """
    import threading

    from dealer_pi.vision.examples import ExampleStore, examples_dir
    from dealer_pi.vision.pipeline import pipeline_from_config
    from dealer_pi.vision.sources import open_source, pump

    from .teacher import TableTeacher

    c = config.camera
    pipeline, stage = pipeline_from_config(c, config.table.seats, base_dir, zones=zones)
    if emit:  # cards whose names become certain leave their pictures beside the journal
        runtime.teacher = TableTeacher(ExampleStore(examples_dir(runtime.journal_path)), pipeline.crops)
    device = c.device
    if c.source == "file" and base_dir is not None and not Path(device).expanduser().is_absolute():
        device = str(base_dir / device)  # a recording named in the config is found beside it
    src = source if source is not None else open_source(c.source, device, c.width, c.height, c.fps)
    stop = threading.Event()
    board = runtime.devices
    name = label or c.source

    def offer(obs: Any) -> None:
        if emit:
            runtime.offer(obs)  # dropped when the queue is half full: never blocks the camera
        if on_observation is not None:
            on_observation(obs)

    def status() -> None:
        while not stop.wait(1.0):
            stats = stage.stats()
            board.update(
                "camera", source=name, fps=stats["camera_fps"], vision_fps=stats["vision_fps"],
                dropped=int(stats["dropped"]), calibration=pipeline.calibration,
                cards_in_view=len(pipeline.last_cards), bad_frames=pipeline.bad_frames,
                still_frames=pipeline.gate.reused, part_frames=pipeline.part_frames, card_height_px=round(pipeline.detector.card_height_px, 1),
                picture=pipeline.picture, picture_detail=pipeline.picture_detail,
            )

    board.update("camera", source=name, fps=0.0, vision_fps=0.0, calibration=pipeline.calibration)
    pump(src, stage, stop)
    threads = [threading.Thread(target=pipeline.run, args=(stage, offer, stop), name="vision", daemon=True),
               threading.Thread(target=status, name="camera-status", daemon=True)]
    for t in threads:
        t.start()

    def close() -> None:
        stop.set()
        for t in threads:
            t.join(timeout=5)

    return close
