"""A private Mosquitto on a free loopback port, with a generated config (tests, demo, benchmarks).

Debian's ``mosquitto`` package: ``apt-get install mosquitto`` (``make test``,
``make demo-floor`` and ``.ci/run`` install it when missing). Retained
messages persist across a restart (``persistence true``), as a production
broker should be set up too.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

CANDIDATES = ("/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto")


def find_mosquitto() -> str:
    """The mosquitto binary, or FileNotFoundError saying how to install it."""
    found = shutil.which("mosquitto") or next((c for c in CANDIDATES if os.access(c, os.X_OK)), None)
    if found is None:
        raise FileNotFoundError("no mosquitto broker found: install Debian's package (apt-get install mosquitto)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalBroker:
    """``start()`` it, use :attr:`url`, ``stop()`` / ``start()`` again on the same port."""

    def __init__(self, workdir: Path, port: int = 0, tls: tuple[Path, Path, Path] | None = None,
                 passwords: dict[str, str] | None = None) -> None:
        """``tls``: (CA, certificate, key) files for an mqtts:// listener; ``passwords``: user ->
        password, and nobody else may connect (a password file made by ``mosquitto_passwd``)."""
        self.tls = tls
        self.passwords = passwords
        self.dir = Path(workdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.conf = self.dir / "mosquitto.conf"
        self.log = self.dir / "mosquitto.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else None

    def _write_conf(self) -> None:
        lines = [f"listener {self.port} 127.0.0.1"]
        if self.tls:
            lines += [f"{k} {v}" for k, v in zip(("cafile", "certfile", "keyfile"), self.tls)]
        if os.geteuid() == 0:
            lines.append("user root")  # else it switches to its own account and cannot read its files here
        if self.passwords:
            lines.append(f"password_file {self._password_file()}")
        lines += [
            f"allow_anonymous {'false' if self.passwords else 'true'}", "persistence true",
            f"persistence_location {self.dir}/",
            # A floor catching up after an outage gets a burst: queue it rather than drop it.
            "max_queued_messages 1000000", "max_inflight_messages 100",
            f"log_dest file {self.log}", "log_type error", "log_type warning", "log_type notice",
        ]
        self.conf.write_text("\n".join(lines) + "\n")

    def _password_file(self) -> Path:
        path = self.dir / "passwords"
        path.write_text("")
        tool = shutil.which("mosquitto_passwd") or str(Path(find_mosquitto()).with_name("mosquitto_passwd"))
        for user, password in (self.passwords or {}).items():
            subprocess.run([tool, "-b", str(path), user, password], check=True, capture_output=True, timeout=30)
        path.chmod(0o600)
        return path

    def start(self, timeout: float = 10.0) -> LocalBroker:
        if self.pid is not None:
            return self
        self._write_conf()
        self.proc = subprocess.Popen([find_mosquitto(), "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = self.log.read_text(errors="replace")[-500:] if self.log.exists() else ""
                raise RuntimeError(f"mosquitto exited at once (port {self.port}): {tail}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout:g} s")

    def stop(self) -> None:
        """SIGTERM (the broker saves its retained messages), then wait."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.proc = None

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
