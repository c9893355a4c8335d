from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from shoe_helpers import Collector

from dealer_pi.hardware.serial_shoe import LinkState, SerialShoe
from dealer_pi.hardware.virtual_shoe import VirtualShoe


@pytest.fixture
def vshoe(tmp_path: Path) -> Iterator[VirtualShoe]:
    shoe = VirtualShoe(link=tmp_path / "shoe", heartbeat_s=0.2).start()
    yield shoe
    shoe.unplug()


@pytest.fixture
def host(vshoe: VirtualShoe) -> Iterator[tuple[SerialShoe, Collector]]:
    """A SerialShoe reading the virtual shoe; one collector gets observations, problems and states."""
    got = Collector()
    shoe = SerialShoe(vshoe.path, on_observation=got, on_problem=got, on_state=got,
                      resend_timeout_ms=2000, backoff_s=(0.05, 0.2))
    shoe.start()
    got.wait_for(lambda items: LinkState.CONNECTED in [i[0] for i in items if isinstance(i, tuple)])
    yield shoe, got
    shoe.stop()
