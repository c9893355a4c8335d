"""The OpenAPI file against the real server: every documented POST has example bodies, each example
fits its documented schema and the server accepts it; bodies the schema refuses, the server refuses.

So the spec cannot promise a body shape the server rejects (or miss one it needs) without a test failing.
"""

from __future__ import annotations

import re
from typing import Any

import live_helpers as H
import pytest

_TYPES = {"object": dict, "array": list, "string": str, "number": (int, float), "boolean": bool, "null": type(None)}


def schema_errors(value: Any, schema: dict[str, Any], where: str = "body") -> list[str]:
    """What is wrong with ``value`` under the JSON-Schema subset the spec uses (empty: it fits)."""
    out: list[str] = []
    if "oneOf" in schema:
        if sum(not schema_errors(value, s, where) for s in schema["oneOf"]) != 1:
            out.append(f"{where}: matches not exactly one of oneOf")
        return out
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]

        def fits(k: str) -> bool:
            if k == "integer":
                return isinstance(value, int) and not isinstance(value, bool)
            if k == "number":
                return isinstance(value, (int, float)) and not isinstance(value, bool)
            return isinstance(value, _TYPES[k])

        if not any(fits(k) for k in kinds):
            return [f"{where}: not of type {kinds}"]
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: {value!r} not in {schema['enum']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{where}: below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{where}: above {schema['maximum']}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            out.append(f"{where}: not above {schema['exclusiveMinimum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            out.append(f"{where}: wrong number of items")
        for i, v in enumerate(value):
            out += schema_errors(v, schema.get("items", {}), f"{where}[{i}]")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += [f"{where}.{k}: required" for k in schema.get("required", []) if k not in value]
        for k, v in value.items():
            pattern = schema.get("propertyNames", {}).get("pattern")
            if pattern and not re.search(pattern, k):
                out.append(f"{where}.{k}: name does not match {pattern}")
            if k in props:
                out += schema_errors(v, props[k], f"{where}.{k}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{where}.{k}: not a documented field")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += schema_errors(v, schema["additionalProperties"], f"{where}.{k}")
    return out


def _post_bodies(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    out = []
    for path, ops in spec["paths"].items():
        if "post" not in ops:
            continue
        media = ops["post"]["requestBody"]["content"]["application/json"]
        assert media.get("examples"), f"POST {path}: no example bodies documented"
        for name, ex in media["examples"].items():
            out.append((path, name, ex["value"], media["schema"]))
    return out


def test_every_documented_POST_example_fits_its_schema_and_the_server_accepts_it(live: Any) -> None:
    spec = live.get("/api/openapi.json").json
    bodies = _post_bodies(spec)
    assert {p for p, *_ in bodies} == {p for p, ops in spec["paths"].items() if "post" in ops}
    for path, name, value, schema in bodies:
        assert schema_errors(value, schema) == [], (path, name)
        if "{" in path:
            continue  # a path naming one item (a camera read): tests/runtime/test_teacher.py posts it
        url = path + ("?void_hand=1" if path == "/api/setup" else "")
        r = live.post(value, path=url)
        # 200, or 409: understood, then refused by the rules for the table's state (nothing changed).
        # Never 400: the server's own validation must take every documented example.
        assert r.status_code == 200 or (r.status_code == 409 and r.json["error"]["kind"] == "rule"), (path, name, r.json)
        if path == "/api/setup":  # back to the table the observation examples are written for
            assert live.post(H.SETUP, path="/api/setup?void_hand=1").status_code == 200


# Bodies the spec refuses, each with the field the server names when it refuses it too.
REFUSED = [
    ("/api/setup", dict(H.SETUP, seats={"1": {"name": "Ann", "stack": 1000}, "2": {"name": "Bob", "stack": 1000}}),
     "setup.seats.1"),
    ("/api/setup", dict(H.SETUP, seats={"1": 1000, "11": 1000}), "setup.seats.11"),
    ("/api/setup", dict(H.SETUP, seats={"1": 1000, "2": -5}), "setup.seats.2"),
    ("/api/setup", dict(H.SETUP, rake=5), "setup.rake"),
    ("/api/setup", dict(H.SETUP, blinds=[5]), "setup.blinds"),
    ("/api/setup", dict(H.SETUP, structure="spread-limit"), "setup.structure"),
    ("/api/observations", {"type": "action", "seat": 11, "action": "fold"}, "observation.seat"),
    ("/api/observations", {"type": "action", "seat": 1, "action": "limp"}, "observation.action"),
    ("/api/observations", {"type": "chips", "seat": 1, "amount": 100, "declared": "shove"}, "observation.declared"),
    ("/api/observations", {"type": "teleport"}, "observation.type"),
    ("/api/clock", {"action": "rewind"}, "body.action"),
    ("/api/clock", {"action": "set_level", "level": 0}, "body.level"),
]


@pytest.mark.parametrize("path, value, where", REFUSED, ids=[f"{p}:{w}" for p, _, w in REFUSED])
def test_a_body_the_spec_refuses_is_refused_by_the_server_naming_the_field(live: Any, path: str, value: Any, where: str) -> None:
    spec = live.get("/api/openapi.json").json
    schema = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema_errors(value, schema) != []
    r = live.post(value, path=path + ("?void_hand=1" if path == "/api/setup" else ""))
    assert r.status_code == 400 and r.json["error"]["where"] == where, r.json
