"""A paho-mqtt client (callback API v2) set up from :class:`~.settings.Broker`: TLS, login, last will.

paho reconnects by itself (1 s, doubling to 30 s) once :meth:`start` has run;
messages are QoS 1 everywhere.
"""

from __future__ import annotations

import logging
import ssl
from typing import Any

import paho.mqtt.client as mqtt

from .settings import Broker

log = logging.getLogger("dealer_pi.floor.mqtt")
QOS = 1


def make_client(broker: Broker, client_id: str, *, will: tuple[str, bytes] | None = None) -> mqtt.Client:
    """A client for ``broker``; ``will``: (topic, payload) published retained if the link dies."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file or None, certfile=broker.cert_file or None,
                       keyfile=broker.key_file or None, cert_reqs=ssl.CERT_REQUIRED)
    if broker.username:
        client.username_pw_set(broker.username, broker.password or None)
    if will is not None:
        client.will_set(will[0], will[1], qos=QOS, retain=True)
    client.reconnect_delay_set(min_delay=1, max_delay=30)
    client.max_queued_messages_set(0)
    return client


def start(client: mqtt.Client, broker: Broker) -> None:
    """Connect in the background and keep reconnecting (the network loop runs on its own thread)."""
    client.connect_async(broker.host, broker.port, keepalive=broker.keepalive_s)
    client.loop_start()


def stop(client: mqtt.Client) -> None:
    try:
        client.disconnect()
    finally:
        client.loop_stop()


def failed(reason_code: Any) -> bool:
    """Whether a connect/disconnect reason code is a failure (paho gives a ReasonCode object)."""
    return bool(getattr(reason_code, "is_failure", False))
