"""The dealer's answers to the camera's reads: ``/api/camera/reads``.

The camera's face-up reads that nothing else made certain (:mod:`dealer_pi.runtime.teacher`)
wait here for the dealer, with the picture the camera took: the dealer confirms the read or
says which card it really is, and the picture becomes a labelled example the reader learns
from (``dealer-pi vision enrol --from-journal``). Dealer token only; a card read at a seat is
listed only once that seat's hand was shown at showdown.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from dealer_pi.engine.cards import Card
from dealer_pi.engine.errors import InputError

from .auth import Roles

camera_reads = Blueprint("camera_reads", __name__)


def _teacher() -> object:
    ext = current_app.extensions["dealer_pi"]
    Roles.require(ext["roles"].role_of(request.headers, request.args), "dealer")
    return ext["runtime"].teacher


@camera_reads.get("/api/camera/reads")
def reads() -> Response:
    teacher = _teacher()
    return jsonify({"reads": teacher.reads() if teacher is not None else []})  # type: ignore[attr-defined]


@camera_reads.get("/api/camera/reads/<int:read_id>/picture")
def picture(read_id: int) -> Response:
    import cv2  # only a camera's picture needs OpenCV

    teacher = _teacher()
    if teacher is None:
        raise InputError("read", "no camera is attached")
    ok, data = cv2.imencode(".jpg", teacher.picture(read_id))  # type: ignore[attr-defined]
    return Response(data.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@camera_reads.post("/api/camera/reads/<int:read_id>")
def answer(read_id: int) -> Response:
    teacher = _teacher()
    if teacher is None:
        raise InputError("read", "no camera is attached")
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("card"), str):
        raise InputError("card", "send {\"card\": ...}: the card the picture shows, rank then suit as the board writes them (the read itself to confirm it)")
    card = Card.parse(data["card"], where="card")
    teacher.answer(read_id, card)  # type: ignore[attr-defined]
    return jsonify({"learned": True, "reads": teacher.reads()})  # type: ignore[attr-defined]
