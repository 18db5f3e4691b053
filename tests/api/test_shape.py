"""The output schemas shape /verify, /tally and backups (issue 12, item 3).

The answers are dumped by their schemas (``api.reports``), fast by ``api.shape.projection``,
and written as the service always wrote them; these tests pin that the projection is the
schema's dump, that every key of an answer is one the schema declares (and documents), and
the exact bytes: ``", "``/``": "`` separators, non-ASCII as is, no trailing newline.
"""

from __future__ import annotations

import json
from typing import Any

import marshmallow as ma
import pytest
from flask.testing import FlaskClient
from marshmallow import fields

from api.reports import FindingSchema, ReportSchema, TallySchema
from api.shape import json_text, projection
from scorepad import audit_sheet, load_sheet, tally_sheet

from .conftest import GroupRef, full_game, pad, pad_names, sheet


@pytest.mark.parametrize("name", pad_names())
def test_projection_is_the_schemas_dump(name: str) -> None:
    s = load_sheet(pad(name))
    report, tally = audit_sheet(s), tally_sheet(s)
    assert json.dumps(projection(ReportSchema)(report)) == json.dumps(ReportSchema().dump(report))
    assert json.dumps(projection(TallySchema)(tally)) == json.dumps(TallySchema().dump(tally))
    # the schemas keep all the core writes: nothing is left out
    assert ReportSchema().dump(report) == report.to_dict()
    assert TallySchema().dump(tally) == tally.to_dict()


def test_projection_refuses_fields_it_cannot_copy() -> None:
    class Dated(ma.Schema):
        when = fields.DateTime()

    class Outer(ma.Schema):
        inner = fields.List(fields.Nested(Dated))

    with pytest.raises(TypeError):
        projection(Outer)


def _declared(schema: ma.Schema, data: Any, path: str = "$") -> list[str]:
    """Paths in ``data`` that ``schema`` does not declare (following nested schemas)."""
    stray = [f"{path}.{k}" for k in data if k not in schema.dump_fields]
    for name, f in schema.dump_fields.items():
        value = data.get(name)
        if value is None:
            continue
        if isinstance(f, fields.Nested):
            stray += _declared(f.schema, value, f"{path}.{name}")
        elif isinstance(f, fields.List) and isinstance(f.inner, fields.Nested):
            for i, item in enumerate(value):
                if item is not None:
                    stray += _declared(f.inner.schema, item, f"{path}.{name}[{i}]")
        elif isinstance(f, fields.Dict) and isinstance(f.value_field, fields.List) \
                and isinstance(f.value_field.inner, fields.Nested):
            for k, items in value.items():
                for item in items:
                    if item is not None:
                        stray += _declared(f.value_field.inner.schema, item, f"{path}.{name}.{k}")
    return stray


def test_verify_and_tally_answers_are_exactly_the_schemas(client: FlaskClient) -> None:
    body = sheet(("Zoë", [full_game(), full_game(aces=4)]), ("Ann", [full_game(yahtzee=50)]))
    r = client.post("/api/v1/verify", json=body)
    text = r.get_data(as_text=True)
    assert r.status_code == 200 and r.mimetype == "application/json"
    report = audit_sheet(load_sheet(body))
    assert text == json.dumps(report.to_dict(), ensure_ascii=False)
    assert '"Zoë"' in text and not text.endswith("\n") and '{"rule_set": {"name": ' in text
    assert report.findings and _declared(ReportSchema(), r.json) == []
    r = client.post("/api/v1/tally?rules=classic", json=body)
    tally = tally_sheet(load_sheet(body), rules="classic")
    assert r.get_data(as_text=True) == json_text(tally.to_dict())
    assert _declared(TallySchema(), r.json) == []


def test_backup_is_written_by_its_schema(client: FlaskClient) -> None:
    g = GroupRef(client, "Café")
    m = g.post_match({"sheet": sheet(("Zoë", [full_game()])), "place": "Köln"})
    r = g.get("/backup")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.headers["Content-Disposition"] == f'attachment; filename="scorepad-{g.id}.json"'
    data: Any = r.json
    assert r.get_data(as_text=True) == json.dumps(data, ensure_ascii=False)
    assert list(data) == ["format", "exported_at", "group", "matches"]
    assert data["exported_at"].endswith("+00:00") and "." not in data["exported_at"]
    (match,) = data["matches"]
    assert match["id"] == m["id"] and list(match["versions"][0]) == [
        "version", "played_on", "place", "note", "reason", "rule_set", "players", "audit_ok",
        "created_at", "sheet"]
    assert match["versions"][0]["place"] == "Köln"


def test_openapi_documents_the_answers(client: FlaskClient) -> None:
    spec: Any = client.get("/openapi.json").json
    schemas = spec["components"]["schemas"]
    ok = spec["paths"]["/api/v1/verify"]["post"]["responses"]["200"]["content"]
    # a Yahtzee sheet's Report, or a SCRABBLE or SORRY! sheet's (tests/api/test_games_http.py)
    assert {"$ref": "#/components/schemas/Report"} in ok["application/json"]["schema"]["anyOf"]
    report = schemas["Report"]["properties"]
    assert report["findings"]["items"] == {"$ref": "#/components/schemas/Finding"}
    assert report["games"]["items"] == {"$ref": "#/components/schemas/GameReport"}
    assert set(schemas["Finding"]["properties"]) == set(FindingSchema().dump_fields)
    assert "TOTAL_ARITHMETIC" in schemas["Finding"]["properties"]["code"]["enum"]
    assert set(schemas["Tally"]["properties"]) == set(TallySchema().dump_fields)
    assert set(schemas["RuleSet"]["properties"]) >= {"upper_bonus_threshold", "joker"}
    backup = spec["paths"]["/api/v1/groups/{group_id}/backup"]["get"]["responses"]["200"]
    assert backup["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Backup"}
