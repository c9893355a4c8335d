"""The rule catalogue on the web: ``/rules`` (the page) and ``/api/rules[/ID]`` (JSON).

The tablet opens an alert's rule here with one tap; anyone may read it (rules
are public), though an unknown token is refused as everywhere else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request
from werkzeug.exceptions import NotFound

from dealer_pi.engine.errors import InputError
from dealer_pi.rule_catalogue import CATALOGUE, ID_FORM, Catalogue, load_catalogue


def rules_blueprint(path: Path = CATALOGUE) -> Blueprint:
    bp = Blueprint("rules", __name__)

    def catalogue() -> Catalogue:
        current_app.extensions["dealer_pi"]["roles"].role_of(request.headers, request.args)
        try:
            return load_catalogue(path)
        except OSError as exc:
            raise NotFound(f"the rule catalogue is not installed ({path}: {exc.strerror})") from None

    def checked(rule_id: str) -> str:
        wanted = rule_id.strip().upper()
        if len(wanted) > 40 or not ID_FORM.match(wanted):
            raise InputError("rule", f"a rule ID looks like DEAL-BOARD-EXTRA, got {rule_id[:40]!r}")
        return wanted

    @bp.get("/api/rules")
    def all_rules() -> Response:
        cat = catalogue()
        return jsonify({"rules": [cat.to_dict(r) for r in cat.rules.values()], "seeds": cat.seeds})

    @bp.get("/api/rules/<rule_id>")
    def one_rule(rule_id: str) -> Response:
        cat = catalogue()
        wanted = checked(rule_id)
        rule = cat.get(wanted)
        if rule is None:
            raise NotFound(f"no rule {wanted} in the catalogue (docs/rules.md)")
        return jsonify(cat.to_dict(rule))

    @bp.get("/rules")
    def page() -> str:
        cat = catalogue()
        families: dict[str, list[dict[str, Any]]] = {}
        for r in cat.rules.values():
            families.setdefault(r.family, []).append(cat.to_dict(r))
        return render_template("rules.html", page="rules", families=families, seeds=cat.seeds)

    @bp.get("/rules/<rule_id>")
    def page_at(rule_id: str) -> Any:
        return redirect(f"/rules#{checked(rule_id)}")

    return bp
