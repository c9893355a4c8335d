"""The rule catalogue (``docs/rules.md``), read for the people who look a rule ID up.

Every alert, refusal and remedy names a rule ID; the catalogue says what the
rule is and which seed rule documents it comes from. The file stays the one
source: its tables are parsed here, one rule per row.

>>> cat = parse_catalogue('''
... Seeds: `000` = Official rules (1-70), `002` = House rules.
...
... ## DEAL — dealing
...
... | ID | Rule | Sources |
... |---|---|---|
... | DEAL-BURN | One card is **burned** before the flop. | 002 §9.1, §10.1, 000 |
... ''')
>>> rule = cat.get("deal-burn")
>>> rule.text, rule.sources, rule.family
('One card is burned before the flop.', ('002 §9.1', '002 §10.1', '000'), 'DEAL — dealing')
>>> [s["title"] for s in cat.to_dict(rule)["sources"]]
['House rules', 'House rules', 'Official rules (1-70)']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from dealer_pi.resources import shipped

CATALOGUE = shipped("docs") / "rules.md"
ID_FORM = re.compile(r"^[A-Z]+(?:-[A-Z0-9]+)+$")
_ROW = re.compile(r"^\|\s*([A-Z]+(?:-[A-Z0-9]+)+)\s*\|(.*)\|(.*)\|\s*$")
_SEED = re.compile(r"`(\d{3})`\s*=\s*(.+?)(?=,\s*`\d{3}`\s*=|\.\s*$)")


@dataclass(frozen=True)
class Rule:
    id: str
    family: str  # the catalogue's heading: "DEAL — dealing procedure and the deck"
    text: str  # plain text (the file's **emphasis** marks taken off)
    sources: tuple[str, ...]  # "002 §14.5", each with its seed number first


@dataclass(frozen=True)
class Catalogue:
    rules: dict[str, Rule]
    seeds: dict[str, str]  # "002" -> the seed document's title

    def get(self, rule_id: str) -> Rule | None:
        return self.rules.get(rule_id.strip().upper())

    def to_dict(self, rule: Rule) -> dict[str, Any]:
        """The JSON form: sources each with the seed document they cite."""
        return {
            "id": rule.id, "family": rule.family, "text": rule.text,
            "sources": [{"ref": s, "seed": s[:3], "title": self.seeds.get(s[:3], "")} for s in rule.sources],
        }


def _sources(cell: str) -> tuple[str, ...]:
    """``"002 §9.1, §10.1, 000"`` -> each reference with its seed (a bare ``§`` takes the last one)."""
    out: list[str] = []
    seed = ""
    for part in (p.strip() for p in cell.split(",")):
        if not part:
            continue
        if part.startswith("§") and seed:
            part = f"{seed} {part}"
        seed = part[:3] if part[:3].isdigit() else seed
        out.append(part)
    return tuple(out)


def parse_catalogue(text: str, where: str = "docs/rules.md") -> Catalogue:
    """Every ``| ID | Rule | Sources |`` row under its ``##`` heading; a repeated ID is an error."""
    rules: dict[str, Rule] = {}
    family = ""
    paragraphs = (" ".join(line.strip() for line in block.splitlines()).strip() for block in text.split("\n\n"))
    seeds = {num: title.strip() for num, title in _SEED.findall(next((p for p in paragraphs if p.startswith("Seeds:")), ""))}
    for n, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            family = line[3:].strip()
            continue
        m = _ROW.match(line)
        if not m:
            continue
        rule_id, body, refs = m.group(1), m.group(2).strip(), m.group(3)
        if rule_id in rules:
            raise ValueError(f"{where}:{n}: {rule_id} is listed twice")
        rules[rule_id] = Rule(rule_id, family, body.replace("**", ""), _sources(refs))
    return Catalogue(rules, seeds)


@lru_cache(maxsize=4)
def load_catalogue(path: Path = CATALOGUE) -> Catalogue:
    """The catalogue in ``path`` (read once per process)."""
    return parse_catalogue(Path(path).read_text(encoding="utf-8"), where=str(path))
