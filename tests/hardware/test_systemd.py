"""The Pi appliance: the systemd unit, `make install`, and the notify protocol on a real socket."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import uuid
from pathlib import Path

import pytest

from dealer_pi.config import load_config
from dealer_pi.hardware import sdnotify

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "dealer-pi.service"
PYTHON = shutil.which("python3") or "python3"


def settings(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", "[")):
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def make(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-s", *args], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=60)


def staged_unit(tmp_path: Path) -> Path:
    """The unit as `make install-units` writes it, for a prefix whose dealer-pi really exists."""
    prefix = tmp_path / "opt" / "dealer-pi"
    exe = prefix / "venv" / "bin" / "dealer-pi"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    units = tmp_path / "units"
    r = make("install-units", f"PREFIX={prefix}", f"UNITDIR={units}")
    assert r.returncode == 0, r.stderr
    return units / "dealer-pi.service"


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)


def test_unit_passes_systemd_analyze_verify_without_a_warning(tmp_path: Path) -> None:
    unit = staged_unit(tmp_path)
    # only the install prefix differs from the unit in the repository
    changed = [(a, b) for a, b in zip(UNIT.read_text().splitlines(), unit.read_text().splitlines()) if a != b]
    assert [a.split("=", 1)[0] for a, _ in changed] == ["Documentation", "ExecStartPre", "ExecStart"]
    r = verify(unit)
    out = r.stdout + r.stderr
    # Not one warning about our unit (a stock unit of the host system may grumble about itself).
    assert r.returncode == 0 and [line for line in out.splitlines() if "dealer-pi" in line] == [], out


def test_the_floor_unit_passes_systemd_analyze_verify_and_runs_the_floor(tmp_path: Path) -> None:
    unit = staged_unit(tmp_path).parent / "dealer-pi-floor.service"
    r = verify(unit)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and [line for line in out.splitlines() if "dealer-pi" in line] == [], out
    s = settings(unit.read_text())
    assert s["ExecStart"] == [f"{tmp_path}/opt/dealer-pi/venv/bin/dealer-pi floor --config /etc/dealer-pi/floor.toml"]
    assert s["User"] == ["dealer-pi"] and s["Restart"] == ["on-failure"] and s["ProtectSystem"] == ["strict"]
    assert s["StateDirectory"] == ["dealer-pi"]  # where docs/floor.md puts the floor's store


def test_verify_catches_a_broken_unit(tmp_path: Path) -> None:
    """The check above would notice a mistake: a misspelt key and a missing program."""
    unit = staged_unit(tmp_path)
    unit.write_text(unit.read_text().replace("ProtectSystem=strict", "ProtectSytem=strict"))
    r = verify(unit)
    assert "ProtectSytem" in r.stdout + r.stderr
    r = verify(UNIT)  # as in the repository: /opt/dealer-pi does not exist on this machine
    assert r.returncode != 0 and "is not executable" in r.stdout + r.stderr


def test_unit_is_a_watched_hardened_unprivileged_boot_service() -> None:
    s = settings(UNIT.read_text())
    assert s["Type"] == ["notify"] and s["NotifyAccess"] == ["main"]
    assert int(s["WatchdogSec"][0]) > 0 and s["Restart"] == ["on-failure"]
    assert s["WantedBy"] == ["multi-user.target"]
    assert s["User"] == ["dealer-pi"] and set(s["SupplementaryGroups"][0].split()) == {"gpio", "video", "dialout"}
    for key, value in [("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"), ("PrivateTmp", "yes"),
                       ("ProtectHome", "yes"), ("ProtectKernelModules", "yes"), ("CapabilityBoundingSet", "")]:
        assert s[key] == [value], key
    # these would close /dev/gpiochip*, the camera and the serial shoe to the service
    for key in ("PrivateDevices", "DeviceAllow", "ProtectClock", "DevicePolicy"):
        assert key not in s, key
    assert s["StateDirectory"] == ["dealer-pi"]
    assert "serve --config /etc/dealer-pi/config.toml" in s["ExecStart"][0]


def test_make_install_stages_units_and_a_valid_commented_config(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    r = make("install-units", "install-config", "install-enable", f"DESTDIR={dest}", f"PYTHON={PYTHON}")
    assert r.returncode == 0, r.stderr
    assert "not enabling anything" in r.stdout
    config = dest / "etc" / "dealer-pi" / "config.toml"
    assert (dest / "etc" / "systemd" / "system" / "dealer-pi.service").is_file()
    assert oct(config.stat().st_mode & 0o777) == "0o640"
    text = config.read_text()
    assert sum("#" in line for line in text.splitlines()) > 30  # commented for the person editing it on the Pi
    loaded = load_config(config)
    assert len(loaded.web.dealer_token) >= 24 and len(loaded.web.producer_token) >= 24
    assert loaded.web.dealer_token != loaded.web.producer_token
    # an existing config is never overwritten
    config.write_text(text + "# edited by the house\n")
    r = make("install-config", f"DESTDIR={dest}", f"PYTHON={PYTHON}")
    assert r.returncode == 0 and "keeping" in r.stdout
    assert config.read_text().endswith("# edited by the house\n")


def test_make_install_plan_on_a_pi() -> None:
    r = make("-n", "install")
    assert r.returncode == 0, r.stderr
    plan = r.stdout
    assert "-m venv --system-site-packages /opt/dealer-pi/venv" in plan
    assert "useradd --system" in plan and "usermod -a -G gpio,video,dialout dealer-pi" in plan
    assert "systemctl enable dealer-pi.service" in plan
    assert plan.index("config.toml.new") < plan.index("check-config /etc/dealer-pi/config.toml") < plan.index(
        "systemctl enable")


# ---- sd_notify -----------------------------------------------------------------------------

def receive(sock: socket.socket) -> str:
    sock.settimeout(2)
    return sock.recv(4096).decode()


def test_sd_notify_on_a_path_socket(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(path)
        env = {"NOTIFY_SOCKET": path}
        assert sdnotify.ready("table open", env=env)
        assert receive(server) == "READY=1\nSTATUS=table open"
        assert sdnotify.watchdog(env=env)
        assert receive(server) == "WATCHDOG=1"
        assert sdnotify.stopping(env=env)
        assert receive(server) == "STOPPING=1"


def test_sd_notify_on_an_abstract_socket() -> None:
    name = f"dealer-pi-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(b"\0" + name.encode())
        assert sdnotify.status("shoe connected", env={"NOTIFY_SOCKET": "@" + name})
        assert receive(server) == "STATUS=shoe connected"


def test_sd_notify_never_raises_when_there_is_nobody_to_tell(tmp_path: Path) -> None:
    assert sdnotify.ready(env={}) is False
    assert sdnotify.watchdog(env={"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False
    assert sdnotify.watchdog(env={"NOTIFY_SOCKET": "vsock:2:1"}) is False


@pytest.mark.parametrize("usec, pid, expected", [
    ("20000000", None, 10.0), ("20000000", "self", 10.0), ("20000000", "1", None), ("0", None, None), ("x", None, None),
])
def test_watchdog_interval_is_half_of_watchdog_sec(usec: str, pid: str | None, expected: float | None) -> None:
    env = {"WATCHDOG_USEC": usec}
    if pid:
        env["WATCHDOG_PID"] = str(os.getpid()) if pid == "self" else pid
    assert sdnotify.watchdog_interval_s(env=env) == expected


def test_an_installed_package_finds_its_pages_model_and_rule_catalogue(tmp_path: Path) -> None:
    """What `make install-venv` installs: the package built as a wheel into a virtual environment (no
    checkout beside it), and `make install-share`'s copy of web/, models/ and docs/ in that venv."""
    import sys
    import sysconfig

    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    shutil.copytree(REPO / "dealer_pi", src / "dealer_pi", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(src)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    venv = tmp_path / "venv"
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # the test venv's libraries
    wheel = next(wheels.glob("dealer_pi-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, timeout=120)
    r = make("install-share", f"IVENV={venv}")
    assert r.returncode == 0, r.stderr
    probe = (
        "import json\n"
        "from dealer_pi.resources import shipped, CHECKOUT\n"
        "from dealer_pi.rule_catalogue import load_catalogue\n"
        "from dealer_pi.vision.recogniser import IndexModel\n"
        "from dealer_pi.web.app import WEB_DIR\n"
        "IndexModel.load()\n"
        "print(json.dumps({'checkout': str(CHECKOUT), 'web': str(WEB_DIR),\n"
        "  'dealer_page': (WEB_DIR / 'templates' / 'dealer.html').is_file(),\n"
        "  'rule': 'DEAL-BOARD-EXTRA' in load_catalogue().rules}))\n"
    )
    out = subprocess.run([str(venv / "bin" / "python"), "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert out.returncode == 0, out.stderr
    import json

    got = json.loads(out.stdout)
    assert got["checkout"] == str(site)  # the package runs from the venv, not from this repository
    assert got["web"] == str(venv / "share" / "dealer-pi" / "web") and got["dealer_page"] and got["rule"]
